# tests/serve-lib.sh - helpers of the `ibtopo serve` tests, sourced after
# tests/lib.sh: a server on a loopback port it picks, under the simulator,
# stopped by its PID, and scrapes of it.
#
#   serve_start [SERVE OPTIONS...]   start it, wait until /healthz answers
#   scrape PATH [CURL OPTIONS...]    body in $TESTDIR/body, prints the status
#   mval NAME LABELS                 a value of the last /metrics body

command -v curl >/dev/null 2>&1 || skip "curl not found"

# free_port: a TCP port nothing listens on now (for other servers: serve
# picks its own)
free_port() {
	"$PYTHON3" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
'
}

SERVE_PID=
SERVE_PORT=
SERVE_URL=

# serve_start ARGS...: ibtopo serve through umad2sim (and the MAD spy when
# SERVE_SPY names a log), --listen 127.0.0.1:0 unless SERVE_PORT is set
# (SERVE_LISTEN set but empty: no --listen); the port it bound is read
# from its start line into SERVE_PORT (no port picked here that another
# process could take first); waits for /healthz to answer (200 or 503),
# at most 20 s.
serve_start() {
	local pre=$UMAD2SIM listen
	listen=${SERVE_LISTEN---listen 127.0.0.1:${SERVE_PORT:-0}}
	SERVE_URL=
	if [ -n "${SERVE_SPY:-}" ]; then
		pre=${top_builddir:-.}/tests/.libs/rel-madspy.so:$UMAD2SIM
	fi
	# the last server's start line must not be read as this one's: the
	# background shell below may truncate the file only after the first
	# look at it (seen under load: a dead port waited on for 60 s)
	rm -f "$TESTDIR/serve.err" "$TESTDIR/serve.out"
	# shellcheck disable=SC2086 # $listen is two words or none
	(cd "$TESTDIR/work" && REL_MADSPY_LOG=${SERVE_SPY:-} \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$pre" exec "$IBTOPO" --db "$DB" serve $listen "$@") \
		>"$TESTDIR/serve.out" 2>"$TESTDIR/serve.err" &
	SERVE_PID=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $SERVE_PID"
	# up to 60 s by the clock (a loaded machine under ASan is slow)
	local end code=none
	end=$(($(date +%s) + 60))
	while [ "$(date +%s)" -lt "$end" ]; do
		if [ -z "$SERVE_URL" ]; then
			SERVE_PORT=$(sed -n 's/^ibtopo: serve: listening on .*:\([0-9]*\)$/\1/p' \
				"$TESTDIR/serve.err" 2>/dev/null)
			[ -n "$SERVE_PORT" ] && SERVE_URL=http://127.0.0.1:$SERVE_PORT
		fi
		# answered: 200, or 503 when the sweeps fail or lag
		if [ -n "$SERVE_URL" ]; then
			code=$(scrape /healthz)
			case $code in 200 | 503) return 0 ;; esac
		fi
		case $(cut -d' ' -f3 "/proc/$SERVE_PID/stat" 2>/dev/null) in
		'' | Z)
			cat "$TESTDIR/serve.err" >&2
			fail "ibtopo serve exited"
			;;
		esac
		sleep 0.1
	done
	cat "$TESTDIR/serve.err" >&2
	fail "ibtopo serve did not answer within 60 s (${SERVE_URL:-no port yet}, last answer $code)"
}

# serve_stop: SIGTERM to the server; its exit status in $SERVE_RC. One
# still running 30 s later flunks, and is killed (SIGKILL).
serve_stop() {
	kill -TERM "$SERVE_PID" 2>/dev/null
	for _ in $(seq 1 300); do
		# gone, or a zombie waiting for `wait`
		case $(cut -d' ' -f3 "/proc/$SERVE_PID/stat" 2>/dev/null) in
		'' | Z) break ;;
		esac
		sleep 0.1
	done
	case $(cut -d' ' -f3 "/proc/$SERVE_PID/stat" 2>/dev/null) in
	'' | Z) ;;
	*)
		flunk "ibtopo serve still running 30 s after SIGTERM"
		kill -KILL "$SERVE_PID"
		;;
	esac
	wait "$SERVE_PID"
	# shellcheck disable=SC2034 # read by the tests that source this file
	SERVE_RC=$?
	SERVE_PID=
	SERVE_PORT=
}

scrape() {
	local path=$1
	shift
	curl -s -m 10 -o "$TESTDIR/body" -w '%{http_code}' "$@" \
		"$SERVE_URL$path" 2>/dev/null || true
}

mval() {
	grep "^$1[{ ]" "$TESTDIR/body" | grep -F -- "$2" | awk '{ print $NF }' |
		head -1
}

# metrics_until EXPR SECONDS: scrape /metrics until the shell test EXPR
# holds (it may use mval), at most SECONDS; returns 1 when it never did.
metrics_until() {
	local n=$(($2 * 10))
	while [ "$n" -gt 0 ]; do
		[ "$(scrape /metrics)" = 200 ] && eval "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# serve_hold64: 64 connections to the server held open for 30 s, every
# other one with half a request, by a python3 child (its PID in
# SERVE_HELD_PID, on CLEANUP_PIDS); returns once they are open (or 10 s
# passed), $TESTDIR/held then says how many.
serve_hold64() {
	rm -f "$TESTDIR/held"
	"$PYTHON3" - "$SERVE_PORT" "$TESTDIR/held" <<'PY' &
import socket, sys, time
held = []
for i in range(64):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    if i % 2:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
open(sys.argv[2], "w").write("%d\n" % len(held))
time.sleep(30)
PY
	SERVE_HELD_PID=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $SERVE_HELD_PID"
	for _ in $(seq 1 100); do
		[ -s "$TESTDIR/held" ] && break
		sleep 0.1
	done
}
