/*
 * job.c - what a job's placement gets from the fabric: its hosts found
 * (CAs by host name) and missing, the leaves they hang off, the lowest
 * level with one switch above all of them, and with forwarding tables
 * its all-to-all traced pair by pair: the switch out-ports crossed, the
 * most routes on one against what its group could carry at best, the
 * spines and the hops.
 */
#include "analysis/analysis-int.h"
#include "analysis/routes-int.h"
#include "analysis/topology-result.h"

#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int node_cmp(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;

	return (a->index > b->index) - (a->index < b->index);
}

/* The switch a CA port is cabled to, or NULL. */
static const struct ibtopo_node *leaf_of(const struct ibtopo_port *p)
{
	if (!p || !p->remote || p->remote->node->type != IBTOPO_NODE_SWITCH)
		return NULL;
	return p->remote->node;
}

/* The job's CA ports and leaves; found[] per sorted name. */
static int match_hosts(struct ibtopo_job *j, const char **sorted, size_t n,
		       bool *found, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = j->fabric;
	size_t nn = ibtopo_fabric_node_count(f);
	bool *leaf = calloc(nn + 1, sizeof(*leaf));
	char name[IBTOPO_NODE_NAME_MAX];

	j->ports = calloc(nn * 2 + 1, sizeof(*j->ports));
	j->leaves = calloc(nn + 1, sizeof(*j->leaves));
	if (!leaf || !j->ports || !j->leaves) {
		free(leaf);
		return nomem(err);
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *ca = ibtopo_fabric_node(f, i);
		const char *key = name, **hit;

		if (ca->type != IBTOPO_NODE_CA)
			continue;
		ibtopo_node_name(name, sizeof(name), ca);
		hit = bsearch(&key, sorted, n, sizeof(*sorted), str_cmp);
		if (!hit)
			continue;
		found[hit - sorted] = true;
		for (unsigned p = 1; p <= ca->nports; p++) {
			const struct ibtopo_node *sw = leaf_of(ca->ports[p]);

			if (!sw)
				continue;
			if (j->nports < nn * 2)
				j->ports[j->nports++] = ca->ports[p];
			if (!leaf[sw->index])
				j->leaves[j->nleaves++] = sw;
			leaf[sw->index] = true;
		}
	}
	free(leaf);
	if (j->nleaves > 1)
		qsort(j->leaves, j->nleaves, sizeof(*j->leaves), node_cmp);
	return 0;
}

/* The lowest switch above every leaf: an upward walk from each leaf,
 * counting the leaves that reach each switch. */
static int common_level(struct ibtopo_job *j, const struct ibtopo_topology *t,
			struct ibtopo_error *err)
{
	size_t *count = calloc(t->nsw + 1, sizeof(*count));
	size_t *seen = calloc(t->nsw + 1, sizeof(*seen));
	size_t *queue = calloc(t->nsw + 1, sizeof(*queue));
	size_t best = IBTOPO__NONE;

	if (!count || !seen || !queue) {
		free(count);
		free(seen);
		free(queue);
		return nomem(err);
	}
	for (size_t l = 0; l < j->nleaves; l++) {
		size_t head = 0, tail = 0, s = t->node2sw[j->leaves[l]->index];

		if (s == IBTOPO__NONE)
			continue;
		queue[tail++] = s;
		seen[s] = l + 1;
		while (head < tail) {
			size_t u = queue[head++];

			count[u]++;
			for (size_t k = t->off[u]; k < t->off[u + 1]; k++) {
				size_t v = t->adj[k].v;

				if (seen[v] != l + 1 &&
				    t->sw[v].level > t->sw[u].level) {
					seen[v] = l + 1;
					queue[tail++] = v;
				}
			}
		}
	}
	for (size_t s = 0; j->nleaves && s < t->nsw; s++)
		if (count[s] == j->nleaves && t->sw[s].level > 0 &&
		    (best == IBTOPO__NONE ||
		     t->sw[s].level < t->sw[best].level))
			best = s;
	if (best != IBTOPO__NONE) {
		j->common_level = (unsigned)t->sw[best].level;
		j->common = t->sw[best].node;
	}
	free(count);
	free(seen);
	free(queue);
	return 0;
}

/* ---- the routes ---- */

struct trace {
	const struct ibtopo__rnet *net;
	size_t *routes; /* per port id */
	bool *spine;	/* per switch */
	unsigned long long hops_sum;
};

