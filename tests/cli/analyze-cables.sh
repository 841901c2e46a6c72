#!/bin/sh
# analyze-cables.sh - `ibtopo analyze --cables` on a small HDR fabric file:
# the inventory CSV and the ibdiagnet db_csv give the same findings (an
# over-length AOC, an over-length DAC, an EDR cable on HDR ports); a site
# reach table moves the limit; --fail-on sets the exit status; bad cable
# and reach files fail with one line naming FILE:LINE. Only the link and
# cable kinds are compared: the topology analysis (a single-homed star
# here) has its own tests.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env


# mine: keep the CSV header and the link and cable findings
KINDS='speed-downgrade|width-downgrade|cable-over-length|cable-underrated|loopback-cable'
mine() {
	grep -E "^(kind|$KINDS)," "$1" >"$1.mine"
	mv "$1.mine" "$1"
}

# ---- the inventory CSV and the db_csv agree
run 1 "$IBTOPO" analyze --format csv --cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo" &&
	mine "$tmp/out" && same "$GOLDEN/ck-cables.csv" "$tmp/out"
run 1 "$IBTOPO" analyze --format csv --cables "$DATA/ck-cables.db_csv" "$DATA/ck-cables.topo" &&
	mine "$tmp/out" && same "$GOLDEN/ck-cables.csv" "$tmp/out"
# the db_csv row of an unlinked port is skipped with a warning
printf '%s\n' "ibtopo: warning: $DATA/ck-cables.db_csv:17: 1 CABLE_INFO rows skipped: their ports have no link in this fabric" >"$tmp/want"
same "$tmp/want" "$tmp/err"

# ---- the human table (run where the file is: the summary names it):
# the golden lines appear in this order, spacing aside (other analyses
# add their own lines and widen the columns)
(cd "$DATA" && "$IBTOPO" analyze --cables ck-cables.csv ck-cables.topo) >"$tmp/text" 2>&1
"${PYTHON3:-python3}" - "$GOLDEN/ck-cables.txt" "$tmp/text" <<'PY' || flunk "text table: $(cat "$tmp/text")"
import sys
def norm(l):
    return " ".join(l.split())
want = [norm(l) for l in open(sys.argv[1]).read().splitlines() if l.strip()]
got = [norm(l) for l in open(sys.argv[2]).read().splitlines()]
i = 0
for line in got:
    if i < len(want) and line == want[i]:
        i += 1
sys.exit(0 if i == len(want) else 1)
PY

# ---- JSON: one object, the fabric counts its cables
run 1 "$IBTOPO" analyze --format json --cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo"
grep -q '^{"schema_version":2,"snapshot":{"id":null,"label":null,"source":"file:[^"]*ck-cables.topo","switches":3,"cas":4,"routers":0,"links":8,"cables":5,"partial":false,"partial_reason":null,"counters_unread":0},' "$tmp/out" ||
	flunk "JSON head: $(head -c 300 "$tmp/out")"
grep -q '"findings":\[{"kind":"cable-over-length","severity":"error","a":{"node":"spine01","guid":"0x1000000000000100","port":1}' "$tmp/out" ||
	flunk "JSON first finding: $(head -c 300 "$tmp/out")"
grep -q '"active":"HDR","media":"aoc","length_m":45.0,"reach_m":30.0}' "$tmp/out" ||
	flunk "JSON over-length details: $(head -c 600 "$tmp/out")"

# ---- options after the file
run 1 "$IBTOPO" analyze "$DATA/ck-cables.topo" --cables "$DATA/ck-cables.csv" --format csv &&
	mine "$tmp/out" && same "$GOLDEN/ck-cables.csv" "$tmp/out"

# ---- --fail-on
run 0 "$IBTOPO" analyze --fail-on never --cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo"
run 0 "$IBTOPO" analyze --format csv "$DATA/ck-cables.topo" && mine "$tmp/out" &&
	[ "$(wc -l <"$tmp/out")" -eq 1 ] || flunk "no cables, no cable findings: $(cat "$tmp/out")"
printf 'node_a,port_a,rated_speed\nleaf01,1,EDR\n' >"$tmp/edr.csv"
run 0 "$IBTOPO" analyze --format csv --cables "$tmp/edr.csv" "$DATA/ck-cables.topo" &&
	mine "$tmp/out" && [ "$(cut -d, -f1,2 "$tmp/out" | tail -n +2)" = "cable-underrated,warning" ] ||
	flunk "EDR cable: $(cat "$tmp/out")"
run 1 "$IBTOPO" analyze --fail-on warning --cables "$tmp/edr.csv" "$DATA/ck-cables.topo"
run 2 "$IBTOPO" analyze --fail-on info "$DATA/ck-cables.topo"
grep -q "unknown --fail-on 'info'" "$tmp/err" || flunk "--fail-on info: $(cat "$tmp/err")"

# ---- a site's reach table: HDR AOCs to 50 m, no copper rows
run 0 "$IBTOPO" analyze --format csv --cable-reach "$DATA/ck-reach.tsv" \
	--cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo" && mine "$tmp/out"
[ "$(cut -d, -f1 "$tmp/out" | tail -n +2 | tr '\n' ' ')" = "cable-underrated " ] ||
	flunk "with ck-reach.tsv: $(cat "$tmp/out")"

