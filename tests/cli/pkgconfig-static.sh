#!/bin/sh
# pkgconfig-static.sh - a program links against the installed static
# libibtopo.a with nothing but `pkg-config --static --cflags --libs
# ibtopo`, and runs: ibtopo.pc must name every library libibtopo uses
# (Requires.private: the ones with a .pc file; Libs.private: libosmcomp,
# which has none, and libm).
#
# The library, its header and ibtopo.pc are installed with DESTDIR into
# the test's directory and read through PKG_CONFIG_SYSROOT_DIR; the
# shared libibtopo is removed there, so -libtopo can only be the archive.
# Only libibtopo is static: graphviz ships no static libraries (Debian),
# so the dependencies link as the system has them. SKIP without
# pkg-config, a C compiler, or a static build (--disable-static).
. "$top_srcdir/tests/lib.sh"
: "${top_builddir:?}"
T=$TESTDIR
DEST=$T/dest

command -v pkg-config >/dev/null 2>&1 || skip "pkg-config not found"
# the compiler and flags the library was built with (sanitizers too)
mk() { sed -n "s/^$1 = //p" "$top_builddir/Makefile" | head -1; }
CC=$(mk CC)
CFLAGS=$(mk CFLAGS)
LDFLAGS=$(mk LDFLAGS)
[ -n "$CC" ] || skip "no CC in $top_builddir/Makefile"
[ -f "$top_builddir/lib/.libs/libibtopo.a" ] ||
	skip "no static libibtopo.a (configured with --disable-static?)"

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$top_builddir" \
	install-libLTLIBRARIES install-includeHEADERS install-ibtopoincludeHEADERS install-pkgconfigDATA \
	DESTDIR="$DEST" >"$T/install.log" 2>&1 ||
	fail "make install DESTDIR: $(tail -5 "$T/install.log")"
pc=$(find "$DEST" -name ibtopo.pc | head -1)
archive=$(find "$DEST" -name libibtopo.a | head -1)
[ -n "$pc" ] && [ -n "$archive" ] || fail "ibtopo.pc or libibtopo.a not installed"
rm -f "${archive%/*}"/libibtopo.so* "${archive%/*}"/libibtopo.la

PKG_CONFIG_PATH=${pc%/*}
PKG_CONFIG_SYSROOT_DIR=$DEST
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
flags=$(pkg-config --static --cflags --libs ibtopo) ||
	fail "pkg-config --static ibtopo failed"
info "pkg-config --static: $flags"
# A dependency's own Libs.private may name libraries this system only has
# at run time (Debian's igraph.pc lists -lglpk -larpack -lplfit without
# their -dev packages): those are needed only to link that dependency
# statically, which this test does not do, so they are left out.
kept=
for w in $flags; do
	case $w in
	-l*)
		lib=${w#-l}
		# shellcheck disable=SC2086
		if [ "$($CC $CFLAGS -print-file-name="lib$lib.so")" = "lib$lib.so" ] &&
			[ "$($CC $CFLAGS -print-file-name="lib$lib.a")" = "lib$lib.a" ] &&
			[ "$lib" != ibtopo ]; then
			info "left out $w: no lib$lib.so or lib$lib.a here"
			continue
		fi
		;;
	esac
	kept="$kept $w"
done
flags=$kept

# one call into each module that brings in an outside library: text
# reader and topology (libosmcomp via the fabric, igraph), JSON (jansson),
# DOT (graphviz is in the layout), store (SQLite), discovery (libibnetdisc)
cat >"$T/prog.c" <<'EOF'
#include <ibtopo.h>
#include <stdio.h>
#include <string.h>

static int sink(void *arg, const char *buf, size_t len)
{
	*(size_t *)arg += len;
	(void)buf;
	return 0;
}

int main(void)
{
	static const char topo[] =
		"Switch 4 \"leaf01\"\n[1] \"host01\"[1]\n[2] \"host02\"[1]\n\n"
		"Ca 1 \"host01\"\n[1] \"leaf01\"[1]\n\n"
		"Ca 1 \"host02\"\n[1] \"leaf01\"[2]\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_analysis *an = NULL;
	const struct ibtopo_topology *t = NULL;
	size_t bytes = 0;
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION,
		IBTOPO_FORMAT_JSON, sink, &bytes, 0 };
	/* referenced, so the archive members using them are linked */
	void *volatile linked[] = { (void *)ibtopo_fabric_discover,
		(void *)ibtopo_store_open, (void *)ibtopo_diagram_image };

	(void)linked;
	if (ibtopo_fabric_read_buffer(&f, topo, strlen(topo), "prog", NULL, &err) ||
	    ibtopo_analysis_new(&an, f, NULL, &err) ||
	    ibtopo_analysis_topology(an, &t, &err) ||
	    ibtopo_analysis_write(&o, an, IBTOPO_EXPORT_JSON, NULL, &err) ||
	    ibtopo_diagram_dot(&o, an, NULL, &err)) {
		fprintf(stderr, "prog: %s\n", err.message);
		return 1;
	}
	printf("%s %zu\n", ibtopo_topology_class_name(ibtopo_topology_class(t)),
	       bytes > 0 ? ibtopo_fabric_node_count(f) : 0);
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(f);
	return 0;
}
EOF
# shellcheck disable=SC2086 # flags are words
$CC $CFLAGS -o "$T/prog" "$T/prog.c" $LDFLAGS $flags >"$T/cc.log" 2>&1 ||
	fail "static link with pkg-config --static failed: $(grep -m3 -i 'undefined\|error' "$T/cc.log")"
nm "$T/prog" 2>/dev/null | grep -q ' T ibtopo_fabric_read_buffer$' ||
	fail "prog did not take libibtopo from the archive"
out=$("$T/prog") || fail "prog failed: $out"
[ "$out" = "single-switch 3" ] || fail "prog printed '$out'"
exit 0
