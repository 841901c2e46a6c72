#!/bin/sh
# analyze-sim.sh - real discovery under ibsim, then `ibtopo analyze`: a
# fabric with an EDR link between HDR ports and a 1x link (both ends
# restricted), plus a cable file with a 45 m HDR AOC and an EDR DAC on
# HDR ports, gives exactly those four findings, with their causes; the
# same fabric without the restrictions, where every port claims 12x,
# gives none. Only the link and cable kinds count here: the topology
# analysis (single-homed hosts) has its own tests; with opensm gone after
# its sweep, the clean fabric's one error is that no SM runs (sm-state). `discover --cables`
# stores the file with the snapshot: analyze then finds the same four
# without --cables, and show cables lists it. Needs ibsim and
# libumad2sim (else SKIP).
. "$top_srcdir/tests/lib.sh"
sim_require
python_require

# One line per finding, ends sorted: comparable whatever GUIDs ibsim gives.
project() {
	"$PYTHON3" -c '
import json, sys
mine = ("speed-downgrade", "width-downgrade", "cable-over-length",
        "cable-underrated", "loopback-cable")
for f in json.load(sys.stdin)["findings"]:
    if f["kind"] not in mine:
        continue
    ends = sorted("%s:%s" % (f[k]["node"], f[k]["port"]) for k in ("a", "b"))
    print(f["kind"], f["severity"], ends[0], ends[1],
          f.get("expected", "-"), f.get("active", "-"), f.get("rated_speed", "-"),
          f.get("evidence", "-"), f.get("cause", "-"), f.get("length_m", "-"),
          f.get("reach_m", "-"))
' | sort
}

# ---- the faulty fabric
sim_start -n "$DATA/ck-sim.net"
SIM_HOST=host01 sim_client "$IBTOPO" --db "$TESTDIR/faults.db" discover \
	>/dev/null 2>"$TESTDIR/discover.err" ||
	{ cat "$TESTDIR/discover.err" >&2; fail "discover under ibsim"; }
# discover --cables stores the inventory with the snapshot (issue 23)
SIM_HOST=host01 sim_client "$IBTOPO" --db "$TESTDIR/stored.db" discover \
	--cables "$DATA/ck-sim-cables.csv" >/dev/null 2>"$TESTDIR/discover.err" ||
	{ cat "$TESTDIR/discover.err" >&2; fail "discover --cables under ibsim"; }
sim_stop

"$IBTOPO" --db "$TESTDIR/faults.db" analyze --format json \
	--cables "$DATA/ck-sim-cables.csv" >"$TESTDIR/out.json" 2>"$TESTDIR/err"
rc=$?
[ "$rc" -eq 1 ] || { cat "$TESTDIR/err" >&2; fail "analyze exited $rc, wanted 1"; }
[ -s "$TESTDIR/err" ] && fail "analyze wrote to stderr: $(cat "$TESTDIR/err")"
project <"$TESTDIR/out.json" >"$TESTDIR/got"
cat >"$TESTDIR/want" <<'WANT'
cable-over-length error leaf01:19 spine01:1 - HDR - - - 45.0 30.0
cable-underrated warning host03:1 leaf02:1 HDR - EDR - cable - -
speed-downgrade error leaf02:20 spine02:2 HDR EDR - port-info port-config - -
width-downgrade error host02:1 leaf01:2 4x 1x - port-info port-config - -
WANT
if ! cmp -s "$TESTDIR/want" "$TESTDIR/got"; then
	diff "$TESTDIR/want" "$TESTDIR/got" >&2
	fail "findings differ"
fi
# The stored inventory, without --cables: the same four findings.
"$IBTOPO" --db "$TESTDIR/stored.db" analyze --format json >"$TESTDIR/stored.json" 2>&1
project <"$TESTDIR/stored.json" >"$TESTDIR/got"
cmp -s "$TESTDIR/want" "$TESTDIR/got" ||
	fail "discover --cables, then analyze: $(cat "$TESTDIR/got")"
[ "$("$IBTOPO" --db "$TESTDIR/stored.db" show cables --format csv | wc -l)" -eq 5 ] ||
	fail "show cables after discover --cables"
# Without the cable file: the two downgrades only.
"$IBTOPO" --db "$TESTDIR/faults.db" analyze --format json >"$TESTDIR/out2.json" 2>&1
[ "$(project <"$TESTDIR/out2.json" | cut -d' ' -f1 | tr '\n' ' ')" = "speed-downgrade width-downgrade " ] ||
	fail "without cables: $(project <"$TESTDIR/out2.json")"

# ---- the clean fabric: every port claims 12x and HDR; nothing to report
sed -e '/^#/d' -e 's/	e=3$//' -e 's/	w=1$//' "$DATA/ck-sim.net" >"$TESTDIR/clean.net"
grep -q 'e=3\|w=1' "$TESTDIR/clean.net" && fail "restrictions left in clean.net"
sim_start -n "$TESTDIR/clean.net"
# swept before any subnet manager ran: every port Init, no LIDs. That is
# one port-not-active finding for the fabric (issue 23 item 1), exit 1.
SIM_HOST=host01 sim_client "$IBTOPO" --db "$TESTDIR/nosm.db" discover \
	>/dev/null 2>"$TESTDIR/discover.err" ||
	{ cat "$TESTDIR/discover.err" >&2; fail "discover before opensm"; }
"$IBTOPO" --db "$TESTDIR/nosm.db" analyze --format json \
	--cables "$DATA/ck-sim-cables-ok.csv" >"$TESTDIR/nosm.json" 2>&1
[ $? -eq 1 ] || fail "no subnet manager: analyze should exit 1"
got=$(json_get '[(f["detail"], f["links"], f["a"]["node"]) for f in j["findings"]
	if f["kind"] == "port-not-active"]' <"$TESTDIR/nosm.json")
[ "$got" = "[('no-subnet-manager', 8, None)]" ] ||
	fail "no subnet manager: wanted one finding for the fabric, got $got"
json_get '[f["message"] for f in j["findings"] if f["kind"] == "port-not-active"][0]' \
	<"$TESTDIR/nosm.json" | grep -q '^no subnet manager has configured this fabric' ||
	fail "no subnet manager: message"
# then opensm brings it up
sim_opensm
SIM_HOST=host01 sim_client "$IBTOPO" --db "$TESTDIR/clean.db" discover \
	>/dev/null 2>"$TESTDIR/discover.err" ||
	{ cat "$TESTDIR/discover.err" >&2; fail "discover the clean fabric"; }
sim_stop
# opensm -o swept and left: no subnet manager runs, the one error
"$IBTOPO" --db "$TESTDIR/clean.db" analyze --format json \
	--cables "$DATA/ck-sim-cables-ok.csv" >"$TESTDIR/clean.json" 2>&1
got=$(json_get '[(f["kind"], f["detail"]) for f in j["findings"] if f["severity"] == "error"]' \
	<"$TESTDIR/clean.json") || { cat "$TESTDIR/clean.json" >&2; fail "clean fabric"; }
[ "$got" = "[('sm-state', 'no-master')]" ] || fail "clean fabric: errors $got"
[ -z "$(project <"$TESTDIR/clean.json")" ] ||
	fail "clean fabric: $(project <"$TESTDIR/clean.json")"
[ "$(json_get '(j["snapshot"]["links"], j["snapshot"]["cables"])' <"$TESTDIR/clean.json")" = "(8, 3)" ] ||
	fail "clean fabric: $(head -c 300 "$TESTDIR/clean.json")"
exit 0
