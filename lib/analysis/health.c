/*
 * health.c - port health from PMA counters: error counters above their
 * thresholds in one snapshot, and their growth per hour between two.
 *
 * Counters saturate (they stop at their largest value, as hardware and
 * ibsim keep them) and can be reset by anyone with perfquery -R. Neither
 * is taken as a negative rate: a saturated counter grew at least up to
 * its ceiling; a reset one grew at least its value now.
 *
 * ibtopo_analyze() runs it as its "port health" section on one snapshot
 * (thresholds findings) when the fabric carries counters.
 */
#include "read/read-int.h"
#include "analysis/analysis-int.h"

#include <stdlib.h>
#include <string.h>

static void set_end(struct ibtopo_end *e, const struct ibtopo_port *p)
{
	if (p) {
		ibtopo_end_from_port(e, p);
	} else {
		e->node = NULL;
		e->guid = 0;
		e->port = -1;
	}
}

static int add_finding(struct ibtopo_findings *list,
		       const struct ibtopo_health_port *h,
		       enum ibtopo_finding_kind kind, enum ibtopo_severity sev,
		       int counter, const union ibtopo_finding_num *num,
		       const char *note, struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.severity = sev;
	set_end(&f.a, h->port);
	set_end(&f.b, h->port->remote);
	set_end(&f.c, NULL);
	set_end(&f.d, NULL);
	f.subkind = counter;
	f.num = *num;
	f.note = note;
	return ibtopo_findings_add(list, &f, err);
}

/* Growth and rates of one port against its earlier reading. */
void ibtopo__health_compare(struct ibtopo_health_port *h)
{
	const struct ibtopo_counters *a = h->before, *b = h->now;
	double ms;

	if (!a)
		return;
	ms = (double)(b->read_at_ms - a->read_at_ms);
	h->hours = ms > 0 ? ms / 3600000.0 : 0;
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		uint32_t bit = 1u << i;

		if (!(a->valid & b->valid & bit))
			continue;
		if (b->value[i] < a->value[i]) {
			h->reset |= bit;
			h->growth[i] = b->value[i];
		} else {
			h->growth[i] = b->value[i] - a->value[i];
		}
		if (h->hours > 0)
			h->rate[i] = (double)h->growth[i] / h->hours;
		if (ibtopo_counter_is_error(i))
			h->error_rate += h->rate[i];
	}
}

static int port_findings(struct ibtopo_findings *list,
			 const struct ibtopo_health_port *h,
			 const struct ibtopo__thresholds *t, struct ibtopo_error *err)
{
	int rc = 0;

	for (int i = 0; i <= IBTOPO_CTR_VL15_DROPPED && !rc; i++) {
		uint32_t bit = 1u << i;
		const char *note = NULL;
		union ibtopo_finding_num num;

		if (!(h->now->valid & bit))
			continue;
		if (h->saturated & bit)
			note = "saturated";
		if (h->now->value[i] > t->v[i]) {
			memset(&num, 0, sizeof(num));
			num.counter.count = (double)h->now->value[i];
			num.counter.threshold = (double)t->v[i];
			rc = add_finding(list, h, IBTOPO_FIND_PORT_ERRORS,
					 IBTOPO_SEV_WARNING, i, &num, note, err);
		}
		if (rc || !h->before || !(h->before->valid & bit) ||
		    !h->growth[i])
			continue;
		if (h->reset & bit)
			note = "reset";
		memset(&num, 0, sizeof(num));
		num.growth.growth = h->growth[i] > UINT32_MAX ?
					    UINT32_MAX :
					    (unsigned)h->growth[i];
		num.growth.rate_per_hour = h->rate[i];
		num.growth.interval_h = h->hours;
		rc = add_finding(list, h, i == IBTOPO_CTR_LINK_DOWNED ?
				 IBTOPO_FIND_LINK_FLAPPING :
				 IBTOPO_FIND_PORT_ERROR_RATE, IBTOPO_SEV_ERROR,
				 i, &num, note, err);
	}
	return rc;
}

static int cmp_worst(const void *x, const void *y)
{
	const struct ibtopo_health_port *a = x, *b = y;

	if (a->error_rate != b->error_rate)
		return a->error_rate > b->error_rate ? -1 : 1;
	if (a->errors != b->errors)
		return a->errors > b->errors ? -1 : 1;
	if (a->port->node->index != b->port->node->index)
		return a->port->node->index < b->port->node->index ? -1 : 1;
	return a->port->num < b->port->num ? -1 : a->port->num > b->port->num;
}

