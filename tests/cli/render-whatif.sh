#!/bin/sh
# render-whatif.sh - `render --whatif SPEC` and `render --job HOSTLIST`
# (issue 37) on tests/data/ck-cables.topo (spine01; leaf01 with host01,
# host02; leaf02 with host03, host04; two cables from each leaf up) and
# its hand-written tables: in the DOT text exactly the failed nodes get
# the black double outline and exactly their cables (and a failed cable)
# are dotted black; exactly the job's hosts are outlined blue, and its
# links are blue: its hosts' cables, and with tables the links its
# routes cross (host01-host02 stay under leaf01; to host03 they cross
# spine01), never host04's. With tables, exactly the links that carry
# routes across the failure, as the tables stand, are orange. SVG and PNG are drawn too; bad SPECs,
# hostlists and combinations are one line, exit 2.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables

# marked_nodes DOT ATTRS: the labels of the nodes whose attributes hold
# the text ATTRS
marked_nodes() {
	grep -F -- "$2" "$1" | grep -v -- ' -> ' |
		sed -n 's/^	n[0-9a-f]* \[label="\([^"]*\)".*/\1/p' |
		sort | tr '\n' ' '
}
# edges DOT COLOUR: "tail head" labels of the edges drawn in COLOUR
edges() {
	"$PYTHON3" - "$1" "$2" <<'PY'
import re, sys
label, out = {}, []
for line in open(sys.argv[1]):
    m = re.match(r'\s*(n[0-9a-f]+) \[label="([^"]*)"', line)
    if m:
        label[m.group(1)] = m.group(2)
    m = re.match(r'\s*(n[0-9a-f]+) -> (n[0-9a-f]+) \[(.*)\];', line)
    if m and 'color="%s"' % sys.argv[2] in m.group(3):
        style = re.search(r'style=(\w+)', m.group(3))
        out.append("%s-%s%s" % (label[m.group(1)], label[m.group(2)],
                                ":" + style.group(1) if style else ""))
print(" ".join(sorted(out)))
PY
}

# ---- a spine fails: it, and both its bundles of cables
render "$topo" --whatif spine01 -o "$tmp/spine.dot"
got=$(marked_nodes "$tmp/spine.dot" 'color="#000000", peripheries=2, penwidth=3')
[ "$got" = "spine01 " ] || flunk "--whatif spine01: black nodes '$got'"
got=$(edges "$tmp/spine.dot" '#000000')
[ "$got" = "spine01-leaf01:dotted spine01-leaf02:dotted" ] ||
	flunk "--whatif spine01: black edges '$got'"
grep -q 'fails (whatif) (4)' "$tmp/spine.dot" ||
	flunk "--whatif spine01: no legend line for the 4 cables"

# ---- a cable fails: that cable alone, no node
render "$topo" --whatif leaf01:1 -o "$tmp/cable.dot"
got=$(marked_nodes "$tmp/cable.dot" 'color="#000000", peripheries=2, penwidth=3')
[ -z "$got" ] || flunk "--whatif leaf01:1: black nodes '$got'"
got=$(edges "$tmp/cable.dot" '#000000')
[ "$got" = "leaf01-host01:dotted" ] || flunk "--whatif leaf01:1: edges '$got'"

# ---- a host and a cable, repeated
render "$topo" --whatif host04 --whatif leaf01:2 -o "$tmp/two.dot"
got=$(marked_nodes "$tmp/two.dot" 'color="#000000", peripheries=2, penwidth=3')
[ "$got" = "host04 " ] || flunk "two --whatif: black nodes '$got'"
got=$(edges "$tmp/two.dot" '#000000')
[ "$got" = "leaf01-host02:dotted leaf02-host04:dotted" ] ||
	flunk "two --whatif: edges '$got'"

# ---- with tables, the links that carry routes across the failure. The
# dump: leaf01 sends host03 (LID 13) by port 39 to spine01[1], spine01
# sends it by port 3 to leaf02[39]; leaf02 sends host01 (LID 11) by
# port 39; host02 and host04 go by the ports 40. Failing spine01[3]:
# host01's and host02's routes to host03 and host03's and host04's to
# host01 cross it, over their cables and leaf01[39]; nothing else.
render "$topo" --whatif spine01:3 --routes "$dump" -o "$tmp/carried.dot"
"$PYTHON3" - "$tmp/carried.dot" >"$tmp/got" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.search(r'color="#e6550d".*tooltip="([^"]*)"', line)
    if m:
        print(m.group(1).split(":")[0])
