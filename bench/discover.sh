#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/discover.sh - time `ibtopo discover` (discovery plus storing the
# snapshot) against `ibnetdiscover` on the same simulated fat trees.
#
#   sh bench/discover.sh                 # from a build directory
#   SIZES="1944" REPEAT=5 sh bench/discover.sh
#
# SIZES: host counts, each a 3-level fat tree of 36-port switches built by
# bench/gen-fattree.py (1944 = 6 of the 36 pods, 11664 = all of them).
# Every tool runs REPEAT times (default 3) against one ibsim per size; the
# best time counts. ibnetdiscover runs twice: with its defaults (2 SMPs in
# flight) and with -o 16, the SMP window ibtopo uses: the ratio is taken
# against the latter. The store time is ibtopo's total minus its discovery
# time (from -v). cpu: the client's user + system time (best of REPEAT
# too), steadier than wall time on a busy machine; under ibsim the client,
# not the simulator, sets the pace. The last lines give the date, the
# CPUs and the load average before and after. Target: ratio <= 1.
# tests/integration/discover-speed.sh asserts the CPU figure at 11,664.
# Not a test: nothing here asserts; read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIZES=${SIZES:-1944 11664}
REPEAT=${REPEAT:-3}
bench_ibnetdiscover

# best CMD...: run REPEAT times (CMD: sim_timed ...), print the shortest
# wall time and the least CPU time in seconds.
best() {
	b='' bc=''
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		"$@" || {
			cat "$TESTDIR/err" >&2
			fail "$*"
		}
		t=$(calc "$(now) - $t0")
		c=$(cat "$TESTDIR/cpu")
		if [ -z "$b" ] || lt "$t" "$b"; then b=$t; fi
		if [ -z "$bc" ] || lt "$c" "$bc"; then bc=$c; fi
	done
	echo "$b $bc"
}

load0=$(cat /proc/loadavg 2>/dev/null | cut -d' ' -f1-3)
printf '%-7s %-9s %-6s %11s %11s %11s %9s %8s %7s %9s %9s %7s\n' hosts \
	switches links "ibnetdisc" "ibnetd -o16" "ibtopo" "discover" "store" \
	ratio "cpu -o16" "cpu ibtopo" "ratio"
for hosts in $SIZES; do
	case $hosts in
	1944) pods=6 ;;
	11664) pods=36 ;;
	*) fail "SIZES: 1944 or 11664" ;;
	esac
	net="$TESTDIR/ft$hosts.net"
	limits=$("$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 \
		--pods "$pods" -o "$net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
	# shellcheck disable=SC2086
	sim_start "$net" -n $limits
	set -- $(best sim_timed "$IBNETDISCOVER")
	t_ind=$1
	set -- $(best sim_timed "$IBNETDISCOVER" -o 16)
	t_ind16=$1 c_ind16=$2
	# a fresh database for each run: every run stores one new snapshot
	b='' bc=''
	for _ in $(seq 1 "$REPEAT"); do
		rm -f "$TESTDIR"/bench.db*
		t0=$(now)
		sim_timed "$IBTOPO" -v --db "$TESTDIR/bench.db" discover || {
			cat "$TESTDIR/err" >&2
			fail "ibtopo discover"
		}
		t=$(calc "$(now) - $t0")
		c=$(cat "$TESTDIR/cpu")
		m=$(rss)
		if [ -z "$bc" ] || lt "$c" "$bc"; then bc=$c; fi
		d=$(sed -n 's/^ibtopo: discover: .* in \([0-9.]*\) s$/\1/p' "$TESTDIR/err")
		tot=$(sed -n 's/^  time: \([0-9.]*\) s$/\1/p' "$TESTDIR/out")
		if [ -z "$b" ] || lt "$t" "$b"; then
			b=$t
			disc=$d
			store=$(calc "$tot - $d")
			summary=$(head -1 "$TESTDIR/out")
		fi
	done
	sw=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) switches.*/\1/p')
	links=$(echo "$summary" | sed -n 's/.* \([0-9]*\) links.*/\1/p')
	printf '%-7s %-9s %-6s %10.3fs %10.3fs %10.3fs %8.3fs %7.3fs %7.2f %8.3fs %8.3fs %7.2f\n' \
		"$hosts" "$sw" "$links" "$t_ind" "$t_ind16" "$b" "$disc" "$store" \
		"$(calc "$b / $t_ind16")" "$c_ind16" "$bc" "$(calc "$bc / $c_ind16")"
	bench_row "discover + store $hosts (ibnetdiscover -o 16)" "$b" \
		"$t_ind16" "$bc" "$m"
	kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	exec 9>&-
	rm -f "$TESTDIR/console"
done
echo "ratio = ibtopo discover (discover + store) / ibnetdiscover -o 16; best of $REPEAT"
echo "cpu = the client's user + system time; best of $REPEAT"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m)), load average" \
	"$load0 before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
