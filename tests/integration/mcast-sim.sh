#!/bin/sh
# mcast-sim.sh - `ibtopo discover --routes` reads every switch's multicast
# forwarding table (MulticastForwardingTable Gets) and the SA's groups
# (MCMemberRecord GetTable), stores them, and `routes` checks each MLID's
# tree (issue 36).
#
# A 2-level fat tree of radix 4 (6 switches, 8 hosts) under ibsim, OpenSM
# running as a daemon so that its SA answers. Every host joins the IPoIB
# broadcast group (0xc000, which OpenSM creates) and two hosts a group of
# their own (0xc001), each with an SA MCMemberRecord Set from that host
# (tests/mcast-tool join); OpenSM programs the switches. The clean fabric
# has no multicast finding. Then one fault at a time, planted with an MFT
# Set to a switch (tests/mcast-tool set; OpenSM, with no sweep, leaves it)
# and taken back after: a host taken out of its leaf's mask for 0xc000 is
# mcast-unreached (the IPoIB sentence: ARP fails); two ports on the unused
# spine close a cycle, mcast-loop; a leaf port towards a spine without the
# MLID, mcast-dead-end; an entry on a spine no member reaches,
# mcast-disconnected. Each exactly one finding. Every discovery runs
# under tests/rel-madspy.so: ibtopo sends SMP and PMA Gets and SA
# GetTables only, never a Set.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
gen_fattree 4 2 "$TESTDIR/ft.net"
sim_start_as "$TESTDIR/ft.net" h00001

# ---- OpenSM as a daemon (its SA answers), then the joins
. "$top_srcdir/tests/mcast-lib.sh"
mcast_opensm
for h in 1 2 3 4 5 6 7 8; do
	mcast_join h0000$h
done
grep -qx 0xc000 "$TESTDIR/join.out" || fail "the broadcast group is not 0xc000"
mcast_join h00003 5
mcast_join h00007 5
grep -qx 0xc001 "$TESTDIR/join.out" || fail "the second group is not 0xc001"

# discover: one snapshot, under the spy; exit status 0 or fail
n=0
discover() {
	n=$((n + 1))
	rm -f "$TESTDIR/mads.log"
	sim_spy "$TESTDIR/mads.log" "$IBTOPO" -v --db "$DB" discover --routes \
		>"$TESTDIR/out" 2>"$TESTDIR/err" ||
		{ cat "$TESTDIR/err"; fail "discover --routes ($n)"; }
	grep -v '^[0-9a-f][0-9a-f] 01 \|^03 12 0038$' "$TESTDIR/mads.log" \
		>"$TESTDIR/not-get" &&
		fail "MADs other than Gets: $(sort "$TESTDIR/not-get" | uniq -c)"
	grep -q '^81 01 001b$' "$TESTDIR/mads.log" ||
		fail "no MulticastForwardingTable Get"
}

# mcast_findings: the multicast findings of `routes` on the latest
# snapshot, "kind detail a.node:a.port b.node:b.port lid" lines
mcast_findings() {
	"$IBTOPO" --db "$DB" routes --format json >"$TESTDIR/routes.json"
	"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["kind"].startswith("mcast-"):
        e = lambda k: "%s:%s" % (f[k]["node"], f[k]["port"]) \
            if f.get(k, {}).get("node") else "-"
        print(f["kind"], f.get("detail", "-"), e("a"), e("b"), hex(f["lid"]))
' "$TESTDIR/routes.json"
}

# ---- clean: the groups and members, no finding
discover
grep -q '^ibtopo: multicast: 6 switch multicast tables read in [0-9]* MFT blocks, [1-9][0-9]* SA queries' \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "no -v line for the multicast tables"; }
# every SMP the spy saw is in the sweep's count, the multicast tables'
# Gets too (the SA's GetTables are counted apart, as SA queries), but
# for the two asked before the sweep (discover_local.c: the local
# port's PortInfo and its SM's SMInfo)
smps=$(grep -c '^\(81\|01\) ' "$TESTDIR/mads.log")
sent=$(sed -n 's/^ibtopo: mads: \([0-9]*\) sent, .*/\1/p' "$TESTDIR/err")
[ -n "$sent" ] && [ "$smps" -eq $((sent + 2)) ] ||
	fail "-v says ${sent:-no} MADs sent, the spy saw $smps SMPs"
