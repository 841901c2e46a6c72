/* test_topofile.c - text fabric files in and out: ibnetdiscover, -p, ibsim, maps */
#include "base/base-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REAL TEST_DATADIR "/real/"

/* ---- helpers ---- */

struct warnings {
	char text[8][1024];
	size_t n;
};

static void collect(void *arg, const char *message)
{
	struct warnings *w = arg;

	if (w->n < 8)
		snprintf(w->text[w->n], sizeof(w->text[0]), "%s", message);
	w->n++;
}

static struct ibtopo_fabric *read_text(const char *text,
				       enum ibtopo_file_format fmt,
				       struct warnings *w,
				       struct ibtopo_error *err)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_fabric *f = (void *)1;
	int rc;

	o.format = fmt;
	if (w) {
		memset(w, 0, sizeof(*w));
		o.warn = collect;
		o.warn_arg = w;
	}
	rc = ibtopo_fabric_read_buffer(&f, text, strlen(text), "t.topo", &o,
				       err);
	if (rc) {
		assert_null(f);
		assert_int_equal(err->code, rc);
	}
	return f;
}

/* read_text of an auto-detected text that must read: the fabric. */
static struct ibtopo_fabric *read_ok(const char *text)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = read_text(text, IBTOPO_FILE_AUTO, NULL, &err);

	if (!f)
		fail_msg("%s", err.message);
	return f;
}

#define ALL ((size_t)-1)

/* Reading must fail with EPARSE and a message starting "t.topo:<line>: ". */
static void expect_parse_error(const char *text, size_t len, unsigned line,
			       const char *what)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = (void *)1;
	char prefix[32];

	if (len == ALL)
		len = strlen(text);
	assert_int_equal(ibtopo_fabric_read_buffer(&f, text, len, "t.topo",
						   NULL, &err),
			 IBTOPO_EPARSE);
	assert_null(f);
	snprintf(prefix, sizeof(prefix), "t.topo:%u: ", line);
	if (strncmp(err.message, prefix, strlen(prefix)) ||
	    !strstr(err.message, what))
		fail_msg("got '%s', wanted '%s...%s'", err.message, prefix,
			 what);
}

/* The real dumps are part of the repository: a missing one fails the test. */
static void need(const char *path)
{
	if (access(path, R_OK) != 0)
		fail_msg(
			"fixture %s missing (tests/data/real is in the repository)",
			path);
}

static struct ibtopo_fabric *read_path(const char *path, const char *map,
				       struct warnings *w)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;

	o.node_name_map = map;
	if (w) {
		memset(w, 0, sizeof(*w));
		o.warn = collect;
		o.warn_arg = w;
	}
	if (ibtopo_fabric_read_file(&f, path, &o, &err))
		fail_msg("%s: %s", path, err.message);
	return f;
}

/* flags: enum ibtopo_export_flags, for the scheduler formats */
static char *write_fabric_flags(const struct ibtopo_fabric *f,
				enum ibtopo_export_format fmt, unsigned flags)
{
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = test_sink(&m, IBTOPO_FORMAT_TEXT);
	struct ibtopo_export_opts x = IBTOPO_EXPORT_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	x.flags = flags;
	if (test_fabric_write_opts(&o, f, fmt, &x, &err))
		fail_msg("write: %s", err.message);
	return m.text ? m.text : strdup("");
}

static char *write_fabric(const struct ibtopo_fabric *f,
			  enum ibtopo_export_format fmt)
{
	return write_fabric_flags(f, fmt, 0);
}

static const struct ibtopo_link *find_link(const struct ibtopo_fabric *f,
					   uint64_t guid, unsigned port)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);
	const struct ibtopo_port *p = ibtopo_node_port(n, port);

	return p ? p->link : NULL;
}

/* Same nodes, ports as stated, links, speeds and widths; why names a difference. */
static bool same_fabric(const struct ibtopo_fabric *x,
			const struct ibtopo_fabric *y, char *why, size_t len)
{
	size_t nn = ibtopo_fabric_node_count(x),
	       nl = ibtopo_fabric_link_count(x);

	if (nn != ibtopo_fabric_node_count(y) ||
	    nl != ibtopo_fabric_link_count(y)) {
		snprintf(why, len, "%zu/%zu nodes, %zu/%zu links", nn,
			 ibtopo_fabric_node_count(y), nl,
			 ibtopo_fabric_link_count(y));
		return false;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(x, i);
		const struct ibtopo_node *b = ibtopo_fabric_node(y, i);

		if (a->guid != b->guid || a->type != b->type ||
		    a->nports != b->nports || strcmp(a->desc, b->desc) ||
		    a->sysimg_guid != b->sysimg_guid ||
		    a->vendor_id != b->vendor_id ||
		    a->device_id != b->device_id ||
		    a->enhanced_port0 != b->enhanced_port0) {
			snprintf(why, len, "node 0x%" PRIx64 " '%s' differs",
				 a->guid, a->desc);
			return false;
		}
		for (unsigned p = 0; p <= a->nports; p++) {
			const struct ibtopo_port *pa = a->ports[p],
						 *pb = b->ports[p];

			if (!pa || (!pa->link && p))
				continue;
			if (!pb || pa->lid != pb->lid || pa->guid != pb->guid ||
			    pa->ext_num != pb->ext_num) {
				snprintf(why, len, "port %u of '%s' differs", p,
					 a->desc);
				return false;
			}
		}
	}
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *a = ibtopo_fabric_link(x, i);
		const struct ibtopo_link *b = ibtopo_fabric_link(y, i);

		if (a->a->node->guid != b->a->node->guid ||
		    a->a->num != b->a->num ||
		    a->b->node->guid != b->b->node->guid ||
		    a->b->num != b->b->num || a->speed != b->speed ||
		    a->width != b->width) {
			snprintf(why, len, "link %zu ('%s'[%u]) differs", i,
				 a->a->node->desc, a->a->num);
			return false;
		}
	}
	return true;
}

/* ---- the real dumps ---- */

static const struct {
	const char *file;
	size_t switches, cas, links, warnings;
} fixtures[] = {
	{ "ndr-superpod-rails.topo", 40, 582, 1114, 0 },
	{ "x5-mixed-ddr-qdr.topo", 11, 89, 159, 0 },
	{ "qdr-hosts-fdr10-isls.topo", 8, 144, 192, 0 },
	/* its first line is an ibwarn message that ended up in the file */
	{ "tiny-mixed-speeds.topo", 2, 6, 10, 1 },
	/* CA node GUIDs from the -v DR-path lines: one node per CA */
	{ "plafrim2-subnet0.ports-verbose.txt", 7, 96, 155, 0 },
	{ "plafrim2-subnet1.ports-verbose.txt", 1, 23, 23, 0 },
	/* no -v: one warning that CA ports cannot be joined into CAs */
	{ "small-ports-1.ports.txt", 4, 3, 4, 1 },
	/* an aggregation node's port 1 is cabled to two ports: one link kept */
	{ "small-ports-2.ports.txt", 5, 2, 2, 2 },
};

static void real_dumps_have_their_counts(void **state)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(fixtures); i++) {
		char path[512];
		struct ibtopo_fabric *f;
		struct warnings w;

		snprintf(path, sizeof(path), REAL "%s", fixtures[i].file);
		need(path);
		f = read_path(path, NULL, &w);
		if (ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH) !=
			    fixtures[i].switches ||
		    ibtopo_fabric_count_type(f, IBTOPO_NODE_CA) !=
			    fixtures[i].cas ||
		    ibtopo_fabric_link_count(f) != fixtures[i].links ||
		    w.n != fixtures[i].warnings)
			fail_msg(
				"%s: %zu switches, %zu CAs, %zu links, %zu warnings",
				fixtures[i].file,
				ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH),
				ibtopo_fabric_count_type(f, IBTOPO_NODE_CA),
				ibtopo_fabric_link_count(f), w.n);
		assert_string_equal(ibtopo_fabric_meta(f)->source + 5, path);
		ibtopo_fabric_free(f);
	}
}

