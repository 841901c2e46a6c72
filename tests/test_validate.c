/* test_validate.c - plan vs actual, and the fat-tree plan generator */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR IBTOPO_SPEED_HDR
#define EDR IBTOPO_SPEED_EDR

struct ctx {
	struct ibtopo_fabric *plan;
	/* the plan's cables by node name, to edit into faults */
	struct test_cable *specs;
	size_t n, alloc;
	struct ibtopo_fabric *actual;
	struct ibtopo_findings list;
};

/* A plan: 4 leaves with 4 hosts each, one cable from every leaf to each of 4 spines. */
static int setup(void **state)
{
	struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
	struct ctx *c = calloc(1, sizeof(*c));
	size_t nl;

	if (!c)
		return -1;
	p.leaves = 4;
	p.spines = 4;
	p.hosts_per_leaf = 4;
	if (ibtopo_plan_fat_tree(&c->plan, &p, NULL))
		return -1;
	nl = ibtopo_fabric_link_count(c->plan);
	c->alloc = nl + 8;
	c->specs = calloc(c->alloc, sizeof(*c->specs));
	if (!c->specs)
		return -1;
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->plan, i);

		c->specs[c->n++] = (struct test_cable){ l->a->node->desc, l->a->num,
			l->b->node->desc, l->b->num, l->speed, l->width };
	}
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	ibtopo_findings_release(&c->list);
	ibtopo_fabric_free(c->actual);
	ibtopo_fabric_free(c->plan);
	free(c->specs);
	free(c);
	return 0;
}

/* Real-looking GUIDs, unlike the plan's name hashes. */
static uint64_t real_guid(const char *name)
{
	return test_guid_of(name, 0x0002c90300000000ull);
}

static struct ibtopo_port *port_of(struct ibtopo_fabric *f, const char *name,
				   unsigned num, const char *host_suffix)
{
	bool host = test_is_host(name);
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, real_guid(name));
	struct ibtopo_port *p = NULL;
	char desc[64];

	if (!n) {
		snprintf(desc, sizeof(desc), "%s%s", name,
			 host && host_suffix ? host_suffix : "");
		assert_int_equal(ibtopo_fabric_add_node(&n, f,
			host ? IBTOPO_NODE_CA : IBTOPO_NODE_SWITCH, real_guid(name),
			host ? 1 : 40, desc, NULL), 0);
	}
	assert_int_equal(ibtopo_node_add_port(&p, f, n, num, NULL), 0);
	return p;
}

/* The actual fabric: the specs as cabled; hosts described name + suffix. */
static void build_actual(struct ctx *c, const char *host_suffix)
{
	assert_int_equal(ibtopo_fabric_new(&c->actual, NULL), 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct test_cable *l = &c->specs[i];
		struct ibtopo_port *a, *b;

		if (!l->x)
			continue;	/* dropped */
		a = port_of(c->actual, l->x, l->px, host_suffix);
		b = port_of(c->actual, l->y, l->py, host_suffix);
		a->speed_active = b->speed_active = (uint16_t)l->speed;
		a->width_active = b->width_active = (uint8_t)l->width;
		assert_int_equal(ibtopo_fabric_connect(NULL, c->actual, a, b, NULL), 0);
	}
}

/* The spec of the cable at node:port. */
static struct test_cable *spec_at(struct ctx *c, const char *node, unsigned port)
{
	for (size_t i = 0; i < c->n; i++) {
		struct test_cable *l = &c->specs[i];

		if (l->x && ((strcmp(l->x, node) == 0 && l->px == port) ||
			     (strcmp(l->y, node) == 0 && l->py == port)))
			return l;
	}
	fail_msg("no planned cable at %s port %u", node, port);
	return NULL;
}

