/* test_topology.c - levels, classes, bandwidth per level, fat-tree rules */
#include "ibtopo-int.h"
#include "gen/fabricgen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURES TEST_DATADIR "/real/"

struct run {
	struct ibtopo_fabric *f;
	struct ibtopo_topology *t;
	struct ibtopo_findings list;
};

static void run_fabric(struct run *r, struct ibtopo_fabric *f,
		       const struct ibtopo_topology_opts *o)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int rc;

	memset(r, 0, sizeof(*r));
	r->f = f;
	rc = ibtopo_topology_analyze(&r->t, f, o, &r->list, &err);
	if (rc)
		fail_msg("analyze: %s", err.message);
}

static void run_gen(struct run *r, const struct fg_params *p)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	if (fg_build(&f, p, &err))
		fail_msg("generate: %s", err.message);
	run_fabric(r, f, NULL);
}

/* The real dumps are part of the repository: a missing one fails the test. */
static void run_file(struct run *r, const char *name)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	char path[1024];

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	if (access(path, R_OK) != 0)
		fail_msg("fixture %s missing (tests/data/real is in the repository)",
			 path);
	if (ibtopo_fabric_read_file(&f, path, NULL, &err))
		fail_msg("read %s: %s", path, err.message);
	run_fabric(r, f, NULL);
}

static void done(struct run *r)
{
	ibtopo_topology_free(r->t);
	ibtopo_findings_release(&r->list);
	ibtopo_fabric_free(r->f);
}

static size_t count(const struct run *r, enum ibtopo_finding_kind kind, int sub)
{
	size_t n = 0;

	for (size_t i = 0; i < r->list.count; i++)
		if (r->list.items[i].kind == kind && r->list.items[i].subkind == sub)
			n++;
	return n;
}

static size_t count_kind(const struct run *r, enum ibtopo_finding_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->list.count; i++)
		n += r->list.items[i].kind == kind;
	return n;
}

static const struct ibtopo_finding *first(const struct run *r,
					  enum ibtopo_finding_kind kind, int sub)
{
	for (size_t i = 0; i < r->list.count; i++)
		if (r->list.items[i].kind == kind && r->list.items[i].subkind == sub)
			return &r->list.items[i];
	fail_msg("no finding %d/%d", kind, sub);
	return NULL;
}

static struct ibtopo_topology_level level(const struct run *r, unsigned l)
{
	struct ibtopo_topology_level v;

	assert_int_equal(ibtopo_topology_level(&v, r->t, l), 0);
	return v;
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-6 * (fabs(want) + 1))
		fail_msg("got %.6f, want %.6f", got, want);
}

#define FT2(...) { .shape = FG_FAT_TREE, .levels = 2, __VA_ARGS__ }
#define FT3(...) { .shape = FG_FAT_TREE, .levels = 3, __VA_ARGS__ }

/* ---- classes and levels ---- */

static void full_two_level_fat_tree(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_null(ibtopo_topology_shape(r.t));
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	assert_int_equal(level(&r, 1).switches, 4);
	assert_int_equal(level(&r, 1).host_links, 8);
	assert_int_equal(level(&r, 1).up_links, 8);
	assert_int_equal(level(&r, 2).switches, 2);
	assert_int_equal(level(&r, 2).down_links, 8);
	assert_int_equal(level(&r, 2).up_links, 0);
	/* 2 hosts and 2 uplinks per leaf, all 4x HDR (200 Gb/s) */
	assert_close(level(&r, 1).oversubscription, 1.0);
	assert_close(level(&r, 1).down_gbps, 8 * 200.0);
	assert_close(level(&r, 2).oversubscription, 0);
	assert_close(ibtopo_topology_blocking_factor(r.t), 1.0);
	assert_close(ibtopo_topology_bisection_gbps(r.t), 8 * 200.0 / 2);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "leaf03")), 1);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "spine02")), 2);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "host0001 mlx5_0")), 0);
	assert_int_equal(ibtopo_topology_node_level(r.t, NULL), 0);
	assert_int_equal(ibtopo_topology_server_count(r.t), 8);
	done(&r);
}

static void oversubscribed_leaves_count_bandwidth(void **state)
{
	/* 6 hosts on 2 uplinks: 3:1 */
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 6);
	/* 4 EDR hosts (100 Gb/s) on 2 HDR uplinks (200 Gb/s): 1:1 by bandwidth */
	struct fg_params q = FT2(.leaves = 2, .spines = 2, .hosts = 4,
				 .host_speed = IBTOPO_SPEED_EDR);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_close(level(&r, 1).oversubscription, 3.0);
	assert_close(ibtopo_topology_blocking_factor(r.t), 3.0);
	assert_close(ibtopo_topology_bisection_gbps(r.t), 8 * 200.0 / 2);
	done(&r);
	run_gen(&r, &q);
	assert_close(level(&r, 1).oversubscription, 1.0);
	assert_close(level(&r, 1).down_gbps, 8 * 100.0);
	done(&r);
}

static void three_level_fat_tree(void **state)
{
	/* 2 pods x 2 leaves x 4 hosts; 2 aggs per pod; 4 cores, 2 per agg */
	struct fg_params p = FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4,
				 .hosts = 4);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_levels(r.t), 3);
	assert_int_equal(level(&r, 1).switches, 4);
	assert_int_equal(level(&r, 2).switches, 4);
	assert_int_equal(level(&r, 3).switches, 4);
	assert_int_equal(level(&r, 1).up_links, 8);
	assert_int_equal(level(&r, 2).down_links, 8);
	assert_int_equal(level(&r, 2).up_links, 8);
	assert_int_equal(level(&r, 3).down_links, 8);
	assert_close(level(&r, 1).oversubscription, 2.0);	/* 4 : 2 */
	assert_close(level(&r, 2).oversubscription, 1.0);	/* 2 : 2 */
	assert_close(ibtopo_topology_blocking_factor(r.t), 2.0);
	assert_close(level(&r, 2).bisection_gbps, 8 * 200.0 / 2);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "agg02-01")), 2);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "core03")), 3);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
}

