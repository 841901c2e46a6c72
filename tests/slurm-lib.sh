# tests/slurm-lib.sh - a private munged and slurmctld, for
# tests/integration/slurm-real.sh and bench/export.sh; sourced after
# tests/lib.sh (fail, CLEANUP_PIDS, PYTHON3).
#
#   slurm_require                  # exit 77 without slurmctld/scontrol/munged
#   slurm_require_chroot SUITE     # the same, of a Debian SUITE chroot
#                                  # (tools/debian-chroot.sh, kept in
#                                  # $IBTOPO_CHROOT_CACHE, by default
#                                  # /var/cache/ibtopo-tests), mounted
#                                  # until the test exits
#   slurm_tmp                      # a folder the daemons can see
#   slurm_munge_start DIR          # own key, socket, pid and log in DIR
#   slurm_nodes CONF > NODES       # the nodes of a topology.conf
#   slurm_ctld_run DIR CONF NODES  # slurmctld on topology.conf CONF whose
#                                  # nodes are listed in file NODES; 0 when
#                                  # it answered: `scontrol show topology`
#                                  # in DIR/show, its log DIR/slurmctld.log
#   SLURM_TOPO=tree|block|yaml     # what slurm_ctld_run configures: the
#                                  # topology/tree or topology/block
#                                  # plugin with CONF as topology.conf,
#                                  # or none with CONF as topology.yaml
# In a chroot the daemons see paths below $SLURM_ROOT only: slurm_in
# PATH is PATH as they see it.
# shellcheck shell=sh

SLURM_ROOT=
SLURM_RUN=
SLURM_MOUNTS=
SLURM_TOPO=${SLURM_TOPO:-tree}

slurm_in() {
	echo "${1#"$SLURM_ROOT"}"
}

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

# slurm_require_chroot SUITE: slurmctld, scontrol and munged of Debian
# SUITE, run through chroot; skips (77) where it cannot be built here
slurm_require_chroot() {
	local suite=$1 cache=${IBTOPO_CHROOT_CACHE:-/var/cache/ibtopo-tests} rc

	PATH=$PATH:/usr/sbin:/sbin
	{ mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; } ||
		cache=$TESTDIR/chroots
	sh "${top_srcdir:-.}/tools/debian-chroot.sh" "$suite" "$cache/$suite" \
		slurmctld slurm-client munge
	rc=$?
	[ $rc -eq 77 ] && skip "no Debian $suite chroot here (said above)"
	[ $rc -eq 0 ] || fail "tools/debian-chroot.sh $suite failed"
	SLURM_ROOT=$cache/$suite
	# shellcheck disable=SC2034 # lib_cleanup runs it
	CLEANUP_HOOK=slurm_cleanup
	mount -t proc proc "$SLURM_ROOT/proc" || fail "mount proc in $SLURM_ROOT"
	SLURM_MOUNTS=$SLURM_ROOT/proc
	mount --bind /dev "$SLURM_ROOT/dev" || fail "mount /dev in $SLURM_ROOT"
	SLURM_MOUNTS="$SLURM_ROOT/dev $SLURM_MOUNTS"
	SLURM_RUN="chroot $SLURM_ROOT"
	SLURMCTLD=/usr/sbin/slurmctld
	SCONTROL=/usr/bin/scontrol
	MUNGED=/usr/sbin/munged
	# shellcheck disable=SC2034 # for the tests that source this file
	SLURM_VERSION=$($SLURM_RUN "$SLURMCTLD" -V 2>/dev/null)
}

# slurm_tmp: a new folder the daemons see, in the chroot when there is one
slurm_tmp() {
	local d

	if [ -n "$SLURM_ROOT" ]; then
		d=$(mktemp -d "$SLURM_ROOT/tmp/ibtopo-test.XXXXXX") ||
			fail "mktemp in $SLURM_ROOT"
		SLURM_TMPS="$d ${SLURM_TMPS:-}"
	else
		d=$(mktemp -d "$TESTDIR/slurm.XXXXXX") || fail "mktemp"
	fi
	echo "$d"
}

