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
expect_err "ibtopo: '$T' is no fabric file (a directory) and no snapshot: no database '$DB'" \
	"$IBTOPO" --db "$DB" analyze "$T"
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