static void single_switch_and_star(void **state)
{
	struct fg_params one = { .shape = FG_SINGLE, .hosts = 6 };
	struct fg_params hub = { .shape = FG_STAR, .switches = 4, .hosts = 3 };
	struct run r;

	run_gen(&r, &one);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_SINGLE_SWITCH);
	assert_int_equal(ibtopo_topology_levels(r.t), 1);
	assert_close(ibtopo_topology_blocking_factor(r.t), 1.0);
	done(&r);
	run_gen(&r, &hub);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_STAR);
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "hub")), 2);
	/* a star is not judged by fat-tree rules */
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
}

static void one_spine_is_a_star(void **state)
{
	/* every leaf-to-leaf path crosses the only spine, whatever the cables */
	struct fg_params p = FT2(.leaves = 4, .spines = 1, .hosts = 2, .links = 4);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_STAR);
	done(&r);
}

static void irregular_shapes_are_named(void **state)
{
	static const struct {
		struct fg_params p;
		const char *shape;
	} cases[] = {
		{ { .shape = FG_RING, .switches = 6, .hosts = 2 }, "ring" },
		{ { .shape = FG_MESH, .switches = 5, .hosts = 2 }, "full-mesh" },
		{ { .shape = FG_GRID, .rows = 3, .cols = 4, .hosts = 1 }, "mesh" },
		{ { .shape = FG_TORUS, .rows = 3, .cols = 3, .hosts = 1 }, "torus" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;

		run_gen(&r, &cases[i].p);
		assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_IRREGULAR);
		assert_string_equal(ibtopo_topology_shape(r.t), cases[i].shape);
		assert_int_equal(ibtopo_topology_levels(r.t), 1);
		assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
		assert_close(ibtopo_topology_blocking_factor(r.t), 0);
		done(&r);
	}
}

/* ---- fat-tree rules ---- */

static void same_level_link(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_SAME_LEVEL);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 1);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_SAME_LEVEL);
	assert_string_equal(f->a.node, "leaf01");
	assert_string_equal(f->b.node, "leaf02");
	assert_true(f->a.port > 0 && f->b.port > 0);
	assert_int_equal(f->num.tree.level_a, 1);
	assert_int_equal(f->num.tree.level_b, 1);
	assert_int_equal(level(&r, 1).same_links, 1);
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	done(&r);
}

static void level_skip(void **state)
{
	struct fg_params p = FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4,
				 .hosts = 2, .faults = FG_FAULT_LEVEL_SKIP);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	/* core01 stays a core: the one cable to a leaf is the fault */
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "core01")), 3);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 1);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_LEVEL_SKIP);
	assert_string_equal(f->a.node, "leaf01-01");
	assert_string_equal(f->b.node, "core01");
	assert_int_equal(f->num.tree.level_a, 1);
	assert_int_equal(f->num.tree.level_b, 3);
	done(&r);
}

static void host_on_spine(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_HOST_ON_SPINE);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	/* the spine keeps its level: a spine with a server, not a leaf */
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(r.f, "spine01")), 2);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_CA_ON_NON_LEAF);
	assert_string_equal(f->a.node, "host0009 mlx5_0");
	assert_string_equal(f->b.node, "spine01");
	assert_int_equal(f->num.tree.level_b, 2);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 1);
	done(&r);
}

static void dropped_uplink_is_uneven(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_DROP_UPLINK);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UNEVEN_UPLINKS);
	assert_string_equal(f->a.node, "leaf01");
	assert_int_equal(f->a.port, -1);
	assert_int_equal(f->num.tree.usual_uplinks, 2);
	assert_int_equal(f->num.tree.uplinks, 1);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UPLINKS_PILED), 0);
	/* 2 hosts on 1 uplink where the usual leaf has 2 on 2: a warning */
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	assert_close(level(&r, 1).oversubscription, 8.0 / 7.0);
	done(&r);
}

static void piled_uplinks(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_PILED);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UPLINKS_PILED);
	assert_string_equal(f->a.node, "leaf01");
	assert_string_equal(f->b.node, "spine01");
	assert_string_equal(f->c.node, "spine02");
	/* a lone upper switch: no director to name */
	assert_null(f->d.node);
	assert_true(f->d.guid == 0);
	assert_int_equal(f->num.tree.usual_uplinks, 1);
	assert_int_equal(f->num.tree.uplinks, 2);
	/* same number of uplinks as its peers: not uneven */
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 0);
	done(&r);
}

static void missing_spine_stays_fat_tree(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 4, .hosts = 4,
				 .faults = FG_FAULT_MISSING_SPINE);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(level(&r, 2).switches, 3);
	assert_close(level(&r, 1).oversubscription, 4.0 / 3.0);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
}

static void ca_to_ca(void **state)
{
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 1,
				 .faults = FG_FAULT_CA_TO_CA);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_CA_TO_CA);
	assert_string_equal(f->a.node, "lonely1 mlx5_0");
	assert_string_equal(f->b.node, "lonely2 mlx5_0");
	/* not servers of the fabric: no path findings for them */
	assert_int_equal(ibtopo_topology_server_count(r.t), 2);
	done(&r);
}

/* ---- what OpenSM's ftree engine would do (checked under ibsim by
 * tests/integration/ftree-opensm.sh) ---- */

static void opensm_ftree_prediction(void **state)
{
	static const struct {
		struct fg_params p;
		const char *refusal;	/* NULL: accepted */
	} cases[] = {
		{ FT2(.leaves = 4, .spines = 2, .hosts = 2), NULL },
		{ FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4, .hosts = 2), NULL },
		{ FT2(.leaves = 4, .spines = 2, .hosts = 2, .faults = FG_FAULT_SAME_LEVEL),
		  NULL },
		{ FT2(.leaves = 4, .spines = 3, .hosts = 2,
		      .faults = FG_FAULT_MISSING_SPINE), NULL },
		{ { .shape = FG_STAR, .switches = 4, .hosts = 2 }, NULL },
		{ FT2(.leaves = 4, .spines = 2, .hosts = 2, .faults = FG_FAULT_DROP_UPLINK),
		  "ERR AB0A: switches 'spine01' and 'spine02' (rank 0) have 3 and 4 downward port groups" },
		{ FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4, .hosts = 2,
		      .faults = FG_FAULT_LEVEL_SKIP), "ERR AB09: " },
		{ FT2(.leaves = 4, .spines = 2, .hosts = 2,
		      .faults = FG_FAULT_HOST_ON_SPINE), "ERR AB26: " },
		{ FT2(.leaves = 2, .spines = 2, .hosts = 1, .faults = FG_FAULT_CA_TO_CA),
		  "ERR AB0F: CA 'lonely1 mlx5_0' is cabled to CA 'lonely2 mlx5_0'" },
		{ { .shape = FG_RING, .switches = 5, .hosts = 1 }, "ERR AB2B: " },
		{ { .shape = FG_SINGLE, .hosts = 4 }, "the fabric has 1 switch" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = "unset";
		struct run r;

		run_gen(&r, &cases[i].p);
		if (!cases[i].refusal) {
			assert_true(ibtopo_topology_opensm_ftree(r.t, &why));
			assert_null(why);
		} else {
			assert_false(ibtopo_topology_opensm_ftree(r.t, &why));
			assert_non_null(why);
			if (strncmp(why, cases[i].refusal, strlen(cases[i].refusal)))
				fail_msg("case %zu: '%s'", i, why);
		}
		done(&r);
	}
	assert_false(ibtopo_topology_opensm_ftree(NULL, NULL));
}

