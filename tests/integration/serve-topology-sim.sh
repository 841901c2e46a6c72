#!/bin/sh
# serve-topology-sim.sh - serve's two kinds of sweep (issue 34, "the
# sweep"), on a 44-node fat tree under ibsim (LIDs from opensm), the MAD
# spy (tests/rel-madspy.so) logging every MAD serve sends:
#  - with --topology-every 1h the sweeps after the first are
#    counters-only: SMPs (classes 01 and 81) in the first sweep only, PMA
#    Gets (class 04) in every one; ibtopo_topology_sweeps_total stays 1
#    while ibtopo_sweeps_total grows; 2 to 3 MADs a link (each switch's
#    AllPortSelect sums unchanged: its ports' PortCountersExtended
#    only); a counter set through the console moves between them, and
#    stays once its switch's sums are still again; /healthz says when
#    the topology was walked;
#  - LinkDownedCounter grown on a switch port (PerformanceSet): the next
#    sweep sees it and walks the topology at once;
#  - a cable pulled (ibsim's Unlink of leaf002 port 1, host h00005's):
#    ibsim counts no LinkDowned, the switch end's PMA answers as before,
#    but the host's PMA is no longer reached; the next sweep sees it
#    silent, walks at once, and the port shows down;
#  - --topology-every 0: every sweep walks (SMPs in every one);
#  - --topology-every shorter than --interval, or malformed: refused.
# The hour of --topology-every is never reached: only a sign of change
# can make a later sweep walk.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"
spy=${top_builddir:-.}/tests/.libs/rel-madspy.so
[ -f "$spy" ] || fail "no $spy (make check builds it)"

# the options, refused before anything is swept
run 2 "$IBTOPO" --db "$DB" serve --interval 10 --topology-every 5s
grep -q 'topology-every 5 s is shorter than --interval 10 s' "$TESTDIR/err" ||
	flunk "short --topology-every: $(cat "$TESTDIR/err")"
run 2 "$IBTOPO" --db "$DB" serve --topology-every often
grep -q "bad --topology-every 'often'" "$TESTDIR/err" ||
	flunk "bad --topology-every: $(cat "$TESTDIR/err")"

sim_fattree 8 2

# smps LOG, pmas LOG: the SMPs, the PMA Gets a spy log holds
smps() {
	grep -c '^\(01\|81\) ' "$1"
}
pmas() {
	grep -c '^04 ' "$1"
}
sweeps() {
	mval ibtopo_sweeps_total ""
}
walks() {
	mval ibtopo_topology_sweeps_total ""
}
# port_lab NODE PORT: the identity labels of a port, from ibtopo_port_info
port_lab() {
	grep '^ibtopo_port_info{' "$TESTDIR/body" |
		grep -o "node_guid=\"[^\"]*\",port=\"$2\",node=\"$1\"" |
		sed 's/,node=.*//'
}

# ---- counters-only after the first sweep
SERVE_SPY=$TESTDIR/mads.log serve_start --interval 1 --topology-every 1h \
	--timeout 200 -v
metrics_until '[ "$(sweeps)" -ge 2 ]' 60 ||
	fail "no second sweep: $(cat "$TESTDIR/serve.err")"
s1=$(smps "$TESTDIR/mads.log")
p1=$(pmas "$TESTDIR/mads.log")
[ "$s1" -gt 0 ] || fail "the spy saw no SMP of the first sweep"
n1=$(sweeps)
metrics_until "[ \"\$(sweeps)\" -ge $((n1 + 3)) ]" 60 ||
	fail "no more sweeps: $(cat "$TESTDIR/serve.err")"
[ "$(smps "$TESTDIR/mads.log")" = "$s1" ] ||
	flunk "SMPs after the first sweep: $s1 -> $(smps "$TESTDIR/mads.log")"
[ "$(pmas "$TESTDIR/mads.log")" -gt "$p1" ] ||
	flunk "no PMA Get in the sweeps after the first ($p1)"
