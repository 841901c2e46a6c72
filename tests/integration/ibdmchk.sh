#!/bin/sh
# ibdmchk.sh - ibtopo's routing verdicts agree with ibdmchk's (ibutils
# 1.5.7, from a Debian sid chroot) on the same OpenSM tables, clean and
# with one planted fault a case, unicast and multicast (issue 36).
#
# A 2-level fat tree of radix 4 under ibsim; OpenSM as a daemon, every
# host joined to 0xc000 and two hosts to 0xc001 through its SA, then a
# sweep more (SIGHUP) writes opensm-subnet.lst, opensm.fdbs and
# opensm.mcfdbs with the groups. Each case edits a copy of opensm.fdbs or
# opensm.mcfdbs, then runs
#   ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs
# in the chroot and `ibtopo routes` on ibnetdiscover's view of the fabric
# with the same two files (--routes twice), and turns each output into
# verdicts (finding kinds; ibdmchk's lines mapped in verdicts_ibdmchk):
# both must give the case's expected set. ibdmchk stops before its
# multicast and credit-loop checks once a path fails: one fault a case.
#
# To add a case: one line in CASES, "name|file|edits|verdicts[|theirs]",
# where file is fdbs or mcfdbs, edits are ";"-separated
#   lft SWITCH-GUID LID PORT|UNREACHABLE   (a unicast entry)
#   mft SWITCH-GUID MLID +PORT|-PORT ...   (ports into or out of a mask)
# and verdicts the sorted kinds both must find ("-" for none); theirs,
# when given, is what ibdmchk says instead. It walks a group from its
# first member only, so when a cut leaves that member on the smaller side
# it also calls the switches of the larger side "disconnected" (a -W-)
# where ibtopo takes the side that joins most members as the tree.
#
# Switches: 0x200000 spine001, 0x200001 spine002, 0x200002-5 leaf001-4;
# leaf ports 1-2 hosts, 3 spine001, 4 spine002; spine port n leaf00n.
# OpenSM's multicast trees run over spine001; LID 8 is a host on leaf002.
# The chroot is tools/debian-chroot.sh's, kept in $IBTOPO_CHROOT_CACHE
# (/var/cache/ibtopo-tests); the test skips where it cannot be built.
CASES='
clean|fdbs||-
unicast-hole|fdbs|lft 0x200002 0x0008 UNREACHABLE|route-black-hole
unicast-loop|fdbs|lft 0x200000 0x0008 001|route-loop
mcast-loop|mcfdbs|mft 0x200002 0xC000 +4; mft 0x200001 0xC000 +1 +4; mft 0x200005 0xC000 +4|mcast-loop
mcast-stale-switch|mcfdbs|mft 0x200001 0xC001 +1|mcast-disconnected
mcast-cut-host|mcfdbs|mft 0x200004 0xC001 +1|mcast-unreached
mcast-cut-leaf|mcfdbs|mft 0x200000 0xC001 -2|mcast-unreached|mcast-disconnected mcast-unreached
'
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
ibnetdiscover_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"

# ---- the chroot with ibdmchk (sid's ibutils)
ibdmchk_chroot
ROOT=$IBDM_ROOT W=$IBDM_WORK

# ---- the fabric, OpenSM's tables with two groups, ibnetdiscover's view
gen_fattree 4 2 "$TESTDIR/ft.net"
sim_start_as "$TESTDIR/ft.net" h00001
. "$top_srcdir/tests/mcast-lib.sh"
mcast_opensm "$TESTDIR/dump"
for h in 1 2 3 4 5 6 7 8; do
	mcast_join h0000$h
done
mcast_join h00003 5
mcast_join h00007 5
mcast_resweep "$TESTDIR/dump/opensm.mcfdbs" '^0xC001 '
sim_client "$IBNETDISCOVER" >"$TESTDIR/fabric.topo" 2>"$TESTDIR/disc.err" ||
	{ cat "$TESTDIR/disc.err"; fail "ibnetdiscover"; }
for f in opensm-subnet.lst opensm.fdbs opensm.mcfdbs; do
	[ -s "$TESTDIR/dump/$f" ] || fail "opensm wrote no $f"
done

# plant IN OUT EDITS: OUT is IN (opensm.fdbs or opensm.mcfdbs) edited
plant() {
	"$PYTHON3" - "$1" "$2" "$3" <<'PY'
import re, sys
src, out, edits = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src).read()
# blocks: [header line, [entry lines]]
blocks, cur = [], None
for line in text.splitlines():
    if re.match(r"(dump_ucast_routes: )?Switch 0x", line):
        cur = [line, []]
        blocks.append(cur)
    elif cur is not None and line.strip():
        cur[1].append(line)
