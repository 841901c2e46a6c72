#!/bin/sh
# faulty-sim.sh - discovery of a fabric that loses MADs, or loses a link
# while it is being swept, is either complete and right or clearly
# partial: never silently short.
#
# 1. One query type that never answers (ibsim `Error "node" 100 ATTR`):
#    NodeDescription of a switch and of a CA, PortInfo of a CA port.
#    libibnetdisc drops those silently (an empty description, a port
#    without PortInfo); `ibtopo discover` asks again, then fails naming
#    the node and its directed route, and stores nothing; --partial
#    stores it marked partial. The lost query alone is asked again, the
#    sweep is not: with --retries 3 the spy sees the lost
#    NodeDescription 3 more times in the sweep, once more when asked
#    again after it, and no other MAD more than a clean discovery sends.
#    When only the sweep's query is lost (the spy below clears the fault
#    just before the first query asked again), asking again completes
#    the fabric in one sweep.
# 2. Random loss: every switch drops 5 % of the MADs that pass it;
#    12 runs with the default 4 retries per query. Each run either exits
#    0 with exactly the reference fabric (links, speeds, widths,
#    descriptions) and a summary line "N of M MADs asked again, 0 lost,
#    window 16 -> W", or exits 2 with one message naming the DR path of
#    what did not answer and leaves the database alone; at least 9 of 12
#    complete. No sweep is repeated (the fabric did not change); the spy
#    counts exactly the MADs of a clean discovery plus those asked again.
# 3. A link goes down mid-sweep: tests/rel-madspy.so sends `Unlink` to
#    the ibsim console just before the Nth MAD of the discovery, for
#    every other N across the whole sweep (every 4th with --partial).
#    Each run gives the fabric with the link, the fabric without it, or
#    exit 2 naming the port whose peer did not answer; with --partial,
#    such a run is stored marked partial.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
SPY=${top_builddir:-.}/tests/.libs/rel-madspy.so
[ -f "$SPY" ] || fail "no $SPY (make check builds it)"

sim_start_as "$DATA/sim-small.net" host02

# brief REF: links and node descriptions of snapshot REF, one per line
brief() {
	"$IBTOPO" --db "$DB" show --format json "$1" links | links_brief
	"$IBTOPO" --db "$DB" show --format json "$1" nodes |
		json_get '"\n".join(sorted("%s %s" % (n["guid"], n["description"]) for n in j["nodes"]))'
}

# outcome: after a discovery, sets out, err (the ibtopo: lines but the
# warnings of sweeps repeated and the summary of MADs asked again),
# retried (sweeps repeated) and again (MADs asked again, 0 without the
# summary line)
outcome() {
	grep '^ibtopo:' "$TESTDIR/err.all" |
		grep -v '^ibtopo: warning: the fabric changed during sweep [0-9] ' |
		grep -v '^ibtopo: [0-9,]* of [0-9,]* MADs asked again, ' >"$TESTDIR/err"
	retried=$(grep -c '^ibtopo: warning: the fabric changed during sweep [0-9] (.*); sweeping again$' "$TESTDIR/err.all")
	again=$(sed -n 's/^ibtopo: \([0-9,]*\) of [0-9,]* MADs asked again, 0 lost, window 16 \xe2\x86\x92 [0-9]*.*/\1/p' "$TESTDIR/err.all" | tr -d ,)
	again=${again:-0}
	out=$(cat "$TESTDIR/out")
	err=$(cat "$TESTDIR/err")
}

# run ARGS...: one discovery; sets rc, and out, err, retried (outcome)
run() {
	sim_client "$IBTOPO" --db "$DB" discover "$@" >"$TESTDIR/out" \
		2>"$TESTDIR/err.all"
	rc=$?
	outcome
}

# spy LOG AT CMD ARGS...: a discovery with the spy in front of umad2sim,
# logging MADs to LOG and sending CMD to the ibsim console before MAD AT
# (never with AT 0); sets rc, out, err, retried like run
spy() {
	log=$1 at=$2 cmd=$3
	shift 3
	(cd "$TESTDIR/work" && REL_MADSPY_LOG="$log" REL_MADSPY_AT=$at \
		REL_MADSPY_FIFO="$TESTDIR/console" REL_MADSPY_CMD="$cmd" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$SPY:$UMAD2SIM" timeout 120 "$IBTOPO" --db "$DB" \
		discover "$@") >"$TESTDIR/out" 2>"$TESTDIR/err.all"
	rc=$?
	outcome
}

# incomplete PATTERN: the run failed with one message matching PATTERN
# (the part after "first: "), printed nothing and stored nothing.
incomplete() {
	[ "$rc" -eq 2 ] || { cat "$TESTDIR/err.all"; fail "exit $rc, expected 2"; }
	[ -z "$out" ] || fail "an incomplete discovery printed: $out"
	[ "$(count_lines "$err")" -eq 1 ] || fail "expected one ibtopo: line: $err"
	# shellcheck disable=SC2027 # $1 unquoted: PATTERN is a glob
	case $err in
	"ibtopo: discovery incomplete: "[0-9]*" went unanswered (first: "$1"); nothing stored (use --partial to store it anyway)") ;;
	*) fail "message: $err" ;;
	esac
	[ "$(cksum <"$DB")" = "$sum" ] || fail "an incomplete discovery changed the database"
}

