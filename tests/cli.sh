#!/usr/bin/env bash
# The searchd program end to end: exit statuses, messages, JSON output.
# usage: cli.sh SEARCHD SOURCE_DIR TEST_PLUGIN_DIR
set -u
sd=$1 src=$2 plugins=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"


cat >"$tmp/g.ini" <<EOI
[plugin]
path = $plugins/graph.so
[search]
algorithm = astar
[problem]
edges = S>G:10 S>A:1 A>B:1 B>G:1
start = S
goal = G
EOI

expect 0 "usage: searchd" "$sd" --help
expect 0 "exit status:" "$sd" --help
expect 0 "searchd 0." "$sd" --version
expect 2 "usage:" "$sd"
expect 2 "unknown option '--bogus'" "$sd" --bogus
expect 0 "plan        S>A A>B B>G" "$sd" --config "$tmp/g.ini"
# the README's example config solves (the first ```ini block)
awk '/^```ini$/ { on = 1; next } /^```$/ { if (on) exit } on' \
	"$src/README.md" >"$tmp/readme.ini"
expect 0 "cost        57" "$sd" --config "$tmp/readme.ini" -q
expect 0 '"cost":3' "$sd" --config "$tmp/g.ini" --format json
expect 0 '"plan":"S>G"' "$sd" --config "$tmp/g.ini" --set search.algorithm=bfs --format json
# a bad --format is named as the option given, not as a --set
expect 2 "searchd: --format: bad value 'xml': expected text, json or csv" \
	"$sd" --config "$tmp/g.ini" --format xml
expect 2 "searchd: --set output.format: bad value 'xml' for format" \
	"$sd" --config "$tmp/g.ini" --set output.format=xml
for a in bfs ucs astar wastar greedy idastar fess; do
	expect 0 '"status":"solved"' "$sd" -c "$tmp/g.ini" -s search.algorithm=$a -f json
done
expect 2 "--set search.algorithm: plugin 'npuzzle' (" \
	"$sd" -c "$src/config/npuzzle.ini" -s search.algorithm=fess
expect 2 "npuzzle.so) has no features(), which algorithm fess needs" \
	"$sd" -c "$src/config/npuzzle.ini" -s search.algorithm=fess
# an algorithm the plugin cannot run, or dls without its limit: the
# message names the config line that asks for it (it named none)
printf '[plugin]\nname = pancake\n[search]\nalgorithm = dls\n[problem]\nstack = 2 1\n' >"$tmp/dls.ini"
expect 2 "$tmp/dls.ini:4: algorithm dls needs a depth_limit above 0" \
	"$sd" -c "$tmp/dls.ini"
# ... per combination: a comparison that gives dls its limit, or runs
# other algorithms, is not refused for the config's dls
out=$("$sd" -c "$tmp/dls.ini" -q --compare depth_limit=1,3 -f csv 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(grep -c ',dls,' <<<"$out")" = 2 ]
then pass; else fail "dls with --compare depth_limit: exit $rc: $out"; fi
expect 0 "gap" "$sd" -c "$tmp/dls.ini" --list-heuristics
printf '[plugin]\nname = npuzzle\n[search]\nalgorithm = fess\n[problem]\ntiles = 1 2 3 4 5 6 7 0 8\n' >"$tmp/fess.ini"
expect 2 "$tmp/fess.ini:4: plugin 'npuzzle' (" "$sd" -c "$tmp/fess.ini"
expect 0 '"algorithm":"idastar","heuristic":"table"' "$sd" -c "$tmp/g.ini" -s search.algorithm=idastar -f json
expect 1 "status      no solution" "$sd" -c "$tmp/g.ini" --set problem.goal=Z
expect 3 "status      limit reached (nodes)" "$sd" -c "$tmp/g.ini" \
	--set problem.line=100000000 --set search.node_limit=10
expect 3 '"limit":"time"' "$sd" -c "$tmp/g.ini" -f json \
	--set problem.line=100000000 --set search.time_limit=0.2
expect 0 "table            yes  the h values" "$sd" -c "$tmp/g.ini" --list-heuristics
# the listings take --format (and the config's [output] format)
expect 0 '{"heuristic":"table","admissible":true,"default":true,' \
	"$sd" -c "$tmp/g.ini" --list-heuristics -f json
expect 0 '{"heuristic":"zero","admissible":true,"default":false,' \
	"$sd" -c "$tmp/g.ini" --list-heuristics --set output.format=json
expect 0 "heuristic,admissible,default,description" \
	"$sd" -c "$tmp/g.ini" --list-heuristics -f csv
expect 0 "table,yes,yes," "$sd" -c "$tmp/g.ini" --list-heuristics -f csv
out=$(SEARCHD_PLUGIN_PATH="$plugins" "$sd" --list-plugins -f json 2>/dev/null)
if python3 -c 'import json,sys
rows = [json.loads(l) for l in sys.stdin]
assert rows and all(set(r) == {"plugin", "version", "description", "path",
                               "build", "shadowed_by"} for r in rows), rows
assert any(r["plugin"] == "graph" and r["path"].endswith("/graph.so")
           for r in rows), rows' <<<"$out"
then pass; else fail "--list-plugins -f json: $out"; fi
# a directory named twice on the path (an installed program's last two
# are one) is listed once (each plugin was listed twice)
n=$(SEARCHD_PLUGIN_PATH="$plugins:$plugins/" "$sd" --list-plugins -f json 2>/dev/null |
	grep -c '"graph"')
[ "$n" = 1 ] && pass || fail "--list-plugins with a directory twice: graph $n times"
out=$(SEARCHD_PLUGIN_PATH="$plugins" "$sd" --list-plugins -f csv 2>/dev/null)
if [ "$(head -1 <<<"$out")" = "plugin,version,description,path,build,shadowed_by" ] &&
	grep -q "^graph,.*/graph\.so," <<<"$out"
then pass; else fail "--list-plugins -f csv: $out"; fi
# a plugin whose name loads another file, earlier on the path, says so
# (both were listed alike, and the second could not be had by name)
mkdir -p "$tmp/early" && cp "$plugins/graph.so" "$tmp/early/"
out=$(SEARCHD_PLUGIN_PATH="$tmp/early:$plugins" "$sd" --list-plugins -f json 2>/dev/null)
if python3 -c 'import json,sys
rows = [r for r in map(json.loads, sys.stdin) if r["plugin"] == "graph"]
early, late = sys.argv[1] + "/early/graph.so", sys.argv[2] + "/graph.so"
assert len(rows) == 2, rows
by = {r["path"]: r["shadowed_by"] for r in rows}
assert by[early] is None and by[late].endswith("/early/graph.so"), by' \
	"$(realpath "$tmp")" "$(realpath "$plugins")" <<<"$out"
then pass; else fail "--list-plugins, a shadowed plugin: $out"; fi
expect 0 "shadowed: its name loads $(realpath "$tmp")/early/graph.so, earlier on the path" \
	env SEARCHD_PLUGIN_PATH="$tmp/early:$plugins" "$sd" --list-plugins

# a FIFO or a directory where a plugin file is looked for: a plugin path
# is refused at once (dlopen waited for a writer for ever, past SIGTERM);
# by name, the search goes on to the next directory (it stopped there)
mkdir -p "$tmp/fifo" "$tmp/dirs/graph.so" && mkfifo "$tmp/fifo/graph.so"
expect 2 "cannot load plugin '$tmp/fifo/graph.so': not a regular file" \
	timeout -k 1 10 "$sd" --set plugin.path="$tmp/fifo/graph.so"
sed "s|^path = .*|name = graph|" "$tmp/g.ini" >"$tmp/gn.ini"
expect 0 "plan        S>A A>B B>G" env SEARCHD_PLUGIN_PATH="$tmp/fifo:$tmp/dirs:$plugins" \
	timeout -k 1 10 "$sd" -c "$tmp/gn.ini"
expect 0 "not a regular file" env SEARCHD_PLUGIN_PATH="$tmp/fifo" \
	timeout -k 1 10 "$sd" --list-plugins
printf '[plugin]\npath =\n' >"$tmp/ep.ini"
expect 2 "$tmp/ep.ini:2: path: no file named (the value is empty)" \
	"$sd" -c "$tmp/ep.ini"
# an output path longer than PATH_MAX is too long, not "out of memory"
long=$tmp/$(python3 -c "print('/'.join(['d' * 200] * 21))")
mkdir -p "$long"
expect 2 "File name too long" "$sd" -c "$tmp/g.ini" --html "$long/x.html"
# a directory that takes no new file although the access test passes
# (root on /proc) is refused before the search (it searched for the
# whole time limit, then could not write)
start=$(date +%s%N)
out=$("$sd" -c "$src/config/15puzzle.ini" -q -s search.algorithm=ucs \
	-s search.time_limit=6 --html /proc/x.html 2>&1)
rc=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc = 2 ] && grep -q "cannot write '/proc/x.html'" <<<"$out" && [ "$ms" -lt 3000 ]
then pass; else fail "--html into /proc: exit $rc after $ms ms: $out"; fi

