/*
 * topology_ftree.c - what OpenSM's ftree routing engine would say of the
 * fabric: whether it routes it, or why it falls back to minhop.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* What OpenSM's ftree engine would say                                */
/* ------------------------------------------------------------------ */

/*
 * OpenSM 3.3's ftree routing (osm_ucast_ftree.c, no roots or CN file)
 * ranks switches from those cabled to any CA (aggregation nodes
 * included), takes the farthest as roots, ranks again down from them,
 * and refuses the fabric (falling back to minhop) when a CA is cabled to
 * a CA, all switches are at rank 0, a CA's switch is not at the deepest
 * rank, or switches of one rank differ from the rank's first switch (in
 * its map order: network-order GUIDs) in the number of up or down port
 * groups or in the size of a group. A port group is the cables to one
 * neighbour (each CA port its own). Mirrored here so the report can say
 * whether ftree routing will run.
 */
struct osm_sw {
	size_t sw;
	uint64_t key; /* the GUID as OpenSM's map orders it */
};

static int osm_sw_cmp(const void *x, const void *y)
{
	const struct osm_sw *a = x, *b = y;

	return a->key < b->key ? -1 : a->key > b->key;
}

struct osm_groups {
	unsigned up, down;
	unsigned first_up, first_down; /* sizes of the first groups */
	bool up_even;		       /* every up group as big as `want` */
};

/* Port groups of switch u, in port order; up groups checked against want. */
static void osm_groups_of(const struct ibtopo_topology *t, const int *rank,
			  size_t u, unsigned want, struct osm_groups *g)
{
	const struct ibtopo_node *n = t->sw[u].node;
	const struct ibtopo_node **seen;
	unsigned *size;
	bool *up;
	size_t k = 0;

	memset(g, 0, sizeof(*g));
	g->up_even = true;
	seen = calloc(n->nports + 1, sizeof(*seen));
	size = calloc(n->nports + 1, sizeof(*size));
	up = calloc(n->nports + 1, sizeof(*up));
	if (!seen || !size || !up)
		goto out_free;
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];
		const struct ibtopo_node *r;
		size_t j, v;

		if (!p || !p->remote || p->remote->node == n)
			continue;
		r = p->remote->node;
		if (r->type == IBTOPO_NODE_CA) {
			if (!g->down)
				g->first_down = 1;
			g->down++;
			continue;
		}
		if (!ibtopo__topology_is_switch(r))
			continue;
		v = t->node2sw[r->index];
		if (rank[v] < 0 || rank[v] == rank[u])
			continue;
		for (j = 0; j < k && seen[j] != r; j++)
			;
		if (j == k) {
			seen[k] = r;
			up[k] = rank[v] < rank[u];
			size[k++] = 0;
			if (up[j]) {
				g->up++;
			} else {
				g->down++;
			}
		}
		size[j]++;
	}
	/* the first group of each direction, by first port */
	for (size_t j = 0; j < k; j++) {
		if (up[j] && !g->first_up)
			g->first_up = size[j];
		if (up[j] && want && size[j] != want)
			g->up_even = false;
	}
	for (unsigned i = 1, found = 0; i <= n->nports && !found; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote || p->remote->node == n)
			continue;
		if (p->remote->node->type == IBTOPO_NODE_CA) {
			g->first_down = 1;
			found = 1;
		}
		for (size_t j = 0; j < k && !found; j++)
			if (seen[j] == p->remote->node && !up[j]) {
				g->first_down = size[j];
				found = 1;
			}
	}
out_free:
	free(up);
	free(size);
	free(seen);
}

