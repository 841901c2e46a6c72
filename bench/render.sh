#!/bin/sh
# bench/render.sh - time `ibtopo render` to SVG, HTML and PNG on big fat trees
# and on the real fabric dumps, wall and CPU seconds, peak memory and the
# size of what it writes, and `dot -Tsvg` on the DOT text ibtopo writes
# for the 11,664-host tree, for comparison. Above 100 switches render
# draws the overview (groups of switches); `DETAIL=switches` draws them
# one by one where it may (up to 2,000 switches).
#
#   sh bench/render.sh                 # from a build directory
#   REPEAT=1 FABRICS="ft640 ft101k" sh bench/render.sh
#   FORMATS="svg html" DETAIL=switches sh bench/render.sh
#
# FABRICS (default: all, in this order):
#   ft640   3-level, 64-port switches: 16 pods of 16 leaves (32 hosts
#           each) and 16 aggregation switches, 128 cores; 8,192 hosts,
#           640 switches (tests/gen/gen-fabric, as bench/paths.sh). dot's
#           mincross ran for over 15 minutes on it before render counted
#           edges in its choice of layout
#   ft8k    3-level k-ary, radix 32 (bench/gen-fattree.py): 8,192 hosts,
#           1,280 switches
#   ft11k   3-level, radix 36 (ibtopo plan fat-tree): 11,664 hosts,
#           1,620 switches
#   ft101k  3-level k-ary, radix 74 (bench/gen-fattree.py): 101,306 hosts,
#           6,845 switches
#   real    each file in tests/data/real
# Best of REPEAT runs (default 3) of `ibtopo render FILE -o OUT.svg` and
# `-o OUT.png` (read, checks, topology analysis, DOT, layout, image: what
# a user runs). Targets: every render under 10 s on 2 cores; the overview
# of the 101,306-host tree under 5 MB. Not a test: nothing here asserts;
# read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${top_srcdir:?}" "${top_builddir:?}" # set by lib.sh
DOT=${DOT:-$(command -v dot)}
REPEAT=${REPEAT:-3}
FABRICS=${FABRICS:-ft640 ft8k ft11k ft101k real}
FORMATS=${FORMATS:-svg html png}
DETAIL=${DETAIL:-auto}
PYTHON3=${PYTHON3:-python3}

# best CMD...: run REPEAT times; print the shortest wall time in seconds
# and, where /usr/bin/time exists, the CPU seconds (user + system) and
# peak memory (maximum resident set) of that run: on a loaded machine the
# CPU time is the steadier figure.
TIMER=
[ -x /usr/bin/time ] && TIMER=/usr/bin/time
best() {
	b=
	bc=
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		if [ -n "$TIMER" ]; then
			$TIMER -f '%U %S %M' -o "$TESTDIR/cpu" "$@" \
				>"$TESTDIR/out" 2>"$TESTDIR/err"
		else
			"$@" >"$TESTDIR/out" 2>"$TESTDIR/err"
		fi || {
			cat "$TESTDIR/err" >&2
			fail "$*"
		}
		t=$(awk "BEGIN { printf \"%.2f\", $(now) - $t0 }")
		if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then
			b=$t
			echo "$b - -" >"$TESTDIR/best.vals"
			[ -n "$TIMER" ] &&
				bc=$(awk '{ printf "%.2f s, %.0f MB", $1 + $2,
					$3 / 1024 }' "$TESTDIR/cpu") &&
				awk -v w="$b" '{ printf "%s %.2f %.0f\n", w,
					$1 + $2, $3 / 1024 }' "$TESTDIR/cpu" \
					>"$TESTDIR/best.vals"
		fi
	done
	if [ -n "$bc" ]; then
		printf '%7s s (cpu %s)' "$b" "$bc"
	else
		printf '%7s s' "$b"
	fi
}

size() {
	wc -c <"$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'
}

