#!/bin/sh
# routing-engine.sh - the routing engine that computed the tables is
# recorded with the snapshot (issue 15): `import --routes RFILE
# --routing-engine NAME`, or `--routes-log LOG`, the engine of an OpenSM
# log's last "<engine> tables configured on all switches" line (a file or
# standard input). Either without --routes, both together, a bad name, or
# a log that names no engine are refused (exit 2) and store nothing;
# `discover` refuses them before it sweeps. Under ibsim,
# tests/integration/routes-sim.sh records a live OpenSM's log.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
python_require
IBTOPO_DB=$tmp/db
export IBTOPO_DB
cache=$DATA/sim-small.cache
dump=$DATA/ir-sim-small-lfts.dump
log=$DATA/rt-opensm-log.txt

# sql QUERY: the first value of the query's first row, read-only
sql() {
	"$PYTHON3" -c '
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(db.execute(sys.argv[2]).fetchone()[0])
' "$IBTOPO_DB" "$1" || fail "sql: $1"
}
# engine ID: the routing engine stored with snapshot ID ("-": none)
engine() {
	sql "SELECT coalesce(routing_engine, '-') FROM snapshots WHERE id = $1"
}
snapshots() {
	sql "SELECT count(*) FROM snapshots"
}

# ---- named, read from a log (a file, standard input), or not known
run 0 "$IBTOPO" import "$cache" --routes "$dump" --routing-engine ftree ||
	flunk "import --routing-engine"
[ "$(engine 1)" = ftree ] || flunk "snapshot 1: engine '$(engine 1)', wanted ftree"
run 0 "$IBTOPO" import "$cache" --routes "$dump" --routes-log "$log" ||
	flunk "import --routes-log"
[ "$(engine 2)" = minhop ] || flunk "snapshot 2: engine '$(engine 2)', wanted minhop"
sed 's/ minhop tables/ torus-2QoS tables/' "$log" >"$tmp/torus.log"
cat "$log" "$tmp/torus.log" | run 0 "$IBTOPO" import "$cache" \
	--routes "$dump" --routes-log - || flunk "import --routes-log -"
[ "$(engine 3)" = torus-2QoS ] ||
	flunk "snapshot 3: engine '$(engine 3)', wanted the log's last, torus-2QoS"
run 0 "$IBTOPO" import "$cache" --routes "$dump" || flunk "import --routes"
[ "$(engine 4)" = - ] || flunk "snapshot 4: engine '$(engine 4)', wanted none"

# ---- refused, nothing stored
usage() {
	msg=$1
	shift
	run 2 "$@" || return
	[ "$(head -1 "$tmp/err")" = "ibtopo: $msg" ] ||
		flunk "'$*': '$(head -1 "$tmp/err")', wanted 'ibtopo: $msg'"
	[ -s "$tmp/out" ] && flunk "'$*' wrote to stdout"
}
usage "--routing-engine names the engine of the --routes tables; no --routes given" \
	"$IBTOPO" import "$cache" --routing-engine ftree
usage "--routes-log names the engine of the --routes tables; no --routes given" \
	"$IBTOPO" import "$cache" --routes-log "$log"
usage "--routing-engine and --routes-log both name the routing engine; give one" \
	"$IBTOPO" import "$cache" --routes "$dump" --routing-engine ftree \
	--routes-log "$log"
usage "bad routing engine name 'up dn' (1 to 63 letters, digits, '_', '-' or '.', as opensm -R names them)" \
	"$IBTOPO" import "$cache" --routes "$dump" --routing-engine 'up dn'
run 2 "$IBTOPO" import "$cache" --routes "$dump" --routes-log "$dump" &&
	stderr_is "ibtopo: $dump: no '<engine> tables configured on all switches' line: not an OpenSM log, or none that routed"
run 2 "$IBTOPO" import "$cache" --routes "$dump" --routes-log "$tmp/none.log" &&
	grep -q "^ibtopo: .*none.log" "$tmp/err" ||
	flunk "a missing log: $(cat "$tmp/err")"
[ "$(snapshots)" = 4 ] || flunk "a refused import stored a snapshot"

# ---- discover refuses them before it sweeps (no InfiniBand device here
# or there: the message is the option's, not the device's)
usage "--routing-engine names the engine of the --routes tables; no --routes given" \
	"$IBTOPO" discover --routing-engine ftree
usage "bad routing engine name '' (1 to 63 letters, digits, '_', '-' or '.', as opensm -R names them)" \
	"$IBTOPO" discover --routes --routing-engine ''
run 2 "$IBTOPO" discover --routes --routes-log "$dump" &&
	stderr_is "ibtopo: $dump: no '<engine> tables configured on all switches' line: not an OpenSM log, or none that routed"
[ "$(snapshots)" = 4 ] || flunk "a refused discover stored a snapshot"
exit "$failed"
