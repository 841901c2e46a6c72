#!/bin/sh
# serve-sim.sh - `ibtopo metrics` and `ibtopo serve` on a live fabric:
# a 44-node fat tree under ibsim, LIDs from opensm, error counters set on
# chosen ports through the console (PerformanceSet).
#  - discover --counters, then metrics -o: promtool passes, the set
#    counter is on the series of its port (fabric, node_guid, port), the
#    names and the far end on ibtopo_port_info, bytes
#    are 4 x the words stored;
#  - serve answers /metrics (promtool passes), / (HTML) and /healthz;
#    a counter grown on the fabric shows on a later sweep; scrapes cause
#    no sweep and send no MAD (20 of them against a server whose next
#    sweep is an hour away: the sweep count and the MADs the spy saw stay
#    the same, no clock involved); bad requests get 4xx and it
#    stays up; a sweep that comes back partial (a switch dropping
#    NodeInfo) counts as an error and the last good data stays served;
#  - every MAD of a run of several sweeps is a Get (the MAD spy);
#  - SIGTERM stops it with status 0.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"
promtool_require
spy=${top_builddir:-.}/tests/.libs/rel-madspy.so
[ -f "$spy" ] || fail "no $spy (make check builds it)"

sim_fattree 8 2
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=11'
sim_cmd 'PerformanceSet "h00032"[1] PortCounters.LocalLinkIntegrityErrors=3'

# the identity labels of leaf001 port 5, and its far end's name
end_field() {
	"$IBTOPO" --db "$DB" show links --format json | json_get '
[ {"lab": "node_guid=\"%s\",port=\"%d\"" % (a["guid"], a["port"]),
   "far": b["node"], "guid": a["guid"]}["'"$1"'"]
  for l in j["links"] for a, b in ((l["a"], l["b"]), (l["b"], l["a"]))
  if a["node"] == "leaf001" and a["port"] == 5][0]'
}

# ---- metrics -o from a stored sweep
sim_client "$IBTOPO" --db "$DB" discover --counters >"$TESTDIR/out" 2>&1 ||
	{ cat "$TESTDIR/out"; fail "discover --counters"; }
lab=$(end_field lab) || fail "no link on leaf001 port 5"
far=$(end_field far)
case $far in spine*) ;; *) fail "leaf001/5 not to a spine: $far" ;; esac
run 0 "$IBTOPO" --db "$DB" metrics --collect more-errors -o "$TESTDIR/m.prom"
"$PROMTOOL" check metrics <"$TESTDIR/m.prom" >"$TESTDIR/lint" 2>&1 ||
	flunk "promtool: $(cat "$TESTDIR/lint")"
cp "$TESTDIR/m.prom" "$TESTDIR/body"
[ "$(mval ibtopo_port_symbol_errors_total "$lab")" = 11 ] ||
	flunk "metrics: leaf001/5 SymbolErrorCounter '$(mval ibtopo_port_symbol_errors_total "$lab")'"
# the names and the far end are in ibtopo_port_info, once per port
[ "$(mval ibtopo_port_info "$lab,node=\"leaf001\",node_type=\"switch\",")" = 1 ] ||
	flunk "metrics: no ibtopo_port_info for leaf001/5"
grep "^ibtopo_port_info{.*$lab," "$TESTDIR/m.prom" | grep -q "remote_node=\"$far\"" ||
	flunk "metrics: ibtopo_port_info of leaf001/5 lacks remote_node=$far"
h32=$(grep '^ibtopo_port_info{.*node="h00032"' "$TESTDIR/m.prom" |
	sed 's/.*\(node_guid="[^"]*",port="1"\).*/\1/')
[ "$(mval ibtopo_port_local_link_integrity_errors_total "$h32")" = 3 ] ||
	flunk "metrics: h00032 LocalLinkIntegrityErrors ($h32)"
