#!/bin/sh
# director-sim.sh - a director fabric under ibsim (issue 17 follow-up,
# item 3): ibsim's net format gives a node its NodeInfo system image GUID
# with a "sysimgguid=" line before the node line, so the generator's
# three directors (line and fabric chips sharing one GUID, one idle line
# chip each) come back from a live ibnetdiscover as three chassis, and
# analyze ranks the fabric as a 3-level fat tree with the idle chips at
# the line level. Without those lines the same cabling is 40 lone
# switches and the idle chips rank a level higher: the chassis really
# come from the simulated NodeInfo. Needs ibsim, ibnetdiscover and
# libumad2sim (else SKIP).
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
ibnetdiscover_require
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
T=$TESTDIR

DIR="--directors 3 --lines 6 --idle 1 --spines 4 --leaves 10 --links 2 --hosts 4"
# shellcheck disable=SC2086
"$GEN" $DIR director >"$T/dir.net" || fail "gen-fabric director"
[ "$(grep -c '^sysimgguid=0x7cfe900300aa000[0-2]$' "$T/dir.net")" -eq 30 ] ||
	fail "net file: wanted 30 director chips with a shared sysimgguid"

sim_ibnetdiscover "$T/dir.net" "$T/dir.topo"
"$IBTOPO" analyze --fail-on warning --format json "$T/dir.topo" \
	>"$T/dir.json" 2>"$T/err" ||
	fail "live director fabric: exit $? $(cat "$T/err")"
got=$(json_get '(j["topology"]["class"], j["topology"]["levels"],
	[(l["level"], l["switches"], l["chassis"]) for l in j["topology"]["by_level"]],
	sorted((d["name"], d["chips"], d["line_level"], d["line_chips"],
		d["idle_line_chips"], d["fabric_chips"], d["external_links"])
	       for d in j["topology"]["directors"]))' <"$T/dir.json")
[ "$got" = "('fat-tree', 3, [(3, 12, 3), (2, 18, 3), (1, 10, 10)], [('dir1', 10, 2, 6, 1, 4, 20), ('dir2', 10, 2, 6, 1, 4, 20), ('dir3', 10, 2, 6, 1, 4, 20)])" ] ||
	fail "live director fabric: $got"

# the same net without the system image GUIDs: no chassis, and the idle
# line chips (reached only through the fabric chips) rank at level 4
grep -v '^sysimgguid=' "$T/dir.net" >"$T/lone.net" || fail "strip sysimgguid"
sim_ibnetdiscover "$T/lone.net" "$T/lone.topo"
"$IBTOPO" analyze --format json "$T/lone.topo" >"$T/lone.json" 2>"$T/err"
[ $? -le 1 ] || fail "analyze lone switches: $(cat "$T/err")"
got=$(json_get '(j["topology"]["levels"], len(j["topology"].get("directors") or []))' \
	<"$T/lone.json")
[ "$got" = "(4, 0)" ] || fail "without sysimgguid: $got"
exit 0
