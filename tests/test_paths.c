/*
 * test_paths.c - path diversity: counts worked out by hand on generated
 * fabrics, faults that must lower them, servers, findings, and every
 * leaf pair of many fabrics against an independent computation (one max
 * flow per pair on the whole switch graph, no twin classes, no
 * contraction; a Gomory-Hu tree of the whole graph; shortest paths
 * enumerated one by one).
 */
#include "analysis/topology-int.h"
#include "gen/fabricgen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURES TEST_DATADIR "/real/"

#define FT2(...) { .shape = FG_FAT_TREE, .levels = 2, __VA_ARGS__ }
#define FT3(...) { .shape = FG_FAT_TREE, .levels = 3, __VA_ARGS__ }

struct run {
	struct ibtopo_fabric *f;
	struct ibtopo_topology *t;
	struct ibtopo_findings list;
};

static void run_policy(struct run *r, struct ibtopo_fabric *f,
		       unsigned min_paths, enum ibtopo_server_policy servers)
{
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	memset(r, 0, sizeof(*r));
	r->f = f;
	o.min_paths = min_paths;
	o.servers = servers;
	if (ibtopo_topology_analyze(&r->t, f, &o, &r->list, &err))
		fail_msg("analyze: %s", err.message);
}

static void run_fabric(struct run *r, struct ibtopo_fabric *f, unsigned min_paths)
{
	run_policy(r, f, min_paths, IBTOPO_SERVERS_MAJORITY);
}

static void run_gen(struct run *r, const struct fg_params *p, unsigned min_paths)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	if (fg_build(&f, p, &err))
		fail_msg("generate: %s", err.message);
	run_fabric(r, f, min_paths);
}

static void done(struct run *r)
{
	ibtopo_topology_free(r->t);
	ibtopo_findings_release(&r->list);
	ibtopo_fabric_free(r->f);
}

static long long paths(const struct run *r, const char *a, const char *b,
		       enum ibtopo_path_measure m)
{
	return ibtopo_topology_leaf_paths(r->t, fg_node(r->f, a), fg_node(r->f, b), m);
}

/* Between leaves a and b: `edge` edge-disjoint and `node` node-disjoint paths. */
static void assert_disjoint(const struct run *r, const char *a, const char *b,
			    long long edge, long long node)
{
	long long e = paths(r, a, b, IBTOPO_PATHS_EDGE_DISJOINT);
	long long n = paths(r, a, b, IBTOPO_PATHS_NODE_DISJOINT);

	if (e != edge || n != node)
		fail_msg("%s to %s: %lld edge-, %lld node-disjoint paths, wanted %lld, %lld",
			 a, b, e, n, edge, node);
}

static struct ibtopo_path_stats stats(const struct run *r, bool servers,
				      enum ibtopo_path_measure m)
{
	struct ibtopo_path_stats s;

	assert_int_equal(ibtopo_topology_path_stats(&s, r->t, servers, m), 0);
	return s;
}

static size_t count(const struct run *r, int sub)
{
	size_t n = 0;

	for (size_t i = 0; i < r->list.count; i++)
		if (r->list.items[i].kind == IBTOPO_FIND_LOW_PATH_DIVERSITY &&
		    r->list.items[i].subkind == sub)
			n++;
	return n;
}

/* ---- counts by hand ---- */

static void two_level_counts(void **state)
{
	/* 3 spines, 2 cables from each leaf to each spine */
	struct fg_params p = FT2(.leaves = 4, .spines = 3, .hosts = 2, .links = 2);
	struct ibtopo_path_stats s;
	struct run r;

	run_gen(&r, &p, 0);
	assert_disjoint(&r, "leaf01", "leaf04", 6, 3);
	assert_int_equal(paths(&r, "leaf02", "leaf03", IBTOPO_PATHS_ECMP), 3);
	assert_int_equal(paths(&r, "leaf01", "spine01", IBTOPO_PATHS_EDGE_DISJOINT), -1);
	s = stats(&r, false, IBTOPO_PATHS_EDGE_DISJOINT);
	assert_int_equal(s.pairs, 6);
	assert_int_equal(s.min, 6);
	assert_int_equal(s.max, 6);
	assert_int_equal(count(&r, IBTOPO_LPD_LEAF_PAIR), 0);
	done(&r);
}

