/*
 * health_ber.c - bit error rates and congestion between two readings.
 *
 * BER: a port's SymbolErrorCounter counts the symbols it received in
 * error, so the growth over the interval divided by the bits it could
 * receive (seconds x active lanes x the lane's signalling rate) is the
 * BER of that direction; a link's BER is the worse direction. Without
 * growth the BER is only known to be below 1 / those bits, never 0.
 *
 * Congestion: ibdiagnet ("Congestion Assessment on InfiniBand Links",
 * ibdiagnet user manual 2.13) turns PortXmitWait into lost bytes: on
 * Quantum switches the counter ticks once per 8 bytes the port could
 * have sent (tick + 1 = 8). Those bytes against the link's capacity over
 * the interval are the share of its bandwidth lost to waiting; against
 * the bytes it sent (PortXmitData x 4), the ratio of waiting to data.
 */
#include "read/read-int.h"
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

/* ibdiagnet: Quantum counts XmitWait every 8 bytes (tick 7) */
#define WAIT_BYTES_PER_TICK 8.0

double ibtopo_health_lane_gbps(unsigned speed)
{
	/* signalling (line) rates per lane, before 8b/10b (SDR-QDR),
	 * 64b/66b (FDR10-EDR) or PAM4 with FEC (HDR, NDR, XDR) */
	static const struct {
		unsigned bit;
		double gbps;
	} rates[] = {
		{ IBTOPO_SPEED_SDR, 2.5 },     { IBTOPO_SPEED_DDR, 5.0 },
		{ IBTOPO_SPEED_QDR, 10.0 },    { IBTOPO_SPEED_FDR10, 10.3125 },
		{ IBTOPO_SPEED_FDR, 14.0625 }, { IBTOPO_SPEED_EDR, 25.78125 },
		{ IBTOPO_SPEED_HDR, 53.125 },  { IBTOPO_SPEED_NDR, 106.25 },
		{ IBTOPO_SPEED_XDR, 212.5 },
	};

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i].bit == speed)
			return rates[i].gbps;
	return 0;
}

static unsigned port_speed(const struct ibtopo_port *p)
{
	if (p->speed_active)
		return p->speed_active;
	return p->link ? p->link->speed : 0;
}

static unsigned port_width(const struct ibtopo_port *p)
{
	if (p->width_active)
		return p->width_active;
	return p->link ? p->link->width : 0;
}

static unsigned speed_index(unsigned bit)
{
	unsigned i = 0;

	while (bit > 1) {
		bit >>= 1;
		i++;
	}
	return i < IBTOPO__SPEED_BITS ? i : IBTOPO__SPEED_BITS - 1;
}

void ibtopo__health_port_rates(struct ibtopo_health_port *x)
{
	ibtopo__health_rates_at(x, port_speed(x->port), port_width(x->port));
}

void ibtopo__health_rates_at(struct ibtopo_health_port *x, unsigned speed,
			     unsigned width)
{
	const uint32_t sym = 1u << IBTOPO_CTR_SYMBOL_ERRORS;
	const uint32_t wait = 1u << IBTOPO_CTR_XMIT_WAIT;
	const uint32_t data = 1u << IBTOPO_CTR_XMIT_DATA;
	double s = x->hours * 3600, bits;

	x->level = -1;
	x->lanes = ibtopo_width_lanes(width);
	x->lane_gbps = ibtopo_health_lane_gbps(speed);
	if (!x->before || s <= 0)
		return;
	bits = s * x->lanes * x->lane_gbps * 1e9;
	if (bits > 0 && (x->now->valid & x->before->valid & sym)) {
		if (x->growth[IBTOPO_CTR_SYMBOL_ERRORS])
			x->ber = (double)x->growth[IBTOPO_CTR_SYMBOL_ERRORS] /
				 bits;
		else
			x->ber_bound = 1 / bits;
	}
	if (x->now->valid & x->before->valid & wait) {
		double lost = (double)x->growth[IBTOPO_CTR_XMIT_WAIT] *
			      WAIT_BYTES_PER_TICK;
		double cap = ibtopo_link_gbps(speed, width) * 1e9 / 8 * s;

		x->wait_valid = true;
		x->wait_per_s = (double)x->growth[IBTOPO_CTR_XMIT_WAIT] / s;
		if (cap > 0)
			x->wait_share = lost / cap;
		if ((x->now->valid & x->before->valid & data) &&
		    x->growth[IBTOPO_CTR_XMIT_DATA])
			x->wait_ratio =
				lost /
				((double)x->growth[IBTOPO_CTR_XMIT_DATA] * 4);
	}
}

static int add(struct ibtopo_findings *list, enum ibtopo_finding_kind kind,
	       const struct ibtopo_port *p, double measure, double threshold,
	       uint64_t count, double seconds, int subkind,
	       struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	double ms = seconds * 1000 + 0.5;

	ibtopo__finding_init(&f, kind);
	ibtopo_end_from_port(&f.a, p);
	if (p->remote)
		ibtopo_end_from_port(&f.b, p->remote);
	f.num.measure.measure = measure;
	f.num.measure.threshold = threshold;
	f.num.measure.count = count > UINT32_MAX ? UINT32_MAX : (unsigned)count;
	f.num.measure.interval_ms = ms > UINT32_MAX ? UINT32_MAX : (unsigned)ms;
	f.subkind = subkind;
	return ibtopo_findings_add(list, &f, err);
}

