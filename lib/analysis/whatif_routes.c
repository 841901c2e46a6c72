/*
 * whatif_routes.c - the blast radius of a failure before the subnet
 * manager reacts: the CA pairs whose routes, as the forwarding tables
 * stand, cross a failed switch, CA or cable. Traced per destination LID
 * (a CA port's base LID) once from every switch, each switch's outcome
 * kept, so a destination costs one pass over the switches.
 */
#include "analysis/whatif-int.h"
#include "analysis/routes-int.h"

#include <stdlib.h>
#include <string.h>

enum { UNKNOWN = 0, CLEAN, CROSSES, UNROUTED, VISITING };

/* Does the port's cable, or its node, fail? */
static bool port_fails(const struct ibtopo__whatif_ctx *c,
		       const struct ibtopo_port *p)
{
	if (!p)
		return false;
	if (c->dnode[p->node->index])
		return true;
	return p->link && c->dlink[p->link->index];
}

/* The outcome at switch s when its own step is taken. */
static unsigned char step_at(const struct ibtopo__whatif_ctx *c,
			     const struct ibtopo__rnet *net, size_t s,
			     const struct ibtopo__rdest *d, int *next)
{
	enum ibtopo_route_hole hole;
	enum ibtopo__rstep st;
	int port = -1;

	if (c->dnode[net->sw[s]->index])
		return CROSSES;
	st = ibtopo__route_step(net, s, d, ibtopo__route_entry(net, s, d->lid),
				next, &port, &hole);
	if (st == IBTOPO__STEP_HOLE)
		return UNROUTED;
	if (port > 0 &&
	    port_fails(c, ibtopo_node_port(net->sw[s], (unsigned)port)))
		return CROSSES;
	return st == IBTOPO__STEP_DELIVERED ? CLEAN : VISITING;
}

/* Outcome of the route from switch `s` to d, every switch on the way
 * keeping its own (stack: scratch of nsw entries). */
static unsigned char trace(const struct ibtopo__whatif_ctx *c,
			   const struct ibtopo__rnet *net, unsigned char *out,
			   size_t *stack, size_t s,
			   const struct ibtopo__rdest *d)
{
	size_t n = 0;
	unsigned char r;

	while (out[s] == UNKNOWN) {
		int next = -1;

		r = step_at(c, net, s, d, &next);
		stack[n++] = s;
		out[s] = VISITING;
		if (r != VISITING)
			goto done;
		s = (size_t)next;
	}
	r = out[s] == VISITING ? UNROUTED : out[s]; /* a loop */
done:
	while (n)
		out[stack[--n]] = r;
	return r;
}

static int dest_cmp(const void *x, const void *y)
{
	const struct ibtopo_whatif_dest *a = x, *b = y;

	if (a->pairs != b->pairs)
		return a->pairs < b->pairs ? 1 : -1;
	return (a->lid > b->lid) - (a->lid < b->lid);
}

static void carry(struct ibtopo_whatif *w, const struct ibtopo_port *p)
{
	if (p && p->link && !w->carried[p->link->index]) {
		w->carried[p->link->index] = true;
		w->ncarried++;
	}
}

/*
 * The links a hit route from switch `s` uses up to the failure (or to
 * the destination, when that is what fails): each switch's out-port
 * cable, at most one pass over the switches.
 */
static void carry_path(struct ibtopo_whatif *w,
		       const struct ibtopo__whatif_ctx *c,
		       const struct ibtopo__rnet *net, size_t s,
		       const struct ibtopo__rdest *d)
{
	for (size_t n = 0; n <= net->nsw; n++) {
		enum ibtopo_route_hole hole;
		enum ibtopo__rstep st;
		int next = -1, port = -1;
		const struct ibtopo_port *p;

		if (c->dnode[net->sw[s]->index])
			return;
		st = ibtopo__route_step(net, s, d,
					ibtopo__route_entry(net, s, d->lid),
					&next, &port, &hole);
		if (st == IBTOPO__STEP_HOLE || port <= 0)
			return;
		p = ibtopo_node_port(net->sw[s], (unsigned)port);
		carry(w, p);
		if (st == IBTOPO__STEP_DELIVERED || port_fails(c, p))
			return;
		s = (size_t)next;
	}
}

static void one_dest(struct ibtopo_whatif *w,
		     const struct ibtopo__whatif_ctx *c,
		     const struct ibtopo__rnet *net, unsigned char *out,
		     size_t *stack, const struct ibtopo__rdest *d)
{
	bool dead = port_fails(c, d->port);
	size_t hit = 0;

	memset(out, UNKNOWN, net->nsw);
	for (size_t i = 0; i < net->nsrc; i++) {
		const struct ibtopo_port *src = net->src[i];
		unsigned char r;

		if (src == d->port || net->src_sw[i] < 0)
			continue;
		r = trace(c, net, out, stack, (size_t)net->src_sw[i], d);
		if (r == UNROUTED)
			continue;
		w->ca_pairs++;
		if (dead || r == CROSSES || port_fails(c, src)) {
			hit++;
			carry(w, src);
			carry_path(w, c, net, (size_t)net->src_sw[i], d);
		}
	}
	if (hit) {
		struct ibtopo_whatif_dest *e = &w->dests[w->ndests++];

		e->port = d->port;
		e->lid = d->lid;
		e->pairs = hit;
		w->ca_pairs_hit += hit;
	}
}

int ibtopo__whatif_routes(struct ibtopo_whatif *w,
			  const struct ibtopo__whatif_ctx *c,
			  struct ibtopo_error *err)
{
	struct ibtopo__rnet net = { 0 };
	unsigned char *out = NULL;
	size_t *stack = NULL;
	int rc;

	if (!ibtopo_fabric_has_routes(c->fabric))
		return 0;
	rc = ibtopo__rnet_build(&net, c->fabric, c->topo, err);
	if (rc)
		goto out_release;
	out = malloc(net.nsw + 1);
	stack = calloc(net.nsw + 1, sizeof(*stack));
	w->dests = calloc(net.ndest + 1, sizeof(*w->dests));
	w->carried = calloc(ibtopo_fabric_link_count(c->fabric) + 1,
			    sizeof(*w->carried));
	if (!out || !stack || !w->dests || !w->carried) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_release;
	}
	w->routes = true;
	for (size_t i = 0; i < net.ndest; i++)
		if (net.dest[i].ca && net.dest[i].base)
			one_dest(w, c, &net, out, stack, &net.dest[i]);
	if (w->ndests > 1)
		qsort(w->dests, w->ndests, sizeof(*w->dests), dest_cmp);
out_release:
	free(stack);
	free(out);
	ibtopo__rnet_release(&net);
	return rc;
}
