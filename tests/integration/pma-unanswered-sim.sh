#!/bin/sh
# pma-unanswered-sim.sh - `discover --counters` where some PMA queries go
# unanswered keeps the topology and every counter that answered; the
# ports that did not answer are stored as "not read" (no value at all,
# never zeros), named in the summary, and the exit status is 3, stored
# but incomplete (issue 33, item 1). The snapshot is not marked partial:
# --partial keeps its meaning for a sweep that lost part of the fabric.
#
# As a user meets it: a 2-level fat tree (bench/gen-fattree.py --radix 4)
# under ibsim, routed by OpenSM's ftree, which routes no LID between two
# root switches; discovery runs from spine001's port (SIM_HOST), so the
# other spine's PMA never answers. perfquery, run from the same place,
# fails on those ports too and reads the others: the ports named are the
# ones that really did not answer.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
diag_require PERFQUERY perfquery
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"

gen_fattree 4 2 "$TESTDIR/ft.net"
sim_start_as "$TESTDIR/ft.net" h00001
sim_opensm -R ftree
grep -q 'ftree tables configured on all switches' "$TESTDIR/osm/osm.log" ||
	fail "opensm did not route with ftree"

SIM_HOST=spine001
export SIM_HOST
# a short timeout: what does not answer is not routed, not slow
sim_client "$IBTOPO" --db "$DB" discover --counters --timeout 200 \
	--retries 1 >"$TESTDIR/out" 2>"$TESTDIR/err"
rc=$?
[ "$rc" -eq 3 ] || {
	cat "$TESTDIR/out" "$TESTDIR/err"
	fail "discover --counters with ports unanswered: exit $rc, wanted 3"
}
grep -q '^snapshot 1: 6 switches, 8 CAs, 0 routers, 16 links$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "summary: topology"; }
line=$(grep 'not read' "$TESTDIR/out")
[ "$(count_lines "$line")" -eq 1 ] || fail "summary: $(cat "$TESTDIR/out")"
case $line in
"counters of "[0-9]*" ports not read (their PMA did not answer): 'spine"*"' port "*"; stored as not read, the snapshot is incomplete") ;;
*) fail "summary line: $line" ;;
esac
grep -q 'not read' "$TESTDIR/err" && fail "named twice: $(cat "$TESTDIR/err")"
n=$(echo "$line" | sed 's/^counters of \([0-9]*\) .*/\1/')

# the database: the topology, and a row for every linked port; those not
# read have no value at all
[ "$(store_sql 'SELECT count(*) FROM links')" = 16 ] || fail "links stored"
[ "$(store_sql 'SELECT partial FROM snapshots')" = 0 ] ||
	fail "the snapshot is marked partial"
[ "$(store_sql 'SELECT count(*) FROM port_counters')" = 32 ] ||
	fail "$(store_sql 'SELECT count(*) FROM port_counters') rows, wanted 32"
unread=$(store_sql "SELECT count(*) FROM port_counters WHERE
	coalesce(symbol_errors, link_downed, rcv_errors, xmit_discards,
	xmit_wait, xmit_data, rcv_data, xmit_pkts, rcv_pkts) IS NULL")
[ "$unread" = "$n" ] || fail "$unread ports stored without values, named $n"
zeros=$(store_sql "SELECT count(*) FROM port_counters WHERE
	symbol_errors IS NOT NULL AND xmit_data IS NULL")
[ "$zeros" = 0 ] || fail "$zeros ports read in part"

# perfquery from the same port agrees, port by port
"$IBTOPO" --db "$DB" show --format json ports >"$TESTDIR/ports.json" ||
	fail "show ports"
"$IBTOPO" --db "$DB" health --format json >"$TESTDIR/health.json" ||
	fail "health --format json"
"$PYTHON3" - "$TESTDIR/ports.json" "$TESTDIR/health.json" \
	>"$TESTDIR/lids" <<'EOF' || fail "reading the JSON"
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
health = json.load(open(sys.argv[2]))
read = {(p["node"], p["port"]) for p in health["ports"]}
lid = {}
for p in ports:
    if p["node"].startswith("spine") or p["node"].startswith("leaf"):
        lid[p["node"]] = lid.get(p["node"]) or p["lid"]
for p in ports:
    if not p["node"].startswith("spine") or not p["peer"]["node"]:
        continue
    print(p["node"], p["port"], lid[p["node"]] or p["lid"],
          "read" if (p["node"], p["port"]) in read else "unread")
print("health-unread", health["counters_unread"])
EOF
[ "$(sed -n 's/^health-unread //p' "$TESTDIR/lids")" = "$n" ] ||
	fail "health counters_unread: $(cat "$TESTDIR/lids")"
grep -q " unread$" "$TESTDIR/lids" || fail "no spine port unread"
grep -q " read$" "$TESTDIR/lids" || fail "no spine port read"
grep -v '^health' "$TESTDIR/lids" | while read -r node port lid what; do
	if sim_client "$PERFQUERY" -t 200 "$lid" "$port" \
		>"$TESTDIR/pq" 2>&1; then
		[ "$what" = read ] ||
			fail "$node port $port: perfquery answers, stored unread"
	else
		[ "$what" = unread ] ||
			fail "$node port $port: perfquery fails, stored read"
		case $line in
		*"'$node' port "*) ;;
		*) fail "$node port $port not named: $line" ;;
		esac
	fi
done || exit 1

# health names them, and counts only the ports read
"$IBTOPO" --db "$DB" health >"$TESTDIR/health" 2>&1 || fail "health"
grep -q "^no port errors on $((32 - n)) ports with counters$" \
	"$TESTDIR/health" || { cat "$TESTDIR/health"; fail "health counts"; }
grep -q "^counters of $n ports not read (their PMA did not answer): 'spine" \
	"$TESTDIR/health" || { cat "$TESTDIR/health"; fail "health names"; }

# --quiet: nothing on stdout, the warning on stderr, still exit 3;
# --format json: counters_unread in the snapshot
sim_client "$IBTOPO" --db "$DB" discover --counters --timeout 200 \
	--retries 1 --quiet >"$TESTDIR/out" 2>"$TESTDIR/err"
rc=$?
[ "$rc" -eq 3 ] || fail "--quiet: exit $rc"
[ -s "$TESTDIR/out" ] && fail "--quiet printed $(cat "$TESTDIR/out")"
grep -q "^ibtopo: warning: counters of $n ports not read" "$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "--quiet: no warning"; }
sim_client "$IBTOPO" --db "$DB" discover --counters --timeout 200 \
	--retries 1 --format json >"$TESTDIR/out" 2>"$TESTDIR/err"
rc=$?
[ "$rc" -eq 3 ] || fail "--format json: exit $rc"
[ "$(json_get 'j["snapshot"]["counters_unread"]' <"$TESTDIR/out")" = "$n" ] ||
	fail "json: $(cat "$TESTDIR/out")"
[ "$(json_get 'j["snapshot"]["partial"]' <"$TESTDIR/out")" = False ] ||
	fail "json: partial"
exit 0
