/*
 * test_findings.c - the table of finding kinds (lib/findings/) and
 * ibtopo_analyze(), the entry point that runs every analysis.
 */
#include "findings/findings-int.h"
#include "analysis/analysis-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

#define DATA TEST_SRCDIR "/tests/data/"

/*
 * The names are part of the JSON and CSV schema: a kind's name never
 * changes. Indexed by enum ibtopo_finding_kind.
 */
static const char *const stable_names[IBTOPO_FIND_KIND_MAX_] = {
	[IBTOPO_FIND_SPEED_DOWNGRADE] = "speed-downgrade",
	[IBTOPO_FIND_WIDTH_DOWNGRADE] = "width-downgrade",
	[IBTOPO_FIND_CABLE_OVER_LENGTH] = "cable-over-length",
	[IBTOPO_FIND_CABLE_UNDERRATED] = "cable-underrated",
	[IBTOPO_FIND_LOOPBACK_CABLE] = "loopback-cable",
	[IBTOPO_FIND_LOW_PATH_DIVERSITY] = "low-path-diversity",
	[IBTOPO_FIND_FAT_TREE_VIOLATION] = "fat-tree-violation",
	[IBTOPO_FIND_MISSING_LINK] = "missing-link",
	[IBTOPO_FIND_EXTRA_LINK] = "extra-link",
	[IBTOPO_FIND_MISWIRED_LINK] = "miswired-link",
	[IBTOPO_FIND_MISSING_NODE] = "missing-node",
	[IBTOPO_FIND_EXTRA_NODE] = "extra-node",
	[IBTOPO_FIND_SPEED_BELOW_PLAN] = "speed-below-plan",
	[IBTOPO_FIND_WIDTH_BELOW_PLAN] = "width-below-plan",
	[IBTOPO_FIND_NODE_ADDED] = "node-added",
	[IBTOPO_FIND_NODE_REMOVED] = "node-removed",
	[IBTOPO_FIND_NODE_RENAMED] = "node-renamed",
	[IBTOPO_FIND_LINK_ADDED] = "link-added",
	[IBTOPO_FIND_LINK_REMOVED] = "link-removed",
	[IBTOPO_FIND_LINK_MOVED] = "link-moved",
	[IBTOPO_FIND_LINK_SPEED_CHANGED] = "link-speed-changed",
	[IBTOPO_FIND_LINK_WIDTH_CHANGED] = "link-width-changed",
	[IBTOPO_FIND_PORT_STATE_CHANGED] = "port-state-changed",
	[IBTOPO_FIND_LID_CHANGED] = "lid-changed",
	[IBTOPO_FIND_PORT_ERRORS] = "port-errors",
	[IBTOPO_FIND_PORT_ERROR_RATE] = "port-error-rate",
	[IBTOPO_FIND_LINK_FLAPPING] = "link-flapping",
	[IBTOPO_FIND_CABLE_ROW_UNMATCHED] = "cable-row-unmatched",
	[IBTOPO_FIND_RAIL_MISMATCH] = "rail-mismatch",
	[IBTOPO_FIND_FAILING_CABLE] = "failing-cable",
	[IBTOPO_FIND_DRAGONFLY_VIOLATION] = "dragonfly-violation",
	[IBTOPO_FIND_ROUTE_BLACK_HOLE] = "route-black-hole",
	[IBTOPO_FIND_ROUTE_LOOP] = "route-loop",
	[IBTOPO_FIND_ROUTE_NOT_MINIMAL] = "route-not-minimal",
	[IBTOPO_FIND_CREDIT_LOOP] = "credit-loop",
	[IBTOPO_FIND_ROUTE_CHANGED] = "route-changed",
	[IBTOPO_FIND_ROUTE_LOAD_CHANGED] = "route-load-changed",
	[IBTOPO_FIND_CABLE_NOT_CHECKED] = "cable-not-checked",
	[IBTOPO_FIND_PORT_NOT_ACTIVE] = "port-not-active",
	[IBTOPO_FIND_HIGH_BER] = "high-ber",
	[IBTOPO_FIND_CONGESTED_PORT] = "congested-port",
	[IBTOPO_FIND_DUPLICATE_NODE_GUID] = "duplicate-node-guid",
	[IBTOPO_FIND_DUPLICATE_PORT_GUID] = "duplicate-port-guid",
	[IBTOPO_FIND_DUPLICATE_LID] = "duplicate-lid",
	[IBTOPO_FIND_DUPLICATE_NODE_DESC] = "duplicate-node-desc",
	[IBTOPO_FIND_MTU_MISMATCH] = "mtu-mismatch",
	[IBTOPO_FIND_VL_MISMATCH] = "vl-mismatch",
	[IBTOPO_FIND_SM_STATE] = "sm-state",
	[IBTOPO_FIND_FIRMWARE_MISMATCH] = "firmware-mismatch",
	[IBTOPO_FIND_PKEY_SWITCH_DROP] = "pkey-switch-drop",
	[IBTOPO_FIND_PKEY_NO_FULL_MEMBER] = "pkey-no-full-member",
	[IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED] = "pkey-membership-mixed",
	[IBTOPO_FIND_MCAST_UNREACHED] = "mcast-unreached",
	[IBTOPO_FIND_MCAST_LOOP] = "mcast-loop",
	[IBTOPO_FIND_MCAST_DEAD_END] = "mcast-dead-end",
	[IBTOPO_FIND_MCAST_DISCONNECTED] = "mcast-disconnected",
};