int ibtopo__health_run(struct ibtopo_health **out,
		       struct ibtopo_findings *findings,
		       const struct ibtopo_fabric *now,
		       const struct ibtopo_fabric *since,
		       const struct ibtopo__thresholds *t,
		       struct ibtopo_error *err)
{
	struct ibtopo_health *h;
	size_t nn, n = 0;
	int rc;

	if (!out || !now)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric");
	*out = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	h->since = since != NULL;
	h->fabric = now;
	nn = ibtopo_fabric_node_count(now);
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(now, i);

		for (unsigned k = 0; k <= node->nports; k++)
			if (node->ports[k] && node->ports[k]->counters)
				n++;
	}
	/* asked and not answered: not read, never a port of zeros */
	h->unread = ibtopo_fabric_counters_unread(now, NULL, 0);
	h->ports = calloc(n ? n : 1, sizeof(*h->ports));
	if (!h->ports) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(now, i);
		const struct ibtopo_node *old = since ?
			ibtopo_fabric_find_node(since, node->guid) : NULL;

		for (unsigned k = 0; k <= node->nports; k++) {
			const struct ibtopo_port *p = node->ports[k];
			struct ibtopo_health_port *x;

			if (!p || !p->counters ||
			    ibtopo_port_counters_unread(p))
				continue;
			x = &h->ports[h->count++];
			x->port = p;
			x->now = p->counters;
			if (old && k <= old->nports && old->ports[k])
				x->before = old->ports[k]->counters;
			for (int c = 0; c < IBTOPO_CTR_COUNT_; c++) {
				bool ext = x->now->extended & (1u << c);

				if (!(x->now->valid & (1u << c)))
					continue;
				if (ibtopo_counter_is_saturated(c, ext,
							x->now->value[c]))
					x->saturated |= 1u << c;
				if (ibtopo_counter_is_error(c))
					x->errors += x->now->value[c];
			}
			ibtopo__health_compare(x);
			ibtopo__health_port_rates(x);
		}
	}
	qsort(h->ports, h->count, sizeof(*h->ports), cmp_worst);
	for (size_t i = 0; findings && i < h->count; i++) {
		rc = port_findings(findings, &h->ports[i], t, err);
		if (rc)
			goto out_free;
	}
	rc = ibtopo__health_rates(h, findings, now, t, err);
	if (rc)
		goto out_free;
	*out = h;
	return 0;

out_free:
	ibtopo_health_free(h);
	return rc;
}

static void traffic_free(struct ibtopo_traffic *t)
{
	if (!t)
		return;
	free(t->links);
	free(t->levels);
	free(t);
}

void ibtopo_health_free(struct ibtopo_health *health)
{
	if (!health)
		return;
	traffic_free(health->traffic);
	free(health->links);
	free(health->congested);
	free(health->ports);
	free(health);
}

/* ---- traffic ---- */

/*
 * Bytes a port's counters say went from it (xmit) or came to it (rcv):
 * PortXmitData and PortRcvData count 4-byte words. False when the
 * counter was not read in both snapshots.
 */
static bool data_bytes(const struct ibtopo_health_port *x, int ctr,
		       uint64_t *bytes, bool *saturated)
{
	uint32_t bit = 1u << ctr;

	if (!x || !x->before || !(x->now->valid & x->before->valid & bit))
		return false;
	*bytes = x->growth[ctr] > UINT64_MAX / 4 ? UINT64_MAX :
		 x->growth[ctr] * 4;
	if (x->saturated & bit)
		*saturated = true;
	return true;
}

/* One direction: the sender's xmit, else the receiver's rcv. */
static bool direction(const struct ibtopo_health_port *from,
		      const struct ibtopo_health_port *to, uint64_t *bytes,
		      bool *saturated)
{
	return data_bytes(from, IBTOPO_CTR_XMIT_DATA, bytes, saturated) ||
	       data_bytes(to, IBTOPO_CTR_RCV_DATA, bytes, saturated);
}

static unsigned link_level(const struct ibtopo_link *l,
			   const struct ibtopo_topology *topo)
{
	int la, lb;

	if (l->a->node->type != IBTOPO_NODE_SWITCH ||
	    l->b->node->type != IBTOPO_NODE_SWITCH)
		return 0;
	if (!topo)
		return 1;
	la = ibtopo_topology_node_level(topo, l->a->node);
	lb = ibtopo_topology_node_level(topo, l->b->node);
	if (la <= 0 || lb <= 0)
		return (unsigned)(la > lb ? la : lb);
	return (unsigned)(la < lb ? la : lb);
}