/* ---- roots, chassis, servers ---- */

static void roots_by_pattern_and_file(void **state)
{
	struct fg_params p = FT3(.pods = 2, .leaves = 2, .spines = 2, .cores = 4,
				 .hosts = 2);
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_topology *t = NULL;
	char path[] = "/tmp/ibtopo-roots-XXXXXX";
	FILE *fp;
	int fd;

	assert_int_equal(fg_build(&f, &p, NULL), 0);
	o.root_pattern = "^core0[1-4]$";
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), 0);
	assert_int_equal(ibtopo_topology_levels(t), 3);
	assert_int_equal(ibtopo_topology_node_level(t, fg_node(f, "core02")), 3);
	assert_int_equal(ibtopo_topology_node_level(t, fg_node(f, "leaf02-02")), 1);
	ibtopo_topology_free(t);

	o.root_pattern = "^nothing";
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), IBTOPO_EINVAL);
	assert_null(t);
	assert_non_null(strstr(err.message, "'^nothing'"));
	o.root_pattern = "([";
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "bad root pattern"));
	o.root_pattern = NULL;

	/* aggs as roots: the cores hang below them and are ranked as leaves */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "# roots\nagg01-01\n  agg01-02  # second\n0x%016" PRIx64 "\n\n",
		fg_node(f, "agg02-01")->guid);
	fprintf(fp, "agg02-02\n");
	fclose(fp);
	o.roots_file = path;
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), 0);
	assert_int_equal(ibtopo_topology_node_level(t, fg_node(f, "agg01-02")), 2);
	assert_int_equal(ibtopo_topology_node_level(t, fg_node(f, "leaf01-01")), 1);
	ibtopo_topology_free(t);

	fp = fopen(path, "w");
	fprintf(fp, "agg01-01\nno-such-switch\n");
	fclose(fp);
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, ":2: 'no-such-switch' names no switch"));
	unlink(path);
	o.roots_file = "/nonexistent/roots";
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), IBTOPO_EIO);
	ibtopo_fabric_free(f);
}

static void director_is_one_chassis(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2);
	struct ibtopo_fabric *f = NULL;
	struct run r;

	/* both spines are chips of one director */
	assert_int_equal(fg_build(&f, &p, NULL), 0);
	fg_node(f, "spine01")->sysimg_guid = 0x7cfe900300aa0000ull;
	fg_node(f, "spine02")->sysimg_guid = 0x7cfe900300aa0000ull;
	run_fabric(&r, f, NULL);
	assert_int_equal(ibtopo_topology_chassis_count(r.t), 5);
	assert_int_equal(level(&r, 2).switches, 2);
	assert_int_equal(level(&r, 2).chassis, 1);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	done(&r);

	/* every chip in one box: a single (director) switch */
	assert_int_equal(fg_build(&f, &p, NULL), 0);
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++)
		if (ibtopo_fabric_node(f, i)->type == IBTOPO_NODE_SWITCH)
			ibtopo_fabric_node(f, i)->sysimg_guid = 0x7cfe900300aa0000ull;
	run_fabric(&r, f, NULL);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_SINGLE_SWITCH);
	assert_int_equal(ibtopo_topology_chassis_count(r.t), 1);
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	done(&r);
}

#define DIR(...) { .shape = FG_DIRECTOR, .directors = 3, .lines = 6, \
		       .idle = 1, .spines = 4, .leaves = 10, .links = 2, \
		       .hosts = 4, __VA_ARGS__ }

/*
 * Edge switches under three directors, each with an unused line chip
 * (Janus: one such chip was ranked level 4, which made level 3 look
 * 80:1 oversubscribed). The unused chip joins its chassis' line level.
 */
static void director_fat_tree_has_three_levels(void **state)
{
	struct fg_params p = DIR();
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_levels(r.t), 3);
	assert_int_equal(ibtopo_topology_chassis_count(r.t), 13);
	assert_int_equal(ibtopo_topology_node_level(r.t,
			 fg_node(r.f, "MF0;dir2:IS5600/L06/U1")), 2);
	assert_int_equal(ibtopo_topology_node_level(r.t,
			 fg_node(r.f, "MF0;dir2:IS5600/S01/U1")), 3);
	assert_int_equal(level(&r, 2).switches, 18);
	assert_int_equal(level(&r, 2).chassis, 3);
	assert_int_equal(level(&r, 3).switches, 12);
	/* 20 cables down into each director, 5 used line chips x 4 up */
	assert_int_equal(level(&r, 2).down_links, 60);
	assert_int_equal(level(&r, 2).up_links, 60);
	assert_close(level(&r, 2).oversubscription, 1.0);
	/* only the single-homed servers' summary */
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	assert_int_equal(r.list.count, 1);
	done(&r);
}

static void director_missing_uplink(void **state)
{
	struct fg_params p = DIR(.faults = FG_FAULT_DROP_UPLINK);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_levels(r.t), 3);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	assert_string_equal(first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
				  IBTOPO_FTV_UNEVEN_UPLINKS)->a.node,
			    "edge01");
	done(&r);
}

