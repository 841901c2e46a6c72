#!/bin/sh
# routes-switches-sim.sh - host -> switch routes (management traffic to
# a switch's port 0 LID) in the credit-loop check and route-not-minimal,
# as ibdmchk -a checks them (issue 36). A ring of 4 switches (sw00 - sw01
# - sw02 - sw03 - sw00, 2 hosts each) under ibsim, routed by OpenSM's
# minhop; its dump with every route between opposite switches fixed (to
# sw02 and back through sw01, to sw03 and back through sw02: no CA route
# turns at sw00 or sw03) is loaded back with OpenSM's file engine (opensm
# -R file -U DUMP), then read live by dump_fts:
#  - clean: no finding at all;
#  - credit loop: sw02 sends sw00's LID by sw03 and sw03 sends sw01's by
#    sw00, both still 2 links: the turns at sw03 and sw00 close the CA
#    routes' turns at sw01 and sw02 into a cycle of 4 links, exactly one
#    credit-loop finding (CA-to-CA routes alone have none);
#  - long route: sw00 sends sw01's LID by sw03 (3 links where 1 does):
#    exactly one route-not-minimal, at sw00 port 2, LID 2.
# Needs ibsim, libumad2sim, opensm, ibnetdiscover, dump_fts (else SKIP).
. "$top_srcdir/tests/lib.sh"
python_require
opensm_gen_require
ibnetdiscover_require
DUMP_FTS=$(command -v dump_fts) || skip "dump_fts not found (infiniband-diags)"
T=$TESTDIR

# client COMMAND...: a simulator client, killed if it hangs; output to files
client() {
	(cd "$T/work" &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 60 "$@")
}

# sweep ENGINE DIR [OPENSM ARGS]: one opensm sweep of the ring with
# ENGINE, dumps in DIR/osm, then DIR/fabric.topo and DIR/dump_fts.txt
sweep() {
	eng=$1 dir=$2
	shift 2
	mkdir -p "$dir/osm"
	sim_start -n "$T/ring.net"
	client env OSM_CACHE_DIR="$dir/osm" OSM_TMP_DIR="$dir/osm" \
		"$OPENSM" -o -R "$eng" --dump_files_dir "$dir/osm" -D 0x43 \
		-f "$dir/osm/osm.log" "$@" >"$dir/opensm.out" 2>&1 ||
		{ sim_stop; fail "opensm -R $eng failed"; }
	client "$IBNETDISCOVER" >"$dir/fabric.topo" 2>"$dir/ibnd.err" ||
		{ sim_stop; fail "ibnetdiscover failed"; }
	client "$DUMP_FTS" >"$dir/dump_fts.txt" 2>"$dir/dump_fts.err" ||
		{ sim_stop; fail "dump_fts failed"; }
	sim_stop
	grep -q "osm_ucast_mgr_process: $eng tables configured" "$dir/osm/osm.log" ||
		fail "opensm did not route with $eng: $(grep 'tables configured\|ERR' "$dir/osm/osm.log" | head -3)"
}

# plant DUMP "SWITCH:LID:PORT ..." >OUT: those entries of DUMP set (a
# later one for the same entry wins); fails when one is not in DUMP
plant() {
	awk -v set="$2" 'BEGIN {
		n = split(set, a, " ")
		for (i = 1; i <= n; i++) {
			split(a[i], b, ":")
			k = b[1] SUBSEP sprintf("0x%04x", b[2])
			if (!(k in want))
				keys++
			want[k] = sprintf("%03d", b[3])
		}
	}
	/^Unicast/ { sw = $0; sub(/.*\(./, "", sw); sub(/.\):.*/, "", sw) }
	/^0x/ && ((sw, $1) in want) { $2 = want[sw, $1]; seen++ }
	{ print }
	END { if (seen != keys) exit 1 }' "$1"
}

"$GEN" --radix 36 --switches 4 --hosts 2 ring >"$T/ring.net" ||
	fail "gen-fabric ring"
sweep minhop "$T/minhop"
# the LIDs this test is written for: switches 1-4, then the hosts, two
# a switch, in ring order
for s in 0 1 2 3; do
	grep -q "\"sw0$s\" base port 0 lid $((s + 1)) lmc 0" \
		"$T/minhop/fabric.topo" ||
		fail "OpenSM numbered the LIDs otherwise: sw0$s"
done
grep -q '"host0008 mlx5_0" lid 12 ' "$T/minhop/fabric.topo" ||
	fail "OpenSM numbered the hosts' LIDs otherwise"
# sw00 (LIDs 1, 5, 6) <-> sw02 (3, 9, 10) through sw01 (sw00 port 1,
# sw02 port 1); sw01 (2, 7, 8) <-> sw03 (4, 11, 12) through sw02 (sw01
# port 2, sw03 port 1)
clean="sw00:3:1 sw00:9:1 sw00:10:1 sw02:1:1 sw02:5:1 sw02:6:1
	sw01:4:2 sw01:11:2 sw01:12:2 sw03:2:1 sw03:7:1 sw03:8:1"
base=$T/minhop/osm/opensm-lfts.dump
plant "$base" "$clean" >"$T/clean.dump" || fail "plant clean"
plant "$base" "$clean sw02:1:2 sw03:2:2" >"$T/cloop.dump" || fail "plant cloop"
plant "$base" "$clean sw00:2:2" >"$T/long.dump" || fail "plant long"

for fault in clean cloop long; do
	d=$T/$fault
	sweep file "$d" -U "$T/$fault.dump"
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
