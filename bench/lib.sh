# bench/lib.sh - what the benchmarks share, sourced after tests/lib.sh.
# shellcheck shell=sh
# The sourcing script sets top_builddir and IBTOPO.
: "${top_builddir:?}" "${IBTOPO:?}"

# Time the real program, not libtool's wrapper script around it.
if [ -x "$(dirname "$IBTOPO")/.libs/ibtopo" ] && head -c 2 "$IBTOPO" | grep -q '#!'; then
	LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	IBTOPO="$(dirname "$IBTOPO")/.libs/ibtopo"
fi

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
sys.exit(rc)
' "$TESTDIR/out" "$TESTDIR/err" "$TESTDIR/cpu" "$@"
}

# sim_timed COMMAND...: `timed` for a simulator client (see sim_client)
sim_timed() {
	(cd "$TESTDIR/work" &&
		timed env LD_PRELOAD="$UMAD2SIM" timeout "${SIM_TIMEOUT:-300}" "$@")
}
