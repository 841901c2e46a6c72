#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# kill-import.sh - crash safety of the store: `ibtopo import` of a large
# fabric (3,456 hosts, 720 switches, 10,368 links: bench/gen-fattree.py
# --radix 24, written as ibnetdiscover text, 1.5 MB; --radix 16 under
# AddressSanitizer) is killed with SIGKILL until 50 kills have landed, at
# random moments and, a third at least, inside the write transaction
# (tests/rel-killimport.py: the kills follow the imports, not a clock, so
# load and `make -j` change how many imports it takes, not the result; no
# snapshot listed before a kill is lost after it). Then the database
# passes PRAGMA integrity_check and foreign_key_check, every snapshot in
# it is whole (its node, port and link rows match the counts of the
# snapshots table and of an import that was not killed, and `ibtopo show
# ID links --format json` lists all its links), and one more import still
# works.
#
# IBTOPO_TEST_KILLS=N changes the number of kills, IBTOPO_TEST_RADIX=N
# the fabric, REL_SEED=N replays the delays of a failed run (its seed is
# printed).
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
KILLS=${IBTOPO_TEST_KILLS:-50}
SQLITE3=${SQLITE3:-sqlite3}
test_env

# sql QUERY: one value from the database, through the sqlite3 shell, else
# the test's store-tool
sql() {
	if command -v "$SQLITE3" >/dev/null 2>&1; then
		"$SQLITE3" -batch -noheader "$DB" "$1"
	else
		"$top_builddir/tests/store-tool" exec "$DB" "$1"
	fi
}

# Kill the program itself, not the libtool wrapper script that runs it.
real_ibtopo
bin=$IBTOPO_REAL

# AddressSanitizer makes an import 4 times slower: a smaller fabric keeps
# the test near a minute there (1,024 hosts, 320 switches, 3,072 links)
radix=24
if [ -n "${ASAN_OPTIONS:-}" ] ||
	{ command -v ldd >/dev/null 2>&1 && ldd "$bin" 2>/dev/null |
		grep -q 'libasan'; }; then
	radix=16
fi
RADIX=${IBTOPO_TEST_RADIX:-$radix}
# killed processes leak by definition; the other tests look for leaks
if [ -n "${ASAN_OPTIONS:-}" ]; then
	ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
	export ASAN_OPTIONS
fi
net=$TESTDIR/ft.net
dump=$TESTDIR/ft.topo
"$PYTHON3" "$top_srcdir/bench/gen-fattree.py" --radix "$RADIX" --levels 3 \
	-o "$net" 2>/dev/null || fail "gen-fattree.py"
"$bin" export --format ibnetdiscover -o "$dump" "$net" ||
	fail "export of the generated fabric"

# the reference: the same file imported whole into another database
ref=$TESTDIR/ref.db
"$bin" --db "$ref" import "$dump" >/dev/null || fail "reference import"
set -- $(DB=$ref sql "SELECT switches, cas, routers, links FROM snapshots" |
	tr '|' ' ')
[ $# -eq 4 ] || fail "reference snapshot: $*"
want="$1 $2 $3 $4 $(DB=$ref sql 'SELECT count(*) FROM nodes')"
want="$want $(DB=$ref sql 'SELECT count(*) FROM ports')"
want="$want $(DB=$ref sql 'SELECT count(*) FROM links')"
info "every snapshot: switches cas routers links, node port link rows: $want"

"$PYTHON3" "$top_srcdir/tests/rel-killimport.py" "$bin" "$DB" "$dump" \
	"$KILLS" ${REL_SEED:+"$REL_SEED"} || fail "kills (see above)"

check=$(sql 'PRAGMA integrity_check')
[ "$check" = ok ] || flunk "integrity_check: $check"
fk=$(sql 'PRAGMA foreign_key_check')
[ -z "$fk" ] || flunk "foreign_key_check: $fk"
echo "integrity_check: $check; foreign_key_check: ${fk:-no rows}"

# every snapshot whole
ids=$(sql 'SELECT id FROM snapshots ORDER BY id')
n=0
for id in $ids; do
	n=$((n + 1))
	got=$(sql "SELECT switches, cas, routers, links,
		(SELECT count(*) FROM nodes WHERE snapshot_id = s.id),
		(SELECT count(*) FROM ports WHERE snapshot_id = s.id),
		(SELECT count(*) FROM links WHERE snapshot_id = s.id)
		FROM snapshots s WHERE id = $id" | tr '|' ' ')
	[ "$got" = "$want" ] || flunk "snapshot $id: $got, wanted $want"
	links=$("$bin" --db "$DB" show "$id" links --format json |
		json_get 'len(j["links"])') || links=error
	[ "$links" = "${want##* }" ] || flunk "show $id links: $links links, wanted ${want##* }"
done
[ "$n" -ge 4 ] || flunk "only $n snapshots"
echo "$n snapshots, each whole"

# the database still takes a snapshot
last=$(sql 'SELECT max(id) FROM snapshots')
out=$("$bin" --db "$DB" import --label after "$dump") ||
	flunk "import after the kills"
case $out in
"snapshot $((last + 1)) (after): "*) ;;
*) flunk "import after the kills said: $out" ;;
esac
exit $failed
