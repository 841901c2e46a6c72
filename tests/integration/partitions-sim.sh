#!/bin/sh
# partitions-sim.sh - partitions as OpenSM configures them (issue 36), on
# tests/data/sim-small.net, where nothing else is wrong. For each case an
# `opensm -o -P FILE` sweep writes the PKeyTables (the SM attached at
# host02), discover reads them (PKeyTable Gets: tests/rel-madspy.so
# sees Gets only), and exactly one pkey-* finding comes out, or none:
#  - clean: Default=0x7fff ALL full, partition 0x0101 full on host02,
#    host03 and host04: no pkey-* finding; `show ports` lists each host
#    port's PKeys, in text, CSV and JSON;
#  - 0x0101 full on host02, limited on host03 (both on leaf01):
#    pkey-membership-mixed, a warning, on host03 (limited-among-full);
#  - 0x0101 limited on host02 and host03: pkey-no-full-member
#    (partition);
#  - Default=0x7fff : ALL=limited, SELF=limited: nobody is a full member
#    of the default partition, not even the SM's port:
#    pkey-no-full-member (default-partition).
# A switch port that enforces partitions: ibsim answers PortInfo with
# PartitionEnforcementInbound and Outbound 0 whatever an SM sets
# (OpenSM sets both on every switch port to a CA, and writes the port's
# PKeyTable), so no live sweep meets one. The clean snapshot carries the
# fault instead: leaf01 port 2 (host02's) enforcing with only 0xffff:
# pkey-switch-drop, missing (host02's 0x8101); with 0x0101 as well:
# pkey-switch-drop, limited-only, a warning.
# The SM's activity count (sm-state): opensm running on host04, discover
# reads its SMInfo twice, the ActCount grows (its answer to the first
# read is SM activity): no sm-state finding; that snapshot with both
# counts equal: sm-state master-idle. (A SIGSTOPped opensm cannot stand
# in: ibsim hands the SMInfo Get to the stopped process, and umad2sim
# never times a MAD out, so every SMInfo reader, opensm's standby as
# well, waits for ever.)
. "${top_srcdir:-.}/tests/lib.sh"
test_env
sim_require
python_require
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] || skip "opensm not found"

TOOL=$top_builddir/tests/store-tool
[ -x "$TOOL" ] || fail "$TOOL not built"
PKEYS='^pkey-'

