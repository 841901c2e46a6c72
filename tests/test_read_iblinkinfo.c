/* test_read_iblinkinfo.c - the iblinkinfo reader (lib/read/read_iblinkinfo.c) */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

static const char two[] =
	"Switch: 0x0000000000200002 leaf01:\n"
	"           5    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    1[  ] \"host01 mlx5_0\" ( )\n"
	"           5    2[  ] ==( 1X      25.78125 Gbps   Init/  LinkUp)==>       2    2[  ] \"host01 mlx5_0\" (Could be 4X )\n"
	"           5    3[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
	"           5    4[ 7] ==( 4X      14.0625 Gbps Active/  LinkUp)==>      99    1[  ] \"elsewhere\" ( )\n"
	"CA: host01 mlx5_0:\n"
	"      0x0000000000100001      2    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       5    1[  ] \"leaf01\" ( )\n"
	"      0x0000000000100002      2    2[  ] ==( 1X      25.78125 Gbps   Init/  LinkUp)==>       5    2[  ] \"leaf01\" ( )\n";

static void on_warn(void *arg, const char *msg)
{
	int *n = arg;

	(*n)++;
	assert_non_null(strstr(msg, "1 links to ports the output does not list"));
}

static int read_text(struct ibtopo_fabric **f, const char *text,
		     struct ibtopo_error *err, int *warnings)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;

	o.warn = on_warn;
	o.warn_arg = warnings;
	return ibtopo_fabric_read_buffer(f, text, strlen(text), "ibl.txt", &o, err);
}

static void reads_nodes_ports_and_links(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *leaf, *host;
	struct ibtopo_port *p;
	int warnings = 0;

	(void)state;
	assert_int_equal(ibtopo_file_format_detect(two, strlen(two)),
			 IBTOPO_FILE_IBLINKINFO);
	assert_int_equal(read_text(&f, two, &err, &warnings), 0);
	assert_int_equal(warnings, 1);	/* LID 99 is not in the output */
	assert_int_equal(ibtopo_fabric_node_count(f), 2);
	assert_int_equal(ibtopo_fabric_link_count(f), 2);
	leaf = ibtopo_fabric_find_node(f, 0x200002);
	assert_non_null(leaf);
	assert_int_equal(leaf->type, IBTOPO_NODE_SWITCH);
	assert_int_equal(ibtopo_node_port(leaf, 0)->lid, 5);
	/* a CA takes its first port's GUID; its ports keep theirs */
	host = ibtopo_fabric_find_node(f, 0x100001);
	assert_non_null(host);
	assert_int_equal(host->type, IBTOPO_NODE_CA);
	assert_string_equal(host->desc, "host01 mlx5_0");
	assert_int_equal(ibtopo_node_port(host, 2)->guid, 0x100002);
	assert_int_equal(ibtopo_node_port(host, 2)->lid, 2);
	/* link by LID: port 1 HDR 4x active */
	p = ibtopo_node_port(leaf, 1);
	assert_non_null(p->remote);
	assert_ptr_equal(p->remote->node, host);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_HDR);
	assert_int_equal(p->width_active, IBTOPO_WIDTH_4X);
	assert_int_equal(p->state, IBTOPO_PORT_STATE_ACTIVE);
	/* physically up, not active */
	p = ibtopo_node_port(leaf, 2);
	assert_int_equal(p->state, IBTOPO_PORT_STATE_INIT);
	assert_int_equal(p->phys_state, 5);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_EDR);
	assert_int_equal(p->remote->num, 2);
	/* down, no peer; external number and FDR */
	p = ibtopo_node_port(leaf, 3);
	assert_non_null(p);
	assert_null(p->remote);
	assert_int_equal(p->state, IBTOPO_PORT_STATE_DOWN);
	assert_int_equal(p->phys_state, 2);
	p = ibtopo_node_port(leaf, 4);
	assert_int_equal(p->ext_num, 7);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_FDR);
	assert_null(p->remote);
	ibtopo_fabric_free(f);
}

static void bad_lines_name_file_and_line(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "           5    1[  ] ==( 4X 53.125 Gbps Active/ LinkUp)==> 2 1[ ] \"x\" ( )\n",
		  "ibl.txt:1: a port line before any 'Switch:' or 'CA:' line" },
		{ "Switch: leaf01:\n  5 1[ ] ==( 4X 53.125 Gbps Active/ LinkUp)==> 2 1[ ] \"x\" ( )\n",
		  "ibl.txt:1: expected the switch's node GUID" },
		{ "Switch: 0x1 s:\n  5 1[ ] ==( 4X 53.125 Gbps Fine/ LinkUp)==> 2 1[ ] \"x\" ( )\n",
		  "ibl.txt:2: unknown port state 'Fine'" },
		{ "Switch: 0x1 s:\n  5 1[ ] ==( 4X 99.9 Gbps Active/ LinkUp)==> 2 1[ ] \"x\" ( )\n",
		  "ibl.txt:2: unknown rate '99.9'" },
		{ "Switch: 0x1 s:\n  5 1[ ] ==( 3X 53.125 Gbps Active/ LinkUp)==> 2 1[ ] \"x\" ( )\n",
		  "ibl.txt:2: unknown width '3x'" },
		{ "Switch: 0x1 s:\n  5 1[ ] ==( 4X 53.125 Gbps Active/ LinkUp)==> 2 1[ ] x ( )\n",
		  "ibl.txt:2: expected the peer's description in quotes" },
		{ "Switch: 0x1 s:\n  5 1[ ] ==(  Down/ Polling)==> [ ] \"\" ( )\n"
		  "  5 1[ ] ==(  Down/ Polling)==> [ ] \"\" ( )\n",
		  "ibl.txt:3: port 1 of 's' listed twice" },
		{ "0x0000000000200001 \"  spine02\"  3  1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==>  0x0000000000200002  5  8[  ] \"leaf01\" ( )\n",
		  "ibl.txt:1: iblinkinfo's one-line mode (-l)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
		struct ibtopo_fabric *f = NULL;

		o.format = IBTOPO_FILE_IBLINKINFO;
		assert_int_equal(ibtopo_fabric_read_buffer(&f, cases[i].text,
							   strlen(cases[i].text),
							   "ibl.txt", &o, &err),
				 IBTOPO_EPARSE);
		assert_null(f);
		if (!strstr(err.message, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.message,
				 cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_nodes_ports_and_links),
		cmocka_unit_test(bad_lines_name_file_and_line),
	};

	return cmocka_run_group_tests_name("read_iblinkinfo", tests, NULL, NULL);
}
