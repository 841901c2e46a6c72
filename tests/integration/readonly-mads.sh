#!/bin/sh
# readonly-mads.sh - discovery only reads the fabric: every MAD that
# `ibtopo discover` sends is a Get (method 0x01), never a Set, and port
# counters are not reset.
#
# A 44-node fat tree (bench/gen-fattree.py --radix 8 --levels 2) runs
# under ibsim; opensm sweeps it once first (it sends Sets: it is the
# subnet manager; it is not watched). tests/rel-madspy.so, preloaded in
# front of libumad2sim.so, logs the class, method and attribute of every
# MAD the program sends through umad_send(). Port counters are set from
# the ibsim console before discovery and read back with perfquery after.
# The spy itself is checked: `perfquery -R` (a reset, a Set) shows up in
# its log, and the counter it resets reads 0.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
diag_require PERFQUERY perfquery

# counter NAME: the value of NAME in perfquery's output on stdin
counter() {
	sed -n "s/^$1:\.*\([0-9][0-9]*\)\$/\1/p"
}

sim_fattree 8 2
nodes=$(grep -c '^Switch\|^Hca' "$TESTDIR/ft.net")

# counters that a reset would zero, on a switch-to-switch port, a
# switch-to-host port and a host port that is not the one we attach to
watch='leaf001:5 leaf003:1 h00032:1'
for w in $watch; do
	sim_cmd "PerformanceSet \"${w%:*}\"[${w#*:}] PortCounters.SymbolErrorCounter=7"
	sim_cmd "PerformanceSet \"${w%:*}\"[${w#*:}] PortCounters.LinkDownedCounter=3"
done

sim_spy "$TESTDIR/mads.log" "$IBTOPO" --db "$DB" discover --timeout 500 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || {
	cat "$TESTDIR/err"
	fail "discover failed"
}
grep -q "^snapshot 1: 12 switches, 32 CAs, 0 routers, 64 links$" \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "discover summary"; }
[ -f "$TESTDIR/mads.log" ] || fail "the spy logged nothing"
sent=$(wc -l <"$TESTDIR/mads.log")
info "discover sent $sent MADs to $nodes nodes"
info "class method attribute: count"
sort "$TESTDIR/mads.log" | uniq -c |
	awk '{ printf "#   %s %s %s: %d\n", $2, $3, $4, $1 }' >&2
[ "$sent" -gt "$nodes" ] || fail "only $sent MADs for $nodes nodes"
not_get=$(grep -vc '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/mads.log")
[ "$not_get" -eq 0 ] || {
	grep -v '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/mads.log" | sort | uniq -c
	fail "$not_get MADs with another method than Get"
}

# the counters as they were set: read them (Gets, not watched) by LID
"$IBTOPO" --db "$DB" show --format json ports >"$TESTDIR/ports.json" ||
	fail "show ports"
# lid NODE: its LID (a switch has one, on every port)
lid() {
	json_get "[p['lid'] for p in j['ports'] if p['node'] == '$1' and p['lid']][0]" \
		<"$TESTDIR/ports.json"
}
for w in $watch; do
	l=$(lid "${w%:*}") || fail "no LID for ${w%:*}"
	sim_client "$PERFQUERY" "$l" "${w#*:}" >"$TESTDIR/pq" 2>&1 ||
		{ cat "$TESTDIR/pq"; fail "perfquery $w"; }
	s=$(counter SymbolErrorCounter <"$TESTDIR/pq")
	d=$(counter LinkDownedCounter <"$TESTDIR/pq")
	[ "$s" = 7 ] && [ "$d" = 3 ] ||
		fail "$w after discovery: SymbolErrorCounter '$s', LinkDownedCounter '$d', wanted 7 and 3"
done
info "counters on $watch unchanged after discovery"

# the spy sees a Set: perfquery -R resets the first watched port
w=${watch%% *}
l=$(lid "${w%:*}")
sim_spy "$TESTDIR/reset.log" "$PERFQUERY" -R "$l" "${w#*:}" >/dev/null 2>&1 ||
	fail "perfquery -R"
grep -q '^04 02 0012$' "$TESTDIR/reset.log" || {
	cat "$TESTDIR/reset.log" >&2
	fail "the spy did not see perfquery's Set PortCounters"
}
sim_client "$PERFQUERY" "$l" "${w#*:}" >"$TESTDIR/pq" 2>&1 || fail "perfquery"
s=$(counter SymbolErrorCounter <"$TESTDIR/pq")
[ "$s" = 0 ] || fail "$w after perfquery -R: SymbolErrorCounter '$s', wanted 0"
info "control: perfquery -R sent Set PortCounters (04 02 0012) and zeroed $w"
exit 0
