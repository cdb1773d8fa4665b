#!/usr/bin/env bash
# [search] fallback end to end: a second search when the first ends on a
# limit, its share of the time, its report in every format, an interrupt
# that ends both, and the messages about a bad one.
# usage: fallback.sh SEARCHD SOURCE_DIR TEST_PLUGIN_DIR
set -u
sd=$1 src=$2 plugins=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

# the 8-puzzle of config/npuzzle.ini (31 moves): bfs stopped after five
# expansions, then A* without a node limit
cat >"$tmp/n.ini" <<EOI
[plugin]
name = npuzzle
[search]
algorithm = bfs
node_limit = 5
fallback = search.algorithm=astar
  search.node_limit=0
[problem]
tiles = 8 7 6 0 4 1 2 5 3
goal = blank-first
EOI
fb="search.algorithm=astar search.node_limit=0"
expect 0 "fallback    after the first search's limit (nodes): $fb" \
	"$sd" -c "$tmp/n.ini"
expect 0 "cost        31" "$sd" -c "$tmp/n.ini"
expect 0 "algorithm   astar" "$sd" -c "$tmp/n.ini"
# a first search that solves runs alone
out=$("$sd" -c "$tmp/n.ini" -s search.node_limit=0 2>&1)
grep -q "^algorithm   bfs" <<<"$out" && ! grep -q "^fallback" <<<"$out" &&
	pass || fail "first search solves, no fallback: $out"
