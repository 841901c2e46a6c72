#!/bin/sh
# plan-words.sh - what plan, validate and export say, read as a user
# (issue 33, item 11):
# - `plan dragonfly-plus` whose global links do not spread over the
#   spines names the --global that does;
# - validate lists missing and extra nodes in natural name order
#   (spine02 before spine10), not in the plan's GUID order;
# - one host is "1 host", one cable "1 cable", everywhere (plan, export,
#   the diagram).
. "$top_srcdir/tests/lib.sh"
test_env
T=$TESTDIR

run 2 "$IBTOPO" plan dragonfly-plus --groups 4 --leaves 2 --spines 4 --hosts-per-leaf 2 &&
	stderr_is "ibtopo: 3 global links per group (3 other groups x 1) do not spread evenly over 4 spines: --global 4 (or a multiple) gives each spine 3 global links"
run 2 "$IBTOPO" plan dragonfly-plus --groups 3 --leaves 2 --spines 4 --hosts-per-leaf 2 &&
	stderr_is "ibtopo: 2 global links per group (2 other groups x 1) do not spread evenly over 4 spines: --global 2 (or a multiple) gives each spine 1 global link"
run 0 "$IBTOPO" plan dragonfly-plus --groups 4 --leaves 2 --spines 4 --hosts-per-leaf 2 --global 4

# ---- missing nodes in name order: a 12-spine plan, 7 spines and a leaf gone
run 0 "$IBTOPO" plan fat-tree --leaves 4 --spines 12 --uplinks 12 --hosts-per-leaf 4 -o "$T/plan.topo"
awk -v RS= -v ORS='\n\n' '
	/^Switch\t40 "(spine(02|04|05|07|08|10|11)|leaf03)"/ { next }
	{ n = split($0, l, "\n"); out = ""
	  for (i = 1; i <= n; i++)
		if (l[i] !~ /"(spine(02|04|05|07|08|10|11)|leaf03)"\[/)
			out = out (out == "" ? "" : "\n") l[i]
	  print out }' "$T/plan.topo" >"$T/fabric.topo"
run 1 "$IBTOPO" validate "$T/plan.topo" "$T/fabric.topo" --format csv
got=$(tr -d '\r' <"$T/out" | awk -F, '$1 == "missing-node" { printf "%s ", $3 }')
[ "$got" = "leaf03 spine02 spine04 spine05 spine07 spine08 spine10 spine11 " ] ||
	flunk "missing nodes out of order: $got"
# extra nodes too: the fabric against a plan of its own without them
run 1 "$IBTOPO" validate "$T/fabric.topo" "$T/plan.topo" --format csv
got=$(tr -d '\r' <"$T/out" | awk -F, '$1 == "extra-node" { printf "%s ", $3 }')
[ "$got" = "leaf03 spine02 spine04 spine05 spine07 spine08 spine10 spine11 " ] ||
	flunk "extra nodes out of order: $got"

# ---- one host, one cable
run 2 "$IBTOPO" plan fat-tree --leaves 1 --spines 1 --hosts-per-leaf 1 --uplinks 2 --radix 2 &&
	stderr_is "ibtopo: leaves need 3 ports (1 host + 2 uplinks) but the radix is 2"
run 2 "$IBTOPO" plan fat-tree --leaves 3 --spines 1 --hosts-per-leaf 1 --radix 2 &&
	stderr_is "ibtopo: spines need 3 ports (3 leaves x 1 cable) but the radix is 2"
run 2 "$IBTOPO" plan rail-optimized --servers 1 --rails 1 --spines 1 --unit 1 --uplinks 2 --radix 2 &&
	stderr_is "ibtopo: leaves need 3 ports (1 server + 2 uplinks) but the radix is 2"
run 0 "$IBTOPO" plan fat-tree --leaves 1 --spines 1 --hosts-per-leaf 1 -o "$T/one.topo"
run 0 "$IBTOPO" export "$T/one.topo" --format slurm
grep -q '^# 1 host, 2 switches; ' "$T/out" || flunk "slurm header: $(sed -n 4p "$T/out")"
# the diagram's legend of a single-homed host
run 0 "$IBTOPO" render "$T/one.topo" --servers dual -o "$T/one.dot"
grep -q '1 of 1 host: one link or one switch' "$T/one.dot" ||
	flunk "diagram legend: $(grep -o '[0-9]* of [0-9]* host[^"]*' "$T/one.dot")"
exit "$failed"
