#!/bin/sh
# export-slurm.sh - `ibtopo export --format slurm` writes a topology.conf
# that slurmctld's tree plugin accepts without a warning, for fabrics of
# any depth: tests/slurm-topology-check.py reads it as the plugin does
# (levels resolved from children, "not a tree", one switch reaching every
# node, each node under one leaf). First the checker itself is shown to
# reject what slurmctld rejects, then every fixture that loads, 2- and
# 3-level plans, and a fabric with a server on a spine and a two-rail
# server are exported and checked.
. "$top_srcdir/tests/lib.sh"
python_require
CHECK="$PYTHON3 $top_srcdir/tests/slurm-topology-check.py"
T=$TESTDIR
cd "$T" || fail "cd $T"

# expect_bad WHAT [--nodes LIST] FILE: the checker exits 1 and says WHAT
expect_bad() {
	what=$1
	shift
	$CHECK "$@" >"$T/check.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "checker exit $rc on $*, wanted 1: $(cat "$T/check.out")"
	grep -qF "$what" "$T/check.out" ||
		fail "checker on $* did not say '$what': $(cat "$T/check.out")"
}

# ---- the checker rejects what slurmctld rejects or warns about
# the 3-level plan as ibtopo exported it before the fix (see below):
# spines and cores list each other
cat >bad-cycle.conf <<'EOF'
# Slurm topology.conf (topology/tree) written by ibtopo
SwitchName=spine04 Switches=core[05-08],leaf[03-04]
SwitchName=spine01 Switches=core[01-04],leaf[01-02]
SwitchName=spine02 Switches=core[05-08],leaf[01-02]
SwitchName=spine03 Switches=core[01-04],leaf[03-04]
SwitchName=leaf04 Nodes=host[013-016]
SwitchName=leaf03 Nodes=host[009-012]
SwitchName=leaf02 Nodes=host[005-008]
SwitchName=leaf01 Nodes=host[001-004]
SwitchName=core08 Switches=spine[02,04]
SwitchName=core02 Switches=spine[01,03]
SwitchName=core03 Switches=spine[01,03]
SwitchName=core01 Switches=spine[01,03]
SwitchName=core06 Switches=spine[02,04]
SwitchName=core07 Switches=spine[02,04]
SwitchName=core04 Switches=spine[01,03]
SwitchName=core05 Switches=spine[02,04]
EOF
expect_bad "Switch configuration is not a tree" bad-cycle.conf
cat >bad-two-leaves.conf <<'EOF'
SwitchName=l1 Nodes=n[1-2]
SwitchName=l2 Nodes=n[2-3]
SwitchName=s1 Switches=l[1-2]
EOF
# slurmctld only warns about a node under two leaves: a note, exit 0
$CHECK bad-two-leaves.conf >"$T/check.out" 2>&1 ||
	fail "checker refused a node under two leaves: $(cat "$T/check.out")"
grep -q "^note: Multiple leaf switches contain nodes: n2" "$T/check.out" ||
	fail "checker did not note the node under two leaves: $(cat "$T/check.out")"
# slurmctld 22.05: "switch s1 has neither child switches nor nodes", fatal
printf 'SwitchName=l1 Nodes=n1\nSwitchName=s1\nSwitchName=t Switches=l1,s1\n' \
	>bad-childless.conf
expect_bad "switch s1 has neither child switches nor nodes" bad-childless.conf
cat >bad-no-root.conf <<'EOF'
SwitchName=l1 Nodes=n1
SwitchName=l2 Nodes=n2
EOF
expect_bad "no switch can reach all nodes" bad-no-root.conf
cat >bad-child.conf <<'EOF'
SwitchName=l1 Nodes=n1
SwitchName=s1 Switches=l[1-2]
EOF
expect_bad "invalid child (l2)" bad-child.conf
printf 'SwitchName=s1 Switches=s1\n' >bad-self.conf
expect_bad "invalid child (s1)" bad-self.conf
printf 'SwitchName=l1 Nodes=n1 Switches=l2\nSwitchName=l2 Nodes=n2\n' >bad-both.conf
expect_bad "has both child switches and nodes" bad-both.conf
printf 'SwitchName=l1 Nodes=n1\nSwitchName=l1 Nodes=n2\n' >bad-dup.conf
expect_bad "has already been defined" bad-dup.conf
# slurmctld resolves levels in at most 21 passes over the file: a chain
# of 25 switches listed top first never resolves, bottom first it does
{
	i=25
	while [ $i -gt 1 ]; do
		echo "SwitchName=c$i Switches=c$((i - 1))"
		i=$((i - 1))
	done
	echo "SwitchName=c1 Nodes=n1"
} >bad-deep.conf
expect_bad "Switch configuration is not a tree" bad-deep.conf
tac bad-deep.conf >deep.conf
$CHECK deep.conf >/dev/null || fail "checker refused a chain listed bottom first"
# hostlists expand as Slurm's do (width from the low bound), and with
# --nodes a node no switch reaches is a warning
cat >good.conf <<'EOF'
# comment
SwitchName=l1 Nodes=n[001-002],x[8-10]
SwitchName=l2 Nodes=r[1-2]c[07-08] LinkSpeed=100
switchname=s1 switches=l[1-2]
EOF
$CHECK --nodes 'n[001-002],x[8-10],r[1-2]c[07-08]' good.conf >"$T/check.out" ||
	fail "checker refused good.conf: $(cat "$T/check.out")"