/* worst BER first, then the lowest bound (the longest look), index */
static int cmp_ber(const void *x, const void *y)
{
	const struct ibtopo_health_link *a = x, *b = y;

	if (a->ber != b->ber)
		return a->ber > b->ber ? -1 : 1;
	if (a->ber_bound != b->ber_bound)
		return a->ber_bound < b->ber_bound ? -1 : 1;
	return a->link->index < b->link->index ?
		       -1 :
		       a->link->index > b->link->index;
}

static int cmp_wait(const void *x, const void *y)
{
	const struct ibtopo_health_port *a = *(const void *const *)x;
	const struct ibtopo_health_port *b = *(const void *const *)y;

	if (a->wait_per_s != b->wait_per_s)
		return a->wait_per_s > b->wait_per_s ? -1 : 1;
	if (a->port->node->index != b->port->node->index)
		return a->port->node->index < b->port->node->index ? -1 : 1;
	return a->port->num < b->port->num ? -1 : a->port->num > b->port->num;
}

/* One link from its ends' readings (either may be NULL, not both). */
static bool link_ber(struct ibtopo_health_link *l,
		     const struct ibtopo_health_port *a,
		     const struct ibtopo_health_port *b,
		     const struct ibtopo__thresholds *t)
{
	const struct ibtopo_health_port *w = a;

	if (!a ||
	    (b && (b->ber > a->ber || (b->ber == a->ber && !a->ber_bound))))
		w = b;
	if (!w->ber && !w->ber_bound)
		return false;
	l->link = w->port->link;
	l->worst = w;
	l->other = w == a ? b : a;
	l->seconds = w->hours * 3600;
	l->ber = w->ber;
	if (!w->ber)
		l->ber_bound = w->ber_bound;
	l->threshold = t->ber[speed_index(port_speed(w->port))];
	for (int k = 0; k < 2; k++) {
		const struct ibtopo_health_port *e = k ? b : a;

		if (e && e->before)
			l->symbol_errors += e->growth[IBTOPO_CTR_SYMBOL_ERRORS];
	}
	return true;
}

int ibtopo__health_rates(struct ibtopo_health *h,
			 struct ibtopo_findings *findings,
			 const struct ibtopo_fabric *now,
			 const struct ibtopo__thresholds *t,
			 struct ibtopo_error *err)
{
	size_t nl = ibtopo_fabric_link_count(now);
	const struct ibtopo_health_port **end;
	int rc = 0;

	h->wait_threshold = t->xmit_wait_share;
	if (!h->since)
		return 0;
	end = calloc(2 * (nl ? nl : 1), sizeof(*end));
	h->links = calloc(nl ? nl : 1, sizeof(*h->links));
	h->congested = calloc(h->count ? h->count : 1, sizeof(*h->congested));
	if (!end || !h->links || !h->congested) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < h->count; i++) {
		const struct ibtopo_health_port *x = &h->ports[i];
		const struct ibtopo_port *p = x->port;

		if (p->link && p->link->index < nl)
			end[2 * p->link->index + (p == p->link->b)] = x;
		if (x->wait_valid && x->wait_per_s > 0)
			h->congested[h->ncongested++] = x;
	}
	for (size_t i = 0; i < nl; i++)
		if ((end[2 * i] || end[2 * i + 1]) &&
		    link_ber(&h->links[h->nlinks], end[2 * i], end[2 * i + 1],
			     t))
			h->nlinks++;
	qsort(h->links, h->nlinks, sizeof(*h->links), cmp_ber);
	qsort(h->congested, h->ncongested, sizeof(*h->congested), cmp_wait);
	for (size_t i = 0; findings && !rc && i < h->nlinks; i++) {
		const struct ibtopo_health_link *l = &h->links[i];

		if (l->ber > l->threshold)
			rc = add(findings, IBTOPO_FIND_HIGH_BER, l->worst->port,
				 l->ber, l->threshold,
				 l->worst->growth[IBTOPO_CTR_SYMBOL_ERRORS],
				 l->seconds, (int)port_speed(l->worst->port),
				 err);
	}
	for (size_t i = 0; findings && !rc && i < h->ncongested; i++) {
		const struct ibtopo_health_port *x = h->congested[i];

		if (x->wait_share > t->xmit_wait_share)
			rc = add(findings, IBTOPO_FIND_CONGESTED_PORT, x->port,
				 x->wait_share, t->xmit_wait_share,
				 x->growth[IBTOPO_CTR_XMIT_WAIT],
				 x->hours * 3600, 0, err);
	}
out_free:
	free(end);
	return rc;
}

/* Where the port's link goes, from the two ends' levels. */
void ibtopo__health_port_direction(struct ibtopo_health_port *x,
				   const struct ibtopo_topology *topo)
{
	const struct ibtopo_port *p = x->port;
	int peer;

	if (p->node->type != IBTOPO_NODE_SWITCH) {
		x->level = 0;
		x->direction = "host";
		return;
	}
	/* 0: a switch cut off from every server, no level */
	x->level = ibtopo_topology_node_level(topo, p->node);
	if (x->level <= 0) {
		x->level = -1;
		return;
	}
	if (!p->remote)
		return;
	peer = p->remote->node->type == IBTOPO_NODE_SWITCH ?
		       ibtopo_topology_node_level(topo, p->remote->node) :
		       0;
	if (peer <= 0 && p->remote->node->type == IBTOPO_NODE_SWITCH)
		return;
	x->direction = peer > x->level ? "up" :
		       peer < x->level ? "down" :
					 "across";
}
