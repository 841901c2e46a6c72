#!/bin/sh
# regen-caches.sh - rebuild tests/data/<name>.cache from <name>.net:
# ibsim on the net file, one opensm sweep (LIDs, Active ports), then
# `ibnetdiscover --cache` from the first CA. Run from a build directory:
#   top_srcdir=/path/to/ibtopo sh tests/data/regen-caches.sh sim-small
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
IBSIM=${IBSIM:-$(command -v ibsim)}
UMAD2SIM=${UMAD2SIM:-/usr/lib/$(uname -m)-linux-gnu/umad2sim/libumad2sim.so}
OPENSM=${OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm)}
IBNETDISCOVER=${IBNETDISCOVER:-$(PATH=$PATH:/usr/sbin command -v ibnetdiscover)}
. "$top_srcdir/tests/lib.sh"
sim_require
for name in "$@"; do
	sim_start "$DATA/$name.net"
	SIM_HOST=${SIM_HOST:-host02} sim_opensm
	SIM_HOST=${SIM_HOST:-host02} sim_client "$IBNETDISCOVER" \
		--cache "$DATA/$name.cache" >/dev/null || fail "ibnetdiscover"
	kill "$SIM_PID" && wait "$SIM_PID"
	SIM_PID=
	rm -f "$TESTDIR/console"
	echo "wrote $DATA/$name.cache"
done
