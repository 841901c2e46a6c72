/* cmd_render.c - ibtopo render: a fabric diagram as SVG, PNG, PDF, DOT or
 * an interactive HTML page */
#include "commands.h"
#include "fail_spec.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	OPT_OUTPUT = CLI_LONG, /* -o */
	OPT_FORMAT,
	OPT_HOSTS,
	OPT_FOCUS,
	OPT_DEPTH,
	OPT_LAYOUT,
	OPT_TITLE,
	OPT_DIFF,
	OPT_PLAN,
	OPT_MATCH,
	OPT_CABLES,
	OPT_CABLE_REACH,
	OPT_MIN_PATHS,
	OPT_NO_CHECKS,
	OPT_NO_LEGEND,
	OPT_DETAIL,
	OPT_HEAT,
	OPT_ROUTES,
	OPT_SINCE,
	OPT_THRESHOLDS,
	OPT_HISTORY,
	OPT_WHATIF,
	OPT_JOB,
};

static const struct cli_opt opts[] = {
	CLI_OPT("output", 'o', 1, "FILE",
		"write the diagram here ('-' = stdout); the format is its extension"),
	CLI_LONG_OPT(
		OPT_FORMAT, "format", 1, "FMT",
		"svg, png, pdf, dot or html (default: from the -o extension)"),
	CLI_LONG_OPT(
		OPT_HOSTS, "hosts", 1, "MODE",
		"auto (collapse above 200 hosts, default), all or collapse"),
	CLI_LONG_OPT(
		OPT_FOCUS, "focus", 1, "NODE",
		"draw only what is near NODE (description, label, 0xGUID) or a group"),
	CLI_LONG_OPT(OPT_DEPTH, "depth", 1, "N",
		     "with --focus: links from NODE to draw (default 2)"),
	CLI_LONG_OPT(
		OPT_LAYOUT, "layout", 1, "ENGINE",
		"auto (sfdp above 1000 nodes or when dot would take long; default), dot or sfdp"),
	CLI_LONG_OPT(
		OPT_TITLE, "title", 1, "TEXT",
		"title line (default: the snapshot's fabric and the snapshot, or the file's name)"),
	CLI_LONG_OPT(
		OPT_DIFF, "diff", 0, NULL,
		"take OLD NEW: draw NEW with added links green, removed dashed red"),
	CLI_LONG_OPT(
		OPT_PLAN, "plan", 1, "PLAN",
		"draw the fabric against PLAN: missing links dashed, miswired pink"),
	CLI_LONG_OPT(OPT_MATCH, "match", 1, "REGEX",
		     "with --plan: compare names by this regex's first group"),
	CLI_LONG_OPT(OPT_CABLES, "cables", 1, "FILE",
		     "cable inventory CSV or ibdiagnet2 .db_csv to merge "
		     "(a stale row is a warning)"),
	CLI_LONG_OPT(OPT_CABLE_REACH, "cable-reach", 1, "FILE",
		     "cable reach table (default: built in)"),
	CLI_LONG_OPT(OPT_MIN_PATHS, "min-paths", 1, "N",
		     "mark switches with fewer disjoint paths (default 2)"),
	CLI_LONG_OPT(
		OPT_NO_CHECKS, "no-checks", 0, NULL,
		"draw the fabric only: no link, cable or topology findings"),
	CLI_LONG_OPT(OPT_NO_LEGEND, "no-legend", 0, NULL,
		     "leave the legend out (title lines stay)"),
	CLI_LONG_OPT(
		OPT_DETAIL, "detail", 1, "LEVEL",
		"switches, groups (an overview) or auto (groups above 100 switches or 24 on a level; default)"),
	CLI_LONG_OPT(
		OPT_HEAT, "heat", 1, "WHAT",
		"routes: colour links by the CA-to-CA routes they carry (needs forwarding tables); errors, ber, traffic or congestion: by their port counters"),
	CLI_LONG_OPT(
		OPT_ROUTES, "routes", 1, "DUMP",
		"with --heat routes: forwarding tables from a file for this run (as routes takes it)"),
	CLI_LONG_OPT(
		OPT_SINCE, "since", 1, "REF",
		"with --heat errors|ber|traffic|congestion: the earlier snapshot (needed but for errors)"),
	CLI_LONG_OPT(
		OPT_THRESHOLDS, "thresholds", 1, "FILE",
		"with a counters --heat: the thresholds file (as health reads it)"),
	CLI_LONG_OPT(
		OPT_HISTORY, "history", 0, NULL,
		"with a counters --heat, to HTML: the history of the ports health finds, charted in a clicked link's details"),
	CLI_LONG_OPT(
		OPT_WHATIF, "whatif", 1, "SPEC",
		"draw what whatif --fail SPEC fails (repeatable): the nodes "
		"outlined black, their cables and failed cables dotted"),
	CLI_LONG_OPT(
		OPT_JOB, "job", 1, "HOSTLIST",
		"draw a job's hosts and links (their cables, and with tables "
		"the links its routes cross) in blue"),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

static int cmd_render_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_render_entry = {
	.name = "render",
	.summary =
		"draw the fabric as SVG, PNG, PDF, DOT or HTML, problems in colour",
	.args = "[REF|FILE] -o OUT.{svg,png,pdf,dot,html} [--hosts all|collapse] "
		"[--focus NODE|GROUP [--depth N]] [--layout auto|dot|sfdp]\n"
		"       [--detail switches|groups|auto] [--heat routes [--routes DUMP]]\n"
		"       [--heat errors|ber|traffic|congestion [--since REF] [--thresholds FILE] [--history]]\n"
		"       [--whatif SPEC]... [--job HOSTLIST [--routes DUMP]]\n"
		"       ibtopo render --diff OLD NEW -o OUT\n"
		"       ibtopo render --plan PLAN [REF|FILE] -o OUT",
	.details =
		"REF is a snapshot id, a label, 'latest' or 'latest~N' (default:\n"
		"latest); an existing FILE is read instead of the database.\n"
		"Top switches are drawn at the top, then leaf switches, then hosts;\n"
		"parallel cables are one line labelled with their count, thicker for\n"
		"more bandwidth. Downgraded links are red, cable problems orange,\n"
		"fat-tree violations purple; switches with low path diversity get a\n"
		"red double border. Above 200 hosts, hosts on the same switches are\n"
		"one node (\"24 hosts\"). Directors (switch chips sharing a system\n"
		"image GUID) are boxed together. Above 100 switches, or 24 on one\n"
		"level, (or with --detail groups) the picture is an overview: a\n"
		"director is one node, switches alike (the leaves of a pod, the\n"
		"spines above them) are one node (\"16 leaves, pod 3\") with their\n"
		"hosts counted in it, the cables between two nodes one line labelled\n"
		"with their count and bandwidth; a node holding a problem is outlined\n"
		"red and named in a table. --focus GROUP (\"leaves, pod 3\") draws a\n"
		"group's switches. More than 2000 switches are only drawn as groups,\n"
		"and their path diversity is not checked unless --min-paths is given.\n"
		"OUT.html is one page that needs no network: the SVG with pan and\n"
		"zoom, a search box (name, GUID or LID; also #search=NAME in the\n"
		"URL), details of a clicked node or link (ports, rates, cables,\n"
		"findings) and the findings table, a row showing its link.\n"
		"--heat routes (a snapshot of discover --routes, or --routes DUMP)\n"
		"draws each link in one of 5 colours, pale yellow to dark red, and\n"
		"widths by the CA-to-CA routes its busier direction carries (a line\n"
		"of parallel or bundled cables: its busiest cable), the scale in the\n"
		"legend, the routes each way in tooltips and the HTML details; it\n"
		"takes the place of the findings' link colours. A host's direction\n"
		"into its switch is in no table: host links count the switch's.\n"
		"--heat errors|ber|traffic|congestion colours links on a fixed scale\n"
		"by their ports' counters (as health finds them; ber, traffic and\n"
		"congestion against --since REF): errors 0, 1-9, 10-99, 100-999,\n"
		"1000+ (growth since REF, else the count); BER none, to 1/100, 1/10,\n"
		"the threshold for its speed, above; traffic to 10, 25, 50, 75%,\n"
		"above; congestion (capacity lost to PortXmitWait) to 1/100, 1/10,\n"
		"1/2, the XmitWaitShare threshold, above: a healthy fabric is all\n"
		"pale. A bundle takes its worst cable's colour; health's findings\n"
		"(high-ber, ...) are in the problems table. With --history the HTML\n"
		"page charts each finding's ports across the stored snapshots of\n"
		"their fabric (errors, BER, traffic) in the link's details.\n"
		"--whatif SPEC draws what whatif --fail SPEC fails (a switch or CA\n"
		"by name or GUID, a cable as NODE:PORT): the nodes with a thick\n"
		"black double outline, their cables and the failed cables dotted\n"
		"black; with forwarding tables, the links that carry routes across\n"
		"the failure as the tables stand (before the subnet manager\n"
		"reacts) orange. --job HOSTLIST (Slurm's syntax, as job reads it) outlines\n"
		"the job's hosts in blue and draws its links blue: its hosts'\n"
		"cables and, with forwarding tables (discover --routes, or\n"
		"--routes DUMP), every link its all-to-all routes cross. Both\n"
		"go over the findings' colours, in the legend and in the HTML\n"
		"page's details.\n"
		"Drawn in process with graphviz;\n"
		"the .dot output is the same bytes for the same input.",
	.opts = opts,
	.exec = cmd_render_exec,
	.flags = CLI_NEEDS_DB,
};

static bool parse_uint(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* "fabric.topo" for "/some/dir/fabric.topo"; a REF as it is. */
static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

/* Has a switch a forwarding table (discover --routes, --routes DUMP)? */
static bool fabric_has_tables(const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++)
		if (ibtopo_fabric_node(f, i)->lft)
			return true;
	return false;
}

/* clang-format off */
static const struct cli_keyword hosts_words[] = {
	{ "auto", IBTOPO_HOSTS_AUTO },
	{ "all", IBTOPO_HOSTS_ALL },
	{ "collapse", IBTOPO_HOSTS_COLLAPSE },
	{ NULL, 0 },
};
static const struct cli_keyword layout_words[] = {
	{ "auto", IBTOPO_LAYOUT_AUTO },
	{ "dot", IBTOPO_LAYOUT_DOT },
	{ "sfdp", IBTOPO_LAYOUT_SFDP },
	{ NULL, 0 },
};
static const struct cli_keyword detail_words[] = {
	{ "switches", IBTOPO_DETAIL_SWITCHES },
	{ "groups", IBTOPO_DETAIL_GROUPS },
	{ "auto", IBTOPO_DETAIL_AUTO },
	{ NULL, 0 },
};
enum { HEAT_ROUTES = 100 };
static const struct cli_keyword heat_words[] = {
	{ "routes", HEAT_ROUTES },
	{ "errors", IBTOPO_HEAT_ERRORS },
	{ "ber", IBTOPO_HEAT_BER },
	{ "traffic", IBTOPO_HEAT_TRAFFIC },
	{ "congestion", IBTOPO_HEAT_CONGESTION },
	{ NULL, 0 },
};
/* clang-format on */

/* What render was asked for, and what it loaded and found for it. */
struct render {
	struct ibtopo_diagram_opts d;
	struct ibtopo_analyze_opts ao;
	struct ibtopo_validate_opts vo;
	struct cli_source src;
	const char *output, *format, *plan, *cables, *what, *old_ref, *since;
	struct ibtopo_fabric *before; /* --since */
	bool history;		      /* --history */
	/* --history: the findings' ports, their readings and histories */
	struct ibtopo_port_reading **readings;
	size_t *nreadings;
	struct ibtopo_port_history **hist;
	size_t nhist;
	bool diff, checks, min_paths;
	int heat;
	/* --whatif SPECs and what they name; --job's hosts, its result */
	const char **specs;
	size_t nspecs;
	struct fail_set failed;
	const char *hostlist;
	struct ibtopo_job *job;
	const struct ibtopo_link **job_links;
	const struct ibtopo_node **job_hosts;
	const struct ibtopo_link **carried; /* --whatif with tables */
	char title[512];
	struct ibtopo_fabric *fabric, *other;
	struct ibtopo_findings findings; /* of --diff or --plan */
	/* the one analysis every part of the picture reads, and --diff's
	 * OLD's or the plan's */
	struct ibtopo_analysis *an, *old_an;
};

static int parse_option(struct render *r, const struct cli_cmd *self, int c,
			const char *arg)
{
	struct ibtopo_diagram_opts *d = &r->d;
	int v;

	switch (c) {
	case 'o':
		r->output = arg;
		break;
	case OPT_FORMAT:
		r->format = arg;
		break;
	case OPT_HOSTS:
		if (!cli_parse_keyword(self, "hosts", arg, hosts_words, &v))
			return EXIT_TROUBLE;
		d->hosts = (enum ibtopo_diagram_hosts)v;
		break;
	case OPT_FOCUS:
		d->focus = arg;
		break;
	case OPT_DEPTH:
		if (!parse_uint(arg, 64, &d->depth) || !d->depth)
			return cli_usage_error(
				self, "bad --depth '%s' (1 to 64)", arg);
		break;
	case OPT_LAYOUT:
		if (!cli_parse_keyword(self, "layout", arg, layout_words, &v))
			return EXIT_TROUBLE;
		d->layout = (enum ibtopo_diagram_layout)v;
		break;
	case OPT_TITLE:
		d->title = arg;
		break;
	case OPT_DIFF:
		r->diff = true;
		break;
	case OPT_PLAN:
		r->plan = arg;
		break;
	case OPT_MATCH:
		r->vo.match = arg;
		break;
	case OPT_CABLES:
		r->cables = arg;
		break;
	case OPT_CABLE_REACH:
		r->ao.checks.reach_path = cli_input_arg(arg, &r->ao.reach_text);
		break;
	case OPT_MIN_PATHS:
		if (!parse_uint(arg, 1000, &r->ao.topology.min_paths) ||
		    !r->ao.topology.min_paths)
			return cli_usage_error(self, "bad --min-paths '%s'",
					       arg);
		r->min_paths = true;
		break;
	case OPT_NO_CHECKS:
		r->checks = false;
		break;
	case OPT_NO_LEGEND:
		d->flags |= IBTOPO_DIAGRAM_NO_LEGEND;
		break;
	case OPT_DETAIL:
		if (!cli_parse_keyword(self, "detail", arg, detail_words, &v))
			return EXIT_TROUBLE;
		d->detail = (enum ibtopo_diagram_detail)v;
		break;
	case OPT_HEAT:
		if (!cli_parse_keyword(self, "heat", arg, heat_words, &r->heat))
			return EXIT_TROUBLE;
		break;
	case OPT_ROUTES:
		r->src.routes = arg;
		break;
	case OPT_SINCE:
		r->since = arg;
		break;
	case OPT_THRESHOLDS:
		r->ao.health.thresholds_path =
			cli_input_arg(arg, &r->ao.thresholds_text);
		break;
	case OPT_HISTORY:
		r->history = true;
		break;
	case OPT_WHATIF:
		if (!*arg || strncmp(arg, "level:", 6) == 0)
			return cli_usage_error(
				self,
				"bad --whatif '%s' (a switch, CA or cable; "
				"level:N is whatif's --fail-any)",
				arg);
		r->specs[r->nspecs++] = arg;
		break;
	case OPT_JOB:
		r->hostlist = arg;
		break;
	default:
		return cli_usage_error(self, "unexpected option");
	}
	return 0;
}

/* Is the picture the HTML page: --format html, else -o's extension? */
static bool html_output(const struct render *r)
{
	const char *ext = r->format;

	if (!ext) {
		ext = strrchr(r->output, '.');
		if (!ext || strchr(ext, '/'))
			return false;
		ext++;
	}
	return strcasecmp(ext, "html") == 0 || strcasecmp(ext, "htm") == 0;
}

/* The options, and the operands and combinations they allow. */
static int parse_args(struct render *r, const struct cli_cmd *self,
		      struct cli_global *g, int argc, char **argv)
{
	struct cli_state st = { .analyze = &r->ao, .global = g };
	int c, rc, nargs;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		rc = parse_option(r, self, c, st.optarg);
		if (rc)
			return rc;
	}
	nargs = argc - st.optind;
	if (!r->output)
		return cli_usage_error(self, "no output file (-o OUT.svg)");
	if (r->diff && r->plan)
		return cli_usage_error(self,
				       "--diff and --plan do not go together");
	if (r->d.depth && !r->d.focus)
		return cli_usage_error(self, "--depth needs --focus");
	if (r->vo.match && !r->plan)
		return cli_usage_error(self, "--match needs --plan");
	if (r->src.routes && r->heat != HEAT_ROUTES && !r->hostlist &&
	    !r->nspecs)
		return cli_usage_error(
			self,
			"--routes needs --heat routes, --job or --whatif");
	if ((r->nspecs || r->hostlist) && (r->diff || r->plan))
		return cli_usage_error(self, "--%s does not go with --%s",
				       r->nspecs ? "whatif" : "job",
				       r->diff ? "diff" : "plan");
	if ((r->since || r->ao.health.thresholds_path || r->history) &&
	    (!r->heat || r->heat == HEAT_ROUTES))
		return cli_usage_error(self,
				       "--%s needs --heat errors, ber, "
				       "traffic or congestion",
				       r->since	  ? "since" :
				       r->history ? "history" :
						    "thresholds");
	/* the charts are the page's: an image would silently lack them */
	if (r->history && !html_output(r))
		return cli_usage_error(self,
				       "--history charts the ports in the HTML "
				       "page only: write -o OUT.html");
	if (!r->since && r->heat && r->heat != HEAT_ROUTES &&
	    r->heat != IBTOPO_HEAT_ERRORS)
		return cli_usage_error(
			self, "--heat %s needs --since REF",
			r->heat == IBTOPO_HEAT_BER     ? "ber" :
			r->heat == IBTOPO_HEAT_TRAFFIC ? "traffic" :
							 "congestion");
	if (r->heat && (r->diff || r->plan))
		return cli_usage_error(self, "--heat does not go with --%s",
				       r->diff ? "diff" : "plan");
	if (r->diff && nargs != 2)
		return cli_usage_error(self, "--diff takes OLD and NEW");
	if (r->diff) {
		r->old_ref = argv[st.optind];
		r->what = argv[st.optind + 1];
		return 0;
	}
	return cli_source_operand(self, &st, argc, argv, &r->what);
}

