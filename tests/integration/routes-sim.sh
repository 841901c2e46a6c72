#!/bin/sh
# routes-sim.sh - `ibtopo discover --routes` reads every switch's linear
# forwarding table live, with Gets only, stores it with the snapshot, and
# `export --format lfts` writes it as OpenSM's opensm-lfts.dump: the
# tables read live equal, entry for entry, the dump OpenSM wrote of what it
# programmed and what infiniband-diags' dump_fts reads (issue 15).
#
# A 152-node fat tree (bench/gen-fattree.py --radix 16 --levels 2: 24
# switches, 128 hosts; LIDs up to 152, so 3 LFT blocks a switch) under
# ibsim; one `opensm -o` assigns LIDs, programs the tables and writes its
# dumps (--dump_files_dir, -D 0x43). Discovery runs with tests/rel-madspy.so
# in front of umad2sim, which logs every MAD: all are Gets, and the
# LinearForwardingTable ones number the switches times 3. Then a switch
# whose LFT never answers (ibsim `Error "leaf003" 100 25`, attribute 0x19):
# discovery is incomplete naming that switch; with --partial it is stored
# without a table for it. OpenSM's `file` engine loads the export
# (opensm -R file -U). Last, --routes and --counters in one run. The
# routing engine is stored from OpenSM's log (--routes-log), then as
# named (--routing-engine), else not at all.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
diag_require DUMP_FTS dump_fts
gen_fattree 16 2 "$TESTDIR/ft.net"
switches=$(grep -c '^Switch' "$TESTDIR/ft.net")
nodes=$(grep -c '^Switch\|^Hca' "$TESTDIR/ft.net")
sim_start_as "$TESTDIR/ft.net" h00001

sim_opensm_dumps
grep -q 'tables configured on all switches' "$TESTDIR/osm/osm.log" ||
	fail "opensm configured no tables"
[ -s "$TESTDIR/dump/opensm-lfts.dump" ] || fail "opensm wrote no opensm-lfts.dump"

# ---- read live, Gets only
sim_spy "$TESTDIR/mads.log" "$IBTOPO" -v --db "$DB" discover --routes \
	--routes-log "$TESTDIR/osm/osm.log" \
	--timeout 500 >"$TESTDIR/out" 2>"$TESTDIR/err" || {
	cat "$TESTDIR/err"
	fail "discover --routes failed"
}
grep -q "^snapshot 1: $switches switches, 128 CAs" "$TESTDIR/out" ||
	{ cat "$TESTDIR/out"; fail "discover summary"; }
grep -q "^ibtopo: routes: $switches switch forwarding tables read in \
$((switches * 3)) LFT blocks in [0-9.]* s\$" "$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "no -v step line for the routes"; }
# Gets, and the SA's multicast members (MCMemberRecord GetTable, issue 36)
not_get=$(grep -vc '^[0-9a-f][0-9a-f] 01 \|^03 12 0038$' "$TESTDIR/mads.log")
[ "$not_get" -eq 0 ] || fail "$not_get MADs with another method than Get"
n=$(grep -c '^81 01 0019$' "$TESTDIR/mads.log")
[ "$n" -eq $((switches * 3)) ] ||
	fail "$n LinearForwardingTable Gets, wanted $((switches * 3))"
[ "$(store_sql "SELECT count(*) FROM lfts WHERE snapshot_id = 1")" = "$switches" ] ||
	fail "not one stored table per switch"
[ "$(store_sql "SELECT count(*) FROM lfts WHERE top = $nodes")" = "$switches" ] ||
	fail "stored tables do not all end at LID $nodes"
# the engine OpenSM logged it routed with (its default, minhop)
[ "$(store_sql "SELECT routing_engine = 'minhop' FROM snapshots WHERE id = 1")" = 1 ] ||
	fail "the routing engine of OpenSM's log is not stored"

# ---- entry for entry: OpenSM's own dump, and dump_fts
run 0 "$IBTOPO" --db "$DB" export --format lfts -o "$TESTDIR/ours.dump" ||
	fail "export --format lfts"
lft_entries <"$TESTDIR/ours.dump" >"$TESTDIR/ours"
lft_entries <"$TESTDIR/dump/opensm-lfts.dump" >"$TESTDIR/osm.entries"
[ "$(wc -l <"$TESTDIR/ours")" -eq $((switches * nodes)) ] ||
	fail "$(wc -l <"$TESTDIR/ours") entries exported, wanted $((switches * nodes))"