static void every_kind_has_name_sentence_and_mark(void **state)
{
	(void)state;
	for (int k = 1; k < IBTOPO_FIND_KIND_MAX_; k++) {
		const struct ibtopo__finding_kind *d = ibtopo__finding_kind(k);

		if (!d)
			fail_msg("kind %d is not registered in kinds.c", k);
		assert_int_equal(d->kind, k);
		assert_non_null(d->name);
		assert_true(d->name[0] != '\0');
		assert_non_null(d->sentence);
		assert_true(d->severity <= IBTOPO_SEV_ERROR);
		assert_true(d->draw < IBTOPO__DRAW_MAX_);
	}
}

static void kind_names_are_stable(void **state)
{
	(void)state;
	for (int k = 1; k < IBTOPO_FIND_KIND_MAX_; k++)
		assert_string_equal(ibtopo_finding_kind_name(k), stable_names[k]);
}

static void kind_names_are_unique(void **state)
{
	(void)state;
	for (int a = 1; a < IBTOPO_FIND_KIND_MAX_; a++)
		for (int b = a + 1; b < IBTOPO_FIND_KIND_MAX_; b++)
			if (strcmp(ibtopo_finding_kind_name(a),
				   ibtopo_finding_kind_name(b)) == 0)
				fail_msg("kinds %d and %d are both '%s'", a, b,
					 ibtopo_finding_kind_name(a));
}

static void unregistered_kinds_are_unknown(void **state)
{
	struct ibtopo_finding f;
	char buf[64];

	(void)state;
	assert_null(ibtopo__finding_kind(0));
	assert_null(ibtopo__finding_kind(IBTOPO_FIND_KIND_MAX_));
	assert_string_equal(ibtopo_finding_kind_name(0), "unknown");
	assert_string_equal(ibtopo_finding_kind_name(IBTOPO_FIND_KIND_MAX_),
			    "unknown");
	ibtopo__finding_init(&f, IBTOPO_FIND_KIND_MAX_);
	assert_int_equal(ibtopo_finding_message(buf, sizeof(buf), &f), 7);
	assert_string_equal(buf, "unknown");
	assert_int_equal(ibtopo_finding_message(buf, sizeof(buf), NULL),
			 IBTOPO_EINVAL);
}

/* A blank finding of every kind reads as a sentence, not as its name. */
static void every_kind_words_a_blank_finding(void **state)
{
	(void)state;
	for (int k = 1; k < IBTOPO_FIND_KIND_MAX_; k++) {
		struct ibtopo_finding f;
		char buf[512];
		int n;

		ibtopo__finding_init(&f, k);
		n = ibtopo_finding_message(buf, sizeof(buf), &f);
		assert_true(n > 0 && (size_t)n < sizeof(buf));
		assert_int_equal(strlen(buf), (size_t)n);
		if (strcmp(buf, ibtopo_finding_kind_name(k)) == 0)
			fail_msg("kind '%s' has no sentence", buf);
		/* snprintf semantics: a short buffer is cut, the length kept */
		assert_int_equal(ibtopo_finding_message(buf, 4, &f), n);
		assert_int_equal(strlen(buf), 3);
	}
}

static void init_sets_default_severity_and_no_ends(void **state)
{
	(void)state;
	for (int k = 1; k < IBTOPO_FIND_KIND_MAX_; k++) {
		struct ibtopo_finding f;

		memset(&f, 0x5a, sizeof(f));
		ibtopo__finding_init(&f, k);
		assert_int_equal(f.kind, k);
		assert_int_equal(f.severity, ibtopo__finding_kind(k)->severity);
		assert_int_equal(f.a.port, -1);
		assert_int_equal(f.b.port, -1);
		assert_int_equal(f.c.port, -1);
		assert_int_equal(f.d.port, -1);
		assert_null(f.a.node);
		assert_int_equal(f.d.guid, 0);
		assert_int_equal(f.subkind, 0);
		assert_null(f.note);
	}
}

/* ---- ibtopo_analyze() ---- */

static struct ibtopo_fabric *load(const char *name)
{
	return test_fabric_read(name, NULL);
}

