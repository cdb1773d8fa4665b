#!/usr/bin/env bash
# searchd --version names the version and the commit it was built from,
# and --list-plugins shows the same build stamp for the plugins built
# with it.
# usage: version.sh SEARCHD VERSION COMMIT
set -u
sd=$1 version=$2 commit=$3
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

case $commit in
unknown | [0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ok ;;
*) bad "configured commit '$commit' is neither a hash nor unknown" ;;
esac
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
