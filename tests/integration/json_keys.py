#!/usr/bin/env -S python3 -S
"""Compares the key sets of two fio-format JSON results, recursively.

Usage: json_keys.py FIO.json RAIDBENCH.json
Prints each key path present in one and not the other; exits 1 if any.
Values are not compared here (the shell test compares counts), except that
list lengths of "jobs" must agree.
"""
import json
import sys


def load(path):
    with open(path) as f:
        text = f.read()
    # fio may print warnings before the JSON document; start at the first brace
    return json.loads(text[text.index('{'):])


def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in b:
                out.append("only in fio: %s/%s" % (path, k))
            elif k not in a:
                out.append("only in raidbench: %s/%s" % (path, k))
            else:
                walk(a[k], b[k], path + "/" + k, out)
    elif isinstance(a, list) and isinstance(b, list):
        if path.endswith("/jobs") and len(a) != len(b):
            out.append("%s: fio has %d entries, raidbench %d" % (path, len(a), len(b)))
        for x, y in zip(a, b):
            walk(x, y, path + "[]", out)
    elif isinstance(a, (dict, list)) != isinstance(b, (dict, list)):
        out.append("%s: type differs" % path)


def main():
    fio, rb = load(sys.argv[1]), load(sys.argv[2])
    # disk_util names differ when the tools see different devices; keys must not
    diffs = []
    walk(fio, rb, "", diffs)
    for d in diffs:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
