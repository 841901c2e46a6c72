#!/bin/sh
# discover-cache.sh - `ibtopo discover --cache FILE` (issue 18, item 8)
# under ibsim: FILE is an ibnetdiscover cache of the sweep discover
# stored, which `ibnetdiscover --load-cache` reads (the same nodes and
# links as its own live sweep prints) and `ibtopo import` reads back (the
# same links as the snapshot); a failed discovery leaves an old FILE as
# it was and no temporary file beside it.
. "${top_srcdir:-.}/tests/lib.sh"
ibnetdiscover_require
python_require

sim_start_as "$DATA/sim-small.net" host02
sim_opensm
C=$TESTDIR/fabric.cache

sim_client timeout -s KILL 60 "$IBTOPO" --db "$DB" discover --cache "$C" \
	--timeout 500 >"$TESTDIR/out" 2>"$TESTDIR/err" ||
	fail "discover --cache: $(cat "$TESTDIR/err")"
[ -s "$TESTDIR/err" ] && fail "discover wrote to stderr: $(cat "$TESTDIR/err")"
[ -s "$C" ] || fail "no cache file"
ls "$TESTDIR"/fabric.cache.tmp.* >/dev/null 2>&1 && fail "a temporary file is left"

# ---- ibtopo reads it back: the links of the snapshot
"$IBTOPO" --db "$DB" show --format json latest links | links_brief >"$TESTDIR/stored" ||
	fail "show latest links"
"$IBTOPO" show --format json "$C" links | links_brief >"$TESTDIR/cached" ||
	fail "show the cache's links"
[ "$(wc -l <"$TESTDIR/stored")" -eq 9 ] || fail "stored links: $(cat "$TESTDIR/stored")"
cmp -s "$TESTDIR/stored" "$TESTDIR/cached" ||
	fail "cache and snapshot differ: $(diff "$TESTDIR/stored" "$TESTDIR/cached")"

# ---- ibnetdiscover reads it: the same topology as its own sweep
sim_client timeout -s KILL 60 "$IBNETDISCOVER" --load-cache "$C" \
	>"$TESTDIR/loaded.topo" 2>"$TESTDIR/err1" ||
	fail "ibnetdiscover --load-cache: $(cat "$TESTDIR/err1")"
sim_client timeout -s KILL 60 "$IBNETDISCOVER" \
	>"$TESTDIR/live.topo" 2>"$TESTDIR/err2" ||
	fail "ibnetdiscover: $(cat "$TESTDIR/err2")"
# the links each prints, without the comment lines (they name the time
# and the local port)
links_of() {
	"$IBTOPO" show --format json "$1" links | links_brief
}
links_of "$TESTDIR/loaded.topo" >"$TESTDIR/l1" || fail "read ibnetdiscover's output of the cache"
links_of "$TESTDIR/live.topo" >"$TESTDIR/l2" || fail "read ibnetdiscover's live output"
cmp -s "$TESTDIR/l1" "$TESTDIR/l2" && cmp -s "$TESTDIR/l1" "$TESTDIR/stored" ||
	fail "ibnetdiscover --load-cache differs: $(diff "$TESTDIR/l2" "$TESTDIR/l1")"
grep -c '^Switch' "$TESTDIR/loaded.topo" | grep -qx 4 || fail "switches in the cache"

# ---- a failed discovery (no such CA) leaves the old file and no temp
cp "$C" "$TESTDIR/before"
sim_client timeout -s KILL 60 "$IBTOPO" --db "$DB" -C nosuchca discover \
	--cache "$C" >"$TESTDIR/out" 2>"$TESTDIR/err" &&
	fail "discover through nosuchca succeeded"
cmp -s "$C" "$TESTDIR/before" || fail "a failed discover changed the cache file"
ls "$TESTDIR"/fabric.cache.tmp.* >/dev/null 2>&1 && fail "a temporary file is left"
exit 0
