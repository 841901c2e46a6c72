#!/bin/sh
# lossy-sim.sh - discovery on a fabric that loses MADs everywhere holds:
# each lost MAD is asked again on its own, and a run either stores
# exactly what a clean discovery stores, or exits 2 naming what did not
# answer; never a short fabric stored as complete (issue 28).
#
# A 2-level fat tree of 12 switches and 64 hosts (ibtopo plan fat-tree
# --leaves 8 --spines 4 --hosts-per-leaf 8 --format ibsim) under ibsim,
# LIDs and tables from one opensm sweep. ibsim's `Error "<switch>" N`
# drops N % of the MADs entering any port of the switch, on every
# switch; each run is `discover --counters --routes` with
# tests/rel-madspy.so counting the MADs sent. Compared with a clean
# run: `export --format ibnetdiscover` (links, speeds, widths,
# descriptions), `show links --format csv`, `export --format lfts` (the
# forwarding tables) and the ports that have counters stored.
# - 1 %: 10 of 10 runs complete and equal; each sends the MADs of a
#   clean run plus those it says it asked again (single MADs, not
#   sweeps; within 2 % of a clean run, as NodeInfo goes once a link from
#   whichever end asks first), and says so in one line "N of M MADs asked again, 0
#   lost, window 16 -> W".
# - 5 %: at least 9 of 10 complete and equal; any other exits 2 with
#   one message naming what did not answer, and stores nothing, or exits
#   3 having stored the same fabric with the counters of the ports whose
#   PMA did not answer as "not read" (never zeros), named in one warning.
# - 30 %: 3 runs, each within 60 s; every run that exits 0 is equal,
#   the others exit 2 or 3 as above.
# - 10 % on leaf03 alone: complete and equal, and the summary line names
#   leaf03 as the node that timed out far more than any other.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
SPY=${top_builddir:-.}/tests/.libs/rel-madspy.so
[ -f "$SPY" ] || fail "no $SPY (make check builds it)"
TOOL=${top_builddir:-.}/tests/store-tool
[ -x "$TOOL" ] || fail "no $TOOL (make check builds it)"

"$IBTOPO" plan fat-tree --leaves 8 --spines 4 --hosts-per-leaf 8 \
	--format ibsim -o "$TESTDIR/ft.net" || fail "plan fat-tree"
sim_start_as "$TESTDIR/ft.net" host001
sim_opensm
SWITCHES=$(sed -n 's/^Switch[^"]*"\([^"]*\)".*/\1/p' "$TESTDIR/ft.net")
[ "$(count_lines "$SWITCHES")" -eq 12 ] || fail "switches: $SWITCHES"

# loss N: every switch drops N % of the MADs that enter it
loss() {
	for sw in $SWITCHES; do
		sim_cmd "Error \"$sw\" $1"
	done
}

# discover: one spied discovery (MADs logged to $TESTDIR/mads.log); sets
# rc, secs (wall time, whole seconds), n (MADs sent), again (MADs asked
# again, from the summary line; 0 without one) and err (the ibtopo: lines
# other than that summary)
discover() {
	: >"$TESTDIR/mads.log"
	t0=$(date +%s)
	(cd "$TESTDIR/work" && REL_MADSPY_LOG="$TESTDIR/mads.log" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$SPY:$UMAD2SIM" timeout -s KILL 120 "$IBTOPO" \
		--db "$DB" discover --counters --routes) >"$TESTDIR/out" \
		2>"$TESTDIR/err.all"
	rc=$?
	secs=$(($(date +%s) - t0))
	n=$(grep -c . "$TESTDIR/mads.log")
	again=$(sed -n 's/^ibtopo: \([0-9,]*\) of [0-9,]* MADs asked again, 0 lost, window 16 \xe2\x86\x92 [0-9]*.*/\1/p' \
		"$TESTDIR/err.all" | tr -d ,)
	again=${again:-0}
	err=$(grep '^ibtopo:' "$TESTDIR/err.all" |
		grep -v '^ibtopo: [0-9,]* of [0-9,]* MADs asked again, ')
}

# snap REF: what a snapshot stores, in one text
snap() {
	"$IBTOPO" --db "$DB" export "$1" --format ibnetdiscover | grep -v '^#'
	"$IBTOPO" --db "$DB" show "$1" links --format csv
	"$IBTOPO" --db "$DB" export "$1" --format lfts
	# a port stored as not read (no value at all) is marked '?' (in
	# python: store-tool exec prints numbers only)
	"$PYTHON3" -c '
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' \
		"$DB" "SELECT group_concat(node_guid || ':' || port ||
		CASE WHEN symbol_errors IS NULL AND xmit_data IS NULL
		THEN '?' ELSE '' END, ' ')
		FROM (SELECT c.* FROM port_counters c
		WHERE c.snapshot_id = (SELECT max(id) FROM snapshots)
		ORDER BY c.node_guid, c.port)"
}