static void ftree_refuse(struct ibtopo_topology *t, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

static void ftree_refuse(struct ibtopo_topology *t, const char *fmt, ...)
{
	va_list ap;

	t->ftree_ok = false;
	va_start(ap, fmt);
	vsnprintf(t->ftree_reason, sizeof(t->ftree_reason), fmt, ap);
	va_end(ap);
}

/*
 * fn for every cabled port of a CA, in fabric order, until it refuses
 * the fabric (returns false): false then.
 */
static bool each_ca_link(struct ibtopo_topology *t,
			 bool (*fn)(struct ibtopo_topology *t,
				    const struct ibtopo_port *port, void *arg),
			 void *arg)
{
	size_t nn = ibtopo_fabric_node_count(t->fabric);

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(t->fabric, i);

		if (n->type != IBTOPO_NODE_CA)
			continue;
		for (unsigned p = 1; p <= n->nports; p++)
			if (n->ports[p] && n->ports[p]->remote &&
			    !fn(t, n->ports[p], arg))
				return false;
	}
	return true;
}

/* A switch cabled to a CA is a source (arg: bool per switch); a CA
 * cabled to a CA is refused. */
static bool ca_source(struct ibtopo_topology *t, const struct ibtopo_port *port,
		      void *arg)
{
	const struct ibtopo_node *peer = port->remote->node;
	bool *src = arg;
	char q1[160], q2[160];

	if (peer->type == IBTOPO_NODE_CA) {
		ftree_refuse(t, "ERR AB0F: CA %s is cabled to CA %s",
			     ibtopo__topology_quoted(t, port->node, q1,
						     sizeof(q1)),
			     ibtopo__topology_quoted(t, peer, q2, sizeof(q2)));
		return false;
	}
	if (ibtopo__topology_is_switch(peer))
		src[t->node2sw[peer->index]] = true;
	return true;
}

/* The CAs with ports. */
static size_t ca_count(const struct ibtopo_fabric *f)
{
	size_t nn = ibtopo_fabric_node_count(f), ncas = 0;

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		ncas += n->type == IBTOPO_NODE_CA && n->nports > 0;
	}
	return ncas;
}

struct leaf_rank {
	const int *rank;
	int leaf;
};

/* A CA must hang off a switch of the leaf rank (arg: struct leaf_rank). */
static bool ca_on_leaf(struct ibtopo_topology *t,
		       const struct ibtopo_port *port, void *arg)
{
	const struct leaf_rank *lr = arg;
	const struct ibtopo_node *peer = port->remote->node;
	char q1[160], q2[160];
	size_t s;

	if (!ibtopo__topology_is_switch(peer))
		return true;
	s = t->node2sw[peer->index];
	if (lr->rank[s] < 0 || lr->rank[s] == lr->leaf)
		return true;
	ftree_refuse(
		t,
		"ERR AB26: CA %s is on switch %s at rank %d, while the leaves are at rank %d",
		ibtopo__topology_quoted(t, port->node, q1, sizeof(q1)),
		ibtopo__topology_quoted(t, peer, q2, sizeof(q2)), lr->rank[s],
		lr->leaf);
	return false;
}

/*
 * Switch u of rank r against the rank's first switch refsw (groups ref):
 * false (refused) when their port groups differ.
 */
static bool ftree_alike(struct ibtopo_topology *t, const int *rank, int r,
			int leaf, size_t refsw, const struct osm_groups *ref,
			size_t u)
{
	struct osm_groups g;
	char q1[160], q2[160];

	osm_groups_of(t, rank, u, ref->first_up, &g);
	if (g.up == ref->up && (r == leaf || g.down == ref->down) &&
	    (!ref->up || g.up_even) &&
	    (r == leaf || !ref->down || !g.down ||
	     g.first_down == ref->first_down))
		return true;
	ibtopo__topology_quoted(t, t->sw[refsw].node, q1, sizeof(q1));
	ibtopo__topology_quoted(t, t->sw[u].node, q2, sizeof(q2));
	if (g.up != ref->up)
		ftree_refuse(
			t,
			"ERR AB09: switches %s and %s (rank %d) have %u and %u upward port groups",
			q1, q2, r, ref->up, g.up);
	else if (r != leaf && g.down != ref->down)
		ftree_refuse(
			t,
			"ERR AB0A: switches %s and %s (rank %d) have %u and %u downward port groups",
			q1, q2, r, ref->down, g.down);
	else if (ref->up && !g.up_even)
		ftree_refuse(
			t,
			"ERR AB0B: switch %s (rank %d) has an upward port group of another size than the %u cables of %s",
			q2, r, ref->first_up, q1);
	else
		ftree_refuse(
			t,
			"ERR AB0C: switches %s and %s (rank %d) have downward port groups of %u and %u cables",
			q1, q2, r, ref->first_down, g.first_down);
	return false;
}

