#!/bin/sh
# cli-help.sh - each command is declared once (src/cmd_<name>.c): the
# summary `ibtopo --help` lists is the one `ibtopo NAME --help` prints and
# the one README.md's usage block gives, help goes to stdout with exit 0,
# the usage line offers --db only to the commands that open the database,
# and every option README.md shows is one its command knows.
. "$top_srcdir/tests/lib.sh"
T=$TESTDIR

"$IBTOPO" --help >"$T/main" 2>"$T/err" || fail "ibtopo --help exited $?"
[ -s "$T/err" ] && fail "ibtopo --help wrote to stderr"
# "NAME summary" from the "commands:" block ("  NAME       summary")
commands() {
	sed -n 's/^  \([a-z][a-z]*\)  *\([a-z].*\)$/\1 \2/p'
}
sed -n '/^commands:$/,/^$/p' "$T/main" | commands >"$T/list"
n=$(wc -l <"$T/list")
[ "$n" -ge 10 ] || fail "ibtopo --help lists $n commands"

while read -r name summary; do
	"$IBTOPO" "$name" --help >"$T/out" 2>"$T/err" ||
		fail "$name --help exited $?"
	[ -s "$T/err" ] && fail "$name --help wrote to stderr"
	# the usage line(s), an empty line, then the summary
	got=$(sed -n '/^$/{n;p;q;}' "$T/out")
	[ "$got" = "$summary" ] ||
		fail "$name: 'ibtopo --help' says '$summary', '$name --help' '$got'"
	case $name in
	plan) want='usage: ibtopo plan ' ;;
	*) want="usage: ibtopo [--db FILE] $name " ;;
	esac
	case $(head -1 "$T/out") in
	"$want"*) ;;
	*) fail "$name --help: '$(head -1 "$T/out")', wanted '$want...'" ;;
	esac
done <"$T/list"

# README.md's usage block: the same commands and summaries, in order
sed -n '/^## Usage$/,/^## /p' "$top_srcdir/README.md" |
	sed -n '/^```$/,/^```$/p' >"$T/readme"
[ -s "$T/readme" ] || fail "no usage block in README.md"
commands <"$T/readme" >"$T/readme-list"
cmp -s "$T/list" "$T/readme-list" || {
	diff "$T/list" "$T/readme-list" >&2
	fail "README.md's usage block differs from 'ibtopo --help'"
}
# the synopsis lines under each command name options it knows
awk '/^  [a-z]+  / { cmd = $1; next } /^   / && cmd { print cmd, $0 }' \
	"$T/readme" >"$T/synopses"
[ -s "$T/synopses" ] || fail "no synopses in README.md's usage block"
while read -r name line; do
	"$IBTOPO" "$name" --help >"$T/out" 2>&1
	for opt in $(printf '%s\n' "$line" | grep -o -- '--[a-z][a-z-]*'); do
		grep -q -- "$opt" "$T/out" ||
			fail "README.md shows '$name $opt'; '$name --help' does not"
	done
done <"$T/synopses"
# ... and the other way: every option of a command's usage line is in its
# README synopsis (issue 33, item 12), but for --db and --help, --format
# (every report has it; discover's is shown), the shared analysis rows
# (shown under analyze) and the global --node-name-map
for name in $(awk '{ print $1 }' "$T/synopses" | sort -u); do
	"$IBTOPO" "$name" --help | sed -n 1p >"$T/usage"
	for opt in $(grep -o -- '--[a-z][a-z-]*' "$T/usage" | sort -u); do
		case $name:$opt in
		*:--db | *:--help | *:--node-name-map) continue ;;
		discover:--format) ;;
		*:--format) continue ;;
		analyze:*) ;;
		*:--roots | *:--root-pattern | *:--servers) continue ;;
		esac
		awk -v c="$name" '$1 == c' "$T/synopses" | grep -q -- "$opt\b" ||
			fail "'$name --help' has '$opt'; README.md's usage block does not"
	done
done
exit 0
