#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/mcast-read.sh - what reading the multicast forwarding tables adds
# to `ibtopo discover --routes` (issue 36), on the 540-switch / 1,944-host
# fat tree (bench/gen-fattree.py --radix 36 --levels 3 --pods 6) after
# one `opensm -o` sweep, with one MFT entry planted in block 0 of one
# switch (tests/mcast-tool set, as a group would): every switch is then
# read two rounds (block 0 and the empty block 1), 3 port mask positions
# each. No SA answers (opensm -o has exited): the one GetTable fails at
# once under ibsim.
#
#   sh bench/mcast-read.sh        # from a build directory (make check
#   REPEAT=5 sh bench/mcast-read.sh    # builds tests/mcast-tool)
#
# Printed per run: the MFT Gets, the seconds of the multicast step
# (discover -v), the whole discover --routes, and the step's share.
# Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REPEAT=${REPEAT:-3}
TOOL=${top_builddir:-.}/tests/mcast-tool
[ -x "$TOOL" ] || fail "no $TOOL (make check builds it)"
bench_sim
net="$TESTDIR/ft540.net"
limits=$("$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 --pods 6 \
	-o "$net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
# shellcheck disable=SC2086 # the limits are options
sim_start "$net" -n $limits
sim_opensm
sim_client "$IBTOPO" --db "$TESTDIR/b.db" discover --routes \
	>/dev/null 2>&1 || fail "first discover"
lid=$("${top_builddir:-.}/tests/store-tool" exec "$TESTDIR/b.db" \
	"SELECT p.lid FROM ports p JOIN nodes n ON n.id = p.node_id WHERE n.type = 2 AND p.num = 0 LIMIT 1")
sim_client "$TOOL" set "$lid" 0xc000 1 1 || fail "mcast-tool set"
echo "run mft_gets mcast_s discover_s share"
for i in $(seq 1 "$REPEAT"); do
	rm -f "$TESTDIR"/r.db*
	t0=$(now)
	sim_client "$IBTOPO" -v --db "$TESTDIR/r.db" discover --routes \
		>/dev/null 2>"$TESTDIR/err" || fail "discover --routes"
	t=$(calc "$(now) - $t0")
	set -- $(sed -n 's/^ibtopo: multicast: .* in \([0-9]*\) MFT blocks, .* in \([0-9.]*\) s$/\1 \2/p' \
		"$TESTDIR/err")
	echo "$i $1 $2 $t $(calc "$2 / $t")"
done
