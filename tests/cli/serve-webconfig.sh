#!/bin/sh
# serve-webconfig.sh - `ibtopo serve --web-config FILE`, the Prometheus
# exporter-toolkit format: tls_server_config serves HTTPS with its
# certificate; basic_auth_users asks every request for a user and
# password checked against the bcrypt hash (401 without, or wrong); a
# key the server does not know, half a TLS pair or a hash that is not
# bcrypt is refused at start (exit 2, FILE:LINE). A password that passed
# is remembered, but a wrong one after it is still refused, and so is the
# right one for another user. No fabric is needed: the sweeps fail
# (counted) and the server answers all the same. --listen 127.0.0.1:0
# says the port it bound. Bad --interval, --store-every (also one shorter
# than --interval), --stale-after, --listen (a port that is not 0 to
# 65535, none, no host) or --keep-days alone: exit 2, and one line.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
command -v curl >/dev/null 2>&1 || skip "curl not found"
command -v openssl >/dev/null 2>&1 || skip "openssl not found"
tmp=$TESTDIR
hash=$("$PYTHON3" -W ignore -c '
import crypt
print(crypt.crypt("s3cret", "$2b$05$abcdefghijklmnopqrstuv"))' 2>/dev/null)
case $hash in '$2b$05$'*) ;; *) skip "no bcrypt in python3 crypt" ;; esac
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" \
	-out "$tmp/cert.pem" -days 2 -subj /CN=127.0.0.1 >/dev/null 2>&1 ||
	fail "openssl req"

cat >"$tmp/web.yml" <<EOC
# the exporter-toolkit format
tls_server_config:
  cert_file: cert.pem
  key_file: $tmp/key.pem
basic_auth_users:
  alice: '$hash'
EOC
# no umad device in the way of the test: a CA that is not there
"$IBTOPO" --db "$tmp/db" -C no-such-ca serve --listen "127.0.0.1:0" \
	--interval 60 --web-config "$tmp/web.yml" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
CLEANUP_PIDS="$CLEANUP_PIDS $pid"
port=
for _ in $(seq 1 100); do
	port=$(sed -n 's/^ibtopo: serve: listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' \
		"$tmp/serve.err")
	[ -n "$port" ] && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.err"; fail "serve exited"; }
	sleep 0.1
done
[ -n "$port" ] && [ "$port" -gt 0 ] || fail "no port on the start line: $(cat "$tmp/serve.err")"
url=https://127.0.0.1:$port

code() {
	curl -s -m 10 -o "$tmp/body" -w '%{http_code}' "$@" 2>/dev/null || true
}
for _ in $(seq 1 100); do
	[ "$(code -k "$url/healthz")" = 401 ] && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.err"; fail "serve exited"; }
	sleep 0.1
done
[ "$(code -k "$url/healthz")" = 401 ] || flunk "no 401 without a password"
[ "$(code -k -u alice:wrong "$url/healthz")" = 401 ] || flunk "a wrong password passed"
[ "$(code -k -u bob:s3cret "$url/healthz")" = 401 ] || flunk "an unknown user passed"
[ "$(code --cacert "$tmp/cert.pem" -u alice:s3cret "$url/healthz")" = 200 ] ||
	flunk "alice with the certificate: not 200"
# remembered once it passed, yet a wrong password, or alice's for
# another user, is still refused
for _ in 1 2 3; do
	[ "$(code -k -u alice:s3cret "$url/healthz")" = 200 ] ||
		flunk "alice again: not 200"
	[ "$(code -k -u alice:s3cret2 "$url/healthz")" = 401 ] ||
		flunk "a wrong password after the right one passed"
	[ "$(code -k -u alice:s3cre "$url/healthz")" = 401 ] ||
		flunk "a prefix of the password passed"
	[ "$(code -k -u bob:s3cret "$url/healthz")" = 401 ] ||
		flunk "alice's password passed for bob"
	[ "$(code -k -H 'Authorization: Basic YWxpY2U6czNjcmV0Cg==' "$url/healthz")" = 401 ] ||
		flunk "the password with a newline passed"
done
[ "$(code -k -u alice:s3cret "$url/metrics")" = 200 ] &&
	grep -q '^ibtopo_sweep_errors_total [1-9]' "$tmp/body" ||
	flunk "/metrics over TLS: $(head -c 300 "$tmp/body")"
