#!/bin/sh
# fabrics-sim.sh - several fabrics in one database (issue 25) under two
# simulators, one per fabric, each with its own IBSIM_SOCKNAME: two
# generated fat trees with disjoint GUIDs (switchguid=/caguid= lines) and
# the same default subnet prefix. Discovers A, B, A; then `snapshots`
# shows two fabrics, `--fabric A diff latest~1 latest` finds nothing, a
# bare `diff latest~1 latest` and `health B --since A` exit 2 naming the
# fabrics, `--fabric storage discover` names its fabric, each discovery
# records the local CA and port, two discovers of the two fabrics
# started at the same moment both land, each in its own fabric, and
# discover --all-ports stores one snapshot per subnet reached.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
sim_require
T=$TESTDIR
unset IBTOPO_FABRIC

# net LEAVES HIGH OUT: a fat tree whose GUIDs are HIGH (11 hex digits)
# followed by 5 of their own: switches from 0, CAs from 0x01000
net() {
	"$IBTOPO" plan fat-tree --leaves "$1" --spines 2 --hosts-per-leaf 4 \
		--format ibsim -o "$3.plain" || fail "plan"
	awk -v high="$2" '
		/^Switch/ { printf "switchguid=0x%s%05x\n", high, n++ }
		/^Hca/ { printf "caguid=0x%s%05x\n", high, 4096 + n++ }
		{ print }' "$3.plain" >"$3" || fail "awk"
}
net 4 0002c90300a "$T/a.net"
net 3 0002c90300b "$T/b.net"

# one simulator per fabric, side by side
SOCK_A="ibtopo-$$-a-${TESTDIR##*.}"
SOCK_B="ibtopo-$$-b-${TESTDIR##*.}"
start() {	# start SOCKNAME NET: an ibsim of our own, its PID in $pid
	mkfifo "$T/console-$1" || fail "mkfifo"
	IBSIM_SOCKNAME=$1 "$IBSIM" -s "$2" 0<>"$T/console-$1" \
		>"$T/ibsim-$1.log" 2>&1 &
	pid=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $pid"
	for _ in $(seq 1 200); do
		grep -q "@$1:ctl" /proc/net/unix && return 0
		kill -0 "$pid" 2>/dev/null || { cat "$T/ibsim-$1.log" >&2; fail "ibsim exited on $2"; }
		sleep 0.05
	done
	fail "ibsim on $2 did not start listening"
}
start "$SOCK_A" "$T/a.net"
start "$SOCK_B" "$T/b.net"

# an SM sweep on each: GidPrefix fe80::, LIDs, MasterSMLID (ibsim alone
# leaves them 0)
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
osm() {	# osm SOCKNAME NAME OPENSM-ARGS...: output in $T/osm-NAME
	s=$1
	d=$T/osm-$2
	shift 2
	mkdir -p "$d"
	(cd "$T/work" && IBSIM_SOCKNAME=$s OSM_CACHE_DIR="$d" \
		OSM_TMP_DIR="$d" LD_PRELOAD="$UMAD2SIM" \
		timeout -s KILL 120 "$OPENSM" -f "$d/osm.log" "$@" \
		>"$d/stdout" 2>&1)
}
osm "$SOCK_A" a -o || fail "opensm on A"
osm "$SOCK_B" b -o || fail "opensm on B"
# then an SM that stays, on the port the first one swept from, for SMInfo
mkdir -p "$T/osm-sm"
(cd "$T/work" && IBSIM_SOCKNAME=$SOCK_A OSM_CACHE_DIR="$T/osm-sm" \
	OSM_TMP_DIR="$T/osm-sm" LD_PRELOAD="$UMAD2SIM" exec timeout -s KILL 120 \
	"$OPENSM" -s 0 -f "$T/osm-sm/osm.log" >"$T/osm-sm/stdout" 2>&1) &
OSM_PID=$!	# timeout's, which passes TERM on to opensm
# stopped before the simulators: opensm ignores TERM once ibsim is gone
CLEANUP_PIDS="$OSM_PID $CLEANUP_PIDS"
osm_master "$T/osm-sm/stdout" 1200 ||
	fail "opensm on A: not master within 60 s"

disc() {	# disc SOCKNAME [IBTOPO ARGS...]: discover through that simulator
	s=$1
	shift
	IBSIM_SOCKNAME=$s sim_client "$IBTOPO" --db "$DB" discover "$@"
}
run 0 disc "$SOCK_A" || cat "$T/err" >&2
fa=$(sed -n 's/^  fabric: //p' "$T/out")
run 0 disc "$SOCK_B" || cat "$T/err" >&2
fb=$(sed -n 's/^  fabric: //p' "$T/out")
run 0 disc "$SOCK_A" &&
	grep -qx "  fabric: $fa" "$T/out" || flunk "A again: $(cat "$T/out")"
[ "$fa" = fe80-0002c90300a00000 ] || flunk "fabric of A: '$fa'"
[ "$fb" = fe80-0002c90300b00000 ] || flunk "fabric of B: '$fb'"

