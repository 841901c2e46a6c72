#!/bin/sh
# render-pods-alike.sh - the overview of a regular 3-level fat tree of 64
# small pods (issue 23, item 15) drew 128 pod groups in ten staggered
# rows, labels on top of each other. Pods alike are one node, "64 pods
# alike: 4 spines, 4 leaves, 128 hosts each", under the cores; a pod
# with a problem (a leaf of pod 7 short of an uplink) is drawn apart, as
# its spines and leaves, and the others stay one node of 63. 16 pods
# (at most 24 on a level) are still drawn pod by pod (render-big.sh).
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
T=$TESTDIR
ft=$T/ft64.topo

plan_pods64 "$ft"

run 0 "$IBTOPO" render "$ft" -o "$T/ft.dot"
d=$T/ft.dot
grep -q 'label="64 pods alike:\\n4 spines, 4 leaves, 128 hosts each' "$d" ||
	flunk "no node of 64 pods alike: $(grep -o 'label="[^"]*pod[^"]*"' "$d" | head -3)"
grep -q 'leaves, pod ' "$d" && flunk "a pod drawn apart, none differs"
grep -q 'label="128 cores\\n' "$d" || flunk "no cores"
# one node under the cores and the cores: two nodes of switches
n=$(grep -c '^	s[0-9a-f]* \[label=' "$d")
[ "$n" -eq 2 ] || flunk "$n switch group nodes, want 2"

# pod 7's leaf025 loses its cable to spine025: a fat-tree violation
sed -e '/^\[33\]	"spine025"\[1\]	/d' -e '/^\[1\]	"leaf025"\[33\]	/d' \
	"$ft" >"$T/bad.topo"
[ "$(wc -l <"$T/bad.topo")" -eq $(($(wc -l <"$ft") - 2)) ] ||
	fail "the cable was not removed at both ends"
run 0 "$IBTOPO" render "$T/bad.topo" -o "$T/bad.dot"
grep -q 'breaks a fat-tree rule' "$T/bad.dot" || flunk "bad: no violation"
grep -q 'label="63 pods alike:\\n4 spines, 4 leaves, 128 hosts each' "$T/bad.dot" ||
	flunk "bad: no node of 63 pods alike"
grep -q 'label="4 leaves, pod 7\\n' "$T/bad.dot" ||
	flunk "bad: pod 7's leaves not apart: $(grep -o 'label="[^"]*pod[^"]*"' "$T/bad.dot" | head -3)"
grep -q 'label="4 spines, pod 7\\n' "$T/bad.dot" ||
	flunk "bad: pod 7's spines not apart"
exit "$failed"
