/*
 * routes_credit.c - credit loops: cycles in the channel dependency graph
 * of the routes from the CA ports to every destination LID, on one VL
 * (SL2VL tables are not read): to the other CAs' LIDs (all of a port's
 * LMC range) and to the switches' port 0 LIDs, the management traffic
 * ibdmchk -a checks too. Switches as sources add no turn: a switch's
 * own packets take the first hop its CA ports' take.
 *
 * A channel is a switch out-port cabled to another switch. A route that
 * enters switch n by port q and leaves it by port r makes the channel
 * into n through q wait for credits of the channel n -> r: the turn
 * (q, r) at n, kept as one bit of a per-switch (ports+1)^2 matrix, so
 * the graph costs no more than the turns a switch can take however many
 * routes there are. A cycle of waits can deadlock the fabric; Tarjan's
 * strongly connected components find every component that holds one,
 * and a breadth-first search inside the component gives one cycle, its
 * links listed in the finding.
 */
#include "analysis/routes-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ibtopo__cdg {
	const struct ibtopo__rnet *net;
	size_t *moff;		/* switch -> first bit of its turn matrix */
	uint8_t *bits;
	size_t nbytes;
};

int ibtopo__cdg_new(struct ibtopo__cdg **out, const struct ibtopo__rnet *net)
{
	struct ibtopo__cdg *g = calloc(1, sizeof(*g));
	size_t nbits = 0;

	*out = NULL;
	if (!g)
		return IBTOPO_ENOMEM;
	g->net = net;
	g->moff = calloc(net->nsw + 1, sizeof(*g->moff));
	if (!g->moff)
		goto out_free;
	for (size_t s = 0; s < net->nsw; s++) {
		size_t w = net->sw[s]->nports + 1;

		g->moff[s] = nbits;
		nbits += w * w;
	}
	g->nbytes = nbits / 8 + 1;
	g->bits = calloc(g->nbytes, 1);
	if (!g->bits)
		goto out_free;
	*out = g;
	return 0;

out_free:
	ibtopo__cdg_free(g);
	return IBTOPO_ENOMEM;
}

void ibtopo__cdg_free(struct ibtopo__cdg *g)
{
	if (!g)
		return;
	free(g->bits);
	free(g->moff);
	free(g);
}

/* ports + 1 of switch s */
static size_t width(const struct ibtopo__cdg *g, size_t s)
{
	return g->net->pbase[s + 1] - g->net->pbase[s];
}

static size_t bit_of(const struct ibtopo__cdg *g, size_t s, unsigned in,
		     unsigned out)
{
	return g->moff[s] + (size_t)in * width(g, s) + out;
}

void ibtopo__cdg_turn(struct ibtopo__cdg *g, size_t s, unsigned in,
		      unsigned out)
{
	size_t b;

	if (in >= width(g, s) || out >= width(g, s))
		return;
	b = bit_of(g, s, in, out);
	g->bits[b / 8] |= (uint8_t)(1u << (b % 8));
}

void ibtopo__cdg_merge(struct ibtopo__cdg *g, const struct ibtopo__cdg *from)
{
	for (size_t i = 0; i < g->nbytes && i < from->nbytes; i++)
		g->bits[i] |= from->bits[i];
}

/* The switch a channel leads to and the port it enters by; false when
 * the port is no channel (not cabled to a switch). */
static bool channel_end(const struct ibtopo__rnet *net, size_t s, unsigned p,
			size_t *n, unsigned *q)
{
	const struct ibtopo_port *pp = p <= net->sw[s]->nports ?
				       net->sw[s]->ports[p] : NULL;

	if (!pp || !pp->remote ||
	    pp->remote->node->type != IBTOPO_NODE_SWITCH)
		return false;
	*n = (size_t)net->swid[pp->remote->node->index];
	*q = pp->remote->num;
	return true;
}