cmp -s "$TESTDIR/ours" "$TESTDIR/osm.entries" || {
	diff "$TESTDIR/osm.entries" "$TESTDIR/ours" | head >&2
	fail "exported tables differ from opensm-lfts.dump"
}
cmp -s "$TESTDIR/ours.dump" "$TESTDIR/dump/opensm-lfts.dump" &&
	info "export --format lfts is byte for byte opensm-lfts.dump"
sim_client "$DUMP_FTS" >"$TESTDIR/dump_fts.out" 2>&1 || fail "dump_fts failed"
lft_entries <"$TESTDIR/dump_fts.out" >"$TESTDIR/fts.entries"
cmp -s "$TESTDIR/ours" "$TESTDIR/fts.entries" || {
	diff "$TESTDIR/fts.entries" "$TESTDIR/ours" | head >&2
	fail "exported tables differ from dump_fts"
}

# ---- OpenSM's file engine takes the export back
(cd "$TESTDIR/work" &&
	OSM_CACHE_DIR="$TESTDIR/osm" OSM_TMP_DIR="$TESTDIR/osm" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
	LD_PRELOAD="$UMAD2SIM" timeout -s KILL 60 "$OPENSM" -o -R file \
	-U "$TESTDIR/ours.dump" -f "$TESTDIR/osm/file.log" \
	>"$TESTDIR/osm/file.out" 2>&1) || fail "opensm -R file failed"
grep -q 'file tables configured on all switches' "$TESTDIR/osm/file.log" ||
	fail "opensm -R file -U did not load the export"

# ---- a switch whose LFT never answers: incomplete, named
sim_cmd 'Error "leaf003" 100 25'
run 2 sim_client "$IBTOPO" --db "$DB" discover --routes --retries 0 --timeout 100 ||
	fail "discover with a silent LFT did not exit 2"
grep -q "^ibtopo: discovery incomplete: .*switch 'leaf003' .* did not answer \
LinearForwardingTable block 0 (3 of 3 blocks missing).*nothing stored" \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "the silent switch is not named"; }
run 0 sim_client "$IBTOPO" --db "$DB" discover --routes --retries 0 --timeout 100 \
	--partial || fail "discover --partial with a silent LFT"
[ "$(store_sql "SELECT count(*) FROM lfts WHERE snapshot_id = 2")" = $((switches - 1)) ] ||
	fail "not one table per answering switch"
grep -q "warning: discovery incomplete: .*switch 'leaf003'" "$TESTDIR/err" ||
	fail "--partial: no warning naming leaf003"
"$IBTOPO" --db "$DB" snapshots --format csv >"$TESTDIR/list" ||
	fail "snapshots"
grep -q "^2,.*switch 'leaf003'.*LinearForwardingTable" "$TESTDIR/list" ||
	{ cat "$TESTDIR/list"; fail "partial reason does not name leaf003"; }
sim_cmd 'Error "leaf003" 0'

# ---- routes and counters in one run
run 0 sim_client "$IBTOPO" --db "$DB" discover --routes --counters --timeout 500 \
	--routing-engine minhop || fail "discover --routes --counters"
[ "$(store_sql "SELECT count(*) FROM snapshots WHERE id = 3 AND routing_engine = 'minhop'")" = 1 ] ||
	fail "--routing-engine: not stored"
[ "$(store_sql "SELECT count(*) FROM snapshots WHERE id = 2 AND routing_engine IS NULL")" = 1 ] ||
	fail "an engine stored though none was named"
[ "$(store_sql "SELECT count(*) FROM lfts WHERE snapshot_id = 3")" = "$switches" ] ||
	fail "--routes --counters: tables"
[ "$(store_sql "SELECT count(*) FROM port_counters WHERE snapshot_id = 3")" -gt 0 ] ||
	fail "--routes --counters: counters"
run 0 "$IBTOPO" --db "$DB" export 3 --format lfts -o "$TESTDIR/third.dump" &&
	lft_entries <"$TESTDIR/third.dump" | cmp -s - "$TESTDIR/osm.entries" ||
	fail "--routes --counters: tables differ"
exit 0
