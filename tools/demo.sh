#!/bin/sh
# The main job on the embedded example fabric: build ibtopo, start a
# simulated fabric (ibsim on examples/hdr-fat-tree.net), discover it
# through libibnetdisc into the default SQLite database, analyze it and
# check the routes the subnet manager programmed and render a diagram
# (fabric.svg, fabric.png and fabric.html in the current directory).
# Set IBTOPO_DB to use another database.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(pwd)
cd "$top"
if [ ! -x build/src/ibtopo ]; then
	echo "demo: building ibtopo in build/" >&2
	autoreconf -fi >/dev/null 2>&1
	mkdir -p build
	(cd build && ../configure -q && make -j"$(nproc)" >/dev/null)
fi
IBTOPO="$top/build/src/ibtopo"
IBTOPO="$IBTOPO" sh examples/demo.sh --label demo --force --counters --routes
echo
echo "demo: ibtopo analyze (the example fabric has two planted faults)" >&2
"$IBTOPO" analyze --fail-on never
echo
echo "demo: ibtopo routes (what the subnet manager programmed)" >&2
"$IBTOPO" routes --fail-on never
for fmt in svg png html; do
	"$IBTOPO" render -o "$out/fabric.$fmt"
done
echo "demo: diagram written to $out/fabric.svg, fabric.png and fabric.html" >&2