/* The successors of channel (s, p): iterate r from *r on. */
static bool next_succ(const struct ibtopo__cdg *g, size_t s, unsigned p,
		      unsigned *r, size_t *succ)
{
	const struct ibtopo__rnet *net = g->net;
	size_t n;
	unsigned q;

	if (!channel_end(net, s, p, &n, &q))
		return false;
	for (; *r <= net->sw[n]->nports; (*r)++) {
		size_t b = bit_of(g, n, q, *r);
		size_t m;
		unsigned q2;

		if (!(g->bits[b / 8] & (1u << (b % 8))))
			continue;
		if (!channel_end(net, n, *r, &m, &q2))
			continue;
		*succ = net->pbase[n] + *r;
		(*r)++;
		return true;
	}
	return false;
}

struct tarjan {
	int *index, *low, *comp;
	bool *on;
	size_t *stack, *cs_node;
	unsigned *cs_r;
	size_t sp, csp;
	int next_index, ncomp;
	int *sw_of;
};

/* Append text to a note, cut at the end of the buffer. */
static void note_add(char *buf, size_t len, size_t *used, const char *s)
{
	int n = snprintf(buf + *used, len - *used, "%s", s);

	if (n > 0)
		*used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

/* One cycle of component `c` through channel `v`, reported. */
static int report_cycle(struct ibtopo__cdg *g, struct tarjan *tj, size_t v,
			struct ibtopo_findings *findings, char ***notes,
			size_t *nnotes, struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = g->net;
	size_t nid = net->nport_ids, head = 0, tail = 0, len = 0;
	size_t *prev = malloc(nid * sizeof(*prev));
	size_t *queue = malloc(nid * sizeof(*queue));
	size_t *cyc = malloc((nid + 1) * sizeof(*cyc));
	char *note = NULL, **nn;
	size_t used = 0, best = 0, last = SIZE_MAX;
	struct ibtopo_finding f;
	int rc = 0;

	if (!prev || !queue || !cyc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nid; i++)
		prev[i] = SIZE_MAX;
	queue[tail++] = v;
	while (head < tail && last == SIZE_MAX) {
		size_t u = queue[head++], w;
		size_t s = (size_t)tj->sw_of[u];
		unsigned r = 1;

		while (next_succ(g, s, (unsigned)(u - net->pbase[s]), &r, &w)) {
			if (tj->comp[w] != tj->comp[v])
				continue;
			if (w == v) {
				last = u;
				break;
			}
			if (prev[w] != SIZE_MAX)
				continue;
			prev[w] = u;
			queue[tail++] = w;
		}
	}
	if (last == SIZE_MAX)
		goto out_free;	/* cannot happen in a component with a cycle */
	for (size_t u = last; u != v; u = prev[u])
		cyc[len++] = u;
	cyc[len++] = v;
	/* cyc holds the cycle backwards: reverse, start at the lowest id */
	for (size_t i = 0; i < len / 2; i++) {
		size_t x = cyc[i];

		cyc[i] = cyc[len - 1 - i];
		cyc[len - 1 - i] = x;
	}
	for (size_t i = 1; i < len; i++)
		if (cyc[i] < cyc[best])
			best = i;
	note = malloc(1024);
	nn = realloc(*notes, (*nnotes + 1) * sizeof(**notes));
	if (!note || !nn) {
		free(note);
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	*notes = nn;
	note[0] = '\0';
	for (size_t k = 0; k < len; k++) {
		size_t id = cyc[(best + k) % len];
		size_t s = (size_t)tj->sw_of[id];
		const struct ibtopo_port *p = net->sw[s]->ports[id - net->pbase[s]];
		char a[160], b[160], link[330];

		ibtopo__route_port_name(a, sizeof(a), p);
		ibtopo__route_port_name(b, sizeof(b), p->remote);
		snprintf(link, sizeof(link), "%s%s -> %s", k ? ", " : "", a, b);
		note_add(note, 1024, &used, link);
	}
	(*notes)[(*nnotes)++] = note;
	if (findings && *nnotes <= IBTOPO__ROUTES_MAX_FINDINGS) {
		size_t id = cyc[best];
		size_t s = (size_t)tj->sw_of[id];
		const struct ibtopo_port *p = net->sw[s]->ports[id - net->pbase[s]];

		ibtopo__finding_init(&f, IBTOPO_FIND_CREDIT_LOOP);
		ibtopo_end_from_port(&f.a, p);
		ibtopo_end_from_port(&f.b, p->remote);
		f.num.links.links = (unsigned)len;
		f.note = note;
		rc = ibtopo_findings_add(findings, &f, err);
	}

out_free:
	free(cyc);
	free(queue);
	free(prev);
	return rc;
}

int ibtopo__cdg_cycles(struct ibtopo__cdg *g, const struct ibtopo__rnet *net,
		       size_t *count, struct ibtopo_findings *findings,
		       char ***notes, size_t *nnotes,
		       struct ibtopo_error *err)
{
	size_t nid = net->nport_ids;
	struct tarjan tj;
	int rc = 0;

	memset(&tj, 0, sizeof(tj));
	*count = 0;
	tj.index = malloc((nid + 1) * sizeof(int));
	tj.low = malloc((nid + 1) * sizeof(int));
	tj.comp = malloc((nid + 1) * sizeof(int));
	tj.on = calloc(nid + 1, sizeof(bool));
	tj.stack = malloc((nid + 1) * sizeof(size_t));
	tj.cs_node = malloc((nid + 1) * sizeof(size_t));
	tj.cs_r = malloc((nid + 1) * sizeof(unsigned));
	tj.sw_of = malloc((nid + 1) * sizeof(int));
	if (!tj.index || !tj.low || !tj.comp || !tj.on || !tj.stack ||
	    !tj.cs_node || !tj.cs_r || !tj.sw_of) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t s = 0; s < net->nsw; s++)
		for (unsigned p = 0; p <= net->sw[s]->nports; p++)
			tj.sw_of[net->pbase[s] + p] = (int)s;
	for (size_t i = 0; i < nid; i++) {
		tj.index[i] = -1;
		tj.comp[i] = -1;
	}
	for (size_t root = 0; root < nid && !rc; root++) {
		size_t rs = (size_t)tj.sw_of[root];
		unsigned rp = (unsigned)(root - net->pbase[rs]);
		size_t n;
		unsigned q;

		if (tj.index[root] >= 0 || !channel_end(net, rs, rp, &n, &q))
			continue;
		/* iterative Tarjan */
		tj.index[root] = tj.low[root] = tj.next_index++;
		tj.stack[tj.sp++] = root;
		tj.on[root] = true;
		tj.cs_node[0] = root;
		tj.cs_r[0] = 1;
		tj.csp = 1;
		while (tj.csp > 0) {
			size_t u = tj.cs_node[tj.csp - 1], w;
			size_t us = (size_t)tj.sw_of[u];
			unsigned *r = &tj.cs_r[tj.csp - 1];

			if (next_succ(g, us, (unsigned)(u - net->pbase[us]), r,
				      &w)) {
				if (tj.index[w] < 0) {
					tj.index[w] = tj.low[w] =
						tj.next_index++;
					tj.stack[tj.sp++] = w;
					tj.on[w] = true;
					tj.cs_node[tj.csp] = w;
					tj.cs_r[tj.csp++] = 1;
				} else if (tj.on[w] && tj.index[w] < tj.low[u]) {
					tj.low[u] = tj.index[w];
				}
				continue;
			}
			tj.csp--;
			if (tj.csp > 0) {
				size_t parent = tj.cs_node[tj.csp - 1];

				if (tj.low[u] < tj.low[parent])
					tj.low[parent] = tj.low[u];
			}
			if (tj.low[u] == tj.index[u]) {
				size_t size = 0, w2;
				int c = tj.ncomp++;

				do {
					w2 = tj.stack[--tj.sp];
					tj.on[w2] = false;
					tj.comp[w2] = c;
					size++;
				} while (w2 != u);
				if (size > 1) {
					(*count)++;
					rc = report_cycle(g, &tj, u, findings,
							  notes, nnotes, err);
					if (rc)
						break;
				}
			}
		}
	}

out_free:
	free(tj.sw_of);
	free(tj.cs_r);
	free(tj.cs_node);
	free(tj.stack);
	free(tj.on);
	free(tj.comp);
	free(tj.low);
	free(tj.index);
	return rc;
}
