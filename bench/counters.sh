#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/counters.sh - the cost of reading port counters, and of `health`
# between two large snapshots (issue 16).
#
#   sh bench/counters.sh                 # from a build directory
#   REPEAT=5 sh bench/counters.sh
#
# 1. On the 1,944-host simulated fat tree (540 switches, bench/gen-fattree.py
#    --pods 6) under ibsim, after one `opensm -o` sweep for LIDs (PMA
#    queries are LID-routed): `ibtopo discover --counters` (sweep, counters
#    of both ends of every link, store; a fresh database each run) against
#    `ibtopo discover` and `ibqueryerrors --skip-sl` (its own sweep, then
#    PortCounters of every port; --skip-sl: no SA PathRecord per LID).
#    Target (issue 16): discover --counters <= 1.5 x ibqueryerrors.
# 2. `ibtopo health --since` between two stored 11,664-host snapshots
#    (`ibtopo plan fat-tree`, 36 pods) that carry counters of every linked
#    port (the plan, exported as ibnetdiscover text): imported with
#    `import --counters` from ibqueryerrors-style files written here,
#    the second an hour later with errors grown on 1% of the ports.
#    Target: under 1 s.
#    The MADs each sends (one run each, counted by tests/rel-madspy.so, which
#    `make check` builds), SMP and PMA.
# PARTS="sim health" (the default) chooses the parts to run.
# Best of REPEAT (default 3) wall times; cpu: the process's user + system
# time, best of REPEAT too. Not a test: nothing here asserts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
IBQUERYERRORS=${IBQUERYERRORS:-$(PATH=$PATH:/usr/sbin command -v ibqueryerrors)}
REPEAT=${REPEAT:-3}
PARTS=${PARTS:-sim health}
bench_sim
[ -n "$IBQUERYERRORS" ] || fail "ibqueryerrors not found"

# every timed run starts from a fresh database (bench/lib.sh best)
best_setup() {
	rm -f "$TESTDIR"/bench.db*
}

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# ---- 1. reading the counters of the 1,944-host fabric
case " $PARTS " in
*" sim "*) ;;
*) sim_skip=1 ;;
esac
if [ -z "${sim_skip:-}" ]; then
	net="$TESTDIR/ft1944.net"
	limits=$("$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 --pods 6 \
		-o "$net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
	# shellcheck disable=SC2086
	sim_start "$net" -n $limits
	sim_opensm
	set -- $(best 0 sim_timed "$IBTOPO" --db "$TESTDIR/bench.db" discover)
	t_disc=$1 c_disc=$2
	set -- $(best 0 sim_timed "$IBTOPO" --db "$TESTDIR/bench.db" discover --counters)
	t_ctr=$1 c_ctr=$2 m_ctr=$(rss)
	summary=$(head -1 "$TESTDIR/out")
	grep -q 'warning' "$TESTDIR/err" && sed 's/^/  /' "$TESTDIR/err"
	"$IBTOPO" --db "$TESTDIR/bench.db" health --format json >"$TESTDIR/h.json"
	set -- $(best 0 sim_timed "$IBQUERYERRORS" --skip-sl)
	t_iqe=$1 c_iqe=$2
	ports=$(json_get 'len(j["ports"])' <"$TESTDIR/h.json")
	# the MADs each sends, one run each, counted by tests/rel-madspy
	mads() {
		rm -f "$TESTDIR/spy.log"
		sim_spy "$TESTDIR/spy.log" "$@" >/dev/null 2>&1
		awk '{ n[$1 == "04" ? "pma" : "smp"]++ } END {
			printf "%d MADs (%d SMP, %d PMA)", n["smp"] + n["pma"],
				n["smp"], n["pma"] }' "$TESTDIR/spy.log"
	}
	m_ibt=$(mads "$IBTOPO" --db "$TESTDIR/bench.db" discover --counters)
	m_iqe=$(mads "$IBQUERYERRORS" --skip-sl)
	kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	exec 9>&-
	echo "1,944 hosts: $summary; $ports ports with counters stored"
	printf '%-34s %10s %10s\n' job wall cpu
	printf '%-34s %9.3fs %9.3fs\n' "ibtopo discover" "$t_disc" "$c_disc" \
		"ibtopo discover --counters" "$t_ctr" "$c_ctr" \
		"ibqueryerrors --skip-sl" "$t_iqe" "$c_iqe"
	bench_row "counters: discover --counters 1,944 (ibqueryerrors)" \
		"$t_ctr" "$t_iqe" "$c_ctr" "$m_ctr"
	echo "MADs: discover --counters $m_ibt; ibqueryerrors --skip-sl $m_iqe"
	echo "discover --counters / ibqueryerrors: wall $(calc "$t_ctr / $t_iqe")," \
		"cpu $(calc "$c_ctr / $c_iqe") (target <= 1.5)"
	echo "discover --counters / discover: wall $(calc "$t_ctr / $t_disc")," \
		"cpu $(calc "$c_ctr / $c_disc")"
