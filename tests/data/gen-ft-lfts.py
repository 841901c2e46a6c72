#!/usr/bin/env python3
"""A two-level fat tree as ibnetdiscover text, with LIDs, and the forwarding
tables a min-hop subnet manager would give it, as an OpenSM LFT dump. Used
by tests/cli/threads.sh: enough leaves that route tracing splits its work.

usage: gen-ft-lfts.py LEAVES SPINES HOSTS_PER_LEAF TOPO DUMP [faults]

Leaf L has its hosts on ports 1..H and spine S on port H+S; spine S has
leaf L on port L. A destination goes up through spine (LID mod SPINES).
With "faults" a few entries are changed, each on a different leaf: a
black hole, a loop between a leaf and a spine, and a route one spine
longer than it needs (down to the wrong leaf, up again).
"""
import sys


def main():
    nleaf, nspine, nhost = (int(a) for a in sys.argv[1:4])
    topo_path, dump_path = sys.argv[4], sys.argv[5]
    faults = len(sys.argv) > 6 and sys.argv[6] == "faults"
    sw_guid = {}
    lid = {}
    nodes = []  # (kind, name, guid)
    for s in range(nspine):
        nodes.append(("sw", "spine%02d" % (s + 1), 0x1000000000000000 + s + 1))
    for l in range(nleaf):
        nodes.append(("sw", "leaf%02d" % (l + 1), 0x1100000000000000 + l + 1))
    for l in range(nleaf):
        for h in range(nhost):
            i = l * nhost + h
            nodes.append(("ca", "host%03d" % (i + 1), 0x2000000000000000 + (i + 1) * 0x100))
    for n, (kind, name, guid) in enumerate(nodes):
        lid[name] = n + 1
        sw_guid[name] = guid
    spine = ["spine%02d" % (s + 1) for s in range(nspine)]
    leaf = ["leaf%02d" % (l + 1) for l in range(nleaf)]
    host = [["host%03d" % (l * nhost + h + 1) for h in range(nhost)] for l in range(nleaf)]

    def sid(name):
        return "S-%016x" % sw_guid[name]

    def hid(name):
        return "H-%016x" % sw_guid[name]

    def pg(name):
        return "%016x" % (sw_guid[name] + 1)

    out = []
    for s, sn in enumerate(spine):
        out += ["", "switchguid=0x%016x" % sw_guid[sn],
                'Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid %d lmc 0' % (nleaf, sid(sn), sn, lid[sn])]
        for l, ln in enumerate(leaf):
            out.append('[%d]\t"%s"[%d]\t\t# "%s" lid %d 4xHDR' % (l + 1, sid(ln), nhost + s + 1, ln, lid[ln]))
    for l, ln in enumerate(leaf):
        out += ["", "switchguid=0x%016x" % sw_guid[ln],
                'Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid %d lmc 0' % (nhost + nspine, sid(ln), ln, lid[ln])]
        for h, hn in enumerate(host[l]):
            out.append('[%d]\t"%s"[1](%s) \t\t# "%s" lid %d 4xHDR' % (h + 1, hid(hn), pg(hn), hn, lid[hn]))
        for s, sn in enumerate(spine):
            out.append('[%d]\t"%s"[%d]\t\t# "%s" lid %d 4xHDR' % (nhost + s + 1, sid(sn), l + 1, sn, lid[sn]))
    for l, ln in enumerate(leaf):
        for h, hn in enumerate(host[l]):
            out += ["", "caguid=0x%016x" % sw_guid[hn], 'Ca\t1 "%s"\t\t# "%s"' % (hid(hn), hn),
                    '[1](%s) \t"%s"[%d]\t\t# lid %d lmc 0 "%s" lid %d 4xHDR' % (pg(hn), sid(ln), h + 1, lid[hn], ln, lid[ln])]
    with open(topo_path, "w") as f:
        f.write("\n".join(out) + "\n")

    top = len(nodes)
    # where each destination hangs: (leaf index, port on the leaf) or spine
    where = {}
    for s, sn in enumerate(spine):
        where[lid[sn]] = ("spine", s)
    for l, ln in enumerate(leaf):
        where[lid[ln]] = ("leaf", l, 0)
        for h, hn in enumerate(host[l]):
            where[lid[hn]] = ("leaf", l, h + 1)
    names = {lid[n]: n for _, n, _ in nodes}

    def entry_leaf(l, d):
        w = where[d]
        if w[0] == "leaf" and w[1] == l:
            return w[2]
        if w[0] == "spine":
            return nhost + w[1] + 1
        return nhost + d % nspine + 1

    def entry_spine(s, d):
        w = where[d]
        if w[0] == "spine":
            return 0 if w[1] == s else d % nleaf + 1
        return w[1] + 1

    tables = {}
    for s, sn in enumerate(spine):
        tables[sn] = {d: entry_spine(s, d) for d in range(1, top + 1)}
    for l, ln in enumerate(leaf):
        tables[ln] = {d: entry_leaf(l, d) for d in range(1, top + 1)}
    if faults:
        hole = lid[host[nleaf - 1][0]]
        tables[leaf[0]][hole] = 255
        # a loop: leaf 2's hosts' packets for a host of leaf 3 go up to
        # spine s, which sends them down to leaf 2 again
        d = lid[host[2][1]]
        s = d % nspine
        tables[spine[s]][d] = 2
        # longer than needed: leaf 4's packets for a host of leaf 5 go up
        # and down to leaf 6, then up again and down to leaf 5
        d = lid[host[4][0]]
        tables[leaf[3]][d] = nhost + 1
        tables[spine[0]][d] = 6
    out = []
    for sn in spine + leaf:
        out.append("Unicast lids [0-%d] of switch Lid %d guid 0x%016x ('%s'):" % (top, lid[sn], sw_guid[sn], sn))
        for d in range(1, top + 1):
            kind = "Switch" if d <= nspine + nleaf else "Channel Adapter"
            guid = sw_guid[names[d]] + (0 if kind == "Switch" else 1)
            out.append("0x%04x %03d # %s portguid 0x%016x: '%s'" % (d, tables[sn][d], kind, guid, names[d]))
        out.append("%d lids dumped" % top)
    with open(dump_path, "w") as f:
        f.write("\n".join(out) + "\n")


main()
