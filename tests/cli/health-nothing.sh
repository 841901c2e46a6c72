#!/bin/sh
# health-nothing.sh - `health` never says "clean" after measuring nothing
# (issue 23, item 2): 0 ports with counters is an error (exit 2) whose
# message says why. A fabric without LIDs (no subnet manager has
# configured it: tests/data/tf-sim.net, an ibsim net file, and a snapshot
# imported from it) could not have its counters read, and the advice is
# to start a subnet manager, not to run `discover --counters` again; a
# fabric with LIDs read without --counters is told to take them.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env db

# ---- no LIDs: exit 2, says no LIDs, no subnet manager; no "discover --counters"
run 0 "$IBTOPO" import "$DATA/tf-sim.net"
for what in latest "$DATA/tf-sim.net"; do
	run 2 "$IBTOPO" health "$what"
	grep -q '^ibtopo: .*no LIDs' "$tmp/err" ||
		flunk "health $what: not 'no LIDs': $(cat "$tmp/err")"
	grep -q 'subnet manager' "$tmp/err" ||
		flunk "health $what: no subnet manager named: $(cat "$tmp/err")"
	grep -q 'take snapshots with discover --counters' "$tmp/err" &&
		flunk "health $what: advises what was just done: $(cat "$tmp/err")"
	grep -q 'no port errors' "$tmp/out" "$tmp/err" &&
		flunk "health $what: says clean: $(cat "$tmp/out")"
	[ -s "$tmp/out" ] && flunk "health $what: printed a report: $(cat "$tmp/out")"
done
run 2 "$IBTOPO" health latest --format json
[ -s "$tmp/out" ] && flunk "health --format json: printed a report"

# ---- LIDs but no counters read: exit 2, take them with --counters
IBTOPO_DB=$tmp/lids.db
run 0 "$IBTOPO" import "$DATA/ck-cables.topo"
run 2 "$IBTOPO" health
grep -q '^ibtopo: .*discover --counters' "$tmp/err" ||
	flunk "health, LIDs: $(cat "$tmp/err")"
grep -q 'no LIDs' "$tmp/err" && flunk "health, LIDs: says no LIDs"

# ---- counters: measured, as before
run 0 "$IBTOPO" import "$DATA/ck-cables.topo" --counters "$DATA/hc-perfquery.txt"
run 0 "$IBTOPO" health
exit "$failed"
