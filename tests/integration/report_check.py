#!/usr/bin/env -S python3 -S
"""report_check.py - reads a raidbench report back and checks it against the
saved results it was made from (tests/integration/report.sh runs it).

The numbers are recomputed here from the JSON, independently of raidbench's
C code: phases are the job entries merged by (job name, group) as
core/results.c names them ("name#2" for a later group reusing a name).

  single RESULT.json REPORT.html      tables, time charts, histograms, identity
  compare REPORT.html A.json B.json.. the side-by-side bars, changes, best
  sweep REPORT.html A.json B.json..   the same across RAID levels
  csv RESULT.json REPORT.csv          the series rows add up to the totals
  svgdir DIR N                        N or more standalone SVG files, each XML
  safe REPORT.html TEXT...            nothing from the file became markup
  shot PNG W H                        a screenshot: size, non-blank regions
Exits 1 naming the first difference.
"""
import csv
import json
import math
import os
import struct
import sys
import zlib
import xml.etree.ElementTree as ET

XH = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
DIRS = ("read", "write", "trim")


def fail(msg):
    print("report_check: " + msg)
    sys.exit(1)


def close(a, b, rel=1e-6, abs_=1e-9):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def load(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return json.loads(text[text.index("{"):])


def phases(d):
    """{(label, ddir): {iops, bw, ios, p99, bins}} as core/results.c merges them."""
    seen, groups, out = {}, {}, {}
    for j in d["jobs"]:
        key = (j.get("groupid", 0), j["jobname"])
        if key not in seen:
            seen[key] = groups.get(j["jobname"], 0)
            groups[j["jobname"]] = seen[key] + 1
        k = seen[key]
        label = j["jobname"] + ("#%d" % (k + 1) if k else "")
        for dd in DIRS:
            o = j.get(dd)
            if not o or o.get("total_ios", 0) <= 0:
                continue
            p = out.setdefault((label, dd), {"iops": 0.0, "bw": 0.0, "ios": 0, "p99": -1.0,
                                             "bins": {}})
            p["iops"] += o["iops"]
            p["bw"] += o.get("bw_bytes", o.get("bw", 0) * 1024)
            p["ios"] += o["total_ios"]
            clat = o.get("clat_ns", {})
            p99 = clat.get("percentile", {}).get("99.000000", -1)
            p["p99"] = max(p["p99"], p99)
            for ns, c in clat.get("bins", {}).items():
                p["bins"][float(ns)] = p["bins"].get(float(ns), 0) + c
    return out


def parse(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s is not well-formed XHTML: %s" % (path, e))


def charts(root):
    return {s.get("data-title"): s for s in root.iter(SVG + "svg")}


def floats(s):
    return [float(v) for v in s.split()] if s else []


def check_line_geometry(svg, path):
    """Every drawn vertex lies where the chart's axes put its data-x/data-y value."""
    px, py, pw, ph = floats(svg.get("data-plot"))
    x0, x1 = float(svg.get("data-xmin")), float(svg.get("data-xmax"))
    y0, y1 = float(svg.get("data-ymin")), float(svg.get("data-ymax"))
    ylog = svg.get("data-ylog") == "1"
    xs, ys = floats(path.get("data-x")), floats(path.get("data-y"))
    pts = []
    for tok in path.get("d").replace("M", " M ").replace("L", " L ").split("M"):
        nums = [float(v) for v in tok.replace("L", " ").split()]
        pts += list(zip(nums[0::2], nums[1::2]))
    want = []
    for x, y in zip(xs, ys):
        if math.isnan(y) or (ylog and y <= 0):
            continue
        t = (math.log10(y) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)) if ylog \
            else (y - y0) / (y1 - y0)
        want.append((px + (x - x0) / (x1 - x0) * pw, py + ph - t * ph))
    if len(want) != len(pts):
        fail("%s / %s: %d vertices drawn for %d values" % (svg.get("data-title"),
             path.get("data-name"), len(pts), len(want)))
    for (a, b), (c, e) in zip(pts, want):
        if abs(a - c) > 0.05 or abs(b - e) > 0.05:
            fail("%s / %s: vertex (%g,%g) should be (%g,%g)" % (svg.get("data-title"),
                 path.get("data-name"), a, b, c, e))


def check_band(svg, name, xs, lo, hi):
    """The band under a line runs along the buckets' maxima and back along their minima."""
    px, py, pw, ph = floats(svg.get("data-plot"))
    x0, x1 = float(svg.get("data-xmin")), float(svg.get("data-xmax"))
    y0, y1 = float(svg.get("data-ymin")), float(svg.get("data-ymax"))
    band = [p for p in svg.iter(SVG + "path") if p.get("class") == "band" and p.get("data-name") == name]
    if len(band) != 1:
        fail("%s: %d bands for %r" % (svg.get("data-title"), len(band), name))
    want = []
    ok = [i for i in range(len(xs)) if not math.isnan(lo[i]) and not math.isnan(hi[i])]
    # one polygon per run of buckets that have both values
    runs, cur = [], []
    for i in range(len(xs)):
        if i in ok:
            cur.append(i)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    for r in runs:
        want += [(xs[i], hi[i]) for i in r] + [(xs[i], lo[i]) for i in reversed(r)]
    got = [float(v) for v in band[0].get("d").replace("M", " ").replace("L", " ").replace("Z", " ").split()]
    got = list(zip(got[0::2], got[1::2]))
    if len(got) != len(want):
        fail("%s %s: band has %d vertices, buckets want %d" % (svg.get("data-title"), name, len(got),
             len(want)))
    for (a, b), (x, y) in zip(got, want):
        ex, ey = px + (x - x0) / (x1 - x0) * pw, py + ph - (y - y0) / (y1 - y0) * ph
        if abs(a - ex) > 0.06 or abs(b - ey) > 0.06:
            fail("%s %s: band vertex (%g,%g) should be (%g,%g)" % (svg.get("data-title"), name,
                 a, b, ex, ey))


def series_values(sp, key):
    return [float("nan") if v is None else float(v) for v in sp[key]]


def check_single(res_path, html_path):
    d = load(res_path)
    root = parse(html_path)
    ph = phases(d)
    ch = charts(root)
    rows = {(r.get("data-phase"), r.get("data-ddir")): r
            for r in root.iter(XH + "tr") if r.get("class") == "phase"}
    for (label, dd), p in ph.items():
        r = rows.get((label, dd))
        if r is None:
            fail("no table row for phase %r %s" % (label, dd))
        cells = [c.get("data-v") for c in r.findall(XH + "td")][1:]
        iops, bw, p99, ios = float(cells[0]), float(cells[1]), cells[4], int(cells[6])
        if not close(iops, p["iops"]) or not close(bw, p["bw"]) or ios != p["ios"]:
            fail("%s %s: table says iops %g bw %g ios %d, the JSON %g %g %d" %
                 (label, dd, iops, bw, ios, p["iops"], p["bw"], p["ios"]))
        if p["p99"] >= 0 and not close(float(p99), float(p["p99"])):
            fail("%s %s: table p99 %s, JSON %g" % (label, dd, p99, p["p99"]))
        # the histogram: every I/O of the JSON's bins in the bucket that holds it
        if p["bins"]:
            h = ch.get("%s: %s latency histogram" % (label, dd))
            if h is None:
                fail("%s %s: no histogram chart" % (label, dd))
            bars = [(float(b.get("data-lo")), float(b.get("data-hi")), float(b.get("data-count")))
                    for b in h.iter(SVG + "rect") if b.get("class") == "bin"]
            if not close(sum(b[2] for b in bars), float(p["ios"])):
                fail("%s %s: histogram holds %g I/Os, the phase %d" %
                     (label, dd, sum(b[2] for b in bars), p["ios"]))
            for lo, hi, cnt in bars:
                want = sum(c for ns, c in p["bins"].items() if lo <= max(ns, 1) < hi)
                if not close(float(want), cnt):
                    fail("%s %s: bucket %g-%g has %g, the bins say %g" % (label, dd, lo, hi, cnt, want))
    series = d.get("raidbench", {}).get("series")
    if series is None:
        if "no per-interval series" not in ET.tostring(root, encoding="unicode"):
            fail("a result without series: the report does not say the series is missing")
        return
    for sp in series["phases"]:
        label, dd = sp["phase"], sp["ddir"]
        mids = [(a + b) / 2000 for a, b in zip(sp["t_start_ms"], sp["t_end_ms"])]
        if sum(sp["ios"]) != ph[(label, dd)]["ios"]:
            fail("%s %s: the series holds %d I/Os, the result %d" % (label, dd, sum(sp["ios"]),
                 ph[(label, dd)]["ios"]))
        for title, key, name in (("%s: IOPS over time", "iops_mean", dd),
                                 ("%s: bandwidth over time", "bw_bytes_mean", dd),
                                 ("%s: completion latency p50 / p99 / p99.9 (log)", "p50_ns_mean",
                                  dd + " p50"),
                                 ("%s: completion latency p50 / p99 / p99.9 (log)", "p99_ns_mean",
                                  dd + " p99"),
                                 ("%s: completion latency p50 / p99 / p99.9 (log)", "p99_9_ns_mean",
                                  dd + " p99.9")):
            svg = ch.get(title % label)
            if svg is None:
                fail("no chart %r" % (title % label))
            line = [p for p in svg.iter(SVG + "path") if p.get("class") == "line"
                    and p.get("data-name") == name]
            if len(line) != 1:
                fail("%r: %d lines named %r" % (title % label, len(line), name))
            got, want = floats(line[0].get("data-y")), series_values(sp, key)
            if len(got) != len(want) or not all(close(a, b) for a, b in zip(got, want)):
                fail("%r %s: drawn %s, saved %s" % (title % label, name, got[:5], want[:5]))
            if not all(close(a, b, abs_=1e-6) for a, b in zip(floats(line[0].get("data-x")), mids)):
                fail("%r %s: times differ from the saved buckets" % (title % label, name))
            check_line_geometry(svg, line[0])
            if key in ("iops_mean", "bw_bytes_mean"):
                base = key[:-5]
                check_band(svg, name, mids, series_values(sp, base + "_min"),
                           series_values(sp, base + "_max"))
        if series["devices"] and ch.get("%s: device utilisation" % label) is None:
            fail("%s: no device utilisation chart" % label)
    text = "".join(root.itertext())
    rb = d["raidbench"]
    for want in (rb.get("host"), rb.get("version"), rb.get("time"),
                 (rb.get("targets") or [{}])[0].get("controller")):
        if want and want not in text:
            fail("identity: %r is not in the report" % want)


def check_multi(html_path, results, sweep):
    root = parse(html_path)
    ch = charts(root)
    docs = [load(p) for p in results]
    phs = [phases(d) for d in docs]
    rows = []
    for p in phs:
        for k in p:
            if k not in rows:
                rows.append(k)
    text = "".join(root.itertext())
    if sweep and "RAID-level sweep" not in text:
        fail("a sweep's report does not say it is one")
    for label, dd in rows:
        title = "%s %s%s" % (label, dd, " across RAID levels" if sweep else "")
        svg = ch.get(title)
        if svg is None:
            fail("no bar chart %r" % title)
        bars = [b for b in svg.iter(SVG + "rect") if b.get("class") == "bar"]
        iops = [float(b.get("data-value")) for b in bars if b.get("data-group") == "IOPS"]
        mbs = [float(b.get("data-value")) for b in bars if b.get("data-group") == "MB/s"]
        want = [p[(label, dd)]["iops"] if (label, dd) in p else -1 for p in phs]
        wmb = [p[(label, dd)]["bw"] / 1e6 if (label, dd) in p else -1 for p in phs]
        if not all(close(a, b) for a, b in zip(iops, want)) or len(iops) != len(want):
            fail("%r: IOPS bars %s, the files %s" % (title, iops, want))
        if not all(close(a, b) for a, b in zip(mbs, wmb)):
            fail("%r: MB/s bars %s, the files %s" % (title, mbs, wmb))
        best = [b.get("data-best") == "1" for b in bars if b.get("data-group") == "IOPS"]
        if best.index(True) != want.index(max(want)):
            fail("%r: best IOPS marked on %d, highest is %d" % (title, best.index(True),
                 want.index(max(want))))
        items = [b.get("data-item") for b in bars if b.get("data-group") == "IOPS"]
        if sweep:
            levels = ["RAID " + d["raidbench"]["sweep"]["level"] for d in docs]
            if items != levels:
                fail("%r: bars for %s, the files are %s" % (title, items, levels))
        notes = [t.text for t in svg.iter(SVG + "text") if t.text and t.text.endswith("%")]
        for i in range(1, len(want)):
            if want[0] > 0 and want[i] >= 0:
                pct = "%+.1f%%" % ((want[i] - want[0]) / want[0] * 100)
                if pct not in notes:
                    fail("%r: change %s of file %d not shown (%s)" % (title, pct, i + 1, notes))


def check_csv(res_path, csv_path):
    d = load(res_path)
    ph = phases(d)
    sums = {}
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if r["kind"] == "phase":
            k = (r["name"], r["ddir"])
            sums[k] = sums.get(k, 0) + int(float(r["ios"]))
    for sp in d["raidbench"]["series"]["phases"]:
        k = (sp["phase"], sp["ddir"])
        if sums.get(k) != ph[k]["ios"]:
            fail("csv: %s holds %s I/Os, the result %d" % (k, sums.get(k), ph[k]["ios"]))
    n = sum(len(sp["ios"]) for sp in d["raidbench"]["series"]["phases"])
    if sum(1 for r in rows if r["kind"] == "phase") != n:
        fail("csv: %d phase rows for %d buckets" % (sum(1 for r in rows if r["kind"] == "phase"), n))


def check_svgdir(path, n):
    files = sorted(f for f in os.listdir(path) if f.endswith(".svg"))
    if len(files) < n:
        fail("%s: %d SVG files, expected at least %d" % (path, len(files), n))
    for f in files:
        try:
            root = ET.parse(os.path.join(path, f)).getroot()
        except ET.ParseError as e:
            fail("%s: not XML: %s" % (f, e))
        if root.tag != SVG + "svg":
            fail("%s: root is %s, not svg" % (f, root.tag))


def check_safe(html_path, texts):
    """Whatever the results file held stayed text: no script, no handlers, no loads."""
    root = parse(html_path)
    allowed = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "section",
               "details", "summary", "table", "tr", "th", "td", "div", "svg", "rect", "text",
               "line", "path", "circle"}
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag not in allowed:
            fail("element <%s> in the report" % tag)
        for a in el.attrib:
            name = a.split("}")[-1].lower()
            if name.startswith("on") or name in ("src", "href", "xlink:href", "style"):
                fail("attribute %s=%r on <%s>" % (name, el.attrib[a], tag))
    csp = [m for m in root.iter(XH + "meta") if m.get("http-equiv") == "Content-Security-Policy"]
    if not csp or "default-src 'none'" not in csp[0].get("content"):
        fail("no Content-Security-Policy forbidding loads")
    alltext = "".join(root.itertext()) + " ".join(
        v for el in root.iter() for v in el.attrib.values())
    for t in texts:
        if t not in alltext:
            fail("%r is not shown as text" % t)


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, with the stdlib only."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("%s: PNG depth %d colour type %d interlace %d not read here" % (path, depth, ctype,
             interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p_ = a + b - c
                pa, pb, pc = abs(p_ - a), abs(p_ - b), abs(p_ - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(0, w, 4)])
        prev = line
    return w, h, rows


