#!/bin/sh
# store-cables.sh - `import --cables FILE` keeps the cable inventory with
# the snapshot (issue 23, item 6): `show cables` lists it, `analyze` of
# the snapshot gives the cable findings that `analyze --cables` gives on
# the file, and a row that matches no link is left out with a warning.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env

# cable_csv: the CSV header and the cable findings of $tmp/out, which
# tests/golden/ck-cables.csv holds (analyze --cables of the same file)
cable_csv() {
	grep -E '^(kind|cable-[a-z-]*),' "$tmp/out" >"$tmp/cables.csv"
}

# ---- import stores the inventory; show cables lists its five cables
run 0 "$IBTOPO" --db "$DB" import --cables "$DATA/ck-cables.csv" \
	"$DATA/ck-cables.topo"
run 0 "$IBTOPO" --db "$DB" show cables --format csv
n=$(($(wc -l <"$tmp/out") - 1))
[ "$n" -eq 5 ] || flunk "show cables: $n rows, wanted 5: $(cat "$tmp/out")"
grep -q '^spine01,0x1000000000000100,1,leaf01,0x1000000000000200,39,.*aoc,45' \
	"$tmp/out" || flunk "show cables: no 45 m AOC: $(cat "$tmp/out")"

# ---- analyze of the snapshot: the findings of analyze --cables FILE
run 1 "$IBTOPO" --db "$DB" analyze --format csv && cable_csv &&
	same "$GOLDEN/ck-cables.csv" "$tmp/cables.csv" "analyze of the snapshot"

# ---- the db_csv form too, its unlinked row left out with one warning
run 0 "$IBTOPO" --db "$tmp/b.db" import --cables "$DATA/ck-cables.db_csv" \
	"$DATA/ck-cables.topo"
grep -q 'CABLE_INFO rows skipped' "$tmp/err" ||
	flunk "no warning for the unlinked row: $(cat "$tmp/err")"
run 1 "$IBTOPO" --db "$tmp/b.db" analyze --format csv && cable_csv &&
	same "$GOLDEN/ck-cables.csv" "$tmp/cables.csv" \
		"analyze of the db_csv snapshot"

# ---- a row naming a node the fabric lacks: stored without it, warned
{
	cat "$DATA/ck-cables.csv"
	echo "nosuch,1,spine01,9,aoc,5,,r9"
} >"$tmp/extra.csv"
run 0 "$IBTOPO" --db "$tmp/c.db" import --cables "$tmp/extra.csv" \
	"$DATA/ck-cables.topo"
grep -q "warning: .*extra.csv: 1 cable row matches no link" "$tmp/err" ||
	flunk "no warning for the unmatched row: $(cat "$tmp/err")"
run 0 "$IBTOPO" --db "$tmp/c.db" show cables --format csv
n=$(($(wc -l <"$tmp/out") - 1))
[ "$n" -eq 5 ] || flunk "show cables after an unmatched row: $n rows"

# ---- a bad cable file stores nothing
printf 'node_a,port_a\nleaf01,x\n' >"$tmp/bad.csv"
run 2 "$IBTOPO" --db "$tmp/d.db" import --cables "$tmp/bad.csv" \
	"$DATA/ck-cables.topo"
[ ! -e "$tmp/d.db" ] || flunk "a bad cable file created the database"

exit "$failed"
