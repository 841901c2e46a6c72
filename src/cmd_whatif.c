/* cmd_whatif.c - ibtopo whatif: what the fabric loses when switches, CAs
 * or cables fail, or each one of a kind in turn (N-1) */
#include "commands.h"
#include "fail_spec.h"
#include "whatif_reroute.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_FAIL = CLI_LONG,
	OPT_FAIL_ANY,
	OPT_EACH,
	OPT_TOP,
	OPT_EXACT,
	OPT_ROUTES,
	OPT_REROUTE,
	OPT_FORMAT, /* cli_opt_format: cli_getopt's */
};

static const struct cli_opt opts[] = {
	CLI_LONG_OPT(OPT_FAIL, "fail", 1, "SPEC",
		     "fail a switch or CA (name, GUID, S-<guid>), a cable "
		     "(NODE:PORT) or level:N with --fail-any K (repeatable)"),
	CLI_LONG_OPT(
		OPT_FAIL_ANY, "fail-any", 1, "K",
		"with --fail level:N: the K switches of level N whose failure "
		"alone does most harm"),
	CLI_LONG_OPT(
		OPT_EACH, "each", 1, "KIND",
		"fail each switch, spine, leaf or cable in turn and rank them"),
	CLI_LONG_OPT(OPT_TOP, "top", 1, "N",
		     "with --each: the N worst (default 10; 0 = all)"),
	CLI_LONG_OPT(OPT_EXACT, "exact", 0, NULL,
		     "with --each: share an analysis between twins only, not "
		     "between switches of one colour"),
	CLI_OPT_SAME_ID(OPT_ROUTES, cli_opt_routes_dump),
	CLI_LONG_OPT(OPT_REROUTE, "reroute", 1, "ENGINE",
		     "with --fail: let OpenSM's routing engine (minhop, updn, "
		     "ftree, dor, ...) route the fabric before and after, "
		     "under ibsim"),
	CLI_OPT_SAME(cli_opt_format),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

static int cmd_whatif_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_whatif_entry = {
	.name = "whatif",
	.summary = "what the fabric loses when switches or cables fail",
	.args = "[REF|FILE] (--fail SPEC... [--fail-any K] | --each "
		"switch|spine|leaf|cable [--top N] [--exact]) [--reroute ENGINE] "
		"[--routes DUMP] " CLI_ARGS_ANALYSIS
		" [--format text|json|csv]",
	.details =
		"--fail fails what SPEC names: a switch or CA by name, GUID or\n"
		"S-<guid>/H-<guid>; a cable by one end, NODE:PORT; or level:N with\n"
		"--fail-any K, the K switches of level N (1 = leaves) that do most\n"
		"harm alone. The report sets the fabric before and after side by\n"
		"side: servers isolated (none of their links reaches the largest\n"
		"part of the fabric left), servers single-homed (what reaches it\n"
		"ends on one switch), leaf pairs and their node-disjoint paths (min,\n"
		"median), oversubscription and uplinks per level, bisection\n"
		"bandwidth; then the leaf pairs whose node-disjoint paths fell.\n"
		"With forwarding tables (discover --routes, or --routes DUMP), the\n"
		"CA pairs whose routes cross the failure as the tables stand,\n"
		"before the subnet manager reacts, per destination.\n"
		"--reroute ENGINE lets OpenSM answer: the fabric as it is and\n"
		"without what fails are written as ibsim net files in a private\n"
		"temporary directory; for each, ibsim runs, `opensm -o -R ENGINE`\n"
		"routes it once under umad2sim and ibtopo's own discover --routes\n"
		"reads the tables back; then reachability, balance per level,\n"
		"credit loops and EBB before and after, and the busiest surviving\n"
		"ports. It stops what it started by PID. Programs: $IBSIM, $OPENSM,\n"
		"$UMAD2SIM, else those found at build time or in PATH; without\n"
		"one it says which and exits 2.\n"
		"--each fails each switch, spine (above level 1), leaf or cable\n"
		"alone and ranks them: servers isolated, then leaf pairs losing a\n"
		"node-disjoint path, then bisection lost; a first line says\n"
		"whether the fabric survives any one such failure. The servers\n"
		"each one cuts off are counted for it; the topology after it is\n"
		"analysed once per class: switches of one colour under colour\n"
		"refinement (the switches a fat tree's, rails' or Dragonfly+'s\n"
		"symmetries exchange), with --exact only twins (the same\n"
		"neighbours by the same cables), exact on any fabric.\n"
		"JSON: " CLI_JSON
		",\"whatif\":{\"failed\":[...],\"before\":{...},\n"
		"\"after\":{...},\"pairs_dropped\",\"pairs_cut\",\n"
		"\"became_single_homed\",\"routes\":{...}}}; with --each\n"
		"\"whatif\":{\"each\",\"tried\",\"analyses\",\"survives\",\n"
		"\"leaf_pairs\",\"bisection_gbps\",\"ranking\":[...]}.\n"
		"CSV: metric,before,after rows; with --each one row per element.",
	.opts = opts,
	.exec = cmd_whatif_exec,
	.flags = CLI_NEEDS_DB,
};

static const struct cli_keyword each_words[] = {
	{ "switch", IBTOPO_WHATIF_EACH_SWITCH },
	{ "spine", IBTOPO_WHATIF_EACH_SPINE },
	{ "leaf", IBTOPO_WHATIF_EACH_LEAF },
	{ "cable", IBTOPO_WHATIF_EACH_CABLE },
	{ NULL, 0 },
};

/* What the command line asks for. */
struct whatif_args {
	const char **specs;
	size_t nspecs;
	unsigned level; /* level:N, 0 = none */
	unsigned any;	/* --fail-any K, 0 = not given */
	int each;	/* --each, -1 = not given */
	unsigned top;
	unsigned flags;	     /* enum ibtopo_whatif_flags */
	const char *reroute; /* --reroute ENGINE, or NULL */
};

/* level:N --fail-any K: the K worst switches of level N alone. */
static int resolve_level(struct fail_set *f, struct ibtopo_analysis *an,
			 const struct whatif_args *a)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_whatif_ranking *r = NULL;
	const struct ibtopo_topology *t;

	if (ibtopo_analysis_topology(an, &t, &err))
		return cli_fail(&err);
	if (!t || a->level > ibtopo_topology_levels(t))
		return cli_failf("bad --fail 'level:%u': the fabric has %u "
				 "switch levels",
				 a->level, t ? ibtopo_topology_levels(t) : 0);
	if (ibtopo_whatif_each(&r, an, IBTOPO_WHATIF_EACH_SWITCH, a->level,
			       a->flags, &err))
		return cli_fail(&err);
	if (r->count < a->any) {
		unsigned n = (unsigned)r->count;

		ibtopo_whatif_ranking_free(r);
		return cli_failf("--fail-any %u: level %u has %u switches",
				 a->any, a->level, n);
	}
	for (size_t i = 0; i < a->any; i++)
		f->nodes[f->nnodes++] = r->ranks[i].node;
	ibtopo_whatif_ranking_free(r);
	return 0;
}