/* Two cables on one line chip of a director: no line chip to spread to. */
static void director_uplinks_piled(void **state)
{
	struct fg_params p = DIR(.faults = FG_FAULT_PILED);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
	/* but cables of one director moved to another are piled */
	p.faults = FG_FAULT_PILED_ACROSS;
	run_gen(&r, &p);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UPLINKS_PILED), 1);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UPLINKS_PILED);
	assert_string_equal(f->a.node, "edge01");
	assert_true(strncmp(f->b.node, "MF0;dir1:", 9) == 0);
	assert_true(strncmp(f->c.node, "MF0;dir3:", 9) == 0);
	/* the 4 cables are counted per director: d names it, b stays its
	 * chip (a node of the fabric, the diagram marks it) */
	assert_non_null(f->d.node);
	assert_string_equal(f->d.node, "dir1");
	assert_true(f->d.guid == ibtopo_fabric_find_node(r.f, f->b.guid)->sysimg_guid);
	assert_true(f->d.guid != f->b.guid);
	assert_int_equal(f->d.port, -1);
	assert_int_equal(f->num.tree.usual_uplinks, 2);
	assert_int_equal(f->num.tree.uplinks, 4);
	done(&r);
}

#define RAILS(...) { .shape = FG_RAILS, .rails = 8, .units = 3, \
			 .hosts = 4, .spines = 4, .links = 2, __VA_ARGS__ }

static void rails_are_recognized(void **state)
{
	struct fg_params p = RAILS();
	size_t units = 0;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_RAIL_OPTIMIZED);
	assert_string_equal(ibtopo_topology_class_name(IBTOPO_TOPOLOGY_RAIL_OPTIMIZED),
			    "rail-optimized");
	assert_int_equal(ibtopo_topology_rails(r.t, &units), 8);
	assert_int_equal(units, 3);
	assert_int_equal(ibtopo_topology_server_count(r.t), 12);
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	assert_int_equal(r.list.count, 0);
	for (size_t i = 0; i < ibtopo_fabric_node_count(r.f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(r.f, i);
		unsigned rail = ibtopo_topology_node_rail(r.t, n, &units);

		if (ibtopo_topology_node_level(r.t, n) == 1) {
			assert_true(rail >= 1 && rail <= 8);
			assert_true(units >= 1 && units <= 3);
		} else {
			assert_int_equal(rail, 0);
		}
	}
	done(&r);
	/* two rails are a dual-homed fat tree */
	p.rails = 2;
	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_rails(r.t, NULL), 0);
	for (size_t i = 0; i < ibtopo_fabric_node_count(r.f); i++)
		assert_int_equal(ibtopo_topology_node_rail(r.t,
				 ibtopo_fabric_node(r.f, i), NULL), 0);
	done(&r);
}

static void rail_cables_swapped(void **state)
{
	struct fg_params p = RAILS(.faults = FG_FAULT_SWAP_RAIL);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_RAIL_OPTIMIZED);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_RAIL_MISMATCH), 2);
	f = first(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_WRONG_LEAF);
	assert_string_equal(f->a.node, "dgx0001 mlx5_0");
	assert_string_equal(f->b.node, "rail2-su01");
	assert_string_equal(f->c.node, "rail1-su01");
	assert_int_equal(f->num.rail.expected, 1);
	assert_int_equal(f->num.rail.actual, 2);
	assert_string_equal(ibtopo_finding_kind_name(f->kind), "rail-mismatch");
	done(&r);
}

static void server_missing_a_rail(void **state)
{
	struct fg_params p = RAILS(.faults = FG_FAULT_MISSING_RAIL);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_RAIL_OPTIMIZED);
	assert_int_equal(count(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_MISSING), 1);
	f = first(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_MISSING);
	assert_true(strncmp(f->a.node, "dgx0001 ", 8) == 0);
	assert_string_equal(f->c.node, "rail8-su01");
	assert_int_equal(f->num.rail.expected, 8);
	/* and rail 8 is one HCA short of the others */
	f = first(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_UNEQUAL);
	assert_float_equal(f->num.rail.rail, 8, 0);
	assert_int_equal(f->num.rail.expected, 12);
	assert_int_equal(f->num.rail.actual, 11);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_RAIL_MISMATCH), 2);
	done(&r);
}

static void rail_fabric_missing_uplink(void **state)
{
	struct fg_params p = RAILS(.faults = FG_FAULT_DROP_UPLINK);
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_RAIL_OPTIMIZED);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	assert_string_equal(first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
				  IBTOPO_FTV_UNEVEN_UPLINKS)->a.node, "rail1-su01");
	assert_int_equal(count_kind(&r, IBTOPO_FIND_RAIL_MISMATCH), 0);
	done(&r);
}

/* Cable n more servers to a switch of the fabric, on ports from 60. */
static void add_servers(struct ibtopo_fabric *fab, const char *sw, unsigned n,
			uint64_t guid)
{
	for (unsigned i = 0; i < n; i++) {
		struct ibtopo_node *ca = NULL;
		struct ibtopo_port *x = NULL, *y = NULL;
		char name[32];

		snprintf(name, sizeof(name), "x%" PRIx64 " mlx5_0", guid + i);
		assert_int_equal(ibtopo_fabric_add_node(&ca, fab, IBTOPO_NODE_CA,
							guid + i, 1, name, NULL), 0);
		assert_int_equal(ibtopo_node_add_port(&x, fab, ca, 1, NULL), 0);
		assert_int_equal(ibtopo_node_add_port(&y, fab, fg_node(fab, sw),
						      60 + i, NULL), 0);
		assert_int_equal(ibtopo_fabric_connect(NULL, fab, x, y, NULL), 0);
	}
}

/*
 * Fewer uplinks than the level's usual leaf is a design choice when the
 * leaf has fewer hosts too: leaf01 has 2 hosts on 1 uplink (2:1) where
 * the usual leaf has 4 on 2 (2:1). At most info, naming its own ratio;
 * a warning only where it is more oversubscribed than the usual leaf
 * (dropped_uplink_is_uneven: 2 hosts on 1 uplink where 2 on 2 is usual).
 */
