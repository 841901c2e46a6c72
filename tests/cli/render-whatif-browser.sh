#!/bin/sh
# render-whatif-browser.sh - the HTML page of `render --whatif SPEC
# --job HOSTLIST` (issue 37) in headless chromium, as
# render-html-browser.sh loads pages: a node found with #search=NAME
# says in its details that it fails, or that it is the job's host, and
# only those nodes do; the inline SVG the browser holds draws exactly
# the failed node's two bundles dotted black and the job's links blue,
# and the page's link data names them. Exit 77 only when chromium
# cannot run (tools/install-deps.sh installs it).
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
T=$TESTDIR
chrome_require
topo=$DATA/ck-cables.topo dump=$DATA/rt-ck-lfts.dump

render "$topo" --whatif spine01 --job 'host[03-04]' --routes "$dump" \
	-o "$T/page.html"

# details NAME ID: #search=NAME selects ID; the details in $T/dom.html
details() {
	chrome --dump-dom "file://$T/page.html#search=$1" >"$T/dom.html" ||
		fail "chromium --dump-dom #search=$1"
	grep -q "<body data-selected=\"$2\"" "$T/dom.html" ||
		flunk "#search=$1: selected $(grep -o 'data-selected="[^"]*"' "$T/dom.html")"
}
details spine01 n1000000000000100
grep -q '<p class="mark"><b>fails (whatif)</b></p>' "$T/dom.html" ||
	flunk "spine01: its details do not say it fails"
details host03 n2000000000000300
grep -q "<p class=\"mark\"><b>the job's host</b></p>" "$T/dom.html" ||
	flunk "host03: its details do not say it is the job's"
details host01 n2000000000000100
grep -q "<p class=\"mark\"><b>[a-z]" "$T/dom.html" && flunk "host01 is marked"

# the SVG as the browser holds it, and the page's link data
"$PYTHON3" - "$T/dom.html" <<'PY' || flunk "the SVG in the browser"
import re, sys
dom = open(sys.argv[1]).read()
black = re.findall(r'<path[^>]*stroke="#000000"[^>]*stroke-dasharray', dom)
blue = re.findall(r'<path[^>]*stroke="#08519c"', dom)
bad = 0
if len(black) != 2:
    print("FAIL: %d dotted black links, wanted 2" % len(black), file=sys.stderr)
    bad = 1
# host03's and host04's cables; spine01's bundles are its failure's
if len(blue) != 2:
    print("FAIL: %d blue links, wanted 2" % len(blue), file=sys.stderr)
    bad = 1
sys.exit(bad)
PY
[ "$(grep -o '"cat":"fails (whatif)"' "$T/page.html" | wc -l)" -eq 2 ] ||
	flunk "the page's data: not 2 links that fail"
[ "$(grep -o "\"cat\":\"the job's link\"" "$T/page.html" | wc -l)" -eq 2 ] ||
	flunk "the page's data: not 2 links of the job"
exit "$failed"
