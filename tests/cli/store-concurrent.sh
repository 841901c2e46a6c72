#!/bin/sh
# store-concurrent.sh - four writers start together on a database that does
# not exist yet, each saving ten snapshots (a connection per snapshot, as
# ten `ibtopo import` runs would), while `ibtopo snapshots` reads: every
# writer and every read must succeed and all forty snapshots be there.
set -u
: "${IBTOPO:?}" "${top_builddir:?}"
TOOL=$top_builddir/tests/store-tool
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
db=$tmp/sub/fabric.db
failed=0

pids=
for w in 1 2 3 4; do
	"$TOOL" fill "$db" 10 "writer$w" 6 2>"$tmp/err$w" &
	pids="$pids $!"
done
# read while they write; the file may not exist for the first moments
reads=0
bad_reads=0
while :; do
	running=0
	for p in $pids; do
		kill -0 "$p" 2>/dev/null && running=1
	done
	[ "$running" -eq 1 ] || break
	if [ -e "$db" ]; then
		reads=$((reads + 1))
		if ! "$IBTOPO" --db "$db" snapshots --format csv >/dev/null 2>"$tmp/rerr"; then
			bad_reads=$((bad_reads + 1))
			cat "$tmp/rerr"
		fi
	fi
done
w=0
for p in $pids; do
	w=$((w + 1))
	if ! wait "$p"; then
		echo "FAIL: writer $w: $(cat "$tmp/err$w")"
		failed=1
	fi
done
[ "$bad_reads" -eq 0 ] || { echo "FAIL: $bad_reads of $reads reads failed"; failed=1; }

"$IBTOPO" --db "$db" snapshots --format csv >"$tmp/list" || failed=1
n=$(($(wc -l <"$tmp/list") - 1))
[ "$n" -eq 40 ] || { echo "FAIL: $n snapshots, wanted 40"; failed=1; }
for w in 1 2 3 4; do
	k=$(grep -Ec ",writer$w(\.[0-9]+)?," "$tmp/list")
	[ "$k" -eq 10 ] || { echo "FAIL: writer$w has $k snapshots"; failed=1; }
done
ids=$(cut -d, -f1 "$tmp/list" | sed 1d | sort -n | uniq | tr '\n' ' ')
want=$(seq 1 40 | tr '\n' ' ')
[ "$ids" = "$want" ] || { echo "FAIL: ids $ids"; failed=1; }
# every snapshot is whole: 45 switches, 54 CAs, 162 links each (k = 6)
bad=$(sed 1d "$tmp/list" | awk -F, '$4 != 45 || $5 != 54 || $6 != 162' | wc -l)
[ "$bad" -eq 0 ] || { echo "FAIL: $bad snapshots with wrong counts"; failed=1; }
rows=$("$TOOL" exec "$db" 'SELECT count(*) FROM links') || failed=1
[ "$rows" -eq $((40 * 162)) ] || { echo "FAIL: $rows link rows"; failed=1; }
problems=$("$TOOL" exec "$db" \
	"SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") ||
	failed=1
[ "$problems" -eq 0 ] || { echo "FAIL: integrity check"; failed=1; }
[ "$(stat -c %a "$db")" = 600 ] || { echo "FAIL: mode $(stat -c %a "$db")"; failed=1; }
[ "$(stat -c %a "$tmp/sub")" = 700 ] || { echo "FAIL: dir mode"; failed=1; }
echo "40 snapshots from 4 writers; $reads concurrent reads"
exit $failed
