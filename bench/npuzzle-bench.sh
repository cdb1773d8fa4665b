#!/usr/bin/env bash
# npuzzle-bench.sh -- the sliding-tile puzzle benchmarks; prints tables.
#
# usage: bench/npuzzle-bench.sh MODE [IDS...]
#
#   md       IDA* + manhattan on Korf's 100 15-puzzles, side by side with
#            tiles15 (bench/tiles15.c, the hand-specialised baseline, built
#            here with cc -O2): generated and expanded nodes must equal the
#            measured columns; prints the time ratio searchd / tiles15
#            per instance, in total and its median (IDA* by the plugin's
#            compiled kernel; IN_PLACE=moves: by its moves() and apply(),
#            IN_PLACE=no: by expand(), for comparison)
#   lc       IDA* + linear-conflict on Korf's 100: lengths and totals
#   pdb      IDA* + pdb (7-8 + reflection) on Korf's 100: totals; the
#            tables are built first if they are not cached (build or load
#            time and peak memory printed first; PARTITION=6-6-3 builds in
#            seconds)
#   astar    A* + linear-conflict (default ids 1..10): peak memory and
#            bytes per stored state
#   24       IDA* + pdb (6-6-6-6 + reflection) on Korf & Felner's 50
#            24-puzzles, LIMIT seconds each (env LIMIT, default 600); the
#            tables are built once, time and memory printed as for pdb;
#            the `expected` column is Korf and Felner's published count
#            (which counts no root, and refuses only the move back:
#            FSM_MOVES=2 gives it + 1), `ratio` generated / published
#
# IDS: instance numbers (default all; SUBSET=1: those whose measured
# generated count is under 1e8, 60 of Korf's 100, about 7 s of tiles15).
# Env: SEARCHD (the program, default build/bin/searchd), DATA (default
# config/levels), PDB_DIR, PARTITION (pdb_partition, default the
# plugin's), IN_PLACE (search.in_place: yes, the default, moves or no),
# ORDER (problem.order, default korf; h: children smallest h first, which
# changes the count of IDA*'s last iteration, so md's counts then differ
# from the measured), FSM_MOVES (problem.fsm_moves, default the plugin's:
# the longest duplicate move sequence IDA* refuses on the 24-puzzle).
#
# An id not in the file is refused before anything runs (exit 2).  A
# searchd run that fails (an error: a bad setting, tables that cannot be
# built) shows searchd's message in its row and stays out of the totals
# and ratios, and the script exits 1 at the end; tables that cannot be
# built or loaded stop it at once (exit 1).  A plan of another length
# than the file's optimal one is named at the end (WRONG), exit 1.
set -u
cd "$(dirname "$0")/.." || exit 2
mode=${1:-md}
shift || true
SEARCHD=${SEARCHD:-build/bin/searchd}
DATA=${DATA:-config/levels}
PDB_DIR=${PDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/searchd}
LIMIT=${LIMIT:-600}
PARTITION=${PARTITION:-}
IN_PLACE=${IN_PLACE:-yes}
ORDER=${ORDER:-korf}
SUBSET=${SUBSET:-}
FSM_MOVES=${FSM_MOVES:-}
part=()
[ -n "$PARTITION" ] && part=(--set problem.pdb_partition="$PARTITION")
[ -n "$FSM_MOVES" ] && part+=(--set problem.fsm_moves="$FSM_MOVES")
[ -x "$SEARCHD" ] || { echo "npuzzle-bench: no $SEARCHD (set SEARCHD)" >&2; exit 2; }

file=$DATA/korf100.txt
alg=idastar heur=manhattan
case $mode in
md) ;;
lc) heur=linear-conflict ;;
pdb) heur=pdb ;;
astar) alg=astar heur=linear-conflict ;;
24) file=$DATA/korf50-24.txt heur=pdb ;;
*) echo "npuzzle-bench: unknown mode '$mode'" >&2; exit 2 ;;
esac
[ -r "$file" ] || { echo "npuzzle-bench: cannot read $file" >&2; exit 2; }
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")

ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
	if [ "$mode" = astar ]; then ids=(1 2 3 4 5 6 7 8 9 10)
	elif [ -n "$SUBSET" ]; then
		mapfile -t ids < <(grep -v '^#' "$file" | awk 'NF && $5 < 1e8 {print $1}')
	else mapfile -t ids < <(grep -v '^#' "$file" | awk 'NF{print $1}'); fi
