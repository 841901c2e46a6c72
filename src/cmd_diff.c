/* cmd_diff.c - ibtopo diff: what changed between two snapshots or files */
#include "commands.h"
#include "fabric_pair.h"

#include <getopt.h>
#include <string.h>

/* OPT_FORMAT: cli_opt_format, cli_getopt's */
enum { OPT_FORMAT = CLI_LONG, OPT_LIDS };

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(OPT_LIDS, "lids", 0, NULL,
		     "also report LIDs that changed"),
	{ NULL },
};

static int cmd_diff_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g);

const struct cli_cmd cmd_diff_entry = {
	.name = "diff",
	.summary = "show what changed between two snapshots or fabric files",
	.args = "OLD NEW [--lids] [--format text|json|csv]",
	.details =
		"OLD and NEW are each a snapshot REF (id, label, 'latest',\n"
		"'latest~N') or a fabric file; a stored OLD later than a stored\n"
		"NEW (counters read after it, or discovered after it) is refused.\n"
		"Nodes are the same when their GUIDs\n"
		"are; links when both ends (node GUID, port) are. Changes:\n"
		"  node-added, node-removed   (a node's links are counted there)\n"
		"  node-renamed               description changed\n"
		"  link-moved                 one cable in another port or node, or\n"
		"                             two cables swapped (detail: one-end,\n"
		"                             both-ports, swapped)\n"
		"  link-added, link-removed\n"
		"  link-speed-changed, link-width-changed\n"
		"  port-state-changed         logical or physical state; in the\n"
		"                             text, 4 or more ports that came up\n"
		"                             alike are one line, \"N ports\"\n"
		"  lid-changed                with --lids: changed, assigned\n"
		"                             (none before) or lost\n"
		"  port-error-rate, link-flapping  error counters grown (both\n"
		"                             with counters: growth, per hour)\n"
		"JSON: " CLI_JSON
		",\"findings\":[...]}, a change each; ends a/b\n"
		"are the link as it was, c/d as it is (link-moved).\n"
		"Two fabrics with no node GUID in common are said, in the text,\n"
		"to be different fabrics before their changes.\n"
		"Exit status 1 when anything changed, 0 when nothing did.",
	.opts = opts,
	.exec = cmd_diff_exec,
	.flags = CLI_NEEDS_DB,
};

static int cmd_diff_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_diff_opts dopts = IBTOPO_DIFF_OPTS_INIT;
	struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric *old = NULL, *new_ = NULL;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_analysis *old_an = NULL, *new_an = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { .report = &rep, .global = g };
	double t1;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LIDS:
			dopts.flags |= IBTOPO_DIFF_LIDS;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	c = cli_operands(self, &st, argc, argv, 2);
	if (c >= 0 && c < 2)
		return cli_usage_error(self, "diff needs OLD and NEW");
	if (c < 0)
		return EXIT_TROUBLE;

	rc = load_fabric_pair(&old, &new_, g, argv[st.optind],
			      argv[st.optind + 1], &err);
	if (!rc && cli_check_order(old, new_, "OLD", "NEW", true, &err)) {
		ibtopo_fabric_free(old);
		ibtopo_fabric_free(new_);
		old = new_ = NULL;
		rc = EXIT_TROUBLE;
	}
	if (rc) {
		rc = cli_fail(&err);
		goto out;
	}
	t1 = cli_now();
	/* NEW's health against OLD: the counters' growth */
	ao.since = old;
	ao.flags |= IBTOPO_ANALYZE_NO_CHECKS;
	if (cli_analysis(&old_an, old, NULL, g) ||
	    cli_analysis(&new_an, new_, &ao, g)) {
		rc = EXIT_TROUBLE;
		goto out_free_list;
	}
	if (ibtopo_fabric_diff(&list, old_an, new_an, &dopts, &err)) {
		rc = cli_fail(&err);
		goto out_free_list;
	}
	cli_step(g, "compare", t1, "%zu changes", list.count);
	ro = cli_stdout_sink(rep.format);
	if (ibtopo_report_findings_of(&ro, "changes", &list, old, new_, &err)) {
		rc = cli_fail(&err);
		goto out_free_list;
	}
	/* any change or deviation is one, whatever its severity */
	rc = cli_report_exit(&list, IBTOPO_SEV_INFO);
out_free_list:
	ibtopo_analysis_free(new_an);
	ibtopo_analysis_free(old_an);
	ibtopo_findings_release(&list);
	ibtopo_fabric_free(new_);
	ibtopo_fabric_free(old);
out:
	return rc;
}
