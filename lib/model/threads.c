/*
 * threads.c - how many threads the analyses use, and the pool that runs
 * their tasks: ibtopo__parallel() hands tasks 0..n-1 out one at a time to
 * the workers (the calling thread is worker 0), so a worker that finishes
 * early takes the next. What a task computes goes to memory of its own
 * (its task's slot, or its worker's): the caller merges those in task
 * order, so results do not depend on the count or on which worker ran
 * what.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity */
#endif
#include "model/model-int.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

static unsigned threads_wanted; /* 0: the CPUs the process may use */

int ibtopo_set_threads(unsigned n)
{
	if (n > IBTOPO_THREADS_MAX)
		return IBTOPO_EINVAL;
	threads_wanted = n;
	return 0;
}

unsigned ibtopo_threads(void)
{
	cpu_set_t set;
	int n;

	if (threads_wanted)
		return threads_wanted;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	if (n < 1)
		return 1;
	return n > IBTOPO_THREADS_MAX ? IBTOPO_THREADS_MAX : (unsigned)n;
}

struct pool {
	ibtopo__task_fn *fn;
	void *arg;
	size_t ntasks;
	size_t next; /* the next task to hand out (atomic) */
	int failed;  /* a task failed: hand out no more (atomic) */
};

struct worker {
	struct pool *pool;
	unsigned id;
	int rc;
	struct ibtopo_error err;
	pthread_t thread;
};

static void *work(void *p)
{
	struct worker *w = p;
	struct pool *pool = w->pool;

	while (!__atomic_load_n(&pool->failed, __ATOMIC_ACQUIRE)) {
		size_t task =
			__atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);

		if (task >= pool->ntasks)
			break;
		w->rc = pool->fn(pool->arg, w->id, task, &w->err);
		if (w->rc) {
			__atomic_store_n(&pool->failed, 1, __ATOMIC_RELEASE);
			break;
		}
	}
	return NULL;
}

int ibtopo__parallel(size_t ntasks, unsigned nworkers, ibtopo__task_fn *fn,
		     void *arg, struct ibtopo_error *err)
{
	struct pool pool = { fn, arg, ntasks, 0, 0 };
	struct worker *w;
	unsigned started = 1;
	int rc = 0;

	if (nworkers > ntasks)
		nworkers = ntasks ? (unsigned)ntasks : 1;
	if (nworkers < 1)
		nworkers = 1;
	w = calloc(nworkers, sizeof(*w));
	if (!w)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (unsigned i = 0; i < nworkers; i++) {
		w[i].pool = &pool;
		w[i].id = i;
	}
	/* a thread that cannot start leaves its tasks to the others */
	for (unsigned i = 1; i < nworkers; i++, started++)
		if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0)
			break;
	work(&w[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(w[i].thread, NULL);
	/* the error of the lowest worker that failed */
	for (unsigned i = 0; i < started && !rc; i++)
		if (w[i].rc) {
			rc = w[i].rc;
			if (err)
				*err = w[i].err;
		}
	free(w);
	return rc;
}
