#!/bin/sh
# serve-prometheus.sh - a real Prometheus (Debian's `prometheus`, on
# loopback, its own configuration and storage folder, a 1 s scrape
# interval) scrapes `ibtopo serve` on a simulated fabric: up == 1, and a
# counter set through the ibsim console is read back through its HTTP
# query API, joined with ibtopo_port_info for both ends' names; every
# query of the Grafana dashboard of examples/ runs, and those that do
# not filter return data; the alert rules of examples/ load in it. A
# pulled cable (ibsim's Unlink, then ReLink) keeps the port's series one
# series throughout, and fires InfinibandLinkDown (its `for` shortened).
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"
PROMETHEUS=${PROMETHEUS:-$(command -v prometheus)}
[ -n "$PROMETHEUS" ] && [ -x "$PROMETHEUS" ] || skip "prometheus not found"

sim_fattree 8 2
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=11'
serve_start --interval 1

pport=$(free_port)
mkdir -p "$TESTDIR/prom"
# the rules as shipped, but for InfinibandLinkDown's 2 minutes
sed 's/^        for: 2m$/        for: 1s/' "$top_srcdir/examples/ibtopo-alerts.yml" \
	>"$TESTDIR/rules.yml"
grep -q 'for: 1s' "$TESTDIR/rules.yml" || fail "no 'for: 2m' in the rules"
cat >"$TESTDIR/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $TESTDIR/rules.yml
scrape_configs:
  - job_name: ibtopo
    static_configs:
      - targets: ['127.0.0.1:$SERVE_PORT']
EOC
"$PROMETHEUS" --config.file="$TESTDIR/prometheus.yml" \
	--storage.tsdb.path="$TESTDIR/prom" \
	--web.listen-address="127.0.0.1:$pport" \
	>"$TESTDIR/prom.log" 2>&1 &
PROM_PID=$!
CLEANUP_PIDS="$CLEANUP_PIDS $PROM_PID"

# query EXPR: the first result's value, or nothing
query() {
	curl -s -m 5 --get --data-urlencode "query=$1" \
		"http://127.0.0.1:$pport/api/v1/query" 2>/dev/null |
		"$PYTHON3" -c '
import json, sys
try:
    r = json.load(sys.stdin)["data"]["result"]
    print(r[0]["value"][1] if r else "")
except Exception:
    print("")
'
}
# wait_query EXPR WANT SECONDS
wait_query() {
	n=$(($3 * 2))
	while [ "$n" -gt 0 ]; do
		got=$(query "$1")
		[ "$got" = "$2" ] && return 0
		kill -0 "$PROM_PID" 2>/dev/null || {
			cat "$TESTDIR/prom.log" >&2
			fail "prometheus exited"
		}
		sleep 0.5
		n=$((n - 1))
	done
	flunk "'$1' = '$got', wanted '$2'"
	return 1
}

wait_query 'up{job="ibtopo"}' 1 30
JOIN='* on(fabric, node_guid, port) group_left(node, remote_node) ibtopo_port_info'
wait_query "ibtopo_port_symbol_errors_total $JOIN{node=\"leaf001\",port=\"5\",remote_node=~\"spine.*\"}" 11 30
wait_query 'ibtopo_last_sweep_success' 1 10
wait_query 'count(ibtopo_port_receive_errors_total == 0)' 128 10
# a second sweep: the interval's BER and wait share
wait_query 'count(ibtopo_port_bit_error_rate) > bool 0' 1 30

# increase() and rate() need two samples: at least two scrapes first (the
# waits above can all pass on the first one)
wait_query 'count_over_time(up{job="ibtopo"}[1h]) > bool 1' 1 30
# every query of the dashboard runs; those without a filter return data
"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["panels"]:
    for t in p.get("targets", []):
        e = t["expr"].replace("$fabric", ".*").replace("$__rate_interval", "30s")
        print("%s\t%s" % (p["title"], e))
' "$top_srcdir/examples/ibtopo-grafana.json" >"$TESTDIR/panels"
while IFS='	' read -r title expr; do
	curl -s -m 5 --get --data-urlencode "query=$expr" \
		"http://127.0.0.1:$pport/api/v1/query" >"$TESTDIR/q.json"
	n=$("$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(len(r["data"]["result"]) if r.get("status") == "success" else "error")
' "$TESTDIR/q.json" 2>/dev/null)
	case $n in
	error | "") flunk "dashboard '$title': $(cat "$TESTDIR/q.json")" ;;
	0) case $expr in
		*" > 0"* | *" and "* | *ibtopo_port_saturated*) ;; # nothing wrong here
		*) flunk "dashboard '$title' returns nothing: $expr" ;;
		esac ;;
	esac
done <"$TESTDIR/panels"

# ---- a pulled cable: leaf002 port 1 (to a host other than the one
# serve sweeps from), then put back
L1="ibtopo_port_linked $JOIN{node=\"leaf002\",port=\"1\"}"
wait_query "$L1" 1 10
sim_cmd 'Unlink "leaf002"[1]'
wait_query "$L1" 0 30
wait_query "count(ALERTS{alertname=\"InfinibandLinkDown\",alertstate=\"firing\",node=\"leaf002\",port=\"1\"})" 1 30
sim_cmd 'ReLink "leaf002"[1]'
wait_query "$L1" 1 30
# one series of state for the port throughout, which went 4 -> 1 -> 4
guid=$(curl -s -m 5 --get --data-urlencode 'query=ibtopo_port_info{node="leaf002",port="1"}' \
		"http://127.0.0.1:$pport/api/v1/query" | "$PYTHON3" -c '
import json, sys
print(json.load(sys.stdin)["data"]["result"][0]["metric"]["node_guid"])')
[ -n "$guid" ] || flunk "no node_guid for leaf002"
wait_query "count(count_over_time(ibtopo_port_state{node_guid=\"$guid\",port=\"1\"}[10m]))" 1 5
wait_query "count(changes(ibtopo_port_state{node_guid=\"$guid\",port=\"1\"}[10m]) >= 2)" 1 5

# the rules loaded, without errors
curl -s -m 5 "http://127.0.0.1:$pport/api/v1/rules" >"$TESTDIR/rules.json"
got=$("$PYTHON3" -c '
import json, sys
g = json.load(open(sys.argv[1]))["data"]["groups"]
rules = [r for x in g for r in x["rules"]]
print(len(rules), sum(1 for r in rules if r.get("health") == "err"))
' "$TESTDIR/rules.json")
case $got in
"0 "* | *" "[1-9]*) flunk "rules in Prometheus: $got (count, errors)" ;;
esac
info "rules loaded (count, errors): $got"
kill "$PROM_PID" && wait "$PROM_PID"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC"
exit "$failed"
