/*
 * test_read_routes.c - switch forwarding tables from OpenSM's
 * opensm-lfts.dump, ibroute / dump_fts output and .fdbs files
 * (lib/read/read_routes.c), on small samples written from the formats the
 * tools print (as OpenSM 3.3 and infiniband-diags print them under ibsim),
 * against tests/data/ck-cables.topo: spine01 0x1000000000000100 (LID 1),
 * leaf01 0x...200 (LID 2), leaf02 0x...300 (LID 3), host01..04 LIDs 11..14.
 */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPINE01 0x1000000000000100ull
#define LEAF01 0x1000000000000200ull
#define LEAF02 0x1000000000000300ull

static const struct ibtopo_lft *lft(struct ibtopo_fabric *f, uint64_t guid)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);

	assert_non_null(n);
	return n->lft;
}

static int load(struct ibtopo_fabric *f, const char *text, size_t *unknown,
		struct ibtopo_error *err)
{
	struct ibtopo_routes_load_opts o = IBTOPO_ROUTES_LOAD_OPTS_INIT;

	return ibtopo_routes_load_buffer(f, text, strlen(text), "r.dump", &o,
					 unknown, err);
}

static const char opensm_dump[] =
	"Unicast lids [0-14] of switch Lid 1 guid 0x1000000000000100 "
	"('spine01'):\n"
	"0x0001 000 # Switch portguid 0x1000000000000100: 'spine01'\n"
	"0x0002 001 # Switch portguid 0x1000000000000200: 'leaf01'\n"
	"0x0003 003 # Switch portguid 0x1000000000000300: 'leaf02'\n"
	"0x000b 001 # Channel Adapter portguid 0x2000000000000101: 'host01'\n"
	"0x000c 002 # Channel Adapter portguid 0x2000000000000201: 'host02'\n"
	"0x000d 003 # Channel Adapter portguid 0x2000000000000301: 'host03'\n"
	"0x000e 004 # Channel Adapter portguid 0x2000000000000401: 'host04'\n"
	"7 lids dumped\n"
	"Unicast lids [0-14] of switch Lid 2 guid 0x1000000000000200 "
	"('leaf01'):\n"
	"0x0002 000 # Switch portguid 0x1000000000000200: 'leaf01'\n"
	"0x000b 001 # Channel Adapter portguid 0x2000000000000101: 'host01'\n"
	"0x000c 002 # Channel Adapter portguid 0x2000000000000201: 'host02'\n"
	"0x000d 039 # Channel Adapter portguid 0x2000000000000301: 'host03'\n"
	"0x000e 040 # Channel Adapter portguid 0x2000000000000401: 'host04'\n"
	"5 lids dumped\n";

static void opensm_dump_sets_the_tables(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_lft *t;
	size_t unknown = 99;

	assert_int_equal(load(f, opensm_dump, &unknown, &err), 0);
	assert_int_equal(unknown, 0);
	t = lft(f, SPINE01);
	assert_non_null(t);
	assert_int_equal(t->top, 14);
	assert_int_equal(t->port[1], 0);
	assert_int_equal(t->port[3], 3);
	assert_int_equal(t->port[14], 4);
	/* LIDs the dump leaves out route nowhere */
	assert_int_equal(t->port[0], IBTOPO_LFT_NONE);
	assert_int_equal(t->port[4], IBTOPO_LFT_NONE);
	t = lft(f, LEAF01);
	assert_int_equal(t->port[13], 39);
	assert_int_equal(t->port[1], IBTOPO_LFT_NONE);
	/* a switch the dump does not list has no table */
	assert_null(lft(f, LEAF02));
	assert_true(ibtopo_fabric_has_routes(f));
	assert_null(ibtopo_fabric_routing_engine(f));
}

