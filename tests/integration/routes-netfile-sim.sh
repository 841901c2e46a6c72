#!/bin/sh
# routes-netfile-sim.sh - an ibsim net file without GUIDs plus the
# opensm-lfts.dump of its simulation is a fabric `ibtopo routes` analyzes:
# the net file's nodes get the GUIDs ibsim gives them and its ports the
# LIDs the dump names (issue 23, item 24). Under a real ibsim and one
# `opensm -o` sweep, the analysis of the pair equals that of the fabric
# discovered live with its tables (discover --routes).
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"

gen_fattree 8 2 "$TESTDIR/ft.net"
grep -q 'guid' "$TESTDIR/ft.net" && fail "the generated net file states GUIDs"
switches=$(grep -c '^Switch' "$TESTDIR/ft.net")
sim_start_as "$TESTDIR/ft.net" h00001
sim_opensm_dumps
dump=$TESTDIR/dump/opensm-lfts.dump
[ -s "$dump" ] || fail "opensm wrote no opensm-lfts.dump"
sim_client "$IBTOPO" --db "$DB" discover --routes >"$TESTDIR/disc.out" \
	2>"$TESTDIR/disc.err" || fail "discover --routes: $(cat "$TESTDIR/disc.err")"
sim_stop

run 0 "$IBTOPO" routes "$TESTDIR/ft.net" --routes "$dump" ||
	fail "routes of the net file and its dump"
[ -s "$TESTDIR/err" ] && fail "routes of the net file warned: $(cat "$TESTDIR/err")"
grep -q "^routing: engine unknown; $switches of $switches switches with tables; .* 0 unreachable\$" \
	"$TESTDIR/out" || fail "routes of the net file: $(head -2 "$TESTDIR/out")"
sed 1d "$TESTDIR/out" >"$TESTDIR/from-net"
run 0 "$IBTOPO" --db "$DB" routes latest || fail "routes of the discovered fabric"
sed 1d "$TESTDIR/out" >"$TESTDIR/from-sweep"
same "$TESTDIR/from-sweep" "$TESTDIR/from-net" "routes of the net file and its dump"
info "net file + opensm-lfts.dump: $switches switches analyzed as discovered"
exit "$failed"
