# tests/slurm-lib.sh - a private munged and slurmctld, for
# tests/integration/slurm-real.sh and bench/export.sh; sourced after
# tests/lib.sh (fail, CLEANUP_PIDS, PYTHON3).
#
#   slurm_require                  # exit 77 without slurmctld/scontrol/munged
#   slurm_munge_start DIR          # own key, socket, pid and log in DIR
#   slurm_nodes CONF > NODES       # the nodes of a topology.conf
#   slurm_ctld_run DIR CONF NODES  # slurmctld on topology.conf CONF whose
#                                  # nodes are listed in file NODES; 0 when
#                                  # it answered: `scontrol show topology`
#                                  # in DIR/show, its log DIR/slurmctld.log
# shellcheck shell=sh

slurm_require() {
	PATH=$PATH:/usr/sbin:/sbin
	SLURMCTLD=${SLURMCTLD:-$(command -v slurmctld)}
	SCONTROL=${SCONTROL:-$(command -v scontrol)}
	MUNGED=${MUNGED:-$(command -v munged)}
	[ -n "$SLURMCTLD" ] ||
		skip "slurmctld not found (apt-get install slurmctld)"
	[ -n "$SCONTROL" ] ||
		skip "scontrol not found (apt-get install slurm-client)"
	[ -n "$MUNGED" ] || skip "munged not found (apt-get install munge)"
}

slurm_munge_start() {
	M=$1
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
}

slurm_free_port() {
	"$PYTHON3" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

slurm_ctld_run() {
	local d=$1 conf=$2 nodes=$3 ctld end up=''

	mkdir -p "$d/state" "$d/spool" || fail "mkdir $d"
	[ "$conf" = "$d/topology.conf" ] || cp "$conf" "$d/topology.conf"
	cat >"$d/slurm.conf" <<EOF
ClusterName=ibtopo
SlurmctldHost=localhost
SlurmctldPort=$(slurm_free_port)
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
	sed 's/^\(.*\)$/NodeName=\1 State=FUTURE/' "$nodes" >>"$d/slurm.conf"
	echo "PartitionName=all Nodes=ALL Default=YES State=UP" >>"$d/slurm.conf"
	SLURM_CONF="$d/slurm.conf"
	export SLURM_CONF
	(cd "$d" && exec "$SLURMCTLD" -D -i -f "$d/slurm.conf") \
		</dev/null >"$d/slurmctld.out" 2>&1 &
	ctld=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $ctld"
	# at most SLURM_WAIT seconds (default 10), each ping at most 2
	end=$(($(date +%s) + ${SLURM_WAIT:-10}))
	while [ "$(date +%s)" -lt "$end" ]; do
		kill -0 "$ctld" 2>/dev/null || break
		if timeout 2 "$SCONTROL" ping 2>/dev/null | grep -q 'is UP'; then
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
	[ -n "$up" ]
}

# slurm_nodes CONF: the nodes Nodes= lists in topology.conf CONF, once
# each, in order (hostlists expanded as tests/slurm-topology-check.py does)
slurm_nodes() {
	"$PYTHON3" - "${top_srcdir:-.}/tests/slurm-topology-check.py" "$1" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
seen = {}
for line in open(sys.argv[2]):
    for tok in line.split("#", 1)[0].split():
        if tok.lower().startswith("nodes="):
            for n in chk.hostlist_expand(tok[6:]):
                seen.setdefault(n, 1)
print("\n".join(seen))
PY
}
