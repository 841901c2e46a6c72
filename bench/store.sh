#!/bin/sh
# bench/store.sh - time saving and loading one snapshot of a k-ary fat tree
# (default k = 36: 11,664 CAs, 1,620 switches, 71,604 ports, 34,992 links).
# Target: saved in well under 1 s.
#
# usage: bench/store.sh [BUILDDIR [K [RUNS]]]   (BUILDDIR default: .)
# Each run saves into a fresh database, then into one already holding the
# earlier runs' snapshots, and loads the snapshot back.
set -eu
builddir=${1:-.}
k=${2:-36}
runs=${3:-3}
tool=$builddir/tests/store-tool
if [ ! -x "$tool" ]; then
	make -C "$builddir" tests/store-tool >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	echo "== run $i: fresh database"
	rm -f "$tmp/fresh.db"
	"$tool" bench "$tmp/fresh.db" "$k"
	echo "== run $i: database with $((i - 1)) earlier snapshots"
	"$tool" bench "$tmp/grow.db" "$k"
done
