/* test_fabric.c - the in-memory model and its GUID indexes */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <string.h>

static int setup(void **state)
{
	struct ibtopo_fabric *f = NULL;

	if (ibtopo_fabric_new(&f, NULL))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	ibtopo_fabric_free(*state);
	return 0;
}

static struct ibtopo_port *add_port(struct ibtopo_fabric *f, struct ibtopo_node *n,
				    unsigned num, unsigned speed, unsigned width)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, f, n, num, NULL), 0);
	p->speed_active = (uint16_t)speed;
	p->width_active = (uint8_t)width;
	return p;
}

static void connect_orders_ends_by_guid(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_node *sw = NULL, *ca = NULL;
	struct ibtopo_link *l = NULL;
	struct ibtopo_port *ps, *pc;

	assert_int_equal(ibtopo_fabric_add_node(&sw, f, IBTOPO_NODE_SWITCH, 0x20,
						36, "leaf01", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca, f, IBTOPO_NODE_CA, 0x10, 1,
						"host001 mlx5_0", NULL), 0);
	ps = add_port(f, sw, 3, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	pc = add_port(f, ca, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	assert_int_equal(ibtopo_fabric_connect(&l, f, ps, pc, NULL), 0);
	assert_ptr_equal(l->a, pc);	/* lower node GUID first */
	assert_ptr_equal(l->b, ps);
	assert_ptr_equal(ps->remote, pc);
	assert_int_equal(l->speed, IBTOPO_SPEED_HDR);
	assert_int_equal(l->width, IBTOPO_WIDTH_4X);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
}

static void duplicate_node_guid_is_refused(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	assert_int_equal(ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_CA, 1, 1,
						"a", &err), 0);
	assert_int_equal(ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_CA, 1, 1,
						"b", &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "0x0000000000000001"));
}

static void port_already_linked_is_refused(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_node *a = NULL, *b = NULL, *c = NULL;
	struct ibtopo_port *pa, *pb, *pc;

	ibtopo_fabric_add_node(&a, f, IBTOPO_NODE_SWITCH, 1, 8, "a", NULL);
	ibtopo_fabric_add_node(&b, f, IBTOPO_NODE_SWITCH, 2, 8, "b", NULL);
	ibtopo_fabric_add_node(&c, f, IBTOPO_NODE_SWITCH, 3, 8, "c", NULL);
	pa = add_port(f, a, 1, 0, 0);
	pb = add_port(f, b, 1, 0, 0);
	pc = add_port(f, c, 1, 0, 0);
	assert_int_equal(ibtopo_fabric_connect(NULL, f, pa, pb, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(NULL, f, pb, pa, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(NULL, f, pa, pc, NULL), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
}

static void find_by_node_and_port_guid(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_node *n = NULL;
	struct ibtopo_port *p;

	for (uint64_t g = 100; g < 1100; g++)
		assert_int_equal(ibtopo_fabric_add_node(&n, f, IBTOPO_NODE_CA, g, 2,
							"x", NULL), 0);
	n = ibtopo_fabric_find_node(f, 577);
	assert_non_null(n);
	assert_int_equal(n->guid, 577);
	assert_null(ibtopo_fabric_find_node(f, 99));
	p = add_port(f, n, 2, 0, 0);
	p->guid = 0xabc;
	assert_int_equal(ibtopo_fabric_index_port(f, p, NULL), 0);
	assert_ptr_equal(ibtopo_fabric_find_port(f, 0xabc), p);
	assert_null(ibtopo_fabric_find_port(f, 0xabd));
}

static void sort_puts_switches_first_then_guid_order(void **state)
{
	struct ibtopo_fabric *f = *state;

	ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_CA, 5, 1, "ca5", NULL);
	ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_SWITCH, 9, 8, "sw9", NULL);
	ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_CA, 2, 1, "ca2", NULL);
	ibtopo_fabric_sort(f);
	assert_string_equal(ibtopo_fabric_node(f, 0)->desc, "sw9");
	assert_string_equal(ibtopo_fabric_node(f, 1)->desc, "ca2");
	assert_string_equal(ibtopo_fabric_node(f, 2)->desc, "ca5");
	assert_int_equal(ibtopo_fabric_node(f, 2)->index, 2);
}

