/*
 * fabric_select.c - several fabrics in one database, for the commands:
 * the fabric --fabric names, saving into it, and refusing to compare two
 * snapshots of two fabrics.
 */
#include "cli.h"
#include "new_snapshot.h"

#include <stdlib.h>
#include <string.h>

/* Defined here, where cli_store_save() is: new_snapshot.c calls both. */
int new_snapshot_unread(const struct ibtopo_fabric *fabric, FILE *out)
{
	char which[512];
	size_t n = ibtopo_fabric_counters_unread(fabric, which, sizeof(which));

	if (!n)
		return EXIT_CLEAN;
	fprintf(out ? out : stderr,
		"%scounters of %zu port%s not read (their PMA did not answer): "
		"%s; stored as not read, the snapshot is incomplete\n",
		out ? "" : "ibtopo: warning: ", n, n == 1 ? "" : "s", which);
	return EXIT_INCOMPLETE;
}

/*
 * A --fabric NAME the switch GUIDs contradict, said once the snapshot is
 * stored (a warning, not a refusal: a fabric whose switches were all
 * replaced keeps its name, and a cron job keeps its snapshot).
 */
static void warn_contradiction(const struct ibtopo_fabric_match *m,
			       const struct ibtopo_fabric *fabric,
			       const char *name, int64_t id)
{
	const char *what =
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH) ?
			"switch" :
			"node";

	if (m->named[0] &&
	    !(m->named_shared && 2 * m->named_shared >= m->named_total)) {
		fprintf(stderr,
			"ibtopo: warning: snapshot %lld was stored in fabric "
			"'%s' as --fabric says, but shares only %zu of the "
			"%zu %s GUIDs of its latest snapshot %lld",
			(long long)id, name, m->named_shared, m->named_total,
			what, (long long)m->named_latest);
		if (m->other[0])
			fprintf(stderr, " (fabric '%s' has them)", m->other);
		fprintf(stderr,
			": if it is another fabric, `ibtopo snapshots "
			"--delete %lld` and store it under %s; if the "
			"switches were replaced, nothing to do\n",
			(long long)id,
			m->other[0] ? "that --fabric, or none" :
				      "another --fabric, or none");
		return;
	}
	if (!m->named[0] && m->other[0])
		fprintf(stderr,
			"ibtopo: warning: snapshot %lld starts fabric '%s' as "
			"--fabric says, but fabric '%s' has its switches "
			"(%zu of the %zu %s GUIDs of its latest snapshot "
			"%lld): one fabric, two histories; `ibtopo fabrics "
			"--merge %s %s` joins them (or, next time, `fabrics "
			"--rename %s %s` first, or no --fabric)\n",
			(long long)id, name, m->other, m->other_shared,
			m->other_total, what, (long long)m->other_latest, name,
			m->other, m->other, name);
}

int cli_store_save(int64_t *out_id, struct ibtopo_store *store,
		   struct ibtopo_fabric *fabric, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err)
{
	struct ibtopo_fabric_match match;
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
	if (!rc && name)
		rc = ibtopo_store_fabric_match(&match, store, fabric, name,
					       err);
	if (!rc)
		rc = ibtopo_store_save_ext(out_id, store, fabric, flags, err);
	if (!rc && name)
		warn_contradiction(&match, fabric, name, *out_id);
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

/* Whether `f` has at least half its switch GUIDs (some) in `e`. */
static bool same_switches(const struct ibtopo_fabric *f,
			  const struct ibtopo_fabric *e)
{
	size_t n = 0, shared = 0;

	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(f, i);

		if (node->type != IBTOPO_NODE_SWITCH)
			continue;
		n++;
		if (ibtopo_fabric_find_node(e, node->guid))
			shared++;
	}
	return shared && 2 * shared >= n;
}