static void assert_same_findings(const struct ibtopo_findings *a,
				 const struct ibtopo_findings *b)
{
	assert_int_equal(a->count, b->count);
	for (size_t i = 0; i < a->count; i++) {
		const struct ibtopo_finding *x = &a->items[i], *y = &b->items[i];
		const struct ibtopo_end *ex[] = { &x->a, &x->b, &x->c, &x->d };
		const struct ibtopo_end *ey[] = { &y->a, &y->b, &y->c, &y->d };

		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->severity, y->severity);
		assert_int_equal(x->subkind, y->subkind);
		assert_memory_equal(&x->num, &y->num, sizeof(x->num));
		assert_int_equal(x->evidence, y->evidence);
		assert_int_equal(x->cause, y->cause);
		assert_ptr_equal(x->note, y->note);
		for (size_t e = 0; e < 4; e++) {
			assert_ptr_equal(ex[e]->node, ey[e]->node);
			assert_int_equal(ex[e]->guid, ey[e]->guid);
			assert_int_equal(ex[e]->port, ey[e]->port);
		}
	}
}

/* What the commands chained by hand: checks, then topology. */
static void analyze_equals_checks_then_topology(void **state)
{
	static const char *const files[] = {
		DATA "ck-ddr-info.topo", DATA "rd-small.topo",
		DATA "ck-cables.topo",
	};

	(void)state;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(files); i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_fabric *f = load(files[i]);
		struct ibtopo_findings want = IBTOPO_FINDINGS_INIT;
		const struct ibtopo_findings *all;
		struct ibtopo_topology *topo = NULL;
		const struct ibtopo_topology *t;
		struct ibtopo_analysis *an = NULL;

		assert_int_equal(ibtopo_check_links(&want, f, NULL, &err), 0);
		assert_int_equal(ibtopo_topology_analyze(&topo, f, NULL, &want,
							 &err), 0);
		assert_int_equal(ibtopo_analyze(&an, f, NULL, &err), 0);
		assert_non_null(an);
		assert_ptr_equal(ibtopo_analysis_fabric(an), f);
		assert_int_equal(ibtopo_analysis_topology(an, &t, &err), 0);
		assert_non_null(t);
		assert_int_equal(ibtopo_topology_class(t),
				 ibtopo_topology_class(topo));
		assert_int_equal(ibtopo_topology_levels(t),
				 ibtopo_topology_levels(topo));
		assert_true(want.count > 0);
		assert_int_equal(ibtopo_analysis_findings(an, &all, &err), 0);
		assert_same_findings(all, &want);
		ibtopo_analysis_free(an);
		ibtopo_topology_free(topo);
		ibtopo_findings_release(&want);
		ibtopo_fabric_free(f);
	}
}

static const struct ibtopo_findings *findings_of(struct ibtopo_analysis *an)
{
	const struct ibtopo_findings *all = NULL;

	assert_int_equal(ibtopo_analysis_findings(an, &all, NULL), 0);
	return all;
}

static const struct ibtopo_topology *topology_of(struct ibtopo_analysis *an)
{
	const struct ibtopo_topology *t = (void *)1;

	assert_int_equal(ibtopo_analysis_topology(an, &t, NULL), 0);
	return t;
}

static void analyze_flags_skip_analyses(void **state)
{
	struct ibtopo_analyze_opts o = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = load(DATA "ck-ddr-info.topo");
	struct ibtopo_findings want = IBTOPO_FINDINGS_INIT;
	const struct ibtopo_findings *all;
	struct ibtopo_analysis *an = NULL;

	(void)state;
	assert_int_equal(ibtopo_check_links(&want, f, NULL, &err), 0);
	o.flags = IBTOPO_ANALYZE_NO_TOPOLOGY;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_null(topology_of(an));
	assert_same_findings(findings_of(an), &want);
	ibtopo_analysis_free(an);

	o.flags = IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_TOPOLOGY;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_null(topology_of(an));
	assert_int_equal(findings_of(an)->count, 0);
	ibtopo_analysis_free(an);

	o.flags = IBTOPO_ANALYZE_NO_CHECKS;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_non_null(topology_of(an));
	all = findings_of(an);
	for (size_t i = 0; i < all->count; i++) {
		enum ibtopo_finding_kind k = all->items[i].kind;

		assert_true(k == IBTOPO_FIND_LOW_PATH_DIVERSITY ||
			    k == IBTOPO_FIND_FAT_TREE_VIOLATION);
	}
	ibtopo_analysis_free(an);
	ibtopo_findings_release(&want);
	ibtopo_fabric_free(f);
}

