#!/bin/sh
# validate-files.sh - `ibtopo validate` on files: a plan against
# ibnetdiscover dumps of its simulation (hosts described "hostNNN mlx5_0",
# matched with --match), clean and recabled, in JSON and CSV (golden); a
# real fabric against itself and against a copy with two cables swapped;
# usage errors.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
PYTHON3=${PYTHON3:-$(command -v python3)}
test_env


PLAN=$GOLDEN/dv-plan.topo
M='^([^ ]+)'

# The fabric as planned, hosts described as the OS does: clean only with
# --match; without it every host is missing and another is extra.
run 0 "$IBTOPO" validate --match "$M" "$PLAN" "$DATA/dv-before.topo"
run 0 "$IBTOPO" validate --match "$M" "$PLAN" "$DATA/dv-before.topo" --format json &&
	printf '{"schema_version":2,"findings":[]}\n' >"$tmp/want" &&
	same "$tmp/want" "$tmp/out"
run 1 "$IBTOPO" validate "$PLAN" "$DATA/dv-before.topo" --format csv &&
	[ "$(grep -c '^missing-node,' "$tmp/out")" -eq 6 ] &&
	[ "$(grep -c '^extra-node,' "$tmp/out")" -eq 6 ] ||
	flunk "without --match: expected 6 missing and 6 extra hosts"

# Recabled: host006 gone, host007 new, leaf01 ports 1 and 2 swapped, the
# leaf02-spine02 cable moved to leaf02 port 7, leaf01-spine02 unplugged,
# leaf01-spine01 at EDR.
run 1 "$IBTOPO" validate --match "$M" "$PLAN" "$DATA/dv-after.topo" --format json &&
	same "$GOLDEN/dv-validate.json" "$tmp/out"
run 1 "$IBTOPO" validate --match "$M" "$PLAN" "$DATA/dv-after.topo" --format csv &&
	same "$GOLDEN/dv-validate.csv" "$tmp/out"
run 1 "$IBTOPO" validate --match "$M" "$PLAN" "$DATA/dv-after.topo" &&
	grep -q 'host006' "$tmp/out" && grep -q 'swapped' "$tmp/out" ||
	flunk "text output does not name the missing host and the swap"

# A real fabric dump is its own plan (matched by its real GUIDs) ...
QDR=$REAL/qdr-hosts-fdr10-isls.topo
[ -f "$QDR" ] || flunk "fixture $QDR missing"
if ! "${PYTHON3:-python3}" -c '' 2>/dev/null; then
	echo "SKIP: python3 not found (it swaps two cables)"
	[ $failed -eq 0 ] && exit 77
	exit 1
fi
if [ -f "$QDR" ]; then
	run 0 "$IBTOPO" validate "$QDR" "$QDR"
	# ... and two host cables swapped on switch ib5 are one finding.
	"$PYTHON3" - "$QDR" "$tmp/swapped.topo" <<'EOF'
import sys
sw, h1, h2 = '"S-f4521403001165a0"', '"H-24be05ffff980030"', '"H-24be05ffff982d50"'
lines = open(sys.argv[1]).read().split('\n')
rec = None
for i, l in enumerate(lines):
    if l.startswith(('Switch', 'Ca')):
        rec = l.split('"')[1]
    if '"%s"' % rec == sw and l.startswith('[1]\t' + h1):
        a = i
    if '"%s"' % rec == sw and l.startswith('[2]\t' + h2):
        b = i
    if '"%s"' % rec == h1:
        lines[i] = l.replace(sw + '[1]', sw + '[2]')
    if '"%s"' % rec == h2:
        lines[i] = l.replace(sw + '[2]', sw + '[1]')
lines[a], lines[b] = '[1]' + lines[b][3:], '[2]' + lines[a][3:]
open(sys.argv[2], 'w').write('\n'.join(lines))
EOF
	run 1 "$IBTOPO" validate "$QDR" "$tmp/swapped.topo" --format csv
	[ "$(wc -l <"$tmp/out")" -eq 2 ] || { cat "$tmp/out"; flunk "qdr swap: expected one finding"; }
	grep -q '^miswired-link,error,MF0;ib5:SX6036/U1,0xf4521403001165a0,1,stage112 mlx4_0,0x24be05ffff982d50,1,MF0;ib5:SX6036/U1,0xf4521403001165a0,2,stage114 mlx4_0,0x24be05ffff980030,1,' "$tmp/out" ||
		{ cat "$tmp/out"; flunk "qdr swap: wrong finding"; }
	tr -d '\r' <"$tmp/out" | grep -q ',swapped$' ||
		flunk "qdr swap: detail is not 'swapped'"
fi

# Usage and bad input: exit 2, one line.
run 2 "$IBTOPO" validate
grep -q 'validate needs a PLAN' "$tmp/err" || flunk "no PLAN: unclear error"
run 2 "$IBTOPO" validate "$PLAN" "$DATA/dv-before.topo" extra
grep -q "unexpected argument 'extra'" "$tmp/err" || flunk "3 args: unclear error"
run 2 "$IBTOPO" validate --match '([a-z' "$PLAN" "$DATA/dv-before.topo"
grep -q "^ibtopo: bad --match regex '(\[a-z': " "$tmp/err" || flunk "bad regex: unclear error"
[ -s "$tmp/out" ] && flunk "bad regex: output written"
run 2 "$IBTOPO" validate "$PLAN" "$DATA/dv-before.topo" --format xml
run 2 "$IBTOPO" --db "$tmp/none.db" validate "$tmp/no-such-plan.topo" "$DATA/dv-before.topo"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || flunk "missing plan: not one line"
run 0 "$IBTOPO" validate --help
grep -q -- '--match' "$tmp/out" || flunk "validate --help does not describe --match"

exit $failed
