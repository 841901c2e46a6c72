/* new_snapshot.c - a fabric stored as a new snapshot (discover, import) */
#include "new_snapshot.h"

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
	return cli_routing_engine(cmd, &ns->engine, routes, ns->engine_name,
				  ns->routes_log);
}

int new_snapshot_fail(const struct ibtopo_error *err)
{
	if (err->code == IBTOPO_EEXIST)
		return cli_failf("%s (--force moves it here)", err->message);
	return cli_fail(err);
}

int new_snapshot_save(struct new_snapshot *ns, const struct cli_global *g,
		      struct ibtopo_fabric *fabric, double t0)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	int64_t id = 0;
	double t1;
	int rc = EXIT_TROUBLE;

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
	rc = EXIT_CLEAN;
out_free_store:
	ibtopo_store_free(store);
	return rc;
}

void new_snapshot_release(struct new_snapshot *ns)
{
	free(ns->engine);
	ns->engine = NULL;
}