static int run_fail(struct ibtopo_analysis *an, const struct whatif_args *a,
		    enum ibtopo_format format, const struct cli_global *g)
{
	struct reroute rr = { 0 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_fabric *fabric = ibtopo_analysis_fabric(an);
	struct ibtopo_whatif *w = NULL;
	struct fail_set f = { 0 };
	struct ibtopo_sink so;
	int rc = EXIT_TROUBLE;

	f.nodes = calloc(a->nspecs + a->any + 1, sizeof(*f.nodes));
	f.links = calloc(a->nspecs + 1, sizeof(*f.links));
	if (!f.nodes || !f.links) {
		cli_failf("out of memory");
		goto out_free;
	}
	if (fail_set_resolve(&f, fabric, "--fail", a->specs, a->nspecs) ||
	    (a->level && resolve_level(&f, an, a)))
		goto out_free;
	if (ibtopo_whatif_run(&w, an, f.nodes, f.nnodes, f.links, f.nlinks,
			      &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (a->reroute) {
		if (reroute_run(&rr, w, a->reroute, ibtopo_analysis_opts(an),
				g))
			goto out_free;
		w->reroute = &rr.result;
	}
	so = cli_stdout_sink(format);
	if (ibtopo_report_whatif(&so, w, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	rc = cli_report_exit(NULL, 0);
out_free:
	ibtopo_whatif_free(w);
	reroute_release(&rr);
	free(f.nodes);
	free(f.links);
	return rc;
}

static int run_each(struct ibtopo_analysis *an, const struct whatif_args *a,
		    enum ibtopo_format format, const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_whatif_ranking *r = NULL;
	struct ibtopo_sink so;
	double t0 = cli_now();
	int rc = EXIT_TROUBLE;

	if (ibtopo_whatif_each(&r, an, (enum ibtopo_whatif_each)a->each, 0,
			       a->flags, &err))
		return cli_fail(&err);
	cli_step(g, "whatif", t0, "%zu %s failures, %zu topology analyses",
		 r->count, ibtopo_whatif_each_name(r->what), r->analyses);
	so = cli_stdout_sink(format);
	if (ibtopo_report_whatif_each(&so, r, a->top, &err))
		cli_fail(&err);
	else
		rc = cli_report_exit(NULL, 0);
	ibtopo_whatif_ranking_free(r);
	return rc;
}

/* The options into `a`; 0 or EXIT_TROUBLE after the usage error. */
static int parse_option(const struct cli_cmd *self, struct cli_state *st, int c,
			struct whatif_args *a)
{
	switch (c) {
	case OPT_FAIL:
		if (strncmp(st->optarg, "level:", 6) == 0) {
			if (!fail_parse_count(st->optarg + 6, 64, &a->level) ||
			    !a->level)
				return cli_usage_error(
					self,
					"bad --fail '%s' (level:N, N from 1, "
					"the leaves)",
					st->optarg);
		} else if (!*st->optarg) {
			return cli_usage_error(self, "empty --fail");
		}
		a->specs[a->nspecs++] = st->optarg;
		return 0;
	case OPT_FAIL_ANY:
		if (!fail_parse_count(st->optarg, 100000, &a->any) || !a->any)
			return cli_usage_error(
				self, "bad --fail-any '%s' (a count from 1)",
				st->optarg);
		return 0;
	case OPT_EACH:
		if (!cli_parse_keyword(self, "each", st->optarg, each_words,
				       &a->each))
			return EXIT_TROUBLE;
		return 0;
	case OPT_EXACT:
		a->flags |= IBTOPO_WHATIF_EXACT;
		return 0;
	case OPT_REROUTE:
		if (!*st->optarg ||
		    strspn(st->optarg,
			   "abcdefghijklmnopqrstuvwxyz0123456789_,-") !=
			    strlen(st->optarg) ||
		    *st->optarg == '-')
			return cli_usage_error(
				self,
				"bad --reroute '%s' (an OpenSM routing engine: "
				"minhop, updn, ftree, dor, ...)",
				st->optarg);
		a->reroute = st->optarg;
		return 0;
	case OPT_TOP:
		if (!fail_parse_count(st->optarg, 1000000, &a->top))
			return cli_usage_error(
				self, "bad --top '%s' (a number)", st->optarg);
		return 0;
	default:
		return cli_usage_error(self, "unexpected option");
	}
}

static int check_args(const struct cli_cmd *self, const struct whatif_args *a)
{
	if (a->each >= 0 && a->nspecs)
		return cli_usage_error(self,
				       "--each and --fail exclude each other");
	if (a->each < 0 && !a->nspecs)
		return cli_usage_error(self, "nothing to fail: --fail SPEC or "
					     "--each KIND");
	if (a->level && !a->any)
		return cli_usage_error(
			self, "--fail level:%u needs --fail-any K", a->level);
	if (a->any && !a->level)
		return cli_usage_error(self, "--fail-any needs --fail level:N");
	if (a->reroute && a->each >= 0)
		return cli_usage_error(self,
				       "--reroute needs --fail, not --each");
	return 0;
}

static int cmd_whatif_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g)
{
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct cli_source src = { .what = NULL };
	struct whatif_args a = { .each = -1, .top = 10 };
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_fabric *fabric = NULL;
	struct cli_state st = { .report = &rep, .analyze = &ao, .global = g };
	int c, rc = EXIT_TROUBLE;

	a.specs = calloc((size_t)argc + 1, sizeof(*a.specs));
	if (!a.specs)
		return cli_failf("out of memory");
	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		if (c == OPT_ROUTES)
			src.routes = st.optarg;
		else if (parse_option(self, &st, c, &a))
			goto out_free;
	}
	if (check_args(self, &a) ||
	    cli_load_operand(&fabric, self, &st, argc, argv, g, &src))
		goto out_free;
	ao.flags |= IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_HEALTH |
		    IBTOPO_ANALYZE_NO_ROUTES;
	ao.topology.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	if (cli_analysis(&an, fabric, &ao, g))
		goto out_free;
	if (a.each >= 0)
		rc = run_each(an, &a, rep.format, g);
	else
		rc = run_fail(an, &a, rep.format, g);
out_free:
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(fabric);
	free(a.specs);
	return rc;
}
