#!/bin/sh
# job-slurm-real.sh - `ibtopo job --slurm-job ID` against the real Slurm
# clients and a real slurmctld (issue 37): a private munged and
# slurmctld 22.05 (tests/slurm-lib.sh) whose nodes host01..host04 (the
# hosts of tests/data/ck-cables.topo) are State=CLOUD, so that slurmctld
# allocates them to a job without any slurmd (the job waits in
# CONFIGURING for the nodes to "power up", its NodeList set). A job on
# host[01-02],host04 reports as `job 'host[01-02],host04'` does; a held
# job has no nodes yet and an unknown id is squeue's error, one line
# each, exit 2. Skips (77) only without slurmctld, scontrol, squeue,
# sbatch or munged (tools/install-deps.sh installs them).
. "${top_srcdir:-.}/tests/lib.sh"
python_require
. "$top_srcdir/tests/slurm-lib.sh"
slurm_require
command -v squeue >/dev/null || skip "squeue not found (slurm-client)"
command -v sbatch >/dev/null || skip "sbatch not found (slurm-client)"
unset IBTOPO_DB
topo=$DATA/ck-cables.topo dump=$DATA/rt-ck-lfts.dump

d=$(slurm_tmp)
slurm_munge_start "$d/munge"
mkdir -p "$d/state" "$d/spool" || fail "mkdir $d"
{
	slurm_conf_common "$M/munge.sock" "$d"
	cat <<EOF
TaskPlugin=task/none
SuspendProgram=/bin/true
ResumeProgram=/bin/true
SuspendTime=600
ResumeTimeout=600
NodeName=host0[1-4] State=CLOUD
PartitionName=all Nodes=ALL Default=YES State=UP
EOF
} >"$d/slurm.conf"
SLURM_CONF=$d/slurm.conf
export SLURM_CONF
(cd "$d" && exec "$SLURMCTLD" -D -i -f "$d/slurm.conf") </dev/null \
	>"$d/slurmctld.out" 2>&1 &
CLEANUP_PIDS="$CLEANUP_PIDS $!"
up=
for _ in $(seq 1 100); do
	if timeout 2 "$SCONTROL" ping 2>/dev/null | grep -q 'is UP'; then
		up=1
		break
	fi
	sleep 0.1
done
[ -n "$up" ] || fail "slurmctld did not answer: $(tail -3 "$d/slurmctld.log")"

# a job that slurmctld places on host01, host02 and host04
sbatch --parsable -N3 -w 'host[01-02],host04' --wrap true \
	>"$TESTDIR/jobid" 2>"$TESTDIR/err" || fail "sbatch: $(cat "$TESTDIR/err")"
id=$(cut -d';' -f1 "$TESTDIR/jobid")
nodes=
for _ in $(seq 1 60); do
	nodes=$(squeue -h -j "$id" -o %N)
	[ -n "$nodes" ] && break
	sleep 0.5
done
[ "$nodes" = 'host[01-02,04]' ] || [ "$nodes" = 'host[01-02],host04' ] ||
	fail "slurmctld placed job $id on '$nodes'"

run 0 "$IBTOPO" job 'host[01-02],host04' "$topo" --routes "$dump" --format json
cp "$TESTDIR/out" "$TESTDIR/want.json"
run 0 "$IBTOPO" job --slurm-job "$id" "$topo" --routes "$dump" --format json
same "$TESTDIR/want.json" "$TESTDIR/out" "job --slurm-job $id"

# a held job has no nodes; an unknown one is squeue's error
sbatch --parsable --hold -N1 --wrap true >"$TESTDIR/held" 2>"$TESTDIR/err" ||
	fail "sbatch --hold: $(cat "$TESTDIR/err")"
held=$(cut -d';' -f1 "$TESTDIR/held")
run 2 "$IBTOPO" job --slurm-job "$held" "$topo" &&
	stderr_is "ibtopo: job --slurm-job: job $held has no nodes (not running yet, or ended)"
run 2 "$IBTOPO" job --slurm-job 99999 "$topo"
tail -1 "$TESTDIR/err" | grep -q "^ibtopo: job --slurm-job: 'squeue -h -j 99999 -o %N' failed" ||
	flunk "an unknown job: $(cat "$TESTDIR/err")"
exit "$failed"
