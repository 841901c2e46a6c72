#!/bin/sh
# ftree-opensm.sh - OpenSM's ftree routing engine under ibsim, against the
# topology analysis. For generated fabrics (fat trees clean and faulty,
# rings, meshes, a star) and real dumps re-simulated through `ibtopo
# export --format ibsim`: the class we give, whether we predict ftree
# accepts the fabric, and which engine opensm ends up using must match
# the table below. Fabrics we call fat trees without faults are routed by
# ftree; the ones we call irregular fall back to minhop. Needs ibsim,
# libumad2sim and opensm (else SKIP).
. "$top_srcdir/tests/lib.sh"
sim_require
python_require
opensm_gen_require
FIXTURES="$top_srcdir/tests/data/real"

# engine NET: the routing engine opensm used after one sweep of NET.
engine() {
	sim_start -n "$1"
	rm -rf "$TESTDIR/osm"
	mkdir -p "$TESTDIR/osm"
	(cd "$TESTDIR/work" &&
		OSM_CACHE_DIR="$TESTDIR/osm" OSM_TMP_DIR="$TESTDIR/osm" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout 60 "$OPENSM" -o -R ftree \
		-f "$TESTDIR/osm/osm.log" >"$TESTDIR/osm/stdout" 2>&1) ||
		{ sim_stop; fail "opensm failed on $1"; }
	sim_stop
	sed -n 's/.*osm_ucast_mgr_process: \([a-z]*\) tables configured on all switches.*/\1/p' \
		"$TESTDIR/osm/osm.log" | tail -n 1
}

# ours NET: "CLASS ENGINE", ENGINE the one we predict opensm will use.
ours() {
	"$IBTOPO" analyze --format json --fail-on never "$1" 2>"$TESTDIR/err" |
		json_get '"%s %s" % (j["topology"]["class"],
			"ftree" if j["topology"]["opensm_ftree"]["accepted"] else "minhop")' ||
		fail "analyze $1: $(cat "$TESTDIR/err")"
}

# check NAME CLASS ENGINE NETFILE
check() {
	got=$(ours "$4")
	[ "$got" = "$2 $3" ] || fail "$1: analysis says '$got', wanted '$2 $3'"
	used=$(engine "$4")
	[ "$used" = "$3" ] || {
		grep 'ERR AB' "$TESTDIR/osm/osm.log" >&2
		fail "$1: opensm used '$used' routing, we predicted '$3'"
	}
	info "$1: $2, opensm routes it with $used"
}

# gen NAME CLASS ENGINE GEN-ARGS...
gen() {
	name=$1 class=$2 eng=$3
	shift 3
	"$GEN" --radix 36 "$@" >"$TESTDIR/$name.net" || fail "gen-fabric $*"
	check "$name" "$class" "$eng" "$TESTDIR/$name.net"
}

gen ft2 fat-tree ftree --leaves 4 --spines 2 --hosts 2 ft2
gen ft2-oversubscribed fat-tree ftree --leaves 4 --spines 2 --hosts 6 ft2
gen ft2-dual-homed fat-tree ftree --leaves 4 --spines 2 --hosts 2 --dual ft2
gen ft3 fat-tree ftree --pods 2 --leaves 2 --spines 2 --cores 4 --hosts 2 ft3
gen ft2-missing-spine fat-tree ftree --leaves 4 --spines 4 --hosts 2 \
	--fault missing-spine ft2
gen ft2-same-level fat-tree ftree --leaves 4 --spines 2 --hosts 2 \
	--fault same-level ft2
# fat trees with faults ftree's validation refuses
gen ft2-drop-uplink fat-tree minhop --leaves 4 --spines 2 --hosts 2 \
	--fault drop-uplink ft2
gen ft2-piled fat-tree minhop --leaves 4 --spines 2 --hosts 2 --fault piled ft2
gen ft3-level-skip fat-tree minhop --pods 2 --leaves 2 --spines 2 --cores 4 \
	--hosts 2 --fault level-skip ft3
gen ft2-host-on-spine fat-tree minhop --leaves 4 --spines 2 --hosts 2 \
	--fault host-on-spine ft2
# irregular: every switch has servers, so ftree finds only roots
gen ring irregular minhop --switches 6 --hosts 2 ring
gen mesh irregular minhop --switches 4 --hosts 2 mesh
gen grid irregular minhop --rows 3 --cols 3 --hosts 1 grid
# hub and spoke: ftree routes it, we refuse the design
gen star star ftree --switches 4 --hosts 2 star

# real dumps, simulated again
for f in x5-mixed-ddr-qdr:irregular:minhop \
	qdr-hosts-fdr10-isls:fat-tree:minhop \
	tiny-mixed-speeds:star:minhop; do
	name=${f%%:*}
	rest=${f#*:}
	[ -f "$FIXTURES/$name.topo" ] || fail "fixture $FIXTURES/$name.topo missing"
	"$IBTOPO" export --format ibsim "$FIXTURES/$name.topo" \
		>"$TESTDIR/$name.net" 2>"$TESTDIR/err" ||
		fail "export $name: $(cat "$TESTDIR/err")"
	check "$name" "${rest%%:*}" "${rest#*:}" "$TESTDIR/$name.net"
done
exit 0