static void fewer_uplinks_for_fewer_hosts_is_info(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_DROP_UPLINK);
	struct ibtopo_fabric *fab = NULL;
	const struct ibtopo_finding *f;
	struct run r;
	char buf[512];

	assert_int_equal(fg_build(&fab, &p, NULL), 0);
	add_servers(fab, "leaf02", 2, 0xe00);
	add_servers(fab, "leaf03", 2, 0xe10);
	add_servers(fab, "leaf04", 2, 0xe20);
	ibtopo_fabric_sort(fab);
	run_fabric(&r, fab, NULL);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UNEVEN_UPLINKS);
	assert_string_equal(f->a.node, "leaf01");
	assert_int_equal(f->severity, IBTOPO_SEV_INFO);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_null(strstr(buf, "cable the missing uplinks"));
	assert_non_null(strstr(buf, "2 hosts on 1 uplink (2:1)"));
	assert_non_null(strstr(buf, "4 hosts on 2 uplinks (2:1)"));
	done(&r);
	/* more hosts on leaf01 than its one uplink carries like the others */
	assert_int_equal(fg_build(&fab, &p, NULL), 0);
	add_servers(fab, "leaf02", 2, 0xe00);
	add_servers(fab, "leaf03", 2, 0xe10);
	add_servers(fab, "leaf04", 2, 0xe20);
	add_servers(fab, "leaf01", 1, 0xe30);
	ibtopo_fabric_sort(fab);
	run_fabric(&r, fab, NULL);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UNEVEN_UPLINKS);
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "3 hosts on 1 uplink (3:1)"));
	assert_non_null(strstr(buf, "cable the missing uplinks"));
	done(&r);
}

/*
 * The same leaf in a partial snapshot: the sweep may just not have
 * reached its other uplink, so it is no design choice but a warning
 * (issue 33: analyze called missing uplinks "a design choice").
 */
static void fewer_uplinks_in_partial_snapshot_warn(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 2,
				 .faults = FG_FAULT_DROP_UPLINK);
	struct ibtopo_fabric *fab = NULL;
	const struct ibtopo_finding *f;
	struct run r;
	char buf[512];

	(void)state;
	assert_int_equal(fg_build(&fab, &p, NULL), 0);
	add_servers(fab, "leaf02", 2, 0xe00);
	add_servers(fab, "leaf03", 2, 0xe10);
	add_servers(fab, "leaf04", 2, 0xe20);
	ibtopo_fabric_set_partial(fab, true);
	ibtopo_fabric_sort(fab);
	run_fabric(&r, fab, NULL);
	f = first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION, IBTOPO_FTV_UNEVEN_UPLINKS);
	assert_non_null(f);
	assert_string_equal(f->a.node, "leaf01");
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_null(strstr(buf, "design choice"));
	assert_non_null(strstr(buf, "cable the missing uplinks"));
	done(&r);
}

#define DFP(...) { .shape = FG_DRAGONFLY, .groups = 5, .leaves = 4, \
		       .spines = 4, .hosts = 4, __VA_ARGS__ }

static void dragonfly_plus_is_recognized(void **state)
{
	struct fg_params p = DFP();
	size_t global = 0;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_DRAGONFLY_PLUS);
	assert_string_equal(ibtopo_topology_class_name(IBTOPO_TOPOLOGY_DRAGONFLY_PLUS),
			    "dragonfly-plus");
	assert_int_equal(ibtopo_topology_groups(r.t, &global), 5);
	assert_int_equal(global, 10);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION), 0);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
	/* one group: a fat tree */
	p.groups = 1;
	p.shape = FG_FAT_TREE;
	p.levels = 2;
	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_groups(r.t, NULL), 0);
	done(&r);
}

static void dragonfly_missing_global_link(void **state)
{
	struct fg_params p = DFP(.faults = FG_FAULT_MISSING_GLOBAL);
	const struct ibtopo_finding *f;
	struct run r;
	char buf[512];

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_DRAGONFLY_PLUS);
	assert_int_equal(count(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION,
			       IBTOPO_DFP_MISSING_GLOBAL), 1);
	f = first(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION, IBTOPO_DFP_MISSING_GLOBAL);
	/* the two spines whose global ports are free */
	assert_string_equal(f->a.node, "g01-spine01");
	assert_string_equal(f->b.node, "g02-spine01");
	/* one missing cable is one finding, naming both groups: the two
	 * spines' missing global links are that cable, not two more */
	assert_int_equal(count(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION,
			       IBTOPO_DFP_UNEVEN_GLOBAL), 0);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION), 1);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "no global link joins group 1 to group 2"));
	assert_non_null(strstr(buf, "'g01-spine01' and 'g02-spine01'"));
	done(&r);
}

/*
 * Two global links per pair of groups, one of g01-g02's missing: the
 * pair is still joined, but by one link where the others have two. That
 * is one missing-global-link finding naming both free spines and both
 * groups, not one uneven-global-links finding per spine.
 */
static void dragonfly_one_of_two_global_links_missing(void **state)
{
	struct fg_params p = DFP(.global = 2, .faults = FG_FAULT_MISSING_GLOBAL);
	struct ibtopo_fabric *fab = NULL;
	struct ibtopo_port *x = NULL, *y = NULL;
	const struct ibtopo_finding *f;
	struct run r;
	char buf[512];

	/* the fault drops both g01-g02 cables: put the first one back */
	assert_int_equal(fg_build(&fab, &p, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&x, fab, fg_node(fab, "g01-spine01"),
					      60, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&y, fab, fg_node(fab, "g02-spine01"),
					      60, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(NULL, fab, x, y, NULL), 0);
	ibtopo_fabric_sort(fab);
	run_fabric(&r, fab, NULL);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_DRAGONFLY_PLUS);
	assert_int_equal(count(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION,
			       IBTOPO_DFP_UNEVEN_GLOBAL), 0);
	assert_int_equal(count(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION,
			       IBTOPO_DFP_MISSING_GLOBAL), 1);
	f = first(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION, IBTOPO_DFP_MISSING_GLOBAL);
	assert_string_equal(f->a.node, "g01-spine02");
	assert_string_equal(f->b.node, "g02-spine02");
	assert_int_equal(f->num.dragonfly.usual, 2);
	assert_int_equal(f->num.dragonfly.count, 1);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "group 1 and group 2 have 1 global link where most pairs of groups have 2"));
	assert_non_null(strstr(buf, "'g01-spine02' and 'g02-spine02'"));
	assert_int_equal(count_kind(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION), 1);
	done(&r);
}

