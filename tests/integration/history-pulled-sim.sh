#!/bin/sh
# history-pulled-sim.sh - `health --history` of a port whose cable was
# pulled (issue 33, item 7). Under ibsim (tests/data/sim-small.net),
# host01 is dual-homed: port 1 to leaf01, port 2 to leaf02. Two
# `discover --counters`, then `Unlink "host01"[1]` and a third:
# - `--history host01:1` shows the port's history (it existed in the
#   first two snapshots; its peer leaf01 port 1, down, in all three),
#   exit 0, and says on stderr that the latest snapshot lacks it, naming
#   the last snapshot that has it;
# - `--history host01` does not quietly pick port 2: both ports were
#   linked in the fabric's history, so it asks for one (exit 2);
# - a port no snapshot has is still an error naming the node.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_start_as "$DATA/sim-small.net" host02
sim_opensm
for l in one two; do
	sim_client "$IBTOPO" --db "$DB" discover --counters --label $l \
		>/dev/null 2>"$TESTDIR/err" || fail "discover $l: $(cat "$TESTDIR/err")"
done
sim_cmd 'Unlink "host01"[1]'
sim_opensm
sim_client "$IBTOPO" --db "$DB" discover --counters --label three \
	>/dev/null 2>"$TESTDIR/err" || fail "discover three: $(cat "$TESTDIR/err")"

run 0 "$IBTOPO" --db "$DB" health --history host01:1 --format json
got=$(json_get '" ".join("%s:%s:%s" % (p["node"], p["port"],
	",".join(str(r["id"]) for r in p["snapshots"] if r["present"]))
	for p in j["ports"])' <"$TESTDIR/out") ||
	fail "--history host01:1 JSON: $(head -c 300 "$TESTDIR/out")"
[ "$got" = "host01:1:1,2 leaf01:1:1,2,3" ] || flunk "--history host01:1: $got"
grep -q "^ibtopo: snapshot 3 has no link on port 1 of .host01.; snapshot 2 is the last" "$TESTDIR/err" ||
	flunk "--history host01:1 says nothing of snapshot 3: $(cat "$TESTDIR/err")"

run 2 "$IBTOPO" --db "$DB" health --history host01
grep -q "^ibtopo: 'host01' has had 2 linked ports.*host01:PORT" "$TESTDIR/err" ||
	flunk "--history host01 picked a port: $(cat "$TESTDIR/out" "$TESTDIR/err")"
run 0 "$IBTOPO" --db "$DB" health --history host02
run 2 "$IBTOPO" --db "$DB" health --history host01:7
grep -q "'host01' has no port 7" "$TESTDIR/err" ||
	flunk "--history host01:7: $(cat "$TESTDIR/err")"
exit "$failed"
