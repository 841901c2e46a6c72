#!/bin/sh
# man-pages.sh - the man pages (issue 18, item 1): every option that a
# command's --help lists is in that command's section of ibtopo(1) (a new
# option without documentation fails here), the global ones in GLOBAL
# OPTIONS; the roff is built and man renders it; the ibtopo(3) example
# compiles against the library and runs.
: "${IBTOPO:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
RST=$top_srcdir/data/man/ibtopo.1.rst

# section NAME: the lines of "NAME\n----" up to the next section title
section() {
	awk -v name="$1" '
		prev == name && /^[-=]+$/ { on = 1; prev = $0; next }
		on && /^[-=]+$/ { exit }
		{ if (on && prevline != "") print prevline; prevline = on ? $0 : ""; prev = $0 }
	' "$RST"
}
opts_of() {	# the --long options a --help lists
	sed -n 's/^\(  -[A-Za-z], \|      \|  \)\(--[a-z][a-z-]*\)\( .*\)\{0,1\}$/\2/p' "$1" | sort -u
}

"$IBTOPO" --help >"$tmp/main" || fail "ibtopo --help"
sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p' "$tmp/main" >"$tmp/cmds"
[ "$(wc -l <"$tmp/cmds")" -ge 11 ] || fail "commands: $(cat "$tmp/cmds")"
sed -n '/^global options/,$p' "$tmp/main" >"$tmp/global.help"
opts_of "$tmp/global.help" >"$tmp/global"
section "GLOBAL OPTIONS" >"$tmp/sec"
while read -r o; do
	grep -q -- "\*\*$o\*\*" "$tmp/sec" || flunk "global option $o is not in GLOBAL OPTIONS of ibtopo.1.rst"
done <"$tmp/global"
while read -r cmd; do
	section "$cmd" >"$tmp/sec"
	[ -s "$tmp/sec" ] || { flunk "no section '$cmd' in ibtopo.1.rst"; continue; }
	"$IBTOPO" "$cmd" --help >"$tmp/help" || flunk "$cmd --help"
	# the command's own options: before the global options' block
	sed '/^global options/,$d' "$tmp/help" | opts_of /dev/stdin | grep -vx -- --help >"$tmp/opts"
	while read -r o; do
		grep -q -- "\*\*$o\*\*" "$tmp/sec" ||
			flunk "'$cmd $o' (in its --help) is not in its section of ibtopo.1.rst"
	done <"$tmp/opts"
	grep -q '^Example' "$tmp/sec" || flunk "'$cmd' has no example in ibtopo.1.rst"
	# the files an option reads, as its --help names them (import
	# --counters: the ibdiagnet ones too; issue 33, item 12)
	for f in $(grep -o 'ibdiagnet2\.[a-z_]*' "$tmp/help" | sort -u); do
		grep -q -- "\.${f#ibdiagnet2.}" "$tmp/sec" ||
			flunk "'$cmd --help' names $f; its section of ibtopo.1.rst does not"
	done
done <"$tmp/cmds"
for s in SYNOPSIS "EXIT STATUS" ENVIRONMENT FILES; do
	grep -qx "$s" "$RST" || flunk "ibtopo.1.rst has no $s"
done

# ---- the roff: built (or from the tarball), and man renders it
for p in ibtopo.1 ibtopo.3; do
	f=$top_builddir/data/man/$p
	[ -s "$f" ] || f=$top_srcdir/data/man/$p
	[ -s "$f" ] || { flunk "data/man/$p was not built"; continue; }
	head -n 40 "$f" | grep -q '^\.TH "\{0,1\}IBTOPO' || flunk "$p is no man page: $(head -n 3 "$f")"
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l "$f" >"$tmp/$p.txt" 2>/dev/null || flunk "man -l $p"
	fi
done
if [ -s "$tmp/ibtopo.1.txt" ]; then
	grep -q '^       --keep-days D' "$tmp/ibtopo.1.txt" || flunk "man ibtopo: no --keep-days"
fi

# ---- the ibtopo(3) example compiles and runs
sed -n '/^\.\. code-block:: c$/,/^[^ ]/p' "$top_srcdir/data/man/ibtopo.3.rst" |
	sed '1d;$d' | sed 's/^    //' >"$tmp/example.c"
grep -q 'int main' "$tmp/example.c" || fail "no example in ibtopo.3.rst"
LIBTOOL=$top_builddir/libtool
"$LIBTOOL" --quiet --mode=link ${CC:-cc} -std=c11 -Wall -Werror \
	-I"$top_srcdir/lib/include" -o "$tmp/example" "$tmp/example.c" \
	"$top_builddir/lib/libibtopo.la" >"$tmp/cc" 2>&1 ||
	fail "the ibtopo(3) example does not compile: $(cat "$tmp/cc")"
# warnings only: exit 0, as ibtopo analyze
run 0 "$tmp/example" "$DATA/ck-cables.topo" ||
	fail "the example's exit status"
grep -q '^{"schema_version":2,"snapshot":{' "$tmp/out" || flunk "example output: $(head -c 200 "$tmp/out")"
"$IBTOPO" analyze --format json "$DATA/ck-cables.topo" >"$tmp/cli.json"
cmp -s "$tmp/out" "$tmp/cli.json" || flunk "the example and ibtopo analyze differ"
run 2 "$tmp/example" "$tmp/none.topo" && grep -q '^example: ' "$tmp/err" || flunk "example error: $(cat "$tmp/err")"
exit "$failed"
