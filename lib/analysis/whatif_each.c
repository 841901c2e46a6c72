/*
 * whatif_each.c - N-1: fail each switch (or cable) alone and rank them.
 *
 * Incremental where it can be: the servers an element cuts off are
 * counted on the fabric with the element masked (one pass over the
 * links, no copy), and the topology after the failure (levels,
 * bisection, leaf pairs) is computed once per class of elements with
 * the same place in the graph (<ibtopo/whatif.h> says which classes).
 */
#include "analysis/whatif-int.h"

#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

const char *ibtopo_whatif_each_name(enum ibtopo_whatif_each what)
{
	switch (what) {
	case IBTOPO_WHATIF_EACH_SWITCH:
		return "switch";
	case IBTOPO_WHATIF_EACH_SPINE:
		return "spine";
	case IBTOPO_WHATIF_EACH_LEAF:
		return "leaf";
	case IBTOPO_WHATIF_EACH_CABLE:
		return "cable";
	}
	return NULL;
}

/* A signature: words compared in order; sig[0] is the count after it. */
struct sig {
	size_t item; /* switch index, or link index */
	uint64_t *w;
	size_t n;
};

static int sig_cmp(const void *x, const void *y)
{
	const struct sig *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (size_t i = 0; i < a->n; i++)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return (a->item > b->item) - (a->item < b->item);
}

static int sig_same(const struct sig *a, const struct sig *b)
{
	return a->n == b->n && !memcmp(a->w, b->w, a->n * sizeof(*a->w));
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static uint64_t rate(const struct ibtopo_link *l)
{
	return (uint64_t)l->speed << 8 | l->width;
}

/*
 * A switch: its level, then one word per cable, sorted: the far end (a
 * switch by `nbr`, its index or its colour; a server by one mark) with
 * the cable's rate.
 */
static int switch_sig(struct sig *s, const struct ibtopo_topology *t, size_t sw,
		      const size_t *nbr, size_t self)
{
	const struct ibtopo_node *n = t->sw[sw].node;

	s->item = sw;
	s->n = 0;
	if (!s->w)
		s->w = calloc(n->nports + 3, sizeof(*s->w));
	if (!s->w)
		return IBTOPO_ENOMEM;
	s->w[s->n++] = (uint64_t)t->sw[sw].level;
	s->w[s->n++] = self;
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct ibtopo_port *port = n->ports[p];
		const struct ibtopo_node *far;
		uint64_t w = 0xffffffffu;

		if (!port || !port->link || !port->remote)
			continue;
		far = port->remote->node;
		if (far->type == IBTOPO_NODE_SWITCH)
			w = nbr ? nbr[t->node2sw[far->index]] : far->index;
		s->w[s->n++] = w << 24 | rate(port->link);
	}
	qsort(s->w + 2, s->n - 2, sizeof(*s->w), u64_cmp);
	return 0;
}

/* Number the signatures' classes into cls (per switch); their count. */
static size_t number(struct sig *s, size_t n, size_t *cls)
{
	size_t k = 0;

	if (n > 1)
		qsort(s, n, sizeof(*s), sig_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !sig_same(&s[i], &s[i - 1]))
			k++;
		cls[s[i].item] = k;
	}
	return n ? k + 1 : 0;
}

/*
 * Class of each switch (per switch index). Twins (exact): the same
 * neighbours by the same cables. With `refine`, colour refinement
 * instead: start from the level and the server cables, then split by
 * the colours of the neighbours until nothing splits; on fat trees,
 * rails and Dragonfly+ its classes are the switches the fabric's
 * symmetries exchange.
 */
static int switch_classes(size_t **out, const struct ibtopo_topology *t,
			  bool refine, struct ibtopo_error *err)
{
	struct sig *s = calloc(t->nsw + 1, sizeof(*s));
	size_t *cls = calloc(t->nsw + 1, sizeof(*cls));
	size_t *prev = calloc(t->nsw + 1, sizeof(*prev)), k = 0, was;
	int rc = 0;

	if (!s || !cls || !prev)
		rc = nomem(err);
	do {
		was = k;
		for (size_t i = 0; !rc && i < t->nsw; i++)
			if (switch_sig(&s[i], t, i, refine ? prev : NULL,
				       refine ? prev[i] : 0))
				rc = nomem(err);
		if (!rc)
			k = number(s, t->nsw, cls);
		if (!rc)
			memcpy(prev, cls, t->nsw * sizeof(*cls));
	} while (!rc && refine && k != was);
	for (size_t i = 0; s && i < t->nsw; i++)
		free(s[i].w);
	free(s);
	free(prev);
	if (rc) {
		free(cls);
		return rc;
	}
	*out = cls;
	return 0;
}

