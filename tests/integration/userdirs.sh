#!/bin/bash
# raidbench's own places (scratch file, results): another user's symbolic link
# or a directory others can write is refused with the path and the reason, the
# link's target is never written, and without HOME nothing lands in /tmp.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
V=$RB_TMP/victim
C=$XDG_CACHE_HOME
printf 'precious\n' >"$V"
before=$(sha256sum <"$V")

# runs the default profile on the scratch file; a short write is enough
scratch_run() {
	"$RAIDBENCH" run --profile=default --size=1m --runtime=1 --ioengine=psync --no-save \
		--output=/dev/null >"$RB_TMP/out" 2>"$RB_TMP/err"
}

# 1. scratch.dat is a link to someone else's file
mkdir -p "$C/raidbench"
ln -s "$V" "$C/raidbench/scratch.dat"
scratch_run
rc=$?
check "a planted scratch.dat link: refused (exit $rc)" [ "$rc" -ne 0 ]
check "... the message names the link ($(tail -1 "$RB_TMP/err"))" \
	grep -q "refusing to write through $C/raidbench/scratch.dat: it is a symbolic link" "$RB_TMP/err"
check "... its target is unchanged" [ "$(sha256sum <"$V")" = "$before" ]
rm -rf "$C/raidbench"

# 2. another user's link in place of a directory component
mkdir "$RB_TMP/victim-dir"
ln -s "$RB_TMP/victim-dir" "$C/raidbench"
chown -h nobody "$C/raidbench"
scratch_run
rc=$?
check "another user's link as the cache directory: refused (exit $rc)" [ "$rc" -ne 0 ]
check "... the message names it ($(tail -1 "$RB_TMP/err"))" \
	grep -q "refusing to follow $C/raidbench: it is a symbolic link that belongs to user 65534" "$RB_TMP/err"
check "... nothing was created behind it" [ -z "$(ls -A "$RB_TMP/victim-dir")" ]
rm -f "$C/raidbench"

# 3. a cache directory anyone can write
chmod 0777 "$C"
scratch_run
rc=$?
check "a world-writable cache directory: refused (exit $rc)" [ "$rc" -ne 0 ]
check "... with the mode ($(tail -1 "$RB_TMP/err"))" \
	grep -q "refusing to keep files under $C: other users can write to it (mode 0777)" "$RB_TMP/err"
chmod 0755 "$C"

# 4. results: a planted link in the results directory's place
mkdir -p "$XDG_DATA_HOME"
ln -s "$RB_TMP/victim-dir" "$XDG_DATA_HOME/raidbench"
chown -h nobody "$XDG_DATA_HOME/raidbench"
"$RAIDBENCH" run --name=r --ioengine=null --size=1m --rw=read --output=/dev/null 2>"$RB_TMP/err"
rc=$?
check "results behind another user's link: not saved, exit 1 ($rc)" [ "$rc" -eq 1 ]
check "... and said so ($(tail -1 "$RB_TMP/err"))" \
	grep -q "the results were not saved: refusing to follow $XDG_DATA_HOME/raidbench" "$RB_TMP/err"
check "... nothing was created behind it" [ -z "$(ls -A "$RB_TMP/victim-dir")" ]
rm -f "$XDG_DATA_HOME/raidbench"

# 5. the clean case still works: the scratch file and the result are made
scratch_run
check "a clean cache directory: the run works" [ $? -eq 0 ]
check "... on a regular scratch file" eval '[ -f "$C/raidbench/scratch.dat" ] && [ ! -L "$C/raidbench/scratch.dat" ]'

# 6. no HOME, no XDG_CACHE_HOME: the password database's home, never /tmp.
# Run as nobody (home /nonexistent), so neither root's home nor /tmp is touched.
if [ -e /tmp/.cache ]; then
	had_tmp_cache=1
else
	had_tmp_cache=
fi
( cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
	env -u HOME -u XDG_CACHE_HOME -u XDG_DATA_HOME "$RAIDBENCH" run --profile=default \
	--size=1m --runtime=1 --ioengine=psync --no-save --output=/dev/null ) >"$RB_TMP/out" 2>"$RB_TMP/err"
rc=$?
[ -z "$had_tmp_cache" ] && [ -e /tmp/.cache ] && created_tmp_cache=1 || created_tmp_cache=
check "without HOME: refused when the passwd home cannot hold it (exit $rc)" [ "$rc" -ne 0 ]
check "... the message names the passwd home ($(tail -1 "$RB_TMP/err"))" \
	grep -q "the scratch file /nonexistent/.cache/raidbench/scratch.dat: cannot create /nonexistent" "$RB_TMP/err"
check "... and nothing was put in /tmp" \
	bash -c "! grep -q /tmp/.cache '$RB_TMP/err' && [ -z '$created_tmp_cache' ]"
# a main-era binary falls back to /tmp/.cache: remove only what this test made
[ -n "$created_tmp_cache" ] && rm -rf /tmp/.cache
rb_done
