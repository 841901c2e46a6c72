#!/bin/sh
# analyze-servers.sh - the server policy of `ibtopo analyze --servers`:
# a healthy cluster of single-homed servers is one info finding (the
# JSON lists the servers) and passes --fail-on warning; --servers dual
# makes each a warning; a dual-homed fabric's odd single-homed server is
# a warning by default.
. "$top_srcdir/tests/lib.sh"
python_require
GEN="$top_builddir/tests/gen/gen-fabric"
[ -x "$GEN" ] || skip "tests/gen/gen-fabric not built"

"$GEN" --format ibnetdiscover --leaves 4 --spines 2 --hosts 3 ft2 \
	>"$TESTDIR/single.topo" || fail "gen-fabric ft2"
"$GEN" --format ibnetdiscover --leaves 4 --spines 2 --hosts 2 --dual ft2 \
	>"$TESTDIR/dual.topo" || fail "gen-fabric ft2 --dual"

# single-homed by majority: exit 0 even with --fail-on warning
"$IBTOPO" analyze --fail-on warning --format json "$TESTDIR/single.topo" \
	>"$TESTDIR/single.json" 2>"$TESTDIR/err" ||
	fail "healthy single-homed cluster, --fail-on warning: exit $? $(cat "$TESTDIR/err")"
got=$(json_get '(j["topology"]["server_policy"]["policy"],
	j["topology"]["server_policy"]["from"],
	j["topology"]["server_policy"]["single_homed"],
	len(j["topology"]["server_policy"]["single_homed_servers"]),
	j["topology"]["server_policy"]["single_homed_servers"][0]["node"],
	[(f["severity"], f.get("detail"), f["message"].split()[0]) for f in j["findings"]])' \
	<"$TESTDIR/single.json")
[ "$got" = "('single', 'majority', 12, 12, 'host0001 mlx5_0', [('info', 'single-homed', '12')])" ] ||
	fail "single-homed cluster json: $got"
"$IBTOPO" analyze "$TESTDIR/single.topo" >"$TESTDIR/single.txt" || fail "text"
grep -q '^Servers: 12; 12 single-homed (all links on one switch: 12 with one link, 0 with several), 0 multi-homed; policy single-homed (most servers are)$' \
	"$TESTDIR/single.txt" || fail "text servers line: $(grep '^Servers' "$TESTDIR/single.txt")"

# the servers line and the finding count the single-homed alike (issue 23:
# "0 with all links on one switch" sat next to "144 servers are
# single-homed (all links on one switch)"): a real QDR dump, 143 servers
# with one link and one with two links to one switch
"$IBTOPO" analyze "$REAL/qdr-hosts-fdr10-isls.topo" >"$TESTDIR/qdr.txt" 2>/dev/null
grep -q '^Servers: 144; 144 single-homed (all links on one switch: 143 with one link, 1 with several), 0 multi-homed;' \
	"$TESTDIR/qdr.txt" || fail "qdr servers line: $(grep '^Servers' "$TESTDIR/qdr.txt")"
grep -q ' 144 servers are single-homed (all links on one switch)' \
	"$TESTDIR/qdr.txt" || fail "qdr finding: $(grep 'single-homed' "$TESTDIR/qdr.txt")"

# the site asks for dual-homed servers: twelve warnings, exit 1
"$IBTOPO" analyze --servers dual --fail-on warning --format json \
	"$TESTDIR/single.topo" >"$TESTDIR/dual-policy.json" 2>/dev/null
[ $? -eq 1 ] || fail "--servers dual --fail-on warning: wanted exit 1"
got=$(json_get '(j["topology"]["server_policy"]["from"],
	len(j["topology"]["server_policy"]["single_homed_servers"]),
	sum(f.get("detail") == "single-link" and f["severity"] == "warning" for f in j["findings"]))' \
	<"$TESTDIR/dual-policy.json")
[ "$got" = "('option', 0, 12)" ] || fail "--servers dual: $got"

# a dual-homed fabric: clean; with one single-homed server, it is named
"$IBTOPO" analyze --fail-on warning "$TESTDIR/dual.topo" >/dev/null 2>&1 ||
	fail "dual-homed fabric: wanted exit 0"
python3 - "$TESTDIR/dual.topo" >"$TESTDIR/odd.topo" <<'PY' || fail "plant"
import sys
# host0001's second adapter and its cable go: the server is single-homed
blocks = open(sys.argv[1]).read().split("\n\n")
blocks = [b for b in blocks if not any(l.startswith("Ca") and
                                        '"host0001 mlx5_1"' in l
                                        for l in b.split("\n"))]
text = "\n\n".join(blocks)
sys.stdout.write("\n".join(l for l in text.split("\n")
                            if '"host0001 mlx5_1"' not in l))
PY
"$IBTOPO" analyze --fail-on warning --format json "$TESTDIR/odd.topo" \
	>"$TESTDIR/odd.json" 2>/dev/null
[ $? -eq 1 ] || fail "dual-homed fabric with a single-homed server: wanted exit 1"
got=$(json_get '(j["topology"]["server_policy"]["policy"],
	[(f["a"]["node"], f.get("detail")) for f in j["findings"] if f["kind"] == "low-path-diversity"])' \
	<"$TESTDIR/odd.json")
[ "$got" = "('dual', [('host0001 mlx5_0', 'single-link')])" ] || fail "odd server: $got"

"$IBTOPO" analyze --servers triple "$TESTDIR/single.topo" >/dev/null 2>"$TESTDIR/err"
[ $? -eq 2 ] || fail "--servers triple: wanted exit 2"
grep -q "unknown --servers 'triple'" "$TESTDIR/err" || fail "message: $(cat "$TESTDIR/err")"
exit 0