/* The fabric, the one it is compared with, and --cables merged. */
static int load(struct render *r, const struct cli_global *g)
{
	struct ibtopo_findings stale = IBTOPO_FINDINGS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int rc;

	r->src.what = r->what;
	if (cli_load(&r->fabric, g, &r->src))
		return EXIT_TROUBLE;
	if (r->diff || r->plan) {
		r->src.what = r->diff ? r->old_ref : r->plan;
		r->src.routes = NULL;
		if (cli_load(&r->other, g, &r->src))
			return EXIT_TROUBLE;
		if (cli_check_pair(g, r->other, r->fabric, &err))
			return cli_fail(&err);
	}
	if (r->since) {
		r->src.what = r->since;
		r->src.routes = NULL;
		if (cli_load(&r->before, g, &r->src))
			return EXIT_TROUBLE;
		if (cli_check_pair(g, r->before, r->fabric, &err))
			return cli_fail(&err);
	}
	rc = cli_merge_cables(r->fabric, g, r->cables, &stale);
	/* a stale inventory row draws nothing: say it, draw the rest */
	for (size_t i = 0; i < stale.count; i++) {
		char msg[512];

		ibtopo_finding_message(msg, sizeof(msg), &stale.items[i]);
		cli_warn(NULL, msg);
	}
	ibtopo_findings_release(&stale);
	return rc;
}

