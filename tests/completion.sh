#!/usr/bin/env bash
# The bash completion (contrib/bash-completion/searchd), sourced in bash:
# options, --format values, algorithms, the configured plugin's
# heuristics, plugin names, config names, --set keys; with '=' a word of
# its own (as bash splits it) or not.
# usage: completion.sh SEARCHD_DIR SOURCE_DIR
set -u
bindir=$1 src=$2
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
source "$src/contrib/bash-completion/searchd"
complete -p searchd >/dev/null && ok || bad "no completion for searchd"
export PATH="$bindir:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
touch mine.ini other.txt

# expect "WORD..." -- the COMP_WORDS (the last is being completed): each
# of the expected replies (space-separated) is in COMPREPLY, or, for
# "-", COMPREPLY is empty
expect() {
	local want=$1
	shift
	COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMPREPLY=()
	_searchd
	local got=" ${COMPREPLY[*]-} " w
	if [ "$want" = - ]; then
		[ "$got" = "  " ] && ok || bad "[$*]: expected nothing, got$got"
		return
	fi
	for w in $want; do
		[[ $got == *" $w "* ]] || { bad "[$*]: no '$w' in$got"; return; }
	done
	ok
}
expect "--list-plugins --list-heuristics" searchd --li
expect "--config --set --format --quiet --compare --trace-limit --dot --version" searchd ""
expect "-" searchd --format=x
expect "text json csv" searchd --format ""
expect "json" searchd -f j
expect "--format=csv" searchd --format=c
expect "bfs ucs astar wastar greedy idastar fess" searchd --set search.algorithm = ""
expect "idastar" searchd -s search.algorithm = id
expect "search.algorithm=wastar" searchd --set search.algorithm=wa
expect "zero matching nearest-goal packing" searchd --config sokoban.ini --set search.heuristic = ""
expect "=manhattan =linear-conflict =pdb" searchd -c npuzzle.ini --set search.heuristic =
expect "heuristic=manhattan,linear-conflict" searchd -c npuzzle.ini --compare heuristic=manhattan,li
expect "npuzzle sokoban pancake" searchd --set plugin.name = ""
expect "mine.ini sokoban.ini npuzzle.ini" searchd --config ""
expect "-" searchd --config oth
expect "search.time_limit=" searchd --set search.t
expect "yes no" searchd --set output.plan = ""
expect "yes no both" searchd --set search.advisors = ""
expect "yes moves no" searchd --set search.in_place = ""
# every key of config.c's list (sd_config_keys) is offered
keys=$(sed -n '/sd_config_keys\[\] = {/,/NULL/p' "$src/framework/config.c" |
	grep -o '"[a-z_]*\.[a-z_]*"' | tr -d '"' | sed 's/$/=/')
[ -n "$keys" ] || bad "no keys read off framework/config.c"
expect "$(echo $keys)" searchd --set ""
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
