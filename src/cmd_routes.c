/* cmd_routes.c - ibtopo routes: what the forwarding tables do with traffic */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_ROUTES = CLI_LONG,
	OPT_BISECTIONS,
	OPT_SEED,
	OPT_FAIL_ON, /* cli_opt_fail_on and cli_opt_format: cli_getopt's */
	OPT_FORMAT,
};

static const struct cli_opt opts[] = {
	CLI_OPT_SAME_ID(OPT_ROUTES, cli_opt_routes_dump),
	CLI_LONG_OPT(
		OPT_BISECTIONS, "bisections", 1, "N",
		"random bisections for the effective bisection bandwidth (default 100; 0 = none)"),
	CLI_LONG_OPT(OPT_SEED, "seed", 1, "N",
		     "seed of the bisections (default 1)"),
	CLI_OPT_SAME(cli_opt_fail_on),
	CLI_OPT_SAME(cli_opt_format),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

/* A fabric without LIDs has nothing to route: why, and what to do. */
static int no_lids(const struct ibtopo_fabric *fabric, const char *what)
{
	const char *source = ibtopo_fabric_meta(fabric)->source;

	if (source && strncmp(source, "discover:", 9) == 0)
		return cli_failf("no LIDs in %s: no subnet manager had "
				 "configured the fabric when it was "
				 "discovered, so no forwarding tables could "
				 "be read and no route traced (start one, "
				 "e.g. opensm, then discover --routes)",
				 what);
	return cli_failf("no LIDs in %s (an ibsim net file, or a sweep "
			 "before a subnet manager ran, has none): routes "
			 "need the LIDs a subnet manager assigned "
			 "(discover --routes, or ibnetdiscover output)",
			 what);
}

static int cmd_routes_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_routes_entry = {
	.name = "routes",
	.summary =
		"check the switches' routing: reachability, balance, credit loops",
	.args = "[REF|FILE] [--routes DUMP] [--bisections N] [--seed N] " CLI_ARGS_ANALYSIS
		" [--fail-on error|warning|never] [--format text|json|csv]",
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
		"paths (parallel cables count); each pair counted once, as path\n"
		"diversity counts them, by its direction that uses fewer spines.\n"
		"Effective bisection bandwidth: mean and min over N random\n"
		"bisections of the CA ports into pairs (seeded, reproducible).\n"
		"Multicast (a second --routes DUMP: opensm.mcfdbs, dump_fts -M;\n"
		"discover --routes reads them and the SA's groups): per MLID, the\n"
		"links both ends forward on must join every member with no cycle:\n"
		"mcast-unreached (error; detail ipoib-broadcast: ARP fails),\n"
		"mcast-loop (error), mcast-dead-end (warning), mcast-disconnected\n"
		"(warning); \"mcast\":{\"groups_read\",\"groups\",\"mlids\":[...]}.\n"
		"JSON: " CLI_JSON ",\"routes\":{\"engine\",\"ca_pairs\",\n"
		"\"unreachable_pairs\",\"loops\",\"credit_loops\",\"hops\",\"ports\":[...],\n"
		"\"ebb\":{...},...},\"findings\":[...]}. CSV: the port table, an\n"
		"empty line, then the findings table (analyze --format csv's).",
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
			   struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_routes_opts *ro = &ao.routes;
	const struct ibtopo_findings *findings;
	const struct ibtopo_routes *routes;
	const struct ibtopo_mcast *mcast;
	const struct ibtopo_findings *mfound;
	struct ibtopo_findings all = IBTOPO_FINDINGS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct cli_source src = { .what = NULL };
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_sink so;
	struct cli_state st = { .report = &rep, .analyze = &ao, .global = g };
	int c, rc = EXIT_TROUBLE;
	uint64_t v;
	double t0;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_ROUTES:
			if (cli_source_routes(&src, self, st.optarg))
				return EXIT_TROUBLE;
			break;
		case OPT_BISECTIONS:
			if (!parse_u64(st.optarg, 100000, &v))
				return cli_usage_error(
					self,
					"bad --bisections '%s' (a number from 0 to 100000)",
					st.optarg);
			ro->bisections = (unsigned)v;
			break;
		case OPT_SEED:
			if (!parse_u64(st.optarg, UINT64_MAX, &ro->seed))
				return cli_usage_error(
					self, "bad --seed '%s' (a number)",
					st.optarg);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (cli_load_operand(&fabric, self, &st, argc, argv, g, &src))
		return EXIT_TROUBLE;
	/* multicast forwarding needs no LIDs; unicast routes do */
	if (!cli_fabric_has_lids(fabric) && !ibtopo_fabric_has_mfts(fabric)) {
		rc = no_lids(fabric, src.what ? src.what : "latest");
		goto out_free;
	}
	/* the routing, on the levels and the cabled paths of leaf pairs
	 * (the topology's own findings are analyze's) */
	ao.flags |= IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_HEALTH;
	ao.topology.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	if (cli_analysis(&an, fabric, &ao, g))
		goto out_free;
	t0 = cli_now();
	if (ibtopo_analysis_routes(an, &routes, &err) ||
	    ibtopo_analysis_section_findings(an, IBTOPO_SECTION_ROUTES,
					     &findings, &err) ||
	    ibtopo_analysis_mcast(an, &mcast, &err) ||
	    ibtopo_analysis_section_findings(an, IBTOPO_SECTION_MCAST, &mfound,
					     &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (!routes && !mcast) {
		cli_failf("no forwarding tables (discover --routes, or "
			  "--routes DUMP)");
		goto out_free;
	}
	/* the unicast findings, then the multicast ones */
	for (size_t i = 0; i < findings->count + mfound->count; i++)
		if (ibtopo_findings_add(
			    &all,
			    i < findings->count ?
				    &findings->items[i] :
				    &mfound->items[i - findings->count],
			    &err)) {
			cli_fail(&err);
			goto out_free;
		}
	cli_step(g, "routes", t0, "%zu LIDs traced, %zu MLIDs, %zu findings",
		 routes ? routes->dest_lids : 0, mcast ? mcast->nmlids : 0,
		 all.count);
	so = cli_stdout_sink(rep.format);
	if (ibtopo_report_routes_mcast(&so, routes, mcast, &all, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	rc = cli_report_exit(&all, rep.fail_on);
out_free:
	ibtopo_findings_release(&all);
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(fabric);
	return rc;
}