words=$("${top_builddir:-.}/tests/store-tool" exec "$DB" "SELECT c.xmit_data
	FROM port_counters c JOIN nodes n ON n.guid = c.node_guid AND
	n.snapshot_id = c.snapshot_id WHERE n.description = 'leaf001' AND c.port = 5")
[ "$(mval ibtopo_port_transmit_bytes_total "$lab")" = $((4 * words)) ] ||
	flunk "bytes $(mval ibtopo_port_transmit_bytes_total "$lab"), words $words"
[ "$(grep -c '^ibtopo_port_symbol_errors_total{' "$TESTDIR/m.prom")" = 128 ] ||
	flunk "not 128 ports (both ends of 64 links) with counters"

# ---- serve: several sweeps, the MAD spy watching
SERVE_SPY=$TESTDIR/mads.log serve_start --interval 1
metrics_until '[ "$(mval ibtopo_sweeps_total "")" -ge 1 ]' 20 ||
	fail "no sweep: $(cat "$TESTDIR/serve.err")"
"$PROMTOOL" check metrics <"$TESTDIR/body" >"$TESTDIR/lint" 2>&1 ||
	flunk "promtool on /metrics: $(cat "$TESTDIR/lint")"
[ "$(mval ibtopo_port_symbol_errors_total "$lab")" = 11 ] ||
	flunk "serve: leaf001/5 SymbolErrorCounter '$(mval ibtopo_port_symbol_errors_total "$lab")'"
[ "$(mval ibtopo_last_sweep_success "")" = 1 ] || flunk "last sweep failed"

# a counter grown on the fabric shows on a later sweep (within a minute
# however loaded the machine: what is checked is that it shows at all)
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=25'
metrics_until "[ \"\$(mval ibtopo_port_symbol_errors_total '$lab')\" = 25 ]" 60 ||
	flunk "grown counter not served: '$(mval ibtopo_port_symbol_errors_total "$lab")'"

# the other endpoints, and bad requests: 4xx, still up
[ "$(scrape /)" = 200 ] && grep -qi '<svg' "$TESTDIR/body" ||
	flunk "GET / is no diagram"
[ "$(scrape /healthz)" = 200 ] && grep -q '^ok$' "$TESTDIR/body" ||
	flunk "GET /healthz"
[ "$(scrape /nope)" = 404 ] || flunk "GET /nope not 404"
[ "$(scrape /metrics -X POST)" = 405 ] || flunk "POST not 405"
[ "$(scrape /metrics -X DELETE)" = 405 ] || flunk "DELETE not 405"
[ "$(scrape /metrics --data-binary @"$TESTDIR/ft.net" -X GET)" = 413 ] ||
	flunk "GET with a body not 413"
big=$(head -c 40000 /dev/zero | tr '\0' a)
code=$(scrape "/$big")
case $code in 4??) ;; *) flunk "a 40 kB URL: $code" ;; esac
code=$(scrape /metrics -H "X-Pad: $big")
case $code in 4??) ;; *) flunk "a 40 kB header: $code" ;; esac
printf 'GARBAGE\r\n\r\n' | timeout 5 "$PYTHON3" -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read())
s.recv(4096)
' "$SERVE_PORT" 2>/dev/null
[ "$(scrape /metrics)" = 200 ] || flunk "not up after bad requests"

# a partial sweep: an error, the last good data still served
sim_cmd 'Error "leaf002" 100 17'
metrics_until '[ "$(mval ibtopo_last_sweep_success "")" = 0 ]' 20 ||
	flunk "a sweep with leaf002 silent did not fail"
[ "$(mval ibtopo_sweep_errors_total "")" -ge 1 ] || flunk "no sweep error counted"
[ "$(mval ibtopo_port_symbol_errors_total "$lab")" = 25 ] ||
	flunk "last good data not served after a failed sweep"
[ "$(mval ibtopo_fabric_switches "")" = 12 ] || flunk "switches after a failed sweep"
sim_cmd 'Error "leaf002" 0 17'
metrics_until '[ "$(mval ibtopo_last_sweep_success "")" = 1 ]' 20 ||
	flunk "no good sweep after leaf002 answers again"
# the log: when sweeps failed and when they recovered, not every sweep
grep -q '^ibtopo: sweeps succeed again ([1-9][0-9]* failed so far)$' \
	"$TESTDIR/serve.err" || flunk "no recovery line: $(cat "$TESTDIR/serve.err")"
n=$(grep -c 'warning: sweep failed' "$TESTDIR/serve.err")
[ "$n" -ge 1 ] && [ "$n" -le "$(mval ibtopo_sweep_errors_total "")" ] ||
	flunk "$n failure lines for $(mval ibtopo_sweep_errors_total "") failed sweeps"

serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC on SIGTERM"
# read-only: every MAD the sweeps sent is a Get
[ -s "$TESTDIR/mads.log" ] || fail "the spy logged nothing"
sweeps=$(mval ibtopo_sweeps_total "")
not_get=$(grep -vc '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/mads.log")
[ "$not_get" -eq 0 ] || flunk "$not_get MADs other than Get in $sweeps sweeps"
info "$(wc -l <"$TESTDIR/mads.log") MADs in $sweeps sweeps, all Gets"

# scrapes cause no sweep: a server whose first sweep is done and whose
# next one is an hour away; 20 scrapes (and the other pages) change
# neither the sweep count nor the MADs sent
SERVE_PORT=
SERVE_SPY=$TESTDIR/mads2.log serve_start --interval 3600
metrics_until '[ "$(mval ibtopo_sweeps_total "")" -ge 1 ]' 60 ||
	fail "no first sweep: $(cat "$TESTDIR/serve.err")"
before=$(mval ibtopo_sweeps_total "")
mads=$(wc -l <"$TESTDIR/mads2.log")
[ "$mads" -gt 0 ] || flunk "the spy saw no MAD of the first sweep"
i=0
while [ "$i" -lt 20 ]; do
	[ "$(scrape /metrics)" = 200 ] || flunk "scrape $i"
	i=$((i + 1))
done
scrape / >/dev/null
scrape /healthz >/dev/null
scrape /metrics >/dev/null
after=$(mval ibtopo_sweeps_total "")
[ "$after" = "$before" ] || flunk "22 scrapes: sweeps $before -> $after"
[ "$(wc -l <"$TESTDIR/mads2.log")" = "$mads" ] ||
	flunk "22 scrapes sent $(($(wc -l <"$TESTDIR/mads2.log") - mads)) MADs"
info "22 scrapes: sweeps $before -> $after, $mads MADs before and after"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC on SIGTERM"
exit "$failed"
