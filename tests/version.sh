#!/usr/bin/env bash
# searchd --version names the version and the commit it was built from,
# and --list-plugins shows the same build stamp for the plugins built
# with it; in a git work tree, that commit is the source's HEAD (a build
# after a commit configures again and takes the new one).
# usage: version.sh SEARCHD VERSION COMMIT [SOURCE_DIR]
set -u
sd=$1 version=$2 commit=$3 src=${4:-}
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

case $commit in
unknown | [0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ok ;;
*) bad "configured commit '$commit' is neither a hash nor unknown" ;;
esac
if [ -n "$src" ] && head=$(git -C "$src" rev-parse --short HEAD 2>/dev/null)
then
	if [ "$head" = "$commit" ]; then ok
	else bad "built as commit $commit, but the source is at $head"; fi
fi
out=$("$sd" --version)
if grep -qx "searchd $version (git $commit, plugin ABI [0-9]*\.[0-9]*)" <<<"$out"
then ok; else bad "--version: $out"; fi
out=$("$sd" -V)
if grep -q "(git $commit," <<<"$out"; then ok; else bad "-V: $out"; fi
out=$(SEARCHD_PLUGIN_PATH= "$sd" --list-plugins)
n=$(grep -c "\.so (built with searchd $version, git $commit)$" <<<"$out")
if [ "$n" -ge 1 ] && [ "$n" = "$(grep -c '\.so' <<<"$out")" ]; then ok
else bad "--list-plugins without the build stamp: $out"; fi
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