/* -v's lines: each section once, however often it is asked for */
static void count_line(void *ctx, const char *line)
{
	char **log = ctx;
	size_t n = *log ? strlen(*log) : 0;
	char *p = realloc(*log, n + strlen(line) + 2);

	assert_non_null(p);
	sprintf(p + n, "%s\n", line);
	*log = p;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * Each section is computed on first use and kept: asked for twice, or
 * by a section that needs it (routes and health need the levels), it is
 * computed once and handed out as the same result; a section the flags
 * skip is NULL; nothing runs before it is asked for.
 */
static void analysis_computes_each_section_once(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = load(DATA "ck-ddr-info.topo");
	const struct ibtopo_topology *t1, *t2;
	const struct ibtopo_routes *r = (void *)1;
	const struct ibtopo_health *h = (void *)1;
	const struct ibtopo_findings *l1, *l2, *all;
	struct ibtopo_analysis *an = NULL;
	char *log = NULL;

	(void)state;
	assert_int_equal(ibtopo_analysis_new(&an, f, NULL, &err), 0);
	ibtopo_analysis_set_log(an, count_line, &log);
	assert_null(log);	/* nothing computed yet */
	assert_int_equal(ibtopo_analysis_topology(an, &t1, &err), 0);
	assert_int_equal(ibtopo_analysis_topology(an, &t2, &err), 0);
	assert_non_null(t1);
	assert_ptr_equal(t1, t2);
	assert_int_equal(count_of(log, "topology: "), 1);
	assert_int_equal(count_of(log, "links: "), 0);
	assert_int_equal(ibtopo_analysis_links(an, &l1, &err), 0);
	assert_int_equal(ibtopo_analysis_links(an, &l2, &err), 0);
	assert_ptr_equal(l1, l2);
	/* no counters, no tables: no results, and no error */
	assert_int_equal(ibtopo_analysis_routes(an, &r, &err), 0);
	assert_null(r);
	assert_int_equal(ibtopo_analysis_health(an, &h, &err), 0);
	assert_null(h);
	assert_int_equal(ibtopo_analysis_findings(an, &all, &err), 0);
	assert_int_equal(ibtopo_analysis_findings(an, &l2, &err), 0);
	assert_ptr_equal(all, l2);
	assert_int_equal(count_of(log, "topology: "), 1);
	assert_int_equal(count_of(log, "links: "), 1);
	assert_int_equal(count_of(log, "routes: "), 1);
	assert_int_equal(count_of(log, "port health: "), 1);
	assert_non_null(strstr(log, " s\n"));
	assert_non_null(strstr(log, "links: "));
	/* input findings come after the collection: refused */
	assert_int_equal(ibtopo_analysis_note(an, l1, &err), IBTOPO_EINVAL);
	ibtopo_analysis_free(an);
	free(log);
	ibtopo_fabric_free(f);
}

/* A section that failed fails again with the same message, and the
 * findings too; the others still answer. */
static void analysis_keeps_a_failure(void **state)
{
	struct ibtopo_analyze_opts o = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = load(DATA "ck-ddr-info.topo");
	const struct ibtopo_findings *l;
	const struct ibtopo_topology *t;
	struct ibtopo_analysis *an = NULL;
	char first[IBTOPO_ERROR_SIZE];

	(void)state;
	o.topology.roots_file = "/nonexistent/roots";
	assert_int_equal(ibtopo_analysis_new(&an, f, &o, &err), 0);
	assert_int_equal(ibtopo_analysis_topology(an, &t, &err), IBTOPO_EIO);
	snprintf(first, sizeof(first), "%s", err.message);
	err = (struct ibtopo_error)IBTOPO_ERROR_INIT;
	assert_int_equal(ibtopo_analysis_topology(an, &t, &err), IBTOPO_EIO);
	assert_string_equal(err.message, first);
	assert_int_equal(ibtopo_analysis_findings(an, &l, &err), IBTOPO_EIO);
	assert_int_equal(ibtopo_analysis_links(an, &l, &err), 0);
	assert_non_null(l);
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(f);
}

static void analyze_refuses_bad_arguments(void **state)
{
	struct ibtopo_analyze_opts o = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = load(DATA "rd-small.topo");
	struct ibtopo_analysis *an = (void *)&o;

	(void)state;
	assert_int_equal(ibtopo_analyze(&an, NULL, NULL, &err), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_analyze(NULL, f, NULL, &err), IBTOPO_EINVAL);
	o.version = 99;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), IBTOPO_EINVAL);
	assert_null(an);
	assert_string_equal(err.message, "analyze options version 99 unknown");
	/* a failing analysis: its error, and no analysis */
	o.version = IBTOPO_ANALYZE_OPTS_VERSION;
	o.checks.reach_path = DATA "no-such-reach.tsv";
	an = (void *)&o;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), IBTOPO_EIO);
	assert_null(an);
	o.checks.reach_path = NULL;
	o.topology.root_pattern = "(";
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), IBTOPO_EINVAL);
	assert_null(an);
	/* version 2 reads the health thresholds; version 1 has none */
	o.topology.root_pattern = NULL;
	o.health.thresholds_path = DATA "no-such-thresholds";
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), IBTOPO_EIO);
	assert_null(an);
	o.version = 1;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	ibtopo_analysis_free(an);
	ibtopo_analysis_free(NULL);
	ibtopo_fabric_free(f);
}

