#!/bin/bash
# Screen tests of the Profiles and Results screens: each script
# tests/screens/{profiles,results}_*.script drives the real TUI off-screen
# (raidbench tui-test) in the sizes and glyph sets its "# variants:" line
# names (24x80-utf8 ... 43x132-ascii), and every dump is compared with its
# golden file tests/fixtures/screens/NAME-RxC-MODE.txt; a mismatch prints
# the diff. UPDATE_GOLDEN=1 rewrites the goldens (review the diff).
#
# Deterministic: XDG_CONFIG_HOME/XDG_DATA_HOME are a fresh copy of
# tests/fixtures/screens/profiles_results_xdg (two user profiles and frozen
# saved runs), XDG_CACHE_HOME a fixed path (the scratch file's full path is
# on screen), TZ=UTC, C.UTF-8, TERM=xterm-256color, the built-in
# profiles of the source tree. The *_live* scripts make a real run on the
# null engine, whose numbers vary: their dumps have numbers, latency units
# and bars replaced before comparing. "# expect DUMP TEXT" lines in a script
# are checked with grep -F, for dumps too variable to keep whole.
. "$(dirname "$0")/lib.sh"
rb_init
SCRIPTS=$SRCDIR/tests/screens
GOLD=$SRCDIR/tests/fixtures/screens
XDG=$GOLD/profiles_results_xdg
CACHE=/var/tmp/raidbench-screens-profiles.cache
RB_DIRS+=("$CACHE")
export TZ=UTC LANG=C.UTF-8 TERM=xterm-256color RAIDBENCH_PROFILE_DIR=$SRCDIR/profiles
unset LC_ALL LC_CTYPE NO_COLOR TARGET
[ -d "$SCRIPTS" ] && [ -d "$XDG" ] || rb_skip "tests/screens or $XDG missing (not in this tree)"

# A real run's numbers, units and bars vary; its words and layout do not.
normalize() {
	sed -E -e 's/\b[0-9]+(\.[0-9]+)?[kMG]?( (ns|us|ms|s)\b)?/N/g' \
		-e 's/[█▉▊▋▌▍▎▏]+//g' -e 's/ [#=-]+( |[|]|$)/ \1/g' \
		-e 's/ +/ /g' -e 's/ +$//' "$1"
}

# The saved user profile is a job file raidbench and fio both read.
check_saved_profile() {
	local f=$XDG_CONFIG_HOME/raidbench/profiles/my-mix.fio
	check "profiles_save $1: my-mix.fio written" [ -f "$f" ]
	check "profiles_save $1: my-mix.fio parses in raidbench" \
		env TARGET="$RB_TMP/t.dat" "$RAIDBENCH" run --parse-only --filename="$RB_TMP/t.dat" "$f"
	check "profiles_save $1: every job of my-mix is randrw 70/30" [ "$(grep -c '^;raidbench-override; rw=' "$f")" = 2 ]
	if command -v fio >/dev/null 2>&1; then
		check "profiles_save $1: fio parses my-mix.fio" \
			fio --parse-only --filename="$RB_TMP/t.dat" "$f"
	fi
}

# The run's copy of an edited profile: the override reaches the job that set its own.
check_edited_copy() {
	local f=$XDG_CACHE_HOME/raidbench/profiles/oltp-edited.fio
	check "profiles_knobs $1: oltp-edited.fio written" [ -f "$f" ]
	check "profiles_knobs $1: iodepth=4 in its leading [global]" \
		[ "$(sed -n '/^\[/,$p' "$f" | sed -n '1,/^$/p' | grep -c '^iodepth=4$')" = 1 ]
	check "profiles_knobs $1: the job's own iodepth=16 is commented out" \
		grep -q '^;raidbench-override; iodepth=16$' "$f"
	check "profiles_knobs $1: it parses in raidbench" \
		env TARGET="$RB_TMP/t.dat" "$RAIDBENCH" run --parse-only --filename="$RB_TMP/t.dat" "$f"
	if command -v fio >/dev/null 2>&1; then
		check "profiles_knobs $1: fio parses it" fio --parse-only --filename="$RB_TMP/t.dat" "$f"
	fi
}

# The exported reports are there and well-formed (tests/integration/report.sh checks what they hold).
check_exported() {
	local n
	n=$(find "$XDG_DATA_HOME/raidbench/reports" -name '*.html' 2>/dev/null | wc -l)
	check "results_export $1: two reports written" [ "$n" = 2 ]
	check "results_export $1: each parses as XHTML" python3 -c '
import sys, xml.etree.ElementTree as ET
for f in sys.argv[1:]: ET.parse(f)' "$XDG_DATA_HOME"/raidbench/reports/*.html
}

for script in "$SCRIPTS"/profiles_*.script "$SCRIPTS"/results_*.script; do
	name=$(basename "$script" .script)
	variants=$(sed -n 's/^# variants: *//p' "$script")
	for v in ${variants:-24x80-utf8 24x80-ascii 43x132-utf8 43x132-ascii}; do
		size=${v%-*}
		out=$RB_TMP/$name-$v
		mkdir -p "$out"
		rm -rf "$RB_TMP/xdg"
		cp -r "$XDG" "$RB_TMP/xdg"
		rm -rf "$CACHE"
		export XDG_CONFIG_HOME=$RB_TMP/xdg/config XDG_DATA_HOME=$RB_TMP/xdg/data \
			XDG_CACHE_HOME=$CACHE
		sed "s#\${OUT}#$out#g" "$script" >"$RB_TMP/script"
		args=(--size="$size")
		[ "${v#*-}" = ascii ] && args+=(--ascii)
		if ! "$RAIDBENCH" tui-test "${args[@]}" "$RB_TMP/script" 2>"$RB_TMP/err"; then
			fail "$name $v: tui-test failed: $(cat "$RB_TMP/err")"
			continue
		fi
		[ "$name" = profiles_save ] && check_saved_profile "$v"
		[ "$name" = profiles_knobs ] && check_edited_copy "$v"
		[ "$name" = results_export ] && check_exported "$v"
		for dump in $(sed -n 's#^dump \${OUT}/##p' "$script"); do
			f=$out/$dump
			gold=$GOLD/${dump%.txt}-$v.txt
			if grep -q "^# expect $dump " "$script"; then
				# checked by its expect lines below, not kept whole
				continue
			fi
			if [ ! -f "$f" ]; then
				fail "$name $v: no dump $dump"
				continue
			fi
			case $name in *_live*)
				normalize "$f" >"$f.n"
				mv "$f.n" "$f" ;;
			esac
			golden_check "$f" "$gold"
		done
		while IFS= read -r line; do
			dump=${line#\# expect }
			text=${dump#* }
			dump=${dump%% *}
			if grep -qF -- "$text" "$out/$dump" 2>/dev/null; then
				pass "$name $v: $dump shows '$text'"
			else
				fail "$name $v: $dump does not show '$text':"
				cat "$out/$dump" 2>/dev/null | head -30
			fi
		done < <(grep '^# expect ' "$script")
	done
done
rb_done
