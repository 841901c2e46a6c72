#!/bin/sh
# render-rails.sh - a rail-optimized fabric (issue 14): the overview and
# --detail switches put the leaves of each rail in one column, rail 1
# leftmost, a row per scalable unit named at its last leaf ("unit 3\n68
# hosts" in the overview), the rails named at their top leaf. The
# columns are read from `dot -Tplain` of the DOT ibtopo writes: every
# leaf of a rail (its [group="railN"]) at one x, rail N+1 right of N.
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
command -v dot >/dev/null 2>&1 || skip "graphviz dot not installed"
T=$TESTDIR
RAILS=$top_srcdir/tests/data/real/ndr-superpod-rails.topo

# rail_columns DOT: prints "4 rails: 8@x1 8@x2 7@x3 8@x4" (leaves@x)
rail_columns() {
	dot -Tplain "$1" 2>/dev/null | awk -v dotf="$1" '
	BEGIN {
		while ((getline line < dotf) > 0)
			if (line ~ /^\t+[a-z0-9]+ \[group="rail[0-9]+"\];$/) {
				split(line, f, /[\t ="]+/)
				rail[f[2]] = substr(f[4], 5) + 0
			}
	}
	$1 == "node" && ($2 in rail) {
		r = rail[$2]
		n[r]++
		if (!(r in x))
			x[r] = $3
		else if ($3 != x[r])
			bad = bad " " $2 "@" $3 "!=" x[r]
	}
	END {
		if (bad) {
			print "leaves of a rail apart:" bad
			exit 1
		}
		for (r = 1; r in x; r++)
			if ((r + 1) in x && x[r + 1] <= x[r]) {
				print "rail " r + 1 " not right of rail " r
				exit 1
			}
		printf "%d rails:", r - 1
		for (k = 1; k < r; k++)
			printf " %d@%s", n[k], x[k]
		print ""
	}'
}

for detail in groups switches; do
	run 0 "$IBTOPO" render --detail $detail -o "$T/$detail.dot" "$RAILS"
	cols=$(rail_columns "$T/$detail.dot") || flunk "$detail: $cols"
	# 31 leaves: unit 1 has no rail-3 leaf
	case $cols in
	"4 rails: 8@"*" 8@"*" 7@"*" 8@"*) info "$detail: $cols" ;;
	*) flunk "$detail: columns '$cols'" ;;
	esac
	# the names: outside labels of leaves (every drawn node is one of
	# the fabric's, the HTML view has data for each)
	for r in 1 2 3 4; do
		grep -q "^	[a-z0-9]* \[xlabel=\"rail ${r}[\"\\]" "$T/$detail.dot" ||
			flunk "$detail: rail $r not named"
	done
	grep -c '^	[a-z0-9]* \[xlabel=".*unit [0-9]' "$T/$detail.dot" |
		grep -qx 8 || flunk "$detail: not 8 units named"
done
# the overview counts a unit's hosts: 542 HCAs on the 31 leaves
sum=$(sed -n 's/^	[a-z0-9]* \[xlabel=".*unit [0-9]*\\n\([0-9]*\) hosts"\];$/\1/p' \
	"$T/groups.dot" | awk '{ s += $1 } END { print s }')
[ "$sum" = 542 ] || flunk "overview: units hold $sum hosts, not 542"

# not a rail fabric: no columns
run 0 "$IBTOPO" render --detail groups -o "$T/x5.dot" \
	"$top_srcdir/tests/data/real/x5-mixed-ddr-qdr.topo"
grep -q 'group="rail' "$T/x5.dot" && flunk "x5: drawn in rails"
grep -q 'xlabel="rail\|xlabel="unit' "$T/x5.dot" && flunk "x5: rails named"
exit "$failed"
