/*
 * test_routes.c - the routing analysis (lib/analysis/routes*.c) on
 * fabrics and tables built by hand: a perfectly balanced 2-level tree
 * routed D-mod-k, the same tree with a black hole, a loop and a detour
 * planted, and a ring of 4 switches routed shortest-path (a credit loop)
 * or as a line (none).
 */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdio.h>
#include <string.h>

#define NSPINE 2
#define NLEAF 4
#define NHOST 2	/* per leaf */
#define TOP 64

struct net {
	struct ibtopo_fabric *f;
	struct ibtopo_node *spine[NSPINE], *leaf[NLEAF];
	struct ibtopo_node *host[NLEAF * NHOST];
	uint8_t spine_lft[NSPINE][TOP + 1], leaf_lft[NLEAF][TOP + 1];
};

static struct ibtopo_node *node(struct ibtopo_fabric *f,
				enum ibtopo_node_type type, uint64_t guid,
				unsigned nports, const char *desc)
{
	struct ibtopo_node *n = NULL;
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_fabric_add_node(&n, f, type, guid, nports,
						desc, NULL), 0);
	for (unsigned i = type == IBTOPO_NODE_SWITCH ? 0 : 1; i <= nports; i++)
		assert_int_equal(ibtopo_node_add_port(&p, f, n, i, NULL), 0);
	return n;
}

static void cable(struct ibtopo_fabric *f, struct ibtopo_node *a, unsigned pa,
		  struct ibtopo_node *b, unsigned pb)
{
	struct ibtopo_link *l = NULL;

	assert_int_equal(ibtopo_fabric_connect(&l, f, a->ports[pa],
					       b->ports[pb], NULL), 0);
}

/* LIDs: spines 1-2, leaves 3-6, hosts 11.. (leaf l, host h: 11 + 2l + h) */
static unsigned host_lid(unsigned l, unsigned h)
{
	return 11 + NHOST * l + h;
}

/*
 * Leaves: hosts on ports 1..NHOST, spine s on port 10 + s. Spines: leaf l
 * on port 1 + l. D-mod-k: a leaf sends a foreign LID up to spine
 * lid % NSPINE.
 */
static void tree(struct net *t)
{
	char name[32];

	memset(t, 0, sizeof(*t));
	assert_int_equal(ibtopo_fabric_new(&t->f, NULL), 0);
	for (unsigned s = 0; s < NSPINE; s++) {
		snprintf(name, sizeof(name), "spine%u", s);
		t->spine[s] = node(t->f, IBTOPO_NODE_SWITCH, 0x100 + s, 8, name);
		t->spine[s]->ports[0]->lid = (uint16_t)(1 + s);
	}
	for (unsigned l = 0; l < NLEAF; l++) {
		snprintf(name, sizeof(name), "leaf%u", l);
		t->leaf[l] = node(t->f, IBTOPO_NODE_SWITCH, 0x200 + l, 12, name);
		t->leaf[l]->ports[0]->lid = (uint16_t)(3 + l);
		for (unsigned s = 0; s < NSPINE; s++)
			cable(t->f, t->leaf[l], 10 + s, t->spine[s], 1 + l);
		for (unsigned h = 0; h < NHOST; h++) {
			struct ibtopo_node *c;

			snprintf(name, sizeof(name), "host%u%u", l, h);
			c = node(t->f, IBTOPO_NODE_CA, 0x300 + 16 * l + h, 1,
				 name);
			c->ports[1]->lid = (uint16_t)host_lid(l, h);
			cable(t->f, c, 1, t->leaf[l], 1 + h);
			t->host[l * NHOST + h] = c;
		}
	}
	memset(t->spine_lft, IBTOPO_LFT_NONE, sizeof(t->spine_lft));
	memset(t->leaf_lft, IBTOPO_LFT_NONE, sizeof(t->leaf_lft));
	for (unsigned s = 0; s < NSPINE; s++) {
		t->spine_lft[s][1 + s] = 0;
		for (unsigned l = 0; l < NLEAF; l++) {
			t->spine_lft[s][3 + l] = (uint8_t)(1 + l);
			for (unsigned h = 0; h < NHOST; h++)
				t->spine_lft[s][host_lid(l, h)] = (uint8_t)(1 + l);
		}
	}
	for (unsigned l = 0; l < NLEAF; l++) {
		for (unsigned s = 0; s < NSPINE; s++)
			t->leaf_lft[l][1 + s] = (uint8_t)(10 + s);
		for (unsigned lid = 3; lid <= 6; lid++)
			t->leaf_lft[l][lid] = (uint8_t)(10 + lid % NSPINE);
		t->leaf_lft[l][3 + l] = 0;
		for (unsigned m = 0; m < NLEAF; m++)
			for (unsigned h = 0; h < NHOST; h++)
				t->leaf_lft[l][host_lid(m, h)] = (uint8_t)
					(m == l ? 1 + h :
					 10 + host_lid(m, h) % NSPINE);
	}
}

