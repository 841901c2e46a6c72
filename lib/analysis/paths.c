/*
 * paths.c - path diversity between leaf switches and between servers.
 *
 * Counting flows for every pair of leaves is n^2 max flows; this file
 * leans on the fabric's symmetry instead. Two switches with the same
 * neighbours, cable for cable (twins: the leaves of one pod, the spines
 * of one plane), can be swapped without changing the graph, so a pair
 * of leaves stands for every pair drawn from the same two twin classes.
 * And twins that are not a pair's ends always fall on the same side of
 * some minimum cut (each one's cost of being on either side is the same
 * as its twins'), so they may be contracted into one vertex weighted by
 * their number (its capacity in vertex cuts, its cables summed in edge
 * cuts) without changing any count we read.
 *
 * The contracted graph Q keeps the first two leaves of every twin class
 * as vertices of their own. Then:
 * - edge-disjoint counts: one Gomory-Hu tree of Q (|Q| - 1 max flows);
 *   the count between two leaves is the lightest edge on their tree path;
 * - node-disjoint counts: one max flow per pair of leaf twin classes on
 *   Q split into in/out vertices (vertex capacity = weight); cables
 *   between the two ends count one path each;
 * - ECMP: one BFS per leaf twin class on the switch graph, counting
 *   distinct shortest switch sequences (parallel cables do not multiply);
 * - servers: one max flow per distinct way two servers are cabled, up
 *   to swapping twins, on the switch graph plus the two servers (servers
 *   never forward).
 * A fat tree of P pods has about P twin classes of leaves: P^2/2 flows
 * whatever the number of leaves; a fabric without twins costs one flow
 * per leaf pair for the node counts, so those stop at PAIR_FLOW_BUDGET.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PAIR_FLOW_BUDGET 20000		/* node-disjoint flows per fabric */
#define SERVER_FLOW_BUDGET 4096		/* distinct server cablings */
#define SERVER_PAIR_BUDGET 4000000	/* pairs of server cablings scanned */
#define LEAF_CLASS_BUDGET 4096		/* twin classes of leaves (tables C^2) */

enum { M_EDGE = IBTOPO_PATHS_EDGE_DISJOINT, M_NODE = IBTOPO_PATHS_NODE_DISJOINT,
       M_ECMP = IBTOPO_PATHS_ECMP };

struct ctx {
	struct ibtopo_topology *t;
	size_t *twin;		/* per switch: twin class */
	size_t ntwin;
	size_t *tw_off;		/* twin class members, by leaf name order */
	size_t *tw_mem;		/*   for leaves first, then other switches */
	/* leaf twin classes (t->nclass of them) */
	size_t *cls_twin;	/* leaf class -> twin class */
	size_t *cls_size;	/* leaves in the class */
	size_t *cls_rep;	/* first leaf (switch index) */
	size_t *cls_second;	/* second leaf, or NONE */
	/* contracted graph Q */
	size_t nq;
	size_t *q_of;		/* per switch */
	size_t *q_w;		/* per Q vertex: switches it stands for */
	struct ibtopo__edge *qe;
	size_t nqe;
};

/* ------------------------------------------------------------------ */
/* Twin classes                                                        */
/* ------------------------------------------------------------------ */

struct adj_key {
	const struct ibtopo__adj *a;
	size_t n;
	size_t sw;
	size_t leaf;		/* leaf index or NONE (sorts after leaves) */
};

static int adj_key_cmp(const void *x, const void *y)
{
	const struct adj_key *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (size_t i = 0; i < a->n; i++) {
		if (a->a[i].v != b->a[i].v)
			return a->a[i].v < b->a[i].v ? -1 : 1;
		if (a->a[i].mult != b->a[i].mult)
			return a->a[i].mult < b->a[i].mult ? -1 : 1;
	}
	if (a->leaf != b->leaf)
		return a->leaf < b->leaf ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static bool same_adj(const struct adj_key *a, const struct adj_key *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->a[i].v != b->a[i].v || a->a[i].mult != b->a[i].mult)
			return false;
	return true;
}

static int twins(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	size_t n = t->nsw;
	struct adj_key *k = calloc(n + 1, sizeof(*k));

	c->twin = calloc(n + 1, sizeof(*c->twin));
	c->tw_off = calloc(n + 2, sizeof(*c->tw_off));
	c->tw_mem = calloc(n + 1, sizeof(*c->tw_mem));
	if (!k || !c->twin || !c->tw_off || !c->tw_mem) {
		free(k);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		k[i].a = &t->adj[t->off[i]];
		k[i].n = t->off[i + 1] - t->off[i];
		k[i].sw = i;
		k[i].leaf = t->sw[i].leaf;
	}
	qsort(k, n, sizeof(*k), adj_key_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !same_adj(&k[i - 1], &k[i]))
			c->tw_off[++c->ntwin] = i;
		c->twin[k[i].sw] = c->ntwin;
		c->tw_mem[i] = k[i].sw;
	}
	if (n)
		c->ntwin++;
	c->tw_off[c->ntwin] = n;
	free(k);
	return 0;
}

