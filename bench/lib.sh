# bench/lib.sh - what the benchmarks share. A benchmark sets `here` (its
# folder), sources this first, then sets its own defaults:
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/lib.sh"
# shellcheck shell=sh
: "${here:?}"
# The programs' defaults: run from a build directory
top_srcdir=${top_srcdir:-$(cd "$here/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
IBSIM=${IBSIM:-$(command -v ibsim)}
IBNETDISCOVER=${IBNETDISCOVER:-$(PATH=$PATH:/usr/sbin command -v ibnetdiscover)}
UMAD2SIM=${UMAD2SIM:-/usr/lib/$(uname -m)-linux-gnu/umad2sim/libumad2sim.so}
IBTOPO=${IBTOPO:-$top_builddir/src/ibtopo}
OPENSM=${OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm)}
. "$top_srcdir/tests/lib.sh"
[ -x "$IBTOPO" ] || fail "no $IBTOPO: build first, or set IBTOPO"

# Time the real program, not libtool's wrapper script around it.
real_ibtopo
IBTOPO=$IBTOPO_REAL

# bench_sim: ibsim and its client shim, or fail; a simulator waits
# $SIM_WAIT s (default 120) to listen, its clients run as host h00001.
bench_sim() {
	SIM_WAIT=${SIM_WAIT:-120}
	sim_require
	SIM_HOST=h00001
	export SIM_HOST
}

# bench_ibnetdiscover: bench_sim, and ibnetdiscover, or fail.
bench_ibnetdiscover() {
	bench_sim
	[ -n "$IBNETDISCOVER" ] || fail "ibnetdiscover not found"
}

# bench_big_topo: the 11,664-host fat tree (3 levels of radix-36
# switches) as ibnetdiscover text, GUIDs and all, in $TESTDIR/big.topo.
bench_big_topo() {
	"$IBTOPO" plan fat-tree --levels 3 --radix 36 --pods 36 --leaves 18 \
		--spines 18 --hosts-per-leaf 18 -o "$TESTDIR/plan.topo" ||
		fail "plan"
	"$IBTOPO" --db "$TESTDIR/plan.db" import "$TESTDIR/plan.topo" \
		>/dev/null &&
		"$IBTOPO" --db "$TESTDIR/plan.db" export --format ibnetdiscover \
			-o "$TESTDIR/big.topo" || fail "export"
}

# now: seconds with nanoseconds
now() {
	date +%s.%N
}

# calc EXPR: awk arithmetic; lt A B: A < B
calc() {
	awk "BEGIN { printf \"%.6f\", $* }"
}
lt() {
	awk "BEGIN { exit !($1 < $2) }"
}

# timed CMD...: run CMD (stdout to $TESTDIR/out, stderr to err); its
# user + system seconds to $TESTDIR/cpu
timed() {
	"$PYTHON3" -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as out, open(sys.argv[2], "w") as err:
    rc = subprocess.call(sys.argv[4:], stdout=out, stderr=err)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[3], "w") as f:
    f.write("%.6f\n" % (r.ru_utime + r.ru_stime))
with open(sys.argv[3] + ".rss", "w") as f:
    f.write("%.0f\n" % (r.ru_maxrss / 1024.0))
sys.exit(rc)
' "$TESTDIR/out" "$TESTDIR/err" "$TESTDIR/cpu" "$@"
}

# rss: the peak resident MiB of the last `timed` command (the largest
# child it waited for)
rss() {
	cat "$TESTDIR/cpu.rss" 2>/dev/null || echo -
}

# bench_row JOB IBTOPO_S [PEER_S [CPU_S [MEM_MIB]]]: one row of
# bench/all.sh's table, appended to $BENCH_ROWS when it is set (all.sh
# sets it), with the load average now; "-" for what the job has not.
bench_row() {
	[ -n "${BENCH_ROWS:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "${3:--}" "${4:--}" \
		"${5:--}" "$(cut -d' ' -f1 /proc/loadavg)" >>"$BENCH_ROWS"
}

# best WANT_RC CMD...: run CMD (timed or sim_timed) REPEAT times, after
# best_setup when the benchmark defines one (a fresh database, say);
# print the shortest wall time and the least CPU time in seconds.
best() {
	want=$1
	shift
	b='' bc=''
	for _ in $(seq 1 "${REPEAT:-3}"); do
		if command -v best_setup >/dev/null; then best_setup; fi
		t0=$(now)
		"$@"
		rc=$?
		t=$(calc "$(now) - $t0")
		[ "$rc" -eq "$want" ] || {
			cat "$TESTDIR/err" >&2
			fail "$* exited $rc"
		}
		c=$(cat "$TESTDIR/cpu")
		if [ -z "$b" ] || lt "$t" "$b"; then b=$t; fi
		if [ -z "$bc" ] || lt "$c" "$bc"; then bc=$c; fi
	done
	echo "$b $bc"
}

# sim_timed COMMAND...: `timed` for a simulator client (see sim_client)
sim_timed() {
	(cd "$TESTDIR/work" &&
		timed env LD_PRELOAD="$UMAD2SIM" timeout "${SIM_TIMEOUT:-300}" "$@")
}
