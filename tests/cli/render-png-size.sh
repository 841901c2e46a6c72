#!/bin/sh
# render-png-size.sh - a default render never writes a raster image over
# 8,000 pixels on either side (issue 23, item 15): `--focus` on a group
# of 79 leaves wrote a 9,644-pixel-wide PNG here (25,159 on a field
# fabric). Checked on that group, on the fabric switch by switch and on
# a 640-switch overview; and the picture is still one (over 1,000 wide),
# drawn at its layout's size rather than shrunk (the leaves of a full
# mesh are not split into rows: each row would carry the edges of the
# rows below it).
. "$top_srcdir/tests/lib.sh"
python_require
unset IBTOPO_DB
T=$TESTDIR

"$IBTOPO" plan fat-tree --leaves 79 --spines 4 --hosts-per-leaf 8 \
	--uplinks 4 --radix 80 -o "$T/l79.topo" || fail "plan l79"
"$IBTOPO" plan fat-tree --leaves 79 --spines 18 --hosts-per-leaf 18 \
	--uplinks 18 --radix 80 -o "$T/mesh.topo" || fail "plan mesh"
"$IBTOPO" plan fat-tree --levels 3 --pods 64 --leaves 4 --spines 4 \
	--hosts-per-leaf 32 --radix 64 -o "$T/ft64.topo" || fail "plan ft64"

# png_size PNG: "W H" of a PNG, or nothing
png_size() {
	"$PYTHON3" - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(24)
if b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR":
    print("%d %d" % struct.unpack(">II", b[16:24]))
PY
}

check() {
	name=$1
	shift
	run 0 "$IBTOPO" render "$@" -o "$T/$name.png" || return
	size=$(png_size "$T/$name.png")
	[ -n "$size" ] || { flunk "$name: not a PNG"; return; }
	# shellcheck disable=SC2086 # two numbers
	set -- $size
	[ "$1" -le 8000 ] && [ "$2" -le 8000 ] ||
		flunk "$name: $1 x $2 pixels, over 8,000"
	[ "$1" -ge 1000 ] || flunk "$name: $1 x $2 pixels, no picture"
	info "$name: $1 x $2"
}

check focus-79-leaves --focus leaves "$T/l79.topo"
check l79-switches --detail switches "$T/l79.topo"
check ft64-overview "$T/ft64.topo"

# full_size NAME ARGS...: the PNG is drawn at the size of the layout (the
# SVG's, 96 px per inch), not shrunk to fit: under 18 spines meshed to
# 79 leaves, splitting the leaves into two rows made the layout 328
# inches wide, and its PNG a 7,901-pixel-wide sliver at 25 % of it
full_size() {
	name=$1
	shift
	check "$name" "$@"
	run 0 "$IBTOPO" render "$@" -o "$T/$name.svg" || return
	pt=$(sed -n 's/^<svg width="\([0-9]*\)pt".*/\1/p' "$T/$name.svg")
	[ -n "$pt" ] || { flunk "$name: no SVG width"; return; }
	# shellcheck disable=SC2046 # two numbers
	set -- $(png_size "$T/$name.png")
	[ "$1" -ge $((pt * 4 / 3 * 9 / 10)) ] ||
		flunk "$name: PNG $1 px wide for a $pt pt layout: shrunk"
}
full_size mesh-focus --focus leaves "$T/mesh.topo"
full_size l79-focus --focus leaves "$T/l79.topo"
exit "$failed"
