#!/usr/bin/env bash
# The benchmark baseline (bench/tiles15.c) counts as the engine does: on
# the three instances of Korf's 100 with the fewest expanded nodes, its
# length, generated and expanded counts must equal the file's optimal and
# measured columns.
# usage: bench_baseline.sh TILES15 KORF100_FILE
set -u
tiles15=$1 korf=$2
fails=0 passes=0

# The three easiest instances: the smallest measured expanded (column 6).
easy=$(grep -v '^#' "$korf" | awk 'NF' | sort -k6,6n | head -3)
[ "$(wc -l <<<"$easy")" = 3 ] || { echo "FAIL: no instances in $korf"; exit 1; }
out=$("$tiles15" <<<"$easy") || { echo "FAIL: tiles15 exited $?"; exit 1; }

# Compare line by line: id length generated expanded against the file's
# id, optimal length, measured generated, measured expanded.
while read -r id opt _ _ gen exp _ && read -r oid olen ogen oexp _ <&3; do
	if [ "$id $opt $gen $exp" = "$oid $olen $ogen $oexp" ]; then
		passes=$((passes + 1))
	else
		echo "FAIL: instance $id: want length $opt, $gen generated," \
			"$exp expanded; got: $oid $olen $ogen $oexp"
		fails=$((fails + 1))
	fi
done <<<"$easy" 3<<<"$out"
echo "bench_baseline: $passes passed, $fails failed"
[ "$fails" = 0 ] && [ "$passes" = 3 ]
