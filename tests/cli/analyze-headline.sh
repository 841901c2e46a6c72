#!/bin/sh
# analyze-headline.sh - the headline figures of `analyze` are those of its
# own level table (issue 23, item 13): on every fixture, the headline
# bisection bandwidth is the table's narrowest BISECTION, and where the
# fabric has two levels the blocking factor is the leaves' OVERSUB, as
# printed (a dump with servers cabled to a spine said 2.47:1 over a table
# of 2.42:1). JSON carries the same figures.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env
python_require

checked=0
for f in "$REAL"/*.topo "$REAL"/*.txt "$DATA"/*.topo "$DATA"/*.net \
	"$DATA"/*.cache; do
	"$IBTOPO" analyze "$f" >"$tmp/text" 2>/dev/null
	"$IBTOPO" analyze --format json "$f" >"$tmp/json" 2>/dev/null
	grep -q '^Blocking factor' "$tmp/text" || continue
	checked=$((checked + 1))
	"$PYTHON3" - "$tmp/text" "$tmp/json" <<'PY' || flunk "$f: $(cat "$tmp/why")"
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
j = json.load(open(sys.argv[2]))["topology"]
why = open(sys.argv[1].replace("text", "why"), "w")
head = [l for l in text if l.startswith("Blocking factor")][0]
m = re.match(r"Blocking factor (\S+); bisection bandwidth (.+)$", head)
ratio, bis = m.group(1), m.group(2)
i = [n for n, l in enumerate(text) if l.lstrip().startswith("LEVEL ")][0]
rows = []
for l in text[i + 1:]:
    if not l.strip():
        break
    rows.append(re.split(r"\s{2,}", l.strip()))
# the columns: ..., DOWN BW, UP BW, OVERSUB, BISECTION (the last three)
cut = [r for r in rows if r[-1] != "-"]
bad = []
def gbps(s):
    v, u = s.split()
    return float(v) * (1000 if u == "Tb/s" else 1)
if cut and bis != "unknown":
    narrow = min(cut, key=lambda r: gbps(r[-1]))[-1]
    if narrow != bis:
        bad.append("headline bisection %s, table's narrowest %s" % (bis, narrow))
    lv = min((b["bisection_gbps"] for b in j["by_level"]
              if b["bisection_gbps"]), default=None)
    if lv is not None and abs(lv - j["bisection_gbps"]) > 1e-4 * lv:
        bad.append("json bisection %s, levels' %s" % (j["bisection_gbps"], lv))
if len(rows) == 2 and cut and cut[0][-2] != ratio:
    bad.append("headline blocking %s, leaves' OVERSUB %s" % (ratio, cut[0][-2]))
if len(rows) == 2:
    ov = [b["oversubscription"] for b in j["by_level"] if b["level"] == 1]
    if ov and ov[0] and abs(ov[0] - j["blocking_factor"]) > 1e-4 * ov[0]:
        bad.append("json blocking %s, leaves' %s" % (j["blocking_factor"], ov[0]))
why.write("; ".join(bad))
sys.exit(1 if bad else 0)
PY
done
[ "$checked" -ge 15 ] || flunk "only $checked fixtures have a blocking factor"
exit "$failed"