[ "$(store_sql "SELECT mcast_read FROM snapshots WHERE id = 1")" = 1 ] ||
	fail "the SA's groups are not marked read"
[ "$(store_sql "SELECT count(*) FROM mcast_members WHERE snapshot_id = 1 AND mlid = 49152 AND port_guid != 0")" = 8 ] ||
	fail "not 8 members of 0xc000 stored"
[ "$(store_sql "SELECT count(*) FROM mcast_members WHERE snapshot_id = 1 AND mlid = 49153")" = 2 ] ||
	fail "not 2 members of 0xc001 stored"
got=$(mcast_findings)
[ -z "$got" ] || fail "clean fabric: $got"
"$PYTHON3" -c '
import json, sys
m = json.load(open(sys.argv[1]))["mcast"]
assert m["groups_read"], m
by = {x["mlid"]: x for x in m["mlids"]}
assert by["0xc000"]["members"] == 8 and by["0xc000"]["reached"] == 8, by
assert by["0xc000"]["mgid"] == "ff12:401b:ffff::ffff:ffff", by
assert by["0xc001"]["members"] == 2 and by["0xc001"]["reached"] == 2, by
' "$TESTDIR/routes.json" || fail "clean: the MLIDs as reported"
# OpenSM's tree for this fabric runs over spine001: spine002 has no entry
[ "$(store_sql "SELECT count(*) FROM mfts m JOIN nodes n ON n.snapshot_id = m.snapshot_id AND n.guid = m.node_guid WHERE m.snapshot_id = 1 AND n.description = 'spine002'")" = 0 ] ||
	fail "spine002 has a multicast table: the faults below assume none"

# lid NODE: a switch's LID in snapshot 1
lid() {
	store_sql "SELECT p.lid FROM ports p JOIN nodes n ON n.id = p.node_id WHERE n.snapshot_id = 1 AND n.description = '$1' AND p.num = 0"
}
# mft NODE MLID PORT 0|1: one MFT Set (from h00001)
mft() {
	sim_client "$MCAST_TOOL" set "$(lid "$1")" "$2" "$3" "$4" ||
		fail "mcast-tool set $*"
}
# expect WHAT LINE: the one multicast finding of a new discovery
expect() {
	discover
	got=$(mcast_findings)
	[ "$got" = "$2" ] || flunk "$1: got '$got', wanted '$2'"
}

# ---- h00008 (leaf004 port 2) out of 0xc000: unreached, ARP fails
mft leaf004 0xc000 2 0
expect unreached "mcast-unreached ipoib-broadcast h00008:1 leaf004:2 0xc000"
grep -q 'IPoIB broadcast group, so ARP' "$TESTDIR/routes.json" ||
	flunk "unreached: the sentence does not say ARP fails"
mft leaf004 0xc000 2 1

# ---- a cycle over spine002: leaf001 and leaf004 both forward to it
mft leaf001 0xc000 4 1
mft spine002 0xc000 1 1
mft spine002 0xc000 4 1
mft leaf004 0xc000 4 1
expect loop "mcast-loop - leaf004:4 spine002:4 0xc000"
for sw in leaf001:4 spine002:1 spine002:4 leaf004:4; do
	mft "${sw%:*}" 0xc000 "${sw#*:}" 0
done

# ---- leaf001 forwards to spine002, which has no entry: a dead end
mft leaf001 0xc000 4 1
expect dead-end "mcast-dead-end no-entry leaf001:4 spine002:1 0xc000"
mft leaf001 0xc000 4 0

# ---- spine002 has an entry no member's traffic reaches: stale
mft spine002 0xc001 2 1
expect disconnected "mcast-disconnected - spine002:0 - 0xc001"
mft spine002 0xc001 2 0

# ---- clean again
expect clean ""
exit "$failed"