static void three_level_counts(void **state)
{
	/* 2 pods of 2 leaves, 2 aggs per pod, 4 cores (2 per agg) */
	struct fg_params p = FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4,
				 .hosts = 2);
	struct ibtopo_path_stats s;
	struct run r;

	run_gen(&r, &p, 0);
	/* same pod: up to either agg and down */
	assert_disjoint(&r, "leaf01-01", "leaf01-02", 2, 2);
	assert_int_equal(paths(&r, "leaf01-01", "leaf01-02", IBTOPO_PATHS_ECMP), 2);
	/* across pods: 2 aggs x 2 cores each */
	assert_disjoint(&r, "leaf01-01", "leaf02-02", 2, 2);
	assert_int_equal(paths(&r, "leaf01-01", "leaf02-02", IBTOPO_PATHS_ECMP), 4);
	s = stats(&r, false, IBTOPO_PATHS_ECMP);
	assert_int_equal(s.pairs, 6);
	assert_int_equal(s.min, 2);
	assert_int_equal(s.max, 4);
	assert_float_equal(s.median, 4, 1e-9);	/* 2,2,4,4,4,4 */
	done(&r);
}

static void dropped_uplink_lowers_its_leaf_only(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_DROP_UPLINK);
	const struct ibtopo_finding *f = NULL;
	struct run r;

	run_gen(&r, &p, 0);
	assert_disjoint(&r, "leaf01", "leaf03", 1, 1);
	assert_disjoint(&r, "leaf02", "leaf03", 2, 2);
	/* one finding, on the leaf that lost the cable, not one per peer */
	assert_int_equal(count(&r, IBTOPO_LPD_LEAF_PAIR), 1);
	for (size_t i = 0; i < r.list.count; i++)
		if (r.list.items[i].subkind == IBTOPO_LPD_LEAF_PAIR &&
		    r.list.items[i].kind == IBTOPO_FIND_LOW_PATH_DIVERSITY)
			f = &r.list.items[i];
	assert_string_equal(f->a.node, "leaf01");
	assert_string_equal(f->b.node, "leaf02");
	assert_int_equal(f->num.paths.paths, 1);
	assert_int_equal(f->num.paths.min_paths, 2);
	assert_float_equal(f->num.paths.leaves, 3, 0);
	assert_true(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "leaf01")));
	assert_true(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "leaf04")));
	assert_false(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "spine01")));
	done(&r);
}

static void same_level_link_adds_a_path(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_SAME_LEVEL);
	struct run r;

	run_gen(&r, &p, 0);
	assert_disjoint(&r, "leaf01", "leaf02", 3, 3);
	assert_int_equal(paths(&r, "leaf01", "leaf02", IBTOPO_PATHS_ECMP), 1);
	assert_int_equal(paths(&r, "leaf01", "leaf03", IBTOPO_PATHS_ECMP), 2);
	done(&r);
}

static void missing_spine_lowers_every_pair(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 4, .hosts = 2,
				 .faults = FG_FAULT_MISSING_SPINE);
	struct ibtopo_path_stats s;
	struct run r;

	run_gen(&r, &p, 0);
	s = stats(&r, false, IBTOPO_PATHS_NODE_DISJOINT);
	assert_int_equal(s.min, 3);
	assert_int_equal(s.max, 3);
	done(&r);
	/* and below min_paths when it asks for 4 */
	run_gen(&r, &p, 4);
	assert_true(count(&r, IBTOPO_LPD_LEAF_PAIR) > 0);
	done(&r);
}

