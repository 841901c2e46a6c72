#!/bin/sh
# fabrics-names.sh - a --fabric NAME is checked against the switch GUIDs,
# and fabrics can be deleted and merged (issue 33, items 3 and 6):
# - `--fabric compute import` of the switches of fabric X warns that X
#   has them and names `fabrics --merge compute X`;
# - `--fabric compute import` of an unrelated fabric into compute's
#   history warns, naming the snapshot to delete;
# - a name that agrees with the switches says nothing;
# - `fabrics --delete NAME` deletes an empty fabric, refuses one with
#   snapshots unless --with-snapshots, and an empty fabric is no longer
#   counted in "could be in any of N fabrics";
# - `fabrics --merge FROM INTO` moves FROM's snapshots into INTO, and
#   refuses a label both have.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
test_env db
A=$DATA/dv-before.topo	# fabric X
A2=$DATA/dv-after.topo	# X again: same switches
B=$DATA/rd-small.topo	# fabric Y: other GUIDs
X=fabric-0000000000200000
Y=fabric-0002c90300000101

fabric_of() {	# id:fabric of each snapshot, one line
	"$IBTOPO" snapshots --format csv | tr -d '\r' | sed 1d |
		awk -F, '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $NF }'
}

# ---- item 3: the same switches as X under another name
run 0 "$IBTOPO" import "$A"
run 0 "$IBTOPO" --fabric compute import "$A2"
grep -q "^ibtopo: warning: snapshot 2 starts fabric 'compute' .*fabric '$X' has its switches (4 of the 4 switch GUIDs of its latest snapshot 1).*fabrics --merge compute $X" "$TESTDIR/err" ||
	flunk "same switches, another name: $(cat "$TESTDIR/err")"
# ... an unrelated fabric into compute's history
run 0 "$IBTOPO" --fabric compute import "$B"
grep -q "^ibtopo: warning: snapshot 3 was stored in fabric 'compute' .*only 0 of the 4 switch GUIDs of its latest snapshot 2.*snapshots --delete 3" "$TESTDIR/err" ||
	flunk "unrelated switches into compute: $(cat "$TESTDIR/err")"
# ... and back: they are X's switches, X named
run 0 "$IBTOPO" --fabric compute import "$A2"
grep -q "^ibtopo: warning: snapshot 4 .*(fabric '$X' has them)" "$TESTDIR/err" ||
	flunk "X's switches into compute: $(cat "$TESTDIR/err")"
# a name that agrees says nothing
run 0 "$IBTOPO" --fabric compute import "$A2"
[ -s "$TESTDIR/err" ] && flunk "a name that agrees: $(cat "$TESTDIR/err")"
run 0 "$IBTOPO" --fabric "$X" import "$A2"
[ -s "$TESTDIR/err" ] && flunk "X's own name: $(cat "$TESTDIR/err")"
run 0 "$IBTOPO" snapshots --delete 3
[ "$(fabric_of)" = "1:$X 2:compute 4:compute 5:compute 6:$X" ] ||
	flunk "after the imports: $(fabric_of)"

# ---- item 6: fabrics --merge
"$IBTOPO" --fabric compute import "$A2" --label monday >/dev/null 2>&1 ||
	fail "import --label monday"
"$IBTOPO" --fabric "$X" import "$A2" --label monday >/dev/null 2>&1 ||
	fail "import --label monday in X"
run 2 "$IBTOPO" fabrics --merge compute "$X" &&
	stderr_is "ibtopo: label 'monday' names snapshot 7 of 'compute' and snapshot 8 of '$X'"
run 0 "$IBTOPO" snapshots --delete 8
run 0 "$IBTOPO" fabrics --merge compute "$X" && [ ! -s "$TESTDIR/out" ] ||
	flunk "merge printed: $(cat "$TESTDIR/out")"
[ "$(fabric_of)" = "1:$X 2:$X 4:$X 5:$X 6:$X 7:$X" ] ||
	flunk "merged: $(fabric_of)"
run 0 "$IBTOPO" show monday nodes || flunk "the label after the merge"
run 2 "$IBTOPO" fabrics --merge compute "$X" &&
	stderr_is "ibtopo: no fabric 'compute' in '$IBTOPO_DB'"
run 2 "$IBTOPO" fabrics --merge "$X" "$X"
run 2 "$IBTOPO" fabrics --merge "$X"

# ---- item 6: fabrics --delete
run 0 "$IBTOPO" import "$B"
run 2 "$IBTOPO" fabrics --delete "$Y" &&
	stderr_is "ibtopo: fabric '$Y' has 1 snapshot: not deleted (--with-snapshots deletes the snapshots too; --merge $Y OTHER keeps them in another fabric)"
run 0 "$IBTOPO" snapshots --delete 9
# an empty fabric: not counted, nor listed with a REF's fabrics
run 0 "$IBTOPO" show latest nodes ||
	flunk "an empty fabric counted: $(cat "$TESTDIR/err")"
"$IBTOPO" fabrics --format csv | grep -q "^$Y," || flunk "the empty fabric is not listed"
run 0 "$IBTOPO" fabrics --delete "$Y" && [ ! -s "$TESTDIR/out" ] ||
	flunk "delete printed: $(cat "$TESTDIR/out")"
"$IBTOPO" fabrics --format csv | grep -q "^$Y," && flunk "deleted, still listed"
run 2 "$IBTOPO" fabrics --delete "$Y" &&
	stderr_is "ibtopo: no fabric '$Y' in '$IBTOPO_DB'"
run 0 "$IBTOPO" -v fabrics --delete "$X" --with-snapshots &&
	stderr_is "ibtopo: deleted fabric '$X' and 6 snapshots"
[ -z "$(fabric_of)" ] || flunk "left: $(fabric_of)"
run 2 "$IBTOPO" fabrics --with-snapshots
run 2 "$IBTOPO" fabrics --delete a --rename b c
run 2 "$IBTOPO" fabrics --delete a x
run 2 "$IBTOPO" fabrics --delete a --format csv
exit "$failed"
