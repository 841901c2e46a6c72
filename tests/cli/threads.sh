#!/bin/sh
# threads.sh - route tracing and path diversity give the same answer on
# any number of threads (issue 38): `routes` and `analyze` (path
# diversity, routes with --routes) with --threads 1, 2, 3 and 8, their
# JSON compared byte for byte, on every fabric in tests/data that has
# tables and on every fat tree there, and on two made here with
# tests/data/gen-ft-lfts.py: 24 leaves with min-hop tables, clean and with
# a black hole, a loop and a long route planted (findings in several of
# the chunks the trace is cut into), and OpenSM's tables with a credit
# loop and a long route to a switch's LID, and a hole on a second LID. IBTOPO_THREADS does what --threads
# does, the option wins, and a bad count is refused (exit 2).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR

ft_lfts ft 6
ft_lfts ftf 6 faults

# same_threads NAME ARGS...: `ibtopo ARGS --format json` on 1 thread,
# then on 2, 3 and 8: one exit status, one output
same_threads() {
	name=$1
	shift
	"$IBTOPO" --threads 1 "$@" --format json >"$tmp/one" 2>"$tmp/err1"
	want=$?
	[ "$want" -le 1 ] || {
		flunk "$name: 1 thread: exit $want: $(cat "$tmp/err1")"
		return
	}
	[ -s "$tmp/one" ] || flunk "$name: no output"
	for n in 2 3 8; do
		"$IBTOPO" --threads "$n" "$@" --format json >"$tmp/many" \
			2>"$tmp/errn"
		rc=$?
		[ "$rc" = "$want" ] ||
			flunk "$name: $n threads: exit $rc, 1 thread $want"
		cmp -s "$tmp/one" "$tmp/many" || {
			flunk "$name: $n threads differ from 1"
			diff "$tmp/one" "$tmp/many" | head -10 >&2
		}
	done
}

# every fabric with tables, and routes with and without findings
same_threads "ck routes" routes "$DATA/ck-cables.topo" \
	--routes "$DATA/rt-ck-lfts.dump"
same_threads "ck analyze" analyze "$DATA/ck-cables.topo" \
	--routes "$DATA/rt-ck-lfts.dump"
same_threads "sim-small routes" routes "$DATA/sim-small.cache" \
	--routes "$DATA/ir-sim-small-lfts.dump"
same_threads "sim-small analyze" analyze "$DATA/sim-small.cache" \
	--routes "$DATA/ir-sim-small-lfts.dump"
# OpenSM's tables with faults only host -> switch routes show, and a
# hole on a second LID (LMC 1): tests/cli/routes-switches.sh
for d in ring4-cloop ring4-long; do
	same_threads "$d routes" routes "$DATA/rt-ring4.topo" \
		--routes "$DATA/rt-$d.dump"
done
same_threads "lmc hole routes" routes "$DATA/rt-ft2-lmc1.topo" \
	--routes "$DATA/rt-ft2-lmc1-hole.dump"
for f in ft ftf; do
	same_threads "$f routes" routes "$tmp/$f.topo" --routes "$tmp/$f.dump"
	same_threads "$f analyze" analyze "$tmp/$f.topo" \
		--routes "$tmp/$f.dump"
done
# the faults were found, more than one of each kind where planted
"$IBTOPO" --threads 3 routes "$tmp/ftf.topo" --routes "$tmp/ftf.dump" \
	--format json >"$tmp/out"
got=$(json_get '"%s %s %s" % (j["routes"]["black_holes"] > 0,
	j["routes"]["loops"] > 0, j["routes"]["not_minimal"] > 0)' \
	<"$tmp/out")
[ "$got" = "True True True" ] || flunk "planted faults: $got"

# path diversity on every fabric file in tests/data
for f in "$DATA"/*.topo "$DATA"/*.net "$DATA"/*.cache "$REAL"/*.topo; do
	case $f in */tf-bad-*) continue ;; esac
	"$IBTOPO" --threads 1 analyze "$f" --format json >/dev/null 2>&1
	[ $? -le 1 ] || continue	# not a fabric alone (a plan, say)
	same_threads "analyze $(basename "$f")" analyze "$f"
done