/* --diff or --plan: the findings to draw, and the title that says so. */
static int compare(struct render *r)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (r->diff) {
		if (ibtopo_fabric_diff(&r->findings, r->old_an, r->an, NULL,
				       &err))
			return cli_fail(&err);
		snprintf(r->title, sizeof(r->title), "changes from %s to %s",
			 base_name(r->old_ref), base_name(r->what));
	} else if (r->plan) {
		if (ibtopo_fabric_validate(&r->findings, r->other, r->fabric,
					   &r->vo, &err))
			return cli_fail(&err);
		snprintf(r->title, sizeof(r->title), "%s against the plan %s",
			 r->what ? base_name(r->what) : "latest",
			 base_name(r->plan));
	}
	if (!r->d.title && (r->diff || r->plan))
		r->d.title = r->title;
	return 0;
}

/*
 * The analysis: levels for the ranks, with checks the findings to mark,
 * the port health a counters --heat colours, the routes of --heat
 * routes; each computed once, whoever reads it. --diff's OLD gets one
 * too, for its routes.
 */
static int analyze(struct render *r, const struct cli_global *g)
{
	struct ibtopo_analyze_opts *ao = &r->ao;
	bool counters = r->heat && r->heat != HEAT_ROUTES;

	if (r->diff || r->plan || !r->checks)
		ao->flags |= IBTOPO_ANALYZE_NO_CHECKS;
	if (!counters && (!r->checks || r->plan))
		ao->flags |= IBTOPO_ANALYZE_NO_HEALTH;
	if (r->heat != HEAT_ROUTES && (!r->checks || r->plan))
		ao->flags |= IBTOPO_ANALYZE_NO_ROUTES;
	if (!r->checks)
		ao->routes.flags |= IBTOPO_ROUTES_NO_CREDIT_LOOPS;
	ao->topology.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	/* a routing section's findings are marked; its bisection bandwidth
	 * is drawn nowhere */
	ao->routes.bisections = 0;
	/* path diversity on 6,845 switches takes 15 s: a big fabric's
	 * picture does not wait for it unless asked; without checks it
	 * marks nothing */
	if (!r->checks ||
	    (!r->min_paths &&
	     ibtopo_fabric_count_type(r->fabric, IBTOPO_NODE_SWITCH) >
		     IBTOPO_DETAIL_SWITCHES_MAX))
		ao->topology.flags |= IBTOPO_TOPOLOGY_NO_PATHS;
	/* --diff: the counters' growth from OLD is NEW's health */
	ao->since = r->diff ? r->other : r->before;
	if (cli_analysis(&r->an, r->fabric, ao, g))
		return EXIT_TROUBLE;
	if (r->other) {
		/* OLD's routes for --diff, and both its and a plan's levels
		 * for where ghosts go */
		struct ibtopo_analyze_opts old = *ao;

		old.since = NULL;
		old.flags |=
			IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_HEALTH;
		if (r->plan)
			old.flags |= IBTOPO_ANALYZE_NO_ROUTES;
		if (cli_analysis(&r->old_an, r->other, &old, g))
			return EXIT_TROUBLE;
		r->d.other = r->old_an;
	}
	return 0;
}