# a heuristic without a description is listed (--list-heuristics
# crashed on it: the contract asks for none)
printf '[plugin]\npath = %s\n' "$plugins/rogue.so" >"$tmp/r.ini"
expect 0 "mute             yes" "$sd" -c "$tmp/r.ini" --list-heuristics
# --compare values: two that differ only past 255 bytes are two rows (the
# cut labels made them one "repeat", exit 0); one too long for a
# combination's override is refused (it was cut: another problem ran)
long=$(printf 'S%.0s' $(seq 300))
out=$("$sd" -c "$tmp/g.ini" -q -f csv -s problem.start="${long}X" -s problem.goal="${long}X" \
	--compare "problem.edges=${long}X>A:1,${long}X>B:1" 2>&1)
[ "$(grep -c "^edges=" <<<"$out")" = 2 ] && pass ||
	fail "--compare values alike in their first 255 bytes: $(cut -c1-80 <<<"$out")"
expect 2 "a value longer than" "$sd" -c "$tmp/g.ini" -q \
	--compare "problem.edges=S>G:1,$(printf 'S>G:1 %.0s' $(seq 100))"

# the --html table of a comparison: costs exact in the cells and in the
# values its sort compares (data-v was 4.29496729e+09 for both)
"$sd" -c "$tmp/g.ini" -q -f csv \
	--compare "problem.edges=S>G:4294967294,S>G:4294967290" --html "$tmp/big.html" >/dev/null 2>&1
if grep -q 'data-v="4294967294">4294967294<' "$tmp/big.html" &&
   grep -q 'data-v="4294967290">4294967290<' "$tmp/big.html"
then pass; else fail "--html table costs: $(grep -o 'data-v="[^"]*">[0-9]*' "$tmp/big.html" | head -4)"; fi
# the single run's page: the h chart's scale for an h in the billions
# (printed %.6f: 0, and the marker fell to the axis after the first step)
"$sd" -c "$tmp/g.ini" -q -s "problem.edges=S>A:2000000000 A>G:2000000000" \
	-s "problem.h=S:4000000000 A:2000000000" --html "$tmp/h.html" >/dev/null 2>&1
grep -q 'sy:4.9e-08}' "$tmp/h.html" && pass ||
	fail "--html h chart scale: $(grep -o 'var sdChart={[^}]*}' "$tmp/h.html")"

# errors: exit 2, naming the file, line and problem
printf '[plugin]\nname = graph\n[search]\nalgoritm = bfs\n' >"$tmp/k.ini"
expect 2 "$tmp/k.ini:4: unknown key 'algoritm' in [search]" "$sd" --config "$tmp/k.ini"
printf '[plugin]\nname = nosuchplugin\n' >"$tmp/p.ini"
expect 2 "$tmp/p.ini:2: cannot find plugin 'nosuchplugin'" "$sd" --config "$tmp/p.ini"
expect 2 "bad value 'abc' for time_limit" "$sd" -c "$tmp/g.ini" --set search.time_limit=abc
expect 2 "unknown heuristic 'nope' for plugin 'graph' (available: zero, table)" \
	"$sd" -c "$tmp/g.ini" --set search.heuristic=nope
expect 2 "cannot open config '$tmp/none.ini'" "$sd" --config "$tmp/none.ini"
expect 2 "<command line>: unknown key 'colour'" "$sd" -c "$tmp/g.ini" --set problem.colour=red
expect 2 "is built for ABI 2.0; searchd supports 1.x" "$sd" -c "$tmp/g.ini" --set plugin.path="$plugins/badabi.so"

# Ctrl-C ends the search cleanly, like a limit
"$sd" -c "$tmp/g.ini" -f json --set problem.line=4000000000 \
	--set search.algorithm=idastar -s search.heuristic=zero >"$tmp/int.out" 2>&1 &
pid=$!
wait_ready $pid || fail "no sign of life from the SIGINT run"
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 3 ] && grep -q '"limit":"interrupt"' "$tmp/int.out"; then
	pass
else
	fail "SIGINT gave exit $rc:"; cat "$tmp/int.out"
fi

# an interrupt between two problems of a batch (here while the last one
# is freed) or two runs of --compare ends it with exit 3 (it gave 0);
# sent once the first row is out (a fixed 0.5 s came before it on a
# loaded machine under the sanitizers)
printf '[plugin]\npath = %s\n[problem]\nmode = slowend\n' \
	"$plugins/rogue.so" >"$tmp/slow.ini"
