#!/bin/sh
# render-heat.sh - `ibtopo render --heat routes` (issue 15) on
# tests/data/sim-small.cache with the OpenSM dump OpenSM wrote for it
# (tests/data/ir-sim-small-lfts.dump), no golden file: each cable's
# routes, the busier direction, counted from `ibtopo routes --format
# json` (the switch out-ports), against the DOT edge's colour and width:
# each cable's colour its load against perfect balance (a level's routes
# one way spread evenly over its ports: 1x), in steps at 1, 1.25, 1.5 and
# 2 times, never cooler for more load; the legend's scale and 1x; the
# HTML's routes each way summing to the ports'; the overview; and the
# errors (no tables, bad --heat, --routes alone: exit 2).
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
LC_ALL=C
export LC_ALL

fab=$DATA/sim-small.cache
dump=$DATA/ir-sim-small-lfts.dump
T=$TESTDIR

run 0 "$IBTOPO" routes "$fab" --routes "$dump" --bisections 0 --fail-on never --format json
mv "$T/out" "$T/routes.json"
run 0 "$IBTOPO" render "$fab" --routes "$dump" --heat routes -o "$T/heat.dot"
run 0 "$IBTOPO" render "$fab" --routes "$dump" --heat routes -o "$T/heat.html"

got=$(python3 - "$T/routes.json" "$T/heat.dot" "$T/heat.html" <<'PY'
import json, re, sys
rp = json.load(open(sys.argv[1]))["routes"]["ports"]
ports = {(p["node"], p["port"]): p["routes"] for p in rp}
cls = {(p["node"], p["port"]): (p["level"], p["up"]) for p in rp}
# perfect balance: a level's routes one way spread evenly, rounded up
tot, cnt = {}, {}
for p in rp:
    k = (p["level"], p["up"])
    tot[k] = tot.get(k, 0) + p["routes"]
    cnt[k] = cnt.get(k, 0) + 1
ref = {k: -(-tot[k] // cnt[k]) for k in tot}
def load(end):
    return ports[end] / ref[cls[end]] if end in ports and ref[cls[end]] else 0
def step(x):
    return sum(x > b + 1e-9 for b in (1.0, 1.25, 1.5, 2.0))
palette = ["#fed976", "#feb24c", "#fd8d3c", "#f03b20", "#bd0026"]
dot = open(sys.argv[2]).read()
edges = re.findall(r'\n\t\S+ -> \S+ \[(.*)\];', dot)
out = []
seen = []
for attrs in edges:
    if "style=invis" in attrs:  # the order of a rank
        continue
    tip = re.search(r'tooltip="([^"]*)"', attrs).group(1)
    m = re.match(r'(\S+)(?: mlx\S*)? \[(\d+)\] -- (\S+)(?: mlx\S*)? \[(\d+)\]', tip)
    a, b = (m.group(1), int(m.group(2))), (m.group(3), int(m.group(4)))
    heat = max(ports.get(a, 0), ports.get(b, 0))
    x = max(load(a), load(b))
    color = re.search(r'color="([^"]*)"', attrs).group(1)
    width = float(re.search(r'penwidth=([0-9.]+)', attrs).group(1))
    if palette.index(color) != step(x):
        out.append("%s-%s load %.2f in step %d" % (a, b, x, palette.index(color)))
    seen.append((x, palette.index(color), width, heat))
hot = max(h for _, _, _, h in seen)
for x in seen:
    for y in seen:
        if x[0] < y[0] and (x[1] > y[1] or x[2] > y[2]):
            out.append("%r hotter than %r" % (x, y))
if not any(h == 0 for _, _, _, h in seen):
    out.append("no unused cable to check")
if len(set(k for _, k, _, _ in seen)) < 3:
    out.append("fewer than 3 steps drawn")
refs = sorted(set(ref.values()) - {0})
bal = "%d" % refs[0] if len(refs) == 1 else "%d to %d" % (refs[0], refs[-1])
for want in ("perfect balance: %s routes a port" % bal,
             "balanced or under", "over 2\u00d7", "CA routes per cable"):
    if want not in dot:
        out.append("legend lacks " + want)
html = open(sys.argv[3]).read()
both = sum(int(d) + (0 if u == '"?"' else int(u)) for d, u in
           re.findall(r'"routes":\{"down":(\d+),"up":(\d+|"\?"),"busiest":\d+\}', html))
if html.count('"up":"?"') != 5:  # host01 has two ports
    out.append("host links' up routes: %d unknown" % html.count('"up":"?"'))
if both != sum(ports.values()):
    out.append("html routes %d, ports %d" % (both, sum(ports.values())))
print("%d edges %d hottest %s" % (len(seen), hot, "; ".join(out) or "ok"))
PY
)
[ "$got" = "9 edges 4 hottest ok" ] || flunk "heat map: $got"

# the overview: one bundle, spines to leaves; its routes each way are
# the sums of the spines' down ports (2+0+0+3) and of the leaves' up
# ports (0+3+2+0), its heat the busiest cable's (3), said in the legend:
# 1.5 times the 2 routes a port of perfect balance
run 0 "$IBTOPO" render "$fab" --routes "$dump" --heat routes --detail groups \
	-o "$T/groups.dot"
grep -q 'a bundle: its busiest' "$T/groups.dot" || flunk "overview legend"
grep -q '>perfect balance: 2 routes a port' "$T/groups.dot" ||
	flunk "overview: scale"
grep -q ' -> .*color="#fd8d3c"' "$T/groups.dot" ||
	flunk "overview: bundle not 1.25x to 1.5x"
grep -q 'routes → 5, ← 5, busiest cable 3"' "$T/groups.dot" ||
	flunk "overview: $(grep -o 'routes [^"]*' "$T/groups.dot")"

# errors
run 2 "$IBTOPO" render "$fab" --heat routes -o "$T/x.dot"
grep -q 'no forwarding tables' "$T/err" || flunk "no tables: $(cat "$T/err")"
[ ! -e "$T/x.dot" ] || flunk "no tables: wrote a file"
run 2 "$IBTOPO" render "$fab" --heat bandwidth -o "$T/x.dot"
run 2 "$IBTOPO" render "$fab" --routes "$dump" -o "$T/x.dot"
exit $failed