/* text -> model -> text -> model: the same fabric, the same text */
static void every_dump_round_trips(void **state)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(fixtures); i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_fabric *f, *g = NULL;
		char path[512], why[256];
		char *t1, *t2;

		snprintf(path, sizeof(path), REAL "%s", fixtures[i].file);
		need(path);
		f = read_path(path, NULL, NULL);
		t1 = write_fabric(f, IBTOPO_EXPORT_IBNETDISCOVER);
		if (ibtopo_fabric_read_buffer(&g, t1, strlen(t1), "rt", NULL,
					      &err))
			fail_msg("%s written back: %s", fixtures[i].file,
				 err.message);
		if (!same_fabric(f, g, why, sizeof(why)))
			fail_msg("%s: %s", fixtures[i].file, why);
		t2 = write_fabric(g, IBTOPO_EXPORT_IBNETDISCOVER);
		assert_string_equal(t1, t2);
		free(t1);
		free(t2);
		ibtopo_fabric_free(f);
		ibtopo_fabric_free(g);
	}
}

static void speeds_and_lids_are_what_the_dump_states(void **state)
{
	const struct ibtopo_link *l;
	const struct ibtopo_node *sw;
	struct ibtopo_fabric *f;

	need(REAL "tiny-mixed-speeds.topo");
	f = read_path(REAL "tiny-mixed-speeds.topo", NULL, NULL);
	/* [8] "H-e41d2d03005cf1f8"[1] ... lid 1 4xSDR */
	l = find_link(f, 0xe41d2d03005cf1f8ull, 1);
	assert_non_null(l);
	assert_int_equal(l->speed, IBTOPO_SPEED_SDR);
	assert_int_equal(l->width, IBTOPO_WIDTH_4X);
	assert_int_equal(l->a->speed_active, IBTOPO_SPEED_SDR);
	assert_int_equal(l->a->speed_supported, 0);
	assert_int_equal(l->a->speed_enabled, 0);
	assert_int_equal(l->a->width_supported, 0);
	assert_int_equal(l->a->width_enabled, 0);
	assert_int_equal(l->a->state, IBTOPO_PORT_STATE_UNKNOWN);
	/* the CA's own line: [1](e41d2d03005cf1f8) ... # lid 1 lmc 0 */
	assert_int_equal(
		ibtopo_node_port(
			ibtopo_fabric_find_node(f, 0xe41d2d03005cf1f8ull), 1)
			->lid,
		1);
	assert_int_equal(
		ibtopo_node_port(
			ibtopo_fabric_find_node(f, 0xe41d2d03005cf1f8ull), 1)
			->guid,
		0xe41d2d03005cf1f8ull);
	sw = ibtopo_fabric_find_node(f, 0xf4521403005764b0ull);
	assert_string_equal(sw->desc, "MF0;switch-de779e:SX6012/U1");
	assert_true(sw->enhanced_port0);
	assert_int_equal(sw->ports[0]->lid, 174);
	assert_int_equal(sw->vendor_id, 0x2c9);
	assert_int_equal(sw->device_id, 0xc738);
	assert_int_equal(sw->sysimg_guid, 0xf4521403005764b0ull);
	assert_false(ibtopo_fabric_find_node(f, 0xe41d2d030003e470ull)
			     ->enhanced_port0);
	/* a cable from port 1 to port 2 of the same switch */
	l = find_link(f, 0xe41d2d030003e470ull, 1);
	assert_ptr_equal(l->a->node, l->b->node);
	assert_int_equal(l->b->num, 2);
	assert_int_equal(l->speed, IBTOPO_SPEED_EDR);
	/* EDR-FDR inter-switch link trained at FDR */
	assert_int_equal(find_link(f, 0xf4521403005764b0ull, 1)->speed,
			 IBTOPO_SPEED_FDR);
	ibtopo_fabric_free(f);
}

static void fdr10_and_ndr_dumps(void **state)
{
	struct ibtopo_fabric *f;
	size_t fdr10 = 0, ndr = 0;

	need(REAL "qdr-hosts-fdr10-isls.topo");
	need(REAL "ndr-superpod-rails.topo");
	f = read_path(REAL "qdr-hosts-fdr10-isls.topo", NULL, NULL);
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++)
		fdr10 += ibtopo_fabric_link(f, i)->speed == IBTOPO_SPEED_FDR10;
	assert_int_equal(fdr10, 47); /* 94 port lines say 4xFDR10 */
	ibtopo_fabric_free(f);
	f = read_path(REAL "ndr-superpod-rails.topo", NULL, NULL);
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++)
		ndr += ibtopo_fabric_link(f, i)->speed == IBTOPO_SPEED_NDR &&
		       ibtopo_fabric_link(f, i)->width == IBTOPO_WIDTH_4X;
	assert_int_equal(ndr, 1114);
	ibtopo_fabric_free(f);
}

/* ---- ibnetdiscover text: what other dumps may hold ---- */

static const char variants[] =
	"#\r\n# Topology file: generated on Mon Jul 25 11:30:26 2016\r\n"
	"vendid=0x2c9\r\n"
	"devid=0xc738\r\n"
	"switchguid=0x10(10)\r\n"
	"Switch\t4 \"S-0000000000000010\"\t\t# \"MF0;sw \"one\"/a:b\" base port 0 lid 5 lmc 1\r\n"
	"[1][ext 7]\t\"H-0000000000000020\"[1](21) \t\t# \"host \"x\" 1\" lid 9 2xNDR\r\n"
	"[2]\t\"H-0000000000000020\"[2](22) \t\t# \"host \"x\" 1\" lid 10 4x???\r\n"
	"[3]\t\"R-0000000000000030\"[1](31) \t\t# \"rtr\" lid 11 12xEDR s=2 w=8 v=4\r\n"
	"[4]\t\"H-0000000000000040\"[1](41) \t\t# \"h2\" lid 12 ??QDR\r\n"
	"caguid=0x20\r\n"
	"Ca\t2 \"H-0000000000000020\"\t\t# \"host \"x\" 1\"\r\n"
	"[1](21) \t\"S-0000000000000010\"[1][ext 7]\t\t# lid 9 lmc 0 \"MF0;sw \"one\"/a:b\" lid 5 2xNDR\r\n"
	"[2](22) \t\"S-0000000000000010\"[2]\t\t# lid 10 lmc 0 \"MF0;sw \"one\"/a:b\" lid 5 4x???\r\n"
	"rtguid=0x30\r\n"
	"Rt\t1 \"R-0000000000000030\"\t\t# \"rtr\"\r\n"
	"[1](31) \t\"S-0000000000000010\"[3]\t\t# lid 11 lmc 0 \"MF0;sw \"one\"/a:b\" lid 5 12xEDR\r\n"
	"Ca\t1 \"H-0000000000000040\"\t\t# \"h2\"\r\n"
	"[1](41) \t\"S-0000000000000010\"[4]\t\t# lid 12 lmc 0 \"MF0;sw \"one\"/a:b\" lid 5 ??QDR\r\n";

static void dump_variants_parse(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	const struct ibtopo_node *sw, *ca;
	const struct ibtopo_link *l;
	struct warnings w;

	f = read_text(variants, IBTOPO_FILE_AUTO, &w, &err);
	if (!f)
		fail_msg("%s", err.message);
	assert_int_equal(w.n, 0);
	sw = ibtopo_fabric_find_node(f, 0x10);
	ca = ibtopo_fabric_find_node(f, 0x20);
	assert_non_null(sw);
	assert_string_equal(sw->desc, "MF0;sw \"one\"/a:b");
	assert_string_equal(ca->desc, "host \"x\" 1");
	assert_false(sw->enhanced_port0);
	assert_int_equal(sw->ports[0]->lid, 5);
	assert_int_equal(sw->ports[0]->lmc, 1);
	assert_int_equal(sw->ports[0]->guid, 0x10);
	assert_int_equal(sw->ports[1]->ext_num, 7);
	assert_int_equal(ca->ports[1]->lid, 9);
	assert_int_equal(ca->ports[2]->guid, 0x22);
	assert_int_equal(ibtopo_fabric_find_port(f, 0x22), ca->ports[2]);
	l = find_link(f, 0x20, 1);
	assert_int_equal(l->width, IBTOPO_WIDTH_2X);
	assert_int_equal(l->speed, IBTOPO_SPEED_NDR);
	l = find_link(f, 0x20, 2);
	assert_int_equal(l->width, IBTOPO_WIDTH_4X);
	assert_int_equal(l->speed, 0); /* 4x??? */
	l = find_link(f, 0x40, 1);
	assert_int_equal(l->width, 0); /* ??QDR */
	assert_int_equal(l->speed, IBTOPO_SPEED_QDR);
	l = find_link(f, 0x30, 1);
	assert_int_equal(ibtopo_fabric_find_node(f, 0x30)->type,
			 IBTOPO_NODE_ROUTER);
	assert_int_equal(l->width, IBTOPO_WIDTH_12X);
	assert_int_equal(l->speed, IBTOPO_SPEED_EDR);
	assert_int_equal(ibtopo_fabric_link_count(f), 4);
	ibtopo_fabric_free(f);
}