grep -q "^ok: 3 switches, 9 nodes, 2 levels, top s1$" "$T/check.out" ||
	fail "checker summary: $(cat "$T/check.out")"
expect_bad "switches lack access to 1 nodes: x11" \
	--nodes 'n[001-002],x[8-11],r[1-2]c[07-08]' good.conf

# check_export WHAT [--nodes LIST] -- EXPORT-ARGS...: exit 0, and the
# output passes the checker
check_export() {
	what=$1
	shift
	nodes=
	if [ "$1" = "--nodes" ]; then
		nodes=$2
		shift 2
	fi
	shift
	"$IBTOPO" export --format slurm "$@" >"$T/out.conf" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'no server to list' "$T/err"; then
		info "$what: no named host (exit 2); by GUID"
		"$IBTOPO" export --format slurm --host-names guid "$@" \
			>"$T/out.conf" 2>"$T/err"
		rc=$?
	fi
	if [ $rc -eq 2 ] && grep -q 'no server to list' "$T/err"; then
		info "$what: no host at all: exit 2"
		return 0
	fi
	[ $rc -eq 0 ] || fail "export $what: $(cat "$T/err")"
	if [ -n "$nodes" ]; then
		$CHECK --nodes "$nodes" "$T/out.conf" >"$T/check.out" 2>&1
	else
		$CHECK "$T/out.conf" >"$T/check.out" 2>&1
	fi || {
		sed 's/^/  /' "$T/out.conf" | head -40 >&2
		fail "slurm export of $what: $(cat "$T/check.out")"
	}
	info "$what: $(cat "$T/check.out")"
}

# ---- every fixture that loads
loaded=0
for f in "$REAL"/*.topo "$REAL"/*.txt "$DATA"/*.topo "$DATA"/*.net \
	"$DATA"/*.cache; do
	"$IBTOPO" show "$f" >/dev/null 2>&1 || continue
	check_export "${f#"$top_srcdir"/}" -- "$f"
	loaded=$((loaded + 1))
done
[ "$loaded" -ge 20 ] || fail "only $loaded fixtures loaded"
check_export "x5 with its host map" -- \
	--node-name-map "$REAL/x5-mixed-ddr-qdr.guid-map" "$REAL/x5-mixed-ddr-qdr.topo"
# Slurm hosts and topology's servers agree on what a host is: as many
# nodes in topology.conf as servers in `ibtopo analyze`. ndr-superpod has
# three CAs described "localhost HCA-n" on three leaves: three machines
# whose host name was never set. They once became one Slurm node
# "localhost" under one leaf (191 nodes for 193 servers).
checked=0
for f in "$REAL"/*.topo "$REAL"/*.txt; do
	servers=$("$IBTOPO" analyze "$f" 2>/dev/null |
		sed -n 's/^Topology: .* \([0-9][0-9]*\) servers$/\1/p')
	[ -n "$servers" ] || continue
	"$IBTOPO" export --format slurm --host-names guid "$f" \
		>"$T/hosts.conf" 2>"$T/err" ||
		fail "export ${f#"$REAL"/}: $(cat "$T/err")"
	$CHECK "$T/hosts.conf" >"$T/check.out" 2>&1 ||
		fail "slurm export of ${f#"$REAL"/}: $(cat "$T/check.out")"
	nodes=$(sed -n 's/^ok: .* switches, \([0-9][0-9]*\) nodes,.*/\1/p' "$T/check.out")
	[ "$nodes" = "$servers" ] ||
		fail "${f#"$REAL"/}: $nodes slurm nodes, $servers servers"
	checked=$((checked + 1))
done
# a changed analyze summary would skip every fixture above: none is a fail
[ "$checked" -gt 0 ] || fail "no fixture's servers were compared with its slurm nodes"
info "servers = slurm nodes in $checked fixtures"
# By name (the default) they and the other unnamed hosts are left out,
# with one warning that counts them; --host-names guid lists each.
"$IBTOPO" export --format slurm "$REAL/ndr-superpod-rails.topo" \
	>"$T/ndr.conf" 2>"$T/err" || fail "export ndr-superpod-rails.topo"
