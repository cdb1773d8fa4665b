#!/usr/bin/env bash
# mpi.sh SEARCHD SRCDIR NP [MPIRUN] -- a batch spread over NP ranks by mpirun
# (docs/mpi.md): the rows and the summary equal one process's (and a
# --compare's rows too), a broken
# level is an error row, a rank that cannot start ends the run naming
# it, an algorithm that cannot be spread over the ranks is refused,
# SIGTERM ends every rank with the summary.  (One search spread over the
# ranks: mpi_hda.sh.)  Built and run only when searchd is built with MPI.
. "$(dirname "$0")/lib.sh"
sd=$1 src=$2 np=$3 mpirun=${4:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { "$mpirun" --oversubscribe -np "$np" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
push=(-c "$src/config/sokoban.ini" -q --set search.algorithm=astar
      --set problem.cost=pushes
      --set problem.file="$src/config/levels/microban.xsb")

# Rows without their last column (time), the summary's counts.
rows() { grep -v '^total:\|^slowest:\|^rank' "$1" | awk 'NF {NF--} {print}'; }

# 1. Microban 1-30 push-optimal: the same rows as one process, in order,
#    and one figure line per rank (rank 0 computes rows too); the lengths are those of
#    microban-push-optimal.tsv.
"$sd" "${push[@]}" --set problem.level=1-30 >"$tmp/one" 2>&1
run "$sd" "${push[@]}" --set problem.level=1-30 >"$tmp/many" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && pass || fail "batch under $np ranks: exit $rc"
if diff <(rows "$tmp/one") <(rows "$tmp/many") >/dev/null; then pass; else
	fail "rows differ from one process's:"; diff <(rows "$tmp/one") \
		<(rows "$tmp/many") | head; fi
grep -q "^solved 30, no solution 0, limit reached 0, errors 0, of 30" \
	"$tmp/many" && pass || fail "summary: $(grep ^solved "$tmp/many")"
[ "$(grep -c '^rank [0-9]*: [0-9]* rows\?,' "$tmp/many")" = "$np" ] \
	&& pass || fail "per-rank lines: $(grep ^rank "$tmp/many")"
sum=$(awk '/^rank [0-9]/ {n += $3} END {print n}' "$tmp/many")
[ "$sum" = 30 ] && pass || fail "ranks computed $sum problems, not 30"
bad=$(awk 'NR > 1 && $4 == "solved" {print $1, $6}' "$tmp/many" |
	while read -r l c; do
		want=$(awk -v l="$l" '$1 == l {print $2}' \
			"$src/config/levels/microban-push-optimal.tsv")
		[ -n "$want" ] && [ "$want" != "$c" ] && echo "$l:$c/$want"
	done)
[ -z "$bad" ] && pass || fail "push counts differ from the .tsv: $bad"

# 2. JSON: the same objects as one process's, but for the times and the
#    process's peak RSS.
strip() { sed -E 's/"(seconds|nodes_per_second|cpu_seconds|setup_seconds|peak_rss)":[0-9.e+-]*//g' \
	"$1" | grep '^{'; }
"$sd" "${push[@]}" --set problem.level=1-12 -f json >"$tmp/one.json" 2>/dev/null
run "$sd" "${push[@]}" --set problem.level=1-12 -f json >"$tmp/many.json" \
	2>/dev/null
if diff <(strip "$tmp/one.json") <(strip "$tmp/many.json") >/dev/null
then pass; else fail "JSON rows differ"; fi

# 3. A broken level is an error row (exit 2), the others are solved.
coll=(-c "$src/config/sokoban.ini" -q --set search.algorithm=astar
      --set problem.file="$src/tests/sokoban/coll_bad_first.xsb"
      --set problem.level=all)
expect 2 "solved 2, no solution 0, limit reached 0, errors 1, of 3" \
	run "$sd" "${coll[@]}"

# 4. A rank that cannot start (its plugin is missing) ends the run with
#    a message naming it, exit 2, every rank through MPI_Finalize (no
#    MPI_Abort); nothing is left running.
no_abort 2 "rank $((np - 1)) of $np could not start" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${push[@]}" \
	--set problem.level=1-30 : -np 1 "$sd" "${push[@]}" \
	--set problem.level=1-30 --set plugin.name=no-such-plugin-mpi-test

# 5. One search of an algorithm that cannot be spread over the ranks is
#    refused, saying what to do; so is --dot with a distributed one.
expect 2 "algorithm idastar runs in one process" \
	run "$sd" -c "$src/config/15puzzle.ini" -q
expect 2 "algorithm astar keeps its tree in one process: --dot" \
	run "$sd" "${push[@]}" --set problem.level=1 --dot "$tmp/t.dot"
# (the message named --dot and --html whichever was given)
expect 2 "algorithm astar keeps its page in one process: --html" \
	run "$sd" "${push[@]}" --set problem.level=1 --html "$tmp/t.html"
# ... and a single search with a fallback; a batch runs its fallbacks
#    on the ranks, the summary counting them
fb=(--set search.node_limit=3 --set search.fallback=search.node_limit=0)
expect 2 "algorithm astar has a fallback search, which one process runs" \
	run "$sd" "${push[@]}" --set problem.level=3 "${fb[@]}"
expect 0 "solved 4 (4 by the fallback), no solution 0" \
	run "$sd" "${push[@]}" --set problem.level=3-6 "${fb[@]}"

# 5b. A batch with --html is refused (its page is one process's).
expect 2 "writes the page of a batch in one process" \
	run "$sd" "${push[@]}" --set problem.level=1-3 --html "$tmp/p.html"

# 5c. --compare is spread over the ranks too: the same rows, in the
#     same order, as one process's (a repeat, bfs with a heuristic that
#     it ignores, skipped as there), the per-rank lines; with --html it
#     is refused.
cmp=(-c "$src/config/npuzzle.ini" -q --compare algorithm=bfs,ucs,astar
     --compare heuristic=manhattan,zero,misplaced)
"$sd" "${cmp[@]}" >"$tmp/cone" 2>&1
run "$sd" "${cmp[@]}" >"$tmp/cmany" 2>"$tmp/cerr"
rc=$?
[ $rc = 0 ] && pass || fail "--compare under $np ranks: exit $rc"
[ "$(grep -c ' solved ' "$tmp/cone")" = 5 ] && pass ||
	fail "one process: $(grep -c ' solved ' "$tmp/cone") rows, not 5"
if diff <(rows "$tmp/cone") <(rows "$tmp/cmany") >/dev/null; then pass; else
	fail "--compare rows differ from one process's:"
	diff <(rows "$tmp/cone") <(rows "$tmp/cmany") | head; fi
[ "$(grep -c '^rank [0-9]*: [0-9]* rows\?,' "$tmp/cmany")" = "$np" ] && pass ||
	fail "--compare per-rank lines: $(grep ^rank "$tmp/cmany")"
expect 2 "writes the page of a comparison in one process" \
	run "$sd" "${cmp[@]}" --html "$tmp/c.html"
# the rank lines count the rows run (9 combinations, 5 rows: the
# skipped repeats were counted), and a rank without one still has its
# peak RSS (it said 0.0 MiB)
[ "$(awk '/^rank [0-9]*:/ { n += $3 } END { print n }' "$tmp/cmany")" = 5 ] &&
	pass || fail "--compare rank lines: $(grep ^rank "$tmp/cmany")"
# in JSON and CSV the rank lines go to stderr, as a batch's do: stdout
# is the rows alone (they were on stdout, in the JSON and the CSV)
run "$sd" "${cmp[@]}" -f json >"$tmp/cjson" 2>"$tmp/cjerr"
python3 -c 'import json, sys
n = sum(1 for l in open(sys.argv[1]) if json.loads(l))
sys.exit(n != 5)' "$tmp/cjson" && pass ||
	fail "--compare -f json under $np ranks: $(head -c 600 "$tmp/cjson")"
[ "$(grep -c '^rank [0-9]*: ' "$tmp/cjerr")" = "$np" ] && pass ||
	fail "--compare -f json rank lines on stderr: $(cat "$tmp/cjerr")"
run "$sd" "${cmp[@]}" -f csv >"$tmp/ccsv" 2>/dev/null
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
sys.exit(len(rows) != 6 or len(set(map(len, rows))) != 1)' "$tmp/ccsv" &&
	pass || fail "--compare -f csv under $np ranks: $(cat "$tmp/ccsv")"
run "$sd" "${push[@]}" --set problem.level=1-1 >"$tmp/onerow" 2>&1
! grep -q "^rank .*peak RSS 0.0 MiB" "$tmp/onerow" && pass ||
	fail "a rank's peak RSS 0: $(grep ^rank "$tmp/onerow")"
# 5d. --trace with a batch is refused (the ranks' traces interleaved
#     mid-line in the shared output)
expect 2 "--trace writes the trace of a batch in one process" \
	run "$sd" "${push[@]}" --set problem.level=1-3 --trace
# the hint for a search that runs in one process names the key whole
expect 2 "or a batch (e.g. --set problem.level=all)" \
	run "$sd" "${push[@]}" --set problem.level=1 --set search.algorithm=idastar

# 6. --version, --help and --list-plugins print once, not once per rank.
[ "$(run "$sd" --version | grep -c '^searchd ')" = 1 ] && pass ||
	fail "--version printed $(run "$sd" --version | grep -c '^searchd ') times"
[ "$(run "$sd" --help | grep -c '^usage')" = 1 ] && pass ||
	fail "--help printed its usage line more than once"
one=$("$sd" --list-plugins 2>&1 | wc -l)
many=$(run "$sd" --list-plugins 2>&1 | wc -l)
[ "$one" = "$many" ] && pass || fail "--list-plugins: $many lines, not $one"

# 7. SIGTERM to mpirun: every rank ends, the rows so far and the summary
#    with the interrupt are printed (the summary on stderr, which a
#    stdout mpirun no longer reads cannot hold up), no rank is left
#    running.
# term_once OUT ROWS ARGS...: run searchd ARGS under mpirun (stdout to
# OUT, stderr to OUT.err), SIGTERM it half a second after ROWS rows are
# out (or after 10 s), wait.  True if the interrupted summary came, and
# the job was still running when it was told (a batch that ended first
# proves nothing).  Open MPI kills the ranks a second after its SIGTERM, and on
# a heavily loaded machine a rank descheduled that long misses it: so
# each case gets a second try, and fails only if both fail.
term_once() {
	local out=$1 rows=$2 pid i
	shift 2
	"$mpirun" --oversubscribe -np "$np" "$sd" "$@" >"$out" 2>"$out.err" &
	pid=$!
	for i in $(seq 200); do    # until rows come back: every rank is running
		[ "$(grep -c solved "$out")" -ge "$rows" ] && break
		sleep 0.05
	done
	sleep 0.5                  # and a little more work in flight
	kill -0 $pid 2>/dev/null || { wait $pid; return 1; }
	kill -TERM $pid
	wait $pid
	grep -q "interrupted: [0-9]* run" "$out.err"
}
term() {
	term_once "$@" || term_once "$@"
}
if term "$tmp/int" 5 "${push[@]}" --set problem.level=all \
	--set problem.deadlocks=none; then pass
else fail "no interrupted summary: $(tail -3 "$tmp/int") $(cat "$tmp/int.err")"
fi
all_gone "$sd .*deadlocks=none" && pass || fail "a rank is left running"
# ... also when JSON rows come fast (Boxoban, greedy): rank 0 kept
# printing them by blocking writes in the second mpirun waits before it
# tells the ranks, filled what mpirun no longer read, and was held there
# until the SIGKILL: no summary, a line cut short
if term "$tmp/fast" 50 -c "$src/config/sokoban.ini" -q -f json \
	--set problem.file="$src/config/levels/boxoban-medium-valid-000.txt" \
	--set problem.level=all --set problem.cost=pushes \
	--set search.algorithm=greedy --set search.heuristic=matching; then pass
else fail "fast JSON rows: no interrupted summary: $(cat "$tmp/fast.err")"
fi
all_gone "$sd .*boxoban" && pass || fail "a rank is left running (Boxoban)"
finish
