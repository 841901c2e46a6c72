#!/bin/sh
# wording.sh - the words of the text reports (issue 18, item 9): counts
# agree with their nouns ("1 pair", "1 route"), a diff without changes
# says "no differences", `show links` says Gb/s and leaves out the
# columns no link has a value in (--wide shows them; JSON and CSV keep
# every key). Collapsed host groups are checked in tests/test_render.c.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
FT=$DATA/ck-cables.topo	# two leaf switches: one pair
unset IBTOPO_DB

run 1 "$IBTOPO" analyze --fail-on warning "$FT"
grep -q '^Path diversity between 2 leaf switches (1 pair; 2 wanted):$' "$tmp/out" ||
	flunk "leaf pairs: $(grep 'Path diversity' "$tmp/out")"
grep -q '^  worst pair: leaf01 - leaf02: 1 node-, 2 edge-disjoint, 1 route$' "$tmp/out" ||
	flunk "worst pair: $(grep 'worst pair' "$tmp/out")"
grep -E -q '(^| )1 (routes|pairs)\b' "$tmp/out" && flunk "plural after 1: $(grep -E '1 (routes|pairs)' "$tmp/out")"

# ---- a diff with no change
run 0 "$IBTOPO" diff "$FT" "$FT" && stdout_is "no differences"
# validate, where nothing differs from the plan, has no findings
run 0 "$IBTOPO" validate "$FT" "$FT" && stdout_is "no findings"

# ---- show links: Gb/s, the columns with data; --wide all of them
run 0 "$IBTOPO" show "$FT" links
head -n 1 "$tmp/out" | grep -q ' Gb/s$' || flunk "links header: $(head -n 1 "$tmp/out")"
grep -q 'GB/S\|SPEED SUP\|WIDTH EN\|PART NUMBER' "$tmp/out" &&
	flunk "columns without data shown: $(head -n 1 "$tmp/out")"
[ "$(head -n 1 "$tmp/out" | wc -c)" -le 120 ] ||
	flunk "links table $(head -n 1 "$tmp/out" | wc -c) characters wide"
run 0 "$IBTOPO" show --wide "$FT" links
for col in 'Gb/s' 'A SPEED SUP' 'B WIDTH EN' 'MEDIA' 'LENGTH M' 'PART NUMBER'; do
	head -n 1 "$tmp/out" | grep -q "$col" || flunk "--wide lacks '$col': $(head -n 1 "$tmp/out")"
done
# the machine formats keep every key
run 0 "$IBTOPO" show --format csv "$FT" links
head -n 1 "$tmp/out" | tr -d '\r' | grep -q ',a.speed_supported,.*,cable.part_number$' ||
	flunk "CSV keys: $(head -n 1 "$tmp/out")"
run 0 "$IBTOPO" show --format json "$FT" links
grep -q '"a":{[^}]*"speed_supported":' "$tmp/out" || flunk "JSON keys: $(head -c 400 "$tmp/out")"
exit "$failed"
