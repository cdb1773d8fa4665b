#!/usr/bin/env bash
# IDA* by the plugins' compiled kernel (ida_iterate(), ABI 1.5: the
# default), by their in-place moves (moves() and apply(), ABI 1.4:
# search.in_place = moves) and by expand() (search.in_place = no) must
# agree exactly: status, length, cost, plan and every node count, also
# when a node limit stops the search part way.  npuzzle (8-puzzle,
# 15-puzzles of Korf's 100 with manhattan, linear-conflict and swap,
# misplaced tiles, a blind search, a 5x5 board in byte form (also under
# pattern databases, in Korf's order and by h: there with fsm_moves = 2,
# for by default that kernel refuses more duplicate move sequences than
# moves() does, see docs/npuzzle.md), a pattern
# database on the 8-puzzle) and pancake.
# The test plugin kline (a line, tests/plugins/kline.c): a kernel whose
# stack grows, one that declines, one that returns nonsense, and one
# offered without moves() and apply().
# usage: in_place.sh SEARCHD SOURCE_DIR TEST_PLUGIN_DIR
set -u
sd=$1 src=$2 plugins=$3
. "$(dirname "$0")/lib.sh"
cd "$src" || exit 2
korf=$PWD/config/levels/korf100.txt
pdb=$(mktemp -d)
trap 'rm -rf "$pdb"' EXIT

# run ARGS...: searchd's JSON line, without the figures that may differ
# (times, memory: the in-place stack holds one state a frame, not all).
run() {
	"$sd" -q --format json --set search.algorithm=idastar "$@" 2>/dev/null |
		sed -e 's/"engine_bytes":[0-9]*//' -e 's/"bytes_per_state":[0-9.e+-]*//' \
		    -e 's/"peak_rss":[0-9]*//' -e 's/"seconds":[0-9.e+-]*//' \
		    -e 's/"cpu_seconds":[0-9.e+-]*//' \
		    -e 's/"setup_seconds":[0-9.e+-]*//' \
		    -e 's/"nodes_per_second":[0-9.e+-]*//'
}

# same WANT ARGS...: the three paths print the same line, which has WANT.
same() {
	local want=$1
	shift
	local a b c
	a=$(run --set search.in_place=yes "$@")
	b=$(run --set search.in_place=moves "$@")
	c=$(run --set search.in_place=no "$@")
	if [ "$a" != "$c" ] || [ "$b" != "$c" ]; then
		fail "kernel, moves() and expand() differ for $*:"
		echo "  kernel:   $a"
		echo "  moves():  $b"
		echo "  expand(): $c"
	elif ! grep -qF -- "$want" <<<"$a"; then
		fail "$* -> $a (wanted to see: $want)"
	else
		pass
	fi
}

k15() { echo --config config/15puzzle.ini --set problem.file="$korf" \
	--set problem.index="$1" --set search.heuristic="$2"; }

# The 8-puzzle's hardest positions (31 moves), four heuristics.
for h in manhattan linear-conflict swap misplaced; do
	same '"length":31' --config config/npuzzle.ini --set search.heuristic=$h
done
same '"length":31' --config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.pdb_dir="$pdb"
# Korf's 15-puzzles: the measured columns of korf100.txt for manhattan.
# shellcheck disable=SC2046 # k15 prints words
same '"generated":546344' $(k15 12 manhattan)
# shellcheck disable=SC2046
same '"expanded":630900' $(k15 19 manhattan)
# shellcheck disable=SC2046
same '"generated":1650696' $(k15 9 manhattan)
for h in linear-conflict swap; do
	# shellcheck disable=SC2046
	same '"length":45' $(k15 12 $h)
	# shellcheck disable=SC2046
	same '"length":46' $(k15 19 $h)
done
for h in linear-conflict swap; do
	# shellcheck disable=SC2046
	same '"length":46' $(k15 9 $h)
done
# Children smallest h first (order = h): every path sorts them alike.
for h in manhattan linear-conflict; do
	# shellcheck disable=SC2046
	same '"length":45' $(k15 12 $h) --set problem.order=h
