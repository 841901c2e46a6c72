#!/bin/sh
# analyze-director.sh - director-based fat trees (issue 17, item 3): edge
# switches under three generated directors (line and fabric chips sharing
# a system image GUID, one line chip per director without external
# cables, as on Janus). The unused chip is ranked with its chassis' line
# chips, so the fabric is a 3-level tree with honest figures; levels are
# reported per chassis and across chassis; OpenSM's verdict is its own
# line; a missing uplink is found; uplinks piled on one director name it.
. "$top_srcdir/tests/lib.sh"
python_require
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
DIR="--directors 3 --lines 6 --idle 1 --spines 4 --leaves 10 --links 2 --hosts 4"

# shellcheck disable=SC2086
"$GEN" --format ibnetdiscover $DIR director >"$TESTDIR/dir.topo" ||
	fail "gen-fabric director"
"$IBTOPO" analyze --fail-on warning --format json "$TESTDIR/dir.topo" \
	>"$TESTDIR/dir.json" 2>"$TESTDIR/err" ||
	fail "healthy director fabric: exit $? $(cat "$TESTDIR/err")"
got=$(json_get '(j["topology"]["class"], j["topology"]["levels"],
	[(l["level"], l["switches"], l["chassis"], l["oversubscription"]) for l in j["topology"]["by_level"]],
	[(d["name"], d["chips"], d["line_level"], d["line_chips"], d["idle_line_chips"],
	  d["fabric_chips"], d["external_links"]) for d in j["topology"]["directors"]][0],
	len(j["topology"]["directors"]), j["topology"]["blocking_factor"] < 1)' \
	<"$TESTDIR/dir.json")
[ "$got" = "('fat-tree', 3, [(3, 12, 3, None), (2, 18, 3, 1.0), (1, 10, 10, 0.666667)], ('dir1', 10, 2, 6, 1, 4, 20), 3, True)" ] ||
	fail "director json: $got"

"$IBTOPO" analyze "$TESTDIR/dir.topo" >"$TESTDIR/dir.txt" || fail "text"
grep -q '^Topology: fat tree, 3 switch levels, 40 switches, 40 servers$' \
	"$TESTDIR/dir.txt" || fail "summary: $(grep '^Topology' "$TESTDIR/dir.txt")"
grep -q '^  director dir2: 10 switch chips, 6 line at level 2 (1 without external links), 4 fabric at level 3; 20 external links$' \
	"$TESTDIR/dir.txt" || fail "director line: $(grep director "$TESTDIR/dir.txt")"
grep -q '^  LEVEL SWITCHES CHASSIS HOST LINKS ' "$TESTDIR/dir.txt" ||
	fail "level table header"
grep -q "^OpenSM's ftree routing would" "$TESTDIR/dir.txt" ||
	fail "OpenSM's verdict line"

# a missing uplink: edge01 has 5 where the others have 6
# shellcheck disable=SC2086
"$GEN" --format ibnetdiscover $DIR --fault drop-uplink director \
	>"$TESTDIR/drop.topo" || fail "gen-fabric drop-uplink"
"$IBTOPO" analyze --format json "$TESTDIR/drop.topo" >"$TESTDIR/drop.json" ||
	fail "analyze drop-uplink"
got=$(json_get '(j["topology"]["levels"], [(f["a"]["node"], f["detail"], f["message"][:51])
	for f in j["findings"] if f["kind"] == "fat-tree-violation"])' <"$TESTDIR/drop.json")
[ "$got" = "(3, [('edge01', 'uneven-uplinks', 'switch has 5 uplinks where most of its level have 6')])" ] || fail "drop-uplink: $got"

# edge01's two cables to dir3 go to dir1: 4 uplinks to one director,
# which the finding names (d: chassis name, system image GUID), b its chip
# shellcheck disable=SC2086
"$GEN" --format ibnetdiscover $DIR --fault piled-across director \
	>"$TESTDIR/piled.topo" || fail "gen-fabric piled-across"
"$IBTOPO" analyze --format json "$TESTDIR/piled.topo" >"$TESTDIR/piled.json" ||
	fail "analyze piled-across"
got=$(json_get '[(f["a"]["node"], f["b"]["node"], f["d"]["node"], f["d"]["guid"],
	f["message"]) for f in j["findings"] if f.get("detail") == "uplinks-piled"]' \
	<"$TESTDIR/piled.json")
[ "$got" = "[('edge01', 'MF0;dir1:IS5600/L01/U1', 'dir1', '0x7cfe900300aa0000', \"4 uplinks go to director 'dir1' (system image GUID 0x7cfe900300aa0000) and none to 'MF0;dir3:IS5600/L01/U1', where 2 per upper switch is usual: move the extra cables to 'MF0;dir3:IS5600/L01/U1'\")]" ] ||
	fail "piled-across: $got"
exit 0
