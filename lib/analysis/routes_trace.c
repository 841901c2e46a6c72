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
 */
#include "analysis/routes-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIST_INF 0xffffu

/* The result with what its findings borrow. */
struct owned_routes {
	struct ibtopo_routes pub;	/* first: ibtopo_routes_free() */
	char **notes;
	size_t nnotes;
};

/* One fault of the destination being traced. */
struct fault {
	enum ibtopo_finding_kind kind;
	int sw, port;
	int subkind;
	uint64_t routes;		/* CA routes it hits */
};

/* A switch's outcome for the destination being traced. */
enum { ST_NEW = 0, ST_STACK, ST_DONE };

struct trace {
	struct ibtopo__rnet net;
	struct owned_routes *res;
	struct ibtopo_findings *findings;
	struct ibtopo__cdg *cdg;
	/* per switch, for the destination being traced */
	uint8_t *state;
	int *next;		/* next switch; -1 delivered here; -2 fault */
	int *outp;		/* the table's entry (out-port) */
	uint16_t *hops;		/* links to the destination when delivered */
	int *fault;		/* fault index, or -1 */
	int *pos;		/* position on the walk's stack */
	int *stack;
	int *order;		/* resolved switches, successor first */
	size_t norder;
	uint64_t *flow;
	int *top;		/* highest-level switch on the way on */
	/* the tables' entries for a block of destinations, one row of
	 * switches each: a walk reads its entries from one row */
	uint8_t *rows;
	const uint8_t *row;
	struct fault *faults;
	size_t nfaults, afaults;
	/* cabled switch distances, rows computed on demand */
	size_t *adj_start;
	int *adj;
	uint16_t **dist;
	int *queue;
	/* totals */
	uint64_t *port_routes;
	uint32_t *port_dlids;
	size_t kept[4];		/* findings kept: hole, loop, long, credit */
};

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

/* ----------------------------------------------------- cable distances */

static int build_adjacency(struct trace *t, struct ibtopo_error *err)
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
				    pp->remote->node->type != IBTOPO_NODE_SWITCH)
					continue;
				if (pass)
					t->adj[n] = net->swid
						[pp->remote->node->index];
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
static const uint16_t *dist_to(struct trace *t, int to)
{
	size_t head = 0, tail = 0, nsw = t->net.nsw;
	uint16_t *d;

	if (t->dist[to])
		return t->dist[to];
	d = malloc(nsw * sizeof(*d));
	if (!d)
		return NULL;
	for (size_t i = 0; i < nsw; i++)
		d[i] = DIST_INF;
	d[to] = 0;
	t->queue[tail++] = to;
	while (head < tail) {
		int s = t->queue[head++];

		for (size_t k = t->adj_start[s]; k < t->adj_start[s + 1]; k++) {
			int u = t->adj[k];

			if (d[u] != DIST_INF)
				continue;
			d[u] = (uint16_t)(d[s] + 1);
			t->queue[tail++] = u;
		}
	}
	t->dist[to] = d;
	return d;
}

/* ------------------------------------------------------------ tracing */

static int add_fault(struct trace *t, enum ibtopo_finding_kind kind, int sw,
		     int port, int subkind, struct ibtopo_error *err)
{
	if (t->nfaults == t->afaults) {
		size_t na = t->afaults ? 2 * t->afaults : 16;
		struct fault *nf = realloc(t->faults, na * sizeof(*nf));

		if (!nf)
			return nomem(err);
		t->faults = nf;
		t->afaults = na;
	}
	t->faults[t->nfaults] = (struct fault){ kind, sw, port, subkind, 0 };
	return (int)t->nfaults++;
}

/*
 * The switch of a cycle (stack[from..top]) where the route goes wrong:
 * the first whose step gets no closer to the destination by the cables;
 * the one that closed the cycle when distances are not known.
 */
