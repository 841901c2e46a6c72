#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/metrics.sh - the cost of the Prometheus text (issue 26).
#
#   sh bench/metrics.sh                  # from a build directory
#   REPEAT=5 HOSTS=large sh bench/metrics.sh
#
# A stored fat tree whose every linked port carries counters (imported
# from an ibdiagnet2.db_csv PM_INFO section written here, 64-bit data
# counters, errors on 1% of the ports), then `ibtopo metrics` of it:
# the text's size, its series (the default groups, and every group with
# --collect all), and the time to load the snapshot and
# write it, with the findings (one `analyze`) and without
# (--no-findings, the text alone). HOSTS: "large" (default) is the
# 11,664-host fat tree of the issue (36 pods, 3 levels, radix 36);
# "huge" 20,736 hosts (48 pods, radix 48): about 100,000 ports.
# PARTS="text serve" (the default) chooses the parts; "serve": on the
# 1,944-host fat tree under ibsim (bench/gen-fattree.py --pods 6, opensm
# for LIDs; SERVE_HOSTS=11664: all 36 pods), `ibtopo serve --interval
# 0.2`, its two kinds of sweep against `ibqueryerrors --skip-sl` (what
# the exporters run) in the same run: full (--topology-every 0:
# discovery with the counters of every linked port, analysis, text,
# diagram) and counters-only (--topology-every 1h: the PMA Gets on the
# first sweep's topology, and the rest as full), KSWEEPS (5) of each:
# the best and the median sweep, serve's CPU a sweep, the MADs a sweep
# (ibtopo_last_sweep_mads; ibqueryerrors' through tests/rel-madspy.so,
# when make check built it), each as a ratio to ibqueryerrors; the time
# of a scrape of /metrics, and the server's resident memory after 5 and
# after MEM_SWEEPS (50) full sweeps.
# Best of REPEAT (default 3) wall times; cpu: user + system, best of
# REPEAT too. Not a test: nothing here asserts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${top_srcdir:?}" "${top_builddir:?}" # set by lib.sh
REPEAT=${REPEAT:-3}
HOSTS=${HOSTS:-large}
PARTS=${PARTS:-text serve}
IBQUERYERRORS=${IBQUERYERRORS:-$(PATH=$PATH:/usr/sbin command -v ibqueryerrors)}

# cpu_ticks PID: its user + system time so far, in clock ticks
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

