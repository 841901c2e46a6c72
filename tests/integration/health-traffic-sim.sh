#!/bin/sh
# health-traffic-sim.sh - the traffic part of `ibtopo health --since`
# under ibsim: bytes a link carried between two `discover --counters`
# snapshots, and per-level utilisation.
#
# ibsim's data counters move by themselves (72 words a MAD hop), and its
# console's PerformanceSet sets PortCounters.PortXmitData/PortRcvData and
# PortCountersExtended.PortXmitData/PortRcvData (ibsim sim_cmd.c, since
# 0.10). Between the snapshots leaf001 port 5 (its peer spine001 port 1)
# is set to V words sent, and spine001 port 1 to V words received, in
# both counter sets: the link must be the busiest, carrying 4 x (V - its
# first reading) bytes leaf001 -> spine001 (plus the few MADs after the
# set), at gbps = bytes x 8 / interval and utilisation = busier
# direction / capacity; its level's bytes include it, against capacity.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_fattree 8 2

sim_counters before
sim_client "$IBTOPO" --db "$DB" health --format json before \
	>"$TESTDIR/h1.json" || fail "health of the first snapshot"
x0=$(json_get "[p['counters']['PortXmitData'] for p in j['ports']
	if p['node'] == 'leaf001' and p['port'] == 5][0]" <"$TESTDIR/h1.json") ||
	fail "no PortXmitData of leaf001 port 5 in the first snapshot"

V=2500000000
sleep 2
for set in PortCounters PortCountersExtended; do
	sim_cmd "PerformanceSet \"leaf001\"[5] $set.PortXmitData=$V"
	sim_cmd "PerformanceSet \"spine001\"[1] $set.PortRcvData=$V"
done
grep -q '# field not found\|# bad\|not valid' "$TESTDIR/ibsim.log" &&
	fail "ibsim refused PerformanceSet: $(grep '^#' "$TESTDIR/ibsim.log")"
sim_counters after

sim_health "$TESTDIR/h2.json" 0 "health --since (no errors)" \
	after --since before --format json
cat >"$TESTDIR/check.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
v, x0 = int(sys.argv[2]), int(sys.argv[3])
t = j["traffic"]
top = t["links"][0]
ends = {(top["a"]["node"], top["a"]["port"]), (top["b"]["node"], top["b"]["port"])}
assert ends == {("leaf001", 5), ("spine001", 1)}, ("busiest", top)
sent = top["bytes_ab"] if top["a"]["node"] == "leaf001" else top["bytes_ba"]
gbps = top["gbps_ab"] if top["a"]["node"] == "leaf001" else top["gbps_ba"]
want = 4 * (v - x0)
# the second discovery's MADs through that port after the set: a few
assert want <= sent <= want + 4 * 72 * 1000, ("bytes", sent, want)
h = top["interval_h"]
assert 1.5 / 3600 < h < 60 / 3600, ("interval", h)
assert abs(gbps - sent * 8 / (h * 3600) / 1e9) < 1e-3 * gbps, ("gbps", gbps)
assert top["gbps"] == 200, ("capacity (HDR 4x)", top["gbps"])
busier = max(top["gbps_ab"], top["gbps_ba"])
assert abs(top["utilisation"] - busier / 200) < 1e-3 * busier / 200, top
assert 0.01 < top["utilisation"] < 1, ("utilisation", top["utilisation"])
# every other link carried only MADs
for o in t["links"][1:]:
    assert o["bytes_ab"] + o["bytes_ba"] < sent / 1000, ("quiet link", o)
lv = [l for l in t["by_level"] if l["level"] == top["level"]]
assert len(lv) == 1, t["by_level"]
lv = lv[0]
assert lv["bytes"] >= top["bytes_ab"] + top["bytes_ba"], lv
assert abs(lv["utilisation"] - lv["bytes"] / lv["capacity_bytes"]) < 1e-6, lv
assert lv["utilisation"] > 0, lv
print("%d %.4f %.6f" % (sent, top["utilisation"], lv["utilisation"]))
PY
out=$("$PYTHON3" "$TESTDIR/check.py" "$TESTDIR/h2.json" "$V" "$x0" 2>&1) ||
	{ echo "$out" >&2; fail "health --since traffic JSON"; }
echo "bytes, link and level utilisation: $out"

# the text report: that link first, its bytes and its share of the link
sim_client "$IBTOPO" --db "$DB" health after --since before >"$TESTDIR/h2.txt"
sed -n '/^busiest links/{n;p;}' "$TESTDIR/h2.txt" >"$TESTDIR/first"
grep -q 'leaf001 port 5 <-> spine001 port 1  10.0 GB, .* of 200 Gb/s' \
	"$TESTDIR/first" ||
grep -q 'spine001 port 1 <-> leaf001 port 5  .*, 10.0 GB.* of 200 Gb/s' \
	"$TESTDIR/first" ||
	{ cat "$TESTDIR/h2.txt"; fail "text: the busiest link"; }
grep -q '^utilisation per level' "$TESTDIR/h2.txt" ||
	{ cat "$TESTDIR/h2.txt"; fail "text: no utilisation per level"; }
exit 0
