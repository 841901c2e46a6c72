#!/bin/sh
# stdin-dash.sh - "-" as a FILE reads standard input: the fabric of import,
# analyze, show, validate, export and diff, --cables, --node-name-map;
# it does what the file does, standard input is read once a run, and a
# path that does not exist is reported as a missing file.
. "$top_srcdir/tests/lib.sh"
unset IBTOPO_DB
T=$TESTDIR
SMALL=$DATA/rd-small.topo
TINY=$DATA/real/tiny-mixed-speeds.topo
printf '0x0002c903003421b0 "mapped-host-01"\n' >"$T/hosts.map"

# run CMD...: CMD, its exit status kept in $T/rc (it runs in a pipe)
run() {
	"$@"
	echo $? >"$T/rc"
}
# same_out NAME CMD...: CMD (its stdin from the caller) writes what
# $T/NAME.want holds and exits as recorded in $T/NAME.rc; the fabric's
# source ("file:PATH" there) reads "stdin"
same_out() {
	name=$1
	shift
	run "$@" 2>"$T/$name.err" | sed 's|file:[^ "]*\.topo|stdin|g' >"$T/$name.got"
	rc=$(cat "$T/rc")
	[ "$rc" -eq "$(cat "$T/$name.rc")" ] ||
		fail "$name: '$*' exited $rc, the file $(cat "$T/$name.rc"): $(cat "$T/$name.err")"
	cmp -s "$T/$name.want" "$T/$name.got" ||
		fail "$name: '$*' differs from the file's output"
}
# want NAME CMD...: record CMD's output and status as the reference
want() {
	name=$1
	shift
	run "$@" 2>/dev/null | sed 's|file:[^ "]*\.topo|stdin|g' >"$T/$name.want"
	cat "$T/rc" >"$T/$name.rc"
}

# ---- import -: a pipe into a snapshot
"$IBTOPO" --db "$DB" import --label file "$SMALL" >/dev/null || fail "import FILE"
cat "$SMALL" | "$IBTOPO" --db "$DB" import --label piped - >"$T/out" ||
	fail "import - exited $?"
grep -q '^snapshot 2 (piped): 4 switches, 8 CAs' "$T/out" || fail "import -: $(cat "$T/out")"
"$IBTOPO" --db "$DB" diff file piped >"$T/out" || fail "import - stored another fabric: $(cat "$T/out")"

# ---- a fabric FILE as "-"
want analyze "$IBTOPO" analyze "$SMALL"
same_out analyze "$IBTOPO" analyze - <"$SMALL"
want show "$IBTOPO" show "$SMALL" links --format csv
cat "$SMALL" | same_out show "$IBTOPO" show - links --format csv
want validate "$IBTOPO" --db "$DB" validate "$DATA/rd-small-plan.topo" file
same_out validate "$IBTOPO" --db "$DB" validate - file <"$DATA/rd-small-plan.topo"
want diff "$IBTOPO" diff "$SMALL" "$DATA/rd-small-new.topo"
same_out diff "$IBTOPO" diff - "$DATA/rd-small-new.topo" <"$SMALL"
same_out diff "$IBTOPO" diff "$SMALL" - <"$DATA/rd-small-new.topo"
want export "$IBTOPO" export "$SMALL" --format json
same_out export "$IBTOPO" export - --format json <"$SMALL"
# and out again: a round trip through two pipes
"$IBTOPO" export "$SMALL" | "$IBTOPO" export - -o - >"$T/rt" ||
	fail "export | export - -o - exited $?"
"$IBTOPO" export "$SMALL" | cmp -s - "$T/rt" || fail "export - round trip differs"

# ---- --cables - and --node-name-map -
want cables "$IBTOPO" analyze --cables "$DATA/rd-small-cables.csv" "$SMALL"
same_out cables "$IBTOPO" analyze --cables - "$SMALL" <"$DATA/rd-small-cables.csv"
want map "$IBTOPO" show "$TINY" nodes --node-name-map "$T/hosts.map"
grep -q mapped-host-01 "$T/map.want" || fail "the map renames nothing"
same_out map "$IBTOPO" show "$TINY" nodes --node-name-map - <"$T/hosts.map"
# a map read once serves both fabrics of a diff
want mapdiff "$IBTOPO" diff "$TINY" "$TINY" --node-name-map "$T/hosts.map"
same_out mapdiff "$IBTOPO" diff "$TINY" "$TINY" --node-name-map - <"$T/hosts.map"

