/* test_render.c - fabric diagrams: DOT text (golden files) and images */
#include "ibtopo-int.h"
#include "diagram/diagram-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GOLDEN_DIR TEST_SRCDIR "/tests/golden"

static char *dot_of(const struct ibtopo_fabric *f,
		    const struct ibtopo_diagram_opts *d)
{
	struct ibtopo_buffer b = { 0 };
	struct ibtopo_sink o = test_sink(&b, IBTOPO_FORMAT_TEXT);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (test_diagram_dot(&o, f, d, &err))
		fail_msg("render_dot: %s", err.message);
	return b.text;
}

/* ---- fabric builders ---- */

static struct ibtopo_node *node(struct ibtopo_fabric *f, enum ibtopo_node_type t,
				uint64_t guid, unsigned nports, const char *desc)
{
	struct ibtopo_node *n = NULL;

	assert_int_equal(ibtopo_fabric_add_node(&n, f, t, guid, nports, desc,
						NULL), 0);
	n->sysimg_guid = guid;
	return n;
}

static struct ibtopo_link *link_at(struct ibtopo_fabric *f, struct ibtopo_node *a,
				   unsigned pa, struct ibtopo_node *b, unsigned pb,
				   unsigned speed)
{
	struct ibtopo_port *x = NULL, *y = NULL;
	struct ibtopo_link *l = NULL;

	assert_int_equal(ibtopo_node_add_port(&x, f, a, pa, NULL), 0);
	assert_int_equal(ibtopo_node_add_port(&y, f, b, pb, NULL), 0);
	x->speed_active = y->speed_active = (uint16_t)speed;
	x->width_active = y->width_active = IBTOPO_WIDTH_4X;
	assert_int_equal(ibtopo_fabric_connect(&l, f, x, y, NULL), 0);
	return l;
}

#define SPINE(i) (0x100u + (i))
#define LEAF(i) (0x200u + (i))
#define HOST(i) (0x1000u + (i))

/*
 * 2 spines, 4 leaves with 2 cables to each spine, `nhosts` hosts spread
 * over the leaves; host 3 trained at EDR. With `reverse`, the same fabric
 * built in the opposite order.
 */
static struct ibtopo_fabric *small_fabric(unsigned nhosts, bool reverse)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sp[2], *lf[4];
	char d[64];

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (int k = 0; k < 2; k++) {
		int i = reverse ? 1 - k : k;

		snprintf(d, sizeof(d), "MF0;spine%02d:MQM8700/U1", i + 1);
		sp[i] = node(f, IBTOPO_NODE_SWITCH, SPINE(i), 40, d);
	}
	for (int k = 0; k < 4; k++) {
		int i = reverse ? 3 - k : k;

		snprintf(d, sizeof(d), "MF0;leaf%02d:MQM8700/U1", i + 1);
		lf[i] = node(f, IBTOPO_NODE_SWITCH, LEAF(i), 255, d);
	}
	for (int k = 0; k < 16; k++) {
		int j = reverse ? 15 - k : k;
		int i = j / 4, s = (j / 2) % 2, c = j % 2;

		link_at(f, lf[i], 251 + s * 2 + c, sp[s], 1 + i * 2 + c,
			IBTOPO_SPEED_HDR);
	}
	for (unsigned k = 0; k < nhosts; k++) {
		unsigned i = reverse ? nhosts - 1 - k : k;
		struct ibtopo_node *h;

		snprintf(d, sizeof(d), "host%03u mlx5_0", i + 1);
		h = node(f, IBTOPO_NODE_CA, HOST(i), 1, d);
		link_at(f, lf[i % 4], 1 + i / 4, h, 1,
			i == 2 ? IBTOPO_SPEED_EDR : IBTOPO_SPEED_HDR);
	}
	return f;
}

static void add_finding(struct ibtopo_findings *fs, enum ibtopo_finding_kind k,
			uint64_t ga, int pa, uint64_t gb, int pb)
{
	struct ibtopo_finding x = { .kind = k, .severity = IBTOPO_SEV_WARNING };

	x.a.guid = ga;
	x.a.port = pa;
	x.b.guid = gb;
	x.b.port = pb;
	x.c.port = x.d.port = -1;
	assert_int_equal(ibtopo_findings_add(fs, &x, NULL), 0);
}

/* ---- golden files ---- */