for how in "--set problem.case=all" "--compare algorithm=astar,ucs,bfs"; do
	# shellcheck disable=SC2086 # the option and its value are two words
	"$sd" -c "$tmp/slow.ini" -q $how >"$tmp/slow.out" 2>"$tmp/slow.err" &
	pid=$!
	for i in $(seq 200); do
		[ "$(wc -l <"$tmp/slow.out")" -ge 2 ] && break
		sleep 0.05
	done
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc = 3 ] && grep -q "interrupted: [12] of [35]" "$tmp/slow.err" &&
		pass || fail "interrupt between runs ($how): exit $rc, $(cat "$tmp/slow.err")"
done
# Ctrl-C while the output waits on a full pipe: the write goes on, the
# search ends with its statistics, exit 3 (it was exit 2, "error writing
# the output: Interrupted system call", and a trace line cut in two)
cp "$tmp/g.ini" "$tmp/pipe.ini"
( "$sd" -c "$tmp/pipe.ini" -f json --set problem.line=4000000000 \
	--set search.algorithm=idastar -s search.heuristic=zero --trace \
	--trace-limit 100000000 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.rc" ) |
	(sleep 2; tail -1 >"$tmp/pipe.out") &
ppid=$!
sleep 1
pkill -INT -f "$tmp/pipe.ini"
wait $ppid
if [ "$(cat "$tmp/pipe.rc")" = 3 ] &&
	python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read()); sys.exit(d["limit"] != "interrupt")' "$tmp/pipe.out"
then pass; else fail "Ctrl-C on a full pipe: exit $(cat "$tmp/pipe.rc"), $(cat "$tmp/pipe.err") $(cut -c1-200 "$tmp/pipe.out")"; fi
# ... and while the config is read from a FIFO nobody writes to: the
# first SIGTERM ends the program, exit 3 (the open was restarted: it
# waited for a second signal)
mkfifo "$tmp/cfg.fifo"
"$sd" -c "$tmp/cfg.fifo" 2>"$tmp/fifo.err" &
fpid=$!
for i in $(seq 100); do   # until it waits in open() (its handlers are set)
	grep -qs partner "/proc/$fpid/wchan" && break
	sleep 0.1
done
kill -TERM $fpid
# at most 10 s for it to end (bash's table of jobs says, which keeps its
# status), then SIGKILL if it still runs.  Not a watchdog subshell killed
# once it ended: a subshell signalled just after the fork can still run
# this shell's EXIT trap and remove $tmp (seen on a loaded machine)
for i in $(seq 100); do
	jobs -rp | grep -qx "$fpid" || break
	sleep 0.1
done
jobs -rp | grep -qx "$fpid" && kill -KILL $fpid
wait $fpid
rc=$?
[ $rc = 3 ] && grep -q "interrupted while reading the configuration" \
	"$tmp/fifo.err" && pass ||
	fail "SIGTERM while a FIFO config is read: exit $rc, $(cat "$tmp/fifo.err")"
# --compare reads the config once per run: a pipe or FIFO is refused
# (it hung on a FIFO, and every row of a pipe was "no plugin")
expect 2 "--compare reads the config again for each run: give a file, not a pipe or a FIFO" \
	"$sd" -c <(cat "$tmp/g.ini") --compare algorithm=astar,bfs

# teaching tools: trace, comparison, batch, replay, dot
expect 0 "expand      2  id      2  g    1  h    2  f    3  via S>A    children 1" \
	"$sd" -c "$tmp/g.ini" --set problem.h="S:3 A:2 B:1" --trace
expect 0 '{"event":"iteration","iteration":1,"bound":0}' \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=idastar -s search.heuristic=zero --trace -f json
expect 0 "(trace cut at 2 lines" "$sd" -c "$tmp/g.ini" --trace-limit 2
out=$("$sd" -c "$tmp/g.ini" --compare algorithm=bfs,ucs,idastar -f csv)
if [ "$(grep -c ',solved,' <<<"$out")" = 3 ] && grep -q '^,bfs,zero,solved,1,10,' <<<"$out" &&
	grep -q '^,idastar,table,solved,3,3,' <<<"$out"; then
	pass
else
	fail "--compare csv:"; echo "$out"
fi
# the tree searches' traces: each line's board is its parent's (the last
# line one level up) with the line's action applied, and the lines'
# duplicates add up to the statistics' (rbfs traced action 0 throughout)
for a in idastar rbfs; do
	out=$("$sd" -c "$src/config/pancake.ini" -q -f json -s search.algorithm=$a \
		--trace --trace-boards --trace-limit 100000 2>&1)
	if python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
ev = [r for r in rows if r.get("event") == "expand"]
res = [r for r in rows if "stats" in r][0]
at = {}
for e in ev:
    b = e["board"].split("|")[0].split()
    d = e["id"]
    if d:
        k = int(e["action"][1:])
        p = at[d - 1]
        assert b == p[:k][::-1] + p[k:], (e, p)
    at[d] = b
assert len(ev) == res["stats"]["expanded"], (len(ev), res["stats"])
dups = sum(e["duplicates"] for e in ev)
assert dups == res["stats"]["duplicates"], (dups, res["stats"])
kids = sum(e["children"] for e in ev)
assert sys.argv[1] != "rbfs" or kids == res["stats"]["generated"], kids
' $a <<<"$out"; then pass; else fail "$a trace:"; echo "$out" | tail -5; fi
done
# under CSV the trace goes to stderr: stdout is the header and the row
out=$("$sd" -c "$src/config/pancake.ini" -q -f csv --trace --trace-limit 3 2>/dev/null)
if [ "$(wc -l <<<"$out")" = 2 ] && head -1 <<<"$out" | grep -q '^instance,'
then pass; else fail "--trace -f csv mixes the trace into the CSV: $out"; fi
# a combination that cannot be set up gets an error row naming --compare
# (it had no row at all, and the message said --set); a long label
# widens the text table's first column
out=$("$sd" -c "$tmp/g.ini" --compare algorithm=bfs,nosuch -f csv 2>&1); rc=$?
if [ $rc = 2 ] && grep -q '^,bfs,zero,solved,' <<<"$out" &&
	grep -q "^,nosuch,.*,error,.*--compare search.algorithm: bad value 'nosuch'" <<<"$out"
then pass; else fail "--compare with a bad value: exit $rc: $out"; fi
out=$("$sd" -c "$src/config/npuzzle.ini" -q \
	--compare problem.goal=blank-first,blank-last 2>&1)