/* One route from the CA port `src` to destination d. */
static void trace_one(struct ibtopo_job *j, struct trace *tr,
		      const struct ibtopo_port *src,
		      const struct ibtopo__rdest *d)
{
	const struct ibtopo__rnet *net = tr->net;
	const struct ibtopo_node *sw = leaf_of(src);
	int s = sw ? net->swid[sw->index] : -1;
	unsigned hops = 1; /* links, as routes counts them: the CA's first */

	while (s >= 0 && hops <= net->nsw + 1) {
		enum ibtopo_route_hole hole;
		enum ibtopo__rstep st;
		int next = -1, port = -1;

		st = ibtopo__route_step(net, (size_t)s, d,
					ibtopo__route_entry(net, (size_t)s,
							    d->lid),
					&next, &port, &hole);
		if (st == IBTOPO__STEP_HOLE)
			break;
		hops++;
		tr->routes[net->pbase[s] + (size_t)port]++;
		if (net->level[s] > 1)
			tr->spine[s] = true;
		if (st == IBTOPO__STEP_DELIVERED) {
			j->pairs++;
			tr->hops_sum += hops;
			if (!j->hops_min || hops < j->hops_min)
				j->hops_min = hops;
			if (hops > j->hops_max)
				j->hops_max = hops;
			return;
		}
		s = next;
	}
	j->unrouted++;
}

static int link_cmp(const void *x, const void *y)
{
	const struct ibtopo_job_link *a = x, *b = y;

	if (a->routes != b->routes)
		return a->routes < b->routes ? 1 : -1;
	if (a->port->node->index != b->port->node->index)
		return a->port->node->index < b->port->node->index ? -1 : 1;
	return (a->port->num > b->port->num) - (a->port->num < b->port->num);
}

/* Whether port p of switch s leads to a higher level. */
static bool port_up(const struct ibtopo__rnet *net, size_t s, unsigned p)
{
	int v = net->nbr[net->pbase[s] + p];

	return v >= 0 && net->level[v] > net->level[s];
}

/* The routes of port p's group: up ports, or ports to the same node. */
static size_t ideal(const struct ibtopo__rnet *net, const size_t *routes,
		    size_t s, unsigned p)
{
	const struct ibtopo_node *n = net->sw[s];
	const struct ibtopo_port *me = n->ports[p];
	bool up = port_up(net, s, p);
	size_t sum = 0, ports = 0;

	for (unsigned q = 1; q <= n->nports; q++) {
		const struct ibtopo_port *o = n->ports[q];

		if (!o || !o->remote ||
		    (up ? !port_up(net, s, q) :
			  port_up(net, s, q) ||
				     o->remote->node != me->remote->node))
			continue;
		sum += routes[net->pbase[s] + q];
		ports++;
	}
	return ports ? (sum + ports - 1) / ports : 0;
}

static int collect(struct ibtopo_job *j, const struct trace *tr,
		   struct ibtopo_error *err)
{
	const struct ibtopo__rnet *net = tr->net;

	j->links = calloc(net->nport_ids + 1, sizeof(*j->links));
	j->spines = calloc(net->nsw + 1, sizeof(*j->spines));
	if (!j->links || !j->spines)
		return nomem(err);
	for (size_t s = 0; s < net->nsw; s++) {
		if (tr->spine[s])
			j->spines[j->nspines++] = net->sw[s];
		for (unsigned p = 1; p <= net->sw[s]->nports; p++) {
			size_t r = tr->routes[net->pbase[s] + p];
			struct ibtopo_job_link *l;

			if (!r || !net->sw[s]->ports[p])
				continue;
			l = &j->links[j->nlinks++];
			l->port = net->sw[s]->ports[p];
			l->routes = r;
			l->ideal = ideal(net, tr->routes, s, p);
			l->up = port_up(net, s, p);
		}
	}
	if (j->nlinks > 1)
		qsort(j->links, j->nlinks, sizeof(*j->links), link_cmp);
	if (j->pairs)
		j->hops_mean = (double)tr->hops_sum / (double)j->pairs;
	return 0;
}

static int job_routes(struct ibtopo_job *j, const struct ibtopo_topology *t,
		      struct ibtopo_error *err)
{
	struct ibtopo__rnet net = { 0 };
	struct trace tr = { &net, NULL, NULL, 0 };
	bool *mine = NULL;
	int rc;

	if (!ibtopo_fabric_has_routes(j->fabric))
		return 0;
	rc = ibtopo__rnet_build(&net, j->fabric, t, err);
	if (rc)
		goto out_release;
	tr.routes = calloc(net.nport_ids + 1, sizeof(*tr.routes));
	tr.spine = calloc(net.nsw + 1, sizeof(*tr.spine));
	mine = calloc(ibtopo_fabric_node_count(j->fabric) * 256 + 1,
		      sizeof(*mine));
	if (!tr.routes || !tr.spine || !mine) {
		rc = nomem(err);
		goto out_release;
	}
	j->routes = true;
	for (size_t i = 0; i < j->nports; i++)
		mine[j->ports[i]->node->index * 256 + j->ports[i]->num] = true;
	for (size_t i = 0; i < net.ndest; i++) {
		const struct ibtopo__rdest *d = &net.dest[i];

		if (!d->ca || !d->base ||
		    !mine[d->port->node->index * 256 + d->port->num])
			continue;
		for (size_t k = 0; k < j->nports; k++)
			if (j->ports[k] != d->port)
				trace_one(j, &tr, j->ports[k], d);
	}
	rc = collect(j, &tr, err);
out_release:
	free(mine);
	free(tr.routes);
	free(tr.spine);
	ibtopo__rnet_release(&net);
	return rc;
}

