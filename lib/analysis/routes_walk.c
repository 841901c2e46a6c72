/*
 * routes_walk.c - the trace of one destination for the routing analysis
 * (routes_trace.c runs it for every destination, on every thread): each
 * switch's next hop followed once, the outcomes, then the flows, hops,
 * balance and findings they give. A trace's scratch and sums are its
 * own, so traces of different destinations run side by side.
 */
#include "analysis/routes-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

/* ----------------------------------------------------- cable distances */

int ibtopo__trace_adjacency(struct ibtopo__trace *t, struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = &t->net;
	size_t n = 0;

	t->adj_start = calloc(net->nsw + 1, sizeof(*t->adj_start));
	t->dist = calloc(net->nsw + 1, sizeof(*t->dist));
	t->queue = malloc((net->nsw + 1) * sizeof(*t->queue));
	if (!t->adj_start || !t->dist || !t->queue)
		return nomem(err);
	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (size_t s = 0; s < net->nsw; s++) {
			const struct ibtopo_node *sw = net->sw[s];

			t->adj_start[s] = n;
			for (unsigned p = 1; p <= sw->nports; p++) {
				const struct ibtopo_port *pp = sw->ports[p];

				if (!pp || !ibtopo__route_link_up(pp) ||
				    pp->remote->node->type !=
					    IBTOPO_NODE_SWITCH)
					continue;
				if (pass)
					t->adj[n] = net->swid[pp->remote->node
								      ->index];
				n++;
			}
		}
		t->adj_start[net->nsw] = n;
		if (!pass) {
			t->adj = malloc((n ? n : 1) * sizeof(*t->adj));
			if (!t->adj)
				return nomem(err);
		}
	}
	return 0;
}

/* Cabled hops from every switch to switch `to`; NULL when out of memory. */
static const uint16_t *dist_to(struct ibtopo__trace *t, int to)
{
	size_t head = 0, tail = 0, nsw = t->net.nsw;
	uint16_t *d;

	if (t->dist[to])
		return t->dist[to];
	d = malloc(nsw * sizeof(*d));
	if (!d)
		return NULL;
	for (size_t i = 0; i < nsw; i++)
		d[i] = IBTOPO__DIST_INF;
	d[to] = 0;
	t->queue[tail++] = to;
	while (head < tail) {
		int s = t->queue[head++];

		for (size_t k = t->adj_start[s]; k < t->adj_start[s + 1]; k++) {
			int u = t->adj[k];

			if (d[u] != IBTOPO__DIST_INF)
				continue;
			d[u] = (uint16_t)(d[s] + 1);
			t->queue[tail++] = u;
		}
	}
	t->dist[to] = d;
	return d;
}

/* ------------------------------------------------------------ tracing */

static int add_fault(struct ibtopo__trace *t, enum ibtopo_finding_kind kind,
		     int sw, int port, int subkind, struct ibtopo_error *err)
{
	if (t->nfaults == t->afaults) {
		size_t na = t->afaults ? 2 * t->afaults : 16;
		struct ibtopo__fault *nf = realloc(t->faults, na * sizeof(*nf));

		if (!nf)
			return nomem(err);
		t->faults = nf;
		t->afaults = na;
	}
	t->faults[t->nfaults] =
		(struct ibtopo__fault){ kind, sw, port, subkind, 0 };
	return (int)t->nfaults++;
}

/*
 * The switch of a cycle (stack[from..top]) where the route goes wrong:
 * the first whose step gets no closer to the destination by the cables;
 * the one that closed the cycle when distances are not known.
 */
static int loop_culprit(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
			size_t from, size_t top)
{
	const uint16_t *dist = dist_to(t, d->attach);

	if (dist)
		for (size_t i = from; i <= top; i++) {
			int s = t->stack[i], n = t->next[s];

			if (dist[n] >= dist[s])
				return s;
		}
	return t->stack[top];
}