done
# Stopped by the node limit: the statistics of a search cut short.
# shellcheck disable=SC2046
same '"limit"' $(k15 12 manhattan) --set search.node_limit=100000
# shellcheck disable=SC2046
same '"limit"' $(k15 9 swap) --set search.node_limit=5000
# shellcheck disable=SC2046
same '"limit"' $(k15 19 linear-conflict) --set search.node_limit=77777
# A limit at the first expansion, and one past a memory check period.
# shellcheck disable=SC2046
same '"expanded":1,' $(k15 12 manhattan) --set search.node_limit=1
# shellcheck disable=SC2046
same '"expanded":1025,' $(k15 12 manhattan) --set search.node_limit=1025
# Blind: h is 0 throughout, the goal flag alone ends the search.
same '"length":6' --config config/npuzzle.ini --set search.heuristic=zero \
	--set problem.tiles="1 2 3 4 5 6 0 7 8" --set problem.goal=blank-last \
	--set problem.tiles="4 1 3 7 2 5 0 8 6"
# Blind on the 15-puzzle (its board kernel, not the Manhattan one).
same '"length":6' --config config/npuzzle.ini --set search.heuristic=zero \
	--set problem.goal=blank-first \
	--set problem.tiles="1 2 6 3 4 5 10 7 8 9 14 11 12 13 15 0"
# A 5x5 board (byte states): 1..24 then the blank, scrambled by a walk
# of 40 moves (40 moves from the goal, as it happens).
b55="8 7 4 10 9 2 0 13 3 5 1 23 12 14 15 6 21 17 18 20 11 16 22 19 24"
for h in manhattan linear-conflict swap; do
	same '"length":40' --config config/npuzzle.ini --set search.heuristic=$h \
		--set problem.goal=blank-last --set problem.tiles="$b55"
done
same '"limit"' --config config/npuzzle.ini --set search.heuristic=manhattan \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set search.node_limit=3000
# The same board under pattern databases of 3 tiles (the 5x5 pdb kernel),
# to the end and stopped part way; the kernel refusing only the move back
# (fsm_moves = 2), as moves() and expand() do.
p55="1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / 13 14 15 / 16 17 18 / 19 20 21 / 22 23 24"
same '"length":40' --config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set problem.pdb_dir="$pdb" --set problem.pdb_partition="$p55" \
	--set problem.fsm_moves=2
same '"limit"' --config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set problem.pdb_dir="$pdb" --set problem.pdb_partition="$p55" \
	--set problem.fsm_moves=2 \
	--set search.node_limit=500
# The 14-move machine (about 12 s to make) stops at the time limit like
# a table build: a limit with the statistics (it ran on, and the engine
# gave up 2 s after the limit without them)
t0=$SECONDS
expect 3 '"status":"limit","limit":"time"' "$sd" -q -f json \
	--config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set problem.pdb_dir="$pdb" --set problem.pdb_partition="$p55" \
	--set problem.fsm_moves=14 --set search.time_limit=1
[ $((SECONDS - t0)) -le 3 ] && pass ||
	fail "fsm_moves = 14 under time_limit = 1 took $((SECONDS - t0)) s"
# ... and its children smallest h first (order = h), which the pdb
# kernel sorts itself.
same '"length":40' --config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set problem.pdb_dir="$pdb" --set problem.pdb_partition="$p55" \
	--set problem.fsm_moves=2 \
	--set problem.order=h
same '"limit"' --config config/npuzzle.ini --set search.heuristic=pdb \
	--set problem.goal=blank-last --set problem.tiles="$b55" \
	--set problem.pdb_dir="$pdb" --set problem.pdb_partition="$p55" \
	--set problem.fsm_moves=2 \
	--set problem.order=h --set search.node_limit=500
# Pancakes: gap and blind, and a limit.
same '"status":"solved"' --config config/pancake.ini
same '"status":"solved"' --config config/pancake.ini --set search.heuristic=zero \
	--set problem.stack="3 1 4 2 5 6"
