#!/bin/sh
# render-svg.sh - `ibtopo render` on tests/data/rd-small*.topo (2 spines,
# 2 leaves, 8 hosts; host003 trained at SDR, one leaf02-spine02 cable at
# FDR, a cable rated FDR on leaf01-spine01 from rd-small-cables.csv):
#  - DOT: the golden file, the same bytes twice;
#  - SVG parsed as XML: one node per switch and host, titled by GUID; the
#    SDR and FDR links red, the under-rated cable orange;
#  - PNG and PDF: their magic bytes;
#  - --diff: the added cable green, the moved one's old place and the gone
#    host008 dashed red; --plan: the missing planned cable dashed;
#  - --focus, --hosts, a snapshot REF, and the errors.
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
LC_ALL=C
export LC_ALL

small=$DATA/rd-small.topo
cables=$DATA/rd-small-cables.csv
T=$TESTDIR

# svg_edges FILE: "TAIL HEAD STROKE DASHED" per edge, sorted.
svg_edges() {
	"$PYTHON3" - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
rows = []
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") != "edge":
        continue
    tail, head = g.find("s:title", ns).text.split("->")
    path = next(g.iter("{http://www.w3.org/2000/svg}path"))  # inside <a> with a tooltip
    rows.append("%s %s %s %s" % (tail, head.split(":")[0], path.get("stroke"),
                                 "dashed" if path.get("stroke-dasharray") else "solid"))
print("\n".join(sorted(rows)))
EOF
}

