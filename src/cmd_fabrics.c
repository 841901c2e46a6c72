/* cmd_fabrics.c - ibtopo fabrics: list the fabrics of the database, and
 * rename one */
#include "commands.h"

#include <stdlib.h>

enum { OPT_FORMAT = CLI_LONG, OPT_RENAME };

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_OPT("rename", 0, 1, "OLD",
		"rename fabric OLD to NEW (the argument)"),
	{ NULL },
};

static int cmd_fabrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    const struct cli_global *g);

const struct cli_cmd cmd_fabrics_entry = {
	.name = "fabrics",
	.summary = "list the fabrics of the database, by name",
	.args = "[--format text|json|csv] [--rename OLD NEW]",
	.details =
		"Every snapshot belongs to a fabric (a subnet): the one --fabric\n"
		"NAME or $IBTOPO_FABRIC names when it is stored, else the fabric\n"
		"whose latest snapshot shares at least half of its switch GUIDs,\n"
		"else a new one named for its subnet prefix and lowest switch GUID\n"
		"(fe80-0008f10400411a08). Labels and 'latest~N' are read within a\n"
		"fabric; with several fabrics, name one with --fabric.\n"
		"Each line: the name, the subnet prefix and master SM (LID, port\n"
		"GUID) of its latest snapshot, its number of snapshots, the latest\n"
		"one's id and time, and its switches and CAs.\n"
		"JSON: " CLI_JSON ",\"fabrics\":[{\"name\","
		"\"subnet_prefix\",\"sm_lid\",\"sm_guid\",\"snapshots\",\n"
		"\"latest_id\",\"latest_at\",\"switches\",\"cas\"}]}.\n"
		"--rename OLD NEW renames a fabric (its snapshots follow it) and\n"
		"prints nothing.",
	.opts = opts,
	.exec = cmd_fabrics_exec,
	.flags = CLI_NEEDS_DB,
};

static int rename_fabric(const struct cli_global *g, const char *old_name,
			 const char *new_name)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	int rc;

	if (cli_open_store(&store, g, 0, &err))
		return cli_fail(&err);
	rc = ibtopo_store_rename_fabric(store, old_name, new_name, &err);
	ibtopo_store_free(store);
	return rc ? cli_fail(&err) : EXIT_CLEAN;
}

static int cmd_fabrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric_info *list = NULL;
	struct ibtopo_store *store = NULL;
	struct cli_state st = { .report = &rep };
	const char *old_name = NULL;
	struct ibtopo_sink ro;
	size_t count = 0;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_RENAME:
			old_name = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (old_name) {
		if (rep.format_given)
			return cli_usage_error(
				self, "--format lists; --rename lists nothing");
		if (argc - st.optind != 1)
			return cli_usage_error(self,
					       "--rename OLD NEW: give NEW");
		return rename_fabric(g, old_name, argv[st.optind]);
	}
	if (cli_operands(self, &st, argc, argv, 0) < 0)
		return EXIT_TROUBLE;

	rc = cli_open_store(&store, g, IBTOPO_STORE_READONLY, &err);
	if (rc == IBTOPO_ENOTFOUND) {
		/* no database yet: no fabric yet, and none created */
		ro = cli_stdout_sink(rep.format);
		rc = ibtopo_store_report_fabrics(&ro, NULL, 0, &err);
		return rc ? cli_fail(&err) : cli_report_exit(NULL, 0);
	}
	if (rc)
		return cli_fail(&err);
	rc = ibtopo_store_fabrics(&list, &count, store, &err);
	if (rc == 0) {
		ro = cli_stdout_sink(rep.format);
		rc = ibtopo_store_report_fabrics(&ro, list, count, &err);
	}
	ibtopo_fabric_info_list_free(list, count);
	ibtopo_store_free(store);
	return rc ? cli_fail(&err) : cli_report_exit(NULL, 0);
}
