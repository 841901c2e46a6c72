#!/bin/sh
# bad-cache.sh - bad cache files never crash and never touch the
# database: `ibtopo import` (format detected or --input-format cache) and `show`
# of an empty file, random bytes, random bytes behind the cache magic,
# every kind of truncation of a real cache (tests/data/sim-small.cache,
# from ibnetdiscover --cache under ibsim), trailing bytes, a port number
# beyond its node's port count, a missing file and a directory: exit 2,
# one line on stderr, nothing on stdout, the database unchanged.
. "${top_srcdir:-.}/tests/lib.sh"
python_require
CACHE="$DATA/sim-small.cache"
[ -f "$CACHE" ] || fail "no $CACHE"

"$IBTOPO" --db "$DB" import --label good "$CACHE" >/dev/null ||
	fail "import of the good cache"
sum=$(cksum <"$DB")

# expect_fail WANT_MESSAGE_OR_EMPTY COMMAND...
expect_fail() {
	want=$1
	shift
	"$@" >"$TESTDIR/out" 2>"$TESTDIR/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$TESTDIR/err"; fail "$*: exit $rc, expected 2"; }
	[ -s "$TESTDIR/out" ] && fail "$*: printed to stdout"
	[ "$(wc -l <"$TESTDIR/err")" -eq 1 ] ||
		{ cat "$TESTDIR/err"; fail "$*: expected one line on stderr"; }
	grep -q '^ibtopo: ' "$TESTDIR/err" || fail "$*: $(cat "$TESTDIR/err")"
	if [ -n "$want" ] && [ "$(cat "$TESTDIR/err")" != "ibtopo: $want" ]; then
		fail "$*: got '$(cat "$TESTDIR/err")', expected 'ibtopo: $want'"
	fi
	[ "$(cksum <"$DB")" = "$sum" ] || fail "$*: the database changed"
}

# check FILE MESSAGE: FILE is refused with MESSAGE when read as a cache.
check() {
	expect_fail "$2" "$IBTOPO" --db "$DB" import --input-format cache "$1"
}

# check_all FILE MESSAGE: also when its format is detected (then the
# text reader may be the one to refuse it), and by `show`.
check_all() {
	check "$1" "$2"
	expect_fail "" "$IBTOPO" --db "$DB" import "$1"
	expect_fail "" "$IBTOPO" show "$1" links
}

B="$TESTDIR/bad"
: >"$B.empty"
check_all "$B.empty" "'$B.empty': not an ibnetdiscover cache file"

"$PYTHON3" -c '
import random, sys
r = random.Random(20240601)
open(sys.argv[1], "wb").write(bytes(r.randrange(256) for _ in range(5000)))
magic = bytes([0x2b, 0x83, 0xe7, 0x8f, 1, 0, 0, 0])
open(sys.argv[2], "wb").write(magic + bytes(r.randrange(256) for _ in range(5000)))
' "$B.random" "$B.magic-random" || fail "python"
check_all "$B.random" "'$B.random': not an ibnetdiscover cache file"
check_all "$B.magic-random" "'$B.magic-random': truncated or corrupt cache file"

size=$(wc -c <"$CACHE")
# inside the magic, the header, the first node, its port keys, the ports
for n in 3 4 27 28 235 3000 $((size - 95)) $((size - 1)); do
	head -c "$n" "$CACHE" >"$B.trunc$n"
	if [ "$n" -lt 4 ]; then
		check "$B.trunc$n" "'$B.trunc$n': not an ibnetdiscover cache file"
	else
		check "$B.trunc$n" "'$B.trunc$n': truncated or corrupt cache file"
	fi
done
check_all "$B.trunc3000" "'$B.trunc3000': truncated or corrupt cache file"

{ cat "$CACHE"; printf 'x'; } >"$B.trailing"
check "$B.trailing" "'$B.trailing': truncated or corrupt cache file"

# First node record at 28: numports at +77, then its stored port count at
# +206; claim 0 ports while port keys follow.
"$PYTHON3" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[28 + 206] > 0
b[28 + 77] = 0
open(sys.argv[2], "wb").write(b)
' "$CACHE" "$B.portnum" || fail "python"
check "$B.portnum" "'$B.portnum': truncated or corrupt cache file"

# The header's node count larger than the nodes stored.
"$PYTHON3" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[8] += 1
open(sys.argv[2], "wb").write(b)
' "$CACHE" "$B.count" || fail "python"
check "$B.count" "'$B.count': truncated or corrupt cache file"

# An LMC of 16 in the last port record (its byte 12): libibnetdisc's
# LID index would allocate until memory runs out (fuzz/run.sh found it,
# fuzz/crashers/cache-oom-*); refused before the library sees it.
"$PYTHON3" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) - 95 + 12] = 16
open(sys.argv[2], "wb").write(b)
' "$CACHE" "$B.lmc" || fail "python"
check "$B.lmc" "'$B.lmc': truncated or corrupt cache file"

# A node type that is not CA, switch or router (first node, byte 76).
"$PYTHON3" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[28 + 76] = 9
open(sys.argv[2], "wb").write(b)
' "$CACHE" "$B.type" || fail "python"
check "$B.type" "'$B.type': truncated or corrupt cache file"

expect_fail "" "$IBTOPO" --db "$DB" import "$B.does-not-exist"
mkdir "$B.dir"
expect_fail "" "$IBTOPO" --db "$DB" import "$B.dir"

got=$("$IBTOPO" --db "$DB" snapshots --format json | json_get 'len(j["snapshots"])')
[ "$got" = 1 ] || fail "expected 1 snapshot, found $got"
exit 0