static void dragonfly_missing_uplink_and_odd_group(void **state)
{
	struct fg_params p = DFP(.faults = FG_FAULT_DROP_UPLINK);
	const struct ibtopo_finding *f;
	struct run r;

	run_gen(&r, &p);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_DRAGONFLY_PLUS);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	assert_string_equal(first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
				  IBTOPO_FTV_UNEVEN_UPLINKS)->a.node, "g01-leaf01");
	done(&r);
	/* group 3 has one server more than the others */
	p.faults = 0;
	{
		struct ibtopo_fabric *fab = NULL;
		struct ibtopo_node *ca = NULL;
		struct ibtopo_port *x = NULL, *y = NULL;
		struct ibtopo_node *l = NULL;

		assert_int_equal(fg_build(&fab, &p, NULL), 0);
		l = fg_node(fab, "g03-leaf02");
		assert_int_equal(ibtopo_fabric_add_node(&ca, fab, IBTOPO_NODE_CA,
							0xe0, 1, "extra mlx5_0",
							NULL), 0);
		assert_int_equal(ibtopo_node_add_port(&x, fab, ca, 1, NULL), 0);
		assert_int_equal(ibtopo_node_add_port(&y, fab, l, 60, NULL), 0);
		assert_int_equal(ibtopo_fabric_connect(NULL, fab, x, y, NULL), 0);
		ibtopo_fabric_sort(fab);
		run_fabric(&r, fab, NULL);
	}
	assert_int_equal(count(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION,
			       IBTOPO_DFP_UNEQUAL_GROUP), 1);
	f = first(&r, IBTOPO_FIND_DRAGONFLY_VIOLATION, IBTOPO_DFP_UNEQUAL_GROUP);
	assert_string_equal(f->a.node, "g03-leaf01");
	assert_float_equal(f->num.dragonfly.servers, 17, 0);
	done(&r);
}

static void aggregation_nodes_are_not_servers(void **state)
{
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 2);
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sp, *an = NULL;
	struct ibtopo_port *a = NULL, *b = NULL;
	struct run r;

	assert_int_equal(fg_build(&f, &p, NULL), 0);
	/* a SHARP aggregation node on every spine, as on NDR switches */
	for (int i = 1; i <= 2; i++) {
		char name[16];

		snprintf(name, sizeof(name), "spine%02d", i);
		sp = fg_node(f, name);
		assert_int_equal(ibtopo_fabric_add_node(&an, f, IBTOPO_NODE_CA,
							sp->guid + 0x10, 1,
							"Mellanox Technologies Aggregation Node",
							NULL), 0);
		an->sysimg_guid = sp->sysimg_guid;
		assert_int_equal(ibtopo_node_add_port(&a, f, an, 1, NULL), 0);
		assert_int_equal(ibtopo_node_add_port(&b, f, sp, sp->nports, NULL), 0);
		assert_int_equal(ibtopo_fabric_connect(NULL, f, a, b, NULL), 0);
	}
	ibtopo_fabric_sort(f);
	run_fabric(&r, f, NULL);
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_node_level(r.t, fg_node(f, "spine01")), 2);
	assert_int_equal(ibtopo_topology_server_count(r.t), 4);
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
}

static void dual_homed_servers_are_one_endpoint(void **state)
{
	struct fg_params p = FT2(.leaves = 4, .spines = 2, .hosts = 3, .dual_homed = true);
	struct run r;

	run_gen(&r, &p);
	/* hosts on leaf pairs (1,2) and (3,4): 2 x 3 servers, 12 ports */
	assert_int_equal(ibtopo_topology_server_count(r.t), 6);
	assert_int_equal(level(&r, 1).host_links, 12);
	assert_false(ibtopo_topology_node_low_diversity(r.t, fg_node(r.f, "host0001 mlx5_0")));
	assert_int_equal(count_kind(&r, IBTOPO_FIND_LOW_PATH_DIVERSITY), 0);
	done(&r);
}