# JSON: the fallback's words and the first's limit; the expansions are
# both searches' (five, then A*'s own)
j() { python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
print(d.get(sys.argv[1]) if sys.argv[1] in d else d["stats"][sys.argv[1]])' "$1"; }
out=$("$sd" -c "$tmp/n.ini" -f json -q)
alone=$("$sd" -c "$tmp/n.ini" -f json -q -s search.algorithm=astar \
	-s search.node_limit=0 | j expanded)
[ "$(j fallback <<<"$out")" = "$fb" ] && [ "$(j fallback_after <<<"$out")" = nodes ] &&
	[ "$(j expanded <<<"$out")" = $((alone + 5)) ] &&
	[ "$(j status <<<"$out")" = solved ] && pass ||
	fail "JSON of a fallback (A* alone: $alone expanded): $out"
# CSV: the last column holds the fallback's words, empty without one
out=$("$sd" -c "$tmp/n.ini" -f csv -q)
head -1 <<<"$out" | grep -q ',setup_seconds,fallback$' &&
	tail -1 <<<"$out" | grep -q ",solved,31,31,.*,$fb\$" && pass ||
	fail "CSV of a fallback: $out"
out=$("$sd" -c "$tmp/n.ini" -f csv -q -s search.node_limit=0)
tail -1 <<<"$out" | grep -q ',bfs,.*,solved,.*,$' && pass ||
	fail "CSV without a fallback: $out"
# a batch: each row that fell back says so on the line under it
printf '8 7 6 0 4 1 2 5 3\n1 2 3 4 5 6 7 8 0\n0 1 2 3 4 5 6 7 8\n' >"$tmp/e8.txt"
out=$("$sd" -c "$tmp/n.ini" -s problem.tiles= -s problem.file="$tmp/e8.txt" \
	-s problem.index=all 2>&1)
[ "$(grep -c "^    fallback after the first search's limit (nodes): $fb" <<<"$out")" = 2 ] &&
	grep -q "^solved 3 (2 by the fallback), no solution 0" <<<"$out" && pass ||
	fail "batch with a fallback: $out"
# ... and its fallbacks print no progress lines, as its searches do not
# (the fallback's context was made before the batch set it to rows)
out=$("$sd" -c "$tmp/n.ini" -s problem.tiles= -s problem.file="$tmp/e8.txt" \
	-s problem.index=all -s search.fallback=search.algorithm=idastar 2>&1 >/dev/null)
[ -z "$out" ] && pass || fail "progress lines of a batch's fallback: $out"
# a comparison makes each combination's fallback
out=$("$sd" -c "$tmp/n.ini" --compare algorithm=bfs,ucs -f csv -q 2>&1)
[ "$(grep -c ",astar,manhattan,solved,31,31,.*,$fb\$" <<<"$out")" = 2 ] &&
	pass || fail "comparison with a fallback: $out"

# the time: the first search has time_limit less fallback_share, the
# fallback the rest (a line of 4e9 states the first cannot search
# through; the fallback's line of 10 it solves at once)
cat >"$tmp/g.ini" <<EOI
[plugin]
path = $plugins/graph.so
[search]
algorithm = idastar
heuristic = zero
time_limit = 2
fallback_share = 0.75
fallback = problem.line=10
[problem]
line = 4000000000
EOI
out=$("$sd" -c "$tmp/g.ini" -f json -q)
python3 -c 'import json, sys; d = json.loads(sys.argv[1])
assert d["status"] == "solved" and d["fallback_after"] == "time", d
assert 0.4 <= d["stats"]["seconds"] <= 1.5, d' "$out" && pass ||
	fail "the first search's share of the time: $out"
# ... and when the fallback cannot finish either, the run ends within
# the time limit
start=$(date +%s%N)
out=$("$sd" -c "$tmp/g.ini" -f json -q -s search.fallback=search.heuristic=zero)
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 3500 ] && grep -q '"limit":"time"' <<<"$out" &&
	grep -q '"fallback_after":"time"' <<<"$out" && pass ||
	fail "two searches past the time limit: $ms ms, $out"

# signal_run SIGNAL DELAY OUT ARGS...: run searchd with ARGS in the
# background, its output into OUT, and send it SIGNAL once it is alive
# and DELAY seconds have passed; its exit status in $rc
signal_run() {
	local sig=$1 delay=$2 out=$3 pid
	shift 3
	"$sd" "$@" >"$out" 2>&1 &
	pid=$!
	wait_ready $pid || fail "no sign of life from the SIG$sig run"
	sleep "$delay"
	kill -"$sig" $pid
	wait $pid
	rc=$?
}

# an interrupt ends the run: no fallback after it
signal_run INT 0.2 "$tmp/int.out" -c "$tmp/g.ini" -f json -s search.time_limit=60
[ $rc = 3 ] && grep -q '"limit":"interrupt"' "$tmp/int.out" &&
	! grep -q fallback "$tmp/int.out" && pass ||
	fail "SIGINT with a fallback: exit $rc, $(cat "$tmp/int.out")"

# an interrupt that comes once the fallback has begun (here while the
# first search's problem is freed) stops the fallback at once: no
# expansion of its own, exit 3
printf '[plugin]\npath = %s\n[search]\nnode_limit = 3\nfallback = search.node_limit=0 problem.mode=ok\n[problem]\nmode = intend\nlen = 50\n' \
	"$plugins/rogue.so" >"$tmp/r.ini"
out=$("$sd" -c "$tmp/r.ini" 2>&1); rc=$?
[ $rc = 3 ] && grep -q "^status      limit reached (interrupted)" <<<"$out" &&
	grep -q "^fallback    after the first search's limit (nodes)" <<<"$out" &&
	grep -q "^expanded    3$" <<<"$out" && pass ||
	fail "an interrupt between the searches: exit $rc, $out"

# the note on a heuristic that is not admissible is said of the
# fallback's too
expect 0 "note: heuristic 'packing' is not admissible: astar's plan may not be optimal" \
	"$sd" -c "$src/config/sokoban.ini" -s problem.cost=pushes -s search.node_limit=1 \
	-s "search.fallback=search.algorithm=astar search.heuristic=packing search.node_limit=0"
# ... and a batch's page says both of a row (the fallback's note was
# left out when there was that one)
"$sd" -c "$src/config/sokoban.ini" -q -s problem.cost=pushes -s search.node_limit=1 \
	-s problem.file="$src/config/levels/microban.xsb" -s problem.level=1-2 \
	--html "$tmp/b.html" \
	-s "search.fallback=search.algorithm=astar search.heuristic=packing search.node_limit=0" >/dev/null
[ "$(grep -o "the fallback's search (the first reached its limit: nodes); heuristic 'packing' is not admissible" "$tmp/b.html" | wc -l)" -ge 2 ] &&
	pass || fail "a batch page's notes of the fallback: $(grep -o "fallback[^<]*" "$tmp/b.html" | head -3)"

# --trace: the fallback's trace begins after a line that says so (the
# two traces ran together); its own --trace-limit; JSON as an event
out=$("$sd" -c "$tmp/n.ini" --trace --trace-limit 3 2>&1)
mark="fallback search, after the first search's limit (nodes): $fb"
[ "$(grep -c '^expand ' <<<"$out")" = 6 ] &&
	[ "$(grep -n -e "^$mark\$" -e '^(trace cut' <<<"$out" | cut -d: -f1 |
	     tr '\n' ' ')" = "4 5 9 " ] && pass ||
	fail "a fallback's trace: $out"
out=$("$sd" -c "$tmp/n.ini" --trace -f json 2>&1 | grep '"event":"fallback"')
[ "$out" = "{\"event\":\"fallback\",\"after\":\"nodes\",\"fallback\":\"$fb\"}" ] &&
	pass || fail "a fallback's trace, JSON: $out"
out=$("$sd" -c "$tmp/n.ini" --trace -f csv 2>&1 >/dev/null)
grep -q "^$mark\$" <<<"$out" && pass || fail "a fallback's trace, CSV: $out"

# fallback_parallel: the fallback runs beside the first search, in a
# second process, from the start, each with the whole time limit.  A
# fallback that answers at once stops a first search that could not end
# within the limit (the 4e9 line), and the run ends long before it
j2() { python3 -c 'import json, sys; d = json.loads(sys.argv[1])
assert eval("(" + sys.argv[2] + ")"), d' "$@"; }
start=$(date +%s%N)
out=$("$sd" -c "$tmp/g.ini" -f json -q -s search.time_limit=30 \
	-s search.fallback_parallel=yes)
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 5000 ] && j2 "$out" 'd["status"] == "solved" and d["length"] == 9
	and d["fallback_beside"] is True and "fallback_after" not in d
	and d["fallback"] == "problem.line=10"' && pass ||
	fail "a fallback beside the first that answers first: $ms ms, $out"
expect 0 "fallback    beside the first search, which it stopped: problem.line=10" \
	"$sd" -c "$tmp/g.ini" -s search.time_limit=30 -s search.fallback_parallel=yes
# ... the same with --html, whose page shows the fallback's profile
# (the charts) and kept tree (the heat map), carried over from the
# second process
"$sd" -c "$tmp/g.ini" -q -s search.time_limit=30 -s search.fallback_parallel=yes \
	-s search.algorithm=astar --html "$tmp/p.html" >/dev/null &&
	grep -q "beside the first search, which it stopped" "$tmp/p.html" &&
	grep -q 'id="sd-layers"' "$tmp/p.html" &&
	grep -q 'id="sd-heat"' "$tmp/p.html" && pass ||
	fail "--html of a fallback beside the first: $(grep -o "fallback[^<]*" "$tmp/p.html" | head -3)"
# a first search that answers first is the report, and the fallback's
# process is killed: none is left, and the run does not wait for it
start=$(date +%s%N)
out=$("$sd" -c "$tmp/g.ini" -f json -q -s search.time_limit=30 \
	-s search.fallback_parallel=yes -s problem.line=12 \
	-s search.fallback=problem.line=4000000000)
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 5000 ] && j2 "$out" 'd["status"] == "solved" and d["length"] == 11
	and "fallback" not in d' && all_gone "$tmp/g.ini" && pass ||
	fail "a first search beside a fallback that answers first: $ms ms, $out"
# neither answers: both end at the time limit, not one after the other;
# the report is the fallback's, with both searches' expansions
start=$(date +%s%N)
out=$("$sd" -c "$tmp/g.ini" -f json -q -s search.time_limit=1 \
	-s search.fallback_parallel=yes -s search.fallback=search.node_limit=0)
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 2500 ] && j2 "$out" 'd["limit"] == "time" and
	d["fallback_after"] == "time" and d["fallback_beside"] is True' &&
	pass || fail "a fallback beside the first, neither done: $ms ms, $out"
