#!/usr/bin/env bash
# grid-costs.sh -- what large step costs do to the engine's memory.
#
# A* (octile heuristic) and UCS on one 512 x 512 map of the grid test
# plugin (tests/plugins/grid.c: 8-connected, 25% walls, seed 2 -- a seed
# whose goal can be reached; seed 1 walls the start in), at straight /
# diagonal step costs 2/3, 70/99 and 10000/14142, each run under a
# 512 MiB memory limit.  The map and the plans are the same at every
# scale; only the numbers grow.  So a search whose memory follows the
# number of states shows about the same peak RSS and engine bytes in all
# three rows of an algorithm, as searchd's do: its open list keeps sparse
# keys in a heap, so its memory does not grow with the RANGE of the costs
# (a list indexed by every f value would: at 10000/14142 A* once stopped
# at the memory limit after a handful of expansions; see the changelog).
#
# Not a test: it prints a table.  Needs bash and awk.
# usage: bench/grid-costs.sh   (after a build; from any directory)
#   SEARCHD       the program (default build/bin/searchd of this tree)
#   PLUGIN        the grid plugin (default build/tests/plugins/grid.so)
#   MEMORY_LIMIT  per run (default 512M)
#   TIME_LIMIT    per run, seconds (default 300)
# Values searchd refuses are refused before the table (exit 2); a run
# that ends in an error shows searchd's message under its row and the
# script exits 1 at the end.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
sd=${SEARCHD:-$root/build/bin/searchd}
plugin=${PLUGIN:-$root/build/tests/plugins/grid.so}
memory=${MEMORY_LIMIT:-512M}
seconds=${TIME_LIMIT:-300}
for f in "$sd" "$plugin"; do
	if [ ! -f "$f" ]; then
		echo "grid-costs.sh: $f not found (build first, or set" \
		     "SEARCHD / PLUGIN)" >&2
		exit 2
	fi
done
case $plugin in /*) ;; *) plugin=$PWD/$plugin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/grid.ini" <<EOI
[plugin]
path = $plugin

[problem]
size = 512
walls = 25
seed = 2
EOI

# failed STATUS: true for a status of searchd's that is no result: 2
# (an error) or 128 + N (a signal); 0, 1 and 3 are results.
failed() { [ "$1" != 0 ] && [ "$1" != 1 ] && [ "$1" != 3 ]; }

# The settings, tried on one expansion: searchd's message and exit 2 if
# it refuses them or fails (3 is the node limit reached).
"$sd" -c "$tmp/grid.ini" -q -f csv -s search.node_limit=1 \
	-s search.memory_limit="$memory" -s search.time_limit="$seconds" \
	>/dev/null 2>"$tmp/err"
rc=$?
if failed $rc; then
	cat "$tmp/err" >&2
	echo "grid-costs.sh: searchd exited $rc on the settings" >&2
	exit 2
fi

fmt="%-12s %-6s %-24s %10s %9s %10s %9s %9s %8s %11s\n"
printf "$fmt" costs algo status cost expanded generated peak_rss \
	engine seconds generated/s
nfailed=0
for costs in 2/3 70/99 10000/14142; do
	for algo in astar ucs; do
		# The CSV row, read by the header's column names.
		"$sd" -c "$tmp/grid.ini" -q -f csv \
			-s search.algorithm=$algo \
			-s problem.straight="${costs%/*}" \
			-s problem.diagonal="${costs#*/}" \
			-s search.memory_limit="$memory" \
			-s search.time_limit="$seconds" 2>"$tmp/err" |
		awk -F, -v costs="$costs" -v fmt="$fmt" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			function v(name) { return $(col[name]) }
			function mib(b) { return sprintf("%.1fM", b / 1048576) }
			{
				s = v("seconds")
				rate = s > 0 ? sprintf("%.0f", v("generated") / s) : "-"
				printf fmt, costs, v("algorithm"), v("status"),
				       v("cost") == "" ? "-" : v("cost"),
				       v("expanded"), v("generated"),
				       mib(v("peak_rss")), mib(v("engine_bytes")),
				       s, rate
			}'
		rc=${PIPESTATUS[0]}
		if failed $rc; then
			sed 's/^/    /' "$tmp/err"
			echo "    (searchd exited $rc)"
			nfailed=$((nfailed + 1))
		fi
	done
done
if [ "$nfailed" != 0 ]; then
	echo "grid-costs.sh: $nfailed runs failed" >&2
	exit 1
fi
