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
 * The switch out-ports (port ids) of the route from source `a` to source
 * `b`'s base LID, appended to *path; false when it is not delivered.
 */
static bool route_of(const struct ibtopo__rnet *net, size_t a, size_t b,
		     size_t *path, size_t *len)
{
	struct ibtopo__rdest d;
	size_t s = (size_t)net->src_sw[a];

	memset(&d, 0, sizeof(d));
	d.lid = net->src[b]->lid;
	d.ca = true;
	d.base = true;
	d.port = net->src[b];
	d.attach = net->src_sw[b];
	for (size_t hop = 0; hop <= net->nsw; hop++) {
		enum ibtopo_route_hole hole;
		int nx = -1, port;
		enum ibtopo__rstep st = ibtopo__route_step(
			net, s, &d, ibtopo__route_entry(net, s, d.lid), &nx,
			&port, &hole);

		if (st == IBTOPO__STEP_HOLE)
			return false;
		path[(*len)++] = net->pbase[s] + (size_t)port;
		if (st == IBTOPO__STEP_DELIVERED)
			return true;
		s = (size_t)nx;
	}
	return false;	/* a loop */
}

int ibtopo__routes_ebb(const struct ibtopo__rnet *net, unsigned bisections,
		       uint64_t seed, double *mean, double *min,
		       struct ibtopo_error *err)
{
	size_t n = net->nsrc, half = n / 2, nflows = 2 * half;
	size_t *perm = NULL, *path = NULL, *start = NULL, cap;
	uint32_t *load = NULL;
	bool *ok = NULL;
	uint64_t rng = seed;
	double sum = 0;
	int rc = 0;

	*mean = 0;
	*min = 0;
	if (!half || !bisections)
		return 0;
	perm = malloc(n * sizeof(*perm));
	cap = nflows * 8 + net->nsw + 1;
	path = malloc(cap * sizeof(*path));
	start = malloc((nflows + 1) * sizeof(*start));
	ok = malloc(nflows * sizeof(*ok));
	load = calloc(net->nport_ids + 1, sizeof(*load));
	if (!perm || !path || !start || !ok || !load) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	*min = 1;
	for (unsigned b = 0; b < bisections; b++) {
		size_t used = 0;
		double share = 0;

		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)(next_random(&rng) % i), x = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = x;
		}
		memset(load, 0, (net->nport_ids + 1) * sizeof(*load));
		for (size_t f = 0; f < nflows; f++) {
			size_t a = perm[f % half], z = perm[half + f % half];

			if (f >= half) {
				size_t x = a;

				a = z;
				z = x;
			}
			start[f] = used;
			if (used + net->nsw + 1 > cap) {
				/* room for a route as long as there are switches */
				size_t nc = cap * 2 + net->nsw + 1;
				size_t *np = realloc(path, nc * sizeof(*np));

				if (!np) {
					rc = ibtopo__error_set(err,
						IBTOPO_ENOMEM, "out of memory");
					goto out_free;
				}
				path = np;
				cap = nc;
			}
			ok[f] = route_of(net, a, z, path, &used);
			if (!ok[f]) {
				used = start[f];
				continue;
			}
			for (size_t k = start[f]; k < used; k++)
				load[path[k]]++;
		}
		start[nflows] = used;
		for (size_t f = 0; f < nflows; f++) {
			uint32_t worst = 1;

			if (!ok[f])
				continue;
			for (size_t k = start[f]; k < start[f + 1]; k++)
				if (load[path[k]] > worst)
					worst = load[path[k]];
			share += 1.0 / worst;
		}
		share /= (double)nflows;
		sum += share;
		if (share < *min)
			*min = share;
	}
	*mean = sum / bisections;

out_free:
	free(load);
	free(ok);
	free(start);
	free(path);
	free(perm);
	return rc;
}