# osm_partitions NAME: one opensm sweep with $TESTDIR/NAME.conf as its
# partitions.conf
osm_partitions() {
	mkdir -p "$TESTDIR/osm-$1"
	(cd "$TESTDIR/work" &&
		OSM_CACHE_DIR="$TESTDIR/osm-$1" OSM_TMP_DIR="$TESTDIR/osm-$1" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" timeout -s KILL 60 "$OPENSM" -o \
		-P "$TESTDIR/$1.conf" -f "$TESTDIR/osm-$1/osm.log" \
		>/dev/null 2>&1) || fail "opensm -P $1.conf"
	grep -q 'Partition configuration in error' "$TESTDIR/osm-$1/osm.log" &&
		fail "opensm refused $1.conf"
	return 0
}

# sweep NAME: discover into $TESTDIR/NAME.db (the MADs into NAME.mads);
# prints the pkey-* findings
sweep() {
	sim_spy "$TESTDIR/$1.mads" "$IBTOPO" --db "$TESTDIR/$1.db" discover \
		>/dev/null 2>"$TESTDIR/err" ||
		fail "discover ($1): $(cat "$TESTDIR/err")"
	grep -v '^[0-9a-f][0-9a-f] 01 ' "$TESTDIR/$1.mads" >"$TESTDIR/not-get" &&
		flunk "$1: MADs other than Gets: $(sort "$TESTDIR/not-get" | uniq -c)"
	findings "$TESTDIR/$1.db"
}

# partitioned NAME REGEX WHAT: with standard input as partitions.conf
# (NAME.conf), an opensm sweep, then ours (sweep NAME): one pkey-*
# finding, that matches REGEX
partitioned() {
	cat >"$TESTDIR/$1.conf"
	osm_partitions "$1"
	one_finding "$(sweep "$1")" "$2" "$3"
}

# findings DB: the pkey-* findings of its latest snapshot
findings() {
	csv_findings "$1" "$PKEYS"
}

sim_start_as "$DATA/sim-small.net" host02

# ---- clean
cat >"$TESTDIR/clean.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full;
store=0x0101 : 0x100004=full, 0x100006=full, 0x100008=full;
EOF
osm_partitions clean
got=$(sweep clean)
[ -z "$got" ] || flunk "clean: $got"
# five CA ports up, PartitionCap 64: two blocks each
[ "$(grep -c '^81 01 0016$' "$TESTDIR/clean.mads")" -eq 10 ] ||
	flunk "PKeyTable Gets: $(grep -c ' 0016$' "$TESTDIR/clean.mads")"
run 0 "$IBTOPO" --db "$TESTDIR/clean.db" show ports --format json
got=$(json_get "sorted((p['node'], p['port'], p['pkeys']) for p in j['ports'] if p['type'] == 'ca')" <"$TESTDIR/out")
[ "$got" = "[('host01', 1, ['0xffff']), ('host01', 2, ['0xffff']), ('host02', 1, ['0xffff', '0x8101']), ('host03', 1, ['0xffff', '0x8101']), ('host04', 1, ['0xffff', '0x8101'])]" ] ||
	flunk "show ports json: $got"
[ "$(json_get "[p['pkeys'] for p in j['ports'] if p['type'] == 'switch'][0]" <"$TESTDIR/out")" = None ] ||
	flunk "a switch port's PKeys were read"
run 0 "$IBTOPO" --db "$TESTDIR/clean.db" show ports --format csv
tr -d '\r' <"$TESTDIR/out" | grep -q '^host02,0x0000000000100003,ca,1,.*,"0xffff,0x8101"$' ||
	flunk "show ports csv: $(grep '^host02' "$TESTDIR/out")"
run 0 "$IBTOPO" --db "$TESTDIR/clean.db" show ports
grep -q '^host02 .* 0xffff,0x8101$' "$TESTDIR/out" ||
	flunk "show ports text: $(grep '^host02' "$TESTDIR/out")"

# ---- one PKey full on host02, limited on host03, both on leaf01
partitioned mixed "^pkey-membership-mixed,warning,host03,0x0000000000100005,1,host02,0x0000000000100003,1,leaf01,0x0000000000200002,,.*'host03' port 1 is a limited member of partition 0x0101 while 1 other host on its leaf, 'leaf01', holds it as a full member.*,limited-among-full\$" \
	"mixed" <<'EOF'
Default=0x7fff, ipoib : ALL=full;
store=0x0101 : 0x100004=full, 0x100006=limited;
EOF

# ---- a partition of limited members only
partitioned limited "^pkey-no-full-member,error,host02,0x0000000000100003,1,host03,0x0000000000100005,1,.*the 2 members of partition 0x0101 .* are all limited members.*,partition\$" \
	"all limited" <<'EOF'
Default=0x7fff, ipoib : ALL=full;
store=0x0101 : 0x100004=limited, 0x100006=limited;
EOF

# ---- the default partition without a full member
partitioned nofull "^pkey-no-full-member,error,host01,0x0000000000100000,1,.*none of the 5 ports in the default partition (0x7fff) is a full member.*,default-partition\$" \
	"default partition" <<'EOF'
Default=0x7fff : ALL=limited, SELF=limited;
EOF

# ---- an enforcing switch port without the host's PKey (stored)
# leaf01 (0x200002) port 2 is host02's
db_edit clean drop "INSERT INTO pkeys
	(snapshot_id, node_guid, port, enforce, keys) VALUES (1, 2097154, 2, 3, '0xffff')"
got=$(findings "$TESTDIR/drop.db")
one_finding "$got" "^pkey-switch-drop,error,host02,0x0000000000100003,1,leaf01,0x0000000000200002,2,.*'host02' port 1 holds PKey 0x8101 (partition 0x0101), but its switch port, 'leaf01' port 2, enforces partitions and lacks it.*,missing\$" \
	"switch drop"
"$TOOL" exec "$TESTDIR/drop.db" "UPDATE pkeys SET keys = '0xffff 0x0101'
	WHERE node_guid = 2097154" >/dev/null || fail "edit the snapshot"
got=$(findings "$TESTDIR/drop.db")
one_finding "$got" "^pkey-switch-drop,warning,host02,0x0000000000100003,1,leaf01,0x0000000000200002,2,.*holds it as limited (0x0101).*,limited-only\$" \
	"switch limited"
# shown, and the enforcing port with its PKeys
run 0 "$IBTOPO" --db "$TESTDIR/drop.db" show ports --format json
got=$(json_get "[p['pkeys'] for p in j['ports'] if p['node'] == 'leaf01' and p['port'] == 2]" <"$TESTDIR/out")
[ "$got" = "[['0xffff', '0x0101']]" ] || flunk "enforcing port shown: $got"

# ---- the SM's activity count
cat >"$TESTDIR/plain.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full;
EOF
mkdir -p "$TESTDIR/sm"
(cd "$TESTDIR/work" && OSM_CACHE_DIR="$TESTDIR/sm" OSM_TMP_DIR="$TESTDIR/sm" \
	SIM_HOST=host04 LD_PRELOAD="$UMAD2SIM" \
	exec timeout -s KILL 120 "$OPENSM" -s 0 -p 3 -P "$TESTDIR/plain.conf" \
	-f "$TESTDIR/sm/osm.log" >/dev/null 2>&1) &
CLEANUP_PIDS="$CLEANUP_PIDS $!"
osm_master "$TESTDIR/sm/osm.log" 200 || fail "opensm is not master"
sweep sm >/dev/null
[ "$(grep -c '^81 01 0020$' "$TESTDIR/sm.mads")" -eq 2 ] ||
	flunk "SMInfo Gets: $(grep -c ' 0020$' "$TESTDIR/sm.mads")"
got=$("$IBTOPO" --db "$TESTDIR/sm.db" analyze --format csv | tr -d '\r' |
	grep -E '^sm-state,|'"$PKEYS")
[ -z "$got" ] || flunk "a working master: $got"
[ "$("$TOOL" exec "$TESTDIR/sm.db" "SELECT count(*) FROM sms WHERE
	state = 3 AND reread AND act_count2 > act_count")" = 1 ] ||
	flunk "ActCount did not grow: $("$TOOL" exec "$TESTDIR/sm.db" \
		"SELECT act_count2 - act_count FROM sms")"
db_edit sm idle "UPDATE sms SET act_count2 = act_count"
got=$(csv_findings "$TESTDIR/idle.db" '^sm-state,')
one_finding "$got" "^sm-state,error,host04,0x0000000000100007,1,.*the master subnet manager on 'host04' port 1 answered SMInfo twice with ActCount [0-9]*: .*,master-idle\$" \
	"an idle master"
exit "$failed"
