#!/usr/bin/env python3
"""benchstat.py - the arithmetic of `make bench`: turn one run's fio-format
JSON into numbers, and a file of numbers into the table and the bars.

  benchstat.py run TSV CASE TOOL ROUND JSON [TIMEFILE]
      appends IOPS, MB/s, CPU us per I/O from the JSON
      ((usr_cpu+sys_cpu)/100 * job_runtime_ms*1000 / total_ios, summed over
      jobs) and, given `/usr/bin/time -f '%U %S'` output, CPU us per I/O of
      the whole process (all threads, or fio's processes)
  benchstat.py add TSV CASE TOOL ROUND METRIC VALUE
      appends one number (rss_kb, records_per_s, seconds)
  benchstat.py threads TSV CASE TOOL ROUND -- COMMAND...
      runs COMMAND and, while it runs, reads /proc for the raidbench process
      under it every 0.1 s: appends the CPU seconds of its main thread (the
      UI's when the TUI runs), of the engine thread ("rb-engine", which
      samples the workers every 100 ms tick: ui_cpu_s, engine_cpu_s,
      engine_us_tick), and its peak RSS (VmHWM); exits with COMMAND's status
  benchstat.py note TSV CASE TEXT
      the case's title, or "n/a: why" when it could not run
  benchstat.py report TSV [MARKDOWN]
      prints the table and the bars; MARKDOWN also gets them as Markdown

The TSV has one row per number: case, tool, round, metric, value.

Ratios: "of medians" is median(A)/median(B). "paired" is the median of the
per-round ratios A_r/B_r; A_r and B_r ran back to back, so load that other
processes put on the machine for longer than one pair mostly cancels. The
bars use the paired ratio.
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

IO_METRICS = ("iops", "mbps", "cpu_us_io", "proc_cpu_us_io")
# the job CPU per I/O split in user and kernel time: a table of their own, not "other"
SPLIT_METRICS = ("usr_us_io", "sys_us_io")
LABELS = {"iops": "IOPS", "mbps": "MB/s", "cpu_us_io": "CPU us/IO (job)",
          "proc_cpu_us_io": "CPU us/IO (process)", "rss_kb": "max RSS KiB",
          "records_per_s": "records/s", "seconds": "seconds",
          "ui_cpu_s": "main (UI) thread CPU s", "engine_cpu_s": "engine thread CPU s",
          "engine_us_tick": "engine thread CPU us per 100 ms tick",
          "peak_rss_kb": "peak RSS KiB (VmHWM)", "usr_us_io": "user CPU us/IO (job)",
          "sys_us_io": "kernel CPU us/IO (job)",
          "ui_run_pct": "main (UI) thread CPU during the run, % of one CPU"}
# case -> (A, B): ratios are A/B; the default is raidbench/fio
PAIRS = {"d": ("tui", "headless"), "d2": ("tui", "headless"), "e": ("short", "long"),
         "f1": ("paced", "spin")}
TICK_S = 0.1    # the engine thread's sampling interval (core/run.c)
DEFAULT_PAIR = ("raidbench", "fio")


def load_json(path):
    # fio may print warnings before the JSON object; start at the first brace
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return json.loads(text[text.index("{"):])


def run_metrics(path, timefile=None):
    d = load_json(path)
    ios = bytes_ = 0
    runtime_ms = usr_pct = sys_pct = 0.0
    for j in d["jobs"]:
        for ddir in ("read", "write", "trim"):
            ios += j[ddir]["total_ios"]
            bytes_ += j[ddir]["io_bytes"]
        runtime_ms = max(runtime_ms, float(j["job_runtime"]))
        # usr/sys are % of one CPU over the job's runtime
        usr_pct += float(j["usr_cpu"])
        sys_pct += float(j["sys_cpu"])
    out = {}
    if not ios or not runtime_ms:
        return out
    out["iops"] = ios * 1000.0 / runtime_ms
    out["mbps"] = bytes_ / 1e6 * 1000.0 / runtime_ms
    out["cpu_us_io"] = (usr_pct + sys_pct) / 100.0 * runtime_ms * 1000.0 / ios
    # the same split in user and kernel time (the split table and the floor in the bars)
    out["usr_us_io"] = usr_pct / 100.0 * runtime_ms * 1000.0 / ios
    out["sys_us_io"] = sys_pct / 100.0 * runtime_ms * 1000.0 / ios
    if timefile:
        try:
            with open(timefile) as f:
                fields = f.read().split()
            out["proc_cpu_us_io"] = (float(fields[-2]) + float(fields[-1])) * 1e6 / ios
        except (OSError, ValueError, IndexError):
            pass
    return out


def _children(pid):
    out = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def _find_raidbench(pid):
    """the raidbench process at or under pid (wrappers: env, time)."""
    todo = [pid]
    while todo:
        p = todo.pop(0)
        try:
            with open("/proc/%d/comm" % p) as f:
                if f.read().strip() == "raidbench":
                    return p
        except OSError:
            continue
        todo += _children(p)
    return None


def _sample(pid, cpu, seen=None):
    """per thread id: (name, CPU seconds); returns VmHWM in KiB or None.
    seen, when given, gets the names of the threads there at this sample."""
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                    name = f.read().strip()
                # schedstat's first field: ns on the CPU (finer than stat's 10 ms ticks)
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    ns = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue
            cpu[int(tid)] = (name, ns / 1e9)
            if seen is not None:
                seen.add(name)
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def threads(tsv, case, tool, rnd, cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd)
    target, cpu, hwm = None, {}, None
    # the main thread's CPU while the run goes (its engine thread is there):
    # (CPU, time) at the first and the last such sample
    in_run = []
    while p.poll() is None:
        if target is None:
            target = _find_raidbench(p.pid)
        if target is not None:
            seen = set()
            h = _sample(target, cpu, seen)
            hwm = h if h is not None else hwm
            if "rb-engine" in seen:
                point = (cpu.get(target, ("", 0.0))[1], time.monotonic())
                in_run[1:] = [point] if in_run else []
                if not in_run:
                    in_run.append(point)
        time.sleep(0.1)
    wall = time.monotonic() - t0
    rows = []
    if target is not None and cpu:
        main = cpu.get(target, ("", 0.0))[1]
        engine = sum(c for n, c in cpu.values() if n == "rb-engine")
        rows += [(case, tool, rnd, "ui_cpu_s", "%.4g" % main),
                 (case, tool, rnd, "engine_cpu_s", "%.4g" % engine),
                 (case, tool, rnd, "engine_us_tick", "%.4g" % (engine * 1e6 / (wall / TICK_S)))]
        if len(in_run) == 2 and in_run[1][1] - in_run[0][1] >= 0.5:
            rows.append((case, tool, rnd, "ui_run_pct", "%.4g" % (
                100.0 * (in_run[1][0] - in_run[0][0]) / (in_run[1][1] - in_run[0][1]))))
    if hwm:
        rows.append((case, tool, rnd, "peak_rss_kb", str(hwm)))
    append(tsv, rows)
    return p.returncode


def append(tsv, rows):
    with open(tsv, "a") as f:
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


class Numbers:
    def __init__(self, tsv):
        self.v = {}          # (case, tool, metric) -> {round: value}
        self.notes = {}
        self.order = []      # cases in the order they ran
        with open(tsv) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) < 3:
                    continue
                if p[0] not in self.order:
                    self.order.append(p[0])
                if p[1] == "-note":
                    self.notes[p[0]] = p[2]
                elif len(p) == 5:
                    try:
                        self.v.setdefault((p[0], p[1], p[3]), {})[p[2]] = float(p[4])
                    except ValueError:
                        pass

    def all(self, case, tool, metric):
        return list(self.v.get((case, tool, metric), {}).values())

    def med(self, case, tool, metric):
        x = self.all(case, tool, metric)
        return statistics.median(x) if x else None

    def tools(self, case):
        pair = PAIRS.get(case, DEFAULT_PAIR)
        t = list(dict.fromkeys(k[1] for k in self.v if k[0] == case))
        return sorted(t, key=lambda x: pair.index(x) if x in pair else 9)

    def metrics(self, case, tool):
        return [m for (c, t, m) in self.v if c == case and t == tool]

    def paired(self, case, metric):
        """per-round A/B ratios for the case's pair."""
        a, b = PAIRS.get(case, DEFAULT_PAIR)
        va, vb = self.v.get((case, a, metric), {}), self.v.get((case, b, metric), {})
        return [va[r] / vb[r] for r in va if r in vb and vb[r]]

    def ratio_of_medians(self, case, metric):
        a, b = PAIRS.get(case, DEFAULT_PAIR)
        ma, mb = self.med(case, a, metric), self.med(case, b, metric)
        return ma / mb if ma is not None and mb else None


