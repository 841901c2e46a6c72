#!/bin/sh
# whatif-networkx.sh - whatif's figures against an independent count
# with networkx (tests/whatif-check.py: its own parser of the
# ibnetdiscover text, its own server grouping, components, leaves,
# levels and node-disjoint paths) on generated fabrics with a known
# shape: a dual-homed 2-level fat tree, a 3-level fat tree, a
# rail-optimized fabric and a Dragonfly+. For each, failures of every
# kind (a spine, a core, an aggregation switch, a leaf, a cable, two at
# once, a whole group's spines) give the same servers isolated and
# single-homed, leaf pairs, node-disjoint minimum and median, uplinks per
# level, leaf pairs losing paths and cut off, servers left single-homed;
# and --each switch (colour classes, then --exact: twins only) and
# --each cable the same figures for every switch and every cable.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
"$PYTHON3" -c 'import networkx' 2>/dev/null ||
	skip "python3 networkx is missing (python3-networkx)"
GEN=${top_builddir:-.}/tests/gen/gen-fabric
[ -x "$GEN" ] || skip "no tests/gen/gen-fabric (make check builds it)"
tmp=$TESTDIR
CHECK=$top_srcdir/tests/whatif-check.py

gen() {
	out=$1
	shift
	"$GEN" --format ibnetdiscover "$@" >"$tmp/$out.topo" 2>/dev/null ||
		fail "gen-fabric $*"
}
gen ft2 --dual ft2
gen ft3 ft3
gen rails rails
gen dfp --groups 3 dragonfly

# fail TOPO SPEC...: the rows networkx counts are rows of whatif's CSV
fail_same() {
	f=$tmp/$1.topo
	shift
	args=
	for s in "$@"; do
		args="$args --fail $s"
	done
	"$PYTHON3" "$CHECK" fail "$f" "$@" >"$tmp/want" || {
		flunk "whatif-check.py fail $*"
		return
	}
	# shellcheck disable=SC2086 # one word per SPEC, none with a space
	run 0 "$IBTOPO" whatif "$f" $args --format csv || return
	grep -Fxvf "$tmp/out" "$tmp/want" >"$tmp/missing"
	[ -s "$tmp/missing" ] && flunk "$(basename "$f") --fail $*:
$(sed 's/^/  networkx: /' "$tmp/missing")
$(sed 's/^/  whatif:   /' "$tmp/out")"
	# a figure that moved: the case tests something
	[ "$(grep -c '' "$tmp/want")" -ge 8 ] || flunk "$* : few rows"
}
fail_same ft2 spine01
fail_same ft2 leaf01
fail_same ft2 spine01 spine02
fail_same ft2 leaf01:3
fail_same ft3 core01
fail_same ft3 agg01-01
fail_same ft3 agg01-01 agg01-02
fail_same ft3 leaf01-01 core03
fail_same ft3 leaf01-01:3
fail_same rails spine1-01
fail_same rails core01 spine1-01
fail_same rails rail1-su01
fail_same dfp g01-spine01
fail_same dfp g01-spine01 g01-spine02
fail_same dfp g02-leaf01

# every switch alone, as --each ranks them
for f in ft2 ft3 rails dfp; do
	"$PYTHON3" "$CHECK" each "$tmp/$f.topo" >"$tmp/want" ||
		flunk "whatif-check.py each $f"
	for exact in "" --exact; do
		# shellcheck disable=SC2086 # no option, or one
		run 0 "$IBTOPO" whatif "$tmp/$f.topo" --each switch --top 0 \
			$exact --format csv || continue
		sed 1d "$tmp/out" | awk -F, '{ print $2 "," $4 "," $5 "," $6 "," $7 }' |
			sort >"$tmp/got"
		same "$tmp/want" "$tmp/got" "$f --each switch $exact"
	done
done
# every cable alone (switch to switch, and server cables), named by its
# ends as the CSV names it
for f in ft2 ft3 rails dfp; do
	"$PYTHON3" "$CHECK" each-cable "$tmp/$f.topo" >"$tmp/want" ||
		flunk "whatif-check.py each-cable $f"
	run 0 "$IBTOPO" whatif "$tmp/$f.topo" --each cable --top 0 \
		--format csv || continue
	sed 1d "$tmp/out" | awk -F, '{ print $2 "," $4 "," $5 "," $6 "," $7 }' |
		sort >"$tmp/got"
	same "$tmp/want" "$tmp/got" "$f --each cable"
done
# the numbers differ from cable to cable: the test can tell
[ "$(cut -d, -f2- "$tmp/want" | sort -u | wc -l)" -ge 2 ] ||
	flunk "dfp: every cable does the same"
run 0 "$IBTOPO" whatif "$tmp/dfp.topo" --each switch --top 0 --format csv
sed 1d "$tmp/out" | cut -d, -f4- >"$tmp/want"
# the numbers differ from switch to switch: the test can tell
[ "$(cut -d, -f2- "$tmp/want" | sort -u | wc -l)" -ge 2 ] ||
	flunk "dfp: every switch does the same"
exit "$failed"
