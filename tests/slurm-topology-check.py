#!/usr/bin/env python3
"""slurm-topology-check.py - read a Slurm topology.conf (topology/tree) the
way slurmctld does and report what would stop it or make it warn.

    slurm-topology-check.py [--nodes HOSTLIST] topology.conf

It follows the tree plugin (src/plugins/topology/tree/switch_record.c):
each line is SwitchName= with Nodes= or Switches= (not both); switch
names are unique; a switch with Nodes= (or neither) is a leaf at level 0;
a switch with Switches= is one level above its highest child, resolved
in passes over the file in its order, more than 21 passes (a cycle, or a
child listed after its parent too often) being "Switch configuration is
not a tree"; a child must name another, defined switch. Names in Nodes=
and Switches= are hostlist expressions (prefix[1-3,07-09]suffix, several
bracket groups multiply out, commas outside brackets separate).

A line with neither Nodes= nor Switches= is an error, as slurmctld 22.05
has it ("switch X has neither child switches nor nodes", then fatal).
These warnings of slurmctld count as failures here: no switch whose
descendants reach every node ("no switch can reach all nodes"), and with
--nodes, a node no switch reaches ("switches lack access to nodes").
Without --nodes, the nodes are those that Nodes= lists. A node under more
than one leaf is fine for Slurm, which only warns ("WARNING: Multiple leaf
switches contain nodes"): so here it is a "note:" line that does not fail.

Exit 0 and a one-line summary (after any notes) when the file is fine; 1
and one line per problem ("fatal: ...", "error: ...", "warning: ...")
otherwise; 2 on a usage error or an unreadable file.
The rules were checked against Debian 12's slurmctld 22.05.8
(tests/integration/slurm-real.sh runs it).
"""

import re
import sys

HOST_NAME_MAX = 64
MAX_PASSES = 21		# slurmctld: "if (depth > 20) fatal(...)" after pass 21


class ConfError(Exception):
    pass


def _split_top(expr):
    """Split at commas and blanks outside brackets."""
    parts, depth, cur = [], 0, ""
    for c in expr:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth < 0:
                raise ConfError("unbalanced ']' in hostlist '%s'" % expr)
        if depth == 0 and (c == "," or c.isspace()):
            if cur:
                parts.append(cur)
            cur = ""
            continue
        cur += c
    if depth:
        raise ConfError("unbalanced '[' in hostlist '%s'" % expr)
    if cur:
        parts.append(cur)
    return parts


def _range_values(body, expr):
    out = []
    for item in body.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", item)
        if not m:
            raise ConfError("bad range '%s' in hostlist '%s'" % (item, expr))
        lo_s, hi_s = m.group(1), m.group(2)
        lo = int(lo_s)
        hi = int(hi_s) if hi_s is not None else lo
        if hi < lo:
            raise ConfError("range '%s' runs backwards in '%s'" % (item, expr))
        if hi - lo >= 65536:
            raise ConfError("range '%s' too large in '%s'" % (item, expr))
        width = len(lo_s)
        out.extend("%0*d" % (width, v) for v in range(lo, hi + 1))
    return out


def _expand_one(word, expr):
    m = re.search(r"\[([^\[\]]*)\]", word)
    if not m:
        if "[" in word or "]" in word:
            raise ConfError("bad brackets in hostlist '%s'" % expr)
        return [word]
    head, tail = word[:m.start()], word[m.end():]
    out = []
    for v in _range_values(m.group(1), expr):
        out.extend(_expand_one(head + v + tail, expr))
    return out


def hostlist_expand(expr):
    """Expand a Slurm hostlist expression into names, in order."""
    names = []
    for word in _split_top(expr):
        names.extend(_expand_one(word, expr))
    return names


def parse(text):
    """Lines -> list of dicts {name, nodes, switches, line}."""
    switches = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        rec = {"line": lineno}
        for i, tok in enumerate(line.split()):
            if "=" not in tok:
                raise ConfError("line %d: '%s' is not key=value" % (lineno, tok))
            key, val = tok.split("=", 1)
            key = key.lower()
            if i == 0 and key != "switchname":
                raise ConfError("line %d: unknown key '%s'" % (lineno, key))
            if key not in ("switchname", "nodes", "switches", "linkspeed"):
                raise ConfError("line %d: unknown key '%s'" % (lineno, key))
            if key in rec:
                raise ConfError("line %d: '%s' given twice" % (lineno, key))
            rec[key] = val
        name = rec.get("switchname", "")
        if not name:
            raise ConfError("line %d: Can't create a switch without a name"
                            % lineno)
        if len(name) > HOST_NAME_MAX:
            raise ConfError("line %d: SwitchName (%s) must be shorter than %d "
                            "chars" % (lineno, name, HOST_NAME_MAX))
        if "nodes" not in rec and "switches" not in rec:
            raise ConfError("line %d: switch %s has neither child switches "
                            "nor nodes" % (lineno, name))
        if "nodes" in rec and "switches" in rec:
            raise ConfError("line %d: switch %s has both child switches and "
                            "nodes" % (lineno, name))
        switches.append({"name": name, "line": lineno,
                         "nodes": rec.get("nodes"),
                         "switches": rec.get("switches")})
    return switches


