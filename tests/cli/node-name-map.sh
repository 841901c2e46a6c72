#!/bin/sh
# node-name-map.sh - the node-name map as infiniband-diags uses it (issue
# 18, item 3): every command that prints names (analyze, show, diff,
# validate, render, export, health) renames nodes by it; the map is
# --node-name-map, else $IBTOPO_NODE_NAME_MAP, else the default file
# (rdma-core's /etc/rdma/ib-node-name-map; tests/ibtopo-etc is built with
# one in the build tree, so this test never reads the machine's /etc).
# An empty option or variable turns the map off.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
FT=$DATA/ck-cables.topo		# leaf01 is 0x1000000000000200
ETC_IBTOPO=$top_builddir/tests/ibtopo-etc
ETC_MAP=$top_builddir/tests/etc-rdma/ib-node-name-map
unset IBTOPO_DB
LC_ALL=C
export LC_ALL

printf '# site names\n0x1000000000000200 "opt-leaf"\n' >"$tmp/opt.map"
printf '0x1000000000000200 "env-leaf"\n' >"$tmp/env.map"

# ---- every command that prints names, with the map from the variable
IBTOPO_NODE_NAME_MAP=$tmp/env.map
export IBTOPO_NODE_NAME_MAP
names() {	# names WANT_RC COMMAND...: the output names env-leaf, not leaf01
	want=$1
	shift
	run "$want" "$IBTOPO" "$@" || return
	grep -q 'env-leaf' "$tmp/out" || flunk "'$*' does not name env-leaf: $(head -c 300 "$tmp/out")"
	grep -q 'leaf01' "$tmp/out" && flunk "'$*' still names leaf01"
	return 0
}
names 0 analyze "$FT"
names 0 show "$FT"
names 0 show "$FT" links
names 0 export --format csv "$FT"
names 0 export --format ibnetdiscover "$FT"
names 0 render --format dot -o - "$FT"
# diff and validate: leaf01's cables moved in NEW
sed 's/"S-1000000000000200"\[39\]/"S-1000000000000200"[38]/' "$FT" >"$tmp/moved.topo"
names 1 diff "$FT" "$tmp/moved.topo"
names 1 validate "$FT" "$tmp/moved.topo"
# health: counters stored without a map, named with it at report time
run 0 env IBTOPO_NODE_NAME_MAP='' "$IBTOPO" --db "$tmp/db" import "$FT" \
	--counters "$DATA/hc-perfquery.txt"
names 0 --db "$tmp/db" health --format json
run 0 "$IBTOPO" --db "$tmp/db" show
grep -q 'env-leaf' "$tmp/out" || flunk "show of the snapshot: $(cat "$tmp/out")"

# ---- the option wins over the variable; empty turns either off
run 0 "$IBTOPO" show --node-name-map "$tmp/opt.map" "$FT"
grep -q 'opt-leaf' "$tmp/out" || flunk "option over variable: $(cat "$tmp/out")"
run 0 "$IBTOPO" --node-name-map '' show "$FT"
grep -q ' leaf01 ' "$tmp/out" || flunk "--node-name-map '': $(cat "$tmp/out")"
run 0 env IBTOPO_NODE_NAME_MAP='' "$IBTOPO" show "$FT"
grep -q ' leaf01 ' "$tmp/out" || flunk "IBTOPO_NODE_NAME_MAP='': $(cat "$tmp/out")"
run 2 env IBTOPO_NODE_NAME_MAP=$tmp/none.map "$IBTOPO" show "$FT" &&
	grep -q "none.map" "$tmp/err" || flunk "a missing map named by the variable: $(cat "$tmp/err")"

# ---- the default file, when it exists; the variable and option win
[ -x "$ETC_IBTOPO" ] || fail "$ETC_IBTOPO not built"
unset IBTOPO_NODE_NAME_MAP
rm -f "$ETC_MAP"
run 0 "$ETC_IBTOPO" show "$FT"
grep -q ' leaf01 ' "$tmp/out" || flunk "no default file: $(cat "$tmp/out")"
mkdir -p "${ETC_MAP%/*}" || fail "mkdir"
trap 'rm -f "$ETC_MAP"; rmdir "${ETC_MAP%/*}" 2>/dev/null; lib_cleanup' EXIT
printf '0x1000000000000200 "etc-leaf"\n' >"$ETC_MAP"
run 0 "$ETC_IBTOPO" show "$FT"
grep -q 'etc-leaf' "$tmp/out" || flunk "default file: $(cat "$tmp/out")"
run 0 "$ETC_IBTOPO" --help
grep -q "$ETC_MAP" "$tmp/out" || flunk "--help does not name the default map"
run 0 env IBTOPO_NODE_NAME_MAP=$tmp/env.map "$ETC_IBTOPO" show "$FT"
grep -q 'env-leaf' "$tmp/out" || flunk "variable over default file: $(cat "$tmp/out")"
run 0 env IBTOPO_NODE_NAME_MAP='' "$ETC_IBTOPO" show "$FT"
grep -q ' leaf01 ' "$tmp/out" || flunk "empty variable over default file: $(cat "$tmp/out")"
run 0 "$ETC_IBTOPO" show "$FT" --node-name-map "$tmp/opt.map"
grep -q 'opt-leaf' "$tmp/out" || flunk "option over default file: $(cat "$tmp/out")"
exit "$failed"
