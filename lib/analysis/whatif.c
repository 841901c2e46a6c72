/*
 * whatif.c - what a fabric loses when switches, CAs or cables fail: the
 * servers cut off or left on one switch (from the fabric, with the
 * failed elements masked), and the topology analysis of a copy of the
 * fabric without them (levels, bisection, leaf pairs' node-disjoint
 * paths), against the analysis of the fabric as it is. With forwarding
 * tables, the CA routes that cross the failure (whatif_routes.c).
 * ibtopo_whatif_each() ranks single failures (whatif_each.c).
 */
#include "analysis/whatif-int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

/* ---- servers: isolated and single-homed, on the fabric with masks ---- */

static size_t uf_find(size_t *up, size_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

/*
 * What the servers' state reads, gathered once so that each failure
 * costs a pass over arrays: the cables between switches, and each
 * server's cables to switches (its CA, the cable, the switch).
 */
static int gather(struct ibtopo__whatif_ctx *c, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = c->fabric;
	size_t nl = ibtopo_fabric_link_count(f), ns = c->topo->nservers;

	c->swl = calloc(nl + 1, sizeof(*c->swl));
	c->att = calloc(nl + 1, sizeof(*c->att));
	c->att_off = calloc(ns + 2, sizeof(*c->att_off));
	c->switches = calloc(c->topo->nsw + 1, sizeof(*c->switches));
	if (!c->swl || !c->att || !c->att_off || !c->switches)
		return nomem(err);
	for (size_t i = 0; i < c->topo->nsw; i++)
		c->switches[i] = c->topo->sw[i].node->index;
	/* count each server's cables, then place them */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nl; i++) {
			const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
			const struct ibtopo_node *a = l->a->node,
						 *b = l->b->node;
			size_t s;

			if (a->type == IBTOPO_NODE_SWITCH &&
			    b->type == IBTOPO_NODE_SWITCH) {
				if (pass)
					c->swl[c->nswl++] =
						(struct ibtopo__wcable){
							a->index, b->index, i
						};
				continue;
			}
			if (b->type == IBTOPO_NODE_CA)
				a = b, b = l->a->node;
			s = a->type == IBTOPO_NODE_CA ?
				    c->topo->ca_server[a->index] :
				    IBTOPO__NONE;
			if (s == IBTOPO__NONE || b->type != IBTOPO_NODE_SWITCH)
				continue;
			if (!pass)
				c->att_off[s + 1]++;
			else
				c->att[c->att_off[s] + c->fill[s]++] =
					(struct ibtopo__wcable){ a->index,
								 b->index, i };
		}
		for (size_t s = 0; !pass && s < ns; s++)
			c->att_off[s + 1] += c->att_off[s];
	}
	return 0;
}

static bool cable_live(const struct ibtopo__wcable *w, const bool *dnode,
		       const bool *dlink)
{
	return !(dlink && dlink[w->link]) &&
	       !(dnode && (dnode[w->a] || dnode[w->b]));
}

/* Components of the live switch graph (up[] over fabric node indexes)
 * and the one most live server cables reach. */
static size_t main_component(struct ibtopo__whatif_ctx *c, const bool *dnode,
			     const bool *dlink)
{
	size_t best = IBTOPO__NONE, ns = c->topo->nservers;

	for (size_t i = 0; i < c->topo->nsw; i++) {
		c->up[c->switches[i]] = c->switches[i];
		c->weight[c->switches[i]] = 0;
	}
	for (size_t i = 0; i < c->nswl; i++) {
		size_t a, b;

		if (!cable_live(&c->swl[i], dnode, dlink))
			continue;
		a = uf_find(c->up, c->swl[i].a);
		b = uf_find(c->up, c->swl[i].b);
		if (a != b)
			c->up[a] = b;
	}
	for (size_t i = 0; i < c->att_off[ns]; i++)
		if (cable_live(&c->att[i], dnode, dlink))
			c->weight[uf_find(c->up, c->att[i].b)]++;
	for (size_t i = 0; i < c->topo->nsw; i++) {
		size_t n = c->switches[i];

		if (c->weight[n] &&
		    (best == IBTOPO__NONE || c->weight[n] > c->weight[best]))
			best = n;
	}
	return best;
}