/* The routing section takes the options' routes (version 3), as render
 * asks it for no bisections; version 2 callers get the defaults. */
static void analyze_passes_routing_options(void **state)
{
	struct ibtopo_analyze_opts o = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = load(DATA "ck-cables.topo");
	const struct ibtopo_routes *r;
	struct ibtopo_analysis *an = NULL;

	(void)state;
	assert_int_equal(ibtopo_routes_load(f, DATA "rt-ck-lfts.dump", NULL,
					    NULL, &err), 0);
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_int_equal(ibtopo_analysis_routes(an, &r, &err), 0);
	assert_non_null(r);
	assert_int_equal(r->bisections, 100);
	ibtopo_analysis_free(an);
	o.routes.bisections = 0;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_int_equal(ibtopo_analysis_routes(an, &r, &err), 0);
	assert_int_equal(r->bisections, 0);
	ibtopo_analysis_free(an);
	o.routes.version = 99;
	an = (void *)&o;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), IBTOPO_EINVAL);
	assert_null(an);
	o.version = 2;
	assert_int_equal(ibtopo_analyze(&an, f, &o, &err), 0);
	assert_int_equal(ibtopo_analysis_routes(an, &r, &err), 0);
	assert_int_equal(r->bisections, 100);
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(f);
}

/* ---- each kind's numbers under its documented JSON keys ---- */

/*
 * The family of each kind and the unit of its rate or change fields, as
 * <ibtopo/findings.h> documents them (IBTOPO__FAMILY_NONE: none).
 */
static const struct {
	enum ibtopo__family family;
	enum ibtopo__unit unit;
} documented[IBTOPO_FIND_KIND_MAX_] = {
	[IBTOPO_FIND_SPEED_DOWNGRADE] = { IBTOPO__FAMILY_RATE, IBTOPO__UNIT_SPEED },
	[IBTOPO_FIND_WIDTH_DOWNGRADE] = { IBTOPO__FAMILY_RATE, IBTOPO__UNIT_WIDTH },
	[IBTOPO_FIND_SPEED_BELOW_PLAN] = { IBTOPO__FAMILY_RATE, IBTOPO__UNIT_SPEED },
	[IBTOPO_FIND_WIDTH_BELOW_PLAN] = { IBTOPO__FAMILY_RATE, IBTOPO__UNIT_WIDTH },
	[IBTOPO_FIND_CABLE_UNDERRATED] = { IBTOPO__FAMILY_RATING, 0 },
	[IBTOPO_FIND_CABLE_OVER_LENGTH] = { IBTOPO__FAMILY_REACH, 0 },
	[IBTOPO_FIND_CABLE_NOT_CHECKED] = { IBTOPO__FAMILY_UNCHECKED, 0 },
	[IBTOPO_FIND_CABLE_ROW_UNMATCHED] = { IBTOPO__FAMILY_CABLE_ROW, 0 },
	[IBTOPO_FIND_NODE_ADDED] = { IBTOPO__FAMILY_LINKS, 0 },
	[IBTOPO_FIND_NODE_REMOVED] = { IBTOPO__FAMILY_LINKS, 0 },
	[IBTOPO_FIND_MISSING_NODE] = { IBTOPO__FAMILY_LINKS, 0 },
	[IBTOPO_FIND_EXTRA_NODE] = { IBTOPO__FAMILY_LINKS, 0 },
	[IBTOPO_FIND_CREDIT_LOOP] = { IBTOPO__FAMILY_LINKS, 0 },
	[IBTOPO_FIND_PORT_NOT_ACTIVE] = { IBTOPO__FAMILY_PORTS, 0 },
	[IBTOPO_FIND_LOW_PATH_DIVERSITY] = { IBTOPO__FAMILY_PATHS, 0 },
	[IBTOPO_FIND_FAT_TREE_VIOLATION] = { IBTOPO__FAMILY_TREE, 0 },
	[IBTOPO_FIND_RAIL_MISMATCH] = { IBTOPO__FAMILY_RAIL, 0 },
	[IBTOPO_FIND_DRAGONFLY_VIOLATION] = { IBTOPO__FAMILY_DRAGONFLY, 0 },
	[IBTOPO_FIND_LINK_SPEED_CHANGED] = { IBTOPO__FAMILY_CHANGE, IBTOPO__UNIT_SPEED },
	[IBTOPO_FIND_LINK_WIDTH_CHANGED] = { IBTOPO__FAMILY_CHANGE, IBTOPO__UNIT_WIDTH },
	[IBTOPO_FIND_PORT_STATE_CHANGED] = { IBTOPO__FAMILY_CHANGE, IBTOPO__UNIT_PORT_STATE },
	[IBTOPO_FIND_LID_CHANGED] = { IBTOPO__FAMILY_CHANGE, IBTOPO__UNIT_COUNT },
	[IBTOPO_FIND_ROUTE_LOAD_CHANGED] = { IBTOPO__FAMILY_CHANGE, IBTOPO__UNIT_COUNT },
	[IBTOPO_FIND_PORT_ERRORS] = { IBTOPO__FAMILY_COUNTER, 0 },
	[IBTOPO_FIND_FAILING_CABLE] = { IBTOPO__FAMILY_COUNTER, 0 },
	[IBTOPO_FIND_PORT_ERROR_RATE] = { IBTOPO__FAMILY_GROWTH, 0 },
	[IBTOPO_FIND_LINK_FLAPPING] = { IBTOPO__FAMILY_GROWTH, 0 },
	[IBTOPO_FIND_HIGH_BER] = { IBTOPO__FAMILY_MEASURE, 0 },
	[IBTOPO_FIND_CONGESTED_PORT] = { IBTOPO__FAMILY_MEASURE, 0 },
	[IBTOPO_FIND_ROUTE_BLACK_HOLE] = { IBTOPO__FAMILY_ROUTE, 0 },
	[IBTOPO_FIND_ROUTE_LOOP] = { IBTOPO__FAMILY_ROUTE, 0 },
	[IBTOPO_FIND_ROUTE_NOT_MINIMAL] = { IBTOPO__FAMILY_DETOUR, 0 },
	[IBTOPO_FIND_ROUTE_CHANGED] = { IBTOPO__FAMILY_ROUTE_CHANGE, 0 },
	[IBTOPO_FIND_MCAST_UNREACHED] = { IBTOPO__FAMILY_MCAST, 0 },
	[IBTOPO_FIND_MCAST_LOOP] = { IBTOPO__FAMILY_MCAST, 0 },
	[IBTOPO_FIND_MCAST_DEAD_END] = { IBTOPO__FAMILY_MCAST, 0 },
	[IBTOPO_FIND_MCAST_DISCONNECTED] = { IBTOPO__FAMILY_MCAST, 0 },
	[IBTOPO_FIND_DUPLICATE_PORT_GUID] = { IBTOPO__FAMILY_PORT_GUID, 0 },
	[IBTOPO_FIND_DUPLICATE_LID] = { IBTOPO__FAMILY_LIDS, 0 },
	[IBTOPO_FIND_DUPLICATE_NODE_DESC] = { IBTOPO__FAMILY_NODES, 0 },
	[IBTOPO_FIND_MTU_MISMATCH] = { IBTOPO__FAMILY_LINK_CAP, 0 },
	[IBTOPO_FIND_VL_MISMATCH] = { IBTOPO__FAMILY_LINK_CAP, 0 },
	[IBTOPO_FIND_SM_STATE] = { IBTOPO__FAMILY_SM, 0 },
	[IBTOPO_FIND_FIRMWARE_MISMATCH] = { IBTOPO__FAMILY_FIRMWARE, 0 },
	[IBTOPO_FIND_PKEY_SWITCH_DROP] = { IBTOPO__FAMILY_PKEY, 0 },
	[IBTOPO_FIND_PKEY_NO_FULL_MEMBER] = { IBTOPO__FAMILY_PKEY, 0 },
	[IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED] = { IBTOPO__FAMILY_PKEY, 0 },
};

