#!/bin/bash
# big_inputs.sh - every reader of outside input takes a ~10 MB pathological
# input in linear time and bounded memory: job files (run --parse-only),
# vendor tool outputs (devices --import), result files (compare).
#
# No timing is asserted: each run gets a CPU-time limit of 20 s where the
# quadratic readers took minutes, so only a reader that is quadratic again
# fails. Memory: the peak resident size stays under 64 MiB + 20x the input
# (and the address space under 4 GiB, so a reader that multiplies its input
# fails fast instead of taking the machine's memory).
# Each case also checks the answer: success, or the error that names the
# limit the input went past.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3

CPU_LIMIT=20
# the sanitizer build is several times slower; a quadratic reader still takes minutes
[ -n "${RAIDBENCH_SANITIZER:-}" ] && CPU_LIMIT=60

# gen KIND FILE: writes the pathological input KIND (~10 MB) to FILE.
gen() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
out = open(path, 'w')
w = out.write
JOB = '[j]\nfilename=/dev/null\nsize=4k\n'
PD = '      physicaldrive 1I:%d:%d (port 1I:box 1:bay 1, SAS, 600 GB, OK)\n'
CTRL = 'Smart Array P410 in Slot 1 (sn: X)\n'
if kind == 'job_unclosed_vars':      # "${" with no "}" after it, 5 M times
    w(JOB + 'description=' + '${' * 5000000 + '\n')
elif kind == 'job_many_lines':       # 1.25 M option lines in one job
    w(JOB + 'rw=read\n' * 1250000)
elif kind == 'job_long_line':        # one 10 MB line
    w(JOB + 'description=' + 'x' * 10000000 + '\n')
elif kind == 'job_long_path_list':   # 5 M entries in filename=
    w('[j]\nsize=4k\nfilename=' + 'a:' * 5000000 + '\n')
elif kind == 'job_many_sections':    # 1 M jobs (each a job_spec of some KiB)
    w('[global]\nsize=4k\nfilename=/dev/null\n')
    w(''.join('[j%d]\n' % i for i in range(1000000)))
elif kind == 'job_global_paths':     # a [global] path list copied into 100 k jobs
    w('[global]\nsize=4k\nfilename=' + 'f:' * 60000 + '\n')
    w(''.join('[j%d]\n' % i for i in range(100000)))
elif kind == 'job_many_vars':        # 1 M "${HOME}" on one line
    w(JOB + 'description=' + '${RB_BIG}' * 1000000 + '\n')
elif kind == 'ssacli_cr':            # 4 M carriage returns on one line
    w(CTRL + '\r' * 4000000 + '\n')
elif kind == 'ssacli_cr_lines':      # 2 M lines of "\r" and drive lines
    w(CTRL + '   array A (SAS, Unused Space: 0  MB)\n' + (PD % (1, 1)).replace('\n', '\r\r\n') * 100000 + '\r\n' * 3000000)
elif kind == 'ssacli_empty_lines':   # 10 M empty lines
    w(CTRL + '\n' * 10000000)
elif kind == 'ssacli_long_line':     # one 10 MB line
    w(CTRL + 'x' * 10000000 + '\n')