if [ "$(awk '/ astar / { print index($0, " astar ") }' <<<"$out" | sort -u | wc -l)" = 1 ]
then pass; else fail "--compare with long labels: columns not aligned: $out"; fi
# --dot, --replay and --animate show one search: refused with a batch or
# --compare (they were ignored in silence)
expect 2 "--dot shows one search: not with --compare" \
	"$sd" -c "$tmp/g.ini" --compare algorithm=bfs,ucs --dot "$tmp/cmp.dot"
expect 2 "--replay shows one search: not with a batch" \
	"$sd" -c "$src/config/15puzzle.ini" -q --set problem.index=1,2 --replay
# --animate into a pipe writes the frames without clearing the screen
# and without its pauses (it wrote escape codes, and paused 31 times)
start=$(date +%s%N)
out=$("$sd" -c "$src/config/npuzzle.ini" -q --animate --delay 200 2>&1)
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc = 0 ] && ! grep -q $'\033' <<<"$out" && grep -q "step 31 of 31" <<<"$out" &&
   [ "$ms" -lt 3000 ]
then pass; else fail "--animate into a pipe (${ms} ms): $out"; fi
# Ctrl-C during --animate on a terminal (script(1) gives it one) stops it
# at once with status 3 (it played all 31 frames and exited 0)
printf '%s\n' "\"$sd\" -c \"$src/config/npuzzle.ini\" -q --animate --delay 300 &" \
	"echo \$! >\"$tmp/anim.pid\"; wait \$!; echo \"EXIT=\$?\"" >"$tmp/anim.sh"
rm -f "$tmp/anim.pid"
timeout 30 script -qfc "bash $tmp/anim.sh" "$tmp/anim.log" >/dev/null 2>&1 &
spid=$!
for i in $(seq 100); do [ -s "$tmp/anim.pid" ] && break; sleep 0.05; done
apid=$(cat "$tmp/anim.pid" 2>/dev/null)
[ -n "$apid" ] && wait_ready "$apid" && sleep 0.5 && kill -INT "$apid"
wait $spid
if grep -aq "EXIT=3" "$tmp/anim.log" &&
   grep -aq "interrupted; the animation stopped at step" "$tmp/anim.log" &&
   ! grep -aq "step 31 of 31" "$tmp/anim.log"
then pass; else fail "Ctrl-C during --animate: $(tr -d '\033' <"$tmp/anim.log" | tail -c 300)"; fi
# --animate on a dumb terminal (TERM=dumb) pauses without clearing the
# screen (it wrote the clearing sequence, which such a terminal shows)
printf '%s\n' "TERM=dumb \"$sd\" -c \"$src/config/npuzzle.ini\" -q --animate --delay 1" \
	>"$tmp/dumb.sh"
timeout 30 script -qfec "bash $tmp/dumb.sh" "$tmp/dumb.log" >/dev/null 2>&1
if grep -aq "step 31 of 31" "$tmp/dumb.log" && ! grep -aq $'\033' "$tmp/dumb.log"
then pass; else fail "--animate under TERM=dumb: $(tr -d '\033' <"$tmp/dumb.log" | head -5)"; fi
# the largest memory_limit is named (it said "a decimal number of bytes
# (at least 1, or 0 for none)" of 2^64 - 1)
expect 2 "(at least 1 and at most 1.8e19, about 16 EiB; or 0 for none)" \
	"$sd" -c "$src/config/npuzzle.ini" -s search.memory_limit=18446744073709551615
# the forms it takes are named: 512MB and 512MiB too (they were taken,
# not said), and --help names bidirectional among the blind ones
expect 2 "K, M, G or T suffix, which B or iB may follow" \
	"$sd" -c "$src/config/npuzzle.ini" -s search.memory_limit=12X
expect 0 "dls, iddfs and bidirectional" "$sd" --help
# a batch on a terminal (stdout and stderr both): each row begins its
# own line, the progress bar wiped first (rows 2 and 3 went on after the
# bar, on its line)
printf '%s\n' "\"$sd\" -c \"$src/config/sokoban.ini\" -s problem.file=\"$src/config/levels/microban.xsb\" -s problem.level=1-3" \
	>"$tmp/bar.sh"
timeout 30 script -qfec "bash $tmp/bar.sh" "$tmp/bar.log" >/dev/null 2>&1
if grep -aq $'\r2  *bfs' "$tmp/bar.log" && grep -aq $'\r3  *bfs' "$tmp/bar.log" &&
   ! grep -aqE 's [23] +bfs' "$tmp/bar.log" && grep -aq "solved 3, no solution 0" "$tmp/bar.log"
then pass; else fail "rows after the progress bar: $(tr -d '\r' <"$tmp/bar.log")"; fi
# on a narrow terminal the bar is cut to its width less one (it wrapped,
# and '\r' went back only to its second part: the first stayed in the
# table); under --trace a batch draws no bar (trace lines ran on from it),
# nor the blank line that ended the bar's (the summary had two before it)
printf '%s\n' "stty cols 40; \"$sd\" -c \"$src/config/sokoban.ini\" -s problem.file=\"$src/config/levels/microban.xsb\" -s problem.level=1-3" \
	>"$tmp/narrow.sh"
timeout 30 script -qfec "bash $tmp/narrow.sh" "$tmp/narrow.log" >/dev/null 2>&1
widest=$(tr '\r' '\n' <"$tmp/narrow.log" | grep -a '^\[#' | awk '{ print length }' | sort -n | tail -1)
if [ -n "$widest" ] && [ "$widest" -le 39 ]
then pass; else fail "the bar on 40 columns: '$widest' wide: $(tr '\r' '\n' <"$tmp/narrow.log" | grep -a '^\[' | head -3)"; fi
printf '%s\n' "\"$sd\" -c \"$src/config/sokoban.ini\" -s problem.file=\"$src/config/levels/microban.xsb\" -s problem.level=1-3 --trace --trace-limit 2" \
	>"$tmp/tbar.sh"
timeout 30 script -qfec "bash $tmp/tbar.sh" "$tmp/tbar.log" >/dev/null 2>&1
if grep -aq "^expand      1" "$tmp/tbar.log" && ! grep -aq '^\[#' "$tmp/tbar.log" &&
   ! grep -aq 's expand' "$tmp/tbar.log" &&
   [ -n "$(tr -d '\r' <"$tmp/tbar.log" | grep -aB2 '^solved 3, ' | head -2 | tr -d '\n')" ]