static void check_golden(const char *name, const char *got)
{
	char path[512];
	FILE *f;
	char *want;
	long n;

	snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
	if (getenv("IBTOPO_UPDATE_GOLDEN")) {
		f = fopen(path, "wb");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
		/* nothing was compared: the test must not pass */
		print_message("rewrote %s\n", path);
		skip();
	}
	f = fopen(path, "rb");
	if (!f)
		fail_msg("missing golden file %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	want = calloc(1, (size_t)n + 1);
	assert_non_null(want);
	assert_int_equal(fread(want, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	if (strcmp(want, got) != 0) {
		/* show the first differing line */
		const char *a = want, *b = got;
		int line = 1;

		while (*a && *a == *b) {
			if (*a == '\n')
				line++;
			a++;
			b++;
		}
		fail_msg("%s differs at line %d (IBTOPO_UPDATE_GOLDEN=1 rewrites it)",
			 name, line);
	}
	free(want);
}

/* ---- tests ---- */

static void golden_small_fabric_with_findings(void **state)
{
	struct ibtopo_fabric *f = small_fabric(8, false);
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	char *dot;

	(void)state;
	ibtopo_fabric_sort(f);
	assert_int_equal(ibtopo_fabric_set_label(f, "week 3", NULL), 0);
	ibtopo_fabric_set_snapshot_id(f, 7);
	ibtopo_fabric_set_taken_at(f, 1700000000);
	/* host003 runs EDR on HDR ports; leaf04-spine01 cable too long */
	add_finding(&fs, IBTOPO_FIND_SPEED_DOWNGRADE, HOST(2), 1, LEAF(2), 1);
	add_finding(&fs, IBTOPO_FIND_CABLE_OVER_LENGTH, LEAF(3), 251, SPINE(0), 7);
	add_finding(&fs, IBTOPO_FIND_LOW_PATH_DIVERSITY, LEAF(1), -1, LEAF(2), -1);
	d.findings = &fs;
	d.title = "lab fabric";
	dot = dot_of(f, &d);
	check_golden("rd-small.dot", dot);
	/* the downgraded host link is red and labelled with its speed */
	assert_non_null(strstr(dot, "n0000000000000202 -> n0000000000001002 "
				    "[label=\"EDR\", color=\"#d62728\""));
	/* the cable problem splits one cable off the leaf04-spine01 pair */
	assert_non_null(strstr(dot, "n0000000000000100 -> n0000000000000203 "
				    "[color=\"#ff7f0e\""));
	/* two cables between every leaf and spine: said once, in the legend */
	assert_non_null(strstr(dot, "n0000000000000100 -> n0000000000000202 "
				    "[penwidth=2.6, weight=2"));
	assert_non_null(strstr(dot, "(unlabelled switch links: 2)"));
	/* low path diversity: double red border on both leaves */
	assert_non_null(strstr(dot, "n0000000000000201 [label=\"leaf02\", "
				    "shape=box, style=\"rounded,filled\", "
				    "fillcolor=\"#deebf7\", color=\"#d62728\", "
				    "peripheries=2"));
	assert_non_null(strstr(dot, "snapshot 7 \xe2\x80\x9cweek 3\xe2\x80\x9d"
				    " \xc2\xb7 2023-11-14 22:13 UTC"));
	free(dot);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(f);
}

static void same_fabric_any_order_same_bytes(void **state)
{
	struct ibtopo_fabric *a = small_fabric(12, false);
	struct ibtopo_fabric *b = small_fabric(12, true);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	char *x, *y, *z;

	(void)state;
	d.hosts = IBTOPO_HOSTS_COLLAPSE;
	x = dot_of(a, &d);
	y = dot_of(b, &d);
	z = dot_of(a, &d);
	assert_string_equal(x, z);
	assert_string_equal(x, y);
	free(x);
	free(y);
	free(z);
	ibtopo_fabric_free(a);
	ibtopo_fabric_free(b);
}

static void hosts_collapse_above_200(void **state)
{
	struct ibtopo_fabric *f = small_fabric(200, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_node *h;
	char *dot;

	(void)state;
	dot = dot_of(f, &d);
	assert_null(strstr(dot, " hosts\\n"));
	assert_non_null(strstr(dot, ">host200<"));	/* a cell of a block */
	free(dot);
	/* the 201st host tips it over */
	h = node(f, IBTOPO_NODE_CA, HOST(200), 1, "host201 mlx5_0");
	link_at(f, ibtopo_fabric_find_node(f, LEAF(0)), 250, h, 1,
		IBTOPO_SPEED_HDR);
	dot = dot_of(f, &d);
	/* a range of names, as a hostlist reads */
	assert_non_null(strstr(dot, "[label=\"51 hosts\\nhost001..host201\""));
	assert_non_null(strstr(dot, "[label=\"50 hosts\\nhost002..host198\""));
	assert_null(strstr(dot, ">host200<"));
	/* host003 (EDR) is counted apart from its HDR neighbours */
	assert_non_null(strstr(dot, "-> g0000000000001002 [label=\"\xc3\x97" "49\""));
	assert_non_null(strstr(dot, "-> g0000000000001002 [label=\"EDR\""));
	free(dot);
	/* names that are no range: the count alone, not "bigmem01 ... host201" */
	assert_int_equal(ibtopo_node_set_desc(ibtopo_fabric_find_node(f, HOST(0)),
					      "bigmem01 mlx5_0", NULL), 0);
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "[label=\"51 hosts\""));
	assert_null(strstr(dot, "bigmem01.."));
	assert_non_null(strstr(dot, "[label=\"50 hosts\\nhost002..host198\""));
	free(dot);
	d.hosts = IBTOPO_HOSTS_ALL;
	dot = dot_of(f, &d);
	assert_null(strstr(dot, " hosts\\n"));
	assert_non_null(strstr(dot, ">host201<"));
	free(dot);
	ibtopo_fabric_free(f);
}

/*
 * The heat map against perfect balance (issue 23, item 14): small_fabric(16)
 * routed as evenly as it can be (every host cable 15 routes, each of the
 * 16 leaf uplinks and 16 spine downlinks 12) is drawn in the coolest
 * colour throughout, not red hot at its host cables because 15 is the
 * max; a leaf whose 48 routes up take one cable of four is the hot one.
 */
static void heat_scales_against_perfect_balance(void **state)
{
	static const char *const hotter[] = { "#feb24c", "#fd8d3c", "#f03b20",
					      "#bd0026" };
	struct ibtopo_fabric *f = small_fabric(16, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_routes r = { 0 };
	struct ibtopo_route_port *rp;
	char *dot;

	(void)state;
	rp = calloc(ibtopo_fabric_link_count(f) * 2, sizeof(*rp));
	assert_non_null(rp);
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type != IBTOPO_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];

			if (!pp || !pp->remote)
				continue;
			rp[r.nports].port = pp;
			rp[r.nports].routes =
				pp->remote->node->type == IBTOPO_NODE_CA ? 15 :
									   12;
			r.nports++;
		}
	}
	r.ports = rp;
	d.heat = &r;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "color=\"#fed976\""));
	for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(hotter); k++) {
		char attr[32];

		snprintf(attr, sizeof(attr), "color=\"%s\"", hotter[k]);
		if (strstr(dot, attr))
			fail_msg("balanced routes drawn in %s", hotter[k]);
	}
	assert_non_null(strstr(dot, "perfect balance"));
	free(dot);
	/* leaf01's four uplinks (ports 251..254): 48, 0, 0, 0 */
	for (size_t i = 0; i < r.nports; i++) {
		const struct ibtopo_port *pp = rp[i].port;

		if (pp->node->guid == LEAF(0) && pp->num >= 251)
			rp[i].routes = pp->num == 251 ? 48 : 0;
	}
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "color=\"#bd0026\""));
	free(dot);
	free(rp);
	ibtopo_fabric_free(f);
}

