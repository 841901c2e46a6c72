#!/bin/sh
# health-sim.sh - `ibtopo health` names the ports whose error counters
# grew between two `discover --counters` snapshots, with their rates.
#
# A 44-node fat tree under ibsim (opensm assigns LIDs: PMA is LID-routed).
# Before the first snapshot SymbolErrorCounter is set on leaf001 port 5
# (its peer is spine001 port 1). Between the snapshots, through the ibsim
# console: leaf001 port 5 gains 20 symbol errors, h00032 port 1 3
# LocalLinkIntegrityErrors, leaf002 port 6 LinkDownedCounter is set to
# 1000 (ibsim saturates it at 255: a flapping link, growth "at least"),
# and `Error "spine001"[1] 50` drops half of what spine001 receives on
# port 1 while a discovery without counters sends SMPs through it
# (PortRcvErrors grow). Checked: exactly those four ports have growth
# findings, with the right kinds, peers, growth and rate = growth /
# interval; port-errors alone in the first snapshot names leaf001 port 5;
# --fail-on, --thresholds and the JSON contract. The same erring cable is
# named by `analyze` (its port health section), by `diff` (the growth and
# its rate) and by the diagram of that diff (a cable problem).
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_fattree 8 2

sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=11'
sim_counters before

# one snapshot: port-errors (a warning) on leaf001 port 5 only
sim_health "$TESTDIR/h1.json" 0 "health of one snapshot (warnings only)" \
	--format json before
got=$(json_get "sorted('%s:%s %s %s %s' % (f['a']['node'], f['a']['port'], f['kind'], f['counter'], f['count']) for f in j['findings'])" \
	<"$TESTDIR/h1.json")
[ "$got" = "['leaf001:5 port-errors SymbolErrorCounter 11']" ] ||
	fail "one snapshot findings: $got"
n=$(json_get "len(j['ports'])" <"$TESTDIR/h1.json")
[ "$n" = 128 ] || fail "$n ports in health JSON, wanted 128"
sim_client "$IBTOPO" --db "$DB" health --fail-on warning before >/dev/null
[ $? = 1 ] || fail "--fail-on warning did not exit 1"
printf 'SymbolErrorCounter=11\n# more\n' >"$TESTDIR/thr"
sim_client "$IBTOPO" --db "$DB" health --thresholds "$TESTDIR/thr" \
	--fail-on warning before >"$TESTDIR/out" || fail "threshold 11 still finds"
printf 'SymbolErrors=1\n' >"$TESTDIR/thr-bad"
sim_client "$IBTOPO" --db "$DB" health --thresholds "$TESTDIR/thr-bad" \
	before >/dev/null 2>"$TESTDIR/err"
[ $? = 2 ] && grep -q "thr-bad:1: unknown counter 'SymbolErrors'" "$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "bad thresholds file"; }

sleep 2
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=31'
sim_cmd 'PerformanceSet "h00032"[1] PortCounters.LocalLinkIntegrityErrors=3'
sim_cmd 'PerformanceSet "leaf002"[6] PortCounters.LinkDownedCounter=1000'
sim_cmd 'Error "spine001"[1] 50'
sim_client "$IBTOPO" --db "$TESTDIR/scratch.db" discover --partial \
	>/dev/null 2>&1
sim_cmd 'Error "spine001"[1] 0'
sim_counters after

sim_health "$TESTDIR/h2.json" 1 "health --since (errors)" \
	after --since before --format json
cat >"$TESTDIR/check.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema_version"] == 2, "schema_version"
grew = {}
for f in j["findings"]:
    if f["kind"] in ("port-errors", "high-ber", "congested-port"):
        continue  # health-ber-sim.sh checks the last two
    a = "%s:%s" % (f["a"]["node"], f["a"]["port"])
    b = "%s:%s" % (f["b"]["node"], f["b"]["port"])
    grew[a] = (f["kind"], f["counter"], b, f["growth"], f["rate_per_hour"],
               f["interval_h"], f.get("detail"))
want = {"leaf001:5", "h00032:1", "leaf002:6", "spine001:1"}
assert set(grew) == want, "growth findings on %s, wanted %s" % (sorted(grew), sorted(want))
def check(port, kind, counter, peer, growth, detail=None):
    k, c, b, g, r, h, d = grew[port]
    assert (k, c, b, d) == (kind, counter, peer, detail), (port, grew[port])
    assert growth is None or g == growth, (port, g, growth)
    assert h > 0.0004 and h < 0.05, (port, "interval", h)
    assert abs(r - g / h) < 1e-3 * max(1, r), (port, "rate", r, g / h)
