#!/bin/sh
# output-file.sh - `-o FILE` of export, plan and render writes into what
# FILE names: a symlink stays a symlink and its target gets the bytes, a
# FIFO's reader gets them, `-o /dev/full` fails with exit 2 and leaves the
# device alone, `-o -` is standard output, a directory is an error; a
# regular file is replaced only whole (a write error leaves the old bytes
# and no temporary file) and keeps its permission bits.
. "$top_srcdir/tests/lib.sh"
TINY="$REAL/tiny-mixed-speeds.topo"
T=$TESTDIR
cd "$T" || fail "cd $T"

# the bytes each command writes to standard output, for comparison
"$IBTOPO" export --format slurm "$TINY" >want.export 2>/dev/null ||
	fail "export to stdout"
"$IBTOPO" plan fat-tree --leaves 2 --spines 1 --hosts-per-leaf 2 >want.plan ||
	fail "plan to stdout"
"$IBTOPO" render "$TINY" -o - --format dot >want.dot 2>/dev/null ||
	fail "render to stdout"
[ -s want.export ] && [ -s want.plan ] && [ -s want.dot ] ||
	fail "empty output on stdout"

# run CMD...: the command, killed if it hangs; its stderr in $T/err
run() {
	timeout -s KILL 30 "$@" >"$T/out" 2>"$T/err.all"
	rc=$?
	grep -v ': warning: ' "$T/err.all" >"$T/err"
	return $rc
}

# each command with -o TARGET (render: the DOT text)
export_to() { run "$IBTOPO" export --format slurm "$TINY" -o "$1"; }
plan_to() { run "$IBTOPO" plan fat-tree --leaves 2 --spines 1 --hosts-per-leaf 2 -o "$1"; }
render_to() { run "$IBTOPO" render "$TINY" --format dot -o "$1"; }

for cmd in export plan render; do
	case $cmd in
	export) want=want.export ;;
	plan) want=want.plan ;;
	render) want=want.dot ;;
	esac
	d="$T/$cmd"
	mkdir "$d" || fail "mkdir"

	# a symlink stays; its target is written
	echo old >"$d/real"
	ln -s real "$d/link"
	${cmd}_to "$d/link" || fail "$cmd -o symlink: $(cat "$T/err")"
	[ -L "$d/link" ] || fail "$cmd -o replaced the symlink"
	[ "$(readlink "$d/link")" = real ] || fail "$cmd -o changed the symlink"
	cmp -s "$d/real" "$want" || fail "$cmd -o symlink: target not written"
	# a symlink to nothing yet: the file it names is created
	ln -s new "$d/dangling"
	${cmd}_to "$d/dangling" || fail "$cmd -o dangling symlink: $(cat "$T/err")"
	[ -L "$d/dangling" ] && cmp -s "$d/new" "$want" ||
		fail "$cmd -o dangling symlink: link or target wrong"

	# a regular file keeps its mode; no temporary file is left
	echo old >"$d/file"
	chmod 640 "$d/file"
	${cmd}_to "$d/file" || fail "$cmd -o file: $(cat "$T/err")"
	cmp -s "$d/file" "$want" || fail "$cmd -o file: wrong bytes"
	[ "$(stat -c %a "$d/file")" = 640 ] ||
		fail "$cmd -o file: mode $(stat -c %a "$d/file"), was 640"
	${cmd}_to "$d/brand-new" || fail "$cmd -o new file: $(cat "$T/err")"
	cmp -s "$d/brand-new" "$want" || fail "$cmd -o new file: wrong bytes"
	# shellcheck disable=SC2010 # our own file names
	ls -A "$d" | grep -q tmp && fail "$cmd -o left a temporary file: $(ls -A "$d")"

	# a FIFO: its reader gets the bytes, the FIFO stays
	mkfifo "$d/fifo" || fail "mkfifo"
	timeout -s KILL 30 cat "$d/fifo" >"$d/from-fifo" &
	reader=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $reader"
	${cmd}_to "$d/fifo" || fail "$cmd -o FIFO: $(cat "$T/err")"
	wait "$reader" || fail "$cmd -o FIFO: the reader failed"
	[ -p "$d/fifo" ] || fail "$cmd -o replaced the FIFO"
	cmp -s "$d/from-fifo" "$want" || fail "$cmd -o FIFO: the reader got other bytes"

	# standard output
	${cmd}_to - || fail "$cmd -o -: $(cat "$T/err")"
	cmp -s "$T/out" "$want" || fail "$cmd -o - did not write stdout"

	# a directory: exit 2, one line naming it
	mkdir "$d/dir"
	${cmd}_to "$d/dir"
	[ $? -eq 2 ] || fail "$cmd -o DIR did not exit 2"
	[ "$(cat "$T/err")" = "ibtopo: cannot write '$d/dir': Is a directory" ] ||
		fail "$cmd -o DIR said: $(cat "$T/err")"
	[ -d "$d/dir" ] && [ -z "$(ls -A "$d/dir")" ] || fail "$cmd -o DIR changed it"

	# a device that fails every write: exit 2, one line, device intact
	if [ -c /dev/full ] && [ -w /dev/full ]; then
		${cmd}_to /dev/full
		[ $? -eq 2 ] || fail "$cmd -o /dev/full did not exit 2"
		[ "$(cat "$T/err")" = "ibtopo: cannot write '/dev/full': No space left on device" ] ||
			fail "$cmd -o /dev/full said: $(cat "$T/err")"
		[ -c /dev/full ] || fail "$cmd -o /dev/full: no longer a device"
	else
		info "no writable /dev/full: device case not run"
	fi
done

# a write error on a regular file (over the file size limit, EFBIG):
# exit 2, the old bytes stay, no temporary file
echo old >"$T/limited"
(
	trap '' XFSZ
	ulimit -f 1 &&
		exec "$IBTOPO" export "$REAL/qdr-hosts-fdr10-isls.topo" -o "$T/limited"
) >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "a write over the size limit exited $rc, not 2"
[ "$(cat "$T/err")" = "ibtopo: cannot write '$T/limited': File too large" ] ||
	fail "a write over the size limit said: $(cat "$T/err")"
[ "$(cat "$T/limited")" = old ] || fail "a failed write changed the file"
# shellcheck disable=SC2010 # our own file names
ls -A "$T" | grep -q 'limited.tmp' && fail "a failed write left a temporary file"
exit 0