static void program(struct net *t)
{
	for (unsigned s = 0; s < NSPINE; s++)
		assert_int_equal(ibtopo_node_set_lft(t->spine[s],
						     t->spine_lft[s], TOP,
						     NULL), 0);
	for (unsigned l = 0; l < NLEAF; l++)
		assert_int_equal(ibtopo_node_set_lft(t->leaf[l], t->leaf_lft[l],
						     TOP, NULL), 0);
}

struct run {
	struct ibtopo_topology *topo;
	struct ibtopo_routes *r;
	struct ibtopo_findings found;
};

static void analyze(struct run *x, struct ibtopo_fabric *f)
{
	struct ibtopo_routes_opts o = IBTOPO_ROUTES_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	memset(x, 0, sizeof(*x));
	assert_int_equal(ibtopo_topology_analyze(&x->topo, f, NULL, NULL,
						 &err), 0);
	o.bisections = 20;
	if (ibtopo_routes_analyze(&x->r, f, x->topo, &o, &x->found, &err))
		fail_msg("routes: %s", err.message);
}

static void done(struct run *x, struct net *t)
{
	ibtopo_findings_release(&x->found);
	ibtopo_routes_free(x->r);
	ibtopo_topology_free(x->topo);
	ibtopo_fabric_free(t->f);
}

static size_t count_kind(const struct run *x, enum ibtopo_finding_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < x->found.count; i++)
		n += x->found.items[i].kind == k;
	return n;
}

static const struct ibtopo_finding *first(const struct run *x,
					  enum ibtopo_finding_kind k)
{
	for (size_t i = 0; i < x->found.count; i++)
		if (x->found.items[i].kind == k)
			return &x->found.items[i];
	fail_msg("no finding of kind %d", k);
	return NULL;
}

/*
 * Program t's tables, analyze its fabric into x, and return the one
 * finding of kind k there (failing unless there is exactly one).
 */
static const struct ibtopo_finding *
only_one(struct run *x, struct net *t, enum ibtopo_finding_kind k)
{
	program(t);
	analyze(x, t->f);
	assert_int_equal(count_kind(x, k), 1);
	return first(x, k);
}

static void balanced_tree_is_clean_and_even(void **state)
{
	const unsigned ncas = NLEAF * NHOST;
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	program(&t);
	analyze(&x, t.f);
	assert_int_equal(x.found.count, 0);
	assert_int_equal(x.r->ca_ports, ncas);
	assert_int_equal(x.r->ca_pairs, ncas * (ncas - 1));
	assert_int_equal(x.r->unreachable_pairs, 0);
	assert_int_equal(x.r->credit_loops, 0);
	/* same leaf: CA-leaf-CA; else CA-leaf-spine-leaf-CA */
	assert_int_equal(x.r->hops[2], NLEAF * NHOST * (NHOST - 1));
	assert_int_equal(x.r->hops[4], ncas * (ncas - NHOST));
	/* every port of a level and direction carries as many routes */
	assert_int_equal(x.r->nlevels, 2);
	for (size_t i = 0; i < x.r->nlevels; i++) {
		const struct ibtopo_route_level *L = &x.r->levels[i];

		assert_true(L->down_routes.n > 0);
		assert_true(L->down_routes.min == L->down_routes.max);
		if (L->up_routes.n)
			assert_true(L->up_routes.min == L->up_routes.max);
	}
	/* a leaf uplink: its NHOST hosts to half the foreign hosts */
	assert_true(x.r->levels[0].up_routes.min ==
		    NHOST * (ncas - NHOST) / NSPINE);
	/* a host port of a leaf: every other CA sends to it */
	assert_true(x.r->levels[0].down_routes.min == ncas - 1);
	/* leaf pairs, each once: both spines used, as cabled */
	assert_int_equal(x.r->leaf_spines_used.n, NLEAF * (NLEAF - 1) / 2);
	assert_true(x.r->leaf_spines_used.min == NSPINE);
	assert_true(x.r->leaf_paths_cabled.min == NSPINE);
	assert_true(x.r->leaf_spines_cabled.n == x.r->leaf_spines_used.n);
	assert_true(x.r->leaf_spines_cabled.min == NSPINE);
	assert_int_equal(x.r->leaf_pairs_underused, 0);
	assert_true(x.r->ebb_min > 0 && x.r->ebb_mean <= 1);
	done(&x, &t);
}