# drawn DOTFILE: "N nodes, E edges, LAYOUT"
drawn() {
	printf '%5d nodes %6d edges %-4s' \
		"$(grep -c '^	[ngbxsd][0-9a-f]\{16\} \[' "$1")" \
		"$(grep -c -- ' -> ' "$1")" \
		"$(sed -n 's/.*graph \[layout=\([a-z]*\).*/\1/p' "$1")"
}

# fattree RADIX NAME WHAT: `one` on the 3-level fat tree of RADIX-port
# switches of bench/gen-fattree.py ($TESTDIR/NAME.net), WHAT its size
fattree() {
	"$PYTHON3" "$here/gen-fattree.py" --radix "$1" --levels 3 \
		-o "$TESTDIR/$2.net" 2>/dev/null || fail "gen-fattree.py"
	one "$3" "$TESTDIR/$2.net"
}

# one NAME FILE: render FILE to DOT (for the counts), then to each of
# FORMATS: time, memory, size
one() {
	name=$1
	f=$2
	"$IBTOPO" render --detail "$DETAIL" -o "$TESTDIR/a.dot" "$f" \
		2>"$TESTDIR/err" || {
		cat "$TESTDIR/err" >&2
		fail "render $f to DOT"
	}
	printf '  %-34s %s\n' "$name" "$(drawn "$TESTDIR/a.dot")"
	for fmt in $FORMATS; do
		t=$(best "$IBTOPO" render --detail "$DETAIL" \
			-o "$TESTDIR/a.$fmt" "$f")
		printf '    %-4s %s  %s\n' "$fmt" "$t" "$(size "$TESTDIR/a.$fmt")"
		# shellcheck disable=SC2046 # three numbers
		set -- $(cat "$TESTDIR/best.vals")
		bench_row "render $fmt: $name" "$1" - "$2" "$3"
	done
}

gen_fabric() {
	make -C "$top_builddir" -s tests/gen/gen-fabric >/dev/null 2>&1
	[ -x "$top_builddir/tests/gen/gen-fabric" ] ||
		fail "cannot build tests/gen/gen-fabric in $top_builddir"
	"$top_builddir/tests/gen/gen-fabric" --format ibnetdiscover "$@"
}

echo "best of $REPEAT runs, wall and CPU seconds, peak memory, size" \
	"($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)); --detail $DETAIL"
for fab in $FABRICS; do
	case $fab in
	ft640)
		ft=$TESTDIR/ft640.topo
		gen_fabric --pods 16 --leaves 16 --spines 16 --cores 128 \
			--hosts 32 --links 2 --core-links 4 --radix 64 ft3 >"$ft" ||
			fail "gen-fabric"
		one "8,192 hosts, 640 switches" "$ft"
		;;
	ft8k)
		fattree 32 ft8k "8,192 hosts, 1,280 switches"
		;;
	ft11k)
		ft=$TESTDIR/ft11k.topo
		"$IBTOPO" plan fat-tree --levels 3 --radix 36 --pods 36 \
			--leaves 18 --spines 18 --hosts-per-leaf 18 -o "$ft" ||
			fail "ibtopo plan"
		one "11,664 hosts, 1,620 switches" "$ft"
		if [ -n "$DOT" ]; then
			"$IBTOPO" render --detail "$DETAIL" -o "$TESTDIR/a.dot" \
				"$ft" || fail "render to DOT"
			printf '  %-34s %s  (graphviz on our DOT)\n' \
				"  dot -Tsvg of its DOT" \
				"$(best "$DOT" -Tsvg "$TESTDIR/a.dot" -o "$TESTDIR/c.svg")"
		fi
		;;
	ft101k)
		fattree 74 ft101k "101,306 hosts, 6,845 switches"
		;;
	real)
		for f in "$top_srcdir"/tests/data/real/*.topo \
			 "$top_srcdir"/tests/data/real/*.txt; do
			one "$(basename "$f")" "$f"
		done
		;;
	*)
		fail "unknown fabric '$fab' (ft640 ft8k ft11k ft101k real)"
		;;
	esac
done