/*
 * The overview's bundle of 16 leaf-spine cables with one downgraded
 * (issue 23, item 15): the 15 good cables are one grey bundle, the
 * downgraded one drawn apart in red, not all 16 red for one.
 */
static void overview_draws_a_bad_cable_apart_from_its_bundle(void **state)
{
	struct ibtopo_fabric *f = small_fabric(16, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	char *dot;

	(void)state;
	add_finding(&fs, IBTOPO_FIND_SPEED_DOWNGRADE, LEAF(3), 251, SPINE(0), 7);
	d.findings = &fs;
	d.detail = IBTOPO_DETAIL_GROUPS;
	dot = dot_of(f, &d);
	/* "×15 3.0 Tb/s" in the usual grey, "200 Gb/s" (one cable) red */
	assert_non_null(strstr(dot, "label=\"\xc3\x97" "15 3.0 Tb/s\", "
				    "penwidth="));
	assert_non_null(strstr(dot, "label=\"200 Gb/s\", "
				    "color=\"#d62728\""));
	assert_null(strstr(dot, "\xc3\x97" "16 "));
	free(dot);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(f);
}

/* Many hosts, not collapsed: a table per leaf, a cell per host. */
static void hosts_in_blocks_problems_in_their_cell(void **state)
{
	struct ibtopo_fabric *f = small_fabric(40, false);
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	char *dot;

	(void)state;
	add_finding(&fs, IBTOPO_FIND_SPEED_DOWNGRADE, HOST(2), 1, LEAF(2), 1);
	d.findings = &fs;
	dot = dot_of(f, &d);
	/* leaf03 has host003, 007, ..., 039: 10 hosts in 4 columns */
	assert_non_null(strstr(dot, "b0000000000001002 [shape=plain"));
	assert_non_null(strstr(dot, "<TD COLSPAN=\"4\"><FONT POINT-SIZE=\"8\" "
				    "COLOR=\"#666666\">10 hosts</FONT>"));
	assert_non_null(strstr(dot, "<TD PORT=\"p0000000000001002\" BORDER=\"1\" "
				    "COLOR=\"#d62728\""));
	/* 9 good cables to the block, the bad one to its host's cell */
	assert_non_null(strstr(dot, "n0000000000000202 -> b0000000000001002 "
				    "[label=\"\xc3\x97" "9\", penwidth=4.3, weight=9"));
	assert_non_null(strstr(dot, "n0000000000000202 -> b0000000000001002:"
				    "p0000000000001002:n [label=\"EDR\", "
				    "color=\"#d62728\""));
	assert_null(strstr(dot, "[label=\"host007\""));
	free(dot);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(f);
}

/*
 * The scene is data a writer walks, without DOT: the same fabric as
 * above, seen as drawn nodes, bundled edges and block cells.
 */
static void scene_is_data_a_writer_walks(void **state)
{
	struct ibtopo_fabric *f = small_fabric(40, false);
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct scene c = { 0 };
	struct ibtopo_analysis *an = NULL;
	const struct dnode *b = NULL;
	size_t leaf3 = NONE, good = 0, bad = 0;

	(void)state;
	add_finding(&fs, IBTOPO_FIND_SPEED_DOWNGRADE, HOST(2), 1, LEAF(2), 1);
	d.findings = &fs;
	/* the levels are an analysis' */
	assert_int_equal(ibtopo_analysis_new(&an, f, NULL, &err), 0);
	assert_int_equal(ibtopo_analysis_topology(an, &c.topo, &err), 0);
	assert_int_equal(ibtopo__diagram_scene_build(&c, f, &d, &err), 0);
	/* spines, then leaves, then a block of hosts per leaf */
	assert_int_equal(c.ndn, 10);
	assert_int_equal(c.top, 2);
	for (size_t i = 0; i < c.ndn; i++) {
		assert_int_equal(c.dn[i].kind, i < 6 ? DN_SWITCH : DN_BLOCK);
		assert_int_equal(c.dn[i].level, i < 2 ? 2 : i < 6 ? 1 : 0);
		if (c.dn[i].guid == LEAF(2))
			leaf3 = i;
		if (c.dn[i].guid == HOST(2))
			b = &c.dn[i];
	}
	assert_int_equal(c.used_kinds, 1u << DN_SWITCH | 1u << DN_BLOCK);
	assert_int_equal(c.ncl, 0);
	/* leaf03's hosts: 003, 007, ..., 039 in 4 columns, 003 downgraded */
	assert_non_null(b);
	assert_int_equal(b->nhosts, 10);
	assert_int_equal(b->cols, 4);
	assert_string_equal(b->cells[0].label, "host003");
	assert_string_equal(b->cells[9].label, "host039");
	assert_int_equal(b->cells[0].cat, CAT_DOWN);
	assert_int_equal(b->cells[1].cat, CAT_OK);
	/* two cables per leaf and spine: one edge each, the usual count */
	assert_int_equal(c.usual_count, 2);
	for (size_t i = 0; i < c.nde; i++) {
		const struct dedge *e = &c.de[i];

		if (c.dn[e->u].level == 2) {
			assert_int_equal(e->count, 2);
			assert_false(e->show_count);
			assert_false(e->show_speed);
			continue;
		}
		if (e->u != leaf3 || &c.dn[e->v] != b)
			continue;
		if (e->host) {
			/* the bad cable goes to its host's cell */
			assert_int_equal(e->host->guid, HOST(2));
			assert_int_equal(e->cat, CAT_DOWN);
			assert_int_equal(e->count, 1);
			assert_true(e->show_speed);
			bad++;
		} else {
			assert_int_equal(e->count, 9);
			assert_true(e->show_count);
			assert_false(e->show_speed);
			good++;
		}
	}
	assert_int_equal(good, 1);
	assert_int_equal(bad, 1);
	ibtopo__diagram_scene_release(&c);
	ibtopo_analysis_free(an);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(f);
}

/* A director (four chips, one system image) with two leaves and hosts. */
static void golden_director_is_a_cluster(void **state)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_node *s[2], *l[2], *e[2], *h;
	char desc[64], *dot;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(desc, sizeof(desc), "MF0;core1:CS7500/S%02d/U1", i + 1);
		s[i] = node(f, IBTOPO_NODE_SWITCH, 0x500 + i, 36, desc);
		s[i]->sysimg_guid = 0x5ff;
		snprintf(desc, sizeof(desc), "MF0;core1:CS7500/L%02d/U1", i + 1);
		l[i] = node(f, IBTOPO_NODE_SWITCH, 0x510 + i, 36, desc);
		l[i]->sysimg_guid = 0x5ff;
		snprintf(desc, sizeof(desc), "MF0;edge%d:MQM8700/U1", i + 1);
		e[i] = node(f, IBTOPO_NODE_SWITCH, 0x600 + i, 40, desc);
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			link_at(f, l[i], 19 + j, s[j], 1 + i, IBTOPO_SPEED_HDR);
	for (int i = 0; i < 2; i++) {
		for (int j = 0; j < 2; j++)
			link_at(f, e[i], 21 + j, l[j], 1 + i, IBTOPO_SPEED_HDR);
		for (int k = 0; k < 2; k++) {
			snprintf(desc, sizeof(desc), "node%d%d HCA-1", i, k);
			h = node(f, IBTOPO_NODE_CA, 0x700 + 2 * i + k, 1, desc);
			link_at(f, e[i], 1 + k, h, 1, IBTOPO_SPEED_HDR);
		}
	}
	ibtopo_fabric_sort(f);
	d.flags = IBTOPO_DIAGRAM_NO_LEGEND;
	dot = dot_of(f, &d);
	check_golden("rd-director.dot", dot);
	assert_non_null(strstr(dot, "subgraph cluster_00000000000005ff {\n\t\t"
				    "label=\"core1\";"));
	assert_non_null(strstr(dot, "[label=\"S01/U1\""));
	assert_non_null(strstr(dot, "[label=\"L02/U1\""));
	assert_null(strstr(dot, "<TABLE BORDER=\"1\""));	/* no legend */
	free(dot);
	ibtopo_fabric_free(f);
}

