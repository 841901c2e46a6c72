#!/bin/sh
# bench/all.sh - every benchmark of bench/ in sequence, one table (issue 38):
# job, ibtopo seconds, the peer's seconds (ibnetdiscover, networkx, ...),
# their ratio, ibtopo's CPU seconds, its peak memory, and the load
# average when the row was taken.
#
#   sh bench/all.sh                     # from a build directory
#   sh bench/all.sh routes diff         # some of them (names of bench/*.sh)
#   QUIET_LOAD=0.5 QUIET_WAIT=900 REPEAT=5 sh bench/all.sh
#
# First it waits for a quiet machine: until the 1-minute load average is
# at most QUIET_LOAD (default 1.0), checking every 10 s for at most
# QUIET_WAIT seconds (default 600); then it goes on with a warning, and
# the table's load column says how far from quiet each row was.
# Each benchmark runs under `timeout -k 60 BENCH_TIMEOUT` (default 1800 s;
# KILL a minute after TERM: slurmctld and opensm ignore TERM while busy), its
# own report in OUT/NAME.log (OUT: BENCH_OUT, else a new temporary
# folder, kept); a benchmark that fails or times out gets a FAILED row.
# The rows come from bench_row (bench/lib.sh) in each benchmark, through
# BENCH_ROWS. REPEAT (best of, default 3) and the benchmarks' own
# variables (ROUTES_DIR, IBTOPO_PEER, ...) pass through; SLURMCTLD
# defaults to no here (export.sh's slurmctld 22.05 on the 101,306-host
# topology.conf ran 23 minutes without answering: SLURMCTLD= to run it).
# Not a test: nothing asserts. Wall seconds are the best of REPEAT runs;
# on a busy machine CPU seconds are the steadier figure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
QUIET_LOAD=${QUIET_LOAD:-1.0}
QUIET_WAIT=${QUIET_WAIT:-600}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
SLURMCTLD=${SLURMCTLD-no}
export SLURMCTLD
ALL="store import export paths shapes render routes diff metrics health
counters discover lossy routes-read once serve whatif"
[ $# -gt 0 ] && ALL=$*
for b in $ALL; do
	[ -f "$here/$b.sh" ] || {
		echo "bench/all.sh: no bench/$b.sh" >&2
		exit 2
	}
done
OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ibtopo-bench-all.XXXXXX")}
mkdir -p "$OUT" || exit 2
BENCH_ROWS=$OUT/rows.tsv
export BENCH_ROWS
: >"$BENCH_ROWS"

load1() {
	cut -d' ' -f1 /proc/loadavg
}

# ---- a quiet machine first, for at most QUIET_WAIT seconds
waited=0
while awk -v l="$(load1)" -v q="$QUIET_LOAD" 'BEGIN { exit !(l > q) }'; do
	if [ "$waited" -ge "$QUIET_WAIT" ]; then
		echo "bench/all.sh: warning: load average $(load1) after" \
			"${waited} s, above $QUIET_LOAD: figures are noisy" >&2
		break
	fi
	[ "$waited" -eq 0 ] &&
		echo "bench/all.sh: load average $(load1) > $QUIET_LOAD;" \
			"waiting up to $QUIET_WAIT s" >&2
	sleep 10
	waited=$((waited + 10))
done

load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u '+%Y-%m-%d %H:%M UTC')
for b in $ALL; do
	echo "bench/all.sh: $b ($(date -u +%H:%M:%S), load $(load1))" >&2
	t0=$(date +%s)
	if [ "$b" = paths ]; then
		set -- "$(pwd)"	# paths.sh takes the build directory
	else
		set --
	fi
	timeout -k 60 "$BENCH_TIMEOUT" sh "$here/$b.sh" "$@" >"$OUT/$b.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		why="exit $rc"
		[ "$rc" -eq 124 ] && why="timed out after $BENCH_TIMEOUT s"
		printf '%s\t%s\t-\t-\t-\t%s\n' "$b: FAILED ($why, see $b.log)" - \
			"$(load1)" >>"$BENCH_ROWS"
	fi
	echo "bench/all.sh: $b done in $(($(date +%s) - t0)) s" >&2
done

rev=$(git -C "$here/.." describe --always --dirty 2>/dev/null || echo "?")
echo "ibtopo $rev; $start; $(nproc) CPUs ($(uname -m)); load average" \
	"$load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "best of ${REPEAT:-3}; seconds; ratio = ibtopo / peer; memory: peak RSS"
awk -F '\t' '
function num(x) { return x ~ /^[0-9.]+$/ }
BEGIN {
	printf "%-58s %9s %9s %7s %8s %7s %6s\n", "job", "ibtopo", "peer",
		"ratio", "cpu", "MiB", "load"
}
{
	ratio = num($2) && num($3) && $3 > 0 ? sprintf("%.2f", $2 / $3) : "-"
	printf "%-58s %9s %9s %7s %8s %7s %6s\n", $1,
		num($2) ? sprintf("%.3f", $2) : $2,
		num($3) ? sprintf("%.3f", $3) : $3, ratio,
		num($4) ? sprintf("%.2f", $4) : $4, $5, $6
}' "$BENCH_ROWS"
echo "reports: $OUT/*.log"
