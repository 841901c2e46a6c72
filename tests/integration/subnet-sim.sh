#!/bin/sh
# subnet-sim.sh - duplicates a live sweep finds (issue 36), planted
# through the simulator, each on a fabric where nothing else is wrong:
#  - tests/data/sim-small.net after one opensm sweep: no duplicate-*
#    finding;
#  - then ibsim's console moves host04's port to host02's LID (Baselid):
#    one duplicate-lid, on host02 and host04, LID 1;
#  - a net file whose two CAs carry one description (ibsim answers
#    NodeDescription with the record's comment): one duplicate-node-desc.
# MTU and VLs across a link (ibsim answers MTUCap and NeighborMTU 2048,
# VLCap and OperVLs VL0-7 everywhere; the clean sweep above has no
# mtu-mismatch nor vl-mismatch):
#  - ibportstate (a PortInfo Set, from the test; discover only Gets) sets
#    OperVLs VL0-1 on leaf01 port 2: one vl-mismatch, a warning, on the
#    cable to host02 (below what both take), in the snapshot and in the
#    --cache file of the same sweep; ibsim refuses OperVLs above VLCap;
#  - ibsim ignores a NeighborMTU Set: the stored snapshot is edited
#    (host02's NeighborMTU 4096 over MTUCaps of 2048): one mtu-mismatch,
#    an error (above what both take).
# Subnet managers (SMInfo Get from every IsSM port):
#  - after `opensm -o` no SM runs: one sm-state, no-master (no SM found);
#  - opensm running on host04 (priority 3, master) and on host01
#    (priority 1, standby): no sm-state; discover sent SMInfo (the
#    master's twice), Gets only
#    (tests/rel-madspy.so);
#  - that snapshot edited: the standby at priority 9 gives one sm-state
#    warning, standby-outranks-master; the standby as a master too, one
#    error, several-masters (OpenSM hands over to a higher priority, and
#    two SMs that see each other never both stay master).
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

# ---- OperVLs below VLCap at one end
IBPORTSTATE=$(PATH=$PATH:/usr/sbin command -v ibportstate) ||
	skip "ibportstate not found (infiniband-diags)"
sim_client "$IBPORTSTATE" -D 0,1 2 vls 2 >/dev/null 2>&1 ||
	fail "ibportstate vls 2"
CAPS='^(mtu|vl)-mismatch,'
sim_client "$IBTOPO" --db "$TESTDIR/vl.db" discover --cache "$TESTDIR/vl.cache" \
	>/dev/null 2>"$TESTDIR/err" || fail "discover: $(cat "$TESTDIR/err")"
for src in latest "$TESTDIR/vl.cache"; do
	got=$("$IBTOPO" --db "$TESTDIR/vl.db" analyze "$src" --format csv |
		tr -d '\r' | grep -E "$CAPS")
	one_finding "$got" "^vl-mismatch,warning,host02,0x0000000000100003,1,leaf01,0x0000000000200002,2,.*OperVLs is VL0-7 at 'host02' port 1 and VL0-1 at 'leaf01' port 2, while the smaller VLCap of the two ports is VL0-7.*,below-capability\$" \
		"OperVLs VL0-1 ($src)"
done
sim_client "$IBPORTSTATE" -D 0,1 2 vls 4 >/dev/null 2>&1 ||
	fail "ibportstate vls 4"

# ---- NeighborMTU above MTUCap, in a stored snapshot
TOOL=$top_builddir/tests/store-tool
[ -x "$TOOL" ] || fail "$TOOL not built"
db_edit clean mtu "UPDATE ports SET mtu_vls = (mtu_vls & ~240) | 80
	WHERE num = 1 AND node_id IN (SELECT id FROM nodes WHERE guid = 1048579)"
got=$(csv_findings "$TESTDIR/mtu.db" "$CAPS")
one_finding "$got" "^mtu-mismatch,error,host02,0x0000000000100003,1,leaf01,0x0000000000200002,2,.*NeighborMTU is 4096 at 'host02' port 1 and 2048 at 'leaf01' port 2, while the smaller MTUCap of the two ports is 2048: an end sends packets larger.*,above-capability\$" \
	"NeighborMTU 4096"
got=$("$IBTOPO" --db "$TESTDIR/clean.db" analyze --format csv | grep -E "$CAPS")
[ -z "$got" ] || flunk "clean fabric: $got"

# ---- subnet managers: none runs after opensm -o
SMS='^sm-state,'
got=$(csv_findings "$TESTDIR/clean.db" "$SMS")
one_finding "$got" '^sm-state,error,.*no subnet manager runs in this fabric.*,no-master$' \
	"no SM"
# no SM found: an empty list (the sweep asked); a file does not say
"$IBTOPO" --db "$TESTDIR/clean.db" analyze --format json --fail-on never |
	grep -q '"subnet_managers": *\[\]' || flunk "clean: subnet_managers not []"
"$IBTOPO" analyze "$DATA/sim-small.net" --format json --fail-on never |
	grep -q '"subnet_managers"' && flunk "a file has subnet_managers"