/* A CA cabled to `sw`'s next free port: description, system image GUID. */
static struct ibtopo_node *add_ca(struct ibtopo_fabric *f, struct ibtopo_node *sw,
				  uint64_t guid, uint64_t sysimg, const char *desc)
{
	struct ibtopo_node *ca = NULL;
	struct ibtopo_port *a = NULL, *b = NULL;
	unsigned p = 1;

	while (p < sw->nports && sw->ports[p])
		p++;
	assert_int_equal(ibtopo_fabric_add_node(&ca, f, IBTOPO_NODE_CA, guid, 1,
						desc, NULL), 0);
	ca->sysimg_guid = sysimg;
	assert_int_equal(ibtopo_node_add_port(&a, f, ca, 1, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&b, f, sw, p, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(NULL, f, a, b, NULL), 0);
	return ca;
}

/*
 * CAs are grouped into servers by system image GUID first, host name
 * second; a CA with neither (a default description such as "MT4129
 * ConnectX7   Mellanox Technologies", its own system image GUID) is its
 * own server.
 */
static void servers_by_system_image_then_host(void **state)
{
	static const char anon[] = "MT4129 ConnectX7   Mellanox Technologies";
	struct fg_params p = FT2(.leaves = 2, .spines = 2, .hosts = 1);
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *l1, *l2, *lone;
	size_t single = 0;
	struct run r;

	assert_int_equal(fg_build(&f, &p, NULL), 0);
	l1 = fg_node(f, "leaf01");
	l2 = fg_node(f, "leaf02");
	/* two hostless CAs of one server: one system image GUID */
	add_ca(f, l1, 0xa01, 0xa00, anon);
	add_ca(f, l2, 0xa02, 0xa00, anon);
	/* a hostless CA sharing dgx01's system image GUID joins it, and
	 * dgx01's second CA, with a GUID of its own, joins by host name */
	add_ca(f, l1, 0xb01, 0xb00, "dgx01 HCA-1");
	add_ca(f, l2, 0xb02, 0xb00, anon);
	add_ca(f, l2, 0xc01, 0xc01, "dgx01 HCA-2");
	/* hostless, own system image GUID: its own server */
	lone = add_ca(f, l1, 0xd01, 0xd01, anon);
	/* as ibnetdiscover gives it: no system image GUID, no host name */
	add_ca(f, l2, 0xe01, 0, anon);
	ibtopo_fabric_sort(f);
	run_fabric(&r, f, NULL);
	/* host0001, host0002, the pair, dgx01, the two lone CAs */
	assert_int_equal(ibtopo_topology_server_count(r.t), 6);
	/* single-homed: host0001, host0002 and the two lone CAs */
	ibtopo_topology_server_policy(r.t, &single);
	assert_int_equal(single, 4);
	assert_true(ibtopo_topology_node_low_diversity(r.t, lone));
	assert_false(ibtopo_topology_node_low_diversity(
		r.t, ibtopo_fabric_find_node(f, 0xa01)));
	assert_false(ibtopo_topology_node_low_diversity(
		r.t, ibtopo_fabric_find_node(f, 0xb02)));
	done(&r);
}

static void bad_arguments(void **state)
{
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_topology *t = (void *)1;
	struct ibtopo_topology_level v;

	assert_int_equal(ibtopo_topology_analyze(&t, NULL, NULL, NULL, &err),
			 IBTOPO_EINVAL);
	assert_null(t);
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	o.version = 99;
	assert_int_equal(ibtopo_topology_analyze(&t, f, &o, NULL, &err), IBTOPO_EINVAL);
	/* an empty fabric analyzes to nothing */
	assert_int_equal(ibtopo_topology_analyze(&t, f, NULL, NULL, &err), 0);
	assert_int_equal(ibtopo_topology_levels(t), 0);
	assert_int_equal(ibtopo_topology_level(&v, t, 1), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_topology_class(t), IBTOPO_TOPOLOGY_IRREGULAR);
	ibtopo_topology_free(t);
	ibtopo_topology_free(NULL);
	ibtopo_fabric_free(f);
	assert_string_equal(ibtopo_topology_class_name(IBTOPO_TOPOLOGY_STAR), "star");
	assert_string_equal(ibtopo_topology_subkind_name(IBTOPO_FIND_FAT_TREE_VIOLATION,
							 IBTOPO_FTV_LEVEL_SKIP), "level-skip");
	assert_string_equal(ibtopo_topology_subkind_name(IBTOPO_FIND_LOW_PATH_DIVERSITY,
							 IBTOPO_LPD_SINGLE_LINK), "single-link");
	assert_null(ibtopo_topology_subkind_name(IBTOPO_FIND_SPEED_DOWNGRADE, 1));
}

/* ---- real fabrics ----
 * Expected values were counted from the files by hand (grep/awk over the
 * port lines: which switch each CA and each switch port is cabled to).
 */

static void fixture_qdr_hosts_fdr10_isls(void **state)
{
	struct run r;

	run_file(&r, "qdr-hosts-fdr10-isls.topo");
	/*
	 * ib1..ib6 carry 142 hosts (24 x 5 + 22) and 47 FDR10 uplinks (ib1
	 * has 7, the others 8: 4 to ib7 and 4 to ib8). ib7 and ib8 only
	 * link leaves; ib7 also has tank1 (2 ports) and tank2: a spine with
	 * servers, so 2 levels with 3 CAs above level 1.
	 */
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_FAT_TREE);
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	assert_int_equal(level(&r, 1).switches, 6);
	assert_int_equal(level(&r, 1).host_links, 142);
	assert_int_equal(level(&r, 1).up_links, 47);
	assert_int_equal(level(&r, 2).switches, 2);
	assert_int_equal(level(&r, 2).host_links, 3);
	/* 142 x 4xQDR (32 Gb/s) : 47 x 4xFDR10 (40 Gb/s) */
	assert_close(level(&r, 1).oversubscription, 142 * 32.0 / (47 * 40.0));
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_CA_ON_NON_LEAF), 3);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 1);
	assert_string_equal(first(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
				  IBTOPO_FTV_UNEVEN_UPLINKS)->a.node,
			    "MF0;ib1:SX6036/U1");
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_SAME_LEVEL), 0);
	/* 144 CAs, tank1's two ports one server */
	assert_int_equal(ibtopo_topology_server_count(r.t), 144);
	done(&r);
}

static void fixture_x5_mixed_ddr_qdr(void **state)
{
	struct run r;

	run_file(&r, "x5-mixed-ddr-qdr.topo");
	/*
	 * Six switches carry the 89 hosts (23 at 4xDDR, 66 at 4xQDR) with
	 * 64 QDR uplinks to four switches; one more switch (4036-86A2) hangs
	 * above two of those four only, so two level-2 switches have no
	 * uplink: not a fat tree.
	 */
	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_IRREGULAR);
	assert_int_equal(ibtopo_topology_levels(r.t), 3);
	assert_int_equal(level(&r, 1).switches, 6);
	assert_int_equal(level(&r, 1).host_links, 89);
	assert_int_equal(level(&r, 1).up_links, 64);
	assert_int_equal(level(&r, 2).switches, 4);
	assert_int_equal(level(&r, 2).up_links, 6);
	assert_int_equal(level(&r, 3).switches, 1);
	assert_close(level(&r, 1).oversubscription,
		     (23 * 16.0 + 66 * 32.0) / (64 * 32.0));
	assert_close(level(&r, 2).oversubscription, 64.0 / 6.0);
	/* not a fat tree: its rules are not applied */
	assert_int_equal(count_kind(&r, IBTOPO_FIND_FAT_TREE_VIOLATION), 0);
	done(&r);
}

