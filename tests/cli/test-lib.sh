#!/bin/sh
# test-lib.sh - tests/lib.sh itself: KEEP_TESTDIR says on stderr which
# directory it kept (the cleanup once closed fd 9 with `2>/dev/null` on
# the exec, which silenced stderr for the rest of the shell), and
# sim_client stops a client that ignores SIGTERM when its time is up
# (timeout without -s KILL waited for it).
set -u
: "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"

# a test that keeps its directory must say so
KEEP_TESTDIR=1 top_srcdir="$top_srcdir" sh -c '. "$top_srcdir/tests/lib.sh"
echo "$TESTDIR"' >"$TESTDIR/kept" 2>"$TESTDIR/kept.err" ||
	fail "a test sourcing lib.sh failed"
kept=$(cat "$TESTDIR/kept")
[ -n "$kept" ] && [ -d "$kept" ] || fail "KEEP_TESTDIR did not keep $kept"
grep -qxF "# kept $kept" "$TESTDIR/kept.err" ||
	flunk "KEEP_TESTDIR said nothing: $(cat "$TESTDIR/kept.err")"
rm -rf "$kept"

# without it, the directory goes
top_srcdir="$top_srcdir" sh -c '. "$top_srcdir/tests/lib.sh"
echo "$TESTDIR"' >"$TESTDIR/gone" 2>/dev/null
[ -e "$(cat "$TESTDIR/gone")" ] && flunk "the test directory was left behind"

# a client that ignores SIGTERM is killed when its time is up
start=$(date +%s)
SIM_TIMEOUT=1 sim_client sh -c 'trap "" TERM; sleep 8'
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -eq 137 ] || flunk "sim_client past its time exited $rc, wanted 137"
[ "$took" -lt 6 ] || flunk "sim_client past its time took ${took}s"
exit "$failed"
