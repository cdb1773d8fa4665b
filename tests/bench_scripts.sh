#!/usr/bin/env bash
# bench_scripts.sh -- the benchmark scripts (bench/) refuse what they
# cannot run and fail when searchd fails: a missing build, a level or an
# instance that is not there, a reversed range, a bad key or value each
# give a message and a non-zero exit status, not a table of blank rows
# and exit 0.  Only the fast error cases (each about a second or less
# on a loaded machine); no benchmark runs.
#
# usage: bench_scripts.sh SEARCHD SOURCE_DIR PLUGIN_DIR MPI
#   MPI: yes when searchd is built with MPI and mpirun is there; the
#   mpi-bench.sh bad-selection case runs only then (the missing-build
#   cases of hda-bench.sh and mpi-bench.sh run nothing and always run)
set -u
sd=$1 root=$2 plugins=$3 mpi=${4:-no}
build=$(dirname "$(dirname "$sd")")
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# clean WANT PAT CMD...: as expect (lib.sh), and no Python traceback.
clean() { expect_clean "$1" "$2" '^Traceback' "${@:3}"; }

sok() { python3 "$root/bench/sokoban.py" microban-fast --searchd "$sd" "$@"; }

# sokoban.py
clean 2 "'154-156': the levels are 1-155" sok --levels 1-3,154-156
clean 2 "'3-1' is reversed" sok --levels 3-1
clean 2 "'0': the levels are 1-155" sok --levels 0
clean 2 "'x' is not N or N-M" sok --levels x
clean 1 "unknown section [bogus]" sok --levels 1 --set bogus.key=1
clean 2 "--time-limit" sok --levels 1 --time-limit -1
clean 0 "no time limit" sok --levels 1 --time-limit 0 --quiet
# the fast mode's backward fallback: its levels named (forward stopped
# after two expansions here)
clean 0 "# solved by the fallback: 1 2" sok --levels 1-2 \
	--set search.node_limit=2 --set search.fallback="problem.direction=backward
	problem.macros=none search.heuristic=matching search.node_limit=0"
# ... and where it ran without solving (it said "by the fallback")
clean 0 "fallback ran" sok --levels 1 --set search.node_limit=1 \
	--set search.fallback="problem.direction=backward problem.macros=none
	search.heuristic=matching"
# a plan that does not replay (another collection's level 1 given to
# searchd) is a failure too (it exited 0)
clean 1 "plan does not replay" sok --levels 1 \
	--set problem.file="$root/config/levels/xsokoban90.xsb"
clean 1 "/nonexistent/searchd is not an executable searchd" \
	python3 "$root/bench/sokoban.py" microban-fast --levels 1 \
	--searchd /nonexistent/searchd

# npuzzle-bench.sh
nb() { env SEARCHD="$sd" PDB_DIR="$tmp/pdb" "$@"; }
expect 2 "no instance 999" nb "$root/bench/npuzzle-bench.sh" lc 999 12
expect 1 "bad value 'bogus' for in_place" \
	nb IN_PLACE=bogus "$root/bench/npuzzle-bench.sh" lc 12
expect 1 "FAILED (error, not in the totals): 1 of 1: 12" \
	nb IN_PLACE=bogus "$root/bench/npuzzle-bench.sh" lc 12
expect 1 "tables could not be built or loaded" \
	nb PARTITION=bogus "$root/bench/npuzzle-bench.sh" pdb 1 2
expect 2 "no /nonexistent/searchd" \
	env SEARCHD=/nonexistent/searchd "$root/bench/npuzzle-bench.sh" lc 12
# a plan of another length than the file's optimal one fails (it exited
# 0): Korf 12's 45 moves written as 44
mkdir "$tmp/data"
awk '$1 == 12 { $2 = 44 } { print }' "$root/config/levels/korf100.txt" \
	>"$tmp/data/korf100.txt"
expect 1 "WRONG: a plan not of the optimal length: 12" \
	nb DATA="$tmp/data" "$root/bench/npuzzle-bench.sh" lc 12

# grid-costs.sh
expect 2 "bad value 'bogus' for memory_limit" env SEARCHD="$sd" \
	PLUGIN="$plugins/grid.so" MEMORY_LIMIT=bogus "$root/bench/grid-costs.sh"
# a run killed by a signal is a failure (only status 2 was: the ucs rows
# went missing, exit 0)
printf '#!/bin/sh\ncase "$*" in *algorithm=ucs*) kill -SEGV $$ ;; esac\nexec %s "$@"\n' \
	"$sd" >"$tmp/crashing"
chmod +x "$tmp/crashing"
expect 1 "(searchd exited 139)" env SEARCHD="$tmp/crashing" \
	PLUGIN="$plugins/grid.so" "$root/bench/grid-costs.sh"

# hda-bench.sh and mpi-bench.sh: a missing build is refused before
# anything runs (no mpirun needed); a bad selection fails.
expect 2 "no /nonexistent/bin/searchd" \
	env KORF=12 LEVELS=99 "$root/bench/hda-bench.sh" /nonexistent 2
expect 2 "no /nonexistent/bin/searchd" \
	env LEVELS=1-2 KORF=9 "$root/bench/mpi-bench.sh" /nonexistent 2
if [ "$mpi" = yes ]; then
	expect 1 "index 999 is out of range" \
		env LEVELS=500 KORF=999 "$root/bench/mpi-bench.sh" "$build" 2
	expect 1 "no level '500'" \
		env LEVELS=500 KORF=999 "$root/bench/mpi-bench.sh" "$build" 2
else
	echo "skipped: mpi-bench.sh selection (searchd without MPI)"
fi

finish
