#!/bin/sh
# render-plan-missing.sh - `render --plan` draws what `validate` reports,
# and its legend counts what validate counts (issue 23, item 15). The
# plan: a 2-level fat tree of 4 leaves; the fabric lacks leaf02 (so its
# hosts are cabled to nothing) and one cable spine01 [1] - leaf01 [5].
# validate: one missing-node (leaf02, 8 planned links) and one
# missing-link. The picture drew no leaf02 at all, and would count its 8
# links as missing links: it must draw leaf02 dashed with its planned
# links, and say "planned node missing (1)" and "planned link missing
# (1)" as validate does.
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
T=$TESTDIR

"$IBTOPO" plan fat-tree --leaves 4 --spines 2 --hosts-per-leaf 4 --radix 8 \
	-o "$T/plan.topo" || fail "plan"
# the fabric: no leaf02 (its block and every port line naming it) and
# no cable spine01 [1] - leaf01 [5]
"$PYTHON3" - "$T/plan.topo" "$T/fabric.topo" <<'PY' || fail "fabric"
import sys
blocks = open(sys.argv[1]).read().split("\n\n")
out = []
for b in blocks:
    if b.startswith('Switch\t8 "leaf02"'):
        continue
    out.append("\n".join(
        l for l in b.split("\n")
        if '"leaf02"[' not in l
        and not l.startswith('[5]\t"spine01"[1]')
        and not l.startswith('[1]\t"leaf01"[5]')))
open(sys.argv[2], "w").write("\n\n".join(out))
PY

run 1 "$IBTOPO" validate "$T/plan.topo" "$T/fabric.topo" --format json
got=$("$PYTHON3" -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
print(" ".join(sorted("%s:%s" % (x["kind"], x["a"]["node"]) for x in f)))
' "$T/out")
[ "$got" = "missing-link:spine01 missing-node:leaf02" ] ||
	flunk "validate: $got"

run 0 "$IBTOPO" render --plan "$T/plan.topo" "$T/fabric.topo" -o "$T/p.dot"
d=$T/p.dot
# leaf02 drawn, dashed, with its 8 planned links (4 hosts, 4 uplinks)
id=$(sed -n 's/^	\([a-z0-9]*\) \[label="leaf02".*style=dashed.*/\1/p' "$d")
[ -n "$id" ] || flunk "no dashed leaf02: $(grep -c leaf02 "$d")"
if [ -n "$id" ]; then
	n=$(grep -c "^	[a-z0-9]* -> $id \[.*dashed\|^	$id -> .*dashed" "$d")
	[ "$n" -eq 6 ] ||
		flunk "leaf02: $n dashed edges, want 6 (2 spines, 4 hosts)"
fi
grep -q 'planned node missing, dashed (1)' "$d" ||
	flunk "legend: $(grep -o 'planned node missing[^<]*' "$d")"
grep -q 'planned link missing (1)' "$d" ||
	flunk "legend: $(grep -o 'planned link missing[^<]*' "$d" | head -1)"
exit "$failed"
