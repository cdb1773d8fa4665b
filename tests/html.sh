#!/usr/bin/env bash
# --html FILE: one self-contained page per run.  For each bundled
# plugin's single run: no network references, the plan's length and first step in
# the page, the boards of its data island equal to --replay's for step
# 1 and the last step; in chromium (if installed), the script shows the
# start board; the charts of the search (layers, open list) add up to
# its expansions; a small search's heat map is right about the walls.  With --compare and with a batch: a page of the runs
# without network references, a row each; a comparison that cannot
# start leaves no page; an unwritable file exits 2.  (The pages in the
# browser: html_browser.sh.)
# usage: html.sh SEARCHD SOURCE_DIR
set -u
sd=$1 src=$2
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for p in npuzzle sokoban pancake; do
	page=$tmp/$p.html
	"$sd" --config "$src/config/$p.ini" -q --html "$page" >/dev/null
	[ $? -eq 0 ] && [ -s "$page" ] && ok || { bad "$p: no page"; continue; }
	grep -qiE 'https?://' "$page" && bad "$p: network reference" || ok
	grep -qi '<script[^>]*src' "$page" && bad "$p: external script" || ok
	"$sd" --config "$src/config/$p.ini" -q --replay >"$tmp/$p.replay"
	# the data island against the replay: length, first step, boards
	if python3 - "$page" "$tmp/$p.replay" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
rep = open(sys.argv[2], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="sd-data">(.*?)</script>',
              page, re.S)
d = json.loads(m.group(1))
steps = d["steps"]
n = int(re.search(r"^length +(\d+)$", rep, re.M).group(1))
# the replay's boards: after "step k of n: TEXT", up to the blank line
boards = {}
for b in re.finditer(r"^step (\d+) of \d+: (.*)\n((?:.+\n)*)", rep, re.M):
    boards[int(b.group(1))] = (b.group(2), b.group(3))
errs = []
if d["length"] != n or len(steps) != n + 1:
    errs.append("length %s/%d steps, replay %d" % (d["length"], len(steps), n))
if "Plan: %d steps" % n not in page:
    errs.append("the page does not say %d steps" % n)
if "<li>%s</li>" % boards[1][0] not in page or steps[1]["text"] != boards[1][0]:
    errs.append("first step %r not in the page" % boards[1][0])
for k in (1, n):
    if steps[k]["board"] != boards[k][1]:
        errs.append("board %d: %r != replay %r" % (k, steps[k]["board"], boards[k][1]))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
	then ok; else bad "$p: the page's data differ from --replay"; fi
	if command -v chromium >/dev/null; then
		dom=$(timeout 60 chromium --headless --no-sandbox --disable-gpu \
			--disable-background-networking --no-first-run \
			--user-data-dir="$(mktemp -d -p "$tmp")" --dump-dom \
			"file://$page" 2>/dev/null)
		# the step-through's board, filled in by the script
		if python3 -c '
import json, re, sys, html
dom, page = sys.stdin.read(), open(sys.argv[1]).read()
d = json.loads(re.search(r"id=\"sd-data\">(.*?)</script>", page, re.S).group(1))
b = re.search(r"<pre id=\"sd-board\">(.*?)</pre>", dom, re.S)
sys.exit(0 if b and html.unescape(b.group(1)) == d["steps"][0]["board"] else 1)
' "$page" <<<"$dom"; then ok
		else bad "$p: chromium: the script did not show the start board"; fi
	else
		echo "no chromium: skipped"
	fi
done

# the chart: with a heuristic (npuzzle's astar) only
grep -q '<svg id="sd-chart"' "$tmp/npuzzle.html" && ok || bad "npuzzle: no chart"
grep -q '<svg' "$tmp/sokoban.html" && bad "sokoban (bfs): a chart" || ok

# the search's profile: the layers (f for astar, the bound for idastar)
# add up to the expansions, which the profile does not change
for a in astar idastar; do
	"$sd" --config "$src/config/npuzzle.ini" -q --set search.algorithm=$a \
		--set search.heuristic=misplaced --html "$tmp/$a.html" >"$tmp/$a.out"
	"$sd" --config "$src/config/npuzzle.ini" -q --set search.algorithm=$a \
		--set search.heuristic=misplaced >"$tmp/$a.plain"
	if python3 - "$tmp/$a.html" "$tmp/$a.out" "$tmp/$a.plain" <<'PY'
import re, sys
page, out, plain = (open(f).read() for f in sys.argv[1:])
exp = lambda t: int(re.search(r"^expanded +(\d+)", t, re.M).group(1))
layers = [int(x) for x in re.findall(r": (\d+) expanded</title>", page)]
ok = exp(out) == exp(plain) == sum(layers) and len(layers) > 5
ok = ok and ('<svg id="sd-open"' in page) == ("bound" not in page)
sys.exit(0 if ok else 1)
PY
	then ok; else bad "$a: the profile's layers do not add up to expanded"; fi
done