[ "$(walks)" = 1 ] || flunk "topology sweeps: $(walks) of $(sweeps)"
[ "$(mval ibtopo_last_sweep_full "")" = 0 ] || flunk "the last sweep was full"
[ "$(mval ibtopo_topology_change_signs_total "")" = 0 ] ||
	flunk "signs of change on a fabric that did not change"
[ "$(mval ibtopo_last_sweep_success "")" = 1 ] || flunk "the last sweep failed"
# a counters-only sweep with no error counter moved: a ClassPortInfo per
# device model, each switch's sums (AllPortSelect), PortCountersExtended
# of every port, PortCounters of the hosts' ports only: 2 to 3 a link
links=$(mval ibtopo_fabric_links "")
mads=$(mval ibtopo_last_sweep_mads "")
[ "$mads" -ge $((2 * links)) ] && [ "$mads" -le $((3 * links)) ] ||
	flunk "a counters-only sweep of $links links sent $mads MADs"
info "counters-only sweep: $mads MADs for $links links"
grep -q '^ibtopo: sweep: full (no good sweep yet), 1 fabric, ' "$TESTDIR/serve.err" ||
	flunk "-v: no full first sweep: $(cat "$TESTDIR/serve.err")"
[ "$(grep -c '^ibtopo: sweep: counters only, 1 fabric, ' "$TESTDIR/serve.err")" -ge 3 ] ||
	flunk "-v: not 3 counters-only sweeps: $(cat "$TESTDIR/serve.err")"
[ "$(scrape /healthz)" = 200 ] || flunk "/healthz"
grep -q '^topology sweeps: 1$' "$TESTDIR/body" &&
	grep -Eq '^topology walked: [0-9-]+T[0-9:]+Z$' "$TESTDIR/body" ||
	flunk "/healthz: $(cat "$TESTDIR/body")"

# counters move between counters-only sweeps
scrape /metrics >/dev/null
walked=$(mval ibtopo_last_topology_sweep_timestamp_seconds "")
[ "${walked:-0}" -gt 0 ] || flunk "no time of the last walk: '$walked'"
lab=$(port_lab leaf001 5)
[ -n "$lab" ] || fail "no ibtopo_port_info of leaf001 port 5"
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=11'
metrics_until "[ \"\$(mval ibtopo_port_symbol_errors_total '$lab')\" = 11 ]" 60 ||
	flunk "SymbolErrorCounter 11 not served: '$(mval ibtopo_port_symbol_errors_total "$lab")'"
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.SymbolErrorCounter=25'
metrics_until "[ \"\$(mval ibtopo_port_symbol_errors_total '$lab')\" = 25 ]" 60 ||
	flunk "SymbolErrorCounter 25 not served: '$(mval ibtopo_port_symbol_errors_total "$lab")'"
[ "$(walks)" = 1 ] || flunk "a grown error counter walked the topology"
# the sweeps after it: leaf001's sums as before, its ports' PortCounters
# carried from the sweep before (the extended ones read), still 25
n3=$(sweeps)
metrics_until "[ \"\$(sweeps)\" -ge $((n3 + 2)) ]" 60 || fail "no more sweeps"
[ "$(mval ibtopo_port_symbol_errors_total "$lab")" = 25 ] ||
	flunk "SymbolErrorCounter carried: '$(mval ibtopo_port_symbol_errors_total "$lab")'"
[ "$(mval ibtopo_last_sweep_mads "")" -le $((3 * links)) ] ||
	flunk "sums unchanged again, yet $(mval ibtopo_last_sweep_mads "") MADs"

# ---- LinkDownedCounter grown: walked at once
sim_cmd 'PerformanceSet "leaf001"[5] PortCounters.LinkDownedCounter=1'
metrics_until '[ "$(walks)" = 2 ]' 60 ||
	flunk "LinkDownedCounter grown, no walk: $(tail -3 "$TESTDIR/serve.err")"
