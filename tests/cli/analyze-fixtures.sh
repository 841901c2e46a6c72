#!/bin/sh
# analyze-fixtures.sh - `ibtopo analyze` on every real fabric dump: what a
# person reading the file agrees with, and nothing on uniform fabrics.
#  - tiny-mixed-speeds.topo (ck-tiny-mixed-speeds.csv): three loopback
#    cables on the SwitchIB (warnings); the ConnectX-4 (0x1013) at SDR on
#    the SX6012 whose other hosts run up to FDR while the other
#    ConnectX-4 runs EDR (warning). Info, cause device-limit: the EDR-FDR
#    inter-switch link (the SwitchIB's other switch-to-switch cables run
#    EDR; the SX6012, 0xc738, runs nothing above FDR on its 5 links); the
#    two ConnectX-2 (0x673c) at QDR on the SX6012 whose other hosts run
#    FDR; the ConnectX-3 (0x1003) at FDR on the SwitchIB whose other host
#    runs EDR (both ConnectX-3 run FDR).
#  - x5-mixed-ddr-qdr.topo (ck-x5-mixed-ddr-qdr.csv): its 23 DDR host
#    links, info device-limit: exactly its 23 MT26418 adapters (device
#    0x6732, a DDR part) and no MT26418 runs QDR anywhere. 2 are on a
#    switch whose other hosts run QDR; 21 on a Voltaire 4036 whose hosts
#    are all MT26418, while the other 4036s run QDR to their hosts.
#  - plafrim2-subnet1 (ck-plafrim2-subnet1.csv): 'bright mlx4_0' at SDR
#    among 22 QDR hosts of its IS5030, info of unknown cause (the -p dump
#    has no device IDs and no other mlx4: adapter and link look alike).
#  - small-ports-2.ports.txt: one error, duplicate-node-guid: the port
#    of the aggregation node 0x946dae0300630bfe is cabled to leaf IB01
#    port 81 (at LID 78) and to spine IB03 port 81 (at LID 60): two
#    nodes answer with one GUID (issue 36).
#  - qdr-hosts-fdr10-isls.topo: nothing (hosts at QDR, inter-switch links
#    at FDR10: different classes); ndr-superpod-rails.topo, the other -p
#    dumps: nothing.
#  - tests/data/ck-ddr-info.topo: a clean fat tree with two DDR-only
#    adapters: 4 info findings, and analyze exits 0 even with
#    --fail-on warning.
# Only the link and cable kinds are compared: the topology analysis has
# its own tests of these fabrics.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env

[ -f "$REAL/tiny-mixed-speeds.topo" ] || fail "no $REAL"

KINDS='speed-downgrade|width-downgrade|cable-over-length|cable-underrated|loopback-cable'
HEADER='kind,severity,a.node,a.guid,a.port,b.node,b.guid,b.port,c.node,c.guid,c.port,d.node,d.guid,d.port,message,active,expected,rated_speed,old,new,links,paths,min_paths,evidence,cause,media,length_m,reach_m,detail'

# count PATTERN FILE: lines matching
count() {
	grep -c -E "$1" "$2"
}