def check(text, all_nodes=None):
    """Return (problems, summary, notes)."""
    problems, notes = [], []
    try:
        sws = parse(text)
    except ConfError as e:
        return ["error: %s" % e], None, []
    if not sws:
        return ["fatal: No switches configured"], None, []
    index = {}
    for i, s in enumerate(sws):
        if s["name"] in index:
            return ["fatal: Switch (%s) has already been defined" % s["name"]], None, []
        index[s["name"]] = i

    leaf_of = {}			# node -> leaf switches listing it
    level = [None] * len(sws)
    below = [set() for _ in sws]
    children = [[] for _ in sws]
    try:
        for i, s in enumerate(sws):
            if s["nodes"] is not None:
                for n in hostlist_expand(s["nodes"]):
                    leaf_of.setdefault(n, []).append(s["name"])
                    below[i].add(n)
            if s["switches"] is not None:
                children[i] = hostlist_expand(s["switches"])
                if not children[i]:
                    raise ConfError("switch %s: Switches= names no switch"
                                    % s["name"])
                level[i] = -1
            else:
                level[i] = 0
    except ConfError as e:
        return ["fatal: Invalid switches or nodes: %s" % e], None, []

    # slurmctld's passes: a switch resolves once all its children have
    passes = 0
    while True:
        passes += 1
        resolved = True
        for i, s in enumerate(sws):
            if level[i] != -1:
                continue
            lv = -1
            acc = set()
            for child in reversed(children[i]):	# hostlist_pop: from the end
                j = index.get(child)
                if j is None or j == i:
                    return ["fatal: Switch configuration %s has invalid child "
                            "(%s)" % (s["name"], child)], None, []
                if level[j] == -1:
                    resolved = False
                    lv = -1
                    break
                lv = max(lv, level[j] + 1)
                acc |= below[j]
            else:
                level[i] = lv
                below[i] = acc
        if resolved:
            break
        if passes >= MAX_PASSES:
            stuck = [s["name"] for i, s in enumerate(sws) if level[i] == -1]
            return ["fatal: Switch configuration is not a tree (unresolved: "
                    "%s)" % ",".join(stuck[:8])], None, []

    nodes = set(leaf_of)
    if all_nodes is not None:
        missing = sorted(set(all_nodes) - nodes)
        if missing:
            problems.append("warning: switches lack access to %d nodes: %s"
                            % (len(missing), ",".join(missing[:8])))
        unknown = sorted(nodes - set(all_nodes))
        if unknown:
            problems.append("warning: Invalid hostnames in switch "
                            "configuration: %s" % ",".join(unknown[:8]))
        nodes = set(all_nodes)
    multi = sorted(n for n, l in leaf_of.items() if len(l) > 1)
    if multi:
        notes.append("note: Multiple leaf switches contain nodes: %s "
                        "(%s under %s)" % (",".join(multi[:8]), multi[0],
                                           ",".join(leaf_of[multi[0]])))
    roots = [s["name"] for i, s in enumerate(sws) if nodes and below[i] >= nodes]
    if nodes and not roots:
        problems.append("warning: TOPOLOGY: no switch can reach all nodes "
                        "through its descendants")
    summary = ("ok: %d switches, %d nodes, %d levels, top %s" %
               (len(sws), len(nodes), max(level) + 1 if sws else 0,
                roots[0] if roots else "-"))
    return problems, summary, notes


def main(argv):
    args = argv[1:]
    all_nodes = None
    if len(args) == 3 and args[0] == "--nodes":
        try:
            all_nodes = hostlist_expand(args[1])
        except ConfError as e:
            print("slurm-topology-check: --nodes: %s" % e, file=sys.stderr)
            return 2
        args = args[2:]
    if len(args) != 1:
        print("usage: slurm-topology-check.py [--nodes HOSTLIST] FILE",
              file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0]) as f:
                text = f.read()
    except OSError as e:
        print("slurm-topology-check: %s: %s" % (args[0], e.strerror),
              file=sys.stderr)
        return 2
    problems, summary, notes = check(text, all_nodes)
    for n in notes:
        print(n)
    if problems:
        for p in problems:
            print(p)
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
