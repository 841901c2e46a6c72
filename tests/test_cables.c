/* test_cables.c - LinkX part numbers, reach table, cable file readers */
#include "cables/cables-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- part numbers ---- */

static void linkx_decoding_table(void **state)
{
	static const struct {
		const char *pn;
		enum ibtopo_media media;
		unsigned rated;
		double length;
	} cases[] = {
		{ "MCP1600-E002E30", IBTOPO_MEDIA_PASSIVE_COPPER, IBTOPO_SPEED_EDR, 2 },
		{ "MCP1600-E00AE30", IBTOPO_MEDIA_PASSIVE_COPPER, IBTOPO_SPEED_EDR, 0.5 },
		{ "MCP1650-H01AE30", IBTOPO_MEDIA_PASSIVE_COPPER, IBTOPO_SPEED_HDR, 1.5 },
		{ "MCA1J00-H003E", IBTOPO_MEDIA_ACTIVE_COPPER, IBTOPO_SPEED_HDR, 3 },
		{ "MFS1S00-H030V", IBTOPO_MEDIA_AOC, IBTOPO_SPEED_HDR, 30 },
		{ "MFA1A00-E100", IBTOPO_MEDIA_AOC, IBTOPO_SPEED_EDR, 100 },
		{ "MFS1S00-H003E", IBTOPO_MEDIA_AOC, IBTOPO_SPEED_HDR, 3 },
		{ "MCP4Y10-N01A", IBTOPO_MEDIA_PASSIVE_COPPER, IBTOPO_SPEED_NDR, 1.5 },
		{ "MCP7Y00-N003", IBTOPO_MEDIA_PASSIVE_COPPER, IBTOPO_SPEED_NDR, 3 },
		{ "MMA1T00-HS", IBTOPO_MEDIA_MULTIMODE, IBTOPO_SPEED_HDR, 0 },
		{ "MMA4Z00-NS", IBTOPO_MEDIA_MULTIMODE, IBTOPO_SPEED_NDR, 0 },
		{ "MMS4X00-NM", IBTOPO_MEDIA_SINGLEMODE, IBTOPO_SPEED_NDR, 0 },
		{ " mfs1s00-h010v ", IBTOPO_MEDIA_AOC, IBTOPO_SPEED_HDR, 10 },
		/* 100GbE letter: the media and length, no InfiniBand rating */
		{ "MCP1600-C003", IBTOPO_MEDIA_PASSIVE_COPPER, 0, 3 },
	};
	static const char *const not_linkx[] = {
		"", "MC2207130-003", "QSFP-100G-SR4", "MCP1600", "MXX1600-E002",
		"MCP16-E002", "FTLX8571D3BCV",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibtopo_cable c = { 0 };

		assert_int_equal(ibtopo_cable_decode_part_number(&c, cases[i].pn), 0);
		assert_int_equal(c.media, cases[i].media);
		assert_int_equal(c.rated_speed, cases[i].rated);
		assert_true(c.length_m == cases[i].length);
	}
	for (size_t i = 0; i < sizeof(not_linkx) / sizeof(not_linkx[0]); i++) {
		struct ibtopo_cable c = { .length_m = 7 };

		assert_int_equal(ibtopo_cable_decode_part_number(&c, not_linkx[i]),
				 IBTOPO_ENOTFOUND);
		assert_true(c.length_m == 7);
	}
	assert_int_equal(ibtopo_cable_decode_part_number(NULL, "MCP1600-E002"),
			 IBTOPO_ENOTFOUND);
}

/* ---- reach table ---- */

static void builtin_reach_table(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo__reach *r = NULL;

	(void)state;
	assert_int_equal(ibtopo__reach_load(&r, NULL, &err), 0);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_HDR, IBTOPO_MEDIA_AOC) == 30);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_NDR,
					 IBTOPO_MEDIA_PASSIVE_COPPER) == 3);
	/* EDR, FDR and QDR copper and AOC rows (issue 23 item 5) */
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_EDR, IBTOPO_MEDIA_AOC) == 100);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_EDR,
					 IBTOPO_MEDIA_PASSIVE_COPPER) == 5);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_FDR,
					 IBTOPO_MEDIA_PASSIVE_COPPER) == 3);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_QDR,
					 IBTOPO_MEDIA_PASSIVE_COPPER) == 7);
	assert_true(ibtopo__reach_lookup(r, IBTOPO_SPEED_DDR,
					 IBTOPO_MEDIA_PASSIVE_COPPER) == 0);
	assert_true(ibtopo__reach_lookup(r, 0, IBTOPO_MEDIA_AOC) == 0);
	ibtopo__reach_free(r);
}

