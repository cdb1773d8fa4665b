#!/usr/bin/env bash
# The man pages: every option of searchd --help is described in
# searchd(1), and every engine key of docs/config.md; both pages render
# without warnings, with the install paths filled in.
# usage: man.sh SEARCHD SOURCE_DIR MAN1 MAN7
set -u
sd=$1 src=$2 man1=$3 man7=$4
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# the page's text with troff's \- as -, fonts dropped
page=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man1")
# the options: the lines of --help's option list, both spellings
opts=$("$sd" --help | sed -n '/^options:/,/^$/p' |
	grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' | grep -oE -- '--?[a-zA-Z-]+')
[ "$(wc -w <<<"$opts")" -ge 20 ] && ok || bad "too few options in --help: $opts"
for o in $opts; do
	if grep -qE -- "(^|[ \"])$o( |,|=|$)" <<<"$page"; then ok
	else bad "option $o of --help is not in searchd(1)"; fi
done
# the engine keys: the first column of docs/config.md's table
keys=$(sed -n '/^## Engine keys/,/^## /p' "$src/docs/config.md" |
	grep -oE '^\| `[a-z]+\.[a-z_]+`' | grep -oE '[a-z]+\.[a-z_]+')
[ "$(wc -w <<<"$keys")" -ge 10 ] && ok || bad "too few keys in config.md: $keys"
for k in $keys; do
	if grep -qx "\.B $k" "$man1"; then ok
	else bad "key $k of docs/config.md is not in searchd(1)"; fi
done
# FILES names every document installed (docs/*.md)
for d in "$src"/docs/*.md; do
	d=$(basename "$d")
	grep -qE "(^| )$d[,.]" "$man1" && ok || bad "searchd(1) does not name $d"
done
for f in "$man1" "$man7"; do
	if grep -q '@[A-Z_]*@' "$f"; then bad "$f: unfilled @VAR@"; else ok; fi
	# each section and each item (a .TP's first line) once: an edit
	# once left the page with two DESCRIPTION and OPTIONS sections
	twice=$(awk '/^\.S[HS] / || prev == ".TP" { print } { prev = $0 }' "$f" |
		sort | uniq -d)
	[ -z "$twice" ] && ok || bad "$f has these lines twice: $twice"
	# groff warns on stderr about anything it cannot format cleanly
	if command -v groff >/dev/null; then
		w=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
		[ -z "$w" ] && ok || bad "groff warnings for $f: $w"
		out=$(groff -man -Tutf8 "$f" 2>/dev/null)
		grep -q "searchd" <<<"$out" && ok || bad "$f renders empty"
	fi
	if command -v man >/dev/null; then
		w=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
		[ -z "$w" ] && ok || bad "man --warnings -l $f: $w"
	fi
done
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
