# simlib.py - what the tool simulators (ssacli, storcli64, mdadm) share:
# the state file, the invocation log, and the fault switches.
#
# RAIDBENCH_SIM_STATE  JSON file holding every simulated controller and md
#                      array; made from the tool's default scenario when absent.
# RAIDBENCH_SIM_LOG    every invocation is appended as "PID TOOL ARGS..." before
#                      anything else happens (tests prove what ran, and what not).
# RAIDBENCH_SIM_HANG   if the command line contains this text, sleep (a tool that
#                      hangs) before doing anything.
# RAIDBENCH_SIM_FAIL   if the command line contains this text, fail the way the
#                      tool fails on a controller error, changing nothing.
# RAIDBENCH_SIM_OSDEVS comma list of block devices (/dev/loop3,/dev/loop4): a new
#                      logical drive is reported as the OS device (ssacli "Disk
#                      Name", storcli "OS Drive Name") first in the list that no
#                      other logical drive holds, so tests can do I/O on "the new
#                      logical drive". Unset or used up: no OS device, as before.
# RAIDBENCH_SIM_INIT_READS  N: a new parity logical drive (RAID 5, 6, 50, 60)
#                      reports parity initialization in progress for the next N
#                      configuration reads, its progress rising, then completed.
#
# The simulators are test furniture, not a reference: output formats are copied
# from the captures in tests/fixtures/vendor (see SOURCES.md there); error words
# not seen in any capture are marked "unverified" where they are printed.

import fcntl
import json
import os
import shlex
import sys
import time


def log_invocation(tool, argv):
    path = os.environ.get("RAIDBENCH_SIM_LOG")
    if path:
        with open(path, "a") as f:
            f.write("%d %s %s\n" % (os.getpid(), tool, " ".join(shlex.quote(a) for a in argv)))


def faults(argv):
    """Returns the fault to simulate for this command line: None, 'hang' or 'fail'."""
    line = " ".join(argv)
    hang = os.environ.get("RAIDBENCH_SIM_HANG")
    if hang and hang in line:
        sys.stdout.flush()
        time.sleep(3600)
        return "hang"
    fail = os.environ.get("RAIDBENCH_SIM_FAIL")
    if fail and fail in line:
        return "fail"
    return None


class State:
    """The state file, locked for the whole run of one simulator."""

    def __init__(self):
        self.path = os.environ.get("RAIDBENCH_SIM_STATE")
        if not self.path:
            sys.stderr.write("simulator: RAIDBENCH_SIM_STATE is not set\n")
            sys.exit(2)
        self.fd = os.open(self.path + ".lock", os.O_CREAT | os.O_RDWR, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            with open(self.path) as f:
                self.data = json.load(f)
        except FileNotFoundError:
            self.data = {}

    def section(self, name, default):
        if name not in self.data:
            self.data[name] = default()
        return self.data[name]

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)


def uid(*parts):
    """A stable hex id from parts (volume ids, serials)."""
    h = 1469598103934665603
    for p in parts:
        for c in str(p).encode():
            h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016X" % h


def next_osdev(held):
    """The OS device for a new logical drive: the first of RAIDBENCH_SIM_OSDEVS
    not in held, or None."""
    for dev in (os.environ.get("RAIDBENCH_SIM_OSDEVS") or "").split(","):
        if dev and dev not in held:
            return dev
    return None


def init_reads(level):
    """How many configuration reads a new logical drive of level stays initializing."""
    if level not in ("5", "6", "50", "60"):
        return 0
    try:
        return max(0, int(os.environ.get("RAIDBENCH_SIM_INIT_READS") or 0))
    except ValueError:
        return 0


def init_progress(ld):
    """Percent of parity initialization done, or None when not initializing."""
    left, total = ld.get("init_left", 0), ld.get("init_total", 0)
    if left <= 0 or total <= 0:
        return None
    return 100 * (total - left) // total


def age_init(lds):
    """One configuration read happened: initialization moves on."""
    for ld in lds:
        if ld.get("init_left", 0) > 0:
            ld["init_left"] -= 1
