#!/bin/sh
# plan-rails.sh - rail-optimized fabrics (issue 17, item 1) without a
# simulator: `plan rail-optimized` writes a plan that analyze calls
# rail-optimized with no findings and that validates against itself; a
# generated rail fabric with a swapped rail cable, or a server missing a
# rail, gets rail-mismatch findings naming the server's HCAs; usage errors.
. "$top_srcdir/tests/lib.sh"
python_require
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
T=$TESTDIR

"$IBTOPO" plan rail-optimized --servers 24 --rails 8 --spines 8 --unit 8 \
	-o "$T/plan.topo" || fail "plan rail-optimized"
"$IBTOPO" analyze --fail-on warning --format json "$T/plan.topo" >"$T/plan.json" ||
	fail "the plan has findings: $(head -c 300 "$T/plan.json")"
got=$(json_get '(j["topology"]["class"], j["topology"]["rails"],
	j["topology"]["scalable_units"], j["topology"]["servers_per_unit"],
	j["topology"]["hcas_per_rail"][0], j["topology"]["servers"], len(j["findings"]))' \
	<"$T/plan.json")
[ "$got" = "('rail-optimized', 8, 3, [8, 8, 8], 24, 24, 0)" ] || fail "plan analysis: $got"
grep -q '^\[1\]	"dgx001 mlx5_0"\[1\]' "$T/plan.topo" || fail "rail1-su01 port 1"
"$IBTOPO" validate "$T/plan.topo" "$T/plan.topo" >/dev/null ||
	fail "the plan does not validate against itself"
"$IBTOPO" plan rail-optimized --servers 24 --rails 8 --spines 8 --unit 8 \
	--format ibsim -o "$T/plan.net" || fail "plan --format ibsim"
grep -q '^Switch	40 "rail8-su03"$' "$T/plan.net" || fail "ibsim net: no rail8-su03"

# a swapped rail cable: both HCAs named, with their rails' leaves
"$GEN" --format ibnetdiscover --rails 4 --units 2 --hosts 4 --spines 2 \
	--fault swap-rail rails >"$T/swap.topo" || fail "gen-fabric swap-rail"
"$IBTOPO" analyze --format json "$T/swap.topo" >"$T/swap.json" || fail "analyze swap"
got=$(json_get '[(f["a"]["node"], f["b"]["node"], f["c"]["node"], f["detail"], f["expected"])
	for f in j["findings"] if f["kind"] == "rail-mismatch"]' <"$T/swap.json")
[ "$got" = "[('dgx0001 mlx5_0', 'rail2-su01', 'rail1-su01', 'wrong-leaf', 1), ('dgx0001 mlx5_1', 'rail1-su01', 'rail2-su01', 'wrong-leaf', 2)]" ] ||
	fail "swapped rail cable: $got"
"$IBTOPO" analyze --fail-on warning "$T/swap.topo" >/dev/null 2>&1
[ $? -eq 1 ] || fail "swapped rail cable: --fail-on warning wanted exit 1"

# a server missing a rail, and the rail one HCA short
"$GEN" --format ibnetdiscover --rails 4 --units 2 --hosts 4 --spines 2 \
	--fault missing-rail rails >"$T/miss.topo" || fail "gen-fabric missing-rail"
got=$("$IBTOPO" analyze --format json "$T/miss.topo" |
	json_get '[(f["a"]["node"].split()[0] if f["a"]["node"] else None, f["detail"], f["expected"])
	for f in j["findings"] if f["kind"] == "rail-mismatch"]')
[ "$got" = "[('dgx0001', 'missing-rail', 4), (None, 'unequal-rails', 8)]" ] ||
	fail "missing rail: $got"

# usage
"$IBTOPO" plan rail-optimized --rails 8 --spines 8 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "no --servers: wanted exit 2"
grep -q 'rail-optimized needs --servers' "$T/err" || fail "message: $(cat "$T/err")"
"$IBTOPO" plan rail-optimized --servers 8 --rails 4 --spines 2 --leaves 3 \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "--leaves with rail-optimized: wanted exit 2"
"$IBTOPO" plan fat-tree --leaves 2 --spines 2 --hosts-per-leaf 2 --rails 2 \
	>/dev/null 2>&1
[ $? -eq 2 ] || fail "--rails with fat-tree: wanted exit 2"
"$IBTOPO" plan rail-optimized --servers 64 --rails 8 --spines 8 --unit 16 \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "too many leaves for the spines: wanted exit 2"
grep -q 'spines need 64 ports (32 leaves x 2 cables) but the radix is 40' "$T/err" ||
	fail "message: $(cat "$T/err")"
# a count of 0 is refused by its name, never read as "not given" (issue
# 33, item 11: '--leaves 0' said "needs --leaves")
for args in "fat-tree --leaves 0 --spines 2 --hosts-per-leaf 2:--leaves 0" \
	"fat-tree --leaves 2 --spines 0 --hosts-per-leaf 2:--spines 0" \
	"rail-optimized --servers 0 --rails 2 --spines 2:--servers 0" \
	"dragonfly-plus --groups 0 --leaves 2 --spines 2 --hosts-per-leaf 2:--groups 0"; do
	# shellcheck disable=SC2086 # the plan's words
	"$IBTOPO" plan ${args%%:*} >/dev/null 2>"$T/err"
	[ $? -eq 2 ] || fail "plan ${args%%:*}: wanted exit 2"
	grep -q "'${args#*:}': at least 1" "$T/err" ||
		fail "plan ${args%%:*}: $(cat "$T/err")"
done
exit 0
