#!/bin/sh
# store-cli.sh - `ibtopo snapshots` and `ibtopo show` on databases made by
# tests/store-tool: empty, filled, unknown REF, newer schema, corrupt,
# missing; the default path; --help.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
TOOL=$top_builddir/tests/store-tool
test_env


golden() {
	if ! cmp -s "$GOLDEN/$1" "$tmp/out"; then
		flunk "output differs from tests/golden/$1"
		diff "$GOLDEN/$1" "$tmp/out" | head -20 | sed 's/^/  /'
	fi
}

# ---- an empty database
db=$tmp/empty.db
"$TOOL" fill "$db" 0 || exit 99
run 0 "$IBTOPO" --db "$db" snapshots --format json &&
	stdout_is '{"schema_version":2,"snapshots":[]}'
run 0 "$IBTOPO" --db "$db" snapshots --format csv &&
	stdout_is "$(printf 'id,label,taken_at,switches,cas,links,partial,host,source,partial_reason,fabric\r')"
run 2 "$IBTOPO" --db "$db" show && stderr_is "ibtopo: no snapshots in '$db'"
# a zero-length file is an empty database too
: >"$tmp/zero.db"
run 0 "$IBTOPO" --db "$tmp/zero.db" snapshots --format json &&
	stdout_is '{"schema_version":2,"snapshots":[]}'

# ---- a database with four snapshots of a 4-ary fat tree
db=$tmp/fabric.db
"$TOOL" fill "$db" 3 week1 && "$TOOL" fill "$db" 1 week2 || exit 99
run 0 "$IBTOPO" --db "$db" snapshots --format json
ids=$(grep -o '"id":[0-9]*' "$tmp/out" | tr '\n' ' ')
[ "$ids" = '"id":1 "id":2 "id":3 "id":4 ' ] || flunk "snapshot ids: $ids"
grep -q '^{"schema_version":2,"snapshots":\[{"id":1,"label":"week1","taken_at":"[0-9-]*T[0-9:]*Z","switches":20,"cas":16,"links":48,"partial":false,' "$tmp/out" ||
	flunk "snapshots JSON: $(head -c 300 "$tmp/out")"
run 0 "$IBTOPO" --db "$db" snapshots
[ "$(wc -l <"$tmp/out")" -eq 5 ] || flunk "snapshots text: $(cat "$tmp/out")"

run 0 "$IBTOPO" --db "$db" show --format json 1 links && golden store-links.json
run 0 "$IBTOPO" --db "$db" show --format csv 1 nodes && golden store-nodes.csv
run 0 "$IBTOPO" --db "$db" show --format json 1 cables && golden store-cables.json
run 0 "$IBTOPO" --db "$db" show --format csv 1 ports
[ "$(wc -l <"$tmp/out")" -eq $((1 + 20 * 5 + 16)) ] ||
	flunk "ports CSV has $(wc -l <"$tmp/out") lines"
# options may follow the arguments
run 0 "$IBTOPO" --db "$db" show 1 links --format json && golden store-links.json
run 0 "$IBTOPO" --db "$db" show 1 --format csv nodes && golden store-nodes.csv
run 0 "$IBTOPO" --db "$db" snapshots --format csv
cp "$tmp/out" "$tmp/list"
run 0 "$IBTOPO" --db "$db" snapshots --format=csv
cmp -s "$tmp/out" "$tmp/list" || flunk "snapshots --format=csv"
# the default list is nodes, the default REF latest
run 0 "$IBTOPO" --db "$db" show --format csv && golden store-nodes.csv
# every way to name a snapshot
for ref in 1 4 week1 week2 latest latest~3; do
	run 0 "$IBTOPO" --db "$db" show --format csv "$ref" nodes &&
		golden store-nodes.csv
done
# $IBTOPO_DB stands in for --db
run 0 env IBTOPO_DB="$db" "$IBTOPO" show --format json 2 links && golden store-links.json

# ---- unknown REF, unknown list, too many arguments
run 2 "$IBTOPO" --db "$db" show nope && stderr_is "ibtopo: no snapshot 'nope' in '$db'"
run 2 "$IBTOPO" --db "$db" show latest~4 links &&
	stderr_is "ibtopo: no snapshot 'latest~4' in '$db'"
run 2 "$IBTOPO" --db "$db" show 99 nodes && stderr_is "ibtopo: no snapshot '99' in '$db'"
run 2 "$IBTOPO" --db "$db" show 1 bogus
grep -q "^ibtopo: unknown list 'bogus'" "$tmp/err" || flunk "unknown list: $(cat "$tmp/err")"
run 2 "$IBTOPO" --db "$db" show 1 nodes extra
run 2 "$IBTOPO" --db "$db" snapshots extra
run 2 "$IBTOPO" --db "$db" snapshots --format yaml

