/*
 * routes_trace.c - the routing analysis (ibtopo_routes_analyze()):
 * routes traced by destination over the switches' forwarding tables.
 *
 * For each destination LID every switch's next hop is followed once: a
 * walk from each switch not yet resolved pushes switches until it meets a
 * resolved one, the destination, a hole or itself (a loop), then
 * resolves the switches it pushed. A switch's outcome holds for every
 * packet that reaches it, so the CA sources cabled to a switch share it:
 * reachability and hop counts come from the outcomes, the CA-to-CA
 * routes through each out-port from the sources flowing down the tree
 * the outcomes form (switches are resolved successor first, so the
 * reverse of that order visits a switch before the one it sends to).
 *
 * Each fault is one finding per destination LID, at the switch and port
 * where the packet goes wrong, with the number of CA routes it hits:
 * - a hole at the switch whose entry drops the packet;
 * - a loop at the switch of the cycle whose step gets no closer to the
 *   destination by the cables (the entry that sends the packet back);
 * - a route longer than the cables allow at each switch whose step does
 *   not get one hop closer, when CA routes pass it.
 * Every destination LID counts: a CA's whole LMC range and each switch's
 * port 0 LID (host -> switch routes, the management traffic). The hop
 * counts and the routes per port are those of CA pairs over base LIDs.
 */
#include "analysis/routes-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

