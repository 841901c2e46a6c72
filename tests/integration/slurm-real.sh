#!/bin/sh
# slurm-real.sh - the real slurmctld takes `ibtopo export --format slurm`
# (issue 24), and the newer ones also slurm-block and slurm-yaml (issue
# 35). Our own reading of Slurm (tests/slurm-topology-check.py) passed
# files that Debian's slurmctld 22.05 refused, so here the judge is
# slurmctld itself.
#
# SLURM_SUITE unset: Debian 12's slurmctld 22.05, tree only. SLURM_SUITE
# trixie (24.11) or sid (26.05): that Debian's slurmctld from a chroot
# that tools/debian-chroot.sh builds once and keeps, with the formats
# SLURM_FORMATS lists (tests/integration/slurm-24.11.sh, slurm-26.05.sh);
# slurm-block with `--slurm-version` of that slurmctld (24.11 refuses a
# block smaller than the base: the base is then the smallest).
#
# One private munged (its own key, socket, pid and log files in the test's
# folder; the machine's munge is left alone). For each fabric and format:
# the export as topology.conf (topology.yaml for slurm-yaml, with no
# TopologyPlugin), a slurm.conf beside it with every node of the export
# as State=FUTURE (no DNS), TopologyPlugin=topology/tree or block,
# SelectType=select/cons_tres, a free loopback port and every path in the
# folder; `slurmctld -D -i` in the background, `scontrol ping` until it
# answers, `scontrol show topology`, then slurmctld stopped by its PID.
# A fabric passes when slurmctld starts, prints the topology, logs no
# fatal and no error about the topology, a switch or a block, and
#  - tree, yaml: a switch of the top level reaches as many nodes as
#    `ibtopo analyze --format json` counts servers;
#  - block: the blocks hold that many nodes, and every size of
#    BlockSizes= is one slurmctld formed (a BlockSize= it shows), so no
#    size is written that never forms.
#
# The fabrics are those of tests/sched-fabrics.sh: every fixture in
# tests/data/real, every `ibtopo plan` shape (fat tree of 2 and 3 levels,
# rail-optimized, Dragonfly+), a generated fat tree and director fabric,
# and star, ring and single-switch fabrics. Skips (77) only when slurmctld,
# scontrol or munged is missing (tools/install-deps.sh installs them), or
# the chroot cannot be built (not root, or Debian's archive unreachable).
. "${top_srcdir:-.}/tests/lib.sh"
python_require
. "$top_srcdir/tests/slurm-lib.sh"
if [ -n "${SLURM_SUITE:-}" ]; then
	slurm_require_chroot "$SLURM_SUITE"
	info "$SLURM_VERSION from Debian $SLURM_SUITE in $SLURM_ROOT"
else
	slurm_require
fi
formats=${SLURM_FORMATS:-slurm}
T=$TESTDIR
cd "$T" || fail "cd $T"
W=$(slurm_tmp)
slurm_munge_start "$W/munge"

# blocks.py CONF SHOW-TOPOLOGY: problems of slurmctld's blocks, and the
# nodes they hold
cat >"$T/blocks.py" <<'EOF'
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
sizes = []
for line in open(sys.argv[2]):
    m = re.match(r"\s*BlockSizes=(\S+)", line)
    if m:
        sizes = [int(x) for x in m.group(1).split(",")]
formed, nodes = set(), set()
for line in open(sys.argv[3]):
    size = re.search(r"\bBlockSize=(\d+)", line)
    if size:
        formed.add(int(size.group(1)))
    if line.startswith("BlockName="):
        m = re.search(r"\bNodes=(\S+)", line)
        if m:
            nodes |= set(chk.hostlist_expand(m.group(1)))
never = [x for x in sizes if x not in formed]
if never:
    print("BlockSizes=%s: %s never formed (slurmctld formed %s)" % (
        ",".join(map(str, sizes)), ",".join(map(str, never)),
        ",".join(map(str, sorted(formed)))))
