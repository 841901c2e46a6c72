#!/bin/sh
# import-counters.sh - `ibtopo import FILE --counters CFILE`: perfquery
# (basic and -x blocks) and ibqueryerrors output attach counters to the
# snapshot's ports, read at the file's mtime; `health` reports them, and
# between two imports an hour apart names the port whose SymbolErrorCounter
# grew 12/h and the LinkDownedCounter growth. Ports the fabric lacks give
# one warning; bad input fails with FILE:LINE and stores nothing.
# ibdiagnet2.pm and the db_csv's PM_INFO import the same way; `health
# --counters ibdiagnet2.db_csv --pm-pause 60` turns PM_DELTA into rates.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables db

# copies with known mtimes: the read time of the counters
hour_apart "$DATA/hc-perfquery.txt" "$tmp/pq1.txt" \
	"$DATA/hc-perfquery-later.txt" "$tmp/pq2.txt"
copy_at "$DATA/hc-ibqueryerrors.txt" "$tmp/iqe.txt" '2026-01-01 10:00:00 UTC'

# ---- perfquery: one unknown LID, one warning
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq1.txt" &&
	grep -q '^snapshot 1:' "$tmp/out" ||
	flunk "import: $(cat "$tmp/out")"
printf '%s\n' "ibtopo: warning: $tmp/pq1.txt: 1 port not in the fabric; their counters are left out" >"$tmp/want"
same "$tmp/want" "$tmp/err"
run 0 "$IBTOPO" health --format json
got=$(json_get '";".join("%s/%d=%s,%s,%s,%s" % (p["node"], p["port"], p["read_at_ms"],
	p["counters"]["SymbolErrorCounter"], p["counters"]["PortXmitData"],
	p["counters"]["PortRcvErrors"]) for p in j["ports"])' <"$tmp/out")
[ "$got" = "leaf01/39=1767261600000,12,123456789012,0;host01 mlx5_0/1=1767261600000,0,None,5" ] ||
	flunk "perfquery counters: $got"
got=$(json_get '" ".join(sorted("%s:%s/%d:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["counter"]) for f in j["findings"]))' <"$tmp/out")
[ "$got" = "port-errors:host01 mlx5_0/1:PortRcvErrors port-errors:leaf01/39:LinkDownedCounter port-errors:leaf01/39:SymbolErrorCounter" ] ||
	flunk "perfquery findings: $got"

# ---- an hour later: the growth is a rate, the link-downed growth flaps
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq2.txt"
run 1 "$IBTOPO" health --since 1 --format json
got=$(json_get '" ".join(sorted("%s:%s/%d-%s/%d:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["b"]["node"], f["b"]["port"], f.get("counter"))
	for f in j["findings"] if f["kind"] != "port-errors"))' <"$tmp/out")
[ "$got" = "link-flapping:leaf01/39-spine01/1:LinkDownedCounter port-error-rate:leaf01/39-spine01/1:SymbolErrorCounter" ] ||
	flunk "findings between the two: $got"
run 1 "$IBTOPO" health --since 1
grep 'leaf01' "$tmp/out" | grep -q '12' ||
	flunk "health text names no rate on leaf01: $(cat "$tmp/out")"

# ---- ibqueryerrors: by GUID; "port ALL" and an unknown GUID are left out
run 0 "$IBTOPO" import "$topo" --counters "$tmp/iqe.txt"
printf '%s\n' "ibtopo: warning: $tmp/iqe.txt: 2 ports not in the fabric; their counters are left out" >"$tmp/want"
same "$tmp/want" "$tmp/err"
run 0 "$IBTOPO" health latest --format json
got=$(json_get '";".join("%s/%d=%s,%s,%s" % (p["node"], p["port"],
	p["counters"]["SymbolErrorCounter"], p["counters"]["PortRcvErrors"],
	p["counters"]["PortXmitData"]) for p in j["ports"])' <"$tmp/out")
[ "$got" = "leaf01/39=12,None,None;host01 mlx5_0/1=None,5,8589934592" ] ||
	flunk "ibqueryerrors counters: $got"

# ---- bad input: FILE:LINE, exit 2, nothing stored
printf '# Port counters: Lid 2 port 39\nSymbolErrorCounter:....x\n' >"$tmp/bad.txt"
run 2 "$IBTOPO" import "$topo" --counters "$tmp/bad.txt" &&
	stderr_is "ibtopo: $tmp/bad.txt:2: expected a number after 'SymbolErrorCounter:'"
run 2 "$IBTOPO" import "$topo" --counters "$topo" &&
	stderr_is "ibtopo: $topo:1: expected counters: perfquery, ibqueryerrors, ibdiagnet2.pm or ibdiagnet2.db_csv output"
run 2 "$IBTOPO" import "$topo" --counters "$tmp/none.txt"
grep -q "^ibtopo: .*none.txt" "$tmp/err" || flunk "missing file: $(cat "$tmp/err")"
run 0 "$IBTOPO" snapshots
[ "$(grep -c '^ *[0-9]' "$tmp/out")" = 3 ] ||
	flunk "a failed import stored a snapshot: $(cat "$tmp/out")"
# ---- ibdiagnet2.pm: by GUID and port number, snake-case names, NA
copy_at "$DATA/hc-ibdiagnet2.pm" "$tmp/ibdiagnet2.pm" '2026-01-01 12:00:00 UTC'
run 0 "$IBTOPO" import "$topo" --counters "$tmp/ibdiagnet2.pm"
run 0 "$IBTOPO" health latest --format json
got=$(json_get '";".join("%s/%d=%s,%s,%s,%s" % (p["node"], p["port"], p["read_at_ms"],
	p["counters"]["SymbolErrorCounter"], p["counters"]["PortXmitDiscards"],
	p["counters"].get("PortXmitData")) for p in j["ports"])' <"$tmp/out")
[ "$got" = "leaf01/39=1767268800000,12,7,123456789012;host01 mlx5_0/1=1767268800000,0,None,None" ] ||
	flunk "ibdiagnet2.pm counters: $got"

# ---- ibdiagnet2.db_csv: PM_INFO, and PM_DELTA's growth over the pause
run 1 "$IBTOPO" health latest --counters "$DATA/hc-ibdiagnet2.db_csv" \
	--pm-pause 60 --format json
got=$(json_get '" ".join("%s:%s/%d:%s:%s:%.0f" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["counter"], f["growth"], f["rate_per_hour"])
	for f in j["findings"] if f["kind"] != "port-errors")' <"$tmp/out")
[ "$got" = "port-error-rate:leaf01/39:SymbolErrorCounter:2:120" ] ||
	flunk "PM_DELTA findings: $got"
run 2 "$IBTOPO" health latest --counters "$DATA/hc-ibdiagnet2.db_csv" --pm-pause 0
grep -q "bad --pm-pause '0'" "$tmp/err" || flunk "--pm-pause 0: $(cat "$tmp/err")"
# without PM_DELTA (import stores PM_INFO only): no growth
run 0 "$IBTOPO" import "$topo" --counters "$DATA/hc-ibdiagnet2.db_csv"
run 0 "$IBTOPO" health latest --format json
got=$(json_get '" ".join(sorted("%s/%d:%s" % (p["node"], p["port"],
	p["counters"]["SymbolErrorCounter"]) for p in j["ports"]))' <"$tmp/out")
[ "$got" = "host01 mlx5_0/1:0 leaf01/39:12 leaf02/39:70000" ] ||
	flunk "db_csv PM_INFO: $got"
exit "$failed"