static void black_hole_found_once_at_its_entry(void **state)
{
	unsigned lid = host_lid(3, 0);
	const struct ibtopo_finding *f;
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	/* spine1 carries the D-mod-k routes to odd LIDs */
	assert_int_equal(lid % NSPINE, 1);
	t.spine_lft[1][lid] = IBTOPO_LFT_NONE;
	f = only_one(&x, &t, IBTOPO_FIND_ROUTE_BLACK_HOLE);
	assert_int_equal(x.found.count, 1);
	assert_int_equal(f->a.guid, 0x101);
	assert_int_equal(f->a.port, IBTOPO_LFT_NONE);
	assert_int_equal(f->subkind, IBTOPO_HOLE_NO_ENTRY);
	/* END B is the far end of END A's cable: port 255 has none; the
	 * destination is end c and the message */
	assert_false(f->b.node || f->b.guid);
	assert_int_equal(f->b.port, -1);
	assert_int_equal(f->c.guid, t.host[3 * NHOST]->guid);
	assert_true(f->num.route.dlid == lid);
	/* every host off leaf3 */
	assert_true(f->num.route.routes == (NLEAF - 1) * NHOST);
	assert_int_equal(x.r->unreachable_pairs, (NLEAF - 1) * NHOST);
	assert_int_equal(x.r->black_holes, 1);
	done(&x, &t);
}

static void dead_link_is_a_black_hole_too(void **state)
{
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	/* leaf0's host port 2 goes nowhere: no cable on port 5 */
	t.leaf_lft[0][host_lid(0, 1)] = 5;
	t.spine[0]->ports[3]->state = IBTOPO_PORT_STATE_ACTIVE;
	t.leaf[2]->ports[10]->state = IBTOPO_PORT_STATE_DOWN;
	program(&t);
	analyze(&x, t.f);
	/*
	 * leaf0 for LID 12 (unconnected); leaf2 for the LIDs it sends up the
	 * dead link (hosts 12, 14, 18, leaves 4, 6, spine0's 1); spine0 for
	 * LID 16 down the dead link
	 */
	assert_int_equal(count_kind(&x, IBTOPO_FIND_ROUTE_BLACK_HOLE), 8);
	assert_int_equal(x.found.count, 8);
	for (size_t i = 0; i < x.found.count; i++) {
		const struct ibtopo_finding *g = &x.found.items[i];

		if (g->a.guid == 0x200)
			assert_int_equal(g->subkind, IBTOPO_HOLE_UNCONNECTED);
		else
			assert_int_equal(g->subkind, IBTOPO_HOLE_PORT_DOWN);
	}
	done(&x, &t);
}

/* An entry past the switch's last port drops there, and counts nowhere. */
static void entry_past_the_ports_is_a_black_hole(void **state)
{
	const struct ibtopo_finding *f;
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	/* the last switch's table: its ports end at 12 */
	t.leaf_lft[NLEAF - 1][host_lid(0, 0)] = 93;
	program(&t);
	analyze(&x, t.f);
	assert_int_equal(x.found.count, 1);
	f = first(&x, IBTOPO_FIND_ROUTE_BLACK_HOLE);
	assert_int_equal(f->a.guid, 0x200 + NLEAF - 1);
	assert_int_equal(f->a.port, 93);
	assert_int_equal(f->subkind, IBTOPO_HOLE_NO_PORT);
	assert_true(f->num.route.routes == NHOST);
	for (size_t i = 0; i < x.r->nports; i++)
		assert_true(x.r->ports[i].port->num <=
			    x.r->ports[i].port->node->nports);
	done(&x, &t);
}

static void loop_found_once_at_the_entry_that_turns_back(void **state)
{
	unsigned lid = host_lid(2, 1);
	const struct ibtopo_finding *f;
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	assert_int_equal(lid % NSPINE, 0);
	/* spine0 sends LID back down to leaf1, which sends it up again */
	t.spine_lft[0][lid] = 2;
	f = only_one(&x, &t, IBTOPO_FIND_ROUTE_LOOP);
	assert_int_equal(x.found.count, 1);
	assert_int_equal(f->a.guid, 0x100);
	assert_int_equal(f->a.port, 2);
	/* END B: the port's peer, leaf1; the destination: end c */
	assert_int_equal(f->b.guid, t.spine[0]->ports[2]->remote->node->guid);
	assert_int_equal(f->b.port, (int)t.spine[0]->ports[2]->remote->num);
	assert_int_equal(f->c.guid, t.host[2 * NHOST + 1]->guid);
	{
		char buf[512];

		ibtopo_finding_message(buf, sizeof(buf), f);
		assert_non_null(strstr(buf, t.host[2 * NHOST + 1]->desc));
	}
	assert_true(f->num.route.dlid == lid);
	assert_true(f->num.route.routes == (NLEAF - 1) * NHOST);
	assert_int_equal(x.r->loops, 1);
	done(&x, &t);
}