static void star_pairs_reported_once_each(void **state)
{
	struct fg_params p = { .shape = FG_STAR, .switches = 5, .hosts = 2 };
	double pairs = 0;
	struct run r;

	run_gen(&r, &p, 0);
	assert_int_equal(stats(&r, false, IBTOPO_PATHS_NODE_DISJOINT).max, 1);
	/* 10 leaf pairs below 2, each counted in exactly one finding */
	for (size_t i = 0; i < r.list.count; i++)
		if (r.list.items[i].kind == IBTOPO_FIND_LOW_PATH_DIVERSITY &&
		    r.list.items[i].subkind == IBTOPO_LPD_LEAF_PAIR)
			pairs += r.list.items[i].num.paths.leaves;
	assert_float_equal(pairs, 10, 0);
	assert_int_equal(count(&r, IBTOPO_LPD_LEAF_PAIR), 4);
	done(&r);
}

/* ---- servers ---- */

static struct ibtopo_fabric *gen(const struct fg_params *p)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	if (fg_build(&f, p, &err))
		fail_msg("generate: %s", err.message);
	return f;
}

static void single_port_hosts_reported_once(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 3);
	struct ibtopo_path_stats s;
	struct run r;

	/* the site says servers must be dual-homed */
	run_policy(&r, gen(&p), 0, IBTOPO_SERVERS_DUAL);
	/* 12 hosts, 66 pairs, one finding per host */
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_LINK), 12);
	s = stats(&r, true, IBTOPO_PATHS_EDGE_DISJOINT);
	assert_int_equal(s.pairs, 66);
	assert_int_equal(s.max, 1);
	assert_true(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "host0005 mlx5_0")));
	for (size_t i = 0; i < r.list.count; i++) {
		const struct ibtopo_finding *f = &r.list.items[i];

		if (f->subkind != IBTOPO_LPD_SINGLE_LINK)
			continue;
		assert_int_equal(f->a.port, 1);
		assert_true(strncmp(f->b.node, "leaf", 4) == 0);
		assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	}
	done(&r);
}

static void cable(struct ibtopo_fabric *f, struct ibtopo_node *a, unsigned pa,
		  struct ibtopo_node *b);

/* A classic cluster: every server single-homed, which is its policy. */
static void single_homed_cluster_is_one_info(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 3);
	size_t single = 0;
	struct run r;

	run_gen(&r, &p, 0);
	assert_int_equal(ibtopo_topology_server_policy(r.t, &single),
			 IBTOPO_SERVERS_SINGLE);
	assert_int_equal(single, 12);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_LINK), 0);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_HOMED), 1);
	/* a healthy cluster: the one finding is info, nothing else */
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_INFO);
	assert_float_equal(r.list.items[0].num.paths.servers, 12, 0);
	assert_null(r.list.items[0].a.node);
	assert_string_equal(ibtopo_topology_subkind_name(IBTOPO_FIND_LOW_PATH_DIVERSITY,
							 IBTOPO_LPD_SINGLE_HOMED),
			    "single-homed");
	/* still marked for the diagram, which folds a flood of them */
	assert_true(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "host0005 mlx5_0")));
	done(&r);
	/* asked for explicitly: the same */
	run_policy(&r, gen(&p), 0, IBTOPO_SERVERS_SINGLE);
	assert_int_equal(r.list.count, 1);
	done(&r);
}

/* Most servers dual-homed: the one that is not breaks the policy. */
static void dual_majority_names_the_odd_server(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .dual_homed = true);
	struct ibtopo_fabric *f = gen(&p);
	struct ibtopo_node *odd = NULL;
	size_t single = 0;
	struct run r;

	assert_int_equal(ibtopo_fabric_add_node(&odd, f, IBTOPO_NODE_CA, 0xd0, 1,
						"odd mlx5_0", NULL), 0);
	cable(f, odd, 1, fg_node(f, "leaf01"));
	ibtopo_fabric_sort(f);
	run_fabric(&r, f, 0);
	assert_int_equal(ibtopo_topology_server_policy(r.t, &single),
			 IBTOPO_SERVERS_DUAL);
	assert_int_equal(single, 1);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_HOMED), 0);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_LINK), 1);
	assert_string_equal(r.list.items[0].a.node, "odd mlx5_0");
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_WARNING);
	done(&r);
	/* --servers single: the odd one is allowed, one info line */
	f = gen(&p);
	assert_int_equal(ibtopo_fabric_add_node(&odd, f, IBTOPO_NODE_CA, 0xd0, 1,
						"odd mlx5_0", NULL), 0);
	cable(f, odd, 1, fg_node(f, "leaf01"));
	ibtopo_fabric_sort(f);
	run_policy(&r, f, 0, IBTOPO_SERVERS_SINGLE);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_LINK), 0);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_HOMED), 1);
	assert_float_equal(r.list.items[0].num.paths.servers, 1, 0);
	done(&r);
}

