#!/bin/sh
# fuzz/run.sh - build the libFuzzer targets of the readers with clang and
# run them, $FUZZ_JOBS at a time (default 1).
#
#   fuzz/run.sh [SECONDS [TARGET...]]      default: 600 s each, all targets
#
# Targets: ibnetdiscover ports ibsim namemap auto (topology readers),
# cables (inventory CSV), dbcsv (ibdiagnet db_csv), plan (planned
# topology, validated against itself and tests/data/ck-cables.topo),
# cache (an `ibnetdiscover --cache` file, binary).
# Corpora grow in $FUZZ_DIR (default /tmp/ibtopo-fuzz); crashes found are
# copied to fuzz/crashers/<target>-<name>, where `make check` (tests/cli/
# topofile-fuzz-seeds.sh) replays them. Needs clang with libFuzzer
# (Debian: clang, libclang-rt-14-dev), jansson and libopensm-dev.
# Runs under `nice -n 10`: the fuzzers share the machine. Per target the
# last lines of its log (executions, peak RSS) are printed at the end.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-ibnetdiscover ports ibsim namemap auto cables dbcsv plan cache}
jobs=${FUZZ_JOBS:-1}
dir=${FUZZ_DIR:-/tmp/ibtopo-fuzz}
CC=${CC:-clang}
real="$top/tests/data/real"

command -v "$CC" >/dev/null || { echo "fuzz/run.sh: no $CC" >&2; exit 77; }
mkdir -p "$dir/build" "$dir/logs"
: > "$dir/build/config.h"
mkdir -p "$dir/build/lib"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' \
	"$top/data/cable-reach.tsv" > "$dir/build/lib/cable-reach-tsv.h"

# The library parts the readers and writers need, instrumented.
srcs="model/error.c model/names.c model/fabric.c report/output.c report/table.c
	report/json.c report/report_inventory.c io/topofile.c io/topofile_write.c
	io/cables.c analysis/check_speed.c analysis/check_cable.c compare/validate.c
	compare/diff.c io/discover.c io/sweep.c io/pma.c model/counters.c"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -I$top/lib/include -I$top/lib -I$dir/build -I/usr/include/infiniband $(pkg-config --cflags jansson)"
libs="-losmcomp $(pkg-config --libs jansson libibnetdisc libibmad libibumad) -lm"
objs=
for s in $srcs; do
	o="$dir/build/$(basename "${s%.c}").o"
	$CC $flags -fsanitize=fuzzer-no-link -c "$top/lib/$s" -o "$o"
	objs="$objs $o"
done

num() {
	case $1 in
	auto) echo 0 ;; ibnetdiscover) echo 1 ;; ports) echo 2 ;;
	ibsim) echo 3 ;; namemap) echo 4 ;; cables) echo 5 ;;
	dbcsv) echo 6 ;; plan) echo 7 ;; cache) echo 8 ;;
	*) echo "fuzz/run.sh: unknown target $1" >&2; exit 2 ;;
	esac
}

# Seeds: small files of each kind, and the real dumps cut into pieces of
# about 60 lines (whole files are too big to mutate quickly).
seed() {
	t=$1 c="$dir/corpus-$t"
	mkdir -p "$c"
	case $t in
	cache)
		cp "$top"/tests/data/*.cache "$c"/
		return 0 ;;
	cables|dbcsv|plan)
		cp "$here/seeds/$t"/* "$c"/
		[ "$t" = plan ] && cp "$top"/tests/data/*plan* "$c"/
		return 0 ;;
	esac
	cp "$top"/tests/data/tf-* "$c"/ 2>/dev/null || true
	for f in "$real"/*.topo "$real"/*.txt "$real"/*.guid-map; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		split -l 60 -a 3 "$f" "$c/$b."
	done
}

IBTOPO_FUZZ_FABRIC="$top/tests/data/ck-cables.topo"
export IBTOPO_FUZZ_FABRIC

for t in $targets; do
	n=$(num "$t")
	$CC $flags -fsanitize=fuzzer -DFUZZ_TARGET="$n" "$here/fuzz_topofile.c" \
		$objs $libs -o "$dir/fuzz-$t"
	[ -d "$dir/corpus-$t" ] || seed "$t"
	mkdir -p "$dir/crash-$t"
done

run() {
	t=$1
	echo "== $t: $secs s" >&2
	# libibnetdisc's cache loader leaks (tests/lsan.supp): not ours
	(cd "$dir/crash-$t" && LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0" \
		nice -n 10 "$dir/fuzz-$t" -max_total_time="$secs" \
		-max_len=8192 -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		"$dir/corpus-$t" ) >"$dir/logs/$t.log" 2>&1 || true
}

running=0
for t in $targets; do
	run "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

for t in $targets; do
	echo "== $t" >&2
	grep -E '^stat::number_of_executed_units|^stat::peak_rss|Done [0-9]+ runs' \
		"$dir/logs/$t.log" >&2 || tail -5 "$dir/logs/$t.log" >&2
	for c in "$dir/crash-$t"/crash-* "$dir/crash-$t"/leak-* \
		 "$dir/crash-$t"/timeout-* "$dir/crash-$t"/oom-*; do
		[ -f "$c" ] || continue
		[ -f "$here/crashers/$t-$(basename "$c")" ] && continue
		cp "$c" "$here/crashers/$t-$(basename "$c")"
		echo "crasher kept: fuzz/crashers/$t-$(basename "$c")" >&2
	done
done