PY
printf '%s\n' 'leaf01 [1] -- host01 mlx5_0 [1]' 'leaf01 [2] -- host02 mlx5_0 [1]' \
	'leaf02 [1] -- host03 mlx5_0 [1]' 'leaf02 [2] -- host04 mlx5_0 [1]' \
	'spine01 [1] -- leaf01 [39]' | sort >"$tmp/want"
sort "$tmp/got" >"$tmp/got.sorted"
same "$tmp/want" "$tmp/got.sorted" "the links carrying routes across spine01[3]"
grep -q 'spine01 \[3\] -- leaf02 \[39\].*(fails (whatif))' "$tmp/carried.dot" ||
	flunk "spine01[3] is not drawn as failing"
grep -q 'carries routes across the failure (5)' "$tmp/carried.dot" ||
	flunk "no legend line for the 5 links"
# the spine: every host's cable carries routes to the other leaf
render "$topo" --whatif spine01 --routes "$dump" -o "$tmp/spine-t.dot"
got=$(edges "$tmp/spine-t.dot" '#e6550d')
[ "$got" = "leaf01-host01 leaf01-host02 leaf02-host03 leaf02-host04" ] ||
	flunk "--whatif spine01 with tables: orange edges '$got'"

# ---- a job with tables: its hosts, their cables, the links it crosses
render "$topo" --job 'host[01-03]' --routes "$dump" -o "$tmp/job.dot"
got=$(marked_nodes "$tmp/job.dot" 'color="#08519c", penwidth=3')
[ "$got" = "host01 host02 host03 " ] || flunk "--job: blue nodes '$got'"
got=$(edges "$tmp/job.dot" '#08519c')
[ "$got" = "leaf01-host01 leaf01-host02 leaf02-host03 spine01-leaf01 spine01-leaf02" ] ||
	flunk "--job with tables: blue edges '$got'"
grep -q "the job's host" "$tmp/job.dot" || flunk "--job: no legend box"

# ---- two hosts on one leaf: no spine link; without tables, the cables
render "$topo" --job 'host[01-02]' --routes "$dump" -o "$tmp/leaf.dot"
got=$(edges "$tmp/leaf.dot" '#08519c')
[ "$got" = "leaf01-host01 leaf01-host02" ] ||
	flunk "--job on one leaf: blue edges '$got'"
render "$topo" --job 'host[01-03]' -o "$tmp/notables.dot"
got=$(edges "$tmp/notables.dot" '#08519c')
[ "$got" = "leaf01-host01 leaf01-host02 leaf02-host03" ] ||
	flunk "--job without tables: blue edges '$got'"

# ---- the images: SVG carries the strokes, PNG is drawn
render "$topo" --whatif spine01 --job host04 -o "$tmp/both.svg"
n=$(grep -c 'stroke="#000000" stroke-width="[0-9.]*" stroke-dasharray' "$tmp/both.svg")
[ "$n" -eq 2 ] || flunk "SVG: $n dotted black links, wanted 2"
grep -q 'stroke="#08519c"' "$tmp/both.svg" || flunk "SVG: no blue"
render "$topo" --whatif spine01 -o "$tmp/spine.png"
[ "$(head -c 4 "$tmp/spine.png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
	flunk "PNG: not a PNG"

# ---- refused: one line, exit 2
run 2 "$IBTOPO" render "$topo" --whatif nosuch -o "$tmp/x.dot" &&
	stderr_is "ibtopo: bad --whatif 'nosuch': no node 'nosuch' in the fabric"
run 2 "$IBTOPO" render "$topo" --whatif leaf01:7 -o "$tmp/x.dot" &&
	stderr_is "ibtopo: bad --whatif 'leaf01:7': port 7 of 'leaf01' has no cable"
run 2 "$IBTOPO" render "$topo" --job 'gpu[1-2]' -o "$tmp/x.dot" &&
	stderr_is "ibtopo: render --job: no host of 'gpu[1-2]' is in the fabric"
run 2 "$IBTOPO" render "$topo" --whatif level:1 -o "$tmp/x.dot"
grep -q "^ibtopo: bad --whatif 'level:1'" "$tmp/err" ||
	flunk "--whatif level:1: $(cat "$tmp/err")"
run 2 "$IBTOPO" render --diff "$topo" "$topo" --whatif spine01 -o "$tmp/x.dot"
grep -q "^ibtopo: --whatif does not go with --diff" "$tmp/err" ||
	flunk "--whatif --diff: $(cat "$tmp/err")"
[ -e "$tmp/x.dot" ] && flunk "a refused render wrote its output"
exit "$failed"