/* Records back to back with no blank lines, and only one side of each link. */
static void records_without_blank_lines(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;

	f = read_text(
		"Switch 8 \"S-0000000000000001\" # \"a\" enhanced port 0 lid 1 lmc 0\n"
		"[1] \"H-0000000000000002\"[1](3) # \"b\" lid 2 4xHDR\n"
		"Ca 1 \"H-0000000000000002\" # \"b\"\n"
		"[1](3) \"S-0000000000000001\"[1] # lid 2 lmc 0 \"a\" lid 1 4xHDR\n",
		IBTOPO_FILE_AUTO, NULL, &err);
	assert_non_null(f);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
	assert_true(ibtopo_fabric_find_node(f, 1)->enhanced_port0);
	ibtopo_fabric_free(f);
}

static void sides_that_disagree_load_with_a_warning(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	struct warnings w;

	/* A[3] says B[5]; B[5] says C[7]; C[7] says B[5] */
	f = read_text("Switch 8 \"A\"\n"
		      "[3] \"B\"[5] # \"B\" lid 0 4xHDR\n"
		      "\n"
		      "Switch 8 \"B\"\n"
		      "[5] \"C\"[7] # \"C\" lid 0 4xHDR\n"
		      "\n"
		      "Switch 8 \"C\"\n"
		      "[7] \"B\"[5] # \"B\" lid 0 4xHDR\n",
		      IBTOPO_FILE_AUTO, &w, &err);
	assert_non_null(f);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
	assert_int_equal(w.n, 2);
	assert_string_equal(
		w.text[0],
		"t.topo:2: port 3 of 'A' says 'B'[5], but t.topo:5: port 5 of 'B' says 'C'[7]");
	assert_string_equal(
		w.text[1],
		"t.topo:2: port 3 of 'A' says 'B'[5], but t.topo:8: port 7 of 'C' says 'B'[5]");
	ibtopo_fabric_free(f);

	/* both ends name each other but state different speeds */
	f = read_text("Switch 8 \"A\"\n[3] \"B\"[5] # \"B\" lid 0 4xHDR\n"
		      "Switch 8 \"B\"\n[5] \"A\"[3] # \"A\" lid 0 4xEDR\n",
		      IBTOPO_FILE_AUTO, &w, &err);
	assert_non_null(f);
	assert_int_equal(w.n, 1);
	assert_string_equal(
		w.text[0],
		"t.topo:2: port 3 of 'A' says 4xHDR, but t.topo:4: port 5 of 'B' says 4xEDR");
	assert_int_equal(ibtopo_fabric_link(f, 0)->speed, IBTOPO_SPEED_HDR);
	ibtopo_fabric_free(f);
}

/* ---- plans ---- */

static const char plan[] =
	"# planned: two leaves, one spine\n"
	"Switch 4 \"leaf01\"\n"
	"[1] \"host001\"[1] # \"host001\" lid 0 4xHDR\n"
	"[3] \"spine01\"[1] # \"spine01\" lid 0 4xHDR\n"
	"\n"
	"Switch 4 \"leaf02\" # \"leaf02 rack 7\"\n"
	"[1] \"host002\"[1] # \"host002\" lid 0 2xNDR\n"
	"[3] \"spine01\"[2]\n"
	"\n"
	"Switch 4 \"spine01\"\n"
	"[1] \"leaf01\"[3] # \"leaf01\" lid 0 4xHDR\n"
	"[2] \"leaf02\"[3]\n"
	"Ca 1 \"host001\"\n"
	"[1] \"leaf01\"[1] # lid 0 lmc 0 \"leaf01\" lid 0 4xHDR\n"
	"Ca 1 \"host002\"\n"
	"[1] \"leaf02\"[1]\n";

/*
 * A port with LID 0 (not yet assigned one) keeps the LMC its line states,
 * as an ibnetdiscover cache can carry it; only "lid 0 lmc 0", as plans
 * write it, says nothing. 6c423bb: the reader dropped LID and LMC with
 * LID 0, so "lid 0 lmc 1" was written and read back as LMC 0.
 */
static void lmc_is_kept_when_lid_is_0(void **state)
{
	static const char text[] =
		"Switch\t4 \"S-0000000000000001\"\t# \"sw\" base port 0 lid 0 lmc 2\n"
		"[1]\t\"H-0000000000000002\"[1](2)\t# \"h2\" lid 0 4xHDR\n"
		"[2]\t\"H-0000000000000003\"[1](3)\t# \"h3\" lid 0 4xHDR\n"
		"\n"
		"Ca\t1 \"H-0000000000000002\"\t# \"h2\"\n"
		"[1](2)\t\"S-0000000000000001\"[1]\t# lid 0 lmc 1 \"sw\" lid 0 4xHDR\n"
		"\n"
		"Ca\t1 \"H-0000000000000003\"\t# \"h3\"\n"
		"[1](3)\t\"S-0000000000000001\"[2]\t# lid 0 lmc 0 \"sw\" lid 0 4xHDR\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f, *g = NULL;
	const struct ibtopo_port *p;
	char *out;

	f = read_ok(text);
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x2), 1);
	assert_int_equal(p->lid, 0);
	assert_int_equal(p->lmc, 1);
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x3), 1);
	assert_int_equal(p->lid, 0);
	assert_int_equal(p->lmc, 0);
	/* the switch's port 0: LID 0, LMC 2 */
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x1), 0);
	assert_non_null(p);
	assert_int_equal(p->lid, 0);
	assert_int_equal(p->lmc, 2);

	/* written out and read back: the same LMCs */
	out = write_fabric(f, IBTOPO_EXPORT_IBNETDISCOVER);
	assert_non_null(strstr(out, "# lid 0 lmc 1 \"sw\""));
	assert_non_null(strstr(out, "base port 0 lid 0 lmc 2"));
	if (ibtopo_fabric_read_buffer(&g, out, strlen(out), "rt", NULL, &err))
		fail_msg("written back: %s", err.message);
	assert_int_equal(
		ibtopo_node_port(ibtopo_fabric_find_node(g, 0x2), 1)->lmc, 1);
	assert_int_equal(
		ibtopo_node_port(ibtopo_fabric_find_node(g, 0x1), 0)->lmc, 2);
	free(out);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
}

static void plans_get_guids_from_names(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	const struct ibtopo_node *leaf, *host;
	const struct ibtopo_link *l;
	struct warnings w;

	f = read_text(plan, IBTOPO_FILE_AUTO, &w, &err);
	if (!f)
		fail_msg("%s", err.message);
	assert_int_equal(w.n, 0); /* plans may state a link once */
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH), 3);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 2);
	assert_int_equal(ibtopo_fabric_link_count(f), 4);
	leaf = ibtopo_fabric_find_node(f, ibtopo_name_guid("leaf01"));
	assert_non_null(leaf);
	assert_string_equal(leaf->desc, "leaf01");
	assert_string_equal(
		ibtopo_fabric_find_node(f, ibtopo_name_guid("leaf02"))->desc,
		"leaf02 rack 7");
	host = ibtopo_fabric_find_node(f, ibtopo_name_guid("host002"));
	assert_non_null(host);
	assert_int_equal(host->type, IBTOPO_NODE_CA);
	l = host->ports[1]->link;
	assert_int_equal(l->speed, IBTOPO_SPEED_NDR);
	assert_int_equal(l->width, IBTOPO_WIDTH_2X);
	/* no trailer: nothing planned */
	l = find_link(f, ibtopo_name_guid("spine01"), 2);
	assert_int_equal(l->speed, 0);
	assert_int_equal(l->width, 0);
	assert_null(leaf->ports[0]); /* no LID stated */
	/* stable: the 64-bit FNV-1a of the name with bit 57 set */
	assert_int_equal(ibtopo_name_guid("leaf01"),
			 0xb005c77ad200952aull | 0x0200000000000000ull);
	ibtopo_fabric_free(f);
}

/* ---- ibsim net files ---- */