def si(x):
    if x is None:
        return "-"
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return "%.3g%s" % (x / div, suf)
    return "%.3g" % x


def num(x):
    if x is None:
        return "-"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3f" % x


def spread(xs, f):
    """median [min-max] or '-'."""
    if not xs:
        return "-"
    return "%s [%s-%s]" % (f(statistics.median(xs)), f(min(xs)), f(max(xs)))


def rx(r):
    return "-" if r is None else "%.3fx" % r


def rspread(xs):
    if not xs:
        return "-"
    return "%.3fx [%.2f-%.2f]" % (statistics.median(xs), min(xs), max(xs))


def median_interval(xs):
    """A 95% interval of the median of xs, free of any assumed distribution: the
    k-th smallest and k-th largest value, k the largest with P(Binomial(n, 1/2) < k)
    <= 2.5% (n = 10: 2nd and 9th; n = 16: 4th and 13th). None under 6 values."""
    n = len(xs)
    k, below = 0, 0.0
    while True:
        below += math.comb(n, k) / 2.0 ** n   # P(B <= k)
        if below > 0.025:
            break
        k += 1
    if k < 1:
        return None
    xs = sorted(xs)
    return xs[k - 1], xs[n - k]


def interval_note(xs, bar, higher_is_better=True):
    """', 95% interval of the median [a-b]' and, when the interval holds the bar,
    that this run cannot tell which side of it the tool is on."""
    ci = median_interval(xs)
    if ci is None:
        return ""
    lo, hi = ci
    note = "; 95%% interval of the median %.3f-%.3f" % (lo, hi)
    if lo < bar <= hi or lo <= bar < hi:
        note += " holds the bar (%g): this run's noise cannot tell the two apart" % bar
    return note


