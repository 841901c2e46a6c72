#!/bin/sh
# names-back.sh - every name ibtopo prints for a node is accepted back
# where a node is taken (issue 23, item 17): `show switches --switch`
# takes a node GUID or port GUID, the ibnetdiscover ids S-<guid> and
# H-<guid> (the Slurm export names switches and hosts so), a LID as
# lid:N or as a plain number no description has, a description, the
# short name of a Mellanox "MF0;<name>:<model>/U1" switch and a host's
# first word; the names the Slurm export prints are all accepted. And one
# `analyze` output names each switch one way: the path diversity's worst
# pair as the findings table does.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
topo=$DATA/ck-cables.topo
# leaf01 described with spaces: the Slurm export names it S-<guid>
sed 's/"leaf01"/"Mellanox leaf one"/' "$topo" >"$tmp/spaced.topo"

# block NAME: the switch block `show switches --switch NAME` prints
accepts() {	# accepts FILE NAME WANT_GUID
	"$IBTOPO" show "$1" switches --switch "$2" --format json >"$tmp/sw.json" 2>"$tmp/sw.err" || {
		flunk "--switch '$2' refused: $(cat "$tmp/sw.err")"
		return
	}
	got=$(json_get '" ".join(sorted(set(p["guid"] for p in j["ports"])))' <"$tmp/sw.json")
	[ "$got" = "$3" ] || flunk "--switch '$2' gave $got, wanted $3"
}
python_require

leaf=0x1000000000000200
for name in 0x1000000000000200 S-1000000000000200 s-1000000000000200 \
	lid:2 2 "Mellanox leaf one"; do
	accepts "$tmp/spaced.topo" "$name" "$leaf"
done
host=0x2000000000000100
for name in H-2000000000000100 2000000000000101 0x2000000000000101 lid:11 11 \
	"host01 mlx5_0" host01; do
	accepts "$tmp/spaced.topo" "$name" "$host"
done
# names that name nothing, or several, are refused (exit 2)
run 2 "$IBTOPO" show "$tmp/spaced.topo" switches --switch lid:99
grep -q "no node 'lid:99'" "$tmp/err" || flunk "lid:99: $(cat "$tmp/err")"
run 2 "$IBTOPO" show "$tmp/spaced.topo" switches --switch lid:x
run 2 "$IBTOPO" show "$tmp/spaced.topo" switches --switch S-
# a description that is a number wins over the LID it could be
sed 's/"host02 mlx5_0"/"12"/' "$topo" >"$tmp/numbered.topo"
accepts "$tmp/numbered.topo" 12 0x2000000000000200
accepts "$tmp/numbered.topo" lid:12 0x2000000000000200
accepts "$tmp/numbered.topo" 11 "$host"

# ---- every name of the Slurm export is accepted back
run 0 "$IBTOPO" export --format slurm "$tmp/spaced.topo"
grep -q 'SwitchName=S-1000000000000200 ' "$tmp/out" ||
	flunk "Slurm export: no S-<guid> name: $(cat "$tmp/out")"
sed -n 's/^SwitchName=\([^ ]*\).*/\1/p' "$tmp/out" >"$tmp/names"
[ -s "$tmp/names" ] || flunk "no SwitchName in the Slurm export"
while read -r n; do
	"$IBTOPO" show "$tmp/spaced.topo" switches --switch "$n" >/dev/null 2>"$tmp/e" ||
		flunk "Slurm name $n refused: $(cat "$tmp/e")"
done <"$tmp/names"
# MF0 switches: the Slurm export names them by their short name (and
# "ib7-hosts" is no node: the group it writes for the hosts on a spine)
qdr=$REAL/qdr-hosts-fdr10-isls.topo
run 0 "$IBTOPO" export --format slurm "$qdr"
sed -n 's/^SwitchName=\([^ ]*\).*/\1/p' "$tmp/out" | grep -v -- '-hosts$' >"$tmp/names"
while read -r n; do
	"$IBTOPO" show "$qdr" switches --switch "$n" >/dev/null 2>"$tmp/e" ||
		flunk "Slurm name $n refused: $(cat "$tmp/e")"
done <"$tmp/names"

# ---- analyze names a switch one way: MF0;ib1:SX6036/U1, never also ib1
run 0 "$IBTOPO" analyze "$qdr"
grep -q 'MF0;ib1:SX6036/U1' "$tmp/out" || flunk "analyze: no MF0;ib1:SX6036/U1"
grep -E '(^| )ib1( |:|$)' "$tmp/out" && flunk "analyze names ib1 two ways"
exit "$failed"