/* Move the end of a cable at node:from to node:to. */
static void move_end(struct ctx *c, const char *node, unsigned from, unsigned to)
{
	struct test_cable *l = spec_at(c, node, from);

	if (strcmp(l->x, node) == 0 && l->px == from)
		l->px = to;
	else
		l->py = to;
}

/* Plug the end of cable l that is on `node` into another port of it. */
static void set_port(struct test_cable *l, const char *node, unsigned port)
{
	if (strcmp(l->x, node) == 0)
		l->px = port;
	else
		l->py = port;
}

static void add_cable(struct ctx *c, const char *x, unsigned px, const char *y,
		      unsigned py)
{
	assert_true(c->n < c->alloc);
	c->specs[c->n++] = (struct test_cable){ x, px, y, py, HDR, IBTOPO_WIDTH_4X };
}

static void drop_node(struct ctx *c, const char *node)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->specs[i].x && (strcmp(c->specs[i].x, node) == 0 ||
				      strcmp(c->specs[i].y, node) == 0))
			c->specs[i].x = NULL;
}

static void validate(struct ctx *c, const char *match)
{
	struct ibtopo_validate_opts o = IBTOPO_VALIDATE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	o.match = match;
	assert_int_equal(ibtopo_fabric_validate(&c->list, c->plan, c->actual, &o,
						&err), 0);
}

static void assert_end(const struct ibtopo_end *e, const char *node, int port)
{
	assert_non_null(e->node);
	assert_string_equal(e->node, node);
	assert_int_equal(e->port, port);
}

/* ---- the plan generator ---- */

static struct ibtopo_node *by_name(const struct ibtopo_fabric *f, const char *name)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node_desc(f, name);

	assert_non_null(n);
	return n;
}

static void assert_cable(const struct ibtopo_fabric *f, const char *x, unsigned px,
			 const char *y, unsigned py)
{
	const struct ibtopo_port *p = ibtopo_node_port(by_name(f, x), px);

	assert_non_null(p);
	assert_non_null(p->remote);
	assert_string_equal(p->remote->node->desc, y);
	assert_int_equal(p->remote->num, py);
}

static void plan_two_levels_spreads_uplinks_over_spines(void **state)
{
	struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
	struct ibtopo_fabric *f = NULL;
	const struct ibtopo_link *l;

	p.leaves = 3;
	p.spines = 2;
	p.hosts_per_leaf = 5;
	p.uplinks = 4;
	p.speed = EDR;
	assert_int_equal(ibtopo_plan_fat_tree(&f, &p, NULL), 0);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH), 5);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 15);
	assert_int_equal(ibtopo_fabric_link_count(f), 15 + 12);
	assert_int_equal(by_name(f, "leaf01")->nports, 40);
	assert_int_equal(by_name(f, "host001")->nports, 1);
	assert_cable(f, "leaf01", 1, "host001", 1);
	assert_cable(f, "leaf03", 5, "host015", 1);
	/* uplink k to spine k mod 2, spine ports in leaf order */
	assert_cable(f, "leaf01", 6, "spine01", 1);
	assert_cable(f, "leaf01", 7, "spine02", 1);
	assert_cable(f, "leaf01", 8, "spine01", 2);
	assert_cable(f, "leaf02", 6, "spine01", 3);
	assert_cable(f, "leaf03", 9, "spine02", 6);
	l = ibtopo_node_port(by_name(f, "leaf02"), 6)->link;
	assert_int_equal(l->speed, EDR);
	assert_int_equal(l->width, IBTOPO_WIDTH_4X);
	/* names give the GUIDs, as the topology-file reader does */
	assert_int_equal(by_name(f, "leaf01")->guid, ibtopo_name_guid("leaf01"));
	assert_int_equal(by_name(f, "leaf01")->guid >> 56 & 0x02, 0x02);
	assert_int_not_equal(by_name(f, "leaf01")->guid, by_name(f, "leaf02")->guid);
	ibtopo_fabric_free(f);
}