def fmt_for(m):
    return si if m in ("iops", "records_per_s") else num


def split_line(n, case, what):
    """(bar, measured, 'info'): the job CPU per I/O in user and kernel time, medians.

    With the same system calls per I/O, the kernel's part is about the same in
    both tools, and a bar on the total cannot go below fio's own kernel share:
    the line says how large that share is."""
    ru, rs = n.med(case, "raidbench", "usr_us_io"), n.med(case, "raidbench", "sys_us_io")
    fu, fs = n.med(case, "fio", "usr_us_io"), n.med(case, "fio", "sys_us_io")
    if None in (ru, rs, fu, fs) or not fu or not (fu + fs):
        return None
    room = 0.6 * (fu + fs) - rs    # what the bar leaves for user time after raidbench's kernel time
    return ("(b) %s: job CPU/IO split in user + kernel time (no bar)" % what,
            "raidbench %s + %s us, fio %s + %s us: user %s fio's, kernel %s fio's; fio's kernel "
            "time is %.0f%% of its CPU/IO, so a total of 0.6x needs %s; raidbench's kernel time "
            "alone is %s fio's CPU/IO, %s" % (
                num(ru), num(rs), num(fu), num(fs), rx(ru / fu), rx(rs / fs if fs else None),
                100.0 * fs / (fu + fs),
                "less kernel work per I/O than fio's" if fs / (fu + fs) > 0.6
                else "user time cut further" if ru + rs > 0.6 * (fu + fs) else "nothing more",
                rx(rs / (fu + fs)),
                "past the bar whatever user space does" if room <= 0 else
                "leaving %s us per I/O of user time under the bar (now %s)" % (num(room), num(ru))),
            "info")


