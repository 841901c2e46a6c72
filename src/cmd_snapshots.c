/* cmd_snapshots.c - ibtopo snapshots: list the stored snapshots, and
 * delete the ones a site no longer needs */
#include "commands.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPT_FORMAT = CLI_LONG, OPT_DELETE, OPT_KEEP, OPT_KEEP_DAYS };

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(OPT_DELETE, "delete", 1, "REF",
		     "delete that snapshot; the others are kept"),
	CLI_LONG_OPT(OPT_KEEP, "keep", 1, "N",
		     "delete all but the N newest snapshots"),
	CLI_LONG_OPT(OPT_KEEP_DAYS, "keep-days", 1, "D",
		     "delete the snapshots taken more than D days ago"),
	{ NULL },
};

static int cmd_snapshots_exec(const struct cli_cmd *self, int argc, char **argv,
			      struct cli_global *g);

const struct cli_cmd cmd_snapshots_entry = {
	.name = "snapshots",
	.summary = "list the stored snapshots, oldest first",
	.args = "[--format text|json|csv] [--delete REF] [--keep N] [--keep-days D]",
	.details =
		"Each snapshot has an id, an optional label, the UTC time it was\n"
		"taken, its switch, CA and link counts, whether discovery was\n"
		"partial, the host and source it came from, and its fabric. Any of\n"
		"the id, the label, 'latest' or 'latest~N' names it in other\n"
		"commands; labels and 'latest' within a fabric ('ibtopo fabrics').\n"
		"--fabric NAME lists that fabric's snapshots only. A database\n"
		"not there yet is an empty list (and is not created).\n"
		"JSON: " CLI_JSON ",\"snapshots\":[{\"id\",\"label\","
		"\"taken_at\",...,\"fabric\"}]}.\n"
		"Housekeeping (for cron): --delete REF deletes one snapshot;\n"
		"--keep N and --keep-days D (together: a snapshot goes when either\n"
		"says so) delete old ones but never the newest snapshot nor the\n"
		"newest of a label, fabric by fabric (--fabric NAME: in that one).\n"
		"The database file is then compacted (VACUUM).\n"
		"They print nothing (-v: what was deleted) and list nothing,\n"
		"but one line on stderr counts the labelled snapshots kept that\n"
		"they would otherwise have deleted.\n"
		"Example, from cron: ibtopo snapshots --keep-days 30",
	.opts = opts,
	.exec = cmd_snapshots_exec,
	.flags = CLI_NEEDS_DB,
};

static bool parse_count(const char *s, long max, long *out)
{
	char *end;
	long v;

	v = strtol(s, &end, 10);
	if (*end || end == s || v < 1 || v > max)
		return false;
	*out = v;
	return true;
}

static bool same_fabric(const struct ibtopo_snapshot *a,
			const struct ibtopo_snapshot *b)
{
	return a->fabric && b->fabric ? strcmp(a->fabric, b->fabric) == 0 :
					!a->fabric && !b->fabric;
}

/*
 * After --keep N / --keep-days D: how many snapshots they would have
 * deleted stay, as the newest of a label (not the newest of a fabric).
 */
static size_t kept_for_labels(struct ibtopo_store *store, const char *fabric,
			      long keep, time_t before)
{
	struct ibtopo_snapshot *list = NULL;
	size_t count = 0, n = 0;

	if (ibtopo_store_list(&list, &count, store, NULL))
		return 0;
	for (size_t i = 0; i < count; i++) {
		size_t later = 0;

		if (!list[i].label ||
		    (fabric &&
		     (!list[i].fabric || strcmp(list[i].fabric, fabric) != 0)))
			continue;
		for (size_t j = i + 1; j < count; j++)
			later += same_fabric(&list[i], &list[j]);
		if (later && ((keep && later >= (size_t)keep) ||
			      (before && list[i].taken_at < before)))
			n++;
	}
	ibtopo_snapshot_list_free(list, count);
	return n;
}

