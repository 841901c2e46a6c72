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
# the demo's diagram (issue 33): titled by the fabric and the snapshot,
# not the host; drawn as render-layout.sh draws the net file
"$IBTOPO" --db "$DB" render -o "$TESTDIR/demo.svg" ||
	fail "render the demo"
fab=$("$IBTOPO" --db "$DB" metrics | sed -n 's/^ibtopo_port_state{fabric="\([^"]*\)".*/\1/p' | sed -n 1p)
sed 's/&#45;/-/g' "$TESTDIR/demo.svg" | grep -q ">$fab · snapshot 1 .demo.</text>" ||
	fail "demo title: $(grep -o '>[^<]*</text>' "$TESTDIR/demo.svg" | sed -n 1p)"
got=$("$PYTHON3" "$top_srcdir/tests/svg-crossings.py" "$TESTDIR/demo.svg" | cut -d' ' -f2-5)
[ "$got" = "crossings 62 avoidable 0" ] || fail "demo diagram: $got"
exit 0
