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
PATH=$PATH:/usr/sbin:/sbin
SLURMCTLD=${SLURMCTLD:-$(command -v slurmctld)}
SCONTROL=${SCONTROL:-$(command -v scontrol)}
MUNGED=${MUNGED:-$(command -v munged)}
[ -n "$SLURMCTLD" ] || skip "slurmctld not found (apt-get install slurmctld)"
[ -n "$SCONTROL" ] || skip "scontrol not found (apt-get install slurm-client)"
[ -n "$MUNGED" ] || skip "munged not found (apt-get install munge)"
T=$TESTDIR
cd "$T" || fail "cd $T"

# ---- a private munged
M="$T/munge"
mkdir -m 700 "$M" || fail "mkdir $M"
dd if=/dev/urandom of="$M/munge.key" bs=1024 count=1 2>/dev/null ||
	fail "munge key"
chmod 600 "$M/munge.key"
"$MUNGED" --socket="$M/munge.sock" --key-file="$M/munge.key" \
	--pid-file="$M/munged.pid" --log-file="$M/munged.log" \
	--seed-file="$M/munged.seed" --force >"$M/munged.out" 2>&1 ||
	fail "munged did not start: $(cat "$M/munged.out" "$M/munged.log" 2>/dev/null)"
for _ in $(seq 1 100); do
	[ -s "$M/munged.pid" ] && break
	sleep 0.05
done
MUNGE_PID=$(cat "$M/munged.pid" 2>/dev/null)
[ -n "$MUNGE_PID" ] || fail "munged wrote no pid file"
CLEANUP_PIDS="$CLEANUP_PIDS $MUNGE_PID"

# tool.py nodes TOPOLOGY.CONF: the nodes Nodes= lists, once each, in order
# tool.py top SHOW-TOPOLOGY: nodes below the widest switch of the top level
cat >"$T/tool.py" <<'EOF'
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
what, path = sys.argv[2], sys.argv[3]
text = open(path).read()
if what == "nodes":
    seen = {}
    for line in text.splitlines():
        for tok in line.split("#", 1)[0].split():
            if tok.lower().startswith("nodes="):
                for n in chk.hostlist_expand(tok[6:]):
                    seen.setdefault(n, 1)
    print("\n".join(seen))
else:
    best, top = 0, -1
    for line in text.splitlines():
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
TOOL="$PYTHON3 $T/tool.py $top_srcdir/tests/slurm-topology-check.py"

free_port() {
	"$PYTHON3" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

tried=0
refused=0
# slurm_try NAME FABRIC [EXPORT OPTIONS...]: slurmctld takes the export
slurm_try() {
	name=$1
	fabric=$2
	shift 2
	tried=$((tried + 1))
	d="$T/run/$tried"
	mkdir -p "$d/state" "$d/spool" || fail "mkdir $d"
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
	$TOOL nodes "$d/topology.conf" >"$d/nodes" || fail "$name: nodes"
	cat >"$d/slurm.conf" <<EOF
ClusterName=ibtopo
SlurmctldHost=localhost
SlurmctldPort=$(free_port)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$M/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldLogFile=$d/slurmctld.log
SlurmctldPidFile=$d/slurmctld.pid
SlurmctldDebug=info
MailProg=/bin/true
TopologyPlugin=topology/tree
SelectType=select/cons_tres
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
EOF
	sed 's/^\(.*\)$/NodeName=\1 State=FUTURE/' "$d/nodes" >>"$d/slurm.conf"
	echo "PartitionName=all Nodes=ALL Default=YES State=UP" >>"$d/slurm.conf"
	SLURM_CONF="$d/slurm.conf"
	export SLURM_CONF
	(cd "$d" && exec "$SLURMCTLD" -D -i -f "$d/slurm.conf") \
		</dev/null >"$d/slurmctld.out" 2>&1 &
	ctld=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $ctld"
	up=
	for _ in $(seq 1 200); do
		kill -0 "$ctld" 2>/dev/null || break
		if "$SCONTROL" ping 2>/dev/null | grep -q 'is UP'; then
			up=1
			break
		fi
		sleep 0.05
	done
	if [ -n "$up" ]; then
		"$SCONTROL" show topology >"$d/show" 2>&1 || up=
	fi
	kill "$ctld" 2>/dev/null
	wait "$ctld" 2>/dev/null
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
		top=$($TOOL top "$d/show")
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
