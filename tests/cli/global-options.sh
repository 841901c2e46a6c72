#!/bin/sh
# global-options.sh - the global options (--db, --node-name-map, -C, -P,
# -v) mean the same before and after the subcommand, every command's
# --help lists them, and -v prints one line per step on stderr:
# "ibtopo: STEP: what it did in T s".
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
T=$TESTDIR
TINY=$top_srcdir/tests/data/real/tiny-mixed-speeds.topo
printf '0x0002c903003421b0 "mapped-host-01"\n' >"$T/hosts.map"

# ---- --db: after the subcommand as before it
"$IBTOPO" import --db "$DB" --label tiny "$TINY" >/dev/null ||
	fail "import --db after the subcommand"
"$IBTOPO" --db "$DB" snapshots >"$T/before" || fail "--db X snapshots"
"$IBTOPO" snapshots --db "$DB" >"$T/after" || fail "snapshots --db X"
grep -q tiny "$T/after" || fail "snapshots --db X does not list 'tiny'"
cmp -s "$T/before" "$T/after" || fail "--db before and after differ"

# ---- --node-name-map: either position, a file or a snapshot
for args in "--node-name-map $T/hosts.map show $TINY nodes" \
	"show $TINY nodes --node-name-map $T/hosts.map" \
	"--db $DB show tiny nodes --node-name-map $T/hosts.map"; do
	# shellcheck disable=SC2086 # the words are the arguments
	"$IBTOPO" $args >"$T/out" 2>"$T/err" || fail "'$args' exited $?"
	grep -q mapped-host-01 "$T/out" || fail "'$args' did not rename"
done
"$IBTOPO" --node-name-map "$T/hosts.map" --db "$DB" import --label m \
	"$TINY" >/dev/null || fail "import with a global --node-name-map"
"$IBTOPO" --db "$DB" show m nodes | grep -q mapped-host-01 ||
	fail "import did not store the mapped name"

# ---- -C and -P: the same meaning (and checks) on either side
for args in "-C nosuchca -P 1 discover" "discover -C nosuchca -P 1" \
	"--ca nosuchca discover --port 1"; do
	# shellcheck disable=SC2086
	timeout -s KILL 60 "$IBTOPO" --db "$T/none.db" $args \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$args' exited $rc, wanted 2"
	grep -q "'nosuchca' port 1" "$T/err" ||
		fail "'$args' did not use CA nosuchca port 1: $(cat "$T/err")"
done
for args in "-P 999 discover" "discover -P 999"; do
	# shellcheck disable=SC2086
	"$IBTOPO" $args >"$T/out" 2>"$T/err" && fail "'$args' succeeded"
	[ "$(cat "$T/err")" = "ibtopo: bad port number '999'" ] ||
		fail "'$args' said '$(cat "$T/err")'"
done

# ---- -v: one line per step, before or after the subcommand, and one
# per analysis section the command computes ("ibtopo: analysis: ...")
# step_lines FILE STEP...: the stderr lines are exactly these steps
step_lines() {
	f=$1
	shift
	grep -v '^ibtopo: analysis: ' "$f" >"$T/steps-only"
	sed -n 's/^ibtopo: \([a-z]*\): .* in [0-9]*\.[0-9][0-9][0-9] s$/\1/p' \
		"$T/steps-only" | tr '\n' ' ' >"$T/steps"
	[ "$(cat "$T/steps")" = "$* " ] ||
		fail "steps '$(cat "$T/steps")', wanted '$*': $(cat "$f")"
	# the file's own warnings aside, no other lines
	[ "$(grep -vc '^ibtopo: warning: ' "$T/steps-only")" -eq $# ] ||
		fail "other lines: $(cat "$f")"
}
# sections FILE NAME...: each of these sections once, and no other
sections() {
	f=$1
	shift
	sed -n 's/^ibtopo: analysis: \([a-z ]*\): .* in [0-9]*\.[0-9][0-9][0-9] s$/\1/p' \
		"$f" | sort | tr '\n' ',' >"$T/sections"
	want=$(printf '%s\n' "$@" | sort | tr '\n' ',')
	[ "$(cat "$T/sections")" = "$want" ] ||
		fail "sections '$(cat "$T/sections")', wanted '$want': $(cat "$f")"
}
for v in before after; do
	if [ $v = before ]; then
		set -- "$IBTOPO" -v --db "$DB" import "$TINY"
	else
		set -- "$IBTOPO" --db "$DB" import "$TINY" -v
	fi
	"$@" >/dev/null 2>"$T/err" || fail "'$*' exited $?"
	step_lines "$T/err" load store
	grep -q "^ibtopo: load: read '$TINY': [0-9]* nodes, [0-9]* links in " \
		"$T/err" || fail "load line: $(cat "$T/err")"
	grep -q "^ibtopo: store: saved as snapshot [0-9]* in " "$T/err" ||
		fail "store line: $(cat "$T/err")"
	if [ $v = before ]; then
		set -- -v --db "$DB" analyze tiny --fail-on never
	else
		set -- --db "$DB" analyze tiny --fail-on never --verbose
	fi
	"$IBTOPO" "$@" >/dev/null 2>"$T/err" || fail "'$*' exited $?"
	step_lines "$T/err" load analyze render
	sections "$T/err" links topology "port health" routes mcast "subnet managers"
	grep -q "^ibtopo: load: snapshot 'tiny': " "$T/err" ||
		fail "load line: $(cat "$T/err")"
done
"$IBTOPO" --db "$DB" -v render tiny -o "$T/t.dot" 2>"$T/err" ||
	fail "render -v exited $?"
step_lines "$T/err" load render
sections "$T/err" links topology "port health" routes mcast "subnet managers"
"$IBTOPO" --db "$DB" diff tiny m -v >/dev/null 2>"$T/err"
step_lines "$T/err" load load compare
# NEW's health against OLD; no tables, so no routes asked for
sections "$T/err" "port health"
# export: the levels alone, once
"$IBTOPO" --db "$DB" -v export tiny --format slurm >/dev/null 2>"$T/err" ||
	fail "export -v exited $?"
sections "$T/err" topology
# without -v, nothing on stderr
"$IBTOPO" --db "$DB" analyze tiny --fail-on never >/dev/null 2>"$T/err"
grep -v '^ibtopo: warning: ' "$T/err" >"$T/other"
[ -s "$T/other" ] && fail "analyze without -v wrote: $(cat "$T/other")"

# ---- --help: every command lists the global options
for name in $("$IBTOPO" --help | sed -n '/^commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	"$IBTOPO" "$name" --help >"$T/help" || fail "$name --help"
	for opt in --db --node-name-map --ca --port --verbose; do
		grep -q -- "$opt" "$T/help" || fail "$name --help lacks $opt"
	done
done
exit 0
