#!/bin/sh
# discover-sim.sh - `ibtopo discover` through the real libibnetdisc against
# a private ibsim (tests/data/sim-small.net, swept once by opensm): exact
# node and link counts, every link's ends, speed and width, the supported
# and enabled sets of the two restricted links (EDR between HDR-capable
# ports, 1x between 4x-capable ports), LIDs and port states, the snapshot
# metadata; then the snapshot read back from the store equals what the
# same discovery wrote to an ibnetdiscover cache file.
. "${top_srcdir:-.}/tests/lib.sh"
ibnetdiscover_require
python_require

sim_start_as "$DATA/sim-small.net" host02
sim_opensm

sim_client "$IBTOPO" --db "$DB" discover --label first --timeout 500 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || {
	cat "$TESTDIR/err"
	fail "discover failed"
}
[ -s "$TESTDIR/err" ] && { cat "$TESTDIR/err"; fail "discover wrote to stderr"; }
grep -q '^snapshot 1 (first): 4 switches, 4 CAs, 0 routers, 9 links$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "summary line"; }
grep -q '^  links: 7 x 4xHDR, 1 x 1xHDR, 1 x 4xEDR$' "$TESTDIR/out" ||
	{ cat "$TESTDIR/out"; fail "summary speed mix"; }

"$IBTOPO" --db "$DB" show --format json first links >"$TESTDIR/links.json" ||
	fail "show links"
links_brief <"$TESTDIR/links.json" >"$TESTDIR/got"
cat >"$TESTDIR/want" <<'EOF'
host01:1 leaf01:1 HDR 4x
host01:2 leaf02:1 HDR 4x
host02:1 leaf01:2 HDR 4x
host03:1 leaf01:3 HDR 1x
host04:1 leaf02:2 HDR 4x
leaf01:7 spine01:1 HDR 4x
leaf01:8 spine02:1 HDR 4x
leaf02:7 spine01:2 HDR 4x
leaf02:8 spine02:2 EDR 4x
EOF
diff -u "$TESTDIR/want" "$TESTDIR/got" || fail "links differ"

# The restricted links: both ends support HDR and 4x; enabled sets say why.
links_sets <"$TESTDIR/links.json" >"$TESTDIR/sets"
all_s=SDR,DDR,QDR,FDR,EDR,HDR
all_w=1x,2x,4x,8x,12x
grep -qx "leaf02:8 spine02:2 EDR 4x leaf02:8 $all_w/1x,4x $all_s/SDR,DDR,QDR,FDR,EDR spine02:2 $all_w/1x,4x $all_s/SDR,DDR,QDR,FDR,EDR" \
	"$TESTDIR/sets" || { cat "$TESTDIR/sets"; fail "EDR link sets"; }
grep -qx "host03:1 leaf01:3 HDR 1x host03:1 $all_w/1x $all_s/$all_s leaf01:3 $all_w/1x $all_s/$all_s" \
	"$TESTDIR/sets" || { cat "$TESTDIR/sets"; fail "1x link sets"; }
grep -qx "host01:1 leaf01:1 HDR 4x host01:1 $all_w/1x,4x $all_s/$all_s leaf01:1 $all_w/1x,4x $all_s/$all_s" \
	"$TESTDIR/sets" || { cat "$TESTDIR/sets"; fail "HDR link sets"; }

# Nodes: types and descriptions; ports: after the sweep every linked port
# is active with a LID.
"$IBTOPO" --db "$DB" show --format json first nodes >"$TESTDIR/nodes.json" ||
	fail "show nodes"
got=$(json_get '" ".join(sorted("%s:%s:%d" % (n["type"], n["description"], n["ports"]) for n in j["nodes"]))' <"$TESTDIR/nodes.json")
[ "$got" = "ca:host01:2 ca:host02:1 ca:host03:1 ca:host04:1 switch:leaf01:12 switch:leaf02:12 switch:spine01:12 switch:spine02:12" ] ||
	fail "nodes: $got"
"$IBTOPO" --db "$DB" show --format json first ports >"$TESTDIR/ports.json" ||
	fail "show ports"
got=$(json_get 'sorted(set((p["state"], p["lid"] is not None) for p in j["ports"] if p["peer"]["node"]))' <"$TESTDIR/ports.json")
[ "$got" = "[('active', True)]" ] || fail "linked ports not all active with a LID: $got"

"$IBTOPO" --db "$DB" snapshots --format json >"$TESTDIR/snaps.json" ||
	fail "snapshots"
got=$(json_get '[(s["label"], s["source"], s["partial"]) for s in j["snapshots"]]' <"$TESTDIR/snaps.json")
[ "$got" = "[('first', 'discover:ibsim0/1', False)]" ] || fail "snapshot meta: $got"

# Store round trip: the stored snapshot shows exactly what the same
# fabric's ibnetdiscover cache file shows when read directly, and what
# `ibtopo import` of that file stores.
sim_client "$IBNETDISCOVER" --cache "$TESTDIR/fabric.cache" >/dev/null 2>&1 ||
	fail "ibnetdiscover --cache"
"$IBTOPO" --db "$DB" import --label imported "$TESTDIR/fabric.cache" \
	>"$TESTDIR/out" || fail "import of the cache file"
grep -q '^snapshot 2 (imported): 4 switches, 4 CAs, 0 routers, 9 links$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "import summary"; }
for what in links nodes ports; do
	"$IBTOPO" --db "$DB" show --format json first "$what" >"$TESTDIR/db.json"
	"$IBTOPO" show --format json "$TESTDIR/fabric.cache" "$what" \
		>"$TESTDIR/cache.json" || fail "show $what of the cache file"
	"$IBTOPO" --db "$DB" show --format json imported "$what" \
		>"$TESTDIR/imported.json" || fail "show $what of the import"
	# a snapshot names its fabric, a file does not; a sweep reads the
	# PKeyTables, which a cache file cannot carry
	sed -e 's/^{"schema_version":2,"fabric":"[^"]*",/{"schema_version":2,/' \
		-e 's/"pkeys":\[[^]]*\]/"pkeys":null/g' \
		"$TESTDIR/db.json" >"$TESTDIR/db-file.json"
	cmp -s "$TESTDIR/db-file.json" "$TESTDIR/cache.json" || {
		diff "$TESTDIR/db-file.json" "$TESTDIR/cache.json" | head -5
		fail "$what: stored snapshot differs from the cache file"
	}
	sed 's/"pkeys":\[[^]]*\]/"pkeys":null/g' "$TESTDIR/db.json" \
		>"$TESTDIR/db-nokeys.json"
	cmp -s "$TESTDIR/db-nokeys.json" "$TESTDIR/imported.json" || {
		diff "$TESTDIR/db-nokeys.json" "$TESTDIR/imported.json" | head -5
		fail "$what: discovered and imported snapshots differ"
	}
done
exit 0
