#!/bin/sh
# bench/export.sh - time the scheduler exports (issue 24): `ibtopo export
# --format slurm|slurm-block|slurm-yaml|k8s` of big generated fat trees,
# wall and CPU seconds, peak memory and output size, and how long the
# real slurmctld (topology/tree) takes to start on the Slurm tree and
# answer `scontrol ping`.
#
#   sh bench/export.sh                 # from a build directory
#   REPEAT=1 FABRICS=ft101k sh bench/export.sh
#
# FABRICS (default: ft11k ft101k): 3-level k-ary fat trees of
# bench/gen-fattree.py, ft11k radix 36 (11,664 hosts, 1,620 switches),
# ft101k radix 74 (101,306 hosts, 6,845 switches). Best of REPEAT runs
# (default 3). Targets: each export under 1 s on 2 cores, slurmctld up
# in under 10 s on the 101,306-host tree. Not a test: nothing here
# asserts; read the figures. SLURMCTLD=no leaves slurmctld out.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${top_srcdir:?}" "${top_builddir:?}" # set by lib.sh
REPEAT=${REPEAT:-3}
FABRICS=${FABRICS:-ft11k ft101k}
FORMATS="slurm slurm-block slurm-yaml k8s"

# best CMD...: REPEAT runs (stdout in $TESTDIR/out); the shortest wall
# time, with that run's CPU seconds and peak memory
best() {
	b=
	for _ in $(seq 1 "$REPEAT"); do
		t0=$(now)
		/usr/bin/time -f '%U %S %M' -o "$TESTDIR/cpu" "$@" \
			>"$TESTDIR/out" 2>"$TESTDIR/err" || {
			cat "$TESTDIR/err" >&2
			fail "$*"
		}
		t=$(calc "$(now) - $t0")
		if [ -z "$b" ] || lt "$t" "$b"; then
			b=$t
			bc=$(awk '{ printf "%.2f s, %.0f MB", $1 + $2, $3 / 1024 }' \
				"$TESTDIR/cpu")
			awk -v w="$b" '{ printf "%s %.3f %.0f\n", w, $1 + $2, $3 / 1024 }' \
				"$TESTDIR/cpu" >"$TESTDIR/best.vals"
		fi
	done
	printf '%6.2f s (cpu %s)' "$b" "$bc"
}

# row JOB: bench_row of the last best (wall, cpu, MiB)
row() {
	# shellcheck disable=SC2046 # three numbers
	set -- "$1" $(cat "$TESTDIR/best.vals")
	bench_row "$1" "$2" - "$3" "$4"
}

fabric() {
	case $1 in
	ft11k) "$PYTHON3" "$here/gen-fattree.py" --radix 36 --levels 3 -o "$2" ;;
	ft101k) "$PYTHON3" "$here/gen-fattree.py" --radix 74 --levels 3 -o "$2" ;;
	*) fail "unknown fabric $1" ;;
	esac 2>/dev/null || fail "gen-fattree.py for $1"
}

ctld=
if [ "${SLURMCTLD:-}" != no ]; then
	. "$top_srcdir/tests/slurm-lib.sh"
	(slurm_require) >/dev/null 2>&1 && slurm_require && ctld=1
	[ -n "$ctld" ] && slurm_munge_start "$TESTDIR/munge"
fi

echo "best of $REPEAT runs, wall and CPU seconds, peak memory, output size" \
	"($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for name in $FABRICS; do
	f="$TESTDIR/$name.net"
	fabric "$name" "$f"
	printf '%s: %s hosts, %s switches\n' "$name" \
		"$(grep -c '^Hca' "$f")" "$(grep -c '^Switch' "$f")"
	printf '  %-12s %s\n' "read only" "$(best "$IBTOPO" show "$f")"
	row "export: read $name"
	for fmt in $FORMATS; do
		t=$(best "$IBTOPO" export --format "$fmt" "$f")
		row "export: $fmt $name"
		printf '  %-12s %s  %s\n' "$fmt" "$t" \
			"$(wc -c <"$TESTDIR/out" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
		[ "$fmt" = slurm ] && cp "$TESTDIR/out" "$TESTDIR/$name.conf"
	done
	[ -n "$ctld" ] || continue
	# NodeName= lines of the leaves' hostlists: slurmctld 22.05 reads
	# 101,306 lines of one node each for many minutes
	sed -n 's/^SwitchName=.* Nodes=//p' "$TESTDIR/$name.conf" \
		>"$TESTDIR/$name.nodes"
	t0=$(now)
	if SLURM_WAIT=60 slurm_ctld_run "$TESTDIR/ctld-$name" \
		"$TESTDIR/$name.conf" "$TESTDIR/$name.nodes"; then
		printf '  %-12s %6.2f s to answer, %s switches shown\n' slurmctld \
			"$(calc "$(now) - $t0")" \
			"$(grep -c '^SwitchName=' "$TESTDIR/ctld-$name/show")"
	else
		printf '  %-12s did not start: %s\n' slurmctld \
			"$(grep -i 'fatal\|error' "$TESTDIR/ctld-$name/slurmctld.log" | head -2)"
	fi
done
