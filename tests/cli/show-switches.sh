#!/bin/sh
# show-switches.sh - `ibtopo show switches` lists ports as iblinkinfo does
# (a block per switch, --type ca, --switch NAME|GUID, --down: physically
# linked but not active), and `import` reads iblinkinfo output, told from
# its content (issue 18, item 6). tests/data/tf-iblinkinfo.txt is
# iblinkinfo run under ibsim on tests/data/sim-small.net after one opensm
# sweep; tf-iblinkinfo-init.txt the same with spine02[2]-leaf02[8] in
# Init; tf-iblinkinfo-l.txt the first lines of `iblinkinfo -l`.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
IBL=$DATA/tf-iblinkinfo.txt
INIT=$DATA/tf-iblinkinfo-init.txt
IBTOPO_DB=$tmp/db
export IBTOPO_DB
LC_ALL=C
export LC_ALL

# ---- import: detected, the same links as ibnetdiscover's cache of it
run 0 "$IBTOPO" import "$IBL" && grep -q '^snapshot 1: 4 switches, 4 CAs, 0 routers, 9 links' "$tmp/out" ||
	flunk "import: $(cat "$tmp/out")"
linkset() {
	"$IBTOPO" show "$1" links --format csv | tr -d '\r' | sed 1d |
		awk -F, '{ print $1, $3, $4, $6, $7, $8 }' | sort
}
linkset "$DATA/sim-small.cache" >"$tmp/cache.links"
linkset latest >"$tmp/ibl.links"
same "$tmp/cache.links" "$tmp/ibl.links" "links of the cache and of iblinkinfo"
run 0 "$IBTOPO" import --input-format iblinkinfo "$IBL"
run 2 "$IBTOPO" import "$DATA/tf-iblinkinfo-l.txt" &&
	grep -q "tf-iblinkinfo-l.txt:1: iblinkinfo's one-line mode (-l)" "$tmp/err" ||
	flunk "-l output: $(cat "$tmp/err")"

# ---- show switches: a block per switch, every port
run 0 "$IBTOPO" show "$IBL" switches
[ "$(grep -c '^Switch: ' "$tmp/out")" -eq 4 ] || flunk "switch blocks: $(grep '^Switch' "$tmp/out")"
grep -q '^CA: ' "$tmp/out" && flunk "CAs among the switches"
grep -q '^Switch: 0x0000000000200002 leaf01 (LID 5)$' "$tmp/out" || flunk "leaf01 header: $(cat "$tmp/out")"
grep -q '^    3  4x HDR 200 Gb/s .* active/linkup .* ==> host03 port 1 (0x0000000000100006)$' "$tmp/out" &&
	flunk "host03 is 1x"
grep -E -q '^    3  1x HDR 50 Gb/s +active/linkup +==> host03 port 1 \(0x0000000000100006\)$' "$tmp/out" ||
	flunk "leaf01 port 3: $(grep -A4 leaf01 "$tmp/out")"
grep -E -q '^    4 +down/polling$' "$tmp/out" || flunk "a down port"
[ "$(grep -c '==>' "$tmp/out")" -eq 13 ] || flunk "linked switch ports: $(grep -c '==>' "$tmp/out")"

# ---- --down: physically linked, not active
run 0 "$IBTOPO" show "$IBL" switches --down && stdout_is "no ports"
run 0 "$IBTOPO" show "$INIT" switches --down
grep -E '^ +[0-9]' "$tmp/out" | sed 's/  */ /g' >"$tmp/down"
printf '%s\n' " 2 4x EDR 100 Gb/s init/linkup ==> leaf02 port 8 (0x0000000000200003)" \
	" 8 4x EDR 100 Gb/s init/linkup ==> spine02 port 2 (0x0000000000200001)" >"$tmp/want"
same "$tmp/want" "$tmp/down" "--down"

# ---- --type ca, --switch by name and by GUID
run 0 "$IBTOPO" show "$IBL" switches --type ca
[ "$(grep -c '^CA: ' "$tmp/out")" -eq 4 ] || flunk "--type ca: $(cat "$tmp/out")"
run 0 "$IBTOPO" show "$IBL" switches --switch spine02
[ "$(grep -c '^[A-Z]' "$tmp/out")" -eq 1 ] && grep -q '^Switch: 0x0000000000200001 spine02' "$tmp/out" ||
	flunk "--switch spine02: $(cat "$tmp/out")"
run 0 "$IBTOPO" show "$IBL" switches --switch 0x0000000000200001
grep -q '^Switch: 0x0000000000200001 spine02' "$tmp/out" || flunk "--switch GUID"
run 2 "$IBTOPO" show "$IBL" switches --switch spine09 && grep -q "spine09" "$tmp/err" ||
	flunk "--switch spine09: $(cat "$tmp/err")"
run 2 "$IBTOPO" show "$IBL" switches --type router
run 2 "$IBTOPO" show "$IBL" links --down

# ---- machine formats: one row per port
run 0 "$IBTOPO" show "$INIT" switches --down --format csv
tr -d '\r' <"$tmp/out" >"$tmp/csv"
printf '%s\n' "node,guid,type,port,port_guid,lid,state,phys_state,width,speed,gbps,width_supported,width_enabled,speed_supported,speed_enabled,peer.node,peer.guid,peer.port,pkeys" \
	"spine02,0x0000000000200001,switch,2,,,init,linkup,4x,EDR,100,,,,,leaf02,0x0000000000200003,8," \
	"leaf02,0x0000000000200003,switch,8,,,init,linkup,4x,EDR,100,,,,,spine02,0x0000000000200001,2," >"$tmp/want"
same "$tmp/want" "$tmp/csv" "--down CSV"
run 0 "$IBTOPO" show "$IBL" switches --switch host01 --format json
grep -q '^{"schema_version":2,"ports":\[{"node":"host01","guid":"0x0000000000100001","type":"ca","port":1,"port_guid":"0x0000000000100001","lid":2,"state":"active","phys_state":"linkup","width":"4x","speed":"HDR","gbps":200' "$tmp/out" ||
	flunk "JSON: $(head -c 300 "$tmp/out")"
# one schema under one key (issue 23, item 16): each port of `show
# switches` is the same object as in `show ports`
cp "$tmp/out" "$tmp/sw.json"
run 0 "$IBTOPO" show "$IBL" ports --format json
got=$(json_get '[p for p in j["ports"] if p["node"] == "host01" and p["port"] > 0] == __import__("json").load(open("'"$tmp/sw.json"'"))["ports"]' <"$tmp/out")
[ "$got" = True ] || flunk "show switches and show ports differ on host01's ports"
exit "$failed"
