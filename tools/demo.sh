#!/bin/sh
# The main job on the embedded example fabric: build ibtopo, start a
# simulated fabric (ibsim), discover it through libibnetdisc into the
# default SQLite database, analyze it and render a diagram.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ ! -x build/src/ibtopo ]; then
	autoreconf -fi >/dev/null 2>&1
	mkdir -p build
	(cd build && ../configure -q && make -j"$(nproc)" >/dev/null)
fi
IBTOPO="$top/build/src/ibtopo" sh examples/demo.sh