/* Each rank's switches against its first in OpenSM's map order. */
static void ftree_ranks_alike(struct ibtopo_topology *t, const int *rank,
			      int leaf, struct osm_sw *order)
{
	for (size_t i = 0; i < t->nsw; i++) {
		order[i].sw = i;
		order[i].key = __builtin_bswap64(t->sw[i].node->guid);
	}
	qsort(order, t->nsw, sizeof(*order), osm_sw_cmp);
	for (int r = 0; r <= leaf; r++) {
		struct osm_groups ref;
		size_t refsw = IBTOPO__NONE;

		for (size_t k = 0; k < t->nsw; k++) {
			size_t u = order[k].sw;

			if (rank[u] != r)
				continue;
			if (refsw == IBTOPO__NONE) {
				refsw = u;
				osm_groups_of(t, rank, u, 0, &ref);
			} else if (!ftree_alike(t, rank, r, leaf, refsw, &ref,
						u)) {
				return;
			}
		}
	}
}

int ibtopo__ftree_emulate(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	struct leaf_rank lr;
	size_t ncas, nranked = 0;
	bool *src = calloc(t->nsw + 1, sizeof(bool));
	int *dist = calloc(t->nsw + 1, sizeof(int));
	int *rank = calloc(t->nsw + 1, sizeof(int));
	size_t *queue = calloc(t->nsw + 1, sizeof(*queue));
	struct osm_sw *order = calloc(t->nsw + 1, sizeof(*order));
	int maxd = 0, leaf = 0;
	int ret = 0;

	if (!src || !dist || !rank || !queue || !order) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	t->ftree_ok = true;
	if (!each_ca_link(t, ca_source, src))
		goto out_free;
	ncas = ca_count(t->fabric);
	if (t->nsw < 2) {
		ftree_refuse(t, "the fabric has %zu switch%s", t->nsw,
			     t->nsw == 1 ? "" : "es");
		goto out_free;
	}
	if (ncas < 2) {
		ftree_refuse(t, "the fabric has %zu CA%s", ncas,
			     ncas == 1 ? "" : "s");
		goto out_free;
	}
	if (t->ncomp > 1) {
		/* a subnet manager sees only the part it is cabled to */
		ftree_refuse(t, "the switches form %zu separate fabrics",
			     t->ncomp);
		goto out_free;
	}
	ibtopo__levels_bfs(t, src, dist, queue);
	for (size_t i = 0; i < t->nsw; i++) {
		if (dist[i] > maxd)
			maxd = dist[i];
		nranked += dist[i] >= 0;
	}
	if (maxd == 0 && nranked > 1) {
		ftree_refuse(
			t,
			"ERR AB2B: every switch has CAs, so all are roots at rank 0");
		goto out_free;
	}
	for (size_t i = 0; i < t->nsw; i++)
		src[i] = dist[i] == maxd;
	ibtopo__levels_bfs(t, src, rank, queue);
	for (size_t i = 0; i < t->nsw; i++)
		if (rank[i] > leaf)
			leaf = rank[i];
	if (leaf + 1 < 2 || leaf + 1 > 8) {
		ftree_refuse(t, "the fabric's rank %d is outside 2..8",
			     leaf + 1);
		goto out_free;
	}
	lr.rank = rank;
	lr.leaf = leaf;
	if (each_ca_link(t, ca_on_leaf, &lr))
		ftree_ranks_alike(t, rank, leaf, order);
out_free:
	free(order);
	free(queue);
	free(rank);
	free(dist);
	free(src);
	return ret;
}

bool ibtopo_topology_opensm_ftree(const struct ibtopo_topology *topo,
				  const char **reason)
{
	if (reason)
		*reason = topo && !topo->ftree_ok ? topo->ftree_reason : NULL;
	return topo && topo->ftree_ok;
}
