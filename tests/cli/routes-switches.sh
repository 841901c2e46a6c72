#!/bin/sh
# routes-switches.sh - host -> switch routes and LMC in `routes`, on
# OpenSM's own tables kept in tests/data (issue 36; made under ibsim as
# tests/integration/routes-switches-sim.sh and routes-lmc-sim.sh make
# them, which plant the same faults live):
#  - rt-ring4: a ring of 4 switches, 2 hosts each; OpenSM's file engine
#    loaded minhop's tables with the routes between opposite switches
#    fixed, then
#    - rt-ring4-cloop.dump: sw02 sends sw00's LID by sw03 and sw03 sends
#      sw01's by sw00: a credit loop that only host -> switch routes
#      close: exactly one credit-loop finding, 4 links;
#    - rt-ring4-long.dump: sw00 sends sw01's LID by sw03: exactly one
#      route-not-minimal (3 links where 1 does), at sw00 port 2, LID 2;
#  - rt-ft2-lmc1: a 2-level fat tree routed by minhop with LMC 1, and
#    rt-ft2-lmc1-hole.dump without leaf01's entry for host0008's second
#    LID (23): unreachable_pairs 2 (of 112 source / destination LID
#    pairs), exactly one route-black-hole naming LID 23.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
python_require

# found: the findings of $tmp/out, one line each, then the counts
found() {
	json_get '"\n".join(["%s %s %s %s %s %s" % (f["kind"], f["a"]["node"],
		f["a"]["port"], f.get("lid"), f.get("hops", f.get("links")),
		f.get("min_hops", f.get("routes"))) for f in j["findings"]] +
		["lid_pairs %d unreachable %d not_minimal %d credit_loops %d" % (
		j["routes"]["lid_pairs"], j["routes"]["unreachable_pairs"],
		j["routes"]["not_minimal"], j["routes"]["credit_loops"])])' \
		<"$tmp/out" >"$tmp/found"
}

run 1 "$IBTOPO" routes "$DATA/rt-ring4.topo" --routes "$DATA/rt-ring4-cloop.dump" \
	--format json && found
printf '%s\n' "credit-loop sw00 1 None 4 None" \
	"lid_pairs 56 unreachable 0 not_minimal 0 credit_loops 1" >"$tmp/want"
same "$tmp/want" "$tmp/found" "credit loop of host -> switch routes"
got=$(json_get '[f["detail"] for f in j["findings"]][0]' <"$tmp/out")
[ "$got" = "'sw00' [1] -> 'sw01' [1], 'sw01' [2] -> 'sw02' [1], 'sw02' [2] -> 'sw03' [1], 'sw03' [2] -> 'sw00' [2]" ] ||
	flunk "credit loop links: $got"

run 0 "$IBTOPO" routes "$DATA/rt-ring4.topo" --routes "$DATA/rt-ring4-long.dump" \
	--format json && found
printf '%s\n' "route-not-minimal sw00 2 2 3 1" \
	"lid_pairs 56 unreachable 0 not_minimal 1 credit_loops 0" >"$tmp/want"
same "$tmp/want" "$tmp/found" "long route to a switch"
run 0 "$IBTOPO" routes "$DATA/rt-ring4.topo" --routes "$DATA/rt-ring4-long.dump"
grep -q "routes to LID 2 ('sw01') take 3 links from here where the cables allow 1: 2 CA routes" \
	"$tmp/out" || flunk "long route text: $(grep -i 'links from here' "$tmp/out")"

run 1 "$IBTOPO" routes "$DATA/rt-ft2-lmc1.topo" \
	--routes "$DATA/rt-ft2-lmc1-hole.dump" --format json && found
printf '%s\n' "route-black-hole leaf01 255 23 None 2" \
	"lid_pairs 112 unreachable 2 not_minimal 0 credit_loops 0" >"$tmp/want"
same "$tmp/want" "$tmp/found" "a hole on a second LID"
exit "$failed"
