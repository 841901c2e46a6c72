#!/bin/sh
# speeds-sim.sh - every speed and width ibsim can train (SDR, DDR, QDR,
# FDR, EDR, HDR; 1x, 4x, 12x; tests/data/sim-speeds.net) comes out of
# `ibtopo discover` as stated, and exactly as infiniband-diags'
# ibnetdiscover decodes the same PortInfo.
. "${top_srcdir:-.}/tests/lib.sh"
sim_require
python_require
[ -n "$IBNETDISCOVER" ] || skip "ibnetdiscover not found (infiniband-diags)"

sim_start_as "$DATA/sim-speeds.net" qdr
sim_client "$IBTOPO" --db "$DB" discover >/dev/null 2>"$TESTDIR/err" ||
	{ cat "$TESTDIR/err"; fail "discover"; }
"$IBTOPO" --db "$DB" show --format json links | links_brief >"$TESTDIR/got" ||
	fail "show links"
cat >"$TESTDIR/want" <<'EOT'
ddr:1 sw1:2 DDR 4x
edr:1 sw1:4 EDR 4x
fdr:1 sw1:3 FDR 4x
qdr:1 sw1:1 QDR 4x
sdr1x:1 sw1:6 SDR 1x
sw1:5 x12:1 HDR 12x
sw1:7 sw2:1 HDR 4x
EOT
diff -u "$TESTDIR/want" "$TESTDIR/got" || fail "links differ from the net file"

# The same links as ibnetdiscover prints them: switch port lines are
#   [port]  "<peer id>"[peer port](guid)  # "<peer desc>" lid N <W>x<SPEED>
sim_client "$IBNETDISCOVER" >"$TESTDIR/topo" 2>/dev/null || fail "ibnetdiscover"
"$PYTHON3" -c '
import re, sys
rows, sw = [], None
for line in open(sys.argv[1]):
    m = re.match(r"Switch\s+\d+\s+\"[^\"]*\"\s+#\s+\"([^\"]*)\"", line)
    if m:
        sw = m.group(1)
        continue
    if not line.strip():
        sw = None
    m = re.match(r"\[(\d+)\].*\"[^\"]*\"\[(\d+)\].*#\s+\"([^\"]*)\"\s+lid\s+\d+\s+(\d+)x(\w+)", line)
    if sw and m:
        ends = sorted(["%s:%s" % (sw, m.group(1)), "%s:%s" % (m.group(3), m.group(2))])
        rows.append("%s %s %s %sx" % (ends[0], ends[1], m.group(5), m.group(4)))
print("\n".join(sorted(set(rows))))
' "$TESTDIR/topo" >"$TESTDIR/diags" || fail "parse ibnetdiscover"
diff -u "$TESTDIR/diags" "$TESTDIR/got" || fail "links differ from ibnetdiscover"
exit 0