static void plan_three_levels_of_radix_36_is_11664_hosts(void **state)
{
	struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
	struct ibtopo_fabric *f = NULL;

	p.levels = 3;
	p.radix = 36;
	p.pods = 36;
	p.leaves = 18;
	p.spines = 18;
	p.hosts_per_leaf = 18;
	assert_int_equal(ibtopo_plan_fat_tree(&f, &p, NULL), 0);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH), 1620);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 11664);
	assert_int_equal(ibtopo_fabric_link_count(f), 11664 * 3);
	/* pod 2's first spine: leaves 19..36 down, cores 1..18 up */
	assert_cable(f, "spine019", 1, "leaf019", 19);
	assert_cable(f, "spine019", 19, "core001", 2);
	assert_cable(f, "spine036", 36, "core324", 2);
	assert_cable(f, "core324", 36, "spine648", 36);
	assert_non_null(ibtopo_fabric_find_node_desc(f, "host11664"));
	ibtopo_fabric_free(f);
}

static void plan_shape_errors_name_the_parameter(void **state)
{
	static const struct {
		unsigned levels, pods, leaves, spines, hosts, uplinks, radix;
		const char *msg;
	} bad[] = {
		{ 2, 0, 4, 2, 30, 12, 40,
		  "leaves need 42 ports (30 hosts + 12 uplinks) but the radix is 40" },
		{ 2, 0, 4, 3, 8, 8, 40, "'--uplinks 8' is not a multiple of '--spines 3': "
		  "every leaf needs the same number of cables to each spine" },
		{ 2, 0, 41, 20, 20, 20, 40,
		  "spines need 41 ports (41 leaves x 1 cable) but the radix is 40" },
		{ 3, 10, 4, 4, 4, 4, 8,
		  "core switches need 10 ports (one per pod) but the radix is 8" },
		{ 3, 2, 8, 4, 4, 4, 8, "pod spines need 16 ports (8 down to leaves, "
		  "as many up to cores) but the radix is 8" },
		{ 2, 0, 0, 2, 4, 4, 40, "'--leaves' must be at least 1" },
		{ 3, 0, 2, 2, 4, 4, 40, "'--pods' must be at least 1 for a 3-level fat tree" },
		{ 4, 0, 2, 2, 4, 4, 40, "levels 4: a planned fat tree has 2 or 3 levels" },
		{ 2, 0, 2, 2, 4, 4, 300, "'--radix 300' out of range (2-255 ports)" },
	};

	for (size_t i = 0; i < TEST_ARRAY_SIZE(bad); i++) {
		struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_fabric *f = (struct ibtopo_fabric *)&p;

		p.levels = bad[i].levels;
		p.pods = bad[i].pods;
		p.leaves = bad[i].leaves;
		p.spines = bad[i].spines;
		p.hosts_per_leaf = bad[i].hosts;
		p.uplinks = bad[i].uplinks;
		p.radix = bad[i].radix;
		assert_int_equal(ibtopo_plan_fat_tree(&f, &p, &err), IBTOPO_EINVAL);
		assert_null(f);
		assert_string_equal(err.message, bad[i].msg);
	}
}

