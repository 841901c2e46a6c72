#!/bin/sh
# topofile-fuzz-seeds.sh - the fuzz targets' seed corpus (the real dumps,
# tests/data/tf-*, the counter dumps tests/data/hc-*) and every crasher
# the fuzzers found (fuzz/crashers) through all readers, with the checks of the fuzz targets: under the
# sanitizers of the build (CI builds with ASan/UBSan), nothing may crash,
# leak or break the write/read round trip.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
drv=$top_builddir/fuzz/fuzz-seeds
[ -x "$drv" ] || skip "no $drv"
set -- "$top_srcdir"/tests/data/tf-* "$top_srcdir"/tests/data/*.cache \
	"$top_srcdir"/tests/data/hc-* \
	"$top_srcdir/fuzz/seeds" \
	"$top_srcdir/fuzz/crashers"
# the real dumps are in the repository: without them this test fails
real=$top_srcdir/tests/data/real
n=0
for f in "$real"/*.topo "$real"/*.txt "$real"/*.guid-map "$real"/*.conf; do
	[ -f "$f" ] || continue
	set -- "$@" "$f"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "$n real dumps in $real, wanted 10"
# not exec: lib.sh removes $TESTDIR when the shell exits
"$drv" --fabric "$top_srcdir/tests/data/ck-cables.topo" "$@"
