#!/bin/sh
# render-fixtures.sh - `ibtopo render` on every real fabric dump and on
# every tests/data/rd-*.topo. Each renders to SVG (parses as XML; every
# switch of the fabric is a node, titled n<GUID>), PNG and PDF (magic
# bytes), DOT (the same bytes twice), HTML (the SVG inline, the JSON data
# parses and names every drawn node), and as the overview (--detail
# groups) to SVG and HTML; under ASan in tools/check.sh.
# And what a reader of the dump sees is drawn:
#  - tiny-mixed-speeds.topo: the ConnectX-4 at SDR (r-ufm96) red, the
#    three loopback cables on the SwitchIB orange;
#  - qdr-hosts-fdr10-isls.topo: tank1 and tank2, cabled to the spine ib7,
#    purple (a fat-tree rule broken), in a block of hosts;
#  - x5-mixed-ddr-qdr.topo with its GUID map: host names in the cells;
#  - ndr-superpod-rails.topo: 542 hosts collapsed per leaf, the 40 SHARP
#    aggregation nodes not drawn as hosts; by default its overview (32
#    leaves on one level);
#  - rd-flat-labels.topo (plafrim's shape: an Infiniscale-III leaf cabled
#    at DDR to three other leaves, two cables to one): each of those
#    same-rank links keeps its label ("×2 DDR", "DDR"). graphviz 2.43
#    freed memory twice in gvFreeLayout for labels on such links.
. "$top_srcdir/tests/lib.sh"
[ -f "$REAL/tiny-mixed-speeds.topo" ] || fail "no $REAL (the real dumps are in the repository)"
python_require
unset IBTOPO_DB
T=$TESTDIR

magic() {
	od -An -tx1 -N"$2" "$1" | tr -d ' \n'
}

# svg_check SVG JSON: the SVG parses; print "missing GUID" for each switch
# of `show nodes --format json` that is not a node of the SVG, and then
# one "edge TAIL HEAD STROKE" line per edge and one "text TAIL HEAD TEXT"
# line per edge with a label.
svg_check() {
	"$PYTHON3" - "$1" "$2" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
nodes = set()
for g in root.iter(S + "g"):
    if g.get("class") == "node":
        nodes.add(g.find(S + "title").text)
    elif g.get("class") == "edge":
        tail, head = g.find(S + "title").text.split("->")
        print("edge", tail, head, next(g.iter(S + "path")).get("stroke"))
        for t in g.iter(S + "text"):
            print("text", tail, head, t.text)
for n in json.load(open(sys.argv[2]))["nodes"]:
    if n["type"] == "switch" and "n" + n["guid"][2:] not in nodes:
        print("missing", n["guid"])
EOF
}

# html_check HTML: the page holds an SVG and JSON data that parses, with
# a drawn node for each node the SVG has
html_check() {
	"$PYTHON3" - "$1" <<'EOF'
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="fabric-data">\n(.*?)\n</script>',
              s, re.S)
if not m or "<svg" not in s:
    sys.exit("no data or no SVG")
d = json.loads(m.group(1))
titles = re.findall(r'class="node">\s*<title>([^<]*)</title>', s)
missing = [t for t in titles if t not in d["nodes"]]
if missing or not titles:
    sys.exit("nodes without data: %s" % missing[:5])
if len(d["index"]["lid"]) != len(d["index"]["name"].split("\n")):
    sys.exit("index columns differ")
EOF
}

