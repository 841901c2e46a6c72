#!/bin/sh
# plan-dragonfly.sh - Dragonfly+ fabrics (issue 17, item 2) without a
# simulator: `plan dragonfly-plus` writes a plan analyze calls
# dragonfly-plus (groups, global links per pair, hosts per group) with no
# warnings, and that validates against itself; a generated one missing a
# global link names both spines it should join; usage errors.
. "$top_srcdir/tests/lib.sh"
python_require
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
T=$TESTDIR

"$IBTOPO" plan dragonfly-plus --groups 5 --leaves 4 --spines 4 \
	--hosts-per-leaf 4 -o "$T/plan.topo" || fail "plan dragonfly-plus"
"$IBTOPO" analyze --fail-on warning --format json "$T/plan.topo" >"$T/plan.json" ||
	fail "the plan has warnings: $(head -c 300 "$T/plan.json")"
got=$(json_get '(j["topology"]["class"], j["topology"]["groups"],
	j["topology"]["global_links"], j["topology"]["global_links_per_pair"],
	[(g["leaves"], g["spines"], g["server_links"], g["global_links"]) for g in j["topology"]["by_group"]][0],
	len(j["topology"]["by_group"]))' <"$T/plan.json")
[ "$got" = "('dragonfly-plus', 5, 10, {'min': 1, 'max': 1}, (4, 4, 16, 4), 5)" ] ||
	fail "plan analysis: $got"
"$IBTOPO" analyze "$T/plan.topo" >"$T/plan.txt" || fail "text"
grep -q '^Topology: Dragonfly+, 2 switch levels, 40 switches, 80 servers$' "$T/plan.txt" ||
	fail "text: $(grep '^Topology' "$T/plan.txt")"
grep -q '^  group 2 (g02-leaf01): 4 leaves, 4 spines, 16 server links, 4 global links$' \
	"$T/plan.txt" || fail "text group line"
"$IBTOPO" validate "$T/plan.topo" "$T/plan.topo" >/dev/null ||
	fail "the plan does not validate against itself"
"$IBTOPO" plan dragonfly-plus --groups 5 --leaves 4 --spines 4 \
	--hosts-per-leaf 4 --format ibsim -o "$T/plan.net" || fail "plan --format ibsim"
grep -q '^Switch	40 "g05-spine04"$' "$T/plan.net" || fail "ibsim net"

# a missing global link: one finding, both spines and both groups named
"$GEN" --format ibnetdiscover --groups 5 --leaves 4 --spines 4 --hosts 2 \
	--fault missing-global dragonfly >"$T/miss.topo" || fail "gen-fabric"
"$IBTOPO" analyze --format json "$T/miss.topo" >"$T/miss.json"
[ $? -eq 0 ] || fail "analyze missing-global: exit (warnings only: wanted 0)"
got=$(json_get '[(f["a"]["node"], f["b"]["node"], f["detail"])
	for f in j["findings"] if f["kind"] == "dragonfly-violation"]' <"$T/miss.json")
[ "$got" = "[('g01-spine01', 'g02-spine01', 'missing-global-link')]" ] ||
	fail "missing global link (one finding, both spines): $got"
json_get '[f["message"] for f in j["findings"] if f["kind"] == "dragonfly-violation"][0]' \
	<"$T/miss.json" | grep -q '^no global link joins group 1 to group 2' ||
	fail "missing global link: the message names the groups"

# usage
"$IBTOPO" plan dragonfly-plus --leaves 4 --spines 4 --hosts-per-leaf 4 \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "no --groups: wanted exit 2"
grep -q 'dragonfly-plus needs --groups' "$T/err" || fail "message: $(cat "$T/err")"
"$IBTOPO" plan dragonfly-plus --groups 4 --leaves 4 --spines 2 \
	--hosts-per-leaf 4 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "3 global links over 2 spines: wanted exit 2"
grep -q 'do not spread evenly over 2 spines' "$T/err" || fail "message: $(cat "$T/err")"
"$IBTOPO" plan fat-tree --leaves 2 --spines 2 --hosts-per-leaf 2 --groups 2 \
	>/dev/null 2>&1
[ $? -eq 2 ] || fail "--groups with fat-tree: wanted exit 2"
exit 0