static int missing(struct ibtopo_job *j, const char **sorted, size_t n,
		   const bool *found, struct ibtopo_error *err)
{
	j->missing = calloc(n + 1, sizeof(*j->missing));
	if (!j->missing)
		return nomem(err);
	for (size_t i = 0; i < n; i++) {
		if (found[i]) {
			j->nfound++;
			continue;
		}
		j->missing[j->nmissing] = strdup(sorted[i]);
		if (!j->missing[j->nmissing])
			return nomem(err);
		j->nmissing++;
	}
	return 0;
}

/* Whether a finding's end is one of the job's ports or links. */
static bool end_is_mine(const struct ibtopo_job *j, const struct ibtopo_end *e)
{
	for (size_t i = 0; e->guid && e->port >= 0 && i < j->nports; i++) {
		const struct ibtopo_port *p = j->ports[i];

		if ((p->node->guid == e->guid && (int)p->num == e->port) ||
		    (p->remote && p->remote->node->guid == e->guid &&
		     (int)p->remote->num == e->port))
			return true;
	}
	for (size_t i = 0; e->guid && e->port >= 0 && i < j->nlinks; i++) {
		const struct ibtopo_port *p = j->links[i].port;

		if ((p->node->guid == e->guid && (int)p->num == e->port) ||
		    (p->remote && p->remote->node->guid == e->guid &&
		     (int)p->remote->num == e->port))
			return true;
	}
	return false;
}

/* The port health findings on the job's cables and links. */
static int job_health(struct ibtopo_job *j, struct ibtopo_analysis *an,
		      struct ibtopo_error *err)
{
	const struct ibtopo_findings *all;
	const struct ibtopo_health *h;
	int rc;

	rc = ibtopo_analysis_health(an, &h, err);
	if (rc || !h)
		return rc;
	rc = ibtopo_analysis_section_findings(an, IBTOPO_SECTION_HEALTH, &all,
					      err);
	j->counters = true;
	for (size_t i = 0; !rc && all && i < all->count; i++)
		if (end_is_mine(j, &all->items[i].a) ||
		    end_is_mine(j, &all->items[i].b))
			rc = ibtopo_findings_add(&j->health, &all->items[i],
						 err);
	return rc;
}

int ibtopo_job_run(struct ibtopo_job **out, struct ibtopo_analysis *analysis,
		   const char *const *names, size_t count,
		   struct ibtopo_error *err)
{
	const struct ibtopo_topology *t = NULL;
	const char **sorted = NULL;
	struct ibtopo_job *j;
	size_t nuniq = 0;
	bool *found = NULL;
	int rc;

	if (!out || !analysis || !names || !count)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no hosts");
	*out = NULL;
	j = calloc(1, sizeof(*j));
	sorted = calloc(count, sizeof(*sorted));
	found = calloc(count, sizeof(*found));
	if (!j || !sorted || !found) {
		rc = nomem(err);
		goto out_free;
	}
	j->fabric = analysis->fabric;
	memcpy(sorted, names, count * sizeof(*sorted));
	qsort(sorted, count, sizeof(*sorted), str_cmp);
	for (size_t i = 0; i < count; i++) /* each name once */
		if (!nuniq || strcmp(sorted[i], sorted[nuniq - 1]))
			sorted[nuniq++] = sorted[i];
	j->nhosts = nuniq;
	rc = ibtopo_analysis_topology(analysis, &t, err);
	if (!rc && !t)
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
				       "job needs the topology analysis");
	if (!rc)
		rc = match_hosts(j, sorted, nuniq, found, err);
	if (!rc)
		rc = missing(j, sorted, nuniq, found, err);
	if (!rc)
		rc = common_level(j, t, err);
	if (!rc)
		rc = job_routes(j, t, err);
	if (!rc)
		rc = job_health(j, analysis, err);
out_free:
	free(sorted);
	free(found);
	if (rc) {
		ibtopo_job_free(j);
		return rc;
	}
	*out = j;
	return 0;
}

void ibtopo_job_free(struct ibtopo_job *job)
{
	if (!job)
		return;
	for (size_t i = 0; i < job->nmissing; i++)
		free(job->missing[i]);
	free(job->missing);
	free(job->ports);
	free(job->leaves);
	free(job->spines);
	free(job->links);
	ibtopo_findings_release(&job->health);
	free(job);
}
