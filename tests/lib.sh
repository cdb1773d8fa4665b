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

# finish: the closing line and the exit status of the script.
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" = 0 ]
}
