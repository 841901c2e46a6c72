# tests/lib.sh - shell helpers every shell test sources.
#
# Each test gets its own temporary directory ($TESTDIR) and, through
# sim_start, its own ibsim with its own IBSIM_SOCKNAME, stopped by PID when
# the test exits. The environment comes from `make check`: IBTOPO, IBSIM,
# UMAD2SIM, IBNETDISCOVER, OPENSM, PYTHON3, top_srcdir, top_builddir.
#
#   . "$top_srcdir/tests/lib.sh"
#   sim_require                       # exit 77 without ibsim/umad2sim
#   sim_start "$top_srcdir/tests/data/x.net"
#   SIM_HOST=host01 sim_client "$IBTOPO" --db "$DB" discover
#   sim_cmd 'Error "leaf02" 100 17'   # a console command
#
# Exit codes: 0 pass, 1 fail, 77 skip. Sourcing it sets -u for the test.
#
# `fail` ends the test at once. A test that wants every difference
# reported uses `flunk` and the checks below that call it (run, same,
# stderr_is, stdout_is), and ends with `exit "$failed"`.

set -u

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# shellcheck disable=SC2034 # the tests that source this file use it
failed=0
flunk() {
	echo "FAIL: $*" >&2
	# shellcheck disable=SC2034 # read by the tests that source this file
	failed=1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

info() {
	echo "# $*" >&2
}

: "${IBTOPO:=${top_builddir:-.}/src/ibtopo}"
: "${IBSIM:=}"
: "${UMAD2SIM:=}"
: "${IBNETDISCOVER:=}"
: "${OPENSM:=}"
: "${PYTHON3:=python3}"
# Only the standard library's json is needed: prefer the system Python to
# a version-manager shim that takes seconds to start.
case $(command -v "$PYTHON3") in
*/shims/*) [ -x /usr/bin/python3 ] && PYTHON3=/usr/bin/python3 ;;
esac
: "${top_srcdir:=.}"
# shellcheck disable=SC2034 # for the tests that source this file
DATA="$top_srcdir/tests/data"
# shellcheck disable=SC2034 # the real fabrics' dumps, and the golden files
REAL="$DATA/real" GOLDEN="$top_srcdir/tests/golden"

# test_env [db]: the C locale (sort, grep, awk ranges, messages), and
# $IBTOPO_DB unset (each command names its --db) or, with "db",
# $TESTDIR/db for every command.
test_env() {
	LC_ALL=C
	export LC_ALL
	if [ "${1:-}" = db ]; then
		IBTOPO_DB=$TESTDIR/db
		export IBTOPO_DB
	else
		unset IBTOPO_DB
	fi
}

TESTDIR=$(mktemp -d "${TMPDIR:-/tmp}/ibtopo-test.XXXXXX") ||
	fail "cannot create a temporary directory"
mkdir -p "$TESTDIR/work"
# shellcheck disable=SC2034 # for the tests that source this file
DB="$TESTDIR/fabric.db"
SIM_PID=
CLEANUP_PIDS=
# a command run once the PIDs are stopped (tests/slurm-lib.sh: mounts)
CLEANUP_HOOK=:

lib_cleanup() {
	local pid
	for pid in $CLEANUP_PIDS $SIM_PID; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	$CLEANUP_HOOK
	exec 9>&-
	if [ -n "${KEEP_TESTDIR:-}" ]; then
		echo "# kept $TESTDIR" >&2
	else
		# never into a mount left behind (a chroot's /dev)
		rm -rf --one-file-system "$TESTDIR"
	fi
}
trap lib_cleanup EXIT
trap 'exit 1' INT TERM HUP

# run WANT_RC COMMAND...: stdout in $TESTDIR/out, stderr in $TESTDIR/err;
# flunks and returns 1 unless COMMAND exits WANT_RC.
run() {
	want=$1
	shift
	"$@" >"$TESTDIR/out" 2>"$TESTDIR/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		flunk "'$*' exited $rc, wanted $want"
		sed 's/^/  stderr: /' "$TESTDIR/err" >&2
		return 1
	fi
	return 0
}

# same WANT_FILE GOT_FILE [WHAT]: flunks with the first differences and
# returns 1 unless the files are equal (a golden file and the output).
same() {
	cmp -s "$1" "$2" && return 0
	flunk "${3:-$2} differs from $1"
	diff -u "$1" "$2" | head -40 | sed 's/^/  /' >&2
	return 1
}

# stderr_is LINE: after `run`, stderr is exactly LINE and stdout empty.
stderr_is() {
	printf '%s\n' "$1" >"$TESTDIR/want"
	same "$TESTDIR/want" "$TESTDIR/err" stderr || return 1
	if [ -s "$TESTDIR/out" ]; then
		flunk "stdout not empty: $(head -c 200 "$TESTDIR/out")"
		return 1
	fi
}

# stdout_is TEXT: after `run`, stdout is exactly TEXT and a newline.
stdout_is() {
	printf '%s\n' "$1" >"$TESTDIR/want"
	same "$TESTDIR/want" "$TESTDIR/out" stdout
}

# Skip the test (exit 77) unless ibsim and its client shim are there.
sim_require() {
	[ -n "$IBSIM" ] && [ -x "$IBSIM" ] || skip "ibsim not found (ibsim-utils)"
	[ -n "$UMAD2SIM" ] && [ -f "$UMAD2SIM" ] ||
		skip "libumad2sim.so not found (ibsim-utils)"
	[ -r /proc/net/unix ] || skip "no /proc/net/unix to see ibsim listen"
}

# Skip unless python3 runs (it checks the JSON output).
python_require() {
	"$PYTHON3" -c 'import json' 2>/dev/null || skip "python3 not found"
}

# sim_start NETFILE [IBSIM OPTIONS...]: start a private ibsim and wait
# until it listens (at most $SIM_WAIT seconds, default 10). Its console is a FIFO that ibsim holds open for both
# reading and writing: it never sees EOF (on which ibsim spins), even if
# this shell dies. sim_cmd writes to it.
# ft_lfts NAME HOSTS_PER_LEAF [faults]: a fat tree of 24 leaves and 4
# spines with a min-hop subnet manager's tables (tests/data/gen-ft-lfts.py;
# faults: a few wrong entries) as $TESTDIR/NAME.topo and NAME.dump
ft_lfts() {
	"$PYTHON3" "$DATA/gen-ft-lfts.py" 24 4 "$2" "$TESTDIR/$1.topo" \
		"$TESTDIR/$1.dump" ${3:+"$3"} || fail "gen-ft-lfts.py $*"
}

sim_start() {
	local net=$1
	shift
	IBSIM_SOCKNAME="ibtopo-$$-${TESTDIR##*.}"
	export IBSIM_SOCKNAME
	mkfifo "$TESTDIR/console" || fail "mkfifo"
	"$IBSIM" -s "$@" "$net" 0<>"$TESTDIR/console" \
		>"$TESTDIR/ibsim.log" 2>&1 &
	SIM_PID=$!
	exec 9<>"$TESTDIR/console"
	for _ in $(seq 1 $((${SIM_WAIT:-10} * 20))); do
		if grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix; then
			return 0
		fi
		kill -0 "$SIM_PID" 2>/dev/null || {
			cat "$TESTDIR/ibsim.log" >&2
			SIM_PID=
			fail "ibsim exited on $net"
		}
		sleep 0.05
	done
	fail "ibsim did not start listening within ${SIM_WAIT:-10} s"
}

# sim_fattree RADIX LEVELS: a fat tree of bench/gen-fattree.py in
# $TESTDIR/ft.net under a private ibsim, with LIDs from one opensm sweep,
# and the clients on host h00001.
sim_fattree() {
	"$PYTHON3" "$top_srcdir/bench/gen-fattree.py" --radix "$1" \
		--levels "$2" -o "$TESTDIR/ft.net" 2>/dev/null ||
		fail "gen-fattree.py"
	sim_start "$TESTDIR/ft.net"
	SIM_HOST=h00001
	export SIM_HOST
	sim_opensm
}

# sim_stop: stop the simulator sim_start started, by its PID, so that
# sim_start can start another.
sim_stop() {
	kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	exec 9>&-
	rm -f "$TESTDIR/console"
}

# sim_cmd COMMAND: run one ibsim console command and wait until it is done
# (ibsim prints a new prompt after each command).
sim_cmd() {
	local before
	before=$(grep -o 'sim> ' "$TESTDIR/ibsim.log" | wc -l)
	printf '%s\n' "$1" >&9
	for _ in $(seq 1 200); do
		[ "$(grep -o 'sim> ' "$TESTDIR/ibsim.log" | wc -l)" -gt "$before" ] &&
			return 0
		sleep 0.05
	done
	fail "ibsim did not run '$1'"
}

# sim_client COMMAND...: run a client of the simulator (through the
# umad2sim shim) in the scratch directory, where umad2sim leaves its
# ./sys-<pid> tree. SIM_HOST, when set, names the node it attaches to.
# SIM_TIMEOUT (120 s) bounds it; then it is killed (SIGKILL: a client
# stuck in a MAD exchange may not heed SIGTERM).
#
# Under AddressSanitizer, umad2sim's read() copies a whole MAD buffer out
# of a shorter allocation (ibsim 0.10): memcpy range checks are turned off
# for simulator clients only (replace_intrin=0); tests/lsan.supp covers
# its leaks.
sim_client() {
	(cd "$TESTDIR/work" &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL "${SIM_TIMEOUT:-120}" "$@")
}

# sim_ibnetdiscover NET OUT [DB]: start the simulator on net file NET,
# write what ibnetdiscover sees to OUT, and with DB, when the ibtopo in the
# build discovers (have_discover), store a snapshot in DB; stop it; fail
# with the logs.
sim_ibnetdiscover() {
	sim_start "$1"
	sim_client "$IBNETDISCOVER" >"$2" 2>"$TESTDIR/disc.err" ||
		{ cat "$TESTDIR/ibsim.log" "$TESTDIR/disc.err"; fail "ibnetdiscover under ibsim on $1"; }
	if [ $# -ge 3 ] && have_discover; then
		sim_client "$IBTOPO" --db "$3" discover >/dev/null 2>"$TESTDIR/ibtopo-disc.err" ||
			{ cat "$TESTDIR/ibtopo-disc.err"; fail "ibtopo discover under ibsim on $1"; }
	fi
	sim_stop
}

# copy_at SRC DEST DATE: DEST a copy of SRC whose mtime is DATE (import
# --counters takes a file's mtime as the time of its reading).
copy_at() {
	cp "$1" "$2" && touch -d "$3" "$2" || fail "copy_at $*"
}

# lft_entries: an LFT listing on stdin (opensm-lfts.dump or dump_fts
# output) as "switch-guid lid port" lines, sorted: comments, headers'
# wording and blanks left out.
lft_entries() {
	"$PYTHON3" -c '
import re, sys
guid = None
rows = []
for line in sys.stdin:
    m = re.match(r"Unicast lids .* guid (0x[0-9a-f]+)", line)
    if m:
        guid = int(m.group(1), 16)
        continue
    m = re.match(r"\s*0x([0-9a-f]+)\s+(\d+)\b", line)
    if m and guid is not None:
        rows.append("0x%016x %d %d" % (guid, int(m.group(1), 16), int(m.group(2))))
print("\n".join(sorted(rows)))
'
}

# findings_lines X Y: of the JSON report on stdin, one line per item of
# its "findings" (a diff's changes too): kind detail a b c d X Y links,
# ends as node:port, "-" for what an item lacks.
findings_lines() {
	"$PYTHON3" -c '
import json, sys
def end(f, k):
    e = f.get(k)
    if not e or e.get("node") is None:
        return "-"
    return "%s:%s" % (e["node"], "" if e.get("port") is None else e["port"])
x, y = sys.argv[1], sys.argv[2]
for f in json.load(sys.stdin)["findings"]:
    print(f["kind"], f.get("detail") or "-", end(f, "a"), end(f, "b"),
          end(f, "c"), end(f, "d"), f.get(x) or "-", f.get(y) or "-",
          f.get("links", "-"))
' "$@"
}

# plan_both SHAPE ARGS...: `ibtopo plan SHAPE ARGS` written twice, as the
# plan $TESTDIR/plan.topo and as the ibsim net file $TESTDIR/plan.net.
plan_both() {
	"$IBTOPO" plan "$@" -o "$TESTDIR/plan.topo" || fail "plan $*"
	"$IBTOPO" plan "$@" --format ibsim -o "$TESTDIR/plan.net" ||
		fail "plan $* --format ibsim"
}

# Skip the test (exit 77) unless ibsim and ibnetdiscover are there to run
# ibnetdiscover under the simulator.
ibnetdiscover_require() {
	sim_require
	[ -n "$IBNETDISCOVER" ] && [ -x "$IBNETDISCOVER" ] || skip "ibnetdiscover not found"
}

# diag_require VAR NAME: VAR (when it names a program) or infiniband-diags'
# NAME beside ibnetdiscover, else in PATH or /usr/sbin, into VAR; skip
# (exit 77) without it.
diag_require() {
	eval "tool=\${$1:-}"
	[ -n "$tool" ] && [ -x "$tool" ] ||
		tool=$(dirname "${IBNETDISCOVER:-/usr/sbin/x}")/$2
	[ -x "$tool" ] || tool=$(PATH=$PATH:/usr/sbin command -v "$2")
	[ -n "$tool" ] && [ -x "$tool" ] || skip "$2 not found (infiniband-diags)"
	eval "$1=\$tool"
}

# store_sql QUERY: the first column of the last row QUERY gives on $DB,
# through tests/store-tool (make check builds it).
store_sql() {
	"${top_builddir:-.}/tests/store-tool" exec "$DB" "$1" || fail "sql: $1"
}

# Does the ibtopo in the build discover (is it built with libibnetdisc)?
have_discover() {
	"$IBTOPO" discover --help >/dev/null 2>&1
}

# plan_built WHAT: the plan plan_both wrote, simulated and seen by
# ibnetdiscover ($TESTDIR/clean.topo), has no warnings (its analysis in
# $TESTDIR/clean.json) and validates against $TESTDIR/plan.topo.
plan_built() {
	sim_ibnetdiscover "$TESTDIR/plan.net" "$TESTDIR/clean.topo"
	"$IBTOPO" analyze --fail-on warning --format json "$TESTDIR/clean.topo" \
		>"$TESTDIR/clean.json" ||
		fail "$1: warnings $(head -c 400 "$TESTDIR/clean.json")"
	"$IBTOPO" validate "$TESTDIR/plan.topo" "$TESTDIR/clean.topo" \
		>"$TESTDIR/out" 2>&1 ||
		{ cat "$TESTDIR/out"; fail "$1 does not validate"; }
}

# shellcheck disable=SC2034 # edits an ibsim net file: unlink, swap, ...
NETEDIT="$DATA/dv-netedit.py"

# sim_spy LOG CMD...: sim_client, with tests/rel-madspy logging the
# method of every MAD CMD sends to LOG (make check builds the spy).
sim_spy() {
	spy=${top_builddir:-.}/tests/.libs/rel-madspy.so
	[ -f "$spy" ] || fail "no $spy (make check builds it)"
	log=$1
	shift
	(cd "$TESTDIR/work" && REL_MADSPY_LOG=$log \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$spy:$UMAD2SIM" timeout -s KILL "${SIM_TIMEOUT:-120}" "$@")
}

# sim_opensm [OPENSM ARGS...]: one opensm sweep (LIDs, Active ports),
# then it exits; its log in $TESTDIR/osm/osm.log.
# shellcheck disable=SC2120 # the tests give the options
sim_opensm() {
	[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
	mkdir -p "$TESTDIR/osm"
	(cd "$TESTDIR/work" &&
		OSM_CACHE_DIR="$TESTDIR/osm" OSM_TMP_DIR="$TESTDIR/osm" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 60 "$OPENSM" -o "$@" \
		-f "$TESTDIR/osm/osm.log" >"$TESTDIR/osm/stdout" 2>&1) ||
		fail "opensm sweep failed (see $TESTDIR/osm/osm.log)"
}

# sim_opensm_dumps: one opensm sweep that also writes its dumps
# (opensm-lfts.dump, opensm.fdbs, ...) into $TESTDIR/dump, its log in
# $TESTDIR/osm/osm.log.
sim_opensm_dumps() {
	[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
	mkdir -p "$TESTDIR/osm" "$TESTDIR/dump"
	(cd "$TESTDIR/work" &&
		OSM_CACHE_DIR="$TESTDIR/osm" OSM_TMP_DIR="$TESTDIR/osm" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 60 "$OPENSM" -o \
		--dump_files_dir "$TESTDIR/dump" -D 0x43 \
		-f "$TESTDIR/osm/osm.log" >"$TESTDIR/osm/stdout" 2>&1) ||
		fail "opensm sweep failed (see $TESTDIR/osm/osm.log)"
}

# osm_master LOG TRIES: wait until the opensm that writes LOG says it is
# master, TRIES times 0.05 s at the most; false if it did not
osm_master() {
	for _ in $(seq 1 "$2"); do
		grep -q 'Entering MASTER state' "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# db_edit FROM TO SQL: $TESTDIR/TO.db, a copy of $TESTDIR/FROM.db that
# SQL changed (with the store tool $TOOL)
db_edit() {
	cp "$TESTDIR/$1.db" "$TESTDIR/$2.db" || fail "copy $1.db"
	"$TOOL" exec "$TESTDIR/$2.db" "$3" >/dev/null || fail "edit the snapshot"
}

# csv_findings DB REGEX: the CSV findings of `analyze` on the latest
# snapshot of DB whose lines match REGEX (grep -E)
csv_findings() {
	"$IBTOPO" --db "$1" analyze --format csv | tr -d '\r' | grep -E "$2"
}

# one_finding TEXT REGEX WHAT: TEXT is one line and matches REGEX (grep),
# else a flunk naming WHAT and showing TEXT.
one_finding() {
	[ "$(count_lines "$1")" -eq 1 ] && printf '%s\n' "$1" | grep -q "$2" ||
		flunk "$3: $1"
}

# ibdmchk_chroot: the Debian sid chroot with ibutils' ibdmchk
# (tools/debian-chroot.sh; kept in $IBTOPO_CHROOT_CACHE, else
# /var/cache/ibtopo-tests where writable, else under $TESTDIR) as
# IBDM_ROOT, and IBDM_WORK a directory in it removed at exit; skip where
# no chroot can be built
ibdmchk_chroot() {
	local cache=${IBTOPO_CHROOT_CACHE:-/var/cache/ibtopo-tests} rc
	{ mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; } ||
		cache=$TESTDIR/chroots
	sh "$top_srcdir/tools/debian-chroot.sh" sid "$cache/sid" ibutils
	rc=$?
	[ $rc -eq 77 ] && skip "no Debian sid chroot here (said above)"
	[ $rc -eq 0 ] || fail "tools/debian-chroot.sh sid ibutils failed"
	IBDM_ROOT=$cache/sid
	[ -x "$IBDM_ROOT/usr/bin/ibdmchk" ] || fail "no ibdmchk in $IBDM_ROOT"
	IBDM_WORK=$(mktemp -d "$IBDM_ROOT/tmp/ibtopo-ibdmchk.XXXXXX") ||
		fail "mktemp in $IBDM_ROOT"
	CLEANUP_HOOK=ibdmchk_cleanup
}

# shellcheck disable=SC2317 # lib_cleanup runs it
ibdmchk_cleanup() {
	rm -rf --one-file-system "$IBDM_WORK"
}

# sim_health OUT WANT_RC WHAT ARGS...: `health ARGS` of $DB through the
# simulator into OUT; fail unless it exits WANT_RC (WHAT: the case)
sim_health() {
	local out=$1 want=$2 what=$3 rc
	shift 3
	sim_client "$IBTOPO" --db "$DB" health "$@" >"$out"
	rc=$?
	[ "$rc" = "$want" ] || fail "$what exited $rc, wanted $want"
}

# gen_fattree RADIX LEVELS NET: bench/gen-fattree.py's fat tree of
# RADIX-port switches and LEVELS levels, an ibsim net file
gen_fattree() {
	"$PYTHON3" "${top_srcdir:-.}/bench/gen-fattree.py" --radix "$1" \
		--levels "$2" -o "$3" 2>/dev/null || fail "gen-fattree.py"
}

# dump_fts_require: skip without python3, ibsim, opensm, ibnetdiscover
# or dump_fts (DUMP_FTS then)
dump_fts_require() {
	python_require
	opensm_gen_require
	ibnetdiscover_require
	DUMP_FTS=$(command -v dump_fts) ||
		skip "dump_fts not found (infiniband-diags)"
}

# osm_sweep NET ENGINE DIR [OPENSM ARGS]: one opensm sweep of NET under
# ibsim with ENGINE, its dump files (-D 0x43) in DIR/osm, then
# DIR/fabric.topo and DIR/dump_fts.txt read live. The log must say
# "<ENGINE> tables configured" (opensm exits 0 when it falls back).
osm_sweep() {
	net=$1 eng=$2 dir=$3
	shift 3
	mkdir -p "$dir/osm"
	sim_start -n "$net"
	sim_client env OSM_CACHE_DIR="$dir/osm" OSM_TMP_DIR="$dir/osm" \
		"$OPENSM" -o -R "$eng" --dump_files_dir "$dir/osm" -D 0x43 \
		-f "$dir/osm/osm.log" "$@" >"$dir/opensm.out" 2>&1 ||
		{ sim_stop; fail "opensm -R $eng failed"; }
	sim_client "$IBNETDISCOVER" >"$dir/fabric.topo" 2>"$dir/ibnd.err" ||
		{ sim_stop; fail "ibnetdiscover failed"; }
	sim_client "$DUMP_FTS" >"$dir/dump_fts.txt" 2>"$dir/dump_fts.err" ||
		{ sim_stop; fail "dump_fts failed"; }
	sim_stop
	grep -q "osm_ucast_mgr_process: $eng tables configured" "$dir/osm/osm.log" ||
		fail "opensm did not route with $eng: $(grep 'tables configured\|ERR' "$dir/osm/osm.log" | head -3)"
}

# count_lines TEXT: number of lines (0 for empty text).
count_lines() {
	if [ -z "$1" ]; then
		echo 0
	else
		printf '%s\n' "$1" | wc -l
	fi
}

# links_brief: read `show links --format json` on stdin; print one line
# per link, "nodeA:port nodeB:port SPEED WIDTH", ends ordered by node
# description, lines sorted: comparable across GUID assignments.
links_brief() {
	"$PYTHON3" -c '
import json, sys
rows = []
for l in json.load(sys.stdin)["links"]:
    ends = sorted(["%s:%s" % (l[k]["node"], l[k]["port"]) for k in ("a", "b")])
    rows.append("%s %s %s %s" % (ends[0], ends[1], l["speed"], l["width"]))
print("\n".join(sorted(rows)))
'
}

# links_sets: like links_brief, then each end as
# "node:port width_supported/width_enabled speed_supported/speed_enabled".
links_sets() {
	"$PYTHON3" -c '
import json, sys
def s(v):
    return ",".join(v) if v else "-"
rows = []
for l in json.load(sys.stdin)["links"]:
    ends = sorted([l["a"], l["b"]], key=lambda e: (e["node"], e["port"]))
    rows.append(" ".join(["%s:%s" % (e["node"], e["port"]) for e in ends] +
        [l["speed"], l["width"]] +
        ["%s:%s %s/%s %s/%s" % (e["node"], e["port"],
            s(e.get("width_supported")), s(e.get("width_enabled")),
            s(e.get("speed_supported")), s(e.get("speed_enabled")))
         for e in ends]))
print("\n".join(sorted(rows)))
'
}

# json_get EXPR: evaluate a Python expression over the JSON on stdin
# (bound to `j`) and print the result.
json_get() {
	"$PYTHON3" -c '
import json, sys
j = json.load(sys.stdin)
print(eval(sys.argv[1]))
' "$1"
}

# ck_cables [db]: the setup of the tests on tests/data/ck-cables.topo
# ($topo) and its hand-written routing dump ($dump): python3 required,
# $tmp the test directory; with "db", test_env db.
ck_cables() {
	python_require
	# shellcheck disable=SC2034 # for the tests that source this file
	tmp=$TESTDIR topo=$DATA/ck-cables.topo dump=$DATA/rt-ck-lfts.dump
	if [ "${1:-}" = db ]; then
		test_env db
	fi
}

# hour_apart SRC1 DST1 SRC2 DST2: copy_at of two counter dumps, read at
# 10:00 and 11:00 UTC on 2026-01-01.
hour_apart() {
	copy_at "$1" "$2" '2026-01-01 10:00:00 UTC'
	copy_at "$3" "$4" '2026-01-01 11:00:00 UTC'
}

# fixtures_env: unrelated fixtures, stored as one fabric (labels and REFs
# as before fabrics, issue 25; tests/cli/fabrics-*.sh test several),
# $tmp the test directory, $TOOL tests/store-tool, then test_env.
fixtures_env() {
	IBTOPO_FABRIC=fixtures
	export IBTOPO_FABRIC
	# shellcheck disable=SC2034 # for the tests that source this file
	tmp=$TESTDIR TOOL=${top_builddir:?}/tests/store-tool
	test_env
}

# chrome_require: $CHROMIUM (headless chromium) runs here, or skip; then
# chrome ARGS... runs it with its own profile in $TESTDIR, stopped by the
# PID timeout(1) gives it after $LIMIT s (default 120)
chrome_require() {
	CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
	[ -n "$CHROMIUM" ] || skip "no chromium (tools/install-deps.sh installs it)"
	command -v timeout >/dev/null || skip "no timeout(1)"
	LIMIT=${LIMIT:-120}
	chrome --dump-dom about:blank >"$TESTDIR/blank.html" ||
		skip "chromium cannot run here: $(tail -1 "$TESTDIR/chrome.err")"
	grep -q '<body' "$TESTDIR/blank.html" || skip "chromium dumped no DOM"
}
chrome() {
	timeout -s KILL "$LIMIT" "$CHROMIUM" --headless --no-sandbox \
		--disable-gpu --no-first-run --user-data-dir="$TESTDIR/profile" \
		--hide-scrollbars "$@" 2>>"$TESTDIR/chrome.err"
}

# promtool_require: $PROMTOOL (else promtool in PATH), or skip.
promtool_require() {
	PROMTOOL=${PROMTOOL:-$(command -v promtool)}
	[ -n "$PROMTOOL" ] && [ -x "$PROMTOOL" ] || skip "promtool not found (prometheus)"
}

# opensm_gen_require: opensm and tests/gen/gen-fabric ($GEN), or skip.
opensm_gen_require() {
	[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"
	GEN="${top_builddir:-.}/tests/gen/gen-fabric"
	[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"
}

# sim_start_as NET HOST: sim_start NET, its clients running as HOST.
sim_start_as() {
	sim_start "$1"
	SIM_HOST=$2
	export SIM_HOST
}

# real_ibtopo: $IBTOPO_REAL, the program $IBTOPO runs, not the libtool
# wrapper script around it (LD_LIBRARY_PATH then exported for its
# libraries): to time it, kill it, or run it under valgrind.
real_ibtopo() {
	IBTOPO_REAL=$IBTOPO
	if [ -x "$(dirname "$IBTOPO")/.libs/ibtopo" ] &&
		head -c 2 "$IBTOPO" | grep -q '#!'; then
		LD_LIBRARY_PATH="${top_builddir:-.}/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		export LD_LIBRARY_PATH
		# shellcheck disable=SC2034 # for the tests that source this file
		IBTOPO_REAL="$(dirname "$IBTOPO")/.libs/ibtopo"
	fi
}

# render ARGS...: `ibtopo render ARGS`, failing the test (with its
# stderr) unless it succeeds.
render() {
	"$IBTOPO" render "$@" 2>"$TESTDIR/err" || {
		cat "$TESTDIR/err" >&2
		fail "render $*"
	}
}

# wait_pids WHAT ERR PID...: wait for each PID, flunking "WHAT N" with
# the file ERR followed by N for the Nth that failed.
wait_pids() {
	what=$1 err=$2
	shift 2
	w=0
	for p in "$@"; do
		w=$((w + 1))
		wait "$p" || flunk "$what $w: $(cat "$err$w")"
	done
}

# projected WHAT COMMAND...: COMMAND (JSON on stdout) exits 1 and its
# output through the test's `project` is $TESTDIR/want; else fail, the
# message naming WHAT.
projected() {
	what=$1
	shift
	run 1 "$@" || fail "$what"
	project <"$TESTDIR/out" >"$TESTDIR/got" || fail "$what: JSON unreadable"
	same "$TESTDIR/want" "$TESTDIR/got" "$what" || fail "$what"
}

# plan_pods64 FILE: a 3-level fat tree of 64 pods of 4 spines and 4
# leaves, 32 hosts a leaf, 64-port switches (640 switches).
plan_pods64() {
	"$IBTOPO" plan fat-tree --levels 3 --pods 64 --leaves 4 --spines 4 \
		--hosts-per-leaf 32 --radix 64 -o "$1" || fail "plan"
}

# sim_counters LABEL: `discover --counters --label LABEL` into $DB under
# the simulator, failing (with its stderr) unless it succeeds.
sim_counters() {
	sim_client "$IBTOPO" --db "$DB" discover --counters --label "$1" \
		>/dev/null 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover $1"; }
}
