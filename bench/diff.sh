#!/bin/sh
# shellcheck disable=SC2046 # `set -- $(...)` splits on purpose
# bench/diff.sh - time `ibtopo diff` of two snapshots of an 11,664-host
# fabric and `ibtopo validate` of one against its plan, and compare with
# `ibnetdiscover --diff` on cache files of the same two fabrics.
#
#   sh bench/diff.sh                 # from a build directory
#   REPEAT=5 RADIX=24 sh bench/diff.sh
#
# The plan is `ibtopo plan fat-tree --levels 3` of RADIX-port switches
# (default 36: 36 pods, 1,620 switches, 11,664 hosts, 34,992 links); its
# ibsim net file is simulated as fabric A; fabric B is A recabled (two
# cables swapped, one moved, one unplugged, the last host gone, one link
# at EDR). Each is discovered once with `ibtopo discover` (a snapshot) and
# once with `ibnetdiscover -o 16 --cache`. Then, best of REPEAT runs:
#   diff      ibtopo diff A B            (both snapshots from the database)
#   validate  ibtopo validate PLAN A     (plan file and snapshot)
#   ibnetd    ibnetdiscover --load-cache B.cache --diff A.cache
# The load and compare split comes from -v; cpu is the run's user +
# system time. Targets: diff < 0.3 s, validate < 0.5 s.
# Not a test: nothing here asserts; read the figures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${top_srcdir:?}" "${top_builddir:?}" # set by lib.sh
REPEAT=${REPEAT:-3}
RADIX=${RADIX:-36}
SIM_WAIT=${SIM_WAIT:-120}
bench_ibnetdiscover

# cpu: user + system seconds of this shell's finished children so far
# (`times` runs here, not in a subshell, which has no children of its own)
cpu() {
	times >"$TESTDIR/times"
	tail -n 1 "$TESTDIR/times" | awk '{
		t = 0
		for (i = 1; i <= NF; i++) {
			split($i, p, "m")
			sub("s", "", p[2])
			t += p[1] * 60 + p[2]
		}
		printf "%.6f", t
	}'
}

# best WANT_RC CMD...: run REPEAT times, print the shortest wall time and
# the CPU time (user + system) of that run; the last run's stdout and
# stderr stay in $TESTDIR/out and err. CPU time is what a quiet machine's
# wall time would be for one thread: on a busy one, wall includes waiting.
best() {
	want=$1
	shift
	b=
	for _ in $(seq 1 "$REPEAT"); do
		cpu >"$TESTDIR/c0"
		t0=$(now)
		"$@" >"$TESTDIR/out" 2>"$TESTDIR/err"
		rc=$?
		t=$(calc "$(now) - $t0")
		cpu >"$TESTDIR/c1"
		c=$(calc "$(cat "$TESTDIR/c1") - $(cat "$TESTDIR/c0")")
		[ "$rc" -eq "$want" ] || { cat "$TESTDIR/err" >&2; fail "$* exited $rc"; }
		if [ -z "$b" ] || lt "$t" "$b"; then
			b=$t
			bc=$c
			cp "$TESTDIR/err" "$TESTDIR/best.err"
		fi
	done
	echo "$b $bc"
}

# split: "load compare" seconds from the best run's -v step lines (the two
# fabrics load at once: the slower load counts)
split() {
	awk '/^ibtopo: load: .* in [0-9.]+ s$/ { if ($(NF - 1) > l) l = $(NF - 1) }
	     /^ibtopo: compare: .* in [0-9.]+ s$/ { c = $(NF - 1) }
	     END { if (c != "") printf "%s %s\n", l, c }' "$TESTDIR/best.err"
}

half=$((RADIX / 2))
shape="--levels 3 --radix $RADIX --pods $RADIX --leaves $half --spines $half --hosts-per-leaf $half"
# shellcheck disable=SC2086
"$IBTOPO" plan fat-tree $shape -o "$TESTDIR/plan.topo" || fail "plan"
# shellcheck disable=SC2086
"$IBTOPO" plan fat-tree $shape --format ibsim -o "$TESTDIR/a.net" || fail "plan --format ibsim"
leaves=$((RADIX * half))
hosts=$((leaves * half))
lastleaf=$(printf "leaf%0${#leaves}d" "$leaves")
lasthost=$(printf "host%0${#hosts}d" "$hosts")
firstleaf=$(printf "leaf%0${#leaves}d" 1)
thirdleaf=$(printf "leaf%0${#leaves}d" 3)
# the clients run as the plan's first host: bench_sim's h00001 is
# gen-fattree.py's name, not in this net file ("sim_init: connect failed")
SIM_HOST=$(printf "host%0${#hosts}d" 1)
export SIM_HOST
"$PYTHON3" "$top_srcdir/tests/data/dv-netedit.py" "$TESTDIR/a.net" "$TESTDIR/b.net" \
	swap "$firstleaf:1" "$firstleaf:2" \
	rmnode "$lasthost" \
	move "$lastleaf:$((half + 1))" "$lastleaf:$half" \
	unlink "$thirdleaf:$((half + 2))" \
	opt "$firstleaf:$((half + 1))" e=3 || fail "netedit"

