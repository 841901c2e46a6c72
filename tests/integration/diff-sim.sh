#!/bin/sh
# diff-sim.sh - discover a simulated fabric, recable it (a second net file
# derived from the first), discover again, diff: exactly the changes made,
# each named once. Two discoveries of an unchanged fabric diff to nothing
# (exit 0). Needs ibsim, ibnetdiscover and libumad2sim (else SKIP).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
ibnetdiscover_require
T=$TESTDIR

# One line per change: kind detail a b c d old new links.
project() {
	findings_lines old new
}

"$IBTOPO" plan fat-tree --leaves 4 --spines 4 --hosts-per-leaf 8 \
	--uplinks 8 --format ibsim -o "$T/before.net" || fail "plan --format ibsim"

# 1. The same fabric discovered twice: no changes, exit 0.
sim_ibnetdiscover "$T/before.net" "$T/before.topo" "$DB"
sim_ibnetdiscover "$T/before.net" "$T/again.topo" "$DB"
"$IBTOPO" diff "$T/before.topo" "$T/again.topo" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$T/out"; fail "unchanged fabric: exit $rc, expected 0"; }
if have_discover; then
	"$IBTOPO" --db "$DB" diff --lids latest~1 latest >"$T/out" 2>&1 ||
		{ cat "$T/out"; fail "two snapshots of an unchanged fabric differ"; }
fi

# 2. Recabled: the last host gone, a new one (its own GUID), a host
# renamed, one cable moved, two swapped, one unplugged, one added, one
# link at EDR, one at 1x. Nodes keep their order, so ibsim keeps GUIDs.
"$PYTHON3" "$NETEDIT" "$T/before.net" "$T/after.net" \
	rmnode host032 \
	addhost host099 0x300000 leaf02:30 \
	desc host001 "host001 mlx5_0" \
	move leaf03:10 leaf03:30 \
	swap leaf04:1 leaf04:2 \
	unlink leaf02:9 \
	link leaf01:35 leaf02:35 \
	opt leaf01:9 e=3 \
	opt leaf01:10 w=1 || fail "netedit"
sim_ibnetdiscover "$T/after.net" "$T/after.topo" "$DB"
cat >"$T/want" <<'EOF'
node-removed - host032: - - - - - 1
node-added - host099: - - - - - 1
node-renamed - host001: - host001 mlx5_0: - - - -
link-moved swapped leaf04:1 host025:1 leaf04:2 host026:1 - - -
link-moved one-end spine02:5 leaf03:10 spine02:5 leaf03:30 - - -
link-removed - leaf02:9 spine01:3 - - - - -
link-added - leaf01:35 leaf02:35 - - - - -
link-speed-changed - leaf01:9 spine01:1 - - HDR EDR -
link-width-changed - leaf01:10 spine02:1 - - 4x 1x -
EOF
projected "changes (ibnetdiscover text)" \
	"$IBTOPO" diff "$T/before.topo" "$T/after.topo" --format json
if have_discover; then
	projected "changes (ibtopo discover snapshots)" \
		"$IBTOPO" --db "$DB" diff latest~1 latest --format json
fi

# Text names the moved cable's new port; the reverse diff is symmetric.
"$IBTOPO" diff "$T/before.topo" "$T/after.topo" >"$T/out"
grep -q 'leaf03' "$T/out" || fail "text output does not name the moved cable"
"$IBTOPO" diff "$T/after.topo" "$T/before.topo" --format csv >"$T/out"
[ "$(wc -l <"$T/out")" -eq 10 ] || { cat "$T/out"; fail "reverse diff: expected 9 changes"; }
echo "PASS"
exit 0
