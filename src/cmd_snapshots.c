/* cmd_snapshots.c - ibtopo snapshots: list the stored snapshots */
#include "commands.h"

#include <getopt.h>

enum { OPT_FORMAT = CLI_LONG };

static const struct cli_opt opts[] = {
	{ "format", 0, 1, "FMT", "output format: text (default), json or csv" },
	{ NULL },
};

static int cmd_snapshots_exec(const struct cli_cmd *self, int argc, char **argv,
			      const struct cli_global *g);

const struct cli_cmd cmd_snapshots_entry = {
	.name = "snapshots",
	.summary = "list the stored snapshots, oldest first",
	.args = "[--format text|json|csv]",
	.details =
		"Each snapshot has an id, an optional label, the UTC time it was\n"
		"taken, its switch, CA and link counts, whether discovery was\n"
		"partial, and the host and source it came from. Any of the id,\n"
		"the label, 'latest' or 'latest~N' names it in other commands.\n"
		"JSON: {\"schema_version\":1,\"snapshots\":[{\"id\",\"label\","
		"\"taken_at\",...}]}.",
	.opts = opts,
	.exec = cmd_snapshots_exec,
	.flags = CLI_NEEDS_DB,
};

static int cmd_snapshots_exec(const struct cli_cmd *self, int argc, char **argv,
			      const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	enum ibtopo_format format = IBTOPO_FORMAT_TEXT;
	struct ibtopo_sink ro;
	struct ibtopo_store *store = NULL;
	struct ibtopo_snapshot *list = NULL;
	struct cli_state st = { 0 };
	size_t count = 0;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!cli_parse_format(self, st.optarg, &format))
				return EXIT_TROUBLE;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (st.optind < argc)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind]);

	if (cli_open_store(&store, g, IBTOPO_STORE_READONLY, &err))
		return cli_fail(&err);
	rc = ibtopo_store_list(&list, &count, store, &err);
	if (rc == 0) {
		ro = cli_stdout_sink(format);
		rc = ibtopo_report_snapshots(&ro, list, count, &err);
	}
	ibtopo_snapshot_list_free(list, count);
	ibtopo_store_free(store);
	if (rc == 0 && fflush(stdout) != 0)
		return cli_failf("cannot write output");
	return rc ? cli_fail(&err) : EXIT_CLEAN;
}