# SIGTERM to the first process alone ends both, with the statistics
signal_run TERM 0.3 "$tmp/pt.out" -c "$tmp/g.ini" -f json \
	-s search.time_limit=60 -s search.fallback_parallel=yes \
	-s search.fallback=search.node_limit=0
[ $rc = 3 ] && grep -q '"limit":"interrupt"' "$tmp/pt.out" &&
	grep -q '"fallback_beside":true' "$tmp/pt.out" && all_gone "$tmp/g.ini" &&
	pass || fail "SIGTERM with a fallback beside: exit $rc, $(cat "$tmp/pt.out")"
# ... also when it comes after the first search has ended (on its node
# limit) and the run waits for the fallback, which has no limit but the
# time: the run ends at once, not after the fallback's 60 s
start=$(date +%s%N)
signal_run TERM 0.5 "$tmp/pw.out" -c "$tmp/g.ini" -f json \
	-s search.time_limit=60 -s search.fallback_parallel=yes \
	-s search.node_limit=3 -s search.fallback=search.node_limit=0
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 3 ] && [ "$ms" -lt 10000 ] && grep -q '"limit":"interrupt"' "$tmp/pw.out" &&
	grep -q '"fallback_after":"nodes"' "$tmp/pw.out" && all_gone "$tmp/g.ini" &&
	pass || fail "SIGTERM while the first waits for the fallback: exit $rc, $ms ms, $(cat "$tmp/pw.out")"
