#!/bin/sh
# threads-helgrind.sh - route tracing and path diversity on 3 threads
# under valgrind's helgrind (issue 38): no data race, no lock misuse
# (helgrind exits 99 on any error; its report is printed), on a fat tree
# of 24 leaves and 432 hosts with tables and planted faults
# (tests/data/gen-ft-lfts.py), and path diversity on two real fabrics.
# --fair-sched=yes: the threads take turns often enough that their tasks
# interleave (without it one thread may run them all, and a race goes
# unseen; a race planted in the trace was seen with it, not without).
# tests/threads-helgrind.supp hides what helgrind says of other libraries.
#
# Skipped (77) without valgrind or when the program was built with
# AddressSanitizer, which does not run under valgrind.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
VALGRIND=${VALGRIND:-valgrind}
command -v "$VALGRIND" >/dev/null 2>&1 || skip "no valgrind"

real_ibtopo
bin=$IBTOPO_REAL
if [ -n "${ASAN_OPTIONS:-}" ] ||
	{ command -v ldd >/dev/null 2>&1 && ldd "$bin" 2>/dev/null |
		grep -q 'libasan'; }; then
	skip "built with AddressSanitizer (or ASAN_OPTIONS set)"
fi
ft_lfts ft 18 faults

# hg WANT_RC ARGS...: ibtopo --threads 3 ARGS under helgrind
hg() {
	want=$1
	shift
	"$VALGRIND" --tool=helgrind -q --fair-sched=yes --error-exitcode=99 \
		--suppressions="$top_srcdir/tests/threads-helgrind.supp" \
		--log-file="$tmp/hg.log" "$bin" --threads 3 "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 99 ]; then
		flunk "helgrind: ibtopo $*"
		head -60 "$tmp/hg.log" | sed 's/^/  /' >&2
	elif [ "$rc" -ne "$want" ]; then
		flunk "ibtopo $* exited $rc, wanted $want"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
}

hg 1 routes "$tmp/ft.topo" --routes "$tmp/ft.dump" --format json
hg 1 analyze "$tmp/ft.topo" --routes "$tmp/ft.dump" --format json
for f in x5-mixed-ddr-qdr ndr-superpod-rails; do
	"$bin" --threads 1 analyze "$REAL/$f.topo" --format json >/dev/null 2>&1
	hg $? analyze "$REAL/$f.topo" --format json
done
exit "$failed"
