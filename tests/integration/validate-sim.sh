#!/bin/sh
# validate-sim.sh - a planned fat tree, simulated with seven faults injected,
# discovered, validated: exactly those seven findings; the clean fabric
# validates with exit 0, also with hosts described "hostNNN mlx5_0" and
# --match. Needs ibsim, ibnetdiscover and libumad2sim (else SKIP).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
ibnetdiscover_require
T=$TESTDIR

# One line per finding: kind detail a b c d expected active links.
project() {
	findings_lines expected active
}

# Plan: 4 leaves of 8 hosts, 2 cables from every leaf to each of 4 spines.
plan_both fat-tree --leaves 4 --spines 4 --hosts-per-leaf 8 --uplinks 8 \
	--speed HDR

# 1. The fabric as planned: exit 0, no findings.
sim_ibnetdiscover "$T/plan.net" "$T/clean.topo" "$T/clean.db"
"$IBTOPO" validate "$T/plan.topo" "$T/clean.topo" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$T/out"; fail "clean fabric: exit $rc, expected 0"; }
if have_discover; then
	"$IBTOPO" --db "$T/clean.db" validate "$T/plan.topo" >"$T/out" 2>&1 ||
		{ cat "$T/out"; fail "clean snapshot does not validate"; }
fi

# 2. Hosts described as the OS names them: matched with --match.
args=
for h in $(seq -f 'host%03g' 1 32); do
	args="$args desc $h \"$h mlx5_0\""
done
eval "\"\$PYTHON3\" \"\$NETEDIT\" \"\$T/plan.net\" \"\$T/desc.net\" $args" || fail "netedit desc"
sim_ibnetdiscover "$T/desc.net" "$T/desc.topo"
"$IBTOPO" validate "$T/plan.topo" "$T/desc.topo" --format json >"$T/out" 2>&1
[ $? -eq 1 ] || fail "descriptions differ but validate passed"
n=$(project <"$T/out" | grep -c '^missing-node ')
[ "$n" -eq 32 ] || fail "expected 32 missing hosts without --match, got $n"
"$IBTOPO" validate --match '^([^ ]+)' "$T/plan.topo" "$T/desc.topo" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "--match did not match hosts by their first word"; }

# 3. Seven faults.
"$PYTHON3" "$NETEDIT" "$T/plan.net" "$T/faulty.net" \
	rmnode spine04 \
	unlink leaf02:9 \
	move leaf03:10 leaf03:30 \
	swap leaf04:1 leaf04:2 \
	link leaf01:35 leaf02:35 \
	opt leaf01:9 e=3 \
	opt leaf01:10 w=1 || fail "netedit faults"
sim_ibnetdiscover "$T/faulty.net" "$T/faulty.topo" "$T/faulty.db"
cat >"$T/want" <<'EOF'
missing-node - spine04: - - - - - 8
miswired-link swapped leaf04:1 host026:1 leaf04:2 host025:1 - - -
miswired-link one-end spine02:5 leaf03:30 spine02:5 leaf03:10 - - -
missing-link - leaf02:9 spine01:3 - - - - -
extra-link - leaf01:35 leaf02:35 - - - - -
speed-below-plan - leaf01:9 spine01:1 - - HDR EDR -
width-below-plan - leaf01:10 spine02:1 - - 4x 1x -
EOF
projected "faulty fabric (ibnetdiscover text): findings" \
	"$IBTOPO" validate "$T/plan.topo" "$T/faulty.topo" --format json
if have_discover; then
	projected "faulty fabric (ibtopo discover): findings" \
		"$IBTOPO" --db "$T/faulty.db" validate "$T/plan.topo" latest --format json
fi

# The same faults in text and CSV: one row per finding.
"$IBTOPO" validate "$T/plan.topo" "$T/faulty.topo" --format csv >"$T/out"
[ "$(wc -l <"$T/out")" -eq 8 ] || { cat "$T/out"; fail "CSV: expected a header and 7 rows"; }
"$IBTOPO" validate "$T/plan.topo" "$T/faulty.topo" >"$T/out"
grep -q 'spine04' "$T/out" || fail "text output does not name the missing switch"
echo "PASS"
exit 0
