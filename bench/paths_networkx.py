#!/usr/bin/env python3
"""Check ibtopo's leaf-pair edge-disjoint counts against networkx.

usage: paths_networkx.py SWITCH_GRAPH LEAF_PAIRS IBTOPO_SECONDS [FLOW]

SWITCH_GRAPH: one line per cable between two switches, "a<TAB>b".
LEAF_PAIRS: "a<TAB>b<TAB>count" for every pair of leaf switches, as
gen-fabric --bench writes them. Builds the same switch graph (cables
between two switches summed into one capacity), computes its Gomory-Hu
tree with networkx, reads every leaf pair's minimum cut off the tree and
compares. FLOW names the networkx flow function (default
edmonds_karp, networkx's own default and its fastest on this graph).
Prints the time, the speedup over IBTOPO_SECONDS, peak memory and the
number of mismatches; exits 1 on any mismatch.
"""
import resource
import sys
import time
from collections import defaultdict

import networkx as nx
from networkx.algorithms import flow as nxflow


def main():
    graph_path, pairs_path, ours = sys.argv[1], sys.argv[2], float(sys.argv[3])
    flow_name = sys.argv[4] if len(sys.argv) > 4 else "edmonds_karp"
    flow_func = getattr(nxflow, flow_name)

    cap = defaultdict(int)
    with open(graph_path) as f:
        for line in f:
            a, b = line.rstrip("\n").split("\t")
            cap[tuple(sorted((a, b)))] += 1
    g = nx.Graph()
    for (a, b), c in cap.items():
        g.add_edge(a, b, capacity=c)

    pairs = []
    with open(pairs_path) as f:
        for line in f:
            a, b, n = line.rstrip("\n").split("\t")
            pairs.append((a, b, int(n)))
    leaves = sorted({p[0] for p in pairs} | {p[1] for p in pairs})

    t0 = time.monotonic()
    tree = nx.gomory_hu_tree(g, flow_func=flow_func)
    # the minimum cut between two leaves is the lightest tree edge between them
    cut = {}
    for s in leaves:
        best = {s: float("inf")}
        stack = [s]
        while stack:
            u = stack.pop()
            for v, d in tree[u].items():
                if v not in best:
                    best[v] = min(best[u], d["weight"])
                    stack.append(v)
        cut[s] = best
    t1 = time.monotonic()

    bad = 0
    for a, b, n in pairs:
        want = cut[a][b]
        if want != n:
            bad += 1
            if bad <= 5:
                print("mismatch %s - %s: ibtopo %d, networkx %s" % (a, b, n, want))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    nx_s = t1 - t0
    print("networkx %s: %d switches, %d switch pairs cabled, %d leaf pairs"
          % (nx.__version__, g.number_of_nodes(), g.number_of_edges(), len(pairs)))
    print("networkx_gomory_hu_seconds %.3f (flow %s)" % (nx_s, flow_name))
    print("networkx_peak_rss_kb %d" % peak)
    print("speedup %.0fx" % (nx_s / ours if ours > 0 else float("inf")))
    print("mismatches %d" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
