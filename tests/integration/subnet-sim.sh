#!/bin/sh
# subnet-sim.sh - duplicates a live sweep finds (issue 36), planted
# through the simulator, each on a fabric where nothing else is wrong:
#  - tests/data/sim-small.net after one opensm sweep: no duplicate-*
#    finding;
#  - then ibsim's console moves host04's port to host02's LID (Baselid):
#    one duplicate-lid, on host02 and host04, LID 1;
#  - a net file whose two CAs carry one description (ibsim answers
#    NodeDescription with the record's comment): one duplicate-node-desc.
# ibsim refuses a net file in which two nodes share a GUID: duplicate
# GUIDs are tested from files (tests/cli/subnet-duplicates.sh) and from a
# sweep's answers (tests/test_discover.c).
. "${top_srcdir:-.}/tests/lib.sh"
test_env
sim_require

DUPS='^duplicate-(node-guid|port-guid|lid|node-desc),'

# sweep DB: discover into DB from host02, then the duplicate-* findings
sweep() {
	sim_client "$IBTOPO" --db "$1" discover >/dev/null 2>"$TESTDIR/err" ||
		fail "discover: $(cat "$TESTDIR/err")"
	"$IBTOPO" --db "$1" analyze --format csv >"$TESTDIR/csv" 2>"$TESTDIR/err"
	grep -E "$DUPS" "$TESTDIR/csv"
}

sim_start_as "$DATA/sim-small.net" host02
sim_opensm
got=$(sweep "$TESTDIR/clean.db")
[ -z "$got" ] || flunk "clean fabric: $got"

sim_cmd 'Baselid "host04"[1] 1'
got=$(sweep "$TESTDIR/lid.db")
[ "$(count_lines "$got")" -eq 1 ] &&
	printf '%s\n' "$got" | grep -q '^duplicate-lid,error,host02,0x0000000000100003,1,host04,0x0000000000100007,1,.*answer to LID 1' ||
	flunk "a LID twice: $got"
sim_stop

cat >"$TESTDIR/desc.net" <<'NET'
Switch	4 "leaf01"
[1]	"hostA"[1]
[2]	"hostB"[1]

Hca	1 "hostA"	# "node01 mlx5_0"
[1]	"leaf01"[1]

Hca	1 "hostB"	# "node01 mlx5_0"
[1]	"leaf01"[2]
NET
sim_start_as "$TESTDIR/desc.net" hostA
sim_opensm
got=$(sweep "$TESTDIR/desc.db")
[ "$(count_lines "$got")" -eq 1 ] &&
	printf '%s\n' "$got" | grep -q "^duplicate-node-desc,warning,node01 mlx5_0,0x[0-9a-f]*,,node01 mlx5_0,0x[0-9a-f]*,,.*2 nodes share the description 'node01 mlx5_0'" ||
	flunk "one description twice: $got"
exit "$failed"