# ---- a database from a newer ibtopo: refused, left untouched
db=$tmp/newer.db
"$TOOL" fill "$db" 1 && "$TOOL" exec "$db" 'PRAGMA user_version = 99' >/dev/null ||
	exit 99
before=$(cksum <"$db")
touch -d '2001-02-03 04:05:06' "$db"
latest=$(sed -n 's/^-- @version //p' "$top_srcdir/data/schema.sql" | tail -1)
msg="ibtopo: '$db': schema version 99 is newer than this ibtopo supports ($latest)"
run 2 "$IBTOPO" --db "$db" snapshots && stderr_is "$msg"
run 2 "$IBTOPO" --db "$db" show --format json latest links && stderr_is "$msg"
[ "$(cksum <"$db")" = "$before" ] || flunk "newer database was changed"
[ "$(date -r "$db" +%Y)" = 2001 ] || flunk "newer database was touched"

# ---- not a database, not ours, missing
db=$tmp/junk.db
awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 255) + 1 }' >"$db"
run 2 "$IBTOPO" --db "$db" snapshots && stderr_is "ibtopo: '$db': not an ibtopo database"
run 2 "$IBTOPO" --db "$db" show && stderr_is "ibtopo: '$db': not an ibtopo database"
db=$tmp/other.db
"$TOOL" exec "$db" 'CREATE TABLE t (x)' >/dev/null || exit 99
run 2 "$IBTOPO" --db "$db" snapshots && stderr_is "ibtopo: '$db': not an ibtopo database"
db=$tmp/missing.db
# a read-only command on a database not there yet says how one gets there
NO_DB=" (nothing stored yet: \`ibtopo discover\` or \`ibtopo import FILE\` stores a snapshot; or name a fabric file)"
run 2 "$IBTOPO" --db "$db" show && stderr_is "ibtopo: no database '$db'$NO_DB"
# snapshots of a database not there yet: an empty list (issue 23, item 20)
run 0 "$IBTOPO" --db "$db" snapshots
[ -e "$db" ] && flunk "a read-only command created $db"
# the default path: $XDG_DATA_HOME, then ~/.local/share
run 2 env XDG_DATA_HOME="$tmp/xdg" "$IBTOPO" show &&
	stderr_is "ibtopo: no database '$tmp/xdg/ibtopo/fabric.db'$NO_DB"
run 2 env -u XDG_DATA_HOME HOME="$tmp/home" "$IBTOPO" show &&
	stderr_is "ibtopo: no database '$tmp/home/.local/share/ibtopo/fabric.db'$NO_DB"

# ---- a database written by schema version 1 (tests/data/store-v1.db:
# sim-small.cache imported as week1, then rd-small.topo) is upgraded by
# the first command that opens it, and its snapshots read as imported now
db=$tmp/v1.db
cp "$top_srcdir/tests/data/store-v1.db" "$db" && chmod 600 "$db" || exit 99
run 0 "$IBTOPO" --db "$db" snapshots --format csv &&
	cut -d, -f1,2,4-7 "$tmp/out" | tr -d '\r' >"$tmp/list" &&
	printf '%s\n' id,label,switches,cas,links,partial 1,week1,4,4,9,false \
		2,,4,8,16,false | cmp -s - "$tmp/list" || flunk "v1 snapshots: $(cat "$tmp/list")"
for ref in 1 2; do
	src=$top_srcdir/tests/data/sim-small.cache
	[ $ref = 2 ] && src=$top_srcdir/tests/data/rd-small.topo
	rm -f "$tmp/fresh.db"
	"$IBTOPO" --db "$tmp/fresh.db" import "$src" >/dev/null || exit 99
	for what in nodes ports links; do
		run 0 "$IBTOPO" --db "$db" show --format csv "$ref" "$what" &&
			mv "$tmp/out" "$tmp/old" &&
			run 0 "$IBTOPO" --db "$tmp/fresh.db" show --format csv 1 "$what" &&
			cmp -s "$tmp/old" "$tmp/out" ||
			flunk "v1 snapshot $ref $what differ from a fresh import"
	done
done
run 0 "$IBTOPO" --db "$db" import "$top_srcdir/tests/data/rd-small.topo" &&
	grep -q '^snapshot 3: ' "$tmp/out" || flunk "import into the upgraded v1 database"

# ---- help goes to stdout, exit 0
for cmd in snapshots show; do
	run 0 "$IBTOPO" "$cmd" --help &&
		grep -q "^usage: ibtopo \[--db FILE\] $cmd" "$tmp/out" ||
		flunk "$cmd --help"
	[ -s "$tmp/err" ] && flunk "$cmd --help wrote to stderr"
done

exit $failed