static void bad_server_policy_is_refused(void **state)
{
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 1);
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = gen(&p);
	struct ibtopo_topology *t = NULL;

	o.servers = (enum ibtopo_server_policy)7;
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err),
			 IBTOPO_EINVAL);
	assert_null(t);
	ibtopo_fabric_free(f);
}

static void dual_homed_servers_have_two_paths(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .dual_homed = true);
	struct ibtopo_path_stats e, n;
	struct run r;

	run_gen(&r, &p, 0);
	e = stats(&r, true, IBTOPO_PATHS_EDGE_DISJOINT);
	n = stats(&r, true, IBTOPO_PATHS_NODE_DISJOINT);
	assert_int_equal(e.pairs, 6);	/* 4 servers */
	assert_int_equal(e.min, 2);
	assert_int_equal(n.min, 2);
	assert_int_equal(n.max, 2);
	assert_int_equal(stats(&r, true, IBTOPO_PATHS_ECMP).pairs, 0);
	assert_int_equal(r.list.count, 0);
	done(&r);
}

static unsigned free_port(const struct ibtopo_node *n)
{
	for (unsigned i = 1; i <= n->nports; i++)
		if (!n->ports[i] || !n->ports[i]->remote)
			return i;
	return 0;
}

static void cable(struct ibtopo_fabric *f, struct ibtopo_node *a, unsigned pa,
		  struct ibtopo_node *b)
{
	struct ibtopo_port *x = NULL, *y = NULL;

	assert_int_equal(ibtopo_node_add_port(&x, f, a, pa, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&y, f, b, free_port(b), NULL), 0);
	x->speed_active = y->speed_active = IBTOPO_SPEED_HDR;
	x->width_active = y->width_active = IBTOPO_WIDTH_4X;
	assert_int_equal(ibtopo_fabric_connect(NULL, f, x, y, NULL), 0);
}

static void both_ports_on_one_switch(void **state)
{
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 0,
				 .dual_homed = true);
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *a = NULL, *b = NULL;
	struct ibtopo_path_stats e, n;
	const struct ibtopo_finding *one = NULL;
	struct run r;

	assert_int_equal(fg_build(&f, &p, NULL), 0);
	/* a: two ports on leaf01; b: one port on leaf01, one on leaf02 */
	assert_int_equal(ibtopo_fabric_add_node(&a, f, IBTOPO_NODE_CA, 0xa0, 2,
						"alpha mlx5_0", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&b, f, IBTOPO_NODE_CA, 0xb0, 2,
						"beta mlx5_0", NULL), 0);
	cable(f, a, 1, fg_node(f, "leaf01"));
	cable(f, a, 2, fg_node(f, "leaf01"));
	cable(f, b, 1, fg_node(f, "leaf01"));
	cable(f, b, 2, fg_node(f, "leaf02"));
	ibtopo_fabric_sort(f);
	run_fabric(&r, f, 0);
	assert_int_equal(count(&r, IBTOPO_LPD_ONE_SWITCH), 1);
	assert_int_equal(count(&r, IBTOPO_LPD_SINGLE_LINK), 0);
	for (size_t i = 0; i < r.list.count; i++)
		if (r.list.items[i].subkind == IBTOPO_LPD_ONE_SWITCH)
			one = &r.list.items[i];
	assert_string_equal(one->a.node, "alpha mlx5_0");
	assert_string_equal(one->b.node, "leaf01");
	/* two cables each: 2 edge-disjoint paths, but leaf01 is on all */
	e = stats(&r, true, IBTOPO_PATHS_EDGE_DISJOINT);
	n = stats(&r, true, IBTOPO_PATHS_NODE_DISJOINT);
	assert_int_equal(e.pairs, 1);
	assert_int_equal(e.min, 2);
	assert_int_equal(n.max, 1);
	assert_true(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "alpha mlx5_0")));
	assert_false(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "beta mlx5_0")));
	done(&r);
}

