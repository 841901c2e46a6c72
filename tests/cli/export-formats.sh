#!/bin/sh
# export-formats.sh - `export --format list` prints the formats of the
# library's table of writers, and each one it prints is accepted; an
# unknown one is refused naming them all.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
run 0 "$IBTOPO" export --format list
cp "$tmp/out" "$tmp/list"
[ "$(wc -l <"$tmp/list")" -ge 5 ] || flunk "formats: $(cat "$tmp/list")"
grep -qx ibnetdiscover "$tmp/list" && grep -qx slurm "$tmp/list" || flunk "formats: $(cat "$tmp/list")"
while read -r f; do
	run 0 "$IBTOPO" export --format "$f" "$DATA/ck-cables.topo" ||
		flunk "export --format $f"
done <"$tmp/list"
run 2 "$IBTOPO" export --format nosuch "$DATA/ck-cables.topo"
names=$(awk 'NR > 1 { printf "%s", (last != "" ? last ", " : "") } { last = $0 } END { }' "$tmp/list")
grep -q "unknown format 'nosuch' (${names%, }" "$tmp/err" ||
	flunk "error: $(cat "$tmp/err") (wanted the list: $(tr '\n' ' ' <"$tmp/list"))"
grep -q " or $(tail -n 1 "$tmp/list"))" "$tmp/err" || flunk "error: $(cat "$tmp/err")"
exit "$failed"