/* Leaf classes: twin classes holding leaves, in the order of their first leaf. */
static int leaf_classes(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	size_t *seen = calloc(c->ntwin + 1, sizeof(*seen));
	size_t L = t->nleaves;

	t->leaf_class = calloc(L + 1, sizeof(*t->leaf_class));
	c->cls_twin = calloc(L + 1, sizeof(*c->cls_twin));
	c->cls_size = calloc(L + 1, sizeof(*c->cls_size));
	c->cls_rep = calloc(L + 1, sizeof(*c->cls_rep));
	c->cls_second = calloc(L + 1, sizeof(*c->cls_second));
	if (!seen || !t->leaf_class || !c->cls_twin || !c->cls_size ||
	    !c->cls_rep || !c->cls_second) {
		free(seen);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < c->ntwin; i++)
		seen[i] = IBTOPO__NONE;
	t->nclass = 0;
	for (size_t l = 0; l < L; l++) {
		size_t sw = t->leaves[l], tw = c->twin[sw], k = seen[tw];

		if (k == IBTOPO__NONE) {
			k = seen[tw] = t->nclass++;
			c->cls_twin[k] = tw;
			c->cls_rep[k] = sw;
			c->cls_second[k] = IBTOPO__NONE;
		} else if (c->cls_second[k] == IBTOPO__NONE) {
			c->cls_second[k] = sw;
		}
		c->cls_size[k]++;
		t->leaf_class[l] = k;
	}
	free(seen);
	return 0;
}