/* Resolve every switch from `start` on, for destination `d`. */
static int walk(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
		int start, struct ibtopo_error *err)
{
	size_t sp = 0;
	int cur = start, f = -1;

	for (;;) {
		enum ibtopo_route_hole hole;
		enum ibtopo__rstep st;
		int nx = -1, port;

		if (t->state[cur] == IBTOPO__ST_DONE)
			break;
		if (t->state[cur] == IBTOPO__ST_STACK) {
			int who =
				loop_culprit(t, d, (size_t)t->pos[cur], sp - 1);

			f = add_fault(t, IBTOPO_FIND_ROUTE_LOOP, who,
				      t->outp[who], 0, err);
			if (f < 0)
				return f;
			break;
		}
		t->state[cur] = IBTOPO__ST_STACK;
		t->pos[cur] = (int)sp;
		t->stack[sp++] = cur;
		st = ibtopo__route_step(&t->net, (size_t)cur, d, t->row[cur],
					&nx, &port, &hole);
		t->outp[cur] = port;
		/* an entry past the switch's ports (a hole) counts nowhere */
		if (port > 0 &&
		    t->net.pbase[cur] + (size_t)port < t->net.pbase[cur + 1])
			t->port_dlids[t->net.pbase[cur] + (size_t)port]++;
		if (st == IBTOPO__STEP_NEXT) {
			t->next[cur] = nx;
			cur = nx;
			continue;
		}
		sp--;
		t->state[cur] = IBTOPO__ST_DONE;
		t->order[t->norder++] = cur;
		if (st == IBTOPO__STEP_DELIVERED) {
			t->next[cur] = -1;
			t->hops[cur] = port == 0 ? 0 : 1;
			t->fault[cur] = -1;
			t->top[cur] = cur;
		} else {
			t->next[cur] = -2;
			t->fault[cur] =
				add_fault(t, IBTOPO_FIND_ROUTE_BLACK_HOLE, cur,
					  port, (int)hole, err);
			if (t->fault[cur] < 0)
				return t->fault[cur];
		}
		break;
	}
	/* the switches pushed take the outcome of the one they send to */
	while (sp > 0) {
		int s = t->stack[--sp], n = t->next[s];

		t->state[s] = IBTOPO__ST_DONE;
		t->order[t->norder++] = s;
		if (f >= 0 || t->fault[n] >= 0) {
			t->fault[s] = f >= 0 ? f : t->fault[n];
			continue;
		}
		t->fault[s] = -1;
		t->hops[s] = (uint16_t)(t->hops[n] + 1);
		t->top[s] = t->net.level[t->top[n]] > t->net.level[s] ?
				    t->top[n] :
				    s;
	}
	return 0;
}

static int emit(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
		const struct ibtopo__fault *fl, unsigned hops,
		unsigned min_hops, uint64_t routes, struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	const struct ibtopo_node *sw = t->net.sw[fl->sw];
	size_t *kept = &t->kept[fl->kind == IBTOPO_FIND_ROUTE_BLACK_HOLE ? 0 :
				fl->kind == IBTOPO_FIND_ROUTE_LOOP	 ? 1 :
									   2];

	if (!t->findings || *kept >= IBTOPO__ROUTES_MAX_FINDINGS)
		return 0;
	(*kept)++;
	ibtopo__finding_init(&f, fl->kind);
	f.a.node = sw->desc;
	f.a.guid = sw->guid;
	f.a.port = fl->port;
	ibtopo_end_from_port(&f.b, d->port);
	if (!d->ca)
		f.b.port = -1;
	if (fl->kind == IBTOPO_FIND_ROUTE_LOOP ||
	    fl->kind == IBTOPO_FIND_ROUTE_BLACK_HOLE) {
		/* END A - END B reads as a cable: b is the far end of a's
		 * (unset when the port has none), the destination is c */
		const struct ibtopo_port *out =
			fl->port > 0 && (unsigned)fl->port <= sw->nports ?
				sw->ports[fl->port] :
				NULL;

		f.c = f.b;
		f.b = (struct ibtopo_end){ NULL, 0, -1 };
		if (out && out->remote)
			ibtopo_end_from_port(&f.b, out->remote);
	}
	f.subkind = fl->subkind;
	if (fl->kind == IBTOPO_FIND_ROUTE_NOT_MINIMAL) {
		f.num.detour.dlid = d->lid;
		f.num.detour.routes = (double)routes;
		f.num.detour.hops = hops;
		f.num.detour.min_hops = min_hops;
	} else {
		f.num.route.dlid = d->lid;
		f.num.route.routes = (double)routes;
	}
	return ibtopo_findings_add(t->findings, &f, err);
}

/* Flows, hops, balance and findings of one destination, once walked. */
static int account(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
		   struct ibtopo_error *err)
{
	struct ibtopo_routes *r = &t->res->pub;
	const struct ibtopo__rnet *net = &t->net;
	const uint16_t *dist = NULL;
	/* CA pairs to a base LID make the hop counts and the port balance;
	 * every CA LID counts its unreachable pairs, and every destination
	 * (host -> switch routes too, as ibdmchk -a checks them) adds its
	 * turns to the credit-loop graph and its long routes */
	bool pairs = d->ca && d->base;
	int rc;

