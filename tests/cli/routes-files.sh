#!/bin/sh
# routes-files.sh - `ibtopo routes FILE --routes DUMP` and `analyze
# --routes DUMP` on tests/data/ck-cables.topo with an OpenSM-format dump
# written by hand (tests/data/rt-ck-lfts.dump): the JSON contract, the
# destination LIDs per port against an awk count of the dump, a black
# hole and a loop planted in the dump found once each at the right switch
# and port (exit 1), the leaf pairs' spines used against the spines
# the cables reach (one spine, two cables a leaf), bad dumps and missing tables (exit 2).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables

# ---- a clean dump: the contract's keys and the counts
run 0 "$IBTOPO" routes "$topo" --routes "$dump" --format json
got=$(json_get '"%s %s %s %s %s %s %s %s %s %s" % (j["schema_version"],
	j["routes"]["engine"], j["routes"]["ca_pairs"],
	j["routes"]["unreachable_pairs"], j["routes"]["loops"],
	j["routes"]["credit_loops"], sorted(j["routes"]["hops"].items()),
	j["routes"]["ebb"]["mean"], j["routes"]["ebb"]["bisections"],
	len(j["findings"]))' <"$tmp/out")
[ "$got" = "2 None 12 0 0 0 [('2', 4), ('4', 8)] 1.0 100 0" ] ||
	flunk "clean dump: $got"
# leaf pairs, like with like: one spine, two cables from each leaf; the
# routes use the one spine the cables reach (none underused), beside 2
# edge-disjoint paths (issue 15: used against edge-disjoint said 2 pairs
# were underused)
got=$(json_get '"%s %s %s %s %s" % (j["routes"]["leaf_pairs"]["pairs"],
	j["routes"]["leaf_pairs"]["spines_used"]["max"],
	j["routes"]["leaf_pairs"]["node_disjoint"]["min"],
	j["routes"]["leaf_pairs"]["edge_disjoint"]["min"],
	j["routes"]["leaf_pairs"]["underused"])' <"$tmp/out" 2>&1)
[ "$got" = "1 1.0 1.0 2.0 0" ] || flunk "leaf pairs: $got"
# one convention (issue 23): a pair of leaves counts once, in routes as
# in analyze's path diversity
run 0 "$IBTOPO" analyze "$topo" --routes "$dump" --format json
got=$(json_get '"%s %s" % (j["paths"]["leaf_pairs"]["pairs"],
	j["routes"]["leaf_pairs"]["pairs"])' <"$tmp/out")
[ "$got" = "1 1" ] || flunk "leaf pairs, paths and routes: $got"
run 0 "$IBTOPO" routes "$topo" --routes "$dump"
grep -qxF 'leaf pairs: 1 (each counted once, by the direction that uses fewer spines); 1 spine reachable by cables (median, min 1; node-disjoint paths), 1 spine used by routing (median, min 1); 0 pairs use fewer spines than the cables reach; 2 edge-disjoint paths (median, min 2; parallel cables count)' "$tmp/out" ||
	flunk "leaf pairs text: $(grep 'leaf pairs' "$tmp/out")"
# busiest ports: ties are one line each (issue 23: ten identical host-port
# lines said nothing); this balanced fabric has no port that stands out
sed -n '/^busiest ports/,/^$/p' "$tmp/out" >"$tmp/busiest"
cat >"$tmp/want" <<'EOT'
busiest ports (CA routes, destination LIDs):
  4 host ports with 3 routes each
  8 switch ports with 2 routes each

EOT
same "$tmp/want" "$tmp/busiest" "busiest ports"
# a port that stands out is named, with the tie below it: leaf01's first
# uplink takes LID 14 (host04) from leaf02's uplink that had it
sed -e "/('leaf01'):\$/,/^\$/s/^0x000e 040 /0x000e 039 /" "$dump" >"$tmp/skew.dump"
cmp -s "$dump" "$tmp/skew.dump" && flunk "skewed: the dump did not change"
run 0 "$IBTOPO" routes "$topo" --routes "$tmp/skew.dump"
sed -n '/^busiest ports/,/^$/p' "$tmp/out" >"$tmp/busiest"
grep -qxF '  leaf01 [39]: 4 routes, 4 dlids' "$tmp/busiest" ||
	flunk "skewed: no leaf01 [39] line: $(cat "$tmp/busiest")"
grep -qxF '  4 host ports with 3 routes each' "$tmp/busiest" ||
	flunk "skewed: host ports: $(cat "$tmp/busiest")"
run 0 "$IBTOPO" routes "$topo" --routes "$dump" --format json
# CA routes per port, counted by hand: a host port carries the 3 routes
# to its host, a leaf uplink the 2 routes of its hosts to one remote host
json_get '"\n".join("%s %d %d %d" % (p["node"], p["port"], p["routes"],
	p["dlids"]) for p in j["routes"]["ports"])' <"$tmp/out" >"$tmp/ports"
