#!/bin/sh
# routes-lmc-sim.sh - with LMC > 0, unreachable pairs are counted per
# destination LID (issue 36): a black hole on a host's second LID makes
# unreachable_pairs > 0 and its finding names that LID. A 2-level fat
# tree (4 leaves, 2 spines, 2 hosts a leaf) under ibsim, routed by
# OpenSM's minhop with -l 1 (two LIDs a host; ftree refuses LMC 1 here,
# "cannot build lid matrices"), read live by dump_fts:
#  - clean: 22 destination LIDs (6 switches, 8 hosts x 2), 56 CA pairs,
#    112 CA / destination LID pairs, nothing unreachable, no finding;
#  - OpenSM's dump without leaf01's entry for host0008's second LID
#    (base + 1), loaded back with the file engine (opensm -R file -U
#    DUMP -l 1): exactly one finding, the route-black-hole at leaf01 for
#    that LID, hitting the 2 hosts of leaf01, and unreachable_pairs 2.
# Needs ibsim, libumad2sim, opensm, ibnetdiscover, dump_fts (else SKIP).
. "$top_srcdir/tests/lib.sh"
dump_fts_require
T=$TESTDIR

# sweep ENGINE DIR [OPENSM ARGS]: one opensm sweep with LMC 1, dumps in
# DIR/osm, then DIR/fabric.topo and DIR/dump_fts.txt
sweep() {
	eng=$1 dir=$2
	shift 2
	osm_sweep "$T/ft2.net" "$eng" "$dir" -l 1 "$@"
}

# summary JSON: the counts and the findings, one line each
summary() {
	json_get '"\n".join(["dlids %d pairs %d lid_pairs %d unreachable %d" % (
		j["routes"]["dlids"], j["routes"]["ca_pairs"],
		j["routes"]["lid_pairs"], j["routes"]["unreachable_pairs"])] +
		["%s %s %s %s %s %s" % (f["kind"], f["a"]["node"], f["a"]["port"],
		f.get("lid"), f["c"]["node"] if "c" in f else None,
		f.get("routes")) for f in j["findings"]])' <"$1"
}

"$GEN" --radix 36 --leaves 4 --spines 2 --hosts 2 ft2 >"$T/ft2.net" ||
	fail "gen-fabric ft2"
sweep minhop "$T/clean"
lid=$(awk '/^Ca/ { h = $0 ~ /"host0008 mlx5_0"/ }
	h && /^\[1\]/ && match($0, /# lid [0-9]+ lmc 1 /) {
		print substr($0, RSTART + 6, RLENGTH - 13) + 0; exit }' \
	"$T/clean/fabric.topo")
[ -n "$lid" ] || fail "host0008 has no LID with LMC 1 in ibnetdiscover's output"
second=$(printf '0x%04x' $((lid + 1)))
run 0 "$IBTOPO" routes "$T/clean/fabric.topo" --routes "$T/clean/dump_fts.txt" \
	--format json
summary "$T/out" >"$T/clean/found"
echo "dlids 22 pairs 56 lid_pairs 112 unreachable 0" >"$T/clean/want"
same "$T/clean/want" "$T/clean/found" "clean, LMC 1"

base=$T/clean/osm/opensm-lfts.dump
awk -v lid="$second" '/^Unicast/ { sw = $0 }
	!(sw ~ /\(.leaf01.\)/ && $1 == lid)' "$base" >"$T/hole.dump"
cmp -s "$base" "$T/hole.dump" && fail "no entry for $second removed"
sweep file "$T/hole" -U "$T/hole.dump"
run 1 "$IBTOPO" routes "$T/hole/fabric.topo" --routes "$T/hole/dump_fts.txt" \
	--format json
summary "$T/out" >"$T/hole/found"
printf 'dlids 22 pairs 56 lid_pairs 112 unreachable 2\n%s\n' \
	"route-black-hole leaf01 255 $((lid + 1)) host0008 mlx5_0 2" \
	>"$T/hole/want"
same "$T/hole/want" "$T/hole/found" "a hole on the second LID"
# the text names the count per LID too
run 1 "$IBTOPO" routes "$T/hole/fabric.topo" --routes "$T/hole/dump_fts.txt"
grep -q "56 CA pairs, 112 with every LID of the LMC ranges, 2 unreachable" \
	"$T/out" || flunk "text: $(grep '^routing:' "$T/out")"
exit "$failed"