fi

# ---- 2. health between two 11,664-host snapshots
case " $PARTS " in
*" health "*) ;;
*) exit 0 ;;
esac
# as ibnetdiscover text: GUIDs, which ibqueryerrors lines name
bench_big_topo
"$PYTHON3" - "$TESTDIR/big.topo" "$TESTDIR/c1.txt" "$TESTDIR/c2.txt" <<'PY' || fail "counter files"
import re, sys
# every linked port of the plan, by node GUID and port number
ports = []
guid = None
for line in open(sys.argv[1]):
    m = re.match(r'(Switch|Ca|Rt)\s+\d+\s+"[SHR]-([0-9a-f]+)"', line)
    if m:
        guid = m.group(2)
        continue
    m = re.match(r'\[(\d+)\]', line)
    if m and guid:
        ports.append((guid, int(m.group(1))))
names = ["SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
         "PortRcvErrors", "PortXmitDiscards", "LocalLinkIntegrityErrors",
         "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts"]
for path, later in ((sys.argv[2], False), (sys.argv[3], True)):
    with open(path, "w") as f:
        for i, (g, p) in enumerate(ports):
            v = [0, 0, 0, 0, 0, 0, 10**9 + i, 10**9 + i, 10**6 + i, 10**6 + i]
            if later:
                v[6:] = [x + 7 * 10**8 for x in v[6:]]
                if i % 100 == 0:
                    v[0] += 12
                    v[2] += 1
            f.write("   GUID 0x%s port %d:%s\n" % (g, p, "".join(
                " [%s == %d]" % (n, x) for n, x in zip(names, v))))
print("%d ports" % len(ports), file=sys.stderr)
PY
touch -d '2026-01-01 10:00:00 UTC' "$TESTDIR/c1.txt"
touch -d '2026-01-01 11:00:00 UTC' "$TESTDIR/c2.txt"
db=$TESTDIR/big.db
"$IBTOPO" --db "$db" import "$TESTDIR/big.topo" --counters "$TESTDIR/c1.txt" --label before >/dev/null ||
	fail "import before"
"$IBTOPO" --db "$db" import "$TESTDIR/big.topo" --counters "$TESTDIR/c2.txt" --label after >"$TESTDIR/import.out" ||
	fail "import after"
set -- $(best 1 timed "$IBTOPO" --db "$db" health after --since before --format json)
t_h=$1 c_h=$2
bench_row "counters: health --since 11,664 (json)" "$t_h" - "$c_h" "$(rss)"
nf=$(json_get 'len(j["findings"])' <"$TESTDIR/out")
np=$(json_get 'len(j["ports"])' <"$TESTDIR/out")
set -- $(best 1 timed "$IBTOPO" --db "$db" health after --since before)
t_ht=$1 c_ht=$2
echo "11,664 hosts: $(head -1 "$TESTDIR/import.out"); $np ports with counters, $nf findings"
printf '%-34s %9.3fs %9.3fs\n' "health --since (json)" "$t_h" "$c_h" \
	"health --since (text)" "$t_ht" "$c_ht"
echo "best of $REPEAT; target: health under 1 s"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m)), load average" \
	"$load0 before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
