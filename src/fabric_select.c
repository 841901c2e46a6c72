/*
 * fabric_select.c - several fabrics in one database, for the commands:
 * the fabric --fabric names, saving into it, and refusing to compare two
 * snapshots of two fabrics.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char *cli_fabric(const struct cli_global *g)
{
	const char *env = getenv("IBTOPO_FABRIC");

	if (g && g->fabric)
		return g->fabric;
	return env && *env ? env : NULL;
}

int cli_store_save(int64_t *out_id, struct ibtopo_store *store,
		   struct ibtopo_fabric *fabric, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err)
{
	const char *name = cli_fabric(g);
	int rc;

	/* --fabric is checked as it is read; the environment only here */
	if (name && !ibtopo_store_fabric_name_is_valid(name)) {
		if (err) {
			err->code = IBTOPO_EINVAL;
			snprintf(err->message, sizeof(err->message),
				 "bad fabric name '%.64s' in IBTOPO_FABRIC (1 "
				 "to 64 letters, digits, '-', '_' or '.')",
				 name);
		}
		return IBTOPO_EINVAL;
	}
	rc = ibtopo_fabric_set_fabric_name(fabric, name, err);
	if (!rc)
		rc = ibtopo_store_save_ext(out_id, store, fabric, flags, err);
	return rc;
}

/* How many node GUIDs of `a` `b` has too. */
static size_t shared_guids(const struct ibtopo_fabric *a,
			   const struct ibtopo_fabric *b)
{
	size_t n = 0;

	for (size_t i = 0; i < ibtopo_fabric_node_count(a); i++)
		if (ibtopo_fabric_find_node(b, ibtopo_fabric_node(a, i)->guid))
			n++;
	return n;
}

int cli_check_pair(const struct cli_global *g, const struct ibtopo_fabric *a,
		   const struct ibtopo_fabric *b, struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *ma = ibtopo_fabric_meta(a);
	const struct ibtopo_fabric_meta *mb = ibtopo_fabric_meta(b);
	size_t na = ibtopo_fabric_node_count(a);
	size_t nb = ibtopo_fabric_node_count(b);

	if (!ma->fabric || !mb->fabric || strcmp(ma->fabric, mb->fabric) == 0)
		return 0;
	if (!g->across_fabrics) {
		if (err) {
			err->code = IBTOPO_EINVAL;
			snprintf(err->message, sizeof(err->message),
				 "snapshot %lld is of fabric '%s' and snapshot "
				 "%lld of fabric '%s': not compared "
				 "(--across-fabrics compares them anyway)",
				 (long long)ma->snapshot_id, ma->fabric,
				 (long long)mb->snapshot_id, mb->fabric);
		}
		return IBTOPO_EINVAL;
	}
	fprintf(stderr,
		"ibtopo: across fabrics: snapshot %lld of '%s' (%zu nodes) and "
		"snapshot %lld of '%s' (%zu nodes) share %zu node GUIDs\n",
		(long long)ma->snapshot_id, ma->fabric, na,
		(long long)mb->snapshot_id, mb->fabric, nb, shared_guids(a, b));
	return 0;
}
