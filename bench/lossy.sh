#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/lossy.sh - `ibtopo discover` against `ibnetdiscover -o 16` on a
# simulated fabric whose every switch drops MADs (issue 28).
#
#   sh bench/lossy.sh                     # from a build directory
#   HOSTS=324 LOSS="0 1 5" RUNS=5 sh bench/lossy.sh
#   COUNTERS=1 sh bench/lossy.sh          # also discover --counters
#                                         # against ibqueryerrors
#   RETRIES=16 sh bench/lossy.sh          # discover --retries 16
#
# HOSTS: 324 (a 2-level fat tree of 36-port switches), 1944 (the default:
# 6 pods of the 3-level one) or 11664, built by bench/gen-fattree.py.
# LOSS: drop rates in % (ibsim's `Error "<switch>" N` on every switch).
# For each rate, RUNS (default 3) runs of each tool; printed: the median
# wall time, how many runs were complete, and for ibnetdiscover how many
# of the clean run's port lines ('[' lines) were missing at worst. For
# ibtopo a run is complete when it exits 0 (it refuses, exit 2, rather
# than store a short fabric); from its -v "mads:" line, the median of
# the MADs it asked again and of the queries lost (unanswered after
# every retry; each makes a run exit 2). With COUNTERS=1 opensm sweeps
# first (PMA MADs are LID-routed) and `discover --counters` is timed
# against `ibqueryerrors --skip-sl` (timed only: it says nothing of what
# it lost, and exits 1 on the PortRcvErrors that ibsim's drops raise).
# Not a test: nothing here asserts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
IBQUERYERRORS=${IBQUERYERRORS:-$(PATH=$PATH:/usr/sbin command -v ibqueryerrors)}
HOSTS=${HOSTS:-1944}
LOSS=${LOSS:-0 1 5}
RUNS=${RUNS:-3}
COUNTERS=${COUNTERS:-0}
RETRIES=${RETRIES:-}
bench_ibnetdiscover

case $HOSTS in
324) gen="--radix 36 --levels 2" ;;
1944) gen="--radix 36 --levels 3 --pods 6" ;;
11664) gen="--radix 36 --levels 3 --pods 36" ;;
*) fail "HOSTS: 324, 1944 or 11664" ;;
esac
net="$TESTDIR/ft.net"
# shellcheck disable=SC2086
limits=$("$PYTHON3" "$here/gen-fattree.py" $gen -o "$net" 2>&1 >/dev/null |
	sed -n 's/^ibsim-limits: //p')
# no -n: the console (a FIFO, never at EOF) takes the Error commands
# shellcheck disable=SC2086
sim_start "$net" $limits
[ "$COUNTERS" = 0 ] || sim_opensm
switches=$(sed -n 's/^Switch[^"]*"\([^"]*\)".*/\1/p' "$net")

# median NUMBERS...: the middle one (the lower middle of an even count)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ports FILE: port lines of ibnetdiscover output
ports() {
	grep -c '^\[' "$1"
}

# one LABEL CMD...: RUNS runs of a simulator client; sets med (median
# wall seconds), ok (runs that exited 0), worst (fewest port lines of
# an ibnetdiscover run), asked (median MADs asked again, from ibtopo)
one() {
	label=$1
	shift
	times='' ok=0 worst='' askeds='' losts=''
	for _ in $(seq 1 "$RUNS"); do
		rm -f "$TESTDIR"/bench.db*
		t0=$(now)
		sim_timed "$@"
		rc=$?
		times="$times $(calc "$(now) - $t0")"
		[ $rc -eq 0 ] && ok=$((ok + 1))
		if [ "$label" = ibnetdiscover ]; then
			p=$(ports "$TESTDIR/out")
			if [ -z "$worst" ] || [ "$p" -lt "$worst" ]; then worst=$p; fi
		fi
		a=$(sed -n 's/^ibtopo: mads: [0-9]* sent, \([0-9]*\) asked again, .*/\1/p' "$TESTDIR/err")
		l=$(sed -n 's/^ibtopo: mads: .* asked again, \([0-9]*\) lost, .*/\1/p' "$TESTDIR/err")
		askeds="$askeds ${a:-0}"
		losts="$losts ${l:-0}"
	done
	# shellcheck disable=SC2086 # one word per run
	med=$(median $times)
	# shellcheck disable=SC2086
	asked=$(median $askeds)/$(median $losts)
}

printf '%-5s %-30s %9s %9s %14s\n' loss tool "median s" complete "again/lost"
# the port lines of a clean run, before any loss
sim_timed "$IBNETDISCOVER" -o 16 || fail "ibnetdiscover"
clean_ports=$(ports "$TESTDIR/out")
for pct in $LOSS; do
	for sw in $switches; do
		sim_cmd "Error \"$sw\" $pct"
	done
	one ibnetdiscover "$IBNETDISCOVER" -o 16
	med_ind=$med
	printf '%-5s %-30s %9.3f %6s/%-2s %14s\n' "$pct %" "ibnetdiscover -o 16" \
		"$med" "$ok" "$RUNS" "-"
	printf '%-5s %-30s %9s %9s %12s\n' "" \
		"  port lines, fewest" "$worst" "of $clean_ports" ""
	one ibtopo "$IBTOPO" -v --db "$TESTDIR/bench.db" discover ${RETRIES:+--retries "$RETRIES"}
	printf '%-5s %-30s %9.3f %6s/%-2s %14s\n' "" "ibtopo discover" "$med" \
		"$ok" "$RUNS" "$asked"
	bench_row "lossy: discover $HOSTS, $pct % loss (ibnetdiscover -o 16)" \
		"$med" "$med_ind"
	if [ "$COUNTERS" != 0 ]; then
		one ibqueryerrors "$IBQUERYERRORS" --skip-sl
		# it exits 1 on the PortRcvErrors the drops raise: no "complete"
		printf '%-5s %-30s %9.3f %9s %14s\n' "" "ibqueryerrors --skip-sl" \
			"$med" "-" "-"
		one ibtopo "$IBTOPO" -v --db "$TESTDIR/bench.db" discover --counters \
			${RETRIES:+--retries "$RETRIES"}
		printf '%-5s %-30s %9.3f %6s/%-2s %14s\n' "" \
			"ibtopo discover --counters" "$med" "$ok" "$RUNS" "$asked"
	fi
done
echo "$HOSTS hosts, $(count_lines "$switches") switches; median of $RUNS runs;" \
	"ibtopo --retries ${RETRIES:-8 (default)};" \
	"complete: exit 0 (ibnetdiscover exits 0 when short too)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m)), load average" \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
