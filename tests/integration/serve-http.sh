#!/bin/sh
# serve-http.sh - how `ibtopo serve` answers, on a live fabric (a 44-node
# fat tree under ibsim):
#  - --listen 127.0.0.1:0: the port bound is on the start line;
#  - gzip when the request's Accept-Encoding takes it: curl --compressed,
#    and the raw bytes read with Python's gzip (one member, whole), give
#    the same text as a plain request, which gets no Content-Encoding;
#    "gzip;q=0" is plain; every page and a HEAD too;
#  - 64 idle or half-sent connections held open, then a scrape: answered
#    while they are held (within 10 s, less than the server's 15 s idle
#    timeout that would free them; its time is printed, not asserted);
#  - the simulator stopped (by its PID): sweeps fail, /healthz says 503
#    in one line, /metrics still serves the last good sweep.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
. "$top_srcdir/tests/serve-lib.sh"

sim_fattree 8 2
serve_start --interval 3600
grep -q "^ibtopo: serve: listening on 127.0.0.1:$SERVE_PORT$" "$TESTDIR/serve.err" &&
	[ "$SERVE_PORT" -gt 0 ] || flunk "start line: $(cat "$TESTDIR/serve.err")"
metrics_until '[ "$(mval ibtopo_last_sweep_success "")" = 1 ]' 60 ||
	fail "no good sweep: $(cat "$TESTDIR/serve.err")"

# ---- gzip: the next sweep is an hour away, so every scrape is the same
for page in /metrics / /healthz /nope; do
	code=$(scrape "$page" -D "$TESTDIR/plain.h")
	cp "$TESTDIR/body" "$TESTDIR/plain"
	grep -qi '^content-encoding' "$TESTDIR/plain.h" &&
		flunk "$page: gzip without Accept-Encoding"
	[ "$(scrape "$page" --compressed -D "$TESTDIR/gz.h")" = "$code" ] ||
		flunk "$page: another status with --compressed"
	grep -qi '^content-encoding: gzip' "$TESTDIR/gz.h" ||
		flunk "$page: curl --compressed got no gzip"
	cmp -s "$TESTDIR/body" "$TESTDIR/plain" ||
		flunk "$page: curl --compressed decodes to another text"
	# the raw bytes, decoded here: one gzip member, nothing after it
	"$PYTHON3" - "$SERVE_PORT" "$page" "$TESTDIR/plain" <<'PY' >"$TESTDIR/py" 2>&1 ||
import http.client, sys, zlib
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
c.request("GET", sys.argv[2], headers={"Accept-Encoding": "deflate, gzip;q=0.8"})
r = c.getresponse()
raw = r.read()
assert r.getheader("Content-Encoding") == "gzip", r.getheaders()
assert r.getheader("Content-Length") == str(len(raw))
d = zlib.decompressobj(16 + 15)
text = d.decompress(raw) + d.flush()
assert d.eof and not d.unused_data, "not one whole gzip member"
want = open(sys.argv[3], "rb").read()
assert text == want, "decoded %d bytes, plain %d" % (len(text), len(want))
c.request("HEAD", sys.argv[2], headers={"Accept-Encoding": "gzip"})
r = c.getresponse()
r.read()
assert r.getheader("Content-Length") == str(len(raw)), "HEAD length"
print("%d bytes, gzip %d (%.1f%%)" % (len(text), len(raw), 100.0 * len(raw) / len(text)))
PY
		flunk "$page: raw gzip: $(cat "$TESTDIR/py")"
	info "$page: $(cat "$TESTDIR/py")"
	scrape "$page" -H 'Accept-Encoding: gzip;q=0, identity' -D "$TESTDIR/q0.h" >/dev/null
	grep -qi '^content-encoding' "$TESTDIR/q0.h" && flunk "$page: gzip;q=0 got gzip"
	cmp -s "$TESTDIR/body" "$TESTDIR/plain" || flunk "$page: gzip;q=0 not plain"
done

# ---- 64 idle connections (32 silent, 32 with half a request), then a
# scrape: answered while they are held, not once their 15 s idle timeout
# frees a slot (the time is a figure for the log, not a condition)
serve_hold64
held_pid=$SERVE_HELD_PID
[ "$(cat "$TESTDIR/held" 2>/dev/null)" = 64 ] || fail "64 connections not opened"
out=$(curl -s -m 10 -o "$TESTDIR/body" -w '%{http_code} %{time_total}' \
	"$SERVE_URL/metrics" 2>/dev/null)
code=${out% *}
[ "$code" = 200 ] && grep -q '^ibtopo_sweeps_total 1$' "$TESTDIR/body" ||
	flunk "a scrape with 64 connections held: '$code' within 10 s"
info "a scrape with 64 idle connections held: ${out#* } s"
kill "$held_pid" 2>/dev/null
wait "$held_pid" 2>/dev/null
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC on SIGTERM"

# ---- the simulator stopped: sweeps fail, /healthz says 503
serve_start --interval 1 --stale-after 3s --timeout 100
metrics_until '[ "$(mval ibtopo_last_sweep_success "")" = 1 ]' 60 ||
	fail "no good sweep: $(cat "$TESTDIR/serve.err")"
[ "$(scrape /healthz)" = 200 ] || flunk "/healthz not 200 with good sweeps"
sim_stop
n=0
while [ "$(scrape /healthz)" != 503 ] && [ "$n" -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ "$n" -lt 600 ] || fail "/healthz still $(scrape /healthz) 60 s after ibsim stopped"
[ "$(wc -l <"$TESTDIR/body")" = 1 ] || flunk "503 body not one line: $(cat "$TESTDIR/body")"
grep -Eq '^(the last [0-9]+ sweeps failed: .|stale: the served sweep is [0-9]+ s old)' \
	"$TESTDIR/body" || flunk "503 reason: $(cat "$TESTDIR/body")"
info "/healthz: 503 $(cat "$TESTDIR/body")"
[ "$(scrape /metrics)" = 200 ] && [ "$(mval ibtopo_fabric_switches "")" = 12 ] ||
	flunk "the last good sweep not served with ibsim stopped"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exited $SERVE_RC on SIGTERM"
exit "$failed"
