#!/bin/sh
# dragonfly-sim.sh - a planned Dragonfly+ fabric under ibsim (issue 17,
# item 2): as built it is dragonfly-plus with no warnings and validates
# against its plan; without two global links analyze names, for each,
# the two spines it should join, as validate names the missing links.
# Needs ibsim, ibnetdiscover and libumad2sim (else SKIP).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
ibnetdiscover_require
T=$TESTDIR

plan_both dragonfly-plus --groups 5 --leaves 2 --spines 2 --hosts-per-leaf 2 --global 2

plan_built "built Dragonfly+"
got=$(json_get '(j["topology"]["class"], j["topology"]["groups"],
	j["topology"]["global_links"], j["topology"]["global_links_per_pair"])' <"$T/clean.json")
[ "$got" = "('dragonfly-plus', 5, 20, {'min': 2, 'max': 2})" ] || fail "built Dragonfly+: $got"

# g01-spine01's global links are ports 3..6 (2 leaves below): unplug
# both of its links to group 2 (slots 0 and 1 of group 1, on spines 1 and
# 2): g01-spine01:3 and g01-spine02:3
"$PYTHON3" "$NETEDIT" "$T/plan.net" "$T/miss.net" \
	unlink g01-spine01:3 unlink g01-spine02:3 || fail "netedit"
sim_ibnetdiscover "$T/miss.net" "$T/miss.topo"
"$IBTOPO" analyze --format json "$T/miss.topo" >"$T/miss.json" || fail "analyze"
got=$(json_get '[(f["a"]["node"], f["b"]["node"]) for f in j["findings"]
	if f.get("detail") == "missing-global-link"]' <"$T/miss.json")
# one finding per missing cable, as validate lists them (issue 23 item 23)
[ "$got" = "[('g01-spine01', 'g02-spine01'), ('g01-spine02', 'g02-spine02')]" ] ||
	fail "missing global link: $got"
got=$(json_get '[f for f in j["findings"] if f.get("detail") == "uneven-global-links"]' \
	<"$T/miss.json")
[ "$got" = "[]" ] || fail "the missing links reported again per spine: $got"
"$IBTOPO" validate "$T/plan.topo" "$T/miss.topo" --format json >"$T/val.json" 2>&1
[ $? -eq 1 ] || fail "validate: wanted exit 1"
got=$(json_get 'sorted((f["kind"], f["a"]["node"], f["b"]["node"]) for f in j["findings"])' <"$T/val.json")
[ "$got" = "[('missing-link', 'g01-spine01', 'g02-spine01'), ('missing-link', 'g01-spine02', 'g02-spine02')]" ] ||
	fail "validate: $got"
exit 0