serve_part() {
	local net limits pods t0 t_iqe c_iqe m_iqe best_iqe cpu_iqe hosts
	bench_sim
	. "$top_srcdir/tests/serve-lib.sh"
	case ${SERVE_HOSTS:-1944} in
	1944) pods=6 ;;
	11664) pods=36 ;;
	*) fail "SERVE_HOSTS: 1944 or 11664" ;;
	esac
	hosts=$(printf "%'d" "${SERVE_HOSTS:-1944}" 2>/dev/null || echo "${SERVE_HOSTS:-1944}")
	net="$TESTDIR/ft.net"
	limits=$("$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 --pods "$pods" \
		-o "$net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
	# shellcheck disable=SC2086
	sim_start "$net" -n $limits
	# LIDs and routes: one opensm sweep (ftree; several minutes at
	# 11,664 hosts, past sim_opensm's minute)
	mkdir -p "$TESTDIR/osm"
	(cd "$TESTDIR/work" && OSM_CACHE_DIR="$TESTDIR/osm" OSM_TMP_DIR="$TESTDIR/osm" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 1800 "$OPENSM" -o -R ftree \
		-f "$TESTDIR/osm/osm.log" >"$TESTDIR/osm/stdout" 2>&1) ||
		fail "opensm sweep failed (see $TESTDIR/osm/osm.log)"
	# ibqueryerrors --skip-sl: best wall and CPU of REPEAT, its MADs
	# (the spy, once, when make check built it)
	best_iqe='' cpu_iqe=''
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		sim_timed "$IBQUERYERRORS" --skip-sl || true
		t=$(calc "$(now) - $t0")
		c=$(cat "$TESTDIR/cpu")
		{ [ -z "$best_iqe" ] || lt "$t" "$best_iqe"; } && best_iqe=$t
		{ [ -z "$cpu_iqe" ] || lt "$c" "$cpu_iqe"; } && cpu_iqe=$c
	done
	t_iqe=$best_iqe c_iqe=$cpu_iqe
	m_iqe=-
	if [ -f "$top_builddir/tests/.libs/rel-madspy.so" ]; then
		: >"$TESTDIR/iqe.mads"
		sim_spy "$TESTDIR/iqe.mads" "$IBQUERYERRORS" --skip-sl >/dev/null 2>&1
		m_iqe=$(wc -l <"$TESTDIR/iqe.mads")
	fi
	# serve_rss: the server's resident kB now
	serve_rss() {
		awk '/^VmRSS:/ { print $2 }' "/proc/$SERVE_PID/status"
	}
	# sweeps N: wait (on /healthz, cheap) until N sweeps are done
	sweeps() {
		for _ in $(seq 1 6000); do
			scrape /healthz >/dev/null
			[ "$(sed -n 's/^sweeps: //p' "$TESTDIR/body")" -ge "$1" ] &&
				return 0
			sleep 0.05
		done
		fail "$1 sweeps: $(cat "$TESTDIR/serve.err")"
	}
	# kind NAME: KSWEEPS (5) sweeps after those done: the best and the
	# median duration, the MADs of each (all the same), CPU a sweep
	kind() {
		local n n0 c0 k=${KSWEEPS:-5} tck cpu best med mads
		tck=$(getconf CLK_TCK)
		scrape /healthz >/dev/null
		n0=$(sed -n 's/^sweeps: //p' "$TESTDIR/body")
		c0=$(cpu_ticks "$SERVE_PID")
		: >"$TESTDIR/durs"
		: >"$TESTDIR/kmads"
		n=$n0
		while [ "$n" -lt $((n0 + k)) ]; do
			sweeps $((n + 1))
			scrape /metrics >/dev/null
			n=$(mval ibtopo_sweeps_total "")
			[ "$(mval ibtopo_last_sweep_full "")" = "$2" ] ||
				fail "$1: a sweep of the other kind"
			mval ibtopo_sweep_duration_seconds "" >>"$TESTDIR/durs"
			mval ibtopo_last_sweep_mads "" >>"$TESTDIR/kmads"
		done
		cpu=$(calc "($(cpu_ticks "$SERVE_PID") - $c0) / $tck / ($n - $n0)")
		best=$(sort -g "$TESTDIR/durs" | head -1)
		med=$(sort -g "$TESTDIR/durs" | awk '{ d[NR] = $1 } END { print d[int((NR + 1) / 2)] }')
		mads=$(sort -u "$TESTDIR/kmads" | tr '\n' ' ' | sed 's/ $//')
		printf '%-14s %8.3fs %8.3fs %6.2fx %8.3fs %6.2fx %8s %6s\n' "$1" \
			"$best" "$med" "$(calc "$best / $t_iqe")" "$cpu" \
			"$(calc "$cpu / $c_iqe")" "$mads" \
			"$([ "$m_iqe" = - ] && echo - || printf '%.2fx' "$(calc "${mads%% *} / $m_iqe")")"
		bench_row "serve $1 sweep, $hosts hosts (vs ibqueryerrors)" "$best" \
			"$t_iqe" "$cpu" "$(($(serve_rss) / 1024))"
	}
	printf '%s hosts under ibsim, serve --interval 0.2 (sweeps back to back):\n' "$hosts"
	printf '%-14s %9s %9s %7s %9s %7s %8s %6s\n' "" "best" "median" "/iqe" \
		"cpu" "/iqe" "MADs" "/iqe"
	printf '%-14s %8.3fs %9s %7s %8.3fs %7s %8s %6s\n' "ibqueryerrors" "$t_iqe" - - \
		"$c_iqe" - "$m_iqe" -
	# full sweeps (--topology-every 0): discovery with the counters of
	# every linked port, analysis, text, diagram; /healthz says
	# "sweeps: N" while the data is fresh: a sweep slower than
	# 3 x 0.2 s must not turn it into a 503
	serve_start --interval 0.2 --timeout 1000 --stale-after 1h --topology-every 0
	sweeps 2
	kind "full" 1
	sweeps 5
	r5=$(serve_rss)
	t0=$(now)
	scrape /metrics >/dev/null
	t_scrape=$(calc "$(now) - $t0")
	size=$(wc -c <"$TESTDIR/body")
	sweeps "${MEM_SWEEPS:-50}"
	r50=$(serve_rss)
	scrape /metrics >/dev/null
	errs=$(mval ibtopo_sweep_errors_total "")
	n=$(mval ibtopo_sweeps_total "")
	serve_stop
	# counters-only sweeps: the PMA Gets on the first sweep's topology
	SERVE_PORT=
	serve_start --interval 0.2 --timeout 1000 --stale-after 1h --topology-every 1h
	sweeps 2
	kind "counters-only" 0
	errs=$((errs + $(mval ibtopo_sweep_errors_total "")))
	serve_stop
	sim_stop
	echo "sweeps failed: $errs (of $n + the counters-only ones)"
	echo "scrape of /metrics: ${t_scrape}s for $size bytes"
	echo "resident memory (full sweeps): ${r5} kB after 5 sweeps, ${r50} kB" \
		"after ${MEM_SWEEPS:-50} or more ($(calc "100 * ($r50 - $r5) / $r5")%)"
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average" \
		"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
}

case " $PARTS " in
*" serve "*) serve_part ;;
esac
case " $PARTS " in
*" text "*) ;;
*) exit 0 ;;
esac