static void paths_can_be_skipped(void **state)
{
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 1);
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_topology *t = NULL;
	struct ibtopo_path_stats s;

	assert_int_equal(fg_build(&f, &p, NULL), 0);
	o.flags = IBTOPO_TOPOLOGY_NO_PATHS;
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, NULL), 0);
	assert_int_equal(ibtopo_topology_class(t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_path_stats(&s, t, false,
						    IBTOPO_PATHS_EDGE_DISJOINT), 0);
	assert_int_equal(s.pairs, 0);
	assert_int_equal(ibtopo_topology_leaf_paths(t, fg_node(f, "leaf01"),
						    fg_node(f, "leaf02"),
						    IBTOPO_PATHS_EDGE_DISJOINT), -1);
	assert_int_equal(ibtopo_topology_path_stats(&s, t, false, 7), IBTOPO_EINVAL);
	ibtopo_topology_free(t);
	ibtopo_fabric_free(f);
}

/* ---- every leaf pair against an independent computation ---- */

struct oracle {
	size_t n;			/* switches */
	size_t *sw;			/* fabric node index -> switch or NONE */
	const struct ibtopo_node **node;
	unsigned *mult;			/* n x n cables */
	struct ibtopo__flownet *edge, *split;
	double *gh;			/* n x n from a Gomory-Hu tree */
};

static void oracle_init(struct oracle *o, const struct ibtopo_fabric *f)
{
	size_t nn = ibtopo_fabric_node_count(f), ne = 0, na = 0, nt = 0;
	struct ibtopo__edge *e, *a, *tree;

	memset(o, 0, sizeof(*o));
	o->sw = calloc(nn, sizeof(*o->sw));
	o->node = calloc(nn, sizeof(*o->node));
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *x = ibtopo_fabric_node(f, i);

		o->sw[i] = IBTOPO__NONE;
		if (x->type == IBTOPO_NODE_SWITCH) {
			o->node[o->n] = x;
			o->sw[i] = o->n++;
		}
	}
	o->mult = calloc(o->n * o->n + 1, sizeof(*o->mult));
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		size_t u = o->sw[l->a->node->index], v = o->sw[l->b->node->index];

		if (u == IBTOPO__NONE || v == IBTOPO__NONE || u == v)
			continue;
		o->mult[u * o->n + v]++;
		o->mult[v * o->n + u]++;
	}
	e = calloc(o->n * o->n + 1, sizeof(*e));
	a = calloc(o->n * o->n + o->n + 1, sizeof(*a));
	for (size_t u = 0; u < o->n; u++) {
		a[na].u = 2 * u;
		a[na].v = 2 * u + 1;
		a[na++].cap = 1;
		for (size_t v = 0; v < o->n; v++) {
			unsigned m = o->mult[u * o->n + v];

			if (!m)
				continue;
			a[na].u = 2 * u + 1;
			a[na].v = 2 * v;
			a[na++].cap = m;
			if (v > u) {
				e[ne].u = u;
				e[ne].v = v;
				e[ne++].cap = m;
			}
		}
	}
	assert_int_equal(ibtopo__flownet_new(&o->edge, o->n, e, ne, false, NULL), 0);
	assert_int_equal(ibtopo__flownet_new(&o->split, 2 * o->n, a, na, true, NULL), 0);
	/* all pairs from the Gomory-Hu tree of the whole graph */
	tree = calloc(o->n + 1, sizeof(*tree));
	assert_int_equal(ibtopo__graph_gomory_hu(tree, &nt, o->n, e, ne, NULL), 0);
	o->gh = calloc(o->n * o->n + 1, sizeof(*o->gh));
	for (size_t s = 0; s < o->n; s++) {
		/* relax the tree n times: min edge on the path from s */
		double *d = &o->gh[s * o->n];

		for (size_t v = 0; v < o->n; v++)
			d[v] = -1;
		d[s] = 1e300;
		for (size_t round = 0; round < o->n; round++)
			for (size_t k = 0; k < nt; k++) {
				size_t x = tree[k].u, y = tree[k].v;
				double w = tree[k].cap;

				if (d[x] >= 0 && d[y] < 0)
					d[y] = d[x] < w ? d[x] : w;
				if (d[y] >= 0 && d[x] < 0)
					d[x] = d[y] < w ? d[y] : w;
			}
	}
	free(tree);
	free(a);
	free(e);
}