# ---- bad files: one line naming FILE:LINE, exit 2
bad() {	# bad 'CSV ROW' 'EXPECTED MESSAGE AFTER FILE:'
	printf 'node_a,port_a,node_b,port_b,media,length_m\nleaf01,2,,,aoc,3\n%s\n' "$1" >"$tmp/bad.csv"
	run 2 "$IBTOPO" analyze --cables "$tmp/bad.csv" "$DATA/ck-cables.topo" &&
		stderr_is "ibtopo: $tmp/bad.csv:$2"
}
bad 'leaf9,1,,,fiber' "3: unknown media 'fiber' (passive-copper, active-copper, aoc, multimode, singlemode)"
bad 'leaf01,x' "3: port_a is not a port number"

# ---- stale rows (a node, port or peer the fabric lacks) are findings,
# cable-row-unmatched (warning), naming the row; the other rows are used
stale() {	# stale 'CSV ROW' 'EXPECTED CSV FINDING AFTER THE SEVERITY'
	printf 'node_a,port_a,node_b,port_b,media,length_m\nleaf01,2,,,aoc,45\n%s\n' "$1" >"$tmp/stale.csv"
	run 1 "$IBTOPO" analyze --format csv --cables "$tmp/stale.csv" "$DATA/ck-cables.topo" || return
	[ ! -s "$tmp/err" ] || flunk "stale row '$1': stderr: $(cat "$tmp/err")"
	grep -q '^cable-over-length,error,"\{0,1\}leaf01' "$tmp/out" ||
		flunk "stale row '$1': the good row was not used: $(cat "$tmp/out")"
	tr -d '\r' <"$tmp/out" | grep -F -x -q "cable-row-unmatched,warning,$2" ||
		flunk "stale row '$1': no finding '$2' in: $(grep cable-row "$tmp/out")"
}
stale 'leaf9,1' "leaf9,,1,,,,,,,,,,$tmp/stale.csv:3: no node 'leaf9' in the fabric: this row's cable data was not used; correct or delete the row,,,,,,,,,,,,,,$tmp/stale.csv:3"
stale 'leaf01,7' "leaf01,0x1000000000000200,7,,,,,,,,,,$tmp/stale.csv:3: port 7 of 'leaf01' has no link in the fabric: this row's cable data was not used; correct or delete the row,,,,,,,,,,,,,,$tmp/stale.csv:3"
run 0 "$IBTOPO" analyze --format json --cables "$tmp/stale.csv" --fail-on never "$DATA/ck-cables.topo"
grep -q '{"kind":"cable-row-unmatched","severity":"warning","a":{"node":"leaf01","guid":"0x1000000000000200","port":7}' "$tmp/out" ||
	flunk "stale row JSON: $(cat "$tmp/out")"
# render draws the rows that match and warns about the stale one
# (the same picture as from the good row alone)
head -n 2 "$tmp/stale.csv" >"$tmp/good.csv"
run 0 "$IBTOPO" render --cables "$tmp/good.csv" -o "$tmp/good.dot" "$DATA/ck-cables.topo"
run 0 "$IBTOPO" render --cables "$tmp/stale.csv" -o "$tmp/stale.dot" "$DATA/ck-cables.topo"
grep -q -x "ibtopo: warning: $tmp/stale.csv:3: port 7 of 'leaf01' has no link in the fabric: this row's cable data was not used; correct or delete the row" "$tmp/err" ||
	flunk "render, stale row: stderr: $(cat "$tmp/err")"
same "$tmp/good.dot" "$tmp/stale.dot" "render, stale row"
printf 'node_a,port_a,node_b,port_b\nleaf01,1,spine01,1\n' >"$tmp/peer.csv"
run 0 "$IBTOPO" analyze --cables "$tmp/peer.csv" "$DATA/ck-cables.topo"
grep -q "$tmp/peer.csv:2: port 1 of 'leaf01' is linked to port 1 of 'host01 mlx5_0', not to port 1 of spine01" "$tmp/out" ||
	flunk "other peer: $(cat "$tmp/out")"
bad 'leaf01,1,,,fiber' "3: unknown media 'fiber' (passive-copper, active-copper, aoc, multimode, singlemode)"
bad 'leaf01,1,,,aoc,-2' "3: bad length_m '-2'"
bad '"leaf01,1' "3: unterminated quote"
printf 'switch,port\n' >"$tmp/nohead.csv"
run 2 "$IBTOPO" analyze --cables "$tmp/nohead.csv" "$DATA/ck-cables.topo" &&
	stderr_is "ibtopo: $tmp/nohead.csv:1: the header lacks node_a or port_a (expected node_a,port_a,node_b,port_b,media,length_m,part_number)"
run 2 "$IBTOPO" analyze --cables "$tmp/none.csv" "$DATA/ck-cables.topo" &&
	grep -q "^ibtopo: cannot open '$tmp/none.csv': " "$tmp/err" || flunk "missing cable file: $(cat "$tmp/err")"
printf 'speed\tmedia\tmax_m\tsource\nHDRX\taoc\t3\tx\n' >"$tmp/bad.tsv"
run 2 "$IBTOPO" analyze --cable-reach "$tmp/bad.tsv" "$DATA/ck-cables.topo" &&
	stderr_is "ibtopo: $tmp/bad.tsv:2: unknown speed 'HDRX'"

exit $failed