static void ibsim_nets_train_as_ibsim(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	const struct ibtopo_link *l;
	const struct ibtopo_node *sw;

	f = read_ok("width=3\n"
		      "speed=7\n"
		      "extspeed=7\n"
		      "\n"
		      "switchguid=0x100\n"
		      "Switch\t8 \"leaf01\"\n"
		      "[1]\t\"host001\"[1]\n"
		      "[2]\t\"host002\"[1]\te=3\n"
		      "[3]\t\"host003\"\n"
		      "[4]\t\"spine01\"[1]\tw=1\n"
		      "[5]\t\"host004\"[1]\t# \"host004\" lid 0 4xFDR10\n"
		      "\n"
		      "Switch\t8 \"spine01\"\n"
		      "[1]\t\"leaf01\"[4]\n"
		      "\n"
		      "caguid=0x200\n"
		      "Hca\t1 \"host001\"\n"
		      "[1]\t\"leaf01\"[1]\n"
		      "\n"
		      "Hca\t1 \"host002\"\n"
		      "[1]\t\"leaf01\"[2]\te=3\n"
		      "\n"
		      "Hca\t1 \"host003\"\n"
		      "[1]\t\"leaf01\"[3]\n"
		      "Hca\t1 \"host004\"\t# \"host004 mlx5_0\"\n"
		      "[1]\t\"leaf01\"[5]\te=0 # lid 0 4xFDR10\n");
	sw = ibtopo_fabric_find_node(f, 0x100);
	assert_non_null(sw);
	assert_string_equal(sw->desc, "leaf01");
	/* globals: HDR and 4x on both ends */
	l = find_link(f, 0x200, 1);
	assert_int_equal(l->speed, IBTOPO_SPEED_HDR);
	assert_int_equal(l->width, IBTOPO_WIDTH_4X);
	assert_int_equal(l->a->width_enabled,
			 IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X);
	assert_int_equal(l->a->width_supported, IBTOPO_WIDTH_ALL);
	assert_int_equal(l->a->speed_supported,
			 IBTOPO_SPEED_SDR | IBTOPO_SPEED_DDR |
				 IBTOPO_SPEED_QDR | IBTOPO_SPEED_FDR |
				 IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR);
	assert_int_equal(
		ibtopo_node_port(ibtopo_fabric_find_node(f, 0x200), 1)->guid,
		0x201);
	/* GUIDs as ibsim gives them: per type from the last guid line, in
	 * file order; a switch takes one, a CA one and one per port */
	assert_string_equal(ibtopo_fabric_find_node(f, 0x101)->desc, "spine01");
	assert_string_equal(ibtopo_fabric_find_node(f, 0x206)->desc,
			    "host004 mlx5_0");
	/* e=3 on both ends: EDR */
	l = ibtopo_fabric_find_node(f, 0x202)->ports[1]->link;
	assert_int_equal(l->speed, IBTOPO_SPEED_EDR);
	/* no peer port: ibsim's default, port 1 */
	l = ibtopo_fabric_find_node(f, 0x204)->ports[1]->link;
	assert_non_null(l);
	/* w=1 on one end: 1x */
	assert_int_equal(find_link(f, 0x100, 4)->width, IBTOPO_WIDTH_1X);
	/* the trailer makes FDR10 when no extended speed is common */
	assert_int_equal(find_link(f, 0x100, 5)->speed, IBTOPO_SPEED_FDR10);
	ibtopo_fabric_free(f);

	/* no guid line: ibsim's own bases, 0x200000 and 0x100000 */
	f = read_ok("Switch 8 \"a\"\n[1] \"b\"[1]\n[2] \"c\"[1]\n"
		      "Hca 2 \"b\"\n[1] \"a\"[1]\nHca 1 \"c\"\n[1] \"a\"[2]\n");
	assert_string_equal(ibtopo_fabric_find_node(f, 0x200000)->desc, "a");
	assert_string_equal(ibtopo_fabric_find_node(f, 0x100000)->desc, "b");
	assert_string_equal(ibtopo_fabric_find_node(f, 0x100003)->desc, "c");
	assert_non_null(ibtopo_fabric_find_port(f, 0x100004));
	ibtopo_fabric_free(f);

	/* ibsim stops on widths with no common bit: so do we */
	f = read_text(
		"Switch 8 \"a\"\n[1] \"b\"[1] w=1\nHca 1 \"b\"\n[1] \"a\"[1] w=2\n",
		IBTOPO_FILE_AUTO, NULL, &err);
	assert_null(f);
	assert_int_equal(err.code, IBTOPO_EPARSE);
	assert_non_null(
		strstr(err.message, "t.topo:2: no enabled width common"));
}

/* ---- the -p ports report ---- */

static void ports_report_with_and_without_dr_paths(void **state)
{
	static const char body[] =
		"CA     2  1 0x0000000000000a11 4x QDR - SW     5 3 0x0000000000000b00 ( 'h1 HCA-1' - 'leaf' )\n"
		"SW     5  3 0x0000000000000b00 4x QDR - CA     2 1 0x0000000000000a11 ( 'leaf' - 'h1 HCA-1' )\n"
		"SW     5  4 0x0000000000000b00 4x ???                                    'leaf'\n"
		"SW     5  5 0x0000000000000b00 1x SDR                                    'leaf'\n";
	static const char dr[] =
		"DR path slid 0; dlid 0; 0 -> new Channel Adapter {0000000000000a10} portnum 1 lid 0-0 \"\"\n"
		"DR path slid 0; dlid 0; 0,1 -> new Switch {0000000000000b00} portnum 0 lid 0-0 \"\"\n";
	struct ibtopo_fabric *f;
	char both[1024];
	const struct ibtopo_node *sw;

	f = read_ok(body);
	/* without DR paths the port GUID stands for the CA */
	assert_non_null(ibtopo_fabric_find_node(f, 0xa11));
	sw = ibtopo_fabric_find_node(f, 0xb00);
	assert_int_equal(sw->nports, 5);
	assert_int_equal(sw->ports[0]->lid, 5);
	assert_non_null(sw->ports[4]); /* unconnected, but there */
	assert_null(sw->ports[4]->link);
	assert_int_equal(sw->ports[5]->speed_active, 0);
	assert_int_equal(find_link(f, 0xb00, 3)->speed, IBTOPO_SPEED_QDR);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
	ibtopo_fabric_free(f);

	snprintf(both, sizeof(both), "%s%s", dr, body);
	f = read_ok(both);
	assert_null(ibtopo_fabric_find_node(f, 0xa11));
	assert_non_null(ibtopo_fabric_find_node(f, 0xa10));
	assert_string_equal(ibtopo_fabric_find_node(f, 0xa10)->desc,
			    "h1 HCA-1");
	assert_int_equal(ibtopo_fabric_find_node(f, 0xa10)->ports[1]->guid,
			 0xa11);
	assert_int_equal(ibtopo_fabric_find_node(f, 0xa10)->ports[1]->lid, 2);
	ibtopo_fabric_free(f);
}

/*
 * Without -v a report names CA ports: a dual-port CA reads as two CAs,
 * and the reader says so once, counting them, and how to get -v.
 */
static void ports_report_without_dr_paths_warns_once(void **state)
{
	static const char body[] =
		"CA     2  1 0x0000000000000a11 4x EDR - SW     5 3 0x0000000000000b00 ( 'h1 HCA-1' - 'leaf' )\n"
		"CA     3  2 0x0000000000000a12 4x EDR - SW     5 4 0x0000000000000b00 ( 'h1 HCA-1' - 'leaf' )\n"
		"CA     4  1 0x0000000000000a21 4x EDR - SW     5 5 0x0000000000000b00 ( 'h2 HCA-1' - 'leaf' )\n";
	static const char dr[] =
		"DR path slid 0; dlid 0; 0 -> new Channel Adapter {0000000000000a10} portnum 1 lid 0-0 \"\"\n"
		"DR path slid 0; dlid 0; 0,1 -> new Switch {0000000000000b00} portnum 0 lid 0-0 \"\"\n"
		"DR path slid 0; dlid 0; 0,1,4 -> new Channel Adapter {0000000000000a10} portnum 2 lid 0-0 \"\"\n"
		"DR path slid 0; dlid 0; 0,1,5 -> new Channel Adapter {0000000000000a20} portnum 1 lid 0-0 \"\"\n";
	/* a -v report lists every port of every node: the switch's too */
	static const char sw[] =
		"SW     5  3 0x0000000000000b00 4x EDR - CA     2 1 0x0000000000000a11 ( 'leaf' - 'h1 HCA-1' )\n"
		"SW     5  4 0x0000000000000b00 4x EDR - CA     3 2 0x0000000000000a12 ( 'leaf' - 'h1 HCA-1' )\n"
		"SW     5  5 0x0000000000000b00 4x EDR - CA     4 1 0x0000000000000a21 ( 'leaf' - 'h2 HCA-1' )\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	struct warnings w;
	char both[2048];

	f = read_text(body, IBTOPO_FILE_AUTO, &w, &err);
	if (!f)
		fail_msg("%s", err.message);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 3);
	assert_int_equal(w.n, 1);
	assert_string_equal(
		w.text[0],
		"t.topo: 3 CA ports read as 3 CAs (2 of "
		"them share a description with another): without -v an "
		"ibnetdiscover -p report cannot join the ports of one CA; run "
		"`ibnetdiscover -p -v` for one node per CA");
	ibtopo_fabric_free(f);

	/* with the DR paths: two CAs, nothing to say */
	snprintf(both, sizeof(both), "%s%s%s", dr, body, sw);
	f = read_text(both, IBTOPO_FILE_AUTO, &w, &err);
	if (!f)
		fail_msg("%s", err.message);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 2);
	assert_int_equal(ibtopo_fabric_find_node(f, 0xa10)->ports[2]->guid,
			 0xa12);
	assert_int_equal(w.n, 0);
	ibtopo_fabric_free(f);
}

