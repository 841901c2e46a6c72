#!/bin/sh
# render-html-browser.sh - `ibtopo render -o fabric.html` (issue 14 item
# 4) in a real browser: Debian's chromium, headless.
#  - the page is one file that loads nothing: no src= or href= to a
#    network address, no <link>, no external script;
#  - loaded with #search=NAME (a name, a GUID, a LID), the script finds
#    the node: the dumped DOM has <body data-selected="its SVG title">,
#    the node's <g> has the class "sel" and the status line says "found";
#  - #finding=N picks row N of the findings table: the row gets "on" and
#    its link is selected (row 0: the FDR link, SVG edge id "e<N>");
#  - a screenshot is not blank: more than a few distinct colours (PNG
#    decoded with python3's zlib, no imaging library).
# Exit 77 only when chromium cannot be run (tools/install-deps.sh
# installs it). Chromium is stopped by the PID timeout(1) gives it.
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
T=$TESTDIR
chrome_require

"$IBTOPO" render -o "$T/fabric.html" "$DATA/rd-small.topo" 2>"$T/err" || {
	cat "$T/err" >&2
	fail "render to HTML"
}
html=$T/fabric.html
grep -qi '<link\|<iframe\|@import' "$html" && fail "HTML: loads something"
grep -Eio '(src|href)="(https?:)?//[^"]*' "$html" && fail "HTML: a network URL"
grep -q '<input type="search"' "$html" || fail "HTML: no search box"
grep -q '<svg' "$html" || fail "HTML: no SVG inline"

# find URL_FRAGMENT ID: loading the page with the fragment selects ID
find() {
	chrome --dump-dom "file://$html#$1" >"$T/dom.html" ||
		fail "chromium --dump-dom #$1"
	grep -q "<body data-selected=\"$2\"" "$T/dom.html" ||
		flunk "#$1: selected $(grep -o 'data-selected="[^"]*"' "$T/dom.html")"
}

find search=leaf02 n0002c90300000202
grep -q 'class="node sel"' "$T/dom.html" || flunk "leaf02: no node of class sel"
grep -q '<div id="status">found leaf02' "$T/dom.html" || flunk "leaf02: status"
grep -q '<td>spine02 \[4\]</td>' "$T/dom.html" || flunk "leaf02: no ports"
find search=0x2c90300000201 n0002c90300000201	# GUID: leaf01
find search=3 n0002c90300000201			# LID 3: leaf01
find search=host007 n0002c90300001007
# finding 0, the worst: the FDR link between spine02 and leaf02
fdr=$(awk '/<g id="e[0-9]+" class="edge">/ {
	match($0, /e[0-9]+/); id = substr($0, RSTART, RLENGTH) }
	/>FDR</ { print id }' "$html")
[ -n "$fdr" ] || fail "HTML: no FDR link drawn"
find finding=0 "$fdr"
grep -q 'class="row on"' "$T/dom.html" || flunk "finding 0: row not on"
grep -q 'class="edge sel"' "$T/dom.html" || flunk "finding 0: link not selected"

chrome --screenshot="$T/shot.png" --window-size=1280,800 \
	"file://$html#search=leaf02" >/dev/null || fail "chromium --screenshot"
[ -s "$T/shot.png" ] || fail "no screenshot"
colours=$("$PYTHON3" - "$T/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and not interlace, "unexpected PNG"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, seen, i = bytearray(stride), set(), 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                  b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 7):
        seen.add(bytes(line[x:x + 3]))
    prev = line
print(len(seen))
EOF
) || fail "cannot decode the screenshot"
[ "$colours" -ge 8 ] || fail "screenshot blank: $colours colours"
exit "$failed"