static int cmp_busiest(const void *x, const void *y)
{
	const struct ibtopo_traffic_link *a = x, *b = y;
	uint64_t ta = a->bytes_ab / 2 + a->bytes_ba / 2;
	uint64_t tb = b->bytes_ab / 2 + b->bytes_ba / 2;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	return a->link->index < b->link->index ? -1 :
	       a->link->index > b->link->index;
}

int ibtopo_health_traffic(struct ibtopo_health *health,
			  const struct ibtopo_fabric *now,
			  const struct ibtopo_topology *topo, size_t top,
			  struct ibtopo_error *err)
{
	size_t nl = now ? ibtopo_fabric_link_count(now) : 0;
	const struct ibtopo_health_port **end = NULL;
	struct ibtopo_traffic *t;
	unsigned maxlevel = 0;
	int rc = 0;

	if (!health || !now)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no health or fabric");
	t = calloc(1, sizeof(*t));
	end = calloc(2 * (nl ? nl : 1), sizeof(*end));
	if (t)
		t->links = calloc(nl ? nl : 1, sizeof(*t->links));
	if (!t || !end || !t->links)
		goto out_nomem;
	t->top = top ? top : 10;
	for (size_t i = 0; topo && i < health->count; i++)
		ibtopo__health_port_direction(&health->ports[i], topo);
	/* each link's two ends among the ports with counters */
	for (size_t i = 0; i < health->count; i++) {
		const struct ibtopo_port *p = health->ports[i].port;

		if (p->link && p->link->index < nl)
			end[2 * p->link->index + (p == p->link->b)] =
				&health->ports[i];
	}
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(now, i);
		const struct ibtopo_health_port *a = end[2 * i];
		const struct ibtopo_health_port *b = end[2 * i + 1];
		struct ibtopo_traffic_link *x = &t->links[t->count];
		bool ab, ba;
		double s;

		memset(x, 0, sizeof(*x));
		ab = direction(a, b, &x->bytes_ab, &x->saturated);
		ba = direction(b, a, &x->bytes_ba, &x->saturated);
		if (!ab && !ba)
			continue;
		x->link = l;
		x->hours = a && a->before ? a->hours : b->hours;
		x->level = link_level(l, topo);
		x->capacity_gbps = ibtopo_link_gbps(l->speed, l->width);
		s = x->hours * 3600;
		if (s > 0) {
			x->gbps_ab = (double)x->bytes_ab * 8 / s / 1e9;
			x->gbps_ba = (double)x->bytes_ba * 8 / s / 1e9;
		}
		if (x->capacity_gbps > 0)
			x->utilisation = (x->gbps_ab > x->gbps_ba ?
					  x->gbps_ab : x->gbps_ba) /
					 x->capacity_gbps;
		if (x->level > maxlevel)
			maxlevel = x->level;
		t->count++;
	}
	qsort(t->links, t->count, sizeof(*t->links), cmp_busiest);
	t->levels = calloc(maxlevel + 1, sizeof(*t->levels));
	if (!t->levels)
		goto out_nomem;
	t->nlevels = maxlevel + 1;
	for (unsigned k = 0; k <= maxlevel; k++)
		t->levels[k].level = k;
	for (size_t i = 0; i < t->count; i++) {
		const struct ibtopo_traffic_link *x = &t->links[i];
		struct ibtopo_traffic_level *v = &t->levels[x->level];
		uint64_t both = x->bytes_ab > UINT64_MAX - x->bytes_ba ?
				UINT64_MAX : x->bytes_ab + x->bytes_ba;

		v->links++;
		v->bytes = both > UINT64_MAX - v->bytes ? UINT64_MAX :
			   v->bytes + both;
		v->capacity_bytes += 2 * x->capacity_gbps * 1e9 / 8 *
				     x->hours * 3600;
	}
	for (size_t k = 0; k < t->nlevels; k++)
		if (t->levels[k].capacity_bytes > 0)
			t->levels[k].utilisation = (double)t->levels[k].bytes /
						   t->levels[k].capacity_bytes;
	traffic_free(health->traffic);
	health->traffic = t;
	t = NULL;
	goto out_free;

out_nomem:
	rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
out_free:
	traffic_free(t);
	free(end);
	return rc;
}

