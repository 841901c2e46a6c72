/*
 * routes_net.c - the switches and destinations the routing analysis works
 * on (struct ibtopo__rnet), and the step of one packet through one
 * forwarding table: the primitives the tracing, the credit loops and the
 * effective bisection bandwidth share.
 */
#include "analysis/routes-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

void ibtopo__route_port_name(char *buf, size_t len,
			     const struct ibtopo_port *port)
{
	snprintf(buf, len, "'%s' [%u]", port->node->desc, port->num);
}

/* A usable link: cabled, and active as far as the ports tell. */
bool ibtopo__route_link_up(const struct ibtopo_port *p)
{
	const struct ibtopo_port *q = p->remote;

	return q && (!p->state || p->state == IBTOPO_PORT_STATE_ACTIVE) &&
	       (!q->state || q->state == IBTOPO_PORT_STATE_ACTIVE);
}

unsigned ibtopo__route_entry(const struct ibtopo__rnet *net, size_t s,
			     unsigned lid)
{
	return net->lft[s] && lid <= net->lft_top[s] ? net->lft[s][lid] :
						       IBTOPO_LFT_NONE;
}

enum ibtopo__rstep ibtopo__route_step(const struct ibtopo__rnet *net, size_t s,
				      const struct ibtopo__rdest *d, unsigned e,
				      int *next, int *port,
				      enum ibtopo_route_hole *hole)
{
	size_t id = net->pbase[s] + e;
	int v;

	*port = -1;
	if (!net->has_table[s]) {
		*hole = IBTOPO_HOLE_NO_TABLE;
		return IBTOPO__STEP_HOLE;
	}
	*port = (int)e;
	if (e == IBTOPO_LFT_NONE) {
		*hole = IBTOPO_HOLE_NO_ENTRY;
		return IBTOPO__STEP_HOLE;
	}
	if (id >= net->pbase[s + 1]) {
		*hole = IBTOPO_HOLE_NO_PORT;
		return IBTOPO__STEP_HOLE;
	}
	v = net->nbr[id];
	if (v >= 0) {
		*next = v;
		return IBTOPO__STEP_NEXT;
	}
	switch (v) {
	case IBTOPO__NBR_SELF:
		if (d->port->node == net->sw[s])
			return IBTOPO__STEP_DELIVERED;
		*hole = IBTOPO_HOLE_WRONG_NODE;
		return IBTOPO__STEP_HOLE;
	case IBTOPO__NBR_PEER:
		if (d->ca && net->peer[id] == d->port)
			return IBTOPO__STEP_DELIVERED;
		*hole = IBTOPO_HOLE_WRONG_NODE;
		return IBTOPO__STEP_HOLE;
	case IBTOPO__NBR_UNCONNECTED:
		*hole = IBTOPO_HOLE_UNCONNECTED;
		return IBTOPO__STEP_HOLE;
	case IBTOPO__NBR_DOWN:
		*hole = IBTOPO_HOLE_PORT_DOWN;
		return IBTOPO__STEP_HOLE;
	default:
		*hole = IBTOPO_HOLE_NO_PORT;
		return IBTOPO__STEP_HOLE;
	}
}