# opensm_bg HOST PRIORITY: an opensm daemon attached at HOST, until the
# log says it is master or standby
opensm_bg() {
	mkdir -p "$TESTDIR/sm-$1"
	(cd "$TESTDIR/work" && OSM_CACHE_DIR="$TESTDIR/sm-$1" \
		OSM_TMP_DIR="$TESTDIR/sm-$1" SIM_HOST=$1 LD_PRELOAD="$UMAD2SIM" \
		exec timeout -s KILL 120 "$OPENSM" -s 0 -p "$2" \
		-f "$TESTDIR/sm-$1/osm.log" >/dev/null 2>&1) &
	CLEANUP_PIDS="$CLEANUP_PIDS $!"
	for _ in $(seq 1 200); do
		grep -q 'Entering \(MASTER\|STANDBY\) state' \
			"$TESTDIR/sm-$1/osm.log" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "opensm on $1 did not settle"
}
opensm_bg host04 3
opensm_bg host01 1
grep -q 'Entering STANDBY state' "$TESTDIR/sm-host01/osm.log" ||
	fail "opensm on host01 is not standby"
sim_spy "$TESTDIR/mads.log" "$IBTOPO" --db "$TESTDIR/sm.db" discover \
	>/dev/null 2>"$TESTDIR/err" || fail "discover: $(cat "$TESTDIR/err")"
# one each, and the master's again (its ActCount must have grown)
[ "$(grep -c '^81 01 0020$' "$TESTDIR/mads.log")" -eq 3 ] ||
	flunk "SMInfo Gets: $(grep -c ' 0020$' "$TESTDIR/mads.log")"
grep -v '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/mads.log" >"$TESTDIR/not-get" &&
	flunk "MADs other than Gets: $(sort "$TESTDIR/not-get" | uniq -c)"
got=$(csv_findings "$TESTDIR/sm.db" "$SMS|$DUPS|$CAPS")
[ -z "$got" ] || flunk "a master and a standby: $got"
[ "$("$TOOL" exec "$TESTDIR/sm.db" "SELECT count(*) FROM sms WHERE answered
	AND (node_guid = 1048583 AND state = 3 AND priority = 3
	OR node_guid = 1048576 AND state = 2 AND priority = 1)")" = 2 ] ||
	flunk "stored SMs"
# the subnet managers section: the master first, then the standby
"$IBTOPO" --db "$TESTDIR/sm.db" analyze --format json --fail-on never \
	>"$TESTDIR/sm.json" || fail "analyze --format json"
got=$("$PYTHON3" -c 'import json,sys
for s in json.load(open(sys.argv[1]))["subnet_managers"]:
    print(s["node"], s["port"], s["lid"] is not None, s["sm_state"],
          s["priority"], s["act_count"] > 0, s["sm_guid"],
          s["act_count_again"] and s["act_count_again"] > s["act_count"])' "$TESTDIR/sm.json")
[ "$got" = "host04 1 True master 3 True 0x0000000000100008 True
host01 1 True standby 1 True 0x0000000000100001 None" ] ||
	flunk "subnet_managers: $got"
"$IBTOPO" --db "$TESTDIR/sm.db" analyze --fail-on never >"$TESTDIR/sm.txt" ||
	fail "analyze"
grep -q '^subnet managers: 2 (1 master, 1 standby)$' "$TESTDIR/sm.txt" &&
	grep -q '^  master      host04 port 1, LID [0-9]*, priority 3, ActCount [1-9][0-9]*, GUID 0x0000000000100008, ActCount [1-9][0-9]* 0.1 s later$' "$TESTDIR/sm.txt" ||
	flunk "subnet managers text: $(grep -A3 '^subnet managers' "$TESTDIR/sm.txt")"
for pid in $CLEANUP_PIDS; do
	kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
done
CLEANUP_PIDS=

db_edit sm outrank "UPDATE sms SET priority = 9 WHERE state = 2"
got=$(csv_findings "$TESTDIR/outrank.db" "$SMS")
one_finding "$got" "^sm-state,warning,host01,0x0000000000100000,1,host04,0x0000000000100007,1,.*the standby subnet manager on 'host01' port 1 has priority 9, above the master's 3.*,standby-outranks-master$" \
	"a standby above the master"
db_edit sm masters "UPDATE sms SET state = 3"
got=$(csv_findings "$TESTDIR/masters.db" "$SMS")
one_finding "$got" '^sm-state,error,.*2 subnet managers are master.*,several-masters$' \
	"two masters"

# ---- a LID twice
sim_cmd 'Baselid "host04"[1] 1'
got=$(sweep "$TESTDIR/lid.db")
one_finding "$got" '^duplicate-lid,error,host02,0x0000000000100003,1,host04,0x0000000000100007,1,.*answer to LID 1' \
	"a LID twice"
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
one_finding "$got" "^duplicate-node-desc,warning,node01 mlx5_0,0x[0-9a-f]*,,node01 mlx5_0,0x[0-9a-f]*,,.*2 nodes share the description 'node01 mlx5_0'" \
	"one description twice"
exit "$failed"