/* The class word of a link's end: its switch's class, or for a CA the
 * state of its server and its cabled ports. */
static uint64_t end_word(const struct ibtopo__whatif_ctx *c, const size_t *cls,
			 const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;
	size_t sw = c->topo->node2sw[n->index], srv, cabled = 0;

	if (sw != IBTOPO__NONE)
		return cls[sw];
	for (unsigned i = 1; i <= n->nports; i++)
		cabled += n->ports[i] && n->ports[i]->link;
	srv = c->topo->ca_server[n->index];
	return 1ull << 63 | (uint64_t)cabled << 8 |
	       (srv == IBTOPO__NONE ? 3 : c->base[srv]);
}

/* The class of each candidate (switch or link index in items[]). */
static int classes(size_t *out, const struct ibtopo__whatif_ctx *c,
		   const size_t *swcls, const size_t *items, size_t n,
		   bool links, struct ibtopo_error *err)
{
	struct sig *s = calloc(n + 1, sizeof(*s));
	uint64_t *words = calloc(3 * n + 1, sizeof(*words));
	size_t k = 0;

	if (!s || !words) {
		free(s);
		free(words);
		return nomem(err);
	}
	for (size_t i = 0; i < n; i++) {
		s[i].item = i;
		s[i].w = &words[3 * i];
		if (links) {
			const struct ibtopo_link *l =
				ibtopo_fabric_link(c->fabric, items[i]);
			uint64_t a = end_word(c, swcls, l->a);
			uint64_t b = end_word(c, swcls, l->b);

			s[i].w[0] = a < b ? a : b;
			s[i].w[1] = a < b ? b : a;
			s[i].w[2] = rate(l);
			s[i].n = 3;
		} else {
			s[i].w[0] = swcls[items[i]];
			s[i].n = 1;
		}
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), sig_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !sig_same(&s[i], &s[i - 1]))
			k++;
		out[s[i].item] = k;
	}
	free(words);
	free(s);
	return 0;
}

static int rank_cmp(const void *x, const void *y)
{
	const struct ibtopo_whatif_rank *a = x, *b = y;
	size_t ia = a->node ? a->node->index : a->link->index;
	size_t ib = b->node ? b->node->index : b->link->index;

	if (a->isolated != b->isolated)
		return a->isolated < b->isolated ? 1 : -1;
	if (a->pairs_dropped != b->pairs_dropped)
		return a->pairs_dropped < b->pairs_dropped ? 1 : -1;
	if (a->bisection_lost != b->bisection_lost)
		return a->bisection_lost < b->bisection_lost ? 1 : -1;
	if (a->became_single_homed != b->became_single_homed)
		return a->became_single_homed < b->became_single_homed ? 1 : -1;
	return (ia > ib) - (ia < ib);
}

/* The candidates: switch indexes of the topology, or link indexes. */
static int candidates(size_t **out, size_t *n,
		      const struct ibtopo__whatif_ctx *c,
		      enum ibtopo_whatif_each what, unsigned level,
		      struct ibtopo_error *err)
{
	const struct ibtopo_topology *t = c->topo;
	size_t nl = ibtopo_fabric_link_count(c->fabric);
	size_t *v = calloc((what == IBTOPO_WHATIF_EACH_CABLE ? nl : t->nsw) + 1,
			   sizeof(*v));

	if (!v)
		return nomem(err);
	*n = 0;
	if (what == IBTOPO_WHATIF_EACH_CABLE) {
		for (size_t i = 0; i < nl; i++)
			v[(*n)++] = i;
	}
	for (size_t i = 0; what != IBTOPO_WHATIF_EACH_CABLE && i < t->nsw;
	     i++) {
		int lv = t->sw[i].level;

		if ((what == IBTOPO_WHATIF_EACH_LEAF && lv != 1) ||
		    (what == IBTOPO_WHATIF_EACH_SPINE && lv < 2) ||
		    (level && lv != (int)level))
			continue;
		v[(*n)++] = i;
	}
	*out = v;
	return 0;
}

static void mask(struct ibtopo__whatif_ctx *c, size_t item, bool links, bool on)
{
	if (links)
		c->dlink[item] = on;
	else
		c->dnode[c->topo->sw[item].node->index] = on;
}

