#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/subnet.sh - what the subnet checks of issue 36 cost a discovery:
# `ibtopo discover --counters --routes` of this build against another
# build (BASE, say one of main before the change), interleaved, on the
# 1,944-host simulated fat tree (bench/gen-fattree.py --radix 36 --levels
# 3 --pods 6: 540 switches) after one `opensm -o` sweep; then again with
# an opensm daemon running (one IsSM port: one SMInfo Get more, and a
# second one for the master's ActCount). Both sweeps read the PKeyTable
# of the 1,944 CA ports (OpenSM without partitions.conf: 0xffff each;
# PartitionCap 64, two blocks each: 3,888 Gets); ibsim's switch ports
# never enforce partitions, so none of theirs is read.
#
#   BASE=/path/to/other/build/src/ibtopo sh bench/subnet.sh   # from a build
#   REPEAT=5 ...
#
# Both run through their libtool wrappers (each finds its own library),
# each into a fresh database. Printed: best and median wall, best CPU.
# Target (issue 36): at most 1.25 x. Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REPEAT=${REPEAT:-5}
: "${BASE:?set BASE to the src/ibtopo of another build}"
bench_sim
# shellcheck disable=SC2154 # top_builddir: bench/lib.sh sets it
IBTOPO=$top_builddir/src/ibtopo # the wrapper, as BASE

run1() {
	k=$1
	shift
	rm -f "$TESTDIR"/bench.db*
	t0=$(now)
	"$@" || { cat "$TESTDIR/err" >&2; fail "$* failed"; }
	echo "$(calc "$(now) - $t0") $(cat "$TESTDIR/cpu")" >>"$TESTDIR/$k"
}

stat() {
	sort -n -k1,1 "$TESTDIR/$1" | awk '{ w[NR] = $1 } END {
		printf "%s %s ", w[1], w[int((NR + 1) / 2)] }'
	sort -n -k2,2 "$TESTDIR/$1" | awk 'NR == 1 { print $2 }'
}

# compare WHAT: interleaved runs of both builds, and their figures
compare() {
	what=$1
	rm -f "$TESTDIR"/t.*
	for _ in $(seq 1 "$REPEAT"); do
		run1 t.base sim_timed "$BASE" --db "$TESTDIR/bench.db" \
			discover --counters --routes
		run1 t.new sim_timed "$IBTOPO" --db "$TESTDIR/bench.db" \
			discover --counters --routes
	done
	set -- $(stat t.base)
	b1=$1 b2=$2 b3=$3
	set -- $(stat t.new)
	echo "$what: discover --counters --routes"
	printf '  %-10s %9s %9s %9s\n' build "best wall" median "best cpu"
	printf '  %-10s %8.3fs %8.3fs %8.3fs\n' base "$b1" "$b2" "$b3" \
		this "$1" "$2" "$3"
	echo "  this / base: wall best $(calc "$1 / $b1"), median" \
		"$(calc "$2 / $b2"), cpu $(calc "$3 / $b3") (target <= 1.25)"
}

net="$TESTDIR/ft.net"
# shellcheck disable=SC2086
limits=$("$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 --pods 6 \
	-o "$net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
# shellcheck disable=SC2086
sim_start "$net" -n $limits
sim_opensm
compare "no SM running (after opensm -o)"
mkdir -p "$TESTDIR/sm"
(cd "$TESTDIR/work" && OSM_CACHE_DIR="$TESTDIR/sm" OSM_TMP_DIR="$TESTDIR/sm" \
	LD_PRELOAD="$UMAD2SIM" exec timeout -s KILL 900 "$OPENSM" -s 0 \
	-f "$TESTDIR/sm/osm.log" >/dev/null 2>&1) &
CLEANUP_PIDS="$CLEANUP_PIDS $!"
for _ in $(seq 1 600); do
	# its first heavy sweep done: an SM that just became master answers
	# the SA seconds late (a GetTable of every MCMemberRecord took 2 s)
	grep -q 'SUBNET UP' "$TESTDIR/sm/osm.log" 2>/dev/null && break
	sleep 0.1
done
compare "opensm running (master)"
echo "$REPEAT interleaved runs; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
