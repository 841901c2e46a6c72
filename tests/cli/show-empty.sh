#!/bin/sh
# show-empty.sh - issue 23, item 20: quiet surprises. `show nodes` and
# `show ports` leave out, in the text table only, the columns that are
# empty for every row (tests/data/tf-sim.net has no LIDs, port GUIDs,
# states, vendor or device ids); --wide and JSON/CSV keep them.
# `snapshots` on a database that does not exist yet is an empty list
# (exit 0, no file created), and so is `fabrics`; `snapshots --keep 1` says on stderr how
# many labelled snapshots it kept.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
net=$DATA/tf-sim.net

# header WORD FILE: the text table's header has the column WORD
has_col() { head -1 "$2" | grep -q "$1"; }

# ---- show nodes / ports: no all-dash column in text
run 0 "$IBTOPO" show "$net" nodes
for col in LID 'SYSIMG GUID' VENDOR DEVICE FIRMWARE PSID; do
	has_col "$col" "$tmp/out" && flunk "show nodes: empty column $col shown"
done
has_col DESCRIPTION "$tmp/out" || flunk "show nodes: no DESCRIPTION"
awk 'NR > 1 { for (i = 1; i <= NF; i++) if ($i == "-") n[i]++ } END { for (i in n) if (n[i] == NR - 1) { print "column " i " is all -"; exit 1 } }' \
	"$tmp/out" || flunk "show nodes: $(cat "$tmp/out" | head -3)"
run 0 "$IBTOPO" show "$net" ports
for col in LID STATE PHYS; do
	has_col "$col" "$tmp/out" && flunk "show ports: empty column $col shown"
done
has_col 'PEER GUID' "$tmp/out" || flunk "show ports: no PEER GUID"
run 0 "$IBTOPO" show "$net" ports --wide
has_col 'LID' "$tmp/out" || flunk "show ports --wide: no LID"
run 0 "$IBTOPO" show "$net" nodes --format csv
[ "$(head -1 "$tmp/out" | tr -d '\r')" = "type,guid,description,ports,links,lid,system_image_guid,vendor_id,device_id,firmware,psid" ] ||
	flunk "show nodes csv header: $(head -1 "$tmp/out")"
run 0 "$IBTOPO" show "$net" ports --format csv
head -1 "$tmp/out" | grep -q ',port_guid,lid,state,phys_state,' ||
	flunk "show ports csv header: $(head -1 "$tmp/out")"
# a fabric with the data keeps the columns
run 0 "$IBTOPO" show "$DATA/ck-cables.topo" nodes
has_col 'LID' "$tmp/out" && has_col 'VENDOR' "$tmp/out" ||
	flunk "show nodes with LIDs: $(head -1 "$tmp/out")"

# ---- snapshots on a database not there yet: an empty list, no file
db=$tmp/none/fabric.db
mkdir "$tmp/none"
# snapshots, then fabrics likewise: none yet, and no file made
for cmd in snapshots fabrics; do
	run 0 "$IBTOPO" --db "$db" "$cmd" && [ ! -s "$tmp/err" ] ||
		flunk "$cmd, no db: $(cat "$tmp/err")"
	[ -e "$db" ] && flunk "$cmd created $db"
	run 0 "$IBTOPO" --db "$db" "$cmd" --format json
	[ "$(tr -d ' \n' <"$tmp/out")" = "{\"schema_version\":2,\"$cmd\":[]}" ] ||
		flunk "$cmd json, no db: $(cat "$tmp/out")"
	[ -e "$db" ] && flunk "$cmd --format created $db"
done
run 0 "$IBTOPO" --db "$db" snapshots --format csv
[ "$(wc -l <"$tmp/out")" -eq 1 ] || flunk "snapshots csv, no db: $(cat "$tmp/out")"
[ -e "$db" ] && flunk "snapshots --format csv created $db"
# a directory that does not exist either: still an empty list
run 0 "$IBTOPO" --db "$tmp/nodir/fabric.db" snapshots

# ---- --keep 1 with labelled snapshots: one line counting them
IBTOPO_DB=$tmp/keep.db
export IBTOPO_DB
for l in monday tuesday ""; do
	if [ -n "$l" ]; then
		"$IBTOPO" import --label "$l" "$net" >/dev/null 2>&1 || fail "import $l"
	else
		"$IBTOPO" import "$net" >/dev/null 2>&1 || fail "import"
	fi
done
"$IBTOPO" import "$net" >/dev/null 2>&1 || fail "import"
run 0 "$IBTOPO" snapshots --keep 1
stderr_is "ibtopo: kept 2 labelled snapshots beyond --keep 1 (the newest of each label; --delete REF deletes one)"
# nothing kept for a label: silent
run 0 "$IBTOPO" snapshots --delete monday
run 0 "$IBTOPO" snapshots --delete tuesday
run 0 "$IBTOPO" snapshots --keep 1 && [ ! -s "$tmp/err" ] ||
	flunk "--keep 1 without labels: $(cat "$tmp/err")"
exit "$failed"