void ibtopo__whatif_servers(struct ibtopo__whatif_ctx *c, const bool *dnode,
			    const bool *dlink, struct ibtopo__whatif_count *out)
{
	size_t main = main_component(c, dnode, dlink);

	memset(out, 0, sizeof(*out));
	for (size_t s = 0; s < c->topo->nservers; s++) {
		size_t first = IBTOPO__NONE;
		unsigned char st = 0;

		for (size_t i = c->att_off[s]; i < c->att_off[s + 1]; i++) {
			const struct ibtopo__wcable *w = &c->att[i];

			if (!cable_live(w, dnode, dlink) ||
			    uf_find(c->up, w->b) != main)
				continue;
			if (first == IBTOPO__NONE)
				first = w->b, st = 1;
			else if (first != w->b)
				st = 2;
		}
		if (st == 0)
			out->isolated++;
		else if (st == 1)
			out->single++;
		if (c->base && st == 1 && c->base[s] == 2)
			out->became_single++;
		if (c->base && st == 0 && c->base[s] != 0)
			out->new_isolated++;
		c->state[s] = st;
	}
}

/* ---- the fabric without the failed elements ---- */

static int side_of(struct ibtopo_whatif_side *out,
		   const struct ibtopo_topology *t, struct ibtopo_error *err)
{
	struct ibtopo_path_stats ps;

	out->cls = t->cls;
	out->nlevels = t->nlevels;
	free(out->levels);
	out->levels = NULL;
	if (t->nlevels) {
		out->levels = calloc(t->nlevels, sizeof(*out->levels));
		if (!out->levels)
			return nomem(err);
		memcpy(out->levels, t->levels,
		       t->nlevels * sizeof(*out->levels));
	}
	out->bisection_gbps = t->bisection;
	out->blocking = t->blocking;
	ibtopo_topology_path_stats(&ps, t, false, IBTOPO_PATHS_NODE_DISJOINT);
	out->leaf_pairs = ps.pairs;
	out->node_min = ps.min;
	out->node_median = ps.median;
	return 0;
}

/* Node-disjoint paths between leaves i and j of t (leaf indexes). */
static unsigned long long leaf_nodes(const struct ibtopo_topology *t, size_t i,
				     size_t j)
{
	return t->cc[IBTOPO_PATHS_NODE_DISJOINT]
		    [t->leaf_class[i] * t->nclass + t->leaf_class[j]];
}

static bool has_pairs(const struct ibtopo_topology *t)
{
	return t->paths_done && t->cc[IBTOPO_PATHS_NODE_DISJOINT] &&
	       t->leaf_dist[IBTOPO_PATHS_NODE_DISJOINT].computed;
}

/* Leaf pairs (leaves in both) whose node-disjoint paths fell. */
static int pairs_dropped(const struct ibtopo_topology *b,
			 const struct ibtopo_topology *a, size_t *dropped,
			 size_t *cut, struct ibtopo_error *err)
{
	size_t *map;

	*dropped = *cut = 0;
	if (!has_pairs(b) || !b->nleaves)
		return 0;
	map = calloc(b->nleaves, sizeof(*map));
	if (!map)
		return nomem(err);
	for (size_t i = 0; i < b->nleaves; i++) {
		const struct ibtopo_node *n = b->sw[b->leaves[i]].node;
		const struct ibtopo_node *m =
			ibtopo_fabric_find_node(a->fabric, n->guid);
		size_t s = m ? a->node2sw[m->index] : IBTOPO__NONE;

		map[i] = s == IBTOPO__NONE ? IBTOPO__NONE : a->sw[s].leaf;
	}
	for (size_t i = 0; i < b->nleaves; i++) {
		if (map[i] == IBTOPO__NONE)
			continue;
		for (size_t j = i + 1; j < b->nleaves; j++) {
			unsigned long long after = 0;

			if (map[j] == IBTOPO__NONE)
				continue;
			if (has_pairs(a))
				after = leaf_nodes(a, map[i], map[j]);
			if (after < leaf_nodes(b, i, j))
				(*dropped)++;
			if (!after)
				(*cut)++;
		}
	}
	free(map);
	return 0;
}

