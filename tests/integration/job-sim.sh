#!/bin/sh
# job-sim.sh - `ibtopo job HOSTLIST REF --since REF` under ibsim names the
# sick links a job uses, and only those: a 44-node fat tree (radix 8, two
# levels; leaf001 holds h00001-h00004, leaf002 h00005-h00008), routed by
# OpenSM, swept twice with counters and tables. Between the sweeps,
# through the ibsim console (PerformanceSet): h00002's port gets 500
# symbol errors (a bad cable of the job), and leaf001's port 5, an uplink
# the job's routes to leaf002 cross, waits 4,000,000,000 ticks (a hot
# spot: far above 5 % of its time). A job on h00001-h00008 names exactly
# those two ports (high-ber on the first, congested-port on the second)
# and its verdict line says so; a job on h00017-h00024, on other leaves,
# whose routes cross neither, names nothing.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_fattree 8 2
sim_client "$IBTOPO" --db "$DB" discover --counters --routes --label before \
	>/dev/null 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover 1"; }
sleep 1
sim_cmd 'PerformanceSet "h00002"[1] PortCounters.SymbolErrorCounter=500'
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.PortXmitWait=4000000000'
sim_client "$IBTOPO" --db "$DB" discover --counters --routes --label after \
	>/dev/null 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover 2"; }

# the planted port is one the job's routes leave leaf001 by
"$IBTOPO" --db "$DB" job 'h0000[1-8]' after --format json \
	>"$TESTDIR/links.json" || fail "job without --since"
json_get '" ".join(sorted("%s:%s" % (l["node"], l["port"])
	for l in j["job"]["routes"]["links"]))' <"$TESTDIR/links.json" |
	tr ' ' '\n' | grep -qx 'leaf001:5' ||
	fail "the job's routes do not leave by leaf001 port 5"

"$IBTOPO" --db "$DB" job 'h0000[1-8]' after --since before --format json \
	>"$TESTDIR/sick.json" || fail "job --since exited $?"
got=$(json_get '" ".join(sorted("%s %s:%s" % (f["kind"], f["a"]["node"],
	f["a"]["port"]) for f in j["job"]["findings"]
	if f["kind"] in ("high-ber", "congested-port", "port-error-rate")))' \
	<"$TESTDIR/sick.json")
case $got in
*"congested-port leaf001:5"*) ;;
*) fail "the hot spot is not named: $got" ;;
esac
case $got in
*"h00002:1"* | *"leaf001:2"*) ;;
*) fail "the bad cable is not named: $got" ;;
esac
others=$(printf '%s\n' "$got" | tr ' ' '\n' | paste - - |
	grep -v 'leaf001:5$' | grep -v 'h00002:1$' | grep -v 'leaf001:2$')
[ -z "$others" ] || fail "other ports named: $others"
"$IBTOPO" --db "$DB" job 'h0000[1-8]' after --since before >"$TESTDIR/sick.txt" ||
	fail "job --since (text) exited $?"
grep -q '^Verdict: .*\(h00002 port 1\|leaf001 port 5\)' "$TESTDIR/sick.txt" ||
	fail "the verdict names neither planted port: $(grep '^Verdict' "$TESTDIR/sick.txt")"

"$IBTOPO" --db "$DB" job 'h000[17-24]' after --since before --format json \
	>"$TESTDIR/clean.json" || fail "clean job exited $?"
got=$(json_get 'len(j["job"]["findings"])' <"$TESTDIR/clean.json")
[ "$got" = 0 ] || fail "a clean placement names $got findings"

# --since must be earlier, and of the same fabric
"$IBTOPO" --db "$DB" job 'h0000[1-8]' before --since after >/dev/null \
	2>"$TESTDIR/err" && fail "--since a later snapshot succeeded"
grep -q -- '--since' "$TESTDIR/err" || fail "later --since: $(cat "$TESTDIR/err")"
exit 0