print(len(nodes))
EOF

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
# slurm_try FORMAT NAME FABRIC [EXPORT OPTIONS...]: slurmctld takes the
# export in FORMAT (slurm, slurm-block, slurm-yaml)
slurm_try() {
	fmt=$1
	name="$2 ($1)"
	fabric=$3
	shift 3
	tried=$((tried + 1))
	d="$W/run/$tried"
	mkdir -p "$d" || fail "mkdir $d"
	servers=$("$IBTOPO" analyze --format json "$@" "$fabric" 2>/dev/null |
		"$PYTHON3" -c 'import json, sys
print(json.load(sys.stdin)["topology"]["servers"])') ||
		fail "$name: analyze --format json"
	# the file for this slurmctld's release (slurm-block's base)
	[ -n "${SLURM_VERSION:-}" ] && [ "$fmt" = slurm-block ] &&
		set -- "$@" --slurm-version "${SLURM_VERSION##* }"
	"$IBTOPO" export --format "$fmt" "$@" "$fabric" >"$d/export" \
		2>"$d/export.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'no server to list' "$d/export.err"; then
		# every host unnamed: exit 2, then by GUID as asked
		info "$name: no named host; again with --host-names guid"
		set -- "$@" --host-names guid
		"$IBTOPO" export --format "$fmt" "$@" "$fabric" \
			>"$d/export" 2>"$d/export.err"
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
	# the nodes slurm.conf declares: those of the tree export
	"$IBTOPO" export --format slurm "$@" "$fabric" >"$d/tree" 2>/dev/null ||
		fail "$name: export --format slurm"
	slurm_nodes "$d/tree" >"$d/nodes" || fail "$name: nodes"
	case $fmt in
	slurm) SLURM_TOPO=tree ;;
	slurm-block) SLURM_TOPO=block ;;
	slurm-yaml) SLURM_TOPO=yaml ;;
	esac
	up=
	slurm_ctld_run "$d" "$d/export" "$d/nodes" && up=1
	why=
	if [ -z "$up" ]; then
		why="slurmctld did not start"
	elif ! grep -q -E '^(SwitchName|BlockName)=' "$d/show"; then
		why="scontrol show topology printed no switch or block"
	fi
	# (a fresh StateSaveLocation has no state files: not an error here)
	bad=$(grep -v 'state file' "$d/slurmctld.log" 2>/dev/null |
		grep -i -E 'fatal|error:.*(topolog|switch|block)' | head -3)
	[ -z "$bad" ] || why="${why:+$why; }$bad"
	if [ -z "$why" ] && [ "$fmt" = slurm-block ]; then
		"$PYTHON3" "$T/blocks.py" "$top_srcdir/tests/slurm-topology-check.py" \
			"$d/export" "$d/show" >"$d/blocks" || fail "blocks.py"
		top=$(tail -n 1 "$d/blocks")
		never=$(sed '$d' "$d/blocks")
		[ -z "$never" ] || why=$never
		[ "$top" = "$servers" ] ||
			why="${why:+$why; }the blocks hold $top nodes, analyze counts $servers servers"
		what="$(grep -c '^BlockName=' "$d/show") blocks, $(grep -c '^AggregatedBlock=' "$d/show") aggregated, $(sed -n 's/^ *BlockSizes=//p' "$d/export")"
	elif [ -z "$why" ]; then
		top=$("$PYTHON3" "$T/top.py" \
			"$top_srcdir/tests/slurm-topology-check.py" "$d/show")
		[ "$top" = "$servers" ] ||
			why="the top level reaches $top nodes, analyze counts $servers servers"
		what="$(grep -c '^SwitchName=' "$d/show") switches"
	fi
	if [ -n "$why" ]; then
		flunk "$name: $why"
		refused=$((refused + 1))
	else
		info "$name: slurmctld took $what, $servers servers"
	fi
}

# ---- the fabrics
. "$top_srcdir/tests/sched-fabrics.sh"
sched_fabrics "$T" >"$T/fabrics" || fail "sched_fabrics"
for fmt in $formats; do
	# shellcheck disable=SC2086 # the export options are words
	while read -r name fabric opts <&3; do
		slurm_try "$fmt" "$name" "$fabric" $opts
	done 3<"$T/fabrics"
done

info "${SLURM_VERSION:-slurmctld} refused $refused of $tried files ($formats)"
exit "$failed"
