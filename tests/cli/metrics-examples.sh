#!/bin/sh
# metrics-examples.sh - examples/ for Prometheus and Grafana: the alert
# rules pass `promtool check rules`, the dashboard is JSON, and every
# ibtopo_* metric either names is one `ibtopo metrics --collect all`
# writes (for a fixture with counters and a saturated counter) or one of
# the sweep's that `ibtopo serve --help` lists (alerts-rules.sh and
# serve-prometheus.sh check they work on the default series).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
promtool_require
tmp=$TESTDIR
EX=$top_srcdir/examples

"$PROMTOOL" check rules "$EX/ibtopo-alerts.yml" >"$tmp/out" 2>&1 ||
	flunk "promtool check rules: $(cat "$tmp/out")"
"$PYTHON3" -m json.tool "$EX/ibtopo-grafana.json" >/dev/null 2>&1 ||
	flunk "examples/ibtopo-grafana.json is not JSON"

sed 's/^SymbolErrorCounter:\.*12$/SymbolErrorCounter:..............65535/' \
	"$DATA/hc-perfquery.txt" >"$tmp/sat.txt"
now=$(date +%s)
touch -d "@$((now - 3600))" "$tmp/sat.txt"
"$IBTOPO" --db "$tmp/db" import "$DATA/ck-cables.topo" --counters "$tmp/sat.txt" \
	>/dev/null 2>&1 || fail "import"
run 0 "$IBTOPO" --db "$tmp/db" metrics --collect all
sed -n 's/^# TYPE \(ibtopo_[a-z0-9_]*\) .*/\1/p' "$tmp/out" >"$tmp/known"
# an hour later: the interval's BER and wait share
# (a perfquery dump is read at its file's time: an hour apart)
cp "$DATA/hc-perfquery-later.txt" "$tmp/later.txt"
touch -d "@$now" "$tmp/later.txt"
"$IBTOPO" --db "$tmp/db" import "$DATA/ck-cables.topo" --counters \
	"$tmp/later.txt" >/dev/null 2>&1 || fail "import later"
run 0 "$IBTOPO" --db "$tmp/db" metrics --since latest~1
sed -n 's/^# TYPE \(ibtopo_[a-z0-9_]*\) .*/\1/p' "$tmp/out" >>"$tmp/known"
grep -q '^ibtopo_port_bit_error_rate{' "$tmp/out" ||
	flunk "metrics --since: no ibtopo_port_bit_error_rate series"
"$IBTOPO" serve --help | grep -o 'ibtopo_[a-z0-9_]*' >>"$tmp/known"
grep -oh 'ibtopo_[a-z0-9_]*' "$EX/ibtopo-alerts.yml" "$EX/ibtopo-grafana.json" |
	sort -u >"$tmp/used"
[ -s "$tmp/used" ] || flunk "the examples use no ibtopo metric"
while read -r m; do
	grep -qx "$m" "$tmp/known" || flunk "examples use $m, which nothing writes"
done <"$tmp/used"
exit "$failed"
