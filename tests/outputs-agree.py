#!/usr/bin/env python3
"""outputs-agree.py - every output of one fabric says what analyze says.

Usage: outputs-agree.py IBTOPO WORKDIR FABRIC [--metrics-file F] [OPTION...]

Runs `analyze --format json`, `metrics`, `export --format slurm` and
`render --format dot` on FABRIC (a file, or REF with --db in OPTION), each
with the same analysis OPTIONs (--roots, --root-pattern, --servers, --db),
and checks that they agree:
- the same downgraded links: the ends of analyze's speed- and
  width-downgrade findings (warnings and errors) are exactly the ports
  whose ibtopo_port_rate_bytes_per_second is below
  ibtopo_port_possible_rate_bytes_per_second;
- the same findings: analyze's by kind and severity are metrics'
  ibtopo_fabric_findings;
- the same levels: every `rank=same` line of the DOT holds switches of one
  analyze level, the levels falling down the page; without directors,
  rails or groups, the Slurm leaves (SwitchName=... Nodes=) are analyze's
  level-1 switches;
- the same names for the same GUID: metrics' node label, the Slurm names
  and the DOT labels, wherever the name is a real one (not S-/H-<guid>);
- the same fabric name: metrics' fabric label, the Slurm file's, and
  analyze's for a snapshot.
With --metrics-file, the metrics are that file's (what `serve` served)
instead of `metrics FABRIC`'s. Prints one line per fabric, the numbers compared; exits 1 on the first
disagreement, naming it.
"""
import json
import re
import subprocess
import sys


def run(cmd, ok=(0, 1)):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode not in ok:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(cmd), p.returncode,
                                             p.stderr.strip()[-400:]))
    return p


def fail(fabric, what):
    sys.exit("FAIL: %s: %s" % (fabric, what))


LABELS = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def metrics_series(text):
    """{name: [(labels dict, value)]} of the exposition text."""
    out = {}
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        m = re.match(r"([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$", line)
        if not m:
            continue
        labels = dict(LABELS.findall(m.group(3) or ""))
        out.setdefault(m.group(1), []).append((labels, float(m.group(4))))
    return out


def guid_of(s):
    return int(s, 16)


def main():
    ibtopo, work, fabric = sys.argv[1], sys.argv[2], sys.argv[3]
    opts = sys.argv[4:]
    mfile = None
    if opts[:1] == ["--metrics-file"]:
        mfile, opts = opts[1], opts[2:]
    a = json.loads(run([ibtopo, "analyze", fabric] + opts +
                       ["--format", "json", "--fail-on", "never"]).stdout)
    m = metrics_series(open(mfile).read() if mfile else
                       run([ibtopo, "metrics", fabric] + opts).stdout)
    slurm = run([ibtopo, "export", fabric] + opts +
                ["--format", "slurm", "--host-names", "guid"], ok=(0, 2))
    dot_path = "%s/agree.dot" % work
    run([ibtopo, "render", fabric] + opts + ["-o", dot_path])
    dot = open(dot_path).read()

    # ---- downgraded links
    want = set()
    for f in a["findings"]:
        if f["kind"] in ("speed-downgrade", "width-downgrade") and \
                f["severity"] != "info":
            for end in ("a", "b"):
                e = f.get(end)
                if e and e.get("guid") and e.get("port") is not None:
                    want.add((guid_of(e["guid"]), e["port"]))
    rate = {}
    for labels, v in m.get("ibtopo_port_rate_bytes_per_second", []):
        rate[(guid_of(labels["node_guid"]), int(labels["port"]))] = v
    got = set()
    for labels, v in m.get("ibtopo_port_possible_rate_bytes_per_second", []):
        key = (guid_of(labels["node_guid"]), int(labels["port"]))
        if rate.get(key, v) < v - 1e-6:
            got.add(key)
    if want != got:
        fail(fabric, "downgraded ports: analyze %s, metrics %s" %
             (sorted(want - got)[:4], sorted(got - want)[:4]))

    # ---- findings by kind and severity
    count = {}
    for f in a["findings"]:
        k = (f["kind"], f["severity"])
        count[k] = count.get(k, 0) + 1
    mcount = {}
    for labels, v in m.get("ibtopo_fabric_findings", []):
        mcount[(labels["kind"], labels["severity"])] = int(v)
    if count != mcount:
        fail(fabric, "findings: analyze %s, metrics %s" % (count, mcount))

    # ---- names per GUID (metrics' node label is ibtopo's name rule)
    name = {}
    for labels, _ in (m.get("ibtopo_port_info", []) +
                      m.get("ibtopo_node_info", [])):
        g = guid_of(labels["node_guid"])
        if name.setdefault(g, labels["node"]) != labels["node"]:
            fail(fabric, "two names for 0x%016x in metrics" % g)
    real = {g: n for g, n in name.items()
            if not re.match(r"^[SHR]-[0-9a-f]{16}$", n)}
    dot_labels = dict((int(g, 16), lab.replace("\\n", "")) for g, lab in re.findall(
        r'^\s*n([0-9a-f]{16}) \[label="([^"]*)"', dot, re.M))
    named = 0
    for g, lab in dot_labels.items():
        if g in real and " " not in lab and "/" not in lab:
            named += 1
            if lab != real[g]:
                fail(fabric, "0x%016x: metrics '%s', diagram '%s'" %
                     (g, real[g], lab))

    # ---- levels per switch
    level = {}
    for lv in a.get("topology", {}).get("by_level", []):
        for g in lv.get("switch_guids", []):
            level[guid_of(g)] = lv["level"]
    last = None
    for line in re.findall(r"\{ rank=same; ([^}]*)\}", dot):
        ids = [x.strip() for x in line.split(";")]
        ls = {level[int(x[1:], 16)] for x in ids
              if re.match(r"n[0-9a-f]{16}$", x) and int(x[1:], 16) in level}
        if len(ls) > 1:
            fail(fabric, "one DOT rank holds levels %s" % sorted(ls))
        if ls:
            lv = ls.pop()
            if last is not None and lv > last:
                fail(fabric, "DOT ranks level %d below level %d" % (lv, last))
            last = lv
    t = a.get("topology", {})
    plain = t.get("class") in ("fat-tree", "star", "single-switch") and \
        t.get("chassis") == t.get("switches")
    leaves = 0
    if slurm.returncode == 0 and plain:
        by_name = {}
        for g, n in name.items():
            by_name.setdefault(n, set()).add(g)
        for sw in re.findall(r"^SwitchName=(\S+) Nodes=", slurm.stdout, re.M):
            gs = by_name.get(sw, set())
            if not gs:
                continue        # a name the export had to change
            leaves += 1
            if any(level.get(g) != 1 for g in gs):
                fail(fabric, "Slurm leaf %s is at level %s in analyze" %
                     (sw, [level.get(g) for g in gs]))

    # ---- fabric name
    fnames = {labels["fabric"] for labels, _ in
              m.get("ibtopo_port_state", []) + m.get("ibtopo_fabric_links", [])}
    if slurm.returncode == 0:
        fl = re.search(r"^# fabric: (\S+)$", slurm.stdout, re.M)
        if fl:
            fnames.add(fl.group(1))
    if a.get("fabric"):
        fnames.add(a["fabric"])
    if len(fnames) > 1:
        fail(fabric, "fabric names %s" % sorted(fnames))

    print("ok %s: %d downgraded ports, %d findings, %d names, %d levelled "
          "switches, %d Slurm leaves, fabric %s" %
          (fabric, len(want), sum(count.values()), named, len(level), leaves,
           fnames.pop() if fnames else "-"))


main()