static void labels_are_the_readable_part(void **state)
{
	static const struct {
		enum ibtopo_node_type type;
		uint64_t guid;
		const char *desc, *label;
	} cases[] = {
		{ IBTOPO_NODE_SWITCH, 0x11, "MF0;sw-ib-01:MQM8700/U1", "sw-ib-01" },
		{ IBTOPO_NODE_SWITCH, 0xe41d2d030003e470,
		  "SwitchIB Mellanox Technologies", "SwitchIB e470" },
		{ IBTOPO_NODE_SWITCH, 0x13, "Voltaire 4036 # hoibp0013", "hoibp0013" },
		{ IBTOPO_NODE_SWITCH, 0x8f10500200b50,
		  "Voltaire 4036 - 36 QDR ports switch", "Voltaire 4036 0b50" },
		{ IBTOPO_NODE_SWITCH, 0x15, " 5FB0406-spine-IB02 ", "5FB0406-\\nspine-IB02" },
		{ IBTOPO_NODE_SWITCH, 0x16, "", "switch 0016" },
		{ IBTOPO_NODE_CA, 0x21, "host001 mlx5_0", "host001" },
		{ IBTOPO_NODE_CA, 0x22, "a06-p1-dgx-02-c01 HCA-6", "a06-p1-dgx-02-c01 HCA-6" },
		{ IBTOPO_NODE_CA, 0x23, "a06-p1-dgx-02-c01 HCA-1", "a06-p1-dgx-02-c01 HCA-1" },
		{ IBTOPO_NODE_CA, 0xe09d730300858d88,
		  "MT4129 ConnectX7   Mellanox Technologies", "ConnectX7 8d88" },
		{ IBTOPO_NODE_CA, 0x3048c707b60000,
		  "MT25408 ConnectX Mellanox Technologies", "ConnectX 07b6" },
		{ IBTOPO_NODE_CA, 0x26, "a-very-long-host-name-that-goes-on-and-on mlx5_0",
		  "a-very-long-host-name-that-\xe2\x80\xa6" },
	};
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sharp, *sw;
	char want[128], *dot;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(cases); i++)
		node(f, cases[i].type, cases[i].guid, 2, cases[i].desc);
	/* a SHARP aggregation node on a switch is part of the switch */
	sw = ibtopo_fabric_find_node(f, 0x11);
	sharp = node(f, IBTOPO_NODE_CA, 0x31, 1,
		     "Mellanox Technologies Aggregation Node");
	link_at(f, sw, 2, sharp, 1, IBTOPO_SPEED_NDR);
	dot = dot_of(f, NULL);
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(cases); i++) {
		snprintf(want, sizeof(want), "n%016" PRIx64 " [label=\"%s\",",
			 cases[i].guid, cases[i].label);
		if (!strstr(dot, want))
			fail_msg("no %s", want);
	}
	assert_null(strstr(dot, "n0000000000000031"));
	assert_non_null(strstr(dot, "6 switches, 6 hosts (+1 SHARP), 1 link<"));
	free(dot);
	ibtopo_fabric_free(f);
}

