#!/usr/bin/env bash
# docs/tutorial.md quotes plugins/pancake/pancake.c: every line of its C
# excerpts (```c blocks) must be a line of the plugin, so that the
# tutorial cannot drift from the code.  "/* ... */" lines mark cuts.
# usage: tutorial_code.sh SOURCE_DIR
set -u
doc=$1/docs/tutorial.md code=$1/plugins/pancake/pancake.c
checked=0 missing=0
while IFS= read -r line; do
	checked=$((checked + 1))
	if ! grep -qxF -- "$line" "$code"; then
		echo "docs/tutorial.md quotes a line that pancake.c lacks: $line"
		missing=$((missing + 1))
	fi
done < <(awk '/^```c$/ { c = 1; next } /^```/ { c = 0 } c' "$doc" |
         grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*/\* \.\.\. .*\*/$')
echo "$checked lines checked, $missing missing"
[ "$checked" -gt 50 ] && [ "$missing" = 0 ]
