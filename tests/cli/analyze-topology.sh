#!/bin/sh
# analyze-topology.sh - the topology part of `ibtopo analyze`: the
# architect's summary of a generated fat tree with a dropped uplink
# (golden text), the JSON "topology" and "paths" of the real dumps, and
# the --min-paths, --roots and --root-pattern options.
. "$top_srcdir/tests/lib.sh"
python_require
FIXTURES="$top_srcdir/tests/data/real"
FT="$DATA/topo-ft2-drop.topo"

# ---- text: everything after the fabric line, byte for byte
"$IBTOPO" analyze "$FT" >"$TESTDIR/out.txt" 2>"$TESTDIR/err" ||
	fail "analyze exited $? (warnings only: wanted 0): $(cat "$TESTDIR/err")"
sed 1d "$TESTDIR/out.txt" >"$TESTDIR/got.txt"
if ! cmp -s "$top_srcdir/tests/golden/topo-ft2-drop.txt" "$TESTDIR/got.txt"; then
	diff "$top_srcdir/tests/golden/topo-ft2-drop.txt" "$TESTDIR/got.txt" >&2
	fail "summary differs from tests/golden/topo-ft2-drop.txt"
fi
# The level table counts host links, not servers (a dual-homed server has
# two): ndr-superpod's 193 servers have 542 links, and the column says so.
"$IBTOPO" analyze "$DATA/real/ndr-superpod-rails.topo" >"$TESTDIR/ndr.txt" ||
	fail "analyze ndr-superpod-rails.topo"
grep -q '^Topology: rail-optimized fat tree, 2 switch levels, 40 switches, 193 servers$' \
	"$TESTDIR/ndr.txt" || fail "ndr summary: $(grep '^Topology' "$TESTDIR/ndr.txt")"
got=$(awk '/^  LEVEL / { hdr = $0; on = 1; next }
	on && NF == 0 { on = 0 }
	on { sum += $4 }
	END { print (hdr ~ / SWITCHES CHASSIS HOST LINKS /) ? sum : "header: " hdr }' \
	"$TESTDIR/ndr.txt")
[ "$got" = 542 ] || fail "ndr level table host links: $got, wanted 542"
"$IBTOPO" analyze --fail-on warning "$FT" >/dev/null 2>&1
[ $? -eq 1 ] || fail "--fail-on warning: wanted exit 1"

# ---- JSON
"$IBTOPO" analyze --format json "$FT" >"$TESTDIR/ft.json" || fail "json"
got=$(json_get '(j["topology"]["class"], j["topology"]["levels"],
	j["paths"]["leaf_pairs"]["node_disjoint"]["min"],
	[b["paths"] for b in j["paths"]["leaf_pairs"]["edge_disjoint"]["histogram"]],
	j["topology"]["opensm_ftree"]["accepted"],
	sorted(f.get("detail") for f in j["findings"] if f["kind"] == "fat-tree-violation"))' \
	<"$TESTDIR/ft.json")
[ "$got" = "('fat-tree', 2, 1, [1, 2], False, ['uneven-uplinks'])" ] ||
	fail "json: $got"

# --min-paths 3: every pair is short now (2 paths at best)
n=$("$IBTOPO" analyze --format json --min-paths 3 "$FT" |
	json_get 'sum(f["kind"] == "low-path-diversity" and f.get("detail") == "leaf-pair" for f in j["findings"])')
[ "$n" -eq 3 ] || fail "--min-paths 3: $n leaf-pair findings, wanted 3"
"$IBTOPO" analyze --min-paths x "$FT" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--min-paths x: wanted exit 2"

# roots: by pattern and by file give the same levels as the leaves do
"$IBTOPO" analyze --format json --root-pattern '^spine' "$FT" |
	json_get '[l["switches"] for l in j["topology"]["by_level"]]' >"$TESTDIR/lv"
[ "$(cat "$TESTDIR/lv")" = "[2, 4]" ] || fail "--root-pattern: $(cat "$TESTDIR/lv")"
printf 'spine01\n# a comment\n0x0002c90300001002\n' >"$TESTDIR/roots"
"$IBTOPO" analyze --format json --roots "$TESTDIR/roots" "$FT" |
	json_get 'j["topology"]["ranked_from"]' >"$TESTDIR/rf"
[ "$(cat "$TESTDIR/rf")" = roots ] || fail "--roots: $(cat "$TESTDIR/rf")"
# a roots file names a switch "MF0;<name>:<model>" or "MF0;<name>" by
# <name>, as Slurm's export does (the short name once needed the colon)
sed 's/"spine01"/"MF0;spine01"/' "$FT" >"$TESTDIR/mf0.topo"
printf 'spine01\n0x0002c90300001002\n' >"$TESTDIR/roots"
"$IBTOPO" analyze --format json --roots "$TESTDIR/roots" "$TESTDIR/mf0.topo" \
	2>"$TESTDIR/err" | json_get 'j["topology"]["ranked_from"]' >"$TESTDIR/rf"
[ "$(cat "$TESTDIR/rf")" = roots ] ||
	fail "--roots spine01 for MF0;spine01: $(cat "$TESTDIR/rf" "$TESTDIR/err")"
"$IBTOPO" export --format slurm "$TESTDIR/mf0.topo" | grep -q '^SwitchName=spine01 ' ||
	fail "slurm name of MF0;spine01"
"$IBTOPO" analyze --root-pattern '(' "$FT" >/dev/null 2>"$TESTDIR/err"
[ $? -eq 2 ] || fail "bad --root-pattern: wanted exit 2"
grep -q "^ibtopo: bad root pattern '('" "$TESTDIR/err" || fail "message: $(cat "$TESTDIR/err")"

# ---- real dumps: class, levels, leaf oversubscription, path counts
check() {
	[ -f "$FIXTURES/$1" ] || fail "fixture $FIXTURES/$1 missing"
	got=$("$IBTOPO" analyze --format json "$FIXTURES/$1" |
		json_get '(j["topology"]["class"], j["topology"]["levels"],
			round(j["topology"]["by_level"][-1]["oversubscription"], 3),
			j["paths"]["leaf_pairs"]["edge_disjoint"]["min"],
			j["paths"]["leaf_pairs"]["node_disjoint"]["min"])')
	[ "$got" = "$2" ] || fail "$1: $got, wanted $2"
}
check qdr-hosts-fdr10-isls.topo "('fat-tree', 2, 2.417, 7, 2)"
check x5-mixed-ddr-qdr.topo "('irregular', 3, 1.211, 4, 2)"
check ndr-superpod-rails.topo "('rail-optimized', 2, 1.019, 14, 7)"
exit 0
