#!/usr/bin/env python3
"""An independent count of what `ibtopo whatif` reports, with networkx.

  whatif-check.py fail TOPO SPEC...   the rows of `whatif --format csv`
                                      this script checks, as it counts them
  whatif-check.py each TOPO           per switch failed alone:
                                      name,isolated,became_single_homed,
                                      pairs_dropped,pairs_cut (by name)
  whatif-check.py each-cable TOPO     the same per cable, named
                                      A:PORT-B:PORT (A the lower GUID)

TOPO is ibnetdiscover text. SPEC is a node's name (a switch's
description, a CA's host word) or NAME:PORT, a cable by one end. The
definitions are the ones the man page gives: a server is the CAs of one
system image GUID; it is isolated when none of its links reaches the
part of the switch graph most server links reach, single-homed when
those that do end on one switch; leaves are the switches with servers;
node-disjoint paths between two leaves share no switch, parallel cables
between them being separate paths; levels count up from the leaves.
"""
import re
import statistics
import sys

import networkx as nx


def parse(path):
    nodes, links, sysimg = {}, set(), None
    cur = None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"sysimgguid=0x([0-9a-fA-F]+)", line)
        if m:
            sysimg = int(m.group(1), 16)
            continue
        m = re.match(r'(Switch|Ca)\s+\d+\s+"[SH]-([0-9a-fA-F]+)"\s+#\s+"([^"]*)"',
                     line)
        if m:
            cur = int(m.group(2), 16)
            desc = m.group(3)
            nodes[cur] = {"switch": m.group(1) == "Switch", "desc": desc,
                          "sysimg": sysimg or cur,
                          "name": desc.split()[0] if desc else "%x" % cur}
            continue
        m = re.match(r'\[(\d+)\](?:\([0-9a-fA-Fx]+\))?\s+"[SH]-([0-9a-fA-F]+)"\[(\d+)\]',
                     line)
        if m and cur is not None:
            a = (cur, int(m.group(1)))
            b = (int(m.group(2), 16), int(m.group(3)))
            links.add((a, b) if a < b else (b, a))
    return nodes, sorted(links)


class Fabric:
    def __init__(self, path):
        self.nodes, self.links = parse(path)
        self.servers = {}
        for g, n in self.nodes.items():
            if not n["switch"]:
                self.servers.setdefault(n["sysimg"], []).append(g)

    def is_sw(self, g):
        return self.nodes[g]["switch"]

    def state(self, dead_nodes, dead_links):
        """Per server: 0 isolated, 1 single-homed, 2 on several switches;
        the live switch multigraph; the leaves."""
        g = nx.Graph()
        live = [l for l in self.links if l not in dead_links and
                l[0][0] not in dead_nodes and l[1][0] not in dead_nodes]
        sw = [x for x in self.nodes if self.is_sw(x) and x not in dead_nodes]
        g.add_nodes_from(sw)
        attach = {}     # CA guid -> live switches
        for (a, _), (b, _) in live:
            if self.is_sw(a) and self.is_sw(b):
                m = g.get_edge_data(a, b, {"m": 0})["m"]
                g.add_edge(a, b, m=m + 1)
            elif self.is_sw(a) != self.is_sw(b):
                ca, s = (b, a) if self.is_sw(a) else (a, b)
                attach.setdefault(ca, []).append(s)
        comp = {}
        for i, c in enumerate(nx.connected_components(g)):
            for x in c:
                comp[x] = i
        weight = {}
        for sws in attach.values():
            for s in sws:
                weight[comp[s]] = weight.get(comp[s], 0) + 1
        main = max(sorted(weight), key=lambda c: weight[c]) if weight else None
        state, leaves = {}, set()
        for srv, cas in self.servers.items():
            reach = set()
            for ca in cas:
                for s in attach.get(ca, []):
                    leaves.add(s)
                    if comp[s] == main:
                        reach.add(s)
            state[srv] = min(len(reach), 2)
        return state, g, leaves

    def pairs(self, g, leaves):
        out = {}
        ls = sorted(leaves)
        for i, a in enumerate(ls):
            for b in ls[i + 1:]:
                h = g.copy()
                m = 0
                if h.has_edge(a, b):
                    m = h[a][b]["m"]
                    h.remove_edge(a, b)
                out[(a, b)] = m + nx.algorithms.connectivity.\
                    local_node_connectivity(h, a, b)
        return out

    def up_links(self, g, leaves):
        dist = nx.multi_source_dijkstra_path_length(g, leaves) if leaves else {}
        up = {}
        for a, b, d in g.edges(data=True):
            if a not in dist or b not in dist or dist[a] == dist[b]:
                continue
            lo = min(dist[a], dist[b]) + 1
            up[lo] = up.get(lo, 0) + d["m"]
        top = max(dist.values()) + 1 if dist else 0
        return {lv: up.get(lv, 0) for lv in range(1, top + 1)}

    def figures(self, dead_nodes=(), dead_links=()):
        state, g, leaves = self.state(set(dead_nodes), set(dead_links))
        pairs = self.pairs(g, leaves)
        vals = sorted(pairs.values())
        return {"state": state, "pairs": pairs,
                "isolated": sum(1 for s in state.values() if s == 0),
                "single_homed": sum(1 for s in state.values() if s == 1),
                "leaf_pairs": len(vals),
                "node_disjoint_min": vals[0] if vals else 0,
                "node_disjoint_median": statistics.median(vals) if vals else 0,
                "up_links": self.up_links(g, leaves)}

    def find(self, name):
        hits = [g for g, n in self.nodes.items()
                if n["name"] == name or n["desc"] == name]
        if len(hits) != 1:
            sys.exit("whatif-check: '%s' names %d nodes" % (name, len(hits)))
        return hits[0]

    def resolve(self, specs):
        dn, dl = set(), set()
        for spec in specs:
            if ":" in spec:
                name, port = spec.rsplit(":", 1)
                end = (self.find(name), int(port))
                dl.update(l for l in self.links if end in l)
            else:
                dn.add(self.find(spec))
        return dn, dl


