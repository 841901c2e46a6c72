#!/bin/sh
# slurm-real.sh - the real slurmctld takes `ibtopo export --format slurm`
# (issue 24). Our own reading of Slurm (tests/slurm-topology-check.py)
# passed files that Debian's slurmctld 22.05 refused, so here the judge is
# slurmctld itself.
#
# One private munged (its own key, socket, pid and log files in the test's
# folder; the machine's munge is left alone). For each fabric: the export
# as topology.conf, a slurm.conf beside it with every node of the export
# as State=FUTURE (no DNS), TopologyPlugin=topology/tree,
# SelectType=select/cons_tres, a free loopback port and every path in the
# folder; `slurmctld -D -i` in the background, `scontrol ping` until it
# answers, `scontrol show topology`, then slurmctld stopped by its PID.
# A fabric passes when slurmctld starts, prints the topology, logs no
# fatal and no error about the topology or a switch, and a switch of the
# top level reaches as many nodes as `ibtopo analyze --format json`
# counts servers.
#
# The fabrics are those of tests/sched-fabrics.sh: every fixture in
# tests/data/real, every `ibtopo plan` shape (fat tree of 2 and 3 levels,
# rail-optimized, Dragonfly+), a generated fat tree and director fabric,
# and star, ring and single-switch fabrics. Skips (77) only when slurmctld,
# scontrol or munged is missing; tools/install-deps.sh installs them.
. "${top_srcdir:-.}/tests/lib.sh"
python_require
. "$top_srcdir/tests/slurm-lib.sh"
slurm_require
T=$TESTDIR
cd "$T" || fail "cd $T"
slurm_munge_start "$T/munge"

# top.py SHOW-TOPOLOGY: nodes below the widest switch of the top level
cat >"$T/top.py" <<'EOF'
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
best, top = 0, -1
for line in open(sys.argv[2]):
    lv = re.search(r"\bLevel=(\d+)", line)
    nodes = re.search(r"\bNodes=(\S+)", line)
    if not lv:
        continue
    n = len(set(chk.hostlist_expand(nodes.group(1)))) if nodes else 0
    if int(lv.group(1)) > top:
        best, top = n, int(lv.group(1))
    elif int(lv.group(1)) == top:
        best = max(best, n)
print(best)
EOF

tried=0
refused=0
# slurm_try NAME FABRIC [EXPORT OPTIONS...]: slurmctld takes the export
slurm_try() {
	name=$1
	fabric=$2
	shift 2
	tried=$((tried + 1))
	d="$T/run/$tried"
	mkdir -p "$d" || fail "mkdir $d"
	servers=$("$IBTOPO" analyze --format json "$@" "$fabric" 2>/dev/null |
		"$PYTHON3" -c 'import json, sys
print(json.load(sys.stdin)["topology"]["servers"])') ||
		fail "$name: analyze --format json"
	"$IBTOPO" export --format slurm "$@" "$fabric" >"$d/topology.conf" \
		2>"$d/export.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'no server to list' "$d/export.err"; then
		# every host unnamed: exit 2, then by GUID as asked
		info "$name: no named host; again with --host-names guid"
		set -- "$@" --host-names guid
		"$IBTOPO" export --format slurm "$@" "$fabric" \
			>"$d/topology.conf" 2>"$d/export.err"
		rc=$?
	fi
	if [ $rc -ne 0 ]; then
		flunk "$name: export: $(cat "$d/export.err")"
		refused=$((refused + 1))
		return
	fi
	# hosts without a name are left out, with one warning counting them
	unnamed=$(sed -n 's/.*warning: \([0-9]*\) hosts without a name.*/\1/p' \
		"$d/export.err")
	servers=$((servers - ${unnamed:-0}))
	slurm_nodes "$d/topology.conf" >"$d/nodes" || fail "$name: nodes"
	up=
	slurm_ctld_run "$d" "$d/topology.conf" "$d/nodes" && up=1
	why=
	if [ -z "$up" ]; then
		why="slurmctld did not start"
	elif ! grep -q '^SwitchName=' "$d/show"; then
		why="scontrol show topology printed no switch"
	fi
	# (a fresh StateSaveLocation has no state files: not an error here)
	bad=$(grep -v 'state file' "$d/slurmctld.log" 2>/dev/null |
		grep -i -E 'fatal|error:.*(topolog|switch)' | head -3)
	[ -z "$bad" ] || why="${why:+$why; }$bad"
	if [ -z "$why" ]; then
		top=$("$PYTHON3" "$T/top.py" \
			"$top_srcdir/tests/slurm-topology-check.py" "$d/show")
		[ "$top" = "$servers" ] ||
			why="the top level reaches $top nodes, analyze counts $servers servers"
	fi
	if [ -n "$why" ]; then
		flunk "$name: $why"
		refused=$((refused + 1))
	else
		info "$name: slurmctld took $(grep -c '^SwitchName=' "$d/show") switches, $servers servers"
	fi
}

# ---- the fabrics
. "$top_srcdir/tests/sched-fabrics.sh"
sched_fabrics "$T" >"$T/fabrics" || fail "sched_fabrics"
# shellcheck disable=SC2086 # the export options are words
while read -r name fabric opts <&3; do
	slurm_try "$name" "$fabric" $opts
done 3<"$T/fabrics"

info "slurmctld refused $refused of $tried fabrics"
exit "$failed"