static void detour_is_not_minimal_where_it_turns(void **state)
{
	unsigned lid = host_lid(3, 1);
	const struct ibtopo_finding *f;
	struct net t;
	struct run x;

	(void)state;
	tree(&t);
	assert_int_equal(lid % NSPINE, 0);
	/* spine0 -> leaf2 -> spine1 -> leaf3: two links more */
	t.spine_lft[0][lid] = 3;
	t.leaf_lft[2][lid] = 11;
	t.spine_lft[1][lid] = 4;
	f = only_one(&x, &t, IBTOPO_FIND_ROUTE_NOT_MINIMAL);
	assert_int_equal(f->a.guid, 0x100);
	assert_int_equal(f->a.port, 3);
	assert_int_equal(f->num.detour.hops, 4);
	assert_int_equal(f->num.detour.min_hops, 2);
	/* leaves 0 and 1 send LID up to spine0 */
	assert_true(f->num.detour.routes == 2 * NHOST);
	assert_int_equal(x.r->unreachable_pairs, 0);
	assert_int_equal(x.r->hops[6], 2 * NHOST);
	done(&x, &t);
}

/*
 * A ring of 4 switches, one host each: switch i port 2 to switch i+1
 * port 3. Shortest paths, ties clockwise: the clockwise channels wait on
 * each other in a cycle. Routed as a line (never over the link 3-0) the
 * same ring has no cycle.
 */
static void ring(struct ibtopo_fabric **out, bool line)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sw[4];
	uint8_t lft[4][TOP + 1];
	char name[16];

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (unsigned i = 0; i < 4; i++) {
		struct ibtopo_node *c;

		snprintf(name, sizeof(name), "ring%u", i);
		sw[i] = node(f, IBTOPO_NODE_SWITCH, 0x400 + i, 4, name);
		sw[i]->ports[0]->lid = (uint16_t)(1 + i);
		snprintf(name, sizeof(name), "rhost%u", i);
		c = node(f, IBTOPO_NODE_CA, 0x500 + i, 1, name);
		c->ports[1]->lid = (uint16_t)(11 + i);
		cable(f, c, 1, sw[i], 1);
	}
	for (unsigned i = 0; i < 4; i++)
		cable(f, sw[i], 2, sw[(i + 1) % 4], 3);
	memset(lft, IBTOPO_LFT_NONE, sizeof(lft));
	for (unsigned i = 0; i < 4; i++)
		for (unsigned j = 0; j < 4; j++) {
			unsigned cw = (j + 4 - i) % 4;
			uint8_t p;

			if (i == j) {
				lft[i][1 + j] = 0;
				lft[i][11 + j] = 1;
				continue;
			}
			if (line)
				p = j > i ? 2 : 3;
			else
				p = cw <= 2 ? 2 : 3;
			lft[i][1 + j] = p;
			lft[i][11 + j] = p;
		}
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(ibtopo_node_set_lft(sw[i], lft[i], TOP, NULL),
				 0);
	*out = f;
}

static void ring_routed_shortest_has_a_credit_loop(void **state)
{
	const struct ibtopo_finding *f;
	struct net t;
	struct run x;

	(void)state;
	memset(&t, 0, sizeof(t));
	ring(&t.f, false);
	analyze(&x, t.f);
	assert_int_equal(x.r->credit_loops, 1);
	assert_int_equal(count_kind(&x, IBTOPO_FIND_CREDIT_LOOP), 1);
	f = first(&x, IBTOPO_FIND_CREDIT_LOOP);
	assert_int_equal(f->num.links.links, 4);
	/* the cycle starts at the lowest channel: ring0 port 2 */
	assert_int_equal(f->a.guid, 0x400);
	assert_int_equal(f->a.port, 2);
	assert_int_equal(f->b.guid, 0x401);
	assert_non_null(f->note);
	assert_non_null(strstr(f->note, "'ring3' [2] -> 'ring0' [3]"));
	assert_int_equal(x.r->unreachable_pairs, 0);
	assert_int_equal(count_kind(&x, IBTOPO_FIND_ROUTE_NOT_MINIMAL), 0);
	done(&x, &t);
}

