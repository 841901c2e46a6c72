#!/bin/sh
# store-labels.sh - a label names one snapshot: `import --label` refuses a
# label in use (exit 2, nothing stored) unless --force moves it, refuses
# labels a REF reads as an id, `latest` or `latest~N`, and a database
# that already holds a label twice (written before) opens, while a REF
# naming that label fails listing the snapshots it could mean.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
fixtures_env

db=$tmp/fabric.db
x5=$REAL/x5-mixed-ddr-qdr.topo
tiny=$REAL/tiny-mixed-speeds.topo

# the snapshot ids, in order, with their labels: "1:x5-before 2:- ..."
listing() {
	"$IBTOPO" --db "$db" snapshots --format csv | tr -d '\r' |
		awk -F, 'NR > 1 { printf "%s%s:%s", (NR > 2 ? " " : ""), $1, ($2 == "" ? "-" : $2) }'
}

run 0 "$IBTOPO" --db "$db" import --label x5-before "$x5"
run 0 "$IBTOPO" --db "$db" import --label x5-after "$tiny"
# the same label again: refused, nothing stored, the REF still the first
run 2 "$IBTOPO" --db "$db" import --label x5-before "$tiny" &&
	grep -qx "ibtopo: label 'x5-before' names snapshot 1 already (--force moves it here)" \
		"$tmp/err" || flunk "reused label: $(cat "$tmp/err")"
[ "$(listing)" = "1:x5-before 2:x5-after" ] || flunk "after a refused label: $(listing)"
# so diff x5-before x5-after compares the two snapshots so labelled
run 1 "$IBTOPO" --db "$db" diff --format csv x5-before x5-after
"$IBTOPO" diff --format csv "$x5" "$tiny" >"$tmp/files" 2>/dev/null
cmp -s "$tmp/out" "$tmp/files" || flunk "diff x5-before x5-after is not x5 vs tiny"

# --force moves the label to the new snapshot
run 0 "$IBTOPO" --db "$db" import --label x5-after --force "$x5" &&
	grep -q '^snapshot 3 (x5-after): ' "$tmp/out" || flunk "--force: $(cat "$tmp/out")"
[ "$(listing)" = "1:x5-before 2:- 3:x5-after" ] || flunk "after --force: $(listing)"
run 0 "$IBTOPO" --db "$db" diff x5-before x5-after
run 2 "$IBTOPO" --db "$db" import --force "$x5" &&
	grep -q "^ibtopo: --force moves a --label; none given" "$tmp/err" ||
	flunk "--force alone: $(cat "$tmp/err")"

# labels a REF reads as something else: usage errors, nothing stored
for label in 3 0042 latest latest~1 latest~0; do
	run 2 "$IBTOPO" --db "$db" import --label "$label" "$tiny" &&
		grep -qx "ibtopo: label '$label' reads as a snapshot reference (an id, 'latest' or 'latest~N'), which it could never name" \
			"$tmp/err" || flunk "label '$label': $(head -1 "$tmp/err")"
	run 2 "$IBTOPO" --db "$db" import --force --label "$label" "$tiny"
done
run 2 "$IBTOPO" --db "$db" import --label '' "$tiny" &&
	grep -qx "ibtopo: empty snapshot label" "$tmp/err" || flunk "empty label"
# labels a command line cannot pass back (issue 33, item 6)
run 2 "$IBTOPO" --db "$db" import --label -1 "$tiny" &&
	grep -qx "ibtopo: label '-1' starts with '-': a command line would read it as an option" \
		"$tmp/err" || flunk "label '-1': $(head -1 "$tmp/err")"
run 2 "$IBTOPO" --db "$db" import --label 'a b' "$tiny" &&
	grep -qx "ibtopo: label 'a b' holds a space or control character: a label is one word" \
		"$tmp/err" || flunk "label 'a b': $(head -1 "$tmp/err")"
[ "$(listing)" = "1:x5-before 2:- 3:x5-after" ] || flunk "after refused labels: $(listing)"
# discover checks the label before it sweeps (no fabric here to sweep)
run 2 "$IBTOPO" --db "$db" discover --label x5-before &&
	grep -qx "ibtopo: label 'x5-before' names snapshot 1 already (--force moves it here)" \
		"$tmp/err" || flunk "discover reused label: $(cat "$tmp/err")"
run 2 "$IBTOPO" --db "$db" discover --label latest~2 &&
	grep -q "^ibtopo: label 'latest~2' reads as a snapshot reference" "$tmp/err" ||
	flunk "discover REF label: $(cat "$tmp/err")"

# ---- a database written before labels were unique
old=$tmp/old.db
"$TOOL" fill "$old" 3 week1 && "$TOOL" exec "$old" \
	"UPDATE snapshots SET label = 'week1' WHERE id IN (2, 3)" >/dev/null || exit 99
db=$old
# store-tool's snapshots are a fabric of their own: that one
IBTOPO_FABRIC=$("$IBTOPO" --db "$old" fabrics --format csv | tr -d '\r' | sed -n 2p | cut -d, -f1)
run 0 "$IBTOPO" --db "$old" snapshots &&
	[ "$(listing)" = "1:week1 2:week1 3:week1" ] || flunk "old database: $(listing)"
run 2 "$IBTOPO" --db "$old" show week1 &&
	grep -qx "ibtopo: label 'week1' names snapshots 1, 2, 3: give an id" "$tmp/err" ||
	flunk "ambiguous label: $(cat "$tmp/err")"
run 0 "$IBTOPO" --db "$old" show 2
run 0 "$IBTOPO" --db "$old" import --label week1 --force "$tiny"
run 0 "$IBTOPO" --db "$old" show --format csv week1 &&
	[ "$(listing)" = "1:- 2:- 3:- 4:week1" ] || flunk "moved from many: $(listing)"

exit $failed
