/*
 * routes_ebb.c - effective bisection bandwidth, the measure of ORCS
 * (Hoefler, Schneider, Lumsdaine: "Multistage switches are not
 * crossbars", 2008): split the CA ports at random into two halves and
 * pair them across; every pair sends both ways at full rate. A flow gets
 * the share of the most crowded switch out-port on its route (a port
 * carrying k flows gives each 1/k); a flow that is not delivered gets
 * nothing. The bisection's bandwidth is the mean share; over N
 * bisections, seeded so a run can be repeated, the mean and the minimum.
 */
#include "analysis/routes-int.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: small, seedable, good enough to shuffle. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Flows are routed LANES at a time, a step of each in turn: each step
 * reads a table entry that is likely a cache miss (the tables of 11,664
 * hosts are 21 MB), and the reads of different flows overlap.
 */
#define LANES 16

/* A flow on its way: its destination, where it is, its route so far. */
struct lane {
	struct ibtopo__rdest d;
	size_t s, hops, len;
	int state;		/* LANE_* */
	size_t *path;		/* the out-ports (port ids), nsw + 1 room */
};

enum { LANE_ON, LANE_DELIVERED, LANE_DROPPED };

/* Flow from source `a` to source `b`'s base LID, at its first switch. */
static void lane_start(const struct ibtopo__rnet *net, struct lane *l,
		       size_t a, size_t b)
{
	memset(&l->d, 0, sizeof(l->d));
	l->d.lid = net->src[b]->lid;
	l->d.ca = true;
	l->d.base = true;
	l->d.port = net->src[b];
	l->d.attach = net->src_sw[b];
	l->s = (size_t)net->src_sw[a];
	l->hops = 0;
	l->len = 0;
	l->state = LANE_ON;
	if (net->lft[l->s])
		__builtin_prefetch(net->lft[l->s] + l->d.lid);
}

/*
 * Walk the `k` lanes to their ends: delivered, or dropped (a hole, or
 * more steps than there are switches: a loop).
 */
static void lanes_walk(const struct ibtopo__rnet *net, struct lane *ln,
		       size_t k)
{
	for (size_t on = k; on;) {
		on = 0;
		for (size_t i = 0; i < k; i++) {
			struct lane *l = &ln[i];
			enum ibtopo_route_hole hole;
			enum ibtopo__rstep st;
			int nx = -1, port;

			if (l->state != LANE_ON)
				continue;
			if (l->hops++ > net->nsw) {
				l->state = LANE_DROPPED;
				continue;
			}
			st = ibtopo__route_step(net, l->s, &l->d,
				ibtopo__route_entry(net, l->s, l->d.lid), &nx,
				&port, &hole);
			if (st == IBTOPO__STEP_HOLE) {
				l->state = LANE_DROPPED;
				continue;
			}
			l->path[l->len++] = net->pbase[l->s] + (size_t)port;
			if (st == IBTOPO__STEP_DELIVERED) {
				l->state = LANE_DELIVERED;
				continue;
			}
			l->s = (size_t)nx;
			if (net->lft[l->s])
				__builtin_prefetch(net->lft[l->s] + l->d.lid);
			on++;
		}
	}
}

/* One worker's scratch: the routes of a bisection's flows, the load of
 * each port. */
struct ebb_scratch {
	struct lane lane[LANES];
	size_t *lane_path;		/* LANES rows of nsw + 1 */
	size_t *path, cap;
	size_t *start;
	bool *ok;
	uint32_t *load;
};

/*
 * The bisections run on the threads. Their halves come from one stream
 * of random numbers, a shuffle of the previous order each, so they are
 * drawn first, in order; each bisection's share goes to its slot and
 * the mean and minimum are taken in order: the same on any count.
 */
struct ebb {
	const struct ibtopo__rnet *net;
	const uint32_t *perms;		/* per bisection, n sources */
	double *share;			/* per bisection */
	struct ebb_scratch *ws;		/* per worker */
};

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

/* The share of bisection `b`: its flows' mean share of their most crowded
 * port. */
static int bisection(void *arg, unsigned worker, size_t b,
		     struct ibtopo_error *err)
{
	struct ebb *e = arg;
	const struct ibtopo__rnet *net = e->net;
	struct ebb_scratch *w = &e->ws[worker];
	size_t n = net->nsrc, half = n / 2, nflows = 2 * half, used = 0;
	const uint32_t *perm = e->perms + b * n;
	double share = 0;