def bars(n):
    """[(bar, measured, verdict)]; verdict PASS, FAIL, info or n/a."""
    out = []

    def missing(case):
        note = n.notes.get(case, "")
        return note if note.startswith("n/a") else "not measured"

    def pmed(case, metric):
        x = n.paired(case, metric)
        return statistics.median(x) if x else None

    for case, what in (("a1", "null 4k randread QD32"), ("a2", "null 4k randread QD1")):
        r = pmed(case, "iops")
        if r is None:
            out.append(("(a) %s: IOPS >= 1.0x fio" % what, missing(case), "n/a"))
            continue
        out.append(("(a) %s: IOPS >= 1.0x fio (aim 1.5x)" % what,
                    "%s (aim %s)" % (rx(r), "met" if r >= 1.5 else "not met"),
                    "PASS" if r >= 1.0 else "FAIL"))
    for case, what in (("b1", "libaio 4k randread QD32"), ("b2", "io_uring 4k randread QD32"),
                       ("b3", "psync 4k randread QD1"), ("b4", "libaio 4k randread QD1"),
                       ("b5", "io_uring 4k randread QD1")):
        r, c, pc = pmed(case, "iops"), pmed(case, "cpu_us_io"), pmed(case, "proc_cpu_us_io")
        name = "(b) %s: IOPS >= 1.0x fio, CPU/IO <= 0.6x fio (job and process)" % what
        if r is None or c is None or pc is None:
            out.append((name, missing(case), "n/a"))
            continue
        out.append((name, "IOPS %s, CPU/IO job %s, process %s%s" % (
            rx(r), rx(c), rx(pc), interval_note(n.paired(case, "cpu_us_io"), 0.6)),
                    "PASS" if r >= 1.0 and c <= 0.6 and pc <= 0.6 else "FAIL"))
        split = split_line(n, case, what)
        if split:
            out.append(split)
    r, c = pmed("b6", "iops"), pmed("b6", "cpu_us_io")
    out.append(("(b) io_uring tuned as fio (fixedbufs, registerfiles, sqthread_poll, nonvectored) "
                "QD32: IOPS >= 1.0x fio tuned", "IOPS %s, CPU/IO job %s" % (rx(r), rx(c))
                if r is not None else missing("b6"),
                "n/a" if r is None else ("PASS" if r >= 1.0 else "FAIL")))
    r, c = pmed("c1", "iops"), pmed("c1", "cpu_us_io")
    out.append(("(c) libaio 1M seq read QD8: IOPS >= 0.95x fio, CPU/IO <= 1.0x fio",
                "IOPS %s, CPU/IO %s" % (rx(r), rx(c)) if r is not None and c is not None
                else missing("c1"),
                "n/a" if r is None or c is None else
                ("PASS" if r >= 0.95 and c <= 1.0 else "FAIL")))
    for case, what in (("d", "null QD32, 1 job"), ("d2", "libaio QD4, 64 jobs over 8 loop devices")):
        r = pmed(case, "iops")
        ui = n.med(case, "tui", "ui_cpu_s")
        ui_run, hl_run = n.med(case, "tui", "ui_run_pct"), n.med(case, "headless", "ui_run_pct")
        out.append(("(d) %s: IOPS with the TUI's Run screen (tmux 132x43) / headless >= 0.98"
                    % what, ("%s (UI thread: %s CPU s per run; during the run %s%% of one CPU, "
                             "headless %s%%%s)" % (rx(r), num(ui), num(ui_run), num(hl_run),
                                                   interval_note(n.paired(case, "iops"), 0.98)))
                    if r is not None else missing(case),
                    "n/a" if r is None else ("PASS" if r >= 0.98 else "FAIL")))
    short, long_ = n.med("e", "short", "rss_kb"), n.med("e", "long", "rss_kb")
    r = long_ / short if short and long_ is not None else None
    out.append(("(e) peak RSS: long run / short run within 10%",
                "%s (%s -> %s KiB)" % (rx(r), num(short), num(long_)) if r is not None
                else missing("e"),
                "n/a" if r is None else ("PASS" if abs(r - 1.0) <= 0.10 else "FAIL")))
    # the ring's bar is the best of the runs: a run is slowed only by what else
    # ran on the two CPUs (either thread descheduled stalls the other), never sped up
    paced = n.all("f1", "paced", "records_per_s")
    spins = n.all("f1", "spin", "records_per_s")
    spin = max(spins) if spins else None
    out.append(("(f) ring: records/s between two threads, spinning consumer >= 100M "
                "(best of %d runs)" % len(spins),
                ("best %s, median %s, min %s (paced consumer: best %s)"
                 % (si(spin), si(statistics.median(spins)), si(min(spins)),
                    si(max(paced)) if paced else "n/a")) if spin is not None
                else missing("f1"),
                "n/a" if spin is None else ("PASS" if spin >= 100e6 else "FAIL")))
    t = n.med("f2", "raidbench", "seconds")
    out.append(("(f) `raidbench devices --json` with the loop devices of f2 attached (no bar)",
                "%.3f s" % t if t is not None else missing("f2"),
                "n/a" if t is None else "info"))
    rows = []
    for case in sorted((c for c in n.order if c.startswith("gj")), key=lambda c: int(c[2:])):
        rows.append("%s jobs: %s IOPS, %s us/IO, tick %s us, RSS %s KiB" % (
            case[2:], si(n.med(case, "raidbench", "iops")),
            num(n.med(case, "raidbench", "proc_cpu_us_io")),
            num(n.med(case, "raidbench", "engine_us_tick")),
            num(n.med(case, "raidbench", "peak_rss_kb"))))
    out.append(("(g) scale, null QD32 by jobs (no bar)", "; ".join(rows) if rows
                else missing("gj1"), "info" if rows else "n/a"))
    r, c = pmed("gl", "iops"), pmed("gl", "cpu_us_io")
    out.append(("(g) 16 loop devices at once, libaio QD32 each: IOPS >= 1.0x fio",
                "IOPS %s, CPU/IO job %s" % (rx(r), rx(c)) if r is not None else missing("gl"),
                "n/a" if r is None else ("PASS" if r >= 1.0 else "FAIL")))
    return out