static void plafrim_cas_get_node_guids_from_dr_paths(void **state)
{
	struct ibtopo_fabric *f;
	const struct ibtopo_node *n;

	need(REAL "plafrim2-subnet1.ports-verbose.txt");
	f = read_path(REAL "plafrim2-subnet1.ports-verbose.txt", NULL, NULL);
	/* 0,1,35 -> new Channel Adapter {f4521403001b7970}; CA 2 1 0xf4521403001b7971 */
	n = ibtopo_fabric_find_node(f, 0xf4521403001b7970ull);
	assert_non_null(n);
	assert_string_equal(n->desc, "bright mlx4_0");
	assert_int_equal(n->ports[1]->guid, 0xf4521403001b7971ull);
	assert_int_equal(n->ports[1]->link->speed, IBTOPO_SPEED_SDR);
	ibtopo_fabric_free(f);
}

/* ---- bad input ---- */

/*
 * Two nodes of one GUID: two records (read as the first, with a warning)
 * whose port two switches claim, and one record whose port two switches
 * claim (a merged node): the clash, with both peers.
 */
static void two_nodes_of_one_guid_are_a_clash(void **state)
{
	static const char *const text[] = {
		"switchguid=0x1\nSwitch 4 \"s1\"\n[1] \"h1\"[1]\n\n"
		"switchguid=0x2\nSwitch 4 \"s2\"\n[1] \"h2\"[1]\n\n"
		"caguid=0x7\nCa 1 \"h1\" # \"host1\"\n[1] \"s1\"[1]\n\n"
		"caguid=0x7\nCa 1 \"h2\" # \"host2\"\n[1] \"s2\"[1]\n",
		"switchguid=0x1\nSwitch 4 \"s1\"\n[1] \"h1\"[1]\n\n"
		"switchguid=0x2\nSwitch 4 \"s2\"\n[1] \"h1\"[1]\n\n"
		"caguid=0x7\nCa 1 \"h1\" # \"host1\"\n[1] \"s1\"[1]\n",
	};
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_guid_clash *c;
	struct warnings w;

	(void)state;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(text); i++) {
		struct ibtopo_fabric *f = read_text(text[i], IBTOPO_FILE_AUTO,
						    &w, &err);

		assert_non_null(f);
		assert_int_equal(ibtopo_fabric_node_count(f), 3);
		assert_int_equal(ibtopo_fabric_link_count(f), 1);
		assert_int_equal(ibtopo_fabric_guid_clash_count(f), 1 + (i == 0));
		c = ibtopo_fabric_guid_clash(f, i == 0 ? 1 : 0);
		assert_int_equal(c->guid, 7);
		assert_int_equal(c->port, 1);
		assert_int_equal(c->peer_guid[0], 1);
		assert_int_equal(c->peer_port[0], 1);
		assert_int_equal(c->peer_guid[1], 2);
		assert_int_equal(c->peer_port[1], 1);
		assert_true(w.n >= 1);
		ibtopo_fabric_free(f);
	}
	assert_string_equal(w.text[0], "t.topo:3: port 1 of 's1' says 'h1'[1], "
			    "but t.topo:7: port 1 of 's2' says 'h1'[1]");
}

static void bad_input_fails_with_file_and_line(void **state)
{
	static const char garbage[] = "Switch 4 \"a\"\n\x01\x02\x7f\xff\n";
	char *longline;
	char *cut;
	size_t n;

	expect_parse_error(
		"Switch 4 \"a\"\n[1] \"b\"\n", ALL, 2,
		"malformed port line (expected '[<port>]' after the peer name)");
	expect_parse_error(
		"Switch 4 \"a\"\n[x] \"b\"[1]\n", ALL, 2,
		"malformed port line (expected '[<port>]' at its start)");
	expect_parse_error("Switch 4 \"a\"\n[1] b[1]\n", ALL, 2,
			   "expected '\"<peer>\"[<port>]' after '[1]'");
	expect_parse_error("Switch 4 \"a\"\n[1] \"b\"[1] junk\n", ALL, 2,
			   "unexpected 'junk' after the peer port");
	expect_parse_error("Switch 4 \"a\"\n[1] \"b\"[1] # \"b\" lid 0 4xQQR\n",
			   ALL, 2, "unknown width or speed '4xQQR'");
	expect_parse_error(garbage, sizeof(garbage) - 1, 2,
			   "binary data (expected text)");
	expect_parse_error("\0\0\0\0ELF", 8, 1, "binary data");
	expect_parse_error("", 0, 1, "empty file");
	expect_parse_error("\n  \n\t\n", 5, 1, "empty file");
	expect_parse_error("# only comments\n", ALL, 1, "not a fabric file");
	expect_parse_error("[1] \"b\"[1]\nSwitch 4 \"b\"\n", ALL, 1,
			   "port line before any node record");
	expect_parse_error("Switch 0 \"a\"\n", ALL, 1,
			   "port count 0 out of range");
	expect_parse_error("Switch 4 \"a\"\n[5] \"a\"[1]\n", ALL, 2,
			   "port 5 out of range ('a' has ports 1..4)");
	expect_parse_error("Switch 4 \"a\"\n[1] \"a\"[1]\n", ALL, 2,
			   "port 1 linked to itself");
	expect_parse_error("Switch 4 \"a\"\n[1] \"b\"[1]\n[1] \"c\"[1]\n"
			   "Switch 4 \"b\"\nSwitch 4 \"c\"\n",
			   ALL, 3,
			   "port 1 of 'a' listed twice (first at line 2)");
	/* duplicate GUIDs: the same record again must say the same */
	expect_parse_error(
		"Switch 4 \"S-0000000000000001\" # \"x\"\n"
		"Switch 4 \"S-0000000000000001\" # \"y\"\n",
		ALL, 2,
		"node 'S-0000000000000001' again, but not as its record at line 1");
	/* two nodes of one GUID are read as one (a clash), but not a
	 * switch and a CA */
	expect_parse_error(
		"switchguid=0x7\nSwitch 4 \"a\"\n"
		"caguid=0x7\nCa 1 \"b\"\n",
		ALL, 4,
		"node 'b' has GUID 0x0000000000000007, as 'a' at line 2");
	expect_parse_error(
		"Switch 4 \"a\"\n[1] \"b\"[1]\nCa 1 \"b\"\n"
		"Switch 4 \"a\"\n[1] \"b\"[2]\n",
		ALL, 5,
		"node 'a' again, but port 1 differs from its record at line 1");
	expect_parse_error("Switch 4 \"a\"\n[1] \"b\"[1]\n", ALL, 2,
			   "'b' has no node record (truncated file?)");
	expect_parse_error(
		"SW     5  3 0x0000000000000b00 4x QDR - CA 2 1 0x0000 ( 'a' - 'b' )\n",
		ALL, 1, "peer port GUID 0 (expected a non-zero GUID)");
	expect_parse_error("SW     5  3 0x0000000000000b00 4x QDR - CA 2\n",
			   ALL, 1,
			   "malformed port line (expected '- <CA|SW|RT>");

	longline = malloc(5000);
	memcpy(longline, "Switch 4 \"a\" # \"", 16);
	memset(longline + 16, 'x', 4900);
	memcpy(longline + 4916, "\"\n", 3);
	expect_parse_error(longline, strlen(longline), 1,
			   "line longer than 4096 bytes");
	free(longline);

	/* a real dump cut in the middle of a line, and at a line's end */
	need(REAL "x5-mixed-ddr-qdr.topo");
	{
		char *buf = NULL;
		struct ibtopo_error err = IBTOPO_ERROR_INIT;

		assert_int_equal(ibtopo__read_whole_file(
					 &buf, &n, REAL "x5-mixed-ddr-qdr.topo",
					 &err),
				 0);
		cut = strstr(buf, "[7]\t\"S-0008f10500108098\"[34]");
		assert_non_null(cut);
		expect_parse_error(
			buf, (size_t)(cut - buf) + 10, 56,
			"malformed port line (unterminated peer name)");
		cut = strstr(buf, "\nCa\t1");
		expect_parse_error(buf, (size_t)(cut - buf) + 1, 14,
				   "has no node record (truncated file?)");
		free(buf);
	}
}