# ---- the analysis' own inputs: --roots -, --cable-reach -, and
# health's --counters - and --thresholds -, read as text, no file between
printf 'leaf01\n' >"$T/roots"
want roots "$IBTOPO" analyze --format json --fail-on never --roots "$T/roots" \
	"$DATA/rd-small.topo"
same_out roots "$IBTOPO" analyze --format json --fail-on never --roots - \
	"$DATA/rd-small.topo" <"$T/roots"
grep -q '"ranked_from": *"roots"' "$T/roots.got" || fail "--roots - ranks nothing"
# bad text from standard input is named as every input from there is
printf 'nosuchswitch\n' | "$IBTOPO" analyze --roots - "$DATA/rd-small.topo" \
	>/dev/null 2>"$T/err" && fail "--roots - of a bad file succeeded"
[ "$(cat "$T/err")" = "ibtopo: <stdin>:1: 'nosuchswitch' names no switch" ] ||
	fail "--roots - error: $(cat "$T/err")"
want reach "$IBTOPO" analyze --format csv --cable-reach "$DATA/ck-reach.tsv" \
	--cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo"
same_out reach "$IBTOPO" analyze --format csv --cable-reach - \
	--cables "$DATA/ck-cables.csv" "$DATA/ck-cables.topo" <"$DATA/ck-reach.tsv"
printf 'SymbolErrorCounter=20\n' >"$T/thr"
# the findings (the counters' read time is the file's mtime, or now)
findings() { sed -n '/^kind,/,$p'; }
"$IBTOPO" health "$DATA/ck-cables.topo" --counters "$DATA/hc-perfquery.txt" \
	--thresholds "$T/thr" --format csv 2>/dev/null | findings >"$T/h.want"
grep -q 'SymbolErrorCounter' "$T/h.want" && fail "the thresholds change nothing"
grep -q 'PortRcvErrors is 5' "$T/h.want" || fail "no counters: $(cat "$T/h.want")"
"$IBTOPO" health "$DATA/ck-cables.topo" --counters - --thresholds "$T/thr" \
	--format csv <"$DATA/hc-perfquery.txt" 2>/dev/null | findings >"$T/h.got"
cmp -s "$T/h.want" "$T/h.got" || fail "health --counters - differs"
"$IBTOPO" health "$DATA/ck-cables.topo" --counters "$DATA/hc-perfquery.txt" \
	--thresholds - --format csv <"$T/thr" 2>/dev/null | findings >"$T/h.got"
cmp -s "$T/h.want" "$T/h.got" || fail "health --thresholds - differs"

# ---- errors name standard input; it is read once
printf 'garbage\n' | "$IBTOPO" analyze - >"$T/out" 2>"$T/err" &&
	fail "analyze - of garbage succeeded"
grep -q '^ibtopo: <stdin>:1: ' "$T/err" || fail "garbage: $(cat "$T/err")"
for args in "diff - -" "analyze --cables - -" "show - --node-name-map -"; do
	# shellcheck disable=SC2086 # the words are the arguments
	"$IBTOPO" $args <"$SMALL" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$args' exited $rc, wanted 2"
	[ "$(cat "$T/err")" = "ibtopo: standard input is read once: only one FILE can be '-'" ] ||
		fail "'$args' said '$(cat "$T/err")'"
done

# ---- a missing path is a missing file, a word still no snapshot
for what in /nonexistent.topo no/such.topo ./tiny dump.topo; do
	"$IBTOPO" --db "$DB" show "$what" >"$T/out" 2>"$T/err" &&
		fail "show $what succeeded"
	[ "$(cat "$T/err")" = "ibtopo: cannot open '$what': No such file or directory" ] ||
		fail "show $what said '$(cat "$T/err")'"
done
"$IBTOPO" --db "$DB" show nope >"$T/out" 2>"$T/err" && fail "show nope succeeded"
[ "$(cat "$T/err")" = "ibtopo: no snapshot 'nope' in '$DB'" ] ||
	fail "show nope said '$(cat "$T/err")'"
exit 0