/* What each switch port leads to (see struct ibtopo__rnet). */
static int build_nbr(struct ibtopo__rnet *net, struct ibtopo_error *err)
{
	net->nbr = malloc((net->nport_ids + 1) * sizeof(*net->nbr));
	net->peer = calloc(net->nport_ids + 1, sizeof(*net->peer));
	net->rnum = calloc(net->nport_ids + 1, 1);
	net->has_table = calloc(net->nsw + 1, 1);
	net->lft = calloc(net->nsw + 1, sizeof(*net->lft));
	net->lft_top = calloc(net->nsw + 1, sizeof(*net->lft_top));
	if (!net->nbr || !net->peer || !net->rnum || !net->has_table ||
	    !net->lft || !net->lft_top)
		return nomem(err);
	for (size_t s = 0; s < net->nsw; s++) {
		const struct ibtopo_node *n = net->sw[s];

		net->has_table[s] = n->lft != NULL;
		if (n->lft) {
			net->lft[s] = n->lft->port;
			net->lft_top[s] = n->lft->top;
		}
		for (unsigned p = 0; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];
			size_t id = net->pbase[s] + p;
			int v;

			if (p == 0)
				v = IBTOPO__NBR_SELF;
			else if (!pp)
				v = IBTOPO__NBR_NO_PORT;
			else if (!pp->remote)
				v = IBTOPO__NBR_UNCONNECTED;
			else if (!ibtopo__route_link_up(pp))
				v = IBTOPO__NBR_DOWN;
			else if (pp->remote->node->type == IBTOPO_NODE_SWITCH &&
				 net->swid[pp->remote->node->index] >= 0)
				v = net->swid[pp->remote->node->index];
			else
				v = IBTOPO__NBR_PEER;
			net->nbr[id] = v;
			if (pp && pp->remote)
				net->rnum[id] = (uint8_t)pp->remote->num;
			if (v == IBTOPO__NBR_PEER)
				net->peer[id] = pp->remote;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ the net */

/* A LID two ports claim is traced once, for the first. */
static int unique_dests(struct ibtopo__rnet *net, size_t maxlid,
			struct ibtopo_error *err)
{
	int *owner = malloc((maxlid + 1) * sizeof(*owner));
	size_t k = 0;

	if (!owner)
		return nomem(err);
	for (size_t l = 0; l <= maxlid; l++)
		owner[l] = -1;
	for (size_t i = 0; i < net->ndest; i++) {
		if (owner[net->dest[i].lid] >= 0)
			continue;
		owner[net->dest[i].lid] = (int)i;
		net->dest[k++] = net->dest[i];
	}
	net->ndest = k;
	free(owner);
	return 0;
}

int ibtopo__rnet_build(struct ibtopo__rnet *net, const struct ibtopo_fabric *f,
		       const struct ibtopo_topology *topo,
		       struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(f), maxlid = 0;
	int rc;

	net->fabric = f;
	net->topo = topo;
	net->swid = malloc((nn ? nn : 1) * sizeof(*net->swid));
	net->sw = calloc(nn ? nn : 1, sizeof(*net->sw));
	if (!net->swid || !net->sw)
		return nomem(err);
	for (size_t i = 0; i < nn; i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		net->swid[i] = -1;
		if (n->type == IBTOPO_NODE_SWITCH) {
			net->swid[i] = (int)net->nsw;
			net->sw[net->nsw++] = n;
		}
	}
	net->pbase = calloc(net->nsw + 2, sizeof(*net->pbase));
	net->level = calloc(net->nsw + 1, sizeof(*net->level));
	net->local = calloc(net->nsw + 1, sizeof(*net->local));
	if (!net->pbase || !net->level || !net->local)
		return nomem(err);
	for (size_t s = 0; s < net->nsw; s++) {
		net->pbase[s] = net->nport_ids;
		net->nport_ids += net->sw[s]->nports + 1;
		net->level[s] =
			topo ? ibtopo_topology_node_level(topo, net->sw[s]) : 0;
	}
	net->pbase[net->nsw] = net->nport_ids;
	rc = build_nbr(net, err);
	if (rc)
		return rc;
	/* sources and destinations: CA ports with a LID cabled to a switch,
	 * switches' port 0 LIDs */
	for (int pass = 0; pass < 2; pass++) {
		size_t nd = 0, ns = 0;

		for (size_t i = 0; i < nn; i++) {
			struct ibtopo_node *n = ibtopo_fabric_node(f, i);

			for (unsigned pn = 0; pn <= n->nports; pn++) {
				const struct ibtopo_port *p = n->ports[pn];
				unsigned span;
				int at;

				if (!p || !p->lid)
					continue;
				if (n->type == IBTOPO_NODE_SWITCH) {
					if (pn != 0)
						continue;
					at = net->swid[i];
				} else if (n->type == IBTOPO_NODE_CA &&
					   p->remote &&
					   p->remote->node->type ==
						   IBTOPO_NODE_SWITCH) {
					at = net->swid[p->remote->node->index];
				} else {
					continue;
				}
				span = 1u << (p->lmc > 7 ? 7 : p->lmc);
				if (n->type == IBTOPO_NODE_CA) {
					if (pass) {
						net->src[ns] = p;
						net->src_sw[ns] = at;
						net->local[at]++;
					}
					ns++;
				}
				for (unsigned l = 0; l < span; l++) {
					unsigned lid = p->lid + l;

					if (lid > IBTOPO_LFT_MAX_LID)
						break;
					if (pass) {
						struct ibtopo__rdest *d =
							&net->dest[nd];

						d->lid = (uint16_t)lid;
						d->ca = n->type ==
							IBTOPO_NODE_CA;
						d->base = l == 0;
						d->port = p;
						d->attach = at;
						if (lid > maxlid)
							maxlid = lid;
					}
					nd++;
				}
			}
		}
		if (!pass) {
			net->dest = calloc(nd ? nd : 1, sizeof(*net->dest));
			net->src = calloc(ns ? ns : 1, sizeof(*net->src));
			net->src_sw = calloc(ns ? ns : 1, sizeof(*net->src_sw));
			if (!net->dest || !net->src || !net->src_sw)
				return nomem(err);
		} else {
			net->ndest = nd;
			net->nsrc = ns;
		}
	}
	return unique_dests(net, maxlid, err);
}

/*
 * The tables by destination: each switch's table is a row of LIDs, a
 * trace wants the column of a LID. Turned a tile of 64 switches by 64
 * LIDs at a time, which reads and writes whole cache lines (the LIDs of
 * a leaf's hosts are far apart: gathered one by one, every entry is a
 * cache line of its own). The tiles of a band of switches are a task.
 */
#define TILE 64

struct turn {
	struct ibtopo__rnet *net;
	const int *dest_of; /* LID -> destination index, or -1 */
	size_t maxlid;
};

static int turn_band(void *arg, unsigned worker, size_t band,
		     struct ibtopo_error *err)
{
	const struct turn *x = arg;
	struct ibtopo__rnet *net = x->net;
	size_t s0 = band * TILE,
	       s1 = s0 + TILE < net->nsw ? s0 + TILE : net->nsw;

	(void)worker;
	(void)err;
	for (size_t l0 = 0; l0 <= x->maxlid; l0 += TILE)
		for (size_t lid = l0; lid < l0 + TILE && lid <= x->maxlid;
		     lid++) {
			uint8_t *row;

			if (x->dest_of[lid] < 0)
				continue;
			row = net->rows + (size_t)x->dest_of[lid] * net->nsw;
			for (size_t s = s0; s < s1; s++)
				row[s] = (uint8_t)ibtopo__route_entry(
					net, s, (unsigned)lid);
		}
	return 0;
}

int ibtopo__rnet_rows(struct ibtopo__rnet *net, struct ibtopo_error *err)
{
	struct turn x = { net, NULL, 0 };
	int *dest_of;
	int rc;

	for (size_t i = 0; i < net->ndest; i++)
		if (net->dest[i].lid > x.maxlid)
			x.maxlid = net->dest[i].lid;
	dest_of = malloc((x.maxlid + 1) * sizeof(*dest_of));
	net->rows = malloc(net->ndest && net->nsw ? net->ndest * net->nsw : 1);
	if (!dest_of || !net->rows) {
		free(dest_of);
		return nomem(err);
	}
	for (size_t l = 0; l <= x.maxlid; l++)
		dest_of[l] = -1;
	for (size_t i = 0; i < net->ndest; i++)
		dest_of[net->dest[i].lid] = (int)i;
	x.dest_of = dest_of;
	rc = ibtopo__parallel((net->nsw + TILE - 1) / TILE, ibtopo_threads(),
			      turn_band, &x, err);
	free(dest_of);
	return rc;
}

void ibtopo__rnet_release(struct ibtopo__rnet *net)
{
	free(net->rows);
	free(net->lft_top);
	free(net->lft);
	free(net->has_table);
	free(net->rnum);
	free(net->peer);
	free(net->nbr);
	free(net->src_sw);
	free(net->src);
	free(net->dest);
	free(net->local);
	free(net->level);
	free(net->pbase);
	free(net->sw);
	free(net->swid);
}