/* The findings drawn: --diff's or --plan's; else the analysis' (without
 * checks, port health's alone). */
static int findings_drawn(struct render *r)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_findings *f;

	if (r->diff || r->plan) {
		r->d.findings = &r->findings;
		return 0;
	}
	if (r->checks ? ibtopo_analysis_findings(r->an, &f, &err) :
			ibtopo_analysis_section_findings(
				r->an, IBTOPO_SECTION_HEALTH, &f, &err))
		return cli_fail(&err);
	r->d.findings = f;
	return 0;
}

/* At most this many ports get a history (the HTML page holds them). */
#define HISTORY_PORTS_MAX 256

static bool has_hist(const struct render *r, uint64_t guid, int port)
{
	for (size_t i = 0; i < r->nhist; i++)
		if (r->hist[i]->guid == guid && (int)r->hist[i]->port == port)
			return true;
	return false;
}

/* --history: both ends of each finding health made, across REF's fabric. */
static int load_history(struct render *r, const struct cli_global *g,
			const struct ibtopo_findings *hf)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	size_t max = 2 * hf->count;
	int64_t id;
	int rc = EXIT_TROUBLE;

	if (max > HISTORY_PORTS_MAX)
		max = HISTORY_PORTS_MAX;
	r->readings = calloc(max + 1, sizeof(*r->readings));
	r->nreadings = calloc(max + 1, sizeof(*r->nreadings));
	r->hist = calloc(max + 1, sizeof(*r->hist));
	if (!r->readings || !r->nreadings || !r->hist)
		return cli_failf("out of memory");
	if (cli_open_store(&store, g, IBTOPO_STORE_READONLY, &err) ||
	    ibtopo_store_resolve_in(&id, store, cli_fabric(g),
				    r->what ? r->what : "latest", &err)) {
		cli_fail(&err);
		goto out_free;
	}
	for (size_t i = 0; i < 2 * hf->count && r->nhist < max; i++) {
		const struct ibtopo_end *e =
			i % 2 ? &hf->items[i / 2].b : &hf->items[i / 2].a;
		const struct ibtopo_node *n =
			e->guid ? ibtopo_fabric_find_node(r->fabric, e->guid) :
				  NULL;
		size_t k = r->nhist;

		if (!n || e->port < 0 || has_hist(r, e->guid, e->port))
			continue;
		if (ibtopo_store_port_history(&r->readings[k], &r->nreadings[k],
					      store, id, e->guid,
					      (unsigned)e->port, &err) ||
		    ibtopo_health_history(&r->hist[k], n->desc, e->guid,
					  (unsigned)e->port, r->readings[k],
					  r->nreadings[k], &err)) {
			cli_fail(&err);
			goto out_free;
		}
		r->nhist++;
	}
	r->d.history = (const struct ibtopo_port_history *const *)r->hist;
	r->d.nhistory = r->nhist;
	rc = 0;
