#!/bin/sh
# health-ber.sh - `ibtopo health --since REF`: the bit error rate of each
# link and the ports that wait to send. Ten seconds apart on 4xHDR
# (53.125 Gb/s a lane: 2.125e12 bits each way):
#   leaf01 39 receives 85 symbol errors from spine01 1: BER 4e-11, above
#     the 1e-12 default: high-ber, and nothing else has one;
#   spine01 3 -> leaf02 39 waits 3,125,000,000 ticks (8 bytes each, as
#     ibdiagnet counts on Quantum: 2.5e10 of the link's 2.5e11 bytes,
#     10%, above the 5% default) while it sends 5e9 bytes (ratio 5):
#     congested-port, a spine (level 2) down-link; spine01 1 waits 1000
#     ticks, far below;
#   the link without symbol errors: BER below 1/2.125e12, never 0.
# Thresholds BER.HDR= and XmitWaitShare= move the limits; the CSV has
# the BER and the waiting per port.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
test_env db
topo=$DATA/ck-cables.topo

copy_at "$DATA/hc-ber-1.txt" "$tmp/t1.txt" '2026-01-01 10:00:00 UTC'
copy_at "$DATA/hc-ber-2.txt" "$tmp/t2.txt" '2026-01-01 10:00:10 UTC'
run 0 "$IBTOPO" import "$topo" --counters "$tmp/t1.txt"
run 0 "$IBTOPO" import "$topo" --counters "$tmp/t2.txt"

run 1 "$IBTOPO" health 2 --since 1 --format json
cp "$tmp/out" "$tmp/h.json"
cat >"$tmp/check.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def near(x, y):
    return abs(x - y) <= 1e-5 * abs(y)  # JSON reals: 6 digits
def end(e):
    return "%s:%s" % (e["node"], e["port"])
got = sorted((f["kind"], end(f["a"]), end(f["b"])) for f in j["findings"]
             if f["kind"] in ("high-ber", "congested-port"))
assert got == [("congested-port", "spine01:3", "leaf02:39"),
               ("high-ber", "leaf01:39", "spine01:1")], got
f = [f for f in j["findings"] if f["kind"] == "high-ber"][0]
assert near(f["measure"], 85 / (10 * 4 * 53.125e9)), f
assert f["threshold"] == 1e-12 and f["interval_s"] == 10, f
assert "4e-11" in f["message"] and "10 s" in f["message"], f["message"]
f = [f for f in j["findings"] if f["kind"] == "congested-port"][0]
assert near(f["measure"], 0.1) and f["threshold"] == 0.05, f
# one interval unit for every port and link (issue 33, item 12)
for p in j["ports"]:
    assert p["interval_s"] == 10 and near(p["interval_h"], 10 / 3600), p
for l in j["traffic"]["links"] + j["links"]:
    assert l["interval_s"] == 10, l
links = {end(l["a"]): l for l in j["links"]}
assert sorted(links) == ["leaf01:39", "spine01:3"], sorted(links)
l = links["leaf01:39"]
assert near(l["ber"], 4e-11) and l["ber_upper_bound"] is None, l
assert l["symbol_errors"] == 85 and l["lanes"] == 4, l
assert l["lane_gbps"] == 53.125 and l["speed"] == "HDR", l
l = links["spine01:3"]
assert l["ber"] is None and near(l["ber_upper_bound"], 1 / 2.125e12), l
c = j["congestion"]
assert c["threshold"] == 0.05 and c["ports_waiting"] == 2, c
p = c["ports"][0]
assert end(p) == "spine01:3" and p["xmit_wait"] == 3125000000, p
assert near(p["xmit_wait_per_s"], 3.125e8) and near(p["xmit_wait_ratio"], 5), p
assert p["level"] == 2 and p["direction"] == "down", p
assert end(c["ports"][1]) == "spine01:1", c["ports"][1]
ports = {end(p): p for p in j["ports"]}
assert near(ports["leaf01:39"]["ber"], 4e-11)
assert ports["spine01:1"]["ber"] is None
assert near(ports["spine01:1"]["ber_upper_bound"], 1 / 2.125e12)
print("ok")
PY
out=$("$PYTHON3" "$tmp/check.py" "$tmp/h.json" 2>&1) || flunk "JSON: $out"