/* Q: each leaf class's first two leaves alone, other twins contracted. */
static int contract(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	size_t n = t->nsw, ne = 0, k = 0;
	size_t *rest = calloc(c->ntwin + 1, sizeof(*rest));

	c->q_of = calloc(n + 1, sizeof(*c->q_of));
	c->q_w = calloc(n + 1, sizeof(*c->q_w));
	c->qe = calloc(t->off[n] / 2 + 1, sizeof(*c->qe));
	if (!rest || !c->q_of || !c->q_w || !c->qe) {
		free(rest);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < c->ntwin; i++)
		rest[i] = IBTOPO__NONE;
	for (size_t cl = 0; cl < t->nclass; cl++) {
		c->q_w[c->nq] = 1;
		c->q_of[c->cls_rep[cl]] = c->nq++;
		if (c->cls_second[cl] != IBTOPO__NONE) {
			c->q_w[c->nq] = 1;
			c->q_of[c->cls_second[cl]] = c->nq++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t tw = c->twin[i];
		size_t lf = t->sw[i].leaf;

		if (lf != IBTOPO__NONE) {
			size_t cl = t->leaf_class[lf];

			if (c->cls_rep[cl] == i || c->cls_second[cl] == i)
				continue;
		}
		if (rest[tw] == IBTOPO__NONE)
			rest[tw] = c->nq++;
		c->q_of[i] = rest[tw];
		c->q_w[rest[tw]]++;
	}
	free(rest);
	for (size_t u = 0; u < n; u++) {
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t v = t->adj[j].v, a = c->q_of[u], b = c->q_of[v];

			if (v < u)
				continue;
			c->qe[ne].u = a < b ? a : b;
			c->qe[ne].v = a < b ? b : a;
			c->qe[ne++].cap = t->adj[j].mult;
		}
	}
	qsort(c->qe, ne, sizeof(*c->qe), ibtopo__edge_cmp);
	for (size_t i = 0; i < ne; i++) {
		if (k && c->qe[k - 1].u == c->qe[i].u && c->qe[k - 1].v == c->qe[i].v)
			c->qe[k - 1].cap += c->qe[i].cap;
		else
			c->qe[k++] = c->qe[i];
	}
	c->nqe = k;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Leaf pairs                                                          */
/* ------------------------------------------------------------------ */

static void set_cell(struct ibtopo_topology *t, int m, size_t i, size_t j,
		     unsigned long long v)
{
	*ibtopo__paths_cell(t, m, i, j) = v;
	*ibtopo__paths_cell(t, m, j, i) = v;
}

/*
 * Edge-disjoint counts of one leaf class against the classes after it:
 * the lightest edge on the tree path from its leaf, by one walk of the
 * Gomory-Hu tree. On the threads: a class writes its own cells, with its
 * worker's scratch.
 */
struct edge_par {
	struct ctx *c;
	const size_t *toff;
	const struct ibtopo__adj *tadj;
	const struct ibtopo__edge *tree;
	double *minw;		/* per worker, nq + 1 each */
	size_t *stack;
};

static int edge_class(void *arg, unsigned worker, size_t ci,
		      struct ibtopo_error *err)
{
	struct edge_par *p = arg;
	struct ctx *c = p->c;
	struct ibtopo_topology *t = c->t;
	double *minw = p->minw + (size_t)worker * (c->nq + 1);
	size_t *stack = p->stack + (size_t)worker * (c->nq + 1);
	size_t src = c->q_of[c->cls_rep[ci]], sp = 0;

	(void)err;
	/* minimum weight on the tree path from src; -1 = unvisited */
	for (size_t v = 0; v < c->nq; v++)
		minw[v] = -1;
	minw[src] = DBL_MAX;
	stack[sp++] = src;
	while (sp) {
		size_t u = stack[--sp];

		for (size_t j = p->toff[u]; j < p->toff[u + 1]; j++) {
			size_t v = p->tadj[j].v;
			double w = p->tree[p->tadj[j].mult].cap;

			if (minw[v] >= 0)
				continue;
			minw[v] = w < minw[u] ? w : minw[u];
			stack[sp++] = v;
		}
	}
	for (size_t cj = ci; cj < t->nclass; cj++) {
		size_t other = cj == ci ? c->cls_second[ci] : c->cls_rep[cj];
		double w;

		if (other == IBTOPO__NONE)
			continue;
		w = minw[c->q_of[other]];
		set_cell(t, M_EDGE, ci, cj,
			 w < 0 ? 0 : (unsigned long long)(w + 0.5));
	}
	return 0;
}

static int edge_counts(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	struct ibtopo__edge *tree = calloc(c->nq + 1, sizeof(*tree));
	size_t ntree = 0, *toff = NULL, *stack = NULL;
	struct ibtopo__adj *tadj = NULL;
	double *minw = NULL;
	unsigned nw = ibtopo_threads();
	int ret;

	if (!tree)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	ret = ibtopo__graph_gomory_hu(tree, &ntree, c->nq, c->qe, c->nqe, err);
	if (ret)
		goto out_free;
	t->leaf_flows = c->nq ? c->nq - 1 : 0;
	/* tree adjacency, weights kept in mult's place as indexes */
	toff = calloc(c->nq + 2, sizeof(*toff));
	tadj = calloc(2 * ntree + 1, sizeof(*tadj));
	if (nw > t->nclass)
		nw = t->nclass ? (unsigned)t->nclass : 1;
	minw = calloc(nw * (c->nq + 1), sizeof(*minw));
	stack = calloc(nw * (c->nq + 1), sizeof(*stack));
	if (!toff || !tadj || !minw || !stack) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < ntree; i++) {
		toff[tree[i].u + 1]++;
		toff[tree[i].v + 1]++;
	}
	for (size_t v = 0; v < c->nq; v++)
		toff[v + 1] += toff[v];
	{
		size_t *fill = calloc(c->nq + 1, sizeof(*fill));

		if (!fill) {
			ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
			goto out_free;
		}
		memcpy(fill, toff, c->nq * sizeof(*fill));
		for (size_t i = 0; i < ntree; i++) {
			tadj[fill[tree[i].u]].v = tree[i].v;
			tadj[fill[tree[i].u]++].mult = (unsigned)i;
			tadj[fill[tree[i].v]].v = tree[i].u;
			tadj[fill[tree[i].v]++].mult = (unsigned)i;
		}
		free(fill);
	}
	{
		struct edge_par p = { c, toff, tadj, tree, minw, stack };

		ret = ibtopo__parallel(t->nclass, nw, edge_class, &p, err);
	}
out_free:
	free(stack);
	free(minw);
	free(tadj);
	free(toff);
	free(tree);
	return ret;
}

/*
 * Node-disjoint paths on Q split into in (2q) and out (2q + 1) vertices.
 * The arc in->out carries the vertex's weight; arcs between vertices
 * carry the cables between what they stand for, so between the two ends
 * each direct cable is one path and elsewhere the vertices bind.
 */
