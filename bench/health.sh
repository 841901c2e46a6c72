#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/health.sh - the bit error rate, congestion and history parts of
# `health` on an 11,664-host fat tree (issue 27).
#
#   sh bench/health.sh                 # from a build directory
#   REPEAT=5 SNAPSHOTS=30 sh bench/health.sh
#
# The fabric of bench/counters.sh (`ibtopo plan fat-tree`, 36 pods,
# exported as ibnetdiscover text), imported SNAPSHOTS (default 30) times
# with `import --counters` from ibqueryerrors-style files written here,
# an hour apart, every linked port (69,984) with every counter; between
# readings 1% of the ports gain PortXmitWait, and over the last three
# 1% gain 12,000 symbol errors an hour each (the history shows them start).
# (XmitWait is a 32-bit count: an hour of it at HDR is at most 0.04%
# of the capacity, below any threshold.)
#   1. `health latest --since latest~1` (JSON, text): per port growth,
#      BER per link, congestion ranked, findings. Target: under 2 s.
#   2. `health --history PORT` of a spine port and of a host across the
#      SNAPSHOTS snapshots (JSON, text). Target: under 2 s.
# Best of REPEAT (default 3) wall times; cpu: user + system. Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
IBTOPO=${IBTOPO:-$top_builddir/src/ibtopo}
REPEAT=${REPEAT:-3}
SNAPSHOTS=${SNAPSHOTS:-30}
. "$top_srcdir/tests/lib.sh"
python_require
[ -x "$IBTOPO" ] || fail "no $IBTOPO: build first, or set IBTOPO"
. "$here/lib.sh"

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
bench_big_topo
"$PYTHON3" - "$TESTDIR/big.topo" "$TESTDIR" "$SNAPSHOTS" <<'PY' || fail "counter files"
import re, sys
ports, guid, kind = [], None, None
for line in open(sys.argv[1]):
    m = re.match(r'(Switch|Ca|Rt)\s+\d+\s+"[SHR]-([0-9a-f]+)"', line)
    if m:
        kind, guid = m.group(1), m.group(2)
        continue
    m = re.match(r'\[(\d+)\]', line)
    if m and guid:
        ports.append((kind, guid, int(m.group(1))))
names = ["SymbolErrorCounter", "LinkDownedCounter", "PortRcvErrors",
         "PortXmitWait", "PortXmitData", "PortRcvData", "PortXmitPkts",
         "PortRcvPkts"]
n = int(sys.argv[3])
for k in range(n):
    with open("%s/c%d.txt" % (sys.argv[2], k), "w") as f:
        for i, (_, g, p) in enumerate(ports):
            v = [0, 0, 0, 0] + [10**8 + i + k * 7 * 10**7] * 4
            if i % 100 == 0:
                # from the last 3 readings on: 12,000 an hour, BER 1.6e-11
                v[0] = 12000 * max(0, k - (n - 4))
            if i % 100 == 50:
                v[3] = 10**7 * k
            f.write("   GUID 0x%s port %d:%s\n" % (g, p, "".join(
                " [%s == %d]" % (nm, x) for nm, x in zip(names, v))))
sw = [x for x in ports if x[0] == "Switch"][0]
ca = [x for x in ports if x[0] == "Ca"][0]
open(sys.argv[2] + "/ports", "w").write("0x%s:%d 0x%s:%d\n" % (sw[1], sw[2], ca[1], ca[2]))
print("%d ports" % len(ports), file=sys.stderr)
PY
db=$TESTDIR/big.db
t0=$(now)
for k in $(seq 0 $((SNAPSHOTS - 1))); do
	touch -d "2026-01-01 00:00:00 UTC + $k hours" "$TESTDIR/c$k.txt"
	"$IBTOPO" --db "$db" import "$TESTDIR/big.topo" --counters "$TESTDIR/c$k.txt" \
		>"$TESTDIR/import.out" || fail "import $k"
done
t_imp=$(calc "$(now) - $t0")
set -- $(cat "$TESTDIR/ports")
p_sw=$1 p_ca=$2

set -- $(best 1 timed "$IBTOPO" --db "$db" health latest --since latest~1 --format json)
t_hj=$1 c_hj=$2
bench_row "health --since 11,664, $SNAPSHOTS snapshots (json)" "$t_hj" - \
	"$c_hj" "$(rss)"
nf=$(json_get 'len([f for f in j["findings"] if f["kind"] in ("high-ber", "congested-port")])' <"$TESTDIR/out")
np=$(json_get 'len(j["ports"])' <"$TESTDIR/out")
set -- $(best 1 timed "$IBTOPO" --db "$db" health latest --since latest~1)
t_ht=$1 c_ht=$2
set -- $(best 0 timed "$IBTOPO" --db "$db" health --history "$p_sw" --format json)
t_hs=$1 c_hs=$2
bench_row "health --history switch port (json)" "$t_hs" - "$c_hs" "$(rss)"
ns=$(json_get 'len(j["ports"][0]["snapshots"])' <"$TESTDIR/out")
set -- $(best 0 timed "$IBTOPO" --db "$db" health --history "$p_ca")
t_hc=$1 c_hc=$2
echo "11,664 hosts, $np ports with counters, $SNAPSHOTS snapshots imported in ${t_imp}s;" \
	"$nf high-ber and congested-port findings"
printf '%-40s %10s %10s\n' job wall cpu
printf '%-40s %9.3fs %9.3fs\n' "health --since (json)" "$t_hj" "$c_hj" \
	"health --since (text)" "$t_ht" "$c_ht" \
	"health --history switch port (json)" "$t_hs" "$c_hs" \
	"health --history host port (text)" "$t_hc" "$c_hc"
echo "history rows per port: $ns; best of $REPEAT; target: each under 2 s"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m)), load average" \
	"$load0 before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
