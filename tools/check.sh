#!/bin/sh
# Lint (tools/lint.sh), then build and run the whole test suite twice:
# `make distcheck` with -Werror, then a build with AddressSanitizer and
# UndefinedBehaviorSanitizer.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)

echo "== lint (shellcheck, clang-format)"
sh tools/lint.sh

autoreconf -fi >/dev/null 2>&1 || autoreconf -fi

echo "== distcheck (-O2 -Werror)"
rm -rf build-check && mkdir build-check
(cd build-check && ../configure -q CFLAGS='-O2 -g -Werror' &&
	make -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="CFLAGS='-O2 -g -Werror'")

echo "== sanitizers (address, undefined)"
rm -rf build-asan && mkdir build-asan
san='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined'
# umad2sim is preloaded into the integration tests' clients: ASan must not
# insist on coming first in the library list.
ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS
(cd build-asan && ../configure -q CFLAGS="-O1 -g $san" LDFLAGS="$san" &&
	make -j"$jobs" && make -j"$jobs" check) || {
	find build-asan -name '*.log' -path '*tests*' -exec grep -l -E 'ERROR|FAIL' {} + |
		head -5 | xargs -r tail -n 40
	exit 1
}
echo "== all tests passed (distcheck and sanitizers)"
