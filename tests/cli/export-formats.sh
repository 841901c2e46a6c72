#!/bin/sh
# export-formats.sh - `export --format list` prints the formats of the
# library's table of writers, and each one it prints is accepted; an
# unknown one is refused naming them all. lfts needs forwarding tables:
# on a fabric without them it exits 2 saying so, on a snapshot imported
# with --routes it writes them.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
run 0 "$IBTOPO" export --format list
cp "$tmp/out" "$tmp/list"
[ "$(wc -l <"$tmp/list")" -ge 5 ] || flunk "formats: $(cat "$tmp/list")"
grep -qx ibnetdiscover "$tmp/list" && grep -qx slurm "$tmp/list" || flunk "formats: $(cat "$tmp/list")"
grep -qx lfts "$tmp/list" || flunk "formats: no lfts: $(cat "$tmp/list")"
while read -r f; do
	if [ "$f" = lfts ]; then
		# no tables in a topology file: exit 2, one line naming why
		run 2 "$IBTOPO" export --format lfts "$DATA/ck-cables.topo" ||
			flunk "export --format lfts without tables"
		grep -q '^ibtopo: .*no forwarding tables' "$tmp/err" ||
			flunk "lfts without tables: $(cat "$tmp/err")"
		[ ! -s "$tmp/out" ] || flunk "lfts without tables wrote: $(head -n 3 "$tmp/out")"
		continue
	fi
	run 0 "$IBTOPO" export --format "$f" "$DATA/ck-cables.topo" ||
		flunk "export --format $f"
done <"$tmp/list"
# with tables: import them into a snapshot, export writes every switch's
run 0 "$IBTOPO" --db "$tmp/db" import "$DATA/sim-small.cache" \
	--routes "$DATA/ir-sim-small-lfts.dump" || flunk "import --routes"
run 0 "$IBTOPO" --db "$tmp/db" export --format lfts || flunk "export --format lfts with tables"
n=$(grep -c '^Unicast lids .* of switch ' "$tmp/out")
want=$(grep -c '^Unicast lids .* of switch ' "$DATA/ir-sim-small-lfts.dump")
[ "$n" -ge 1 ] && [ "$n" = "$want" ] || flunk "lfts: $n switches, wanted $want"
run 2 "$IBTOPO" export --format nosuch "$DATA/ck-cables.topo"
names=$(awk 'NR > 1 { printf "%s", (last != "" ? last ", " : "") } { last = $0 } END { }' "$tmp/list")
grep -q "unknown format 'nosuch' (${names%, }" "$tmp/err" ||
	flunk "error: $(cat "$tmp/err") (wanted the list: $(tr '\n' ' ' <"$tmp/list"))"
grep -q " or $(tail -n 1 "$tmp/list"))" "$tmp/err" || flunk "error: $(cat "$tmp/err")"
exit "$failed"