fi

# every instance asked for must be in the file
missing=$(printf '%s\n' "${ids[@]}" |
	awk 'NR == FNR {have[$1]; next} !($1 in have)' <(grep -v '^#' "$file") -)
if [ -n "$missing" ]; then
	echo "npuzzle-bench: no instance ${missing//$'\n'/ } in $file" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ctrl-C ends the script, not only the searchd run it interrupts
trap 'exit 130' INT TERM
ref=
if [ "$mode" = md ]; then
	ref=$tmp/tiles15
	cc -O2 -o "$ref" bench/tiles15.c || exit 2
fi

# json KEY: the number after "KEY": in $out.
json() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" <<<"$out"; }

# failure ERRFILE: searchd's message when the run in $out failed (no
# report, or status error: the error field, else the file's first lines);
# nothing when it did not.
failure() {
	local st
	st=$(sed -n 's/.*"status":"\([a-z-]*\)".*/\1/p' <<<"$out")
	[ -n "$st" ] && [ "$st" != error ] && return
	sed -n 's/.*"error":"\([^"]*\)".*/\1/p' <<<"$out"
	grep -m 3 . "$1"
	[ -s "$1" ] || [ -n "$st" ] || echo "searchd printed no report"
}

if [ "$mode" = pdb ] || [ "$mode" = 24 ]; then
	# Build (or load) the tables once, outside the timed runs; say how
	# long it took (wall, and the process's user + system CPU: the builder
	# runs on all cores, so CPU / cores is the wall time of an unloaded
	# machine) and the process's peak memory.
	log=$tmp/log tlog=$tmp/tlog
	TIMEFORMAT='%R %U %S'
	# built if new files appear in PDB_DIR (under -q no message says so)
	had=$(ls "$PDB_DIR" 2>/dev/null | wc -l)
	{ time out=$("$SEARCHD" -q --config config/15puzzle.ini --set problem.file="$file" \
		--set problem.index="${ids[0]}" --set search.heuristic=pdb \
		--set problem.pdb_dir="$PDB_DIR" --set search.node_limit=1 "${part[@]}" \
		--set output.plan=no --format json 2>"$log"); } 2>"$tlog"
	read -r wall usr sys <"$tlog"
	why=$(failure "$log")
	if [ -n "$why" ]; then
		echo "npuzzle-bench: the tables could not be built or loaded:" >&2
		sed 's/^/    /' <<<"$why" >&2
		exit 1
	fi
	what=loaded
	[ "$(ls "$PDB_DIR" 2>/dev/null | wc -l)" -gt "$had" ] && what=built
	awk -v w="$what" -v t="$wall" -v u="$usr" -v s="$sys" -v r="$(json peak_rss)" \
		-v c="$(getconf _NPROCESSORS_ONLN)" \
		'BEGIN { printf "tables %s: %.1f s wall, %.1f s CPU (%.1f s per core of %d), %.0f MiB peak RSS\n", w, t, u + s, (u + s) / c, c, r / 1048576 }'
fi

echo "times: CPU seconds of the search (tiles15: clock(); searchd: cpu_seconds)"
printf '%-4s %4s %4s %14s %14s %5s %9s %9s %6s %10s %8s\n' id opt len \
	generated expected match tiles15_s searchd_s ratio peak_MiB B/state
