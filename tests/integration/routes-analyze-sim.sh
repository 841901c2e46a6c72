#!/bin/sh
# routes-analyze-sim.sh - `ibtopo routes` on tables OpenSM programmed under ibsim.
# For ftree, updn, minhop and dor on a 2-level fat tree (the log must say
# "<engine> tables configured": opensm exits 0 when it falls back): every
# CA pair reachable, no fault, the tables read live by dump_fts give the
# same analysis as OpenSM's own opensm-lfts.dump, and the CA routes and
# destination LIDs per switch port equal an independent count: awk
# tracing every pair over the dump and ibnetdiscover's links. ftree has
# no credit loop; minhop on a ring of 6 switches has one. Faults planted
# with OpenSM's file engine (opensm -R file -U DUMP: an entry removed, an
# entry sent back) are found once each at the right switch and port.
# Needs ibsim, libumad2sim, opensm, ibnetdiscover, dump_fts (else SKIP).
. "$top_srcdir/tests/lib.sh"
dump_fts_require
T=$TESTDIR

# awk_count TOPO DUMP: "GUID PORT ROUTES DLIDS" per switch port, counted
# by tracing every CA pair over the dump; "unreachable N" last.
awk_count() {
	awk '
	function hex(s,   v, i, c) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	FNR == NR {
		if ($1 == "Switch" || $1 == "Ca") {
			type = $1; id = $3; gsub(/"/, "", id); next
		}
		if ($1 !~ /^\[/) next
		p = $1; sub(/^\[/, "", p); sub(/\].*/, "", p); p += 0
		if (!match($0, /"[^"]*"\[[0-9]+\]/)) next
		peer = substr($0, RSTART, RLENGTH)
		pid = peer; sub(/\[.*/, "", pid); gsub(/"/, "", pid)
		pp = peer; sub(/.*\[/, "", pp); sub(/\]/, "", pp)
		peer_id[id, p] = pid; peer_port[id, p] = pp + 0
		if (type == "Ca" && match($0, /# lid [0-9]+/)) {
			ca[nca++] = id SUBSEP p
			lid[id SUBSEP p] = substr($0, RSTART + 6, RLENGTH - 6) + 0
			home[id SUBSEP p] = pid
		}
		next
	}
	/^Unicast lids/ {
		match($0, /guid 0x[0-9a-fA-F]+/)
		sw = "S-" substr($0, RSTART + 7, RLENGTH - 7); next
	}
	/^0x/ {
		out = $2 + 0; lft[sw, hex($1)] = out
		if (out > 0) dlids[sw, out]++
		next
	}
	END {
		for (i = 0; i < nca; i++) for (j = 0; j < nca; j++) {
			if (i == j) continue
			s = home[ca[i]]; d = lid[ca[j]]; ok = 0
			for (h = 0; h < 64; h++) {
				if (!((s, d) in lft) || lft[s, d] == 255) break
				out = lft[s, d]; routes[s, out]++
				pid = peer_id[s, out]
				if (pid ~ /^S-/) { s = pid; continue }
				ok = (pid SUBSEP peer_port[s, out]) == ca[j]
				break
			}
			if (!ok) bad++
		}
		for (k in dlids) seen[k] = 1
		for (k in routes) seen[k] = 1
		for (k in seen) {
			split(k, a, SUBSEP)
			printf "0x%s %d %d %d\n", tolower(substr(a[1], 3)), a[2],
				routes[k] + 0, dlids[k] + 0
		}
		printf "unreachable %d\n", bad + 0
	}' "$1" "$2" | sort
}

# ours JSON: the same lines from `routes --format json`
ours() {
	json_get '"\n".join(["%s %d %d %d" % (p["guid"], p["port"], p["routes"],
		p["dlids"]) for p in j["routes"]["ports"]] +
		["unreachable %d" % j["routes"]["unreachable_pairs"]])' <"$1" | sort
}

"$GEN" --radix 36 --leaves 4 --spines 2 --hosts 2 ft2 >"$T/ft2.net" ||
	fail "gen-fabric ft2"
"$GEN" --radix 36 --switches 6 --hosts 2 ring >"$T/ring.net" ||
	fail "gen-fabric ring"

for eng in ftree updn minhop dor; do
	d=$T/$eng
	osm_sweep "$T/ft2.net" "$eng" "$d"
	run 0 "$IBTOPO" routes "$d/fabric.topo" --routes "$d/osm/opensm-lfts.dump" \
		--format json || continue
	cp "$T/out" "$d/routes.json"
	got=$(json_get '"%s %s %s %s %s %s" % (j["routes"]["ca_pairs"],
		j["routes"]["unreachable_pairs"], j["routes"]["black_holes"],
		j["routes"]["loops"], j["routes"]["not_minimal"],
		len(j["findings"]))' <"$d/routes.json")
	[ "$got" = "56 0 0 0 0 0" ] || flunk "$eng: pairs, unreachable, faults: $got"
	[ "$eng" = ftree ] && {
		got=$(json_get 'j["routes"]["credit_loops"]' <"$d/routes.json")
		[ "$got" = 0 ] || flunk "ftree: $got credit loops"
	}
	# read live (dump_fts) = OpenSM's dump
	run 0 "$IBTOPO" routes "$d/fabric.topo" --routes "$d/dump_fts.txt" \
		--format json || continue
	same "$d/routes.json" "$T/out" "$eng: the analysis of dump_fts' tables"
	awk_count "$d/fabric.topo" "$d/osm/opensm-lfts.dump" >"$d/awk"
	ours "$d/routes.json" >"$d/ours"
	same "$d/awk" "$d/ours" "$eng: routes and LIDs per port"
	info "$eng: $(wc -l <"$d/ours") ports counted, as awk counts them"
done

# ---- minhop on a ring: a credit loop each way round
d=$T/ring
osm_sweep "$T/ring.net" minhop "$d"
run 1 "$IBTOPO" routes "$d/fabric.topo" --routes "$d/osm/opensm-lfts.dump" \
	--format json
got=$(json_get '"%s %s %s" % (j["routes"]["credit_loops"],
	j["routes"]["unreachable_pairs"],
	sorted(set(f["kind"] for f in j["findings"])))' <"$T/out")
[ "$got" = "2 0 ['credit-loop']" ] || flunk "ring minhop: $got"
got=$(json_get '" ".join(str(f["links"]) for f in j["findings"])' <"$T/out")
[ "$got" = "6 6" ] || flunk "ring minhop: cycles of $got links, wanted 6 6"

# ---- planted with the file engine, from ftree's dump: LID 14 (host0008)
base=$T/ftree/osm/opensm-lfts.dump
# leaf01 has no entry for it: dropped there
awk '/^Unicast/ { sw = $0 }
	!(sw ~ /\(.leaf01.\)/ && $1 == "0x000e")' "$base" >"$T/hole.dump"
# spine02 sends it back down to leaf01, which sends it up to spine02
awk '/^Unicast/ { sw = $0 }
	{ if (sw ~ /\(.spine02.\)/ && $1 == "0x000e") sub(/^0x000e [0-9]+/, "0x000e 001"); print }' \
	"$base" >"$T/loop.dump"
cmp -s "$base" "$T/hole.dump" && fail "no entry removed"
cmp -s "$base" "$T/loop.dump" && fail "no entry changed"
grep "^0x000e" "$base" | grep -qv ' 002 \| 004 ' &&
	fail "ftree no longer routes LID 14 as this test expects"
for fault in hole loop; do
	d=$T/$fault
	osm_sweep "$T/ft2.net" file "$d" -U "$T/$fault.dump"
	run 1 "$IBTOPO" routes "$d/fabric.topo" --routes "$d/dump_fts.txt" \
		--format json || continue
	json_get '"\n".join("%s %s %s %s %s" % (f["kind"], f["a"]["node"],
		f["a"]["port"], f["lid"], f["routes"]) for f in j["findings"])' \
		<"$T/out" >"$d/found"
	case $fault in
	hole) want="route-black-hole leaf01 255 14 2" ;;
	loop) want="route-loop spine02 1 14 6" ;;
	esac
	printf '%s\n' "$want" >"$d/want"
	same "$d/want" "$d/found" "planted $fault"
done
exit "$failed"