grep -qx 'leaf01 39 2 3' "$tmp/ports" || flunk "leaf01[39]: $(cat "$tmp/ports")"
grep -qx 'leaf02 2 3 1' "$tmp/ports" || flunk "leaf02[2]: $(cat "$tmp/ports")"
grep -qx 'spine01 3 2 2' "$tmp/ports" || flunk "spine01[3]: $(cat "$tmp/ports")"
# destination LIDs per out-port: an independent count from the dump
awk '/^Unicast lids/ { sw = $0; sub(/.*\(\047/, "", sw); sub(/\047\).*/, "", sw) }
	/^0x/ && $2 + 0 > 0 { n[sw " " ($2 + 0)]++ }
	END { for (k in n) print k, n[k] }' "$dump" | sort >"$tmp/awk"
awk '{ print $1, $2, $4 }' "$tmp/ports" | sort >"$tmp/ours"
same "$tmp/awk" "$tmp/ours" "destination LIDs per port"

# the same dump from standard input, and in analyze
run 0 "$IBTOPO" routes "$topo" --routes - --format json <"$dump"
got=$(json_get 'j["routes"]["ca_pairs"]' <"$tmp/out")
[ "$got" = 12 ] || flunk "--routes -: $got"
run 0 "$IBTOPO" analyze "$topo" --routes "$dump" --format json
got=$(json_get '"%s %s" % (j["routes"]["ca_pairs"], "paths" in j)' <"$tmp/out")
[ "$got" = "12 True" ] || flunk "analyze --routes: $got"

# ---- planted: spine01 drops LID 13 (host03)
sed 's/^0x000d 003 /0x000d 255 /' "$dump" >"$tmp/hole.dump"
run 1 "$IBTOPO" routes "$topo" --routes "$tmp/hole.dump" --format json
# END B is the far end of END A's cable (none for port 255), the
# destination its own key (issue 23 item 11)
got=$(json_get '";".join("%s %s %s %s %s %s %s %s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["b"]["node"], f["destination"], f["lid"], f["routes"],
	f["detail"]) for f in j["findings"])' <"$tmp/out")
[ "$got" = "route-black-hole spine01 255 None host03 mlx5_0 13 2 no-entry" ] ||
	flunk "black hole: $got"
got=$(json_get '"%s %s" % (j["routes"]["unreachable_pairs"],
	j["routes"]["black_holes"])' <"$tmp/out")
[ "$got" = "2 1" ] || flunk "black hole counts: $got"
run 1 "$IBTOPO" analyze "$topo" --routes "$tmp/hole.dump"
grep -q 'route-black-hole' "$tmp/out" || flunk "analyze: no black hole"

# ---- planted: spine01 sends LID 13 back to leaf01, which sends it up
sed 's/^0x000d 003 /0x000d 001 /' "$dump" >"$tmp/loop.dump"
run 1 "$IBTOPO" routes "$topo" --routes "$tmp/loop.dump" --format json
got=$(json_get '";".join("%s %s %s %s %s %s %s %s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["b"]["node"], f["b"]["port"], f["destination"],
	f["lid"], f["routes"]) for f in j["findings"])' <"$tmp/out")
[ "$got" = "route-loop spine01 1 leaf01 39 host03 mlx5_0 13 2" ] ||
	flunk "loop: $got"

# ---- text: the summary and the finding
run 1 "$IBTOPO" routes "$topo" --routes "$tmp/loop.dump"
grep -q '^faults: 0 black holes, 1 loop, ' "$tmp/out" ||
	flunk "text: $(head -3 "$tmp/out")"

# ---- a switch the fabric lacks: a warning
{ cat "$dump"; echo "Unicast lids [0-1] of switch Lid 9 guid 0x0000000000000999 ('gone'):"; echo "0x0001 001 # x"; } >"$tmp/extra.dump"
run 0 "$IBTOPO" routes "$topo" --routes "$tmp/extra.dump"
same_err="ibtopo: warning: $tmp/extra.dump: 1 switch table for switches the fabric does not have"
stderr_line=$(cat "$tmp/err")
[ "$stderr_line" = "$same_err" ] || flunk "warning: $stderr_line"

# ---- errors
printf 'hello\n' >"$tmp/bad.dump"
run 2 "$IBTOPO" routes "$topo" --routes "$tmp/bad.dump" &&
	stderr_is "ibtopo: $tmp/bad.dump:1: expected a routing table line ('Unicast lids [A-B] of switch ... guid 0x...:', 'dump_ucast_routes: Switch 0x...' or '0xLID PORT')"
run 2 "$IBTOPO" routes "$topo" &&
	stderr_is "ibtopo: no forwarding tables (discover --routes, or --routes DUMP)"
run 2 "$IBTOPO" routes "$topo" --routes "$dump" --bisections x
run 2 "$IBTOPO" routes "$topo" --routes "$tmp/none.dump" &&
	grep -q "none.dump" "$tmp/err" || flunk "missing dump: $(cat "$tmp/err")"
exit "$failed"