def report(tsv, md_path=None):
    n = Numbers(tsv)
    txt, md = [], []
    md.append("| case | tool | IOPS | MB/s | CPU µs/IO (job) | CPU µs/IO (process) |")
    md.append("| --- | --- | --- | --- | --- | --- |")
    other = []
    for case in n.order:
        title = n.notes.get(case, "")
        tools = n.tools(case)
        txt += ["", "%s  %s" % (case, title)]
        if not tools:
            md.append("| %s %s | | | | | |" % (case, title))
            continue
        if not any(n.all(case, t, "iops") for t in tools):
            for t in tools:
                for m in n.metrics(case, t):
                    if m in SPLIT_METRICS:
                        continue
                    xs = n.all(case, t, m)
                    txt.append("    %-16s %s %s  (n=%d)" % (t, LABELS.get(m, m),
                                                           spread(xs, fmt_for(m)), len(xs)))
                    other.append("| %s %s | %s | %s | %s | %d |" % (
                        case, title, t, LABELS.get(m, m), spread(xs, fmt_for(m)), len(xs)))
            continue
        rounds = max(len(n.all(case, t, "iops")) for t in tools)
        txt.append("    %-16s %-24s %-21s %-21s %s   (n=%d)" % (
            "", "IOPS med [min-max]", "MB/s", "CPU us/IO job", "CPU us/IO process", rounds))
        first = True
        for t in tools:
            for m in n.metrics(case, t):
                if m in IO_METRICS or m in SPLIT_METRICS:
                    continue
                xs = n.all(case, t, m)
                txt.append("    %-16s %s %s  (n=%d)" % (t, LABELS.get(m, m),
                                                       spread(xs, fmt_for(m)), len(xs)))
                other.append("| %s %s | %s | %s | %s | %d |" % (
                    case, title, t, LABELS.get(m, m), spread(xs, fmt_for(m)), len(xs)))
        for t in tools:
            cells = [spread(n.all(case, t, m), fmt_for(m)) for m in IO_METRICS]
            txt.append("    %-16s %-24s %-21s %-21s %s" % tuple([t] + cells))
            md.append("| %s | %s | %s |" % ("%s %s (n=%d)" % (case, title, rounds) if first
                                             else "", t, " | ".join(cells)))
            first = False
        a, b = PAIRS.get(case, DEFAULT_PAIR)
        if a in tools and b in tools:
            rom = [rx(n.ratio_of_medians(case, m)) for m in IO_METRICS]
            pr = [rspread(n.paired(case, m)) for m in IO_METRICS]
            txt.append("    %-16s %-24s %-21s %-21s %s" % tuple(["%s/%s" % (a, b)] + rom))
            txt.append("    %-16s %-24s %-21s %-21s %s" % tuple(["  paired"] + pr))
            md.append("| | %s/%s, of medians | %s |" % (a, b, " | ".join(rom)))
            md.append("| | %s/%s, paired | %s |" % (a, b, " | ".join(pr)))
    bl = bars(n)
    txt += ["", "bars (paired ratios):"]
    for name, measured, verdict in bl:
        txt.append("  %-4s  %s: %s" % (verdict, name, measured))
    nfail = sum(1 for b in bl if b[2] == "FAIL")
    txt += ["", "%d bar(s) FAIL" % nfail if nfail else "every measured bar holds"]
    print("\n".join(txt))
    if md_path:
        if other:
            md += ["", "| case | what | measured | median [min-max] | n |",
                   "| --- | --- | --- | --- | --- |"] + other
        md += ["", "| bar | measured (paired ratio) | verdict |", "| --- | --- | --- |"]
        md += ["| %s | %s | **%s** |" % b for b in bl]
        with open(md_path, "w") as f:
            f.write("\n".join(md) + "\n")
    return 0


def main(argv):
    if len(argv) in (7, 8) and argv[1] == "run":
        tsv, case, tool, rnd, path = argv[2:7]
        try:
            m = run_metrics(path, argv[7] if len(argv) > 7 else None)
        except (OSError, ValueError, KeyError) as e:
            print("benchstat: %s: %s" % (path, e), file=sys.stderr)
            return 1
        append(tsv, [(case, tool, rnd, k, "%.6g" % v) for k, v in m.items()])
        print("  %-10s round %s  %s" % (tool, rnd, "  ".join(
            "%s=%s" % (k, fmt_for(k)(v)) for k, v in m.items())))
        return 0
    if len(argv) == 8 and argv[1] == "add":
        append(argv[2], [tuple(argv[3:8])])
        return 0
    if len(argv) > 7 and argv[1] == "threads" and argv[6] == "--":
        return threads(argv[2], argv[3], argv[4], argv[5], argv[7:])
    if len(argv) == 5 and argv[1] == "note":
        append(argv[2], [(argv[3], "-note", argv[4])])
        return 0
    if len(argv) in (3, 4) and argv[1] == "report":
        return report(argv[2], argv[3] if len(argv) > 3 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
