#!/bin/sh
# readme-cables.sh - the README's cables.csv example fits the README's own
# plan: both are taken from README.md, the plan is written with `ibtopo
# plan` and analyzed with the cables, and every row matches a cable of the
# plan (no cable-row-unmatched), the 45 m HDR AOC being over its reach
# and the EDR DAC underrated.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
README=$top_srcdir/README.md
unset IBTOPO_DB

# the first `ibtopo plan fat-tree` line, its -o FILE made ours
plan=$(grep -m1 '^ibtopo plan fat-tree ' "$README") || fail "no plan in README.md"
# the lines after "cat cables.csv", up to the next command
sed -n '/^cat cables.csv/,/^ibtopo /p' "$README" | sed '1d;$d' >"$tmp/cables.csv"
[ "$(wc -l <"$tmp/cables.csv")" -ge 2 ] || fail "no cables.csv in README.md"
head -n 1 "$tmp/cables.csv" | grep -q '^node_a,port_a' ||
	fail "README cables.csv header: $(head -n 1 "$tmp/cables.csv")"

set -- $plan
shift	# "ibtopo"
args=
while [ $# -gt 0 ]; do
	case $1 in
	-o) shift ;;
	\#*) break ;;
	*) args="$args $1" ;;
	esac
	shift
done
# shellcheck disable=SC2086 # the README's words
run 0 "$IBTOPO" $args -o "$tmp/plan.topo" || exit 1
run 1 "$IBTOPO" analyze --format csv --cables "$tmp/cables.csv" "$tmp/plan.topo"
tr -d '\r' <"$tmp/out" >"$tmp/findings.csv"
if grep -q '^cable-row-unmatched' "$tmp/findings.csv"; then
	flunk "README cables.csv rows match nothing in its plan: $(grep '^cable-row' "$tmp/findings.csv")"
fi
grep -E -q '^cable-over-length,error,(leaf01,[^,]*,17,spine01,[^,]*,1|spine01,[^,]*,1,leaf01,[^,]*,17),' "$tmp/findings.csv" ||
	flunk "the 45 m AOC is not over length: $(grep "^cable" "$tmp/findings.csv")"
# the EDR DAC of the row without node_b, on HDR ports
grep -E -q '^cable-underrated,warning,(leaf01,[^,]*,1,host001,[^,]*,1|host001,[^,]*,1,leaf01,[^,]*,1),' "$tmp/findings.csv" ||
	flunk "the EDR DAC is not underrated: $(grep "^cable" "$tmp/findings.csv")"
[ ! -s "$tmp/err" ] || flunk "stderr: $(cat "$tmp/err")"
exit "$failed"
