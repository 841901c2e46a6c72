#!/bin/sh
# metrics-counters.sh - `ibtopo metrics`: every fixture with counters
# (perfquery, ibqueryerrors, ibdiagnet2.pm and db_csv, the traffic dumps)
# imported and written in the Prometheus text format passes `promtool
# check metrics`; bytes are 4 x the stored PortXmitData words; a known
# counter on a known port carries its identity, its info series both
# ends' names; ports without
# counters still have their state; a saturated counter keeps its value
# and is marked; -o replaces its file whole, leaving no temporary file.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
promtool_require
tmp=$TESTDIR
LC_ALL=C
export LC_ALL
IBTOPO_DB=$tmp/db
export IBTOPO_DB
topo=$DATA/ck-cables.topo

# value METRIC LABELS: the value of the one series whose labels hold LABELS
value() {
	grep "^$1{" "$tmp/m.prom" | grep -F "$2" | awk '{ print $NF }'
}

n=0
for c in hc-perfquery.txt hc-perfquery-later.txt hc-ibqueryerrors.txt \
	hc-ibdiagnet2.pm hc-ibdiagnet2.db_csv hc-traffic-1.txt hc-traffic-2.txt; do
	n=$((n + 1))
	run 0 "$IBTOPO" import "$topo" --counters "$DATA/$c" || continue
	run 0 "$IBTOPO" metrics latest -o "$tmp/m.prom" || continue
	"$PROMTOOL" check metrics <"$tmp/m.prom" >"$tmp/lint" 2>&1 ||
		flunk "promtool on $c: $(cat "$tmp/lint")"
	run 0 "$IBTOPO" metrics latest --collect all -o "$tmp/all.prom" &&
		"$PROMTOOL" check metrics <"$tmp/all.prom" >"$tmp/lint" 2>&1 ||
		flunk "promtool on $c, --collect all: $(cat "$tmp/lint")"
	# the default set is a part of all of it, line for line
	grep -v '^#' "$tmp/m.prom" | sort >"$tmp/def.s"
	grep -v '^#' "$tmp/all.prom" | sort >"$tmp/all.s"
	[ -z "$(comm -23 "$tmp/def.s" "$tmp/all.s")" ] ||
		flunk "$c: default series missing from --collect all"
	# bytes: 4 x the words the store holds, port by port (by GUID)
	run 0 "$IBTOPO" health latest --format json
	json_get '"\n".join("%s %d %d" % (p["guid"], p["port"],
		4 * p["counters"]["PortXmitData"]) for p in j["ports"]
		if p["counters"].get("PortXmitData") is not None)' \
		<"$tmp/out" | sort >"$tmp/want-bytes"
	"$PYTHON3" -c '
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r"ibtopo_port_transmit_bytes_total\{(.*)\} (\d+)$", line)
    if m:
        l = dict(re.findall(r"(\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"", m.group(1)))
        rows.append("%s %s %s" % (l["node_guid"], l["port"], m.group(2)))
print("\n".join(sorted(rows)))
' "$tmp/m.prom" >"$tmp/got-bytes"
	same "$tmp/want-bytes" "$tmp/got-bytes" "bytes of $c" ||
		sed 's/^/  m.prom: /' "$tmp/m.prom" | grep transmit_bytes >&2
	[ "$(value ibtopo_snapshot_id 'fabric=')" = "$n" ] ||
		flunk "snapshot id of $c: $(value ibtopo_snapshot_id 'fabric=')"
done

# ---- the first perfquery dump: known counters, both ends' labels
run 0 "$IBTOPO" metrics 1 -o "$tmp/m.prom"
ends='node_guid="0x1000000000000200",port="39"'
# the names and the far end: on the info series, not on the counters
[ "$(value ibtopo_port_info "$ends,node=\"leaf01\",node_type=\"switch\",lid=\"2\",remote_guid=\"0x1000000000000100\",remote_node=\"spine01\",remote_port=\"1\"")" = 1 ] ||
	flunk "leaf01/39 info: $(grep "^ibtopo_port_info{.*$ends" "$tmp/m.prom")"
grep '^ibtopo_port_symbol_errors_total{' "$tmp/m.prom" | grep -q 'node=' &&
	flunk "a counter series carries a name"
[ "$(value ibtopo_port_symbol_errors_total "$ends")" = 12 ] ||
	flunk "leaf01/39 SymbolErrorCounter: '$(value ibtopo_port_symbol_errors_total "$ends")'"
[ "$(value ibtopo_port_link_downed_total "$ends")" = 3 ] ||
	flunk "leaf01/39 LinkDownedCounter"
# no error, still there with a zero
[ "$(value ibtopo_port_receive_errors_total "$ends")" = 0 ] ||
	flunk "leaf01/39 PortRcvErrors not 0"
# 123456789012 words of PortXmitData (64 bits)
[ "$(value ibtopo_port_transmit_bytes_total "$ends")" = 493827156048 ] ||
	flunk "leaf01/39 bytes: $(value ibtopo_port_transmit_bytes_total "$ends")"
# ports without counters keep their state and rate series: every port
ports=$(grep -c '^ibtopo_port_state{' "$tmp/m.prom")
withc=$(grep -c '^ibtopo_port_symbol_errors_total{' "$tmp/m.prom")
[ "$ports" -gt "$withc" ] && [ "$withc" -ge 1 ] ||
	flunk "$ports ports with a state, $withc with counters"
[ "$(grep -c '^ibtopo_port_rate_bytes_per_second{' "$tmp/m.prom")" = "$ports" ] ||
	flunk "not every port has a rate"
[ "$(value ibtopo_port_rate_bytes_per_second "$ends")" = 25000000000 ] ||
	flunk "4x HDR rate: $(value ibtopo_port_rate_bytes_per_second "$ends")"
[ "$(value ibtopo_fabric_links 'fabric=')" = 8 ] || flunk "links"
[ "$(value ibtopo_fabric_switches 'fabric=')" = 3 ] || flunk "switches"
[ "$(value ibtopo_fabric_findings 'kind="port-errors",severity="warning"')" = 3 ] ||
	flunk "port-errors findings"

# ---- a saturated 16-bit counter: its value, and marked
sed 's/^SymbolErrorCounter:\.*12$/SymbolErrorCounter:..............65535/' \
	"$DATA/hc-perfquery.txt" >"$tmp/sat.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/sat.txt"
run 0 "$IBTOPO" metrics --collect saturation -o "$tmp/m.prom"
"$PROMTOOL" check metrics <"$tmp/m.prom" >"$tmp/lint" 2>&1 ||
	flunk "promtool, saturated: $(cat "$tmp/lint")"
[ "$(value ibtopo_port_symbol_errors_total "$ends")" = 65535 ] ||
	flunk "saturated SymbolErrorCounter exported as $(value ibtopo_port_symbol_errors_total "$ends")"
[ "$(value ibtopo_port_saturated "$ends,counter=\"SymbolErrorCounter\"")" = 1 ] ||
	flunk "no ibtopo_port_saturated for SymbolErrorCounter"
[ "$(value ibtopo_port_counters_saturated "$ends")" = 1 ] ||
	flunk "ibtopo_port_counters_saturated not 1"
[ "$(grep -c '^ibtopo_port_saturated{' "$tmp/m.prom")" = 1 ] ||
	flunk "other counters marked saturated"

# ---- --fabric names a file's fabric; a node-name map renames both ends
# (the file has no counters: its ports read 0)
printf '0x1000000000000100 "core-a"\n' >"$tmp/names.map"
run 0 "$IBTOPO" --fabric lab1 --node-name-map "$tmp/names.map" metrics \
	"$topo" -o "$tmp/m.prom"
grep -q '^ibtopo_port_info{fabric="lab1",node_guid="0x1000000000000200",port="39",node="leaf01",.*,remote_node="core-a",' \
	"$tmp/m.prom" || flunk "fabric label or node-name map: $(grep "^ibtopo_port_info{" "$tmp/m.prom" | head -3)"
grep -q '^ibtopo_port_state{fabric="lab1",node_guid="0x1000000000000200",port="39"} ' \
	"$tmp/m.prom" || flunk "fabric label on the port series"
"$PROMTOOL" check metrics <"$tmp/m.prom" >/dev/null 2>&1 ||
	flunk "promtool on an escaped label"
# a text dump's time is its file's, not 0 (1970 to every staleness rule)
cp "$topo" "$tmp/dated.topo"
touch -d @1700000000 "$tmp/dated.topo"
run 0 "$IBTOPO" metrics "$tmp/dated.topo" -o "$tmp/m.prom"
[ "$(value ibtopo_snapshot_timestamp_seconds 'fabric=')" = 1700000000 ] ||
	flunk "a file's time: $(value ibtopo_snapshot_timestamp_seconds 'fabric=')"

# ---- -o: the old file replaced whole, no temporary file left behind
left=$(find "$tmp" -maxdepth 1 -name '*m.prom?*')
[ -z "$left" ] || flunk "temporary file left: $left"
# the temporary file's name does not end in .prom: node_exporter's
# textfile collector would read it half-written
if command -v strace >/dev/null 2>&1; then
	# (LeakSanitizer refuses to run under ptrace: off for this run)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=openat,rename -o "$tmp/strace" \
		"$IBTOPO" metrics -o "$tmp/m.prom" >/dev/null 2>&1 ||
		flunk "metrics -o under strace"
	t=$(sed -n 's/.*rename("\([^"]*\)", "[^"]*m\.prom").*/\1/p' "$tmp/strace")
	[ -n "$t" ] || flunk "no rename onto m.prom: $(grep rename "$tmp/strace")"
	case $t in *.prom) flunk "temporary file named $t" ;; esac
else
	info "strace not found: the temporary file's name is not checked"
fi
run 0 "$IBTOPO" metrics --no-findings -o "$tmp/m.prom"
grep -q '^ibtopo_fabric_findings' "$tmp/m.prom" && flunk "--no-findings"
run 0 "$IBTOPO" metrics --no-findings
same "$tmp/m.prom" "$tmp/out" "stdout against -o"
run 2 "$IBTOPO" metrics nosuch.topo
run 2 "$IBTOPO" metrics --fabric lab1

# ---- a file of a stored fabric goes by that fabric's name, renamed too
old=$("$IBTOPO" fabrics --format json | json_get 'j["fabrics"][0]["name"]')
run 0 "$IBTOPO" fabrics --rename "$old" janus
run 0 "$IBTOPO" metrics "$topo" -o "$tmp/m.prom"
[ "$(value ibtopo_fabric_links 'fabric="janus"')" = 8 ] ||
	flunk "a stored fabric's file: $(grep '^ibtopo_fabric_links' "$tmp/m.prom")"
run 0 "$IBTOPO" export "$topo" --format slurm-yaml
grep -q 'janus' "$tmp/out" || flunk "slurm-yaml of the file: $(head -5 "$tmp/out")"
# no database: the store's rule
run 0 "$IBTOPO" --db "$tmp/none.db" metrics "$topo" -o "$tmp/m.prom"
[ "$(value ibtopo_fabric_links 'fabric="fabric-1000000000000100"')" = 8 ] ||
	flunk "no database: $(grep '^ibtopo_fabric_links' "$tmp/m.prom")"
[ -e "$tmp/none.db" ] && flunk "metrics FILE created a database"
exit "$failed"
