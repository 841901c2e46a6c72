/* cmd_health.c - ibtopo health: port counters, their growth, findings */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_SINCE = CLI_LONG,
	OPT_THRESHOLDS,
	OPT_FAIL_ON,
	OPT_FORMAT,
	OPT_COUNTERS,
	OPT_PM_PAUSE,
	OPT_TOP,
};

static const struct cli_opt opts[] = {
	{ "since", 0, 1, "REF",
	  "compare with this earlier snapshot: growth and rates per hour" },
	{ "thresholds", 0, 1, "FILE",
	  "error thresholds, Name=value lines as ibqueryerrors reads them (default 0)" },
	{ "fail-on", 0, 1, "LEVEL",
	  "exit 1 on findings at or above error (default), warning or never" },
	{ "format", 0, 1, "FMT", "output format: text (default), json or csv" },
	{ "counters", 0, 1, "CFILE",
	  "read the counters from CFILE (as import --counters); an "
	  "ibdiagnet2.db_csv's PM_DELTA gives the growth" },
	{ "pm-pause", 0, 1, "SECONDS",
	  "ibdiagnet's --pm_pause_time for PM_DELTA (default 1)" },
	{ "top", 0, 1, "N",
	  "with --since: list the N busiest links (default 10)" },
	{ NULL },
};

static int cmd_health_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_health_entry = {
	.name = "health",
	.summary = "report port error counters and their growth",
	.args = "[REF] [--since REF] [--counters CFILE [--pm-pause SECONDS]] [--top N] [--thresholds FILE] [--fail-on error|warning|never] [--format text|json|csv]",
	.details =
		"REF (default: latest) is a snapshot taken with discover --counters\n"
		"(or a FILE). Findings: port-errors (warning) for an error counter\n"
		"above its threshold (SymbolErrorCounter .. VL15Dropped; default 0,\n"
		"as ibqueryerrors without a thresholds file); with --since,\n"
		"port-error-rate (error) for an error counter that grew, and\n"
		"link-flapping (error) for LinkDownedCounter growth, with the growth\n"
		"per hour between the two readings. `a` is the port whose counter\n"
		"grew, `b` its peer. A saturated counter (at its largest value) grew\n"
		"at least that much; a counter lower than before was reset: neither\n"
		"gives a negative rate.\n"
		"--counters CFILE takes REF's counters from CFILE instead (any\n"
		"format import --counters reads; nothing is stored). Without\n"
		"--since, the PM_DELTA section of an ibdiagnet2.db_csv (ibdiagnet\n"
		"--pm_pause_time) is the growth: PM_INFO is the later reading,\n"
		"PM_INFO - PM_DELTA the one --pm-pause SECONDS before.\n"
		"Traffic (with --since or PM_DELTA): the bytes each link carried\n"
		"each way (PortXmitData growth), the --top N busiest, and per\n"
		"level (host links, then switch levels from the topology\n"
		"analysis) the bytes carried against the links' capacity.\n"
		"JSON: {\"schema_version\":1,\"ports\":[...],\"findings\":[...]}\n"
		"and, with traffic, \"traffic\":{\"links\":[...],\"levels\":[...]}.",
	.opts = opts,
	.exec = cmd_health_exec,
	.flags = CLI_NEEDS_DB,
};

static bool has_counters(const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k] && n->ports[k]->counters)
				return true;
	}
	return false;
}

/* Counters a snapshot stored give way to those of --counters CFILE. */
static void clear_counters(struct ibtopo_fabric *f)
{
	for (size_t i = 0; f && i < ibtopo_fabric_node_count(f); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k])
				ibtopo_port_set_counters(n->ports[k], NULL,
							 NULL);
	}
}

static int cmd_health_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_findings findings = IBTOPO_FINDINGS_INIT;
	struct ibtopo_health_opts ho = IBTOPO_HEALTH_OPTS_INIT;
	enum ibtopo_format format = IBTOPO_FORMAT_TEXT;
	struct ibtopo_fabric *now = NULL, *before = NULL;
	struct ibtopo_health *health = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { 0 };
	struct ibtopo_counters_load_opts copts = IBTOPO_COUNTERS_LOAD_OPTS_INIT;
	const char *what = NULL, *since = NULL, *counters = NULL;
	int c, rc = EXIT_TROUBLE, fail_on = IBTOPO_SEV_ERROR;
	struct ibtopo_topology_opts to = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_topology *topo = NULL;
	size_t unknown = 0, top = 10;
	unsigned long n;
	char *end;
	double pause;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_SINCE:
			since = st.optarg;
			break;
		case OPT_THRESHOLDS:
			ho.thresholds_path = cli_path_arg(st.optarg);
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
		case OPT_COUNTERS:
			counters = cli_path_arg(st.optarg);
			break;
		case OPT_TOP:
			n = strtoul(st.optarg, &end, 10);
			if (end == st.optarg || *end || !n || n > 1000000)
				return cli_usage_error(
					self, "bad --top '%s' (1 or more)",
					st.optarg);
			top = n;
			break;
		case OPT_PM_PAUSE:
			pause = strtod(st.optarg, &end);
			if (end == st.optarg || *end || !(pause > 0) ||
			    pause > 86400)
				return cli_usage_error(
					self,
					"bad --pm-pause '%s' (seconds, more than 0)",
					st.optarg);
			copts.pm_pause_ms = (int64_t)(pause * 1000 + 0.5);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	if (argc - st.optind == 1)
		what = argv[st.optind];

	if (cli_load_fabric(&now, g, &(struct cli_source){ .what = what },
			    &err))
		return cli_fail(&err);
	if ((since || counters) &&
	    cli_load_fabric(&before, g,
			    &(struct cli_source){ .what = since ? since :
								  what },
			    &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (before && cli_check_pair(g, before, now, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (counters) {
		copts.warn = cli_warn;
		copts.before = since ? NULL : before;
		clear_counters(now);
		clear_counters(copts.before);
		if (ibtopo_counters_load(now, counters, &copts, &unknown,
					 &err)) {
			cli_fail(&err);
			goto out_free;
		}
		if (unknown)
			fprintf(stderr,
				"ibtopo: warning: %s: %zu port%s not in the "
				"fabric; their counters are left out\n",
				counters, unknown, unknown == 1 ? "" : "s");
		if (!since && !has_counters(before)) {
			/* no PM_DELTA: one reading */
			ibtopo_fabric_free(before);
			before = NULL;
		}
	}
	if (ibtopo_health_analyze(&health, &findings, now, before, &ho, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (before) {
		/* levels for the traffic per level; no path diversity */
		to.flags |= IBTOPO_TOPOLOGY_NO_PATHS |
			    IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
		if (ibtopo_topology_analyze(&topo, now, &to, NULL, &err) ||
		    ibtopo_health_traffic(health, now, topo, top, &err)) {
			cli_fail(&err);
			goto out_free;
		}
	}
	if (!health->count)
		fprintf(stderr,
			"ibtopo: warning: no port counters in %s "
			"(take snapshots with discover --counters)\n",
			what ? what : "latest");
	ro = cli_stdout_sink(format);
	if (ibtopo_report_health(&ro, health, &findings, &err)) {
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
	ibtopo_topology_free(topo);
	ibtopo_health_free(health);
	ibtopo_findings_release(&findings);
	ibtopo_fabric_free(before);
	ibtopo_fabric_free(now);
	return rc;
}
