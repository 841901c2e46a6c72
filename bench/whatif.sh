#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/whatif.sh - N-1 (issue 37): `ibtopo whatif --each switch` on the
# 8,192-host, 640-switch fat tree of bench/paths.sh and on the
# 11,664-host, 1,620-switch one (3 levels of radix-36 switches, as
# bench/routes.sh), best wall and CPU seconds of REPEAT runs (default 3),
# with the topology analyses it ran. Targets: 10 s and 60 s. EXACT=1
# times --exact too (twins only share an analysis: many more of them).
#
#   sh bench/whatif.sh                  # from a build directory
#   REPEAT=1 EXACT=1 sh bench/whatif.sh
#
# Not a test: nothing asserts; read the figures.
# Measured (-O2, 2 cores shared with other jobs, load average 8): 8,192
# hosts 0.36 s CPU, 1.8 s wall, 3 analyses, 40 MB; 11,664 hosts 1.5 s
# CPU, 7.4 s wall, 3 analyses, 52 MB; --exact on 8,192 hosts 17 s CPU
# (288 analyses); --each cable on 8,192 hosts (24,576 cables) 3.0 s CPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
GEN=${GEN:-$top_builddir/tests/gen/gen-fabric}
[ -x "$GEN" ] || fail "no $GEN: make tests/gen/gen-fabric"

"$GEN" --format ibnetdiscover --pods 16 --leaves 16 --spines 16 \
	--cores 128 --hosts 32 --links 2 --core-links 4 --radix 64 ft3 \
	>"$TESTDIR/ft8k.topo" || fail "gen-fabric"
bench_big_topo

each() {
	name=$1 topo=$2
	shift 2
	set -- "$IBTOPO" -v whatif "$topo" --each switch --top 3 "$@"
	set -- $(best 0 timed "$@")
	analyses=$(sed -n 's/.*switch failures, \([0-9]*\) topology analyses.*/\1/p' \
		"$TESTDIR/err")
	printf '%-28s wall %6.2f s  cpu %6.2f s  %s analyses\n' "$name" "$1" "$2" \
		"$analyses"
	bench_row "whatif --each switch: $name" "$1" - "$2" "$(rss)"
	sed -n 1p "$TESTDIR/out"
}
each "8,192 hosts, 640 switches" "$TESTDIR/ft8k.topo"
each "11,664 hosts, 1,620 switches" "$TESTDIR/big.topo"
if [ "${EXACT:-0}" = 1 ]; then
	each "8,192 hosts --exact" "$TESTDIR/ft8k.topo" --exact
	each "11,664 hosts --exact" "$TESTDIR/big.topo" --exact
fi