/*
 * Issue 14 item 3: descriptions that share a long start keep the part
 * that tells them apart; the GUID tail only where nothing else differs.
 */
static void labels_tell_nodes_apart(void **state)
{
	static const struct {
		uint64_t guid, sysimg;
		const char *desc, *label;
	} cases[] = {
		/* avakas: chips of one QLogic director */
		{ 0x11750000ffd9b9, 0x11750000ffd9b8,
		  "QLogic 12800-180 GUID=0x0011750000ffd9b8 L116", "L116" },
		{ 0x11750000ffd9ba, 0x11750000ffd9b8,
		  "QLogic 12800-180 GUID=0x0011750000ffd9b8 L117", "L117" },
		{ 0x11750000ffd9bb, 0x11750000ffd9b8,
		  "QLogic 12800-180 GUID=0x0011750000ffd9b8 S209A", "S209A" },
		/* the same names outside a chassis: what differs stays */
		{ 0x11750000ffe001, 0,
		  "QLogic 12800-040 GUID=0x0011750000ffe000 L101",
		  "QLogic\xe2\x80\xa6L101" },
		{ 0x11750000ffe002, 0,
		  "QLogic 12800-040 GUID=0x0011750000ffe000 L102",
		  "QLogic\xe2\x80\xa6L102" },
		/* NDR: two ASICs of one box, one name */
		{ 0xb83fd20300a1b2c0, 0, "MF0;sw:MQM9790/U1", "sw U1" },
		{ 0xb83fd20300a1b2c8, 0, "MF0;sw:MQM9790/U2", "sw U2" },
		/* nothing differs but the GUID */
		{ 0x248a070300f1e201, 0, "MF0;twin:MQM8700/U1", "twin e201" },
		{ 0x248a070300f1e202, 0, "MF0;twin:MQM8700/U1", "twin e202" },
		/* long and alone: cut */
		{ 0x31, 0, "a-switch-with-a-very-long-name-indeed",
		  "a-switch-with-a-\\nvery-long-n\xe2\x80\xa6" },
	};
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *n;
	char want[160], *dot;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(cases); i++) {
		n = node(f, IBTOPO_NODE_SWITCH, cases[i].guid, 36, cases[i].desc);
		if (cases[i].sysimg)
			n->sysimg_guid = cases[i].sysimg;
	}
	dot = dot_of(f, NULL);
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(cases); i++) {
		snprintf(want, sizeof(want), "n%016" PRIx64 " [label=\"%s\",",
			 cases[i].guid, cases[i].label);
		if (!strstr(dot, want))
			fail_msg("no %s", want);
	}
	/* the chassis box says what the chips leave out */
	assert_non_null(strstr(dot, "label=\"QLogic 12800-180 "
				    "GUID=0x0011750000ffd9b8\";"));
	free(dot);
	ibtopo_fabric_free(f);
}

