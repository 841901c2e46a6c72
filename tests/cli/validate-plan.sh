#!/bin/sh
# validate-plan.sh - `ibtopo plan fat-tree`: the plan and ibsim outputs of
# a small fat tree (golden), a 3-level tree's counts, the plan read back as
# a fabric, and every shape the radix cannot hold refused with the reason.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
tmp=$TESTDIR
test_env


# The plan file and the net file of 2 leaves x 3 hosts, 2 spines.
run 0 "$IBTOPO" plan fat-tree --leaves 2 --spines 2 --hosts-per-leaf 3 --uplinks 2 &&
	same "$GOLDEN/dv-plan.topo" "$tmp/out"
run 0 "$IBTOPO" plan fat-tree --leaves 2 --spines 2 --hosts-per-leaf 3 \
	--uplinks 2 --format ibsim &&
	same "$GOLDEN/dv-plan.net" "$tmp/out"
run 0 "$IBTOPO" plan fat-tree --leaves 2 --spines 2 --hosts-per-leaf 3 \
	--uplinks 2 -o "$tmp/p.topo" && same "$GOLDEN/dv-plan.topo" "$tmp/p.topo"
[ -s "$tmp/out" ] && flunk "-o FILE also wrote to standard output"

# A plan reads back as the fabric it describes, and validates against
# itself and against its own ibsim net file.
run 0 "$IBTOPO" show --format csv "$GOLDEN/dv-plan.topo" links &&
	[ "$(wc -l <"$tmp/out")" -eq 11 ] || flunk "plan: expected 10 links"
grep -q '^leaf01,.*,4,spine01,.*,1,HDR,4x,' "$tmp/out" ||
	grep -q '^spine01,.*,1,leaf01,.*,4,HDR,4x,' "$tmp/out" ||
	flunk "plan: leaf01 port 4 should go to spine01 port 1 at 4xHDR"
run 0 "$IBTOPO" validate "$GOLDEN/dv-plan.topo" "$GOLDEN/dv-plan.topo"
run 0 "$IBTOPO" validate "$GOLDEN/dv-plan.topo" "$GOLDEN/dv-plan.net"

# Speeds and widths other than the default are stated in the trailers;
# ibsim gets the masks that train them.
run 0 "$IBTOPO" plan fat-tree --leaves 1 --spines 1 --hosts-per-leaf 1 \
	--speed EDR --width 1x &&
	grep -q '^\[1\]	"host1*"\[1\]		# "host1*" lid 0 1xEDR$' "$tmp/out" ||
	grep -q '1xEDR$' "$tmp/out" || flunk "--speed EDR --width 1x not in the trailers"
run 0 "$IBTOPO" plan fat-tree --leaves 1 --spines 1 --hosts-per-leaf 1 \
	--speed EDR --width 1x --format ibsim &&
	grep -q '^width=1$' "$tmp/out" && grep -q '^extspeed=3$' "$tmp/out" ||
	flunk "--format ibsim: wrong global masks for 1xEDR"

# Three levels: radix 4, 2 pods of 2 leaves and 2 spines, 4 cores.
run 0 "$IBTOPO" plan fat-tree --levels 3 --radix 4 --pods 2 --leaves 2 \
	--spines 2 --hosts-per-leaf 2 -o "$tmp/l3.topo"
run 0 "$IBTOPO" show --format csv "$tmp/l3.topo" nodes
[ "$(grep -c '^switch,' "$tmp/out")" -eq 12 ] || flunk "3 levels: expected 12 switches"
[ "$(grep -c '^ca,' "$tmp/out")" -eq 8 ] || flunk "3 levels: expected 8 hosts"
grep -q ",core04," "$tmp/out" || flunk "3 levels: no core04"

# Shapes that do not fit: one line naming the reason, exit 2.
refused() {	# refused "MESSAGE" ARGS...
	msg=$1
	shift
	run 2 "$IBTOPO" plan fat-tree "$@" || return
	[ -s "$tmp/out" ] && flunk "'$*' wrote output"
	head -n 1 "$tmp/err" | grep -qF "ibtopo: $msg" ||
		{ flunk "'$*': wanted 'ibtopo: $msg'"; sed 's/^/  stderr: /' "$tmp/err"; }
}
refused "leaves need 42 ports (30 hosts + 12 uplinks) but the radix is 40" \
	--leaves 4 --spines 2 --hosts-per-leaf 30 --uplinks 12
refused "'--uplinks 8' is not a multiple of '--spines 3': every leaf needs the same number of cables to each spine" \
	--leaves 4 --spines 3 --hosts-per-leaf 8 --uplinks 8
refused "spines need 41 ports (41 leaves x 1 cable) but the radix is 40" \
	--leaves 41 --spines 20 --hosts-per-leaf 20
refused "leaves need 40 ports (20 hosts + 20 uplinks) but the radix is 36" \
	--leaves 2 --spines 2 --hosts-per-leaf 20 --radix 36
refused "core switches need 10 ports (one per pod) but the radix is 8" \
	--levels 3 --radix 8 --pods 10 --leaves 4 --spines 4 --hosts-per-leaf 4
refused "ibsim cannot simulate FDR10 links" \
	--leaves 1 --spines 1 --hosts-per-leaf 1 --speed FDR10 --format ibsim
refused "fat-tree needs --spines" --leaves 2 --hosts-per-leaf 2
refused "unknown speed 'QQR'" --leaves 2 --spines 1 --hosts-per-leaf 2 --speed QQR
refused "bad --leaves 'x': expected a count" --leaves x --spines 1 --hosts-per-leaf 2
refused "'--pods' needs '--levels 3'" --leaves 2 --spines 1 --hosts-per-leaf 2 --pods 2
run 2 "$IBTOPO" plan star --leaves 2
grep -q "unknown shape 'star'" "$tmp/err" || flunk "plan star: no clear error"
run 2 "$IBTOPO" plan fat-tree --leaves 1 --spines 1 --hosts-per-leaf 1 -o "$tmp/no/such/dir/p"
grep -q "cannot write '$tmp/no/such/dir/p'" "$tmp/err" || flunk "unwritable -o: no clear error"
run 0 "$IBTOPO" plan --help
grep -q 'fat-tree' "$tmp/out" || flunk "plan --help does not describe fat-tree"

exit $failed