then pass; else fail "a batch with --trace on a terminal: $(tr -d '\r' <"$tmp/tbar.log" | head -5)"; fi
# the same for the pattern databases' bar (about 92 columns, wiped over
# 79): cut to the width less one, wiped over what it drew; and drawn
# every quarter second of a build (the clock began again at each level
# of the breadth-first search, so a build of short levels drew none)
printf '%s\n' "stty cols 40; \"$sd\" -c \"$src/config/15puzzle.ini\" -s search.heuristic=pdb -s problem.pdb_partition=\"1 4 5 8 9 12 / 2 3 6 7 / 10 11 13 14 15\" -s problem.pdb_dir=\"$tmp/pdb\" -s search.algorithm=astar" \
	>"$tmp/pbar.sh"
timeout 120 script -qfec "bash $tmp/pbar.sh" "$tmp/pbar.log" >/dev/null 2>&1
widest=$(tr '\r' '\n' <"$tmp/pbar.log" | grep -a 'pattern database [0-9]/3 \[' | awk '{ print length }' | sort -n | tail -1)
if grep -aq "status      solved" "$tmp/pbar.log" && [ -n "$widest" ] && [ "$widest" -le 39 ]
then pass; else fail "the tables' bar on 40 columns: '$widest' wide"; fi
# --animate on a terminal prints the report after the frames (each frame
# clears the screen: the report, printed first, was wiped; so was the
# CSV header)
for fmt in text csv; do
	printf '%s\n' "\"$sd\" -c \"$src/config/npuzzle.ini\" --animate --delay 0 -f $fmt" >"$tmp/rep.sh"
	timeout 30 script -qfec "bash $tmp/rep.sh" "$tmp/rep.log" >/dev/null 2>&1
	if python3 -c 'import sys
s = open(sys.argv[1], "rb").read().decode(errors="replace")
last = s.rsplit("\x1b[2J", 1)[-1]
want = {"text": ["step 31 of 31", "status      solved"],
        "csv": ["instance,algorithm,", ",astar,manhattan,solved,"]}
assert all(w in last for w in want[sys.argv[2]]), last' "$tmp/rep.log" "$fmt"
	then pass; else fail "--animate -f $fmt: the report after the frames: $(tr -d '\033\r' <"$tmp/rep.log" | tail -c 300)"; fi
done
# an option of one value given twice is refused (the second replaced the
# first in silence); output keys are not --compare axes (one format for
# the table); a batch of errors alone has no empty "slowest:" line
expect 2 "--config given twice (the first: '$tmp/g.ini')" \
	"$sd" -c "$tmp/g.ini" -c "$tmp/g.ini"
expect 2 "--compare: output.format is one for the whole table" \
	"$sd" -c "$tmp/g.ini" --compare output.format=json,csv
printf '#####\n#@ .#\n#####\n\n#####\n#@  #\n#####\n' >"$tmp/nobox.xsb"
out=$("$sd" -c "$src/config/sokoban.ini" -q -s problem.file="$tmp/nobox.xsb" \
	-s problem.level=all 2>&1)
if [ $? = 2 ] && grep -q "errors 2, of 2" <<<"$out" && ! grep -q "^slowest:" <<<"$out"
then pass; else fail "a batch of errors alone: $out"; fi
# a selection with blanks around its numbers, and ALL in capitals, are
# batches (they were read as one instance's number and refused)
out=$("$sd" -c "$src/config/15puzzle.ini" -q -f csv -s search.node_limit=10 \
	-s problem.index="9, 10 - 11" 2>/dev/null)
if [ "$(cut -d, -f1 <<<"$out" | tr '\n' ' ')" = "instance 9 10 11 " ]
then pass; else fail "index '9, 10 - 11': $out"; fi
expect 3 "of 100" "$sd" -c "$src/config/15puzzle.ini" -q -s search.node_limit=1 \
	-s problem.index=ALL
# one key in two --compare options is refused (the first was dropped)
expect 2 "--compare: search.algorithm given twice (list its values in one --compare)" \
	"$sd" -c "$tmp/g.ini" --compare algorithm=bfs --compare algorithm=ucs
# an empty value or one given twice is refused (dropped in silence: one
# row for "astar,", one for "astar,astar")
for spec in "algorithm=astar,,bfs" "algorithm=astar,"; do
	expect 2 "--compare '$spec': expected KEY=V1,V2,... (e.g. algorithm=astar,idastar; no value empty)" \
		"$sd" -c "$tmp/g.ini" --compare "$spec"
done
expect 2 "--compare 'algorithm=astar,astar': astar given twice" \
	"$sd" -c "$tmp/g.ini" --compare algorithm=astar,astar
# a key the algorithm does not use is named in a note (accepted in
# silence), and none when it does use it
expect 0 "note: astar does not use weight (wastar only), beam_width (beam only)" \
	"$sd" -c "$tmp/g.ini" -s search.weight=5 -s search.beam_width=4
out=$("$sd" -c "$tmp/g.ini" -s search.algorithm=wastar -s search.weight=5 2>&1)
! grep -q "does not use" <<<"$out" && pass || fail "wastar with weight: $out"
# ... also in a comparison, once per note (its rows were the same
# without a word)
out=$("$sd" -c "$tmp/g.ini" --compare weight=1,3,5 2>&1)
[ "$(grep -c "note: astar does not use weight (wastar only)" <<<"$out")" = 1 ] &&
	pass || fail "--compare weight under astar: $out"
out=$("$sd" -c "$tmp/g.ini" -s search.weight=2 --compare algorithm=astar,wastar,ucs 2>&1)
grep -q "note: ucs does not use weight" <<<"$out" &&
	! grep -q "wastar does not use" <<<"$out" && pass ||
	fail "--compare algorithm with a weight: $out"
out=$("$sd" -q -c "$tmp/g.ini" --compare weight=1,3 2>&1)
! grep -q "does not use" <<<"$out" && pass || fail "-q --compare: $out"
# a plugin that cannot be had names the --set it came from, as it names
# a config's line (it named nothing)
expect 2 "searchd: --set plugin.name: bad plugin name '': use [plugin] path" \
	"$sd" -s plugin.name=
expect 2 "searchd: --set plugin.path: cannot load plugin" \
	"$sd" -s plugin.path="$tmp/nope.so"
# a bad value overridden by -f or a later --set is still refused (it was
# dropped in silence)
expect 2 "--set search.weight: bad value 'abc' for weight" \
	"$sd" -c "$tmp/g.ini" -s search.weight=abc -s search.weight=2
printf '[output]\nformat = xml\n' | cat "$tmp/g.ini" - >"$tmp/xml.ini"
expect 2 "xml.ini:10: bad value 'xml' for format: expected text, json or csv" \
	"$sd" -c "$tmp/xml.ini" -f json
# a --compare key also given by --set is refused (the --set was
# overridden in silence)
expect 2 "--compare: search.algorithm is also given by --set 'search.algorithm=ucs'" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=ucs --compare algorithm=bfs,astar
expect 0 "solved 10, no solution 0, limit reached 0, errors 0, of 10" \
	"$sd" -c "$tmp/g.ini" --set problem.instance=all -s search.algorithm=bfs
