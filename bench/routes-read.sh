#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/routes-read.sh - reading every switch's forwarding table live
# (issue 15): `ibtopo discover --routes` against infiniband-diags'
# `dump_fts` on the same simulated fabric, after one `opensm -o` sweep
# (LIDs and tables programmed).
#
#   sh bench/routes-read.sh               # from a build directory
#   REPEAT=5 FABRICS="108 540" sh bench/routes-read.sh
#
# Fabrics (bench/gen-fattree.py): 108 switches / 216 hosts (--radix 12
# --levels 3 --pods 6; the issue's "108-switch fabric in 0.18 s with
# dump_fts"), 540 switches / 1,944 hosts (--radix 36 --levels 3 --pods 6).
# Both tools sweep the fabric first, then read the LFT blocks: dump_fts
# one SMP at a time, LID-routed; ibtopo 16 at a time along directed
# routes, then stores the snapshot in a database an untimed first run
# created (creating one costs some 0.1 s of fsyncs on a busy disk, which
# is not reading tables; bench/store.sh times the store). The jobs run
# interleaved, REPEAT (default 5) times each, so they share the load of
# a busy machine; `true` under the same wrapper (python's rusage, env,
# timeout, the umad2sim shim) is the floor every job pays. Printed: best
# and median wall and best CPU (user + system) times of `true`,
# `discover`, `discover --routes` and `dump_fts`, the time of the LFT
# reading alone (discover -v's "routes" step), and discover --routes /
# dump_fts (best, median, and median less the floor). Target: <= 1 (at
# least as fast as dump_fts). Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
DUMP_FTS=${DUMP_FTS:-$(PATH=$PATH:/usr/sbin command -v dump_fts)}
REPEAT=${REPEAT:-5}
FABRICS=${FABRICS:-108 540}
bench_sim
[ -n "$DUMP_FTS" ] || fail "dump_fts not found (infiniband-diags)"

# run1 KEY CMD...: run CMD once; append its wall and CPU time and its
# "routes" step time (discover -v; 0 when there is none) to $TESTDIR/KEY
run1() {
	k=$1
	shift
	t0=$(now)
	"$@" || { cat "$TESTDIR/err" >&2; fail "$* failed"; }
	t=$(calc "$(now) - $t0")
	r=$(sed -n 's/^ibtopo: routes: .* in \([0-9.]*\) s$/\1/p' "$TESTDIR/err")
	echo "$t $(cat "$TESTDIR/cpu") ${r:-0}" >>"$TESTDIR/$k"
}

# stat KEY: best and median wall, best and median CPU, best routes step
stat() {
	sort -n -k1,1 "$TESTDIR/$1" | awk '{ w[NR] = $1 } END {
		printf "%s %s ", w[1], w[int((NR + 1) / 2)] }'
	sort -n -k2,2 "$TESTDIR/$1" | awk '{ c[NR] = $2 } END {
		printf "%s %s ", c[1], c[int((NR + 1) / 2)] }'
	sort -n -k3,3 "$TESTDIR/$1" | awk 'NR == 1 { print $3 }'
}

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
for size in $FABRICS; do
	case $size in
	108) shape="--radix 12 --levels 3 --pods 6" ;;
	540) shape="--radix 36 --levels 3 --pods 6" ;;
	*) fail "unknown fabric '$size' (108 or 540)" ;;
	esac
	net="$TESTDIR/ft$size.net"
	# shellcheck disable=SC2086
	limits=$("$PYTHON3" "$here/gen-fattree.py" $shape -o "$net" 2>&1 \
		>/dev/null | sed -n 's/^ibsim-limits: //p')
	# shellcheck disable=SC2086
	sim_start "$net" -n $limits
	sim_opensm
	rm -f "$TESTDIR"/bench.db*
	sim_client "$IBTOPO" --db "$TESTDIR/bench.db" discover \
		>"$TESTDIR/out" 2>&1 || fail "first discover"
	rm -f "$TESTDIR"/t.*
	# interleaved, so that the jobs share the machine's load; "true"
	# is the floor: the same wrapper and simulator shim around nothing
	for _ in $(seq 1 "$REPEAT"); do
		run1 t.true sim_timed true
		run1 t.disc sim_timed "$IBTOPO" --db "$TESTDIR/bench.db" discover
		run1 t.rt sim_timed "$IBTOPO" -v --db "$TESTDIR/bench.db" \
			discover --routes
		summary=$(head -1 "$TESTDIR/out")
		step=$(sed -n 's/^ibtopo: routes: //p' "$TESTDIR/err")
		run1 t.fts sim_timed "$DUMP_FTS"
	done
	set -- $(stat t.true)
	t_true=$1 m_true=$2
	set -- $(stat t.disc)
	t_disc=$1 m_disc=$2 c_disc=$3
	set -- $(stat t.rt)
	t_rt=$1 m_rt=$2 c_rt=$3 r_rt=$5
	set -- $(stat t.fts)
	t_fts=$1 m_fts=$2 c_fts=$3
	entries=$(grep -c '^0x' "$TESTDIR/out")
	sim_stop
	bench_row "routes-read: discover --routes, $size switches (dump_fts)" \
		"$t_rt" "$t_fts" "$c_rt"
	echo "$size switches: $summary"
	echo "  discover --routes: $step; dump_fts: $entries entries"
	printf '  %-28s %10s %10s %10s\n' job "best wall" "median" "best cpu"
	printf '  %-28s %9.3fs %9.3fs\n' "true (the floor)" "$t_true" "$m_true"
	printf '  %-28s %9.3fs %9.3fs %9.3fs\n' \
		"ibtopo discover" "$t_disc" "$m_disc" "$c_disc" \
		"ibtopo discover --routes" "$t_rt" "$m_rt" "$c_rt"
	printf '  %-28s %9.3fs\n' "  of which reading LFTs" "$r_rt"
	printf '  %-28s %9.3fs %9.3fs %9.3fs\n' "dump_fts" "$t_fts" "$m_fts" "$c_fts"
	echo "  discover --routes / dump_fts: wall best $(calc "$t_rt / $t_fts")," \
		"median $(calc "$m_rt / $m_fts"), less the floor" \
		"$(calc "($m_rt - $m_true) / ($m_fts - $m_true)");" \
		"cpu $(calc "$c_rt / $c_fts") (target <= 1)"
done
echo "$REPEAT interleaved runs; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs" \
	"($(uname -m)), load average $load0 before," \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
