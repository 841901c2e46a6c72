#!/bin/sh
# serve-prometheus.sh - a real Prometheus (Debian's `prometheus`, on
# loopback, its own configuration and storage folder, a 1 s scrape
# interval) scrapes `ibtopo serve` on a simulated fabric: up == 1, and a
# counter set through the ibsim console is read back through its HTTP
# query API with both ends' labels; the alert rules of examples/ load
# in it.
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
cp "$top_srcdir/examples/ibtopo-alerts.yml" "$TESTDIR/rules.yml"
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
wait_query 'ibtopo_port_symbol_errors_total{node="leaf001",port="5",remote_node=~"spine.*"}' 11 30
wait_query 'ibtopo_last_sweep_success' 1 10
wait_query 'count(ibtopo_port_receive_errors_total == 0)' 128 10
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
