#!/bin/sh
# fabrics-store.sh - several fabrics in one database (issue 25), through
# import of fabric files: a new snapshot joins the fabric sharing its
# switch GUIDs, else a new one with a deterministic name; REFs resolve
# within a fabric; several fabrics and no --fabric is exit 2 listing them;
# comparisons across fabrics are refused unless --across-fabrics; labels
# are unique within a fabric; `fabrics` lists and renames; `snapshots`
# shows and filters the fabric, and --keep counts per fabric.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
A=$DATA/dv-before.topo	# fabric X
A2=$DATA/dv-after.topo	# X again, a link less: same switches
B=$DATA/rd-small.topo	# fabric Y: other GUIDs
X=fabric-0000000000200000	# "fabric-" (no prefix known) + lowest switch GUID
Y=fabric-0002c90300000101
IBTOPO_DB=$tmp/fabric.db
export IBTOPO_DB
unset IBTOPO_FABRIC

imp() {	# imp FILE [OPTION...]: import, quietly
	f=$1
	shift
	"$IBTOPO" import "$f" "$@" >"$tmp/imp" 2>&1 || flunk "import $f $*: $(cat "$tmp/imp")"
}
fabric_of() {	# id:fabric of each snapshot, one line
	"$IBTOPO" snapshots --format csv | tr -d '\r' | sed 1d |
		awk -F, '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $NF }'
}

# ---- one fabric: nothing changes, and no --fabric is needed
imp "$A"
imp "$A2"
run 1 "$IBTOPO" diff latest~1 latest
run 0 "$IBTOPO" show --format csv latest nodes

# ---- A, B, A: two fabrics
imp "$B"
imp "$A"
[ "$(fabric_of)" = "1:$X 2:$X 3:$Y 4:$X" ] || flunk "fabrics of snapshots: $(fabric_of)"
run 0 "$IBTOPO" fabrics --format csv &&
	[ "$(tr -d '\r' <"$tmp/out" | cut -d, -f1,5,6 | tr '\n' ' ')" = "name,snapshots,latest_id $X,3,4 $Y,1,3 " ] ||
	flunk "fabrics: $(cat "$tmp/out")"
run 0 "$IBTOPO" fabrics &&
	grep -q "^FABRIC .*SNAPSHOTS" "$tmp/out" || flunk "fabrics text: $(cat "$tmp/out")"
run 0 "$IBTOPO" fabrics --format json &&
	grep -q "^{\"schema_version\":2,\"fabrics\":\[{\"name\":\"$X\",.*\"snapshots\":3,\"latest_id\":4," "$tmp/out" ||
	flunk "fabrics json: $(cat "$tmp/out")"
run 0 "$IBTOPO" snapshots --format json &&
	grep -q "\"id\":3,.*\"fabric\":\"$Y\"}" "$tmp/out" || flunk "snapshots json: $(cat "$tmp/out")"

# a bare relative REF names no fabric: exit 2, the fabrics listed
run 2 "$IBTOPO" diff latest~1 latest &&
	grep -q "^ibtopo: 'latest~1' could be in any of 2 fabrics: $X (latest: 4, [0-9TZ:-]*), $Y (latest: 3, [0-9TZ:-]*); name one (--fabric NAME)$" "$tmp/err" ||
	flunk "bare diff: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && flunk "bare diff wrote: $(cat "$tmp/out")"
run 2 "$IBTOPO" show latest
# within a fabric: snapshots 1 and 4 are the same file
run 0 "$IBTOPO" --fabric "$X" diff latest~2 latest
run 1 "$IBTOPO" --fabric "$X" diff latest~1 latest	# 2 and 4
IBTOPO_FABRIC=$X run 0 "$IBTOPO" diff latest~2 latest ||
	flunk "IBTOPO_FABRIC did not select the fabric"
run 0 "$IBTOPO" diff --fabric "$Y" latest latest	# the option after the command
run 2 "$IBTOPO" --fabric nope show latest &&
	grep -q "^ibtopo: no fabric 'nope' in '$IBTOPO_DB'; fabrics: $X (latest: 4" "$tmp/err" ||
	flunk "unknown fabric: $(cat "$tmp/err")"
run 2 "$IBTOPO" --fabric 'no/such' show latest &&
	grep -q "bad fabric name 'no/such'" "$tmp/err" || flunk "bad name: $(cat "$tmp/err")"
IBTOPO_FABRIC='a b' run 2 "$IBTOPO" import "$A" &&
	stderr_is "ibtopo: bad fabric name 'a b' in IBTOPO_FABRIC (1 to 64 letters, digits, '-', '_' or '.')"
IBTOPO_FABRIC='' run 2 "$IBTOPO" show latest	# empty: none named
# ids are global: any fabric, or none named
run 0 "$IBTOPO" --fabric "$X" show --format csv 3 nodes

# ---- comparisons across fabrics: refused, naming both, unless asked
msg="snapshot 3 is of fabric '$Y' and snapshot 4 of fabric '$X': not compared (--across-fabrics compares them anyway)"
run 2 "$IBTOPO" diff 3 4 && stderr_is "ibtopo: $msg"
run 2 "$IBTOPO" health 4 --since 3 &&
	stderr_is "ibtopo: snapshot 3 is of fabric '$Y' and snapshot 4 of fabric '$X': not compared (--across-fabrics compares them anyway)"
