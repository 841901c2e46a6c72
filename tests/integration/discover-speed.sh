#!/bin/sh
# discover-speed.sh - `ibtopo discover` (sweep plus storing the snapshot)
# costs less than `ibnetdiscover -o 16` on the 11,664-host fat tree of
# bench/discover.sh (1,620 switches, 34,992 links) under ibsim.
#
# Under ibsim the discovering process, not the simulator, sets the pace,
# so the CPU time (user + system) of each client is compared: on a busy
# machine it varies far less than wall time. Best of 2 each. ibtopo must
# use at most 3/4 of ibnetdiscover's CPU time: before its own sweep
# (lib/sweep.c) it used more than ibnetdiscover, whose libibnetdisc sweep
# it ran, plus the store; with it, about a quarter. bench/discover.sh
# gives wall times. Not part of `make check`: timings under ASan or on a
# loaded machine mean nothing. Run it by hand on a quiet machine:
#   make check TESTS=tests/integration/discover-speed.sh
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
[ -n "$IBNETDISCOVER" ] && [ -x "$IBNETDISCOVER" ] ||
	skip "ibnetdiscover not found (infiniband-diags)"

limits=$("$PYTHON3" "$top_srcdir/bench/gen-fattree.py" --radix 36 --levels 3 \
	-o "$TESTDIR/ft.net" 2>&1 >/dev/null | sed -n 's/^ibsim-limits: //p')
[ -n "$limits" ] || fail "gen-fattree.py"
SIM_WAIT=120
# shellcheck disable=SC2086
sim_start "$TESTDIR/ft.net" -n $limits
SIM_HOST=h00001
export SIM_HOST

# cpu COMMAND...: run a simulator client, print its CPU seconds
cpu() {
	sim_client "$PYTHON3" -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (r.ru_utime + r.ru_stime))
sys.exit(rc)
' "$TESTDIR/out" "$@" 2>"$TESTDIR/err" || {
		cat "$TESTDIR/err" >&2
		fail "$*"
	}
}

# best A B: the smaller
best() {
	"$PYTHON3" -c 'import sys; print(min(float(a) for a in sys.argv[1:]))' "$@"
}

ind1=$(cpu "$IBNETDISCOVER" -o 16)
grep -q '^Switch.*"core' "$TESTDIR/out" || fail "ibnetdiscover output"
ind2=$(cpu "$IBNETDISCOVER" -o 16)
rm -f "$DB"*
top1=$(cpu "$IBTOPO" --db "$DB" discover)
grep -q "^snapshot 1: 1620 switches, 11664 CAs, 0 routers, 34992 links$" \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "discover summary"; }
rm -f "$DB"*
top2=$(cpu "$IBTOPO" --db "$DB" discover)
ind=$(best "$ind1" "$ind2")
top=$(best "$top1" "$top2")
info "CPU seconds, best of 2: ibnetdiscover -o 16 $ind, ibtopo discover $top"
"$PYTHON3" -c 'import sys; sys.exit(not float(sys.argv[1]) <= 0.75 * float(sys.argv[2]))' \
	"$top" "$ind" ||
	fail "ibtopo discover took $top s of CPU, ibnetdiscover -o 16 $ind s"
exit 0
