#!/bin/sh
# demo-sim.sh - examples/demo.sh, the README's demo, works: it discovers
# examples/hdr-fat-tree.net into $IBTOPO_DB and prints the summary, and
# the two faults built into that fabric are in the snapshot.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

# every program demo.sh runs is an ibsim client: see sim_client in lib.sh
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
IBTOPO_DB="$DB" IBTOPO="$IBTOPO" IBSIM="$IBSIM" UMAD2SIM="$UMAD2SIM" \
	OPENSM="$OPENSM" sh "$top_srcdir/examples/demo.sh" --label demo \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "demo.sh"; }
grep -q '^snapshot 1 (demo): 6 switches, 16 CAs, 0 routers, 64 links$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "summary"; }
grep -q '^  links: 62 x 4xHDR, 1 x 1xHDR, 1 x 4xEDR$' "$TESTDIR/out" ||
	{ cat "$TESTDIR/out"; fail "speed mix"; }
got=$("$IBTOPO" --db "$DB" show --format json demo links | links_brief |
	grep -v ' HDR 4x$' | tr '\n' ' ')
[ "$got" = "gpu12:2 leaf04:4 HDR 1x leaf03:21 spine02:9 EDR 4x " ] ||
	fail "faulty links: $got"
grep -q "ibsim" "$TESTDIR/err" && ! grep -q "ibsim did not start" "$TESTDIR/err" ||
	fail "demo progress lines"
exit 0