static void diff_draws_removed_links_and_nodes_dashed(void **state)
{
	struct ibtopo_fabric *old = small_fabric(8, false);
	struct ibtopo_fabric *cur = small_fabric(7, false);
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analysis *oa = NULL;
	char *dot;

	(void)state;
	/* host008 went away; a new cable leaf01-spine02 port 30 came */
	link_at(cur, ibtopo_fabric_find_node(cur, LEAF(0)), 230,
		ibtopo_fabric_find_node(cur, SPINE(1)), 30, IBTOPO_SPEED_HDR);
	ibtopo_fabric_sort(old);
	ibtopo_fabric_sort(cur);
	assert_int_equal(test_diff(&fs, old, cur, NULL, &err), 0);
	assert_int_equal(ibtopo_analysis_new(&oa, old, NULL, &err), 0);
	d.findings = &fs;
	d.other = oa;
	d.subtitle = "old -> new";
	dot = dot_of(cur, &d);
	ibtopo_analysis_free(oa);
	check_golden("rd-diff.dot", dot);
	assert_non_null(strstr(dot, "x0000000000001007 [label=\"host008\", "
				    "shape=ellipse, style=dashed"));
	assert_non_null(strstr(dot, "n0000000000000203 -> x0000000000001007 "
				    "[color=\"#d62728\", fontcolor=\"#d62728\", "
				    "style=dashed"));
	assert_non_null(strstr(dot, "n0000000000000101 -> n0000000000000200 "
				    "[color=\"#2ca02c\""));
	free(dot);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(cur);
	ibtopo_fabric_free(old);
}

static void plan_draws_missing_links_dashed(void **state)
{
	struct ibtopo_fabric *f = small_fabric(4, false);
	struct ibtopo_findings fs = IBTOPO_FINDINGS_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_finding mis = { .kind = IBTOPO_FIND_MISWIRED_LINK };
	char *dot;

	(void)state;
	/* planned: host002 on leaf03 port 9; found on leaf02 port 1 */
	mis.a.guid = HOST(1);
	mis.a.port = 1;
	mis.b.guid = LEAF(1);
	mis.b.port = 1;
	mis.c = mis.a;
	mis.d.guid = LEAF(2);
	mis.d.port = 9;
	mis.subkind = IBTOPO_MOVE_ONE_END;
	assert_int_equal(ibtopo_findings_add(&fs, &mis, NULL), 0);
	add_finding(&fs, IBTOPO_FIND_MISSING_LINK, SPINE(1), 20, LEAF(3), 230);
	add_finding(&fs, IBTOPO_FIND_MISSING_NODE, 0x9999, -1, 0, -1);
	fs.items[2].a.node = "MF0;leaf05:MQM8700/U1";
	fs.items[2].b.port = -1;
	d.findings = &fs;
	d.flags = IBTOPO_DIAGRAM_NO_LEGEND;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "n0000000000000201 -> n0000000000001001 "
				    "[color=\"#e377c2\""));
	assert_non_null(strstr(dot, "n0000000000000202 -> n0000000000001001 "
				    "[color=\"#d62728\", fontcolor=\"#d62728\", "
				    "style=dashed"));
	assert_non_null(strstr(dot, "n0000000000000101 -> n0000000000000203 "
				    "[color=\"#d62728\", fontcolor=\"#d62728\", "
				    "style=dashed"));
	/* a missing node the plan is not there to describe: its name */
	assert_non_null(strstr(dot, "x0000000000009999 [label=\"leaf05\""));
	free(dot);
	ibtopo_findings_release(&fs);
	ibtopo_fabric_free(f);
}

static void focus_draws_the_neighbourhood(void **state)
{
	struct ibtopo_fabric *f = small_fabric(8, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer b = { 0 };
	struct ibtopo_sink o = test_sink(&b, IBTOPO_FORMAT_TEXT);
	char *dot;

	(void)state;
	d.focus = "leaf01";
	d.depth = 1;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "n0000000000000200 [label=\"leaf01\""));
	assert_non_null(strstr(dot, "n0000000000000100 [label=\"spine01\""));
	assert_non_null(strstr(dot, "n0000000000001004 [label=\"host005\""));
	assert_null(strstr(dot, "[label=\"leaf02\""));
	assert_null(strstr(dot, "[label=\"host002\""));
	assert_non_null(strstr(dot, "around leaf01, 1 hop</FONT>"));
	free(dot);
	/* by GUID, default depth 2: the other leaves, not their hosts */
	d.focus = "0x1000";
	d.depth = 0;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "[label=\"leaf01\""));
	assert_null(strstr(dot, "[label=\"leaf02\""));
	free(dot);
	d.focus = "MF0;spine02:MQM8700/U1";
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "[label=\"leaf04\""));
	assert_non_null(strstr(dot, "[label=\"host008\""));
	free(dot);
	d.focus = "nosuchnode";
	assert_int_equal(test_diagram_dot(&o, f, &d, &err), IBTOPO_ENOTFOUND);
	assert_string_equal(err.message, "no node 'nosuchnode' in the fabric");
	free(b.text);
	ibtopo_fabric_free(f);
}