static void plan_write_states_links_that_differ(void **state)
{
	struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = test_sink(&m, IBTOPO_FORMAT_TEXT);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_link *l;

	p.leaves = 1;
	p.spines = 1;
	p.hosts_per_leaf = 2;
	assert_int_equal(ibtopo_plan_fat_tree(&f, &p, NULL), 0);
	l = ibtopo_node_port(by_name(f, "leaf01"), 2)->link;
	l->speed = EDR;
	l->width = IBTOPO_WIDTH_1X;

	assert_int_equal(ibtopo_plan_write(&o, f, IBTOPO_FILE_IBNETDISCOVER, &err), 0);
	assert_non_null(strstr(m.text, "Switch\t40 \"leaf01\"\t\t# \"leaf01\"\n"
				  "[1]\t\"host001\"[1]\t\t# \"host001\" lid 0 4xHDR\n"
				  "[2]\t\"host002\"[1]\t\t# \"host002\" lid 0 1xEDR\n"));
	assert_non_null(strstr(m.text, "Ca\t1 \"host002\"\t\t# \"host002\"\n"
				  "[1]\t\"leaf01\"[2]\t\t# \"leaf01\" lid 0 1xEDR\n"));

	/* ibsim: global masks for 4xHDR, both ends of the odd link restricted */
	m.len = 0;
	assert_int_equal(ibtopo_plan_write(&o, f, IBTOPO_FILE_IBSIM, &err), 0);
	assert_non_null(strstr(m.text, "width=3\nspeed=7\nextspeed=7\n"));
	assert_non_null(strstr(m.text, "[1]\t\"host001\"[1]\n"));
	assert_non_null(strstr(m.text, "[2]\t\"host002\"[1]\te=3\tw=1\n"));
	assert_non_null(strstr(m.text, "Hca\t1 \"host002\"\n[1]\t\"leaf01\"[2]\te=3\tw=1\n"));

	l->speed = IBTOPO_SPEED_FDR10;
	assert_int_equal(ibtopo_plan_write(&o, f, IBTOPO_FILE_IBSIM, &err), IBTOPO_EINVAL);
	assert_string_equal(err.message,
			    "ibsim cannot simulate FDR10 links (port 2 of 'leaf01')");
	assert_int_equal(ibtopo_node_set_desc(by_name(f, "host001"), "a \"b\"", NULL), 0);
	assert_int_equal(ibtopo_plan_write(&o, f, IBTOPO_FILE_IBNETDISCOVER, &err),
			 IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "cannot be named in a plan file"));
	assert_int_equal(ibtopo_plan_write(&o, f, IBTOPO_FILE_PORTS, &err), IBTOPO_EINVAL);
	ibtopo_fabric_free(f);
	ibtopo_buffer_release(&m);
}

/* ---- validate ---- */

static void fabric_as_planned_validates_clean(void **state)
{
	struct ctx *c = *state;

	build_actual(c, NULL);
	validate(c, NULL);
	assert_int_equal(c->list.count, 0);
}

/* Finding i of the list: a miswired-link of that subkind. */
static const struct ibtopo_finding *miswire(const struct ctx *c, size_t i,
					    int subkind)
{
	const struct ibtopo_finding *f = &c->list.items[i];

	assert_int_equal(f->kind, IBTOPO_FIND_MISWIRED_LINK);
	assert_int_equal(f->subkind, subkind);
	return f;
}

