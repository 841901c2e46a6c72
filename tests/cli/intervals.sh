#!/bin/sh
# intervals.sh - an interval that runs backwards, or is empty, is refused
# with both snapshots named (issue 33, item 4): `health A --since B` with
# B later than A used to print "no port errors" with counter totals shown
# as traffic; `diff NEW OLD` hid counters going down; `health A --since
# A` measured 0 seconds without a word. Stored snapshots are ordered by
# when they were taken, then, for imports of one file, by when their
# counters were read; files are never refused (their time is an mtime).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables db

hour_apart "$DATA/hc-perfquery.txt" "$tmp/pq1.txt" \
	"$DATA/hc-perfquery-later.txt" "$tmp/pq2.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq1.txt" --label day1
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq2.txt" --label day2

# the right way round: the growth
run 1 "$IBTOPO" health day2 --since day1
grep -q 'SymbolErrorCounter' "$tmp/out" || flunk "health: $(cat "$tmp/out")"
run 1 "$IBTOPO" diff day1 day2
grep -q 'SymbolErrorCounter grew by 12' "$tmp/out" ||
	flunk "diff: $(cat "$tmp/out")"

# backwards: refused, naming both
run 2 "$IBTOPO" health day1 --since day2
[ ! -s "$tmp/out" ] || flunk "health backwards printed: $(cat "$tmp/out")"
grep -q "^ibtopo: --since, snapshot 2 ('day2', .*), is later than REF, snapshot 1 ('day1', .*): the interval runs backwards (swap them)$" \
	"$tmp/err" || flunk "health backwards: $(cat "$tmp/err")"
run 2 "$IBTOPO" diff day2 day1
[ ! -s "$tmp/out" ] || flunk "diff backwards printed: $(cat "$tmp/out")"
grep -q "^ibtopo: OLD, snapshot 2 ('day2', .*), is later than NEW, snapshot 1 ('day1', .*): the interval runs backwards (swap them)$" \
	"$tmp/err" || flunk "diff backwards: $(cat "$tmp/err")"
run 2 "$IBTOPO" health --since day2
grep -q "^ibtopo: --since and REF are the same snapshot 2 ('day2', .*): no interval to measure (name an earlier snapshot)$" \
	"$tmp/err" || flunk "health latest --since latest: $(cat "$tmp/err")"

# empty: refused by health; diff of a snapshot with itself is no change
run 2 "$IBTOPO" health day1 --since day1
grep -q "^ibtopo: --since and REF are the same snapshot 1 ('day1', .*): no interval" \
	"$tmp/err" || flunk "health empty: $(cat "$tmp/err")"
run 0 "$IBTOPO" diff day1 day1

# imported in the other order: the readings tell which is earlier
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq2.txt" --label late
run 0 "$IBTOPO" import "$topo" --counters "$tmp/pq1.txt" --label early
run 1 "$IBTOPO" health late --since early
run 2 "$IBTOPO" diff late early
grep -q "^ibtopo: OLD, snapshot 3 ('late', .*), is later than NEW, snapshot 4 ('early', .*)" \
	"$tmp/err" || flunk "diff by readings: $(cat "$tmp/err")"
# without counters on both sides (imports): not judged
run 0 "$IBTOPO" import "$topo" --label bare
run 0 "$IBTOPO" diff bare day1

# files: their order is not judged
copy_at "$topo" "$tmp/old.topo" '2025-12-31 10:00:00 UTC'
run 0 "$IBTOPO" diff "$topo" "$tmp/old.topo"
exit "$failed"