# a search that expands a state again says so beside the heat map,
# whose count is of states (weighted A* on an 8-puzzle: 235 states, 240
# expansions; the page said "the 235 expanded states" alone)
"$sd" --config "$src/config/npuzzle.ini" -q -s search.algorithm=wastar \
	-s problem.tiles="7 2 4 5 0 6 8 3 1" -s problem.goal=blank-first \
	--html "$tmp/reheat.html" >/dev/null
grep -q 'Where the 235 expanded states .*the search made 240 expansions' \
	"$tmp/reheat.html" && ok || bad "heat map: re-expansions not said"

# the heat map of a small search (the tree is kept, at most 2000
# states): a cell per character of the start's board, walls never
# counted, no count above the expansions; none for a larger search
"$sd" --config "$src/config/sokoban.ini" -q -s search.algorithm=astar \
	-s problem.file="$src/config/levels/microban.xsb" -s problem.level=2 \
	--html "$tmp/heat.html" >"$tmp/heat.out"
if python3 - "$tmp/heat.html" "$tmp/heat.out" <<'PY'
import html, json, re, sys
page, out = (open(f).read() for f in sys.argv[1:])
exp = int(re.search(r"^expanded +(\d+)", out, re.M).group(1))
d = json.loads(re.search(r'id="sd-data">(.*?)</script>', page, re.S).group(1))
start = d["steps"][0]["board"].rstrip("\n").split("\n")
w = max(len(l) for l in start)
m = re.search(r'<svg id="sd-heat".*?</svg>', page, re.S).group(0)
cells = re.findall(r'<rect x="(\d+)" y="(\d+)"[^>]*><title>(\d+)</title>', m)
ok = len(cells) == w * len(start) and "%d expanded states" % exp in page
for x, y, n in cells:
    x, y, n = int(x) // 16, int(y) // 16, int(n)
    ch = start[y][x] if x < len(start[y]) else " "
    ok = ok and n <= exp and (ch != "#" or n == 0)
ok = ok and max(int(n) for _, _, n in cells) > 0
sys.exit(0 if ok else 1)
PY
then ok; else bad "heat map: wrong cells or counts"; fi
grep -q 'sd-heat' "$tmp/sokoban.html" && bad "sokoban (77 379 states): a heat map" || ok

# the pages of many runs: self-contained, a row each
"$sd" --config "$src/config/npuzzle.ini" -q --html "$tmp/c.html" \
	--compare search.algorithm=astar,idastar >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c '^<tr class="solved">' "$tmp/c.html")" = 2 ] &&
	grep -q '<svg class="sd-bars"' "$tmp/c.html" && ok ||
	bad "--html with --compare: no page with 2 rows and charts"
"$sd" --config "$src/config/15puzzle.ini" -q --html "$tmp/b.html" \
	--set problem.index=1,2 --set search.node_limit=1000 \
	>/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && [ "$(grep -c '^<tr class="limit">' "$tmp/b.html")" = 2 ] &&
	grep -q 'limit reached: <b>2</b>' "$tmp/b.html" && ok ||
	bad "--html with a batch: no page with 2 rows at the limit"
# a batch's problem that cannot be made, and a comparison's combination
# that cannot be set up: an error row that carries the message (the
# batch's row had an empty note, the combination no row at all)
printf '#####\n#@$.#\n#####\n\n#####\n#@ .#\n#####\n' >"$tmp/mix.xsb"
"$sd" --config "$src/config/sokoban.ini" -q --html "$tmp/be.html" \
	--set problem.file="$tmp/mix.xsb" --set problem.level=all \
	>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c '^<tr class="error">' "$tmp/be.html")" = 1 ] &&
	grep -q 'mix.xsb:5: no boxes' "$tmp/be.html" && ok ||
	bad "--html with a batch: the error row lacks its message"
"$sd" --config "$src/config/npuzzle.ini" -q --html "$tmp/ce.html" \
	--compare heuristic=manhattan,nosuch >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c '^<tr class="error">' "$tmp/ce.html")" = 1 ] &&
	grep -q "unknown heuristic 'nosuch'" "$tmp/ce.html" && ok ||
	bad "--html with --compare: no error row for a bad heuristic"
for f in c b; do
	grep -qiE 'https?://|src=' "$tmp/$f.html" && bad "$f: external reference" ||
		ok
done
"$sd" --config "$src/config/npuzzle.ini" -q --html "$tmp/e.html" \
	--compare search.algorithm >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/e.html" ] && ok ||
	bad "--html with a failing --compare: a page or not exit 2"
"$sd" --config "$src/config/npuzzle.ini" -q --html "$tmp/no/such/dir.html" \
	>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'cannot write' "$tmp/err" && ok ||
	bad "--html to an unwritable file: not exit 2"
