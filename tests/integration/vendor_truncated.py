#!/usr/bin/env -S python3 -S
# vendor_truncated.py - every capture of tests/fixtures/vendor/ cut short at
# several points (mid-line and at line ends): the import never crashes or
# hangs; when it refuses, the message names the tool and the file; when it
# imports, nothing in the model is healthier than in the whole capture, and
# the cut text's own words hold (vendor_corpus.py's properties).
# Usage: vendor_truncated.py RAIDBENCH VENDOR_DIR [NAME-FILTER...]
import glob
import json
import os
import subprocess
import sys
import tempfile

import vendor_corpus as vc

RB, ROOT, ONLY = sys.argv[1], sys.argv[2], sys.argv[3:]
BAD_END = {"failed", "offline"}


def run(tool, path):
    p = subprocess.run([RB, "devices", "--json", "--import", "%s:%s" % (tool, path)],
                       capture_output=True, text=True, timeout=30)
    return p


def entities(model):
    """(kind, controller, array, id) -> status, for everything with a status."""
    out = {}
    for c in model.get("controllers", []):
        if c.get("source") == "sysfs":
            continue
        cid = c.get("id")
        out[("ctrl", cid, None, None)] = c.get("status")
        for a in c.get("arrays", []):
            aid = a.get("id")
            out[("array", cid, aid, None)] = a.get("status")
            for ld in a.get("logical_drives", []):
                out[("ld", cid, aid, ld.get("id"))] = ld.get("status")
            for pd in a.get("physical_drives", []):
                out[("pd", cid, None, pd.get("id"))] = pd.get("status")
        for key in ("unassigned_drives", "passthrough_drives"):
            for pd in c.get(key, []):
                out[("pd", cid, None, pd.get("id"))] = pd.get("status")
    for m in model.get("md_arrays", []):
        out[("md", m.get("name"), None, None)] = m.get("status")
        for x in m.get("members", []):
            out[("member", m.get("name"), None, x.get("device"))] = x.get("role")
    return out


def healthier(full, cut):
    """What the cut shows better than the whole capture does."""
    errs = []
    fe, ce = entities(full), entities(cut)
    for k, was in fe.items():
        if k not in ce:
            continue
        now = ce[k]
        if k[0] == "member":
            if now == "spare" and was != "spare":
                errs.append("%s in %s: %s in the whole capture, spare when cut" % (k[3], k[1], was))
            continue
        if was in vc.NOT_OK and now == "ok":
            errs.append("%s %s: %s in the whole capture, ok when cut" % (k[0], k[1:], was))
        elif was in BAD_END and now not in BAD_END | {"unknown"}:
            errs.append("%s %s: %s in the whole capture, %s when cut" % (k[0], k[1:], was, now))
    return errs


def cut_points(data):
    """Byte offsets: mid-line fractions and line ends, never 0 or the whole."""
    n = len(data)
    pts = set()
    for i in range(1, 6):
        pts.add(n * i // 6)
    ends = [i + 1 for i, b in enumerate(data) if b == 0x0a and i + 1 < n]
    for i in range(1, 4):
        if ends:
            pts.add(ends[len(ends) * i // 4 - (1 if len(ends) * i // 4 else 0)])
    return sorted(p for p in pts if 0 < p < n)


def main():
    fails = checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in sorted(glob.glob(os.path.join(ROOT, "*", "*"))):
            name = os.path.relpath(cap, ROOT)
            if cap.endswith((".expect.json", ".md")) or os.path.isdir(cap):
                continue
            if ONLY and not any(o in name for o in ONLY):
                continue
            tool = vc.tool_of(name)
            if not tool:
                continue
            full = run(tool, cap)
            full_model = json.loads(full.stdout) if full.returncode == 0 else None
            data = open(cap, "rb").read()
            errs = []
            for at in cut_points(data):
                part = os.path.join(tmp, "cut%d_%s" % (at, os.path.basename(cap)))
                with open(part, "wb") as f:
                    f.write(data[:at])
                try:
                    p = run(tool, part)
                except subprocess.TimeoutExpired:
                    errs.append("cut at byte %d: hung" % at)
                    continue
                checks += 1
                if p.returncode < 0 or p.returncode > 2:
                    errs.append("cut at byte %d: exit %d %s" % (at, p.returncode, p.stderr[-200:]))
                elif p.returncode != 0:
                    msg = p.stderr.strip()
                    if os.path.basename(part) not in msg or tool.split("-")[0] not in msg:
                        errs.append("cut at byte %d: refusal names neither tool nor file: %r"
                                    % (at, msg))
                else:
                    model = json.loads(p.stdout)
                    text = data[:at].decode("utf-8", "replace")
                    own = (vc.property_md(text, model) if tool == "mdstat" else
                           vc.property_detail(text, model) if tool == "mdadm-detail" else
                           vc.property_any(tool, text, model))
                    errs += ["cut at byte %d: %s" % (at, e) for e in own]
                    # ssacli prints no end marker: cut at a line end, the text is a
                    # shorter listing that no longer holds the lines it lost
                    line_end = data[at - 1:at] == b"\n"
                    if full_model is not None and not (tool == "ssacli" and line_end):
                        errs += ["cut at byte %d: %s" % (at, e)
                                 for e in healthier(full_model, model)]
                os.unlink(part)
            if errs:
                fails += 1
                print("FAIL: %s: %s" % (name, "; ".join(errs[:4])))
            else:
                print("PASS: %s cut short" % name)
    print("# %d cut captures imported or refused, %d captures failed" % (checks, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