	for (size_t s = 0; s < net->nsw; s++) {
		uint64_t mine = net->local[s];

		if (d->ca && (int)s == d->attach)
			mine--; /* the destination port itself */
		t->flow[s] = mine;
		if (!mine)
			continue;
		if (t->fault[s] >= 0) {
			t->faults[t->fault[s]].routes += mine;
			if (d->ca)
				r->unreachable_pairs += mine;
		} else if (pairs) {
			size_t h = (size_t)t->hops[s] + 1;

			if (h < r->nhops)
				r->hops[h] += mine;
		}
	}
	for (size_t i = 0; i < t->nfaults; i++) {
		const struct ibtopo__fault *fl = &t->faults[i];

		if (!fl->routes)
			continue;
		if (fl->kind == IBTOPO_FIND_ROUTE_LOOP)
			r->loops++;
		else
			r->black_holes++;
		rc = emit(t, d, fl, 0, 0, fl->routes, err);
		if (rc)
			return rc;
	}
	/* CA routes flow down the tree: a switch before the one it sends to */
	for (size_t i = t->norder; i-- > 0;) {
		int s = t->order[i], n = t->next[s];

		if (t->fault[s] >= 0 || !t->flow[s])
			continue;
		if (pairs)
			t->port_routes[net->pbase[s] + (size_t)t->outp[s]] +=
				t->flow[s];
		if (n < 0)
			continue;
		t->flow[n] += t->flow[s];
		if (t->cdg && t->next[n] >= 0)
			ibtopo__cdg_turn(
				t->cdg, (size_t)n,
				net->rnum[net->pbase[s] + (size_t)t->outp[s]],
				(unsigned)t->outp[n]);
		if (!dist)
			dist = dist_to(t, d->attach);
		if (!dist)
			return nomem(err);
		if (dist[n] == IBTOPO__DIST_INF || dist[n] + 1 != dist[s]) {
			struct ibtopo__fault fl = {
				IBTOPO_FIND_ROUTE_NOT_MINIMAL, s, t->outp[s], 0,
				t->flow[s]
			};

			r->not_minimal++;
			/* a CA's LID is one link past its switch, a switch's
			 * is the switch itself */
			rc = emit(t, d, &fl, t->hops[s],
				  dist[s] == IBTOPO__DIST_INF ?
					  0 :
					  dist[s] + (d->ca ? 1u : 0u),
				  t->flow[s], err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ scratch */

int ibtopo__trace_alloc(struct ibtopo__trace *t, struct ibtopo_error *err)
{
	size_t n = t->net.nsw + 1;

	t->state = calloc(n, 1);
	t->next = calloc(n, sizeof(int));
	t->outp = calloc(n, sizeof(int));
	t->hops = calloc(n, sizeof(uint16_t));
	t->fault = calloc(n, sizeof(int));
	t->pos = calloc(n, sizeof(int));
	t->stack = calloc(n, sizeof(int));
	t->order = calloc(n, sizeof(int));
	t->flow = calloc(n, sizeof(uint64_t));
	t->top = calloc(n, sizeof(int));
	t->port_routes = calloc(t->net.nport_ids + 1, sizeof(uint64_t));
	t->port_dlids = calloc(t->net.nport_ids + 1, sizeof(uint32_t));
	if (!t->state || !t->next || !t->outp || !t->hops || !t->fault ||
	    !t->pos || !t->stack || !t->order || !t->flow || !t->top ||
	    !t->port_routes || !t->port_dlids)
		return nomem(err);
	return 0;
}

void ibtopo__trace_release(struct ibtopo__trace *t)
{
	if (t->dist)
		for (size_t i = 0; i < t->net.nsw; i++)
			free(t->dist[i]);
	free(t->dist);
	free(t->queue);
	free(t->adj);
	free(t->adj_start);
	free(t->faults);
	free(t->port_dlids);
	free(t->port_routes);
	free(t->top);
	free(t->flow);
	free(t->order);
	free(t->stack);
	free(t->pos);
	free(t->fault);
	free(t->hops);
	free(t->outp);
	free(t->next);
	free(t->state);
	ibtopo__cdg_free(t->cdg);
}

/* Trace one destination: walk every switch, then count. */
int ibtopo__trace_one(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
		      struct ibtopo_error *err)
{
	int rc = 0;

	memset(t->state, IBTOPO__ST_NEW, t->net.nsw);
	t->norder = 0;
	t->nfaults = 0;
	for (size_t s = 0; s < t->net.nsw && !rc; s++)
		if (t->state[s] == IBTOPO__ST_NEW)
			rc = walk(t, d, (int)s, err);
	if (!rc)
		rc = account(t, d, err);
	return rc;
}