! grep -q 'localhost\|H-' "$T/ndr.conf" ||
	fail "an unnamed host is a slurm node: $(grep -o 'localhost\|H-[0-9a-f]*' "$T/ndr.conf" | head -3)"
[ "$(grep -c 'warning: ' "$T/err")" = 1 ] &&
	grep -q 'warning: 72 hosts without a name .*--node-name-map' "$T/err" ||
	fail "one warning counting the unnamed hosts, wanted: $(cat "$T/err")"
"$IBTOPO" export --format slurm --host-names guid \
	"$REAL/ndr-superpod-rails.topo" >"$T/ndr.conf" ||
	fail "export --host-names guid ndr-superpod-rails.topo"
! grep -q 'localhost' "$T/ndr.conf" ||
	fail "\"localhost HCA-n\" named a slurm node: $(grep localhost "$T/ndr.conf")"
for g in e09d73030037317c e09d73030033dc60 e09d73030033dc5c; do
	grep -q "^SwitchName=.* Nodes=.*H-$g" "$T/ndr.conf" ||
		fail "localhost CA $g is no slurm node of its own"
done
# one level of switches: a top switch joins them
"$IBTOPO" export --format slurm "$REAL/tiny-mixed-speeds.topo" 2>/dev/null |
	grep -q '^SwitchName=top Switches=S-e41d2d030003e470,switch-de779e$' ||
	fail "single-level fabric got no top switch"

# ---- plans of 2 and 3 levels, every host present
"$IBTOPO" plan fat-tree --leaves 4 --spines 2 --hosts-per-leaf 4 \
	--uplinks 4 -o p2.topo || fail "plan 2 levels"
check_export "2-level plan" --nodes 'host[001-016]' -- p2.topo
"$IBTOPO" plan fat-tree --levels 3 --pods 2 --leaves 2 --spines 2 \
	--hosts-per-leaf 4 --radix 8 -o p3.topo || fail "plan 3 levels"
check_export "3-level plan" --nodes 'host[001-016]' -- p3.topo
grep -q '^SwitchName=spine01 Switches=leaf\[01-02\]$' "$T/out.conf" ||
	fail "spine01 should list its pod's leaves only: $(grep spine01 "$T/out.conf")"
grep -q '^SwitchName=core01 Switches=spine\[01,03\]$' "$T/out.conf" ||
	fail "core01 should list spines: $(grep core01 "$T/out.conf")"
"$IBTOPO" plan fat-tree --levels 3 --pods 4 --leaves 4 --spines 4 \
	--hosts-per-leaf 8 --radix 16 -o p3b.topo || fail "plan 3 levels, 4 pods"
check_export "3-level plan, 4 pods" --nodes 'host[001-128]' -- p3b.topo

# ---- a server cabled to a spine only, and one with an adapter on each of
# two leaves (two rails): each under exactly one leaf
cat >mixed.topo <<'EOF'
Switch 8 "leaf01"
[1] "node01"[1]
[2] "gpu01-0"[1]
[7] "spine01"[1]
[8] "spine02"[1]

Switch 8 "leaf02"
[1] "node02"[1]
[2] "gpu01-1"[1]
[7] "spine01"[2]
[8] "spine02"[2]

Switch 8 "leaf03"
[1] "node03"[1]
[7] "spine01"[3]
[8] "spine02"[3]

Switch 8 "leaf04"
[1] "node04"[1]
[7] "spine01"[4]
[8] "spine02"[4]

Switch 8 "spine01"
[1] "leaf01"[7]
[2] "leaf02"[7]
[3] "leaf03"[7]
[4] "leaf04"[7]
[5] "login1"[1]

Switch 8 "spine02"
[1] "leaf01"[8]
[2] "leaf02"[8]
[3] "leaf03"[8]
[4] "leaf04"[8]

Ca 1 "gpu01-0" # "gpu01 mlx5_0"
[1] "leaf01"[2]

Ca 1 "gpu01-1" # "gpu01 mlx5_1"
[1] "leaf02"[2]

Ca 1 "login1"
[1] "spine01"[5]
EOF
for i in 1 2 3 4; do
	printf '\nCa 1 "node0%s"\n[1] "leaf0%s"[1]\n' $i $i >>mixed.topo
done
check_export "server on a spine, two-rail server" \
	--nodes 'gpu01,login1,node[01-04]' -- mixed.topo
grep -q '^SwitchName=leaf01 Nodes=gpu01,node01$' "$T/out.conf" ||
	fail "gpu01 should be under leaf01 (first by name): $(cat "$T/out.conf")"
grep -q '^SwitchName=spine01-hosts Nodes=login1$' "$T/out.conf" &&
	grep -q '^SwitchName=spine01 Switches=leaf\[01-04\],spine01-hosts$' "$T/out.conf" ||
	fail "login1 should be on a leaf of spine01's own: $(cat "$T/out.conf")"
exit 0
