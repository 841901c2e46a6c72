#!/bin/sh
# analyze-port-states.sh - linked ports that are not Active are findings
# (issue 23, item 1). tf-iblinkinfo-init.txt (iblinkinfo under ibsim with
# spine02[2]-leaf02[8] in Init) has one such link: one port-not-active
# error naming both ends, and analyze exits 1. The same dump with every
# port Init, as before any subnet manager ran, is one finding for the
# fabric, not one per port. With every port Active: none.
set -u
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
IBL=$DATA/tf-iblinkinfo.txt
INIT=$DATA/tf-iblinkinfo-init.txt
unset IBTOPO_DB
LC_ALL=C
export LC_ALL

# kinds[detail, links, a, b] of the port-not-active findings
states() {
	json_get '[(f["detail"], f["links"], f["a"]["node"], f["a"]["port"],
	f["b"]["node"], f["b"]["port"]) for f in j["findings"]
	if f["kind"] == "port-not-active"]' <"$tmp/out"
}

# ---- one link Init
run 1 "$IBTOPO" analyze --format json "$INIT"
[ "$(states)" = "[('link-not-active', 1, 'spine02', 2, 'leaf02', 8)]" ] ||
	flunk "one Init link: $(states)"
json_get '[f["message"] for f in j["findings"] if f["kind"] == "port-not-active"][0]' \
	<"$tmp/out" >"$tmp/msg"
grep -q "'spine02' port 2 is Init and 'leaf02' port 8 is Init" "$tmp/msg" &&
	grep -q 'subnet manager' "$tmp/msg" ||
	flunk "one Init link, message: $(cat "$tmp/msg")"
run 1 "$IBTOPO" analyze "$INIT"
grep -q '^port-not-active ' "$tmp/out" || flunk "text: $(cat "$tmp/out")"

# ---- nothing Active: no subnet manager, one finding
sed 's/ Active\//   Init\//' "$IBL" >"$tmp/nosm.txt"
grep -q 'Active' "$tmp/nosm.txt" && flunk "nosm.txt still has Active ports"
run 1 "$IBTOPO" analyze --format json "$tmp/nosm.txt"
[ "$(states)" = "[('no-subnet-manager', 9, None, None, None, None)]" ] ||
	flunk "no subnet manager: $(states)"
grep -q 'no subnet manager has configured this fabric: all 9 links are up but none is Active' \
	"$tmp/out" || flunk "no subnet manager, message: $(head -c 400 "$tmp/out")"

# ---- every port Active
run 0 "$IBTOPO" analyze --format json "$IBL"
[ "$(states)" = "[]" ] || flunk "all Active: $(states)"
exit "$failed"