# ... said with the reason, before the search (a 5 s one here: it ran to
# its end before the file was tried), for --dot too
for o in --html --dot; do
	start=$SECONDS
	"$sd" --config "$src/config/15puzzle.ini" -q $o "$tmp/no/such/x" \
		--set search.algorithm=astar --set search.heuristic=zero \
		--set search.time_limit=5 >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && [ $((SECONDS - start)) -lt 3 ] &&
		grep -q "^searchd: $o: cannot write '$tmp/no/such/x': No such file or directory" \
		"$tmp/err" && ok || bad "$o to an unwritable file: $(cat "$tmp/err")"
done
# a tree too large to draw still gets its page (the page was not
# written before), and no empty .dot is left
"$sd" --config "$src/config/npuzzle.ini" -q --dot "$tmp/big.dot" \
	--html "$tmp/big.html" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ -s "$tmp/big.html" ] && [ ! -e "$tmp/big.dot" ] &&
	grep -q 'more than the 2000' "$tmp/err" && ok ||
	bad "--dot too large with --html: the page or the message missing"
# --dot's hint quotes a path with a space or a quote for the shell
"$sd" --config "$src/config/npuzzle.ini" -q --set problem.tiles="1 2 3 4 5 6 0 7 8" \
	--dot "$tmp/a b'c.dot" >/dev/null 2>"$tmp/err"
grep -qF "dot -Tsvg '$tmp/a b'\''c.dot' -o '$tmp/a b'\''c'.svg" "$tmp/err" &&
	ok || bad "--dot's hint: $(cat "$tmp/err")"
# a batch of one level: the histogram's edges differ (0.00035,
# 0.00035, 0.00036... before), and "1 run", not "1 runs"
"$sd" --config "$src/config/sokoban.ini" -q --html "$tmp/one.html" \
	-s problem.file="$src/config/levels/microban.xsb" -s problem.level=3-3 \
	>/dev/null 2>&1
edges=$(sed -n '/<svg id="sd-hist"/,/<\/svg>/p' "$tmp/one.html" |
	grep -oE 'y="[0-9]+" text-anchor="middle">[0-9.e+-]+<' |
	grep -oE '>[0-9.e+-]+<' | sort | uniq -d)
[ -z "$edges" ] && grep -q '<p>1 run\.' "$tmp/one.html" && ok ||
	bad "one-level batch page: edges repeated: $edges"
# a batch past the table's 5000 rows: the counts and the histogram
# cover every run (they counted the table's rows: "solved: 5000 ... of
# 5003", a histogram of 5000)
awk 'BEGIN { for (i = 0; i < 5003; i++) print "1 0 2 3 4 5 6 7 8" }' \
	>"$tmp/near.txt"
"$sd" --config "$src/config/npuzzle.ini" -q -s problem.tiles= \
	-s problem.file="$tmp/near.txt" -s problem.index=all \
	--html "$tmp/big.html" >/dev/null 2>&1
hist=$(sed -n '/<svg id="sd-hist"/,/<\/svg>/p' "$tmp/big.html" |
	grep -oE 'y="[0-9]+\.[0-9]" text-anchor="middle">[0-9]+<' |
	grep -oE '>[0-9]+<' | tr -d '<>' |
	awk '{ s += $1 } END { print s }')
grep -q 'solved: <b>5003</b>.*of 5003' "$tmp/big.html" && [ "$hist" = 5003 ] &&
	ok || bad "batch of 5003: $(grep -o '<p id="sd-counts">.*' "$tmp/big.html"), histogram $hist"
# a search without a plan (a limit) still shows the start board (the
# page had no Problem section before)
"$sd" --config "$src/config/npuzzle.ini" -q -s search.node_limit=1000 \
	--html "$tmp/lim.html" >/dev/null 2>&1
tr -d '\n' <"$tmp/lim.html" | grep -q 'id="sd-start"> 8  7  6 \.  4  1 2  5  3' &&
	ok || bad "a page at a limit: no start board"
# an interrupted batch's page says how many ran of how many ("1 runs"
# and nothing of the interrupt before); the interrupt is sent once the
# first search holds 64 MiB (a fixed second may pass before the first
# problem begins on a machine loaded by builds, under the sanitizers)
"$sd" --config "$src/config/15puzzle.ini" -q --set problem.index=1-3 \
	--set search.algorithm=astar --set search.heuristic=zero \
	--set search.time_limit=30 --html "$tmp/cut.html" >/dev/null 2>&1 &
cut=$!
for i in $(seq 400); do
	rss=$(awk '/^VmRSS/ {print $2}' "/proc/$cut/status" 2>/dev/null)
	[ "${rss:-0}" -ge 65536 ] && break
	sleep 0.05
done
kill -INT $cut
wait $cut
grep -q '<p>1 run of 3 <span class="limit" id="sd-cut">(interrupted: the other 2 did not run)</span>' \
	"$tmp/cut.html" && grep -q '&mdash; of 3</p>' "$tmp/cut.html" && ok ||
	bad "interrupted batch page: $(grep -o '<p>[0-9][^<]*' "$tmp/cut.html")"

echo "html: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
