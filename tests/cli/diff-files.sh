#!/bin/sh
# diff-files.sh - `ibtopo diff` on files: two ibnetdiscover dumps of a
# simulated fabric recabled in between (JSON golden, CSV golden with
# --lids), a file against itself, a real fabric against a copy with one
# cable moved to an empty port, snapshots from a database, usage errors.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env


B=$DATA/dv-before.topo
A=$DATA/dv-after.topo

# Nothing changed: exit 0, an empty list.
run 0 "$IBTOPO" diff "$B" "$B" --lids --format json &&
	printf '{"schema_version":2,"findings":[]}\n' >"$tmp/want" &&
	same "$tmp/want" "$tmp/out"
run 0 "$IBTOPO" diff "$B" "$B"

# Recabled between the two dumps: host006 gone, host007 new, host005
# renamed, leaf01 ports 1 and 2 swapped, the leaf02-spine02 cable moved
# to leaf02 port 7, leaf01-spine02 unplugged, leaf01-spine01 at EDR; and
# OpenSM gave new LIDs.
run 1 "$IBTOPO" diff "$B" "$A" --format json && same "$GOLDEN/dv-diff.json" "$tmp/out"
run 1 "$IBTOPO" diff --lids "$B" "$A" --format csv && same "$GOLDEN/dv-diff-lids.csv" "$tmp/out"
run 1 "$IBTOPO" diff "$B" "$A" &&
	grep -q 'host006' "$tmp/out" && grep -q 'swapped' "$tmp/out" ||
	flunk "text output does not name the removed host and the swap"
grep -q 'LID changed' "$tmp/out" && flunk "LID changes reported without --lids"

# A real fabric: stage97's cable moved from ib5 port 32 to the empty port 34.
QDR=$REAL/qdr-hosts-fdr10-isls.topo
if [ -f "$QDR" ]; then
	run 0 "$IBTOPO" diff "$QDR" "$QDR"
	sed -e 's/^\[32\]\t"H-24be05ffff985d90"/[34]\t"H-24be05ffff985d90"/' \
	    -e 's/\("S-f4521403001165a0"\)\[32\]\(.*"MF0;ib5:SX6036\/U1"\)/\1[34]\2/' \
		"$QDR" >"$tmp/moved.topo"
	cmp -s "$QDR" "$tmp/moved.topo" && flunk "sed did not move the cable"
	run 1 "$IBTOPO" diff "$QDR" "$tmp/moved.topo" --format csv
	[ "$(wc -l <"$tmp/out")" -eq 2 ] || { cat "$tmp/out"; flunk "moved cable: expected one change"; }
	grep -q '^link-moved,warning,stage97 mlx4_0,0x24be05ffff985d90,1,MF0;ib5:SX6036/U1,0xf4521403001165a0,32,stage97 mlx4_0,0x24be05ffff985d90,1,MF0;ib5:SX6036/U1,0xf4521403001165a0,34,' "$tmp/out" ||
		{ cat "$tmp/out"; flunk "moved cable: wrong change"; }
else
	flunk "fixture $QDR missing"
fi

# Snapshots: a REF works like a file.
run 0 "$IBTOPO" --db "$tmp/f.db" import "$B"
run 0 "$IBTOPO" --db "$tmp/f.db" import "$A"
# the JSON of a snapshot's diff names its fabric; that aside, the same
nofabric() {
	grep -q '^{"schema_version":2,"fabric":"fabric-0000000000200000",' \
		"$tmp/out" || flunk "diff names no fabric: $(head -c 80 "$tmp/out")"
	sed -i 's/^{"schema_version":2,"fabric":"[^"]*",/{"schema_version":2,/' \
		"$tmp/out"
}
run 1 "$IBTOPO" --db "$tmp/f.db" diff latest~1 latest --format json &&
	nofabric && same "$GOLDEN/dv-diff.json" "$tmp/out"
run 1 "$IBTOPO" --db "$tmp/f.db" diff "$B" latest --format json &&
	nofabric && same "$GOLDEN/dv-diff.json" "$tmp/out"
run 2 "$IBTOPO" --db "$tmp/f.db" diff latest~1 no-such-label
[ "$(wc -l <"$tmp/err")" -eq 1 ] || flunk "unknown REF: not one line"

# Usage errors: exit 2.
run 2 "$IBTOPO" diff "$B"
grep -q 'diff needs OLD and NEW' "$tmp/err" || flunk "one argument: unclear error"
run 2 "$IBTOPO" diff "$B" "$A" "$B"
grep -q "unexpected argument" "$tmp/err" || flunk "three arguments: unclear error"
run 2 "$IBTOPO" diff "$B" "$A" --format yaml
run 2 "$IBTOPO" diff --lidz "$B" "$A"
run 0 "$IBTOPO" diff --help
grep -q 'link-moved' "$tmp/out" || flunk "diff --help does not list the changes"

# Two fabrics with no node in common (issue 23: 117 changes, and not a
# word that they share nothing): said first, then the changes; a fabric
# sharing a node says nothing of the kind.
run 1 "$IBTOPO" diff "$DATA/tf-iblinkinfo.txt" "$DATA/ck-cables.topo"
head -1 "$tmp/out" >"$tmp/first"
echo "OLD and NEW share no node (no node GUID in common): they are different fabrics; every node of OLD shows as removed and every node of NEW as added" >"$tmp/want"
same "$tmp/want" "$tmp/first" "first line of an unrelated diff"
grep -q '^node-removed' "$tmp/out" || flunk "unrelated: no node-removed"
run 1 "$IBTOPO" diff "$B" "$A"
grep -q 'share no node' "$tmp/out" && flunk "related fabrics said to share no node"

exit $failed
