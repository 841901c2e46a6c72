#!/bin/sh
# partial-sim.sh - a switch that stops answering (ibsim drops every
# NodeInfo SMP to leaf02) makes `ibtopo discover` fail with one message
# naming the first unexplored port, after what its MADs cost, and store
# nothing; with --partial it
# stores what it reached, marked partial, and so does the import of an
# ibnetdiscover cache of the same fabric. Also: the ENODEV message of a
# discovery without the umad2sim shim, and -C naming no device.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require

sim_start_as "$DATA/sim-small.net" host02

sim_client "$IBTOPO" --db "$DB" discover >/dev/null 2>"$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "discover of the whole fabric failed"; }
sum=$(cksum <"$DB")

sim_cmd 'Error "leaf02" 100 17'
sim_client "$IBTOPO" --db "$DB" discover --retries 0 >"$TESTDIR/out" 2>"$TESTDIR/err"
rc=$?
[ $rc -eq 2 ] || fail "incomplete discovery: exit $rc, expected 2"
[ -s "$TESTDIR/out" ] && fail "incomplete discovery printed a summary"
# libibnetdisc logs each timed-out SMP itself; ours are the two lines
# starting with "ibtopo:": what the MADs cost, which a failure needs most
# (issue 33, item 9), then the failure.
grep -q '^ibtopo: [0-9,]* of [0-9,]* MADs asked again, 2 lost, window ' "$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "a failed discover hid its MAD cost line"; }
ours=$(grep '^ibtopo:' "$TESTDIR/err" | grep -v ' MADs asked again, ')
[ "$(count_lines "$ours")" -eq 1 ] || { cat "$TESTDIR/err"; fail "expected one ibtopo: failure line"; }
case $ours in
"ibtopo: discovery incomplete: 2 SMPs went unanswered (first: the peer of '"*"' port "*" at DR path 0,"*" did not answer NodeInfo); nothing stored (use --partial to store it anyway)") ;;
*) fail "message: $ours" ;;
esac
[ "$(cksum <"$DB")" = "$sum" ] || fail "the database changed"

sim_client "$IBTOPO" --db "$DB" discover --partial --retries 0 >"$TESTDIR/out" \
	2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover --partial"; }
grep -q '^snapshot 2: 3 switches, 3 CAs, 0 routers, 5 links (PARTIAL)$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "partial summary"; }
grep -q '^ibtopo: warning: discovery incomplete: 2 SMPs went unanswered (first: the peer of .* at DR path 0,[0-9,]* did not answer NodeInfo); the snapshot is marked partial$' \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "partial warning"; }
got=$("$IBTOPO" --db "$DB" snapshots --format json |
	json_get '[(s["id"], s["partial"], s["switches"], s["cas"], s["links"]) for s in j["snapshots"]]')
[ "$got" = "[(1, False, 4, 4, 9), (2, True, 3, 3, 5)]" ] || fail "snapshots: $got"
got=$("$IBTOPO" --db "$DB" show --format json 2 links | links_brief | tr '\n' ' ')
[ "$got" = "host01:1 leaf01:1 HDR 4x host02:1 leaf01:2 HDR 4x host03:1 leaf01:3 HDR 1x leaf01:7 spine01:1 HDR 4x leaf01:8 spine02:1 HDR 4x " ] ||
	fail "partial links: $got"

# Every command that reads a partial snapshot says so, once, naming
# what did not answer (issue 33, item 5).
for cmd in "health 2" "analyze 2" "show 2 nodes" "export 2 --format json" \
	"diff 1 2"; do
	# shellcheck disable=SC2086 # the words of the command
	"$IBTOPO" --db "$DB" $cmd >/dev/null 2>"$TESTDIR/err"
	n=$(grep -c 'partial' "$TESTDIR/err")
	[ "$n" = 1 ] || { cat "$TESTDIR/err"; fail "$cmd: $n partial lines"; }
	grep -q "^ibtopo: warning: snapshot 2 (.*) is a partial discovery (2 SMPs went unanswered (first: the peer of .* did not answer NodeInfo)): what it did not reach is missing from what follows$" \
		"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "$cmd: partial line"; }
