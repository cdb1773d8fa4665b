#!/usr/bin/env bash
# The main example end to end: searchd --config config/sokoban.ini must
# solve the blog level in 42 moves; errors exit 2 naming file and line.
# usage: cli_sokoban.sh SEARCHD SOURCE_DIR
set -u
searchd=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
cd "$src" || fail "no source dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$searchd" --config config/sokoban.ini 2>&1) || fail "exit $?: $out"
grep -Eq '^cost +42$' <<<"$out" || fail "not 42 moves: $out"
plan=$(awk '$1 == "plan" { print $2 }' <<<"$out")
[ ${#plan} -eq 42 ] || fail "plan '$plan' is not 42 steps"

out=$("$searchd" --config config/sokoban.ini --format json \
      --set problem.cost=pushes --set search.algorithm=astar \
      --set search.heuristic=matching 2>&1) || fail "pushes: exit $?: $out"
grep -q '"status":"solved"' <<<"$out" || fail "pushes json: $out"

# an inadmissible heuristic under A* is solved, with a note saying so
out=$("$searchd" --config config/sokoban.ini --set problem.cost=pushes \
      --set search.algorithm=astar --set search.heuristic=packing 2>&1) ||
	fail "packing: exit $?: $out"
grep -q "heuristic 'packing' is not admissible" <<<"$out" ||
	fail "no note on an inadmissible heuristic: $out"
"$searchd" --config config/sokoban.ini --list-heuristics |
	grep -Eq '^packing +no ' || fail "packing not listed as inadmissible"

# the deadlock tables are made before the search: their time is reported
# apart, as setup_seconds (the search's seconds left it out, unsaid)
out=$("$searchd" --config config/sokoban.ini -q -f json \
      --set problem.cost=pushes --set problem.deadlocks="all tables" 2>&1) ||
	fail "tables: exit $?: $out"
python3 -c 'import json, sys; s = json.loads(sys.argv[1])["stats"]
assert s["setup_seconds"] > 0, s' "$out" || fail "no setup_seconds: $out"

# --replay in the push model draws the player where it stands, not at
# the smallest cell of its area (that is the state's normalised form)
printf '######\n# @$.#\n######\n' >"$tmp/replay.xsb"
out=$("$searchd" --config config/sokoban.ini --replay \
      --set problem.file="$tmp/replay.xsb" \
      --set problem.cost=pushes 2>&1) || fail "replay: exit $?: $out"
grep -q '^# @\$\.#$' <<<"$out" || fail "replay start board: $out"
grep -q '^#  @\*#$' <<<"$out" || fail "replay board after the push: $out"

# searching backward, the replay goes forwards: from the start, each
# push after a walk from where the push before left the player; the
# trace shows the pulls ("(column,row)d", the box's cell before it)
printf '######\n#    #\n#@$ .#\n#    #\n######\n' >"$tmp/back.xsb"
out=$("$searchd" --config config/sokoban.ini --replay \
      --set problem.file="$tmp/back.xsb" --set problem.cost=pushes \
      --set problem.direction=backward --set search.algorithm=astar \
      --set search.heuristic=matching 2>&1) || fail "backward: exit $?: $out"
grep -q '^cost        2$' <<<"$out" || fail "backward: not 2 pushes: $out"
grep -q '^#@\$ \.#$' <<<"$out" || fail "backward replay start: $out"
grep -q '^#  @\*#$' <<<"$out" || fail "backward replay end: $out"
out=$("$searchd" --config config/sokoban.ini --trace --trace-limit 2 \
      --set problem.file="$tmp/back.xsb" --set problem.cost=pushes \
      --set problem.direction=backward --set search.algorithm=astar \
      --set search.heuristic=matching 2>&1) || fail "backward trace: $out"
grep -q 'via ([0-9],[0-9])[udlr] ' <<<"$out" || fail "backward trace: $out"
# forward first, backward as its fallback: the plan of the pulls is
# replayed forwards, and the report names the fallback
out=$("$searchd" --config config/sokoban.ini --replay \
      --set problem.file="$tmp/back.xsb" --set problem.cost=pushes \
      --set search.algorithm=astar --set search.heuristic=matching \
      --set search.node_limit=1 --set search.fallback="search.node_limit=0
      problem.direction=backward" 2>&1) || fail "fallback: exit $?: $out"
grep -q '^fallback    after the first search.s limit (nodes): search.node_limit=0 problem.direction=backward$' <<<"$out" &&
	grep -q '^cost        2$' <<<"$out" && grep -q '^#  @\*#$' <<<"$out" ||
	fail "backward as the fallback: $out"

# a tunnel macro is one step of the replay, spelled out in full, after
# which the player stands behind the box; the step model has no macros
printf '#######\n#@$  .#\n#######\n' >"$tmp/tunnel.xsb"
out=$("$searchd" --config config/sokoban.ini --replay \
      --set problem.file="$tmp/tunnel.xsb" \
      --set problem.cost=pushes --set problem.macros=tunnel 2>&1) ||
	fail "tunnel replay: exit $?: $out"
grep -q '^step 1 of 1: RRR$' <<<"$out" || fail "tunnel macro step: $out"
grep -q '^#   @\*#$' <<<"$out" || fail "board after the tunnel macro: $out"
out=$("$searchd" --config config/sokoban.ini --set problem.macros=tunnel 2>&1)
[ $? -eq 2 ] || fail "macros in the step model: wrong exit status: $out"
grep -q "macros need actions = pushes" <<<"$out" ||
	fail "macros in the step model: $out"

# a list naming nothing, or none with other names, is refused (an empty
# one was taken as none, "none all" as all)
for v in "" " , " "none all" "corner none"; do
	out=$("$searchd" --config config/sokoban.ini --set problem.cost=pushes \
		--set problem.deadlocks="$v" --set problem.macros=none 2>&1)
	[ $? -eq 2 ] || fail "deadlocks = '$v': wrong exit status: $out"
	grep -q "give names, all or none (alone)" <<<"$out" ||
		fail "deadlocks = '$v': $out"
done
out=$("$searchd" --config config/sokoban.ini --set problem.cost=pushes \
	--set problem.macros="none tunnel" 2>&1)
[ $? -eq 2 ] && grep -q "macros = 'none tunnel' mixes none with other names" <<<"$out" ||
	fail "macros = 'none tunnel': $out"

out=$("$searchd" --config config/sokoban.ini --set problem.colour=red 2>&1)
[ $? -eq 2 ] || fail "unknown key: wrong exit status: $out"
grep -q "colour" <<<"$out" || fail "unknown key not named: $out"

# a bad format names the config line that set it, not the level file
printf '[plugin]\nname = sokoban\n[problem]\nfile = %s\nformat = foo\n' \
	"$src/config/levels/blog.txt" >"$tmp/fmt.ini"
out=$("$searchd" --config "$tmp/fmt.ini" 2>&1)
[ $? -eq 2 ] || fail "bad format: wrong exit status: $out"
grep -q "fmt.ini:5: unknown format 'foo' (auto, xsb or letters)" <<<"$out" ||
	fail "bad format not named at its line: $out"

printf '#####\n#$  #\n# @.#\n#####\n' >"$tmp/dead.xsb"
out=$("$searchd" --config config/sokoban.ini \
      --set problem.file="$tmp/dead.xsb" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "dead corner: exit $rc: $out"
# refused WHAT TEXT ARGS...: searchd ARGS must exit 2 and print TEXT
refused() {
	local what=$1 text=$2 out rc
	shift 2
	out=$("$searchd" "$@" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc: $out"
	grep -qF -- "$text" <<<"$out" || fail "$what: $out"
}
printf '#####\n#@$.#\n# @ #\n#####\n' >"$tmp/two.xsb"
refused "two players" "two.xsb:3: two players (first at line 2)" \
	--config config/sokoban.ini --set problem.file="$tmp/two.xsb"

# a level indented with tabs: its first line with a tab is named
printf 'Title: tabs\n\t#####\n\t#@$.#\n\t#####\n' >"$tmp/tab.xsb"
refused "tab-indented level" "tab.xsb:2: a tab in the level (levels are drawn with spaces, not tabs)" \
	--config config/sokoban.ini --set problem.file="$tmp/tab.xsb"

# ... and in a file with other levels, it keeps its number: a batch
# gives it an error row and the level after it stays number 3
printf '#####\n#@$.#\n#####\n\n\t#####\n\t#@$.#\n\t#####\n\n#####\n#.$@#\n#####\n' >"$tmp/tab2.xsb"
refused "a second level indented with tabs" "tab2.xsb:5: a tab in the level" \
	--config config/sokoban.ini --set problem.file="$tmp/tab2.xsb" \
	--set problem.level=2
out=$("$searchd" --config config/sokoban.ini --format csv \
      --set problem.file="$tmp/tab2.xsb" --set problem.level=all 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "batch over a tab-indented level: exit $rc: $out"
grep -Eq '^"?2"?,.*,error,' <<<"$out" ||
	fail "batch: the tab-indented level has no error row: $out"
grep -Eq '^"?3"?,.*,solved,' <<<"$out" ||
	fail "batch: the level after it is not number 3: $out"

# a level the file does not hold: the message names the config line
# that asks for it, then the file (it named the file alone)
printf '[plugin]\nname = sokoban\n[problem]\nfile = two.xsb\nlevel = 9\n' >"$tmp/l9.ini"
refused "a level not in the file" "$tmp/l9.ini:5: $tmp/two.xsb: no level '9' (the file has 1 level)" \
	--config "$tmp/l9.ini"

# no level file at all: the message names the config
printf '[plugin]\nname = sokoban\n[search]\nalgorithm = astar\n' >"$tmp/nofile.ini"
refused "no file key" "$tmp/nofile.ini: [problem] needs a level: set file = PATH" \
	--config "$tmp/nofile.ini"
# a level of 1,105 boxes on goals: the start's sealed-goals check is
# made once, not once a box (it made its matching 1,105 times before
# the search, beyond the time limit and Ctrl-C: 8 s of a 1 s limit,
# where the rules without it took 1.5 s; 80 s at 64 x 64)
awk -v n=48 'BEGIN {
	for (r = 0; r <= n + 1; r++) {
		line = ""
		for (c = 0; c <= n + 1; c++) {
			ch = " "
			if (r == 0 || r == n + 1 || c == 0 || c == n + 1) ch = "#"
			else if (r % 2 == 0 && c <= n - 2) ch = "*"
			else if (r == 1 && c == 1) ch = "@"
			else if (r == 3 && c == 5) ch = "$"
			else if (r == 3 && c == 3) ch = "."
			line = line ch
		}
		print line
	}
}' >"$tmp/rows.xsb"
# ms RULES: milliseconds of a run of that level under those rules
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$searchd" -q --set plugin.name=sokoban --set problem.file="$tmp/rows.xsb" \
		--set problem.deadlocks="$1" --set search.time_limit=1 >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 ))
}
with=$(ms all)
without=$(ms "dead-squares corner freeze block")
[ "$with" -lt $((3 * without)) ] ||
	fail "many boxes on goals: $with ms with frozen-goals, $without ms without"
# a list of levels runs in increasing order, each level once
out=$("$searchd" --config config/sokoban.ini -q -f csv \
      --set problem.file=config/levels/microban.xsb --set problem.level=5,2,2 \
      --set problem.cost=pushes --set search.algorithm=greedy 2>&1) ||
	fail "list of levels: exit $?: $out"
[ "$(grep -E '^[0-9]+,' <<<"$out" | cut -d, -f1 | tr '\n' ' ')" = "2 5 " ] ||
	fail "list 5,2,2 not run as 2, 5: $out"
echo "ok"