run
[ $rc -eq 0 ] || { cat "$TESTDIR/err.all"; fail "clean discovery: exit $rc"; }
brief 1 >"$TESTDIR/ref"
[ "$(grep -c . "$TESTDIR/ref")" -eq 17 ] || fail "reference: $(cat "$TESTDIR/ref")"
grep -v '^leaf02:8 spine02:2 ' "$TESTDIR/ref" >"$TESTDIR/ref-unlinked"
[ "$(grep -c . "$TESTDIR/ref-unlinked")" -eq 16 ] || fail "no leaf02:8 link"
snap=1
# MADs of one clean discovery, counted by the spy
spy "$TESTDIR/mads.log" 0 '' --retries 0
[ $rc -eq 0 ] || fail "discovery under the spy: exit $rc"
snap=$((snap + 1))
mads=$(grep -c . "$TESTDIR/mads.log")
[ "$mads" -gt 20 ] || fail "only $mads MADs"
sum=$(cksum <"$DB")

# -- 1. one query type never answers ---------------------------------
sim_cmd 'Error "leaf02" 100 16'
run --retries 0
incomplete "node 0x0000000000200003 at DR path 0,1,7,2 did not answer NodeDescription"
# asked again alone: 3 retries in the sweep, 1 after; nothing else more
spy "$TESTDIR/mads-lost.log" 0 '' --retries 3
[ "$retried" -eq 0 ] || { cat "$TESTDIR/err.all"; fail "a sweep repeated"; }
incomplete "node 0x0000000000200003 at DR path 0,1,7,2 did not answer NodeDescription"
for attr in 0010 0011 0015 0019; do
	clean=$(grep -c " $attr\$" "$TESTDIR/mads.log")
	lost=$(grep -c " $attr\$" "$TESTDIR/mads-lost.log")
	want=$clean
	[ $attr = 0010 ] && want=$((clean + 4))
	[ "$lost" -eq "$want" ] ||
		fail "attribute $attr: $lost MADs, $clean in a clean discovery, wanted $want"
done
[ "$(grep -c . "$TESTDIR/mads-lost.log")" -eq $((mads + 4)) ] ||
	fail "lost NodeDescription: $(grep -c . "$TESTDIR/mads-lost.log") MADs, wanted $mads + 4"
run --partial --retries 0
[ $rc -eq 0 ] || fail "--partial: exit $rc"
snap=$((snap + 1))
case $out in
"snapshot $snap: 4 switches, 4 CAs, 0 routers, 9 links (PARTIAL)"*) ;;
*) fail "--partial summary: $out" ;;
esac
why=$("$IBTOPO" --db "$DB" snapshots --format json |
	json_get "j['snapshots'][-1]['partial_reason']")
[ "$why" = "1 SMP went unanswered (first: node 0x0000000000200003 at DR path 0,1,7,2 did not answer NodeDescription)" ] ||
	fail "stored partial_reason: $why"
sum=$(cksum <"$DB")
sim_cmd 'Error "leaf02" 0'

sim_cmd 'Error "host04" 100 16'
run --retries 0
incomplete "node 0x0000000000100007 at DR path 0,1,7,2,2 did not answer NodeDescription"
sim_cmd 'Error "host04" 100 21'
run --retries 0
incomplete "port 1 of 'host04' 0x0000000000100007 at DR path 0,1,7,2,2 did not answer PortInfo"
sim_cmd 'Error "host04" 0'