switches=$((RADIX * RADIX + half * half))
limits="-N $((switches + hosts + 64)) -S $((switches + 16)) -P $((switches * (RADIX + 1) + hosts * 2 + 256))"
for f in a b; do
	# shellcheck disable=SC2086
	sim_start "$TESTDIR/$f.net" -n $limits
	sim_client "$IBNETDISCOVER" -o 16 --cache "$TESTDIR/$f.cache" >/dev/null 2>"$TESTDIR/err" ||
		{ cat "$TESTDIR/err" >&2; fail "ibnetdiscover --cache on $f"; }
	sim_client "$IBTOPO" --db "$TESTDIR/bench.db" discover --label "$f" >"$TESTDIR/out" 2>"$TESTDIR/err" ||
		{ cat "$TESTDIR/err" >&2; fail "ibtopo discover on $f"; }
	head -1 "$TESTDIR/out" | sed "s/^/# $f: /" >&2
	kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	exec 9>&-
	rm -f "$TESTDIR/console"
done

set -- $(best 1 "$IBTOPO" -v --db "$TESTDIR/bench.db" diff a b)
t_diff=$1 c_diff=$2 s_diff=$(split)
"$IBTOPO" --db "$TESTDIR/bench.db" diff a b --format csv >"$TESTDIR/changes.csv"
set -- $(best 0 "$IBTOPO" -v --db "$TESTDIR/bench.db" validate "$TESTDIR/plan.topo" a)
t_val=$1 c_val=$2 s_val=$(split)
set -- $(best 1 "$IBTOPO" -v --db "$TESTDIR/bench.db" validate "$TESTDIR/plan.topo" b)
t_valb=$1 c_valb=$2 s_valb=$(split)
set -- $(best 0 "$IBNETDISCOVER" --load-cache "$TESTDIR/b.cache" --diff "$TESTDIR/a.cache")
t_ind=$1 c_ind=$2
ind_lines=$(grep -c . "$TESTDIR/out")
set -- $(best 1 "$IBTOPO" -v diff "$TESTDIR/a.cache" "$TESTDIR/b.cache")
t_cache=$1 c_cache=$2 s_cache=$(split)

echo "fabric: $hosts hosts, $switches switches (radix $RADIX, 3 levels); best of $REPEAT"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "changes found by ibtopo diff:"
tr -d '\r' <"$TESTDIR/changes.csv" | tail -n +2 | cut -d, -f1,3,5,6,8 | sed 's/^/  /'
printf '%-34s %8s %8s %8s %8s %8s\n' what wall cpu load compare target
row() {	# row LABEL WALL CPU "LOAD COMPARE" [TARGET]
	printf '%-34s %7.3fs %7.3fs %7.3fs %7.3fs %8s\n' "$1" "$2" "$3" \
		${4:-0 0} "${5:-}"
}
row "ibtopo diff A B (snapshots)" "$t_diff" "$c_diff" "$s_diff" "< 0.3 s"
row "ibtopo validate PLAN A" "$t_val" "$c_val" "$s_val" "< 0.5 s"
row "ibtopo validate PLAN B (faults)" "$t_valb" "$c_valb" "$s_valb"
row "ibtopo diff A.cache B.cache" "$t_cache" "$c_cache" "$s_cache"
printf '%-34s %7.3fs %7.3fs   (%s lines of output)\n' \
	"ibnetdiscover --diff (caches)" "$t_ind" "$c_ind" "$ind_lines"
printf 'ratio ibtopo diff (snapshots) / ibnetdiscover --diff: %.2f wall, %.2f cpu\n' \
	"$(calc "$t_diff / $t_ind")" "$(calc "$c_diff / $c_ind")"
printf 'ratio ibtopo diff (caches) / ibnetdiscover --diff:    %.2f wall, %.2f cpu\n' \
	"$(calc "$t_cache / $t_ind")" "$(calc "$c_cache / $c_ind")"
echo "load: reading both fabrics (in parallel); compare: ibtopo_fabric_diff/validate"
bench_row "diff: 2 snapshots of $hosts hosts (ibnetdiscover --diff)" \
	"$t_diff" "$t_ind" "$c_diff"
bench_row "diff: 2 cache files of $hosts hosts (ibnetdiscover --diff)" \
	"$t_cache" "$t_ind" "$c_cache"
bench_row "validate: plan against a snapshot of $hosts hosts" "$t_val" - \
	"$c_val"