out_free:
	ibtopo_store_free(store);
	return rc;
}

/* --heat errors|ber|traffic|congestion: the counters as the analysis'
 * health reads them, against --since REF; routes: the routes each link
 * carries, as its routing section traced them. */
static int heat(struct render *r, const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_findings *hf;

	if (!r->heat)
		return 0;
	if (r->heat == HEAT_ROUTES) {
		if (!fabric_has_tables(r->fabric))
			return cli_failf(
				"render --heat routes: the fabric has "
				"no forwarding tables (take a snapshot "
				"with discover --routes, or give "
				"--routes DUMP)");
		if (ibtopo_analysis_routes(r->an, &r->d.heat, &err))
			return cli_fail(&err);
		return 0;
	}
	if (ibtopo_analysis_health(r->an, &r->d.health, &err) ||
	    ibtopo_analysis_section_findings(r->an, IBTOPO_SECTION_HEALTH, &hf,
					     &err))
		return cli_fail(&err);
	r->d.heat_kind = (enum ibtopo_heat_kind)r->heat;
	if (r->history)
		return load_history(r, g, hf);
	return 0;
}

/* --job HOSTLIST: its hosts, and its cables and route links. */
static int job_highlight(struct render *r)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_node **hosts;
	struct ibtopo_job *j;
	char **names = NULL;
	size_t nnames = 0, nl = 0;
	int rc;

	if (ibtopo_hostlist_expand(&names, &nnames, r->hostlist, &err))
		return cli_fail(&err);
	rc = ibtopo_job_run(&r->job, r->an, (const char *const *)names, nnames,
			    &err);
	ibtopo_hostlist_free(names, nnames);
	if (rc)
		return cli_fail(&err);
	j = r->job;
	if (!j->nfound)
		return cli_failf("render --job: no host of '%s' is in the "
				 "fabric",
				 r->hostlist);
	hosts = calloc(j->nports + 1, sizeof(*hosts));
	r->job_links = calloc(j->nports + j->nlinks + 1, sizeof(*r->job_links));
	if (!hosts || !r->job_links) {
		free(hosts);
		return cli_failf("out of memory");
	}
	for (size_t i = 0; i < j->nports; i++) {
		hosts[i] = j->ports[i]->node;
		r->job_links[nl++] = j->ports[i]->link;
	}
	for (size_t i = 0; i < j->nlinks; i++)
		if (j->links[i].port->link)
			r->job_links[nl++] = j->links[i].port->link;
	r->job_hosts = hosts;
	r->d.job.nodes = hosts;
	r->d.job.nnodes = j->nports;
	r->d.job.links = r->job_links;
	r->d.job.nlinks = nl;
	return 0;
}