/* --delete, --keep, --keep-days: delete, then compact the file */
static int housekeep(const struct cli_global *g, const char *ref, long keep,
		     long days)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	int64_t id, *ids = NULL;
	size_t n = 0, labelled;
	char beyond[64];
	double t0 = cli_now();
	int rc;

	if (cli_open_store(&store, g, 0, &err))
		return cli_fail(&err);
	rc = EXIT_TROUBLE;
	if (ref) {
		if (ibtopo_store_resolve_in(&id, store, cli_fabric(g), ref,
					    &err) ||
		    ibtopo_store_delete(store, id, &err)) {
			cli_fail(&err);
			goto out_free_store;
		}
		cli_step(g, "store", t0, "deleted snapshot %lld ('%s')",
			 (long long)id, ref);
	}
	if (keep || days) {
		time_t before = days ? time(NULL) - (time_t)days * 86400 : 0;

		t0 = cli_now();
		if (ibtopo_store_prune_in(&ids, &n, store, cli_fabric(g),
					  (size_t)keep, before, &err)) {
			cli_fail(&err);
			goto out_free_ids;
		}
		cli_step(g, "store", t0, "deleted %zu snapshot%s", n,
			 n == 1 ? "" : "s");
		for (size_t i = 0; i < n && g->verbose; i++)
			fprintf(stderr,
				"ibtopo: store: deleted snapshot %lld\n",
				(long long)ids[i]);
		labelled = kept_for_labels(store, cli_fabric(g), keep, before);
		if (labelled && keep)
			snprintf(beyond, sizeof(beyond), "--keep %ld", keep);
		else
			snprintf(beyond, sizeof(beyond), "--keep-days %ld",
				 days);
		if (labelled)
			fprintf(stderr,
				"ibtopo: kept %zu labelled snapshot%s beyond "
				"%s (the newest of each label; --delete REF "
				"deletes one)\n",
				labelled, labelled == 1 ? "" : "s", beyond);
	}
	t0 = cli_now();
	if (ibtopo_store_vacuum(store, &err)) {
		cli_fail(&err);
		goto out_free_ids;
	}
	cli_step(g, "store", t0, "compacted '%s'", ibtopo_store_path(store));
	rc = EXIT_CLEAN;
out_free_ids:
	free(ids);
out_free_store:
	ibtopo_store_free(store);
	return rc;
}

/* --fabric NAME lists a fabric the store has; none is fine */
static int fabric_known(struct ibtopo_store *store, const char *name,
			struct ibtopo_error *err)
{
	struct ibtopo_fabric_info *list = NULL;
	size_t n = 0;
	bool found = !name;
	int rc;

	rc = ibtopo_store_fabrics(&list, &n, store, err);
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(list[i].name, name) == 0;
	ibtopo_fabric_info_list_free(list, n);
	if (!rc && !found) {
		err->code = IBTOPO_ENOTFOUND;
		snprintf(err->message, sizeof(err->message),
			 "no fabric '%s' in '%s'", name,
			 ibtopo_store_path(store));
		rc = IBTOPO_ENOTFOUND;
	}
	return rc;
}

static int cmd_snapshots_exec(const struct cli_cmd *self, int argc, char **argv,
			      struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_sink ro;
	struct ibtopo_store *store = NULL;
	struct ibtopo_snapshot *list = NULL;
	struct cli_state st = { .report = &rep, .global = g };
	const char *del = NULL;
	long keep = 0, days = 0;
	size_t count = 0;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_DELETE:
			del = st.optarg;
			break;
		case OPT_KEEP:
			if (!parse_count(st.optarg, 1000000000L, &keep))
				return cli_usage_error(
					self,
					"bad --keep '%s' (a number of snapshots, at least 1)",
					st.optarg);
			break;
		case OPT_KEEP_DAYS:
			if (!parse_count(st.optarg, 100000L, &days))
				return cli_usage_error(
					self,
					"bad --keep-days '%s' (a number of days, at least 1)",
					st.optarg);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (cli_operands(self, &st, argc, argv, 0) < 0)
		return EXIT_TROUBLE;
	if (del || keep || days) {
		if (rep.format_given)
			return cli_usage_error(
				self,
				"--format lists; --delete, --keep and --keep-days list nothing");
		return housekeep(g, del, keep, days);
	}

	rc = cli_open_store(&store, g, IBTOPO_STORE_READONLY, &err);
	if (rc == IBTOPO_ENOTFOUND) {
		/* no database yet: no snapshot yet, and none created */
		ro = cli_stdout_sink(rep.format);
		rc = ibtopo_store_report_snapshots(&ro, NULL, 0, NULL, &err);
		return rc ? cli_fail(&err) : cli_report_exit(NULL, 0);
	}
	if (rc)
		return cli_fail(&err);
	rc = fabric_known(store, cli_fabric(g), &err);
	if (rc == 0)
		rc = ibtopo_store_list(&list, &count, store, &err);
	if (rc == 0) {
		ro = cli_stdout_sink(rep.format);
		rc = ibtopo_store_report_snapshots(&ro, list, count,
						   cli_fabric(g), &err);
	}
	ibtopo_snapshot_list_free(list, count);
	ibtopo_store_free(store);
	return rc ? cli_fail(&err) : cli_report_exit(NULL, 0);
}
