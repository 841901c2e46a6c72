#!/bin/sh
# render-overview.sh - `ibtopo render --detail groups` (issue 14): the
# overview of a 3-level fat tree (one leaf missing an uplink), of a fabric
# of two QLogic-named directors (one uplink trained at SDR) and of the
# real rail fabric ndr-superpod-rails.topo are the golden DOT files
# tests/golden/rd-overview-*.dot (IBTOPO_UPDATE_GOLDEN=1 rewrites them).
# And:
#  - a director is one node, its chips hidden; the group holding the
#    downgraded link and the director it goes to are outlined red and
#    named in the table of problems, with the switch the link is on;
#  - --focus GROUP draws that group's switches one by one, and what is
#    near them only;
#  - --detail switches on more than 2000 switches is refused (exit 2),
#    auto draws the overview; a bad --detail is a usage error.
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
T=$TESTDIR
G=$top_srcdir/tests/golden

golden() {
	name=$1
	shift
	"$IBTOPO" render --detail groups --title "$name" -o "$T/$name.dot" "$@" \
		2>"$T/err" || {
		cat "$T/err" >&2
		fail "render $name"
	}
	if [ -n "${IBTOPO_UPDATE_GOLDEN:-}" ]; then
		cp "$T/$name.dot" "$G/$name.dot"
		info "rewrote $G/$name.dot"
		return
	fi
	same "$G/$name.dot" "$T/$name.dot" "$name"
}

"$GEN" --format ibnetdiscover --pods 3 --leaves 4 --spines 4 --cores 8 \
	--hosts 4 --links 1 --core-links 2 --radix 16 --fault drop-uplink \
	ft3 >"$T/ft3.topo" || fail "gen-fabric"
"$PYTHON3" "$DATA/gen-director.py" --qlogic --slow-link -o "$T/dir.topo" ||
	fail "gen-director.py"

golden rd-overview-ft3 "$T/ft3.topo"
golden rd-overview-director "$T/dir.topo"
golden rd-overview-rails "$top_srcdir/tests/data/real/ndr-superpod-rails.topo"
# nothing was compared: the test must not pass
[ -z "${IBTOPO_UPDATE_GOLDEN:-}" ] || skip "golden files rewritten"

# ft3: pods 2 and 3 whole, pod 1 split by the missing uplink
d=$T/rd-overview-ft3.dot
for want in '4 leaves, pod 2\nleaf02-01 … 04\n16 hosts' \
	'4 spines, pod 3\nagg03-01 … 04' '3 leaves, pod 1\nleaf01-02 … 04\n12 hosts'; do
	grep -qF "label=\"$want\"" "$d" || flunk "ft3: no '$want'"
done

# directors: one node each, no chip drawn, the SDR link's ends named
d=$T/rd-overview-director.dot
grep -qF 'd0011750000101000 [label="QLogic 12800-180 GUID=0x0011750000101000\ndirector, 12 chips, 32 ports out"' "$d" ||
	flunk "director: not one node"
grep -q '^	n00117500001' "$d" && flunk "director: a chip drawn"
grep -q 'd0011750000101000 \[.*color="#d62728", penwidth=2.5' "$d" ||
	flunk "director: not outlined red"
grep -q 'where the problems are' "$d" || flunk "director: no table"
grep -qF '>16 leaves</B>' "$d" || flunk "director: leaves not in the table"
grep -qF 'downgraded link ×1 (at edge001)' "$d" ||
	flunk "director: the table does not name edge001"
# the bundle of 32 cables: 31 good ones, the downgraded one drawn apart
grep -q '×31 3.1 Tb/s", penwidth' "$d" || flunk "director: bundle label"
grep -q 'label="8 Gb/s", color="#d62728"' "$d" ||
	flunk "director: the downgraded cable not drawn apart"

# --focus a group: its switches, one by one
run 0 "$IBTOPO" render --focus "leaves, pod 2" -o "$T/focus.dot" "$T/ft3.topo"
grep -q 'label="leaf02-03' "$T/focus.dot" || flunk "focus: leaf02-03 not drawn"
grep -q 'label="leaf03-01' "$T/focus.dot" && flunk "focus: pod 3 drawn"
grep -q 'around 4 leaves, pod 2, 2 hops' "$T/focus.dot" ||
	flunk "focus: subtitle"
run 2 "$IBTOPO" render --focus "leaves, pod 9" -o "$T/focus.dot" "$T/ft3.topo"

# more than 2000 switches: groups, never one by one
"$GEN" --format ibnetdiscover --switches 2001 --hosts 1 ring >"$T/ring.topo" ||
	fail "gen-fabric ring"
run 2 "$IBTOPO" render --detail switches -o "$T/ring.svg" "$T/ring.topo" &&
	grep -q 'cannot draw 2001 switches one by one' "$T/err" ||
	flunk "2001 switches: $(cat "$T/err")"
run 2 "$IBTOPO" render --detail some -o "$T/x.svg" "$T/ft3.topo"
exit "$failed"