[ "$(code "http://127.0.0.1:$port/healthz")" = 200 ] &&
	flunk "plain HTTP answered on the TLS port"
kill -0 "$pid" 2>/dev/null || flunk "serve died"
kill "$pid" && wait "$pid"
rc=$?
[ "$rc" = 0 ] || flunk "serve exited $rc on SIGTERM"
grep -q "^ibtopo: serving https://127.0.0.1:$port/metrics every 60 s, basic auth$" "$tmp/serve.err" ||
	flunk "start line: $(cat "$tmp/serve.err")"

# refused at start
bad() {	# bad WANT_STDERR_PATTERN: the YAML on stdin
	cat >"$tmp/bad.yml"
	run 2 "$IBTOPO" --db "$tmp/db" -C no-such-ca serve --listen "127.0.0.1:$port" \
		--web-config "$tmp/bad.yml" &&
		{ grep -q -- "$1" "$tmp/err" || flunk "wanted '$1': $(cat "$tmp/err")"; }
}
printf 'tls_server_config:\n  cert_file: cert.pem\n  client_ca_file: ca.pem\n' |
	bad "bad.yml:3: tls_server_config: 'client_ca_file' is not supported"
printf 'tls_server_config:\n  cert_file: %s/cert.pem\n' "$tmp" |
	bad "needs both cert_file and key_file"
printf 'basic_auth_users:\n  alice: plaintext\n' |
	bad "bad.yml:2: basic_auth_users: not a bcrypt hash"
printf 'http_server_config:\n  http2: true\n' |
	bad "bad.yml:1: 'http_server_config' is not supported"
printf 'tls_server_config: [\n' | bad "bad.yml:"
printf 'tls_server_config:\n  cert_file: nope.pem\n  key_file: nope.pem\n' |
	bad "cannot open '$tmp/nope.pem'"
run 2 "$IBTOPO" --db "$tmp/db" serve --web-config "$tmp/none.yml" &&
	{ grep -q "cannot open '$tmp/none.yml'" "$tmp/err" || flunk "missing file: $(cat "$tmp/err")"; }
# usage errors: exit 2 before listening or sweeping
run 2 "$IBTOPO" serve --interval 0 && grep -q "bad --interval '0'" "$tmp/err" ||
	flunk "--interval 0: $(cat "$tmp/err")"
run 2 "$IBTOPO" serve --keep-days 3 &&
	grep -q -- "--keep-days prunes what --store-every stores" "$tmp/err" ||
	flunk "--keep-days alone: $(cat "$tmp/err")"
run 2 "$IBTOPO" serve --store-every 1w && grep -q "bad --store-every '1w'" "$tmp/err" ||
	flunk "--store-every 1w: $(cat "$tmp/err")"
run 2 "$IBTOPO" serve --listen 127.0.0.1 && grep -q "bad --listen '127.0.0.1'" "$tmp/err" ||
	flunk "--listen without a port: $(cat "$tmp/err")"
# one line that says what is wrong (then the usage line)
usage() {	# usage FIRST_LINE ARGS...
	first=$1
	shift
	run 2 "$IBTOPO" --db "$tmp/db" serve "$@" &&
		[ "$(head -1 "$tmp/err")" = "ibtopo: $first" ] &&
		[ "$(wc -l <"$tmp/err")" -le 2 ] ||
		flunk "serve $*: $(cat "$tmp/err")"
}
usage "bad --listen '127.0.0.1:99999': port '99999' is not 0 to 65535" --listen 127.0.0.1:99999
usage "bad --listen '127.0.0.1:65536': port '65536' is not 0 to 65535" --listen 127.0.0.1:65536
usage "bad --listen '127.0.0.1:-1': port '-1' is not 0 to 65535" --listen 127.0.0.1:-1
usage "bad --listen '127.0.0.1:1 ': port '1 ' is not 0 to 65535" --listen '127.0.0.1:1 '
usage "bad --listen '127.0.0.1:': port '' is not 0 to 65535" --listen 127.0.0.1:
usage "bad --listen ':abc' (ADDR:PORT, e.g. 127.0.0.1:10117)" --listen :abc
usage "bad --listen ':9100' (ADDR:PORT, e.g. 127.0.0.1:10117)" --listen :9100
usage "bad --listen '' (ADDR:PORT, e.g. 127.0.0.1:10117)" --listen ''
usage "bad --listen '[]:80' ([ADDR]:PORT)" --listen '[]:80'
usage "bad --listen '[::1]:123456': port '123456' is not 0 to 65535" --listen '[::1]:123456'
usage "--store-every 30 s is shorter than --interval 60 s" --store-every 30s
usage "--store-every 1 s is shorter than --interval 2 s" --store-every 1 --interval 2
usage "--stale-after 30 s is shorter than --interval 60 s" --stale-after 30s
usage "bad --stale-after 'soon' (90s, 30m, 1h, 1d)" --stale-after soon
exit "$failed"