static bool same_end(const struct ibtopo_end *x, const struct ibtopo_end *y)
{
	return x->guid && x->guid == y->guid && x->port == y->port;
}

/* Does finding f name the cable of finding c (either way round)? */
static bool same_cable(const struct ibtopo_finding *f,
		       const struct ibtopo_finding *c)
{
	return (same_end(&f->a, &c->a) && same_end(&f->b, &c->b)) ||
	       (same_end(&f->a, &c->b) && same_end(&f->b, &c->a));
}

/* The cable data the fabric has for the link whose end is e, or NULL. */
static const struct ibtopo_cable *cable_at(const struct ibtopo_fabric *fabric,
					   const struct ibtopo_end *e)
{
	const struct ibtopo_node *node = ibtopo_fabric_find_node(fabric,
								 e->guid);
	const struct ibtopo_port *port;

	if (!node || e->port < 0)
		return NULL;
	port = ibtopo_node_port(node, (unsigned)e->port);
	return port && port->link ? port->link->cable : NULL;
}

/* The cable check's numbers, then what the fabric knows besides. */
static void cable_evidence(struct ibtopo_cable_evidence *ev,
			   const struct ibtopo_finding *c,
			   const struct ibtopo_fabric *fabric)
{
	const struct ibtopo_cable *cable = cable_at(fabric, &c->a);

	memset(ev, 0, sizeof(*ev));
	ev->check = c->kind;
	if (c->kind == IBTOPO_FIND_CABLE_OVER_LENGTH) {
		ev->media = (enum ibtopo_media)c->subkind;
		ev->length_m = c->num.reach.length_m;
		ev->reach_m = c->num.reach.reach_m;
	} else {
		ev->rated_speed = c->num.rating.rated_speed;
		ev->ports_speed = c->num.rating.ports_speed;
	}
	if (!cable)
		return;
	if (ev->media == IBTOPO_MEDIA_UNKNOWN)
		ev->media = cable->media;
	if (ev->length_m <= 0)
		ev->length_m = cable->length_m;
	if (!ev->rated_speed)
		ev->rated_speed = cable->rated_speed;
}

/* A port-errors finding f of the cable of m as an evidence counter,
 * kept highest count first. */
static void add_counter(struct ibtopo_cable_evidence *ev,
			const struct ibtopo_finding *m,
			const struct ibtopo_finding *f)
{
	struct ibtopo_evidence_counter x = {
		.end = same_end(&f->a, &m->a) ? 0 : 1,
		.counter = (enum ibtopo_counter)f->subkind,
		.count = (uint64_t)f->num.counter.count,
		.threshold = (uint64_t)f->num.counter.threshold,
		.saturated = f->note != NULL,
	};
	size_t i;

	if (ev->ncounters == IBTOPO_EVIDENCE_COUNTERS_MAX)
		return;
	for (i = ev->ncounters; i > 0 && ev->counters[i - 1].count < x.count;
	     i--)
		ev->counters[i] = ev->counters[i - 1];
	ev->counters[i] = x;
	ev->ncounters++;
}

/*
 * A cable the cable checks found over length or under-rated, whose ports
 * also have errors above their thresholds, is one finding with both
 * causes (failing-cable): the cable finding becomes it, its evidence
 * (f->cable) the cable check's numbers and every error counter above its
 * threshold on the cable's two ports; a, b, counter, count and threshold
 * are those of the highest count, and the port-errors findings of that
 * cable go. The merge lives here, after the checks in ibtopo_analyze():
 * health alone has no cable data to consult, and the checks have no
 * counters.
 */