static void reach_table_errors_name_the_line(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "# c\nspeed\tmedia\tmax_m\tsource\nQDRX\taoc\t3\tx\n", "t.tsv:3: unknown speed 'QDRX'" },
		{ "HDR\tfiber\t3\tx\n", "t.tsv:1: unknown media 'fiber'" },
		{ "HDR\taoc\t-3\tx\n", "t.tsv:1: bad max_m '-3'" },
		{ "HDR\taoc\tten\tx\n", "t.tsv:1: bad max_m 'ten'" },
		{ "HDR\taoc\t30\n", "t.tsv:1: expected 4 tab-separated columns" },
		{ "HDR\taoc\t30\tx\n\nhdr\tAOC\t20\ty\n", "t.tsv:3: second row for HDR aoc (first on line 1)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo__reach *r = NULL;

		assert_int_equal(ibtopo__reach_parse(&r, cases[i].text, "t.tsv", &err),
				 IBTOPO_EPARSE);
		assert_null(r);
		assert_non_null(strstr(err.message, cases[i].want));
	}
}

/* ---- cable files ---- */

/*
 * leaf01 (0x10) ports 1,2 -> host01 (0x20), host02 (0x21); port 19 ->
 * spine01 (0x30) port 1. Two nodes share the description "dup".
 */
struct t {
	struct ibtopo_fabric *f;
	struct ibtopo_link *h1, *h2, *isl;
	char path[64];
	char **warnings;
	size_t nwarnings;
};

static struct ibtopo_link *connect(struct ibtopo_fabric *f, struct ibtopo_node *x,
				   unsigned px, struct ibtopo_node *y, unsigned py)
{
	struct ibtopo_port *a = NULL, *b = NULL;
	struct ibtopo_link *l = NULL;

	assert_int_equal(ibtopo_node_add_port(&a, f, x, px, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&b, f, y, py, NULL), 0);
	a->speed_active = b->speed_active = IBTOPO_SPEED_HDR;
	a->width_active = b->width_active = IBTOPO_WIDTH_4X;
	assert_int_equal(ibtopo_fabric_connect(&l, f, a, b, NULL), 0);
	return l;
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));
	struct ibtopo_node *leaf = NULL, *h1 = NULL, *h2 = NULL, *sp = NULL;
	struct ibtopo_port *p = NULL;

	if (!t || ibtopo_fabric_new(&t->f, NULL))
		return -1;
	ibtopo_fabric_add_node(&leaf, t->f, IBTOPO_NODE_SWITCH, 0x10, 36, "leaf01", NULL);
	ibtopo_fabric_add_node(&h1, t->f, IBTOPO_NODE_CA, 0x20, 1, "host01 mlx5_0", NULL);
	ibtopo_fabric_add_node(&h2, t->f, IBTOPO_NODE_CA, 0x21, 1, "host02 mlx5_0", NULL);
	ibtopo_fabric_add_node(&sp, t->f, IBTOPO_NODE_SWITCH, 0x30, 36, "spine01", NULL);
	ibtopo_fabric_add_node(NULL, t->f, IBTOPO_NODE_CA, 0x40, 1, "dup", NULL);
	ibtopo_fabric_add_node(NULL, t->f, IBTOPO_NODE_CA, 0x41, 1, "dup", NULL);
	t->h1 = connect(t->f, leaf, 1, h1, 1);
	t->h2 = connect(t->f, leaf, 2, h2, 1);
	t->isl = connect(t->f, leaf, 19, sp, 1);
	/* port GUID of host02's port 1 */
	p = ibtopo_node_port(h2, 1);
	p->guid = 0x2100;
	ibtopo_fabric_index_port(t->f, p, NULL);
	/* an unlinked switch port */
	ibtopo_node_add_port(NULL, t->f, leaf, 5, NULL);
	ibtopo_fabric_sort(t->f);
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	if (t->path[0] && strstr(t->path, "XXXXXX") == NULL)
		unlink(t->path);
	for (size_t i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	ibtopo_fabric_free(t->f);
	free(t);
	return 0;
}