static void bad_arguments(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;

	assert_int_equal(ibtopo_fabric_read_buffer(NULL, "x", 1, "t", NULL,
						   &err),
			 IBTOPO_EINVAL);
	o.format = IBTOPO_FILE_CACHE;
	assert_int_equal(ibtopo_fabric_read_buffer(&f, "x", 1, "t", &o, &err),
			 IBTOPO_EINVAL);
	assert_int_equal(ibtopo_fabric_read_file(&f, "/nonexistent/x.topo",
						 NULL, &err),
			 IBTOPO_EIO);
	assert_null(f);
	assert_int_equal(ibtopo_file_format_parse("ports"), IBTOPO_FILE_PORTS);
	assert_int_equal(ibtopo_file_format_parse("plan"),
			 IBTOPO_FILE_IBNETDISCOVER);
	assert_int_equal(ibtopo_file_format_parse("nope"), -1);
	assert_string_equal(ibtopo_file_format_name(IBTOPO_FILE_IBSIM),
			    "ibsim");
	assert_int_equal(ibtopo_export_format_parse("slurm"),
			 IBTOPO_EXPORT_SLURM);
	assert_int_equal(ibtopo_export_format_parse("dot"), -1);
	assert_string_equal(ibtopo_export_format_name(IBTOPO_EXPORT_JSON),
			    "json");
}

/* ---- node-name maps ---- */

static void name_maps_in_both_formats(void **state)
{
	static const char text[] =
		"# comment\n"
		"0x0002c90300080e84 \"r510gluster1\"   # trailing comment\n"
		"0x10 \"two words\"\n"
		"H-78e7d10300227744 sl390lin1\n"
		"0x10 \"second entry loses\"\n"
		"\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_name_map *m = NULL;
	struct ibtopo_fabric *f;
	size_t renamed = 0;

	assert_int_equal(
		ibtopo_name_map_parse(&m, text, strlen(text), "m", &err), 0);
	assert_int_equal(ibtopo_name_map_count(m), 3);
	assert_string_equal(ibtopo_name_map_lookup(m, 0x0002c90300080e84ull),
			    "r510gluster1");
	assert_string_equal(ibtopo_name_map_lookup(m, 0x10), "two words");
	assert_string_equal(ibtopo_name_map_lookup(m, 0x78e7d10300227744ull),
			    "sl390lin1");
	assert_null(ibtopo_name_map_lookup(m, 0x11));
	f = read_text("Switch 4 \"S-0000000000000010\"\n", IBTOPO_FILE_AUTO,
		      NULL, &err);
	assert_int_equal(ibtopo_name_map_apply(m, f, &renamed, &err), 0);
	assert_int_equal(renamed, 1);
	assert_string_equal(ibtopo_fabric_find_node(f, 0x10)->desc,
			    "two words");
	ibtopo_fabric_free(f);
	ibtopo_name_map_free(m);

	assert_int_equal(ibtopo_name_map_parse(&m, "x10 \"a\"\n", 8, "m", &err),
			 IBTOPO_EPARSE);
	assert_string_equal(
		err.message,
		"m:1: expected '0x<guid> \"<name>\"' or 'H-<guid> <name>'");
	assert_int_equal(ibtopo_name_map_parse(&m, "0x10\n0x11 \"b\n", 12, "m",
					       &err),
			 IBTOPO_EPARSE);
	assert_string_equal(
		err.message,
		"m:1: expected a GUID of up to 16 hex digits, then the name");
	assert_null(m);
}

/* The one call every reader and the CLI make: load a map file, apply it. */
static void name_map_file_renames_nodes_or_says_why_not(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;

	(void)state;
	f = read_text("Switch 4 \"S-0000000000000010\"\n", IBTOPO_FILE_AUTO,
		      NULL, &err);
	assert_int_equal(ibtopo_name_map_apply_file(
				 TEST_DATADIR "/tf-names.map", f, &err),
			 0);
	assert_string_equal(ibtopo_fabric_find_node(f, 0x10)->desc,
			    "two words");
	assert_int_equal(ibtopo_name_map_apply_file(TEST_DATADIR "/no-such.map",
						    f, &err),
			 IBTOPO_EIO);
	assert_non_null(strstr(err.message, "no-such.map"));
	assert_string_equal(ibtopo_fabric_find_node(f, 0x10)->desc,
			    "two words");
	ibtopo_fabric_free(f);
}

/* Error messages quote input printably: no raw byte reaches a terminal. */
static bool printable_line(const char *m)
{
	for (const unsigned char *p = (const unsigned char *)m; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p >= 0x80)
			return false;
	return true;
}

static void errors_quote_input_printably(void **state)
{
	static const char name[] = "Switch 4 \"a\"\n[1] \"b\xc3(\tz\"[1]\n";
	static const char speed[] =
		"Switch 4 \"a\"\n[1] \"b\"[1] # \"b\" lid 0 4x\xff"
		"DR\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct warnings w;
	char *longname;

	(void)state;
	assert_int_equal(ibtopo_fabric_read_buffer(&f, name, strlen(name),
						   "t.topo", NULL, &err),
			 IBTOPO_EPARSE);
	assert_string_equal(err.message,
			    "t.topo:2: 'b\\xc3(\\x09z' has no node "
			    "record (truncated file?)");
	assert_int_equal(ibtopo_fabric_read_buffer(&f, speed, strlen(speed),
						   "t.topo", NULL, &err),
			 IBTOPO_EPARSE);
	assert_string_equal(err.message, "t.topo:2: unknown width or speed "
					 "'4x\\xffDR' (expected e.g. 4xHDR)");
	/* well-formed UTF-8 stays as it is */
	assert_int_equal(ibtopo_fabric_read_buffer(
				 &f, "Switch 4 \"a\"\n[1] \"h\xc3\xa9\"[1]\n",
				 26, "t.topo", NULL, &err),
			 IBTOPO_EPARSE);
	assert_string_equal(err.message, "t.topo:2: 'h\xc3\xa9' has no node "
					 "record (truncated file?)");

	/* a long name is cut to fit, still printable, marked "..." */
	longname = malloc(1200);
	assert_non_null(longname);
	memcpy(longname, "Switch 4 \"a\"\n[1] \"", 18);
	memset(longname + 18, 0xff, 1000);
	memcpy(longname + 1018, "\"[1]\n", 6);
	assert_int_equal(ibtopo_fabric_read_buffer(&f, longname,
						   strlen(longname), "t.topo",
						   NULL, &err),
			 IBTOPO_EPARSE);
	assert_true(printable_line(err.message));
	assert_true(strlen(err.message) > IBTOPO_ERROR_SIZE - 8);
	assert_true(strlen(err.message) < IBTOPO_ERROR_SIZE);
	assert_memory_equal(err.message, "t.topo:2: '\\xff\\xff", 19);
	assert_memory_equal(err.message + strlen(err.message) - 3, "...", 3);
	free(longname);

	/* warnings too: two sides that disagree quote both names */
	f = read_text("Switch 4 \"a\"\n[1] \"b\"[1] # \"b\xff\" lid 0 4xQDR\n"
		      "Switch 4 \"b\"\n[1] \"a\"[2]\n",
		      IBTOPO_FILE_AUTO, &w, &err);
	assert_non_null(f);
	assert_true(w.n >= 1);
	for (size_t i = 0; i < w.n && i < 8; i++)
		assert_true(printable_line(w.text[i]));
	ibtopo_fabric_free(f);
}

