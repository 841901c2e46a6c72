#!/bin/sh
# topofile-sim.sh - what `ibtopo export` writes, ibsim simulates: the
# ibnetdiscover text and the ibsim net file of three real dumps are loaded
# by ibsim, discovered with ibnetdiscover, and read back by ibtopo; every
# link comes back with its ends, active speed and width (the NDR dump is
# left out: ibsim 0.10 cannot simulate NDR). Exits 77 without ibsim.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
ibnetdiscover_require
[ -d "$REAL" ] || fail "no $REAL (the real dumps are in the repository)"
cmp_links=$top_builddir/tests/tf-links

n=0
for f in tiny-mixed-speeds.topo x5-mixed-ddr-qdr.topo qdr-hosts-fdr10-isls.topo; do
	for fmt in ibnetdiscover ibsim; do
		n=$((n + 1))
		net=$TESTDIR/$n.$fmt
		"$IBTOPO" export --format "$fmt" -o "$net" "$REAL/$f" 2>"$TESTDIR/err" ||
			fail "export $fmt $f: $(cat "$TESTDIR/err")"
		sim_start "$net"
		sim_client "$IBNETDISCOVER" >"$TESTDIR/$n.found" 2>"$TESTDIR/disc.err" ||
			fail "ibnetdiscover under ibsim on $fmt of $f: $(cat "$TESTDIR/disc.err")"
		kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
		SIM_PID=
		rm -f "$TESTDIR/console"
		"$cmp_links" "$REAL/$f" "$TESTDIR/$n.found" >"$TESTDIR/diff" 2>&1 ||
			fail "$fmt of $f simulated differs: $(head -5 "$TESTDIR/diff")"
		info "$fmt of $f: simulated, discovered, the same links"
	done
done
exit 0