int ibtopo__whatif_after(struct ibtopo__whatif_ctx *c, const bool *dnode,
			 const bool *dlink, struct ibtopo__whatif_after *out,
			 struct ibtopo_error *err)
{
	struct ibtopo_topology_opts to = c->an->opts.topology;
	struct ibtopo_fabric *copy = NULL;
	struct ibtopo_topology *t = NULL;
	int rc;

	to.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = ibtopo__fabric_copy(&copy, c->fabric, dnode, dlink, err);
	if (!rc)
		rc = ibtopo__topology_run(&t, copy, &to, c->an->inputs.roots,
					  NULL, err);
	if (!rc)
		rc = side_of(&out->side, t, err);
	if (!rc)
		rc = pairs_dropped(c->topo, t, &out->dropped, &out->cut, err);
	c->analyses++;
	ibtopo_topology_free(t);
	ibtopo_fabric_free(copy);
	return rc;
}

/* ---- the context every evaluation shares ---- */

int ibtopo__whatif_ctx_init(struct ibtopo__whatif_ctx *c,
			    struct ibtopo_analysis *an,
			    struct ibtopo_error *err)
{
	const struct ibtopo_topology *t;
	struct ibtopo__whatif_count n;
	size_t nn;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = ibtopo_analysis_topology(an, &t, err);
	if (rc)
		return rc;
	if (!t)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "whatif needs the topology analysis");
	c->an = an;
	c->fabric = an->fabric;
	c->topo = t;
	nn = ibtopo_fabric_node_count(c->fabric);
	c->up = calloc(nn + 1, sizeof(*c->up));
	c->weight = calloc(nn + 1, sizeof(*c->weight));
	c->fill = calloc(t->nservers + 1, sizeof(*c->fill));
	c->state = calloc(t->nservers + 1, 1);
	c->base = calloc(t->nservers + 1, 1);
	c->dnode = calloc(nn + 1, sizeof(*c->dnode));
	c->dlink = calloc(ibtopo_fabric_link_count(c->fabric) + 1,
			  sizeof(*c->dlink));
	if (!c->up || !c->weight || !c->fill || !c->state || !c->base ||
	    !c->dnode || !c->dlink)
		return nomem(err);
	rc = gather(c, err);
	if (rc)
		return rc;
	{
		unsigned char *base = c->base;

		c->base = NULL;
		ibtopo__whatif_servers(c, NULL, NULL, &n);
		memcpy(base, c->state, t->nservers);
		c->base = base;
	}
	c->before = n;
	return 0;
}

void ibtopo__whatif_ctx_release(struct ibtopo__whatif_ctx *c)
{
	free(c->up);
	free(c->weight);
	free(c->fill);
	free(c->swl);
	free(c->att);
	free(c->att_off);
	free(c->switches);
	free(c->state);
	free(c->base);
	free(c->dnode);
	free(c->dlink);
}

/* ---- ibtopo_whatif_run() ---- */

