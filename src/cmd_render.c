/* cmd_render.c - ibtopo render: a fabric diagram as SVG, PNG, PDF, DOT or
 * an interactive HTML page */
#include "commands.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>

/* Long-only options come back as CLI_LONG + their index in opts[]. */
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
};

static const struct cli_opt opts[] = {
	{ "output", 'o', 1, "FILE",
	  "write the diagram here ('-' = stdout); the format is its extension" },
	{ "format", 0, 1, "FMT",
	  "svg, png, pdf, dot or html (default: from the -o extension)" },
	{ "hosts", 0, 1, "MODE",
	  "auto (collapse above 200 hosts, default), all or collapse" },
	{ "focus", 0, 1, "NODE",
	  "draw only what is near NODE (description, label, 0xGUID) or a group" },
	{ "depth", 0, 1, "N",
	  "with --focus: links from NODE to draw (default 2)" },
	{ "layout", 0, 1, "ENGINE",
	  "auto (sfdp above 1000 nodes or when dot would take long; default), dot or sfdp" },
	{ "title", 0, 1, "TEXT",
	  "title line (default: the fabric's file or host name)" },
	{ "diff", 0, 0, NULL,
	  "take OLD NEW: draw NEW with added links green, removed dashed red" },
	{ "plan", 0, 1, "PLAN",
	  "draw the fabric against PLAN: missing links dashed, miswired pink" },
	{ "match", 0, 1, "REGEX",
	  "with --plan: compare names by this regex's first group" },
	{ "cables", 0, 1, "FILE",
	  "cable inventory CSV or ibdiagnet2 .db_csv to merge "
	  "(a stale row is a warning)" },
	{ "cable-reach", 0, 1, "FILE",
	  "cable reach table (default: built in)" },
	{ "min-paths", 0, 1, "N",
	  "mark switches with fewer disjoint paths (default 2)" },
	{ "no-checks", 0, 0, NULL,
	  "draw the fabric only: no link, cable or topology findings" },
	{ "no-legend", 0, 0, NULL, "leave the legend out (title lines stay)" },
	{ "detail", 0, 1, "LEVEL",
	  "switches, groups (an overview) or auto (groups above 100 switches or 24 on a level; default)" },
	{ "heat", 0, 1, "WHAT",
	  "routes: colour links by the CA-to-CA routes they carry (needs forwarding tables)" },
	{ "routes", 0, 1, "DUMP",
	  "with --heat routes: forwarding tables from a file for this run (as routes takes it)" },
	{ NULL },
};