static void merge_cables(struct ibtopo_findings *list, size_t first,
			 const struct ibtopo_fabric *fabric)
{
	struct ibtopo_cable_evidence *ev;
	bool *gone;
	size_t k = 0;

	if (first >= list->count)
		return;
	gone = calloc(list->count, sizeof(*gone));
	ev = malloc(sizeof(*ev));
	if (!gone || !ev)
		goto out_free;	/* unmerged findings are still true */
	for (size_t i = 0; i < first; i++) {
		struct ibtopo_finding *c = &list->items[i];
		const struct ibtopo_finding *best = NULL;
		struct ibtopo_finding m;

		if (c->kind != IBTOPO_FIND_CABLE_OVER_LENGTH &&
		    c->kind != IBTOPO_FIND_CABLE_UNDERRATED)
			continue;
		for (size_t j = first; j < list->count; j++) {
			const struct ibtopo_finding *f = &list->items[j];

			if (f->kind == IBTOPO_FIND_PORT_ERRORS && !gone[j] &&
			    same_cable(f, c) &&
			    (!best || f->num.counter.count > best->num.counter.count))
				best = f;
		}
		if (!best)
			continue;
		m = *best;
		m.kind = IBTOPO_FIND_FAILING_CABLE;
		m.severity = c->severity > best->severity ? c->severity :
			     best->severity;
		if (m.severity < IBTOPO_SEV_ERROR)
			m.severity = IBTOPO_SEV_ERROR;
		m.cause = IBTOPO_CAUSE_CABLE;
		cable_evidence(ev, c, fabric);
		for (size_t j = first; j < list->count; j++)
			if (list->items[j].kind == IBTOPO_FIND_PORT_ERRORS &&
			    !gone[j] && same_cable(&list->items[j], c))
				add_counter(ev, &m, &list->items[j]);
		m.num.counter.more_counters = (unsigned)ev->ncounters - 1;
		m.cable = malloc(sizeof(*m.cable));
		if (!m.cable)
			continue;	/* the two findings stay */
		*m.cable = *ev;
		for (size_t j = first; j < list->count; j++)
			if (list->items[j].kind == IBTOPO_FIND_PORT_ERRORS &&
			    same_cable(&list->items[j], c))
				gone[j] = true;	/* in ev, or past its end */
		*c = m;
	}
	for (size_t i = 0; i < list->count; i++)
		if (!gone[i])
			list->items[k++] = list->items[i];
	list->count = k;
out_free:
	free(ev);
	free(gone);
}

/*
 * ibtopo_analyze()'s section: counters above the thresholds (the site's
 * file in the analyze options as io read it, else 0),
 * merged with the cable checks' findings of the same cables.
 */
static int run_health(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		      struct ibtopo_error *err)
{
	struct ibtopo_health *h = NULL;
	int rc;

	rc = ibtopo__health_run(&h, found, an->fabric, an->opts.since,
				&an->inputs.thresholds, err);
	if (!rc && h && !h->count) {
		/* no port carries counters: no section */
		ibtopo_health_free(h);
		return 0;
	}
	if (!rc && an->opts.since) {
		/* the traffic per level reads the levels */
		rc = ibtopo__analysis_need(an, IBTOPO__SECTION_TOPOLOGY, err);
		if (!rc)
			rc = ibtopo_health_traffic(h, an->fabric, an->topology,
						   an->opts.traffic_top, err);
	}
	if (rc) {
		ibtopo_health_free(h);
		return rc;
	}
	an->health = h;
	return 0;
}

static void health_summary(char *buf, size_t len,
			   const struct ibtopo_analysis *an)
{
	snprintf(buf, len, "%zu ports with counters%s, %zu findings",
		 an->health ? an->health->count : 0,
		 an->opts.since ? " against an earlier snapshot" : "",
		 an->slots[IBTOPO__SECTION_HEALTH].findings.count);
}

static void collect_health(struct ibtopo_findings *all, size_t first,
			   const struct ibtopo_analysis *an)
{
	merge_cables(all, first, an->fabric);
}

static void release_health(struct ibtopo_analysis *an)
{
	ibtopo_health_free(an->health);
	an->health = NULL;
}

const struct ibtopo__analysis ibtopo__analysis_health = {
	.name = "port health",
	.skip = IBTOPO_ANALYZE_NO_HEALTH,
	.inputs = IBTOPO__INPUT_THRESHOLDS,
	.run = run_health,
	.summary = health_summary,
	.collect = collect_health,
	.release = release_health,
};

/* The public entry point: the thresholds read, then port health. */
int ibtopo_health_analyze(struct ibtopo_health **out,
			  struct ibtopo_findings *findings,
			  const struct ibtopo_fabric *now,
			  const struct ibtopo_fabric *since,
			  const struct ibtopo_health_opts *opts,
			  struct ibtopo_error *err)
{
	struct ibtopo__inputs in = { 0 };
	int rc;

	if (!out || !now)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric");
	*out = NULL;
	rc = ibtopo__inputs_thresholds(&in, opts, NULL, err);
	if (!rc)
		rc = ibtopo__health_run(out, findings, now, since,
					&in.thresholds, err);
	ibtopo__inputs_release(&in);
	return rc;
}

IBTOPO__ACCESSOR(ibtopo_analysis_health, HEALTH, const struct ibtopo_health,
		 an->health)