static int take_failed(struct ibtopo_whatif *w, struct ibtopo__whatif_ctx *c,
		       const struct ibtopo_node *const *nodes, size_t nnodes,
		       const struct ibtopo_link *const *links, size_t nlinks,
		       struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = c->fabric;

	w->nodes = calloc(nnodes + 1, sizeof(*w->nodes));
	w->links = calloc(nlinks + 1, sizeof(*w->links));
	if (!w->nodes || !w->links)
		return nomem(err);
	for (size_t i = 0; i < nnodes; i++) {
		const struct ibtopo_node *n = nodes[i];

		if (!n || n->index >= ibtopo_fabric_node_count(f) ||
		    ibtopo_fabric_node(f, n->index) != n)
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"a failed node is not of the fabric");
		if (!c->dnode[n->index])
			w->nodes[w->nnodes++] = n;
		c->dnode[n->index] = true;
	}
	for (size_t i = 0; i < nlinks; i++) {
		const struct ibtopo_link *l = links[i];

		if (!l || l->index >= ibtopo_fabric_link_count(f) ||
		    ibtopo_fabric_link(f, l->index) != l)
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"a failed link is not of the fabric");
		if (!c->dlink[l->index])
			w->links[w->nlinks++] = l;
		c->dlink[l->index] = true;
	}
	return 0;
}

int ibtopo_whatif_run(struct ibtopo_whatif **out,
		      struct ibtopo_analysis *analysis,
		      const struct ibtopo_node *const *nodes, size_t nnodes,
		      const struct ibtopo_link *const *links, size_t nlinks,
		      struct ibtopo_error *err)
{
	struct ibtopo__whatif_ctx c;
	struct ibtopo__whatif_after after = { 0 };
	struct ibtopo__whatif_count n;
	struct ibtopo_whatif *w;
	int rc;

	if (!out || !analysis || (!nnodes && !nlinks) || (nnodes && !nodes) ||
	    (nlinks && !links))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "nothing to fail");
	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return nomem(err);
	rc = ibtopo__whatif_ctx_init(&c, analysis, err);
	if (!rc)
		rc = take_failed(w, &c, nodes, nnodes, links, nlinks, err);
	if (!rc) {
		w->fabric = c.fabric;
		rc = side_of(&w->before, c.topo, err);
	}
	if (!rc)
		rc = ibtopo__whatif_after(&c, c.dnode, c.dlink, &after, err);
	if (!rc) {
		ibtopo__whatif_servers(&c, c.dnode, c.dlink, &n);
		w->after = after.side;
		after.side.levels = NULL;
		w->pairs_dropped = after.dropped;
		w->pairs_cut = after.cut;
		w->became_single_homed = n.became_single;
		w->before.servers = w->after.servers = c.topo->nservers;
		w->before.isolated = c.before.isolated;
		w->before.single_homed = c.before.single;
		w->after.isolated = n.isolated;
		w->after.single_homed = n.single;
		rc = ibtopo__whatif_routes(w, &c, err);
	}
	free(after.side.levels);
	ibtopo__whatif_ctx_release(&c);
	if (rc) {
		ibtopo_whatif_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void ibtopo_whatif_free(struct ibtopo_whatif *whatif)
{
	if (!whatif)
		return;
	free(whatif->nodes);
	free(whatif->links);
	free(whatif->before.levels);
	free(whatif->after.levels);
	free(whatif->dests);
	free(whatif->carried);
	free(whatif);
}

int ibtopo_whatif_fabric(struct ibtopo_fabric **out,
			 const struct ibtopo_whatif *whatif,
			 struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f;
	bool *dnode, *dlink;
	int rc;

	if (!out || !whatif || !whatif->fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no whatif result");
	f = whatif->fabric;
	dnode = calloc(ibtopo_fabric_node_count(f) + 1, sizeof(*dnode));
	dlink = calloc(ibtopo_fabric_link_count(f) + 1, sizeof(*dlink));
	if (!dnode || !dlink) {
		rc = nomem(err);
		goto out_free;
	}
	for (size_t i = 0; i < whatif->nnodes; i++)
		dnode[whatif->nodes[i]->index] = true;
	for (size_t i = 0; i < whatif->nlinks; i++)
		dlink[whatif->links[i]->index] = true;
	rc = ibtopo__fabric_copy(out, f, dnode, dlink, err);
out_free:
	free(dnode);
	free(dlink);
	return rc;
}
