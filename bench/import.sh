#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/import.sh - time `ibtopo import` (parse an ibnetdiscover text dump
# and store it as a snapshot) of an 11,664-host 3-level fat tree, its peak
# memory, and the ratio to `ibnetdiscover --load-cache` on the cache file
# of the same fabric.
#
#   sh bench/import.sh                   # from a build directory
#   REPEAT=5 RADIX=24 sh bench/import.sh
#
# The fabric: bench/gen-fattree.py --radix RADIX --levels 3 (default 36:
# 1,620 switches, 11,664 hosts, 34,992 links), simulated by ibsim and
# discovered once by `ibnetdiscover -o 16 --cache FILE`, which writes the
# text dump (about 10 MB) and the cache of the same fabric. Without ibsim
# the dump is `ibtopo export` of the net file instead, and there is no
# ratio. Best of REPEAT runs (default 3), each into a fresh database:
#   import     ibtopo --db X import DUMP       (read, parse, store)
#   parse      ibtopo export --format slurm DUMP (read, parse, a small write)
#   load-cache ibnetdiscover --load-cache CACHE  (load, print the text)
# Peak memory from /usr/bin/time -v. Targets: import < 0.5 s, < 200 MB.
# Not a test: nothing here asserts; read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PYTHON3=${PYTHON3:-python3}
REPEAT=${REPEAT:-3}
RADIX=${RADIX:-36}
TIME=${TIME:-/usr/bin/time}
[ -x "$TIME" ] || fail "no $TIME (Debian: apt-get install time)"
"$PYTHON3" -c 'import argparse' 2>/dev/null || fail "python3 needed for gen-fattree.py"

net=$TESTDIR/ft.net
dump=$TESTDIR/ft.topo
cache=$TESTDIR/ft.cache
"$PYTHON3" "$here/gen-fattree.py" --radix "$RADIX" --levels 3 -o "$net" \
	2>"$TESTDIR/gen.err" || fail "gen-fattree.py: $(cat "$TESTDIR/gen.err")"
limits=$(sed -n 's/^ibsim-limits: //p' "$TESTDIR/gen.err")

have_sim=
if [ -n "$IBSIM" ] && [ -x "$IBSIM" ] && [ -f "$UMAD2SIM" ] && [ -n "$IBNETDISCOVER" ]; then
	have_sim=1
fi
if [ -n "$have_sim" ]; then
	info "simulating $net ($limits) and discovering it"
	# shellcheck disable=SC2086
	sim_start "$net" $limits
	sim_client "$IBNETDISCOVER" -o 16 --cache "$cache" >"$dump" \
		2>"$TESTDIR/disc.err" || fail "ibnetdiscover: $(cat "$TESTDIR/disc.err")"
	kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
	SIM_PID=
else
	info "no ibsim: the dump is ibtopo's export of the net file, no ratio"
	"$IBTOPO" export -o "$dump" "$net" || fail "export of $net"
fi
size=$(wc -c <"$dump")

# best TAG CMD...: "wall cpu rss_kB" of the run with the best wall time
best() {
	tag=$1
	shift
	b='' c='' m=''
	i=0
	while [ $i -lt "$REPEAT" ]; do
		rm -f "$TESTDIR/db" "$TESTDIR/db-wal" "$TESTDIR/db-shm"
		"$TIME" -f '%e %U %S %M' -o "$TESTDIR/time" "$@" >"$TESTDIR/$tag.out" \
			2>"$TESTDIR/$tag.err" || fail "$tag: $(tail -3 "$TESTDIR/$tag.err")"
		read -r e u sy rss <"$TESTDIR/time"
		if [ -z "$b" ] || awk "BEGIN { exit !($e < $b) }"; then
			b=$e
			c=$(awk "BEGIN { printf \"%.2f\", $u + $sy }")
			m=$rss
		fi
		i=$((i + 1))
	done
	echo "$b $c $m"
}

set -- $(best import "$IBTOPO" --db "$TESTDIR/db" import "$dump")
imp=$1 c_imp=$2 m_imp=$(($3 / 1024))
grep 'switches' "$TESTDIR/import.out" >&2
echo "dump: $size bytes, $(grep -c '^Switch' "$dump") switches, $(grep -c '^Ca' "$dump") CAs"
echo "import (parse + store): $1 s wall, $2 s cpu, peak $(($3 / 1024)) MB (target < 0.5 s, < 200 MB)"
set -- $(best parse "$IBTOPO" export --format slurm -o "$TESTDIR/topology.conf" "$dump")
echo "parse (+ slurm output): $1 s wall, $2 s cpu, peak $(($3 / 1024)) MB"
bench_row "import: parse + slurm 11,664" "$1" - "$2" $(($3 / 1024))
if [ -z "$have_sim" ]; then
	bench_row "import: parse + store 11,664" "$imp" - "$c_imp" "$m_imp"
else
	set -- $(best loadcache "$IBNETDISCOVER" --load-cache "$cache")
	bench_row "import: parse + store 11,664 (ibnetdiscover --load-cache)" \
		"$imp" "$1" "$c_imp" "$m_imp"
	echo "ibnetdiscover --load-cache: $1 s wall, $2 s cpu, peak $(($3 / 1024)) MB"
	echo "ratio import / load-cache (wall): $(awk "BEGIN { printf \"%.2f\", $imp / $1 }")"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (wall times suffer on a busy machine)"
