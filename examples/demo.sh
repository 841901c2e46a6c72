#!/bin/sh
# examples/demo.sh - discover a simulated InfiniBand fabric without any
# hardware: start ibsim on examples/hdr-fat-tree.net (or the net file
# given), let opensm sweep it once, run `ibtopo discover` through ibsim's
# client shim into the default database (or $IBTOPO_DB), print the
# summary, stop ibsim. Extra arguments go to `ibtopo discover`.
#
#   sh examples/demo.sh                      # from the build directory
#   IBTOPO_DB=/tmp/demo.db sh examples/demo.sh --label demo
#   NET=my-fabric.net sh examples/demo.sh
#
# Needs ibsim-utils (ibsim, libumad2sim.so); opensm is used when present.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NET=${NET:-$here/hdr-fat-tree.net}
SIM_HOST=${SIM_HOST:-gpu01}

die() {
	echo "demo: $*" >&2
	exit 2
}

# The ibtopo to run: $IBTOPO, the one built here, or the installed one.
if [ -z "${IBTOPO:-}" ]; then
	for c in ./src/ibtopo "$here/../src/ibtopo"; do
		if [ -x "$c" ]; then IBTOPO=$c; break; fi
	done
fi
if [ -z "${IBTOPO:-}" ]; then
	IBTOPO=$(command -v ibtopo) || die "no ibtopo: build it first (make) or set IBTOPO"
fi
IBTOPO=$(cd "$(dirname "$IBTOPO")" && pwd)/$(basename "$IBTOPO")

IBSIM=${IBSIM:-$(command -v ibsim)} || die "ibsim not found: apt-get install ibsim-utils"
UMAD2SIM=${UMAD2SIM:-}
if [ -z "$UMAD2SIM" ]; then
	for d in "/usr/lib/$(uname -m)-linux-gnu/umad2sim" /usr/lib/umad2sim /usr/lib64/umad2sim; do
		if [ -f "$d/libumad2sim.so" ]; then UMAD2SIM=$d/libumad2sim.so; break; fi
	done
fi
[ -n "$UMAD2SIM" ] || die "libumad2sim.so not found: apt-get install ibsim-utils"
OPENSM=${OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm || true)}
[ -f "$NET" ] || die "no net file '$NET'"

# A private simulator: its own socket name, its own scratch directory
# (umad2sim writes a fake sysfs there), stopped by its PID on exit.
work=$(mktemp -d "${TMPDIR:-/tmp}/ibtopo-demo.XXXXXX")
IBSIM_SOCKNAME=ibtopo-demo-$$
export IBSIM_SOCKNAME SIM_HOST
sim_pid=
cleanup() {
	if [ -n "$sim_pid" ]; then
		kill "$sim_pid" 2>/dev/null || true
		wait "$sim_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

echo "demo: starting ibsim on $NET" >&2
"$IBSIM" -s -n "$NET" >"$work/ibsim.log" 2>&1 &
sim_pid=$!
i=0
until grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$sim_pid" 2>/dev/null; then
		cat "$work/ibsim.log" >&2
		die "ibsim did not start"
	fi
	sleep 0.1
done

if [ -n "$OPENSM" ]; then
	echo "demo: one opensm sweep (LIDs, ports Active)" >&2
	(cd "$work" && OSM_CACHE_DIR="$work" OSM_TMP_DIR="$work" \
		LD_PRELOAD="$UMAD2SIM" "$OPENSM" -o -f "$work/osm.log" \
		>/dev/null 2>&1) || echo "demo: opensm failed; ports stay Init" >&2
fi

# With --routes, name the engine that computed the tables from opensm's log.
for arg in "$@"; do
	if [ "$arg" = --routes ] && [ -s "$work/osm.log" ]; then
		set -- "$@" --routes-log "$work/osm.log"
		break
	fi
done

echo "demo: ibtopo discover (as node $SIM_HOST)" >&2
(cd "$work" && LD_PRELOAD="$UMAD2SIM" "$IBTOPO" discover "$@" 2>"$work/err") || {
	grep -v '^ibwarn: .*sim_connect: attached' "$work/err" >&2
	die "ibtopo discover failed"
}
grep -v '^ibwarn: .*sim_connect: attached' "$work/err" >&2 || true
echo "demo: done; ibsim stopped. Next: ibtopo analyze; ibtopo render -o fabric.svg" >&2
