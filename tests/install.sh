#!/usr/bin/env bash
# Install searchd with DESTDIR into a fresh prefix; check that every part
# is there (program, plugins, header, pc file, man pages, example configs
# and levels, docs, completion); run the installed program on an
# installed example config named bare; render the man pages; build
# plugins out of tree with nothing but the installed headers (found
# through pkg-config; one with an IDA* kernel) and run them with the
# installed program.
# usage: install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/searchd-test
DESTDIR="$tmp/dest" cmake --install "$build" --prefix "$prefix" >/dev/null
root=$tmp/dest$prefix
sd=$root/bin/searchd
for f in bin/searchd include/searchd/plugin.h include/searchd/ida_kernel.h \
	share/pkgconfig/searchd.pc \
	share/man/man1/searchd.1 share/man/man7/searchd-plugin.7 \
	share/searchd/sokoban.ini share/searchd/npuzzle.ini \
	share/searchd/levels/blog.txt share/searchd/levels/microban.xsb \
	share/searchd/levels/korf100.txt share/doc/searchd/README.md \
	share/doc/searchd/config.md share/doc/searchd/examples/pancake.c \
	share/doc/searchd/examples/kline.c \
	share/bash-completion/completions/searchd; do
	[ -f "$root/$f" ] || { echo "not installed: $f"; exit 1; }
done
for p in sokoban npuzzle pancake; do
	ls "$root"/lib*/searchd/plugins/$p.so "$root"/lib/*/searchd/plugins/$p.so \
		2>/dev/null | grep -q . || { echo "plugin $p not installed"; exit 1; }
done

# a bare config name, from elsewhere: found in <prefix>/share/searchd,
# its levels/ path resolved there
mkdir "$tmp/elsewhere"
out=$(cd "$tmp/elsewhere" && "$sd" --config sokoban.ini -q --format json)
grep -q '"status":"solved","cost":42' <<<"$out" || {
	echo "installed sokoban.ini: $out"; exit 1; }
out=$(cd "$tmp/elsewhere" && "$sd" --config nosuch.ini 2>&1) && exit 1
grep -q "nor in $root/bin/../share/searchd\|nor in $root/share/searchd" <<<"$out" || {
	echo "not-found message: $out"; exit 1; }

# the installed man pages render without warnings
if command -v groff >/dev/null; then
	for m in man1/searchd.1 man7/searchd-plugin.7; do
		w=$(groff -man -Tutf8 -ww -z "$root/share/man/$m" 2>&1)
		[ -z "$w" ] || { echo "groff warnings for $m: $w"; exit 1; }
	done
fi
# the installed pages name the files of the prefix given to --install
# (the build's own pages name the configured one)
for f in "$prefix/share/searchd/levels/" "$prefix/share/doc/searchd/" \
	"$prefix/include/searchd/plugin.h"; do
	grep -qF "$f" "$root/share/man/man1/searchd.1" ||
		{ echo "searchd.1 does not name $f"; exit 1; }
done
grep -qF "$prefix/include/searchd/plugin.h" \
	"$root/share/man/man7/searchd-plugin.7" ||
	{ echo "searchd-plugin.7 does not name $prefix's plugin.h"; exit 1; }
# ... and carry the version, as the build's do (it was "searchd ")
v=$("$sd" --version | awk '{ print $2 }')
for m in man1/searchd.1 man7/searchd-plugin.7; do
	grep -q "^\.TH .*\"searchd $v\"" "$root/share/man/$m" ||
		{ echo "$m: $(grep '^\.TH' "$root/share/man/$m")"; exit 1; }
done
# the installed completion loads
bash -c "source '$root/share/bash-completion/completions/searchd' &&
	complete -p searchd" >/dev/null

export PKG_CONFIG_PATH="$root/share/pkgconfig"
cflags=$(pkg-config --cflags searchd)
plugindir=$(pkg-config --variable=plugindir searchd)
plugindir=$(realpath "$plugindir")
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags \
	-o "$tmp/graph.so" "$src/tests/plugins/graph.c"
out=$("$sd" --format json \
	--set plugin.path="$tmp/graph.so" --set search.algorithm=ucs \
	--set problem.edges="S>G:10 S>A:1 A>G:1" --set problem.start=S \
	--set problem.goal=G)
echo "$out"
grep -q '"plan":"S>A A>G"' <<<"$out"
# a plugin with an IDA* kernel, built the same way (the installed
# searchd/ida_kernel.h), solves by it
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags \
	-o "$tmp/kline.so" "$root/share/doc/searchd/examples/kline.c"
out=$("$sd" --format json -q --set plugin.path="$tmp/kline.so" \
	--set search.algorithm=idastar --set problem.len=80)
grep -q '"status":"solved","cost":80' <<<"$out" || {
	echo "out-of-tree kernel plugin: $out"; exit 1; }
# the installed program finds the installed plugins
cp "$tmp/graph.so" "$plugindir/"
"$sd" --list-plugins | grep -q "$plugindir/graph.so" || {
	ls "$plugindir"; echo "installed plugins not listed"; exit 1; }
"$sd" --list-plugins | grep -q "^sokoban" || {
	echo "installed sokoban plugin not listed"; exit 1; }
echo "1 passed, 0 failed"
