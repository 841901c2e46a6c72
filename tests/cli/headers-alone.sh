#!/bin/sh
# headers-alone.sh - each part of the public header, <ibtopo/NAME.h>,
# compiles alone as strict C11, and ibtopo.h includes every part that is
# installed (tests/headertest builds a program against the umbrella).
set -u
: "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
inc=$top_srcdir/lib/include
cc=${CC:-cc}
n=0
for h in "$inc"/ibtopo/*.h; do
	name=$(basename "$h")
	printf '#include <ibtopo/%s>\nint main(void) { return 0; }\n' "$name" >"$TESTDIR/t.c"
	$cc -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$inc" \
		"$TESTDIR/t.c" 2>"$TESTDIR/err" ||
		fail "ibtopo/$name does not compile alone: $(head -3 "$TESTDIR/err")"
	grep -q "^#include <ibtopo/$name>\$" "$inc/ibtopo.h" ||
		fail "ibtopo.h does not include ibtopo/$name"
	grep -q "lib/include/ibtopo/$name" "$top_srcdir/Makefile.am" ||
		fail "Makefile.am does not install ibtopo/$name"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n header parts in $inc/ibtopo"
echo "ok: $n header parts compile alone"
