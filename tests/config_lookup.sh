#!/usr/bin/env bash
# A bare --config name that is not a file in the current directory is
# looked up among the example configs: <dir of searchd>/../share/searchd
# (in the build tree a link to config/), then the install directory.
# usage: config_lookup.sh SEARCHD SOURCE_DIR
set -u
sd=$1 src=$2
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# found beside the program, and its levels/ path still holds
out=$("$sd" --config sokoban.ini -q --format json); rc=$?
if [ $rc = 0 ] && grep -q '"status":"solved","cost":42' <<<"$out"; then ok
else bad "bare sokoban.ini: exit $rc: $out"; fi
out=$("$sd" -c npuzzle.ini -q --format json); rc=$?
if [ $rc = 0 ] && grep -q '"plugin":"npuzzle"' <<<"$out"; then ok
else bad "bare npuzzle.ini: exit $rc: $out"; fi
out=$("$sd" --config=sokoban.ini --list-heuristics); rc=$?
if [ $rc = 0 ] && grep -q '^matching' <<<"$out"; then ok
else bad "--config=sokoban.ini --list-heuristics: exit $rc: $out"; fi

# a file in the current directory comes first
cp "$src/config/npuzzle.ini" sokoban.ini
out=$("$sd" --config sokoban.ini -q --format json); rc=$?
if [ $rc = 0 ] && grep -q '"plugin":"npuzzle"' <<<"$out"; then ok
else bad "sokoban.ini in the current directory not preferred: $out"; fi
rm sokoban.ini

# not found: the message says where it looked
out=$("$sd" --config nosuch.ini 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "config 'nosuch.ini' not found: not in the current directory, nor in .*/share/searchd, nor in /.*searchd" <<<"$out"
then ok; else bad "nosuch.ini: exit $rc: $out"; fi
# a name with a directory is not looked up
out=$("$sd" --config ./sokoban.ini 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "cannot open config './sokoban.ini'" <<<"$out"
then ok; else bad "./sokoban.ini: exit $rc: $out"; fi
# a broken link of that name is the user's config, not the example's
# (the example was run, exit 0, without a word)
ln -s "$tmp/missing/my-tuned.ini" sokoban.ini
out=$("$sd" --config sokoban.ini 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "cannot open config 'sokoban.ini'" <<<"$out"
then ok; else bad "a broken link sokoban.ini: exit $rc: $out"; fi
rm sokoban.ini
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
