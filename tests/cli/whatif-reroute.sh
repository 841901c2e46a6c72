#!/bin/sh
# whatif-reroute.sh - `whatif --reroute ENGINE` (issue 37): OpenSM's own
# engine routes the fabric before and after a failure under ibsim, and
# what it reports agrees with a fabric where the spine was really taken
# out of the net file, simulated and routed by OpenSM, then discovered
# and analysed by `ibtopo routes`: reachability, unreachable pairs,
# black holes, loops, credit loops, the spread of routes per level and
# direction, the EBB, and every switch port's route count. The fabric as
# it is agrees likewise with the whole net file swept. A missing ibsim,
# umad2sim or opensm is one line naming it (exit 2); a failing opensm is
# named, and nothing the command started is left running or on disk.
# Skips (77) only without ibsim, umad2sim, opensm or python3.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
test_env
tmp=$TESTDIR
mkdir -p "$tmp/tmp"
python_require

# a 2-level fat tree: 4 spines, 8 leaves, 32 hosts (spine001 first)
"$PYTHON3" "$top_srcdir/bench/gen-fattree.py" --radix 8 --levels 2 \
	-o "$tmp/ft.net" 2>/dev/null || fail "gen-fattree.py"
grep -q '^Switch	8 "spine001"' "$tmp/ft.net" || fail "no spine001 in ft.net"

# ---- a program that is not there: one line, exit 2, whatever the rest
for v in IBSIM OPENSM UMAD2SIM; do
	run 2 env "$v=$tmp/no-such-program" "$IBTOPO" whatif "$tmp/ft.net" \
		--fail spine001 --reroute minhop || continue
	case $v in
	IBSIM) prog=ibsim ;;
	OPENSM) prog=opensm ;;
	UMAD2SIM) prog=libumad2sim.so ;;
	esac
	stderr_is "ibtopo: whatif --reroute: $prog not found: \$$v names \
'$tmp/no-such-program'"
done
run 2 "$IBTOPO" whatif "$tmp/ft.net" --each switch --reroute minhop
grep -q -- '--reroute needs --fail' "$TESTDIR/err" ||
	flunk "--each --reroute: $(cat "$TESTDIR/err")"
run 2 "$IBTOPO" whatif "$tmp/ft.net" --fail spine001 --reroute 'min hop'
grep -q "bad --reroute 'min hop'" "$TESTDIR/err" ||
	flunk "a bad engine name: $(cat "$TESTDIR/err")"

sim_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
have_discover || skip "this ibtopo does not discover"
# the program itself, not libtool's script around it: its PID names the
# simulator's socket
real_ibtopo

# ---- nothing left behind, also when opensm fails after ibsim started
leftovers() {
	[ -z "$(ls -A "$tmp/tmp")" ] ||
		flunk "$1: left in TMPDIR: $(ls -A "$tmp/tmp")"
	! grep -q "@ibtopo-reroute-$2-" /proc/net/unix ||
		flunk "$1: an ibsim of pid $2 still listens"
}
TMPDIR=$tmp/tmp OPENSM=/bin/false "$IBTOPO_REAL" whatif "$tmp/ft.net" \
	--fail spine001 --reroute minhop >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait "$pid"
rc=$?
[ "$rc" -eq 2 ] || flunk "a failing opensm: exit $rc, wanted 2"
grep -q '^ibtopo: whatif --reroute: opensm failed (exit 1)' "$tmp/err" ||
	flunk "a failing opensm is not named: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || flunk "more than one line: $(cat "$tmp/err")"
leftovers "a failing opensm" "$pid"

# ---- the reroute
TMPDIR=$tmp/tmp "$IBTOPO_REAL" whatif "$tmp/ft.net" --fail spine001 \
	--reroute minhop --format json >"$tmp/reroute.json" 2>"$tmp/err" &
pid=$!
wait "$pid" || fail "whatif --reroute minhop: $(cat "$tmp/err")"
leftovers "whatif --reroute" "$pid"
TMPDIR=$tmp/tmp "$IBTOPO" whatif "$tmp/ft.net" --fail spine001 \
	--reroute minhop >"$tmp/reroute.txt" 2>"$tmp/err" ||
	fail "whatif --reroute minhop (text): $(cat "$tmp/err")"
grep -q '^Rerouted by OpenSM (-R minhop, from h00001) under ibsim' \
	"$tmp/reroute.txt" || flunk "no reroute heading in the text"
grep -q '^Busiest surviving ports after the reroute' "$tmp/reroute.txt" ||
	flunk "no busiest surviving ports in the text"
TMPDIR=$tmp/tmp "$IBTOPO" whatif "$tmp/ft.net" --fail spine001 \
	--reroute minhop --format csv >"$tmp/reroute.csv" 2>"$tmp/err" ||
	fail "whatif --reroute minhop (csv): $(cat "$tmp/err")"
grep -q '^reroute_credit_loops,0,0$' "$tmp/reroute.csv" ||
	flunk "no reroute_credit_loops row in the CSV"
grep -q '^node,guid,port,routes,routes_before$' "$tmp/reroute.csv" ||
	flunk "no busiest ports table in the CSV"

