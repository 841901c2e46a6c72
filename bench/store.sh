#!/bin/sh
# bench/store.sh - time saving and loading one snapshot of a k-ary fat tree
# (default k = 36: 11,664 CAs, 1,620 switches, 71,604 ports, 34,992 links).
# Target: saved in well under 1 s. `cpu` is the process's CPU time, steadier
# than wall time on a busy machine. The last line gives the date, the CPUs
# and the load average before and after.
#
# usage: bench/store.sh [BUILDDIR [K [RUNS]]]   (BUILDDIR default: .)
# Each run saves into a fresh database, then into one already holding the
# earlier runs' snapshots, and loads the snapshot back. Last, the same
# fabric with a forwarding table on every switch (k = 36: 1,620 switches
# x 13,284 LIDs, 21.5 M entries) is saved and loaded once (issue 15).
set -eu
builddir=${1:-.}
k=${2:-36}
runs=${3:-3}
tool=$builddir/tests/store-tool
if [ ! -x "$tool" ]; then
	make -C "$builddir" tests/store-tool >/dev/null
fi
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	echo "== run $i: fresh database"
	rm -f "$tmp/fresh.db"
	"$tool" bench "$tmp/fresh.db" "$k" | tee -a "$tmp/log"
	echo "== run $i: database with $((i - 1)) earlier snapshots"
	"$tool" bench "$tmp/grow.db" "$k"
done
# rows of bench/all.sh's table (bench_row in bench/lib.sh): the best
# save and load into and from a fresh database
if [ -n "${BENCH_ROWS:-}" ]; then
	for what in save load; do
		sed -n "s/^$what: \([0-9.]*\) s (cpu \([0-9.]*\) s.*/\1 \2/p" \
			"$tmp/log" | sort -n | head -1 | awk -v w="$what" \
			-v k="$k" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
			'{ printf "store: %s snapshot, k=%s fat tree\t%s\t-\t%s\t-\t%s\n",
			   w, k, $1, $2, l }' >>"$BENCH_ROWS"
	done
fi
echo "== forwarding tables (LFTs) on every switch, fresh database"
rm -f "$tmp/fresh.db"
"$tool" bench-routes "$tmp/fresh.db" "$k"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(uname -m)), load average" \
	"$load0 before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
