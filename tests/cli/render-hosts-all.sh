#!/bin/sh
# render-hosts-all.sh - `render --hosts all` (issue 23, item 9) is never
# silently ignored. On a 3-level fat tree of 640 switches the overview is
# drawn (above 100 switches), which counts hosts in their switches'
# groups: --hosts all there is refused with the reason (exit 2, nothing
# written), with --detail groups too; switch by switch it is honoured
# (a cell per host, unlike --hosts collapse).
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
T=$TESTDIR
ft=$T/ft.topo

plan_pods64 "$ft"

for detail in "" "--detail groups"; do
	# shellcheck disable=SC2086 # $detail is zero or two words
	run 2 "$IBTOPO" render --hosts all $detail -o "$T/all.dot" "$ft"
	grep -q "hosts all" "$T/err" && grep -q "overview" "$T/err" ||
		flunk "--hosts all $detail: no reason given: $(cat "$T/err")"
	[ -e "$T/all.dot" ] && flunk "--hosts all $detail: wrote a diagram"
	rm -f "$T/all.dot"
done

# switch by switch, --hosts all draws each host and collapse does not
run 0 "$IBTOPO" render --hosts all --detail switches -o "$T/sw-all.dot" "$ft"
run 0 "$IBTOPO" render --hosts collapse --detail switches -o "$T/sw-col.dot" "$ft"
grep -q 'TITLE="host8192 ' "$T/sw-all.dot" ||
	flunk "--hosts all --detail switches: host8192 not drawn"
grep -q 'TITLE="host8192 ' "$T/sw-col.dot" &&
	flunk "--hosts collapse --detail switches: host8192 drawn alone"
cmp -s "$T/sw-all.dot" "$T/sw-col.dot" && flunk "--hosts all = --hosts collapse"
exit "$failed"