static int node_counts(struct ctx *c, bool *computed, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	size_t pairs = 0, na = 0;
	struct ibtopo__edge *arcs;
	struct ibtopo__flownet *net = NULL;
	int ret = 0;

	*computed = false;
	for (size_t ci = 0; ci < t->nclass; ci++)
		pairs += t->nclass - ci - (c->cls_second[ci] == IBTOPO__NONE);
	if (pairs > PAIR_FLOW_BUDGET)
		return 0;
	arcs = calloc(c->nq + 2 * c->nqe + 1, sizeof(*arcs));
	if (!arcs)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t q = 0; q < c->nq; q++) {
		arcs[na].u = 2 * q;
		arcs[na].v = 2 * q + 1;
		arcs[na++].cap = (double)c->q_w[q];
	}
	for (size_t i = 0; i < c->nqe; i++) {
		arcs[na].u = 2 * c->qe[i].u + 1;
		arcs[na].v = 2 * c->qe[i].v;
		arcs[na++].cap = c->qe[i].cap;
		arcs[na].u = 2 * c->qe[i].v + 1;
		arcs[na].v = 2 * c->qe[i].u;
		arcs[na++].cap = c->qe[i].cap;
	}
	ret = ibtopo__flownet_new(&net, 2 * c->nq, arcs, na, true, err);
	free(arcs);
	if (ret)
		return ret;
	for (size_t ci = 0; ci < t->nclass && !ret; ci++) {
		for (size_t cj = ci; cj < t->nclass && !ret; cj++) {
			size_t a = c->cls_rep[ci];
			size_t b = cj == ci ? c->cls_second[ci] : c->cls_rep[cj];
			double v = 0;

			if (b == IBTOPO__NONE)
				continue;
			ret = ibtopo__flownet_maxflow(&v, net, 2 * c->q_of[a] + 1,
						      2 * c->q_of[b], err);
			set_cell(t, M_NODE, ci, cj, (unsigned long long)(v + 0.5));
			t->node_flows++;
		}
	}
	ibtopo__flownet_free(net);
	*computed = !ret;
	return ret;
}

/*
 * ECMP: one BFS per leaf class, on the threads. A class's BFS writes its
 * row of cells (and their mirror), no other class's, and each worker has
 * its own scratch, so the table is the same whatever ran where.
 */
struct ecmp_par {
	struct ctx *c;
	const size_t *nbr;
	unsigned *dist;		/* per worker, n + 1 each */
	double *count;
	size_t *queue;
};

static int ecmp_class(void *arg, unsigned worker, size_t ci,
		      struct ibtopo_error *err)
{
	struct ecmp_par *p = arg;
	struct ibtopo_topology *t = p->c->t;
	size_t n = t->nsw, w = (size_t)worker * (n + 1);
	unsigned *dist = p->dist + w;
	double *count = p->count + w;

	(void)err;
	ibtopo__graph_count_shortest(dist, count, p->queue + w, n, t->off,
				     p->nbr, p->c->cls_rep[ci]);
	for (size_t cj = ci; cj < t->nclass; cj++) {
		size_t b = cj == ci ? p->c->cls_second[ci] : p->c->cls_rep[cj];
		double v;

		if (b == IBTOPO__NONE)
			continue;
		v = dist[b] == UINT_MAX ? 0 : count[b];
		set_cell(t, M_ECMP, ci, cj,
			 v >= 1.8e19 ? ULLONG_MAX : (unsigned long long)v);
	}
	return 0;
}

static int ecmp_counts(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	size_t n = t->nsw;
	unsigned nw = ibtopo_threads();
	size_t *nbr;
	struct ecmp_par p;
	int ret = 0;

	if (nw > t->nclass)
		nw = t->nclass ? (unsigned)t->nclass : 1;
	nbr = calloc(t->off[n] + 1, sizeof(*nbr));
	p.c = c;
	p.nbr = nbr;
	p.dist = calloc(nw * (n + 1), sizeof(*p.dist));
	p.count = calloc(nw * (n + 1), sizeof(*p.count));
	p.queue = calloc(nw * (n + 1), sizeof(*p.queue));
	if (!nbr || !p.dist || !p.count || !p.queue) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t j = 0; j < t->off[n]; j++)
		nbr[j] = t->adj[j].v;
	ret = ibtopo__parallel(t->nclass, nw, ecmp_class, &p, err);
out_free:
	free(p.queue);
	free(p.count);
	free(p.dist);
	free(nbr);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Distributions                                                       */
/* ------------------------------------------------------------------ */

static int bin_cmp(const void *x, const void *y)
{
	const struct ibtopo__bin *a = x, *b = y;

	return a->value < b->value ? -1 : a->value > b->value;
}

/* Merge (value, pairs) entries into sorted bins; takes `bins`. */
static void dist_set(struct ibtopo__dist *d, struct ibtopo__bin *bins, size_t n)
{
	size_t k = 0;

	qsort(bins, n, sizeof(*bins), bin_cmp);
	d->pairs = 0;
	for (size_t i = 0; i < n; i++) {
		if (!bins[i].pairs)
			continue;
		d->pairs += bins[i].pairs;
		if (k && bins[k - 1].value == bins[i].value)
			bins[k - 1].pairs += bins[i].pairs;
		else
			bins[k++] = bins[i];
	}
	d->bins = bins;
	d->nbins = k;
	d->computed = true;
}