static void oracle_release(struct oracle *o)
{
	ibtopo__flownet_free(o->split);
	ibtopo__flownet_free(o->edge);
	free(o->gh);
	free(o->mult);
	free(o->node);
	free(o->sw);
}

/* Shortest paths from u to t, enumerated by walking down the distances. */
static unsigned long long enumerate(const struct oracle *o, const unsigned *dt,
				    size_t u, size_t t)
{
	unsigned long long n = 0;

	if (u == t)
		return 1;
	for (size_t v = 0; v < o->n; v++)
		if (o->mult[u * o->n + v] && dt[v] + 1 == dt[u])
			n += enumerate(o, dt, v, t);
	return n;
}

static void check_all_pairs(const struct run *r)
{
	struct oracle o;
	unsigned *dt;
	size_t checked = 0;

	oracle_init(&o, r->f);
	dt = calloc(o.n + 1, sizeof(*dt));
	for (size_t s = 0; s < o.n; s++) {
		for (size_t t = s + 1; t < o.n; t++) {
			long long e = ibtopo_topology_leaf_paths(r->t, o.node[s], o.node[t],
								 IBTOPO_PATHS_EDGE_DISJOINT);
			long long n = ibtopo_topology_leaf_paths(r->t, o.node[s], o.node[t],
								 IBTOPO_PATHS_NODE_DISJOINT);
			long long c = ibtopo_topology_leaf_paths(r->t, o.node[s], o.node[t],
								 IBTOPO_PATHS_ECMP);
			double fe = 0, fn = 0;

			if (e < 0)
				continue;	/* not two leaves */
			assert_int_equal(ibtopo__flownet_maxflow(&fe, o.edge, s, t, NULL), 0);
			assert_int_equal(ibtopo__flownet_maxflow(&fn, o.split, 2 * s + 1,
								 2 * t, NULL), 0);
			if (e != (long long)fe || e != (long long)(o.gh[s * o.n + t] + 0.5) ||
			    n != (long long)fn)
				fail_msg("%s - %s: edge %lld (flow %g, tree %g), node %lld (flow %g)",
					 o.node[s]->desc, o.node[t]->desc, e, fe,
					 o.gh[s * o.n + t], n, fn);
			/* BFS distances to t, then count by enumeration */
			for (size_t v = 0; v < o.n; v++)
				dt[v] = UINT_MAX - 1;
			dt[t] = 0;
			for (size_t round = 0; round < o.n; round++)
				for (size_t u = 0; u < o.n; u++)
					for (size_t v = 0; v < o.n; v++)
						if (o.mult[u * o.n + v] && dt[v] + 1 < dt[u])
							dt[u] = dt[v] + 1;
			if (dt[s] != UINT_MAX - 1 &&
			    (unsigned long long)c != enumerate(&o, dt, s, t))
				fail_msg("%s - %s: ecmp %lld", o.node[s]->desc,
					 o.node[t]->desc, c);
			checked++;
		}
	}
	assert_true(checked > 0);
	free(dt);
	oracle_release(&o);
}