static void x5_map_names_its_hosts(void **state)
{
	struct ibtopo_fabric *f;

	need(REAL "x5-mixed-ddr-qdr.topo");
	need(REAL "x5-mixed-ddr-qdr.guid-map");
	f = read_path(REAL "x5-mixed-ddr-qdr.topo",
		      REAL "x5-mixed-ddr-qdr.guid-map", NULL);
	assert_string_equal(
		ibtopo_fabric_find_node(f, 0x0002c90300080e84ull)->desc,
		"r510gluster1");
	assert_string_equal(
		ibtopo_fabric_find_node(f, 0x78e7d1030024535cull)->desc,
		"MT25408 ConnectX Mellanox Technologies");
	ibtopo_fabric_free(f);
}

/* ---- writers ---- */

/* "a[1-3,7],b" -> "a1 a2 a3 a7 b" (sorted, space separated) */
static size_t expand_hostlist(const char *s, char names[][64], size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		const char *e = s, *br;
		int depth = 0;

		while (*e && (depth || *e != ',')) {
			depth += *e == '[';
			depth -= *e == ']';
			e++;
		}
		br = memchr(s, '[', (size_t)(e - s));
		if (!br) {
			snprintf(names[n++], 64, "%.*s", (int)(e - s), s);
		} else {
			const char *r = br + 1;

			while (r < e && *r != ']' && n < max) {
				char *end;
				const char *lo = r;
				unsigned long a = strtoul(r, &end, 10), b = a;
				int width = (int)(end - lo);

				r = end;
				if (*r == '-')
					b = strtoul(r + 1, &end, 10);
				r = end;
				for (unsigned long v = a; v <= b && n < max;
				     v++)
					snprintf(names[n++], 64, "%.*s%0*lu",
						 (int)(br - s), s, width, v);
				if (*r == ',')
					r++;
			}
		}
		s = *e ? e + 1 : e;
	}
	qsort(names, n, 64, (int (*)(const void *, const void *))strcmp);
	return n;
}

/* "SwitchName=X Nodes=..." -> X and the expanded list of Nodes or Switches */
static bool slurm_line(const char *line, char *name, char *kind,
		       char names[][64], size_t *n)
{
	const char *p = strstr(line, "SwitchName="), *q;

	if (!p)
		return false;
	p += 11;
	q = strchr(p, ' ');
	if (!q)
		q = p + strcspn(p, "\n");
	snprintf(name, 64, "%.*s", (int)(q - p), p);
	*n = 0;
	kind[0] = '\0';
	if (*q == ' ') {
		char list[8192];
		const char *eq = strchr(q, '=');

		snprintf(kind, 16, "%.*s", (int)(eq - q - 1), q + 1);
		snprintf(list, sizeof(list), "%.*s", (int)strcspn(eq + 1, "\n"),
			 eq + 1);
		*n = expand_hostlist(list, names, 256);
	}
	return true;
}

/* Does the line of switch `name` in `out` list `child`? */
static bool slurm_lists(const char *out, const char *name, const char *child)
{
	static char kids[256][64];
	char gname[64], gkind[16];
	size_t n;

	for (const char *o = out; o && *o;
	     o = strchr(o, '\n') ? strchr(o, '\n') + 1 : NULL) {
		if (!slurm_line(o, gname, gkind, kids, &n) ||
		    strcmp(gname, name))
			continue;
		for (size_t i = 0; i < n; i++)
			if (strcmp(kids[i], child) == 0)
				return true;
		return false;
	}
	return false;
}

/*
 * The x5 author's topology.conf has the same hosts under the same leaves,
 * but lists each neighbour of a spine as its child, the top switch
 * S-0008f105001086a2 too while it lists the spine: a cycle, which
 * slurmctld refuses ("not a tree"). Ours lists the same leaves and, for
 * switches, the author's children less the ones that list it. The
 * author named the hosts without a name H-<guid>: --host-names guid.
 */
static void slurm_matches_the_x5_authors_file(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	static char want[256][64], got[256][64];
	struct ibtopo_fabric *f;
	char *out, *ref = NULL;
	size_t len, matched = 0, dropped = 0;

	need(REAL "x5-mixed-ddr-qdr.topo");
	need(REAL "x5-mixed-ddr-qdr.slurm-topology.conf");
	f = read_path(REAL "x5-mixed-ddr-qdr.topo",
		      REAL "x5-mixed-ddr-qdr.guid-map", NULL);
	out = write_fabric_flags(f, IBTOPO_EXPORT_SLURM,
				 IBTOPO_EXPORT_HOST_GUIDS);
	assert_int_equal(ibtopo__read_whole_file(
				 &ref, &len,
				 REAL "x5-mixed-ddr-qdr.slurm-topology.conf",
				 &err),
			 0);
	ref = realloc(ref, len + 1);
	ref[len] = '\0';
	for (char *line = strtok(ref, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64], kind[16], gname[64], gkind[16];
		size_t nw, ng;
		const char *o;
		bool found = false;

		if (!slurm_line(line, name, kind, want, &nw))
			continue;
		for (o = out; o && *o;
		     o = strchr(o, '\n') ? strchr(o, '\n') + 1 : NULL) {
			if (!slurm_line(o, gname, gkind, got, &ng) ||
			    strcmp(gname, name))
				continue;
			found = true;
			assert_string_equal(gkind, kind);
			if (strcmp(kind, "Switches") == 0) {
				size_t k = 0;

				/* both sorted: ours is theirs less our parents */
				for (size_t i = 0; i < nw; i++) {
					if (k < ng &&
					    strcmp(got[k], want[i]) == 0)
						k++;
					else if (!slurm_lists(out, want[i],
							      name))
						fail_msg("%s does not list %s",
							 name, want[i]);
					else
						dropped++;
				}
				assert_int_equal(k, ng);
				break;
			}
			assert_int_equal(ng, nw);
			for (size_t i = 0; i < nw; i++)
				assert_string_equal(got[i], want[i]);
			break;
		}
		if (!found)
			fail_msg("switch %s missing", name);
		matched++;
	}
	assert_int_equal(matched, 11);
	/* 1086a2 under 10851e and 108530, which are under it */
	assert_int_equal(dropped, 2);
	assert_true(
		slurm_lists(out, "S-0008f105001086a2", "S-0008f1050010851e"));
	assert_non_null(strstr(out,
			       "SwitchName=S-0002c90200417670 Nodes="
			       "sl390lin[1-5,7-11,13-18,20-21,24-27,29,33]\n"));
	free(ref);
	free(out);
	ibtopo_fabric_free(f);
}

static void slurm_names_and_hostlists(void **state)
{
	struct ibtopo_fabric *f;
	char *out;

	f = read_ok(
		"Switch 8 \"S-0000000000000001\" # \"MF0;leaf01:MQM8790/U1\"\n"
		"[1] \"H-0000000000000011\"[1]\n[2] \"H-0000000000000012\"[1]\n"
		"[3] \"H-0000000000000013\"[1]\n[4] \"H-0000000000000014\"[1]\n"
		"[5] \"H-0000000000000015\"[1]\n[6] \"H-0000000000000016\"[1]\n"
		"[7] \"H-0000000000000017\"[1]\n[8] \"S-0000000000000002\"[1]\n"
		"Switch 8 \"S-0000000000000002\" # \"spine 1\"\n"
		"[1] \"S-0000000000000001\"[8]\n"
		"Ca 1 \"H-0000000000000011\" # \"node009 mlx5_0\"\n"
		"Ca 1 \"H-0000000000000012\" # \"node010 mlx5_0\"\n"
		"Ca 1 \"H-0000000000000013\" # \"node011 mlx5_0\"\n"
		"Ca 1 \"H-0000000000000014\" # \"node013 mlx5_0\"\n"
		"Ca 1 \"H-0000000000000015\" # \"MT4129 ConnectX7   Mellanox Technologies\"\n"
		"Ca 1 \"H-0000000000000016\" # \"Mellanox Technologies Aggregation Node\"\n"
		"Ca 1 \"H-0000000000000017\" # \"node013 mlx5_1\"\n");
	out = write_fabric(f, IBTOPO_EXPORT_SLURM);
	/* the firmware-default CA is left out (named by its GUID if asked) */
	assert_string_equal(
		out, "# Slurm topology.conf (topology/tree) written by ibtopo\n"
		     "# fabric: fabric-0000000000000001\n"
		     "# 4 hosts, 2 switches; tree: switches by analysis level\n"
		     "SwitchName=leaf01 Nodes=node[009-011,013]\n"
		     "SwitchName=S-0000000000000002 Switches=leaf01\n");
	free(out);
	out = write_fabric_flags(f, IBTOPO_EXPORT_SLURM,
				 IBTOPO_EXPORT_HOST_GUIDS);
	assert_non_null(strstr(out, "SwitchName=leaf01 Nodes="
				    "H-0000000000000015,node[009-011,013]\n"));
	free(out);
	ibtopo_fabric_free(f);
}

