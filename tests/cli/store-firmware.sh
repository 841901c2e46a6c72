#!/bin/sh
# store-firmware.sh - firmware stored with the snapshot (issue 36): an
# input that carries firmware (ibdiagnet2.db_csv NODES_INFO, through
# `import --cables`) keeps each node's version and PSID in the store, so
# `analyze REF` of the snapshot still reports the firmware-mismatch that
# `analyze --cables` reports on the files, and `show nodes` lists the
# firmware (text, CSV, JSON). Without such an input nothing is stored
# and the text table leaves the columns out; deleting the snapshot
# deletes its rows.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env
python_require
base=$DATA/sn-small.topo

# fw_findings FILE: the firmware-mismatch lines of a CSV analysis
fw_findings() {
	tr -d '\r' <"$1" | grep -E '^firmware-mismatch,'
}

# ---- on the files: the finding analyze --cables gives
"$IBTOPO" analyze --format csv "$base" --cables "$DATA/sn-small.db_csv" \
	>"$tmp/files.csv" 2>"$tmp/err"
fw_findings "$tmp/files.csv" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 1 ] ||
	fail "analyze --cables: $(cat "$tmp/want")"

# ---- stored: the same finding from the snapshot alone
run 0 "$IBTOPO" --db "$DB" import --cables "$DATA/sn-small.db_csv" "$base"
"$IBTOPO" --db "$DB" analyze --format csv latest >"$tmp/stored.csv" \
	2>"$tmp/err"
fw_findings "$tmp/stored.csv" >"$tmp/got"
same "$tmp/want" "$tmp/got" "analyze of the stored snapshot"

# ---- show nodes lists the firmware and the PSID
run 0 "$IBTOPO" --db "$DB" show latest nodes
grep -q 'FIRMWARE  *PSID' "$tmp/out" || flunk "show nodes: no FIRMWARE, PSID"
grep -q '^switch .* leaf02 .* 27\.2008\.2408  *MT_0000000063 *$' "$tmp/out" ||
	flunk "show nodes: leaf02's firmware: $(grep leaf02 "$tmp/out")"
run 0 "$IBTOPO" --db "$DB" show latest nodes --format json
got=$(json_get '" ".join("%s=%s/%s" % (n["description"], n["firmware"],
	n["psid"]) for n in j["nodes"] if n["type"] == "switch")' <"$tmp/out")
[ "$got" = "spine01=27.2010.1030/MT_0000000063 spine02=27.2010.1030/MT_0000000063 leaf01=27.2010.1030/MT_0000000063 leaf02=27.2008.2408/MT_0000000063" ] ||
	flunk "show nodes json: $got"
run 0 "$IBTOPO" --db "$DB" show latest nodes --format csv
head -1 "$tmp/out" | tr -d '\r' | grep -q ',device_id,firmware,psid$' ||
	flunk "show nodes csv header: $(head -1 "$tmp/out")"

# ---- without firmware in the input: none stored, no column, no finding
run 0 "$IBTOPO" --db "$DB" import "$base"
run 0 "$IBTOPO" --db "$DB" show latest nodes
grep -q 'FIRMWARE' "$tmp/out" && flunk "show nodes: FIRMWARE without firmware"
"$IBTOPO" --db "$DB" analyze --format csv latest >"$tmp/none.csv" 2>"$tmp/err"
[ -z "$(fw_findings "$tmp/none.csv")" ] ||
	flunk "firmware-mismatch without firmware"

# ---- the first snapshot deleted: its firmware rows go with it
run 0 "$IBTOPO" --db "$DB" snapshots --delete 1
run 0 "$IBTOPO" --db "$DB" import --cables "$DATA/sn-small.db_csv" "$base"
"$IBTOPO" --db "$DB" analyze --format csv latest >"$tmp/again.csv" 2>"$tmp/err"
fw_findings "$tmp/again.csv" >"$tmp/got"
same "$tmp/want" "$tmp/got" "analyze of a snapshot stored after a delete"
"$PYTHON3" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT count(*), count(DISTINCT snapshot_id) FROM firmware").fetchone())
' "$DB" >"$tmp/rows" 2>&1
[ "$(cat "$tmp/rows")" = "(8, 1)" ] ||
	flunk "firmware rows after the delete: $(cat "$tmp/rows")"
exit "$failed"