static int loop_culprit(struct trace *t, const struct ibtopo__rdest *d,
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
static int walk(struct trace *t, const struct ibtopo__rdest *d, int start,
		struct ibtopo_error *err)
{
	size_t sp = 0;
	int cur = start, f = -1;

	for (;;) {
		enum ibtopo_route_hole hole;
		enum ibtopo__rstep st;
		int nx = -1, port;

		if (t->state[cur] == ST_DONE)
			break;
		if (t->state[cur] == ST_STACK) {
			int who = loop_culprit(t, d, (size_t)t->pos[cur],
					       sp - 1);

			f = add_fault(t, IBTOPO_FIND_ROUTE_LOOP, who,
				      t->outp[who], 0, err);
			if (f < 0)
				return f;
			break;
		}
		t->state[cur] = ST_STACK;
		t->pos[cur] = (int)sp;
		t->stack[sp++] = cur;
		st = ibtopo__route_step(&t->net, (size_t)cur, d, t->row[cur],
					&nx, &port, &hole);
		t->outp[cur] = port;
		/* an entry past the switch's ports (a hole) counts nowhere */
		if (port > 0 && t->net.pbase[cur] + (size_t)port <
					t->net.pbase[cur + 1])
			t->port_dlids[t->net.pbase[cur] + (size_t)port]++;
		if (st == IBTOPO__STEP_NEXT) {
			t->next[cur] = nx;
			cur = nx;
			continue;
		}
		sp--;
		t->state[cur] = ST_DONE;
		t->order[t->norder++] = cur;
		if (st == IBTOPO__STEP_DELIVERED) {
			t->next[cur] = -1;
			t->hops[cur] = port == 0 ? 0 : 1;
			t->fault[cur] = -1;
			t->top[cur] = cur;
		} else {
			t->next[cur] = -2;
			t->fault[cur] = add_fault(t, IBTOPO_FIND_ROUTE_BLACK_HOLE,
						  cur, port, (int)hole, err);
			if (t->fault[cur] < 0)
				return t->fault[cur];
		}
		break;
	}
	/* the switches pushed take the outcome of the one they send to */
	while (sp > 0) {
		int s = t->stack[--sp], n = t->next[s];

		t->state[s] = ST_DONE;
		t->order[t->norder++] = s;
		if (f >= 0 || t->fault[n] >= 0) {
			t->fault[s] = f >= 0 ? f : t->fault[n];
			continue;
		}
		t->fault[s] = -1;
		t->hops[s] = (uint16_t)(t->hops[n] + 1);
		t->top[s] = t->net.level[t->top[n]] > t->net.level[s] ?
			    t->top[n] : s;
	}
	return 0;
}

static int emit(struct trace *t, const struct ibtopo__rdest *d,
		const struct fault *fl, unsigned hops, unsigned min_hops,
		uint64_t routes, struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	const struct ibtopo_node *sw = t->net.sw[fl->sw];
	size_t *kept = &t->kept[fl->kind == IBTOPO_FIND_ROUTE_BLACK_HOLE ? 0 :
				fl->kind == IBTOPO_FIND_ROUTE_LOOP ? 1 : 2];

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
				sw->ports[fl->port] : NULL;

		f.c = f.b;
		f.b = (struct ibtopo_end){ NULL, 0, -1 };
		if (out && out->remote)
			ibtopo_end_from_port(&f.b, out->remote);
	}
	f.subkind = fl->subkind;
	f.limit = d->lid;
	f.value = (double)routes;
	f.actual = hops;
	f.expected = min_hops;
	return ibtopo_findings_add(t->findings, &f, err);
}

/* Flows, hops, balance and findings of one destination, once walked. */
static int account(struct trace *t, const struct ibtopo__rdest *d,
		   struct ibtopo_error *err)
{
	struct ibtopo_routes *r = &t->res->pub;
	const struct ibtopo__rnet *net = &t->net;
	const uint16_t *dist = NULL;
	bool pairs = d->ca && d->base;
	int rc;