double ibtopo__dist_median(const struct ibtopo__dist *d)
{
	unsigned long long lo, hi, seen = 0;
	double a = 0, b = 0;
	bool got_a = false;

	if (!d->computed || !d->pairs)
		return 0;
	/* the (lo)th and (hi)th values, 0-based, in ascending order */
	lo = (d->pairs - 1) / 2;
	hi = d->pairs / 2;
	for (size_t i = 0; i < d->nbins; i++) {
		unsigned long long end = seen + d->bins[i].pairs;

		if (!got_a && lo < end) {
			a = (double)d->bins[i].value;
			got_a = true;
		}
		if (hi < end) {
			b = (double)d->bins[i].value;
			break;
		}
		seen = end;
	}
	return (a + b) / 2;
}

static int leaf_dist(struct ibtopo_topology *t, int m, struct ibtopo_error *err)
{
	size_t n = t->nclass, k = 0;
	struct ibtopo__bin *bins = calloc(n * (n + 1) / 2 + 1, sizeof(*bins));
	size_t *size = calloc(n + 1, sizeof(*size));

	if (!bins || !size) {
		free(size);
		free(bins);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t l = 0; l < t->nleaves; l++)
		size[t->leaf_class[l]]++;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i; j < n; j++) {
			unsigned long long w = i == j ?
				(unsigned long long)size[i] * (size[i] - 1) / 2 :
				(unsigned long long)size[i] * size[j];

			bins[k].value = *ibtopo__paths_cell(t, m, i, j);
			bins[k++].pairs = w;
		}
	}
	free(size);
	dist_set(&t->leaf_dist[m], bins, k);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Servers                                                             */
/* ------------------------------------------------------------------ */

/* The switch graph plus a source and a sink that servers cable into. */
struct server_net {
	struct ibtopo__flownet *edge;	/* undirected, cables as capacity */
	struct ibtopo__flownet *node;	/* split: 2v in, 2v+1 out */
	size_t n;			/* switches */
	size_t edge_s, node_s;		/* first S/T edge index in each */
};

static int server_net_new(struct server_net *sn, const struct ibtopo_topology *t,
			  struct ibtopo_error *err)
{
	size_t n = t->nsw, ne = 0, na = 0, nisl = t->off[n] / 2;
	struct ibtopo__edge *e = calloc(nisl + 2 * n + 1, sizeof(*e));
	struct ibtopo__edge *a = calloc(n + 2 * nisl + 2 * n + 1, sizeof(*a));
	int ret = 0;

	memset(sn, 0, sizeof(*sn));
	sn->n = n;
	if (!e || !a) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t u = 0; u < n; u++) {
		a[na].u = 2 * u;
		a[na].v = 2 * u + 1;
		a[na++].cap = 1;
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t v = t->adj[j].v;

			a[na].u = 2 * u + 1;
			a[na].v = 2 * v;
			a[na++].cap = t->adj[j].mult;
			if (v < u)
				continue;
			e[ne].u = u;
			e[ne].v = v;
			e[ne++].cap = t->adj[j].mult;
		}
	}
	/* S = n, T = n + 1 (edge net); S = 2n, T = 2n + 1 (node net) */
	sn->edge_s = ne;
	for (size_t u = 0; u < n; u++) {
		e[ne].u = n;
		e[ne].v = u;
		e[ne++].cap = 0;
		e[ne].u = u;
		e[ne].v = n + 1;
		e[ne++].cap = 0;
	}
	sn->node_s = na;
	for (size_t u = 0; u < n; u++) {
		a[na].u = 2 * n;
		a[na].v = 2 * u;
		a[na++].cap = 0;
		a[na].u = 2 * u + 1;
		a[na].v = 2 * n + 1;
		a[na++].cap = 0;
	}
	ret = ibtopo__flownet_new(&sn->edge, n + 2, e, ne, false, err);
	if (!ret)
		ret = ibtopo__flownet_new(&sn->node, 2 * n + 2, a, na, true, err);
out_free:
	free(a);
	free(e);
	return ret;
}

static void server_net_free(struct server_net *sn)
{
	ibtopo__flownet_free(sn->node);
	ibtopo__flownet_free(sn->edge);
}

/* Flows between server X (cabled as xa[]) and Y (ya[]). */
static int server_flow(unsigned long long *edge, unsigned long long *node,
		       struct server_net *sn, const struct ibtopo__attach *xa,
		       size_t nx, const struct ibtopo__attach *ya, size_t ny,
		       struct ibtopo_error *err)
{
	double ve = 0, vn = 0;
	int ret;

