#!/bin/sh
# health-html-browser.sh - `ibtopo render --heat ber --since REF
# --history -o fabric.html` in headless chromium: the page is still one
# file that loads nothing; #finding=N on the high-ber finding (its row
# names the port, "leaf01 [39]: ...") selects its link, whose details
# show the history of both ends as inline SVG charts (errors, BER,
# traffic over the three snapshots; the congested port's too). The screenshot of that view is
# kept next to the test's log (health-html-browser.png) for a look.
# Exit 77 only when chromium cannot be run.
. "$top_srcdir/tests/lib.sh"
python_require
T=$TESTDIR
test_env db
chrome_require

topo=$DATA/ck-cables.topo
copy_at "$DATA/hc-ber-1.txt" "$T/t1.txt" '2026-01-01 10:00:00 UTC'
copy_at "$DATA/hc-ber-2.txt" "$T/t2.txt" '2026-01-01 10:00:10 UTC'
copy_at "$DATA/hc-ber-2.txt" "$T/t3.txt" '2026-01-01 10:00:20 UTC'
for t in t1 t2 t3; do
	run 0 "$IBTOPO" import "$topo" --counters "$T/$t.txt" || fail "import $t"
done
run 0 "$IBTOPO" render 2 --since 1 --heat ber --history -o "$T/h.html" ||
	fail "render --history"
html=$T/h.html
grep -qi '<link\|<iframe\|@import' "$html" && fail "HTML: loads something"
grep -Eio '(src|href)="(https?:)?//[^"]*' "$html" && fail "HTML: a network URL"

# the high-ber finding's row, and the history the page holds
n=$("$PYTHON3" - "$html" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'id="fabric-data">\n(.*?)\n</script>', page, re.S).group(1))
names = [h["name"] for h in d["history"]]
assert sorted(names) == ["leaf01 [39]", "leaf02 [39]", "spine01 [1]", "spine01 [3]"], names
h = [h for h in d["history"] if h["name"] == "leaf01 [39]"][0]
assert h["err"] == [None, 85, 0] and h["ber"][1] == 4e-11, h
rows = [i for i, f in enumerate(d["findings"]) if f["k"] == "high-ber"]
assert len(rows) == 1 and d["findings"][rows[0]]["t"].startswith("leaf01 [39]: "), d["findings"]
print(rows[0])
PY
) || fail "HTML data: $n"

chrome --dump-dom "file://$html#finding=$n" >"$T/dom.html" ||
	fail "chromium --dump-dom"
grep -q 'class="row on"' "$T/dom.html" || flunk "finding $n: row not on"
grep -q 'class="edge sel"' "$T/dom.html" || flunk "finding $n: link not selected"
got=$(grep -o '<svg class="chart" width="380"' "$T/dom.html" | wc -l)
[ "$got" = 6 ] || flunk "$got charts in the details, wanted 6 (3 per end)"
grep -q '<b>leaf01 \[39\]</b>: 3 snapshots' "$T/dom.html" ||
	flunk "no history of leaf01 [39] in the details"
grep -q 'errors (growth) (max 85)' "$T/dom.html" || flunk "errors chart"

out=$(pwd)/tests/cli
[ -d "$out" ] || out=$T
chrome --screenshot="$out/health-html-browser.png" --window-size=1280,800 \
	"file://$html#finding=$n" >/dev/null || fail "chromium --screenshot"
[ -s "$out/health-html-browser.png" ] || fail "no screenshot"
echo "# screenshot: $out/health-html-browser.png" >&2
exit "$failed"