def block(guid):
    for b in blocks:
        if int(b[0].split("Switch ")[1].split()[0], 16) == guid:
            return b
    b = ["Switch 0x%016x" % guid, ["LID    : Out Port(s)"]]
    blocks.append(b)
    return b
for e in filter(None, (x.split() for x in edits.split(";"))):
    b = block(int(e[1], 16))
    key = "0x%04X" % int(e[2], 16)
    rows = [i for i, l in enumerate(b[1]) if l.startswith(key + " ")]
    if e[0] == "lft":
        port = e[3] if e[3] == "UNREACHABLE" else "%03d  : 01   : yes" % int(e[3])
        b[1][rows[0]] = "%s : %s" % (key, port)
        continue
    ports = set()
    if rows:
        ports = {int(p, 16) for p in b[1][rows[0]].split(":")[1].split()}
    for p in e[3:]:
        (ports.add if p[0] == "+" else ports.discard)(int(p[1:]))
    line = "%s : %s" % (key, "  ".join("0x%03x" % p for p in sorted(ports)))
    if rows:
        b[1][rows[0]] = line
    else:
        b[1].append(line)
with open(out, "w") as f:
    for b in blocks:
        f.write("\n".join([b[0]] + b[1]) + "\n\n")
PY
}

# verdicts_ibdmchk: ibdmchk's report on stdin as finding kinds
verdicts_ibdmchk() {
	sed -n '
		/Unassigned LFT for lid/s/.*/route-black-hole/p
		/loop in LFT/s/.*/route-loop/p
		/Potential Credit Loop/s/.*/credit-loop/p
		/Found a loop on MLID/s/.*/mcast-loop/p
		/Disconnected HCA/s/.*/mcast-unreached/p
		/has MFT entry of group.*disconn/s/.*/mcast-disconnected/p' |
		sort -u | tr '\n' ' ' | sed 's/ $//'
}

# verdicts_ibtopo: the kinds of `routes --format json` on stdin
verdicts_ibtopo() {
	"$PYTHON3" -c '
import json, sys
print(" ".join(sorted({f["kind"] for f in json.load(sys.stdin)["findings"]})))'
}

echo "$CASES" | while IFS='|' read -r name file edits want alt; do
	[ -n "$name" ] || continue
	d=$W/$name
	mkdir -p "$d"
	cp "$TESTDIR/dump/opensm-subnet.lst" "$TESTDIR/dump/opensm.fdbs" \
		"$TESTDIR/dump/opensm.mcfdbs" "$d/" || fail "$name: copy"
	plant "$TESTDIR/dump/opensm.$file" "$d/opensm.$file" "$edits" ||
		fail "$name: plant '$edits'"
	if [ -n "$edits" ] && cmp -s "$TESTDIR/dump/opensm.$file" "$d/opensm.$file"; then
		fail "$name: the edit changed nothing"
	fi
	(cd "$d" && timeout 120 chroot "$ROOT" sh -c "cd '${d#"$ROOT"}' &&
		ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs") \
		>"$d/ibdmchk.out" 2>&1
	grep -q 'Scanning all multicast groups\|Some Point to Point Traversals Failed' \
		"$d/ibdmchk.out" || fail "$name: ibdmchk did not run: $(tail -3 "$d/ibdmchk.out")"
	theirs=$(verdicts_ibdmchk <"$d/ibdmchk.out")
	"$IBTOPO" routes "$TESTDIR/fabric.topo" --routes "$d/opensm.fdbs" \
		--routes "$d/opensm.mcfdbs" --format json >"$d/ibtopo.json" \
		2>"$d/ibtopo.err"
	[ -s "$d/ibtopo.json" ] || fail "$name: ibtopo routes: $(cat "$d/ibtopo.err")"
	ours=$(verdicts_ibtopo <"$d/ibtopo.json")
	[ "$want" = - ] && want=
	info "$name: ibdmchk '$theirs', ibtopo '$ours'"
	[ "$theirs" = "${alt:-$want}" ] ||
		{ grep -- '^-[EW]-' "$d/ibdmchk.out" | head -5 >&2
		  fail "$name: ibdmchk says '$theirs', the case wants '${alt:-$want}'"; }
	[ "$ours" = "$want" ] ||
		fail "$name: ibtopo says '$ours', ibdmchk and the case '$want'"
done || exit 1
exit 0
