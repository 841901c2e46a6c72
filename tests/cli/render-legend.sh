#!/bin/sh
# render-legend.sh - every class a legend lists is drawn in a colour of
# its own (issue 33): in each legend of a set of pictures (the findings'
# colours; --heat errors, ber, traffic, congestion and routes; --diff;
# --plan), no two line samples of one style share a colour or are near
# (CIE76 distance at least 18: "10 to 99" #fd8d3c and "cable problem"
# #ff7f0e were 14 apart, "1000 or more" and "downgraded link" 11), and
# no two samples look alike. A heat map colours every cable by its
# counters or routes: the findings' link colours give way to it and
# leave its legend (the finding stays in the tooltip).
# And the title: a stored snapshot's fabric (by the name metrics gives
# it) and the snapshot, never the host it was taken on; a file's name.
. "$top_srcdir/tests/lib.sh"
python_require
test_env db
T=$TESTDIR
topo=$DATA/ck-cables.topo

copy_at "$DATA/hc-ber-1.txt" "$T/t1.txt" '2026-01-01 10:00:00 UTC'
copy_at "$DATA/hc-ber-2.txt" "$T/t2.txt" '2026-01-01 10:00:10 UTC'
run 0 "$IBTOPO" import "$topo" --counters "$T/t1.txt" --label day1
run 0 "$IBTOPO" import "$topo" --counters "$T/t2.txt" --label day2

n=0
pic() {
	n=$((n + 1))
	run 0 "$IBTOPO" render "$@" -o "$T/p$n.dot"
	echo "$* " >"$T/p$n.what"
}
for k in errors ber traffic congestion; do
	pic 2 --since 1 --heat "$k"
done
pic 2 --heat errors
pic 2
pic "$REAL/tiny-mixed-speeds.topo"
pic "$DATA/sim-small.cache" --routes "$DATA/ir-sim-small-lfts.dump" --heat routes
pic --diff "$DATA/rd-small.topo" "$DATA/rd-small-new.topo"
pic --plan "$DATA/rd-small-plan.topo" "$DATA/rd-small.topo"
pic --plan "$DATA/rd-small-plan.topo" "$DATA/rd-small.topo" --detail groups

"$PYTHON3" - "$T"/p*.dot >"$T/legend.out" <<'PY' || failed=1
import itertools, math, re, sys

def lab(h):
    rgb = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
           for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))

bad = []
for path in sys.argv[1:]:
    what = open(path[:-4] + ".what").read().strip()
    dot = open(path, encoding="utf-8").read()
    legend = re.search(r'CELLSPACING="4">(.*?)</TABLE></TD></TR>', dot, re.S)
    if not legend:
        bad.append("%s: no legend" % what)
        continue
    items = re.findall(r'<TD([^>]*)><FONT POINT-SIZE="[0-9]+" '
                       r'COLOR="(#[0-9a-f]{6})">(.*?)</FONT></TD>'
                       r'<TD ALIGN="LEFT"><FONT POINT-SIZE="[0-9]+">(.*?)</FONT>',
                       legend.group(1))
    lines = [(col, sample, text) for attrs, col, sample, text in items
             if "\u2501" in sample or "\u254d" in sample]
    if len(lines) < 2:
        bad.append("%s: %d legend lines" % (what, len(lines)))
    looks = {}
    for attrs, col, sample, text in items:
        looks.setdefault((attrs, col, sample), []).append(text)
    for look, texts in looks.items():
        if len(texts) > 1:
            bad.append("%s: %s drawn alike" % (what, " and ".join(texts)))
    for (c1, s1, t1), (c2, s2, t2) in itertools.combinations(lines, 2):
        d = math.dist(lab(c1), lab(c2))
        if s1 == s2 and d < 18:
            bad.append("%s: '%s' %s and '%s' %s: %.1f apart" %
                       (what, t1, c1, t2, c2, d))
    # the cables are drawn in the legend's colours
    drawn = set()
    for attrs in re.findall(r'\n\t\S+ -> \S+ \[(.*)\];', dot):
        if "style=invis" in attrs:
            continue
        m = re.search(r'(?:^|[ ,])color="(#[0-9a-f]{6})', attrs)
        drawn.add(m.group(1) if m else "#555555")
    listed = {c for c, _, _ in lines}
    if drawn - listed:
        bad.append("%s: cables in %s, not in the legend" %
                   (what, sorted(drawn - listed)))
    print("%s: %d lines" % (what, len(lines)))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
cat "$T/legend.out"

# the counters heat map: its five steps, and no finding's colour
grep -q '>10 to 99<' "$T/p1.dot" || flunk "errors: no scale"
grep -q '>cable problem' "$T/p1.dot" && flunk "errors: a finding's colour in the legend"
grep -q 'tooltip="spine01 \[1\] -- leaf01 \[39\]: .*(cable problem); errors 85"' \
	"$T/p1.dot" || flunk "errors: the finding left the tooltip"
grep -q '>cable problem' "$T/p6.dot" || flunk "no heat: the finding's colour left"

# ---- the title: the fabric and the snapshot, not the host
fab=$("$IBTOPO" metrics 2 | sed -n 's/^ibtopo_port_state{fabric="\([^"]*\)".*/\1/p' | sed -n 1p)
[ -n "$fab" ] || fail "no fabric name from metrics"
host=$("$IBTOPO" snapshots --format json | "$PYTHON3" -c \
	'import json,sys; print(json.load(sys.stdin)["snapshots"][0].get("host") or "")')
run 0 "$IBTOPO" render 2 -o "$T/t.png"
run 0 "$IBTOPO" render 2 -o "$T/t.html"
grep -q "<B>$fab · snapshot 2 "'“day2”</B>' "$T/p6.dot" ||
	flunk "DOT title: $(grep -o 'SIZE="22"><B>[^<]*' "$T/p6.dot")"
grep -q "<title>$fab · snapshot 2 "'“day2”</title>' "$T/t.html" ||
	flunk "HTML title: $(grep -o '<title>[^<]*</title>' "$T/t.html" | sed -n 1p)"
if [ -n "$host" ]; then
	grep -q "<B>$host</B>\|<title>$host</title>" "$T/p6.dot" "$T/t.html" &&
		flunk "titled with the host '$host'"
fi
# renamed, the fabric keeps the one name everywhere
run 0 "$IBTOPO" fabrics --rename "$fab" lab-a
run 0 "$IBTOPO" render 2 -o "$T/r.dot"
grep -q '<B>lab-a · snapshot 2 “day2”</B>' "$T/r.dot" || flunk "renamed fabric's title"
"$IBTOPO" metrics 2 | grep -q '{fabric="lab-a"' || flunk "metrics: not lab-a"
# a file keeps its name; --title its own, the snapshot in the subtitle
grep -q '<B>tiny-mixed-speeds.topo</B>' "$T/p7.dot" || flunk "file title"
run 0 "$IBTOPO" render 2 --title 'rack 4' -o "$T/x.dot"
grep -q '<B>rack 4</B>' "$T/x.dot" && grep -q '>snapshot 2 “day2” · 20' "$T/x.dot" ||
	flunk "--title: $(grep -o 'SIZE="1[0-9]">[^<]*' "$T/x.dot" | sed -n 1p)"
exit "$failed"
