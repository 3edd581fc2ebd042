#!/usr/bin/env -S python3 -S
"""seams_tools.py - no code outside a RAID tool's own files names the tool.

The tools and their names are read from the sources: every file in hw/ that
defines a `const struct raid_tool_ops` is a tool's file, and its .name,
binaries[] and aliases[] are the names to look for (case-insensitive, also
inside identifiers such as raidtool_<name>). A tool's own files are those in
hw/ whose name starts with one of its names (hw/<name>*.[ch]); md_sysfs.c is
the md reader of the tool that builds software RAID. Comments are not code
and are skipped. Allowed, each for the reason given:
  - hw/raidtool_registry.c and hw/raidtool_tools.h: the registry, the one
    list of the tools and their ops tables;
  - the body of a function called usage*() under tui/ and tui/**/scr_help.c:
    help text a person reads, which names the tools people type.
Prints each leak as file:line: text and exits 1 when there is one.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
DIRS = ("core", "hw", "tui")
REGISTRY = {"hw/raidtool_registry.c", "hw/raidtool_tools.h"}
HELP_FILES = re.compile(r"(^|/)scr_help\.c$")
# md_sysfs.c reads md arrays from sysfs for the software-RAID tool
EXTRA_OWN = {"hw/md_sysfs.c"}


def strip_comments(text):
    """The text with comments blanked (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_usage_bodies(text):
    """Blanks the bodies of usage*() functions (help text), keeping lines."""
    out = text
    for m in re.finditer(r"^[a-z][^\n;]*\busage\w*\([^)]*\)\s*\{", text, re.M):
        depth, j = 0, m.end() - 1
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        body = "".join(ch if ch == "\n" else " " for ch in out[m.end():j])
        out = out[:m.end()] + body + out[j:]
    return out


def sources():
    for d in DIRS:
        for base, _, files in os.walk(os.path.join(ROOT, d)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    p = os.path.join(base, f)
                    yield os.path.relpath(p, ROOT).replace(os.sep, "/")


def tools():
    """{tool name: [its names]} from the files defining an ops table."""
    found = {}
    for rel in sources():
        if not rel.startswith("hw/"):
            continue
        text = strip_comments(open(os.path.join(ROOT, rel), encoding="utf-8").read())
        m = re.search(r"const struct raid_tool_ops \w+ = \{(.*?)\n\};", text, re.S)
        if not m:
            continue
        name = re.search(r'\.name = "([^"]+)"', m.group(1)).group(1)
        names = {name}
        for arr in ("binaries", "aliases"):
            a = re.search(r"\b%s\[\] = \{([^}]*)\}" % arr, text)
            if a:
                names |= set(re.findall(r'"([^"]+)"', a.group(1)))
        found[name] = sorted(names, key=str.lower)
    return found


def main():
    tl = tools()
    if len(tl) < 2:
        print("FAIL: found only %s as RAID tools: the ops tables moved?" % sorted(tl))
        return 1
    names = sorted({n.lower() for v in tl.values() for n in v}, key=len, reverse=True)
    # the shortest stem of a name is what identifiers and file names carry
    stems = sorted({re.sub(r"\d+$", "", n) for n in names}, key=len, reverse=True)
    pat = re.compile("|".join(re.escape(s) for s in stems), re.I)
    own = tuple("hw/" + s for s in stems)
    leaks = []
    for rel in sources():
        low = rel.lower()
        if rel in REGISTRY or rel in EXTRA_OWN or low.startswith(own):
            continue
        if rel.startswith("tui/") and HELP_FILES.search(rel):
            continue
        text = strip_comments(open(os.path.join(ROOT, rel), encoding="utf-8").read())
        if rel.startswith("tui/"):
            text = blank_usage_bodies(text)
        for no, line in enumerate(text.split("\n"), 1):
            if pat.search(line):
                leaks.append("%s:%d: %s" % (rel, no, line.strip()))
    print("# tools: %s" % "; ".join("%s (%s)" % (k, ", ".join(v)) for k, v in sorted(tl.items())))
    for l in leaks:
        print(l)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
