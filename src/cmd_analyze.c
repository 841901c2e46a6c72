/* cmd_analyze.c - ibtopo analyze: findings about a snapshot or a fabric file */
#include "commands.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_CABLES = CLI_LONG,
	OPT_CABLE_REACH,
	OPT_FAIL_ON, /* cli_opt_fail_on and cli_opt_format: cli_getopt's */
	OPT_FORMAT,
	OPT_MIN_PATHS,
	OPT_ROOTS, /* cli_opt_roots, root_pattern, servers: cli_getopt's */
	OPT_ROOT_PATTERN,
	OPT_SERVERS,
	OPT_ROUTES,
	OPT_THRESHOLDS,
};

static const struct cli_opt opts[] = {
	CLI_LONG_OPT(OPT_CABLES, "cables", 1, "FILE",
		     "cable inventory CSV or ibdiagnet2 .db_csv to merge"),
	CLI_LONG_OPT(
		OPT_CABLE_REACH, "cable-reach", 1, "FILE",
		"cable reach table (default: the built-in data/cable-reach.tsv)"),
	CLI_OPT_SAME(cli_opt_fail_on),
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(
		OPT_MIN_PATHS, "min-paths", 1, "N",
		"independent paths wanted between leaf switches (default 2)"),
	CLI_OPTS_ANALYSIS,
	CLI_OPT_SAME_ID(OPT_ROUTES, cli_opt_routes_dump),
	CLI_LONG_OPT(
		OPT_THRESHOLDS, "thresholds", 1, "FILE",
		"port health: error thresholds, Name=value lines (as health)"),
	{ NULL },
};

static int cmd_analyze_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g);

const struct cli_cmd cmd_analyze_entry = {
	.name = "analyze",
	.summary =
		"report the layout and the link, cable and topology findings",
	.args = "[REF|FILE] [--cables FILE] [--cable-reach FILE] [--min-paths N] " CLI_ARGS_ANALYSIS
		" [--routes DUMP] [--thresholds FILE] [--fail-on error|warning|never] [--format text|json|csv]",
	.details =
		"REF is a snapshot id, a label, 'latest' or 'latest~N' (default:\n"
		"latest); an existing FILE is read instead of the database.\n"
		"Findings: speed-downgrade and width-downgrade (proven from PortInfo:\n"
		"error; inferred from peer links in text dumps: warning), cable-\n"
		"underrated (warning), cable-over-length (error), loopback-cable\n"
		"(warning). A text dump's link slower than the other links of its\n"
		"class (host links of its switch or of switches of the same model;\n"
		"inter-switch links of one end) is an info speed-downgrade: cause\n"
		"device-limit when the slower end's model runs no faster on any of\n"
		"its links (a DDR-only adapter among QDR ones); info never fails a\n"
		"run. --cables takes a CSV with the header\n"
		"node_a,port_a,node_b,port_b,media,length_m,part_number or the\n"
		"ibdiagnet2.db_csv file (its CABLE_INFO section), merged over the\n"
		"cables stored with the snapshot (import --cables, discover\n"
		"--cables), which are checked without it; nothing is stored.\n"
		"A row naming a node, port or peer the fabric lacks is a\n"
		"cable-row-unmatched finding (warning) and the other rows are used;\n"
		"a malformed file (bad header, bad number) fails the run.\n"
		"The layout: class (single-switch, star, fat-tree, rail-optimized,\n"
		"dragonfly-plus, irregular), switch levels, oversubscription and\n"
		"bisection bandwidth per level, directors' line and fabric levels,\n"
		"rails and scalable units, Dragonfly+ groups and global links, and\n"
		"path diversity between leaf switches and between servers; findings\n"
		"fat-tree-violation, rail-mismatch, dragonfly-violation and\n"
		"low-path-diversity (warnings). Port health, when the snapshot\n"
		"carries counters: port-errors (warning) for an error counter\n"
		"above its threshold (0, or --thresholds FILE's, as health reads\n"
		"it); a cable over length or under-rated whose ports have errors\n"
		"is one failing-cable (error). Servers with all\n"
		"links on one switch are single-homed: with --servers dual (the\n"
		"default when most servers are dual-homed) each is a warning; with\n"
		"--servers single one info finding counts them and the JSON lists\n"
		"them (topology.server_policy).\n"
		"With forwarding tables (discover --routes, or --routes DUMP) the\n"
		"routing section of `ibtopo routes` and its findings; tables without\n"
		"LIDs (no subnet manager had run) are left out with a warning.\n"
		"JSON: " CLI_JSON
		",\"fabric\":NAME (a snapshot's),\"snapshot\":\n"
		"{\"id\",\"label\",\"source\",\"switches\",\"cas\",\"routers\",\"links\",\n"
		"\"cables\",\"partial\"},\"topology\":{...},\"paths\":{...},\"routes\":\n"
		"{...} (with tables),\"findings\":[...]} (doc/json.md).",
	.opts = opts,
	.exec = cmd_analyze_exec,
	.flags = CLI_NEEDS_DB,
};