# ---- stopped by a signal once its simulator listens: it stops what it
# started by PID, removes its directory, and dies of the signal
TMPDIR=$tmp/tmp "$IBTOPO_REAL" whatif "$tmp/ft.net" --fail spine001 \
	--reroute minhop >/dev/null 2>"$tmp/err" &
pid=$!
seen=
while kill -0 "$pid" 2>/dev/null; do
	if grep -q "@ibtopo-reroute-$pid-[01]:ctl" /proc/net/unix; then
		seen=1
		kill -TERM "$pid"
		break
	fi
	sleep 0.01
done
wait "$pid"
rc=$?
if [ -n "$seen" ]; then
	[ "$rc" -eq 143 ] || flunk "TERM: exit $rc, wanted 143: $(cat "$tmp/err")"
	leftovers "TERM" "$pid"
else
	info "the reroute ended before its simulator was seen: TERM not sent"
fi

# ---- the truth: spine001 taken out of the net file, OpenSM, ibtopo
"$PYTHON3" - "$tmp/ft.net" "$tmp/cut.net" <<'PY' || fail "cutting spine001"
import sys
out, skip = [], False
for line in open(sys.argv[1]):
    if line.startswith("Switch") or line.startswith("Hca"):
        skip = '"spine001"' in line
    if skip or '"spine001"[' in line:
        continue
    out.append(line)
open(sys.argv[2], "w").write("".join(out))
PY
# truth NET NAME: OpenSM's minhop on NET, swept and analysed into
# $tmp/NAME.json (`ibtopo routes`)
truth() {
	sim_start_as "$1" h00001
	mkdir -p "$tmp/osm-$2"
	(cd "$TESTDIR/work" &&
		OSM_CACHE_DIR="$tmp/osm-$2" OSM_TMP_DIR="$tmp/osm-$2" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 120 "$OPENSM" -o -R minhop \
		-f "$tmp/osm-$2/osm.log" >"$tmp/osm-$2/out" 2>&1) ||
		fail "opensm on $1"
	sim_client "$IBTOPO" --db "$tmp/$2.db" discover --routes \
		--routes-log "$tmp/osm-$2/osm.log" >/dev/null 2>"$tmp/err" ||
		fail "discover --routes on $1: $(cat "$tmp/err")"
	sim_stop
	"$IBTOPO" --db "$tmp/$2.db" routes --format json >"$tmp/$2.json" \
		2>"$tmp/err"
	[ $? -le 1 ] || fail "routes on $1: $(cat "$tmp/err")"
}
truth "$tmp/cut.net" cut
truth "$tmp/ft.net" whole

# ---- compare: by node name and port, as GUIDs differ
"$PYTHON3" - "$tmp/reroute.json" "$tmp/whole.json" "$tmp/cut.json" <<'PY' ||
import json, sys
rr = json.load(open(sys.argv[1]))["whatif"]["reroute"]
sides = {"before": json.load(open(sys.argv[2]))["routes"],
         "after": json.load(open(sys.argv[3]))["routes"]}
bad = 0
def say(*a):
    global bad
    bad = 1
    print("FAIL:", *a, file=sys.stderr)
def ports(r):
    return {(p["node"], p["port"]): (p["routes"], p["dlids"])
            for p in r["ports"]}
for side, want in sides.items():
    got = rr[side]
    for k in ("engine", "switches", "switches_with_tables", "ca_ports",
              "dlids", "ca_pairs", "unreachable_pairs", "black_holes",
              "loops", "not_minimal", "credit_loops", "hops", "by_level",
              "leaf_pairs", "ebb"):
        if got[k] != want[k]:
            say("%s: %s is %r, OpenSM's own sweep gives %r"
                % (side, k, got[k], want[k]))
    g, w = ports(got), ports(want)
    if g != w:
        diff = sorted(set(g.items()) ^ set(w.items()))[:8]
        say("%s: the routes per port differ: %r" % (side, diff))
after = rr["after"]
if after["ca_pairs"] != 32 * 31 or after["unreachable_pairs"] != 0:
    say("after: %d pairs, %d unreachable" % (after["ca_pairs"],
                                             after["unreachable_pairs"]))
if any(p["node"] == "spine001" for p in after["ports"]):
    say("after: spine001 still carries routes")
# the busiest surviving ports: the top of the truth's ports, with the
# routes the whole fabric's sweep gave them
w = sorted(sides["after"]["ports"], key=lambda p: -p["routes"])
before = ports(sides["before"])
top = rr["busiest_ports"]
if len(top) != 10 or [p["routes"] for p in top] != [p["routes"] for p in w[:10]]:
    say("busiest ports: %r" % top)
for p in top:
    if p["routes_before"] != before.get((p["node"], p["port"]), (0, 0))[0]:
        say("busiest port %s[%d]: routes_before %d" % (p["node"], p["port"],
                                                       p["routes_before"]))
if rr["sm_host"] != "h00001" or rr["engine"] != "minhop":
    say("engine/sm_host: %s %s" % (rr["engine"], rr["sm_host"]))
sys.exit(bad)
PY
	flunk "whatif --reroute disagrees with OpenSM on the cut net file"
exit "$failed"