# text: the link's BER, the bound of the rest, the congested down-links
run 1 "$IBTOPO" health 2 --since 1
grep -q '^  leaf01 port 39 <- spine01 port 1  BER 4e-11 HIGH  (85 symbol errors in 10 s, 4x HDR at 53.125 Gb/s a lane; threshold 1e-12)$' "$tmp/out" ||
	flunk "text BER: $(cat "$tmp/out")"
grep -q '^  1 link without symbol errors: BER below 1/(bits in the interval), 4.7e-13 or less$' "$tmp/out" ||
	flunk "text bound: $(cat "$tmp/out")"
grep -q '^  spine01 port 3 -> leaf02 port 39  3.12e+08/s  10.0% CONGESTED  5  (level 2 down-link)$' "$tmp/out" ||
	flunk "text congestion: $(cat "$tmp/out")"
grep -q '^  congested: level 2 down-links, 1 port$' "$tmp/out" ||
	flunk "text where: $(cat "$tmp/out")"

# CSV: ber and ber_upper_bound per port
run 1 "$IBTOPO" health 2 --since 1 --format csv
got=$("$PYTHON3" -c '
import csv, sys
r = {(x["node"], x["port"]): x for x in csv.DictReader(open(sys.argv[1]))}
a, b = r[("leaf01", "39")], r[("spine01", "3")]
print(a["ber"], a["ber_upper_bound"], b["ber"] == "", b["xmit_wait_share"],
      a["interval_s"])
' "$tmp/out")
[ "$got" = "4e-11  True 0.1 10.000" ] || flunk "CSV: $got"

# thresholds: BER.HDR and XmitWaitShare above the measures
printf 'BER.HDR=1e-10\nXmitWaitShare=0.2\n' >"$tmp/thr"
run 1 "$IBTOPO" health 2 --since 1 --thresholds "$tmp/thr" --format json
got=$(json_get '[f["kind"] for f in j["findings"] if f["kind"] in ("high-ber", "congested-port")]' <"$tmp/out")
[ "$got" = "[]" ] || flunk "thresholds kept $got"
# BER= sets every speed; BER.EDR does not reach HDR links
printf 'BER=1e-10\nBER.EDR=1e-15\n' >"$tmp/thr"
run 1 "$IBTOPO" health 2 --since 1 --thresholds "$tmp/thr" --format json
got=$(json_get '[f["kind"] for f in j["findings"] if f["kind"] == "high-ber"]' <"$tmp/out")
[ "$got" = "[]" ] || flunk "BER= kept $got"
printf 'BER.HDR=much\n' >"$tmp/thr"
run 2 "$IBTOPO" health 2 --since 1 --thresholds "$tmp/thr"
grep -q 'thr:1: bad value for BER.HDR (a number from 0 to 1)' "$tmp/err" ||
	flunk "bad BER: $(cat "$tmp/err")"

# ---- render --heat: that link alone is hot, on each scale
for k in errors ber congestion; do
	run 0 "$IBTOPO" render 2 --since 1 --heat "$k" -o "$tmp/$k.dot"
	got=$(grep -- ' -> ' "$tmp/$k.dot" | grep -v 'color="#fed976"' |
		sed -n 's/.*tooltip="\([^:]*\):.*/\1/p' | tr '\n' ' ')
	case $k in
	congestion) want='spine01 -- leaf02 ' ;; # two cables, one line
	*) want='spine01 [1] -- leaf01 [39] ' ;;
	esac
	[ "$got" = "$want" ] || flunk "--heat $k: hot links '$got'"
