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
		assert_int_equal(x->expected, y->expected);
		assert_int_equal(x->actual, y->actual);
		assert_true(x->value == y->value && x->limit == y->limit);
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
	};

	return cmocka_run_group_tests_name("findings", tests, NULL, NULL);
}
