/* cmd_health.c - ibtopo health: port counters, their growth, findings */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_SINCE = CLI_LONG,
	OPT_THRESHOLDS,
	OPT_FAIL_ON,
	OPT_FORMAT,
};

static const struct cli_opt opts[] = {
	{ "since", 0, 1, "REF",
	  "compare with this earlier snapshot: growth and rates per hour" },
	{ "thresholds", 0, 1, "FILE",
	  "error thresholds, Name=value lines as ibqueryerrors reads them (default 0)" },
	{ "fail-on", 0, 1, "LEVEL",
	  "exit 1 on findings at or above error (default), warning or never" },
	{ "format", 0, 1, "FMT", "output format: text (default), json or csv" },
	{ NULL },
};

static int cmd_health_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_health_entry = {
	.name = "health",
	.summary = "report port error counters and their growth",
	.args = "[REF] [--since REF] [--thresholds FILE] [--fail-on error|warning|never] [--format text|json|csv]",
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
		"JSON: {\"schema_version\":1,\"ports\":[...],\"findings\":[...]}.",
	.opts = opts,
	.exec = cmd_health_exec,
	.flags = CLI_NEEDS_DB,
};

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
	const char *what = NULL, *since = NULL;
	int c, rc = EXIT_TROUBLE, fail_on = IBTOPO_SEV_ERROR;

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
	if (since &&
	    cli_load_fabric(&before, g, &(struct cli_source){ .what = since },
			    &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (ibtopo_health_analyze(&health, &findings, now, before, &ho, &err)) {
		cli_fail(&err);
		goto out_free;
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
	ibtopo_health_free(health);
	ibtopo_findings_release(&findings);
	ibtopo_fabric_free(before);
	ibtopo_fabric_free(now);
	return rc;
}