	for (size_t i = 0; i < nx; i++) {
		ibtopo__flownet_set_cap(sn->edge, sn->edge_s + 2 * xa[i].sw,
					xa[i].mult);
		ibtopo__flownet_set_cap(sn->node, sn->node_s + 2 * xa[i].sw,
					xa[i].mult);
	}
	for (size_t i = 0; i < ny; i++) {
		ibtopo__flownet_set_cap(sn->edge, sn->edge_s + 2 * ya[i].sw + 1,
					ya[i].mult);
		ibtopo__flownet_set_cap(sn->node, sn->node_s + 2 * ya[i].sw + 1,
					ya[i].mult);
	}
	ret = ibtopo__flownet_maxflow(&ve, sn->edge, sn->n, sn->n + 1, err);
	if (!ret)
		ret = ibtopo__flownet_maxflow(&vn, sn->node, 2 * sn->n,
					      2 * sn->n + 1, err);
	for (size_t i = 0; i < nx; i++) {
		ibtopo__flownet_set_cap(sn->edge, sn->edge_s + 2 * xa[i].sw, 0);
		ibtopo__flownet_set_cap(sn->node, sn->node_s + 2 * xa[i].sw, 0);
	}
	for (size_t i = 0; i < ny; i++) {
		ibtopo__flownet_set_cap(sn->edge, sn->edge_s + 2 * ya[i].sw + 1, 0);
		ibtopo__flownet_set_cap(sn->node, sn->node_s + 2 * ya[i].sw + 1, 0);
	}
	*edge = (unsigned long long)(ve + 0.5);
	*node = (unsigned long long)(vn + 0.5);
	return ret;
}

/* Servers cabled alike (same switches, same cables): one cabling. */
struct cabling {
	const struct ibtopo__server *s;
	size_t count;
};

static int cabling_cmp(const void *x, const void *y)
{
	const struct ibtopo__server *a = *(const struct ibtopo__server *const *)x;
	const struct ibtopo__server *b = *(const struct ibtopo__server *const *)y;

	if (a->natt != b->natt)
		return a->natt < b->natt ? -1 : 1;
	for (size_t i = 0; i < a->natt; i++) {
		if (a->att[i].sw != b->att[i].sw)
			return a->att[i].sw < b->att[i].sw ? -1 : 1;
		if (a->att[i].mult != b->att[i].mult)
			return a->att[i].mult < b->att[i].mult ? -1 : 1;
	}
	return 0;
}

/*
 * The key of a pair of cablings up to swapping twins: each switch becomes
 * (twin class, rank among the pair's switches of that class); the pair
 * with the same key has the same counts. Written as numbers into k[].
 */
#define KEY_MAX 64

struct pair_key {
	size_t len;
	size_t k[KEY_MAX];
	size_t x, y;		/* cabling indexes */
	unsigned long long pairs;
	unsigned long long edge, node;
};

static bool make_key(struct pair_key *pk, const struct ctx *c,
		     const struct ibtopo__server *x, const struct ibtopo__server *y)
{
	size_t used[KEY_MAX], nused = 0, len = 0;
	const struct ibtopo__server *s[2] = { x, y };

	if (2 + 3 * (x->natt + y->natt) > KEY_MAX)
		return false;
	pk->k[len++] = x->natt;
	pk->k[len++] = y->natt;
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < s[side]->natt; i++) {
			size_t sw = s[side]->att[i].sw, rank = 0, u;

			for (u = 0; u < nused && used[u] != sw; u++)
				if (c->twin[used[u]] == c->twin[sw])
					rank++;
			if (u == nused)
				used[nused++] = sw;
			pk->k[len++] = c->twin[sw];
			pk->k[len++] = rank;
			pk->k[len++] = s[side]->att[i].mult;
		}
	}
	pk->len = len;
	return true;
}

static int key_cmp(const void *x, const void *y)
{
	const struct pair_key *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->k, b->k, a->len * sizeof(a->k[0]));
}

static bool share_component(const struct ibtopo_topology *t,
			    const struct ibtopo__server *x,
			    const struct ibtopo__server *y)
{
	for (size_t i = 0; i < x->natt; i++)
		for (size_t j = 0; j < y->natt; j++)
			if (t->sw[x->att[i].sw].comp == t->sw[y->att[j].sw].comp)
				return true;
	return false;
}

