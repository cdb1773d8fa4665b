#!/usr/bin/env bash
# mpi_hda.sh SEARCHD SRCDIR NP MPIRUN PLUGINS -- one search spread over NP
# ranks of mpirun, hash-distributed A* (docs/mpi.md): optimal costs equal
# to one process's (the files' known optima), plans replayed by
# tests/mpi_plan.py, per-rank figures, ucs and wastar, the limits,
# SIGTERM, a rank that fails, a rank that cannot make the problem.
# PLUGINS is the directory of the test plugins (rogue.so).  KORF="1 2 3
# 4 5" runs only the 15-puzzles of part 2 for those instances (the slow
# test mpi_korf).  Built and run only when searchd is built with MPI.
. "$(dirname "$0")/lib.sh"
sd=$1 src=$2 np=$3 mpirun=${4:-mpirun} plugins=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { "$mpirun" --oversubscribe -np "$np" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# solve WHAT CHECK-ARGS... -- SEARCHD-ARGS...: one search over the ranks
# in JSON: exit status 0, its plan checked by mpi_plan.py CHECK-ARGS, a
# figure object per rank.
solve() {
	local what=$1 check=() out rc res
	shift
	while [ "$1" != -- ]; do check+=("$1"); shift; done
	shift
	out=$(run "$sd" -q -f json "$@" 2>"$tmp/solve.err")
	rc=$?
	[ $rc = 0 ] && pass || fail "$what: exit $rc: $(head -3 "$tmp/solve.err")"
	if res=$(python3 "$src/tests/mpi_plan.py" "${check[@]}" <<<"$out")
	then pass; else fail "$what: $res"; fi
	grep -q '"load_balance":' <<<"$out" &&
		[ "$(grep -o '"bytes_sent"' <<<"$out" | wc -l)" = "$np" ] && pass ||
		fail "$what: no per-rank figures in $(head -c 300 <<<"$out")"
}

# 1b. A note about the heuristic is said once, not once per rank
run "$sd" -c "$src/config/npuzzle.ini" --set search.algorithm=ucs \
	>/dev/null 2>"$tmp/note.err"
n=$(grep -c "note: ucs ignores heuristic 'manhattan'" "$tmp/note.err")
[ "$n" = 1 ] && pass || fail "the note was said $n times: $(cat "$tmp/note.err")"

# 2. Korf's 15-puzzles by A* with linear conflict, optimal lengths from
#    korf100.txt: 2 and 5 here (1, 3 and 4 take longer: the test
#    mpi_korf, label slow, runs 1-5).
korf() { awk -v i="$1" '$1 == i {print $2; exit}' \
	"$src/config/levels/korf100.txt"; }
tiles() { awk -v i="$1" '$1 == i {$1=$2=$3=$4=$5=$6=""; print; exit}' \
	"$src/config/levels/korf100.txt" | xargs; }
fifteen() {
	for i in "$@"; do
		solve "Korf $i" npuzzle 4 "$(tiles "$i")" \
			"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" "$(korf "$i")" -- \
			-c "$src/config/15puzzle.ini" --set search.algorithm=astar \
			--set search.heuristic=linear-conflict --set problem.index="$i"
	done
}
if [ -n "${KORF:-}" ]; then
	fifteen $KORF
	finish
	exit
fi

# 1. 8-puzzles of hardest8.txt (31 moves, optimal by the file's BFS) by
#    A* with Manhattan distance, and one by ucs.
np8=(-c "$src/config/npuzzle.ini" --set search.algorithm=astar)
while IFS='|' read -r goal start moves; do
	goal=$(xargs <<<"$goal") start=$(xargs <<<"$start")
	moves=$(xargs <<<"$moves") g=blank-first
	[ "${goal%% *}" = 1 ] && g=blank-last
	solve "8-puzzle $start" npuzzle 3 "$start" "$goal" "$moves" -- \
		"${np8[@]}" --set problem.tiles="$start" --set problem.goal=$g
done < <(grep -v '^#' "$src/config/levels/hardest8.txt")
solve "8-puzzle by ucs" npuzzle 3 "8 7 6 0 4 1 2 5 3" \
	"0 1 2 3 4 5 6 7 8" 31 -- "${np8[@]}" --set search.algorithm=ucs

fifteen 2 5

# 3. Push-optimal Microban levels: the pushes of the .tsv; weighted A*
#    (weight 2): a plan that costs at most twice the optimum.
push=(-c "$src/config/sokoban.ini" --set search.algorithm=astar
      --set problem.cost=pushes
      --set problem.file="$src/config/levels/microban.xsb")
for l in 1 4 10 20; do
	want=$(awk -v l="$l" '$1 == l {print $2}' \
		"$src/config/levels/microban-push-optimal.tsv")
	solve "Microban $l" sokoban "$src" "$src/config/levels/microban.xsb" \
		"$l" "$want" -- "${push[@]}" --set problem.level="$l"
done
out=$(run "$sd" "${push[@]}" -q -f json --set problem.level=20 \
	--set search.algorithm=wastar --set search.weight=2 2>&1)
python3 "$src/tests/mpi_plan.py" sokoban "$src" \
	"$src/config/levels/microban.xsb" 20 - <<<"$out" >/dev/null && pass ||
	fail "wastar plan: $out"
c=$(grep -o '"cost":[0-9]*' <<<"$out" | cut -d: -f2)
[ -n "$c" ] && [ "$c" -le 32 ] && pass || fail "wastar cost '$c' > 2 x 16"

# 4. Limits: the time limit ends every rank (exit 3); a memory limit per
#    rank that one process exceeds on Korf 5 is enough for the ranks.
k3=(-c "$src/config/15puzzle.ini" -q --set search.algorithm=astar
    --set problem.index=3 --set output.plan=no)
expect 3 "limit reached (time)" run "$sd" "${k3[@]}" \
	--set search.time_limit=0.5
k5=(-c "$src/config/15puzzle.ini" -q --set search.algorithm=astar
    --set search.heuristic=linear-conflict --set problem.index=5
    --set search.memory_limit=24M --set output.plan=no)
expect 3 "limit reached (memory)" "$sd" "${k5[@]}"
expect 0 "cost        56" run "$sd" "${k5[@]}"

# 5. SIGTERM to mpirun: every rank stops, rank 0 prints the statistics
#    (interrupted) and a line per rank; no rank is left running.
"$mpirun" --oversubscribe -np "$np" "$sd" "${k3[@]}" \
	--set search.node_limit=987654321 >"$tmp/int" 2>&1 &
pid=$!
for i in $(seq 100); do   # until every rank runs (and mpirun)
	[ "$(pgrep -fc "$sd .*search.node_limit=987654321")" -gt "$np" ] && break
	sleep 0.05
done
sleep 1
kill -TERM $pid
wait $pid
grep -q "limit reached (interrupted)" "$tmp/int" &&
	[ "$(grep -c '^rank [0-9]' "$tmp/int")" = "$np" ] && pass ||
	fail "SIGTERM: $(head -20 "$tmp/int")"
all_gone "$sd .*node_limit=987654321" && pass ||
	fail "a rank is left running"

# 6. A rank whose plugin fails mid-search ends the whole run, naming the
#    rank and the cause (exit 2); a rank that cannot make the problem is
#    named by rank 0 (exit 2); no rank is left running.
printf '[plugin]\npath = %s\n[search]\nalgorithm = astar\n[problem]\nmode = toomany\nlen = 40\n' \
	"$plugins/rogue.so" >"$tmp/rogue.ini"
expect 2 "expand() returned 100000 successors" run "$sd" -c "$tmp/rogue.ini"
expect 2 "a distributed search cannot go on without this rank" \
	run "$sd" -c "$tmp/rogue.ini"
# the plan rebuilt at other costs than those it was found at (the
# rebuilt cost was reported as the plan's before)
expect 2 "expand() is not deterministic (the plan found at cost 10 costs" \
	run "$sd" -c "$tmp/rogue.ini" --set problem.mode=dearer --set problem.len=10
no_abort 2 "rank $((np - 1)) of $np could not make the problem" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set problem.index=101
# ... and one whose problem is not rank 0's (a host with another file
#    under the same path): named, with its cause, and no search (the
#    ranks searched the two problems as one: Korf 3 with Korf 5 on one
#    rank gave "solved", cost 56, where Korf 3 needs 59)
no_abort 2 "its problem is not rank 0's (the start state, its h or its goal test differ)" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set problem.index=5
no_abort 2 "rank $((np - 1)) of $np could not set up the search (its own message says why)" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set problem.index=5
# ... and one that reaches its own memory limit (the others have none):
#    every rank stops (exit 3), and its line of figures names the limit
#    (no line said which rank had run out)
out=$("$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set search.memory_limit=30M 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "^status *limit reached (memory)" <<<"$out" &&
	grep -q "^rank $((np - 1)) .*, stopped by its own limit (memory)$" \
		<<<"$out" && ! grep -q "^rank 0 .*stopped by" <<<"$out" && pass ||
	fail "one rank's memory limit: exit $rc, $(grep '^rank\|^status' <<<"$out")"
# 6b. A rank that cannot start (its plugin is missing) before one search
#    over the ranks: rank 0 names it, every rank ends through
#    MPI_Finalize (no MPI_Abort), exit 2.
no_abort 2 "rank $((np - 1)) of $np could not start" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set plugin.name=no-such-plugin-mpi-test
# ... and one whose own config asks for a search that runs in one
#    process: its reason, with it named (rank 0, running A*, said "its
#    message is above" over nothing: that rank had kept it to itself)
no_abort 2 "rank $((np - 1)) of $np could not start (exit status 2): algorithm idastar runs in one process" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${k3[@]}" : \
	-np 1 "$sd" "${k3[@]}" --set search.algorithm=idastar
all_gone "$sd -c $tmp/rogue.ini" && pass || fail "a rank is left running"
# 6c. A rank whose heuristic cannot be set up (a bad pdb_partition): no
#    search starts, rank 0 names it, every rank ends through MPI_Finalize
#    (it was MPI_Abort, the cause printed by every rank); the others,
#    which made their tables, slept while they waited for it
p8=(-c "$src/config/npuzzle.ini" --set search.heuristic=pdb
    --set problem.pdb_dir="$tmp/pdb" --set output.plan=no)
no_abort 2 "rank $((np - 1)) of $np could not set up the search (its own message says why)" \
	"$mpirun" --oversubscribe -np $((np - 1)) "$sd" "${p8[@]}" : \
	-np 1 "$sd" "${p8[@]}" --set problem.pdb_partition=1/2
out=$(run "$sd" "${p8[@]}" --set problem.pdb_partition=1/2 2>&1)
rc=$?
n=$(grep -c "tile 3 is in no group" <<<"$out")
[ "$rc" = 2 ] && [ "$n" = 1 ] && ! grep -q "MPI_ABORT" <<<"$out" && pass ||
	fail "a bad pdb_partition on every rank: exit $rc, said $n times: $out"
# ... but while the others still set up theirs (rank 0's tables until
# its time limit, 60 s), the rank that failed waits 2 s for them, then
# ends the job with its message, as a failure during the search does
# (it waited as long as their set-up took)
t0=$(date +%s)
expect 2 "select_heuristic() failed without a message" \
	"$mpirun" --oversubscribe -np 1 "$sd" -c "$tmp/rogue.ini" \
	--set problem.mode=tables --set search.time_limit=60 : \
	-np $((np - 1)) "$sd" -c "$tmp/rogue.ini" --set problem.mode=selnoerr
t=$(( $(date +%s) - t0 ))
[ $t -lt 20 ] && pass || fail "a rank failed beside a long set-up: $t s"
finish