elif kind == 'ssacli_many_drives':   # 150 k drives on one controller
    w(CTRL + '   array A (SAS, Unused Space: 0  MB)\n')
    for i in range(150000):
        w(PD % (i // 1000, i % 1000))
elif kind == 'ssacli_same_drive':    # 2000 drives, then the last one 150 k times
    w(CTRL + '   array A (SAS, Unused Space: 0  MB)\n')
    for i in range(2000):
        w(PD % (i // 1000, i % 1000))
    w(PD % (1, 999) * 150000)
elif kind == 'ssacli_moving_drives': # every line moves a drive to the other array
    w(CTRL)
    for k in range(75):
        w('   array %s (SAS, Unused Space: 0  MB)\n' % 'AB'[k % 2])
        for i in range(2000):
            w(PD % (i // 1000, i % 1000))
elif kind == 'ssacli_many_controllers':
    for i in range(250000):
        w('Smart Array P410 in Slot %d (sn: X%d)\n' % (i, i))
elif kind == 'storcli_many_documents':
    w('{"Controllers":[]}\n' * 500000)
elif kind == 'storcli_deep':         # 5 M nested arrays
    w('{"Controllers":' + '[' * 5000000 + ']' * 5000000 + '}\n')
elif kind == 'megacli_many_drives':
    w('Adapter #0\n\n')
    for i in range(120000):
        w('Enclosure Device ID: 252\nSlot Number: %d\nFirmware state: Unconfigured(good), Spun Up\n\n' % i)
elif kind == 'mdstat_many_arrays':
    w('Personalities : [raid1]\n')
    for i in range(150000):
        w('md%d : active raid1 sda[0] sdb[1]\n      100 blocks [2/2] [UU]\n\n' % i)
elif kind == 'mdadm_many_members':
    w('/dev/md0:\n        Raid Level : raid1\n    Number   Major   Minor   RaidDevice State\n')
    for i in range(250000):
        w('       %d       8       %d        %d      active sync   /dev/sd%d\n' % (i, i, i, i))
elif kind == 'result_many_jobs':     # 50 k jobs with I/O, three groups per name
    io = {'total_ios': 10, 'iops': 1.0, 'bw_bytes': 100, 'clat_ns': {'mean': 5}}
    json.dump({'jobs': [{'jobname': 'j%d' % (i // 3), 'groupid': i % 3, 'read': io,
                         'write': io} for i in range(50000)]}, out)
elif kind == 'result_deep':          # 5 M nested arrays
    w('{"jobs":' + '[' * 5000000 + ']' * 5000000 + '}\n')
else:
    sys.exit('unknown kind ' + kind)
out.close()
EOF
}

# bounded FILE CMD...: runs CMD under the CPU limit; prints "rc cpu_s maxrss_kb"
# and leaves its stdout and stderr in $RB_TMP/out.
bounded() {
	python3 - "$CPU_LIMIT" "$RB_TMP/out" "$@" <<'EOF'
import resource, subprocess, sys
import os
cpu, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
sanitized = bool(os.environ.get('RAIDBENCH_SANITIZER'))
def limit():
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    # a reader that multiplies its input fails here, not by pushing the machine into swap
    # (not under ASan, which reserves terabytes of address space for its shadow)
    if not sanitized:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
with open(out, 'w') as f:
    try:
        p = subprocess.run(cmd, preexec_fn=limit, stdout=f, stderr=subprocess.STDOUT,
                           timeout=6 * cpu)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = 'timeout'
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, '%.2f' % (ru.ru_utime + ru.ru_stime), ru.ru_maxrss)
EOF
}

# case KIND WANT_RC WANT_TEXT CMD... : generates KIND into $IN (the command
# names it as $IN), runs it, checks the exit status, an expected phrase of
# the output (empty: none), the CPU limit and the memory bound.
case_() {
	local kind=$1 want_rc=$2 want=$3 rc cpu rss size bound a
	shift 3
	IN=$RB_TMP/$kind.in
	gen "$kind" "$IN" || { fail "$kind: generating the input"; return; }
	local cmd=("${@//@IN@/$IN}")
	read -r rc cpu rss < <(bounded "${cmd[@]}")
	size=0	# every argument that names the input reads it once more
	for a in "${cmd[@]}"; do
		[[ $a == *"$IN"* ]] && size=$((size + $(stat -c %s "$IN")))
	done
	bound=$(( 65536 + 20 * size / 1024 ))
	# ASan keeps freed memory in quarantine and maps shadow: the bound is the plain build's
	[ -n "${RAIDBENCH_SANITIZER:-}" ] && bound=$(( bound * 4 + 1048576 ))
	echo "# $kind: $(stat -c %s "$IN") bytes, exit $rc, ${cpu}s CPU, ${rss} KiB peak (bound ${bound} KiB)"
	if [ "$rc" = timeout ] || [ "$rc" = -24 ] || [ "$rc" = -9 ]; then
		fail "$kind: not done within ${CPU_LIMIT}s of CPU (exit $rc): quadratic again?"
	elif [ "$rc" != "$want_rc" ]; then
		fail "$kind: exit $rc, want $want_rc: $(head -c 300 "$RB_TMP/out")"
	elif [ -n "$want" ] && ! grep -qF -- "$want" "$RB_TMP/out"; then
		fail "$kind: the output does not say '$want': $(head -c 300 "$RB_TMP/out")"
	elif [ "$rss" -gt "$bound" ]; then
		fail "$kind: ${rss} KiB peak for $size bytes of input (bound ${bound} KiB)"
	else
		pass "$kind"
	fi
	rm -f "$IN"
}

RUN=("$RAIDBENCH" run --parse-only)
DEV=("$RAIDBENCH" devices --no-tools --import)

case_ job_unclosed_vars 0 "" "${RUN[@]}" @IN@
case_ job_many_lines 0 "" "${RUN[@]}" @IN@
case_ job_long_line 0 "" "${RUN[@]}" @IN@
case_ job_long_path_list 2 "more than 65536 paths in one list" "${RUN[@]}" @IN@
case_ job_many_sections 2 "more than 4096 jobs in all" "${RUN[@]}" @IN@
case_ job_global_paths 2 "more than 1048576 files and directories" "${RUN[@]}" @IN@
# ${VAR} values may not grow a line without end
export RB_BIG=$(printf '%0100d' 0)
case_ job_many_vars 2 "longer than 16 MiB" "${RUN[@]}" @IN@
unset RB_BIG

case_ ssacli_cr 0 "Smart Array P410" "${DEV[@]}" ssacli:@IN@
case_ ssacli_cr_lines 0 "1I:1:1" "${DEV[@]}" ssacli:@IN@
case_ ssacli_empty_lines 0 "Smart Array P410" "${DEV[@]}" ssacli:@IN@
case_ ssacli_long_line 0 "" "${DEV[@]}" ssacli:@IN@
case_ ssacli_many_drives 1 "more than 2048 physical drives on one controller" "${DEV[@]}" ssacli:@IN@
case_ ssacli_same_drive 0 "1I:1:999" "${DEV[@]}" ssacli:@IN@
case_ ssacli_moving_drives 0 "1I:1:999" "${DEV[@]}" ssacli:@IN@
case_ ssacli_many_controllers 1 "more than 256 controllers" "${DEV[@]}" ssacli:@IN@
case_ storcli_many_documents 0 "" "${DEV[@]}" storcli:@IN@
case_ storcli_deep 1 "not valid JSON" "${DEV[@]}" storcli:@IN@
case_ megacli_many_drives 1 "more than 2048 physical drives on one controller" "${DEV[@]}" megacli:@IN@
case_ mdstat_many_arrays 1 "more than 1024 md arrays" "${DEV[@]}" mdstat:@IN@
case_ mdadm_many_members 1 "more than 4096 members in one md array" "${DEV[@]}" mdadm-detail:@IN@

case_ result_many_jobs 0 "j16665#3" "$RAIDBENCH" compare @IN@ @IN@
case_ result_deep 1 "not valid JSON" "$RAIDBENCH" compare @IN@ @IN@

rb_done