# check LABEL: after a discovery that exited 0, the snapshot stored
# equals the clean one
check() {
	ids=$((ids + 1))
	snap "$ids" >"$TESTDIR/got" || fail "$1: reading snapshot $ids"
	cmp -s "$TESTDIR/ref" "$TESTDIR/got" || {
		diff "$TESTDIR/ref" "$TESTDIR/got" | head -20
		fail "$1: exit 0 with a fabric that differs from the clean one"
	}
	case $(cat "$TESTDIR/out") in
	*PARTIAL*) fail "$1: stored partial without --partial" ;;
	esac
}

# incomplete LABEL: the discovery exited 3 and stored the clean fabric,
# the counters of some ports as not read, those named in the summary
incomplete() {
	ids=$((ids + 1))
	snap "$ids" >"$TESTDIR/got" || fail "$1: reading snapshot $ids"
	unread=$(tr ' ' '\n' <"$TESTDIR/got" | grep -c '?$')
	[ "$unread" -gt 0 ] || fail "$1: exit 3 with every port read"
	tr -d '?' <"$TESTDIR/got" | cmp -s "$TESTDIR/ref" - || {
		tr -d '?' <"$TESTDIR/got" | diff "$TESTDIR/ref" - | head -20
		fail "$1: exit 3 with a fabric that differs from the clean one"
	}
	[ -z "$err" ] || fail "$1: messages: $err"
	line=$(grep ' not read ' "$TESTDIR/out")
	case $line in
	"counters of $unread port"*" not read (their PMA did not answer): '"*"; stored as not read, the snapshot is incomplete") ;;
	*) fail "$1: summary: $line ($unread not read)" ;;
	esac
	sum=$(cksum <"$DB")
}

# refused LABEL: the discovery exited 2, with one message naming what
# did not answer, and stored nothing
refused() {
	[ "$rc" -eq 2 ] || { cat "$TESTDIR/err.all"; fail "$1: exit $rc"; }
	[ "$(count_lines "$err")" -eq 1 ] || fail "$1: messages: $err"
	case $err in
	"ibtopo: discovery incomplete: "[0-9]*" went unanswered (first: "*" did not answer "*"); nothing stored (use --partial to store it anyway)") ;;
	*) fail "$1: message: $err" ;;
	esac
	[ "$(cksum <"$DB")" = "$sum" ] || fail "$1: the database changed"
}

discover
[ "$rc" -eq 0 ] || { cat "$TESTDIR/err.all"; fail "clean discovery: exit $rc"; }
[ -z "$err" ] && [ "$again" -eq 0 ] || fail "clean discovery: $err"
ids=1
snap 1 >"$TESTDIR/ref" || fail "reading the clean snapshot"
grep -q '^Switch' "$TESTDIR/ref" && grep -q '^Unicast lids' "$TESTDIR/ref" ||
	fail "reference: $(head "$TESTDIR/ref")"
clean=$n
clean_secs=$secs
sum=$(cksum <"$DB")

# lossy PCT RUNS: RUNS discoveries at PCT % loss; sets done, no, asked,
# slowest
lossy() {
	loss "$1"
	done=0 no=0 asked=0 slowest=0
	for i in $(seq 1 "$2"); do
		discover
		[ "$secs" -le 60 ] || fail "$1 %, run $i: $secs s"
		[ "$secs" -le "$slowest" ] || slowest=$secs
		if [ "$rc" -eq 0 ]; then
			check "$1 %, run $i"
			# single MADs asked again, never a whole sweep; NodeInfo
			# goes once per link, from the end that asks first, and a
			# loss can change which end that is: a few either way
			d=$((n - clean - again))
			[ "${d#-}" -le $((clean / 50)) ] || {
				cat "$TESTDIR/err.all"
				fail "$1 %, run $i: $n MADs sent, wanted $clean + $again asked again"
			}
			asked=$((asked + again))
			sum=$(cksum <"$DB")
			done=$((done + 1))
		elif [ "$rc" -eq 3 ]; then
			incomplete "$1 %, run $i"
			no=$((no + 1))
		else
			refused "$1 %, run $i"
			no=$((no + 1))
		fi
	done
	info "$1 % loss: $done of $2 complete and equal, $no refused or incomplete;" \
		"$asked MADs asked again ($clean in a clean run), slowest" \
		"$slowest s (clean $clean_secs s)"
}

lossy 1 10
[ "$done" -eq 10 ] || fail "1 %: $done of 10 complete"
[ "$asked" -gt 0 ] || fail "1 %: nothing asked again: did ibsim drop anything?"
lossy 5 10
[ "$done" -ge 9 ] || fail "5 %: $done of 10 complete"
lossy 30 3
loss 0

# one bad switch: named in the summary line as the one to look at
sim_cmd 'Error "leaf03" 10'
discover
[ "$rc" -eq 0 ] || { cat "$TESTDIR/err.all"; fail "leaf03 at 10 %: exit $rc"; }
check "leaf03 at 10 %"
grep -q "^ibtopo: [0-9,]* of [0-9,]* MADs asked again, 0 lost, window 16 [^ ]* [0-9]*; 'leaf03' 0x[0-9a-f]* timed out [0-9]* times, far more than any other node$" \
	"$TESTDIR/err.all" || { cat "$TESTDIR/err.all"; fail "leaf03 at 10 %: not named"; }
exit 0