static void bad_arguments_and_sink_errors(void **state)
{
	struct ibtopo_fabric *f = small_fabric(2, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer b = { .limit = 16 };
	struct ibtopo_sink o = test_sink(&b, IBTOPO_FORMAT_TEXT);

	(void)state;
	assert_int_equal(test_diagram_dot(NULL, f, &d, &err), IBTOPO_EINVAL);
	assert_int_equal(test_diagram_dot(&o, NULL, &d, &err), IBTOPO_EINVAL);
	d.version = 99;
	assert_int_equal(test_diagram_dot(&o, f, &d, &err), IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "version 99"));
	d.version = IBTOPO_DIAGRAM_OPTS_VERSION;
	assert_int_equal(test_diagram_dot(&o, f, &d, &err), IBTOPO_EIO);
	assert_non_null(strstr(err.message, "writing the diagram"));
	free(b.text);
	ibtopo_fabric_free(f);
}

static void empty_fabric_draws_a_title(void **state)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	char *dot;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	d.hosts = IBTOPO_HOSTS_COLLAPSE;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "0 switches, 0 hosts, 0 links"));
	assert_null(strstr(dot, "->"));
	free(dot);
	ibtopo_fabric_free(f);
}

static void layout_sfdp_above_1000_nodes(void **state)
{
	struct ibtopo_fabric *f = small_fabric(100, false);
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	char *dot;

	(void)state;
	for (unsigned i = 0; i < 995; i++)	/* unlinked switches */
		node(f, IBTOPO_NODE_SWITCH, 0x100000u + i, 36, "");
	d.detail = IBTOPO_DETAIL_SWITCHES;	/* not the overview */
	dot = dot_of(f, &d);	/* 1001 switches, 4 host blocks */
	assert_non_null(strstr(dot, "layout=sfdp"));
	assert_null(strstr(dot, "rank=same"));
	free(dot);
	d.layout = IBTOPO_LAYOUT_DOT;
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "layout=dot"));
	free(dot);
	d.layout = IBTOPO_LAYOUT_AUTO;
	d.focus = "leaf01";	/* few nodes */
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "layout=dot"));
	free(dot);
	ibtopo_fabric_free(f);
}

/* ---- images through libgvc ---- */

static char tmpdir[64];

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s", "/tmp/test_render.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	static const char *const names[] = { "a.svg", "a.png", "a.pdf",
					     "a.dot", "a.gv", "a.html", "a.htm" };
	char p[128];

	(void)state;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(names); i++) {
		snprintf(p, sizeof(p), "%s/%s", tmpdir, names[i]);
		unlink(p);
	}
	return rmdir(tmpdir);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return s;
}

static void images_in_every_format(void **state)
{
	static const struct {
		const char *name, *format, *magic;
		size_t mlen;
	} cases[] = {
		{ "a.svg", NULL, "<?xml", 5 },
		{ "a.png", NULL, "\x89PNG\r\n\x1a\n", 8 },
		{ "a.pdf", NULL, "%PDF-", 5 },
		{ "a.gv", "svg", "<?xml", 5 },
		{ "a.html", NULL, "<!DOCTYPE html>", 15 },
		{ "a.htm", NULL, "<!DOCTYPE html>", 15 },
	};
	struct ibtopo_fabric *f = small_fabric(8, false);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char path[128], *s, *dot;
	size_t len;

	(void)state;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(cases); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, cases[i].name);
		if (test_diagram_image(path, cases[i].format, f, NULL, &err))
			fail_msg("%s: %s", cases[i].name, err.message);
		s = slurp(path, &len);
		assert_true(len > 1000);
		assert_memory_equal(s, cases[i].magic, cases[i].mlen);
		if (strstr(cases[i].magic, "xml") || strstr(cases[i].magic, "html"))
			assert_non_null(strstr(s, "<title>n0000000000000200</title>"));
		if (strstr(cases[i].magic, "html")) {
			/* self-contained: the SVG inline, nothing fetched */
			assert_non_null(strstr(s, "<svg"));
			assert_null(strstr(s, "<?xml"));
			assert_null(strstr(s, "src=\""));
			assert_non_null(strstr(s, "<input type=\"search\""));
		}
		free(s);
	}
	/* .dot is test_diagram_dot()'s text */
	snprintf(path, sizeof(path), "%s/a.dot", tmpdir);
	assert_int_equal(test_diagram_image(path, NULL, f, NULL, &err), 0);
	s = slurp(path, &len);
	dot = dot_of(f, NULL);
	assert_string_equal(s, dot);
	free(dot);
	free(s);
	ibtopo_fabric_free(f);
}