# a cost of 10 digits keeps the table's columns (it pushed them right)
out=$("$sd" -c "$tmp/g.ini" -s "problem.edges=S>G:4294967295" \
	--compare algorithm=bfs,astar -q)
if [ "$(awk '{print length($0)}' <<<"$out" | sort -u | wc -l)" = 1 ]
then pass; else fail "a wide cost in the table: $out"; fi
expect 0 '"instance":"4","plugin":"graph"' \
	"$sd" -c "$tmp/g.ini" --set problem.instance=3-5 -f json
expect 3 "limit reached 1" "$sd" -c "$tmp/g.ini" --set problem.instance=1,9 \
	--set search.node_limit=5 -s search.algorithm=bfs
expect 2 "bad instance '0-3'" "$sd" -c "$tmp/g.ini" --set problem.instance=0-3
expect 0 "step 3 of 3: B>G" "$sd" -c "$tmp/g.ini" --replay
expect 0 "wrote 4 states" "$sd" -c "$tmp/g.ini" --dot "$tmp/t.dot"
# the hint renders to the file's own name (it said tree.svg)
expect 0 "(render with: dot -Tsvg $tmp/t.dot -o $tmp/t.svg)" \
	"$sd" -c "$tmp/g.ini" --dot "$tmp/t.dot"
# a name that begins with '-' is not read as an option of dot
expect 0 "(render with: dot -Tsvg ./-t.dot -o ./-t.svg)" \
	env -C "$tmp" "$sd" -c "$tmp/g.ini" --dot -t.dot
[ -s "$tmp/-t.dot" ] && pass || fail "--dot -t.dot wrote no file"
# DOT: edges carry the action, nodes g, h and f, the plan in red, a legend
if grep -q 'n3 -> n1 \[label="B>G", color=red' "$tmp/t.dot" &&
	grep -q 'n2 \[label="#2 g=1 h=0 f=1' "$tmp/t.dot" &&
	grep -q 'cluster_legend' "$tmp/t.dot"; then pass; else
	fail "dot file:"; cat "$tmp/t.dot"; fi
grep -q 'legend_plan \[label="on the plan"' "$tmp/t.dot" && pass ||
	fail "dot legend: $(grep legend_plan "$tmp/t.dot")"
# a plan improve_plan shortened after the search is not the tree's path
# to the goal, which is the one drawn in red: the legend says so (it
# said "on the plan" of a plan 15 pushes long for one reported at 13)
for i in yes:"the plan reported is improve_plan's" no:"on the plan\""; do
	"$sd" -c "$src/config/sokoban.ini" -s problem.level=3 \
		-s problem.file="$src/config/levels/microban.xsb" \
		-s search.algorithm=greedy -s problem.cost=pushes \
		-s search.improve_plan=${i%%:*} --dot "$tmp/im.dot" >/dev/null 2>&1
	grep -q "legend_plan \[label=.*${i#*:}" "$tmp/im.dot" && pass ||
		fail "dot legend, improve_plan=${i%%:*}: $(grep legend_plan "$tmp/im.dot")"
done
expect 0 "wrote" "$sd" -c "$tmp/g.ini" --set problem.h="S:3 A:2 B:1" --dot "$tmp/h.dot"
if grep -q 'h=2 f=3' "$tmp/h.dot"; then pass; else fail "dot h and f:"; cat "$tmp/h.dot"; fi
# f is the key the algorithm orders by, as --trace prints it (it was
# g + h under every algorithm: 3 for A, #2, under wastar, whose key is
# 1 + 3*2, and under greedy, whose key is h)
for a in "wastar 7 2" "greedy 2 0"; do
	set -- $a
	expect 0 "wrote" "$sd" -c "$tmp/g.ini" --set problem.h="S:3 A:2 B:1" \
		-s search.algorithm=$1 -s search.weight=3 --dot "$tmp/k.dot"
	line=$("$sd" -c "$tmp/g.ini" --set problem.h="S:3 A:2 B:1" \
		-s search.algorithm=$1 -s search.weight=3 --trace 2>&1 |
		grep "  id      $3  ")
	f=$(awk '{print $10}' <<<"$line")
	if grep -q '#2 g=1 h=2 f='$2'\\l' "$tmp/k.dot" &&
		grep -q "#$3 g=[0-9]* h=[0-9]* f=$f\\\\l" "$tmp/k.dot"; then
		pass; else fail "dot f under $1 (trace: $line):"
		grep '#' "$tmp/k.dot"; fi
done
# a search too large to draw: exit 2, no file
expect 2 "more than the 2000 a readable graph can show; no file written" \
	"$sd" -c "$tmp/g.ini" --set problem.line=5000 --dot "$tmp/big.dot"
[ ! -e "$tmp/big.dot" ] && pass || fail "--dot wrote a file for a search too large"
# --compare keeps the note a single run prints about an inadmissible h
expect 0 "heuristic 'packing' is not admissible: astar's plan may not be optimal" \
	"$sd" -c "$src/config/sokoban.ini" -s problem.cost=pushes \
	--compare algorithm=astar,greedy --compare heuristic=packing
expect 2 "--dot needs a search that keeps its tree; rbfs keeps none" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=rbfs --dot "$tmp/t3.dot"
# bidirectional search: optimal on the 8-puzzle and pancakes, as A*
expect 0 '"algorithm":"bidirectional","heuristic":"zero","status":"solved","cost":31' \
	"$sd" -c "$src/config/npuzzle.ini" -s search.algorithm=bidirectional -f json
expect 0 '"cost":11' "$sd" -c "$src/config/pancake.ini" \
	-s search.algorithm=bidirectional -f json
# ... and on a board of more than 16 cells whose blank's goal is not
# cell 0 (the goal state lacked the blank's cell: the search ran until
# a limit stopped it)
expect 0 '"algorithm":"bidirectional","heuristic":"zero","status":"solved","cost":2' \
	"$sd" -c "$src/config/npuzzle.ini" -s search.algorithm=bidirectional \
	-s problem.width=6 -s problem.height=3 -s problem.goal=blank-last \
	-s "problem.tiles=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 16 17" \
	-s search.time_limit=10 -f json
# a predecessors() that expand() does not agree with is named (the
# message blamed expand() alone)
expect 2 "or predecessors() gave a state that expand() does not lead from" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=bidirectional \
	-s "problem.ghost=A>G:0"
# ... and one whose plan costs more by expand() than the meeting found
# (the plan S>G was reported as optimal at cost 10; the optimum is 3)
expect 2 "the plan met in the middle costs 1 by predecessors() but 10 by expand()" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=bidirectional \
	-s "problem.ghost=S>G:1"
