# tests/sched-fabrics.sh - the fabrics the scheduler exports are tried on
# (issue 24), for tests/integration/slurm-real.sh and
# tests/cli/export-sched.sh, which source it after tests/lib.sh.
#
#   sched_fabrics DIR  # writes the plans and generated fabrics into DIR,
#                      # prints "NAME FILE [EXPORT OPTIONS]" lines
#
# Every fixture in tests/data/real that loads (x5 also with its host
# map), every `ibtopo plan` shape (fat tree of 2 and 3 levels,
# rail-optimized, Dragonfly+), a fat tree of bench/gen-fattree.py, a
# director fabric of tests/data/gen-director.py, and the star, ring and
# single-switch fabrics of tests/data/sched-*.topo.

sched_fabrics() {
	local dir=$1 f real="${top_srcdir:-.}/tests/data/real"

	for f in "$real"/*.topo "$real"/*.txt; do
		"$IBTOPO" show "$f" >/dev/null 2>&1 || continue
		echo "real-$(basename "$f") $f"
	done
	echo "real-x5-with-map $real/x5-mixed-ddr-qdr.topo" \
		"--node-name-map $real/x5-mixed-ddr-qdr.guid-map"
	"$IBTOPO" plan fat-tree --leaves 4 --spines 2 --hosts-per-leaf 4 \
		--uplinks 4 -o "$dir/ft2.topo" || fail "plan fat-tree"
	echo "plan-fat-tree-2 $dir/ft2.topo"
	"$IBTOPO" plan fat-tree --levels 3 --pods 4 --leaves 4 --spines 4 \
		--hosts-per-leaf 8 --radix 16 -o "$dir/ft3.topo" ||
		fail "plan 3 levels"
	echo "plan-fat-tree-3 $dir/ft3.topo"
	"$IBTOPO" plan rail-optimized --servers 24 --rails 8 --spines 8 \
		--unit 8 -o "$dir/rails.topo" || fail "plan rail-optimized"
	echo "plan-rail-optimized $dir/rails.topo"
	"$IBTOPO" plan rail-optimized --servers 8 --rails 4 --spines 2 \
		-o "$dir/rails-small.topo" || fail "plan rail-optimized, small"
	echo "plan-rail-optimized-small $dir/rails-small.topo"
	"$IBTOPO" plan dragonfly-plus --groups 5 --leaves 4 --spines 4 \
		--hosts-per-leaf 4 -o "$dir/dfp.topo" || fail "plan dragonfly-plus"
	echo "plan-dragonfly-plus $dir/dfp.topo"
	gen_fattree 8 3 "$dir/gen-ft3.net"
	echo "gen-fat-tree-3 $dir/gen-ft3.net"
	"$PYTHON3" "${top_srcdir:-.}/tests/data/gen-director.py" \
		-o "$dir/director.topo" || fail "gen-director.py"
	echo "gen-director $dir/director.topo"
	for f in "${top_srcdir:-.}"/tests/data/sched-*.topo; do
		echo "gen-$(basename "$f" .topo) $f"
	done
}