/* ----------------------------------------------------------- leaf pairs */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void spread(struct ibtopo_route_spread *out, double *v, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	out->n = n;
	out->min = v[0];
	out->max = v[n - 1];
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Leaf pairs: the destinations grouped by the leaf they hang off; per
 * group and per other leaf, the distinct top switches its routes turn at.
 */
struct leafpairs {
	int *leaf_of;		/* switch -> leaf index, or -1 */
	int *leaves;		/* leaf index -> switch */
	size_t nleaves;
	int *seen;		/* per leaf: top switches of this group */
	size_t *nseen;
	size_t gcap;		/* most destinations of one group */
	double *used, *cabled, *spines;
	uint64_t *key;		/* per entry: lesser leaf << 32 | greater */
	size_t npairs, apairs;
};

static int leafpairs_init(struct leafpairs *lp, const struct ibtopo__trace *t,
			  struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = &t->net;

	memset(lp, 0, sizeof(*lp));
	lp->leaf_of = malloc((net->nsw + 1) * sizeof(*lp->leaf_of));
	lp->leaves = malloc((net->nsw + 1) * sizeof(*lp->leaves));
	if (!lp->leaf_of || !lp->leaves)
		return nomem(err);
	for (size_t s = 0; s < net->nsw; s++) {
		lp->leaf_of[s] = -1;
		if (net->local[s]) {
			lp->leaf_of[s] = (int)lp->nleaves;
			lp->leaves[lp->nleaves++] = (int)s;
		}
	}
	return 0;
}

/* Record the group of destinations on leaf index `b` (t already walked
 * each one: tops[k] holds the top switch from leaf k for dest k-th). */
static int leafpairs_group(struct leafpairs *lp, const struct ibtopo__trace *t,
			   size_t b, struct ibtopo_error *err)
{
	for (size_t a = 0; a < lp->nleaves; a++) {
		long long cab, spn;

		if (a == b)
			continue;
		if (lp->npairs == lp->apairs) {
			size_t na = lp->apairs ? 2 * lp->apairs : 256;
			double *nu = realloc(lp->used, na * sizeof(*nu));
			double *nc;
			uint64_t *nk;

			if (!nu)
				return nomem(err);
			lp->used = nu;
			nc = realloc(lp->cabled, na * sizeof(*nc));
			if (!nc)
				return nomem(err);
			lp->cabled = nc;
			nc = realloc(lp->spines, na * sizeof(*nc));
			if (!nc)
				return nomem(err);
			lp->spines = nc;
			nk = realloc(lp->key, na * sizeof(*nk));
			if (!nk)
				return nomem(err);
			lp->key = nk;
			lp->apairs = na;
		}
		cab = t->net.topo ? ibtopo_topology_leaf_paths(t->net.topo,
				t->net.sw[lp->leaves[a]],
				t->net.sw[lp->leaves[b]],
				IBTOPO_PATHS_EDGE_DISJOINT) : -1;
		spn = t->net.topo ? ibtopo_topology_leaf_paths(t->net.topo,
				t->net.sw[lp->leaves[a]],
				t->net.sw[lp->leaves[b]],
				IBTOPO_PATHS_NODE_DISJOINT) : -1;
		lp->used[lp->npairs] = (double)lp->nseen[a];
		lp->cabled[lp->npairs] = (double)cab;
		lp->spines[lp->npairs] = (double)spn;
		lp->key[lp->npairs] = a < b ? (uint64_t)a << 32 | b :
					      (uint64_t)b << 32 | a;
		lp->npairs++;
		lp->nseen[a] = 0;
	}
	lp->nseen[b] = 0;
	return 0;
}

static void leafpairs_note(struct leafpairs *lp, const struct ibtopo__trace *t)
{
	for (size_t a = 0; a < lp->nleaves; a++) {
		int s = lp->leaves[a], top;
		int *seen = lp->seen + a * lp->gcap;
		size_t k;

		if (t->fault[s] >= 0)
			continue;
		top = t->top[s];
		for (k = 0; k < lp->nseen[a]; k++)
			if (seen[k] == top)
				break;
		if (k == lp->nseen[a] && k < lp->gcap)
			seen[lp->nseen[a]++] = top;
	}
}

struct leafpair_row {
	uint64_t key;
	double used, cabled, spines;
};

static int leafpair_row_cmp(const void *x, const void *y)
{
	const struct leafpair_row *a = x, *b = y;

	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * Both directions of a leaf pair are one pair, as the topology's path
 * diversity counts them: the pair uses the spines of its direction that
 * uses fewer (the cables reach the same in both).
 */
static int leafpairs_merge(struct leafpairs *lp, struct ibtopo_error *err)
{
	struct leafpair_row *row;
	size_t n = 0;

	if (!lp->npairs)
		return 0;
	row = malloc(lp->npairs * sizeof(*row));
	if (!row)
		return nomem(err);
	for (size_t i = 0; i < lp->npairs; i++) {
		row[i].key = lp->key[i];
		row[i].used = lp->used[i];
		row[i].cabled = lp->cabled[i];
		row[i].spines = lp->spines[i];
	}
	qsort(row, lp->npairs, sizeof(*row), leafpair_row_cmp);
	for (size_t i = 0; i < lp->npairs; i++) {
		if (n && row[i].key == lp->key[n - 1]) {
			if (row[i].used < lp->used[n - 1])
				lp->used[n - 1] = row[i].used;
			continue;
		}
		lp->key[n] = row[i].key;
		lp->used[n] = row[i].used;
		lp->cabled[n] = row[i].cabled;
		lp->spines[n] = row[i].spines;
		n++;
	}
	lp->npairs = n;
	free(row);
	return 0;
}

static void leafpairs_release(struct leafpairs *lp)
{
	free(lp->key);
	free(lp->spines);
	free(lp->cabled);
	free(lp->used);
	free(lp->nseen);
	free(lp->seen);
	free(lp->leaves);
	free(lp->leaf_of);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------- levels */

static int level_spreads(struct ibtopo__trace *t, struct ibtopo_error *err)
{
	struct ibtopo_routes *r = &t->res->pub;
	const struct ibtopo__rnet *net = &t->net;
	int maxlevel = 0;
	double *v[4];
	int rc = 0;

	for (size_t s = 0; s < net->nsw; s++)
		if (net->level[s] > maxlevel)
			maxlevel = net->level[s];
	for (int i = 0; i < 4; i++)
		v[i] = malloc((net->nport_ids + 1) * sizeof(double));
	r->levels = calloc((size_t)maxlevel + 1, sizeof(*r->levels));
	if (!v[0] || !v[1] || !v[2] || !v[3] || !r->levels) {
		rc = nomem(err);
		goto out_free;
	}
	for (int lv = maxlevel ? 1 : 0; lv <= maxlevel; lv++) {
		size_t nu = 0, nd = 0;
		struct ibtopo_route_level *L = &r->levels[r->nlevels];

		for (size_t s = 0; s < net->nsw; s++) {
			const struct ibtopo_node *sw = net->sw[s];

			if (net->level[s] != lv)
				continue;
			for (unsigned p = 1; p <= sw->nports; p++) {
				const struct ibtopo_port *pp = sw->ports[p];
				size_t id = net->pbase[s] + p;
				const struct ibtopo_node *peer;
				bool up;

				if (!pp || !pp->remote)
					continue;
				peer = pp->remote->node;
				up = peer->type == IBTOPO_NODE_SWITCH &&
				     (lv ? net->level[net->swid[peer->index]] >
						   lv :
					   true);
				if (up) {
					v[0][nu] = (double)t->port_routes[id];
					v[1][nu++] = t->port_dlids[id];
				} else {
					v[2][nd] = (double)t->port_routes[id];
					v[3][nd++] = t->port_dlids[id];
				}
			}
		}
		L->level = lv;
		spread(&L->up_routes, v[0], nu);
		spread(&L->up_dlids, v[1], nu);
		spread(&L->down_routes, v[2], nd);
		spread(&L->down_dlids, v[3], nd);
		r->nlevels++;
	}

out_free:
	for (int i = 0; i < 4; i++)
		free(v[i]);
	return rc;
}

static int port_rows(struct ibtopo__trace *t, struct ibtopo_error *err)
{
	struct ibtopo_routes *r = &t->res->pub;
	const struct ibtopo__rnet *net = &t->net;
	size_t n = 0;

	for (size_t i = 0; i < net->nport_ids; i++)
		n += t->port_routes[i] || t->port_dlids[i];
	r->ports = calloc(n ? n : 1, sizeof(*r->ports));
	if (!r->ports)
		return nomem(err);
	for (size_t s = 0; s < net->nsw; s++) {
		const struct ibtopo_node *sw = net->sw[s];

		for (unsigned p = 1; p <= sw->nports; p++) {
			size_t id = net->pbase[s] + p;
			struct ibtopo_route_port *rp;
			const struct ibtopo_port *pp = sw->ports[p];

			if (!t->port_routes[id] && !t->port_dlids[id])
				continue;
			if (!pp)
				continue;
			rp = &r->ports[r->nports++];
			rp->port = pp;
			rp->routes = t->port_routes[id];
			rp->dlids = t->port_dlids[id];
			rp->level = net->level[s];
			rp->up = pp->remote &&
				 pp->remote->node->type == IBTOPO_NODE_SWITCH &&
				 net->level[net->swid[pp->remote->node->index]] >
					 net->level[s];
		}
	}
	return 0;
}

/*
 * Threads: the destinations, in the order above, are cut into chunks of
 * whole leaf groups; a worker traces a chunk with its own scratch and
 * sums (port counts, hops, turns), and keeps the chunk's findings and
 * leaf pairs with the chunk. The sums add up the same in any order and
 * the chunks' lists are joined in order, so the result is what one thread
 * finds, findings and their cap included.
 */
struct chunk {
	size_t from, to;	/* positions in idx */
	struct ibtopo_findings found;
	size_t kept[3];
	double *used, *cabled, *spines;
	uint64_t *key;
	size_t npairs, apairs;
};

struct par {
	struct ibtopo_findings *findings;	/* the result's, or NULL */
	struct ibtopo__trace **w;		/* per worker; w[0] is the caller's */
	struct leafpairs *lp;		/* per worker */
	unsigned nw;			/* workers */
	struct chunk *ck;
	size_t nck;
	const uint64_t *idx;
	bool leaf;
};

/* Move the leaf-pair rows between a worker (`to_chunk` false: the
 * chunk's, empty, to the worker) and a chunk. */
static void rows_move(struct leafpairs *lp, struct chunk *c, bool to_chunk)
{
	if (to_chunk) {
		c->used = lp->used;
		c->cabled = lp->cabled;
		c->spines = lp->spines;
		c->key = lp->key;
		c->npairs = lp->npairs;
		c->apairs = lp->apairs;
	}
	lp->used = lp->cabled = lp->spines = NULL;
	lp->key = NULL;
	lp->npairs = lp->apairs = 0;
}

static int trace_chunk(void *arg, unsigned worker, size_t task,
		       struct ibtopo_error *err)
{
	struct par *p = arg;
	struct ibtopo__trace *t = p->w[worker];
	struct leafpairs *lp = &p->lp[worker];
	struct chunk *c = &p->ck[task];
	const struct ibtopo__rnet *net = &t->net;
	int rc = 0;

	t->findings = p->findings ? &c->found : NULL;
	memset(t->kept, 0, sizeof(t->kept));
	rows_move(lp, c, false);
	for (size_t i = c->from; i < c->to && !rc; i++) {
		const struct ibtopo__rdest *d = &net->dest[p->idx[i]];
		t->row = net->rows + p->idx[i] * net->nsw;
		rc = ibtopo__trace_one(t, d, err);
		if (rc)
			break;
		if (p->leaf && d->ca && d->base)
			leafpairs_note(lp, t);
		if (p->leaf && (i + 1 == net->ndest ||
				net->dest[p->idx[i + 1]].attach != d->attach) &&
		    lp->leaf_of[d->attach] >= 0)
			rc = leafpairs_group(lp, t,
					     (size_t)lp->leaf_of[d->attach], err);
	}
	rows_move(lp, c, true);
	return rc;
}

/*
 * Cut idx into about `want` chunks of near equal size, at the end of a
 * leaf's group only (where the leaf-pair scratch is empty again).
 */
static int chunks_cut(struct par *p, const struct ibtopo__rnet *net,
		      const struct leafpairs *lp, size_t want,
		      struct ibtopo_error *err)
{
	size_t ndest = net->ndest, from = 0;

	p->ck = calloc(want + 1, sizeof(*p->ck));
	if (!p->ck)
		return nomem(err);
	for (size_t i = 0; i < ndest; i++) {
		int at = net->dest[p->idx[i]].attach;
		bool end = i + 1 == ndest ||
			   net->dest[p->idx[i + 1]].attach != at;

		if (i + 1 < ndest && (!end || p->nck + 1 >= want ||
				      (p->leaf && lp->leaf_of[at] < 0) ||
				      (i + 1) * want < (p->nck + 1) * ndest))
			continue;
		p->ck[p->nck].from = from;
		p->ck[p->nck++].to = i + 1;
		from = i + 1;
	}
	return 0;
}

static int worker_new(struct ibtopo__trace **out, struct ibtopo__trace *m,
		      struct ibtopo_error *err)
{
	struct ibtopo__trace *w = calloc(1, sizeof(*w));
	int rc;

	*out = w;
	if (!w)
		return nomem(err);
	w->net = m->net;	/* shared, read only; released by m */
	w->res = calloc(1, sizeof(*w->res));
	if (!w->res)
		return nomem(err);
	w->res->pub.nhops = m->res->pub.nhops;
	w->res->pub.hops = calloc(w->res->pub.nhops, sizeof(uint64_t));
	if (!w->res->pub.hops)
		return nomem(err);
	rc = ibtopo__trace_alloc(w, err);
	if (!rc)
		rc = ibtopo__trace_adjacency(w, err);
	if (!rc && m->cdg && ibtopo__cdg_new(&w->cdg, &m->net))
		rc = nomem(err);
	return rc;
}

static void worker_free(struct ibtopo__trace *w)
{
	if (!w)
		return;
	ibtopo__trace_release(w);
	if (w->res)
		ibtopo_routes_free(&w->res->pub);
	free(w);
}

/* Add what worker `w` counted to `m`'s. */
static void worker_merge(struct ibtopo__trace *m, const struct ibtopo__trace *w)
{
	struct ibtopo_routes *r = &m->res->pub;
	const struct ibtopo_routes *wr = &w->res->pub;

	r->unreachable_pairs += wr->unreachable_pairs;
	r->loops += wr->loops;
	r->black_holes += wr->black_holes;
	r->not_minimal += wr->not_minimal;
	for (size_t i = 0; i < r->nhops && i < wr->nhops; i++)
		r->hops[i] += wr->hops[i];
	for (size_t i = 0; i < m->net.nport_ids; i++) {
		m->port_routes[i] += w->port_routes[i];
		m->port_dlids[i] += w->port_dlids[i];
	}
	if (m->cdg && w->cdg)
		ibtopo__cdg_merge(m->cdg, w->cdg);
}

/* Join the chunks' findings in order, the first of each kind up to the
 * cap, into the result's list. */
static int join_findings(struct ibtopo__trace *t, struct par *p,
			 struct ibtopo_error *err)
{
	for (size_t k = 0; k < p->nck && p->findings; k++) {
		const struct chunk *c = &p->ck[k];

		for (size_t i = 0; i < c->found.count; i++) {
			const struct ibtopo_finding *f = &c->found.items[i];
			size_t *kept = &t->kept[
				f->kind == IBTOPO_FIND_ROUTE_BLACK_HOLE ? 0 :
				f->kind == IBTOPO_FIND_ROUTE_LOOP ? 1 : 2];
			int rc;

			if (*kept >= IBTOPO__ROUTES_MAX_FINDINGS)
				continue;
			(*kept)++;
			rc = ibtopo_findings_add(p->findings, f, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int realloc_to(void *pptr, size_t n, size_t size)
{
	void **p = pptr;
	void *np = realloc(*p, (n ? n : 1) * size);

	if (!np)
		return IBTOPO_ENOMEM;
	*p = np;
	return 0;
}

/* Join the chunks' leaf pairs in order into `lp`. */
static int join_pairs(struct par *p, struct leafpairs *lp,
		      struct ibtopo_error *err)
{
	size_t total = lp->npairs;

	for (size_t k = 0; k < p->nck; k++)
		total += p->ck[k].npairs;
	if (total > lp->apairs) {
		if (realloc_to(&lp->used, total, sizeof(double)) ||
		    realloc_to(&lp->cabled, total, sizeof(double)) ||
		    realloc_to(&lp->spines, total, sizeof(double)) ||
		    realloc_to(&lp->key, total, sizeof(uint64_t)))
			return nomem(err);
		lp->apairs = total;
	}
	for (size_t k = 0; k < p->nck; k++) {
		const struct chunk *c = &p->ck[k];
		size_t n = lp->npairs;

		if (!c->npairs)
			continue;
		memcpy(lp->used + n, c->used, c->npairs * sizeof(double));
		memcpy(lp->cabled + n, c->cabled, c->npairs * sizeof(double));
		memcpy(lp->spines + n, c->spines, c->npairs * sizeof(double));
		memcpy(lp->key + n, c->key, c->npairs * sizeof(uint64_t));
		lp->npairs += c->npairs;
	}
	return 0;
}

static void par_release(struct par *p)
{
	for (size_t k = 0; k < p->nck; k++) {
		struct chunk *c = &p->ck[k];

		ibtopo_findings_release(&c->found);
		free(c->used);
		free(c->cabled);
		free(c->spines);
		free(c->key);
	}
	free(p->ck);
	for (unsigned i = 1; p->w && i < p->nw; i++)
		worker_free(p->w[i]);
	for (unsigned i = 0; p->lp && i < p->nw; i++)
		leafpairs_release(&p->lp[i]);
	free(p->w);
	free(p->lp);
}

/* The workers, the caller's trace `t` first, each with its leaf-pair
 * scratch shaped like `lp`. */
static int workers_new(struct ibtopo__trace *t, struct par *p,
		       const struct leafpairs *lp, struct ibtopo_error *err)
{
	int rc = 0;

	p->w = calloc(p->nw, sizeof(*p->w));
	p->lp = calloc(p->nw, sizeof(*p->lp));
	if (!p->w || !p->lp)
		return nomem(err);
	p->w[0] = t;
	for (unsigned i = 1; i < p->nw && !rc; i++)
		rc = worker_new(&p->w[i], t, err);
	for (unsigned i = 0; i < p->nw && !rc; i++) {
		struct leafpairs *wl = &p->lp[i];

		rc = leafpairs_init(wl, t, err);
		if (rc || !p->leaf)
			continue;
		wl->gcap = lp->gcap;
		wl->seen = calloc(wl->nleaves * wl->gcap + 1,
				  sizeof(*wl->seen));
		wl->nseen = calloc(wl->nleaves + 1, sizeof(*wl->nseen));
		if (!wl->seen || !wl->nseen)
			rc = nomem(err);
	}
	return rc;
}

/* Trace every destination, in idx's order, on the threads; join what
 * they found into `t` and the leaf pairs into `lp`. */
static int trace_par(struct ibtopo__trace *t, struct par *p, struct leafpairs *lp,
		     struct ibtopo_error *err)
{
	unsigned nthreads = ibtopo_threads();
	int rc;

	rc = chunks_cut(p, &t->net, lp,
			nthreads > 1 ? 4 * (size_t)nthreads : 1, err);
	if (rc)
		return rc;
	p->nw = nthreads < p->nck ? nthreads : (unsigned)p->nck;
	if (!p->nw)
		p->nw = 1;
	rc = workers_new(t, p, lp, err);
	if (!rc)
		rc = ibtopo__parallel(p->nck, p->nw, trace_chunk, p, err);
	t->findings = p->findings;
	memset(t->kept, 0, sizeof(t->kept));
	if (rc)
		return rc;
	for (unsigned i = 1; i < p->nw; i++)
		worker_merge(t, p->w[i]);
	rc = join_findings(t, p, err);
	if (!rc)
		rc = join_pairs(p, lp, err);
	return rc;
}

static int trace_all(struct ibtopo__trace *t, const struct ibtopo_routes_opts *opts,
		     struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = &t->net;
	bool leaf = !(opts->flags & IBTOPO_ROUTES_NO_LEAF_PAIRS) &&
		    net->topo != NULL;
	struct leafpairs lp;
	struct par par;
	uint64_t *idx = NULL;
	int rc;

	memset(&par, 0, sizeof(par));
	rc = leafpairs_init(&lp, t, err);
	if (rc)
		goto out_release;
	idx = malloc((net->ndest + 1) * sizeof(*idx));
	if (!idx) {
		rc = nomem(err);
		goto out_release;
	}
	/* by the switch they hang off (then as listed): a leaf's group */
	for (size_t i = 0; i < net->ndest; i++)
		idx[i] = (uint64_t)net->dest[i].attach << 32 | i;
	qsort(idx, net->ndest, sizeof(*idx), cmp_u64);
	for (size_t i = 0; i < net->ndest; i++)
		idx[i] &= 0xffffffffu;
	if (leaf) {
		/* the largest group of CA base LIDs on one leaf */
		size_t run = 0;

		for (size_t i = 0; i < net->ndest; i++) {
			if (i && net->dest[idx[i]].attach !=
					 net->dest[idx[i - 1]].attach)
				run = 0;
			if (net->dest[idx[i]].ca && net->dest[idx[i]].base)
				run++;
			if (run > lp.gcap)
				lp.gcap = run;
		}
	}
	par.findings = t->findings;
	par.idx = idx;
	par.leaf = leaf;
	rc = trace_par(t, &par, &lp, err);
	if (rc)
		goto out_release;
	if (leaf)
		rc = leafpairs_merge(&lp, err);
	if (leaf && !rc) {
		struct ibtopo_routes *r = &t->res->pub;
		size_t nc = 0, ns = 0;

		/* like with like: distinct spines used against distinct
		 * spines cabled (node-disjoint), not against edge-disjoint
		 * paths, which count parallel cables to one spine */
		for (size_t i = 0; i < lp.npairs; i++) {
			if (lp.spines[i] >= 0 && lp.used[i] < lp.spines[i])
				r->leaf_pairs_underused++;
			if (lp.cabled[i] >= 0)
				lp.cabled[nc++] = lp.cabled[i];
			if (lp.spines[i] >= 0)
				lp.spines[ns++] = lp.spines[i];
		}
		spread(&r->leaf_spines_used, lp.used, lp.npairs);
		spread(&r->leaf_paths_cabled, lp.cabled, nc);
		spread(&r->leaf_spines_cabled, lp.spines, ns);
	}

out_release:
	par_release(&par);
	free(idx);
	leafpairs_release(&lp);
	return rc;
}

int ibtopo_routes_analyze(struct ibtopo_routes **out,
			  const struct ibtopo_fabric *fabric,
			  const struct ibtopo_topology *topo,
			  const struct ibtopo_routes_opts *opts,
			  struct ibtopo_findings *findings,
			  struct ibtopo_error *err)
{
	static const struct ibtopo_routes_opts defaults = IBTOPO_ROUTES_OPTS_INIT;
	struct ibtopo__trace t;
	struct ibtopo_routes *r;
	int rc;

	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or result");
	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->version != IBTOPO_ROUTES_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "routes options version %u unknown",
					 opts->version);
	if (!ibtopo_fabric_has_routes(fabric))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"no forwarding tables (discover --routes, or --routes "
			"DUMP)");
	memset(&t, 0, sizeof(t));
	t.findings = findings;
	t.res = calloc(1, sizeof(*t.res));
	if (!t.res)
		return nomem(err);
	r = &t.res->pub;
	rc = ibtopo__rnet_build(&t.net, fabric, topo, err);
	if (rc)
		goto out_fail;
	if (!t.net.ndest) {
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
			"the fabric has no LIDs (an ibsim net file has none): "
			"routes need a discovered fabric or ibnetdiscover "
			"output");
		goto out_fail;
	}
	rc = ibtopo__rnet_rows(&t.net, err);
	if (!rc)
		rc = ibtopo__trace_alloc(&t, err);
	if (!rc)
		rc = ibtopo__trace_adjacency(&t, err);
	if (!rc && !(opts->flags & IBTOPO_ROUTES_NO_CREDIT_LOOPS) &&
	    ibtopo__cdg_new(&t.cdg, &t.net))
		rc = nomem(err);
	if (rc)
		goto out_fail;
	r->engine = ibtopo_fabric_routing_engine(fabric);
	r->fabric = fabric;
	r->switches = t.net.nsw;
	for (size_t s = 0; s < t.net.nsw; s++)
		r->switches_with_tables += t.net.sw[s]->lft != NULL;
	r->ca_ports = t.net.nsrc;
	r->dest_lids = t.net.ndest;
	r->ca_pairs = (uint64_t)t.net.nsrc * (t.net.nsrc ? t.net.nsrc - 1 : 0);
	for (size_t i = 0; i < t.net.ndest && t.net.nsrc; i++)
		r->lid_pairs += t.net.dest[i].ca ? t.net.nsrc - 1 : 0;
	r->nhops = t.net.nsw + 3;
	r->hops = calloc(r->nhops, sizeof(*r->hops));
	if (!r->hops) {
		rc = nomem(err);
		goto out_fail;
	}
	rc = trace_all(&t, opts, err);
	if (!rc && t.cdg)
		rc = ibtopo__cdg_cycles(t.cdg, &t.net, &r->credit_loops,
					findings, &t.res->notes,
					&t.res->nnotes, err);
	if (!rc)
		rc = level_spreads(&t, err);
	if (!rc)
		rc = port_rows(&t, err);
	r->bisections = opts->bisections;
	r->seed = opts->seed;
	if (!rc && opts->bisections)
		rc = ibtopo__routes_ebb(&t.net, opts->bisections, opts->seed,
					&r->ebb_mean, &r->ebb_min, err);
	if (rc)
		goto out_fail;
	while (r->nhops > 0 && !r->hops[r->nhops - 1])
		r->nhops--;
	ibtopo__trace_release(&t);
	ibtopo__rnet_release(&t.net);
	*out = r;
	return 0;

out_fail:
	ibtopo__trace_release(&t);
	ibtopo__rnet_release(&t.net);
	ibtopo_routes_free(&t.res->pub);
	return rc;
}

void ibtopo_routes_free(struct ibtopo_routes *routes)
{
	struct ibtopo__owned_routes *o = (struct ibtopo__owned_routes *)routes;

	if (!o)
		return;
	for (size_t i = 0; i < o->nnotes; i++)
		free(o->notes[i]);
	free(o->notes);
	free(o->pub.levels);
	free(o->pub.ports);
	free(o->pub.hops);
	free(o);
}

/* In `analyze`: when switches have tables, with the topology's levels. */
static int run_routes(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		      struct ibtopo_error *err)
{
	int rc;

	if (!ibtopo_fabric_has_routes(an->fabric))
		return 0;
	rc = ibtopo__analysis_need(an, IBTOPO__SECTION_TOPOLOGY, err);
	if (!rc)
		rc = ibtopo_routes_analyze(&an->routes, an->fabric,
					   an->topology, &an->opts.routes,
					   found, err);
	return rc;
}

static void routes_summary(char *buf, size_t len,
			   const struct ibtopo_analysis *an)
{
	if (!an->routes)
		snprintf(buf, len, "no forwarding tables");
	else
		snprintf(buf, len, "%zu findings",
			 an->slots[IBTOPO__SECTION_ROUTES].findings.count);
}

static void release_routes(struct ibtopo_analysis *an)
{
	ibtopo_routes_free(an->routes);
	an->routes = NULL;
}

const struct ibtopo__analysis ibtopo__analysis_routes = {
	.name = "routes",
	.skip = IBTOPO_ANALYZE_NO_ROUTES,
	.run = run_routes,
	.summary = routes_summary,
	.release = release_routes,
};

IBTOPO__ACCESSOR(ibtopo_analysis_routes, ROUTES, const struct ibtopo_routes,
		 an->routes)