def check_shot(png, w, h):
    pw, ph, rows = read_png(png)
    if (pw, ph) != (w, h):
        fail("%s is %dx%d, not %dx%d" % (png, pw, ph, w, h))
    strips, inked, coloured = 8, 0, 0
    for s in range(strips):
        px = [p for row in rows[s * h // strips:(s + 1) * h // strips:4] for p in row]
        dark = sum(1 for p in px if sum(p) < 600) / len(px)
        # the charts' read blue and write orange (#1f77b4, #ff7f0e)
        col = sum(1 for r, g, b in px if (abs(r - 31) < 40 and abs(g - 119) < 40 and b > 140) or
                  (r > 200 and 90 < g < 160 and b < 60)) / len(px)
        inked += dark > 0.002
        coloured += col > 0.001
    if inked < strips // 2:
        fail("%s: only %d of %d strips have anything drawn" % (png, inked, strips))
    if coloured < 2:
        fail("%s: chart colours in only %d of %d strips" % (png, coloured, strips))
    print("report_check: %s %dx%d, %d/%d strips drawn, %d with chart colours" %
          (png, w, h, inked, strips, coloured))


def main(a):
    if a[0] == "single":
        check_single(a[1], a[2])
    elif a[0] in ("compare", "sweep"):
        check_multi(a[1], a[2:], a[0] == "sweep")
    elif a[0] == "csv":
        check_csv(a[1], a[2])
    elif a[0] == "svgdir":
        check_svgdir(a[1], int(a[2]))
    elif a[0] == "safe":
        check_safe(a[1], a[2:])
    elif a[0] == "shot":
        check_shot(a[1], int(a[2]), int(a[3]))
    else:
        fail("unknown check " + a[0])


if __name__ == "__main__":
    main(sys.argv[1:])