static int cmd_render_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_render_entry = {
	.name = "render",
	.summary =
		"draw the fabric as SVG, PNG, PDF, DOT or HTML, problems in colour",
	.args = "[REF|FILE] -o OUT.{svg,png,pdf,dot,html} [--hosts all|collapse] "
		"[--focus NODE|GROUP [--depth N]] [--layout auto|dot|sfdp]\n"
		"       [--detail switches|groups|auto] [--heat routes [--routes DUMP]]\n"
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

static int cmd_render_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_findings findings = IBTOPO_FINDINGS_INIT;
	struct ibtopo_findings stale = IBTOPO_FINDINGS_INIT;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_cables_opts cab = IBTOPO_CABLES_OPTS_INIT;
	struct ibtopo_validate_opts vo = IBTOPO_VALIDATE_OPTS_INIT;
	struct ibtopo_routes_opts ro = IBTOPO_ROUTES_OPTS_INIT;
	struct ibtopo_topology_opts to = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_topology *topo = NULL;
	struct ibtopo_routes *routes = NULL;
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_fabric *fabric = NULL, *other = NULL;
	struct cli_source src = { .what = NULL };
	struct cli_state st = { 0 };
	struct output_file out;
	const char *output = NULL, *format = NULL, *plan = NULL;
	const char *cables = NULL, *what = NULL;
	const char *old_ref = NULL;
	bool diff = false, checks = true, min_paths = false, heat = false;
	char title[512];
	double t0;
	int c, rc = EXIT_TROUBLE;
	int nargs;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case 'o':
			output = st.optarg;
			break;
		case OPT_FORMAT:
			format = st.optarg;
			break;
		case OPT_HOSTS:
			if (strcmp(st.optarg, "all") == 0)
				d.hosts = IBTOPO_HOSTS_ALL;
			else if (strcmp(st.optarg, "collapse") == 0)
				d.hosts = IBTOPO_HOSTS_COLLAPSE;
			else if (strcmp(st.optarg, "auto") == 0)
				d.hosts = IBTOPO_HOSTS_AUTO;
			else
				return cli_usage_error(
					self,
					"unknown --hosts '%s' (auto, all or collapse)",
					st.optarg);
			break;
		case OPT_FOCUS:
			d.focus = st.optarg;
			break;
		case OPT_DEPTH:
			if (!parse_uint(st.optarg, 64, &d.depth) || !d.depth)
				return cli_usage_error(
					self, "bad --depth '%s' (1 to 64)",
					st.optarg);
			break;
		case OPT_LAYOUT:
			if (strcmp(st.optarg, "dot") == 0)
				d.layout = IBTOPO_LAYOUT_DOT;
			else if (strcmp(st.optarg, "sfdp") == 0)
				d.layout = IBTOPO_LAYOUT_SFDP;
			else if (strcmp(st.optarg, "auto") == 0)
				d.layout = IBTOPO_LAYOUT_AUTO;
			else
				return cli_usage_error(
					self,
					"unknown --layout '%s' (auto, dot or sfdp)",
					st.optarg);
			break;
		case OPT_TITLE:
			d.title = st.optarg;
			break;
		case OPT_DIFF:
			diff = true;
			break;
		case OPT_PLAN:
			plan = st.optarg;
			break;
		case OPT_MATCH:
			vo.match = st.optarg;
			break;
		case OPT_CABLES:
			cables = st.optarg;
			break;
		case OPT_CABLE_REACH:
			ao.checks.reach_path = cli_path_arg(st.optarg);
			break;
		case OPT_MIN_PATHS:
			if (!parse_uint(st.optarg, 1000,
					&ao.topology.min_paths) ||
			    !ao.topology.min_paths)
				return cli_usage_error(self,
						       "bad --min-paths '%s'",
						       st.optarg);
			min_paths = true;
			break;
		case OPT_NO_CHECKS:
			checks = false;
			break;
		case OPT_NO_LEGEND:
			d.flags |= IBTOPO_DIAGRAM_NO_LEGEND;
			break;
		case OPT_DETAIL:
			if (strcmp(st.optarg, "switches") == 0)
				d.detail = IBTOPO_DETAIL_SWITCHES;
			else if (strcmp(st.optarg, "groups") == 0)
				d.detail = IBTOPO_DETAIL_GROUPS;
			else if (strcmp(st.optarg, "auto") == 0)
				d.detail = IBTOPO_DETAIL_AUTO;
			else
				return cli_usage_error(
					self,
					"unknown --detail '%s' (switches, groups or auto)",
					st.optarg);
			break;
		case OPT_HEAT:
			if (strcmp(st.optarg, "routes") != 0)
				return cli_usage_error(
					self, "unknown --heat '%s' (routes)",
					st.optarg);
			heat = true;
			break;
		case OPT_ROUTES:
			src.routes = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	nargs = argc - st.optind;
	if (!output)
		return cli_usage_error(self, "no output file (-o OUT.svg)");
	if (diff && plan)
		return cli_usage_error(self,
				       "--diff and --plan do not go together");
	if (d.depth && !d.focus)
		return cli_usage_error(self, "--depth needs --focus");
	if (vo.match && !plan)
		return cli_usage_error(self, "--match needs --plan");
	if (src.routes && !heat)
		return cli_usage_error(self, "--routes needs --heat routes");
	if (heat && (diff || plan))
		return cli_usage_error(self, "--heat does not go with --%s",
				       diff ? "diff" : "plan");
	if (diff) {
		if (nargs != 2)
			return cli_usage_error(self,
					       "--diff takes OLD and NEW");
		old_ref = argv[st.optind];
		what = argv[st.optind + 1];
	} else {
		if (nargs > 1)
			return cli_usage_error(self, "unexpected argument '%s'",
					       argv[st.optind + 1]);
		if (nargs == 1)
			what = argv[st.optind];
	}

	src.what = what;
	if (cli_load_fabric(&fabric, g, &src, &err))
		return cli_fail(&err);
	if (diff || plan) {
		src.what = diff ? old_ref : plan;
		src.routes = NULL;
		if (cli_load_fabric(&other, g, &src, &err)) {
			cli_fail(&err);
			goto out_free_fabric;
		}
		d.other = other;
		if (cli_check_pair(g, other, fabric, &err)) {
			cli_fail(&err);
			goto out_free_other;
		}
	}
	cab.warn = cli_warn;
	cab.unmatched = &stale;
	if (cables && cli_load_cables(fabric, cables, &cab, &err)) {
		cli_fail(&err);
		goto out_free_other;
	}
	/* a stale inventory row draws nothing: say it, draw the rest */
	for (size_t i = 0; i < stale.count; i++) {
		char msg[512];

		ibtopo_finding_message(msg, sizeof(msg), &stale.items[i]);
		cli_warn(NULL, msg);
	}
	ibtopo_findings_release(&stale);
	if (diff) {
		if (ibtopo_fabric_diff(&findings, other, fabric, NULL, &err)) {
			cli_fail(&err);
			goto out_release_findings;
		}
		snprintf(title, sizeof(title), "changes from %s to %s",
			 base_name(old_ref), base_name(what));
		if (!d.title)
			d.title = title;
	} else if (plan) {
		if (ibtopo_fabric_validate(&findings, other, fabric, &vo,
					   &err)) {
			cli_fail(&err);
			goto out_release_findings;
		}
		snprintf(title, sizeof(title), "%s against the plan %s",
			 what ? base_name(what) : "latest", base_name(plan));
		if (!d.title)
			d.title = title;
	}
	if (checks || diff || plan) {
		/* levels for the ranks; with checks also the findings to
		 * mark (low path diversity included) */
		if (diff || plan)
			ao.flags |= IBTOPO_ANALYZE_NO_CHECKS;
		ao.topology.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
		/* a routing section's findings are marked; its bisection
		 * bandwidth is drawn nowhere */
		ao.routes.bisections = 0;
		/* path diversity on 6,845 switches takes 15 s: a big
		 * fabric's picture does not wait for it unless asked */
		if (!min_paths &&
		    ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH) >
			    IBTOPO_DETAIL_SWITCHES_MAX)
			ao.topology.flags |= IBTOPO_TOPOLOGY_NO_PATHS;
		t0 = cli_now();
		if (ibtopo_analyze(&an, fabric, &ao, &err)) {
			cli_fail(&err);
			goto out_release_findings;
		}
		cli_step(g, "analyze", t0, "levels%s",
			 checks ? " and checks" : "");
		d.topology = an->topology;
	}
	d.findings = diff || plan || !an ? &findings : an->findings;
	if (heat && !fabric_has_tables(fabric)) {
		cli_failf("render --heat routes: the fabric has no "
			  "forwarding tables (take a snapshot with "
			  "discover --routes, or give --routes DUMP)");
		goto out_free_analysis;
	}
	if (heat && an && an->routes) {
		d.heat = an->routes; /* the analysis traced them already */
	} else if (heat) {
		t0 = cli_now();
		/* levels tell which ports go up; without the analysis,
		 * a topology of its own */
		if (!an) {
			to.flags = IBTOPO_TOPOLOGY_NO_SERVER_PAIRS |
				   IBTOPO_TOPOLOGY_NO_PATHS;
			if (ibtopo_topology_analyze(&topo, fabric, &to, NULL,
						    &err)) {
				cli_fail(&err);
				goto out_free_analysis;
			}
		}
		ro.bisections = 0;
		ro.flags |= IBTOPO_ROUTES_NO_CREDIT_LOOPS;
		if (ibtopo_routes_analyze(&routes, fabric,
					  an ? an->topology : topo, &ro, NULL,
					  &err)) {
			cli_fail(&err);
			goto out_free_analysis;
		}
		cli_step(g, "routes", t0, "%zu LIDs traced", routes->dest_lids);
		d.heat = routes;
	}
	t0 = cli_now();
	if (output_file_open(&out, output, false))
		goto out_free_analysis;
	if (ibtopo_diagram_image(out.path, format, fabric, &d, &err)) {
		output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free_analysis;
	}
	rc = output_file_close(&out);
	if (rc == EXIT_CLEAN)
		cli_step(g, "render", t0, "diagram to '%s'", out.name);
out_free_analysis:
	ibtopo_routes_free(routes);
	ibtopo_topology_free(topo);
	ibtopo_analysis_free(an);
out_release_findings:
	ibtopo_findings_release(&findings);
out_free_other:
	ibtopo_fabric_free(other);
out_free_fabric:
	ibtopo_fabric_free(fabric);
	return rc;
}