static void seven_faults_give_exactly_seven_findings(void **state)
{
	struct ctx *c = *state;
	const struct ibtopo_finding *f;
	struct test_cable *s13, *s14;

	drop_node(c, "spine04");			/* a missing switch */
	spec_at(c, "leaf02", 5)->x = NULL;		/* a dropped cable */
	move_end(c, "leaf03", 6, 20);			/* a moved cable */
	s13 = spec_at(c, "host013", 1);		/* two swapped cables: */
	s14 = spec_at(c, "host014", 1);		/* leaf04 ports 1 and 2 */
	set_port(s13, "leaf04", 2);
	set_port(s14, "leaf04", 1);
	add_cable(c, "leaf01", 30, "leaf02", 30);	/* a same-level cable */
	spec_at(c, "leaf01", 5)->speed = EDR;		/* an EDR link */
	spec_at(c, "leaf01", 6)->width = IBTOPO_WIDTH_1X;	/* a 1x link */
	build_actual(c, NULL);
	validate(c, NULL);
	assert_int_equal(c->list.count, 7);

	f = &c->list.items[0];
	assert_int_equal(f->kind, IBTOPO_FIND_MISSING_NODE);
	assert_int_equal(f->severity, IBTOPO_SEV_ERROR);
	assert_end(&f->a, "spine04", -1);
	assert_int_equal(f->a.guid, 0);		/* the plan's is made up */
	assert_int_equal(f->num.links.links, 4);

	f = miswire(c, 1, IBTOPO_MOVE_SWAPPED);
	assert_end(&f->a, "leaf04", 1);
	assert_end(&f->b, "host014", 1);
	assert_end(&f->c, "leaf04", 2);
	assert_end(&f->d, "host013", 1);
	assert_int_equal(f->a.guid, real_guid("leaf04"));

	f = miswire(c, 2, IBTOPO_MOVE_ONE_END);
	assert_end(&f->a, "spine02", 3);	/* right */
	assert_end(&f->b, "leaf03", 20);	/* found */
	assert_end(&f->c, "spine02", 3);
	assert_end(&f->d, "leaf03", 6);		/* planned */
	assert_int_equal(f->d.guid, real_guid("leaf03"));

	f = &c->list.items[3];
	assert_int_equal(f->kind, IBTOPO_FIND_MISSING_LINK);
	assert_end(&f->a, "leaf02", 5);
	assert_end(&f->b, "spine01", 2);
	assert_int_equal(f->a.guid, real_guid("leaf02"));

	f = &c->list.items[4];
	assert_int_equal(f->kind, IBTOPO_FIND_EXTRA_LINK);
	assert_end(&f->a, "leaf01", 30);
	assert_end(&f->b, "leaf02", 30);

	f = &c->list.items[5];
	assert_int_equal(f->kind, IBTOPO_FIND_SPEED_BELOW_PLAN);
	assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PLAN);
	assert_end(&f->a, "leaf01", 5);
	assert_end(&f->b, "spine01", 1);
	assert_int_equal(f->num.rate.expected, HDR);
	assert_int_equal(f->num.rate.active, EDR);

	f = &c->list.items[6];
	assert_int_equal(f->kind, IBTOPO_FIND_WIDTH_BELOW_PLAN);
	assert_end(&f->a, "leaf01", 6);
	assert_end(&f->b, "spine02", 1);
	assert_int_equal(f->num.rate.expected, IBTOPO_WIDTH_4X);
	assert_int_equal(f->num.rate.active, IBTOPO_WIDTH_1X);
}

static void host_on_wrong_leaf_is_one_miswire(void **state)
{
	struct ctx *c = *state;
	struct test_cable *l = spec_at(c, "host002", 1);
	const struct ibtopo_finding *f;

	/* host002's cable went to leaf03 port 30 instead of leaf01 port 2 */
	if (strcmp(l->x, "host002") == 0) {
		l->y = "leaf03";
		l->py = 30;
	} else {
		l->x = "leaf03";
		l->px = 30;
	}
	build_actual(c, NULL);
	validate(c, NULL);
	assert_int_equal(c->list.count, 1);
	f = miswire(c, 0, IBTOPO_MOVE_ONE_END);
	assert_end(&f->a, "host002", 1);
	assert_end(&f->b, "leaf03", 30);
	assert_end(&f->d, "leaf01", 2);
}

