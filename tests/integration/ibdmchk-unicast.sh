#!/bin/sh
# ibdmchk-unicast.sh - ibtopo's credit loops agree with ibdmchk's
# (ibutils 1.5.7, Debian sid, from a chroot that tools/debian-chroot.sh
# builds once and keeps) over host -> switch routes (issue 36). On the
# ring of 4 switches of tests/routes-ring-lib.sh, OpenSM's tables loaded
# with the file engine and dumped with -D 0x43 (opensm-subnet.lst,
# opensm.fdbs for ibdmchk, opensm-lfts.dump for ibtopo):
#  - clean: ibdmchk, with and without -a, finds no credit loop; neither
#    does ibtopo;
#  - a credit loop made by host -> switch routes only: ibdmchk finds it
#    with -a (all paths, switches' LIDs too) and not without; ibtopo
#    finds it, one cycle, whose links leave by the very ports ibdmchk
#    names on its loop.
# ibdmchk checks every path first and stops before the credit loops when
# one fails: both cases route every pair. It prints its report, then
# crashes on exit (139): the report is what is read. It runs without
# /proc or /dev mounted in the chroot, so nothing is mounted here.
# Skips (77) without ibsim, opensm, ibnetdiscover, dump_fts, or when the
# chroot cannot be built (not root, or Debian's archive unreachable).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/routes-ring-lib.sh"
dump_fts_require
T=$TESTDIR
ibdmchk_chroot
R=$IBDM_ROOT W=$IBDM_WORK

# ibdmchk DIR NAME [-a]: ibdmchk on DIR/osm's files, its report in
# DIR/NAME
ibdmchk() {
	dir=$1 name=$2
	shift 2
	sub=${W#"$R"}/${dir##*/}
	mkdir -p "$R$sub"
	cp "$dir/osm/opensm-subnet.lst" "$dir/osm/opensm.fdbs" \
		"$dir/osm/opensm.mcfdbs" "$R$sub/" || fail "copy into $R$sub"
	timeout -s KILL 120 chroot "$R" /usr/bin/ibdmchk \
		-s "$sub/opensm-subnet.lst" -f "$sub/opensm.fdbs" \
		-m "$sub/opensm.mcfdbs" "$@" >"$dir/$name" 2>&1
	grep -q 'Analyzing Fabric for Credit Loops' "$dir/$name" ||
		flunk "ibdmchk $* on ${dir##*/} did not reach the credit loops: $(grep -- '-E-' "$dir/$name" | head -3)"
}

ring_setup
for fault in clean cloop; do
	d=$T/$fault
	ring_sweep file "$d" -U "$T/$fault.dump"
	ibdmchk "$d" ca.txt
	ibdmchk "$d" all.txt -a
	grep -q 'Scanned:132 paths' "$d/all.txt" ||
		flunk "$fault: ibdmchk -a did not scan all 132 paths"
	"$IBTOPO" routes "$d/fabric.topo" --routes "$d/osm/opensm-lfts.dump" \
		--format json --fail-on never >"$d/ibtopo.json" 2>"$d/ibtopo.err" ||
		flunk "$fault: ibtopo routes failed: $(cat "$d/ibtopo.err")"
	ours=$(json_get 'j["routes"]["credit_loops"]' <"$d/ibtopo.json")
	grep -q 'no credit loops found' "$d/ca.txt" ||
		flunk "$fault: ibdmchk without -a finds a credit loop"
	if [ "$fault" = clean ]; then
		grep -q 'no credit loops found' "$d/all.txt" ||
			flunk "clean: ibdmchk -a finds a credit loop"
		[ "$ours" = 0 ] || flunk "clean: ibtopo finds $ours credit loops"
		continue
	fi
	grep -q 'Found credit loop on' "$d/all.txt" ||
		flunk "cloop: ibdmchk -a finds no credit loop"
	[ "$ours" = 1 ] || flunk "cloop: ibtopo finds $ours credit loops, not 1"
	# ibdmchk's loop: "Found credit loop on: S<guid>/U1/P<port>", then
	# its search's way back ("BT credit loop through: ...") round the
	# cycle to that port again, then on to the host it started from
	awk '/Found credit loop on:|BT credit loop through:/ {
		if (!match($0, /S[0-9a-fA-F]+\/U1\/P[0-9]+/)) next
		split(substr($0, RSTART + 1, RLENGTH - 1), a, "/")
		port = "0x" tolower(a[1]) " " substr(a[3], 2)
		if (first == "") first = port
		else if (port == first) exit
		print port
	}' "$d/all.txt" | sort -u >"$d/theirs"
	[ -s "$d/theirs" ] || flunk "cloop: no port read from ibdmchk's loop"
	"$PYTHON3" -c '
import json, re, sys
j = json.load(open(sys.argv[1]))
guid = {}
for p in j["routes"]["ports"]:
    guid[p["node"]] = p["guid"]
for f in j["findings"]:
    if f["kind"] == "credit-loop":
        for m in re.finditer(r"\x27([^\x27]*)\x27 \[(\d+)\] ->", f["detail"]):
            print(guid[m.group(1)].lower(), m.group(2))
' "$d/ibtopo.json" | sort -u >"$d/ours"
	same "$d/theirs" "$d/ours" "cloop: the out-ports of ibtopo's cycle (ibdmchk's first)"
	info "ibdmchk's loop: $(tr '\n' ' ' <"$d/theirs"); ibtopo's: $(tr '\n' ' ' <"$d/ours")"
done
exit "$failed"
