/* new_snapshot.c - a fabric stored as a new snapshot (discover, import) */
#include "new_snapshot.h"

#include <stdio.h>
#include <stdlib.h>

int new_snapshot_check(struct new_snapshot *ns, const struct cli_cmd *cmd,
		       bool routes)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ns->save_flags && !ns->label)
		return cli_usage_error(cmd,
				       "--force moves a --label; none given");
	if (ns->label && ibtopo_store_check_label(NULL, ns->label, 0, &err))
		return cli_usage_error(cmd, "%s", err.message);
	/* a label the command line could not pass back as a REF */
	if (ns->label && ns->label[0] == '-')
		return cli_usage_error(
			cmd,
			"label '%.64s' starts with '-': a "
			"command line would read it as an option",
			ns->label);
	for (const char *c = ns->label; c && *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return cli_usage_error(
				cmd,
				"label '%.64s' holds a space or control "
				"character: a label is one word",
				ns->label);
	return cli_routing_engine(cmd, &ns->engine, routes, ns->engine_name,
				  ns->routes_log);
}

int new_snapshot_fail(const struct ibtopo_error *err)
{
	if (err->code == IBTOPO_EEXIST)
		return cli_failf("%s (--force moves it here)", err->message);
	return cli_fail(err);
}

/* --cables: rows that match no link are left out, as analyze reports
 * them, but warned about once: nothing is there to report them later. */
static int merge_cables(const struct new_snapshot *ns,
			const struct cli_global *g,
			struct ibtopo_fabric *fabric)
{
	struct ibtopo_findings unmatched = IBTOPO_FINDINGS_INIT;
	int rc;

	if (!ns->cables)
		return 0;
	rc = cli_merge_cables(fabric, g, ns->cables, &unmatched);
	if (!rc && unmatched.count)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu cable row%s match%s no link "
			"in the fabric; %s left out\n",
			ns->cables, unmatched.count,
			unmatched.count == 1 ? "" : "s",
			unmatched.count == 1 ? "es" : "",
			unmatched.count == 1 ? "it is" : "they are");
	ibtopo_findings_release(&unmatched);
	return rc;
}

int new_snapshot_save(struct new_snapshot *ns, const struct cli_global *g,
		      struct ibtopo_fabric *fabric, double t0)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	int64_t id = 0;
	double t1;
	int rc = EXIT_TROUBLE;

	if (merge_cables(ns, g, fabric))
		return EXIT_TROUBLE;
	if (ns->label && ibtopo_fabric_set_label(fabric, ns->label, &err))
		return cli_fail(&err);
	if (cli_open_store(&store, g, 0, &err))
		return cli_fail(&err);
	t1 = cli_now();
	if (cli_store_save(&id, store, fabric, g, ns->save_flags, &err)) {
		rc = new_snapshot_fail(&err);
		goto out_free_store;
	}
	cli_step(g, "store", t1, "saved as snapshot %lld", (long long)id);
	ns->id = id;
	if (!ns->quiet)
		cli_print_summary(stdout, fabric, id, cli_now() - t0);
	rc = new_snapshot_unread(fabric, ns->quiet ? NULL : stdout);
out_free_store:
	ibtopo_store_free(store);
	return rc;
}

void new_snapshot_release(struct new_snapshot *ns)
{
	free(ns->engine);
	ns->engine = NULL;
}
