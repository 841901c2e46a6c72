#!/bin/sh
# nosm-sim.sh - discovery of a fabric no subnet manager has brought up,
# and discover's output for cron and for scripts (issue 23, items 2, 3
# and 19; issue 28's JSON summary). Under ibsim (tests/data/sim-small.net)
# before any opensm sweep, no port has a LID:
# - `discover --routes --counters` says on stderr that there are no LIDs,
#   so no forwarding tables (nor counters) could be read, and still
#   stores the sweep;
# - `routes` on that snapshot says why it has no tables (no subnet
#   manager), not "an ibsim net file";
# - `health` on it is an error (exit 2) naming the missing LIDs;
# - `analyze` on it reports the fabric with its no-subnet-manager finding
#   (exit 1) and says the routes were not analyzed (issue 33, item 2).
# After one opensm sweep:
# - `discover --quiet` prints nothing at all on success (cron mails only
#   failures), and still fails loudly;
# - `discover --format json` prints one JSON object: the snapshot id,
#   fabric, node and link counts, and the MAD costs.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_start_as "$DATA/sim-small.net" host02

# ---- no subnet manager yet
sim_client "$IBTOPO" --db "$DB" discover --routes --counters --timeout 200 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" ||
	fail "discover --routes without an SM: $(cat "$TESTDIR/err")"
grep -q '^ibtopo: warning: .*no LIDs.*no forwarding tables' "$TESTDIR/err" ||
	flunk "discover --routes without LIDs said: $(cat "$TESTDIR/err")"
grep -q 'subnet manager' "$TESTDIR/err" ||
	flunk "discover --routes without LIDs names no subnet manager"
grep -q '^snapshot 1' "$TESTDIR/out" || flunk "no summary: $(cat "$TESTDIR/out")"

run 2 "$IBTOPO" --db "$DB" routes
grep -q 'ibsim net file' "$TESTDIR/err" &&
	flunk "routes blames an ibsim net file: $(cat "$TESTDIR/err")"
grep -q '^ibtopo: .*no LIDs' "$TESTDIR/err" && grep -q 'subnet manager' "$TESTDIR/err" ||
	flunk "routes on a snapshot without LIDs: $(cat "$TESTDIR/err")"

run 2 "$IBTOPO" --db "$DB" health
grep -q '^ibtopo: .*no LIDs' "$TESTDIR/err" ||
	flunk "health on a snapshot without LIDs: $(cat "$TESTDIR/err")"
grep -q 'take snapshots with discover --counters' "$TESTDIR/err" &&
	flunk "health advises what was just done: $(cat "$TESTDIR/err")"

run 1 "$IBTOPO" --db "$DB" analyze
grep -q 'no-subnet-manager\|no subnet manager' "$TESTDIR/out" ||
	flunk "analyze without LIDs: no finding: $(cat "$TESTDIR/out" "$TESTDIR/err")"
grep -q '^ibtopo: .*routes not analyzed' "$TESTDIR/err" ||
	flunk "analyze without LIDs: routes not said: $(cat "$TESTDIR/err")"
run 1 "$IBTOPO" --db "$DB" analyze --format json
json_get '"routes" not in j and any(f.get("detail") == "no-subnet-manager" for f in j["findings"])' \
	<"$TESTDIR/out" | grep -q True ||
	flunk "analyze json without LIDs: $(head -c 400 "$TESTDIR/out")"

# ---- a subnet manager: --quiet prints nothing
sim_opensm
sim_client "$IBTOPO" --db "$DB" discover --quiet --timeout 500 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || fail "discover --quiet: $(cat "$TESTDIR/err")"
[ -s "$TESTDIR/out" ] && flunk "discover --quiet printed: $(cat "$TESTDIR/out")"
[ -s "$TESTDIR/err" ] && flunk "discover --quiet wrote to stderr: $(cat "$TESTDIR/err")"
[ "$("$IBTOPO" --db "$DB" snapshots --format csv | sed 1d | wc -l)" -eq 2 ] ||
	flunk "discover --quiet stored no snapshot"
# a failure is still said: a label in use
sim_client "$IBTOPO" --db "$DB" discover --quiet --label a >/dev/null 2>&1 ||
	fail "discover --label a"
sim_client "$IBTOPO" --db "$DB" discover --quiet --label a \
	>"$TESTDIR/out" 2>"$TESTDIR/err" && flunk "a label in use was taken"
grep -q "^ibtopo: .*'a'" "$TESTDIR/err" || flunk "--quiet failure silent"

# ---- --format json: one object with the counts and the MAD costs
sim_client "$IBTOPO" --db "$DB" discover --format json --routes --timeout 500 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || fail "discover --format json: $(cat "$TESTDIR/err")"
got=$(json_get '"%s %s %s %s %s %s %s" % (j["schema_version"], j["snapshot"]["id"],
	j["snapshot"]["switches"], j["snapshot"]["cas"], j["snapshot"]["links"],
	j["snapshot"]["partial"], sorted(j["mads"].keys()))' <"$TESTDIR/out") ||
	fail "discover --format json: $(cat "$TESTDIR/out")"
[ "$got" = "2 4 4 4 9 False ['asked_again', 'lost', 'sent', 'sweeps', 'window_max', 'window_min', 'worst_guid', 'worst_timeouts']" ] ||
	flunk "discover json: $got"
got=$(json_get '"%s %s %s" % (j["fabric"] is not None, j["mads"]["sent"] > 0,
	j["mads"]["window_max"] >= j["mads"]["window_min"] >= 1)' <"$TESTDIR/out")
[ "$got" = "True True True" ] || flunk "discover json values: $got ($(cat "$TESTDIR/out"))"
got=$(json_get 'j["snapshot"]["id"]' <"$TESTDIR/out")
[ "$("$IBTOPO" --db "$DB" snapshots --format csv | tail -1 | cut -d, -f1)" = "$got" ] ||
	flunk "discover json snapshot id $got is not the latest"
run 2 "$IBTOPO" --db "$DB" discover --format json --quiet
exit "$failed"
