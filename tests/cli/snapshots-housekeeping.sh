#!/bin/sh
# snapshots-housekeeping.sh - `ibtopo snapshots --delete REF`, `--keep N`
# and `--keep-days D` (issue 18, item 5): one snapshot goes and the others
# stay; the old ones go but never the newest snapshot nor the newest of a
# label (whose taken_at the test sets); the file shrinks (VACUUM); and the
# examples/ cron line and systemd units say what the README says.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
FT=$DATA/ck-cables.topo
TOOL=$top_builddir/tests/store-tool
IBTOPO_DB=$tmp/fabric.db
export IBTOPO_DB
[ -x "$TOOL" ] || fail "$TOOL not built"

ids() {	# the ids left, one line
	"$IBTOPO" snapshots --format csv | tr -d '\r' | sed 1d | cut -d, -f1 | tr '\n' ' '
}
import() {	# import [LABEL]
	if [ $# -gt 0 ]; then
		"$IBTOPO" import --label "$1" "$FT" >/dev/null 2>&1 || fail "import $1"
	else
		"$IBTOPO" import "$FT" >/dev/null 2>&1 || fail "import"
	fi
}
age() {	# age DAYS ID...: taken DAYS days ago
	d=$1
	shift
	for i in "$@"; do
		"$TOOL" exec "$IBTOPO_DB" "UPDATE snapshots SET taken_at = strftime('%s','now') - $d * 86400 - $i WHERE id = $i" >/dev/null ||
			fail "store-tool exec"
	done
}

# ---- --delete REF: exit 0, nothing printed, the others kept
import monday; import; import; import; import
run 0 "$IBTOPO" snapshots --delete 2 && [ ! -s "$tmp/out" ] ||
	flunk "--delete printed: $(cat "$tmp/out")"
[ "$(ids)" = "1 3 4 5 " ] || flunk "--delete 2 left: $(ids)"
run 0 "$IBTOPO" snapshots --delete latest~1
[ "$(ids)" = "1 3 5 " ] || flunk "--delete latest~1 left: $(ids)"
run 2 "$IBTOPO" snapshots --delete 42 && grep -q "^ibtopo: .*42" "$tmp/err" ||
	flunk "--delete 42: $(cat "$tmp/err")"
[ "$(ids)" = "1 3 5 " ] || flunk "a failed --delete deleted: $(ids)"
run 2 "$IBTOPO" snapshots --keep 0
run 2 "$IBTOPO" snapshots --keep-days x
run 2 "$IBTOPO" snapshots --keep 2 --format csv

# ---- --keep N: the N newest, and the newest of each label
import; import				# 6 7
run 0 "$IBTOPO" snapshots --keep 2
[ "$(ids)" = "1 6 7 " ] || flunk "--keep 2 left: $(ids)"
run 0 "$IBTOPO" snapshots --keep 1
[ "$(ids)" = "1 7 " ] || flunk "--keep 1 left: $(ids)"

# ---- --keep-days D, by taken_at
import; import; import			# 8 9 10
age 40 1 7 8
age 10 9
run 0 "$IBTOPO" -v snapshots --keep-days 30
[ "$(ids)" = "1 9 10 " ] || flunk "--keep-days 30 left: $(ids)"
grep -q '^ibtopo: store: deleted 2 snapshots' "$tmp/err" || flunk "-v: $(cat "$tmp/err")"
grep -q '^ibtopo: store: deleted snapshot 7$' "$tmp/err" || flunk "-v ids: $(cat "$tmp/err")"
# all of them old: the newest stays, and the labelled one
age 40 9 10
run 0 "$IBTOPO" snapshots --keep-days 30
[ "$(ids)" = "1 10 " ] || flunk "--keep-days 30, all old, left: $(ids)"
run 0 "$IBTOPO" snapshots --keep 1 --keep-days 1
[ "$(ids)" = "1 10 " ] || flunk "the last ones went: $(ids)"
# an old snapshot that is the newest of its label stays, and 10, no
# longer the newest, goes
import monday2; age 50 11
run 0 "$IBTOPO" snapshots --keep-days 30
[ "$(ids)" = "1 11 " ] || flunk "labelled snapshots: $(ids)"

# ---- VACUUM: the file shrinks after deleting
rm -f "$IBTOPO_DB"
"$TOOL" fill "$IBTOPO_DB" 12 >/dev/null || fail "store-tool fill"
before=$(wc -c <"$IBTOPO_DB")
run 0 "$IBTOPO" snapshots --keep 1
after=$(wc -c <"$IBTOPO_DB")
[ "$(ids)" = "12 " ] || flunk "--keep 1 of 12 left: $(ids)"
[ "$after" -lt $((before / 2)) ] || flunk "file $before bytes, after --keep 1 $after"
info "fabric.db: $before bytes with 12 snapshots, $after after --keep 1"

# ---- the README's cron line and the examples/ units agree
grep -q '^0 \* \* \* \* ibtopo discover --quiet && ibtopo snapshots --keep-days 30$' "$top_srcdir/README.md" ||
	flunk "README has no cron example"
grep -q '^ExecStart=.*/ibtopo discover --quiet$' "$top_srcdir/examples/ibtopo-discover.service" &&
	grep -q '^ExecStartPost=.*/ibtopo snapshots --keep-days 30$' "$top_srcdir/examples/ibtopo-discover.service" &&
	grep -q '^OnCalendar=hourly$' "$top_srcdir/examples/ibtopo-discover.timer" ||
	flunk "examples/ibtopo-discover.{service,timer}"
if command -v systemd-analyze >/dev/null 2>&1; then
	systemd-analyze verify --man=no "$top_srcdir/examples/ibtopo-discover.timer" \
		"$top_srcdir/examples/ibtopo-discover.service" >"$tmp/verify" 2>&1 ||
		info "systemd-analyze verify: $(cat "$tmp/verify")"
fi
exit "$failed"
