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
# each).  Rank 0 only dispatches: -np N has N-1 ranks solving.  As root,
# Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# (set here).  Each batch runs once per rank count: a few minutes.
# LEVELS and KORF (environment) pick other selections (default all and
# 1-10), e.g. LEVELS=1-20 KORF=1-2 for a quick look.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(2 3 4)
sd=$build/bin/searchd
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sokoban=(-c config/sokoban.ini -q --set problem.file=config/levels/microban.xsb
         --set problem.level="${LEVELS:-all}" --set problem.cost=pushes
         --set search.algorithm=astar --set search.time_limit=10)
korf=(-c config/15puzzle.ini -q --set problem.file=config/levels/korf100.txt
      --set problem.index="${KORF:-1-10}" --set search.algorithm=astar
      --set search.heuristic=linear-conflict --set search.time_limit=10)

# run NAME NP ARGS...: one batch, NP 1 = one process without mpirun;
# prints the line of figures and the ranks' lines.
run() {
	local name=$1 np=$2
	shift 2
	local t0 t1
	t0=$(date +%s.%N)
	if [ "$np" = 1 ]; then
		"$sd" "$@" >"$tmp/out" 2>/dev/null
	else
		mpirun --oversubscribe -np "$np" "$sd" "$@" >"$tmp/out" 2>/dev/null
	fi
	t1=$(date +%s.%N)
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
}

declare -A base
printf "%-8s %5s %9s %9s %7s %12s %10s\n" batch ranks wall-s speed-up \
	solved expanded bytes-max
for np in 1 "${ranks[@]}"; do run sokoban "$np" "${sokoban[@]}"; done
for np in 1 "${ranks[@]}"; do run korf "$np" "${korf[@]}"; done
