#!/bin/sh
# real-sources.sh - the real fabric dumps in tests/data/real travel with
# their licences: every file there is named in SOURCES.md, every file
# SOURCES.md names is there, and every licence it links to is a file in
# tests/data/real/LICENSES holding the licence it names. Run by `make
# distcheck` in the unpacked tarball too, so a dump or a licence text that
# `make dist` leaves out fails here.
set -u
: "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
SRC=$REAL/SOURCES.md
[ -f "$SRC" ] || fail "no $SRC"

# the table rows: "| `file`[, `file`] | origin | [LICENCE](LICENSES/x) | ..."
rows=$(grep '^| `' "$SRC")
[ -n "$rows" ] || fail "SOURCES.md has no table rows"

# every dump here is in the first column of a row, and the other way round
named=$(printf '%s\n' "$rows" | cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' |
	sort)
here=$(cd "$REAL" && for f in *; do
	[ -f "$f" ] && [ "$f" != SOURCES.md ] && echo "$f"
done | sort)
[ "$(count_lines "$here")" -ge 10 ] ||
	flunk "only $(count_lines "$here") dumps in $REAL"
for f in $here; do
	printf '%s\n' "$named" | grep -qxF "$f" || flunk "$f: not in SOURCES.md"
done
for f in $named; do
	[ -f "$REAL/$f" ] || flunk "SOURCES.md names $f: not in $REAL"
done

# every row links to its licence text, which says the licence it names
n=0
printf '%s\n' "$rows" | cut -d'|' -f4 >"$TESTDIR/licences"
while read -r cell; do
	n=$((n + 1))
	case $cell in
	'['*'](LICENSES/'*')') ;;
	*) flunk "row $n: licence '$cell' is no link to LICENSES/"; continue ;;
	esac
	spdx=${cell#[}
	spdx=${spdx%%]*}
	file=${cell#*(}
	file=${file%)}
	[ -f "$REAL/$file" ] || { flunk "row $n: no $file"; continue; }
	grep -q "^Licence:  $spdx " "$REAL/$file" ||
		flunk "$file: does not say it is $spdx"
	case $spdx in
	Apache-2.0) want='Apache License' ;;
	BSD-2-Clause) want='Redistribution and use in source and binary' ;;
	BSD-3-Clause) want='The name of the author may not be used' ;;
	MIT) want='Permission is hereby granted, free of charge' ;;
	*) flunk "row $n: unknown licence $spdx"; continue ;;
	esac
	grep -q "$want" "$REAL/$file" || flunk "$file: no $spdx text"
	grep -q 'Copyright' "$REAL/$file" || flunk "$file: no copyright line"
done <"$TESTDIR/licences"
[ "$n" -eq "$(count_lines "$rows")" ] || flunk "read $n of the rows"

# and no licence text lies there unlinked
for f in "$REAL"/LICENSES/*; do
	grep -qF "(LICENSES/$(basename "$f"))" "$SRC" ||
		flunk "$f: not linked from SOURCES.md"
done
[ "$(ls "$REAL/LICENSES" | wc -l)" -eq 6 ] ||
	flunk "$(ls "$REAL/LICENSES" | wc -l) licence files, wanted 6 (one per repository)"
[ $failed -eq 0 ] && echo "$(count_lines "$here") dumps, $n rows, each with its licence"
exit $failed