# IDA* round a cycle of actions that cost 0 stops at its depth cap (its
# stack grew until the memory limit: 6.7 GiB here)
expect 3 "limit reached (depth)" "$sd" -c "$tmp/g.ini" -s search.algorithm=idastar \
	-s "problem.edges=S>A:0 A>B:0 B>C:0 C>S:0 C>G:5"
# ... and a goal_state() that is no goal, refused before the search (the
# empty plan was "solved"; a state cut off from the start gave "no
# solution" though the real goal was reached)
expect 2 "broke the contract: goal_state() wrote a state that is_goal() says is not a goal" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=bidirectional \
	-s problem.named=S
expect 2 "broke the contract: goal_state() wrote a state that is_goal() says is not a goal" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=bidirectional \
	-s "problem.edges=S>G:10 S>A:1 A>B:1 B>G:1 X>X:1" -s problem.named=X
expect 2 "sokoban.so) has no goal_state() and predecessors(), which algorithm bidirectional needs" \
	"$sd" -c "$src/config/sokoban.ini" -s search.algorithm=bidirectional
# features() giving no value names the plugin (it said "plugin's")
expect 2 "graph.so) broke the contract: features() gave 0 values; it must give 1 to" \
	"$sd" -c "$tmp/g.ini" -s search.algorithm=fess -s problem.features=0
# --trace and --dot are refused with bidirectional (nothing was traced,
# and half the tree drawn without the plan)
expect 2 "--trace shows no bidirectional search" "$sd" -c "$tmp/g.ini" \
	-s search.algorithm=bidirectional --trace
expect 2 "--dot shows no bidirectional search" "$sd" -c "$tmp/g.ini" \
	-s search.algorithm=bidirectional --dot "$tmp/bd.dot"
# Sokoban level files and their selection: a blank after the number, a
# level named by its comment when a Title: line follows it (both gave
# "no level"); a file without levels given by --set is blamed on the
# command line (it named the config's line); an empty file name is said
# so (it said ": No such file or directory")
printf '; one\n#####\n#@$.#\n#####\n\n; two\n######\n#@$ .#\n######\n\nTitle: after\n' >"$tmp/two.xsb"
for l in "2 " two after; do
	expect 0 "length      2" "$sd" -c "$src/config/sokoban.ini" \
		-s problem.file="$tmp/two.xsb" -s "problem.level=$l"
done
# a batch reads its level file once, not once a level (1,000 levels of a
# file of 100,000 took 12 s, 12 ms each, where all now take well under 1)
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "#####\n#@$.#\n#####\n\n" }' \
	>"$tmp/many.xsb"
start=$(date +%s%N)
expect 0 "solved 1000, no solution 0" "$sd" -c "$src/config/sokoban.ini" -q \
	-s problem.file="$tmp/many.xsb" -s problem.level=1-1000
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 8000 ] && pass || fail "a batch of 1000 levels took $ms ms"
printf ';c\n' >"$tmp/nolevel.xsb"
expect 2 "searchd: <command line>: $tmp/nolevel.xsb: no level in the file" \
	"$sd" -c "$src/config/sokoban.ini" -s problem.file="$tmp/nolevel.xsb"
expect 2 "searchd: <command line>: file: no file named (the value is empty)" \
	"$sd" -c "$src/config/sokoban.ini" -s problem.file=
# bfs's note says what it promises (it said "does not promise the
# cheapest plan" where every action costs 1, as in the flagship config)
expect 0 "searchd: note: bfs finds a plan of the fewest actions, the cheapest if every action costs the same" \
	"$sd" -c "$src/config/sokoban.ini"
# an algorithm that does not promise the cheapest plan says so
expect 0 "searchd: note: beam does not promise the cheapest plan" \
	"$sd" -c "$src/config/npuzzle.ini" -s search.algorithm=beam
# the blind algorithms show heuristic zero, as they search
expect 0 '"algorithm":"iddfs","heuristic":"zero"' "$sd" -c "$tmp/g.ini" \
	-s search.algorithm=iddfs -f json
expect 2 "--dot needs a search that keeps its tree" "$sd" -c "$tmp/g.ini" \
	-s search.algorithm=idastar --dot "$tmp/t2.dot"

# -q reaches the plugin (sd_host.quiet): the 8-puzzle's pattern database
# is built without its progress lines; without -q they are there
for q in -q ""; do
	rm -rf "$tmp/pdb"
	# shellcheck disable=SC2086 # $q is one word or none
	"$sd" $q -c "$src/config/npuzzle.ini" -s search.heuristic=pdb \
		-s problem.pdb_dir="$tmp/pdb" >"$tmp/q.out" 2>"$tmp/q.err"
	rc=$?
	n=$(grep -c "pattern database" "$tmp/q.err")
	want=2
	[ -n "$q" ] && want=0
	if [ $rc = 0 ] && { [ "$n" = "$want" ] || [ "$want" != 0 ] &&
	                    [ "$n" -ge "$want" ]; }; then pass; else
		fail "pdb build with '$q': exit $rc, stderr:"; cat "$tmp/q.err"; fi
done

# a table is saved to a new file, never through a link planted where it
# will be written (PATH.PID.tmp: a root run overwrote a file of the
# link's choosing), and a file there does not stop it (one left by a
# process of the same PID killed while saving, as in a container, made
# every save fail: the name is PATH.PID-K.tmp, the first K free)
part='1 2 3 5 / 4 6 7 8'
pdbrun() {   # pdbrun DIR [TABLE TARGET]: an 8-puzzle pdb search, its pid
	# known, links to TARGET planted where TABLE's new file was written
	bash -c '[ -n "$2" ] && ln -s "$3" "$2.$$.tmp" &&
		ln -s "$3" "$2.$$-0.tmp"; shift 3; exec "$@"' \
		_ "$@" "$sd" -c "$src/config/npuzzle.ini" -s search.heuristic=pdb \
		-s problem.pdb_partition="$part" -s problem.pdb_dir="$1"
}
rm -rf "$tmp/pdb"
pdbrun "$tmp/pdb" "" "" >/dev/null 2>&1
table=$(ls "$tmp"/pdb/*.pdb | head -1)
rm -f "$tmp"/pdb/*.pdb
echo "precious" >"$tmp/victim"
out=$(pdbrun "$tmp/pdb" "$table" "$tmp/victim" 2>&1)
[ "$(cat "$tmp/victim")" = precious ] && [ -f "$table" ] && [ ! -L "$table" ] &&
	! grep -q "could not save the pattern database" <<<"$out" &&
	grep -q "cost        31" <<<"$out" && pass ||
	fail "a planted link: victim $(head -c 20 "$tmp/victim" | od -c | head -1), $out"
# a table's file that cannot be opened is named as it is rebuilt (it
# was rebuilt and replaced in silence); a save removes the files that
# saves killed over an hour before left, and only those
table=$(ls "$tmp"/pdb/*.pdb | head -1)
rm -f "$table" && ln -s "${table##*/}" "$table"  # a link to itself
touch -d '2 hours ago' "$table.99999-0.tmp" "$table.x-0.tmp"
touch "$table.99998-0.tmp"
out=$(pdbrun "$tmp/pdb" "" "" 2>&1)
grep -qF "$table: pattern database cache not used (Too many levels of symbolic links); rebuilding it" <<<"$out" &&
	[ ! -e "$table.99999-0.tmp" ] && [ -e "$table.99998-0.tmp" ] &&
	[ -e "$table.x-0.tmp" ] && [ -f "$table" ] && [ ! -L "$table" ] &&
	grep -q "cost        31" <<<"$out" && pass ||
	fail "an unreadable table, old temporary files: $(ls "$tmp/pdb"), $out"
