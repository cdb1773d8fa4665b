#!/usr/bin/env bash
# The Debian package (cpack -G DEB): its contents (program, plugins,
# header, pc file, man pages, configs, levels, docs, completion, all under
# /usr), its dependencies (from dpkg-shlibdeps), and, unpacked, the
# program solving the installed example config named bare.  lintian when
# there is one.  Skipped without dpkg-deb.
# usage: package.sh BUILD_DIR
set -eu
build=$1
command -v dpkg-deb >/dev/null || { echo "no dpkg-deb: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp" >"$tmp/log" 2>&1 || {
	cat "$tmp/log"; exit 1; }
deb=$(ls "$tmp"/searchd_*.deb)
contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}')
for f in ./usr/bin/searchd 'usr/lib/.*searchd/plugins/sokoban.so' \
	'usr/lib/.*searchd/plugins/npuzzle.so' 'usr/lib/.*searchd/plugins/pancake.so' \
	./usr/include/searchd/plugin.h ./usr/share/pkgconfig/searchd.pc \
	./usr/share/man/man1/searchd.1 ./usr/share/man/man7/searchd-plugin.7 \
	./usr/share/searchd/sokoban.ini ./usr/share/searchd/levels/blog.txt \
	./usr/share/searchd/levels/microban.xsb ./usr/share/doc/searchd/README.md \
	./usr/share/bash-completion/completions/searchd; do
	grep -qx "\.\?/\?$f" <<<"$contents" || {
		echo "not in the package: $f"; echo "$contents"; exit 1; }
done
if grep -v '^\./usr/' <<<"$contents" | grep -vx './'; then
	echo "files outside /usr"; exit 1; fi
deps=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $deps"
for d in libc6 libinih1 libcjson1; do
	grep -q "\b$d\b" <<<"$deps" || { echo "no $d in Depends"; exit 1; }
done
# unpacked, the program finds its plugins and examples beside itself
dpkg-deb -x "$deb" "$tmp/root"
mkdir "$tmp/elsewhere"
out=$(cd "$tmp/elsewhere" && "$tmp/root/usr/bin/searchd" --config sokoban.ini -q --format json)
grep -q '"status":"solved","cost":42' <<<"$out" || {
	echo "packaged sokoban.ini: $out"; exit 1; }
if command -v lintian >/dev/null; then
	lintian --no-tag-display-limit "$deb" || echo "(lintian findings above)"
else
	echo "no lintian: skipped"
fi
echo "1 passed, 0 failed"
