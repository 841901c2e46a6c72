#!/bin/sh
# load-source.sh - every command reads "REF or FILE, plus a node name map"
# through one loader (src/cli.c cli_load_fabric): a name map renames the
# nodes of a snapshot as it does those of a file, for export and render
# alike; a file name ('/' or '.') that is neither a file nor a snapshot
# fails as a missing file, a directory naming both attempts; a REF that
# names no snapshot keeps its short message.
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
T=$TESTDIR
TINY=$top_srcdir/tests/data/real/tiny-mixed-speeds.topo
printf '0x0002c903003421b0 "mapped-host-01"\n' >"$T/hosts.map"

# expect_err WANT COMMAND...: exit 2, stdout empty, stderr exactly WANT
expect_err() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$*' exited $rc, wanted 2"
	[ -s "$T/out" ] && fail "'$*' wrote to stdout"
	printf '%s\n' "$want" >"$T/want"
	cmp -s "$T/want" "$T/err" ||
		fail "'$*' said '$(cat "$T/err")', wanted '$want'"
}

# ---- neither a file nor a snapshot
expect_err "ibtopo: cannot open 'no/such.topo': No such file or directory" \
	"$IBTOPO" --db "$DB" show no/such.topo
expect_err "ibtopo: '$T' is a directory, not a fabric file, and no snapshot: no database '$DB' (nothing stored yet: \`ibtopo discover\` or \`ibtopo import FILE\` stores a snapshot; or name a fabric file)" \
	"$IBTOPO" --db "$DB" analyze "$T"
# a directory is never "No such file or directory", whatever errno held
# before (without --db the default database is looked for first)
mkdir -p "$T/home" "$T/dir"
HOME=$T/home XDG_DATA_HOME='' "$IBTOPO" analyze "$T/dir" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "analyze of a directory did not exit 2"
grep -q "^ibtopo: '$T/dir' is a directory, not a fabric file, and no snapshot" \
	"$T/err" || fail "analyze of a directory said '$(cat "$T/err")'"
# every fabric, counters, routes, cables or name-map file lib/read, lib/cables and lib/discover open
for how in "import --input-format ibsim" "import" "import --input-format cache"; do
	# shellcheck disable=SC2086 # the options are words
	expect_err "ibtopo: cannot open '$T/dir': Is a directory" \
		"$IBTOPO" --db "$DB" $how "$T/dir"
done
for opt in --counters --routes --node-name-map; do
	expect_err "ibtopo: cannot open '$T/dir': Is a directory" \
		"$IBTOPO" --db "$DB" import "$DATA/rd-small.topo" "$opt" "$T/dir"
done
expect_err "ibtopo: cannot open '$T/dir': Is a directory" \
	"$IBTOPO" analyze "$DATA/rd-small.topo" --cables "$T/dir"
"$IBTOPO" --db "$DB" import --label tiny "$TINY" >/dev/null ||
	fail "import $TINY"
expect_err "ibtopo: cannot open './tiny': No such file or directory" \
	"$IBTOPO" --db "$DB" diff ./tiny tiny
# a word is a REF: the store's message as it was
expect_err "ibtopo: no snapshot 'nope' in '$DB'" \
	"$IBTOPO" --db "$DB" export nope

# ---- a node name map renames a snapshot's nodes as a file's
for what in "$TINY" tiny; do
	"$IBTOPO" --db "$DB" export --format json --node-name-map "$T/hosts.map" \
		"$what" >"$T/export.json" 2>"$T/err" ||
		fail "export $what: $(cat "$T/err")"
	grep -q '"mapped-host-01"' "$T/export.json" ||
		fail "export $what --node-name-map: no mapped name"
	"$IBTOPO" --db "$DB" render --node-name-map "$T/hosts.map" \
		-o "$T/tiny.dot" --hosts all "$what" 2>"$T/err" ||
		fail "render $what: $(cat "$T/err")"
	grep -q 'mapped-host-01' "$T/tiny.dot" ||
		fail "render $what --node-name-map: no mapped name in the DOT"
done
expect_err "ibtopo: cannot open '$T/none.map': No such file or directory" \
	"$IBTOPO" --db "$DB" export --node-name-map "$T/none.map" tiny
exit 0
