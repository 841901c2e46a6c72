#!/bin/sh
# serve-fuzz-seeds.sh - the seeds of serve's fuzz targets (fuzz/seeds/
# webconfig, fuzz/seeds/request) and every crasher fuzz/run.sh kept for
# them, through both targets (fuzz/fuzz_serve.c): the web configuration
# parser, and the request parsing with the gzip round trip. Under the
# build's sanitizers nothing may crash or leak.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
drv=$top_builddir/fuzz/fuzz-serve-seeds
[ -x "$drv" ] || skip "no $drv"
set -- "$top_srcdir/fuzz/seeds/webconfig" "$top_srcdir/fuzz/seeds/request"
for f in "$top_srcdir"/fuzz/crashers/webconfig-* "$top_srcdir"/fuzz/crashers/request-*; do
	[ -f "$f" ] && set -- "$@" "$f"
done
[ "$("$drv" --targets | tr '\n' ' ')" = "webconfig request " ] ||
	flunk "targets: $("$drv" --targets)"
"$drv" "$@" >"$TESTDIR/out" 2>&1 || fail "$(cat "$TESTDIR/out")"
info "$(cat "$TESTDIR/out")"
exit "$failed"
