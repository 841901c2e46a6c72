#!/bin/sh
# counters-sim.sh - `ibtopo discover --counters` reads the PMA counters of
# both ends of every link, with Gets only, and stores them with the
# snapshot.
#
# A 44-node fat tree (bench/gen-fattree.py --radix 8 --levels 2) under
# ibsim; opensm assigns LIDs first (PMA MADs are LID-routed). Error
# counters are set on chosen ports through the ibsim console; discovery
# runs with tests/rel-madspy.so in front of umad2sim, which logs the
# class, method and attribute of every MAD sent. Checked: every MAD is a
# Get; PerfMgt ClassPortInfo once per device model, PortCounters and
# PortCountersExtended of every end were asked; each linked port has a row of counters in the database, the set
# values are there, a saturated LinkDownedCounter reads 255, and perfquery
# reads the set values back after discovery (nothing reset).
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
diag_require PERFQUERY perfquery
# stored NODE PORT COLUMN: a counter stored for that port (latest snapshot)
stored() {
	store_sql "SELECT ifnull(c.$3, 'null') FROM port_counters c JOIN nodes n
		ON n.guid = c.node_guid AND n.snapshot_id = c.snapshot_id
		WHERE n.description = '$1' AND c.port = $2
		AND c.snapshot_id = (SELECT max(id) FROM snapshots)"
}

sim_fattree 8 2

sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=11'
sim_cmd 'PerformanceSet "leaf003"[1] PortCounters.PortRcvErrors=4'
sim_cmd 'PerformanceSet "h00032"[1] PortCounters.LocalLinkIntegrityErrors=3'
sim_cmd 'PerformanceSet "leaf002"[6] PortCounters.LinkDownedCounter=1000'

t0=$(date +%s)
sim_spy "$TESTDIR/mads.log" "$IBTOPO" --db "$DB" discover --counters \
	--timeout 500 >"$TESTDIR/out" 2>"$TESTDIR/err" || {
	cat "$TESTDIR/err"
	fail "discover --counters failed"
}
t1=$(date +%s)
[ ! -s "$TESTDIR/err" ] || { cat "$TESTDIR/err"; fail "discover warned"; }
grep -q "^snapshot 1: 12 switches, 32 CAs, 0 routers, 64 links$" \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "discover summary"; }

info "class method attribute: count"
sort "$TESTDIR/mads.log" | uniq -c |
	awk '{ printf "#   %s %s %s: %d\n", $2, $3, $4, $1 }' >&2
not_get=$(grep -vc '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/mads.log")
[ "$not_get" -eq 0 ] || fail "$not_get MADs with another method than Get"
# NodeInfo once per link (from one end; the far end's answer says who is
# there) and once for our own port: 65, not the 86 of probing each link
# from both ends that are switches
n=$(grep -c '^81 01 0011$' "$TESTDIR/mads.log")
[ "$n" -eq 65 ] || fail "$n NodeInfo Gets, wanted 65 (64 links + our port)"
# 64 links: 128 ends, each asked PortCounters once
n=$(grep -c '^04 01 0012$' "$TESTDIR/mads.log")
[ "$n" -eq 128 ] || fail "$n PortCounters Gets, wanted 128 (one per end)"
# ClassPortInfo once per device model (ibsim's switch and its CA: node
# type, vendor, device, revision), not once per LID (44): what it says
# holds for every device of the model
models=$("$IBTOPO" --db "$DB" show nodes --format json | "$PYTHON3" -c '
import json, sys
print(len({(n["type"], n.get("vendor_id"), n.get("device_id"), n.get("revision"))
           for n in json.load(sys.stdin)["nodes"]}))')
n=$(grep -c '^04 01 0001$' "$TESTDIR/mads.log")
[ "$n" -eq "$models" ] && [ "$n" -lt 44 ] ||
	fail "$n PMA ClassPortInfo Gets, wanted $models (one per device model)"
next=$(grep -c '^04 01 001d$' "$TESTDIR/mads.log")
info "PortCountersExtended Gets: $next"
# the model's answer holds for all its devices: every end asked
[ "$next" -eq 128 ] || fail "$next PortCountersExtended Gets, wanted 128"

rows=$(store_sql "SELECT count(*) FROM port_counters WHERE snapshot_id = 1")
[ "$rows" = 128 ] || fail "$rows ports with counters stored, wanted 128"
[ "$(stored leaf001 5 symbol_errors)" = 11 ] ||
	fail "leaf001 port 5 SymbolErrorCounter: $(stored leaf001 5 symbol_errors)"
[ "$(stored leaf003 1 rcv_errors)" = 4 ] || fail "leaf003 port 1 PortRcvErrors"
[ "$(stored h00032 1 local_link_integrity_errors)" = 3 ] ||
	fail "h00032 port 1 LocalLinkIntegrityErrors"
# ibsim saturates like hardware: 8 bits
[ "$(stored leaf002 6 link_downed)" = 255 ] ||
	fail "leaf002 port 6 LinkDownedCounter: $(stored leaf002 6 link_downed), wanted 255"
[ "$(stored leaf001 6 symbol_errors)" = 0 ] ||
	fail "leaf001 port 6 SymbolErrorCounter not 0"
# data counters move by themselves, and were read
d=$(stored leaf001 1 xmit_data)
[ "$d" != null ] || fail "leaf001 port 1 PortXmitData not read"
if [ "$next" -gt 0 ]; then
	e=$(store_sql "SELECT count(*) FROM port_counters WHERE extended != 0")
	[ "$e" = 128 ] || fail "$e ports with extended counters, wanted 128"
fi
# read at the time of discovery, in milliseconds
ms=$(store_sql "SELECT min(read_at_ms) / 1000 FROM port_counters")
[ "$ms" -ge "$t0" ] && [ "$ms" -le "$t1" ] ||
	fail "read_at_ms $ms s not within $t0..$t1"

# nothing was reset: perfquery reads the set value back
"$IBTOPO" --db "$DB" show --format json ports >"$TESTDIR/ports.json" ||
	fail "show ports"
l=$(json_get "[p['lid'] for p in j['ports'] if p['node'] == 'leaf001' and p['lid']][0]" \
	<"$TESTDIR/ports.json") || fail "no LID for leaf001"
sim_client "$PERFQUERY" "$l" 5 >"$TESTDIR/pq" 2>&1 || fail "perfquery"
grep -q '^SymbolErrorCounter:\.*11$' "$TESTDIR/pq" ||
	{ cat "$TESTDIR/pq"; fail "leaf001 port 5 SymbolErrorCounter changed"; }

exit 0
