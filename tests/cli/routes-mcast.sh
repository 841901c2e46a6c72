#!/bin/sh
# routes-mcast.sh - multicast forwarding from files (issue 36): OpenSM's
# opensm.mcfdbs and dump_fts -M output of the same fabric read alike, a
# fault planted in a copy found (exit 1), a file of multicast tables
# alone, the tables stored by import and read back, bad lines named.
#
# tests/data/mc-*: a 2-level fat tree of radix 4 (bench/gen-fattree.py)
# under ibsim, every host joined to 0xc000 and h00003 and h00007 to 0xc001
# (tests/mcast-tool join), OpenSM's dumps after a sweep more
# (mc-opensm.fdbs, mc-opensm.mcfdbs), dump_fts -M (mc-dump_fts-M.txt) and
# ibnetdiscover (mc-ft.topo).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
test_env
topo=$DATA/mc-ft.topo fdbs=$DATA/mc-opensm.fdbs mc=$DATA/mc-opensm.mcfdbs
fts=$DATA/mc-dump_fts-M.txt

# mlids FILE: the "mlid switches members reached loops dead_ends
# disconnected" lines of a routes JSON, then the findings' kinds
mlids() {
	"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["mcast"]["mlids"]:
    print(m["mlid"], m["switches"], m["members"], m["reached"], m["loops"],
          m["dead_ends"], m["disconnected"])
for f in d["findings"]:
    print(f["kind"], f.get("detail", "-"), f["a"]["node"], f["a"]["port"],
          hex(f["lid"]))
' "$1"
}

# ---- both formats, one answer; clean
run 0 "$IBTOPO" routes "$topo" --routes "$fdbs" --routes "$mc" --format json &&
	mlids "$TESTDIR/out" >"$TESTDIR/mc.txt"
printf '%s\n' "0xc000 5 8 8 0 0 0" "0xc001 3 2 2 0 0 0" >"$TESTDIR/want"
same "$TESTDIR/want" "$TESTDIR/mc.txt" "opensm.mcfdbs"
run 0 "$IBTOPO" routes "$topo" --routes "$fdbs" --routes "$fts" --format json &&
	mlids "$TESTDIR/out" >"$TESTDIR/fts.txt"
same "$TESTDIR/want" "$TESTDIR/fts.txt" "dump_fts -M"
# the multicast tables alone: no unicast routing, the multicast block
run 0 "$IBTOPO" routes "$topo" --routes "$mc"
grep -q '^multicast: 2 MLIDs on 5 switches with tables; members from the tables' \
	"$TESTDIR/out" || flunk "mcfdbs alone: $(head -3 "$TESTDIR/out")"
grep -q '^routing:' "$TESTDIR/out" && flunk "mcfdbs alone: a unicast block"
# CSV: the MLIDs, an empty line, the findings
run 0 "$IBTOPO" routes "$topo" --routes "$mc" --format csv
[ "$(sed -n 1p "$TESTDIR/out")" = "mlid,mgid,switches,members,reached,loops,dead_ends,disconnected" ] &&
	[ "$(sed -n 2p "$TESTDIR/out")" = "0xc000,,5,8,8,0,0,0" ] ||
	flunk "csv: $(head -3 "$TESTDIR/out")"

# ---- leaf004 (0x200005) cut from 0xc000's tree: its up-port out of the
# mask. From the tables alone its hosts are members still (they are in
# its mask), off the tree; spine001's port to it is one way.
sed '/^Switch 0x0000000000200005/,/^$/s/^\(0xC000 : 0x001  0x002  \)0x003 /\1/' "$mc" \
	>"$TESTDIR/cut.mcfdbs"
cmp -s "$mc" "$TESTDIR/cut.mcfdbs" && fail "the edit changed nothing"
run 1 "$IBTOPO" routes "$topo" --routes "$fdbs" --routes "$TESTDIR/cut.mcfdbs" \
	--format json && mlids "$TESTDIR/out" | sed -n '3,$p' | sort >"$TESTDIR/got"
printf '%s\n' "mcast-dead-end one-way spine001 4 0xc000" \
	"mcast-unreached ipoib-broadcast h00007 1 0xc000" \
	"mcast-unreached ipoib-broadcast h00008 1 0xc000" >"$TESTDIR/want"
same "$TESTDIR/want" "$TESTDIR/got" "a leaf cut off"
run 1 "$IBTOPO" analyze "$topo" --routes "$fdbs" --routes "$TESTDIR/cut.mcfdbs"
grep -q 'mcast-unreached.*IPoIB broadcast group, so ARP' "$TESTDIR/out" ||
	flunk "analyze: no mcast-unreached with its sentence"

# ---- stored with a snapshot, read back
run 0 "$IBTOPO" --db "$DB" import "$topo" --routes "$fdbs" --routes "$mc"
run 0 "$IBTOPO" --db "$DB" routes --format json &&
	mlids "$TESTDIR/out" >"$TESTDIR/db.txt"
same "$TESTDIR/mc.txt" "$TESTDIR/db.txt" "stored and loaded"

# ---- bad input: the file and line named, nothing attached
printf 'Switch 0x0000000000200000\nLID    : Out Port(s)\n0xC000 : 0x001 zz\n' \
	>"$TESTDIR/bad.mcfdbs"
run 2 "$IBTOPO" routes "$topo" --routes "$TESTDIR/bad.mcfdbs" &&
	stderr_is "ibtopo: $TESTDIR/bad.mcfdbs:3: expected out-ports '0x001' (0..255) after the MLID"
printf 'Switch 0x0000000000200000\nLID    : Out Port(s)\n0x0001 : 0x001\n' \
	>"$TESTDIR/bad.mcfdbs"
run 2 "$IBTOPO" routes "$topo" --routes "$TESTDIR/bad.mcfdbs" &&
	stderr_is "ibtopo: $TESTDIR/bad.mcfdbs:3: expected a multicast LID (0xc000..0xfffe)"
run 2 "$IBTOPO" routes "$topo" --routes "$mc" --routes "$mc" --routes "$mc" &&
	grep -q 'more than twice' "$TESTDIR/err" || flunk "three --routes"
exit "$failed"
