#!/bin/sh
# names-alike.sh - a name that several nodes share names none of them.
# tests/data/nm-alike.topo has seven switches "Infiniscale-IV Mellanox
# Technologies" and six CAs "MT25408 ConnectX Mellanox Technologies":
# options taking a node name (render --focus, analyze --roots lines)
# refuse such a name with exit 2, listing GUIDs to give instead, and take
# a GUID or a name one node has; and text output names such nodes with
# their GUIDs wherever it names them (analyze's why:, OpenSM and worst
# pair lines, diff and validate tables and sentences).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env

F=$top_srcdir/tests/data/nm-alike.topo
SW='Infiniscale-IV Mellanox Technologies'

# ---- lookups: render --focus
alike="'$SW' names 7 nodes: 0x0002c90200a00001, 0x0002c90200a00002, 0x0002c90200a00003, 0x0002c90200a00004 and 3 more; name one by its GUID"
run 2 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus "$SW" && stderr_is "ibtopo: $alike"
run 2 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus 'MT25408 ConnectX Mellanox Technologies' &&
	grep -q "names 6 nodes: 0x0002c90300b00010, " "$tmp/err" || flunk "CA focus: $(cat "$tmp/err")"
run 0 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus 0x0002c90200a00004 --depth 1 &&
	[ "$(grep -c ' -- ' "$tmp/f.dot")" -gt 0 ] || flunk "--focus GUID drew nothing"
run 0 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus 'node07 mlx4_0' --depth 1
run 0 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus node07 --depth 1	# as drawn
run 2 "$IBTOPO" render "$F" -o "$tmp/f.dot" --focus nosuch &&
	stderr_is "ibtopo: no node 'nosuch' in the fabric"

# ---- lookups: analyze --roots FILE (a regex stays a regex)
printf '# the core\n%s\n' "$SW" >"$tmp/roots"
run 2 "$IBTOPO" analyze "$F" --roots "$tmp/roots" &&
	stderr_is "ibtopo: $tmp/roots:2: '$SW' names 7 switches: 0x0002c90200a00001, 0x0002c90200a00002, 0x0002c90200a00003, 0x0002c90200a00004 and 3 more; name one by its GUID"
for root in 0x0002c90200a00001 0002c90200a00001 S-0002c90200a00001; do
	printf '%s\n' "$root" >"$tmp/roots"
	run 0 "$IBTOPO" analyze "$F" --format json --roots "$tmp/roots" &&
		grep -q '"ranked_from":"roots"' "$tmp/out" || flunk "--roots $root"
done
printf '0x0002c90300b00010\n' >"$tmp/roots"	# a CA
run 2 "$IBTOPO" analyze "$F" --roots "$tmp/roots" &&
	stderr_is "ibtopo: $tmp/roots:1: '0x0002c90300b00010' names no switch"
run 0 "$IBTOPO" analyze "$F" --format json --root-pattern "^$SW\$"

# ---- text names a node with its GUID where its name is shared
run 0 "$IBTOPO" analyze "$F"
for line in \
	"  why: switch '$SW' (0x0002c90200a00003) at level 2 has no uplink, though the top is level 3" \
	"OpenSM's ftree routing would not route it (minhop would): ERR AB26: CA 'MT25408 ConnectX Mellanox Technologies' (0x0002c90300b00010) is on switch '$SW' (0x0002c90200a00004) at rank 2, while the leaves are at rank 3" \
	"  worst pair: $SW (0x0002c90200a00004) - $SW (0x0002c90200a00005): 2 node-, 2 edge-disjoint, 2 routes"
do
	grep -qxF "$line" "$tmp/out" || flunk "analyze lacks: $line"
done
# a name one node has stays as it is (each single-homed server is a
# finding of its own under the dual policy)
run 0 "$IBTOPO" analyze --servers dual "$F"
grep -q "^low-path-diversity  node07 mlx4_0 \[1\]  *$SW (0x0002c90200a00007) \[3\]" "$tmp/out" ||
	flunk "findings table: $(grep node07 "$tmp/out")"

# node07's cable moves from the last leaf's port 3 to the third leaf's
# port 5: one switch of the seven in each table row and sentence
sed -e '/^\[3\]	"H-0002c90300b00070"/d' \
	-e 's/^\[1\](2c90300b00071)	"S-0002c90200a00007"\[3\]/[1](2c90300b00071)	"S-0002c90200a00006"[5]/' \
	"$F" >"$tmp/moved.topo"
cmp -s "$F" "$tmp/moved.topo" && flunk "sed left nm-alike.topo as it was"
run 1 "$IBTOPO" diff "$F" "$tmp/moved.topo" &&
	grep -q "^link-moved  node07 mlx4_0 \[1\]  $SW (0x0002c90200a00007) \[3\]  cable moved from port 1 of 'node07 mlx4_0' and port 3 of '$SW' (0x0002c90200a00007) to port 1 of 'node07 mlx4_0' and port 5 of '$SW' (0x0002c90200a00006): move it back, or update the plan\$" \
		"$tmp/out" || flunk "diff: $(cat "$tmp/out")"
run 1 "$IBTOPO" validate "$F" "$tmp/moved.topo" &&
	grep -q "^miswired-link  node07 mlx4_0 \[1\]  $SW (0x0002c90200a00006) \[5\]  cable goes to the wrong port: the plan connects port 1 of 'node07 mlx4_0' to port 3 of '$SW' (0x0002c90200a00007)\$" \
		"$tmp/out" || flunk "validate: $(cat "$tmp/out")"

exit $failed