static void dump_fts_and_ibroute_output_read(void **state)
{
	static const char text[] =
		"Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1 "
		"guid 0x1000000000000300 (leaf02):\n"
		"  Lid  Out   Destination\n"
		"       Port     Info \n"
		"0x0003 000 : (Switch portguid 0x1000000000000300: 'leaf02')\n"
		"0x000d 001 : (Channel Adapter portguid 0x2000000000000301: "
		"'host03')\n"
		"0x000b 040 : (Channel Adapter portguid 0x2000000000000101: "
		"'host01')\n"
		"3 valid lids dumped \n"
		"Multicast mlids [0xc000-0xc002] of switch Lid 3 guid "
		"0x1000000000000300 (leaf02):\n"
		"            0                   1\n"
		"     Ports: 0 1 2 3 4 5 6 7 8 9 0 1\n"
		" MLid\n"
		"0xc000      x x\n"
		"1 valid mlids dumped \n"
		"Unicast lids [0x0-0x10] of switch Lid 2 guid 0x1000000000000200 "
		"(leaf01):\n"
		"  Lid  Out   Destination\n"
		"       Port     Info \n"
		"0x000c 002 : (Channel Adapter portguid 0x2000000000000201: "
		"'host02')\n"
		"1 valid lids dumped \n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_lft *t;

	assert_int_equal(load(f, text, NULL, &err), 0);
	t = lft(f, LEAF02);
	assert_int_equal(t->top, 14);
	assert_int_equal(t->port[3], 0);
	assert_int_equal(t->port[13], 1);
	assert_int_equal(t->port[11], 40);
	assert_int_equal(t->port[12], IBTOPO_LFT_NONE);
	/* the range of the header is the table's top */
	assert_int_equal(lft(f, LEAF01)->top, 16);
	assert_int_equal(lft(f, LEAF01)->port[12], 2);
	assert_null(lft(f, SPINE01));
}

static void fdbs_files_read(void **state)
{
	static const char text[] =
		"osm_ucast_mgr_dump_ucast_routes: Switch 0x1000000000000200\n"
		"LID    : Port : Hops : Optimal\n"
		"0x0001 : 039  : 01   : yes\n"
		"0x0002 : 000  : 00   : yes\n"
		"0x0003 : UNREACHABLE\n"
		"0x000b : 001  : 01   : yes\n"
		"dump_ucast_routes: Switch 0x1000000000000100\n"
		"LID    : Port : Hops : Optimal\n"
		"0x0001 : 000  : 00   : yes\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_lft *t;

	assert_int_equal(load(f, text, NULL, &err), 0);
	t = lft(f, LEAF01);
	assert_int_equal(t->top, 11);
	assert_int_equal(t->port[1], 39);
	assert_int_equal(t->port[2], 0);
	assert_int_equal(t->port[3], IBTOPO_LFT_NONE);
	assert_int_equal(t->port[11], 1);
	assert_int_equal(lft(f, SPINE01)->top, 1);
}

static void warned(void *arg, const char *message)
{
	strncpy(arg, message, 255);
}

static void switches_the_fabric_lacks_are_counted(void **state)
{
	static const char text[] =
		"Unicast lids [0-2] of switch Lid 9 guid 0x1000000000000900 "
		"('gone'):\n"
		"0x0001 001 # x\n"
		"Unicast lids [0-2] of switch Lid 11 guid 0x2000000000000100 "
		"('host01 is no switch'):\n"
		"0x0001 001 # x\n"
		"Unicast lids [0-2] of switch Lid 2 guid 0x1000000000000200 "
		"('leaf01'):\n"
		"0x0001 039 # x\n";
	struct ibtopo_routes_load_opts o = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;
	char warning[256] = "";
	size_t unknown = 0;

	o.warn = warned;
	o.warn_arg = warning;
	o.engine = "ftree";
	assert_int_equal(ibtopo_routes_load_buffer(f, text, strlen(text),
						   "r.dump", &o, &unknown,
						   &err), 0);
	assert_int_equal(unknown, 2);
	assert_non_null(strstr(warning, "r.dump:3: 0x2000000000000100 is a CA"));
	assert_int_equal(lft(f, LEAF01)->port[1], 39);
	assert_string_equal(ibtopo_fabric_routing_engine(f), "ftree");
}

static void a_second_load_replaces_every_table(void **state)
{
	static const char second[] =
		"dump_ucast_routes: Switch 0x1000000000000300\n"
		"0x0003 : 000  : 00   : yes\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;

	assert_int_equal(load(f, opensm_dump, NULL, &err), 0);
	assert_int_equal(load(f, second, NULL, &err), 0);
	assert_null(lft(f, SPINE01));
	assert_null(lft(f, LEAF01));
	assert_int_equal(lft(f, LEAF02)->port[3], 0);
}

