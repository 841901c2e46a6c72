#!/bin/sh
# job.sh - `ibtopo job HOSTLIST` on tests/data/ck-cables.topo (one
# spine; leaf01 with host01, host02; leaf02 with host03, host04; two
# cables from each leaf up) and its hand-written tables
# (tests/data/rt-ck-lfts.dump): Slurm's hostlist syntax read (ranges,
# padding, brackets that multiply) and refused when bad (exit 2); the
# hosts found and missing, the leaves, the lowest common switch; the
# job's all-to-all traced through the tables: the pairs, the hops, the
# busiest port against its ideal (spine01 sends both routes to host03
# by port 3, none by port 4: 2 against 1), and the verdict line; with
# counters, the port health findings on its links (a planted bad link
# named, nothing on a clean placement).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables

# ---- three hosts on two leaves, one name the fabric lacks
run 0 "$IBTOPO" job 'host[01-03],nosuch' "$topo" --routes "$dump" --format json
got=$(json_get '"%s %s %s %s %s %s %s" % (j["job"]["hosts"], j["job"]["found"],
	j["job"]["missing"], [l["node"] for l in j["job"]["leaves"]],
	j["job"]["common_level"], j["job"]["common_switch"]["node"],
	j["job"]["ca_ports"])' <"$tmp/out")
[ "$got" = "4 3 ['nosuch'] ['leaf01', 'leaf02'] 2 spine01 3" ] ||
	flunk "hosts: $got"
got=$(json_get '"%s %s %s %s %s %s" % (j["job"]["routes"]["ca_pairs"],
	j["job"]["routes"]["unreachable_pairs"],
	[s["node"] for s in j["job"]["routes"]["spines"]],
	j["job"]["routes"]["hops_min"], j["job"]["routes"]["hops_max"],
	j["job"]["routes"]["hops_mean"])' <"$tmp/out")