# `snapshots` shows two fabrics; `fabrics` has the prefix
run 0 "$IBTOPO" --db "$DB" snapshots --format csv &&
	[ "$(tr -d '\r' <"$T/out" | sed 1d | awk -F, '{ print $1 ":" $NF }' | tr '\n' ' ')" = "1:$fa 2:$fb 3:$fa " ] ||
	flunk "snapshots: $(cat "$T/out")"
run 0 "$IBTOPO" --db "$DB" fabrics --format csv &&
	[ "$(tr -d '\r' <"$T/out" | sed 1d | cut -d, -f1,2,5,8,9 | tr '\n' ' ')" = \
		"$fa,0xfe80000000000000,2,6,16 $fb,0xfe80000000000000,1,5,12 " ] ||
	flunk "fabrics: $(cat "$T/out")"
run 0 "$IBTOPO" --db "$DB" show --format json 2 nodes
# the local CA and port each was taken through (ibsim attaches a client
# to the first node of the net file: leaf01, switch port 0)
TOOL=${top_builddir:-.}/tests/store-tool
if [ -x "$TOOL" ]; then
	got=$("$TOOL" exec "$DB" "SELECT count(*) FROM snapshots WHERE local_ca = 'ibsim0' AND local_port = 0 AND printf('%x', subnet_prefix) = 'fe80000000000000'")
	[ "$got" = 3 ] || flunk "local port and prefix: $got of 3 snapshots"
fi

# within fabric A: the same fabric twice, no differences
run 0 "$IBTOPO" --db "$DB" --fabric "$fa" diff latest~1 latest
# bare: exit 2, the fabrics named
run 2 "$IBTOPO" --db "$DB" diff latest~1 latest &&
	grep -q "^ibtopo: 'latest~1' could be in any of 2 fabrics: $fa (latest: 3, .*), $fb (latest: 2, .*)" "$T/err" ||
	flunk "bare diff: $(cat "$T/err")"
# B against A: exit 2, both named
run 2 "$IBTOPO" --db "$DB" health 2 --since 1 &&
	stderr_is "ibtopo: snapshot 1 is of fabric '$fa' and snapshot 2 of fabric '$fb': not compared (--across-fabrics compares them anyway)"
run 1 "$IBTOPO" --db "$DB" --across-fabrics diff 1 2 &&
	grep -q "share 0 node GUIDs" "$T/err" || flunk "--across-fabrics: $(cat "$T/err")"

# --fabric storage discover names the fabric
run 0 disc "$SOCK_B" --fabric storage &&
	grep -qx "  fabric: storage" "$T/out" || flunk "--fabric storage: $(cat "$T/out")"

# two discovers of the two fabrics at the same moment: both land
disc "$SOCK_A" >"$T/c1" 2>&1 &
p1=$!
disc "$SOCK_B" >"$T/c2" 2>&1 &
p2=$!
wait "$p1" || flunk "concurrent discover A: $(cat "$T/c1")"
wait "$p2" || flunk "concurrent discover B: $(cat "$T/c2")"
grep -qx "  fabric: $fa" "$T/c1" || flunk "concurrent A joined: $(cat "$T/c1")"
grep -qx "  fabric: storage" "$T/c2" || flunk "concurrent B joined: $(cat "$T/c2")"
run 0 "$IBTOPO" --db "$DB" fabrics --format csv &&
	[ "$(tr -d '\r' <"$T/out" | sed 1d | cut -d, -f1,5 | tr '\n' ' ')" = "$fa,3 $fb,1 storage,2 " ] ||
	flunk "after the concurrent discovers: $(cat "$T/out")"

# discover --all-ports: one line per fabric reached (a simulator has
# one local port), into the fabric its switches belong to
run 0 disc "$SOCK_A" --all-ports &&
	grep -qx "snapshot 7 of fabric '$fa' through ibsim0 port 0: 6 switches, 16 CAs, 32 links" "$T/out" &&
	[ "$(grep -c . "$T/out")" -eq 1 ] || flunk "--all-ports: $(cat "$T/out" "$T/err")"
# --quiet too: the README's cron line on a multi-rail cluster (issue 33,
# item 9): nothing printed, one more snapshot
run 0 disc "$SOCK_A" --all-ports --quiet &&
	[ ! -s "$T/out" ] && ! grep -q '^ibtopo:' "$T/err" ||
	flunk "--all-ports --quiet: $(cat "$T/out" "$T/err")"
[ "$("$IBTOPO" --db "$DB" snapshots --format csv | sed 1d | wc -l)" -eq 8 ] ||
	flunk "--all-ports --quiet stored no snapshot"
run 2 disc "$SOCK_A" --all-ports --format json
run 2 disc "$SOCK_A" --all-ports --fabric x
run 2 disc "$SOCK_A" --all-ports -C ibsim0

# the SM of A answered SMInfo: its port GUID is recorded
run 0 "$IBTOPO" --db "$DB" fabrics --format json &&
	grep -q "\"name\":\"$fa\",\"subnet_prefix\":\"0xfe80000000000000\",\"sm_lid\":[1-9][0-9]*,\"sm_guid\":\"0x0002c90300a[0-9a-f]*\"" "$T/out" ||
	flunk "SM of A: $(cat "$T/out")"
kill "$OSM_PID" 2>/dev/null
wait "$OSM_PID" 2>/dev/null

exit "$failed"
