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
