#!/bin/sh
# firmware-sim.sh - firmware kept with a live sweep's snapshot (issue
# 36). ibsim answers no vendor MAD (class 0x0A: vendstat fails at its
# ClassPortInfo), so a sweep cannot read firmware with Gets; an
# ibdiagnet2.db_csv NODES_INFO given to `discover --cables` supplies it.
# A ring of 4 switches under ibsim, discovered with the NODES_INFO rows
# of its 4 switches (one model and PSID):
#  - all on one version: no firmware-mismatch;
#  - sw03 on an older one: exactly one firmware-mismatch, on sw03, from
#    `analyze` of the stored snapshot (no --cables then), and `show
#    nodes` of it lists each switch's firmware and PSID.
. "${top_srcdir:-.}/tests/lib.sh"
test_env
sim_require
python_require
opensm_gen_require
have_discover || skip "this ibtopo was built without live discovery"
T=$TESTDIR

# nodes_info OLD: the NODES_INFO section of the ring's switches, sw03
# (GUID ...1004) on 27.2008.2408 when OLD is 1, else all on 27.2010.1030
nodes_info() {
	echo START_NODES_INFO
	echo 'NodeGUID,HWInfo_DeviceID,FWInfo_SubMinor,FWInfo_Minor,FWInfo_Major,FWInfo_PSID,FWInfo_Extended_Major,FWInfo_Extended_Minor,FWInfo_Extended_SubMinor'
	for g in 1001 1002 1003 1004; do
		v=0x7da,0x406
		[ "$1" = 1 ] && [ $g = 1004 ] && v=0x7d8,0x968
		echo "0x0002c9030000$g,0xd2f0,0x6,0xda,0x1b,\"MT_0000000063\",0x1b,$v"
	done
	echo END_NODES_INFO
}

# fw_findings DB: the firmware-mismatch lines of `analyze` of its latest
fw_findings() {
	"$IBTOPO" --db "$1" analyze --format csv latest 2>"$T/err" |
		tr -d '\r' | grep -E '^firmware-mismatch,'
}

"$GEN" --radix 36 --switches 4 --hosts 2 ring >"$T/ring.net" ||
	fail "gen-fabric ring"
nodes_info 0 >"$T/same.db_csv"
nodes_info 1 >"$T/older.db_csv"
sim_start "$T/ring.net"
for v in same older; do
	sim_client "$IBTOPO" --db "$T/$v.db" discover --cables "$T/$v.db_csv" \
		>"$T/$v.out" 2>"$T/$v.err" ||
		flunk "discover --cables $v: $(cat "$T/$v.err")"
done
sim_stop

got=$(fw_findings "$T/same.db")
[ -z "$got" ] || flunk "one version: $got"
got=$(fw_findings "$T/older.db")
[ "$(printf '%s\n' "$got" | grep -c .)" -eq 1 ] &&
	printf '%s\n' "$got" | grep -q "^firmware-mismatch,warning,sw03,0x0002c90300001004,.*'sw03' runs firmware 27.2008.2408 while 3 of the 4 nodes of its model (0x02c9:0xd2f0, PSID MT_0000000063) run 27.2010.1030" ||
	flunk "sw03 older: $got"
run 0 "$IBTOPO" --db "$T/older.db" show latest nodes --format json
got=$(json_get '" ".join("%s=%s/%s" % (n["description"], n["firmware"],
	n["psid"]) for n in j["nodes"] if n["type"] == "switch")' <"$T/out")
[ "$got" = "sw00=27.2010.1030/MT_0000000063 sw01=27.2010.1030/MT_0000000063 sw02=27.2010.1030/MT_0000000063 sw03=27.2008.2408/MT_0000000063" ] ||
	flunk "show nodes: $got"
exit "$failed"
