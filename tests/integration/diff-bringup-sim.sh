#!/bin/sh
# diff-bringup-sim.sh - `ibtopo diff` of a fabric swept before a subnet
# manager ran and after it brought the fabric up (issue 23, item 14): the
# text says it in one line, not one port-state-changed per port (JSON
# keeps each port); --lids reports the LIDs assigned, which the diff
# used to leave out (no LID before). Needs ibsim, umad2sim and opensm.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_start "$DATA/sim-small.net"
SIM_HOST=host01
export SIM_HOST
sim_client "$IBTOPO" --db "$DB" discover --label before >/dev/null 2>&1 ||
	fail "discover before the subnet manager"
sim_opensm
sim_client "$IBTOPO" --db "$DB" discover --label after >/dev/null 2>&1 ||
	fail "discover after the subnet manager"
sim_stop

# the JSON: every port that came up, Init to Active
run 1 "$IBTOPO" --db "$DB" diff before after --format json
n=$(json_get 'sum(f["kind"] == "port-state-changed" and f["old"] == "init"
	and f["new"] == "active" for f in j["findings"])' <"$TESTDIR/out")
[ "$n" -ge 8 ] || flunk "json: $n ports Init to Active, wanted 8 or more"

# the text: one line for them all
run 1 "$IBTOPO" --db "$DB" diff before after
lines=$(grep -c '^port-state-changed' "$TESTDIR/out")
[ "$lines" -eq 1 ] ||
	flunk "text: $lines port-state-changed lines: $(cat "$TESTDIR/out")"
grep -q "^port-state-changed  $n ports  -  *port state changed from init to active (a subnet manager brought them up): nothing to do" \
	"$TESTDIR/out" || flunk "text summary: $(cat "$TESTDIR/out")"

# --lids: every LID the subnet manager assigned, one finding each
run 1 "$IBTOPO" --db "$DB" diff --lids before after --format json
got=$(json_get 'sum(f["kind"] == "lid-changed" and f["old"] == 0 and
	f["new"] > 0 for f in j["findings"])' <"$TESTDIR/out")
# sim-small.net: 4 switches (one LID each) and 5 CA ports
[ "$got" = 9 ] || flunk "--lids: $got LIDs assigned, wanted 9"
run 1 "$IBTOPO" --db "$DB" diff --lids before after
grep -q '^lid-changed .* LID [0-9]* assigned (it had none)' "$TESTDIR/out" ||
	flunk "--lids text: $(cat "$TESTDIR/out")"
exit "$failed"
