#!/bin/sh
# bench/serve.sh - how `ibtopo serve` answers (issue 34).
#
#   sh bench/serve.sh                    # from a build directory
#   PARTS=auth IBTOPO=/other/ibtopo sh bench/serve.sh
#
# PARTS (default "auth idle gzip"):
#  - auth: basic auth with a bcrypt hash of cost 12 (--web-config), no
#    fabric (the sweeps fail, the server answers all the same): the
#    wall time of 20 good scrapes of /metrics in a row, one curl each
#    (the issue asks under 3 s together), of one with a wrong
#    password, and of a good one while 10 wrong ones are being checked;
#  - idle: a fat tree under ibsim (gen-fattree.py --radix $RADIX, default
#    16, 2 levels), 64 connections held open (half of them with half a
#    request), then the time of one scrape of /metrics;
#  - gzip: on the same fabric, /metrics and / plain and with gzip: bytes
#    and ratio.
# Not a test: nothing here asserts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${top_srcdir:?}" "${top_builddir:?}" # set by lib.sh
PARTS=${PARTS:-auth idle gzip}
RADIX=${RADIX:-16}
python_require
. "$top_srcdir/tests/serve-lib.sh"

auth_part() {
	local hash pid port url t0 i code bad
	hash=$("$PYTHON3" -W ignore -c '
import crypt
print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 12)))')
	case $hash in '$2b$12$'*) ;; *) fail "no bcrypt in python3 crypt" ;; esac
	printf "basic_auth_users:\n  alice: '%s'\n" "$hash" >"$TESTDIR/web.yml"
	"$IBTOPO" --db "$TESTDIR/auth.db" -C no-such-ca serve --listen 127.0.0.1:0 \
		--interval 3600 --web-config "$TESTDIR/web.yml" 2>"$TESTDIR/auth.err" &
	pid=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $pid"
	port=
	for _ in $(seq 1 100); do
		port=$(sed -n 's/^ibtopo: serving http:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' \
			"$TESTDIR/auth.err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "serve: $(cat "$TESTDIR/auth.err")"
	url=http://127.0.0.1:$port/metrics
	t0=$(now)
	i=0
	while [ "$i" -lt 20 ]; do
		code=$(curl -s -o /dev/null -w '%{http_code}' -u alice:s3cret "$url")
		[ "$code" = 200 ] || fail "scrape $i: $code"
		i=$((i + 1))
	done
	t=$(calc "$(now) - $t0")
	echo "basic auth, bcrypt cost 12: 20 good scrapes in $t s"
	bench_row "serve: 20 scrapes, basic auth (bcrypt 12)" "$t"
	t0=$(now)
	code=$(curl -s -o /dev/null -w '%{http_code}' -u alice:wrong "$url")
	echo "a wrong password: $code in $(calc "$(now) - $t0") s"
	# a good scrape while 10 with wrong passwords are being checked
	bad=
	for i in 1 2 3 4 5 6 7 8 9 10; do
		curl -s -o /dev/null -u "alice:wrong$i" "$url" &
		bad="$bad $!"
	done
	sleep 0.2
	t0=$(now)
	code=$(curl -s -o /dev/null -w '%{http_code}' -u alice:s3cret "$url")
	echo "a good scrape during 10 bad ones: $code in $(calc "$(now) - $t0") s"
	# shellcheck disable=SC2086 # the PIDs
	wait $bad
	kill "$pid"
	wait "$pid"
}

sim_part() {
	bench_sim
	"$PYTHON3" "$here/gen-fattree.py" --radix "$RADIX" --levels 2 \
		-o "$TESTDIR/ft.net" 2>/dev/null || fail "gen-fattree.py"
	sim_start "$TESTDIR/ft.net"
	sim_opensm
	serve_start --interval 3600
	metrics_until '[ "$(mval ibtopo_last_sweep_success "")" = 1 ]' 600 ||
		fail "no good sweep: $(cat "$TESTDIR/serve.err")"
	echo "fat tree of radix $RADIX under ibsim:" \
		"$(mval ibtopo_fabric_switches "") switches," \
		"$(mval ibtopo_fabric_cas "") CAs"
	case " $PARTS " in *" idle "*) idle ;; esac
	case " $PARTS " in *" gzip "*) gzip_sizes ;; esac
	serve_stop
	sim_stop
}

idle() {
	local out
	serve_hold64
	out=$(curl -s -m 30 -o /dev/null -w '%{http_code} %{time_total}' \
		"$SERVE_URL/metrics")
	echo "64 connections held open ($(cat "$TESTDIR/held" 2>/dev/null)), then a" \
		"scrape of /metrics: status ${out% *} in ${out#* } s"
	bench_row "serve: a scrape with 64 connections held open" "${out#* }"
	kill "$SERVE_HELD_PID" 2>/dev/null
	wait "$SERVE_HELD_PID" 2>/dev/null
}

gzip_sizes() {
	local page plain gz
	for page in /metrics /; do
		plain=$(curl -s -o /dev/null -w '%{size_download}' "$SERVE_URL$page")
		gz=$(curl -s -o /dev/null -w '%{size_download}' \
			-H 'Accept-Encoding: gzip' "$SERVE_URL$page")
		echo "GET $page: $plain bytes, gzip $gz ($(calc "100 * $gz / $plain")%)"
	done
}

case " $PARTS " in *" auth "*) auth_part ;; esac
case " $PARTS " in *" idle "* | *" gzip "*) sim_part ;; esac