/* Every key a finding's numbers can go to. */
static const char *const detail_keys[] = {
	"active", "expected", "rated_speed", "old", "new", "links", "paths",
	"min_paths", "media", "length_m", "reach_m", "counter", "count",
	"threshold", "growth", "rate_per_hour", "interval_h", "lid", "routes",
	"hops", "min_hops", "measure", "interval_s",
};

struct keyed {
	const char *key;
	char json[64];	/* what follows "key": */
};

/* A bit (or state, or number) in a kind's unit, as JSON writes it. */
static void in_unit(struct keyed *k, const char *key, enum ibtopo__unit unit,
		    int subkind, unsigned v)
{
	k->key = key;
	if (unit == IBTOPO__UNIT_SPEED)
		snprintf(k->json, sizeof(k->json), "\"%s\"", ibtopo_speed_name(v));
	else if (unit == IBTOPO__UNIT_WIDTH)
		snprintf(k->json, sizeof(k->json), "\"%s\"", ibtopo_width_name(v));
	else if (unit == IBTOPO__UNIT_PORT_STATE)
		snprintf(k->json, sizeof(k->json), "\"%s\"",
			 subkind == IBTOPO_STATE_PHYSICAL ?
				 ibtopo_phys_state_name(v) :
				 ibtopo_port_state_name(v));
	else
		snprintf(k->json, sizeof(k->json), "%u", v);
}

/* A key and what JSON writes after it, printf-like. */
static void key_is(struct keyed *k, const char *key, const char *fmt, ...)
{
	va_list ap;

	k->key = key;
	va_start(ap, fmt);
	vsnprintf(k->json, sizeof(k->json), fmt, ap);
	va_end(ap);
}