static void write_file(struct t *t, const char *text)
{
	int fd = mkstemp(t->path);
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void on_warn(void *arg, const char *msg)
{
	struct t *t = arg;

	t->warnings = realloc(t->warnings, (t->nwarnings + 1) * sizeof(*t->warnings));
	t->warnings[t->nwarnings++] = strdup(msg);
}

static int load(struct t *t, struct ibtopo_error *err)
{
	struct ibtopo_cables_opts o = IBTOPO_CABLES_OPTS_INIT;

	o.warn = on_warn;
	o.warn_arg = t;
	return ibtopo_cables_load(t->f, t->path, &o, err);
}

static void inventory_csv_fills_links(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	write_file(t,
		"# site inventory\r\n"
		"node_a,port_a,node_b,port_b,media,length_m,part_number,color\r\n"
		"leaf01,1,host01 mlx5_0,1,,,MCP1650-H002E26,blue\r\n"
		"0x0000000000000010,19,spine01,1,aoc,45 m,\"MFS1S00-H045V\",red\r\n"
		"\"host02 mlx5_0\",1,,,dac,1.5,,green\r\n"
		"\r\n");
	assert_int_equal(load(t, &err), 0);
	/* from the part number alone */
	assert_non_null(t->h1->cable);
	assert_int_equal(t->h1->cable->media, IBTOPO_MEDIA_PASSIVE_COPPER);
	assert_int_equal(t->h1->cable->rated_speed, IBTOPO_SPEED_HDR);
	assert_true(t->h1->cable->length_m == 2);
	assert_string_equal(t->h1->cable->part_number, "MCP1650-H002E26");
	/* the file's values win over the part number's */
	assert_int_equal(t->isl->cable->media, IBTOPO_MEDIA_AOC);
	assert_true(t->isl->cable->length_m == 45);
	assert_int_equal(t->isl->cable->rated_speed, IBTOPO_SPEED_HDR);
	/* named from the CA's end */
	assert_int_equal(t->h2->cable->media, IBTOPO_MEDIA_PASSIVE_COPPER);
	assert_true(t->h2->cable->length_m == 1.5);
	assert_int_equal(t->h2->cable->rated_speed, 0);
	assert_null(t->h2->cable->part_number);
}

static void inventory_by_port_guid_and_rated_speed(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	write_file(t, "port_a,node_a,rated_speed,vendor,serial\n"
		      "1,0x2100,EDR,Mellanox,MT123\n");
	assert_int_equal(load(t, &err), 0);
	assert_int_equal(t->h2->cable->rated_speed, IBTOPO_SPEED_EDR);
	assert_string_equal(t->h2->cable->vendor, "Mellanox");
	assert_string_equal(t->h2->cable->serial, "MT123");
}

static void bad_inventory_rows_name_file_and_line(void **state)
{
	static const struct {
		const char *row, *want;
	} cases[] = {
		{ "leaf9,1", ":3: no node 'leaf9' in the fabric" },
		{ "dup,1", ":3: 'dup' names 2 nodes: 0x0000000000000040, 0x0000000000000041; name one by its GUID" },
		{ "leaf01,5", ":3: port 5 of 'leaf01' has no link in the fabric" },
		{ "leaf01,x", ":3: port_a is not a port number" },
		{ "leaf01,1,spine01,1", ":3: port 1 of 'leaf01' is linked to port 1 of 'host01 mlx5_0', not to port 1 of 'spine01'" },
		{ "leaf01,1,spine01", ":3: node_b and port_b go together" },
		{ "leaf01,1,,,fiber", ":3: unknown media 'fiber'" },
		/* input quoted printably */
		{ "leaf01,1,,,fi\xff\x1b" "b", ":3: unknown media 'fi\\xff\\x1bb'" },
		{ "h\xc3\x28,1", ":3: no node 'h\\xc3(' in the fabric" },
		{ "leaf01,1,,,aoc,long", ":3: bad length_m 'long'" },
		{ "0x99,1", ":3: no node or port with GUID 0x99 in the fabric" },
		{ "\"leaf01,1", ":3: unterminated quote" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t *t = *state;
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		char text[512];

		/* a good row first: nothing is stored when a later one fails */
		snprintf(text, sizeof(text),
			 "node_a,port_a,node_b,port_b,media,length_m\n"
			 "leaf01,2,,,aoc,3\n%s\n", cases[i].row);
		strcpy(t->path, "/tmp/test_cables_XXXXXX");
		write_file(t, text);
		assert_int_equal(load(t, &err), IBTOPO_EPARSE);
		assert_non_null(strstr(err.message, t->path));
		if (!strstr(err.message, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.message, cases[i].want);
		assert_null(t->h2->cable);
		unlink(t->path);
	}
	strcpy(((struct t *)*state)->path, "");
}

/* Stale rows become findings; the good rows load; bad numbers still fail. */
static void stale_inventory_rows_are_findings(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
	struct ibtopo_cables_opts o = IBTOPO_CABLES_OPTS_INIT;
	const struct ibtopo_finding *f;

	o.unmatched = &list;
	write_file(t, "node_a,port_a,node_b,port_b,media,length_m\n"
		      "leaf09,1,,,aoc,3\n"
		      "leaf01,5,,,aoc,3\n"
		      "leaf01,2,,,aoc,7\n"
		      "leaf01,1,spine01,1,dac,2\n"
		      "leaf01,19,spine09,3,aoc,9\n"
		      "0x99,1,,,aoc,3\n");
	assert_int_equal(ibtopo_cables_load(t->f, t->path, &o, &err), 0);
	assert_true(t->h2->cable && t->h2->cable->length_m == 7);
	assert_null(t->h1->cable);
	assert_null(t->isl->cable);
	assert_int_equal(list.count, 5);
	f = &list.items[0];
	assert_int_equal(f->kind, IBTOPO_FIND_CABLE_ROW_UNMATCHED);
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	assert_int_equal(f->subkind, IBTOPO_CABLE_ROW_NO_NODE);
	assert_string_equal(f->a.node, "leaf09");
	assert_int_equal(f->a.port, 1);
	assert_non_null(strstr(f->note, ":2"));
	assert_non_null(strstr(f->note, t->path));
	f = &list.items[1];
	assert_int_equal(f->subkind, IBTOPO_CABLE_ROW_NO_LINK);
	assert_int_equal(f->a.guid, 0x10);
	assert_int_equal(f->a.port, 5);
	f = &list.items[2];
	assert_int_equal(f->subkind, IBTOPO_CABLE_ROW_OTHER_PEER);
	assert_string_equal(f->b.node, "spine01");
	assert_int_equal(f->c.guid, 0x20);
	f = &list.items[3];
	assert_int_equal(f->subkind, IBTOPO_CABLE_ROW_NO_PEER_NODE);
	assert_string_equal(f->b.node, "spine09");
	assert_int_equal(f->b.port, 3);
	assert_int_equal(list.items[4].subkind, IBTOPO_CABLE_ROW_NO_NODE);
	assert_non_null(strstr(list.items[4].note, ":7"));
	ibtopo_findings_release(&list);
	unlink(t->path);

	/* a malformed file still fails, whole: no finding, no cable */
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	write_file(t, "node_a,port_a,media,length_m\n"
		      "leaf09,1,aoc,3\n"
		      "leaf01,1,aoc,3\n"
		      "leaf01,19,aoc,far\n");
	assert_int_equal(ibtopo_cables_load(t->f, t->path, &o, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, ":4: bad length_m 'far'"));
	assert_int_equal(list.count, 0);
	assert_null(t->h1->cable);
	/* a stale row with a bad number is a malformed row */
	unlink(t->path);
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	write_file(t, "node_a,port_a,media\nleaf09,1,fiber\n");
	assert_int_equal(ibtopo_cables_load(t->f, t->path, &o, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, ":2: unknown media 'fiber'"));
	assert_int_equal(list.count, 0);
	/* version 1 options: every row must match, as before */
	o.version = 1;
	unlink(t->path);
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	write_file(t, "node_a,port_a\nleaf09,1\n");
	assert_int_equal(ibtopo_cables_load(t->f, t->path, &o, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, ":2: no node 'leaf09'"));
	assert_int_equal(list.count, 0);
}

static void bad_inventory_files(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	write_file(t, "# nothing\n\n");
	assert_int_equal(load(t, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "empty cable file"));
	unlink(t->path);
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	write_file(t, "switch,port\nleaf01,1\n");
	assert_int_equal(load(t, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, ":1: the header lacks node_a or port_a"));
	assert_int_equal(ibtopo_cables_load(t->f, "/nonexistent/cables.csv", NULL, &err),
			 IBTOPO_EIO);
	assert_non_null(strstr(err.message, "/nonexistent/cables.csv"));
}

static void ibdiagnet_db_csv_cable_info(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	write_file(t,
		"# This database file was automatically generated by IBDIAG\n"
		"\n"
		"START_NODES\n"
		"NodeDesc,NumPorts,NodeType,NodeGUID\n"
		"\"leaf01\",36,2,0x0000000000000010\n"
		"END_NODES\n"
		"\n"
		"START_CABLE_INFO\n"
		"NodeGuid,PortGuid,PortNum,Source,Vendor,OUI,PN,SN,Rev,LengthSMFiber,LengthOM3,LengthCopperOrActive,TypeDesc,SupportedSpeedDesc,Temperature\n"
		/* both ends of the ISL: the first end's values stay */
		"0x0000000000000010,0x0000000000000010,19,\"cable\",\"Mellanox       \",0x2c9,\"MFS1S00-H050V   \",\"MT2012FT00001\",\"A3\",N/A,N/A,\"50 m\",\"850 nm VCSEL\",\"SDR/DDR/QDR/FDR/EDR/HDR\",\"36C\"\n"
		"0x0000000000000030,0x0000000000000030,1,\"cable\",\"Mellanox\",0x2c9,\"MFS1S00-H050V\",\"MT2012FT00002\",\"A3\",N/A,N/A,\"40 m\",\"850 nm VCSEL\",N/A,\"36C\"\n"
		/* a copper cable named only by its type */
		"0x0000000000000010,0x0000000000000010,1,\"cable\",\"Acme\",0x0,\"X-1\",\"S1\",\"A\",N/A,N/A,\"3\",\"Copper cable unequalized\",\"SDR/DDR/QDR/FDR/EDR\",N/A\n"
		/* a transceiver: OM3 length is its reach, not a cable length */
		"0x0000000000000010,0x0000000000000010,2,\"cable\",\"Acme\",0x0,\"T-1\",\"S2\",\"A\",N/A,\"70 m\",N/A,\"850 nm VCSEL\",\"EDR\",N/A\n"
		/* ports this fabric does not link */
		"0x0000000000000010,0x0000000000000010,5,\"cable\",\"Acme\",0x0,\"X-1\",\"S3\",\"A\",N/A,N/A,\"3\",\"Copper cable unequalized\",N/A,N/A\n"
		"0x00000000000000aa,0x00000000000000aa,1,\"cable\",\"Acme\",0x0,\"X-1\",\"S4\",\"A\",N/A,N/A,\"3\",\"Copper cable unequalized\",N/A,N/A\n"
		"END_CABLE_INFO\n"
		"START_LINKS\n"
		"NodeGuid1,PortNum1,NodeGuid2,PortNum2\n"
		"END_LINKS\n");
	assert_int_equal(load(t, &err), 0);
	assert_int_equal(t->isl->cable->media, IBTOPO_MEDIA_AOC);
	assert_true(t->isl->cable->length_m == 50);
	assert_int_equal(t->isl->cable->rated_speed, IBTOPO_SPEED_HDR);
	assert_string_equal(t->isl->cable->vendor, "Mellanox");
	assert_string_equal(t->isl->cable->part_number, "MFS1S00-H050V");
	assert_string_equal(t->isl->cable->serial, "MT2012FT00001");
	assert_int_equal(t->h1->cable->media, IBTOPO_MEDIA_PASSIVE_COPPER);
	assert_true(t->h1->cable->length_m == 3);
	assert_int_equal(t->h1->cable->rated_speed, IBTOPO_SPEED_EDR);
	assert_int_equal(t->h2->cable->media, IBTOPO_MEDIA_MULTIMODE);
	assert_true(t->h2->cable->length_m == 0);
	assert_int_equal(t->nwarnings, 1);
	assert_non_null(strstr(t->warnings[0], ": 2 CABLE_INFO rows skipped"));
}

static void db_csv_without_cable_info(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	write_file(t, "START_NODES\nNodeGUID\n0x1\nEND_NODES\n");
	assert_int_equal(load(t, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "has no CABLE_INFO section"));
	unlink(t->path);
	strcpy(t->path, "/tmp/test_cables_XXXXXX");
	write_file(t, "START_CABLE_INFO\nNodeGuid,PortNum\n0x10,x\nEND_CABLE_INFO\n");
	assert_int_equal(load(t, &err), IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, ":3: bad PortNum 'x'"));
	assert_null(t->h1->cable);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linkx_decoding_table),
		cmocka_unit_test(builtin_reach_table),
		cmocka_unit_test(reach_table_errors_name_the_line),
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(inventory_csv_fills_links),
		T(inventory_by_port_guid_and_rated_speed),
		T(bad_inventory_rows_name_file_and_line),
		T(stale_inventory_rows_are_findings),
		T(bad_inventory_files),
		T(ibdiagnet_db_csv_cable_info),
		T(db_csv_without_cable_info),
#undef T
	};

	return cmocka_run_group_tests_name("cables", tests, NULL, NULL);
}
