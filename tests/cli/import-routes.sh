#!/bin/sh
# import-routes.sh - `ibtopo import FILE --routes RFILE` attaches switch
# forwarding tables to the snapshot, as discover --routes stores them:
# export --format lfts gives back every entry of the dump (an
# opensm-lfts.dump OpenSM wrote under ibsim for tests/data/sim-small.net,
# imported with the cache of that fabric). A switch the fabric lacks gives
# one warning; bad input fails with RFILE:LINE and stores nothing; a
# snapshot imported without --routes has no tables to export.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
test_env db
cache=$DATA/sim-small.cache
dump=$DATA/ir-sim-small-lfts.dump

# ---- the tables round-trip, entry for entry
run 0 "$IBTOPO" import "$cache" --routes "$dump" &&
	grep -q '^snapshot 1:' "$tmp/out" || flunk "import --routes"
[ -s "$tmp/err" ] && flunk "import --routes warned: $(cat "$tmp/err")"
run 0 "$IBTOPO" export --format lfts -o "$tmp/lfts" || flunk "export lfts"
lft_entries <"$dump" >"$tmp/want"
lft_entries <"$tmp/lfts" >"$tmp/got"
[ "$(wc -l <"$tmp/want")" -ge 30 ] || flunk "too few entries in $dump"
cmp -s "$tmp/want" "$tmp/got" || {
	diff "$tmp/want" "$tmp/got" >&2
	flunk "exported tables differ from the imported dump"
}

# ---- a switch the fabric lacks: one warning, the rest attached
sed 's/guid 0x0000000000200003/guid 0x00000000002000ff/' "$dump" >"$tmp/extra.dump"
run 0 "$IBTOPO" import "$cache" --routes "$tmp/extra.dump" || flunk "import extra"
printf '%s\n' "ibtopo: warning: $tmp/extra.dump: 1 switch not in the fabric; their tables are left out" >"$tmp/want-err"
same "$tmp/want-err" "$tmp/err"
run 0 "$IBTOPO" export 2 --format lfts -o "$tmp/lfts2" || flunk "export 2"
n=$(grep -c '^Unicast lids' "$tmp/lfts2")
[ "$n" = 3 ] || flunk "$n tables exported, wanted 3"

# ---- bad input: FILE:LINE, nothing stored
printf 'Unicast lids [0-9] of switch Lid 1 guid 0x0000000000200000 (x):\n0x0001 what\n' \
	>"$tmp/bad.dump"
run 2 "$IBTOPO" import "$cache" --routes "$tmp/bad.dump" &&
	grep -q "^ibtopo: $tmp/bad.dump:2: " "$tmp/err" ||
	flunk "bad dump: $(cat "$tmp/err")"
run 0 "$IBTOPO" snapshots --format csv &&
	[ "$(grep -c '^[0-9]' "$tmp/out")" = 2 ] || flunk "a bad dump stored something"

# ---- the net file that simulation ran on, without GUIDs, and its dump:
# the nodes get the GUIDs ibsim gives them (0x200000.. for switches,
# 0x100000.. for CAs, in file order, as in the cache of that fabric) and
# the ports the dump's LIDs, so the pair can be analyzed
net=$DATA/sim-small.net
run 0 "$IBTOPO" routes "$net" --routes "$dump" || flunk "routes $net"
[ -s "$tmp/err" ] && flunk "routes $net warned: $(cat "$tmp/err")"
grep -q '^routing: engine unknown; 4 of 4 switches with tables; 5 CA ports, 20 CA pairs, 0 unreachable$' \
	"$tmp/out" || flunk "routes $net: $(head -2 "$tmp/out")"
run 0 "$IBTOPO" show "$net" nodes --format csv
cut -d, -f1-3 "$tmp/out" >"$tmp/net-nodes"
run 0 "$IBTOPO" show "$cache" nodes --format csv
cut -d, -f1-3 "$tmp/out" >"$tmp/cache-nodes"
cmp -s "$tmp/net-nodes" "$tmp/cache-nodes" ||
	flunk "net file GUIDs: $(cat "$tmp/out")"

# ---- no tables: export lfts refuses
run 0 "$IBTOPO" import "$cache" || flunk "plain import"
run 2 "$IBTOPO" export --format lfts &&
	grep -q "^ibtopo: .*no forwarding tables" "$tmp/err" ||
	flunk "export lfts without tables: $(cat "$tmp/err")"
exit "$failed"
