#!/bin/sh
# serve-sched-sim.sh - `serve --scheduler-out FORMAT=FILE` on a live
# fabric (a fat tree under ibsim, serve sweeping every second): the
# Slurm and Kubernetes files are written at the first sweep, as `export`
# writes them; sweeps with no change leave them alone (same inode, the
# command not run again); a pulled host cable rewrites them (the host
# gone, the change logged, --scheduler-cmd run with the files it
# rewrote), putting it back rewrites them as they were; a new serve
# finds the files current and rewrites nothing. Bad FORMAT=FILE values
# are refused before anything runs. The header's "# taken:" line changes
# with every sweep and is no change of the tree.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"
out=$TESTDIR/sched
mkdir -p "$out"

run 2 "$IBTOPO" serve --scheduler-out slurm
run 2 "$IBTOPO" serve --scheduler-out json="$out/x.json"
run 2 "$IBTOPO" serve --scheduler-out slurm="$out/a" --scheduler-out k8s="$out/a"
run 2 "$IBTOPO" serve --scheduler-cmd true
[ -e "$out/a" ] && flunk "a refused command line wrote a file"

sim_fattree 8 2
sweeps() { mval ibtopo_sweeps_total ""; }
# wait_sweeps N: until N more sweeps than now were served
wait_sweeps() {
	n0=$(sweeps)
	metrics_until "[ \"\$(sweeps)\" -ge $((n0 + $1)) ]" 60 ||
		fail "no $1 sweeps: $(tail -3 "$TESTDIR/serve.err")"
}
# shellcheck disable=SC2016 # expanded by the command's own shell
cmd='echo "$IBTOPO_SCHEDULER_FILES" >>'"'$out/cmd.log'"
serve_start --interval 1 --scheduler-out slurm="$out/topology.conf" \
	--scheduler-out k8s="$out/k8s.yaml" --scheduler-cmd "$cmd"
metrics_until '[ -s "$out/topology.conf" ] && [ -s "$out/cmd.log" ]' 60 ||
	fail "no file written: $(cat "$TESTDIR/serve.err")"
grep -q "^SwitchName=leaf002 Nodes=" "$out/topology.conf" ||
	flunk "topology.conf: $(head -8 "$out/topology.conf")"
grep -q 'kind: Topology' "$out/k8s.yaml" || flunk "k8s.yaml has no Topology"
[ "$(cat "$out/cmd.log")" = "$out/topology.conf $out/k8s.yaml" ] ||
	flunk "command's files: $(cat "$out/cmd.log")"
cp "$out/topology.conf" "$TESTDIR/first.conf"
ino=$(stat -c %i "$out/topology.conf")
wait_sweeps 3
[ "$(stat -c %i "$out/topology.conf")" = "$ino" ] ||
	flunk "topology.conf rewritten on sweeps with no change"
[ "$(grep -c . "$out/cmd.log")" = 1 ] || flunk "command run again: $(cat "$out/cmd.log")"

# a host cable pulled (leaf002 port 1: h00005): the host leaves both
# files, the change is logged
grep -q 'h00005' "$out/k8s.yaml" || fail "no h00005 in k8s.yaml"
sim_cmd 'Unlink "leaf002"[1]'
metrics_until '[ "$(grep -c . "$out/cmd.log")" -ge 2 ]' 60 ||
	fail "no rewrite after the cable was pulled: $(tail -3 "$TESTDIR/serve.err")"
grep -q "topology.conf rewritten (slurm): 2 lines added, 2 removed; first added: '# 31 hosts, .*'; first removed: '# 32 hosts, .*'\$" \
	"$TESTDIR/serve.err" || flunk "log: $(grep rewritten "$TESTDIR/serve.err")"
grep -q '^SwitchName=leaf002 Nodes=h\[00006-00008\]$' "$out/topology.conf" ||
	flunk "leaf002 after the pull: $(grep leaf002 "$out/topology.conf")"
grep -q 'h00005' "$out/k8s.yaml" && flunk "h00005 still in k8s.yaml"
sim_cmd 'ReLink "leaf002"[1]'
metrics_until '[ "$(grep -c . "$out/cmd.log")" -ge 3 ]' 60 ||
	fail "no rewrite after the cable was put back"
grep -v '^# taken:' "$TESTDIR/first.conf" >"$TESTDIR/first.tree"
grep -v '^# taken:' "$out/topology.conf" >"$TESTDIR/now.tree"
same "$TESTDIR/first.tree" "$TESTDIR/now.tree" "topology.conf after the cable was put back"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC"

# a new serve: the files are current, nothing rewritten
serve_start --interval 1 --scheduler-out slurm="$out/topology.conf" \
	--scheduler-out k8s="$out/k8s.yaml" --scheduler-cmd "$cmd"
wait_sweeps 2
[ "$(grep -c . "$out/cmd.log")" = 3 ] || flunk "a restart rewrote: $(cat "$out/cmd.log")"
grep -q rewritten "$TESTDIR/serve.err" && flunk "a restart logged a rewrite"
serve_stop
for f in "$out"/*.tmp*; do
	[ -e "$f" ] && flunk "temporary file left: $f"
done
exit "$failed"