n=0
for f in "$REAL"/*.topo "$REAL"/*.ports*.txt "$DATA"/rd-*.topo; do
	[ -f "$f" ] || continue
	case $f in "$REAL"/*) n=$((n + 1)) ;; esac
	name=$(basename "$f")
	render --detail switches -o "$T/$name.svg" "$f"
	"$IBTOPO" show --format json "$f" nodes >"$T/$name.json" ||
		fail "$name: show nodes"
	svg_check "$T/$name.svg" "$T/$name.json" >"$T/$name.check" ||
		fail "$name: SVG does not parse"
	grep '^missing' "$T/$name.check" >&2 && fail "$name: switches not drawn"
	grep -q '^edge' "$T/$name.check" || fail "$name: no edges"
	render -o "$T/$name.png" "$f"
	[ "$(magic "$T/$name.png" 8)" = 89504e470d0a1a0a ] || fail "$name: PNG"
	render -o "$T/$name.pdf" "$f"
	[ "$(magic "$T/$name.pdf" 5)" = 255044462d ] || fail "$name: PDF"
	render -o "$T/$name.1.dot" "$f"
	render -o "$T/$name.2.dot" "$f"
	cmp -s "$T/$name.1.dot" "$T/$name.2.dot" || fail "$name: DOT not stable"
	render -o "$T/$name.html" "$f"
	html_check "$T/$name.html" || fail "$name: HTML"
	render --detail groups -o "$T/$name.groups.svg" "$f"
	render --detail groups -o "$T/$name.groups.html" "$f"
	html_check "$T/$name.groups.html" || fail "$name: overview HTML"
done
[ "$n" -ge 8 ] || fail "only $n of the 8 real dumps"

# tiny: r-ufm96 (0xe41d2d03005cf1f8) at SDR on the SX6012; loopbacks
c=$T/tiny-mixed-speeds.topo.check
grep -qx 'edge nf4521403005764b0 ne41d2d03005cf1f8 #d62728' "$c" ||
	fail "tiny: SDR link not red: $(cat "$c")"
grep -qx 'edge ne41d2d030003e470 ne41d2d030003e470 #ff7f0e' "$c" ||
	fail "tiny: loopback cables not orange: $(cat "$c")"
grep -q '>×3<' "$T/tiny-mixed-speeds.topo.svg" || fail "tiny: no ×3 on the loopbacks"

# qdr: the two hosts on spine ib7 go to their cells, purple
c=$T/qdr-hosts-fdr10-isls.topo.check
[ "$(grep -c ' #9467bd$' "$c")" -eq 2 ] ||
	fail "qdr: hosts on a spine: $(grep 9467bd "$c")"
grep -q '>tank1<' "$T/qdr-hosts-fdr10-isls.topo.svg" || fail "qdr: no tank1 cell"

# x5 with its GUID map: names, not "ConnectX 4e4a"
render --node-name-map "$REAL/x5-mixed-ddr-qdr.guid-map" -o "$T/x5.svg" \
	"$REAL/x5-mixed-ddr-qdr.topo"
grep -q '>x5570comp1<' "$T/x5.svg" || fail "x5: no host names from the map"

# superpod: collapsed, SHARP nodes folded into their switches; by
# default the overview (32 leaves on a level)
render --detail switches -o "$T/pod.dot" "$REAL/ndr-superpod-rails.topo"
grep -q '542 hosts (+40 SHARP), 1114 links · hosts collapsed per switch' \
	"$T/pod.dot" || fail "superpod: subtitle"
grep -q 'Aggregation' "$T/pod.dot" && fail "superpod: SHARP node drawn"
grep -q ' hosts\\n' "$T/pod.dot" || fail "superpod: no host groups"
render -o "$T/pod-auto.dot" "$REAL/ndr-superpod-rails.topo"
# (its leaves one by one, in their rails' columns: render-rails.sh)
grep -q 'switches in groups, hosts counted in them' "$T/pod-auto.dot" ||
	fail "superpod: not the overview by default"

# rd-flat-labels: the same-rank DDR links drawn, with their labels
c=$T/rd-flat-labels.topo.check
X=n000b8cffff000301
for want in "text n0002c90200000302 $X ×2 DDR" "text $X n0008f10500000201 DDR" \
	"text $X n0008f10500000202 DDR"; do
	grep -qx "$want" "$c" || fail "flat labels: no '$want': $(grep '^text' "$c")"
done
exit 0
