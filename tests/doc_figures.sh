#!/usr/bin/env bash
# Node counts quoted in the docs equal what searchd prints: each line of
# tests/doc_figures.txt names a doc, a figure as written there, the
# searchd arguments that produce it and the CSV column to read.
# usage: doc_figures.sh SEARCHD SOURCE_DIR
set -u
sd=$1 src=$2
. "$(dirname "$0")/lib.sh"
cd "$src" || exit 2

while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	IFS='|' read -r doc fig args col <<<"$line"
	doc=$(xargs <<<"$doc") col=$(xargs <<<"$col")
	fig=${fig# } fig=${fig% }
	if ! grep -qF -- "$fig" "$doc"; then
		fail "$doc does not quote '$fig'"
		continue
	fi
	# shellcheck disable=SC2086 # the arguments are words
	out=$("$sd" $args -f csv 2>/dev/null)
	got=$(awk -F, -v col="$col" 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == col) c = i; next } END { if (c) print $c }' <<<"$out")
	want=${fig//[^0-9]/}
	if [ "$got" = "$want" ]; then
		pass
	else
		fail "$doc quotes '$fig' but searchd$args gives $col '$got'"
	fi
done <tests/doc_figures.txt
finish
