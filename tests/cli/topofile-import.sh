#!/bin/sh
# topofile-import.sh - `ibtopo import` of every real dump (ibnetdiscover
# text and -p reports) stores the switch, CA and link counts a person
# counts in the file; --format and --node-name-map are honoured.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
# unrelated fixtures, stored as one fabric: labels and REFs as before
# fabrics (issue 25); tests/cli/fabrics-*.sh test several
IBTOPO_FABRIC=fixtures
export IBTOPO_FABRIC
tmp=$TESTDIR
test_env
[ -d "$REAL" ] || fail "no $REAL (the real dumps are in the repository)"

unset RT	# routers expected, set for one call below
# expect FILE SWITCHES CAS LINKS [IMPORT OPTIONS...] (routers: $RT, 0)
expect() {
	f=$1 sw=$2 ca=$3 links=$4
	shift 4
	if ! "$IBTOPO" --db "$tmp/db" import "$@" "$f" >"$tmp/out" 2>"$tmp/err"; then
		flunk "import $f: $(cat "$tmp/err")"
		return
	fi
	grep -q ": $sw switches, $ca CAs, ${RT:-0} routers, $links links" "$tmp/out" ||
		flunk "import $f: $(head -1 "$tmp/out"), wanted $sw/$ca/$links"
}

expect "$REAL/ndr-superpod-rails.topo" 40 582 1114
expect "$REAL/x5-mixed-ddr-qdr.topo" 11 89 159
expect "$REAL/qdr-hosts-fdr10-isls.topo" 8 144 192
expect "$REAL/tiny-mixed-speeds.topo" 2 6 10
expect "$REAL/plafrim2-subnet0.ports-verbose.txt" 7 96 155
expect "$REAL/plafrim2-subnet1.ports-verbose.txt" 1 23 23
expect "$REAL/small-ports-1.ports.txt" 4 3 4
expect "$REAL/small-ports-2.ports.txt" 5 2 2
RT=1 expect "$DATA/tf-plan.topo" 3 1 5 --format plan
expect "$DATA/tf-sim.net" 2 4 5
expect "$REAL/x5-mixed-ddr-qdr.topo" 11 89 159 --format ibnetdiscover \
	--node-name-map "$REAL/x5-mixed-ddr-qdr.guid-map" --label x5map

# the counts as the person reading the file finds them
n=$(grep -c '^Switch' "$REAL/x5-mixed-ddr-qdr.topo")
[ "$n" -eq 11 ] || flunk "x5 has $n switch records"
n=$(grep -c '^Ca' "$REAL/x5-mixed-ddr-qdr.topo")
[ "$n" -eq 89 ] || flunk "x5 has $n CA records"

# the map renamed the hosts it names
"$IBTOPO" --db "$tmp/db" show --format csv x5map nodes >"$tmp/nodes" 2>&1 ||
	flunk "show: $(cat "$tmp/nodes")"
grep -q ',0x0002c90300080e84,r510gluster1,' "$tmp/nodes" ||
	flunk "x5 map not applied: $(grep -i 0002c90300080e84 "$tmp/nodes")"

# the ibwarn line at the top of the tiny dump is a warning, not an error
"$IBTOPO" --db "$tmp/db" import "$REAL/tiny-mixed-speeds.topo" >/dev/null 2>"$tmp/err"
grep -q '^ibtopo: warning: .*tiny-mixed-speeds.topo:1: line ignored' "$tmp/err" ||
	flunk "no warning for the ibwarn line: $(cat "$tmp/err")"

# a -p report without -v: CA ports cannot be joined into CAs; one warning
# per file says so with the count, and how to get -v, on import and
# wherever a command reads the file (a diff reads two)
msg="ibtopo: warning: $REAL/small-ports-1.ports.txt: 3 CA ports read as 3 CAs: without -v an ibnetdiscover -p report cannot join the ports of one CA; run \`ibnetdiscover -p -v\` for one node per CA"
# (a database of their own, no --fabric: two unrelated fabrics under one
# name would be warned about, issue 33 item 3)
IBTOPO_FABRIC='' "$IBTOPO" --db "$tmp/p.db" import "$REAL/small-ports-1.ports.txt" \
	>/dev/null 2>"$tmp/err"
printf '%s\n' "$msg" | cmp -s - "$tmp/err" || flunk "-p import: $(cat "$tmp/err")"
"$IBTOPO" diff "$REAL/small-ports-1.ports.txt" "$REAL/small-ports-1.ports.txt" \
	>/dev/null 2>"$tmp/err"
printf '%s\n%s\n' "$msg" "$msg" | cmp -s - "$tmp/err" || flunk "-p diff: $(cat "$tmp/err")"
IBTOPO_FABRIC='' "$IBTOPO" --db "$tmp/p.db" import "$REAL/plafrim2-subnet1.ports-verbose.txt" \
	>/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && flunk "-p -v import warned: $(cat "$tmp/err")"

# a forced format that does not fit fails cleanly
if "$IBTOPO" --db "$tmp/db" import --input-format ports "$REAL/tiny-mixed-speeds.topo" \
	>"$tmp/out" 2>"$tmp/err"; then
	flunk "a dump read as a ports report succeeded"
fi
exit $failed
