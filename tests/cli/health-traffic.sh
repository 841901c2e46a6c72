#!/bin/sh
# health-traffic.sh - `ibtopo health --since REF`: the bytes each link
# carried between the snapshots (PortXmitData growth x 4, else the peer's
# PortRcvData), busiest first, --top N of them, and per level (host links,
# then switch levels) the bytes against the links' capacity, in the text
# and in the JSON "traffic" object next to ports and findings. One hour
# apart on 4xHDR (200 Gb/s each way, 9e13 bytes an hour):
#   spine01 1 -> leaf01 39  9e12 B, leaf01 39 -> spine01 1  1.8e13 B (20%)
#   host01 -> leaf01 1      3.6e12 B (4%; the link's a end is leaf01)
#   spine01 3 -> leaf02 39  1.8e12 B (leaf02's PortRcvData; 2%)
# host links 3.6e12 of 1.8e14 (2%), level 1 2.88e13 of 3.6e14 (8%).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables db

hour_apart "$DATA/hc-traffic-1.txt" "$tmp/t1.txt" \
	"$DATA/hc-traffic-2.txt" "$tmp/t2.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/t1.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/t2.txt"

run 0 "$IBTOPO" health 2 --since 1 --format json
got=$(json_get '(sorted(j.keys()) == ["congestion", "counters_unread", "fabric", "findings", "links", "ports", "schema_version", "traffic"] and
	" ".join("%s/%d-%s/%d:%d:%d:%d:%.0f" % (l["a"]["node"], l["a"]["port"],
	l["b"]["node"], l["b"]["port"], l["level"], l["bytes_ab"], l["bytes_ba"],
	l["utilisation"] * 100) for l in j["traffic"]["links"]))' <"$tmp/out")
[ "$got" = "spine01/1-leaf01/39:1:9000000000000:18000000000000:20 leaf01/1-host01 mlx5_0/1:0:0:3600000000000:4 spine01/3-leaf02/39:1:1800000000000:0:2" ] ||
	flunk "busiest links: $got"
got=$(json_get '" ".join("%d:%d:%d:%.0f:%.2f" % (v["level"], v["links"], v["bytes"],
	v["capacity_bytes"], v["utilisation"]) for v in j["traffic"]["by_level"])' <"$tmp/out")
[ "$got" = "0:1:3600000000000:180000000000000:0.02 1:2:28800000000000:360000000000000:0.08" ] ||
	flunk "levels: $got"

# ---- --top 2 lists the two busiest; the text says the same
run 0 "$IBTOPO" health 2 --since 1 --top 2 --format json
got=$(json_get 'len(j["traffic"]["links"])' <"$tmp/out")
[ "$got" = 2 ] || flunk "--top 2 listed $got links"
run 0 "$IBTOPO" health 2 --since 1 --top 2
grep -q '^busiest links (2 of 3' "$tmp/out" || flunk "text: $(cat "$tmp/out")"
grep -q '^  spine01 port 1 <-> leaf01 port 39  9.0 TB, 18.0 TB  20.0% of 200 Gb/s (level 1 up)$' "$tmp/out" ||
	flunk "text busiest: $(cat "$tmp/out")"
grep -q '^  level 1 up        2 links  28.8 TB  8.00%$' "$tmp/out" ||
	flunk "text levels: $(cat "$tmp/out")"
run 2 "$IBTOPO" health 2 --since 1 --top 0
# ---- one snapshot: no traffic object
run 0 "$IBTOPO" health 2 --format json
got=$(json_get '"traffic" in j' <"$tmp/out")
[ "$got" = False ] || flunk "traffic without --since"
exit "$failed"