# and reading the table does too (the save after a killed one comes
# within the hour; later runs only read)
touch -d '2 hours ago' "$table.99997-0.tmp"
out=$(pdbrun "$tmp/pdb" "" "" 2>&1)
[ ! -e "$table.99997-0.tmp" ] && [ -e "$table.99998-0.tmp" ] &&
	grep -q "cost        31" <<<"$out" && pass ||
	fail "an old temporary file beside a table read: $(ls "$tmp/pdb"), $out"

# without HOME and XDG_CACHE_HOME the cache is this user's own directory
# under /tmp, mode 0700 (it was /tmp/searchd-cache, shared: another
# user's tables were trusted); a shared one is not used
own=/tmp/searchd-cache-$(id -u)
had=$(ls "$own" 2>/dev/null; [ -d "$own" ] && echo .)
out=$(env -u HOME -u XDG_CACHE_HOME "$sd" -c "$src/config/npuzzle.ini" \
	-s search.heuristic=pdb -s problem.pdb_partition="$part" 2>&1)
[ "$(stat -c %a "$own" 2>/dev/null)" = 700 ] && grep -q "for $own/" <<<"$out" &&
	pass || fail "pdb_dir without HOME: $(stat -c %a "$own" 2>&1), $out"
chmod 0777 "$own" && out=$(env -u HOME -u XDG_CACHE_HOME "$sd" \
	-c "$src/config/npuzzle.ini" -s search.heuristic=pdb \
	-s problem.pdb_partition="$part" 2>&1)
chmod 0700 "$own"
grep -q "cache $own not used: not a directory of this user that only it can write" <<<"$out" &&
	grep -q "not cached: built again by each run" <<<"$out" &&
	! grep -q "then read from the cache" <<<"$out" &&
	grep -q "cost        31" <<<"$out" && pass || fail "a shared cache in /tmp: $out"
for f in "$own"/*; do   # leave the directory as it was
	[ -e "$f" ] && ! grep -qxF "$(basename "$f")" <<<"$had" && rm -f "$f"
done
[ -z "$had" ] && rmdir "$own" 2>/dev/null
# a table that cannot be saved is made once for a batch, not once per
# problem (it was kept between problems only when saved)
: >"$tmp/notadir"
printf '8 7 6 0 4 1 2 5 3\n1 2 0 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n' >"$tmp/e8.txt"
out=$("$sd" -c "$src/config/npuzzle.ini" -s search.heuristic=pdb \
	-s problem.pdb_partition="$part" -s problem.pdb_dir="$tmp/notadir" \
	-s problem.tiles= -s problem.file="$tmp/e8.txt" -s problem.index=1-3 \
	-f csv 2>&1)
[ "$(grep -c "building pattern database" <<<"$out")" = 2 ] &&
	[ "$(grep -c "could not save" <<<"$out")" = 2 ] &&
	grep -q "^solved 3, " <<<"$out" && pass ||
	fail "a batch whose tables cannot be saved: $out"
# a pdb_dir too long is an error (the default cache was used in silence)
expect 2 "pdb_dir is too long" "$sd" -c "$src/config/npuzzle.ini" \
	-s search.heuristic=pdb -s problem.pdb_dir="$tmp/$(printf 'd%.0s' $(seq 1100))"
# a relative XDG_CACHE_HOME is ignored (the XDG spec): the cache went to
# ./rel/searchd under whatever directory searchd was started in
mkdir -p "$tmp/xdg" && out=$(cd "$tmp/xdg" && XDG_CACHE_HOME=rel \
	HOME="$tmp/xdg/home" "$sd" -c "$src/config/npuzzle.ini" \
	-s search.heuristic=pdb -s problem.pdb_partition="$part" 2>&1)
[ ! -e "$tmp/xdg/rel" ] && ls "$tmp/xdg/home/.cache/searchd/"*.pdb >/dev/null 2>&1 &&
	grep -q "cost        31" <<<"$out" && pass ||
	fail "relative XDG_CACHE_HOME: $(ls -R "$tmp/xdg" | head -5), $out"
# an XDG_CACHE_HOME or HOME too long for the cache's name leaves the
# cache unused, and says so (the tables went to a directory made of the
# name's first 1023 bytes, a parent of the one named, in silence)
long="$tmp/xdg/$(printf 'x%.0s' $(seq 200))/$(printf 'y%.0s' $(seq 200))"
long="$long/$(printf 'z%.0s' $(seq 200))/$(printf 'w%.0s' $(seq 200))/$(printf 'v%.0s' $(seq 240))"
mkdir -p "$long"
for var in XDG_CACHE_HOME HOME; do
	out=$(env XDG_CACHE_HOME= "$var=$long" "$sd" -c "$src/config/npuzzle.ini" \
		-s search.heuristic=pdb -s problem.pdb_partition="$part" 2>&1)
	n=$(find "$tmp/xdg" -name '*.pdb' -newer "$long" | wc -l)
	[ "$n" = 0 ] && grep -q "cache not used: \$$var is too long" <<<"$out" &&
		grep -q "cost        31" <<<"$out" && pass ||
		fail "$var too long: $n tables saved, $out"
done
# ... said once for a batch, not once a problem
out=$(env XDG_CACHE_HOME= "HOME=$long" "$sd" -c "$src/config/npuzzle.ini" \
	-s search.heuristic=pdb -s problem.pdb_partition="$part" \
	-s problem.tiles= -s problem.file="$tmp/e8.txt" -s problem.index=1-3 -f csv 2>&1)
[ "$(grep -c "cache not used" <<<"$out")" = 1 ] && grep -q "^solved 3, " <<<"$out" &&
	pass || fail "the note in a batch: $out"

finish