static void all_pairs_match_independent_flows(void **state)
{
	static const struct fg_params cases[] = {
		FT2(.leaves = 6, .spines = 3, .hosts = 1, .links = 2),
		FT2(.leaves = 6, .spines = 3, .hosts = 1, .faults = FG_FAULT_DROP_UPLINK),
		FT2(.leaves = 6, .spines = 3, .hosts = 1, .faults = FG_FAULT_SAME_LEVEL),
		FT2(.leaves = 6, .spines = 3, .hosts = 1, .faults = FG_FAULT_PILED),
		FT2(.leaves = 6, .spines = 3, .hosts = 2, .dual_homed = true,
		    .faults = FG_FAULT_HOST_ON_SPINE | FG_FAULT_MISSING_SPINE),
		FT3(.pods = 3, .leaves = 3, .spines = 2, .cores = 4, .hosts = 1),
		FT3(.pods = 3, .leaves = 3, .spines = 2, .cores = 4, .hosts = 1,
		    .links = 2, .core_links = 3),
		FT3(.pods = 3, .leaves = 3, .spines = 2, .cores = 4, .hosts = 1,
		    .faults = FG_FAULT_LEVEL_SKIP | FG_FAULT_DROP_UPLINK),
		{ .shape = FG_STAR, .switches = 5, .hosts = 1 },
		{ .shape = FG_RING, .switches = 7, .hosts = 1 },
		{ .shape = FG_MESH, .switches = 5, .hosts = 1, .links = 2 },
		{ .shape = FG_GRID, .rows = 3, .cols = 4, .hosts = 1 },
		{ .shape = FG_TORUS, .rows = 3, .cols = 4, .hosts = 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;

		run_gen(&r, &cases[i], 0);
		check_all_pairs(&r);
		done(&r);
	}
}

/* The real dumps are part of the repository: a missing one fails the test. */
static void need(const char *path)
{
	if (access(path, R_OK) != 0)
		fail_msg("fixture %s missing (tests/data/real is in the repository)",
			 path);
}

static void fixtures_match_independent_flows(void **state)
{
	static const char *const files[] = {
		"qdr-hosts-fdr10-isls.topo", "x5-mixed-ddr-qdr.topo",
		"ndr-superpod-rails.topo", "tiny-mixed-speeds.topo",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ibtopo_fabric *f = NULL;
		char path[1024];
		struct run r;

		snprintf(path, sizeof(path), FIXTURES "%s", files[i]);
		need(path);
		assert_int_equal(ibtopo_fabric_read_file(&f, path, NULL, NULL), 0);
		run_fabric(&r, f, 0);
		check_all_pairs(&r);
		done(&r);
	}
}

static void fixture_ndr_counts(void **state)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_path_stats e, n;
	struct run r;

	need(FIXTURES "ndr-superpod-rails.topo");
	assert_int_equal(ibtopo_fabric_read_file(&f, FIXTURES "ndr-superpod-rails.topo",
						 NULL, NULL), 0);
	run_fabric(&r, f, 0);
	/* 2 cables from a full leaf to each of 9 spines: 18; the worst
	 * leaves (14, 15 uplinks) lose spines and so node-disjoint paths */
	e = stats(&r, false, IBTOPO_PATHS_EDGE_DISJOINT);
	n = stats(&r, false, IBTOPO_PATHS_NODE_DISJOINT);
	assert_int_equal(e.pairs, 465);
	assert_int_equal(e.max, 18);
	assert_int_equal(e.min, 14);
	assert_int_equal(n.max, 9);
	assert_int_equal(n.min, 7);
	assert_int_equal(count(&r, IBTOPO_LPD_LEAF_PAIR), 0);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_level_counts),
		cmocka_unit_test(three_level_counts),
		cmocka_unit_test(dropped_uplink_lowers_its_leaf_only),
		cmocka_unit_test(same_level_link_adds_a_path),
		cmocka_unit_test(missing_spine_lowers_every_pair),
		cmocka_unit_test(star_pairs_reported_once_each),
		cmocka_unit_test(single_port_hosts_reported_once),
		cmocka_unit_test(single_homed_cluster_is_one_info),
		cmocka_unit_test(dual_majority_names_the_odd_server),
		cmocka_unit_test(bad_server_policy_is_refused),
		cmocka_unit_test(dual_homed_servers_have_two_paths),
		cmocka_unit_test(both_ports_on_one_switch),
		cmocka_unit_test(paths_can_be_skipped),
		cmocka_unit_test(all_pairs_match_independent_flows),
		cmocka_unit_test(fixtures_match_independent_flows),
		cmocka_unit_test(fixture_ndr_counts),
	};

	return cmocka_run_group_tests_name("paths", tests, NULL, NULL);
}