	for (size_t s = 0; s < net->nsw; s++) {
		uint64_t mine = net->local[s];

		if (d->ca && (int)s == d->attach)
			mine--;	/* the destination port itself */
		t->flow[s] = mine;
		if (!mine)
			continue;
		if (t->fault[s] >= 0) {
			t->faults[t->fault[s]].routes += mine;
			if (pairs)
				r->unreachable_pairs += mine;
		} else if (pairs) {
			size_t h = (size_t)t->hops[s] + 1;

			if (h < r->nhops)
				r->hops[h] += mine;
		}
	}
	for (size_t i = 0; i < t->nfaults; i++) {
		const struct fault *fl = &t->faults[i];

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
	if (!pairs)
		return 0;
	/* CA routes flow down the tree: a switch before the one it sends to */
	for (size_t i = t->norder; i-- > 0;) {
		int s = t->order[i], n = t->next[s];

		if (t->fault[s] >= 0 || !t->flow[s])
			continue;
		t->port_routes[net->pbase[s] + (size_t)t->outp[s]] += t->flow[s];
		if (n < 0)
			continue;
		t->flow[n] += t->flow[s];
		if (t->cdg && t->next[n] >= 0)
			ibtopo__cdg_turn(t->cdg, (size_t)n,
					 net->rnum[net->pbase[s] +
						   (size_t)t->outp[s]],
					 (unsigned)t->outp[n]);
		if (!dist)
			dist = dist_to(t, d->attach);
		if (!dist)
			return nomem(err);
		if (dist[n] == DIST_INF || dist[n] + 1 != dist[s]) {
			struct fault fl = { IBTOPO_FIND_ROUTE_NOT_MINIMAL, s,
					    t->outp[s], 0, t->flow[s] };

			r->not_minimal++;
			rc = emit(t, d, &fl, t->hops[s],
				  dist[s] == DIST_INF ? 0 : dist[s] + 1u,
				  t->flow[s], err);
			if (rc)
				return rc;
		}
	}
	return 0;
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

static int leafpairs_init(struct leafpairs *lp, const struct trace *t,
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
static int leafpairs_group(struct leafpairs *lp, const struct trace *t,
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

static void leafpairs_note(struct leafpairs *lp, const struct trace *t)
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

static int level_spreads(struct trace *t, struct ibtopo_error *err)
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

static int port_rows(struct trace *t, struct ibtopo_error *err)
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

/* --------------------------------------------------------------- main */

/* destinations whose table entries are gathered at once */
#define ROW_BLOCK 64

static int trace_alloc(struct trace *t, struct ibtopo_error *err)
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
	t->rows = malloc(ROW_BLOCK * n);
	if (!t->rows || !t->state || !t->next || !t->outp || !t->hops || !t->fault ||
	    !t->pos || !t->stack || !t->order || !t->flow || !t->top ||
	    !t->port_routes || !t->port_dlids)
		return nomem(err);
	return 0;
}

static void trace_release(struct trace *t)
{
	if (t->dist)
		for (size_t i = 0; i < t->net.nsw; i++)
			free(t->dist[i]);
	free(t->dist);
	free(t->queue);
	free(t->adj);
	free(t->adj_start);
	free(t->faults);
	free(t->rows);
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
	ibtopo__rnet_release(&t->net);
}

/* Trace one destination: walk every switch, then count. */
static int trace_one(struct trace *t, const struct ibtopo__rdest *d,
		     struct ibtopo_error *err)
{
	int rc = 0;

	memset(t->state, ST_NEW, t->net.nsw);
	t->norder = 0;
	t->nfaults = 0;
	for (size_t s = 0; s < t->net.nsw && !rc; s++)
		if (t->state[s] == ST_NEW)
			rc = walk(t, d, (int)s, err);
	if (!rc)
		rc = account(t, d, err);
	return rc;
}

/*
 * The entries of `n` destinations (indexes idx[]) from every table, as
 * rows: read switch by switch, a table's entries for LIDs close together
 * share cache lines, and the rows stay in cache while they fill.
 */
static void gather_rows(struct trace *t, const uint64_t *idx, size_t n)
{
	const struct ibtopo__rnet *net = &t->net;
	unsigned lid[ROW_BLOCK];

	for (size_t k = 0; k < n; k++)
		lid[k] = net->dest[idx[k]].lid;
	for (size_t s = 0; s < net->nsw; s++) {
		const uint8_t *lft = net->lft[s];
		unsigned top = net->lft_top[s];
		uint8_t *col = t->rows + s;

		for (size_t k = 0; k < n; k++, col += net->nsw)
			*col = lft && lid[k] <= top ? lft[lid[k]] :
			       IBTOPO_LFT_NONE;
	}
}

static int trace_all(struct trace *t, const struct ibtopo_routes_opts *opts,
		     struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = &t->net;
	bool leaf = !(opts->flags & IBTOPO_ROUTES_NO_LEAF_PAIRS) &&
		    net->topo != NULL;
	struct leafpairs lp;
	uint64_t *idx = NULL;
	int rc;

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
		lp.seen = calloc(lp.nleaves * lp.gcap + 1, sizeof(*lp.seen));
		lp.nseen = calloc(lp.nleaves + 1, sizeof(*lp.nseen));
		if (!lp.seen || !lp.nseen) {
			rc = nomem(err);
			goto out_release;
		}
	}
	for (size_t i = 0; i < net->ndest; i++) {
		const struct ibtopo__rdest *d = &net->dest[idx[i]];

		if (i % ROW_BLOCK == 0)
			gather_rows(t, idx + i, net->ndest - i < ROW_BLOCK ?
					net->ndest - i : ROW_BLOCK);
		t->row = t->rows + (i % ROW_BLOCK) * net->nsw;
		rc = trace_one(t, d, err);
		if (rc)
			goto out_release;
		if (leaf && d->ca && d->base)
			leafpairs_note(&lp, t);
		if (leaf && (i + 1 == net->ndest ||
			     net->dest[idx[i + 1]].attach != d->attach) &&
		    lp.leaf_of[d->attach] >= 0) {
			rc = leafpairs_group(&lp, t,
					     (size_t)lp.leaf_of[d->attach], err);
			if (rc)
				goto out_release;
		}
	}
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
	struct trace t;
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
	rc = trace_alloc(&t, err);
	if (!rc)
		rc = build_adjacency(&t, err);
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
	trace_release(&t);
	*out = r;
	return 0;

out_fail:
	trace_release(&t);
	ibtopo_routes_free(&t.res->pub);
	return rc;
}

void ibtopo_routes_free(struct ibtopo_routes *routes)
{
	struct owned_routes *o = (struct owned_routes *)routes;

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