# 6 ordered pairs: host01<->host02 in 2 links, the 4 across in 4
[ "$got" = "6 0 ['spine01'] 2 4 3.33333" ] || flunk "routes: $got"
# the dump: spine01 (LID 1) forwards LID 13 (host03) by port 3
by=$(awk '/Unicast lids .* of switch .*Lid 1 / { on = 1; next }
	/Unicast lids/ { on = 0 } on && $1 == "0x000d" { print $2 + 0 }' "$dump")
[ "$by" = 3 ] || flunk "the dump sends LID 13 from spine01 by '$by'"
got=$(json_get '"%s %s %s %s %s" % (j["job"]["routes"]["links"][0]["node"],
	j["job"]["routes"]["links"][0]["port"],
	j["job"]["routes"]["links"][0]["peer"]["node"],
	j["job"]["routes"]["links"][0]["routes"],
	j["job"]["routes"]["links"][0]["ideal"])' <"$tmp/out")
[ "$got" = "spine01 3 leaf02 2 1" ] || flunk "busiest: $got"
run 0 "$IBTOPO" job 'host[01-03],nosuch' "$topo" --routes "$dump"
grep -qxF "Verdict: spans 2 leaves and 1 spine; spine01 port 3 -> leaf02 carries 2 of the job's 6 routes (ideal 1); 1 host not in the fabric" "$tmp/out" ||
	flunk "verdict: $(grep Verdict "$tmp/out")"
run 0 "$IBTOPO" job 'host[01-03],nosuch' "$topo" --routes "$dump" --format csv
[ "$(sed -n 2p "$tmp/out")" = "spine01,0x1000000000000100,3,leaf02,2,1,false" ] ||
	flunk "csv: $(sed -n 2p "$tmp/out")"

# ---- one leaf: level 1, no spine
run 0 "$IBTOPO" job 'host01,host02' "$topo" --routes "$dump" --format json
got=$(json_get '"%s %s %s" % (j["job"]["common_level"],
	j["job"]["routes"]["spines"], j["job"]["routes"]["hops_max"])' <"$tmp/out")
[ "$got" = "1 [] 2" ] || flunk "one leaf: $got"

# ---- without tables: what it could not judge
run 0 "$IBTOPO" job 'host01,host03' "$topo"
grep -q '^Routes: no forwarding tables, so the links' "$tmp/out" ||
	flunk "no tables: not said"
run 0 "$IBTOPO" job 'host01,host03' "$topo" --format json
[ "$(json_get 'j["job"]["routes"]' <"$tmp/out")" = None ] || flunk "routes not null"

# ---- port health on the job's links: the counters of
# tests/data/hc-ber-2.txt plant SymbolErrorCounter 85 on leaf01 port 39
# (its cable to spine01), which host01 -> host03 crosses and a job on
# leaf01 alone does not
run 0 "$IBTOPO" --db "$tmp/j.db" import "$topo" --label s \
	--counters "$DATA/hc-ber-2.txt" --routes "$dump" || fail "import"
run 0 "$IBTOPO" --db "$tmp/j.db" job 'host01,host03' s --format json
got=$(json_get '" ".join("%s:%s:%s" % (f["kind"], f["a"]["node"], f["a"]["port"])
	for f in j["job"]["findings"])' <"$tmp/out")
[ "$got" = "port-errors:leaf01:39" ] || flunk "bad link: $got"
run 0 "$IBTOPO" --db "$tmp/j.db" job 'host01,host03' s
grep -q "^Verdict: .*; leaf01 port 39: port-errors$" "$tmp/out" ||
	flunk "verdict: $(grep Verdict "$tmp/out")"
run 0 "$IBTOPO" --db "$tmp/j.db" job 'host01,host02' s --format json
[ "$(json_get 'j["job"]["findings"]' <"$tmp/out")" = "[]" ] ||
	flunk "clean placement: $(json_get 'j["job"]["findings"]' <"$tmp/out")"
run 0 "$IBTOPO" job host01 "$topo"
grep -q '^Health: no port counters' "$tmp/out" || flunk "no counters: not said"

# ---- the hostlist syntax: the names the fabric lacks, as written
missing() {
	run 0 "$IBTOPO" job "$1" "$topo" --format json || return
	got=$(json_get '",".join(j["job"]["missing"])' <"$tmp/out")
	[ "$got" = "$2" ] || flunk "'$1': missing $got, wanted $2"
}
missing 'host01,r[1-2]n[01-02]' 'r1n01,r1n02,r2n01,r2n02'
missing 'host[1-2],host01' 'host1,host2'
missing 'host[01,04-05]' 'host05'
missing 'host01,host[008-010]' 'host008,host009,host010'
missing 'host[01-02],host01' ''

# ---- bad hostlists, and none of its hosts: exit 2, said
bad() {
	msg=$1
	shift
	run 2 "$IBTOPO" job "$@" || return
	grep -qF -- "$msg" "$tmp/err" || flunk "'$*': stderr $(cat "$tmp/err")"
}
bad "bad hostlist 'host[3-1]': a range runs from a number up to one" 'host[3-1]' "$topo"
bad "bad hostlist 'host[]'" 'host[]' "$topo"
bad "bad hostlist 'host[a]': a bracket holds numbers and ranges" 'host[a]' "$topo"
bad "bad hostlist 'host[1-2': '[' without numbers and ']'" 'host[1-2' "$topo"
bad "bad hostlist 'host]'" 'host]' "$topo"
bad "bad hostlist 'a,,b': an empty name" 'a,,b' "$topo"
bad "bad hostlist 'a,': an empty name" 'a,' "$topo"
bad "bad hostlist 'a b': a blank in it" 'a b' "$topo"
bad "no host of the hostlist is in the fabric (2 asked, the first 'gpu1')" \
	'gpu[1-2]' "$topo"
bad "no HOSTLIST"
bad "unexpected argument 'x'" host01 "$topo" x
exit "$failed"