static void hosts_behind_a_missing_leaf_say_so(void **state)
{
	struct ctx *c = *state;

	drop_node(c, "leaf04");		/* its four hosts go with it */
	build_actual(c, NULL);
	validate(c, NULL);
	assert_int_equal(c->list.count, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(c->list.items[i].kind, IBTOPO_FIND_MISSING_NODE);
	assert_end(&c->list.items[0].a, "leaf04", -1);
	assert_null(c->list.items[0].note);	/* its spines are there */
	assert_end(&c->list.items[1].a, "host013", -1);
	assert_non_null(c->list.items[1].note);
	assert_non_null(strstr(c->list.items[1].note, "every planned peer is missing"));
	assert_non_null(c->list.items[4].note);
}

static void extra_host_is_one_extra_node(void **state)
{
	struct ctx *c = *state;

	add_cable(c, "leaf02", 30, "host099", 1);
	build_actual(c, NULL);
	validate(c, NULL);
	assert_int_equal(c->list.count, 1);
	assert_int_equal(c->list.items[0].kind, IBTOPO_FIND_EXTRA_NODE);
	assert_int_equal(c->list.items[0].severity, IBTOPO_SEV_WARNING);
	assert_end(&c->list.items[0].a, "host099", -1);
	assert_int_equal(c->list.items[0].num.links.links, 1);
}

static void match_regex_names_hosts_by_first_word(void **state)
{
	struct ctx *c = *state;

	build_actual(c, " mlx5_0");
	validate(c, NULL);
	/* without it, every host is missing and another is extra */
	assert_int_equal(c->list.count, 32);
	assert_int_equal(c->list.items[0].kind, IBTOPO_FIND_MISSING_NODE);
	assert_int_equal(c->list.items[31].kind, IBTOPO_FIND_EXTRA_NODE);
	ibtopo_findings_release(&c->list);
	validate(c, "^([^ ]+)");
	assert_int_equal(c->list.count, 0);
	/* a regex without a group: the whole match */
	validate(c, "^[a-z]+[0-9]+");
	assert_int_equal(c->list.count, 0);
}

static void plan_with_real_guids_matches_by_guid(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_fabric *planned;

	/* the plan: the actual fabric itself, with other descriptions */
	build_actual(c, NULL);
	planned = c->actual;
	c->actual = NULL;
	build_actual(c, NULL);
	for (size_t i = 0; i < ibtopo_fabric_node_count(planned); i++)
		assert_int_equal(ibtopo_node_set_desc(ibtopo_fabric_node(planned, i),
						      "renamed", NULL), 0);
	assert_int_equal(ibtopo_fabric_validate(&c->list, planned, c->actual, NULL,
						NULL), 0);
	assert_int_equal(c->list.count, 0);
	ibtopo_fabric_free(planned);
}

static void bad_regex_is_einval(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_validate_opts o = IBTOPO_VALIDATE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	build_actual(c, NULL);
	o.match = "([a-z";
	assert_int_equal(ibtopo_fabric_validate(&c->list, c->plan, c->actual, &o,
						&err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "bad --match regex '([a-z': "));
	assert_int_equal(c->list.count, 0);
	assert_int_equal(ibtopo_fabric_validate(&c->list, NULL, c->actual, NULL,
						&err), IBTOPO_EINVAL);
	assert_string_equal(err.message, "no fabric to validate");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_two_levels_spreads_uplinks_over_spines),
		cmocka_unit_test(plan_three_levels_of_radix_36_is_11664_hosts),
		cmocka_unit_test(plan_shape_errors_name_the_parameter),
		cmocka_unit_test(plan_write_states_links_that_differ),
		cmocka_unit_test_setup_teardown(fabric_as_planned_validates_clean,
						setup, teardown),
		cmocka_unit_test_setup_teardown(seven_faults_give_exactly_seven_findings,
						setup, teardown),
		cmocka_unit_test_setup_teardown(host_on_wrong_leaf_is_one_miswire,
						setup, teardown),
		cmocka_unit_test_setup_teardown(hosts_behind_a_missing_leaf_say_so,
						setup, teardown),
		cmocka_unit_test_setup_teardown(extra_host_is_one_extra_node,
						setup, teardown),
		cmocka_unit_test_setup_teardown(match_regex_names_hosts_by_first_word,
						setup, teardown),
		cmocka_unit_test_setup_teardown(plan_with_real_guids_matches_by_guid,
						setup, teardown),
		cmocka_unit_test_setup_teardown(bad_regex_is_einval, setup, teardown),
	};

	/* one group: one TAP plan */
	return cmocka_run_group_tests_name("plan and validate", tests, NULL, NULL);
}
