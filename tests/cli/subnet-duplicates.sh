#!/bin/sh
# subnet-duplicates.sh - what the subnet manager needs unique, as
# ibdiagnet checks it (issue 36): node GUIDs, port GUIDs, LIDs (with
# their LMC ranges) and node descriptions. tests/data/sn-small.topo is
# ibnetdiscover's dump of a clean simulated fabric; each case edits one
# fault into a copy, and that fault, and only it, is reported:
#  - two records of one node GUID (host04 given host02's caguid), and one
#    record whose port two switches claim (what a sweep that met one GUID
#    twice leaves): duplicate-node-guid on port 1 of the node read
#    first, naming leaf01 port 2 and leaf02 port 2; kept by the store;
#  - an `ibnetdiscover --cache` file with two nodes of one GUID (ibsim
#    refuses such a net file, so the cache of sim-small is edited);
#  - host04's port GUID set to host02's: duplicate-port-guid;
#  - host04 at host02's LID, and host03 at LMC 1 (LIDs 8-9) over host04's
#    LID 9: duplicate-lid;
#  - host04 described as host02: duplicate-node-desc (a warning).
# Firmware, from ibdiagnet2.db_csv's NODES_INFO (tests/data/sn-small.db_csv,
# given as --cables): leaf02 on 27.2008.2408 while the three other
# switches of its model and PSID run 27.2010.1030: one firmware-mismatch
# (a warning) on leaf02; with leaf02 on the same version, none.
. "${top_srcdir:-.}/tests/lib.sh"
test_env
python_require

base=$DATA/sn-small.topo
DUPS='^duplicate-(node-guid|port-guid|lid|node-desc),'

# findings F: the duplicate-* lines of analyze --format csv on F
findings() {
	"$IBTOPO" analyze --format csv "$@" >"$TESTDIR/csv" 2>"$TESTDIR/err"
	grep -E "$DUPS" "$TESTDIR/csv"
}

# edit NAME SED...: $TESTDIR/NAME.topo, the base fixture edited
edit() {
	name=$1
	shift
	sed "$@" "$base" >"$TESTDIR/$name.topo" || fail "sed $name"
	cmp -s "$base" "$TESTDIR/$name.topo" && fail "$name: the edit changed nothing"
}

# ---- the clean fabric: none
got=$(findings "$base")
[ -z "$got" ] || flunk "clean fabric: $got"

# ---- two records of one node GUID
edit guid-records -e 's/^caguid=0x100007$/caguid=0x100003/'
got=$(findings "$TESTDIR/guid-records.topo")
[ "$(count_lines "$got")" -eq 1 ] || flunk "two records of a GUID: $got"
printf '%s\n' "$got" | grep -q '^duplicate-node-guid,error,host04,0x0000000000100003,1,leaf02,0x0000000000200003,2,leaf01,0x0000000000200002,2,.*two nodes answer with node GUID 0x0000000000100003: port 1 of .host04. is cabled to .leaf02. port 2 and also to .leaf01. port 2' ||
	flunk "two records of a GUID: $got"
grep -q "node 'H-0000000000100003' has GUID 0x0000000000100003, as 'H-0000000000100007' at line [0-9]*: read as one node" "$TESTDIR/err" ||
	flunk "no warning: $(cat "$TESTDIR/err")"
# the store keeps it
run 0 "$IBTOPO" --db "$DB" import "$TESTDIR/guid-records.topo" || fail "import"
run 1 "$IBTOPO" --db "$DB" analyze --format csv
[ "$(grep -cE "$DUPS" "$TESTDIR/out")" -eq 1 ] &&
	grep -q '^duplicate-node-guid,error,host04,0x0000000000100003,1,leaf02' "$TESTDIR/out" ||
	flunk "stored: $(grep -E "$DUPS" "$TESTDIR/out")"

# ---- one record, its port claimed by two switches
edit guid-merged -e 's/"H-0000000000100007"\[1\](100008)/"H-0000000000100003"[1](100004)/' \
	-e '/^sysimgguid=0x100007$/,/^$/d'
