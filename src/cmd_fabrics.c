/* cmd_fabrics.c - ibtopo fabrics: list the fabrics of the database,
 * rename, merge or delete one */
#include "commands.h"

#include <stdlib.h>

enum {
	OPT_FORMAT = CLI_LONG,
	OPT_RENAME,
	OPT_MERGE,
	OPT_DELETE,
	OPT_WITH_SNAPSHOTS,
};

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(OPT_RENAME, "rename", 1, "OLD",
		     "rename fabric OLD to NEW (the argument)"),
	CLI_LONG_OPT(
		OPT_MERGE, "merge", 1, "FROM",
		"move the snapshots of fabric FROM into INTO (the argument), "
		"and delete FROM"),
	CLI_LONG_OPT(OPT_DELETE, "delete", 1, "NAME",
		     "delete fabric NAME (one without snapshots)"),
	CLI_LONG_OPT(OPT_WITH_SNAPSHOTS, "with-snapshots", 0, NULL,
		     "with --delete: delete its snapshots too"),
	{ NULL },
};

static int cmd_fabrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g);

const struct cli_cmd cmd_fabrics_entry = {
	.name = "fabrics",
	.summary = "list the fabrics of the database, by name",
	.args = "[--format text|json|csv] [--rename OLD NEW] [--merge FROM INTO] [--delete NAME [--with-snapshots]]",
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
		"--rename OLD NEW renames a fabric (its snapshots follow it);\n"
		"--merge FROM INTO moves the snapshots of FROM into INTO (one\n"
		"fabric under two names: a label both use is refused) and deletes\n"
		"FROM; --delete NAME deletes a fabric without snapshots, with\n"
		"--with-snapshots its snapshots too. They print nothing (-v: what\n"
		"was deleted).",
	.opts = opts,
	.exec = cmd_fabrics_exec,
	.flags = CLI_NEEDS_DB,
};

/* --rename, --merge and --delete: what each does to the store */
struct change {
	const char *rename, *merge, *remove;
	bool with_snapshots;
};

static int change_fabrics(const struct cli_global *g, const struct change *c,
			  const char *arg)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	int64_t deleted = 0;
	int rc;

	if (cli_open_store(&store, g, 0, &err))
		return cli_fail(&err);
	if (c->rename)
		rc = ibtopo_store_rename_fabric(store, c->rename, arg, &err);
	else if (c->merge)
		rc = ibtopo_store_merge_fabric(store, c->merge, arg, &err);
	else
		rc = ibtopo_store_delete_fabric(
			store, c->remove,
			c->with_snapshots ? IBTOPO_FABRIC_DELETE_SNAPSHOTS : 0,
			&deleted, &err);
	ibtopo_store_free(store);
	if (rc && c->remove && err.code == IBTOPO_EEXIST)
		return cli_failf("%s: not deleted (--with-snapshots deletes "
				 "the snapshots too; --merge %s OTHER keeps "
				 "them in another fabric)",
				 err.message, c->remove);
	if (rc)
		return cli_fail(&err);
	if (c->remove && g->verbose)
		fprintf(stderr,
			"ibtopo: deleted fabric '%s' and %lld snapshot%s\n",
			c->remove, (long long)deleted, deleted == 1 ? "" : "s");
	return EXIT_CLEAN;
}

/* The one change asked for, with its operands; an exit status or -1 to
 * list the fabrics. */
static int change_args(const struct cli_cmd *self, const struct change *c,
		       bool format_given, int optind, int argc, char **argv,
		       const struct cli_global *g)
{
	int n = !!c->rename + !!c->merge + !!c->remove;

	if (!n) {
		if (c->with_snapshots)
			return cli_usage_error(self, "--with-snapshots goes "
						     "with --delete NAME");
		return -1;
	}
	if (n > 1)
		return cli_usage_error(self, "one of --rename, --merge and "
					     "--delete at a time");
	if (format_given)
		return cli_usage_error(self,
				       "--format lists; --rename, "
				       "--merge and --delete list nothing");
	if (c->with_snapshots && !c->remove)
		return cli_usage_error(self, "--with-snapshots goes with "
					     "--delete NAME");
	if (c->remove)
		return argc - optind ?
			       cli_usage_error(self, "--delete NAME: no "
						     "other operand") :
			       change_fabrics(g, c, NULL);
	if (argc - optind != 1)
		return cli_usage_error(
			self, c->rename ? "--rename OLD NEW: give NEW" :
					  "--merge FROM INTO: give INTO");
	return change_fabrics(g, c, argv[optind]);
}

static int cmd_fabrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric_info *list = NULL;
	struct ibtopo_store *store = NULL;
	struct cli_state st = { .report = &rep, .global = g };
	struct change change = { NULL };
	struct ibtopo_sink ro;
	size_t count = 0;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_RENAME:
			change.rename = st.optarg;
			break;
		case OPT_MERGE:
			change.merge = st.optarg;
			break;
		case OPT_DELETE:
			change.remove = st.optarg;
			break;
		case OPT_WITH_SNAPSHOTS:
			change.with_snapshots = true;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	rc = change_args(self, &change, rep.format_given, st.optind, argc, argv,
			 g);
	if (rc >= 0)
		return rc;
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
