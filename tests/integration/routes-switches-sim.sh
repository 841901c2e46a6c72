#!/bin/sh
# routes-switches-sim.sh - host -> switch routes (management traffic to
# a switch's port 0 LID) in the credit-loop check and route-not-minimal,
# as ibdmchk -a checks them (issue 36). The ring of 4 switches of
# tests/routes-ring-lib.sh, OpenSM's minhop tables with the routes
# between opposite switches fixed, loaded back with OpenSM's file engine
# (opensm -R file -U DUMP) and read live by dump_fts:
#  - clean: no finding at all;
#  - credit loop made by host -> switch routes (CA-to-CA routes alone
#    have none): exactly one credit-loop finding, its 4 links in order;
#  - sw00 sending sw01's LID by sw03 (3 links where 1 does): exactly one
#    route-not-minimal, at sw00 port 2, LID 2.
# Needs ibsim, libumad2sim, opensm, ibnetdiscover, dump_fts (else SKIP).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/routes-ring-lib.sh"
dump_fts_require
T=$TESTDIR
ring_setup

for fault in clean cloop long; do
	d=$T/$fault
	ring_sweep file "$d" -U "$T/$fault.dump"
	want=0
	[ "$fault" = cloop ] && want=1	# an error; a long route warns
	run "$want" "$IBTOPO" routes "$d/fabric.topo" --routes "$d/dump_fts.txt" \
		--format json || continue
	json_get '"\n".join(["%s %s %s %s %s %s" % (f["kind"], f["a"]["node"],
		f["a"]["port"], f.get("lid"), f.get("hops", f.get("links")),
		f.get("min_hops", f.get("detail"))) for f in j["findings"]] +
		["pairs %d unreachable %d not_minimal %d credit_loops %d" % (
		j["routes"]["ca_pairs"], j["routes"]["unreachable_pairs"],
		j["routes"]["not_minimal"], j["routes"]["credit_loops"])])' \
		<"$T/out" >"$d/found"
	case $fault in
	clean) want="pairs 56 unreachable 0 not_minimal 0 credit_loops 0" ;;
	cloop) want="credit-loop sw00 1 None 4 'sw00' [1] -> 'sw01' [1], 'sw01' [2] -> 'sw02' [1], 'sw02' [2] -> 'sw03' [1], 'sw03' [2] -> 'sw00' [2]
pairs 56 unreachable 0 not_minimal 0 credit_loops 1" ;;
	long) want="route-not-minimal sw00 2 2 3 1
pairs 56 unreachable 0 not_minimal 1 credit_loops 0" ;;
	esac
	printf '%s\n' "$want" >"$d/want"
	same "$d/want" "$d/found" "planted $fault"
done
exit "$failed"