done
grep -q 'color="#fd8d3c".*errors 85' "$tmp/errors.dot" || flunk "--heat errors: 85 not 10-99"
grep -q '1000 or more' "$tmp/errors.dot" || flunk "--heat errors: no scale in the legend"
grep -q 'color="#bd0026".*BER 40 of its threshold' "$tmp/ber.dot" || flunk "--heat ber: not above"
# the problems: health's findings are drawn (and tabled) with the heat
grep -q 'high-ber\|cable problem' "$tmp/ber.dot" || flunk "--heat ber: no finding drawn"
run 0 "$IBTOPO" render 2 --since 1 --heat traffic -o "$tmp/t.dot"
got=$(grep -- ' -> ' "$tmp/t.dot" | grep -v 'style=invis' | grep -vc 'color="#fed976"')
[ "$got" = 0 ] || flunk "--heat traffic: $got links above 10%"
run 2 "$IBTOPO" render 2 --heat ber -o "$tmp/x.dot"
grep -q 'needs --since REF' "$tmp/err" || flunk "--heat ber without --since"
# --history charts in the HTML page: any other picture is refused, not
# drawn without them (issue 33)
for o in x.png x.svg x.pdf x.dot; do
	run 2 "$IBTOPO" render 2 --heat errors --history -o "$tmp/$o"
	grep -q -- '--history charts the ports in the HTML page only' "$tmp/err" ||
		flunk "--history -o $o: $(cat "$tmp/err")"
	[ ! -e "$tmp/$o" ] || flunk "--history -o $o: wrote it"
done
run 2 "$IBTOPO" render 2 --heat errors --history --format png -o "$tmp/x.html"
run 0 "$IBTOPO" render 2 --heat errors --history --format html -o "$tmp/h.page"
grep -q '^"history":\[$' "$tmp/h.page" || flunk "--history --format html: no history"
run 2 "$IBTOPO" render 2 --since 1 -o "$tmp/x.dot"

# ---- --history: the cable leaf01 39 <-> spine01 1 in both snapshots
copy_at "$DATA/hc-ber-2.txt" "$tmp/t3.txt" '2026-01-01 10:00:20 UTC'
run 0 "$IBTOPO" import "$topo" --counters "$tmp/t3.txt"
run 0 "$IBTOPO" health --history leaf01:39 --format json
got=$(json_get '" ".join("%s/%d:" % (p["node"], p["port"]) + ",".join(
	"%d:%s:%s:%s" % (s["id"], s["counters"]["SymbolErrorCounter"],
	s.get("growth", {}).get("SymbolErrorCounter"),
	"%.2g" % s["ber"] if s.get("ber") else s.get("ber_upper_bound") and "<")
	for s in p["snapshots"]) for p in j["ports"])' <"$tmp/out")
[ "$got" = "leaf01/39:1:0:None:None,2:85:85:4e-11,3:85:0:< spine01/1:1:0:None:None,2:0:0:<,3:0:0:<" ] ||
	flunk "--history JSON: $got"
# the fabric the snapshots belong to, named as in `ibtopo fabrics`
fab=$("$IBTOPO" fabrics --format json | json_get 'j["fabrics"][0]["name"]')
got=$(json_get 'j.get("fabric")' <"$tmp/out")
[ -n "$fab" ] && [ "$got" = "$fab" ] || flunk "--history JSON fabric: '$got', not '$fab'"
run 0 "$IBTOPO" health --history leaf01:39
grep -q '^  2 .*SymbolErrorCounter=85 (+85)  30600.0 errors/h  BER 4e-11$' "$tmp/out" ||
	flunk "--history text: $(cat "$tmp/out")"
run 0 "$IBTOPO" health --history 'host01 mlx5_0' --format csv
got=$(cut -d, -f1,3,4 "$tmp/out" | tr '\n' ' ')
[ "$got" = "node,port,snapshot host01 mlx5_0,1,1 host01 mlx5_0,1,2 host01 mlx5_0,1,3 leaf01,1,1 leaf01,1,2 leaf01,1,3 " ] ||
	flunk "--history CSV: $got"
run 2 "$IBTOPO" health --history leaf01
grep -q "'leaf01' has 4 linked ports" "$tmp/err" || flunk "--history NODE of a switch: $(cat "$tmp/err")"
run 2 "$IBTOPO" health --history leaf01:39 --since 1
exit "$failed"