# each has half of memory_limit: two breadth-first searches of a hard
# 15-puzzle, neither of which can finish, hold no more than the limit
# together
out=$("$sd" -c "$tmp/n.ini" -f json -q -s problem.tiles= -s search.node_limit=0 \
	-s problem.file="$src/config/levels/korf100.txt" -s problem.index=1 \
	-s search.memory_limit=16M -s search.fallback_parallel=yes \
	-s search.fallback=search.node_limit=0)
j2 "$out" 'd["limit"] == "memory" and
	9 << 20 <= d["stats"]["engine_bytes"] <= 17 << 20' && pass ||
	fail "memory_limit of two searches side by side: $out"
# a batch: the fallback beside each problem's first search
out=$("$sd" -c "$tmp/n.ini" -s problem.tiles= -s problem.file="$tmp/e8.txt" \
	-s problem.index=all -s search.fallback_parallel=yes 2>&1)
# (the first search's limit of five expansions may come before the
# fallback's answer or not)
[ "$(grep -cE "^    fallback beside the first search, which (it stopped|reached its limit \(nodes\)): $fb" <<<"$out")" = 2 ] &&
	grep -q "^solved 3 (2 by the fallback), no solution 0" <<<"$out" && pass ||
	fail "batch with a fallback beside: $out"
# the fallback's problem refused, or its process dying, is the run's
# error, named
sed 's/^  search.node_limit=0$/  problem.goal=sideways/' "$tmp/n.ini" >"$tmp/p.ini"
expect 2 "$tmp/p.ini:6" "$sd" -c "$tmp/p.ini" -s search.fallback_parallel=yes
expect 2 "the fallback's process ended without its result" \
	"$sd" -c "$tmp/r.ini" -s search.fallback_parallel=yes \
	-s "search.fallback=search.node_limit=0 problem.mode=crash"
expect 2 "bad value 'maybe' for fallback_parallel: expected yes or no" \
	"$sd" -c "$tmp/n.ini" -s search.fallback_parallel=maybe
expect 2 "search.fallback_parallel cannot change" \
	"$sd" -c "$tmp/n.ini" -s search.fallback=search.fallback_parallel=yes
# --trace runs them one after the other, in one trace
out=$("$sd" -c "$tmp/n.ini" --trace --trace-limit 3 -s search.fallback_parallel=yes 2>&1)
grep -q "^$mark\$" <<<"$out" && pass ||
	fail "a trace with fallback_parallel: $out"

# bad fallbacks: named at their line, before any search
expect 2 "searchd: --set search.fallback: 'astar' is not section.key=value" \
	"$sd" -c "$tmp/n.ini" -s search.fallback=astar
# (a word without '=' continues the value before it)
sed 's/^  search.node_limit=0$/  astar/' "$tmp/n.ini" >"$tmp/a.ini"
expect 2 "$tmp/a.ini:6: bad value 'astar astar' for algorithm" \
	"$sd" -c "$tmp/a.ini"
sed 's/^fallback = search.algorithm=astar$/fallback = astar/' "$tmp/n.ini" >"$tmp/a.ini"
expect 2 "$tmp/a.ini:6: fallback: 'astar' is not section.key=value" \
	"$sd" -c "$tmp/a.ini"
sed 's/^  search.node_limit=0$/  search.node_limit=x/' "$tmp/n.ini" >"$tmp/b.ini"
expect 2 "$tmp/b.ini:6: bad value 'x' for node_limit" "$sd" -c "$tmp/b.ini"
expect 2 "--set search.fallback search.heuristic: unknown heuristic 'nope'" \
	"$sd" -c "$tmp/n.ini" -s search.fallback=search.heuristic=nope
expect 2 "fallback: output.format cannot change" \
	"$sd" -c "$tmp/n.ini" -s search.fallback=output.format=json
# a problem the plugin refuses for the fallback: said after the first
# search, at the fallback's line
sed 's/^  search.node_limit=0$/  problem.goal=sideways/' "$tmp/n.ini" >"$tmp/p.ini"
expect 2 "$tmp/p.ini:6" "$sd" -c "$tmp/p.ini"
# ... given by --set, the plugin's message names the fallback (it said
# "<command line>", as if the key were set by itself)
expect 2 "searchd: --set search.fallback: goal must be" \
	"$sd" -c "$tmp/n.ini" -s "search.fallback=problem.goal=sideways"
# what the fallback cannot show is refused before the first search
expect 2 "--dot needs a search that keeps its tree; idastar keeps none" \
	"$sd" -c "$tmp/n.ini" -s search.fallback=search.algorithm=idastar \
	--dot "$tmp/t.dot"

finish
