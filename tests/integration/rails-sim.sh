#!/bin/sh
# rails-sim.sh - a planned rail-optimized fabric under ibsim (issue 17,
# item 1): as built it is rail-optimized with no findings and validates
# against its plan; with two rail cables swapped analyze names both HCAs
# (rail-mismatch) and validate the swap (miswired-link). Needs ibsim,
# ibnetdiscover and libumad2sim (else SKIP).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
ibnetdiscover_require
T=$TESTDIR

# 16 servers of 4 HCAs in units of 8: 8 leaves, 4 spines
plan_both rail-optimized --servers 16 --rails 4 --spines 4 --unit 8

plan_built "built rail fabric"
got=$(json_get '(j["topology"]["class"], j["topology"]["rails"],
	j["topology"]["scalable_units"], j["topology"]["servers"])' <"$T/clean.json")
[ "$got" = "('rail-optimized', 4, 2, 16)" ] || fail "built rail fabric: $got"

# dgx001's HCAs of rails 1 and 2 swap leaves
"$PYTHON3" "$NETEDIT" "$T/plan.net" "$T/swap.net" \
	swap rail1-su01:1 rail2-su01:1 || fail "netedit swap"
sim_ibnetdiscover "$T/swap.net" "$T/swap.topo"
"$IBTOPO" analyze --format json "$T/swap.topo" >"$T/swap.json" || fail "analyze swap"
got=$(json_get '[(f["a"]["node"], f["b"]["node"], f["c"]["node"], f["detail"])
	for f in j["findings"] if f["kind"] == "rail-mismatch"]' <"$T/swap.json")
[ "$got" = "[('dgx001 mlx5_0', 'rail2-su01', 'rail1-su01', 'wrong-leaf'), ('dgx001 mlx5_1', 'rail1-su01', 'rail2-su01', 'wrong-leaf')]" ] ||
	fail "swapped rail cables: $got"
"$IBTOPO" validate "$T/plan.topo" "$T/swap.topo" --format json >"$T/val.json" 2>&1
[ $? -eq 1 ] || fail "swapped rail cables validate"
got=$(json_get '[(f["kind"], f.get("detail")) for f in j["findings"]]' <"$T/val.json")
[ "$got" = "[('miswired-link', 'swapped')]" ] || fail "validate swap: $got"
exit 0
