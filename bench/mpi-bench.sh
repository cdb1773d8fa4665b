#!/usr/bin/env bash
# mpi-bench.sh -- a batch spread over MPI ranks (docs/mpi.md): for one
# process and for `mpirun -np N`, the wall time, the speed-up over one
# process, the problems solved, the states expanded (all ranks), the
# figures of each rank (problems, expanded, search time, peak RSS) and
# an upper bound on the bytes sent (every row's text, a 56-byte header
# and an 8-byte job number; rank 0's own rows are not sent).
#
#   bench/mpi-bench.sh [BUILD] [RANKS...]      # default: build 2 3 4
#
# Two batches: Microban push-optimal (A* + matching, cost = pushes,
# 10 s a level) and Korf's 15-puzzles 1-10 (A* + linear conflict, 10 s
# each).  Every rank solves problems, rank 0 too (its main thread, beside
# the thread that dispatches): -np N has N ranks solving.  As root,
# Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# (set here).  Each batch runs once per rank count: a few minutes.
# LEVELS and KORF (environment) pick other selections (default all and
# 1-10), e.g. LEVELS=1-20 KORF=1-2 for a quick look.
# A BUILD without bin/searchd is refused (exit 2); a batch that fails
# (a bad selection, mpirun that cannot start) prints FAILED
# and searchd's (or mpirun's) message instead of figures, one with error
# rows says how many, and the script then exits 1 at the end.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(2 3 4)
sd=$build/bin/searchd
if [ ! -x "$sd" ]; then
	echo "mpi-bench.sh: no $sd (build first, or pass BUILD)" >&2
	exit 2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sokoban=(-c config/sokoban.ini -q --set problem.file=config/levels/microban.xsb
         --set problem.level="${LEVELS:-all}" --set problem.cost=pushes
         --set search.algorithm=astar --set search.time_limit=10)
korf=(-c config/15puzzle.ini -q --set problem.file=config/levels/korf100.txt
      --set problem.index="${KORF:-1-10}" --set search.algorithm=astar
      --set search.heuristic=linear-conflict --set search.time_limit=10)

# reason: why the batch failed, from its stderr ($tmp/err): searchd's
# message, else the first lines of mpirun's.
reason() {
	grep -m 1 '^searchd:' "$tmp/err" ||
		grep -v '^-*$' "$tmp/err" | head -2 | grep . || echo "no summary"
}

# run NAME NP ARGS...: one batch, NP 1 = one process without mpirun;
# prints the line of figures and the ranks' lines, or FAILED and the
# reason (false then).
failed=0
run() {
	local name=$1 np=$2
	shift 2
	local t0 t1 rc
	t0=$(date +%s.%N)
	if [ "$np" = 1 ]; then
		"$sd" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		mpirun --oversubscribe -np "$np" "$sd" "$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	t1=$(date +%s.%N)
	# exit 0, 1 or 3: solved, no solution, a limit; 2 with a summary:
	# rows in error (counted below); else the batch did not run
	if [ "$rc" != 0 ] && [ "$rc" != 1 ] && [ "$rc" != 3 ] &&
		! grep -q '^solved ' "$tmp/out"; then
		printf "%-8s %5s FAILED: %s\n" "$name" "$np" "$(reason)"
		failed=$((failed + 1))
		return 1
	fi
	local wall solved expanded rows bytes
	wall=$(echo "$t1 - $t0" | bc -l)
	[ "$np" = 1 ] && base[$name]=$wall
	solved=$(awk '/^solved/ {print $2}' "$tmp/out" | tr -d ,)
	expanded=$(awk '/^total:/ {print $2}' "$tmp/out")
	rows=$(grep -vc '^$\|^instance\|^solved\|^total:\|^slowest:\|^rank' \
		"$tmp/out")
	bytes=$(grep -v '^$\|^instance\|^solved\|^total:\|^slowest:\|^rank' \
		"$tmp/out" | wc -c)
	[ "$np" = 1 ] && bytes=0 || bytes=$((bytes + 64 * rows))
	printf "%-8s %5s %9.2f %8.2fx %7s %12s %10s\n" "$name" "$np" "$wall" \
		"$(echo "${base[$name]} / $wall" | bc -l)" "$solved" "$expanded" \
		"$bytes"
	grep '^rank [0-9]' "$tmp/out" | sed 's/^/                   /'
	local errors
	errors=$(sed -n 's/^solved .* errors \([0-9]*\),.*/\1/p' "$tmp/out")
	if [ "${errors:-0}" -gt 0 ]; then
		echo "                   FAILED: $errors rows ended in error"
		failed=$((failed + 1))
	fi
}

declare -A base
printf "%-8s %5s %9s %9s %7s %12s %10s\n" batch ranks wall-s speed-up \
	solved expanded bytes-max
for np in 1 "${ranks[@]}"; do
	run sokoban "$np" "${sokoban[@]}" || [ "$np" != 1 ] || break
done
for np in 1 "${ranks[@]}"; do
	run korf "$np" "${korf[@]}" || [ "$np" != 1 ] || break
done
if [ "$failed" -gt 0 ]; then
	echo "mpi-bench.sh: $failed batches failed" >&2
	exit 1
fi