# lost by the sweep only: the fault is cleared (a console script run by
# the spy) just before the first MAD asked again, the first after the
# sweep's (a clean discovery's but its PKeyTable Gets, which come after)
pkeys=$(grep -c ' 0016$' "$TESTDIR/mads.log")
printf '%s\n' 'Error "leaf02" 0' 'Error "host04" 0' >"$TESTDIR/clear.cmds"
sim_cmd 'Error "leaf02" 100 16'
sim_cmd 'Error "host04" 100 21'
spy "$TESTDIR/mads-repair.log" $((mads - pkeys + 1)) "!$TESTDIR/clear.cmds" --retries 0
[ $rc -eq 0 ] || { cat "$TESTDIR/err.all"; fail "asked again: exit $rc"; }
snap=$((snap + 1))
brief "$snap" >"$TESTDIR/got"
cmp -s "$TESTDIR/ref" "$TESTDIR/got" || {
	diff "$TESTDIR/ref" "$TESTDIR/got"
	fail "asked again: the fabric differs"
}
[ "$(grep -c . "$TESTDIR/mads-repair.log")" -eq $((mads + 2)) ] ||
	fail "asked again: $(grep -c . "$TESTDIR/mads-repair.log") MADs, expected $mads + 2"
sum=$(cksum <"$DB")

# -- 2. random loss ---------------------------------------------------
for n in spine01 spine02 leaf01 leaf02; do
	sim_cmd "Error \"$n\" 5"
done
complete=0 partial=0 sweeps=0 sent=0 asked=0
for i in $(seq 1 12); do
	: >"$TESTDIR/loss.log"
	spy "$TESTDIR/loss.log" 0 ''
	sweeps=$((sweeps + 1 + retried))
	n=$(grep -c . "$TESTDIR/loss.log")
	sent=$((sent + n))
	[ "$retried" -eq 0 ] || fail "run $i: $retried sweeps repeated, the fabric did not change"
	if [ $rc -eq 0 ]; then
		snap=$((snap + 1))
		brief "$snap" >"$TESTDIR/got"
		cmp -s "$TESTDIR/ref" "$TESTDIR/got" || {
			diff "$TESTDIR/ref" "$TESTDIR/got"
			fail "run $i: exit 0 with a fabric that differs"
		}
		# single MADs asked again, not sweeps
		[ "$n" -eq $((mads + again)) ] || {
			cat "$TESTDIR/err.all"
			fail "run $i: $n MADs sent, wanted $mads + $again asked again"
		}
		asked=$((asked + again))
		sum=$(cksum <"$DB")
		complete=$((complete + 1))
	else
		incomplete "*at DR path 0*did not answer*"
		partial=$((partial + 1))
	fi
done
info "5 % loss: $complete complete and right, $partial refused as incomplete" \
	"($sweeps sweeps, $sent MADs sent, $asked asked again; $mads in a clean sweep)"
[ "$complete" -ge 9 ] || fail "5 % loss: only $complete of 12 complete"
# MADs were lost, and discovery saw it: it asked them again
[ "$asked" -gt 0 ] ||
	fail "5 % loss: nothing asked again in 12 runs: did ibsim drop anything?"
for n in spine01 spine02 leaf01 leaf02; do
	sim_cmd "Error \"$n\" 0"
done

# -- 3. a link goes down mid-sweep ------------------------------------
with=0 without=0 refused=0 marked=0
for k in $(seq 1 2 "$mads") $((mads + 5)); do
	sim_cmd 'ReLink "leaf02"[8]'
	flags=
	[ $((k % 4)) -eq 3 ] && flags=--partial
	spy /dev/null "$k" 'Unlink "leaf02"[8]' --retries 0 $flags
	if [ $rc -eq 0 ] && ! grep -q PARTIAL "$TESTDIR/out"; then
		snap=$((snap + 1))
		brief "$snap" >"$TESTDIR/got"
		if cmp -s "$TESTDIR/ref" "$TESTDIR/got"; then
			with=$((with + 1))
		elif cmp -s "$TESTDIR/ref-unlinked" "$TESTDIR/got"; then
			without=$((without + 1))
		else
			diff "$TESTDIR/ref" "$TESTDIR/got"
			fail "unlink before MAD $k: a complete fabric that is neither"
		fi
	elif [ $rc -eq 0 ]; then
		snap=$((snap + 1))
		[ -n "$flags" ] || fail "unlink before MAD $k: PARTIAL without --partial"
		case $out in
		"snapshot $snap: "*" (PARTIAL)"*) ;;
		*) fail "unlink before MAD $k, --partial: $out" ;;
		esac
		marked=$((marked + 1))
	else
		incomplete "the peer of '*' port * at DR path 0,*did not answer NodeInfo"
		refused=$((refused + 1))
	fi
	sum=$(cksum <"$DB")
done
info "link down before MAD k (1..$mads every 2nd, and never): $with with the link," \
	"$without without it, $refused refused, $marked stored marked partial"
# before the first MAD the link is gone; after the last it never goes
[ $without -ge 1 ] || fail "no run without the link: the trigger did not work"
[ $with -ge 1 ] || fail "no run with the link"
exit 0