/* Fill r->ranks, one topology analysis per class. */
static int evaluate(struct ibtopo_whatif_ranking *r,
		    struct ibtopo__whatif_ctx *c, const size_t *items,
		    const size_t *cls, bool links, struct ibtopo_error *err)
{
	size_t nclass = 0;
	struct ibtopo__whatif_after *done;
	bool *have;
	int rc = 0;

	for (size_t i = 0; i < r->count; i++)
		if (cls[i] + 1 > nclass)
			nclass = cls[i] + 1;
	done = calloc(nclass + 1, sizeof(*done));
	have = calloc(nclass + 1, sizeof(*have));
	if (!done || !have)
		rc = nomem(err);
	for (size_t i = 0; !rc && i < r->count; i++) {
		struct ibtopo_whatif_rank *k = &r->ranks[i];
		struct ibtopo__whatif_count n;

		mask(c, items[i], links, true);
		if (!have[cls[i]]) {
			rc = ibtopo__whatif_after(c, c->dnode, c->dlink,
						  &done[cls[i]], err);
			have[cls[i]] = true;
		}
		ibtopo__whatif_servers(c, c->dnode, c->dlink, &n);
		mask(c, items[i], links, false);
		if (links)
			k->link = ibtopo_fabric_link(c->fabric, items[i]);
		else
			k->node = c->topo->sw[items[i]].node;
		k->isolated = n.new_isolated;
		k->became_single_homed = n.became_single;
		k->pairs_dropped = done[cls[i]].dropped;
		k->pairs_cut = done[cls[i]].cut;
		k->bisection_lost =
			c->topo->bisection - done[cls[i]].side.bisection_gbps;
		if (k->bisection_lost < 0)
			k->bisection_lost = 0;
	}
	for (size_t i = 0; done && i < nclass; i++)
		free(done[i].side.levels);
	free(done);
	free(have);
	return rc;
}

int ibtopo_whatif_each(struct ibtopo_whatif_ranking **out,
		       struct ibtopo_analysis *analysis,
		       enum ibtopo_whatif_each what, unsigned level,
		       unsigned flags, struct ibtopo_error *err)
{
	struct ibtopo__whatif_ctx c;
	struct ibtopo_whatif_ranking *r;
	struct ibtopo_path_stats ps;
	size_t *items = NULL, *swcls = NULL, *cls = NULL, n = 0;
	bool links = what == IBTOPO_WHATIF_EACH_CABLE;
	int rc;

	if (!out || !analysis || !ibtopo_whatif_each_name(what))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "whatif: nothing to fail");
	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return nomem(err);
	r->what = what;
	rc = ibtopo__whatif_ctx_init(&c, analysis, err);
	if (!rc)
		rc = candidates(&items, &n, &c, what, level, err);
	if (!rc)
		rc = switch_classes(&swcls, c.topo,
				    !(flags & IBTOPO_WHATIF_EXACT), err);
	if (!rc) {
		r->count = n;
		r->ranks = calloc(n + 1, sizeof(*r->ranks));
		cls = calloc(n + 1, sizeof(*cls));
		if (!r->ranks || !cls)
			rc = nomem(err);
	}
	if (!rc)
		rc = classes(cls, &c, swcls, items, n, links, err);
	if (!rc)
		rc = evaluate(r, &c, items, cls, links, err);
	if (!rc) {
		qsort(r->ranks, r->count, sizeof(*r->ranks), rank_cmp);
		r->analyses = c.analyses;
		r->fabric = c.fabric;
		r->bisection_gbps = c.topo->bisection;
		ibtopo_topology_path_stats(&ps, c.topo, false,
					   IBTOPO_PATHS_NODE_DISJOINT);
		r->leaf_pairs = ps.pairs;
	}
	free(cls);
	free(swcls);
	free(items);
	ibtopo__whatif_ctx_release(&c);
	if (rc) {
		ibtopo_whatif_ranking_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void ibtopo_whatif_ranking_free(struct ibtopo_whatif_ranking *ranking)
{
	if (!ranking)
		return;
	free(ranking->ranks);
	free(ranking);
}

bool ibtopo_whatif_ranking_survives(const struct ibtopo_whatif_ranking *r)
{
	for (size_t i = 0; r && i < r->count; i++)
		if (r->ranks[i].isolated || r->ranks[i].pairs_cut)
			return false;
	return r != NULL;
}
