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
# A BUILD without bin/searchd is refused (exit 2); a run that fails (no
# report, or an error: a bad id, mpirun that cannot start) prints
# "FAILED" and searchd's (or mpirun's) message instead of figures, the
# problem's other rank counts are skipped if one process failed, and the
# script exits 1 at the end.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(2 4)
sd=$build/bin/searchd
if [ ! -x "$sd" ]; then
	echo "hda-bench.sh: no $sd (build first, or pass BUILD)" >&2
	exit 2
fi
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

# reason: why the run failed, from its stderr ($tmp/err): searchd's
# message, else the first lines of mpirun's.
reason() {
	grep -m 1 '^searchd:' "$tmp/err" ||
		grep -v '^-*$' "$tmp/err" | head -2 | grep . || echo "no report"
}

# run NAME NP ARGS...: one search (NP 1: one process, without mpirun);
# prints its line, or FAILED and the reason (false then).
declare -A base_wall base_exp
failed=0
run() {
	local name=$1 np=$2 wall
	shift 2
	local cmd=("$sd" "$@")
	[ "$np" = 1 ] || cmd=(mpirun --oversubscribe -np "$np" "${cmd[@]}")
	TIMEFORMAT=%R
	wall=$( { time "${cmd[@]}" >"$tmp/out" 2>"$tmp/err"; } 2>&1 )
	if ! grep -q '"status":"[a-z-]*"' "$tmp/out" ||
		grep -q '"status":"error"' "$tmp/out"; then
		printf "%-12s %3s FAILED: %s\n" "$name" "$np" "$(reason)"
		failed=$((failed + 1))
		return 1
	fi
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
		run "korf $i" "$np" "${korf[@]}" --set problem.index="$i" ||
			[ "$np" != 1 ] || break
	done
done
for l in ${LEVELS:-99 112 123}; do
	for np in 1 "${ranks[@]}"; do
		run "microban $l" "$np" "${soko[@]}" --set problem.level="$l" ||
			[ "$np" != 1 ] || break
	done
done

echo
echo "memory_limit 24 MiB per process, Korf 5 (A* + linear conflict):"
for np in 1 2; do
	run "korf 5 24M" "$np" "${korf[@]}" --set problem.index=5 \
		--set search.memory_limit=24M || [ "$np" != 1 ] || break
done
if [ "$failed" -gt 0 ]; then
	echo "hda-bench.sh: $failed runs failed" >&2
	exit 1
fi
