#!/bin/sh
# bench/paths.sh - path diversity on a 3-level fat tree of 8,192 hosts and
# 640 switches (16 pods of 16 leaves and 16 aggregation switches, 128
# cores; 64-port switches, 2 cables leaf-agg, 4 agg-core: non-blocking).
# Times ibtopo's analysis (levels, class, every leaf pair's edge- and
# node-disjoint and ECMP counts; server pairs left out), checks every
# leaf-pair edge count against networkx's Gomory-Hu tree of the same
# switch graph, and prints both times, the speedup and peak memory.
# Targets: under 1 s; at least 50x networkx.
#
# usage: bench/paths.sh [BUILDDIR]     (default: the current directory)
# Needs python3 with networkx (Debian: python3-networkx).
set -eu
B=$(cd "${1:-.}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON3:-python3}
RUNS=${RUNS:-3}

make -C "$B" -s tests/gen/gen-fabric >/dev/null
"$PY" -c 'import networkx' 2>/dev/null || {
	echo "bench/paths.sh: python3 networkx is missing (apt install python3-networkx)" >&2
	exit 2
}
dir=$(mktemp -d "${TMPDIR:-/tmp}/ibtopo-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

ARGS="--pods 16 --leaves 16 --spines 16 --cores 128 --hosts 32 --links 2 \
	--core-links 4 --radix 64"
best=
for i in $(seq 1 "$RUNS"); do
	"$B/tests/gen/gen-fabric" --bench "$dir" $ARGS ft3 >"$dir/run$i"
	s=$(sed -n 's/^analysis_seconds //p' "$dir/run$i")
	if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
		best=$s
		cp "$dir/run$i" "$dir/best"
	fi
done
echo "# ibtopo, best of $RUNS runs:"
cat "$dir/best"
echo "# networkx on the same switch graph:"
"$PY" "$SRC/bench/paths_networkx.py" "$dir/switch-graph.tsv" \
	"$dir/leaf-pairs.tsv" "$best" "${FLOW:-edmonds_karp}" | tee "$dir/nx"
# a row of bench/all.sh's table (see bench_row in bench/lib.sh)
if [ -n "${BENCH_ROWS:-}" ]; then
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		"paths: 8,192 hosts (networkx Gomory-Hu)" "$best" \
		"$(sed -n 's/^networkx_gomory_hu_seconds \([0-9.]*\).*/\1/p' "$dir/nx")" - \
		"$(awk '/^peak_rss_kb/ { printf "%.0f", $2 / 1024 }' "$dir/best")" \
		"$(cut -d' ' -f1 /proc/loadavg)" >>"$BENCH_ROWS"
fi
