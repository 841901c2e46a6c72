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
# is not reading tables; bench/store.sh times the store). Printed:
# best of REPEAT (default 3) wall and CPU (user + system) times of
# `discover`, `discover --routes` and `dump_fts`, the time of the LFT
# reading alone (discover -v's "routes" step), and discover --routes /
# dump_fts. Target: <= 1 (at least as fast as dump_fts). Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
IBSIM=${IBSIM:-$(command -v ibsim)}
DUMP_FTS=${DUMP_FTS:-$(PATH=$PATH:/usr/sbin command -v dump_fts)}
OPENSM=${OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm)}
UMAD2SIM=${UMAD2SIM:-/usr/lib/$(uname -m)-linux-gnu/umad2sim/libumad2sim.so}
IBTOPO=${IBTOPO:-$top_builddir/src/ibtopo}
REPEAT=${REPEAT:-3}
FABRICS=${FABRICS:-108 540}
SIM_WAIT=${SIM_WAIT:-120}
. "$top_srcdir/tests/lib.sh"
sim_require
[ -n "$DUMP_FTS" ] || fail "dump_fts not found (infiniband-diags)"
[ -x "$IBTOPO" ] || fail "no $IBTOPO: build first, or set IBTOPO"

. "$here/lib.sh"
SIM_HOST=h00001
export SIM_HOST

# best CMD...: run REPEAT times, print the
# shortest wall time, the least CPU time, and the least "routes" step time
# of discover -v (0 when there is none)
best() {
	b='' bc='' br=''
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		"$@" || { cat "$TESTDIR/err" >&2; fail "$* failed"; }
		t=$(calc "$(now) - $t0")
		c=$(cat "$TESTDIR/cpu")
		r=$(sed -n 's/^ibtopo: routes: .* in \([0-9.]*\) s$/\1/p' "$TESTDIR/err")
		r=${r:-0}
		if [ -z "$b" ] || lt "$t" "$b"; then b=$t; fi
		if [ -z "$bc" ] || lt "$c" "$bc"; then bc=$c; fi
		if [ -z "$br" ] || lt "$r" "$br"; then br=$r; fi
	done
	echo "$b $bc $br"
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
	set -- $(best sim_timed "$IBTOPO" --db "$TESTDIR/bench.db" discover)
	t_disc=$1 c_disc=$2
	set -- $(best sim_timed "$IBTOPO" -v --db "$TESTDIR/bench.db" discover --routes)
	t_rt=$1 c_rt=$2 r_rt=$3
	summary=$(head -1 "$TESTDIR/out")
	step=$(sed -n 's/^ibtopo: routes: //p' "$TESTDIR/err")
	set -- $(best sim_timed "$DUMP_FTS")
	t_fts=$1 c_fts=$2
	entries=$(grep -c '^0x' "$TESTDIR/out")
	sim_stop
	echo "$size switches: $summary"
	echo "  discover --routes: $step; dump_fts: $entries entries"
	printf '  %-28s %10s %10s\n' job wall cpu
	printf '  %-28s %9.3fs %9.3fs\n' "ibtopo discover" "$t_disc" "$c_disc" \
		"ibtopo discover --routes" "$t_rt" "$c_rt"
	printf '  %-28s %9.3fs\n' "  of which reading LFTs" "$r_rt"
	printf '  %-28s %9.3fs %9.3fs\n' "dump_fts" "$t_fts" "$c_fts"
	echo "  discover --routes / dump_fts: wall $(calc "$t_rt / $t_fts")," \
		"cpu $(calc "$c_rt / $c_fts") (target <= 1)"
done
echo "best of $REPEAT; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs" \
	"($(uname -m)), load average $load0 before," \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
