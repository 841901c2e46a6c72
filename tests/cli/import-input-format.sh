#!/bin/sh
# import-input-format.sh - `import --input-format FMT` names the input
# format (--format is the output format everywhere else); import's
# --format stays for one release as a deprecated alias, with one warning.
# A forced format the file is not in gives one error, not a warning per
# line it cannot read.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
REAL=$top_srcdir/tests/data/real
x5=$REAL/x5-mixed-ddr-qdr.topo
ports=$REAL/plafrim2-subnet0.ports-verbose.txt
db=$TESTDIR/db

# a forced format that fits: read, stored, nothing said
run 0 "$IBTOPO" --db "$db" import --input-format ibnetdiscover "$x5" &&
	[ ! -s "$TESTDIR/err" ] || flunk "--input-format ibnetdiscover: $(cat "$TESTDIR/err")"
# ibsim reads ibnetdiscover output too
run 0 "$IBTOPO" --db "$db" import --input-format ibsim "$x5" &&
	[ ! -s "$TESTDIR/err" ] || flunk "--input-format ibsim: $(cat "$TESTDIR/err")"

# the deprecated alias: the same, and one warning
run 0 "$IBTOPO" --db "$db" import --format ibnetdiscover "$x5" &&
	stderr_is_warning=$(cat "$TESTDIR/err")
[ "$stderr_is_warning" = "ibtopo: warning: import --format is deprecated: use --input-format" ] ||
	flunk "--format on import said: $(cat "$TESTDIR/err")"

# a wrong forced format: one error, exit 2, nothing stored
for how in --input-format --format; do
	rm -f "$TESTDIR/db2"
	run 2 "$IBTOPO" --db "$TESTDIR/db2" import "$how" ports "$x5"
	grep -v '^ibtopo: warning: import --format is deprecated' "$TESTDIR/err" >"$TESTDIR/e"
	[ "$(wc -l <"$TESTDIR/e")" -eq 1 ] ||
		flunk "$how ports of an ibnetdiscover file: $(wc -l <"$TESTDIR/err") lines: $(head -3 "$TESTDIR/err")"
	grep -q "^ibtopo: '$x5' does not read as an ibnetdiscover -p report: .*ibnetdiscover output" \
		"$TESTDIR/e" || flunk "$how ports: $(cat "$TESTDIR/e")"
	[ -e "$TESTDIR/db2" ] && flunk "$how ports: a database was created"
done
run 2 "$IBTOPO" --db "$TESTDIR/db2" import --input-format ibsim "$ports" &&
	[ "$(wc -l <"$TESTDIR/err")" -eq 1 ] ||
	flunk "--input-format ibsim of a ports report: $(head -3 "$TESTDIR/err")"

# help and usage
run 0 "$IBTOPO" import --help &&
	grep -q -- '--input-format FMT' "$TESTDIR/out" ||
	flunk "import --help has no --input-format"
run 2 "$IBTOPO" import --input-format bogus "$x5"
grep -q "unknown input format 'bogus'" "$TESTDIR/err" ||
	flunk "--input-format bogus: $(cat "$TESTDIR/err")"
exit "$failed"
