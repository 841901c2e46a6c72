#!/bin/sh
# serve-store.sh - `ibtopo serve --store-every`: sweeps go into the
# database as snapshots, pruned by --keep-days (an imported snapshot made
# older than that goes; the newest stays); SIGTERM at any moment, during
# a sweep being stored too, loses nothing: every snapshot is whole (44
# nodes, 64 links, 128 ports with counters) and the database passes its
# integrity check; the exit status is 0. Started without --listen it
# listens on loopback only, at its default port.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"
TOOL=${top_builddir:-.}/tests/store-tool
[ -x "$TOOL" ] || fail "no $TOOL (make check builds it)"
sql() {
	"$TOOL" exec "$DB" "$1" || fail "sql: $1"
}

sim_fattree 8 2

# an old snapshot, 10 days ago: --keep-days 2 prunes it (in the fabric
# the sweeps are stored in: --keep-days works fabric by fabric)
IBTOPO_FABRIC=sim
export IBTOPO_FABRIC
"$IBTOPO" --db "$DB" import "$DATA/ck-cables.topo" >/dev/null 2>&1 ||
	fail "import"
sql "UPDATE snapshots SET taken_at = taken_at - 10 * 86400 WHERE id = 1" >/dev/null

# SIGTERM at varied moments of a sweep and store every 0.3 s
for delay in 0.2 0.45 0.7 0.95 1.3; do
	serve_start --interval 0.3 --store-every 0.3s --keep-days 2
	sleep "$delay"
	serve_stop
	[ "$SERVE_RC" = 0 ] || flunk "exit $SERVE_RC on SIGTERM after $delay s"
done
[ "$(sql "SELECT count(*) FROM snapshots WHERE id = 1")" = 0 ] ||
	flunk "--keep-days 2 kept the snapshot 10 days old"
n=$(sql "SELECT count(*) FROM snapshots")
[ "$n" -ge 5 ] || flunk "only $n snapshots stored"
bad=$(sql "SELECT count(*) FROM snapshots s WHERE
	(SELECT count(*) FROM nodes n WHERE n.snapshot_id = s.id) != 44 OR
	(SELECT count(*) FROM links l WHERE l.snapshot_id = s.id) != 64 OR
	(SELECT count(*) FROM port_counters c WHERE c.snapshot_id = s.id) != 128")
[ "$bad" = 0 ] || flunk "$bad of $n snapshots not whole"
ok=$("$PYTHON3" -c '
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])
' "$DB") || fail "python3 sqlite3"
[ "$ok" = ok ] || flunk "integrity_check: $ok"
info "$n snapshots stored, all whole"
run 0 "$IBTOPO" --db "$DB" health latest --fail-on never

# sweeps slower than the interval (leaf002 silent: each sweep waits
# for its MADs to time out) still leave room for SIGTERM
sim_cmd 'Error "leaf002" 100 17'
serve_start --interval 0.1 --timeout 50
metrics_until '[ "$(mval ibtopo_sweep_errors_total "")" -ge 2 ]' 60 ||
	flunk "no failed sweeps with leaf002 silent"
t0=$(date +%s)
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "exit $SERVE_RC on SIGTERM between slow sweeps"
[ $(($(date +%s) - t0)) -le 20 ] ||
	flunk "SIGTERM took $(($(date +%s) - t0)) s with sweeps slower than the interval"
sim_cmd 'Error "leaf002" 0 17'

# without --listen: loopback only, at the default port
hex=$(printf '%04X' 10117)
# the local addresses listening on that port
listeners() {
	awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }' \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null | sort -u | tr '\n' ' '
}
if [ -n "$(listeners)" ]; then
	info "port 10117 in use here: the default --listen not tried"
else
	SERVE_PORT=10117 SERVE_LISTEN='' serve_start --interval 60
	listening=$(listeners)
	[ "$listening" = "0100007F:$hex " ] ||
		flunk "default listen: sockets '$listening', wanted 0100007F:$hex"
	serve_stop
fi
exit "$failed"
