#!/bin/sh
# topofile-errors.sh - bad input: one line `ibtopo: FILE:LINE: <what was
# expected>` on stderr, exit 2, nothing stored. Sides of a link that
# disagree: stored, with a warning naming both lines.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env

# bad FILE LINE WHAT: import fails with exactly that one line, stores nothing
bad() {
	f=$1 line=$2 what=$3
	"$IBTOPO" --db "$tmp/db" import "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || flunk "import $f exited $rc, wanted 2"
	printf 'ibtopo: %s:%s: %s\n' "$f" "$line" "$what" >"$tmp/want"
	cmp -s "$tmp/want" "$tmp/err" || {
		flunk "import $f said:"
		sed 's/^/  got:  /' "$tmp/err"
		sed 's/^/  want: /' "$tmp/want"
	}
	[ -s "$tmp/out" ] && flunk "import $f printed: $(cat "$tmp/out")"
	[ -e "$tmp/db" ] && flunk "import $f created the database"
	rm -f "$tmp/db"
}

bad "$DATA/tf-bad-port.topo" 3 \
	"malformed port line (expected '\"<peer>\"[<port>]' after '[2]')"
bad "$DATA/tf-bad-binary.topo" 2 "binary data (expected text)"
bad "$DATA/tf-bad-empty.topo" 1 "empty file (expected a fabric topology)"
bad "$DATA/tf-bad-dup.topo" 8 \
	"node 'S-0000000000000010' again, but not as its record at line 4"
bad "$DATA/tf-bad-orphan.topo" 2 \
	"port line before any node record (expected 'Switch', 'Ca' or 'Rt' first)"
bad "$DATA/tf-names.map" 1 \
	"not a fabric file (expected ibnetdiscover output, an ibnetdiscover -p report, an ibsim net file or iblinkinfo output)"

# a line longer than any real one
{
	echo 'Switch 4 "a"'
	printf '[1] "b"[1] # "'
	i=0
	while [ $i -lt 90 ]; do
		printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
		i=$((i + 1))
	done
	echo '" lid 0 4xHDR'
} >"$tmp/long.topo"
bad "$tmp/long.topo" 2 "line longer than 4096 bytes (expected a topology line)"

if [ -f "$REAL/x5-mixed-ddr-qdr.topo" ]; then
	# cut inside a line, and cut after a whole line
	head -c 2000 "$REAL/x5-mixed-ddr-qdr.topo" >"$tmp/cut.topo"
	bad "$tmp/cut.topo" 28 "last line has no end (truncated file?)"
	head -c 1957 "$REAL/x5-mixed-ddr-qdr.topo" >"$tmp/cut.topo"
	bad "$tmp/cut.topo" 28 "malformed port line (unterminated peer name)"
	head -n 300 "$REAL/x5-mixed-ddr-qdr.topo" >"$tmp/cut.topo"
	bad "$tmp/cut.topo" 14 "'H-003048c749cd0000' has no node record (truncated file?)"
	# garbage appended to a good dump
	{ cat "$REAL/x5-mixed-ddr-qdr.topo"; head -c 512 /dev/urandom; } >"$tmp/junk.topo"
	"$IBTOPO" --db "$tmp/db" import "$tmp/junk.topo" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] || flunk "import of a dump with random bytes appended succeeded"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || flunk "random bytes: $(cat "$tmp/err")"
	[ -e "$tmp/db" ] && flunk "random bytes: database created"
	rm -f "$tmp/db"
else
	flunk "fixture $REAL/x5-mixed-ddr-qdr.topo missing"
fi

# a cut `ibnetdiscover -p -v` report: its DR-path lines name every node
# the sweep found and each port line has its peer's line; when the port
# lines do not cover them the file is incomplete, never a smaller fabric
p1=$REAL/plafrim2-subnet1.ports-verbose.txt
head -n 63 "$p1" >"$tmp/cut.ports"
bad "$tmp/cut.ports" 1 "incomplete report: DR path '0' reached CA 0xf4521403001630f0, which no port line names (1 of the 24 nodes the DR paths name are missing; truncated file?)"
head -n 82 "$p1" >"$tmp/cut.ports"
bad "$tmp/cut.ports" 74 "incomplete report: port 9 of 'MF0;switchIB-MLX01:IS5030/U1' links to port 1 of 'MT25408 ConnectX Mellanox Technologies', but no line lists that port (truncated file?)"
p0=$REAL/plafrim2-subnet0.ports-verbose.txt
n=$(wc -l <"$p0")
k=1
while [ "$k" -lt $((n - 209)) ]; do
	head -n $((n - k)) "$p0" >"$tmp/cut.ports"
	"$IBTOPO" show "$tmp/cut.ports" nodes >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "^ibtopo: $tmp/cut.ports:[0-9]*: incomplete report: " "$tmp/err" ||
		flunk "plafrim2-subnet0 without its last $k lines: exit $rc, $(cat "$tmp/err")"
	k=$((k + 13))
done

# a mutated dump: the error quotes the input printably (\xNN for bytes
# that are not printable ASCII or UTF-8), one line, nothing else
x5=$top_srcdir/tests/data/real/x5-mixed-ddr-qdr.topo
sed '11s/"S-0008f10500108c5c"/"S-0008f1050010\xc3\t5c"/' "$x5" >"$tmp/mut.topo"
sed -n 12p "$x5" | sed 's/4xQDR/4x\x80DR/' >"$tmp/speed.line"
printf 'Switch\t36 "S-0008f10500200b50"\t\t# "y"\n' | cat - "$tmp/speed.line" >"$tmp/speed.topo"
bad "$tmp/speed.topo" 2 "unknown width or speed '4x\\x80DR' (expected e.g. 4xHDR)"
"$IBTOPO" --db "$tmp/db" import "$tmp/mut.topo" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || flunk "mutated dump: wanted exit 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || flunk "mutated dump: $(cat "$tmp/err")"
LC_ALL=C grep -q '[^ -~]' "$tmp/err" && flunk "mutated dump: raw bytes in $(od -c "$tmp/err" | head -5)"
grep -qF "mut.topo:11: 'S-0008f1050010\\xc3\\x095c' has no node record" "$tmp/err" ||
	flunk "mutated dump: $(cat "$tmp/err")"
rm -f "$tmp/db"

# disagreeing ends: stored, warned about once per pair of lines
"$IBTOPO" --db "$tmp/db" import "$DATA/tf-disagree.topo" >"$tmp/out" 2>"$tmp/err" ||
	flunk "tf-disagree.topo: $(cat "$tmp/err")"
d=$DATA/tf-disagree.topo
cat >"$tmp/want" <<WANT
ibtopo: warning: $d:3: port 3 of 'A' says 'B'[5], but $d:6: port 5 of 'B' says 'C'[7]
ibtopo: warning: $d:3: port 3 of 'A' says 'B'[5], but $d:9: port 7 of 'C' says 'B'[5]
WANT
cmp -s "$tmp/want" "$tmp/err" || { flunk "disagree warnings:"; cat "$tmp/err"; }
grep -q ': 3 switches, 0 CAs, 0 routers, 1 links' "$tmp/out" ||
	flunk "disagree: $(head -1 "$tmp/out")"
exit $failed