/* Bad input: the message names the line; the tables stay as they were. */
static void bad_input_changes_nothing(void **state)
{
	static const struct {
		const char *text, *message;
	} bad[] = {
		{ "0x0001 001\n",
		  "r.dump:1: expected a switch header" },
		{ "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n"
		  "0x0001 001\n0x0001 002\n",
		  "r.dump:3: LID 0x0001 listed twice for this switch" },
		{ "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n"
		  "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n",
		  "r.dump:2: switch 0x1000000000000100 listed twice (first at "
		  "line 1)" },
		{ "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n"
		  "0xc000 001\n",
		  "r.dump:2: expected a unicast LID (0..0xbfff), not 0xc000" },
		{ "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n"
		  "0x0001 256\n",
		  "r.dump:2: expected an out-port (0..255) after the LID" },
		{ "Unicast lids [9-0] of switch Lid 1 guid 0x1:\n",
		  "r.dump:1: expected a LID range '[A-B]'" },
		{ "Unicast lids [0-9] of switch Lid 1:\n",
		  "r.dump:1: expected 'of switch ... guid 0x...'" },
		{ "dump_ucast_routes: Switch 0x1000000000000100\n"
		  "0x0001 001\n",
		  "r.dump:2: expected '0xLID : PORT'" },
		{ "dump_ucast_routes: Node 0x1000000000000100\n",
		  "r.dump:1: expected 'Switch 0x...'" },
		{ "Unicast lids [0-9] of switch Lid 1 guid 0x1000000000000100:\n"
		  "0x0001 001\nhello\n",
		  "r.dump:3: expected a routing table line" },
		{ "# nothing\n\n", "r.dump:2: expected a routing table dump" },
		{ "", "r.dump:1: expected a routing table dump" },
	};
	static const char binary[] = "Unicast lids [0-9]\0\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;

	assert_int_equal(load(f, opensm_dump, NULL, &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct ibtopo_error)IBTOPO_ERROR_INIT;
		assert_int_equal(load(f, bad[i].text, NULL, &err),
				 IBTOPO_EPARSE);
		if (!strstr(err.message, bad[i].message))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.message,
				 bad[i].message);
		assert_int_equal(lft(f, SPINE01)->port[14], 4);
		assert_null(lft(f, LEAF02));
	}
	assert_int_equal(ibtopo_routes_load_buffer(f, binary,
						   sizeof(binary) - 1, "r.dump",
						   NULL, NULL, &err),
			 IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "binary data"));
	assert_int_equal(lft(f, SPINE01)->port[14], 4);
}

static void files_are_read_by_path(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;

	assert_int_equal(ibtopo_routes_load(f, TEST_DATADIR "/no-such.dump",
					    NULL, NULL, &err), IBTOPO_EIO);
	assert_int_equal(ibtopo_routes_load(f, TEST_DATADIR "/rt-ck-lfts.dump",
					    NULL, NULL, &err), 0);
	assert_int_equal(lft(f, LEAF02)->port[11], 39);
}

/*
 * A file is read in chunks of 8 MiB: 20 MiB of dump (switches the fabric
 * lacks, then leaf02) reads the same as it would whole, the lines counted
 * across the chunks.
 */
static void big_files_read_across_chunks(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = *state;
	char path[] = "/tmp/rt-big-XXXXXX";
	unsigned lines = 0;
	size_t unknown = 0;
	FILE *out;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	assert_non_null(out);
	for (unsigned sw = 0; sw < 9; sw++) {
		uint64_t guid = sw < 8 ? 0x3000000000000000ull + sw : LEAF02;

		fprintf(out, "Unicast lids [0-%u] of switch Lid %u guid "
			"0x%016llx ('s%u'):\n", IBTOPO_LFT_MAX_LID, sw + 1,
			(unsigned long long)guid, sw);
		lines++;
		for (unsigned lid = 1; lid <= IBTOPO_LFT_MAX_LID; lid++) {
			fprintf(out, "0x%04x %03u # Channel Adapter portguid "
				"0x%016x: 'h'\n", lid, (lid + sw) % 40 + 1, lid);
			lines++;
		}
	}
	fclose(out);
	assert_int_equal(ibtopo_routes_load(f, path, NULL, &unknown, &err), 0);
	assert_int_equal(unknown, 8);
	assert_int_equal(lft(f, LEAF02)->top, IBTOPO_LFT_MAX_LID);
	for (unsigned lid = 1; lid <= IBTOPO_LFT_MAX_LID; lid++)
		if (lft(f, LEAF02)->port[lid] != (lid + 8) % 40 + 1)
			fail_msg("LID 0x%x: port %u", lid,
				 lft(f, LEAF02)->port[lid]);
	/* an error on the last line names it */
	out = fopen(path, "a");
	assert_non_null(out);
	fprintf(out, "0x0001 ?\n");
	fclose(out);
	assert_int_equal(ibtopo_routes_load(f, path, NULL, NULL, &err),
			 IBTOPO_EPARSE);
	{
		char want[128];

		snprintf(want, sizeof(want), "%s:%u: expected an out-port",
			 path, lines + 1);
		if (!strstr(err.message, want))
			fail_msg("'%s' lacks '%s'", err.message, want);
	}
	unlink(path);
}

