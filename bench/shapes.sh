#!/bin/sh
# bench/shapes.sh - shape recognition on fabrics of about 100,000
# endpoints, one of each class (issue 17): `ibtopo analyze --format json`
# of a generated ibnetdiscover dump (read, levels, class, fat-tree, rail,
# director and Dragonfly+ rules, path diversity without server pairs as
# analyze does), best CPU seconds of REPEAT runs (default 3) and peak
# memory, with the class it finds. The fat tree is today's reference;
# the target: every class within it (about 8 s on 2 cores).
#
#   sh bench/shapes.sh                   # from a build directory
#   REPEAT=1 SCALE=10 sh bench/shapes.sh # 10x smaller fabrics
#
# Not a test: nothing here asserts; read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PYTHON3=${PYTHON3:-python3}
GEN=${GEN:-$top_builddir/tests/gen/gen-fabric}
REPEAT=${REPEAT:-3}
SCALE=${SCALE:-1}
TIME=${TIME:-/usr/bin/time}
[ -x "$GEN" ] || fail "no $GEN: make tests/gen/gen-fabric"
[ -x "$TIME" ] || fail "no $TIME (Debian: apt-get install time)"

# name, gen-fabric arguments (about 100,000 CAs at SCALE 1)
shapes() {
	s=$SCALE
	cat <<EOF2
fat-tree --radix 160 --pods $((25 / s)) --leaves 40 --spines 20 --cores 40 --hosts 100 --links 1 ft3
rail-optimized --radix 160 --rails 8 --units $((98 / s)) --hosts 128 --spines 8 --cores 32 --links 1 rails
director --radix 255 --directors 6 --lines 36 --idle 1 --spines 18 --leaves $((1000 / s)) --hosts 100 --links 1 director
dragonfly-plus --radix 160 --groups $((25 / s)) --leaves 40 --spines 20 --hosts 100 dragonfly
EOF2
}

printf '%-15s %8s %7s %9s %-15s %8s %8s\n' SHAPE SWITCHES CAS LINKS CLASS CPU_S PEAK_MB
shapes | while read -r name args; do
	dump="$TESTDIR/$name.topo"
	# shellcheck disable=SC2086 # the arguments split on purpose
	"$GEN" --format ibnetdiscover $args >"$dump" || fail "gen-fabric $args"
	best=
	for _ in $(seq 1 "$REPEAT"); do
		timed "$TIME" -f '%M' -o "$TESTDIR/mem" "$IBTOPO" analyze \
			--format json "$dump"
		[ $? -le 1 ] || fail "$name: analyze failed: $(head -c 300 "$TESTDIR/err")"
		cpu=$(cat "$TESTDIR/cpu")
		if [ -z "$best" ] || lt "$cpu" "$best"; then
			best=$cpu
			mem=$(tail -n 1 "$TESTDIR/mem")
		fi
	done
	class=$(json_get 'j["topology"]["class"]' <"$TESTDIR/out")
	# shellcheck disable=SC2046 # three words
	set -- $("$PYTHON3" -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["snapshot"]
print(f.get("switches"), f.get("cas"), f.get("links"))' "$TESTDIR/out")
	printf '%-15s %8s %7s %9s %-15s %8.2f %8.0f\n' "$name" "$1" "$2" "$3" \
		"$class" "$best" "$(calc "$mem / 1024")"
	bench_row "shapes: analyze $name, $2 CAs (cpu only)" - - "$best" \
		"$(awk -v m="$mem" 'BEGIN { printf "%.0f", m / 1024 }')"
done
