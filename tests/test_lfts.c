/*
 * test_lfts.c - export --format lfts on hand-built tables: OpenSM's
 * opensm-lfts.dump layout, switches in GUID order, entries that are no
 * port of the switch (255, beyond its ports) left out, LIDs of an LMC
 * range named after their port, LIDs nobody has "unknown node and type".
 */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

static struct ibtopo_port *port(struct ibtopo_fabric *f, struct ibtopo_node *n,
				unsigned num, uint64_t guid, unsigned lid,
				unsigned lmc)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, f, n, num, NULL), 0);
	p->guid = guid;
	p->lid = (uint16_t)lid;
	p->lmc = (uint8_t)lmc;
	assert_int_equal(ibtopo_fabric_index_port(f, p, NULL), 0);
	return p;
}

static void writes_opensm_dump_layout(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *a, *b, *h;
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = test_sink(&out, IBTOPO_FORMAT_TEXT);
	/* LID 0: 255; 1: a; 2: b; 3-4: h (LMC 1); 5: nobody; 6: port 9 > 4 */
	const uint8_t la[] = { 255, 0, 1, 2, 2, 3, 9 };
	const uint8_t lb[] = { 255, 1, 0, 2, 2 };
	const char *want =
		"Unicast lids [0-4] of switch Lid 2 guid 0x0000000000000010 ('sw b'):\n"
		"0x0001 001 # Switch portguid 0x0000000000000020: 'sw a'\n"
		"0x0002 000 # Switch portguid 0x0000000000000010: 'sw b'\n"
		"0x0003 002 # Channel Adapter portguid 0x0000000000000031: 'h1 mlx5_0'\n"
		"0x0004 002 # Channel Adapter portguid 0x0000000000000031: 'h1 mlx5_0'\n"
		"4 lids dumped\n"
		"Unicast lids [0-6] of switch Lid 1 guid 0x0000000000000020 ('sw a'):\n"
		"0x0001 000 # Switch portguid 0x0000000000000020: 'sw a'\n"
		"0x0002 001 # Switch portguid 0x0000000000000010: 'sw b'\n"
		"0x0003 002 # Channel Adapter portguid 0x0000000000000031: 'h1 mlx5_0'\n"
		"0x0004 002 # Channel Adapter portguid 0x0000000000000031: 'h1 mlx5_0'\n"
		"0x0005 003 # unknown node and type\n"
		"6 lids dumped\n";

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&a, f, IBTOPO_NODE_SWITCH, 0x20,
						4, "sw a", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&b, f, IBTOPO_NODE_SWITCH, 0x10,
						4, "sw b", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&h, f, IBTOPO_NODE_CA, 0x30, 1,
						"h1 mlx5_0", NULL), 0);
	port(f, a, 0, 0x20, 1, 0);
	port(f, a, 1, 0x20, 1, 0);
	port(f, b, 0, 0x10, 2, 0);
	port(f, h, 1, 0x31, 3, 1);

	/* no tables: refused */
	assert_int_equal(ibtopo_fabric_write(&sink, f, IBTOPO_EXPORT_LFTS, &err),
			 IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "no forwarding tables"));
	assert_int_equal(out.len, 0);

	assert_int_equal(ibtopo_node_set_lft(a, la, 6, NULL), 0);
	assert_int_equal(ibtopo_node_set_lft(b, lb, 4, NULL), 0);
	assert_int_equal(ibtopo_export_format_parse("lfts"), IBTOPO_EXPORT_LFTS);
	assert_int_equal(ibtopo_fabric_write(&sink, f, IBTOPO_EXPORT_LFTS, &err), 0);
	assert_string_equal(out.text, want);
	ibtopo_buffer_release(&out);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_opensm_dump_layout),
	};

	return cmocka_run_group_tests_name("lfts", tests, NULL, NULL);
}