same '"limit"' --config config/pancake.ini --set search.node_limit=50
# kline: 300 steps deep (the kernel's stack grows from 64 frames), a
# limit deep in an iteration, a kernel that declines.
kl=$pdb/kline.ini
printf '[plugin]\npath = %s\n[problem]\nlen = 10\n' "$plugins/kline.so" >"$kl"
printf '[search]\nheuristic = half\n' >>"$kl"
same '"length":10' --config "$kl"
same '"length":300' --config "$kl" --set problem.len=300
same '"limit"' --config "$kl" --set problem.len=300 --set search.node_limit=5000
same '"length":300' --config "$kl" --set problem.len=300 \
	--set problem.kernel=decline
# a path of 100,000 free steps: the kernel gives up after 65,536 in a
# row as IDA* by moves() and apply() or by expand() does, with the same
# counts (it went on, slower and slower, before: solved here, for ever
# on a cycle of free actions)
same '"limit":"depth"' --config "$kl" --set problem.len=100000 \
	--set problem.kernel=free --set search.time_limit=100
# ... and a run that starts deeper: every path ends it, each at its own
# checks of the limits (the kernel's and the engine's are every 1,024
# expansions, but not in step here: a few hundred expansions apart)
for ip in yes moves no; do
	expect 3 '"limit":"depth"' "$sd" -q --config "$kl" -f json \
		--set search.algorithm=idastar --set search.in_place=$ip \
		--set problem.kernel=free --set problem.len=100000 \
		--set problem.free_from=700 --set search.time_limit=100
done
# the example's keys are checked, as the tutorial asks of a plugin (an
# unknown key or kernel mode was ignored)
expect 2 "<command line>: unknown key 'stack'" "$sd" --config "$kl" \
	--set problem.stack="2 1"
expect 2 "<command line>: unknown kernel mode 'nope'" "$sd" --config "$kl" \
	--set problem.kernel=nope
# kline_breaks KERNEL MESSAGE [ARGS]: IDA* on kline with that kernel mode
# (and those further arguments) fails with exit 2 and the message
kline_breaks() {
	local mode=$1 msg=$2
	shift 2
	expect 2 "$msg" "$sd" -q --config "$kl" --set search.algorithm=idastar \
		--set problem.kernel="$mode" "$@"
}
kline_breaks badrc "broke the contract: ida_iterate() returned 7"
kline_breaks toomany "kline' ($plugins/kline.so) broke the contract: moves() returned 100000 successors, more than the max_successors (2)"
kline_breaks kmany "kline' ($plugins/kline.so) broke the contract: its ida_iterate() kernel listed more moves than its SD_IDA_MAX_MOVES"
kline_breaks kstop "broke the contract: ida_iterate() returned SD_IDA_STOPPED, but no limit stopped it"
# a plan longer than the kernel's path (a crash in the engine's copy
# before), a next bound not above the bound (IDA* repeated the iteration
# until the time limit before)
kline_breaks biglen "broke the contract: ida_iterate() found a plan of 1000"
kline_breaks stuck "broke the contract: ida_iterate() gave 5 as the next bound after bound 5 (it must be larger)" --set search.time_limit=5
# node_limit = 1 stops IDA* after the one expansion of its first
# iteration (the second iteration's root was expanded before the check)
for ip in yes no; do
	expect 3 '"expanded":1,' "$sd" -q --config config/15puzzle.ini -f json \
		--set problem.index=79 --set search.node_limit=1 \
		--set search.in_place=$ip
done
# a plan made in place, by moves() and apply() or by the kernel, whose
# actions expand() does not make is refused (it was "solved")
kline_breaks swap "kline' ($plugins/kline.so) broke the contract: step 3 of the plan made by moves() and apply() (action 1) is not a successor by expand() of the state before it"
# moves() and apply() are checked against expand() on the start and its
# successors: an apply() that goes astray made IDA* search until a limit
# (or report "no solution" for a solvable problem)
kline_breaks astray "kline' ($plugins/kline.so) broke the contract: moves() and apply() of the start state differ from expand() at its successor 1" --set search.time_limit=5
kline_breaks kswap "kline' ($plugins/kline.so) broke the contract: step 1 of the plan made by ida_iterate() and apply() (action 1) is not a successor by expand()"
expect 2 "has ida_iterate() without moves() and apply()" "$sd" -q \
	--config "$kl" --set plugin.path="$plugins/kline_nomoves.so" \
	--set search.algorithm=idastar
finish
