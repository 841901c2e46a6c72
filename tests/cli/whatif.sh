#!/bin/sh
# whatif.sh - `ibtopo whatif` on tests/data/ck-cables.topo (one spine,
# two leaves of two servers each, two cables from each leaf up) with its
# hand-written tables (tests/data/rt-ck-lfts.dump): the figures before and
# after, counted by hand; the CA pairs whose routes cross the failure
# (the 8 pairs between the leaves when the spine fails; a server's own
# 6 and the routes the tables send over the cable); --each ranks and
# says whether the fabric survives; every SPEC that names nothing, or
# not one thing, is an error that says so (exit 2).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables

# ---- the spine fails: the leaves are cut apart
run 0 "$IBTOPO" whatif "$topo" --fail spine01 --routes "$dump" --format csv
cat >"$tmp/want" <<'CSV'
metric,before,after
class,star,irregular
servers,4,4
isolated,0,2
single_homed,4,2
leaf_pairs,1,1
node_disjoint_min,1,0
node_disjoint_median,1,0
bisection_gbps,400,0
blocking_factor,1.00,
level_1_oversubscription,1.00,
level_1_up_links,4,0
level_2_oversubscription,,
level_2_up_links,0,
pairs_dropped,,1
pairs_cut,,1
became_single_homed,,0
ca_pairs_hit,,8
CSV
same "$tmp/want" "$tmp/out" "whatif --fail spine01"
# the same failure named by GUID and as ibnetdiscover names it
run 0 "$IBTOPO" whatif "$topo" --fail 0x1000000000000100 --format csv
cp "$tmp/out" "$tmp/by-guid"
run 0 "$IBTOPO" whatif "$topo" --fail S-1000000000000100 --format csv
same "$tmp/by-guid" "$tmp/out" "whatif --fail S-<guid>"

# ---- a cable and a server: one uplink of leaf01 less, host01 gone
run 0 "$IBTOPO" whatif "$topo" --fail leaf01:39 --fail host01 \
	--routes "$dump" --format json
got=$(json_get '"%s %s %s %s %s %s %s" % ([f["type"] for f in j["whatif"]["failed"]],
	j["whatif"]["after"]["isolated"], j["whatif"]["after"]["by_level"][0]["up_links"],
	j["whatif"]["after"]["bisection_gbps"], j["whatif"]["routes"]["ca_pairs"],
	j["whatif"]["routes"]["ca_pairs_hit"],
	j["whatif"]["routes"]["destinations"][0]["node"])' <"$tmp/out")
# host01's 6 pairs; leaf01's tables send one more route over port 39
# (an awk count of the dump below says which)
[ "$got" = "['ca', 'cable'] 1 3 300.0 12 7 host01 mlx5_0" ] ||
	flunk "cable and server: $got"
# the dump: leaf01 (LID 2) sends LIDs 13 and 14 (leaf02's hosts) up by
# port 39 or 40; the routes from host02 (the live source on leaf01) to
# those sent by 39 are the extra ones hit
extra=$(awk '/Unicast lids .* of switch .*Lid 2 / { on = 1; next }
	/Unicast lids/ { on = 0 } on && ($1 == "0x000d" || $1 == "0x000e") &&
	$2 == "039" { n++ } END { print n + 0 }' "$dump")
[ "$extra" = 1 ] || flunk "the dump routes $extra of leaf02's LIDs by leaf01 port 39"

# ---- without tables: no blast radius, and the text says why
run 0 "$IBTOPO" whatif "$topo" --fail leaf02
grep -q '^Routes: no forwarding tables' "$tmp/out" || flunk "no tables: not said"
grep -q '^  servers isolated  *0  *2$' "$tmp/out" || flunk "leaf02: isolated"

# ---- N-1: a leaf isolates its 2 servers; the fabric does not survive
run 0 "$IBTOPO" whatif "$topo" --each switch --format csv
cat >"$tmp/want" <<'CSV'
rank,failed,guid,isolated,became_single_homed,pairs_dropped,pairs_cut,bisection_lost_gbps
1,spine01,0x1000000000000100,2,0,1,1,400
2,leaf01,0x1000000000000200,2,0,0,0,200
3,leaf02,0x1000000000000300,2,0,0,0,200
CSV
same "$tmp/want" "$tmp/out" "whatif --each switch"
run 0 "$IBTOPO" whatif "$topo" --each spine
head -1 "$tmp/out" | grep -q '^Does not survive every single spine failure' ||
	flunk "each spine: $(head -1 "$tmp/out")"
run 0 "$IBTOPO" whatif "$topo" --each switch --top 1 --format json
got=$(json_get '"%s %s %s" % (j["whatif"]["tried"], len(j["whatif"]["ranking"]),
	j["whatif"]["survives"])' <"$tmp/out")
[ "$got" = "3 1 False" ] || flunk "each --top 1: $got"
# level:2 --fail-any 1 is the worst spine, the one --each names first
run 0 "$IBTOPO" whatif "$topo" --fail level:2 --fail-any 1 --format json
got=$(json_get 'j["whatif"]["failed"][0]["node"]' <"$tmp/out")
[ "$got" = spine01 ] || flunk "level:2 --fail-any 1: $got"

# ---- a fabric that survives any one spine: two spines, every leaf on both
"$IBTOPO" plan fat-tree --leaves 4 --spines 2 --hosts-per-leaf 2 \
	-o "$tmp/ft.topo" || fail "plan fat-tree"
run 0 "$IBTOPO" whatif "$tmp/ft.topo" --each spine
head -1 "$tmp/out" | grep -q '^Survives any single spine failure: no server isolated, no leaf pair cut off' ||
	flunk "survivor: $(head -1 "$tmp/out")"

# ---- SPECs that name nothing, or not one thing: exit 2, said
bad() {
	msg=$1
	shift
	run 2 "$IBTOPO" whatif "$topo" "$@" || return
	grep -qF -- "$msg" "$tmp/err" || flunk "'$*': stderr $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && flunk "'$*': wrote to stdout"
}
bad "bad --fail 'nosuch': no node 'nosuch' in the fabric" --fail nosuch
bad "bad --fail 'leaf01:7': port 7 of 'leaf01' has no cable" --fail leaf01:7
bad "bad --fail 'nosuch:3': no node 'nosuch' in the fabric" --fail nosuch:3
bad "bad --fail 'leaf01:x'" --fail leaf01:x
bad "bad --fail 'level:0'" --fail level:0
bad "bad --fail 'level:x'" --fail level:x
bad "bad --fail 'level:3': the fabric has 2 switch levels" --fail level:3 --fail-any 1
bad "--fail level:1 needs --fail-any K" --fail level:1
bad "--fail-any needs --fail level:N" --fail spine01 --fail-any 1
bad "bad --fail-any '0'" --fail level:1 --fail-any 0
bad "--fail-any 3: level 1 has 2 switches" --fail level:1 --fail-any 3
bad "empty --fail" --fail ''
bad "nothing to fail"
bad "--each and --fail exclude each other" --each switch --fail spine01
bad "unknown --each 'rack'" --each rack
bad "bad --top '-1'" --each switch --top -1
# a description several nodes share
sed 's/"host02 mlx5_0"/"host01 mlx5_0"/' "$topo" >"$tmp/twice.topo"
run 2 "$IBTOPO" whatif "$tmp/twice.topo" --fail 'host01 mlx5_0'
grep -qF "bad --fail 'host01 mlx5_0': 'host01 mlx5_0' names 2 nodes" "$tmp/err" ||
	flunk "ambiguous: $(cat "$tmp/err")"
exit "$failed"