[ "$(mval ibtopo_topology_change_signs_total "")" = 1 ] ||
	flunk "signs: $(mval ibtopo_topology_change_signs_total "")"
grep -q "^ibtopo: counters: 1 sign of change, port 5 of 'leaf001' 0x[0-9a-f]*: LinkDownedCounter 0 -> 1; walking the topology" \
	"$TESTDIR/serve.err" || flunk "-v: no LinkDowned sign: $(grep counters: "$TESTDIR/serve.err")"
grep -q "^ibtopo: sweep: full (1 sign of change, " "$TESTDIR/serve.err" ||
	flunk "-v: the sweep that walked does not say why"
# the walk kept the new value: the sweeps after it are counters-only again
n2=$(sweeps)
metrics_until "[ \"\$(sweeps)\" -ge $((n2 + 2)) ]" 60 || fail "no more sweeps"
[ "$(walks)" = 2 ] || flunk "walks after the LinkDowned one: $(walks)"

# ---- a cable pulled: the host's PMA silent, walked at once, port down
[ "$(mval ibtopo_port_linked "$(port_lab leaf002 1)")" = 1 ] ||
	fail "leaf002 port 1 not linked before the pull"
s2=$(smps "$TESTDIR/mads.log")
sim_cmd 'Unlink "leaf002"[1]'
metrics_until '[ "$(walks)" = 3 ]' 60 ||
	flunk "cable pulled, no walk: $(tail -3 "$TESTDIR/serve.err")"
[ "$(mval ibtopo_topology_change_signs_total "")" = 2 ] ||
	flunk "signs after the pull: $(mval ibtopo_topology_change_signs_total "")"
grep -q "^ibtopo: counters: 1 sign of change, port 1 of 'h00005' 0x[0-9a-f]*: its PMA did not answer; walking" \
	"$TESTDIR/serve.err" || flunk "-v: no sign of the pull: $(grep counters: "$TESTDIR/serve.err")"
[ "$(mval ibtopo_port_linked "$(port_lab leaf002 1)")" = 0 ] ||
	flunk "leaf002 port 1 linked after the pull: '$(mval ibtopo_port_linked "$(port_lab leaf002 1)")'"
[ "$(mval ibtopo_last_sweep_success "")" = 1 ] || flunk "the sweep after the pull failed"
[ "$(smps "$TESTDIR/mads.log")" -gt "$s2" ] || flunk "no SMP after the pull"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC"
sim_cmd 'ReLink "leaf002"[1]'

# ---- --topology-every 0: every sweep walks
SERVE_PORT=
SERVE_SPY=$TESTDIR/mads0.log serve_start --interval 1 --topology-every 0 -v
metrics_until '[ "$(sweeps)" -ge 3 ]' 60 ||
	fail "no 3 sweeps: $(cat "$TESTDIR/serve.err")"
[ "$(walks)" = "$(sweeps)" ] || flunk "--topology-every 0: $(walks) walks in $(sweeps) sweeps"
[ "$(mval ibtopo_last_sweep_full "")" = 1 ] || flunk "--topology-every 0: last sweep not full"
[ "$(grep -c '^ibtopo: sweep: full (--topology-every 0), ' "$TESTDIR/serve.err")" -ge 2 ] ||
	flunk "-v: $(grep 'sweep:' "$TESTDIR/serve.err")"
grep -q '^ibtopo: sweep: counters only' "$TESTDIR/serve.err" &&
	flunk "a counters-only sweep with --topology-every 0"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC"
# read-only: every MAD of both servers is a Get
not_get=$(cat "$TESTDIR/mads.log" "$TESTDIR/mads0.log" | grep -vc '^[0-9a-f][0-9a-f] 01 ')
[ "$not_get" -eq 0 ] || flunk "$not_get MADs other than Get"
exit "$failed"
