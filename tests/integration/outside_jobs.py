#!/usr/bin/env -S python3 -S
"""outside_jobs.py - bounded copies of the outside job files
(tests/fixtures/outside-jobs) run by fio 3.33 and by raidbench: per job and
direction, total_ios and io_bytes must be equal, as fio_examples.py does for
fio's own files (its bounded() and compare() are used here unchanged).

usage: outside_jobs.py FIXTURE_DIR RAIDBENCH TMPDIR

A copy has its includes read in and its ${VAR}s expanded from FIXTURE_DIR/env
first. Only files jobs.tsv expects both to take ("same") are run; files
either program refuses are skipped. Prints PASS/FAIL/KNOWN lines.
"""
import concurrent.futures
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fio_examples  # noqa: E402

# differences understood, printed as KNOWN, not failed
KNOWN = {
    # fio 3.33 reads a read-verify job once whatever loops= says; fio fixed
    # that after 3.33 (commit 96a7e64c, "verify: fix loops option behavior
    # of read-verify workloads"), and this file is the test of the fix
    'axboe+fio/t/jobs/t0029.fio': 'fio 3.33 ignores loops= in a read-verify job (fixed in '
                                  'fio 3.37, which this file tests); raidbench does the loops',
}


def inline(path, depth=0):
    """The file's text with each 'include FILE' replaced by FILE's text."""
    out = []
    for line in open(path, errors='replace').read().splitlines():
        m = re.match(r'\s*include\s+(\S+)', line)
        if m and depth < 8:
            out.append(inline(os.path.join(os.path.dirname(path), m.group(1)), depth + 1))
        else:
            out.append(line)
    return '\n'.join(out)


def main():
    fixtures, rb, tmp = sys.argv[1:4]
    env = {}
    for line in open(os.path.join(fixtures, 'env')):
        if '=' in line:
            key, value = line.strip().split('=', 1)
            env[key] = value
    src = os.path.join(tmp, 'copies')
    os.makedirs(src)
    names = {}
    for line in open(os.path.join(fixtures, 'jobs.tsv')):
        if line.startswith('#') or not line.strip():
            continue
        name, _repo, _path, _commit, kind, expect = line.rstrip('\n').split('\t')
        if kind != 'job' or expect != 'same':
            continue
        text = re.sub(r'\$\{(\w+)\}', lambda m: env.get(m.group(1), m.group(0)),
                      inline(os.path.join(fixtures, name)))
        copy = os.path.join(src, re.sub(r'\W', '_', name) + '.fio')
        with open(copy, 'w') as f:
            f.write(text)
        names[copy] = name
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda p: (p, fio_examples.compare(src, rb, tmp, p)),
                                sorted(names)))
    compared = 0
    for copy, (line, done) in results:
        compared += done
        if not line:
            continue
        name = names[copy]
        line = line.replace(os.path.relpath(copy, src), name)
        if line.startswith('FAIL') and name in KNOWN and 'raidbench failed' not in line:
            line = 'KNOWN: %s: %s (%s)' % (name, KNOWN[name], line.split(': ', 2)[-1])
        print(line)
    print('# compared %d bounded copies' % compared)


if __name__ == '__main__':
    main()