# lib_cleanup's hook, the daemons stopped: the mounts and the folders in
# the chroot go
slurm_cleanup() {
	local m

	for m in $SLURM_MOUNTS; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	# shellcheck disable=SC2086 # mktemp's names hold no space
	[ -z "${SLURM_TMPS:-}" ] || rm -rf --one-file-system ${SLURM_TMPS}
}

slurm_munge_start() {
	M=$1
	mkdir -m 700 "$M" || fail "mkdir $M"
	dd if=/dev/urandom of="$M/munge.key" bs=1024 count=1 2>/dev/null ||
		fail "munge key"
	chmod 600 "$M/munge.key"
	m=$(slurm_in "$M")
	$SLURM_RUN "$MUNGED" --socket="$m/munge.sock" --key-file="$m/munge.key" \
		--pid-file="$m/munged.pid" --log-file="$m/munged.log" \
		--seed-file="$m/munged.seed" --force >"$M/munged.out" 2>&1 ||
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

# slurm_conf_common SOCKET DIR: the slurm.conf lines of every private
# slurmctld: root, munge at SOCKET, a free port, its state, spool, log
# and pid file in DIR
slurm_conf_common() {
	cat <<EOF
ClusterName=ibtopo
SlurmctldHost=localhost
SlurmctldPort=$(slurm_free_port)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$1
CredType=cred/munge
StateSaveLocation=$2/state
SlurmdSpoolDir=$2/spool
SlurmctldLogFile=$2/slurmctld.log
SlurmctldPidFile=$2/slurmctld.pid
SlurmctldDebug=info
MailProg=/bin/true
SelectType=select/cons_tres
ProctrackType=proctrack/linuxproc
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
EOF
}

slurm_ctld_run() {
	local d=$1 conf=$2 nodes=$3 ctld end up='' i file=topology.conf

	mkdir -p "$d/state" "$d/spool" || fail "mkdir $d"
	[ "$SLURM_TOPO" = yaml ] && file=topology.yaml
	[ "$conf" = "$d/$file" ] || cp "$conf" "$d/$file"
	i=$(slurm_in "$d")
	slurm_conf_common "$(slurm_in "$M")/munge.sock" "$i" >"$d/slurm.conf"
	case $SLURM_TOPO in
	tree | block) echo "TopologyPlugin=topology/$SLURM_TOPO" >>"$d/slurm.conf" ;;
	esac
	# Slurm 26.05 has no task/none: its default task plugin then
	if ls "$SLURM_ROOT"/usr/lib/*/slurm-wlm/task_none.so >/dev/null 2>&1; then
		echo "TaskPlugin=task/none" >>"$d/slurm.conf"
	fi
	sed 's/^\(.*\)$/NodeName=\1 State=FUTURE/' "$nodes" >>"$d/slurm.conf"
	echo "PartitionName=all Nodes=ALL Default=YES State=UP" >>"$d/slurm.conf"
	SLURM_CONF="$i/slurm.conf"
	export SLURM_CONF
	# shellcheck disable=SC2086 # $SLURM_RUN is two words or none
	(cd "$d" && exec $SLURM_RUN "$SLURMCTLD" -D -i -f "$i/slurm.conf") \
		</dev/null >"$d/slurmctld.out" 2>&1 &
	ctld=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $ctld"
	# at most SLURM_WAIT seconds (default 10), each ping at most 2
	end=$(($(date +%s) + ${SLURM_WAIT:-10}))
	while [ "$(date +%s)" -lt "$end" ]; do
		kill -0 "$ctld" 2>/dev/null || break
		if timeout 2 $SLURM_RUN "$SCONTROL" ping 2>/dev/null |
			grep -q 'is UP'; then
			up=1
			break
		fi
		sleep 0.05
	done
	if [ -n "$up" ]; then
		$SLURM_RUN "$SCONTROL" show topology >"$d/show" 2>&1 || up=
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