static void ring_routed_as_a_line_has_none(void **state)
{
	struct net t;
	struct run x;

	(void)state;
	memset(&t, 0, sizeof(t));
	ring(&t.f, true);
	analyze(&x, t.f);
	assert_int_equal(x.r->credit_loops, 0);
	assert_int_equal(count_kind(&x, IBTOPO_FIND_CREDIT_LOOP), 0);
	/* ring0 <-> ring3 go the long way round */
	assert_true(count_kind(&x, IBTOPO_FIND_ROUTE_NOT_MINIMAL) > 0);
	assert_int_equal(x.r->unreachable_pairs, 0);
	done(&x, &t);
}

/*
 * diff: the same tree twice, then NEW with LID 16's route moved from
 * spine0 to spine1 on leaves 0 and 1: one route-changed for LID 16 at
 * leaf0, and the uplinks whose load changed.
 */
static void diff_names_changed_routes_and_loads(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
	unsigned lid = host_lid(2, 1);
	const struct ibtopo_finding *f = NULL;
	struct net a, b;
	size_t changed = 0, loads = 0;

	(void)state;
	tree(&a);
	program(&a);
	tree(&b);
	program(&b);
	assert_int_equal(test_diff(&list, a.f, b.f, NULL, &err), 0);
	assert_int_equal(list.count, 0);
	b.leaf_lft[0][lid] = 11;
	b.leaf_lft[1][lid] = 11;
	program(&b);
	assert_int_equal(test_diff(&list, a.f, b.f, NULL, &err), 0);
	for (size_t i = 0; i < list.count; i++) {
		if (list.items[i].kind == IBTOPO_FIND_ROUTE_CHANGED) {
			f = &list.items[i];
			changed++;
		}
		if (list.items[i].kind == IBTOPO_FIND_ROUTE_LOAD_CHANGED) {
			const struct ibtopo_finding *g = &list.items[i];

			loads++;
			/* leaf uplinks 10 and 11, spine0 and spine1 to leaf2 */
			assert_true(g->a.port == 10 || g->a.port == 11 ||
				    g->a.port == 3);
			assert_true(g->num.change.before !=
				    g->num.change.after);
		}
	}
	assert_int_equal(changed, 1);
	assert_int_equal(f->a.guid, 0x200);
	assert_int_equal(f->a.port, 11);
	assert_int_equal(f->num.route_change.old_port, 10);
	assert_int_equal(f->num.route_change.new_port, 11);
	assert_true(f->num.route_change.switches == 2);
	assert_true(f->num.route_change.dlid == lid);
	assert_int_equal(f->b.guid, b.host[2 * NHOST + 1]->guid);
	/* leaf0 and leaf1's two uplinks, spine0 and spine1's port to leaf2 */
	assert_int_equal(loads, 6);
	ibtopo_findings_release(&list);
	ibtopo_fabric_free(b.f);
	ibtopo_fabric_free(a.f);
}

static void no_tables_no_lids_are_errors(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_routes *r = NULL;
	struct net t;

	(void)state;
	tree(&t);
	assert_int_equal(ibtopo_routes_analyze(&r, t.f, NULL, NULL, NULL,
					       &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "no forwarding tables"));
	program(&t);
	for (size_t i = 0; i < ibtopo_fabric_node_count(t.f); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(t.f, i);

		for (unsigned p = 0; p <= n->nports; p++)
			if (n->ports[p])
				n->ports[p]->lid = 0;
	}
	assert_int_equal(ibtopo_routes_analyze(&r, t.f, NULL, NULL, NULL,
					       &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "no LIDs"));
	assert_null(r);
	ibtopo_fabric_free(t.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(balanced_tree_is_clean_and_even),
		cmocka_unit_test(black_hole_found_once_at_its_entry),
		cmocka_unit_test(dead_link_is_a_black_hole_too),
		cmocka_unit_test(entry_past_the_ports_is_a_black_hole),
		cmocka_unit_test(loop_found_once_at_the_entry_that_turns_back),
		cmocka_unit_test(detour_is_not_minimal_where_it_turns),
		cmocka_unit_test(ring_routed_shortest_has_a_credit_loop),
		cmocka_unit_test(ring_routed_as_a_line_has_none),
		cmocka_unit_test(diff_names_changed_routes_and_loads),
		cmocka_unit_test(no_tables_no_lids_are_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
