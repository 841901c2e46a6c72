#!/bin/sh
# csv-findings.sh - every `--format csv` output carries the findings that
# set its exit code (issue 23, item 4): `routes` and `health` print their
# port table, an empty line, then the findings table with the columns of
# `analyze --format csv` (its header even when there are none). A black
# hole planted in tests/data/rt-ck-lfts.dump and the error counters of
# tests/data/hc-perfquery.txt are rows there.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables
findings_header=$("$IBTOPO" analyze "$topo" --format csv | head -1 | tr -d '\r')
case $findings_header in
kind,severity,*) ;;
*) fail "analyze --format csv header: $findings_header" ;;
esac

# section N FILE: the Nth table (1-based) of FILE, tables split by empty lines
section() {
	tr -d '\r' <"$2" | awk -v want="$1" 'BEGIN { n = 1 } /^$/ { n++; next } n == want'
}

# ---- routes: a black hole is an error row; the port table is unchanged
sed 's/^0x000d 003 /0x000d 255 /' "$dump" >"$tmp/hole.dump"
run 1 "$IBTOPO" routes "$topo" --routes "$tmp/hole.dump" --format csv
cp "$tmp/out" "$tmp/routes.csv"
[ "$(section 1 "$tmp/routes.csv" | head -1)" = "guid,node,port,routes,dlids,level,up" ] ||
	flunk "routes csv: port table header: $(head -1 "$tmp/routes.csv")"
[ "$(section 2 "$tmp/routes.csv" | head -1)" = "$findings_header" ] ||
	flunk "routes csv: no findings table: $(section 2 "$tmp/routes.csv" | head -1)"
section 2 "$tmp/routes.csv" | grep -q '^route-black-hole,error,spine01,' ||
	flunk "routes csv: no black hole row: $(section 2 "$tmp/routes.csv")"
[ "$(section 3 "$tmp/routes.csv")" = "" ] || flunk "routes csv: a third table"
# a clean dump: the findings header and no row
run 0 "$IBTOPO" routes "$topo" --routes "$dump" --format csv
[ "$(section 2 "$tmp/out")" = "$findings_header" ] ||
	flunk "routes csv, clean: $(section 2 "$tmp/out")"

# ---- health: port-errors rows, as JSON has them
run 0 "$IBTOPO" health "$topo" --counters "$DATA/hc-perfquery.txt" --format csv
cp "$tmp/out" "$tmp/health.csv"
section 1 "$tmp/health.csv" | head -1 | grep -q '^node,guid,port,peer\.node,' ||
	flunk "health csv: port table header: $(head -1 "$tmp/health.csv")"
[ "$(section 2 "$tmp/health.csv" | head -1)" = "$findings_header" ] ||
	flunk "health csv: no findings table"
got=$(section 2 "$tmp/health.csv" | sed 1d | cut -d, -f1,2,3 | sort | tr '\n' ' ')
run 0 "$IBTOPO" health "$topo" --counters "$DATA/hc-perfquery.txt" --format json
want=$(json_get '" ".join(sorted("%s,%s,%s" % (f["kind"], f["severity"],
	f["a"]["node"]) for f in j["findings"])) + " "' <"$tmp/out")
[ -n "$got" ] && [ "$got" = "$want" ] ||
	flunk "health csv findings '$got', json '$want'"
# --fail-on warning: the exit code and the rows agree
run 1 "$IBTOPO" health "$topo" --counters "$DATA/hc-perfquery.txt" --format csv --fail-on warning
section 2 "$tmp/out" | grep -q '^port-errors,warning,' ||
	flunk "health csv --fail-on warning: no warning row"

# ---- the README and the man page say the layout
grep -q 'empty line, then the findings' "$top_srcdir/README.md" ||
	flunk "README does not describe the CSV findings table"
grep -q 'empty line, then the findings' "$top_srcdir/data/man/ibtopo.1.rst" ||
	flunk "the man page does not describe the CSV findings table"
exit "$failed"
