#!/bin/sh
# bench/once.sh - "computed once" in figures (issue 32): `render --diff`
# of two snapshots with forwarding tables, and one `serve` sweep, under
# this build and under a peer build (IBTOPO_PEER, e.g. a build of an
# earlier commit), with the times and the routing traces each made.
#
# The fabric: bench/gen-fattree.py --radix ONCE_RADIX (default 24) --levels
# 3 under ibsim, routed once by `opensm -R ftree`, discovered with
# `ibtopo discover --routes` twice into one store (labels a and b); kept
# in ONCE_DIR when set. The peer sweeps the same fabric twice into a
# store of its own (an earlier commit may keep another schema version).
# Then, best of REPEAT (default 3):
#   render --diff a b -o x.dot   wall, CPU, and the routing traces
#                                ("analysis: routes" lines of -v; a peer
#                                without them traced 3 times, its own
#                                count is given as "-")
#   serve                        the first sweep's time, from -v's
#                                "sweep: ... in T s" line
# Not a test: nothing asserts. Usage: IBTOPO_PEER=/path/to/old/ibtopo
# sh bench/once.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REPEAT=${REPEAT:-3}
SIM_WAIT=${SIM_WAIT:-300}
RADIX=${ONCE_RADIX:-24}
PEER=${IBTOPO_PEER:-}
dir=${ONCE_DIR:-$TESTDIR/once}
mkdir -p "$dir" "$TESTDIR/work"
db=$dir/once.db

sim_require
[ -n "$OPENSM" ] || fail "opensm not found"
"$PYTHON3" "$here/gen-fattree.py" --radix "$RADIX" --levels 3 \
	-o "$dir/ft.net" 2>"$dir/gen.err" >/dev/null || fail "gen-fattree.py"
limits=$(sed -n 's/^ibsim-limits: //p' "$dir/gen.err")
# shellcheck disable=SC2086 # the limits are several options
sim_start "$dir/ft.net" $limits
SIM_HOST=h00001
export SIM_HOST
(cd "$TESTDIR/work" && OSM_CACHE_DIR="$dir" OSM_TMP_DIR="$dir" \
	LD_PRELOAD="$UMAD2SIM" timeout -s KILL 1800 "$OPENSM" -o -R ftree \
	-f "$dir/osm.log" >"$dir/opensm.out" 2>&1) || fail "opensm failed"
# two snapshots, a and b, by BIN into DB (unless DB has them)
two_sweeps() {
	[ -s "$2" ] && return 0
	for l in a b; do
		sim_client "$1" --db "$2" discover --routes --label "$l" \
			--quiet >/dev/null 2>"$dir/discover.err" ||
			fail "discover by $1: $(tail -2 "$dir/discover.err")"
	done
}
two_sweeps "$IBTOPO" "$db"
[ -z "$PEER" ] || two_sweeps "$PEER" "$dir/peer.db"

# measure CMD...: wall seconds, CPU seconds of CMD; its stderr in err
measure() {
	"$PYTHON3" -c '
import resource, subprocess, sys, time
t0 = time.monotonic()
with open(sys.argv[1], "w") as err:
    rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err)
t = time.monotonic() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f" % (t, r.ru_utime + r.ru_stime))
sys.exit(rc)
' "$TESTDIR/err" "$@"
}

# render_diff BIN DB: best wall and CPU of REPEAT runs, and its traces
render_diff() {
	bin=$1 bt='' bc=''
	for _ in $(seq 1 "$REPEAT"); do
		m=$(measure "$bin" -v --db "$2" render --diff a b \
			-o "$TESTDIR/d.dot") || fail "render --diff: $(tail -2 "$TESTDIR/err")"
		t=${m% *} c=${m#* }
		if [ -z "$bt" ] || lt "$t" "$bt"; then bt=$t; fi
		if [ -z "$bc" ] || lt "$c" "$bc"; then bc=$c; fi
	done
	tr=$(grep -c '^ibtopo: analysis: routes: ' "$TESTDIR/err")
	[ "$tr" -gt 0 ] || tr=-
	echo "$bt $bc $tr"
}

# sweep BIN: seconds of serve's first sweep (best of REPEAT serves)
sweep() {
	bin=$1 best=''
	for _ in $(seq 1 "$REPEAT"); do
		port=$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		rm -f "$TESTDIR"/serve.db*
		(cd "$TESTDIR/work" && LD_PRELOAD="$UMAD2SIM" exec "$bin" -v \
			--db "$TESTDIR/serve.db" serve --listen "127.0.0.1:$port" \
			--interval 3600) >/dev/null 2>"$TESTDIR/serve.err" &
		pid=$!
		for _ in $(seq 1 600); do
			grep -q '^ibtopo: sweep: ' "$TESTDIR/serve.err" && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		t=$(sed -n 's/^ibtopo: sweep: .* in \([0-9.]*\) s$/\1/p' \
			"$TESTDIR/serve.err" | head -1)
		[ -n "$t" ] || fail "no sweep line: $(tail -2 "$TESTDIR/serve.err")"
		if [ -z "$best" ] || lt "$t" "$best"; then best=$t; fi
	done
	echo "$best"
}

hosts=$(grep -c "^Hca" "$dir/ft.net")
echo "fabric: radix $RADIX, 3 levels, $hosts hosts, OpenSM ftree tables (load $(cut -d' ' -f1-3 /proc/loadavg))"
read -r new_t new_c new_r <<EOF
$(render_diff "$IBTOPO" "$db")
EOF
new_s=$(sweep "$IBTOPO")
if [ -n "$PEER" ]; then
	read -r old_t old_c _ <<EOF
$(render_diff "$PEER" "$dir/peer.db")
EOF
	old_s=$(sweep "$PEER")
	printf '%-22s %10s %10s %8s\n' job ibtopo peer ratio
	printf '%-22s %9ss %9ss %8s\n' "render --diff (wall)" "$new_t" "$old_t" \
		"$(calc "$new_t / $old_t")"
	printf '%-22s %9ss %9ss %8s\n' "render --diff (cpu)" "$new_c" "$old_c" \
		"$(calc "$new_c / $old_c")"
	printf '%-22s %10s %10s\n' "routing traces" "$new_r" "3 (peer)"
	printf '%-22s %9ss %9ss %8s\n' "serve sweep" "$new_s" "$old_s" \
		"$(calc "$new_s / $old_s")"
	bench_row "once: render --diff $hosts (peer build)" "$new_t" "$old_t" \
		"$new_c"
	bench_row "once: serve sweep $hosts (peer build)" "$new_s" "$old_s"
else
	bench_row "once: render --diff $hosts" "$new_t" - "$new_c"
	bench_row "once: serve sweep $hosts" "$new_s"
	echo "render --diff: $new_t s wall, $new_c s cpu, $new_r routing traces"
	echo "serve sweep: $new_s s"
fi
sim_stop
