#!/bin/sh
# analyze-fixtures.sh - `ibtopo analyze` on every real fabric dump: what a
# person reading the file agrees with, and nothing on uniform fabrics.
#  - tiny-mixed-speeds.topo: three loopback cables on the SwitchIB, and
#    the ConnectX-4 (0x1013) at SDR on the SX6012 whose other hosts run up
#    to FDR while the other ConnectX-4 runs EDR. Its EDR-FDR inter-switch
#    link is not a downgrade: the SX6012 runs nothing above FDR and has no
#    other inter-switch link.
#  - x5-mixed-ddr-qdr.topo: nothing. Its 23 DDR host links are exactly its
#    23 MT26418 adapters (device 0x6732, a DDR part), and no MT26418 runs
#    QDR anywhere: they run as fast as they can.
#  - qdr-hosts-fdr10-isls.topo: nothing (hosts at QDR, inter-switch links
#    at FDR10: different classes); ndr-superpod-rails.topo and the -p
#    dumps: nothing.
# Only the link and cable kinds are compared: the topology analysis has
# its own tests of these fabrics.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
REAL=$top_srcdir/../shared/fixtures/real
GOLDEN=$top_srcdir/tests/golden
LC_ALL=C
export LC_ALL
unset IBTOPO_DB

[ -f "$REAL/tiny-mixed-speeds.topo" ] || { echo "SKIP: no $REAL"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

KINDS='speed-downgrade|width-downgrade|cable-over-length|cable-underrated|loopback-cable'
HEADER='kind,severity,a.node,a.guid,a.port,b.node,b.guid,b.port,c.node,c.guid,c.port,d.node,d.guid,d.port,message,active,expected,rated,old,new,links,paths,min_paths,evidence,cause,media,length_m,reach_m,detail'

for f in "$REAL"/*.topo "$REAL"/*.ports*.txt; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	"$IBTOPO" analyze --format csv "$f" >"$tmp/all" 2>"$tmp/err"
	rc=$?
	grep -E "^(kind|$KINDS)," "$tmp/all" >"$tmp/out"
	[ -s "$tmp/err" ] && fail "$name: stderr: $(head -c 300 "$tmp/err")"
	[ "$rc" -eq 0 ] || fail "$name: exit $rc (no errors expected)"
	case $name in
	tiny-mixed-speeds.topo)
		cmp -s "$GOLDEN/ck-tiny-mixed-speeds.csv" "$tmp/out" || {
			fail "$name differs from ck-tiny-mixed-speeds.csv"
			diff "$GOLDEN/ck-tiny-mixed-speeds.csv" "$tmp/out" | sed 's/^/  /'
		}
		;;
	*)
		[ "$(tr -d '\r' <"$tmp/out")" = "$HEADER" ] ||
			fail "$name: findings on a fabric without faults: $(tail -n +2 "$tmp/out" | cut -c1-200)"
		;;
	esac
done

exit $failed
