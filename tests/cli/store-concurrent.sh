#!/bin/sh
# store-concurrent.sh - four writers start together on a database that does
# not exist yet, each saving ten snapshots (a connection per snapshot, as
# ten `ibtopo import` runs would), while `ibtopo snapshots` reads: every
# writer and every read must succeed and all forty snapshots be there.
set -u
: "${IBTOPO:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
TOOL=$top_builddir/tests/store-tool
LC_ALL=C
export LC_ALL

db=$tmp/sub/fabric.db

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
# shellcheck disable=SC2086 # one PID a word
wait_pids writer "$tmp/err" $pids
[ "$bad_reads" -eq 0 ] || flunk "$bad_reads of $reads reads failed"

"$IBTOPO" --db "$db" snapshots --format csv >"$tmp/list" || failed=1
n=$(($(wc -l <"$tmp/list") - 1))
[ "$n" -eq 40 ] || flunk "$n snapshots, wanted 40"
for w in 1 2 3 4; do
	k=$(grep -Ec ",writer$w(\.[0-9]+)?," "$tmp/list")
	[ "$k" -eq 10 ] || flunk "writer$w has $k snapshots"
done
ids=$(cut -d, -f1 "$tmp/list" | sed 1d | sort -n | uniq | tr '\n' ' ')
want=$(seq 1 40 | tr '\n' ' ')
[ "$ids" = "$want" ] || flunk "ids $ids"
# every snapshot is whole: 45 switches, 54 CAs, 162 links each (k = 6)
bad=$(sed 1d "$tmp/list" | awk -F, '$4 != 45 || $5 != 54 || $6 != 162' | wc -l)
[ "$bad" -eq 0 ] || flunk "$bad snapshots with wrong counts"
rows=$("$TOOL" exec "$db" 'SELECT count(*) FROM links') || failed=1
[ "$rows" -eq $((40 * 162)) ] || flunk "$rows link rows"
problems=$("$TOOL" exec "$db" \
	"SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") ||
	failed=1
[ "$problems" -eq 0 ] || flunk "integrity check"
[ "$(stat -c %a "$db")" = 600 ] || flunk "mode $(stat -c %a "$db")"
[ "$(stat -c %a "$tmp/sub")" = 700 ] || flunk "dir mode"
echo "40 snapshots from 4 writers; $reads concurrent reads"
exit $failed