def compare(before, after):
    dropped = cut = 0
    for p, v in before["pairs"].items():
        if p in after["pairs"]:
            w = after["pairs"][p]
            dropped += w < v
            cut += w == 0
    became = sum(1 for s, v in after["state"].items()
                 if v == 1 and before["state"][s] == 2)
    new_iso = sum(1 for s, v in after["state"].items()
                  if v == 0 and before["state"][s] != 0)
    return dropped, cut, became, new_iso


def main():
    mode, f = sys.argv[1], Fabric(sys.argv[2])
    before = f.figures()
    if mode == "fail":
        dn, dl = f.resolve(sys.argv[3:])
        after = f.figures(dn, dl)
        for key in ("isolated", "single_homed", "leaf_pairs",
                    "node_disjoint_min", "node_disjoint_median"):
            print("%s,%s,%s" % (key, format(before[key], "g"),
                                format(after[key], "g")))
        for lv in sorted(set(before["up_links"]) | set(after["up_links"])):
            print("level_%d_up_links,%s,%s" % (
                lv, before["up_links"].get(lv, ""),
                after["up_links"].get(lv, "")))
        dropped, cut, became, _ = compare(before, after)
        print("pairs_dropped,,%d\npairs_cut,,%d\nbecame_single_homed,,%d" %
              (dropped, cut, became))
        return
    rows = []
    if mode == "each-cable":
        for link in f.links:
            after = f.figures((), {link})
            dropped, cut, became, new_iso = compare(before, after)
            (a, pa), (b, pb) = link
            rows.append("%s:%d-%s:%d,%d,%d,%d,%d" % (
                f.nodes[a]["name"], pa, f.nodes[b]["name"], pb, new_iso,
                became, dropped, cut))
        print("\n".join(sorted(rows)))
        return
    for g, n in f.nodes.items():
        if not n["switch"]:
            continue
        after = f.figures({g}, ())
        dropped, cut, became, new_iso = compare(before, after)
        rows.append("%s,%d,%d,%d,%d" % (n["name"], new_iso, became,
                                        dropped, cut))
    print("\n".join(sorted(rows)))


if __name__ == "__main__":
    main()
