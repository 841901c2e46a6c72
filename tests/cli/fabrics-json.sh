#!/bin/sh
# fabrics-json.sh - JSON everywhere carries the fabric name (issue 25):
# each report of a stored snapshot (show's lists, analyze, diff,
# validate, health, routes) has "fabric":"NAME" next to "schema_version"
# (analyze too, since schema 2: its snapshot is "snapshot"); the same
# report of a file,
# which belongs to no fabric, has no such key. A diff across fabrics
# names NEW's. The HTML view names the fabric in its title.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
test_env db
unset IBTOPO_FABRIC
cache=$DATA/sim-small.cache
dump=$DATA/ir-sim-small-lfts.dump
X=lab.X_1

run 0 "$IBTOPO" --fabric "$X" import "$cache" --routes "$dump" || fail "import 1"
run 0 "$IBTOPO" --fabric "$X" import "$cache" --routes "$dump" || fail "import 2"

# fabric_of ARGS...: the top-level "fabric" of the command's JSON, a
# string, "-" when it has none
fabric_of() {
	"$IBTOPO" "$@" --format json >"$tmp/j" 2>"$tmp/err"
	rc=$?
	[ "$rc" -le 1 ] || { echo "exit $rc: $(cat "$tmp/err")"; return; }
	json_get '(j["fabric"] if isinstance(j["fabric"], str) else
	"not a string: %r" % j["fabric"]) if "fabric" in j else "-"' <"$tmp/j" ||
		echo "bad JSON: $(head -c 100 "$tmp/j")"
}

n=0
while IFS='|' read -r snap file; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the arguments are words
	got=$(fabric_of $snap)
	[ "$got" = "$X" ] || flunk "$snap: fabric '$got', wanted '$X'"
	[ -z "$file" ] && continue
	# shellcheck disable=SC2086
	got=$(fabric_of $file)
	[ "$got" = - ] || flunk "$file: fabric '$got' for a file"
done <<EOT
show latest nodes|show $cache nodes
show latest ports|show $cache ports
show latest links|show $cache links
show latest cables|show $cache cables
show latest switches|show $cache switches
analyze latest|analyze $cache
diff latest~1 latest|diff $cache $cache
validate $cache latest|validate $cache $cache
routes latest|routes $cache --routes $dump
EOT
[ "$n" -eq 9 ] || fail "only $n commands checked"
# key order: "fabric" right after "schema_version"
"$IBTOPO" show latest nodes --format json | grep -q "^{\"schema_version\":2,\"fabric\":\"$X\",\"nodes\":\[" ||
	flunk "show nodes: not schema_version, fabric, nodes"
# health measures counters: a fabric of snapshots that have them
H=lab.H_2
run 0 "$IBTOPO" --fabric "$H" import "$DATA/ck-cables.topo" \
	--counters "$DATA/hc-perfquery.txt" || fail "import counters 1"
run 0 "$IBTOPO" --fabric "$H" import "$DATA/ck-cables.topo" \
	--counters "$DATA/hc-perfquery-later.txt" || fail "import counters 2"
for args in "health latest" "health latest --since latest~1"; do
	# shellcheck disable=SC2086 # the arguments are words
	got=$(fabric_of --fabric "$H" $args)
	[ "$got" = "$H" ] || flunk "$args: fabric '$got', wanted '$H'"
done
"$IBTOPO" --fabric "$H" health latest --format json 2>/dev/null |
	grep -q "^{\"schema_version\":2,\"fabric\":\"$H\",\"ports\":\[" ||
	flunk "health: not schema_version, fabric, ports"

# across fabrics: the fabric of NEW
run 0 "$IBTOPO" --fabric other import "$DATA/rd-small.topo" || fail "import other"
got=$(fabric_of --across-fabrics diff 1 5)
[ "$got" = other ] || flunk "diff across fabrics names '$got', wanted NEW's 'other'"

# ---- the HTML view names the fabric in its title; a file's keeps its name
run 0 "$IBTOPO" --fabric "$X" render -o "$tmp/x.html" latest || fail "render html"
grep -q "<title>$X · snapshot [0-9]*</title>" "$tmp/x.html" ||
	flunk "HTML title: $(grep -o '<title>[^<]*</title>' "$tmp/x.html")"
run 0 "$IBTOPO" render -o "$tmp/f.html" "$cache" || fail "render file html"
grep -q '<title>sim-small.cache</title>' "$tmp/f.html" ||
	flunk "HTML title of a file: $(grep -o '<title>[^<]*</title>' "$tmp/f.html")"
exit "$failed"