check("leaf001:5", "port-error-rate", "SymbolErrorCounter", "spine001:1", 20)
check("h00032:1", "port-error-rate", "LocalLinkIntegrityErrors", "leaf008:4", 3)
check("leaf002:6", "link-flapping", "LinkDownedCounter", "spine002:2", 255, "saturated")
check("spine001:1", "port-error-rate", "PortRcvErrors", "leaf001:5", None)
# per port: the interval and the rates, the saturated counter said
p = [x for x in j["ports"] if x["node"] == "leaf002" and x["port"] == 6][0]
assert p["saturated"] == ["LinkDownedCounter"], p["saturated"]
assert p["counters"]["LinkDownedCounter"] == 255
p = [x for x in j["ports"] if x["node"] == "leaf001" and x["port"] == 5][0]
assert p["growth"]["SymbolErrorCounter"] == 20 and p["reset"] == []
print("ok")
PY
out=$("$PYTHON3" "$TESTDIR/check.py" "$TESTDIR/h2.json" 2>&1) ||
	{ echo "$out" >&2; fail "health --since JSON"; }

# text names both ends and the rate
sim_client "$IBTOPO" --db "$DB" health after --since before >"$TESTDIR/h2.txt"
grep -q 'SymbolErrorCounter grew by 20 in [0-9]* s ([0-9.]*/h)' "$TESTDIR/h2.txt" ||
	{ cat "$TESTDIR/h2.txt"; fail "text health"; }

# the two the wrong way round: refused, both named (issue 33)
sim_client "$IBTOPO" --db "$DB" health before --since after \
	>"$TESTDIR/out" 2>"$TESTDIR/err"
[ $? = 2 ] && grep -q "^ibtopo: --since, snapshot 2 ('after', .*), is later than REF, snapshot 1 ('before', .*): the interval runs backwards (swap them)$" \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "backwards health"; }

# a reset is said, not a negative rate: the counter cleared on the
# fabric, lower than it was
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=4'
sim_counters cleared
sim_client "$IBTOPO" --db "$DB" health cleared --since after --format json \
	>"$TESTDIR/h3.json"
json_get "[p['reset'] for p in j['ports'] if p['node'] == 'leaf001' and p['port'] == 5][0]" \
	<"$TESTDIR/h3.json" >"$TESTDIR/reset" || fail "reversed health"
grep -q "SymbolErrorCounter" "$TESTDIR/reset" || fail "no reset said"
neg=$(json_get "min(r for p in j['ports'] for r in p.get('rate_per_hour', {}).values())" \
	<"$TESTDIR/h3.json")
case $neg in -*) fail "negative rate $neg" ;; esac

# analyze: the ports' counts above threshold (one snapshot)
"$IBTOPO" --db "$DB" analyze after --format json >"$TESTDIR/a.json"
got=$(json_get "sorted('%s:%s %s' % (f['a']['node'], f['a']['port'], f['counter'])
	for f in j['findings'] if f['kind'] == 'port-errors' and
	f['counter'] in ('SymbolErrorCounter', 'LocalLinkIntegrityErrors',
	'LinkDownedCounter'))" <"$TESTDIR/a.json")
[ "$got" = "['h00032:1 LocalLinkIntegrityErrors', 'leaf001:5 SymbolErrorCounter', 'leaf002:6 LinkDownedCounter']" ] ||
	fail "analyze port health: $got"
# diff: the growth, its rate, on the cable
"$IBTOPO" --db "$DB" diff before after --format json >"$TESTDIR/d.json"
[ $? = 1 ] || fail "diff with grown counters did not exit 1"
got=$(json_get "[(f['b']['node'], f['b']['port'], f['growth'],
	abs(f['rate_per_hour'] - f['growth'] / f['interval_h']) < 1e-3 * f['rate_per_hour'])
	for f in j['findings'] if f['kind'] == 'port-error-rate' and
	f['a']['node'] == 'leaf001' and f['a']['port'] == 5]" <"$TESTDIR/d.json")
[ "$got" = "[('spine001', 1, 20, True)]" ] || fail "diff growth: $got"
# the diagram of the diff: that cable is a cable problem
"$IBTOPO" --db "$DB" render --diff before after -o "$TESTDIR/d.dot" ||
	fail "render --diff"
grep 'cable problem' "$TESTDIR/d.dot" | grep -q 'spine001 \[1\] -- leaf001 \[5\]' ||
	{ grep tooltip "$TESTDIR/d.dot" | head -5; fail "diagram does not mark the cable"; }
exit 0
