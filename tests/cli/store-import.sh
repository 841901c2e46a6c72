#!/bin/sh
# store-import.sh - the store through `ibtopo import` of real fabric dumps:
# every fixture reads back from its snapshot exactly as from its file;
# concurrent imports all land; an import that cannot be stored fails
# with one line and leaves the database as it was.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
fixtures_env

[ -f "$REAL/qdr-hosts-fdr10-isls.topo" ] || fail "no $REAL (the real dumps are in the repository)"

# state DB: what must not change when a write fails
state() {
	if [ -e "$1" ]; then
		echo "$(cksum <"$1") $(date -r "$1" +%s.%N)"
	else
		echo absent
	fi
}

# ---- every fixture: show FILE == show REF, in every list
db=$tmp/fabric.db
n=0
for f in "$REAL"/*.topo "$REAL"/*.ports*.txt; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	run 0 "$IBTOPO" --db "$db" import --label "$name" "$f" || continue
	head -n 1 "$tmp/out" | grep -q "^snapshot $n ($name): " ||
		flunk "import $name said: $(head -n 1 "$tmp/out")"
	# JSON carries every column; the other formats walk the same ones
	for what in nodes ports links cables; do
		"$IBTOPO" --db "$db" show --format json "$f" $what \
			>"$tmp/file" 2>/dev/null ||
			flunk "show $name $what"
		"$IBTOPO" --db "$db" show --format json "$name" $what \
			>"$tmp/snap" 2>"$tmp/err" ||
			flunk "show snapshot $n $what: $(cat "$tmp/err")"
		# a snapshot's JSON names its fabric, a file's has no fabric
		grep -q '^{"schema_version":2,"fabric":"[^"]*",' "$tmp/snap" ||
			flunk "$name: $what names no fabric: $(head -c 80 "$tmp/snap")"
		sed 's/^{"schema_version":2,"fabric":"[^"]*",/{"schema_version":2,/' \
			"$tmp/snap" | cmp -s "$tmp/file" - ||
			flunk "$name: $what differs after the store"
	done
done
[ "$n" -ge 8 ] || flunk "only $n of the 8 real dumps"
run 0 "$IBTOPO" --db "$db" snapshots --format csv
[ "$(wc -l <"$tmp/out")" -eq $((n + 1)) ] || flunk "$(cat "$tmp/out")"

# ---- four importers at once, ten imports each, into a new database
# (in a folder that exists: --db makes none, issue 33 item 10)
db=$tmp/concurrent/fabric.db
mkdir "$tmp/concurrent" || fail "mkdir"
pids=
for w in 1 2 3 4; do
	(
		i=0
		while [ $i -lt 10 ]; do
			i=$((i + 1))
			"$IBTOPO" --db "$db" import --label "w$w.$i" \
				"$REAL/tiny-mixed-speeds.topo" >/dev/null 2>"$tmp/cerr$w" ||
				exit 1
		done
	) &
	pids="$pids $!"
done
# shellcheck disable=SC2086 # one PID a word
wait_pids importer "$tmp/cerr" $pids
run 0 "$IBTOPO" --db "$db" snapshots --format csv
[ "$(grep -Ec ',w[1-4]\.([1-9]|10),' "$tmp/out")" -eq 40 ] ||
	flunk "concurrent imports: $(($(wc -l <"$tmp/out") - 1)) snapshots"

# ---- imports that cannot be stored: one line, exit 2, nothing changed
f=$REAL/qdr-hosts-fdr10-isls.topo	# read without warnings
: >"$tmp/plain"
db=$tmp/plain/fabric.db
run 2 "$IBTOPO" --db "$db" import "$f" &&
	stderr_is "ibtopo: cannot create database '$db': Not a directory"

db=$tmp/newer.db
latest=$(sed -n 's/^-- @version //p' "$top_srcdir/data/schema.sql" | tail -1)
"$TOOL" fill "$db" 1 &&
	"$TOOL" exec "$db" "PRAGMA user_version = $((latest + 1))" >/dev/null ||
	exit 99
before=$(state "$db")
run 2 "$IBTOPO" --db "$db" import "$f" &&
	stderr_is "ibtopo: '$db': schema version $((latest + 1)) is newer than this ibtopo supports ($latest)"
[ "$(state "$db")" = "$before" ] || flunk "import changed a newer database"
[ -e "$db-wal" ] || [ -e "$db-shm" ] && flunk "import left $db-wal or -shm"

db=$tmp/junk.db
awk 'BEGIN { srand(3); for (i = 0; i < 8192; i++) printf "%c", int(rand() * 255) + 1 }' >"$db"
before=$(state "$db")
run 2 "$IBTOPO" --db "$db" import "$f" &&
	stderr_is "ibtopo: '$db': not an ibtopo database"
[ "$(state "$db")" = "$before" ] || flunk "import changed a corrupt file"

# Root ignores file permissions through its capabilities: as root, the
# commands below run without any (setpriv), still as uid 0 so that they
# reach the build and source trees, which may be closed to other users
# (a CI clone in a mktemp -d folder is 0700).
unpriv=
if [ "$(id -u)" -eq 0 ]; then
	unpriv="setpriv --bounding-set=-all --inh-caps=-all --"
	$unpriv sh -c '! grep -q "^CapEff:.*[1-9a-f]" /proc/self/status' 2>/dev/null || {
		echo "SKIP: running as root and cannot drop capabilities (setpriv)"
		[ $failed -eq 0 ] && exit 77
		exit 1
	}
fi
unset IBTOPO_FABRIC	# store-tool's snapshots: one fabric, the only one
db=$tmp/ro.db
"$TOOL" fill "$db" 1 || exit 99
chmod 0400 "$db"
before=$(state "$db")
run 2 $unpriv "$IBTOPO" --db "$db" import "$f" &&
	stderr_is "ibtopo: database '$db' is read-only"
[ "$(state "$db")" = "$before" ] || flunk "import changed a read-only database"
mkdir "$tmp/rodir" && "$TOOL" fill "$tmp/rodir/fabric.db" 1 || exit 99
chmod 0500 "$tmp/rodir"
db=$tmp/rodir/fabric.db
run 2 $unpriv "$IBTOPO" --db "$db" import "$f" &&
	stderr_is "ibtopo: cannot write database '$db': directory '$tmp/rodir': Permission denied"
# reading needs no write access
run 0 $unpriv "$IBTOPO" --db "$db" show --format csv latest links &&
	[ "$(wc -l <"$tmp/out")" -gt 1 ] || flunk "show from a read-only folder: no links"
chmod 0700 "$tmp/rodir"

exit $failed