run 2 "$IBTOPO" validate 3 4 && stderr_is "ibtopo: $msg"
run 2 "$IBTOPO" render --diff 3 4 -o "$tmp/d.dot" && stderr_is "ibtopo: $msg"
[ -e "$tmp/d.dot" ] && flunk "render --diff across fabrics drew"
run 1 "$IBTOPO" --across-fabrics diff 3 4 &&
	grep -q "^ibtopo: across fabrics: snapshot 3 of '$Y' (12 nodes) and snapshot 4 of '$X' (10 nodes) share 0 node GUIDs$" "$tmp/err" ||
	flunk "--across-fabrics: $(cat "$tmp/err")"
# (no counters in 4: health measured nothing, exit 2; issue 23, item 2)
run 2 "$IBTOPO" --across-fabrics health 4 --since 3 &&
	grep -q "^ibtopo: across fabrics: snapshot 3 of '$Y' (12 nodes) and snapshot 4 of '$X' (10 nodes) share 0 node GUIDs$" "$tmp/err" ||
	flunk "health --across-fabrics: $(cat "$tmp/err")"
# a file has no fabric: validate a snapshot against a plan file as ever
run 0 "$IBTOPO" --fabric "$X" validate "$A" latest

# ---- labels: unique within a fabric
imp "$A2" --label monday		# 5, X
imp "$B" --label monday			# 6, Y: the same label, another fabric
run 2 "$IBTOPO" show monday &&
	grep -q "^ibtopo: 'monday' could be in any of 2 fabrics" "$tmp/err" ||
	flunk "label, several fabrics: $(cat "$tmp/err")"
run 0 "$IBTOPO" --fabric "$Y" show --format csv monday nodes
run 2 "$IBTOPO" --fabric "$X" import --label monday "$A" &&
	grep -q "^ibtopo: label 'monday' names snapshot 5 already (--force moves it here)$" "$tmp/err" ||
	flunk "label taken in X: $(cat "$tmp/err")"
run 0 "$IBTOPO" --fabric "$X" import --label monday --force "$A"	# 7
run 0 "$IBTOPO" --fabric "$Y" show --format csv monday nodes ||
	flunk "--force in X moved Y's label"

# ---- --fabric names the fabric of a new snapshot, and the summary says it
run 0 "$IBTOPO" --fabric storage import "$B" &&
	grep -qx "  fabric: storage" "$tmp/out" || flunk "import --fabric: $(cat "$tmp/out")"
run 0 "$IBTOPO" import "$B" &&
	grep -qx "  fabric: storage" "$tmp/out" ||
	flunk "B again joins the fabric of the latest snapshot sharing its switches: $(cat "$tmp/out")"

# ---- snapshots --fabric, and housekeeping per fabric
run 0 "$IBTOPO" --fabric "$Y" snapshots --format csv &&
	[ "$(tr -d '\r' <"$tmp/out" | sed 1d | cut -d, -f1 | tr '\n' ' ')" = "3 6 " ] ||
	flunk "snapshots --fabric: $(cat "$tmp/out")"
run 2 "$IBTOPO" --fabric nope snapshots
run 0 "$IBTOPO" --fabric storage snapshots --keep 1
[ "$(fabric_of)" = "1:$X 2:$X 3:$Y 4:$X 5:$X 6:$Y 7:$X 9:storage" ] ||
	flunk "--keep 1 in storage: $(fabric_of)"
run 0 "$IBTOPO" snapshots --keep 1
# each fabric keeps its newest; X also its newest 'monday' (7, the newest)
[ "$(fabric_of)" = "6:$Y 7:$X 9:storage" ] || flunk "--keep 1: $(fabric_of)"

# ---- fabrics --rename
run 0 "$IBTOPO" fabrics --rename storage store2 && [ ! -s "$tmp/out" ] ||
	flunk "rename printed: $(cat "$tmp/out")"
[ "$(fabric_of)" = "6:$Y 7:$X 9:store2" ] || flunk "renamed: $(fabric_of)"
run 2 "$IBTOPO" fabrics --rename store2 "$X" &&
	stderr_is "ibtopo: fabric '$X' exists already"
run 2 "$IBTOPO" fabrics --rename nope other &&
	stderr_is "ibtopo: no fabric 'nope' in '$IBTOPO_DB'"
run 2 "$IBTOPO" fabrics --rename store2 'a b'
run 2 "$IBTOPO" fabrics --rename store2
run 2 "$IBTOPO" fabrics --rename store2 x --format csv
run 0 "$IBTOPO" --fabric store2 show --format csv latest nodes

# ---- a label only one fabric has needs no --fabric; one no snapshot
# has is not found (not "could be in any of 3 fabrics")
imp "$B" --label tuesday --fabric "$Y"
run 0 "$IBTOPO" show tuesday nodes || flunk "a label of one fabric"
run 2 "$IBTOPO" show wednesday &&
	grep -q "^ibtopo: no snapshot 'wednesday' in " "$tmp/err" ||
	flunk "no such label: $(cat "$tmp/err")"

exit "$failed"