static void speed_and_width_names_round_trip(void **state)
{
	(void)state;
	for (unsigned b = 1; b <= IBTOPO_SPEED_ALL; b <<= 1)
		assert_int_equal(ibtopo_speed_parse(ibtopo_speed_name(b)), b);
	assert_int_equal(ibtopo_speed_parse("fdr10"), IBTOPO_SPEED_FDR10);
	assert_int_equal(ibtopo_speed_parse("QDR10"), 0);
	assert_int_equal(ibtopo_speed_highest(IBTOPO_SPEED_EDR | IBTOPO_SPEED_FDR),
			 IBTOPO_SPEED_EDR);
	assert_int_equal(ibtopo_width_highest(IBTOPO_WIDTH_12X | IBTOPO_WIDTH_2X |
					      IBTOPO_WIDTH_4X), IBTOPO_WIDTH_12X);
	assert_int_equal(ibtopo_width_highest(IBTOPO_WIDTH_2X | IBTOPO_WIDTH_1X),
			 IBTOPO_WIDTH_2X);
	assert_int_equal(ibtopo_width_parse("12X"), IBTOPO_WIDTH_12X);
	assert_true(ibtopo_link_gbps(IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X) == 200.0);
}

/* Seven switches alike, one CA named after its host, one port GUID. */
static void add_alike(struct ibtopo_fabric *f)
{
	struct ibtopo_node *n = NULL;
	struct ibtopo_port *p;

	for (uint64_t g = 1; g <= 7; g++)
		assert_int_equal(ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_SWITCH,
			0x2c90200a00000 + g, 8,
			"Infiniscale-IV Mellanox Technologies", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&n, f, IBTOPO_NODE_CA, 0x10, 1,
						"node07 mlx4_0", NULL), 0);
	p = add_port(f, n, 1, 0, 0);
	p->guid = 0x11;
	assert_int_equal(ibtopo_fabric_index_port(f, p, NULL), 0);
	/* a CA whose description reads like a GUID */
	assert_int_equal(ibtopo_fabric_add_node(NULL, f, IBTOPO_NODE_CA, 0x20, 1,
						"0x99", NULL), 0);
}

static void find_node_name_refuses_a_name_several_nodes_share(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_node *n = (struct ibtopo_node *)f;

	add_alike(f);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f,
		"Infiniscale-IV Mellanox Technologies", &err), IBTOPO_EAMBIGUOUS);
	assert_null(n);
	assert_string_equal(err.message, "'Infiniscale-IV Mellanox Technologies'"
		" names 7 nodes: 0x0002c90200a00001, 0x0002c90200a00002,"
		" 0x0002c90200a00003, 0x0002c90200a00004 and 3 more;"
		" name one by its GUID");
	/* the first of them is what find_node_desc() gives; the name does not */
	assert_int_equal(ibtopo_fabric_find_node_desc(f,
		"Infiniscale-IV Mellanox Technologies")->guid, 0x2c90200a00001);
}

static void find_node_name_takes_guids_and_unique_descriptions(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_node *n = NULL;

	add_alike(f);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "0x0002c90200a00005",
						      &err), 0);
	assert_int_equal(n->guid, 0x2c90200a00005);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "0X2C90200A00003",
						      &err), 0);
	assert_int_equal(n->guid, 0x2c90200a00003);
	/* a port GUID names its node */
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "0x11", &err), 0);
	assert_int_equal(n->guid, 0x10);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "node07 mlx4_0",
						      &err), 0);
	assert_int_equal(n->guid, 0x10);
	/* no node has GUID 0x99: the description that reads so */
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "0x99", &err), 0);
	assert_int_equal(n->guid, 0x20);
	/* bare hex is a description, not a GUID */
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "10", &err),
			 IBTOPO_ENOTFOUND);
	assert_string_equal(err.message, "no node '10' in the fabric");
	/* a host name, as the Slurm export prints it (issue 23, item 17) */
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "node07", &err), 0);
	assert_int_equal(n->guid, 0x10);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, "bad\001\377", &err),
			 IBTOPO_ENOTFOUND);
	assert_string_equal(err.message, "no node 'bad\\x01\\xff' in the fabric");
	assert_int_equal(ibtopo_fabric_find_node_name(&n, NULL, "x", &err),
			 IBTOPO_EINVAL);
	assert_int_equal(ibtopo_fabric_find_node_name(&n, f, NULL, &err),
			 IBTOPO_EINVAL);
}

