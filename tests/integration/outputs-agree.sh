#!/bin/sh
# outputs-agree.sh - every output says what analyze says (issue 32): on
# every real dump and fixture fabric of the suite, on planned and
# generated fabrics, with and without --roots/--root-pattern, on
# fabrics discovered under ibsim, and on what `serve` serves there,
# analyze, metrics, export --format slurm and render --format dot agree
# on the downgraded links, the levels per switch, the names per GUID,
# the fabric name and the findings (tests/outputs-agree.py says how).
. "${top_srcdir:-.}/tests/lib.sh"
python_require
AGREE="$top_srcdir/tests/outputs-agree.py"
agree() {
	"$PYTHON3" "$AGREE" "$IBTOPO" "$TESTDIR" "$@" >>"$TESTDIR/agree.log" ||
		fail "outputs disagree on $1 $*"
}

# ---- the real dumps and the fixtures (the malformed ones aside)
n=0
for f in "$DATA"/real/*.topo "$DATA"/real/*.txt "$DATA"/*.topo; do
	case ${f##*/} in tf-bad-*) continue ;; esac
	agree "$f"
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n fixture fabrics"

# ---- planned fat trees, rails and Dragonfly+
"$IBTOPO" plan fat-tree --leaves 6 --spines 4 --hosts-per-leaf 8 \
	-o "$TESTDIR/ft.topo" >/dev/null || fail "plan fat-tree"
"$IBTOPO" plan rail-optimized --servers 16 --rails 4 --spines 4 \
	-o "$TESTDIR/rails.topo" >/dev/null || fail "plan rail-optimized"
"$IBTOPO" plan dragonfly-plus --groups 3 --leaves 2 --spines 2 \
	--hosts-per-leaf 2 --global 2 -o "$TESTDIR/df.topo" >/dev/null ||
	fail "plan dragonfly-plus"
for f in ft rails df; do agree "$TESTDIR/$f.topo"; done

# ---- levels that depend on the options: ranked down from a leaf, every
# output ranks as analyze does, and not as it does by default
R=$DATA/rd-small.topo
printf 'leaf01\n' >"$TESTDIR/roots"
"$IBTOPO" analyze "$R" --format json --fail-on never >"$TESTDIR/a0.json"
"$IBTOPO" analyze "$R" --format json --fail-on never \
	--roots "$TESTDIR/roots" >"$TESTDIR/a1.json"
"$PYTHON3" -c '
import json, sys
lv = lambda p: [sorted(l["switch_guids"]) for l in json.load(open(p))["topology"]["by_level"]]
sys.exit(lv(sys.argv[1]) == lv(sys.argv[2]))
' "$TESTDIR/a0.json" "$TESTDIR/a1.json" || fail "--roots leaf01 changed no level"
agree "$R" --roots "$TESTDIR/roots"
agree "$R" --root-pattern 'leaf02'
agree "$R" --servers single
# a render and a slurm export that ignored --roots would rank as before
"$IBTOPO" export "$R" --format slurm --roots "$TESTDIR/roots" >"$TESTDIR/r.conf"
"$IBTOPO" export "$R" --format slurm >"$TESTDIR/d.conf"
cmp -s "$TESTDIR/r.conf" "$TESTDIR/d.conf" && fail "export ignored --roots"
"$IBTOPO" render "$R" -o "$TESTDIR/r.dot" --roots "$TESTDIR/roots"
"$IBTOPO" render "$R" -o "$TESTDIR/d.dot"
cmp -s "$TESTDIR/r.dot" "$TESTDIR/d.dot" && fail "render ignored --roots"
"$IBTOPO" metrics "$R" --roots "$TESTDIR/roots" >/dev/null ||
	fail "metrics --roots"
"$IBTOPO" routes "$R" --roots "$TESTDIR/roots" >/dev/null 2>&1
[ $? -le 2 ] || fail "routes --roots"

# ---- the same through the store: a snapshot's fabric name too
ADB=$TESTDIR/agree.db
"$IBTOPO" --db "$ADB" import "$DATA/rd-small-new.topo" >/dev/null ||
	fail "import"
agree latest --db "$ADB"

# ---- discovered under ibsim (every ibsim port claims 12x), and served
if [ -x "${IBSIM:-}" ] && [ -f "${UMAD2SIM:-}" ] &&
	command -v curl >/dev/null 2>&1; then
	. "$top_srcdir/tests/serve-lib.sh"
	sim_start "$DATA/sim-speeds.net"
	SDB=$TESTDIR/sim.db
	sim_client "$IBTOPO" --db "$SDB" discover >/dev/null 2>&1 ||
		fail "discover sim-speeds"
	agree latest --db "$SDB"
	DB=$TESTDIR/served.db
	mkdir -p "$TESTDIR/work"
	serve_start --interval 0.5 --store-every 1s
	metrics_until '[ -n "$(mval ibtopo_fabric_links "")" ]' 20 ||
		fail "serve stored no sweep"
	# a sweep stored after the scrape's: the same static fabric
	sleep 1.2
	scrape /metrics >/dev/null
	cp "$TESTDIR/body" "$TESTDIR/served.prom"
	agree latest --metrics-file "$TESTDIR/served.prom" --db "$DB"
	serve_stop
fi
cat "$TESTDIR/agree.log"
exit 0