/* Quotes, backslashes and HTML metacharacters in names survive graphviz. */
static void odd_characters_are_escaped(void **state)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_node *sw, *h;
	char path[128], *s, *dot;
	size_t len;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	sw = node(f, IBTOPO_NODE_SWITCH, 0x1, 40, "MF0;s\"w\\1<&>:X/U1");
	for (unsigned i = 0; i < 40; i++) {	/* enough for a block */
		char desc[64];

		snprintf(desc, sizeof(desc), "h<%u>&\"\\ mlx5_0", i);
		h = node(f, IBTOPO_NODE_CA, 0x100 + i, 1, desc);
		link_at(f, sw, 1 + i, h, 1, IBTOPO_SPEED_HDR);
	}
	assert_int_equal(ibtopo_fabric_set_label(f, "a <b> & \"c\"", NULL), 0);
	d.title = "<&>";
	dot = dot_of(f, &d);
	assert_non_null(strstr(dot, "[label=\"s\\\"w\\\\1<&>\""));
	assert_non_null(strstr(dot, ">h&lt;1&gt;&amp;&quot;\\<"));
	assert_non_null(strstr(dot, "<B>&lt;&amp;&gt;</B>"));
	assert_non_null(strstr(dot, "\xe2\x80\x9c" "a &lt;b&gt; &amp; &quot;c&quot;"));
	free(dot);
	snprintf(path, sizeof(path), "%s/a.svg", tmpdir);
	if (test_diagram_image(path, NULL, f, &d, &err))
		fail_msg("%s", err.message);
	s = slurp(path, &len);
	assert_non_null(strstr(s, "s&quot;w\\1&lt;&amp;&gt;"));
	free(s);
	/* HTML: a name cannot end the script that holds the data */
	assert_int_equal(ibtopo_fabric_set_label(f, "</script><b>", NULL), 0);
	node(f, IBTOPO_NODE_CA, 0x999, 1, "</script><i>x mlx5_0");
	snprintf(path, sizeof(path), "%s/a.html", tmpdir);
	if (test_diagram_image(path, NULL, f, &d, &err))
		fail_msg("%s", err.message);
	s = slurp(path, &len);
	assert_null(strstr(s, "</script><i>"));
	assert_non_null(strstr(s, "<\\/script><i>x mlx5_0"));
	assert_non_null(strstr(s, "&lt;/script&gt;&lt;i&gt;x"));
	free(s);
	ibtopo_fabric_free(f);
}

static void image_errors_name_the_file(void **state)
{
	struct ibtopo_fabric *f = small_fabric(2, false);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char path[128];

	(void)state;
	assert_int_equal(test_diagram_image("x.jpg", NULL, f, NULL, &err),
			 IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "'x.jpg'"));
	assert_int_equal(test_diagram_image("x", NULL, f, NULL, &err),
			 IBTOPO_EINVAL);
	assert_int_equal(test_diagram_image("x.svg", "gif", f, NULL, &err),
			 IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "'gif'"));
	snprintf(path, sizeof(path), "%s/no/such/dir/a.svg", tmpdir);
	assert_int_equal(test_diagram_image(path, NULL, f, NULL, &err),
			 IBTOPO_EIO);
	assert_non_null(strstr(err.message, path));
	snprintf(path, sizeof(path), "%s/no/such/dir/a.dot", tmpdir);
	assert_int_equal(test_diagram_image(path, NULL, f, NULL, &err),
			 IBTOPO_EIO);
	assert_int_equal(test_diagram_image(NULL, NULL, f, NULL, &err),
			 IBTOPO_EINVAL);
	ibtopo_fabric_free(f);
}

int main(void)
{
	/* one group: the TAP driver takes one plan per test program */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_small_fabric_with_findings),
		cmocka_unit_test(same_fabric_any_order_same_bytes),
		cmocka_unit_test(hosts_collapse_above_200),
		cmocka_unit_test(hosts_in_blocks_problems_in_their_cell),
		cmocka_unit_test(heat_scales_against_perfect_balance),
		cmocka_unit_test(overview_draws_a_bad_cable_apart_from_its_bundle),
		cmocka_unit_test(scene_is_data_a_writer_walks),
		cmocka_unit_test(golden_director_is_a_cluster),
		cmocka_unit_test(labels_are_the_readable_part),
		cmocka_unit_test(labels_tell_nodes_apart),
		cmocka_unit_test(diff_draws_removed_links_and_nodes_dashed),
		cmocka_unit_test(plan_draws_missing_links_dashed),
		cmocka_unit_test(focus_draws_the_neighbourhood),
		cmocka_unit_test(bad_arguments_and_sink_errors),
		cmocka_unit_test(empty_fabric_draws_a_title),
		cmocka_unit_test(layout_sfdp_above_1000_nodes),
		cmocka_unit_test_setup_teardown(images_in_every_format,
						setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(image_errors_name_the_file,
						setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(odd_characters_are_escaped,
						setup_tmp, teardown_tmp),
	};

	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
