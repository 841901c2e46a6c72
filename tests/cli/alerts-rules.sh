#!/bin/sh
# alerts-rules.sh - the example alert rules under `promtool test rules`
# (tests/data/alerts/ibtopo-alerts.test.yml): each rule fires on its own
# scenario (a pulled cable, a downgraded link, a bit error rate above
# its threshold, receive errors, flapping, congestion, a saturated
# counter, failing sweeps, stale data, a partial sweep, serve down) and
# none fires on a clean fabric. Every series of those scenarios is one
# ibtopo writes: a name of `ibtopo metrics` (with an earlier snapshot:
# the BER and wait-share gauges) or of `ibtopo serve --help`.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
promtool_require
tmp=$TESTDIR
cp "$top_srcdir/examples/ibtopo-alerts.yml" \
	"$top_srcdir/tests/data/alerts/ibtopo-alerts.test.yml" "$tmp/" ||
	fail "copy"
(cd "$tmp" && "$PROMTOOL" test rules ibtopo-alerts.test.yml) >"$tmp/log" 2>&1 ||
	flunk "promtool test rules: $(cat "$tmp/log")"
grep -q SUCCESS "$tmp/log" || flunk "promtool test rules: no SUCCESS"
# every rule has a scenario where it fires
for r in $(sed -n 's/^ *- alert: //p' "$tmp/ibtopo-alerts.yml"); do
	grep -B1 -A2 "alertname: $r\$" "$tmp/ibtopo-alerts.test.yml" |
		grep -q 'exp_alerts:$' || flunk "no scenario where $r fires"
done

# the names of the scenarios' series, against what ibtopo writes: the
# metrics of a snapshot measured against the one before, and serve's own
# (a perfquery dump is read at its file's time: an hour apart)
cp "$DATA/hc-perfquery.txt" "$tmp/c1.txt"
cp "$DATA/hc-perfquery-later.txt" "$tmp/c2.txt"
now=$(date +%s)
touch -d "@$((now - 3600))" "$tmp/c1.txt"
touch -d "@$now" "$tmp/c2.txt"
"$IBTOPO" --db "$tmp/db" import "$DATA/ck-cables.topo" \
	--counters "$tmp/c1.txt" >/dev/null 2>&1 || fail "import 1"
"$IBTOPO" --db "$tmp/db" import "$DATA/ck-cables.topo" \
	--counters "$tmp/c2.txt" >/dev/null 2>&1 || fail "import 2"
run 0 "$IBTOPO" --db "$tmp/db" metrics --since latest~1
sed -n 's/^# TYPE \(ibtopo_[a-z0-9_]*\) .*/\1/p' "$tmp/out" >"$tmp/known"
"$IBTOPO" serve --help | grep -o 'ibtopo_[a-z0-9_]*' >>"$tmp/known"
echo up >>"$tmp/known"
sed -n "s/^ *- series: '\([a-z_0-9]*\){.*/\1/p" "$tmp/ibtopo-alerts.test.yml" |
	sort -u >"$tmp/used"
[ -s "$tmp/used" ] || flunk "no input series"
while read -r m; do
	grep -qx "$m" "$tmp/known" ||
		flunk "the scenarios use $m, which nothing writes"
done <"$tmp/used"
exit "$failed"
