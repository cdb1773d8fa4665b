#!/usr/bin/env bash
# hda-bench.sh -- one search spread over MPI ranks, hash-distributed A*
# (docs/mpi.md): for one process and for `mpirun -np N`, per problem, the
# wall time (the whole command, mpirun's start included), the speed-up
# over one process, the states expanded (all ranks) and the search
# overhead (expanded / one process's), the load balance (largest / mean
# expanded), the bytes sent, and each rank's expanded states and peak
# RSS (MPI's libraries add about 20 MiB to each).  Then the memory
# example: Korf 5 with a 24 MiB memory_limit per process, which one
# process exceeds and two ranks solve.
#
#   bench/hda-bench.sh [BUILD] [RANKS...]      # default: build 2 4
#
# Problems: Korf's 15-puzzles (A* + linear conflict; KORF, default
# "1 2 ... 10") and push-optimal Microban levels (A* + matching, cost = pushes;
# LEVELS, default 99 112 123, the hardest that A* solves in seconds).
# With more ranks than cores (-np 4 on 2 cores) the figures show memory
# per rank and overhead rather than speed.  As root Open MPI needs
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here).
# Each problem runs once per rank count: a few minutes in all.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(2 4)
sd=$build/bin/searchd
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

korf=(-c config/15puzzle.ini -q -f json --set search.algorithm=astar
      --set search.heuristic=linear-conflict --set output.plan=no)
soko=(-c config/sokoban.ini -q -f json --set search.algorithm=astar
      --set problem.file=config/levels/microban.xsb --set problem.cost=pushes
      --set output.plan=no)

# The figures of one JSON report ($1) as one line, against one
# process's expanded count ($2, 0 for the run of one process itself).
figures() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
st, base = r["stats"], int(sys.argv[2]) or r["stats"]["expanded"]
ranks = r.get("ranks", [dict(expanded=st["expanded"], bytes_sent=0,
                             peak_rss=st["peak_rss"])])
print("%-7s %5s %10d %6.3f %6.3f %9.1f  %s  %s" % (
    r["status"], r.get("cost", "-"), st["expanded"], st["expanded"] / base,
    r.get("load_balance", 1), sum(q["bytes_sent"] for q in ranks) / 2**20,
    "/".join(str(q["expanded"]) for q in ranks),
    "/".join("%.0f" % (q["peak_rss"] / 2**20) for q in ranks)))
EOF
}

# run NAME NP ARGS...: one search (NP 1: one process, without mpirun);
# prints its line.
declare -A base_wall base_exp
run() {
	local name=$1 np=$2 wall
	shift 2
	local cmd=("$sd" "$@")
	[ "$np" = 1 ] || cmd=(mpirun --oversubscribe -np "$np" "${cmd[@]}")
	TIMEFORMAT=%R
	wall=$( { time "${cmd[@]}" >"$tmp/out" 2>/dev/null; } 2>&1 )
	if [ "$np" = 1 ]; then
		base_wall[$name]=$wall
		base_exp[$name]=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["expanded"])' "$tmp/out")
	fi
	printf "%-12s %3s %7.2f %6.2fx  %s\n" "$name" "$np" "$wall" \
		"$(echo "${base_wall[$name]} / $wall" | bc -l)" \
		"$(figures "$tmp/out" "$([ "$np" = 1 ] && echo 0 || echo "${base_exp[$name]}")")"
}

printf "%-12s %3s %7s %7s  %-7s %5s %10s %6s %6s %9s  %s  %s\n" problem np \
	wall-s speedup status cost expanded ovhd balance sent-MiB \
	expanded/rank peak-RSS-MiB/rank
for i in ${KORF:-$(seq 10)}; do
	for np in 1 "${ranks[@]}"; do
		run "korf $i" "$np" "${korf[@]}" --set problem.index="$i"
	done
done
for l in ${LEVELS:-99 112 123}; do
	for np in 1 "${ranks[@]}"; do
		run "microban $l" "$np" "${soko[@]}" --set problem.level="$l"
	done
done

echo
echo "memory_limit 24 MiB per process, Korf 5 (A* + linear conflict):"
for np in 1 2; do
	run "korf 5 24M" "$np" "${korf[@]}" --set problem.index=5 \
		--set search.memory_limit=24M
done