done
"$IBTOPO" --db "$DB" analyze 1 >/dev/null 2>"$TESTDIR/err"
grep -q partial "$TESTDIR/err" && fail "analyze of a whole snapshot: $(cat "$TESTDIR/err")"

# A host whose NodeDescription was not read: export --format slurm says
# so (not "a firmware-default CA description") and exits 3, incomplete.
sim_cmd 'Error "leaf02" 0 17'
sim_cmd 'Error "host04" 100 16'
sim_client "$IBTOPO" --db "$DB" discover --partial --retries 0 \
	>"$TESTDIR/out" 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "discover --partial, host04 silent"; }
sim_cmd 'Error "host04" 0 16'
grep -q "(PARTIAL)" "$TESTDIR/out" || fail "host04: not partial: $(cat "$TESTDIR/out")"
"$IBTOPO" --db "$DB" export 3 --format slurm >"$TESTDIR/out" 2>"$TESTDIR/err"
rc=$?
[ "$rc" = 3 ] || { cat "$TESTDIR/err"; fail "export slurm of a partial snapshot: exit $rc, wanted 3"; }
grep -q "^ibtopo: warning: 1 host whose NodeDescription the partial discovery did not read left out; discover again, or list it by GUID with --host-names guid$" \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "export slurm: the lost host"; }
grep -q "firmware-default" "$TESTDIR/err" && fail "blamed on the firmware"
[ "$(grep -c partial "$TESTDIR/err")" = 2 ] || { cat "$TESTDIR/err"; fail "export: partial said more than once"; }
grep -q "^SwitchName=leaf01 Nodes=host\[01-03\]$" "$TESTDIR/out" ||
	fail "export slurm: $(cat "$TESTDIR/out")"
sim_cmd 'Error "leaf02" 100 17'

# A cache written by an equally incomplete ibnetdiscover imports as a
# partial snapshot (import refuses nothing that the file holds).
[ -n "$IBNETDISCOVER" ] || skip "ibnetdiscover not found (infiniband-diags)"
sim_client "$IBNETDISCOVER" --cache "$TESTDIR/partial.cache" >/dev/null 2>&1 ||
	fail "ibnetdiscover --cache"
"$IBTOPO" --db "$DB" import "$TESTDIR/partial.cache" >"$TESTDIR/out" \
	2>"$TESTDIR/err" || fail "import of the partial cache"
grep -q "^ibtopo: warning: '$TESTDIR/partial.cache' holds an incomplete discovery; the snapshot is marked partial$" \
	"$TESTDIR/err" || { cat "$TESTDIR/err"; fail "partial cache warning"; }
grep -q '^snapshot 4: 3 switches, 3 CAs, 0 routers, 5 links (PARTIAL)$' \
	"$TESTDIR/out" || { cat "$TESTDIR/out"; fail "partial cache summary"; }

# No device: the same command without the shim sees no InfiniBand device
# (on a machine with a real HCA, name one that does not exist instead).
sum=$(cksum <"$DB")
if ls /sys/class/infiniband/* >/dev/null 2>&1; then
	(cd "$TESTDIR/work" && "$IBTOPO" --db "$DB" discover -C ibtopo-none0) \
		>"$TESTDIR/out" 2>"$TESTDIR/err"
	rc=$?
	want="ibtopo: no InfiniBand device 'ibtopo-none0' port 0 (is ib_umad loaded? does ibstat list it?)"
else
	(cd "$TESTDIR/work" && "$IBTOPO" --db "$DB" discover) \
		>"$TESTDIR/out" 2>"$TESTDIR/err"
	rc=$?
	want="ibtopo: no InfiniBand device found (is ib_umad loaded? can you read /dev/infiniband/umad*?)"
fi
[ $rc -eq 2 ] || fail "no device: exit $rc, expected 2"
[ "$(cat "$TESTDIR/err")" = "$want" ] || { cat "$TESTDIR/err"; fail "no device: message"; }
[ -s "$TESTDIR/out" ] && fail "no device: printed to stdout"
[ "$(cksum <"$DB")" = "$sum" ] || fail "no device: the database changed"
exit 0