/*
 * A CA sharing its switch's system image GUID is part of the switch (a
 * SHARP node, here renamed): the topology and the diagrams count no
 * server there, so Slurm gets no host either.
 */
static void slurm_hosts_leave_out_switch_parts(void **state)
{
	struct ibtopo_fabric *f;
	char *out;

	f = read_ok(
		"sysimgguid=0x100\n"
		"Switch 2 \"S-0000000000000001\" # \"MF0;leaf01:MQM8790/U1\"\n"
		"[1] \"H-0000000000000011\"[1]\n[2] \"H-0000000000000012\"[1]\n"
		"sysimgguid=0x100\n"
		"Ca 1 \"H-0000000000000011\" # \"sharp01\"\n"
		"sysimgguid=0x12\n"
		"Ca 1 \"H-0000000000000012\" # \"node001 mlx5_0\"\n");
	out = write_fabric(f, IBTOPO_EXPORT_SLURM);
	assert_string_equal(
		out, "# Slurm topology.conf (topology/tree) written by ibtopo\n"
		     "# fabric: fabric-0000000000000001\n"
		     "# 1 host, 1 switch; tree: switches by analysis level\n"
		     "SwitchName=leaf01 Nodes=node001\n");
	free(out);
	ibtopo_fabric_free(f);
}

/* ibsim output read back (as ibsim would train it) keeps every link. */
static void ibsim_output_trains_as_the_fabric_ran(void **state)
{
	static const char *const files[] = {
		"tiny-mixed-speeds.topo",
		"x5-mixed-ddr-qdr.topo",
		"qdr-hosts-fdr10-isls.topo",
		"plafrim2-subnet0.ports-verbose.txt",
	};

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(files); i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_fabric *f, *g = NULL;
		char path[512];
		char *net;

		snprintf(path, sizeof(path), REAL "%s", files[i]);
		need(path);
		f = read_path(path, NULL, NULL);
		net = write_fabric(f, IBTOPO_EXPORT_IBSIM);
		assert_int_equal(ibtopo_file_format_detect(net, strlen(net)),
				 IBTOPO_FILE_IBSIM);
		if (ibtopo_fabric_read_buffer(&g, net, strlen(net), "net", NULL,
					      &err))
			fail_msg("%s: %s", files[i], err.message);
		assert_int_equal(ibtopo_fabric_link_count(g),
				 ibtopo_fabric_link_count(f));
		for (size_t k = 0; k < ibtopo_fabric_link_count(f); k++) {
			const struct ibtopo_link *a = ibtopo_fabric_link(f, k);
			const struct ibtopo_link *b = ibtopo_fabric_link(g, k);

			assert_int_equal(a->a->node->guid, b->a->node->guid);
			assert_int_equal(a->b->num, b->b->num);
			if (a->speed != b->speed || a->width != b->width)
				fail_msg("%s: link %zu: %x/%x vs %x/%x",
					 files[i], k, a->speed, a->width,
					 b->speed, b->width);
		}
		free(net);
		ibtopo_fabric_free(f);
		ibtopo_fabric_free(g);
	}
}

static void json_and_csv_exports(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	char *out;

	f = read_text(
		"Switch 4 \"S-0000000000000001\" # \"sw, one\" base port 0 lid 3 lmc 0\n"
		"[1] \"H-0000000000000002\"[1](3) # \"h\" lid 4 4xHDR\n"
		"Ca 1 \"H-0000000000000002\" # \"h\"\n",
		IBTOPO_FILE_AUTO, NULL, &err);
	out = write_fabric(f, IBTOPO_EXPORT_JSON);
	assert_true(strncmp(out, "{\"schema_version\":2,", 20) == 0);
	assert_non_null(strstr(
		out, "\"links\":[{\"a\":{\"node\":\"sw, one\","
		     "\"guid\":\"0x0000000000000001\",\"port\":1},"
		     "\"b\":{\"node\":\"h\",\"guid\":\"0x0000000000000002\","
		     "\"port\":1},\"speed\":\"HDR\",\"width\":\"4x\"}]"));
	free(out);
	out = write_fabric(f, IBTOPO_EXPORT_CSV);
	assert_true(strncmp(out, "a.node,a.guid,a.port,b.node,", 28) == 0);
	assert_non_null(strstr(out, "\n\"sw, one\",0x0000000000000001,1,h,"));
	free(out);
	ibtopo_fabric_free(f);
}

/* The Slurm release (export options version 3) sets slurm-block's base:
 * the smallest block before 26.05, what half the blocks hold from 26.05;
 * version 2 callers get 26.05's rule, an unknown version is refused. */
static void slurm_block_base_follows_the_release(void **state)
{
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = test_sink(&m, IBTOPO_FORMAT_TEXT);
	struct ibtopo_export_opts x = IBTOPO_EXPORT_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f;
	static const struct {
		unsigned version, release;
		const char *sizes;
	} cases[] = {
		{ 3, 0, "BlockSizes=24,48,96\n" },
		{ 3, 2605, "BlockSizes=24,48,96\n" },
		{ 3, 2411, "BlockSizes=2,4,8\n" },
		{ 2, 2411, "BlockSizes=24,48,96\n" },
	};

	(void)state;
	need(REAL "qdr-hosts-fdr10-isls.topo");
	f = read_path(REAL "qdr-hosts-fdr10-isls.topo", NULL, NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		x.version = cases[i].version;
		x.slurm_release = cases[i].release;
		m.len = 0;
		assert_int_equal(test_fabric_write_opts(&o, f,
							IBTOPO_EXPORT_SLURM_BLOCK,
							&x, &err),
				 0);
		assert_non_null(m.text);
		assert_non_null(strstr(m.text, cases[i].sizes));
	}
	x.version = 4;
	assert_int_equal(test_fabric_write_opts(&o, f, IBTOPO_EXPORT_SLURM_BLOCK,
						&x, &err),
			 IBTOPO_EINVAL);
	free(m.text);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_dumps_have_their_counts),
		cmocka_unit_test(every_dump_round_trips),
		cmocka_unit_test(speeds_and_lids_are_what_the_dump_states),
		cmocka_unit_test(fdr10_and_ndr_dumps),
		cmocka_unit_test(dump_variants_parse),
		cmocka_unit_test(records_without_blank_lines),
		cmocka_unit_test(sides_that_disagree_load_with_a_warning),
		cmocka_unit_test(lmc_is_kept_when_lid_is_0),
		cmocka_unit_test(plans_get_guids_from_names),
		cmocka_unit_test(ibsim_nets_train_as_ibsim),
		cmocka_unit_test(ports_report_with_and_without_dr_paths),
		cmocka_unit_test(ports_report_without_dr_paths_warns_once),
		cmocka_unit_test(plafrim_cas_get_node_guids_from_dr_paths),
		cmocka_unit_test(bad_input_fails_with_file_and_line),
		cmocka_unit_test(two_nodes_of_one_guid_are_a_clash),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(name_maps_in_both_formats),
		cmocka_unit_test(name_map_file_renames_nodes_or_says_why_not),
		cmocka_unit_test(errors_quote_input_printably),
		cmocka_unit_test(x5_map_names_its_hosts),
		cmocka_unit_test(slurm_matches_the_x5_authors_file),
		cmocka_unit_test(slurm_names_and_hostlists),
		cmocka_unit_test(slurm_hosts_leave_out_switch_parts),
		cmocka_unit_test(ibsim_output_trains_as_the_fabric_ran),
		cmocka_unit_test(json_and_csv_exports),
		cmocka_unit_test(slurm_block_base_follows_the_release),
	};

	return cmocka_run_group_tests_name("topofile", tests, NULL, NULL);
}
