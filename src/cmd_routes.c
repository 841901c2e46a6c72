/* cmd_routes.c - ibtopo routes: what the forwarding tables do with traffic */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_ROUTES = CLI_LONG,
	OPT_BISECTIONS,
	OPT_SEED,
	OPT_FAIL_ON,
	OPT_FORMAT,
};

static const struct cli_opt opts[] = {
	{ "routes", 0, 1, "DUMP",
	  "forwarding tables from a file (opensm-lfts.dump, ibroute/dump_fts output, .fdbs) for this run" },
	{ "bisections", 0, 1, "N",
	  "random bisections for the effective bisection bandwidth (default 100; 0 = none)" },
	{ "seed", 0, 1, "N", "seed of the bisections (default 1)" },
	{ "fail-on", 0, 1, "LEVEL",
	  "exit 1 on findings at or above error (default), warning or never" },
	{ "format", 0, 1, "FMT", "output format: text (default), json or csv" },
	{ NULL },
};

static int cmd_routes_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_routes_entry = {
	.name = "routes",
	.summary =
		"check the switches' routing: reachability, balance, credit loops",
	.args = "[REF|FILE] [--routes DUMP] [--bisections N] [--seed N] [--fail-on error|warning|never] [--format text|json|csv]",
	.details =
		"REF (default: latest) is a snapshot taken with discover --routes,\n"
		"or any REF or FILE with --routes DUMP (the fabric must have LIDs:\n"
		"a discovered fabric or ibnetdiscover output). Routes are traced\n"
		"from every CA port to every LID (CA ports' LID/LMC ranges, switch\n"
		"port 0). Findings, each at the switch and port where the route\n"
		"goes wrong (`a`) for a destination LID (`b`, \"lid\"), with the CA\n"
		"routes it hits (\"routes\"): route-black-hole (error; entry 255, a\n"
		"missing, unconnected or inactive port, a wrong node), route-loop\n"
		"(error), route-not-minimal (warning; more links than the cables\n"
		"need), credit-loop (error; a cycle in the channel dependency graph\n"
		"of the CA routes on one VL, the links in \"detail\"). Balance: CA\n"
		"routes and destination LIDs per switch out-port, per level; leaf\n"
		"pairs: distinct spines used by routes against the distinct spines\n"
		"the cables reach (node-disjoint paths), and the edge-disjoint\n"
		"paths (parallel cables count).\n"
		"Effective bisection bandwidth: mean and min over N random\n"
		"bisections of the CA ports into pairs (seeded, reproducible).\n"
		"JSON: {\"schema_version\":1,\"routes\":{\"engine\",\"ca_pairs\",\n"
		"\"unreachable_pairs\",\"loops\",\"credit_loops\",\"hops\",\"ports\":[...],\n"
		"\"ebb\":{...},...},\"findings\":[...]}.",
	.opts = opts,
	.exec = cmd_routes_exec,
	.flags = CLI_NEEDS_DB,
};

static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static int cmd_routes_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_findings findings = IBTOPO_FINDINGS_INIT;
	struct ibtopo_topology_opts to = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_routes_opts ro = IBTOPO_ROUTES_OPTS_INIT;
	enum ibtopo_format format = IBTOPO_FORMAT_TEXT;
	struct cli_source src = { .what = NULL };
	struct ibtopo_topology *topo = NULL;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_routes *routes = NULL;
	struct ibtopo_sink so;
	struct cli_state st = { 0 };
	int c, rc = EXIT_TROUBLE, fail_on = IBTOPO_SEV_ERROR;
	uint64_t v;
	double t0;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_ROUTES:
			src.routes = st.optarg;
			break;
		case OPT_BISECTIONS:
			if (!parse_u64(st.optarg, 100000, &v))
				return cli_usage_error(
					self,
					"bad --bisections '%s' (a number from 0 to 100000)",
					st.optarg);
			ro.bisections = (unsigned)v;
			break;
		case OPT_SEED:
			if (!parse_u64(st.optarg, UINT64_MAX, &ro.seed))
				return cli_usage_error(
					self, "bad --seed '%s' (a number)",
					st.optarg);
			break;
		case OPT_FAIL_ON:
			if (!cli_parse_fail_on(st.optarg, &fail_on))
				return cli_usage_error(
					self,
					"unknown --fail-on '%s' (error, warning or never)",
					st.optarg);
			break;
		case OPT_FORMAT:
			if (!cli_parse_format(self, st.optarg, &format))
				return EXIT_TROUBLE;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	if (argc - st.optind == 1)
		src.what = argv[st.optind];

	if (cli_load_fabric(&fabric, g, &src, &err))
		return cli_fail(&err);
	t0 = cli_now();
	/* levels and the cabled paths of leaf pairs; its findings are
	 * analyze's */
	to.flags = IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	if (ibtopo_topology_analyze(&topo, fabric, &to, NULL, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "topology", t0, "%u levels", ibtopo_topology_levels(topo));
	t0 = cli_now();
	if (ibtopo_routes_analyze(&routes, fabric, topo, &ro, &findings,
				  &err)) {
		cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "routes", t0, "%zu LIDs traced, %zu findings",
		 routes->dest_lids, findings.count);
	so = cli_stdout_sink(format);
	if (ibtopo_report_routes(&so, routes, &findings, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (fflush(stdout) != 0) {
		cli_failf("cannot write output");
		goto out_free;
	}
	rc = ibtopo_findings_max_severity(&findings) >= fail_on ?
		     EXIT_FINDINGS :
		     EXIT_CLEAN;
out_free:
	ibtopo_findings_release(&findings);
	ibtopo_routes_free(routes);
	ibtopo_topology_free(topo);
	ibtopo_fabric_free(fabric);
	return rc;
}