static void lft_attaches_to_switches_only_and_is_copied(void **state)
{
	struct ibtopo_fabric *f = *state;
	struct ibtopo_node *sw = NULL, *ca = NULL;
	uint8_t ports[4] = { 0, 1, 2, IBTOPO_LFT_NONE };

	assert_int_equal(ibtopo_fabric_add_node(&sw, f, IBTOPO_NODE_SWITCH, 0x10, 8,
						"sw", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca, f, IBTOPO_NODE_CA, 0x20, 1,
						"ca", NULL), 0);
	assert_false(ibtopo_fabric_has_routes(f));
	assert_int_equal(ibtopo_node_set_lft(ca, ports, 3, NULL), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_node_set_lft(sw, ports, IBTOPO_LFT_MAX_LID + 1, NULL),
			 IBTOPO_EINVAL);
	assert_int_equal(ibtopo_node_set_lft(sw, ports, 3, NULL), 0);
	ports[1] = 7;
	assert_non_null(sw->lft);
	assert_int_equal(sw->lft->top, 3);
	assert_int_equal(sw->lft->port[1], 1);
	assert_int_equal(sw->lft->port[3], IBTOPO_LFT_NONE);
	assert_true(ibtopo_fabric_has_routes(f));
	assert_null(ibtopo_fabric_routing_engine(f));
	assert_int_equal(ibtopo_fabric_set_routing_engine(f, "ftree", NULL), 0);
	assert_string_equal(ibtopo_fabric_routing_engine(f), "ftree");
	ibtopo_fabric_clear_routes(f);
	assert_null(sw->lft);
	assert_false(ibtopo_fabric_has_routes(f));
}

/* Slurm's hostlist syntax: ranges padded as their first number,
 * brackets that multiply, commas inside brackets kept apart. */
static void hostlist_expands_ranges_padding_and_products(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	static const char *const want[] = { "gpu008", "gpu009", "gpu010",
					    "gpu020", "r1n1",	"r1n2",
					    "r2n1",   "r2n2",	"login" };
	char **v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(ibtopo_hostlist_expand(
				 &v, &n, "gpu[008-010,020],r[1-2]n[1-2],login",
				 &err),
			 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i], want[i]);
	ibtopo_hostlist_free(v, n);
	assert_int_equal(ibtopo_hostlist_expand(&v, &n, "node[9-10]", &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "node9");
	assert_string_equal(v[1], "node10");
	ibtopo_hostlist_free(v, n);
}

static void hostlist_refuses_bad_expressions(void **state)
{
	static const char *const bad[] = { "",	      "a,,b",	   "a,",
					   "n[",      "n[]",	   "n[2-1]",
					   "n[x]",    "n]",	   "n[1[2]]",
					   "a b",     "n[1-2,]x" };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char **v = NULL;
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ibtopo_hostlist_expand(&v, &n, bad[i], &err),
				 IBTOPO_EINVAL);
		assert_null(v);
		assert_int_equal(n, 0);
		assert_non_null(strstr(err.message, "bad hostlist"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(connect_orders_ends_by_guid, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_node_guid_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(port_already_linked_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(find_by_node_and_port_guid, setup, teardown),
		cmocka_unit_test_setup_teardown(sort_puts_switches_first_then_guid_order, setup, teardown),
		cmocka_unit_test_setup_teardown(find_node_name_refuses_a_name_several_nodes_share, setup, teardown),
		cmocka_unit_test_setup_teardown(find_node_name_takes_guids_and_unique_descriptions, setup, teardown),
		cmocka_unit_test_setup_teardown(lft_attaches_to_switches_only_and_is_copied, setup, teardown),
		cmocka_unit_test(speed_and_width_names_round_trip),
		cmocka_unit_test(hostlist_expands_ranges_padding_and_products),
		cmocka_unit_test(hostlist_refuses_bad_expressions),
	};

	return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