tot_gen=0 tot_s=0 tot_ref=0 tot_wall=0 n=0 ok=0 solved=0 ratios=() failed=() wrong=()
for id in "${ids[@]}"; do
	line=$(grep -v '^#' "$file" | awk -v id="$id" '$1 == id')
	read -r -a f <<<"$line"
	opt=${f[1]}
	expected=-
	[ "$mode" = md ] && expected=${f[4]}
	rs=-
	if [ -n "$ref" ]; then
		rs=$(echo "$line" | "$ref" | awk '{print $5}')
	fi
	lim=()
	[ "$mode" = 24 ] && lim=(--set search.time_limit="$LIMIT")
	t0=$(date +%s.%N)
	out=$("$SEARCHD" -q --config config/15puzzle.ini \
		--set problem.file="$file" --set problem.index="$id" \
		--set search.algorithm=$alg --set search.heuristic=$heur \
		--set problem.pdb_dir="$PDB_DIR" "${lim[@]}" "${part[@]}" \
		--set search.in_place="$IN_PLACE" --set problem.order="$ORDER" \
		--set output.plan=no --format json 2>"$tmp/err")
	t1=$(date +%s.%N)
	why=$(failure "$tmp/err")
	if [ -n "$why" ]; then
		printf '%-4s %4s error: %s\n' "$id" "$opt" "$(head -1 <<<"$why")"
		failed+=("$id") n=$((n + 1))
		continue
	fi
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')
	tot_wall=$(awk -v a="$tot_wall" -v b="$wall" 'BEGIN{print a + b}')
	# CPU seconds of the search when the engine reports them (tiles15 reports
	# CPU time too: the ratio is then fair on a busy machine), else wall.
	len=$(json length) gen=$(json generated) s=$(json cpu_seconds)
	[ -n "$s" ] || s=$(json seconds)
	status=$(sed -n 's/.*"status":"\([a-z-]*\)".*/\1/p' <<<"$out")
	rss=$(json peak_rss) bps=$(json bytes_per_state)
	[ "$status" = solved ] || len=$status
	# a plan of another length than the optimal one is wrong, whatever
	# the counts (a limit is not: len is then the status)
	[ "$status" != solved ] || [ "$len" = "$opt" ] || wrong+=("$id")
	match=yes
	[ "$len" = "$opt" ] || match=NO
	[ "$mode" = 24 ] && expected=${f[3]}
	[ "$expected" = - ] || [ "$mode" = 24 ] || [ "$gen" = "$expected" ] ||
		match=NO
	# the measured expanded column too
	[ "$mode" != md ] || [ "$(json expanded)" = "${f[5]}" ] || match=NO
	[ "$match" = yes ] && ok=$((ok + 1))
	[ "$status" = solved ] && solved=$((solved + 1))
	ratio=-
	[ "$mode" = 24 ] && ratio=$(awk -v a="${gen:-0}" -v b="$expected" \
		'BEGIN{printf "%.3f", a / b}')
	if [ "$rs" != - ]; then
		ratio=$(awk -v a="$s" -v b="$rs" 'BEGIN{printf "%.2f", (b > 0) ? a / b : 0}')
		ratios+=("$ratio")
		tot_ref=$(awk -v a="$tot_ref" -v b="$rs" 'BEGIN{print a + b}')
	fi
	printf '%-4s %4s %4s %14s %14s %5s %9s %9.3f %6s %10.1f %8.1f\n' "$id" \
		"$opt" "$len" "$gen" "$expected" "$match" "$rs" "$s" "$ratio" \
		"$(awk -v r="${rss:-0}" 'BEGIN{print r / 1048576}')" "${bps:-0}"
	tot_gen=$((tot_gen + gen))
	tot_s=$(awk -v a="$tot_s" -v b="$s" 'BEGIN{print a + b}')
	n=$((n + 1))
done
echo
echo "mode $mode: $alg + $heur on $n instances of $(basename "$file")"
echo "solved $solved, optimal length (and node count) matching: $ok of $n"
echo "total generated $tot_gen, total search CPU time $(printf '%.2f' "$tot_s") s" \
	"(whole searchd processes, start-up and table loading included:" \
	"$(printf '%.2f' "$tot_wall") s)"
if [ -n "$ref" ] && [ ${#ratios[@]} -gt 0 ]; then
	med=$(printf '%s\n' "${ratios[@]}" | sort -n |
		awk '{a[NR]=$1} END{print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
	echo "tiles15 total $(printf '%.2f' "$tot_ref") s; ratio searchd/tiles15:" \
		"total $(awk -v a="$tot_s" -v b="$tot_ref" 'BEGIN{printf "%.2f", a / b}')," \
		"median per instance $med (target <= 1.2)"
fi
if [ ${#wrong[@]} -gt 0 ]; then
	echo "WRONG: a plan not of the optimal length: ${wrong[*]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED (error, not in the totals): ${#failed[@]} of $n: ${failed[*]}"
fi
[ ${#failed[@]} = 0 ] && [ ${#wrong[@]} = 0 ] || exit 1
