# lib.sh -- what the end-to-end test scripts share; source it after
# setting nothing.  Counts checks in $passes and $fails; a script ends
# with `finish`, which prints "N passed, N failed" and sets the status.

fails=0 passes=0

pass() { passes=$((passes + 1)); }

# fail MESSAGE...: count a failed check and say why.
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS PATTERN COMMAND...: run the command; its exit status must
# be STATUS and its combined output must contain PATTERN.
expect() {
	local want=$1 pat=$2
	shift 2
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! grep -qF -- "$pat" <<<"$out"; then
		fail "$* -> exit $rc (want $want), output:"
		echo "$out" | head -20
		echo "(wanted to see: $pat)"
	else
		pass
	fi
}

# wait_ready PID: wait (at most 5 s) until the process has installed its
# SIGINT handler (bit 2 of SigCgt in /proc/PID/status), a sign of life
# that does not race the signal as a fixed sleep does on a loaded machine.
wait_ready() {
	local i cgt
	for i in $(seq 100); do
		cgt=$(awk '/^SigCgt/ {print $2}' "/proc/$1/status" 2>/dev/null)
		[ -n "$cgt" ] && (( (16#$cgt & 2) != 0 )) && return 0
		sleep 0.05
	done
	return 1
}

# all_gone PATTERN: wait (at most 5 s) until no process's command line
# matches PATTERN (pgrep -f); false if one still does.  Ranks told to end
# take a moment to leave, longer on a loaded machine: a fixed half
# second failed now and then under load although every rank ended.
all_gone() {
	local i
	for i in $(seq 100); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.05
	done
	return 1
}

# finish: the closing line and the exit status of the script.
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" = 0 ]
}

# expect_clean WANT PAT BAD CMD...: as expect, and no line of the output
# matches the regular expression BAD (a Python traceback, an MPI_Abort).
expect_clean() {
	local want=$1 pat=$2 bad=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! grep -qF -- "$pat" <<<"$out" ||
		grep -q -- "$bad" <<<"$out"; then
		fail "$* -> exit $rc (want $want, no line matching '$bad'), output:"
		echo "$out" | grep -v '^\[' | head -20
		echo "(wanted to see: $pat)"
	else
		pass
	fi
}

# no_abort WANT PAT CMD...: as expect, and the MPI job did not end by
# MPI_Abort (Open MPI says "MPI_ABORT was invoked"): every rank left
# through MPI_Finalize (docs/mpi.md; an abort while a rank is in
# MPI_Finalize can crash Open MPI 4.1's mpirun, exit 139).
no_abort() { expect_clean "$1" "$2" "MPI_ABORT was invoked" "${@:3}"; }