case $HOSTS in
large) shape="--levels 3 --radix 36 --pods 36 --leaves 18 --spines 18 --hosts-per-leaf 18" ;;
huge) shape="--levels 3 --radix 48 --pods 36 --leaves 24 --spines 24 --hosts-per-leaf 24" ;;
*) fail "HOSTS is large or huge" ;;
esac
db=$TESTDIR/big.db
# shellcheck disable=SC2086
"$IBTOPO" plan fat-tree $shape -o "$TESTDIR/plan.topo" || fail "plan"
"$IBTOPO" --db "$TESTDIR/plan.db" import "$TESTDIR/plan.topo" >/dev/null &&
	"$IBTOPO" --db "$TESTDIR/plan.db" show ports --format json \
		>"$TESTDIR/ports.json" || fail "ports"
"$PYTHON3" - "$TESTDIR/ports.json" "$TESTDIR/pm.db_csv" <<'PY' || fail "counters"
import json, sys
names = ["LinkDownedCounter", "LinkErrorRecoveryCounter", "SymbolErrorCounter",
         "PortRcvRemotePhysicalErrors", "PortRcvErrors", "PortXmitDiscards",
         "PortRcvSwitchRelayErrors", "ExcessiveBufferOverrunErrors",
         "LocalLinkIntegrityErrors", "PortRcvConstraintErrors",
         "PortXmitConstraintErrors", "VL15Dropped", "PortXmitWait",
         "PortXmitDataExtended", "PortRcvDataExtended",
         "PortXmitPktsExtended", "PortRcvPktsExtended"]
ports = [p for p in json.load(open(sys.argv[1]))["ports"]
         if p["peer"]["guid"] and p["port"]]
with open(sys.argv[2], "w") as f:
    f.write("START_PM_INFO\nNodeGUID,PortGUID,PortNumber,%s\n" % ",".join(names))
    for i, p in enumerate(ports):
        err = 7 if i % 100 == 0 else 0
        v = [0, 0, err, 0, err, 0, 0, 0, 0, 0, 0, 0, 1000 + i,
             10**12 + i, 10**12 + 2 * i, 10**9 + i, 10**9 + i]
        f.write("%s,%s,%d,%s\n" % (p["guid"], p["port_guid"] or p["guid"],
                                   p["port"], ",".join(map(str, v))))
    f.write("END_PM_INFO\n")
print("%d linked ports" % len(ports), file=sys.stderr)
PY
"$IBTOPO" --db "$db" import "$TESTDIR/plan.topo" --counters "$TESTDIR/pm.db_csv" \
	>"$TESTDIR/import.out" || fail "import --counters"

# best CMD...: best wall and CPU seconds of REPEAT runs of `timed CMD`
best() {
	b='' bc=''
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		timed "$@" || { cat "$TESTDIR/err" >&2; fail "$* failed"; }
		t=$(calc "$(now) - $t0")
		c=$(cat "$TESTDIR/cpu")
		{ [ -z "$b" ] || lt "$t" "$b"; } && b=$t
		{ [ -z "$bc" ] || lt "$c" "$bc"; } && bc=$c
	done
	echo "$b $bc"
}

set -- $(best "$IBTOPO" --db "$db" metrics --no-findings)
t_n=$1 c_n=$2
bytes=$(wc -c <"$TESTDIR/out")
series=$(grep -vc '^#' "$TESTDIR/out")
ports=$(grep -c '^ibtopo_port_state{' "$TESTDIR/out")
withc=$(grep -c '^ibtopo_port_symbol_errors_total{' "$TESTDIR/out")
gz=$(gzip -1 -c <"$TESTDIR/out" | wc -c)
# every group (--collect all), for scale
"$IBTOPO" --db "$db" metrics --no-findings --collect all >"$TESTDIR/all" ||
	fail "metrics --collect all"
all_bytes=$(wc -c <"$TESTDIR/all")
all_series=$(grep -vc '^#' "$TESTDIR/all")
all_gz=$(gzip -1 -c <"$TESTDIR/all" | wc -c)
rm -f "$TESTDIR/all"
set -- $(best "$IBTOPO" --db "$db" metrics)
t_f=$1 c_f=$2
bench_row "metrics $HOSTS (load + analyze + text)" "$t_f" - "$c_f" "$(rss)"
set -- $(best "$IBTOPO" --db "$db" show nodes --format csv)
t_l=$1 c_l=$2
echo "$HOSTS: $(head -1 "$TESTDIR/import.out")"
echo "$ports ports ($withc with counters): $series series, $bytes bytes" \
	"($gz with gzip -1); --collect all: $all_series series, $all_bytes" \
	"bytes ($all_gz with gzip -1)"
printf '%-40s %9s %9s\n' "" wall cpu
printf '%-40s %8.3fs %8.3fs\n' "metrics --no-findings (load + text)" "$t_n" "$c_n" \
	"metrics (load + analyze + text)" "$t_f" "$c_f" \
	"show nodes --format csv (load, for scale)" "$t_l" "$c_l"
echo "best of $REPEAT; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m))," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