	memset(w->load, 0, (net->nport_ids + 1) * sizeof(*w->load));
	for (size_t f0 = 0; f0 < nflows; f0 += LANES) {
		size_t k = nflows - f0 < LANES ? nflows - f0 : LANES;

		for (size_t i = 0; i < k; i++) {
			size_t f = f0 + i;
			size_t a = perm[f % half], z = perm[half + f % half];

			if (f >= half) {
				size_t x = a;

				a = z;
				z = x;
			}
			lane_start(net, &w->lane[i], a, z);
		}
		lanes_walk(net, w->lane, k);
		for (size_t i = 0; i < k; i++) {
			const struct lane *l = &w->lane[i];
			size_t f = f0 + i;

			w->start[f] = used;
			w->ok[f] = l->state == LANE_DELIVERED;
			if (!w->ok[f])
				continue;
			if (used + l->len > w->cap) {
				size_t nc = w->cap * 2 + l->len;
				size_t *np = realloc(w->path, nc * sizeof(*np));

				if (!np)
					return nomem(err);
				w->path = np;
				w->cap = nc;
			}
			for (size_t h = 0; h < l->len; h++)
				w->load[l->path[h]]++;
			memcpy(w->path + used, l->path,
			       l->len * sizeof(*l->path));
			used += l->len;
		}
	}
	w->start[nflows] = used;
	for (size_t f = 0; f < nflows; f++) {
		uint32_t worst = 1;

		if (!w->ok[f])
			continue;
		for (size_t k = w->start[f]; k < w->start[f + 1]; k++)
			if (w->load[w->path[k]] > worst)
				worst = w->load[w->path[k]];
		share += 1.0 / worst;
	}
	e->share[b] = share / (double)nflows;
	return 0;
}

/* Each bisection's order of the sources: a shuffle of the one before. */
static void draw(uint32_t *perms, size_t n, unsigned bisections,
		 uint64_t seed)
{
	uint64_t rng = seed;

	for (size_t i = 0; i < n; i++)
		perms[i] = (uint32_t)i;
	for (unsigned b = 0; b < bisections; b++) {
		uint32_t *perm = perms + (size_t)b * n;

		if (b)
			memcpy(perm, perm - n, n * sizeof(*perm));
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)(next_random(&rng) % i);
			uint32_t x = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = x;
		}
	}
}

static int scratch_new(struct ebb_scratch *w, const struct ibtopo__rnet *net,
		       size_t nflows)
{
	w->cap = nflows * 8 + net->nsw + 1;
	w->path = malloc(w->cap * sizeof(*w->path));
	w->start = malloc((nflows + 1) * sizeof(*w->start));
	w->ok = malloc((nflows + 1) * sizeof(*w->ok));
	w->load = calloc(net->nport_ids + 1, sizeof(*w->load));
	w->lane_path = malloc(LANES * (net->nsw + 1) * sizeof(*w->lane_path));
	for (size_t i = 0; w->lane_path && i < LANES; i++)
		w->lane[i].path = w->lane_path + i * (net->nsw + 1);
	return w->path && w->start && w->ok && w->load && w->lane_path ?
		       0 :
		       IBTOPO_ENOMEM;
}

int ibtopo__routes_ebb(const struct ibtopo__rnet *net, unsigned bisections,
		       uint64_t seed, double *mean, double *min,
		       struct ibtopo_error *err)
{
	size_t n = net->nsrc, half = n / 2, nflows = 2 * half;
	unsigned nw = ibtopo_threads();
	struct ebb e = { net, NULL, NULL, NULL };
	uint32_t *perms;
	double sum = 0;
	int rc = 0;

	*mean = 0;
	*min = 0;
	if (!half || !bisections)
		return 0;
	if (nw > bisections)
		nw = bisections;
	perms = malloc((size_t)bisections * n * sizeof(*perms));
	e.perms = perms;
	e.share = calloc(bisections, sizeof(*e.share));
	e.ws = calloc(nw, sizeof(*e.ws));
	if (!perms || !e.share || !e.ws) {
		rc = nomem(err);
		goto out_free;
	}
	for (unsigned i = 0; i < nw && !rc; i++)
		if (scratch_new(&e.ws[i], net, nflows))
			rc = nomem(err);
	if (rc)
		goto out_free;
	draw(perms, n, bisections, seed);
	rc = ibtopo__parallel(bisections, nw, bisection, &e, err);
	if (rc)
		goto out_free;
	*min = 1;
	for (unsigned b = 0; b < bisections; b++) {
		sum += e.share[b];
		if (e.share[b] < *min)
			*min = e.share[b];
	}
	*mean = sum / bisections;

out_free:
	for (unsigned i = 0; e.ws && i < nw; i++) {
		free(e.ws[i].load);
		free(e.ws[i].lane_path);
		free(e.ws[i].ok);
		free(e.ws[i].start);
		free(e.ws[i].path);
	}
	free(e.ws);
	free(e.share);
	free(perms);
	return rc;
}