static int cmd_analyze_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_analysis *an = NULL;
	const struct ibtopo_findings *findings;
	struct ibtopo_findings unmatched = IBTOPO_FINDINGS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { .report = &rep, .analyze = &ao, .global = g };
	struct cli_source src = { .what = NULL };
	const char *cables = NULL;
	int c, rc;
	double t0;
	char *end;
	long n;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_CABLES:
			cables = st.optarg;
			break;
		case OPT_CABLE_REACH:
			ao.checks.reach_path =
				cli_input_arg(st.optarg, &ao.reach_text);
			break;
		case OPT_MIN_PATHS:
			n = strtol(st.optarg, &end, 10);
			if (*end || end == st.optarg || n < 1 || n > 1000)
				return cli_usage_error(
					self,
					"bad --min-paths '%s' (a number from 1 to 1000)",
					st.optarg);
			ao.topology.min_paths = (unsigned)n;
			break;
		case OPT_ROUTES:
			if (cli_source_routes(&src, self, st.optarg))
				return EXIT_TROUBLE;
			break;
		case OPT_THRESHOLDS:
			ao.health.thresholds_path =
				cli_input_arg(st.optarg, &ao.thresholds_text);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (cli_load_operand(&fabric, self, &st, argc, argv, g, &src))
		return EXIT_TROUBLE;
	rc = EXIT_TROUBLE;
	/* tables without LIDs (discover --routes before a subnet manager
	 * ran) route nothing: the rest of the report still stands */
	if (ibtopo_fabric_has_routes(fabric) && !cli_fabric_has_lids(fabric)) {
		cli_warn(NULL, "routes not analyzed: the fabric has no LIDs "
			       "(no subnet manager had configured it)");
		ao.flags |= IBTOPO_ANALYZE_NO_ROUTES;
	}
	if (cli_merge_cables(fabric, g, cables, &unmatched) ||
	    cli_analysis(&an, fabric, &ao, g))
		goto out_free_fabric;
	/* the cable rows that matched nothing come first: they are input */
	t0 = cli_now();
	if (ibtopo_analysis_note(an, &unmatched, &err) ||
	    ibtopo_analysis_findings(an, &findings, &err)) {
		cli_fail(&err);
		goto out_free_analysis;
	}
	cli_step(g, "analyze", t0, "%zu findings", findings->count);
	t0 = cli_now();
	ro = cli_stdout_sink(rep.format);
	if (ibtopo_report_analysis(&ro, an, &err)) {
		cli_fail(&err);
		goto out_free_analysis;
	}
	cli_step(g, "render", t0, "%s report on standard output",
		 rep.format == IBTOPO_FORMAT_JSON ? "json" :
		 rep.format == IBTOPO_FORMAT_CSV  ? "csv" :
						    "text");
	rc = cli_report_exit(findings, rep.fail_on);
out_free_analysis:
	ibtopo_analysis_free(an);
out_free_fabric:
	ibtopo_findings_release(&unmatched);
	ibtopo_fabric_free(fabric);
	return rc;
}
