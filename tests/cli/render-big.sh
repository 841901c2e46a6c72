#!/bin/sh
# render-big.sh - `ibtopo render` of a big fabric finishes, and draws it.
# The fabric: a 3-level fat tree of 64-port switches, PODS pods of 16
# leaves (32 hosts each) and 16 aggregation switches, 128 cores, 2 cables
# leaf-agg and 4 agg-core: with PODS=16, bench/paths.sh's 8,192 hosts and
# 640 switches. Hosts collapsed, that is 896 nodes and 6,400 edges: few
# enough nodes for dot, whose mincross then ran for over 15 minutes (8
# pods took 72 s of CPU, 12 pods 223 s).
#  - SVG and PNG each within a generous timeout (load must not make the
#    test flaky; the speed figures are bench/render.sh's);
#  - switch by switch (--detail switches): the SVG parses and has a node
#    for each of the switches; the PNG is a PNG no more than 3 times
#    wider than tall (a picture, not a ribbon);
#  - by default (640 switches: above 100, the overview): a node per pod's
#    leaves and per pod's spines and one for the cores, and a PNG between
#    1:2 and 4:1.
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
command -v timeout >/dev/null || skip "no timeout(1)"
PODS=${PODS:-16}
LIMIT=${LIMIT:-300}
T=$TESTDIR
ft=$T/fat-tree.topo

"$GEN" --format ibnetdiscover --pods "$PODS" --leaves 16 --spines 16 \
	--cores 128 --hosts 32 --links 2 --core-links 4 --radix 64 ft3 >"$ft" ||
	fail "gen-fabric"
switches=$(grep -c '^Switch' "$ft")

render() {
	out=$1
	shift
	timeout -s KILL "$LIMIT" "$IBTOPO" render "$@" -o "$out" "$ft" 2>"$T/err"
	rc=$?
	[ $rc -eq 137 ] && fail "render -o $(basename "$out"): over $LIMIT s"
	[ $rc -eq 0 ] || {
		cat "$T/err" >&2
		fail "render -o $(basename "$out"): exit $rc"
	}
}

render "$T/ft.svg" --detail switches
n=$("$PYTHON3" - "$T/ft.svg" <<'EOF'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
print(sum(1 for g in root.iter(S + "g") if g.get("class") == "node"
          and g.find(S + "title").text.startswith("n")))
EOF
) || fail "SVG does not parse"
[ "$n" -eq "$switches" ] || fail "SVG: $n switch nodes, want $switches"

# png_ratio PNG MIN MAX: a PNG whose width / height is within [MIN, MAX]
png_ratio() {
	"$PYTHON3" - "$@" <<'EOF' || fail "PNG $1: $(cat "$1.txt" 2>/dev/null)"
import struct, sys
b = open(sys.argv[1], "rb").read(24)
ok = b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR"
w, h = struct.unpack(">II", b[16:24]) if ok else (0, 0)
open(sys.argv[1] + ".txt", "w").write("%dx%d" % (w, h))
sys.exit(0 if ok and h and float(sys.argv[2]) <= w / h <= float(sys.argv[3])
         else 1)
EOF
}

render "$T/ft.png" --detail switches
png_ratio "$T/ft.png" 0.333 3

render "$T/overview.dot"
for p in 1 $PODS; do
	grep -q "label=\"16 leaves, pod $p\\\\n" "$T/overview.dot" ||
		fail "overview: no leaves of pod $p"
	grep -q "label=\"16 spines, pod $p\\\\n" "$T/overview.dot" ||
		fail "overview: no spines of pod $p"
done
grep -q 'label="128 cores\\n' "$T/overview.dot" || fail "overview: no cores"
render "$T/overview.png"
png_ratio "$T/overview.png" 0.5 4
exit 0