grep -q '100007' "$TESTDIR/guid-merged.topo" && fail "guid-merged: host04 left"
got=$(findings "$TESTDIR/guid-merged.topo")
[ "$(count_lines "$got")" -eq 1 ] &&
	printf '%s\n' "$got" | grep -q '^duplicate-node-guid,error,host02,0x0000000000100003,1,' &&
	printf '%s\n' "$got" | grep -q "leaf01. port 2" &&
	printf '%s\n' "$got" | grep -q "leaf02. port 2" ||
	flunk "merged node: $got"

# ---- a cache with two nodes of one GUID
"$PYTHON3" - "$DATA/sim-small.cache" "$TESTDIR/dup.cache" <<'PY' || fail "edit cache"
import sys
d = open(sys.argv[1], 'rb').read()
for e in ('big', 'little'):
    old, new = (0x100007).to_bytes(8, e), (0x100003).to_bytes(8, e)
    assert d.count(old) == 2
    d = d.replace(old, new)
open(sys.argv[2], 'wb').write(d)
PY
got=$(findings "$TESTDIR/dup.cache")
[ "$(count_lines "$got")" -eq 1 ] &&
	printf '%s\n' "$got" | grep -q '^duplicate-node-guid,error,[^,]*,0x0000000000100003,1,' &&
	printf '%s\n' "$got" | grep -q "leaf01. port 2" &&
	printf '%s\n' "$got" | grep -q "leaf02. port 2" ||
	flunk "cache: $got ($(cat "$TESTDIR/err"))"

# ---- one port GUID on two CAs
edit port-guid -e 's/(100008)/(100004)/g'
got=$(findings "$TESTDIR/port-guid.topo")
one_finding "$got" '^duplicate-port-guid,error,host02,0x0000000000100003,1,host04,0x0000000000100007,1,.*one port GUID, 0x0000000000100004' \
	"port GUID"

# ---- one LID on two CAs
edit lid -e 's/lid 9 lmc 0/lid 1 lmc 0/' -e 's/"host04" lid 9/"host04" lid 1/'
got=$(findings "$TESTDIR/lid.topo")
one_finding "$got" '^duplicate-lid,error,host02,0x0000000000100003,1,host04,0x0000000000100007,1,.*(LID 1) and port 1 of .host04. (LID 1) answer to LID 1' \
	"LID"
run 1 "$IBTOPO" analyze --format json "$TESTDIR/lid.topo"
got=$(json_get '[(f["lid"], f["a"]["node"], f["b"]["node"]) for f in j["findings"] if f["kind"] == "duplicate-lid"]' <"$TESTDIR/out")
[ "$got" = "[(1, 'host02', 'host04')]" ] || flunk "LID json: $got"

# ---- an LMC range over another port's LID
edit lmc -e 's/lid 8 lmc 0/lid 8 lmc 1/'
got=$(findings "$TESTDIR/lmc.topo")
one_finding "$got" '^duplicate-lid,error,host03,0x0000000000100005,1,host04,0x0000000000100007,1,.*(LIDs 8-9) and port 1 of .host04. (LID 9) answer to LID 9' \
	"LMC"

# ---- one description on two nodes
edit desc -e 's/# "host04"/# "host02"/'
got=$(findings "$TESTDIR/desc.topo")
one_finding "$got" '^duplicate-node-desc,warning,host02,0x0000000000100003,,host02,0x0000000000100007,,.*2 nodes share the description .host02.' \
	"description"
# ---- firmware: one switch off its model's version
got=$("$IBTOPO" analyze --format csv "$base" --cables "$DATA/sn-small.db_csv" |
	tr -d '\r' | grep -E '^firmware-mismatch,')
one_finding "$got" "^firmware-mismatch,warning,leaf02,0x0000000000200003,,spine01,0x0000000000200000,,.*'leaf02' runs firmware 27.2008.2408 while 3 of the 4 nodes of its model (0x0000:0xd2f0, PSID MT_0000000063) run 27.2010.1030.*,MT_0000000063\$" \
	"firmware"
sed 's/0x7d8,0x968/0x7da,0x406/' "$DATA/sn-small.db_csv" >"$TESTDIR/fw.db_csv"
cmp -s "$DATA/sn-small.db_csv" "$TESTDIR/fw.db_csv" && fail "fw edit"
got=$("$IBTOPO" analyze --format csv "$base" --cables "$TESTDIR/fw.db_csv" |
	grep -E '^firmware-mismatch,')
[ -z "$got" ] || flunk "firmware alike: $got"
exit "$failed"
