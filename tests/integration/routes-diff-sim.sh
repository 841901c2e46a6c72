#!/bin/sh
# routes-diff-sim.sh - `ibtopo diff` of the forwarding tables stored by
# `discover --routes` (issue 15): OpenSM routes a 2-level fat tree with
# ftree, a snapshot is taken; OpenSM then programs the same tables but
# for one entry (leaf01 sends LID 14 up the other spine: the file engine,
# opensm -R file -U DUMP), a second snapshot is taken. The diff names
# one route-changed (LID 14 at leaf01) and route-load-changed on the two
# leaf01 up-ports the route moved between and on the two spine ports
# down to LID 14's leaf (the routes from leaf01's hosts); a diff of a snapshot with
# itself has no route change.
# Needs ibsim, libumad2sim, opensm (else SKIP).
. "$top_srcdir/tests/lib.sh"
sim_require
python_require
opensm_gen_require
T=$TESTDIR

# osm ARGS...: one opensm sweep, its dumps and cache in $T/osm
osm() {
	(cd "$T/work" &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
		LD_PRELOAD="$UMAD2SIM" OSM_CACHE_DIR="$T/osm" OSM_TMP_DIR="$T/osm" \
		timeout -s KILL 60 "$OPENSM" -o --dump_files_dir "$T/osm" \
		-D 0x43 -f "$T/osm/osm.log" "$@" >"$T/osm/stdout" 2>&1) ||
		fail "opensm $* failed (see $T/osm/osm.log)"
}

"$GEN" --radix 36 --leaves 4 --spines 2 --hosts 2 ft2 >"$T/ft2.net" ||
	fail "gen-fabric ft2"
mkdir -p "$T/osm"
sim_start -n "$T/ft2.net"
osm -R ftree
grep -q "ftree tables configured" "$T/osm/osm.log" || fail "ftree did not route"
cp "$T/osm/opensm-lfts.dump" "$T/old.dump"
sim_client "$IBTOPO" --db "$DB" discover --routes --label old >/dev/null \
	2>"$T/disc.err" || fail "discover --routes: $(cat "$T/disc.err")"

# leaf01's entry for LID 14 moved to the leaf01 port its entry for the
# other spine's LID names: the route now turns at the other spine
edit=$(awk '/^Unicast/ { leaf = /\(.leaf01.\)/ }
	leaf && $1 == "0x000e" { p = $2 }
	leaf && /# Switch .*\047spine/ { up[$2] = 1 }
	END { for (q in up) if (q != p) { print p, q; exit } }' "$T/old.dump")
set -- $edit
[ $# -eq 2 ] || fail "no second up-port on leaf01 in the ftree dump"
from=$1 to=$2
awk -v to="$to" '/^Unicast/ { leaf = /\(.leaf01.\)/ }
	{ if (leaf && $1 == "0x000e") sub(/^0x000e [0-9]+/, "0x000e " to); print }' \
	"$T/old.dump" >"$T/new.dump"
[ "$(diff "$T/old.dump" "$T/new.dump" | grep -c '^>')" = 1 ] ||
	fail "the edit did not change one entry"
osm -R file -U "$T/new.dump"
grep -q "file tables configured" "$T/osm/osm.log" || fail "file engine did not route"
sim_client "$IBTOPO" --db "$DB" discover --routes --label new >/dev/null \
	2>"$T/disc.err" || fail "discover --routes: $(cat "$T/disc.err")"
sim_stop

run 0 "$IBTOPO" --db "$DB" diff old old --format json
run 1 "$IBTOPO" --db "$DB" diff old new --format json
cp "$T/out" "$T/diff.json"
leaf=$(awk '/^Unicast/ && /\(.leaf01.\)/ { print $9; exit }' "$T/old.dump")
json_get '"\n".join(sorted("%s %s %s" % (f["kind"], f["a"]["node"],
	f.get("lid", f["a"].get("port"))) for f in j["findings"]
	if f["kind"].startswith("route")))' <"$T/diff.json" >"$T/got"
# the spines' ports down to LID 14's leaf carry one route more or less
down=$(awk '/^Unicast/ { sw = $0; sub(/.*\(./, "", sw); sub(/.\).*/, "", sw) }
	sw ~ /^spine/ && $1 == "0x000e" { print "route-load-changed", sw, $2 + 0 }' \
	"$T/old.dump")
[ "$(count_lines "$down")" = 2 ] || fail "no spine entries for LID 14"
printf '%s\n' "route-changed leaf01 14" "route-load-changed leaf01 $((from))" \
	"route-load-changed leaf01 $((to))" "$down" | sort >"$T/want"
same "$T/want" "$T/got" "route changes of one edited entry"
info "leaf01 (${leaf:-?}) LID 14: port $((from)) -> $((to))"
run 1 "$IBTOPO" --db "$DB" diff old new
grep -q 'route-changed' "$T/out" || flunk "text diff: no route-changed"
exit "$failed"
