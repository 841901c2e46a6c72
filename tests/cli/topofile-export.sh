#!/bin/sh
# topofile-export.sh - `ibtopo export` in every format against golden
# files; -o writes the same bytes; a snapshot exports as the file it came
# from; what ibnetdiscover format writes reads back to the same text.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env
[ -d "$REAL" ] || fail "no $REAL (the real dumps are in the repository)"

# golden NAME EXPORT-ARGS...: stdout must equal tests/golden/NAME; with
# IBTOPO_UPDATE_GOLDEN set (as test_render's), it becomes that file, and
# the test skips rather than pass without comparing
rewritten=0
golden() {
	name=$1
	shift
	if ! "$IBTOPO" export "$@" >"$tmp/out" 2>"$tmp/err"; then
		flunk "export $*: $(cat "$tmp/err")"
		return
	fi
	if [ -n "${IBTOPO_UPDATE_GOLDEN:-}" ]; then
		cp "$tmp/out" "$GOLDEN/$name"
		rewritten=$((rewritten + 1))
	elif ! cmp -s "$GOLDEN/$name" "$tmp/out"; then
		flunk "export $* differs from golden/$name"
		diff "$GOLDEN/$name" "$tmp/out" | head -20 | sed 's/^/  /'
	fi
}

# Relative paths: the JSON names its source.
cd "$REAL" || exit 99
golden tf-tiny.ibnetdiscover --format ibnetdiscover tiny-mixed-speeds.topo
golden tf-tiny.net --format ibsim tiny-mixed-speeds.topo
golden tf-tiny.csv --format csv tiny-mixed-speeds.topo
golden tf-tiny.json --format json tiny-mixed-speeds.topo
golden tf-x5.slurm --format slurm --node-name-map x5-mixed-ddr-qdr.guid-map \
	x5-mixed-ddr-qdr.topo
cd "$DATA" || exit 99
golden tf-plan.ibnetdiscover tf-plan.topo
golden tf-variants.ibnetdiscover tf-variants.topo
golden tf-ports-dr.ibnetdiscover --input-format ports tf-ports-dr.txt
golden tf-sim.ibnetdiscover tf-sim.net
cd "$tmp" || exit 99

# -o: the same bytes, in a file readable as usual
# (from $REAL, as the golden file: the header names the source file)
(cd "$REAL" && "$IBTOPO" export --format slurm -o "$tmp/topology.conf" \
	--node-name-map x5-mixed-ddr-qdr.guid-map x5-mixed-ddr-qdr.topo) \
	>"$tmp/out" 2>"$tmp/err" ||
	flunk "export -o: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && flunk "export -o also wrote to stdout"
cmp -s "$GOLDEN/tf-x5.slurm" "$tmp/topology.conf" || flunk "export -o differs"
# shellcheck disable=SC2010 # our own file names
ls "$tmp" | grep -q 'tmp' && flunk "export -o left a temporary file"
"$IBTOPO" export -o /nonexistent/dir/x.topo "$REAL/tiny-mixed-speeds.topo" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || flunk "export to a missing directory did not exit 2"
grep -q "^ibtopo: cannot write '/nonexistent/dir/x.topo': " "$tmp/err" ||
	flunk "export to a missing directory said: $(cat "$tmp/err")"
"$IBTOPO" export --format dot "$REAL/tiny-mixed-speeds.topo" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || flunk "an unknown format did not exit 2"

# a snapshot exports as the file it was imported from
"$IBTOPO" --db "$tmp/db" import "$REAL/qdr-hosts-fdr10-isls.topo" >/dev/null 2>&1 ||
	flunk "import qdr"
"$IBTOPO" --db "$tmp/db" export latest >"$tmp/snap.topo" 2>"$tmp/err" ||
	flunk "export latest: $(cat "$tmp/err")"
"$IBTOPO" export "$REAL/qdr-hosts-fdr10-isls.topo" >"$tmp/file.topo" 2>&1
cmp -s "$tmp/snap.topo" "$tmp/file.topo" || flunk "snapshot and file export differ"

# every real dump: export, read back, export: the same text
for f in "$REAL"/*.topo "$REAL"/*.txt; do
	"$IBTOPO" export "$f" >"$tmp/a.topo" 2>/dev/null || { flunk "export $f"; continue; }
	"$IBTOPO" export "$tmp/a.topo" >"$tmp/b.topo" 2>"$tmp/err" ||
		{ flunk "re-export of $f: $(cat "$tmp/err")"; continue; }
	cmp -s "$tmp/a.topo" "$tmp/b.topo" || flunk "$f does not round-trip"
done
if [ "$rewritten" -gt 0 ] && [ "$failed" -eq 0 ]; then
	echo "SKIP: IBTOPO_UPDATE_GOLDEN: $rewritten golden files rewritten, none compared"
	exit 77
fi
exit $failed
