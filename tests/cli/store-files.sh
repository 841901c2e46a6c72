#!/bin/sh
# store-files.sh - the database file and its folder (issue 33, item 10):
# - a --db or $IBTOPO_DB path in a folder that does not exist is a typo:
#   exit 2 naming the folder, and no folder is created;
# - the default database (~/.local/share/ibtopo/fabric.db) gets its
#   folders, 0700, and the file 0600 whatever the umask;
# - root creating the database in a folder another user owns (a
#   service's /var/lib/ibtopo) gives it to that user and the folder's
#   group, so that the service can open it: the two example units
#   share it whichever starts first (as root only, with setpriv);
# - the two example units run as the same user and group, with the
#   same StateDirectory and database.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
test_env
T=$TESTDIR
F=$DATA/rd-small.topo

# ---- a typed path in a missing folder
run 2 "$IBTOPO" --db "$T/none/sub/x.db" import "$F" &&
	stderr_is "ibtopo: cannot create database '$T/none/sub/x.db': no folder '$T/none/sub' (No such file or directory)"
[ -e "$T/none" ] && flunk "--db created the folders"
IBTOPO_DB=$T/none/x.db run 2 "$IBTOPO" import "$F"
[ -e "$T/none" ] && flunk "IBTOPO_DB created the folder"
run 0 "$IBTOPO" --db "$T/here.db" import "$F"

# ---- the default database: its folders are made
mkdir "$T/home"
(umask 0 && HOME=$T/home XDG_DATA_HOME='' "$IBTOPO" import "$F") >/dev/null 2>"$T/err" ||
	flunk "import into the default database: $(cat "$T/err")"
[ "$(stat -c %a "$T/home/.local/share/ibtopo")" = 700 ] || flunk "default folder mode"
[ "$(stat -c %a "$T/home/.local/share/ibtopo/fabric.db")" = 600 ] || flunk "default file mode"

# ---- the example units: one user, one group, one folder, one database
E=$top_srcdir/examples
for key in User Group StateDirectory Environment=IBTOPO_DB; do
	a=$(grep "^${key%%=*}=" "$E/ibtopo-discover.service" | grep -F "$key")
	b=$(grep "^${key%%=*}=" "$E/ibtopo-serve.service" | grep -F "$key")
	[ -n "$a" ] && [ "$a" = "$b" ] ||
		flunk "the example units differ in $key: '$a' and '$b'"
done

# ---- root creates it in the service's folder: the service can open it
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	id nobody >/dev/null 2>&1; then
	group=$(id -gn nobody)
	mkdir "$T/var" && chown "nobody:$group" "$T/var" && chmod 755 "$T" ||
		fail "chown"
	run 0 "$IBTOPO" --db "$T/var/fabric.db" import "$F"
	[ "$(stat -c '%U:%G %a' "$T/var/fabric.db")" = "nobody:$group 600" ] ||
		flunk "root's new database: $(stat -c '%U:%G %a' "$T/var/fabric.db")"
	if setpriv --reuid=nobody --regid="$group" --clear-groups \
		"$IBTOPO" --db "$T/var/fabric.db" import "$DATA/dv-before.topo" \
		>"$T/out" 2>"$T/err"; then
		run 0 "$IBTOPO" --db "$T/var/fabric.db" import "$F"
		[ "$("$IBTOPO" --db "$T/var/fabric.db" snapshots --format csv | sed 1d | wc -l)" = 3 ] ||
			flunk "three snapshots by root, the service user, root"
	elif grep -q 'Permission denied' "$T/err" && ! grep -q "$T/var" "$T/err"; then
		info "the service user cannot run $IBTOPO here: its part skipped"
	else
		flunk "the service user cannot open root's database: $(cat "$T/err")"
	fi
else
	info "not root (or no setpriv): the folder owner's part skipped"
fi
exit "$failed"
