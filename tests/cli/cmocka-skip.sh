#!/bin/sh
# cmocka-skip.sh - a cmocka test that calls skip() counts as SKIP under
# `make check`, never as FAIL, and a failing one still as FAIL. Runs
# tests/cmocka-skip through build-aux/tap-driver.sh with the LOG_COMPILER
# that Makefile.am gives the test_* programs ($TAP_LOG_COMPILER), and
# reads the results tap-driver.sh writes to its .trs file.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
prog=$top_builddir/tests/cmocka-skip
[ -x "$prog" ] || skip "tests/cmocka-skip not built (no cmocka)"
driver=$top_srcdir/build-aux/tap-driver.sh
CMOCKA_MESSAGE_OUTPUT=TAP
export CMOCKA_MESSAGE_OUTPUT
[ -f "$driver" ] || fail "no $driver"

# tap MODE: run the program as `make check` would; the .trs results
# ":test-result: X" become "X X ..." and ":global-test-result: X" "global X"
tap() {
	env AM_TAP_AWK="${AWK:-awk}" ${SHELL:-/bin/sh} "$driver" \
		--test-name "cmocka-skip-$1" --log-file "$TESTDIR/$1.log" \
		--trs-file "$TESTDIR/$1.trs" --color-tests no \
		--enable-hard-errors yes --expect-failure no -- \
		${TAP_LOG_COMPILER:-} "$prog" "$1" >/dev/null 2>&1
	echo "status $?"
	echo "results $(sed -n 's/^:test-result: \([A-Z]*\).*/\1/p' "$TESTDIR/$1.trs" |
		tr '\n' ' ')"
	echo "global $(sed -n 's/^:global-test-result: //p' "$TESTDIR/$1.trs")"
}

check() {
	got=$(tap "$1")
	[ "$got" = "$2" ] || {
		cat "$TESTDIR/$1.log" >&2
		fail "cmocka-skip $1 under tap-driver.sh: got
$got
wanted
$2"
	}
	info "$1: $(echo $got)"
}

# what cmocka itself prints for a skip (1.1.5: "not ok 1 # SKIP ...")
info "cmocka prints: $("$prog" some 2>/dev/null | grep SKIP)"

check some "status 0
results SKIP PASS 
global PASS"
check all "status 0
results SKIP SKIP 
global SKIP"
# a failure stays one, and cmocka's exit status 1 adds an ERROR
check fail "status 0
results SKIP FAIL ERROR 
global ERROR"
exit 0