static unsigned long long min3(unsigned long long a, unsigned long long b,
			       unsigned long long c)
{
	unsigned long long m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Counts a pair of servers needs no flow for: a server with one cable
 * has one path to anyone it reaches; a server on one switch has one
 * node-disjoint path (its switch is on all of them), and if the other is
 * on one switch too, its edge count is the narrowest of the two bundles
 * and the cut between the two switches. Returns false for the others.
 */
static bool server_pair_easy(const struct ibtopo_topology *t,
			     const struct ibtopo__server *x,
			     const struct ibtopo__server *y,
			     unsigned long long *edge, unsigned long long *node)
{
	bool conn = share_component(t, x, y);
	size_t a, b;

	if (x->links < 2 || y->links < 2) {
		*edge = *node = conn;
		return true;
	}
	if (x->natt > 1 || y->natt > 1)
		return false;
	a = x->att[0].sw;
	b = y->att[0].sw;
	if (a != b && !t->leaf_dist[M_EDGE].computed)
		return false;	/* no leaf-pair counts to read: a flow */
	*node = conn;
	if (a == b) {
		*edge = x->att[0].mult < y->att[0].mult ? x->att[0].mult :
			y->att[0].mult;
		return true;
	}
	*edge = min3(x->att[0].mult, y->att[0].mult,
		     t->cc[M_EDGE][t->leaf_class[t->sw[a].leaf] * t->nclass +
				   t->leaf_class[t->sw[b].leaf]]);
	return true;
}

static int server_pairs(struct ctx *c, struct ibtopo_error *err)
{
	struct ibtopo_topology *t = c->t;
	const struct ibtopo__server **order = NULL;
	struct cabling *cab = NULL;
	struct pair_key *keys = NULL;
	struct ibtopo__bin *bins[2] = { NULL, NULL };
	struct server_net sn;
	size_t ncab = 0, nkeys = 0, nflows = 0, nbins = 0;
	bool have_net = false;
	int ret = 0;

	if (t->nservers < 2)
		return 0;
	order = calloc(t->nservers, sizeof(*order));
	cab = calloc(t->nservers, sizeof(*cab));
	if (!order || !cab) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < t->nservers; i++)
		order[i] = &t->servers[i];
	qsort(order, t->nservers, sizeof(*order), cabling_cmp);
	for (size_t i = 0; i < t->nservers; i++) {
		if (ncab && cabling_cmp(&order[i], &cab[ncab - 1].s) == 0) {
			cab[ncab - 1].count++;
			continue;
		}
		cab[ncab].s = order[i];
		cab[ncab++].count = 1;
	}
	if (ncab * (ncab + 1) / 2 > SERVER_PAIR_BUDGET) {
		t->server_note = "too many distinct server cablings";
		goto out_free;
	}
	keys = calloc(ncab * (ncab + 1) / 2 + 1, sizeof(*keys));
	bins[0] = calloc(ncab * (ncab + 1) / 2 + 1, sizeof(*bins[0]));
	bins[1] = calloc(ncab * (ncab + 1) / 2 + 1, sizeof(*bins[1]));
	if (!keys || !bins[0] || !bins[1]) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < ncab; i++) {
		for (size_t j = i; j < ncab; j++) {
			struct pair_key *pk = &keys[nkeys];
			unsigned long long w = i == j ?
				(unsigned long long)cab[i].count * (cab[i].count - 1) / 2 :
				(unsigned long long)cab[i].count * cab[j].count;
			unsigned long long e, n;

			if (!w)
				continue;
			if (server_pair_easy(t, cab[i].s, cab[j].s, &e, &n)) {
				bins[0][nbins].value = e;
				bins[1][nbins].value = n;
				bins[0][nbins].pairs = bins[1][nbins].pairs = w;
				nbins++;
				continue;
			}
			if (!make_key(pk, c, cab[i].s, cab[j].s)) {
				t->server_note = "servers with too many links";
				goto out_free;
			}
			pk->x = i;
			pk->y = j;
			pk->pairs = w;
			nkeys++;
		}
	}
	qsort(keys, nkeys, sizeof(*keys), key_cmp);
	for (size_t i = 0; i < nkeys && !ret; i++) {
		const struct ibtopo__server *x = cab[keys[i].x].s;
		const struct ibtopo__server *y = cab[keys[i].y].s;

		if (i && key_cmp(&keys[i - 1], &keys[i]) == 0) {
			keys[i].edge = keys[i - 1].edge;
			keys[i].node = keys[i - 1].node;
			continue;
		}
		if (++nflows > SERVER_FLOW_BUDGET) {
			t->server_note = "too many distinct server cablings";
			goto out_free;
		}
		if (!have_net) {
			ret = server_net_new(&sn, t, err);
			if (ret)
				goto out_free;
			have_net = true;
		}
		ret = server_flow(&keys[i].edge, &keys[i].node, &sn, x->att,
				  x->natt, y->att, y->natt, err);
		t->server_flows++;
	}
	if (ret)
		goto out_free;
	for (size_t i = 0; i < nkeys; i++) {
		bins[0][nbins].value = keys[i].edge;
		bins[1][nbins].value = keys[i].node;
		bins[0][nbins].pairs = bins[1][nbins].pairs = keys[i].pairs;
		nbins++;
	}
	dist_set(&t->server_dist[0], bins[0], nbins);
	dist_set(&t->server_dist[1], bins[1], nbins);
	bins[0] = bins[1] = NULL;
out_free:
	if (have_net)
		server_net_free(&sn);
	free(bins[1]);
	free(bins[0]);
	free(keys);
	free(cab);
	free(order);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */
/* ------------------------------------------------------------------ */

static void ctx_release(struct ctx *c)
{
	free(c->qe);
	free(c->q_w);
	free(c->q_of);
	free(c->cls_second);
	free(c->cls_rep);
	free(c->cls_size);
	free(c->cls_twin);
	free(c->tw_mem);
	free(c->tw_off);
	free(c->twin);
}

