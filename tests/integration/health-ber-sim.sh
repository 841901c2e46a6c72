#!/bin/sh
# health-ber-sim.sh - under ibsim, the bit error rate and the congestion
# of `health --since` name exactly the ports whose counters were set
# between two `discover --counters` (a 44-node fat tree, every link
# 4xHDR: 53.125 Gb/s a lane): leaf001 port 5 receives 40 symbol errors
# (its peer spine001 port 1), spine002 port 3 waits 4,000,000,000 ticks
# (32e9 bytes lost: far above 5% of 200 Gb/s over a few seconds). The
# BER is 40 / (the stored interval x 4 x 53.125e9) within rounding; no
# other port has high-ber or congested-port; --heat errors colours that
# link alone; --history shows the growth.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

gen_fattree 8 2 "$TESTDIR/ft.net"
sim_start "$TESTDIR/ft.net"
SIM_HOST=h00001
export SIM_HOST
sim_opensm

sim_client "$IBTOPO" --db "$DB" discover --counters --label before \
	>/dev/null 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover 1"; }
sleep 1
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=40'
sim_cmd 'PerformanceSet "spine002"[3] PortCounters.PortXmitWait=4000000000'
sim_client "$IBTOPO" --db "$DB" discover --counters --label after \
	>/dev/null 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover 2"; }

sim_client "$IBTOPO" --db "$DB" health after --since before --format json \
	>"$TESTDIR/h.json"
[ $? = 1 ] || fail "health --since did not exit 1"
cat >"$TESTDIR/check.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def end(e):
    return "%s:%s" % (e["node"], e["port"])
kinds = sorted((f["kind"], end(f["a"]), end(f["b"])) for f in j["findings"]
               if f["kind"] in ("high-ber", "congested-port"))
assert kinds == [("congested-port", "spine002:3", "leaf003:6"),
                 ("high-ber", "leaf001:5", "spine001:1")], kinds
p = [x for x in j["ports"] if end(x) == "leaf001:5"][0]
s = p["interval_h"] * 3600
want = 40 / (s * 4 * 53.125e9)
assert p["lanes"] == 4 and p["lane_gbps"] == 53.125, p
assert abs(p["ber"] - want) <= 1e-5 * want, (p["ber"], want)
f = [f for f in j["findings"] if f["kind"] == "high-ber"][0]
assert abs(f["measure"] - want) <= 1e-5 * want, (f, want)
assert abs(f["interval_s"] - s) < 0.01, (f, s)
bad = [end(l["a"]) for l in j["links"] if l["ber"] is not None]
assert bad == ["leaf001:5"], bad
zero = [l for l in j["links"] if l["ber"] is None and not l["ber_upper_bound"] > 0]
assert not zero, zero[:1]
c = j["congestion"]["ports"][0]
assert end(c) == "spine002:3" and c["direction"] == "down" and c["level"] == 2, c
print("ok")
PY
out=$("$PYTHON3" "$TESTDIR/check.py" "$TESTDIR/h.json" 2>&1) ||
	{ echo "$out" >&2; fail "health BER and congestion"; }

# --heat errors: that link alone is coloured
sim_client "$IBTOPO" --db "$DB" render after --since before --heat errors \
	-o "$TESTDIR/heat.dot" 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "render --heat errors"; }
got=$(grep -- ' -> ' "$TESTDIR/heat.dot" | grep -v 'color="#fed976"' |
	sed -n 's/.*tooltip="\([^:]*\):.*/\1/p' | tr '\n' ' ')
[ "$got" = "spine001 [1] -- leaf001 [5] " ] || fail "--heat errors colours '$got'"

# --history: the growth of leaf001 port 5 between the snapshots
sim_client "$IBTOPO" --db "$DB" health --history leaf001:5 --format json \
	>"$TESTDIR/hist.json" || fail "health --history"
got=$(json_get '[(s["label"], s["state"], s["counters"]["SymbolErrorCounter"],
	s.get("growth", {}).get("SymbolErrorCounter"), s.get("ber") is not None)
	for s in j["ports"][0]["snapshots"]] + [j["ports"][1]["node"]]' <"$TESTDIR/hist.json")
[ "$got" = "[('before', 'active', 0, None, False), ('after', 'active', 40, 40, True), 'spine001']" ] ||
	fail "--history: $got"
exit 0