/*
 * Fill the finding's family through its named fields, each with a value
 * no other field has; out gets the keys the header documents for them
 * and what JSON must write there. Returns how many.
 */
static size_t fill(struct ibtopo_finding *f, enum ibtopo__family fam,
		   enum ibtopo__unit unit, struct keyed *out)
{
	union ibtopo_finding_num *n = &f->num;
	size_t k = 0;

	switch (fam) {
	case IBTOPO__FAMILY_RATE:
		n->rate.expected = 1u << 1;
		n->rate.active = 1u << 2;
		n->rate.model_links = 7;
		in_unit(&out[k++], "expected", unit, 0, 1u << 1);
		in_unit(&out[k++], "active", unit, 0, 1u << 2);
		break;
	case IBTOPO__FAMILY_RATING:
		n->rating.ports_speed = IBTOPO_SPEED_HDR;
		n->rating.rated_speed = IBTOPO_SPEED_EDR;
		in_unit(&out[k++], "expected", IBTOPO__UNIT_SPEED, 0, IBTOPO_SPEED_HDR);
		in_unit(&out[k++], "rated_speed", IBTOPO__UNIT_SPEED, 0, IBTOPO_SPEED_EDR);
		break;
	case IBTOPO__FAMILY_REACH:
		f->subkind = IBTOPO_MEDIA_AOC;
		n->reach.active_speed = IBTOPO_SPEED_NDR;
		n->reach.length_m = 12.5;
		n->reach.reach_m = 7.25;
		in_unit(&out[k++], "active", IBTOPO__UNIT_SPEED, 0, IBTOPO_SPEED_NDR);
		key_is(&out[k++], "media", "\"%s\"", ibtopo_media_name(IBTOPO_MEDIA_AOC));
		key_is(&out[k++], "length_m", "12.5");
		key_is(&out[k++], "reach_m", "7.25");
		break;
	case IBTOPO__FAMILY_UNCHECKED:
		n->unchecked.active_speed = IBTOPO_SPEED_FDR;
		n->unchecked.length_m = 3.5;
		in_unit(&out[k++], "active", IBTOPO__UNIT_SPEED, 0, IBTOPO_SPEED_FDR);
		break;
	case IBTOPO__FAMILY_LINKS:
		n->links.links = 13;
		key_is(&out[k++], "links", "13");
		break;
	case IBTOPO__FAMILY_PORTS:
		n->ports.links = 14;
		n->ports.word_a = 4;
		n->ports.word_b = 1u << 16 | 2;
		key_is(&out[k++], "links", "14");
		break;
	case IBTOPO__FAMILY_PATHS:
		n->paths.min_paths = 3;
		n->paths.paths = 2;
		n->paths.leaves = 5;
		key_is(&out[k++], "min_paths", "3");
		key_is(&out[k++], "paths", "2");
		break;
	case IBTOPO__FAMILY_RAIL:
		n->rail.expected = 6;
		n->rail.actual = 4;
		key_is(&out[k++], "expected", "6");
		break;
	case IBTOPO__FAMILY_CHANGE:
		n->change.before = unit == IBTOPO__UNIT_PORT_STATE ? 4 : 1u << 3;
		n->change.after = unit == IBTOPO__UNIT_PORT_STATE ? 2 : 1u << 1;
		in_unit(&out[k++], "old", unit, f->subkind, n->change.before);
		in_unit(&out[k++], "new", unit, f->subkind, n->change.after);
		break;
	case IBTOPO__FAMILY_COUNTER:
		f->subkind = IBTOPO_CTR_RCV_ERRORS;
		n->counter.count = 4242;
		n->counter.threshold = 17;
		n->counter.more_counters = 2;
		key_is(&out[k++], "counter", "\"%s\"",
		    ibtopo_counter_name(IBTOPO_CTR_RCV_ERRORS));
		key_is(&out[k++], "count", "4242");
		key_is(&out[k++], "threshold", "17");
		break;
	case IBTOPO__FAMILY_GROWTH:
		f->subkind = IBTOPO_CTR_LINK_DOWNED;
		n->growth.growth = 33;
		n->growth.rate_per_hour = 1.5;
		n->growth.interval_h = 0.75;
		key_is(&out[k++], "counter", "\"%s\"",
		    ibtopo_counter_name(IBTOPO_CTR_LINK_DOWNED));
		key_is(&out[k++], "growth", "33");
		key_is(&out[k++], "rate_per_hour", "1.5");
		key_is(&out[k++], "interval_h", "0.75");
		break;
	case IBTOPO__FAMILY_MEASURE:
		n->measure.measure = 0.25;
		n->measure.threshold = 0.125;
		n->measure.interval_ms = 2500;
		n->measure.count = 9;
		key_is(&out[k++], "measure", "0.25");
		key_is(&out[k++], "threshold", "0.125");
		key_is(&out[k++], "interval_s", "2.5");
		break;
	case IBTOPO__FAMILY_ROUTE:
		n->route.dlid = 4660;
		n->route.routes = 21;
		key_is(&out[k++], "lid", "4660");
		key_is(&out[k++], "routes", "21");
		break;
	case IBTOPO__FAMILY_DETOUR:
		n->detour.dlid = 77;
		n->detour.routes = 5;
		n->detour.min_hops = 4;
		n->detour.hops = 6;
		key_is(&out[k++], "lid", "77");
		key_is(&out[k++], "routes", "5");
		key_is(&out[k++], "min_hops", "4");
		key_is(&out[k++], "hops", "6");
		break;
	case IBTOPO__FAMILY_ROUTE_CHANGE:
		n->route_change.dlid = 88;
		n->route_change.old_port = 3;
		n->route_change.new_port = 9;
		n->route_change.switches = 2;
		key_is(&out[k++], "lid", "88");
		key_is(&out[k++], "old", "3");
		key_is(&out[k++], "new", "9");
		break;
	case IBTOPO__FAMILY_MCAST:
		n->mcast.mlid = 0xc001;
		n->mcast.count = 11;
		key_is(&out[k++], "lid", "%u", 0xc001u);
		break;
	case IBTOPO__FAMILY_LIDS:
		n->lids.lid = 55;
		n->lids.a_first = 50;
		n->lids.a_last = 57;
		n->lids.b_last = 58;
		key_is(&out[k++], "lid", "55");
		break;
	default:
		/* the families said in the message only: no key */
		break;
	}
	return k;
}