int ibtopo__paths_analyze(struct ibtopo_topology *t,
			  struct ibtopo_findings *findings, unsigned flags,
			  struct ibtopo_error *err)
{
	struct ctx c;
	bool node_ok = false;
	int ret;

	memset(&c, 0, sizeof(c));
	c.t = t;
	ret = twins(&c, err);
	if (!ret)
		ret = leaf_classes(&c, err);
	if (!ret)
		ret = contract(&c, err);
	if (ret)
		goto out;
	if (t->nclass > LEAF_CLASS_BUDGET) {
		/* class x class tables would not fit: say so, do the rest */
		t->leaf_note = "too many leaf switches without twins";
	} else if (t->nleaves >= 2) {
		for (int m = 0; m < 3; m++) {
			t->cc[m] = calloc(t->nclass * t->nclass + 1,
					  sizeof(*t->cc[m]));
			if (!t->cc[m]) {
				ret = ibtopo__error_set(err, IBTOPO_ENOMEM,
							"out of memory");
				goto out;
			}
		}
		ret = edge_counts(&c, err);
		if (!ret)
			ret = node_counts(&c, &node_ok, err);
		if (!ret)
			ret = ecmp_counts(&c, err);
		if (!ret)
			ret = leaf_dist(t, M_EDGE, err);
		if (!ret && node_ok)
			ret = leaf_dist(t, M_NODE, err);
		if (!ret)
			ret = leaf_dist(t, M_ECMP, err);
		if (ret)
			goto out;
		ret = ibtopo__paths_worst(t, err);
		if (!ret)
			ret = ibtopo__paths_leaf_findings(t, findings, err);
		if (ret)
			goto out;
	}
	if (!(flags & IBTOPO_TOPOLOGY_NO_SERVER_PAIRS))
		ret = server_pairs(&c, err);
	else
		t->server_note = "not computed";
	if (!ret)
		t->paths_done = true;
out:
	ctx_release(&c);
	return ret;
}

void ibtopo__paths_release(struct ibtopo_topology *t)
{
	for (int m = 0; m < 3; m++) {
		free(t->cc[m]);
		t->cc[m] = NULL;
		free(t->leaf_dist[m].bins);
	}
	for (int m = 0; m < 2; m++)
		free(t->server_dist[m].bins);
	free(t->leaf_class);
	t->leaf_class = NULL;
}

/* ------------------------------------------------------------------ */
/* Public accessors                                                    */
/* ------------------------------------------------------------------ */

int ibtopo_topology_path_stats(struct ibtopo_path_stats *out,
			       const struct ibtopo_topology *topo, bool servers,
			       enum ibtopo_path_measure measure)
{
	const struct ibtopo__dist *d;

	if (!out || !topo || (unsigned)measure > IBTOPO_PATHS_ECMP)
		return IBTOPO_EINVAL;
	memset(out, 0, sizeof(*out));
	if (servers && measure == IBTOPO_PATHS_ECMP)
		return 0;
	d = servers ? &topo->server_dist[measure] : &topo->leaf_dist[measure];
	if (!d->computed || !d->nbins)
		return 0;
	out->pairs = (size_t)d->pairs;
	out->min = d->bins[0].value > UINT_MAX ? UINT_MAX :
		   (unsigned)d->bins[0].value;
	out->max = d->bins[d->nbins - 1].value > UINT_MAX ? UINT_MAX :
		   (unsigned)d->bins[d->nbins - 1].value;
	out->median = ibtopo__dist_median(d);
	return 0;
}

long long ibtopo_topology_leaf_paths(const struct ibtopo_topology *topo,
				     const struct ibtopo_node *a,
				     const struct ibtopo_node *b,
				     enum ibtopo_path_measure measure)
{
	size_t sa, sb, la, lb;
	unsigned long long v;

	if (!topo || !a || !b || a == b || (unsigned)measure > IBTOPO_PATHS_ECMP ||
	    !topo->paths_done || !topo->leaf_dist[measure].computed ||
	    !topo->cc[measure])
		return -1;
	if (a->index >= ibtopo_fabric_node_count(topo->fabric) ||
	    b->index >= ibtopo_fabric_node_count(topo->fabric))
		return -1;
	sa = topo->node2sw[a->index];
	sb = topo->node2sw[b->index];
	if (sa == IBTOPO__NONE || sb == IBTOPO__NONE)
		return -1;
	la = topo->sw[sa].leaf;
	lb = topo->sw[sb].leaf;
	if (la == IBTOPO__NONE || lb == IBTOPO__NONE)
		return -1;
	v = topo->cc[measure][topo->leaf_class[la] * topo->nclass +
			      topo->leaf_class[lb]];
	return v > LLONG_MAX ? LLONG_MAX : (long long)v;
}
