#!/usr/bin/env -S python3 -S
# vendor_corpus.py - every capture in tests/fixtures/vendor/ that has an
# expected model beside it (CAPTURE.expect.json) is imported with
# `raidbench devices --json --import TOOL:CAPTURE` and compared to it; then a
# property over the capture's own words: no health better than it says.
#
# An expect file: {"import": TOOL, "controllers": [...], "md_arrays": [...]}
# holds a subset of the model: objects compare key by key (keys left out are
# not checked), lists compare element by element and must be as long, a size
# written "~N" may differ from N by 0.5% (vendor sizes are rounded labels).
# {"import": TOOL, "error": "TEXT"} says the import must fail naming TEXT.
# The property is checked over every capture of the directory, with or
# without an expected model. Prints one "PASS: name" / "FAIL: name: why" line
# per check.
import glob
import json
import os
import re
import subprocess
import sys

RB = sys.argv[1]
ROOT = sys.argv[2]
only = sys.argv[3:]
NOT_OK = {"degraded", "rebuilding", "failed", "offline", "predictive_failure", "unknown",
          "initializing", "transforming", "erasing"}


def match(want, got, path):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return "%s: got %r, want an object" % (path, got)
        for k, v in want.items():
            if k not in got:
                return "%s.%s: missing" % (path, k)
            r = match(v, got[k], "%s.%s" % (path, k))
            if r:
                return r
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return "%s: got %d entries, want %d (%s)" % (
                path, len(got) if isinstance(got, list) else -1, len(want),
                json.dumps(got)[:300])
        for i, (w, g) in enumerate(zip(want, got)):
            r = match(w, g, "%s[%d]" % (path, i))
            if r:
                return r
        return None
    if isinstance(want, str) and want.startswith("~"):
        n = float(want[1:])
        if not isinstance(got, (int, float)) or abs(got - n) > n * 0.005:
            return "%s: got %r, want about %s" % (path, got, want[1:])
        return None
    if isinstance(want, float) and isinstance(got, (int, float)):
        return None if abs(want - got) < 1e-6 else "%s: got %r, want %r" % (path, got, want)
    if want != got:
        return "%s: got %r, want %r" % (path, got, want)
    return None


def statuses(model):
    """Every status in the vendor part of the model."""
    out = []

    def walk(o):
        if isinstance(o, dict):
            if "status" in o and isinstance(o["status"], str):
                out.append(o["status"])
            for k, v in o.items():
                if k != "block_devices":
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk({"controllers": [c for c in model.get("controllers", []) if c.get("source") != "sysfs"],
          "md_arrays": model.get("md_arrays", [])})
    return out


# Words with which a capture says something is not healthy, per tool (state
# fields only: storcli's JSON also names operations such as "Offline" policies).
BAD = {
    "storcli": re.compile(r"\b(Dgrd|Pdgd|OfLn|Offln|Rbld|UBad|Msng|Needs Attention)\b"),
    "megacli": re.compile(r"^\s*(State|Firmware state)\s*:\s*(Degraded|Partially Degraded|Offline|"
                          r"Failed|Rebuild|Unconfigured\(bad\))", re.M),
    "ssacli": re.compile(r"\b(Failed|Interim Recovery Mode|Recovering|Rebuilding|Predictive Failure|"
                         r"Ready for Rebuild)\b"),
}


def property_md(text, model):
    """mdstat: per array, [n/m] with m < n or (F) is never ok; a member
    without (S) is never spare, one with (F) is always faulty."""
    errs = []
    arrays = {m["name"]: m for m in model.get("md_arrays", [])}
    cur = None
    for line in text.splitlines():
        h = re.match(r"^\s*(md\w*)\s*:\s*(active|inactive)\s+(.*)$", line)
        if h:
            cur = arrays.get(h.group(1))
            if cur is None:
                errs.append("%s is in the capture, not in the model" % h.group(1))
                continue
            members = {d: r for d, r in
                       ((m["device"], m["role"]) for m in cur.get("members", []))}
            for tok in h.group(3).split():
                t = re.match(r"^([^\[\s]+)\[\d+\](.*)$", tok)
                if not t:
                    continue
                role = members.get(t.group(1))
                if "(F)" in t.group(2) and role != "faulty":
                    errs.append("%s in %s: (F) but role %r" % (t.group(1), cur["name"], role))
                if "(S)" not in t.group(2) and role == "spare":
                    errs.append("%s in %s: no (S) but role spare" % (t.group(1), cur["name"]))
                if "(F)" in t.group(2) and cur["status"] == "ok":
                    errs.append("%s: a faulty member, status ok" % cur["name"])
            continue
        d = re.search(r"\[(\d+)/(\d+)\]\s+\[([U_]+)\]", line)
        if d and cur is not None and (int(d.group(2)) < int(d.group(1)) or "_" in d.group(3)) \
                and cur["status"] == "ok":
            errs.append("%s: %s but status ok" % (cur["name"], d.group(0)))
    return errs


