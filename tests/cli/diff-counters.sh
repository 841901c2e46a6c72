#!/bin/sh
# diff-counters.sh - `ibtopo diff OLD NEW` between two snapshots that
# carry port counters, an hour apart, shows the error counters that grew:
# on which link, by how much, per hour (port-error-rate, link-flapping);
# counts that did not grow, and snapshots without counters, show nothing.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables db

hour_apart "$DATA/hc-perfquery.txt" "$tmp/pq1.txt" \
	"$DATA/hc-perfquery-later.txt" "$tmp/pq2.txt"
run 0 "$IBTOPO" import "$topo"
run 0 "$IBTOPO" import "$topo"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq1.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq2.txt"

# ---- no counters, or counters on one side only: nothing changed
run 0 "$IBTOPO" diff 1 2
run 0 "$IBTOPO" diff 2 3

# ---- an hour apart: the two counters that grew on leaf01 39 - spine01 1
run 1 "$IBTOPO" diff 3 4 --format json
got=$(json_get '" ".join("%s:%s/%d-%s/%d:%s:%s:%s:%s" % (f["kind"],
	f["a"]["node"], f["a"]["port"], f["b"]["node"], f["b"]["port"],
	f["counter"], f["growth"], f["rate_per_hour"], f["interval_h"])
	for f in j["findings"])' <"$tmp/out")
[ "$got" = "port-error-rate:leaf01/39-spine01/1:SymbolErrorCounter:12:12.0:1.0 link-flapping:leaf01/39-spine01/1:LinkDownedCounter:1:1.0:1.0" ] ||
	flunk "diff counters: $got"
run 1 "$IBTOPO" diff 3 4
grep -q 'port-error-rate  leaf01 \[39\]  spine01 \[1\]  SymbolErrorCounter grew by 12 in 1.0 h (12.0/h)' "$tmp/out" ||
	flunk "diff text: $(cat "$tmp/out")"
# ---- the same snapshot twice: no growth
run 0 "$IBTOPO" diff 4 4
exit "$failed"