/* the engine of the log's text, or the error message */
static char *log_engine(const char *text, int want_rc)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char *engine = NULL;

	assert_int_equal(ibtopo_routes_log_engine_buffer(&engine, text,
							 strlen(text),
							 "osm.log", &err),
			 want_rc);
	if (want_rc) {
		assert_null(engine);
		return strdup(err.message);
	}
	return engine;
}

static void an_opensm_log_names_its_last_engine(void **state)
{
	static const char log[] =
		"Dec 01 03:51:20 545112 [1C8FE6C0] 0x03 -> OpenSM 3.3.24\n"
		"Dec 01 03:51:20 545340 [1C8FE6C0] 0x02 -> "
		"osm_ucast_mgr_process: minhop tables configured on all "
		"switches\n"
		"Dec 01 03:51:20 545340 [1C8FE6C0] 0x02 -> SUBNET UP\n"
		"Dec 01 04:10:02 113000 [1C8FE6C0] 0x02 -> "
		"osm_ucast_mgr_process: ftree tables configured on all "
		"switches\n"
		"Dec 01 04:10:02 120000 [1C8FE6C0] 0x02 -> SUBNET UP";
	char *e;

	(void)state;
	e = log_engine(log, 0);
	assert_string_equal(e, "ftree");
	free(e);
	/* MLNX OpenSM's adaptive engines; OpenSM 3.2's default */
	e = log_engine("Jun 20 14:38:48 850162 [E63ED6C0] 0x02 -> "
		       "osm_ucast_mgr_process: ar_updn tables configured on "
		       "all switches", 0);
	assert_string_equal(e, "ar_updn");
	free(e);
	e = log_engine("osm_ucast_mgr_process: null (min-hop) tables "
		       "configured on all switches\r\n", 0);
	assert_string_equal(e, "minhop");
	free(e);
	e = log_engine("0x02 -> osm_ucast_mgr_process:torus-2QoS tables "
		       "configured on all switches\n", 0);
	assert_string_equal(e, "torus-2QoS");
	free(e);
}

static void a_log_naming_no_engine_is_an_error(void **state)
{
	char *m;

	(void)state;
	m = log_engine("0x02 -> SUBNET UP\n", IBTOPO_EPARSE);
	assert_string_equal(m, "osm.log: no '<engine> tables configured on "
			    "all switches' line: not an OpenSM log, or none "
			    "that routed");
	free(m);
	free(log_engine("", IBTOPO_EPARSE));
	/* no word, a quoted one, one glued to other text: not an engine */
	free(log_engine(" tables configured on all switches\n",
			IBTOPO_EPARSE));
	free(log_engine("-> 'ftree' tables configured on all switches\n",
			IBTOPO_EPARSE));
	free(log_engine("-> [ftree tables configured on all switches\n",
			IBTOPO_EPARSE));
}

static void engine_names_are_checked(void **state)
{
	char name[IBTOPO_ROUTING_ENGINE_MAX + 2];

	(void)state;
	assert_true(ibtopo_routing_engine_name_ok("ftree"));
	assert_true(ibtopo_routing_engine_name_ok("torus-2QoS"));
	assert_true(ibtopo_routing_engine_name_ok("ar_ftree"));
	assert_false(ibtopo_routing_engine_name_ok(""));
	assert_false(ibtopo_routing_engine_name_ok(NULL));
	assert_false(ibtopo_routing_engine_name_ok("up dn"));
	assert_false(ibtopo_routing_engine_name_ok("ftree\n"));
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_false(ibtopo_routing_engine_name_ok(name));
	name[sizeof(name) - 2] = '\0';
	assert_true(ibtopo_routing_engine_name_ok(name));
}

static void a_log_file_is_read_by_path(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char *e = NULL;

	(void)state;
	assert_int_equal(ibtopo_routes_log_engine(&e, TEST_DATADIR
						  "/no-such.log", &err),
			 IBTOPO_EIO);
	assert_null(e);
	assert_int_equal(ibtopo_routes_log_engine(&e, TEST_DATADIR
						  "/rt-opensm-log.txt", &err), 0);
	assert_string_equal(e, "minhop");
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, test_setup_ck_cables, test_teardown_fabric)
		T(opensm_dump_sets_the_tables),
		T(dump_fts_and_ibroute_output_read),
		T(fdbs_files_read),
		T(switches_the_fabric_lacks_are_counted),
		T(a_second_load_replaces_every_table),
		T(bad_input_changes_nothing),
		T(files_are_read_by_path),
		T(big_files_read_across_chunks),
		T(an_opensm_log_names_its_last_engine),
		T(a_log_naming_no_engine_is_an_error),
		T(engine_names_are_checked),
		T(a_log_file_is_read_by_path),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
