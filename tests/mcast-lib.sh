# tests/mcast-lib.sh - OpenSM as a daemon under ibsim, and hosts joining
# multicast groups through its SA: for tests/integration/mcast-sim.sh and
# ibdmchk.sh; sourced after tests/lib.sh (sim_start done).
#
#   mcast_opensm [DUMPDIR]   opensm -s 0 at $SIM_HOST until it is master
#                            (with DUMPDIR: its dumps there, -D 0x43)
#   mcast_join HOST [N]      HOST joins 0xc000 (or the group N of
#                            tests/mcast-tool); the MLID in $TESTDIR/join.out
#   mcast_resweep            SIGHUP: OpenSM sweeps again and rewrites its
#                            dumps, opensm.mcfdbs with the groups now joined
# shellcheck shell=sh

MCAST_TOOL=${top_builddir:-.}/tests/mcast-tool
OSM_PID=

mcast_opensm() {
	local dump=${1:-}

	[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
	[ -x "$MCAST_TOOL" ] || fail "no $MCAST_TOOL (make check builds it)"
	mkdir -p "$TESTDIR/osm" ${dump:+"$dump"}
	(cd "$TESTDIR/work" && OSM_CACHE_DIR="$TESTDIR/osm" \
		OSM_TMP_DIR="$TESTDIR/osm" LD_PRELOAD="$UMAD2SIM" \
		exec timeout -s KILL 300 "$OPENSM" -s 0 \
		${dump:+--dump_files_dir "$dump" -D 0x43} \
		-f "$TESTDIR/osm/osm.log" >"$TESTDIR/osm/stdout" 2>&1) &
	OSM_PID=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $OSM_PID"
	for _ in $(seq 1 200); do
		grep -q 'Entering MASTER state' "$TESTDIR/osm/osm.log" \
			2>/dev/null && return 0
		sleep 0.05
	done
	fail "opensm did not become master"
}

# retried while the SA comes up
mcast_join() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		SIM_HOST=$1 sim_client "$MCAST_TOOL" join ${2:+"$2"} \
			>"$TESTDIR/join.out" 2>&1 && return 0
		sleep 0.3
	done
	cat "$TESTDIR/join.out" >&2
	fail "$1 could not join ${2:-the broadcast group}"
}

# mcast_resweep FILE PATTERN: SIGHUP, then wait until FILE (a dump)
# matches PATTERN (grep)
mcast_resweep() {
	kill -HUP "$OSM_PID" || fail "opensm is gone"
	for _ in $(seq 1 200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "opensm did not rewrite $1 with '$2'"
}
