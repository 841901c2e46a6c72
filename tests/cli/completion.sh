#!/bin/sh
# completion.sh - data/bash-completion/ibtopo (issue 18, item 1): the
# completion function run for a few command lines completes commands,
# options from each --help, formats (export's from `export --format
# list`, the readers' from `import --format list`), plan's shapes, and
# snapshot ids and labels.
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null 2>&1 || skip "no bash"
tmp=$TESTDIR
"$IBTOPO" --db "$tmp/db" import --label monday "$DATA/ck-cables.topo" >/dev/null 2>&1 ||
	fail "import"

# complete WORD...: the last word is the one being completed
complete_words() {
	bash -c '
		. "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_ibtopo
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' bash "$top_srcdir/data/bash-completion/ibtopo" "$IBTOPO" "$@"
}
want() {	# want "EXPECTED" WORD...
	w=$1
	shift
	got=$(complete_words "$@")
	[ "$got" = "$w" ] || flunk "'ibtopo $*': got '$got', wanted '$w'"
}
want "serve show snapshots " s
want "127.0.0.1:10117 " serve --listen 127
want "15m 1d 1h " serve --store-every 1
want "0 10m 1h 5m " serve --topology-every ""
want "show " sh
want "diff discover " di
want "--across-fabrics --ca --db --down --fabric --format --help --node-name-map --port --switch --threads --type --verbose --wide " show --
want "--wide " show --w
want "--keep --keep-days " snapshots --ke
want "csv json text " analyze --format ""
# export formats: what `export --format list` prints (lfts among them)
formats=$("$IBTOPO" export --format list | sort | tr '\n' ' ')
case " $formats" in *" lfts "*) ;; *) flunk "export --format list: no lfts: $formats" ;; esac
want "$formats" export --format ""
# fabric file formats: what `import --format list` prints (the readers)
readers=$("$IBTOPO" import --format list | sort | tr '\n' ' ')
case " $readers" in *" iblinkinfo "*) ;; *) flunk "import --format list: no iblinkinfo: $readers" ;; esac
want "$readers" import --format ""
want "$readers" export --input-format ""
want "dragonfly-plus fat-tree rail-optimized " plan ""
want "dragonfly-plus " plan d
want "routes " rou
want "--across-fabrics --bisections --ca --db --fabric --fail-on --format --help --node-name-map --port --root-pattern --roots --routes --seed --servers --threads --verbose " routes --
want "never " analyze --fail-on n
want "html " render --format h
want "--db " --d
want "monday " --db "$tmp/db" diff mon
want "1 latest monday " --db "$tmp/db" snapshots --delete ""
want "switches " show sw
want "minhop " whatif --reroute min
# fabric names, for --fabric and fabrics --rename (issue 25)
"$IBTOPO" --db "$tmp/db" --fabric storage import "$DATA/rd-small.topo" >/dev/null 2>&1 ||
	fail "import --fabric storage"
first=$("$IBTOPO" --db "$tmp/db" fabrics --format csv | tr -d '\r' | sed -n 2p | cut -d, -f1)
case $first in fabric-*) ;; *) flunk "first fabric: '$first'" ;; esac
want "$first storage " --db "$tmp/db" --fabric ""
want "storage " --db "$tmp/db" fabrics --rename st
want "fabrics " fa
exit "$failed"
