#!/usr/bin/env bash
# Install searchd into a temporary prefix, build a plugin out of tree with
# nothing but the installed header (found through pkg-config), and run it
# with the installed program.
# usage: install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig"
cflags=$(pkg-config --cflags searchd)
plugindir=$(pkg-config --variable=plugindir searchd)
plugindir=$(realpath "$plugindir")
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags \
	-o "$tmp/graph.so" "$src/tests/plugins/graph.c"
out=$("$tmp/prefix/bin/searchd" --format json \
	--set plugin.path="$tmp/graph.so" --set search.algorithm=ucs \
	--set problem.edges="S>G:10 S>A:1 A>G:1" --set problem.start=S \
	--set problem.goal=G)
echo "$out"
grep -q '"plan":"S>A A>G"' <<<"$out"
# the installed program finds the installed plugins
cp "$tmp/graph.so" "$plugindir/"
"$tmp/prefix/bin/searchd" --list-plugins | grep -q "$plugindir/graph.so" || {
	ls "$plugindir"; echo "installed plugins not listed"; exit 1; }
echo "1 passed, 0 failed"