static void fixture_ndr_superpod_rails(void **state)
{
	struct run r;

	run_file(&r, "ndr-superpod-rails.topo");
	/*
	 * 40 switches: 31 IBLEAF with 542 host ports, 9 IBSPINE; every
	 * switch also holds a SHARP aggregation node (port 65, the switch's
	 * system image GUID), 40 CAs that are not servers. 1114 links -
	 * 542 - 40 = 532 leaf uplinks, all 4xNDR; most leaves have 18, 12
	 * have fewer.
	 * Rails: DGX servers name their HCAs "HCA-1,2,5,6" or (one unit)
	 * "mlx5_0,1,4,5": 4 rails; leaves IBLEAF-<rail>-<unit>, 8 units,
	 * unit 01 without a rail-3 leaf (10 of its servers have no HCA-5).
	 * b08-p1-dgx-08-c01 has HCA-5 and HCA-6 swapped; the UFM host
	 * (two HCAs) is not on the rails.
	 */
	size_t units = 0, single = 0;
	const struct ibtopo_finding *f;

	assert_int_equal(ibtopo_topology_class(r.t), IBTOPO_TOPOLOGY_RAIL_OPTIMIZED);
	assert_int_equal(ibtopo_topology_rails(r.t, &units), 4);
	assert_int_equal(units, 8);
	assert_int_equal(count(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_WRONG_LEAF), 2);
	f = first(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_WRONG_LEAF);
	assert_string_equal(f->a.node, "b08-p1-dgx-08-c01 HCA-5");
	assert_string_equal(f->b.node, "MF0;B09-P1-IBLEAF-04-08:MQM9701/U1");
	assert_string_equal(f->c.node, "MF0;B09-P1-IBLEAF-03-08:MQM9701/U1");
	assert_int_equal(f->num.rail.expected, 3);
	assert_int_equal(f->num.rail.actual, 4);
	/* each leaf's rail and unit, as the diagram's columns use them */
	{
		const struct ibtopo_node *l4 = ibtopo_fabric_find_node(r.f, f->b.guid);
		const struct ibtopo_node *l3 = ibtopo_fabric_find_node(r.f, f->c.guid);
		size_t u3 = 0, u4 = 0;

		assert_int_equal(ibtopo_topology_node_rail(r.t, l4, &u4), 4);
		assert_int_equal(ibtopo_topology_node_rail(r.t, l3, &u3), 3);
		assert_true(u3 >= 1 && u3 <= 8);
		assert_int_equal(u3, u4);
		/* a server's HCA is no leaf */
		assert_int_equal(ibtopo_topology_node_rail(r.t,
				 ibtopo_fabric_find_node(r.f, f->a.guid), &u3), 0);
		assert_int_equal(u3, 0);
		assert_int_equal(ibtopo_topology_node_rail(r.t, NULL, NULL), 0);
	}
	/* the unit has no rail-3 leaf: one finding for the unit, naming a
	 * leaf of it and its 10 servers, not one per server */
	assert_int_equal(count(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_MISSING), 1);
	f = first(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_MISSING);
	assert_int_equal(f->num.rail.expected, 3);
	assert_null(f->c.node);
	assert_int_equal(f->a.port, -1);
	assert_non_null(strstr(f->a.node, "IBLEAF-"));
	assert_int_equal(ibtopo_topology_node_level(r.t,
			 ibtopo_fabric_find_node(r.f, f->a.guid)), 1);
	assert_float_equal(f->num.rail.lacking, 10, 0);
	{
		char buf[512];

		ibtopo_finding_message(buf, sizeof(buf), f);
		assert_non_null(strstr(buf, "no leaf of rail 3, so its 10 servers have no HCA on that rail"));
	}
	assert_int_equal(count(&r, IBTOPO_FIND_RAIL_MISMATCH, IBTOPO_RAIL_UNEQUAL), 1);
	assert_float_equal(first(&r, IBTOPO_FIND_RAIL_MISMATCH,
				 IBTOPO_RAIL_UNEQUAL)->num.rail.rail, 3, 0);
	assert_int_equal(ibtopo_topology_levels(r.t), 2);
	assert_int_equal(level(&r, 1).switches, 31);
	assert_int_equal(level(&r, 1).host_links, 542);
	assert_int_equal(level(&r, 1).up_links, 532);
	assert_int_equal(level(&r, 2).switches, 9);
	assert_int_equal(level(&r, 2).host_links, 0);
	assert_close(level(&r, 1).oversubscription, 542.0 / 532.0);
	assert_close(level(&r, 1).up_gbps, 532 * 400.0);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_UNEVEN_UPLINKS), 12);
	assert_int_equal(count(&r, IBTOPO_FIND_FAT_TREE_VIOLATION,
			       IBTOPO_FTV_CA_ON_NON_LEAF), 0);
	/*
	 * Servers: every CA's system image GUID is its own node GUID (542
	 * of 542; a DGX's ConnectX-7s share none), so only host names group
	 * them: 121 servers on 2 switches or more; 69 CAs with the default
	 * "MT4129 ConnectX7   Mellanox Technologies" and the three
	 * "localhost HCA-n" have neither and stay one single-homed server
	 * each: 193 servers, 72 single-homed, dual by majority.
	 */
	assert_int_equal(ibtopo_topology_server_count(r.t), 193);
	assert_int_equal(ibtopo_topology_server_policy(r.t, &single),
			 IBTOPO_SERVERS_DUAL);
	assert_int_equal(single, 72);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_two_level_fat_tree),
		cmocka_unit_test(oversubscribed_leaves_count_bandwidth),
		cmocka_unit_test(three_level_fat_tree),
		cmocka_unit_test(single_switch_and_star),
		cmocka_unit_test(one_spine_is_a_star),
		cmocka_unit_test(irregular_shapes_are_named),
		cmocka_unit_test(same_level_link),
		cmocka_unit_test(level_skip),
		cmocka_unit_test(host_on_spine),
		cmocka_unit_test(dropped_uplink_is_uneven),
		cmocka_unit_test(fewer_uplinks_for_fewer_hosts_is_info),
		cmocka_unit_test(fewer_uplinks_in_partial_snapshot_warn),
		cmocka_unit_test(piled_uplinks),
		cmocka_unit_test(missing_spine_stays_fat_tree),
		cmocka_unit_test(ca_to_ca),
		cmocka_unit_test(opensm_ftree_prediction),
		cmocka_unit_test(roots_by_pattern_and_file),
		cmocka_unit_test(director_is_one_chassis),
		cmocka_unit_test(director_fat_tree_has_three_levels),
		cmocka_unit_test(director_missing_uplink),
		cmocka_unit_test(director_uplinks_piled),
		cmocka_unit_test(rails_are_recognized),
		cmocka_unit_test(rail_cables_swapped),
		cmocka_unit_test(server_missing_a_rail),
		cmocka_unit_test(rail_fabric_missing_uplink),
		cmocka_unit_test(dragonfly_plus_is_recognized),
		cmocka_unit_test(dragonfly_missing_global_link),
		cmocka_unit_test(dragonfly_one_of_two_global_links_missing),
		cmocka_unit_test(dragonfly_missing_uplink_and_odd_group),
		cmocka_unit_test(aggregation_nodes_are_not_servers),
		cmocka_unit_test(dual_homed_servers_are_one_endpoint),
		cmocka_unit_test(servers_by_system_image_then_host),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(fixture_qdr_hosts_fdr10_isls),
		cmocka_unit_test(fixture_x5_mixed_ddr_qdr),
		cmocka_unit_test(fixture_ndr_superpod_rails),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
