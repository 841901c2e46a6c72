#!/bin/sh
# ibsim-export-fixtures.sh - `ibtopo export --format ibsim` of every
# fixture ibtopo reads (tests/data, tests/data/real) loads in the
# installed ibsim, without a warning of its parser, with every node and
# its GUID (ibsim's console Dump). An NDR (or faster) fabric is
# written at HDR, the fastest extended speed Debian 12's ibsim 0.10 takes,
# with one warning naming how many links. Exits 77 without ibsim.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
sim_require
D=$top_srcdir/tests/data
n=0
for f in "$D"/*.topo "$D"/*.net "$D"/*.cache "$D"/*.txt "$D"/real/*.topo \
	"$D"/real/*.txt; do
	[ -f "$f" ] || continue
	# a fixture of bad input is no fabric: nothing to export
	"$IBTOPO" show "$f" nodes --format csv >"$TESTDIR/nodes.csv" 2>/dev/null ||
		continue
	n=$((n + 1))
	net=$TESTDIR/$n.net
	"$IBTOPO" export --format ibsim -o "$net" "$f" 2>"$TESTDIR/err" ||
		fail "export ibsim $f: $(cat "$TESTDIR/err")"
	# what the reader says of the file is not the writer's
	grep -vF "ibtopo: warning: $f" "$TESTDIR/err" >"$TESTDIR/warn"
	"$IBTOPO" show "$f" links --format csv >"$TESTDIR/links.csv" 2>/dev/null
	if grep -q ',[NX]DR,' "$TESTDIR/links.csv"; then
		[ "$(wc -l <"$TESTDIR/warn")" -eq 1 ] &&
			grep -q "^ibtopo: warning: .* links faster than HDR written as HDR" \
				"$TESTDIR/warn" ||
			fail "export ibsim $f (NDR): wanted one warning, got '$(cat "$TESTDIR/warn")'"
	elif [ -s "$TESTDIR/warn" ]; then
		fail "export ibsim $f warned: $(cat "$TESTDIR/warn")"
	fi
	sim_start "$net"
	# ibsim 0.10 says this of every port line without an ibnetdiscover
	# trailer ("# lid N 4xHDR"), which would override the w= s= e= masks
	grep -v 'cannot parse remote lid and connection type' "$TESTDIR/ibsim.log" |
		grep 'ibwarn\|ibpanic\|fatal' >"$TESTDIR/simwarn"
	[ -s "$TESTDIR/simwarn" ] &&
		fail "ibsim on the export of $f: $(head -3 "$TESTDIR/simwarn")"
	# ibsim's own list of what it loaded: every node, with its GUID
	sim_cmd 'Dump'
	sim_stop
	sed -n 's/.*	nodeguid \([0-9a-f]*\)	sysimgguid .*/\1/p' "$TESTDIR/ibsim.log" |
		sort >"$TESTDIR/got"
	sed -n '2,$s/^[a-z]*,0x\([0-9a-f]*\),.*/\1/p' "$TESTDIR/nodes.csv" |
		sed 's/^0*//' | sort >"$TESTDIR/want"
	cmp -s "$TESTDIR/want" "$TESTDIR/got" ||
		fail "ibsim loaded other nodes from the export of $f: $(diff "$TESTDIR/want" "$TESTDIR/got" | head -5)"
done
[ "$n" -ge 25 ] || fail "only $n fixtures exported"
info "$n fixtures: exported as ibsim net files, loaded with every node"
exit 0