goldens=0
for f in "$REAL"/*.topo "$REAL"/*.ports*.txt; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	"$IBTOPO" analyze --format csv "$f" >"$tmp/all" 2>"$tmp/err"
	rc=$?
	grep -E "^(kind|$KINDS)," "$tmp/all" >"$tmp/out"
	# the reader's warnings about the file, and nothing else
	grep -v '^ibtopo: warning: ' "$tmp/err" >"$tmp/err2"
	[ -s "$tmp/err2" ] && flunk "$name: stderr: $(head -c 300 "$tmp/err2")"
	want=0
	[ "$name" = small-ports-2.ports.txt ] && want=1
	[ "$rc" -eq "$want" ] || flunk "$name: exit $rc (wanted $want)"
	case $name in
	tiny-mixed-speeds.topo)
		same "$GOLDEN/ck-tiny-mixed-speeds.csv" "$tmp/out" "$name"
		goldens=$((goldens + 1))
		[ "$(count '^speed-downgrade,info,.*,device-limit,' "$tmp/out")" -eq 4 ] ||
			flunk "$name: not 4 device-limit findings"
		;;
	x5-mixed-ddr-qdr.topo)
		same "$GOLDEN/ck-x5-mixed-ddr-qdr.csv" "$tmp/out" "$name"
		goldens=$((goldens + 1))
		[ "$(count '^speed-downgrade,info,.*adapter model 0x02c9:0x6732 runs at most DDR on all 23 of its links.*,DDR,QDR,.*,peers,device-limit,' "$tmp/out")" -eq 23 ] ||
			flunk "$name: not 23 DDR device-limit findings"
		[ "$(count '4xDDR' "$f")" -eq 46 ] ||
			flunk "$name: the fixture no longer has 23 DDR links (46 ends)"
		;;
	plafrim2-subnet1.ports-verbose.txt)
		same "$GOLDEN/ck-plafrim2-subnet1.csv" "$tmp/out" "$name"
		goldens=$((goldens + 1))
		;;
	small-ports-2.ports.txt)
		grep -E '^duplicate-node-guid,' "$tmp/all" >"$tmp/dup"
		[ "$(wc -l <"$tmp/dup")" -eq 1 ] &&
			grep -q ',0x946dae0300630bfe,1,.*port 1 of .* is cabled to .* port 81 and also to .* port 81' "$tmp/dup" ||
			flunk "$name: duplicate-node-guid: $(cat "$tmp/all")"
		[ "$(tr -d '\r' <"$tmp/out")" = "$HEADER" ] ||
			flunk "$name: link findings: $(tail -n +2 "$tmp/out" | cut -c1-200)"
		;;
	*)
		[ "$(tr -d '\r' <"$tmp/out")" = "$HEADER" ] ||
			flunk "$name: findings on a fabric without faults: $(tail -n +2 "$tmp/out" | cut -c1-200)"
		;;
	esac
done

# three dumps have their golden findings: a dump missing leaves one out
[ "$goldens" -eq 3 ] ||
	flunk "$goldens of the 3 golden files compared: a real dump is missing"

# The text table: GUIDs where descriptions are shared, 5 of many alike.
"$IBTOPO" analyze "$REAL/x5-mixed-ddr-qdr.topo" >"$tmp/text" 2>"$tmp/err"
# 23 speed-downgrade infos and the single-homed servers' summary
grep -q '^info (24)$' "$tmp/text" || flunk "x5 text: no 'info (24)'"
grep -q '^speed-downgrade  *Voltaire 4036 # 4036-8BBA \[11\] .* MT25408 ConnectX Mellanox Technologies (0x003048c74e4a0000) \[1\] ' "$tmp/text" ||
	flunk "x5 text: a shared description without its GUID"
grep -q '^\.\.\. and 16 more speed-downgrade findings (switch-model; see --format json)$' "$tmp/text" ||
	flunk "x5 text: the 21 switch-model findings are not folded to 5"
[ "$(grep -c '^speed-downgrade ' "$tmp/text")" -eq 7 ] ||
	flunk "x5 text: not 2 + 5 speed-downgrade rows"
"$IBTOPO" analyze "$REAL/tiny-mixed-speeds.topo" >"$tmp/text" 2>"$tmp/err"
grep -q 'SwitchIB Mellanox Technologies \[3\]' "$tmp/text" ||
	flunk "tiny text: a unique description got a GUID"

# Info never fails a run.
"$IBTOPO" analyze --fail-on warning --format csv "$DATA/ck-ddr-info.topo" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || flunk "ck-ddr-info.topo --fail-on warning: exit $rc, wanted 0: $(head -c 300 "$tmp/err")"
[ "$(count '^speed-downgrade,info,.*,peers,device-limit,,,,hosts' "$tmp/out")" -eq 4 ] ||
	flunk "ck-ddr-info.topo: not 4 info device-limit findings"
[ "$(tail -n +2 "$tmp/out" | grep -vc '^speed-downgrade,info,')" -eq 0 ] ||
	flunk "ck-ddr-info.topo: other findings: $(tail -n +2 "$tmp/out" | grep -v '^speed-downgrade,info,' | head -c 300)"

exit $failed
