#!/bin/sh
# bench/render.sh - time `ibtopo render` of an 11,664-host fat tree to SVG
# (hosts collapsed per leaf: 2,268 nodes, so sfdp), and `dot -Tsvg` on the
# DOT text ibtopo writes for the same fabric, for comparison.
#
#   sh bench/render.sh                 # from a build directory
#   REPEAT=5 RADIX=24 sh bench/render.sh
#
# The fabric is `ibtopo plan fat-tree --levels 3` of RADIX-port switches
# (default 36: 36 pods, 1,620 switches, 11,664 hosts, 34,992 links), read
# from its ibnetdiscover text. Best of REPEAT runs of:
#   render      ibtopo render FILE -o OUT.svg  (read, checks, topology
#               analysis, DOT, sfdp layout, SVG: what a user runs)
#   no-checks   the same with --no-checks (no link or topology analysis)
#   dot-text    ibtopo render FILE -o OUT.dot  (everything but graphviz)
#   dot -Tsvg   graphviz's own command on that DOT file
# Target: render < 10 s. Not a test: nothing here asserts; read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
IBTOPO=${IBTOPO:-$top_builddir/src/ibtopo}
DOT=${DOT:-$(command -v dot)}
REPEAT=${REPEAT:-3}
RADIX=${RADIX:-36}
. "$top_srcdir/tests/lib.sh"
[ -x "$IBTOPO" ] || fail "no $IBTOPO: build first, or set IBTOPO"

# Time the real program, not libtool's wrapper script around it.
if [ -x "$(dirname "$IBTOPO")/.libs/ibtopo" ] && head -c 2 "$IBTOPO" | grep -q '#!'; then
	LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	IBTOPO="$(dirname "$IBTOPO")/.libs/ibtopo"
fi

now() {
	date +%s.%N
}

# best CMD...: run REPEAT times; print the shortest wall time in seconds
# and, where /usr/bin/time exists, the CPU seconds (user + system) of that
# run: on a loaded machine the CPU time is the steadier figure.
TIMER=
[ -x /usr/bin/time ] && TIMER=/usr/bin/time
best() {
	b=
	bc=
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		if [ -n "$TIMER" ]; then
			$TIMER -f '%U %S' -o "$TESTDIR/cpu" "$@" \
				>"$TESTDIR/out" 2>"$TESTDIR/err"
		else
			"$@" >"$TESTDIR/out" 2>"$TESTDIR/err"
		fi || {
			cat "$TESTDIR/err" >&2
			fail "$*"
		}
		t=$(awk "BEGIN { printf \"%.3f\", $(now) - $t0 }")
		if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then
			b=$t
			[ -n "$TIMER" ] &&
				bc=$(awk '{ printf "%.2f", $1 + $2 }' "$TESTDIR/cpu")
		fi
	done
	if [ -n "$bc" ]; then
		echo "$b s (cpu $bc s)"
	else
		echo "$b s"
	fi
}

size() {
	wc -c <"$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'
}

half=$((RADIX / 2))
ft=$TESTDIR/fat-tree.topo
"$IBTOPO" plan fat-tree --levels 3 --radix "$RADIX" --pods "$RADIX" \
	--leaves "$half" --spines "$half" --hosts-per-leaf "$half" -o "$ft" ||
	fail "ibtopo plan"
"$IBTOPO" render -o "$TESTDIR/a.dot" "$ft" || fail "render to DOT"
nodes=$(grep -c '^	[ngbx][0-9a-f]\{16\} \[' "$TESTDIR/a.dot")
edges=$(grep -c -- ' -> ' "$TESTDIR/a.dot")
layout=$(sed -n 's/.*graph \[layout=\([a-z]*\).*/\1/p' "$TESTDIR/a.dot")
echo "fabric: radix $RADIX, $(grep -c '^Switch' "$ft") switches, $(grep -c '^Ca' "$ft") hosts;" \
	"drawn: $nodes nodes, $edges edges, layout $layout"
echo "best of $REPEAT runs, wall seconds ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)):"
t=$(best "$IBTOPO" render -o "$TESTDIR/a.svg" "$ft")
echo "  render      $t   -> SVG $(size "$TESTDIR/a.svg")   (target < 10 s)"
t=$(best "$IBTOPO" render --no-checks -o "$TESTDIR/b.svg" "$ft")
echo "  no-checks   $t"
t=$(best "$IBTOPO" render -o "$TESTDIR/a.dot" "$ft")
echo "  dot-text    $t   -> DOT $(size "$TESTDIR/a.dot")"
if [ -n "$DOT" ]; then
	t=$(best "$DOT" -Tsvg "$TESTDIR/a.dot" -o "$TESTDIR/c.svg")
	echo "  dot -Tsvg   $t   -> SVG $(size "$TESTDIR/c.svg")   (graphviz on our DOT)"
else
	echo "  dot -Tsvg   (graphviz's dot not installed)"
fi
