#!/usr/bin/env bash
# The --html pages in a real browser (headless chromium; the test skips,
# and says so, when none is installed).  For each bundled plugin the
# page opens at step k (page.html#step=k): no script error (neither in
# the page's own self-check, data-sd-errors, nor on chromium's console),
# the board drawn as cells and the board text both equal --replay's step
# k, and a screenshot is saved in ARTEFACT_DIR.  The comparison's page
# has its rows, bar charts and admissibility note, and sorts by a
# column (#sort=N); the batch's page has its rows, counts and histogram.
# usage: html_browser.sh SEARCHD SOURCE_DIR ARTEFACT_DIR
set -u
sd=$1 src=$2 art=$3
. "$src/tests/lib.sh"
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	echo "html_browser: no chromium installed: skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$art"

# chrome URL [ARGS...]: run headless chromium on URL; the DOM after the
# scripts ran on stdout, its console log in $tmp/console.
chrome() {
	local url=$1
	shift
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --no-first-run \
		--enable-logging=stderr --v=0 \
		--user-data-dir="$(mktemp -d -p "$tmp")" "$@" "$url" \
		2>"$tmp/console"
}

# no_errors NAME DOMFILE: no script error in the page or on the console.
no_errors() {
	if grep -q '<html[^>]*data-sd-errors' "$2"; then
		fail "$1: the page's script failed: $(grep -o '<html[^>]*>' "$2")"
	elif grep -qE 'Uncaught|CONSOLE.*(Error|error)' "$tmp/console"; then
		fail "$1: console errors:"
		grep -E 'Uncaught|CONSOLE' "$tmp/console" | head -5
	else
		pass
	fi
}

# The drawn board (cells of #sd-board-grid) and the board text at step k
# against --replay's step k.
check_board() {
	python3 - "$1" "$2" "$3" <<'PY'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
rep = open(sys.argv[2], encoding="utf-8").read()
k = int(sys.argv[3])
m = re.search(r"^step %d of \d+: .*\n((?:.+\n)*)" % k, rep, re.M)
want = m.group(1).rstrip("\n").split("\n")
pre = re.search(r'<pre id="sd-board">(.*?)</pre>', dom, re.S)
text = html.unescape(pre.group(1)).rstrip("\n").split("\n") if pre else None
g = re.search(r'<div class="gridbox" id="sd-board-grid"><table class="grid" '
              r'data-kind="(\w+)">(.*?)</table>', dom, re.S)
errs = []
if text != want:
    errs.append("board text %r != replay %r" % (text, want))
if not g:
    errs.append("no board drawn as cells")
else:
    rows = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
            for r in re.findall(r"<tr>(.*?)</tr>", g.group(2), re.S)]
    if g.group(1) == "tokens":
        drawn, wanted = rows, [l.split() for l in want]
    else:
        drawn = ["".join(r).rstrip() for r in rows]
        wanted = [l.rstrip() for l in want]
    if drawn != wanted:
        errs.append("cells %r != replay %r" % (drawn, wanted))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
}

for p in npuzzle sokoban pancake; do
	page=$tmp/$p.html
	"$sd" --config "$src/config/$p.ini" -q --html "$page" >/dev/null ||
		{ fail "$p: no page"; continue; }
	"$sd" --config "$src/config/$p.ini" -q --replay >"$tmp/$p.replay"
	n=$(sed -n 's/^length  *//p' "$tmp/$p.replay")
	k=$(( n > 3 ? 3 : n ))
	chrome "file://$page#step=$k" --dump-dom >"$tmp/$p.dom"
	no_errors "$p" "$tmp/$p.dom"
	if check_board "$tmp/$p.dom" "$tmp/$p.replay" "$k"; then pass
	else fail "$p: step $k in the browser differs from --replay"; fi
	grep -q "step $k of $n" "$tmp/$p.dom" && pass ||
		fail "$p: the page does not say step $k of $n"
	chrome "file://$page#step=$k" --window-size=1000,1000 \
		--screenshot="$art/$p.png" >/dev/null
	[ -s "$art/$p.png" ] && pass || fail "$p: no screenshot"
done

# the comparison: a row each, three bar charts, the admissibility note;
# #sort=5 (expanded) puts the rows in ascending order of expanded
page=$tmp/compare.html
"$sd" --config "$src/config/sokoban.ini" -q --html "$page" \
	--compare algorithm=astar,bfs --compare heuristic=matching,packing \
	>/dev/null 2>&1
chrome "file://$page#sort=5" --dump-dom >"$tmp/compare.dom"
no_errors compare "$tmp/compare.dom"
if python3 - "$tmp/compare.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
body = re.search(r"<tbody>(.*?)</tbody>", dom, re.S).group(1)
rows = re.findall(r"<tr class=\"(\w[\w-]*)\">(.*?)</tr>", body, re.S)
exp = [int(re.findall(r'data-v="([\d.e+-]+)"', r)[3]) for _, r in rows]
errs = []
if len(rows) != 3:
    errs.append("%d rows, want 3 (the second bfs is a repeat)" % len(rows))
if exp != sorted(exp):
    errs.append("not sorted by expanded: %r" % exp)
if len(re.findall(r'<svg class="sd-bars"', dom)) != 3:
    errs.append("not three bar charts")
if "heuristic 'packing' is not admissible" not in dom:
    errs.append("no admissibility note")
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
then pass; else fail "compare page in the browser"; fi
chrome "file://$page" --window-size=1000,1000 \
	--screenshot="$art/compare.png" >/dev/null

# the batch: a row per problem, the counts, the histogram
page=$tmp/batch.html
"$sd" --config "$src/config/sokoban.ini" -q --html "$page" \
	--set problem.file="$src/config/levels/microban.xsb" \
	--set problem.level=1-6 >/dev/null 2>&1
chrome "file://$page" --dump-dom >"$tmp/batch.dom"
no_errors batch "$tmp/batch.dom"
rows=$(grep -c '^<tr class="solved">' "$tmp/batch.dom")
[ "$rows" = 6 ] && pass || fail "batch page: $rows solved rows, want 6"
grep -q 'solved: <b>6</b>' "$tmp/batch.dom" && pass ||
	fail "batch page: no count of 6 solved"
grep -q '<svg id="sd-hist"' "$tmp/batch.dom" && pass ||
	fail "batch page: no histogram"
chrome "file://$page" --window-size=1000,1000 \
	--screenshot="$art/batch.png" >/dev/null
# the problem column sorts by number (10 came before 8 as text)
page=$tmp/batch2.html
"$sd" --config "$src/config/sokoban.ini" -q --html "$page" \
	--set problem.file="$src/config/levels/microban.xsb" \
	--set problem.level=8-12 >/dev/null 2>&1
chrome "file://$page#sort=1" --dump-dom >"$tmp/batch2.dom"
order=$(grep -oE '<tr class="[a-z-]+"><td[^>]*>[0-9]+</td><td>[0-9]+' \
	"$tmp/batch2.dom" | grep -oE '[0-9]+$' | tr '\n' ' ')
[ "$order" = "8 9 10 11 12 " ] && pass ||
	fail "batch page sorted by problem: $order"

echo "screenshots in $art"
finish