/* One port's discovery, stored; its line printed. An exit status. */
static int discover_one(const struct cli_global *g, struct ibtopo_store **store,
			struct ibtopo_fabric *fabric, unsigned save_flags,
			const char *label, const char *engine, bool quiet,
			const struct ibtopo_local_port *p)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	int64_t id = 0;

	if (m->partial)
		fprintf(stderr,
			"ibtopo: warning: discovery through '%s' port %u "
			"incomplete: %s; the snapshot is marked partial\n",
			p->ca, p->port, m->partial_reason);
	if ((label && ibtopo_fabric_set_label(fabric, label, &err)) ||
	    (engine && ibtopo_fabric_set_routing_engine(fabric, engine, &err)))
		return cli_fail(&err);
	if (!*store && cli_open_store(store, g, 0, &err))
		return cli_fail(&err);
	if (cli_store_save(&id, *store, fabric, g, save_flags, &err)) {
		if (err.code == IBTOPO_EEXIST)
			return cli_failf("%s (--force moves it here)",
					 err.message);
		return cli_fail(&err);
	}
	if (quiet)
		return new_snapshot_unread(fabric, NULL);
	printf("snapshot %lld of fabric '%s' through %s port %u: %zu switches, "
	       "%zu CAs, %zu links%s\n",
	       (long long)id, m->fabric, p->ca, p->port,
	       ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH),
	       ibtopo_fabric_count_type(fabric, IBTOPO_NODE_CA),
	       ibtopo_fabric_link_count(fabric),
	       m->partial ? " (PARTIAL)" : "");
	return new_snapshot_unread(fabric, stdout);
}

/* Has a fabric of this run, done[0..ndone), the switches of `f`? */
static const struct ibtopo_fabric *covered_by(const struct ibtopo_fabric *f,
					      struct ibtopo_fabric *const *done,
					      size_t ndone)
{
	for (size_t k = 0; k < ndone; k++)
		if (same_switches(f, done[k]))
			return done[k];
	return NULL;
}

int cli_discover_all_ports(const struct cli_cmd *cmd,
			   const struct cli_global *g,
			   const struct ibtopo_discover_opts *dopts,
			   unsigned save_flags, const char *label,
			   const char *engine, bool quiet)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_local_port *ports = NULL;
	struct ibtopo_fabric **done = NULL;
	struct ibtopo_store *store = NULL;
	uint64_t *seen = NULL;
	size_t n = 0, ndone = 0, nseen = 0, tried = 0;
	int rc = EXIT_CLEAN;

	if (cli_fabric(g))
		return cli_usage_error(cmd, "--all-ports stores each subnet in "
					    "a fabric of its own; no --fabric");
	if (g->ca || g->port || dopts->cache_path)
		return cli_usage_error(cmd, "--all-ports chooses the ports; "
					    "no -C, -P or --cache");
	if (ibtopo_local_ports(&ports, &n, dopts->timeout_ms, &err))
		return cli_fail(&err);
	done = calloc(n ? n : 1, sizeof(*done));
	seen = calloc(n ? n : 1, sizeof(*seen));
	if (!done || !seen) {
		rc = cli_failf("out of memory");
		goto out_free;
	}
	for (size_t i = ibtopo_local_ports_next(ports, n, 0, seen, nseen);
	     i < n; i = ibtopo_local_ports_next(ports, n, i + 1, seen, nseen)) {
		struct ibtopo_discover_opts o = *dopts;
		struct ibtopo_fabric *f = NULL;
		const struct ibtopo_fabric *e;
		int one;

		tried++;
		o.ca = ports[i].ca;
		o.port = (int)ports[i].port;
		if (ibtopo_fabric_discover(&f, &o, &err)) {
			rc = cli_fail(&err);
			continue;
		}
		e = covered_by(f, done, ndone);
		if (e) {
			if (g->verbose)
				fprintf(stderr,
					"ibtopo: '%s' port %u reaches the "
					"switches of fabric '%s': covered\n",
					ports[i].ca, ports[i].port,
					ibtopo_fabric_meta(e)->fabric);
			ibtopo_fabric_free(f);
			continue;
		}
		ibtopo_local_ports_seen(seen, &nseen, &ports[i], f);
		one = discover_one(g, &store, f, save_flags, label, engine,
				   quiet, &ports[i]);
		done[ndone++] = f;
		if (one != EXIT_CLEAN && rc != EXIT_TROUBLE)
			rc = one;
	}
	if (!tried)
		rc = cli_failf("no active InfiniBand port to discover through");
out_free:
	for (size_t k = 0; k < ndone; k++)
		ibtopo_fabric_free(done[k]);
	free(done);
	free(seen);
	free(ports);
	ibtopo_store_free(store);
	return rc;
}