/* What JSON writes after "key": in the finding's object, or NULL. */
static const char *json_at(const char *obj, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(obj, pat);
	return p ? p + strlen(pat) : NULL;
}

static void every_kind_writes_its_family_under_its_keys(void **state)
{
	(void)state;
	for (int kind = 1; kind < IBTOPO_FIND_KIND_MAX_; kind++) {
		const struct ibtopo__finding_kind *k = ibtopo__finding_kind(kind);
		struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_buffer b = { 0 };
		struct ibtopo_sink o = test_sink(&b, IBTOPO_FORMAT_JSON);
		struct ibtopo_finding f;
		struct keyed want[8];
		const char *obj;
		size_t n;

		assert_non_null(k);
		if (k->family != documented[kind].family ||
		    k->unit != documented[kind].unit)
			fail_msg("%s: family %s, documented %s", k->name,
				 ibtopo__family_name(k->family),
				 ibtopo__family_name(documented[kind].family));
		ibtopo__finding_init(&f, kind);
		/* what no family field holds: a key that shows it is wrong */
		memset(&f.num, 0x41, sizeof(f.num));
		n = fill(&f, k->family, k->unit, want);
		assert_int_equal(ibtopo_findings_add(&list, &f, &err), 0);
		assert_int_equal(ibtopo_report_findings(&o, NULL, &list, &err), 0);
		obj = strstr(b.text, "\"findings\":");
		assert_non_null(obj);
		for (size_t i = 0; i < n; i++) {
			const char *at = json_at(obj, want[i].key);

			if (!at || strncmp(at, want[i].json,
					   strlen(want[i].json)) != 0 ||
			    (at[strlen(want[i].json)] != ',' &&
			     at[strlen(want[i].json)] != '}'))
				fail_msg("%s: \"%s\" is not %s in %s", k->name,
					 want[i].key, want[i].json, obj);
		}
		for (size_t j = 0; j < TEST_ARRAY_SIZE(detail_keys); j++) {
			bool wanted = false;

			for (size_t i = 0; i < n; i++)
				wanted |= strcmp(want[i].key, detail_keys[j]) == 0;
			if (!wanted && json_at(obj, detail_keys[j]))
				fail_msg("%s: \"%s\" written, not documented: %s",
					 k->name, detail_keys[j], obj);
		}
		ibtopo_buffer_release(&b);
		ibtopo_findings_release(&list);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_has_name_sentence_and_mark),
		cmocka_unit_test(kind_names_are_stable),
		cmocka_unit_test(kind_names_are_unique),
		cmocka_unit_test(unregistered_kinds_are_unknown),
		cmocka_unit_test(every_kind_words_a_blank_finding),
		cmocka_unit_test(init_sets_default_severity_and_no_ends),
		cmocka_unit_test(analyze_equals_checks_then_topology),
		cmocka_unit_test(analyze_flags_skip_analyses),
		cmocka_unit_test(analysis_computes_each_section_once),
		cmocka_unit_test(analysis_keeps_a_failure),
		cmocka_unit_test(analyze_refuses_bad_arguments),
		cmocka_unit_test(analyze_passes_routing_options),
		cmocka_unit_test(every_kind_writes_its_family_under_its_keys),
	};

	return cmocka_run_group_tests_name("findings", tests, NULL, NULL);
}
