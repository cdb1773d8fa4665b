#!/usr/bin/env bash
# The tutorial (docs/tutorial.md), done by a stranger: install searchd into
# a temporary prefix, copy the example plugin's one source file out of the
# tree, build it against the installed header found through pkg-config,
# and solve stacks with the installed program and every algorithm.
#
# Every plan is replayed here, in awk, and must sort the stack; every
# algorithm run here is optimal for unit costs, so every plan must be as
# long as the optimum, which a breadth-first search in awk finds.
# usage: out_of_tree.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# ---- the stranger's steps ---------------------------------------------------

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || {
	echo "FAIL: cmake --install"; exit 1; }
export PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig"
sd="$tmp/prefix/bin/searchd"
mkdir "$tmp/plugin"
cp "$src/plugins/pancake/pancake.c" "$tmp/plugin/"
cd "$tmp/plugin" || exit 1
cflags=$(pkg-config --cflags searchd) || { echo "FAIL: pkg-config"; exit 1; }
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags \
	-o pancake.so pancake.c || { echo "FAIL: compile"; exit 1; }
cat >pancake.ini <<'EOI'
[plugin]
path = ./pancake.so

[problem]
stack = 3 1 4 2 5
EOI

# ---- the independent checker ------------------------------------------------

# The awk functions: flip(s, k) reverses the top k of stack s (numbers
# separated by single spaces, top first); goal(s) is s sorted.
awk_lib='
function flip(s, k,    a, n, i, t) {
	n = split(s, a, " ")
	t = a[k]
	for (i = k - 1; i >= 1; i--) t = t " " a[i]
	for (i = k + 1; i <= n; i++) t = t " " a[i]
	return t
}
function goal(s,    a, n, i, t) {
	n = split(s, a, " ")
	t = 1
	for (i = 2; i <= n; i++) t = t " " i
	return t
}'

# optimum STACK: the fewest flips that sort STACK, by breadth-first search.
optimum() {
	awk -v s="$1" "$awk_lib"'
	BEGIN {
		n = split(s, a, " "); s = a[1]
		for (i = 2; i <= n; i++) s = s " " a[i]
		g = goal(s); dist[s] = 0; q[1] = s; head = 1; tail = 1
		while (head <= tail) {
			u = q[head++]
			if (u == g) { print dist[u]; exit }
			for (k = 2; k <= n; k++) {
				t = flip(u, k)
				if (!(t in dist)) { dist[t] = dist[u] + 1; q[++tail] = t }
			}
		}
		print -1
	}'
}

# replay STACK PLAN: apply PLAN ("F3 F2 ...") to STACK; prints the number
# of flips if every word is a legal flip and the stack ends sorted, else
# "bad".
replay() {
	awk -v s="$1" -v plan="$2" "$awk_lib"'
	BEGIN {
		n = split(s, a, " "); s = a[1]
		for (i = 2; i <= n; i++) s = s " " a[i]
		m = split(plan, w, " ")
		for (i = 1; i <= m; i++) {
			if (w[i] !~ /^F[0-9]+$/) { print "bad"; exit }
			k = substr(w[i], 2) + 0
			if (k < 2 || k > n) { print "bad"; exit }
			s = flip(s, k)
		}
		print (s == goal(s) ? m : "bad")
	}'
}

# field JSON NAME: the value of a string or number field of one JSON line.
field() {
	sed -n 's/.*"'"$2"'":"\{0,1\}\([^",}]*\)"\{0,1\}[,}].*/\1/p' <<<"$1"
}

# solve STACK ALGORITHM OPTIMUM [searchd args...]: solve, replay, compare.
solve() {
	local stack=$1 alg=$2 want=$3 out rc plan len flips
	shift 3
	out=$("$sd" --config pancake.ini --set problem.stack="$stack" \
		--set search.algorithm="$alg" --format json --quiet "$@" 2>&1)
	rc=$?
	plan=$(field "$out" plan)
	len=$(field "$out" length)
	flips=$(replay "$stack" "$plan")
	if [ "$rc" != 0 ] || [ "$(field "$out" status)" != solved ]; then
		fail "[$stack] $alg: exit $rc: $out"
	elif [ "$flips" != "$len" ]; then
		fail "[$stack] $alg: plan '$plan' (length $len) does not sort it"
	elif [ "$len" != "$want" ]; then
		fail "[$stack] $alg: plan '$plan' has $len flips, optimum $want"
	else
		passes=$((passes + 1))
	fi
}

# ---- the runs ---------------------------------------------------------------

# The checker itself, on stacks worked out by hand.
[ "$(optimum "2 1")" = 1 ] && [ "$(optimum "1 2 3")" = 0 ] &&
	[ "$(optimum "3 1 2")" = 2 ] && [ "$(optimum "5 4 3 2 1")" = 1 ] &&
	[ "$(replay "3 1 2" "F3 F2")" = 2 ] && [ "$(replay "3 1 2" "F2")" = bad ] &&
	[ "$(replay "3 1 2" "F4")" = bad ] || fail "the awk checker is wrong"

# Every algorithm on small stacks (blind bfs and ucs included).
for stack in "2 1" "1 2 3 4" "3 1 2" "4 3 2 1" "3 1 4 2 5" "2 4 6 1 3 5" \
	"5 3 6 1 4 2" "4 7 2 6 1 5 3" "7 5 3 1 6 4 2"; do
	opt=$(optimum "$stack")
	for alg in bfs ucs astar idastar; do
		solve "$stack" "$alg" "$opt"
	done
done

# A* and IDA* with the gap heuristic on larger stacks; optima found once
# by breadth-first search over all 10! stacks.
while read -r opt stack; do
	solve "$stack" astar "$opt"
	solve "$stack" idastar "$opt"
done <<'EOS'
10 3 6 9 1 5 10 2 8 4 7
11 7 10 8 5 1 3 2 4 6 9
EOS

# The default example, config/pancake.ini, with the installed program and
# the installed plugin (found by name).
out=$("$sd" --config "$src/config/pancake.ini" --format json)
stack=$(sed -n 's/^stack *= *//p' "$src/config/pancake.ini")
len=$(field "$out" length)
if [ "$(replay "$stack" "$(field "$out" plan)")" != "$len" ] ||
	[ "$len" != "$(sed -n 's/.*optimal \([0-9]*\) flips.*/\1/p' \
	               "$src/config/pancake.ini")" ]; then
	fail "config/pancake.ini: $out"
else
	passes=$((passes + 1))
fi

# --list-heuristics, and errors naming the file and line.
expect() {
	local want=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! grep -qF -- "$pat" <<<"$out"; then
		fail "$* -> exit $rc (want $want): $out (wanted: $pat)"
	else
		passes=$((passes + 1))
	fi
}
expect 0 "gap              yes  pancakes not on a neighbour in size" \
	"$sd" --config pancake.ini --list-heuristics
printf '[plugin]\npath = ./pancake.so\n\n[problem]\nstack = 3 1 3 2\n' >bad.ini
expect 2 "bad.ini:5: stack is not a permutation of 1..4: '3' appears twice" \
	"$sd" --config bad.ini
expect 2 "<command line>: stack is not a permutation of 1..2: '3' is out of range" \
	"$sd" --config pancake.ini --set problem.stack="1 3"
expect 2 "<command line>: unknown key 'syrup'" \
	"$sd" --config pancake.ini --set problem.syrup=maple

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