/* --whatif with tables: the links that carry routes across it. */
static int carried_highlight(struct render *r)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_whatif *w = NULL;
	size_t n = 0;

	if (ibtopo_whatif_run(&w, r->an, r->failed.nodes, r->failed.nnodes,
			      r->failed.links, r->failed.nlinks, &err))
		return cli_fail(&err);
	r->carried = calloc(w->ncarried + 1, sizeof(*r->carried));
	if (!r->carried) {
		ibtopo_whatif_free(w);
		return cli_failf("out of memory");
	}
	for (size_t i = 0;
	     w->carried && i < ibtopo_fabric_link_count(r->fabric); i++)
		if (w->carried[i])
			r->carried[n++] = ibtopo_fabric_link(r->fabric, i);
	ibtopo_whatif_free(w);
	r->d.carried.links = r->carried;
	r->d.carried.nlinks = n;
	return 0;
}

/* --whatif and --job: what the picture draws over the findings. */
static int highlights(struct render *r)
{
	if (r->nspecs) {
		if (fail_set_alloc(&r->failed, r->nspecs, r->nspecs) ||
		    fail_set_resolve(&r->failed, r->fabric, "--whatif",
				     r->specs, r->nspecs))
			return EXIT_TROUBLE;
		r->d.failed.nodes = r->failed.nodes;
		r->d.failed.nnodes = r->failed.nnodes;
		r->d.failed.links = r->failed.links;
		r->d.failed.nlinks = r->failed.nlinks;
		if (fabric_has_tables(r->fabric) && carried_highlight(r))
			return EXIT_TROUBLE;
	}
	return r->hostlist ? job_highlight(r) : 0;
}

