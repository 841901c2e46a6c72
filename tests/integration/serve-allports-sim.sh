#!/bin/sh
# serve-allports-sim.sh - several subnets in one exposition (issue 34).
#
# `ibtopo serve --all-ports` sweeps the subnet of every active local
# InfiniBand port, each under its own `fabric` label (the store's rule of
# names: fe80-<lowest switch GUID>), and /metrics holds them all with
# each family once. Under ibsim a process has one local port (umad2sim
# makes one CA, ibsim0, with the port its client is cabled to), so serve
# reaches one subnet here: its series carry the subnet's name, the text
# passes `promtool check metrics`, and -C/--fabric/--store-every are
# refused with it. Two subnets in one text are checked through
# `metrics --all-fabrics`, which merges the same way (the latest
# snapshot of each fabric of a database, two fat trees of their own
# switches): promtool passes it, every family has one HELP and TYPE,
# both fabrics' series are there, ibtopo_build_info once.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
promtool_require
. "$top_srcdir/tests/serve-lib.sh"

# ---- two fabrics of a database, one text
"$IBTOPO" plan fat-tree --leaves 4 --spines 2 --hosts-per-leaf 4 \
	-o "$TESTDIR/a.topo" || fail "plan a"
"$IBTOPO" plan fat-tree --leaves 3 --spines 2 --hosts-per-leaf 4 \
	-o "$TESTDIR/b.plain" || fail "plan b"
# other names for b, so other GUIDs: its own switches, a fabric of its own
sed 's/"\([a-z]\)/"b\1/g' "$TESTDIR/b.plain" >"$TESTDIR/b.topo"
run 0 "$IBTOPO" --db "$DB" --fabric rail0 import "$TESTDIR/a.topo"
run 0 "$IBTOPO" --db "$DB" --fabric rail1 import "$TESTDIR/b.topo"
run 0 "$IBTOPO" --db "$DB" metrics --all-fabrics -o "$TESTDIR/two.prom"
"$PROMTOOL" check metrics <"$TESTDIR/two.prom" >"$TESTDIR/lint" 2>&1 ||
	flunk "promtool, two fabrics: $(cat "$TESTDIR/lint")"
for f in rail0 rail1; do
	grep -q "^ibtopo_port_state{fabric=\"$f\"," "$TESTDIR/two.prom" ||
		flunk "no ibtopo_port_state of $f"
	grep -q "^ibtopo_fabric_links{fabric=\"$f\"} " "$TESTDIR/two.prom" ||
		flunk "no ibtopo_fabric_links of $f"
done
dup=$(sed -n 's/^# \(HELP\|TYPE\) \([a-z_0-9]*\) .*/\1 \2/p' "$TESTDIR/two.prom" |
	sort | uniq -d)
[ -z "$dup" ] || flunk "families written twice: $dup"
[ "$(grep -c '^ibtopo_build_info{' "$TESTDIR/two.prom")" = 1 ] ||
	flunk "ibtopo_build_info not once"
run 2 "$IBTOPO" --db "$DB" metrics --all-fabrics latest
run 2 "$IBTOPO" --db "$DB" --fabric rail0 metrics --all-fabrics

# ---- serve --all-ports under ibsim
sim_fattree 8 2
rm -f "$DB" "$DB"-*
serve_start --interval 1 --all-ports
metrics_until() {	# metrics_until SHELL-CONDITION SECONDS
	for _ in $(seq 1 $(($2 * 4))); do
		scrape /metrics >/dev/null
		eval "$1" && return 0
		sleep 0.25
	done
	return 1
}
metrics_until 'grep -q "^ibtopo_port_state{" "$TESTDIR/body"' 30 ||
	fail "no port series: $(cat "$TESTDIR/serve.err")"
"$PROMTOOL" check metrics <"$TESTDIR/body" >"$TESTDIR/lint" 2>&1 ||
	flunk "promtool, serve --all-ports: $(cat "$TESTDIR/lint")"
# the subnet's own name (the store's rule: fe80-<lowest switch GUID>)
names=$(sed -n 's/^ibtopo_port_state{fabric="\([^"]*\)".*/\1/p' "$TESTDIR/body" | sort -u)
case $names in
fe80-*) ;;
*) flunk "serve --all-ports: fabric labels '$names'" ;;
esac
[ "$(echo "$names" | wc -l)" = 1 ] || flunk "one subnet, labels: $names"
serve_stop
[ "$SERVE_RC" = 0 ] || flunk "serve exit status $SERVE_RC"
run 2 "$IBTOPO" --db "$DB" -C ibsim0 serve --all-ports
run 2 "$IBTOPO" --db "$DB" --fabric x serve --all-ports
run 2 "$IBTOPO" --db "$DB" serve --all-ports --store-every 1h
exit "$failed"