# svg_nodes FILE: node titles, sorted.
svg_nodes() {
	"$PYTHON3" - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
t = [g.find("{http://www.w3.org/2000/svg}title").text
     for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
print("\n".join(sorted(t)))
EOF
}

magic() {
	od -An -tx1 -N"$2" "$1" | tr -d ' \n'
}

SP1=n0002c90300000101 SP2=n0002c90300000102
L1=n0002c90300000201 L2=n0002c90300000202
H=n0002c9030000100

# ---- DOT: golden, deterministic
render --cables "$cables" -o "$T/a.dot" "$small"
render --cables "$cables" "$small" -o "$T/b.dot"	# options after too
cmp -s "$T/a.dot" "$T/b.dot" || fail "DOT differs between two runs"
diff -u "$top_srcdir/tests/golden/rd-cli-small.dot" "$T/a.dot" >&2 ||
	fail "DOT differs from tests/golden/rd-cli-small.dot"

# ---- SVG
render --cables "$cables" -o "$T/a.svg" "$small"
nodes=$(svg_nodes "$T/a.svg") || fail "SVG does not parse as XML"
want="$SP1
$SP2
$L1
$L2
${H}1
${H}2
${H}3
${H}4
${H}5
${H}6
${H}7
${H}8"
[ "$nodes" = "$want" ] || fail "SVG nodes: $nodes"
edges=$(svg_edges "$T/a.svg")
echo "$edges" | grep -qx "$L1 ${H}3 #d62728 solid" ||
	fail "SDR host link not red: $edges"
echo "$edges" | grep -qx "$SP2 $L2 #d62728 solid" ||
	fail "FDR inter-switch link not red: $edges"
echo "$edges" | grep -qx "$SP1 $L1 #ff7f0e solid" ||
	fail "under-rated cable not orange: $edges"
[ "$(echo "$edges" | grep -c '#d62728')" -eq 2 ] || fail "red edges: $edges"
[ "$(echo "$edges" | grep -c '#ff7f0e')" -eq 1 ] || fail "orange edges: $edges"
grep -q '>rd&#45;small.topo<\|>rd-small.topo<' "$T/a.svg" || fail "no title"

# ---- PNG, PDF
render -o "$T/a.png" "$small"
[ "$(magic "$T/a.png" 8)" = 89504e470d0a1a0a ] || fail "not a PNG"
render -o "$T/a.pdf" "$small"
[ "$(magic "$T/a.pdf" 5)" = 255044462d ] || fail "not a PDF"
render --format svg -o "$T/a.out" "$small"
grep -q '<svg' "$T/a.out" || fail "--format svg"
"$IBTOPO" render --format dot -o - "$small" | grep -q '^digraph fabric {$' ||
	fail "-o - does not write DOT to stdout"

# ---- --diff: host004's cable moved to leaf02, host008 gone, a new cable
render --diff "$small" "$DATA/rd-small-new.topo" -o "$T/d.svg"
edges=$(svg_edges "$T/d.svg")
echo "$edges" | grep -qx "$SP1 $L1 #2ca02c solid" || fail "added cable: $edges"
echo "$edges" | grep -qx "$L2 ${H}4 #2ca02c solid" || fail "moved cable: $edges"
echo "$edges" | grep -qx "$L1 ${H}4 #d62728 dashed" ||
	fail "moved cable's old place: $edges"
echo "$edges" | grep -qx "$L2 x0002c90300001008 #d62728 dashed" ||
	fail "gone host: $edges"
grep -q 'changes from rd&#45;small.topo to rd&#45;small&#45;new.topo\|changes from rd-small.topo to rd-small-new.topo' \
	"$T/d.svg" || fail "diff title"

# ---- --plan: the planned leaf01-spine01 port 23 cable is missing
render --plan "$DATA/rd-small-plan.topo" "$small" -o "$T/p.svg"
edges=$(svg_edges "$T/p.svg")
echo "$edges" | grep -qx "$SP1 $L1 #d62728 dashed" || fail "missing cable: $edges"
echo "$edges" | grep -qx "$L1 ${H}3 #d62728 solid" || fail "below plan: $edges"

# ---- --focus, --hosts
render --focus host005 --depth 1 -o "$T/f.dot" "$small"
grep -q "^	$L2 \[" "$T/f.dot" || fail "focus: no leaf02"
grep -q "^	${H}1 \[" "$T/f.dot" && fail "focus: host001 drawn"
render --hosts collapse -o "$T/c.dot" "$small"
grep -q 'label="4 hosts\\nhost001..host004"' "$T/c.dot" || fail "--hosts collapse"

# ---- a snapshot REF
"$IBTOPO" --db "$DB" import --label week1 "$small" >/dev/null 2>&1 ||
	fail "import"
"$IBTOPO" --db "$DB" render -o "$T/s.dot" week1 || fail "render week1"
# the title: the snapshot's fabric (as metrics names it) and the snapshot
fab=$("$IBTOPO" --db "$DB" metrics week1 | sed -n 's/^ibtopo_port_state{fabric="\([^"]*\)".*/\1/p' | sed -n 1p)
grep -q "<B>$fab · snapshot 1 "'“week1”</B>' "$T/s.dot" || fail "snapshot title"
grep -q '"13">20[0-9-]* [0-9:]* UTC · ' "$T/s.dot" || fail "snapshot subtitle"

# ---- errors: one line, exit 2
"$IBTOPO" render "$small" 2>"$T/err"
[ $? -eq 2 ] || fail "no -o: exit"
"$IBTOPO" render -o "$T/x.jpg" "$small" 2>"$T/err"
[ $? -eq 2 ] && grep -q "x.jpg" "$T/err" || fail "bad extension: $(cat "$T/err")"
"$IBTOPO" render --focus nosuch -o "$T/x.svg" "$small" 2>"$T/err"
[ $? -eq 2 ] && grep -q "^ibtopo: no node 'nosuch' in the fabric$" "$T/err" ||
	fail "focus error: $(cat "$T/err")"
"$IBTOPO" render -o "$T/no/such/dir/x.png" "$small" 2>"$T/err"
[ $? -eq 2 ] && grep -q "cannot write" "$T/err" || fail "unwritable: $(cat "$T/err")"
"$IBTOPO" render --hosts some -o "$T/x.svg" "$small" 2>"$T/err"
[ $? -eq 2 ] || fail "--hosts some accepted"
exit 0
