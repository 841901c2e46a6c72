/* fabric_pair.c - load the two fabrics that diff and validate compare */
#include "fabric_pair.h"

#include <pthread.h>

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
