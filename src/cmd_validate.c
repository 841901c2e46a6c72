/* cmd_validate.c - ibtopo validate: is the fabric the one that was planned */
#include "commands.h"
#include "fabric_pair.h"

#include <getopt.h>
#include <string.h>

/* OPT_FORMAT: cli_opt_format, cli_getopt's */
enum { OPT_FORMAT = CLI_LONG, OPT_MATCH };

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(OPT_MATCH, "match", 1, "REGEX",
		     "compare the first group of REGEX in node descriptions"),
	{ NULL },
};

static int cmd_validate_exec(const struct cli_cmd *self, int argc, char **argv,
			     struct cli_global *g);

const struct cli_cmd cmd_validate_entry = {
	.name = "validate",
	.summary = "check a fabric against its planned topology",
	.args = "PLAN [REF|FILE] [--match REGEX] [--format text|json|csv]",
	.details =
		"PLAN is a planned topology: ibnetdiscover text with node names\n"
		"where GUIDs would be and the planned speed and width in each\n"
		"port's trailer ('# \"leaf01\" lid 0 4xHDR'), as 'ibtopo plan' writes\n"
		"it; a dump or a snapshot REF of a known-good fabric works too. The\n"
		"fabric checked is a snapshot REF (default: latest) or a file.\n"
		"Plan nodes match actual nodes by GUID when the plan has real GUIDs,\n"
		"else by type and name: the whole description, or with --match the\n"
		"first group of an extended regex applied to both sides, e.g.\n"
		"--match '^([^ ]+)' for hosts described 'host001 mlx5_0'.\n"
		"Findings: missing-node, extra-node, miswired-link (one cable in the\n"
		"wrong port, or two cables swapped: detail one-end, both-ports,\n"
		"swapped), missing-link, extra-link, speed-below-plan,\n"
		"width-below-plan. A node's links are counted in its missing-node\n"
		"or extra-node finding, not listed.\n"
		"JSON: " CLI_JSON ",\"findings\":[...]}.\n"
		"Exit status 1 on any deviation, 0 when the fabric matches.",
	.opts = opts,
	.exec = cmd_validate_exec,
	.flags = CLI_NEEDS_DB,
};

static int cmd_validate_exec(const struct cli_cmd *self, int argc, char **argv,
			     struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_validate_opts vopts = IBTOPO_VALIDATE_OPTS_INIT;
	struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric *plan = NULL, *actual = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { .report = &rep, .global = g };
	double t1;
	int c, rc, nargs;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_MATCH:
			vopts.match = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	nargs = argc - st.optind;
	if (nargs < 1)
		return cli_usage_error(self, "validate needs a PLAN");
	if (cli_operands(self, &st, argc, argv, 2) < 0)
		return EXIT_TROUBLE;

	rc = load_fabric_pair(&plan, &actual, g, argv[st.optind],
			      nargs == 2 ? argv[st.optind + 1] : NULL, &err);
	if (rc) {
		rc = cli_fail(&err);
		goto out;
	}
	t1 = cli_now();
	if (ibtopo_fabric_validate(&list, plan, actual, &vopts, &err)) {
		rc = cli_fail(&err);
		goto out_free_list;
	}
	cli_step(g, "compare", t1, "%zu findings", list.count);
	ro = cli_stdout_sink(rep.format);
	if (ibtopo_report_findings_of(&ro, "findings", &list, plan, actual,
				      &err)) {
		rc = cli_fail(&err);
		goto out_free_list;
	}
	/* any change or deviation is one, whatever its severity */
	rc = cli_report_exit(&list, IBTOPO_SEV_INFO);
out_free_list:
	ibtopo_findings_release(&list);
	ibtopo_fabric_free(actual);
	ibtopo_fabric_free(plan);
out:
	return rc;
}