static int draw(struct render *r, const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct output_file out;
	double t0 = cli_now();
	int rc;

	if (output_file_open(&out, r->output, false))
		return EXIT_TROUBLE;
	if (ibtopo_diagram_image(out.path, r->format, r->an, &r->d, &err)) {
		output_file_fail(&out, &err);
		output_file_abort(&out);
		return EXIT_TROUBLE;
	}
	rc = output_file_close(&out);
	if (rc == EXIT_CLEAN)
		cli_step(g, "render", t0, "diagram to '%s'", out.name);
	return rc;
}

static int cmd_render_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g)
{
	struct render r = {
		.d = IBTOPO_DIAGRAM_OPTS_INIT,
		.ao = IBTOPO_ANALYZE_OPTS_INIT,
		.vo = IBTOPO_VALIDATE_OPTS_INIT,
		.checks = true,
		.findings = IBTOPO_FINDINGS_INIT,
	};
	int rc;

	r.specs = calloc((size_t)argc + 1, sizeof(*r.specs));
	if (!r.specs)
		return cli_failf("out of memory");
	rc = parse_args(&r, self, g, argc, argv);
	if (rc) {
		free(r.specs);
		return rc;
	}
	rc = load(&r, g);
	if (!rc)
		rc = analyze(&r, g);
	if (!rc)
		rc = compare(&r);
	if (!rc)
		rc = findings_drawn(&r);
	if (!rc)
		rc = heat(&r, g);
	if (!rc)
		rc = highlights(&r);
	if (!rc)
		rc = draw(&r, g);
	fail_set_release(&r.failed);
	ibtopo_job_free(r.job);
	free(r.job_links);
	free(r.job_hosts);
	free(r.carried);
	free(r.specs);
	for (size_t i = 0; r.hist && i <= r.nhist; i++) {
		ibtopo_port_history_free(r.hist[i]);
		ibtopo_port_readings_free(r.readings[i], r.nreadings[i]);
	}
	free(r.hist);
	free(r.readings);
	free(r.nreadings);
	ibtopo_analysis_free(r.old_an);
	ibtopo_analysis_free(r.an);
	ibtopo_fabric_free(r.before);
	ibtopo_findings_release(&r.findings);
	ibtopo_fabric_free(r.other);
	ibtopo_fabric_free(r.fabric);
	return rc;
}
