#!/bin/sh
# job-slurm.sh - `ibtopo job --slurm-job ID` (issue 37): the job's hosts
# come from Slurm's clients, squeue -h -j ID -o %N expanded by scontrol
# show hostnames (without squeue, the NodeList= of scontrol show job),
# here fakes on PATH that log how they were called. The report is the
# one `job HOSTLIST` gives for the same hosts. A job without nodes, an
# unknown job (squeue fails), a bad id and no Slurm clients at all are
# one line each and exit 2.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
ck_cables
real_ibtopo
bin=$tmp/bin
mkdir -p "$bin" "$tmp/bare"
for p in sh cat echo printf; do
	ln -s "$(command -v "$p")" "$tmp/bare/$p"
done
cp -P "$tmp"/bare/* "$bin"/

# Slurm's clients as scripts: job 42 runs on host[01-02],host04, job 7
# is pending, anything else is unknown
cat >"$bin/squeue" <<EOF
#!/bin/sh
echo "squeue \$*" >>"$tmp/calls"
case "\$*" in
"-h -j 42 -o %N") echo 'host[01-02],host04' ;;
"-h -j 7 -o %N") echo '' ;;
*) echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1 ;;
esac
EOF
cat >"$bin/scontrol" <<EOF
#!/bin/sh
echo "scontrol \$*" >>"$tmp/calls"
case "\$*" in
"show hostnames host[01-02],host04") printf 'host01\nhost02\nhost04\n' ;;
"show job 42") echo 'JobId=42 JobName=x'
	echo '   ReqNodeList=(null) ExcNodeList=(null)'
	echo '   NodeList=host[01-02],host04' ;;
*) exit 1 ;;
esac
EOF
chmod +x "$bin/squeue" "$bin/scontrol"

# ---- the same report as the hostlist's
run 0 "$IBTOPO_REAL" job 'host[01-02],host04' "$topo" --routes "$dump" \
	--format json
cp "$tmp/out" "$tmp/want.json"
# slurm_job_42 FIRST HOW: job --slurm-job 42 gives that report, asking
# the Slurm clients FIRST, then for the hostnames (HOW: the test's words)
slurm_job_42() {
	: >"$tmp/calls"
	run 0 env PATH="$bin" "$IBTOPO_REAL" job --slurm-job 42 "$topo" \
		--routes "$dump" --format json
	same "$tmp/want.json" "$tmp/out" "job --slurm-job 42$2"
	printf '%s\n' "$1" \
		'scontrol show hostnames host[01-02],host04' >"$tmp/want"
	same "$tmp/want" "$tmp/calls" "the Slurm clients called$2"
}
slurm_job_42 'squeue -h -j 42 -o %N' ''

# ---- without squeue: scontrol show job
rm "$bin/squeue"
slurm_job_42 'scontrol show job 42' ' without squeue'

# ---- a pending job, an unknown one, a bad id, no Slurm
cat >"$bin/squeue" <<EOF
#!/bin/sh
case "\$*" in
"-h -j 7 -o %N") echo '' ;;
*) echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1 ;;
esac
EOF
chmod +x "$bin/squeue"
run 2 env PATH="$bin" "$IBTOPO_REAL" job --slurm-job 7 "$topo" &&
	stderr_is "ibtopo: job --slurm-job: job 7 has no nodes (not running yet, or ended)"
run 2 env PATH="$bin" "$IBTOPO_REAL" job --slurm-job 99 "$topo" &&
	stderr_is "slurm_load_jobs error: Invalid job id specified
ibtopo: job --slurm-job: 'squeue -h -j 99 -o %N' failed (exit 1)"
run 2 env PATH="$bin" "$IBTOPO_REAL" job --slurm-job 'x;y' "$topo" &&
	stderr_is "ibtopo: bad --slurm-job 'x;y' (a job id: digits, with _ or + for array and heterogeneous jobs)"
run 2 env PATH="$tmp/bare" "$IBTOPO_REAL" job --slurm-job 42 "$topo" &&
	stderr_is "ibtopo: job --slurm-job: scontrol not found in PATH: Slurm's clients (slurm-client) are not installed"
exit "$failed"