def property_detail(text, model):
    """Per array (a device may sit in a container and in its member array)."""
    errs = []
    arrays = {m["name"]: {x["device"]: x["role"] for x in m.get("members", [])}
              for m in model.get("md_arrays", [])}
    devs = {}
    for line in text.splitlines():
        h = re.match(r"^\s*/dev/(?:md/)?(\S+):\s*$", line)
        if h:
            devs = arrays.get(h.group(1), {})
            continue
        r = re.match(r"^\s*[\d-]+\s+\d+\s+\d+\s+\S+\s+(.*?)\s+/dev/(\S+)\s*$", line)
        if not r:
            continue
        words, dev = r.group(1), os.path.basename(r.group(2))
        if "active sync" in words and devs.get(dev) == "spare":
            errs.append("%s: active sync but role spare" % dev)
        if "faulty" in words and devs.get(dev) != "faulty":
            errs.append("%s: faulty but role %r" % (dev, devs.get(dev)))
    st = re.search(r"^\s*State : (.*)$", text, re.M)
    if st and re.search(r"degraded|FAILED|recovering|inactive", st.group(1)):
        if all(m["status"] == "ok" for m in model.get("md_arrays", [])):
            errs.append("State : %s but status ok" % st.group(1).strip())
    return errs


# storcli's text legends ("Onln=Online|Rbld=Rebuild|Dgrd=Degraded") name every state word
LEGEND = re.compile(r"^.*\w[=-]\w.*\|.*$", re.M)


def property_any(tool, text, model):
    """Vendor tools: a capture naming a bad state leaves something not ok."""
    if tool == "storcli":
        text = LEGEND.sub("", text)
    m = BAD[tool].search(text) if tool in BAD else None
    if m and not any(s in NOT_OK for s in statuses(model)):
        return ["the capture says %r, every status is ok" % m.group(0).strip()]
    return []


def main():
    fails = 0
    expects = sorted(glob.glob(os.path.join(ROOT, "*", "*.expect.json")))
    for exp in expects:
        stem = exp[:-len(".expect.json")]
        caps = [c for c in glob.glob(glob.escape(stem) + ".*")
                if not c.endswith(".expect.json") and c[len(stem):].count(".") == 1]
        name = os.path.relpath(stem, ROOT)
        if only and not any(o in name for o in only):
            continue
        if len(caps) != 1:
            print("FAIL: %s: %d captures for one expect file" % (name, len(caps)))
            fails += 1
            continue
        want = json.load(open(exp))
        text = open(caps[0], encoding="utf-8", errors="replace").read()
        p = subprocess.run([RB, "devices", "--json", "--import",
                            "%s:%s" % (want["import"], caps[0])],
                           capture_output=True, text=True, timeout=60)
        why = None
        if "error" in want:
            if p.returncode == 0:
                why = "imported, expected a refusal naming %r" % want["error"]
            elif want["error"] not in p.stderr or os.path.basename(caps[0]) not in p.stderr:
                why = "error %r does not name the file and %r" % (p.stderr.strip(), want["error"])
        elif p.returncode != 0:
            why = "refused: %s" % p.stderr.strip()
        else:
            got = json.loads(p.stdout)
            got["controllers"] = [c for c in got["controllers"] if c.get("source") != "sysfs"]
            why = match({k: v for k, v in want.items() if k not in ("import", "note")}, got, "")
            if not why:
                if want["import"] == "mdstat":
                    errs = property_md(text, got)
                elif want["import"] == "mdadm-detail":
                    errs = property_detail(text, got)
                else:
                    errs = property_any(want["import"], text, got)
                why = "; ".join(errs) if errs else None
        if why:
            fails += 1
            print("FAIL: %s: %s" % (name, why))
        else:
            print("PASS: %s" % name)
    # the property over every capture, those without an expected model too
    nprop = 0
    for cap in sorted(glob.glob(os.path.join(ROOT, "*", "*"))):
        name = os.path.relpath(cap, ROOT)
        if cap.endswith(".expect.json") or cap.endswith(".md") or os.path.isdir(cap):
            continue
        if only and not any(o in name for o in only):
            continue
        tool = tool_of(name)
        if not tool:
            continue
        p = subprocess.run([RB, "devices", "--json", "--import", "%s:%s" % (tool, cap)],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            continue	# refused: no health shown at all
        got = json.loads(p.stdout)
        got["controllers"] = [c for c in got["controllers"] if c.get("source") != "sysfs"]
        text = open(cap, encoding="utf-8", errors="replace").read()
        errs = (property_md(text, got) if tool == "mdstat" else
                property_detail(text, got) if tool == "mdadm-detail" else
                property_any(tool, text, got))
        nprop += 1
        if errs:
            fails += 1
            print("FAIL: health of %s: %s" % (name, "; ".join(errs)))
        else:
            print("PASS: health of %s" % name)
    print("# %d captures checked against their model, %d against their own words, %d failed"
          % (len(expects), nprop, fails))
    return 1 if fails else 0


def tool_of(name):
    d, f = name.split(os.sep, 1)
    if d == "mdadm":
        return "mdstat" if f.startswith("proc-mdstat") else "mdadm-detail"
    return {"ssacli": "ssacli", "storcli": "storcli", "megacli": "megacli"}.get(d)


if __name__ == "__main__":
    sys.exit(main())
