#!/bin/sh
# analyze-health.sh - `ibtopo analyze` has a port health section: a
# snapshot whose ports carry counters gets port-errors findings for the
# error counters above the default thresholds (naming both ends of the
# cable), one without counters none; `render` draws the cables of those
# findings as cable problems, and `analyze` exits 0 on these warnings.
# With cable data (--cables), a cable over length or under-rated whose
# ports have errors is ONE failing-cable finding with both causes.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables db

run 0 "$IBTOPO" import "$topo"
run 0 "$IBTOPO" import "$topo" --counters "$DATA/hc-perfquery.txt"

# ---- without counters: no port health findings
run 0 "$IBTOPO" analyze 1 --format json
got=$(json_get '" ".join(f["kind"] for f in j["findings"]
	if f["kind"].startswith("port-"))' <"$tmp/out")
[ -z "$got" ] || flunk "findings without counters: $got"

# ---- with counters: exactly the ports whose error counters are not 0
run 0 "$IBTOPO" analyze 2 --format json
got=$(json_get '" ".join(sorted("%s:%s/%d-%s/%d" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["b"]["node"], f["b"]["port"]) for f in j["findings"]
	if f["kind"].startswith("port-")))' <"$tmp/out")
[ "$got" = "port-errors:host01 mlx5_0/1-leaf01/1 port-errors:leaf01/39-spine01/1 port-errors:leaf01/39-spine01/1" ] ||
	flunk "analyze port health: $got"
run 0 "$IBTOPO" analyze 2
grep -q 'port-errors .*leaf01 \[39\].*spine01 \[1\].*SymbolErrorCounter is 12' "$tmp/out" ||
	flunk "analyze text: $(cat "$tmp/out")"

# ---- render marks those two cables, and only those
run 0 "$IBTOPO" render -o "$tmp/without.dot" 1
run 0 "$IBTOPO" render -o "$tmp/with.dot" 2
grep -c 'color="#ff7f0e"' "$tmp/without.dot" >"$tmp/n0"
[ "$(cat "$tmp/n0")" = 0 ] || flunk "cable marks without counters: $(cat "$tmp/n0")"
grep 'color="#ff7f0e"' "$tmp/with.dot" | sed 's/.*tooltip="\([^:]*\):.*/\1/' |
	sort >"$tmp/marked"
printf '%s\n' 'leaf01 [1] -- host01 mlx5_0 [1]' 'spine01 [1] -- leaf01 [39]' >"$tmp/want"
same "$tmp/want" "$tmp/marked"
# ---- cable checks and port errors on the same cable: one finding each
run 1 "$IBTOPO" analyze 2 --cables "$DATA/ck-cables.csv" --format json
got=$(json_get '" ".join(sorted("%s:%s/%d-%s/%d:%s:%s:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["b"]["node"], f["b"]["port"], f.get("counter"),
	f.get("count"), f.get("cause")) for f in j["findings"]
	if f["kind"].startswith(("port-", "cable-", "failing-"))))' <"$tmp/out")
[ "$got" = "cable-over-length:leaf01/2-host02 mlx5_0/1:None:None:None failing-cable:host01 mlx5_0/1-leaf01/1:PortRcvErrors:5:cable failing-cable:leaf01/39-spine01/1:SymbolErrorCounter:12:cable" ] ||
	flunk "merged findings: $got"
run 1 "$IBTOPO" analyze 2 --cables "$DATA/ck-cables.csv"
grep -q 'failing-cable .*aoc cable is 45 m, beyond the 30 m its media reaches, and SymbolErrorCounter is 12 (threshold 0) (and 1 more error counter)' "$tmp/out" ||
	flunk "over-length and errors: $(cat "$tmp/out")"
grep -q 'failing-cable .*cable is rated EDR but both ports run up to HDR, and PortRcvErrors is 5' "$tmp/out" ||
	flunk "under-rated and errors: $(cat "$tmp/out")"
# without counters the cable findings stay as they were
run 1 "$IBTOPO" analyze 1 --cables "$DATA/ck-cables.csv" --format json
got=$(json_get '" ".join(sorted(f["kind"] for f in j["findings"]
	if f["kind"].startswith(("port-", "cable-", "failing-"))))' <"$tmp/out")
[ "$got" = "cable-over-length cable-over-length cable-underrated" ] ||
	flunk "cable findings without counters: $got"

# ---- --thresholds: the site's thresholds, as health reads them
printf '# site\nSymbolErrorCounter=12\nPortRcvErrors = 10\n' >"$tmp/thr"
run 0 "$IBTOPO" analyze 2 --thresholds "$tmp/thr" --format json
got=$(json_get '" ".join(sorted("%s:%s/%d:%s:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f["counter"], f["threshold"]) for f in j["findings"]
	if f["kind"].startswith("port-")))' <"$tmp/out")
[ "$got" = "port-errors:leaf01/39:LinkDownedCounter:0" ] ||
	flunk "analyze --thresholds: $got"
# failing-cable uses them too: host01's cable is only under-rated now
run 1 "$IBTOPO" analyze 2 --thresholds "$tmp/thr" \
	--cables "$DATA/ck-cables.csv" --format json
got=$(json_get '" ".join(sorted("%s:%s/%d:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"], f.get("counter")) for f in j["findings"]
	if f["kind"].startswith(("port-", "cable-", "failing-"))))' <"$tmp/out")
[ "$got" = "cable-over-length:leaf01/2:None cable-underrated:leaf01/1:None failing-cable:leaf01/39:LinkDownedCounter" ] ||
	flunk "failing-cable with --thresholds: $got"
# a bad file fails the run, naming its line
printf 'SymbolErrorCounter=many\n' >"$tmp/bad"
run 2 "$IBTOPO" analyze 2 --thresholds "$tmp/bad"
grep -q "^ibtopo: .*bad:1: bad value for SymbolErrorCounter" "$tmp/err" ||
	flunk "bad thresholds: $(cat "$tmp/err")"
exit "$failed"