# the dump is read in parts on the threads, cut at its block headers:
# what it says of a bad one (a switch twice, the switch lines of a CA, a
# switch the fabric lacks, a bad line deep in the file) is the same on
# any count, on stdout, on stderr and in the exit status
awk '/^Unicast/ { n++ } n == 1' "$tmp/ft.dump" >"$tmp/first"
cat "$tmp/ft.dump" "$tmp/first" >"$tmp/twice.dump"
awk '/^Unicast/ { n++ } n == 20 && /^0x0005 / { print "0x0005 x7" } 1' \
	"$tmp/ft.dump" >"$tmp/badline.dump"
{
	awk '/^Unicast/ { n++ } n <= 12' "$tmp/ft.dump"
	echo "Unicast lids [0-1] of switch Lid 90 guid 0x2000000000000100 ('h'):"
	echo "0x0001 001 # Channel Adapter portguid 0x2000000000000100: 'h'"
	echo "Unicast lids [0-1] of switch Lid 91 guid 0x7777000000000001 ('x'):"
	echo "0x0001 001"
	awk '/^Unicast/ { n++ } n > 12' "$tmp/ft.dump"
} >"$tmp/odd.dump"
grep -v "'h'" "$tmp/odd.dump" >"$tmp/unknown.dump"
for d in twice badline odd unknown; do
	"$IBTOPO" -v --threads 1 routes "$tmp/ft.topo" --routes "$tmp/$d.dump" \
		--format json >"$tmp/one" 2>"$tmp/err1"
	want=$?
	sed -i '/ in [0-9.]* s$/d' "$tmp/err1"
	[ -s "$tmp/err1" ] || flunk "$d.dump: nothing on stderr"
	for n in 2 3 8; do
		"$IBTOPO" -v --threads "$n" routes "$tmp/ft.topo" \
			--routes "$tmp/$d.dump" --format json >"$tmp/many" \
			2>"$tmp/errn"
		rc=$?
		sed -i '/ in [0-9.]* s$/d' "$tmp/errn"
		[ "$rc" = "$want" ] ||
			flunk "$d.dump: $n threads: exit $rc, 1 thread $want"
		cmp -s "$tmp/one" "$tmp/many" ||
			flunk "$d.dump: $n threads: stdout differs from 1"
		cmp -s "$tmp/err1" "$tmp/errn" || {
			flunk "$d.dump: $n threads: stderr differs from 1"
			diff "$tmp/err1" "$tmp/errn" | head -6 >&2
		}
	done
	case $d in
	twice) w='twice.dump:4873: switch 0x1000000000000001 listed twice' ;;
	badline) w='badline.dump:3312: expected an out-port' ;;
	odd) w='odd.dump:2089: 0x2000000000000100 is a CA, not a switch' ;;
	unknown) w='unknown.dump: 1 switch table for switches the fabric' ;;
	esac
	grep -q "$w" "$tmp/err1" || flunk "$d.dump: $(cat "$tmp/err1")"
done

# IBTOPO_THREADS, the option over it, bad counts
IBTOPO_THREADS=3 "$IBTOPO" routes "$tmp/ftf.topo" --routes "$tmp/ftf.dump" \
	--format json >"$tmp/env"
cmp -s "$tmp/out" "$tmp/env" || flunk "IBTOPO_THREADS=3 differs"
run 2 env IBTOPO_THREADS=many "$IBTOPO" routes "$tmp/ftf.topo" \
	--routes "$tmp/ftf.dump"
grep -q "bad IBTOPO_THREADS 'many'" "$tmp/err" || flunk "IBTOPO_THREADS=many: $(cat "$tmp/err")"
run 2 env IBTOPO_THREADS=many "$IBTOPO" --threads 2 routes "$tmp/ftf.topo" \
	--routes "$tmp/ftf.dump"
run 2 "$IBTOPO" --threads -1 routes "$tmp/ftf.topo" --routes "$tmp/ftf.dump"
grep -q "bad --threads '-1'" "$tmp/err" || flunk "--threads -1: $(cat "$tmp/err")"
run 2 "$IBTOPO" routes --threads 1025 "$tmp/ftf.topo" --routes "$tmp/ftf.dump"
run 1 "$IBTOPO" routes --threads 0 "$tmp/ftf.topo" --routes "$tmp/ftf.dump"
run 1 env IBTOPO_THREADS=2 "$IBTOPO" routes --threads 1 "$tmp/ftf.topo" \
	--routes "$tmp/ftf.dump"
exit "$failed"
