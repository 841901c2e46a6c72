/* fabric_pair.c - load the two fabrics that diff and validate compare */
#include "fabric_pair.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct load_job {
	const struct cli_global *g;
	const char *what;
	struct ibtopo_fabric *fabric;
	struct ibtopo_error err;
	int rc;
};

static void *load_job_run(void *arg)
{
	struct load_job *j = arg;

	struct cli_source src = { .what = j->what };

	j->rc = cli_load_fabric(&j->fabric, j->g, &src, &j->err);
	return NULL;
}

int load_fabric_pair(struct ibtopo_fabric **a, struct ibtopo_fabric **b,
		     const struct cli_global *g, const char *a_what,
		     const char *b_what, struct ibtopo_error *err)
{
	struct load_job ja = { .g = g, .what = a_what };
	struct load_job jb = { .g = g, .what = b_what };
	pthread_t thread;
	bool threaded;

	*a = NULL;
	*b = NULL;
	/* no thread to be had: load one after the other */
	threaded = pthread_create(&thread, NULL, load_job_run, &jb) == 0;
	load_job_run(&ja);
	if (threaded)
		pthread_join(thread, NULL);
	else
		load_job_run(&jb);
	if (!ja.rc && !jb.rc)
		ja.rc = cli_check_pair(g, ja.fabric, jb.fabric, &ja.err);
	if (ja.rc || jb.rc) {
		if (err)
			*err = ja.rc ? ja.err : jb.err;
		ibtopo_fabric_free(ja.fabric);
		ibtopo_fabric_free(jb.fabric);
		return ja.rc ? ja.rc : jb.rc;
	}
	*a = ja.fabric;
	*b = jb.fabric;
	return 0;
}

/* When its counters were read (the latest port, UTC ms); 0: none. */
static int64_t counters_read_at(const struct ibtopo_fabric *f)
{
	size_t nn = ibtopo_fabric_node_count(f);
	int64_t at = 0;

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k] && n->ports[k]->counters &&
			    n->ports[k]->counters->read_at_ms > at)
				at = n->ports[k]->counters->read_at_ms;
	}
	return at;
}

/*
 * Is x later than y? By their counter readings when both have some (what
 * an interval measures; an import is stored when it is run, whatever
 * the age of its file), else by when they were discovered.
 */
static bool later(const struct ibtopo_fabric *x, const struct ibtopo_fabric *y)
{
	const struct ibtopo_fabric_meta *mx = ibtopo_fabric_meta(x);
	const struct ibtopo_fabric_meta *my = ibtopo_fabric_meta(y);
	int64_t cx = counters_read_at(x), cy = counters_read_at(y);

	if (cx && cy)
		return cx > cy;
	if (!mx->source || !my->source ||
	    strncmp(mx->source, "discover:", 9) != 0 ||
	    strncmp(my->source, "discover:", 9) != 0)
		return false;
	return mx->taken_at > my->taken_at;
}

int cli_check_order(const struct ibtopo_fabric *before,
		    const struct ibtopo_fabric *after, const char *before_what,
		    const char *after_what, bool same_ok,
		    struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *b = ibtopo_fabric_meta(before);
	const struct ibtopo_fabric_meta *a = ibtopo_fabric_meta(after);
	char nb[320], na[320];

	/* a file's time is its mtime: no order to trust */
	if (b->snapshot_id <= 0 || a->snapshot_id <= 0)
		return 0;
	if (b->snapshot_id == a->snapshot_id) {
		if (same_ok)
			return 0;
		err->code = IBTOPO_EINVAL;
		snprintf(err->message, sizeof(err->message),
			 "%s and %s are the same %s: no interval to measure "
			 "(name an earlier snapshot)",
			 before_what, after_what,
			 cli_snapshot_name(nb, sizeof(nb), before));
		return IBTOPO_EINVAL;
	}
	if (!later(before, after))
		return 0;
	err->code = IBTOPO_EINVAL;
	snprintf(err->message, sizeof(err->message),
		 "%s, %s, is later than %s, %s: the interval runs "
		 "backwards (swap them)",
		 before_what, cli_snapshot_name(nb, sizeof(nb), before),
		 after_what, cli_snapshot_name(na, sizeof(na), after));
	return IBTOPO_EINVAL;
}
