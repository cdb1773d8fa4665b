#!/bin/bash
# run.sh BUILD_DIR SECONDS [HARNESS...] -- run each libFuzzer harness
# (default: all four) for SECONDS on a copy of its corpus, one after the
# other.  Prints one summary line per harness and exits non-zero if any
# found a crash, a leak, a sanitizer report, a timeout or an OOM; the
# reproducer and the log are then kept under a temporary directory that
# the summary names.  Writes nothing into the source tree.
#
#   FUZZ_ARGS     more libFuzzer flags, e.g. "-jobs=1 -seed=1"
#   TMPDIR        where the work directories go (default /tmp)
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 BUILD_DIR SECONDS [HARNESS...]" >&2
	exit 2
fi
build=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
harnesses=${*:-fuzz_sokoban fuzz_tiles fuzz_ini fuzz_contract}
status=0
for h in $harnesses; do
	bin=$build/bin/$h
	if [ ! -x "$bin" ]; then
		echo "$h: FAILED: no $bin (configure with -DSEARCHD_FUZZ=ON)"
		status=1
		continue
	fi
	case $h in
		fuzz_contract) max_len=4096 ;;
		*) max_len=65536 ;;
	esac
	work=$(mktemp -d "${TMPDIR:-/tmp}/$h-run.XXXXXX")
	mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
	cp -R "$here/corpus/$h/." "$work/corpus/"
	TMPDIR=$work/tmp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$bin" -max_total_time="$secs" -max_len="$max_len" -timeout=25 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/" ${FUZZ_ARGS:-} \
		"$work/corpus" >"$work/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" |
	       tail -1)
	# slow-unit-* files only report a slow input (the searches end at
	# their time limit); crashes, leaks, timeouts and OOMs fail
	found=$(ls "$work/artifacts" 2>/dev/null | grep -v '^slow-unit-' |
	        head -1)
	if [ $rc -eq 0 ] && [ -z "$found" ]; then
		echo "$h: ${runs:-?} runs in ${secs} s: ok"
		rm -rf "$work"
	else
		what=$(grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
		       "$work/log")
		echo "$h: ${runs:-?} runs: FAILED (exit $rc): ${what:-see log}"
		echo "$h:   reproducer: $work/artifacts/${found:-?}" \
		     "log: $work/log"
		status=1
	fi
done
exit $status
