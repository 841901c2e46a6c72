#!/bin/sh
# fuzz/run.sh - build the libFuzzer targets of the readers with clang and
# run them, $FUZZ_JOBS at a time (default 1).
#
#   fuzz/run.sh [SECONDS [TARGET...]]      default: 600 s each, all targets
#
# Targets: `fuzz-seeds --targets` lists them: auto and every input format
# of the library (ibnetdiscover, ports, ibsim, cache: an `ibnetdiscover
# --cache` file, binary, ...), namemap, cables (inventory CSV), dbcsv
# (ibdiagnet db_csv), routes (LFT dumps: opensm-lfts.dump, ibroute,
# .fdbs), plan (planned topology, validated against itself and
# tests/data/ck-cables.topo); and serve's parsing (fuzz_serve.c):
# webconfig (the --web-config YAML), request (path, Accept-Encoding,
# Content-Length, Transfer-Encoding, Authorization, and the gzip of a
# body inflated back). Every lib/*/*.c is compiled, so a new format
# needs no edit here. Whatever a topology target reads is written in every
# export format and read back (fuzz_topofile.c check_written()).
# Corpora grow in $FUZZ_DIR (default /tmp/ibtopo-fuzz); crashes found are
# copied to fuzz/crashers/<target>-<name>, where `make check` (tests/cli/
# topofile-fuzz-seeds.sh) replays them. Needs clang with libFuzzer
# (Debian: clang, libclang-rt-14-dev), jansson, libopensm-dev, libyaml-dev
# and zlib1g-dev.
# Runs under `nice -n 10`: the fuzzers share the machine. Per target the
# last lines of its log (executions, peak RSS) are printed at the end.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=$*
jobs=${FUZZ_JOBS:-1}
dir=${FUZZ_DIR:-/tmp/ibtopo-fuzz}
CC=${CC:-clang}
real="$top/tests/data/real"

command -v "$CC" >/dev/null || { echo "fuzz/run.sh: no $CC" >&2; exit 77; }
mkdir -p "$dir/build" "$dir/logs"
# config.h: what the sources take from configure (ibtopo_build_info's
# version), the version of configure.ac
version=$(sed -n 's/^AC_INIT(\[ibtopo\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
printf '#define PACKAGE_VERSION "%s"\n' "${version:-0}" > "$dir/build/config.h"
mkdir -p "$dir/build/lib"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' \
	"$top/data/cable-reach.tsv" > "$dir/build/lib/cable-reach-tsv.h"

# The library, instrumented, as an archive: the linker takes the parts
# the targets need.
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' \
	"$top/data/schema.sql" > "$dir/build/lib/schema-sql.h"
pcs="jansson libibnetdisc libibmad libibumad sqlite3 libgvc libcgraph igraph"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -I$top/lib/include -I$top/lib -I$dir/build -I/usr/include/infiniband $(pkg-config --cflags $pcs)"
libs="-losmcomp $(pkg-config --libs $pcs) -lm"
rm -f "$dir/build/libibtopo-fuzz.a"
for s in "$top"/lib/*/*.c; do
	o="$dir/build/$(basename "$(dirname "$s")")-$(basename "${s%.c}").o"
	$CC $flags -fsanitize=fuzzer-no-link -c "$s" -o "$o"
	ar rc "$dir/build/libibtopo-fuzz.a" "$o"
done
lib="$dir/build/libibtopo-fuzz.a"

# The target names come from the drivers (the library's table of formats,
# and serve's two).
$CC $flags "$here/fuzz_topofile.c" "$lib" $libs -o "$dir/fuzz-seeds"
serve_src="$top/src/serve_webconfig.c $top/src/serve_request.c $top/src/serve_gzip.c"
serve_flags="-I$top/src $(pkg-config --cflags yaml-0.1 zlib)"
serve_libs=$(pkg-config --libs yaml-0.1 zlib)
# shellcheck disable=SC2086
$CC $flags $serve_flags "$here/fuzz_serve.c" $serve_src $serve_libs \
	-o "$dir/fuzz-serve-seeds"
all_targets="$("$dir/fuzz-seeds" --targets) $("$dir/fuzz-serve-seeds" --targets)"
[ -n "$targets" ] || targets=$all_targets

# Seeds: small files of each kind, and the real dumps cut into pieces of
# about 60 lines (whole files are too big to mutate quickly).
seed() {
	t=$1 c="$dir/corpus-$t"
	mkdir -p "$c"
	case $t in
	cache)
		cp "$top"/tests/data/*.cache "$c"/
		return 0 ;;
	webconfig|request)
		cp "$here/seeds/$t"/* "$c"/
		for f in "$here/crashers/$t"-*; do
			[ -f "$f" ] && cp "$f" "$c"/
		done
		return 0 ;;
	cables|counters|dbcsv|plan|routes)
		cp "$here/seeds/$t"/* "$c"/
		[ "$t" = plan ] && cp "$top"/tests/data/*plan* "$c"/
		# the counter dumps of the tests (ibqueryerrors, perfquery,
		# ibdiagnet2 .pm and db_csv)
		[ "$t" = counters ] && cp "$top"/tests/data/hc-* "$c"/
		return 0 ;;
	esac
	cp "$top"/tests/data/tf-* "$c"/ 2>/dev/null || true
	# what broke a target once starts its corpus
	for f in "$here/crashers/$t"-*; do
		[ -f "$f" ] && cp "$f" "$c"/
	done
	for f in "$real"/*.topo "$real"/*.txt "$real"/*.guid-map; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		split -l 60 -a 3 "$f" "$c/$b."
	done
}

IBTOPO_FUZZ_FABRIC="$top/tests/data/ck-cables.topo"
export IBTOPO_FUZZ_FABRIC

for t in $targets; do
	echo "$all_targets" | tr ' ' '\n' | grep -qx "$t" ||
		{ echo "fuzz/run.sh: unknown target $t" >&2; exit 2; }
	case $t in
	webconfig|request)
		# shellcheck disable=SC2086
		$CC $flags $serve_flags -fsanitize=fuzzer \
			-DFUZZ_TARGET="\"$t\"" "$here/fuzz_serve.c" $serve_src \
			$serve_libs -o "$dir/fuzz-$t" ;;
	*)
		$CC $flags -fsanitize=fuzzer -DFUZZ_TARGET="\"$t\"" \
			"$here/fuzz_topofile.c" "$lib" $libs -o "$dir/fuzz-$t" ;;
	esac
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
