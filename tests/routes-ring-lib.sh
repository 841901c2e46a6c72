# shellcheck shell=sh
# routes-ring-lib.sh - sourced by the tests of host -> switch routes
# (tests/integration/routes-switches-sim.sh, ibdmchk-unicast.sh; issue
# 36), after tests/lib.sh: a ring of 4 switches (sw00 - sw01 - sw02 -
# sw03 - sw00, 2 hosts each) under ibsim, OpenSM's tables for it, and
# faults planted in them.
#
# ring_setup: $T/ring.net, OpenSM's minhop sweep in $T/minhop, and three
# dumps from it with every route between opposite switches fixed (sw00
# <-> sw02 through sw01, sw01 <-> sw03 through sw02: no CA route turns at
# sw00 or sw03):
#  - $T/clean.dump: no fault;
#  - $T/cloop.dump: sw02 sends sw00's LID by sw03 and sw03 sends sw01's
#    by sw00, both still 2 links: their turns at sw03 and sw00 close the
#    CA routes' turns at sw01 and sw02 into a credit loop of 4 links
#    that only host -> switch routes make;
#  - $T/long.dump: sw00 sends sw01's LID by sw03, 3 links where 1 does.
# ring_sweep ENGINE DIR [OPENSM ARGS]: one opensm sweep of the ring,
# its dumps (-D 0x43) in DIR/osm, DIR/fabric.topo and DIR/dump_fts.txt
# (osm_sweep of tests/lib.sh). The tests call dump_fts_require first.

ring_sweep() {
	osm_sweep "$T/ring.net" "$@"
}

# ring_plant DUMP "SWITCH:LID:PORT ..." >OUT: those entries of DUMP set
# (a later one for the same entry wins); fails when one is not in DUMP
ring_plant() {
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

ring_setup() {
	"$GEN" --radix 36 --switches 4 --hosts 2 ring >"$T/ring.net" ||
		fail "gen-fabric ring"
	ring_sweep minhop "$T/minhop"
	# the LIDs the dumps are written for: switches 1-4, then the
	# hosts, two a switch, in ring order
	for s in 0 1 2 3; do
		grep -q "\"sw0$s\" base port 0 lid $((s + 1)) lmc 0" \
			"$T/minhop/fabric.topo" ||
			fail "OpenSM numbered the LIDs otherwise: sw0$s"
	done
	grep -q '"host0008 mlx5_0" lid 12 ' "$T/minhop/fabric.topo" ||
		fail "OpenSM numbered the hosts' LIDs otherwise"
	# sw00 (LIDs 1, 5, 6) <-> sw02 (3, 9, 10) through sw01 (sw00 port
	# 1, sw02 port 1); sw01 (2, 7, 8) <-> sw03 (4, 11, 12) through sw02
	# (sw01 port 2, sw03 port 1)
	clean="sw00:3:1 sw00:9:1 sw00:10:1 sw02:1:1 sw02:5:1 sw02:6:1
		sw01:4:2 sw01:11:2 sw01:12:2 sw03:2:1 sw03:7:1 sw03:8:1"
	base=$T/minhop/osm/opensm-lfts.dump
	ring_plant "$base" "$clean" >"$T/clean.dump" || fail "plant clean"
	ring_plant "$base" "$clean sw02:1:2 sw03:2:2" >"$T/cloop.dump" ||
		fail "plant cloop"
	ring_plant "$base" "$clean sw00:2:2" >"$T/long.dump" ||
		fail "plant long"
}
