/*
 * metrics.c - a fabric's port health in the Prometheus text exposition
 * format 0.0.4: per port counters and link state, per fabric counts and
 * findings. Each family is written once with its HELP and TYPE, its
 * series one per port, as the format requires.
 */
#include "export/export-int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A buffered writer: one sink call per 64 KiB, not one per line. Without
 * a sink (o NULL) it grows instead: a string being built.
 */
struct mbuf {
	const struct ibtopo_sink *o;
	char *p;
	size_t len;
	size_t cap;
	int rc;
};

#define MBUF_FLUSH (64u * 1024u)

static void mb_flush(struct mbuf *b)
{
	if (!b->rc && b->len)
		b->rc = b->o->write(b->o->write_arg, b->p, b->len);
	b->len = 0;
}

static void mb_add(struct mbuf *b, const char *s, size_t n)
{
	if (b->rc)
		return;
	if (!b->o && b->len + n + 1 > b->cap) {
		size_t cap = b->cap * 2 + n + 1;
		char *q = realloc(b->p, cap);

		if (!q) {
			b->rc = IBTOPO_ENOMEM;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	if (b->len + n > b->cap) {
		mb_flush(b);
		if (n > b->cap) {
			b->rc = b->o->write(b->o->write_arg, s, n);
			return;
		}
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	if (b->o && b->len >= MBUF_FLUSH)
		mb_flush(b);
}

static void mb_str(struct mbuf *b, const char *s)
{
	mb_add(b, s, strlen(s));
}

static void IBTOPO__PRINTF(2, 3) mb_printf(struct mbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		b->rc = IBTOPO_ERROR;
	else
		mb_add(b, tmp,
		       (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* A label value as the format quotes it: \\, \" and \n escaped. */
static void mb_label_value(struct mbuf *b, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\\')
			mb_add(b, "\\\\", 2);
		else if (*p == '"')
			mb_add(b, "\\\"", 2);
		else if (*p == '\n')
			mb_add(b, "\\n", 2);
		else
			mb_add(b, p, 1);
	}
}

static void family(struct mbuf *b, const char *name, const char *type,
		   const char *help)
{
	mb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The PortCounters as metric families, in enum ibtopo_counter order. */
struct counter_family {
	const char *name;
	const char *help;
	unsigned scale; /* 4: words of 4 bytes */
};

/* The group of each counter (enum ibtopo_metrics_collect). */
static unsigned counter_group(enum ibtopo_counter i)
{
	switch (i) {
	case IBTOPO_CTR_SYMBOL_ERRORS:
	case IBTOPO_CTR_LINK_DOWNED:
	case IBTOPO_CTR_RCV_ERRORS:
		return IBTOPO_METRICS_COLLECT_ERRORS;
	case IBTOPO_CTR_XMIT_WAIT:
	case IBTOPO_CTR_XMIT_DATA:
		return IBTOPO_METRICS_COLLECT_TRAFFIC;
	case IBTOPO_CTR_RCV_DATA:
	case IBTOPO_CTR_XMIT_PKTS:
	case IBTOPO_CTR_RCV_PKTS:
		return IBTOPO_METRICS_COLLECT_MORE_TRAFFIC;
	default:
		return IBTOPO_METRICS_COLLECT_MORE_ERRORS;
	}
}

static const struct {
	const char *name;
	unsigned bit;
} collect_groups[] = {
	{ "link", IBTOPO_METRICS_COLLECT_LINK },
	{ "errors", IBTOPO_METRICS_COLLECT_ERRORS },
	{ "traffic", IBTOPO_METRICS_COLLECT_TRAFFIC },
	{ "health", IBTOPO_METRICS_COLLECT_HEALTH },
	{ "phy", IBTOPO_METRICS_COLLECT_PHY },
	{ "more-errors", IBTOPO_METRICS_COLLECT_MORE_ERRORS },
	{ "more-traffic", IBTOPO_METRICS_COLLECT_MORE_TRAFFIC },
	{ "saturation", IBTOPO_METRICS_COLLECT_SATURATION },
	{ "all", IBTOPO_METRICS_COLLECT_ALL },
	{ "default", IBTOPO_METRICS_COLLECT_DEFAULT },
};

/* The bits of one name of a --collect list (len bytes), or 0. */
static unsigned collect_bits(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(collect_groups) / sizeof(*collect_groups);
	     i++)
		if (strlen(collect_groups[i].name) == len &&
		    !strncmp(collect_groups[i].name, name, len))
			return collect_groups[i].bit;
	return 0;
}

int ibtopo_metrics_collect_parse(const char *list, unsigned *collect,
				 struct ibtopo_error *err)
{
	unsigned set;

	if (!list || !collect)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "--collect: no list");
	set = *collect ? *collect : IBTOPO_METRICS_COLLECT_DEFAULT;
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		bool no = len > 3 && !strncmp(p, "no-", 3);
		unsigned bits = no ? collect_bits(p + 3, len - 3) :
				     collect_bits(p, len);

		if (!bits)
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"--collect: unknown group '%.*s' (link, errors, "
				"traffic, health, phy, more-errors, "
				"more-traffic, saturation, all, default; "
				"no-GROUP leaves one out)",
				(int)len, p);
		set = no ? set & ~bits : set | bits;
		if (!p[len])
			break;
		p += len + 1;
	}
	*collect = set;
	return 0;
}

static const struct counter_family counter_families[IBTOPO_CTR_COUNT_] = {
	[IBTOPO_CTR_SYMBOL_ERRORS] = { "ibtopo_port_symbol_errors_total",
				       "SymbolErrorCounter: minor link errors "
				       "on any physical lane (errors)",
				       1 },
	[IBTOPO_CTR_LINK_ERROR_RECOVERY] = { "ibtopo_port_link_error_recovery_total",
					     "LinkErrorRecoveryCounter: link retrains after errors "
					     "(recoveries)",
					     1 },
	[IBTOPO_CTR_LINK_DOWNED] = { "ibtopo_port_link_downed_total",
				     "LinkDownedCounter: times the link went "
				     "down after errors (events)",
				     1 },
	[IBTOPO_CTR_RCV_ERRORS] = { "ibtopo_port_receive_errors_total",
				    "PortRcvErrors: packets received with "
				    "errors (packets)",
				    1 },
	[IBTOPO_CTR_RCV_REMOTE_PHYS_ERRORS] = { "ibtopo_port_receive_remote_physical_errors_total",
						"PortRcvRemotePhysicalErrors: packets received marked bad "
						"upstream (packets)",
						1 },
	[IBTOPO_CTR_RCV_SWITCH_RELAY_ERRORS] = { "ibtopo_port_receive_switch_relay_errors_total",
						 "PortRcvSwitchRelayErrors: received packets a switch could "
						 "not forward (packets)",
						 1 },
	[IBTOPO_CTR_XMIT_DISCARDS] = { "ibtopo_port_transmit_discards_total",
				       "PortXmitDiscards: outbound packets "
				       "discarded (packets)",
				       1 },
	[IBTOPO_CTR_XMIT_CONSTRAINT_ERRORS] = { "ibtopo_port_transmit_constraint_errors_total",
						"PortXmitConstraintErrors: packets not sent for partition or "
						"raw constraints (packets)",
						1 },
	[IBTOPO_CTR_RCV_CONSTRAINT_ERRORS] = { "ibtopo_port_receive_constraint_errors_total",
					       "PortRcvConstraintErrors: packets received and dropped for "
					       "partition or raw constraints (packets)",
					       1 },
	[IBTOPO_CTR_LOCAL_LINK_INTEGRITY_ERRORS] = { "ibtopo_port_local_link_integrity_errors_total",
						     "LocalLinkIntegrityErrors: times the local physical errors "
						     "exceeded their threshold (events)",
						     1 },
	[IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = { "ibtopo_port_excessive_buffer_overrun_errors_total",
							 "ExcessiveBufferOverrunErrors: consecutive flow control "
							 "update periods with buffer overrun (events)",
							 1 },
	[IBTOPO_CTR_VL15_DROPPED] = { "ibtopo_port_vl15_dropped_total",
				      "VL15Dropped: subnet management packets "
				      "dropped (packets)",
				      1 },
	[IBTOPO_CTR_XMIT_WAIT] = { "ibtopo_port_transmit_wait_total",
				   "PortXmitWait: ticks with data to send but "
				   "no credits (ticks)",
				   1 },
	[IBTOPO_CTR_XMIT_DATA] = { "ibtopo_port_transmit_bytes_total",
				   "PortXmitData: bytes sent, 4 x the counter's "
				   "4-byte words (bytes)",
				   4 },
	[IBTOPO_CTR_RCV_DATA] = { "ibtopo_port_receive_bytes_total",
				  "PortRcvData: bytes received, 4 x the "
				  "counter's 4-byte words (bytes)",
				  4 },
	[IBTOPO_CTR_XMIT_PKTS] = { "ibtopo_port_transmit_packets_total",
				   "PortXmitPkts: packets sent (packets)", 1 },
	[IBTOPO_CTR_RCV_PKTS] = { "ibtopo_port_receive_packets_total",
				  "PortRcvPkts: packets received (packets)",
				  1 },
};

const char *ibtopo_metrics_fabric_name(char *buf, size_t len,
				       const struct ibtopo_fabric *fabric)
{
	const struct ibtopo_fabric_meta *m;

	if (!buf || !len)
		return buf;
	if (!fabric) {
		snprintf(buf, len, "empty");
		return buf;
	}
	m = ibtopo_fabric_meta(fabric);
	if (m->fabric && *m->fabric)
		snprintf(buf, len, "%s", m->fabric);
	else
		ibtopo_fabric_default_name(buf, len, fabric);
	return buf;
}

/* The ports written: every numbered port of a switch or CA. */
struct mport {
	const struct ibtopo_port *p;
	char *labels; /* fabric="..",node="..",...: without braces */
};

struct mctx {
	struct mbuf b;
	struct ibtopo_analysis *an; /* the rule of possible rates */
	const struct ibtopo_fabric *f;
	const char *fabric;
	struct mport *ports;
	size_t nports;
	unsigned collect; /* enum ibtopo_metrics_collect */
};

static int collect_ports(struct mctx *c)
{
	size_t alloc = 0;

	for (size_t i = 0; i < ibtopo_fabric_node_count(c->f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

		if (n->type != IBTOPO_NODE_SWITCH && n->type != IBTOPO_NODE_CA)
			continue;
		for (unsigned k = 1; k <= n->nports; k++) {
			if (!n->ports[k])
				continue;
			if (ibtopo__grow(&c->ports, &alloc, c->nports + 1,
					 sizeof(*c->ports)))
				return IBTOPO_ENOMEM;
			c->ports[c->nports++] =
				(struct mport){ n->ports[k], NULL };
		}
	}
	return 0;
}

/* The identity of one port, escaped once for all its series. */
static int port_labels(struct mctx *c, struct mport *mp)
{
	const struct ibtopo_port *p = mp->p;
	struct mbuf lb = { NULL, NULL, 0, 0, 0 };

	mb_str(&lb, "fabric=\"");
	mb_label_value(&lb, c->fabric);
	mb_printf(&lb, "\",node_guid=\"0x%016" PRIx64 "\",port=\"%u\"",
		  p->node->guid, p->num);
	if (lb.rc) {
		free(lb.p);
		return lb.rc;
	}
	lb.p[lb.len] = '\0';
	mp->labels = lb.p;
	return 0;
}

static void series(struct mbuf *b, const char *name, const char *labels,
		   const char *extra, const char *value)
{
	mb_str(b, name);
	mb_add(b, "{", 1);
	mb_str(b, labels);
	if (extra)
		mb_str(b, extra);
	mb_add(b, "} ", 2);
	mb_str(b, value);
	mb_add(b, "\n", 1);
}

static void series_u64(struct mbuf *b, const char *name, const char *labels,
		       uint64_t v)
{
	char num[32];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	series(b, name, labels, NULL, num);
}

static void series_real(struct mbuf *b, const char *name, const char *labels,
			double v)
{
	char num[40];

	snprintf(num, sizeof(num), "%.15g", v);
	series(b, name, labels, NULL, num);
}

/* name="<the node's name>", escaped. */
static void name_label(struct mbuf *b, const char *label,
		       const struct ibtopo_node *n)
{
	char name[IBTOPO_NODE_NAME_MAX];

	mb_printf(b, ",%s=\"", label);
	mb_label_value(b, ibtopo_node_name(name, sizeof(name), n));
	mb_add(b, "\"", 1);
}

/* A switch port's LID is its port 0's. */
static unsigned port_lid(const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;

	if (n->type == IBTOPO_NODE_SWITCH && n->ports[0])
		return n->ports[0]->lid;
	return p->lid;
}

/*
 * What a port series does not carry, in one series per port: the names,
 * the LID and the far end. A pulled cable changes this series (and the
 * value of ibtopo_port_linked), never the identity of the others.
 */
static void write_port_info(struct mctx *c)
{
	struct mbuf *b = &c->b;

	family(b, "ibtopo_port_info", "gauge",
	       "1 per port: its node's name and type, LID (when known) and "
	       "the far end (remote_*, absent when unlinked); join on "
	       "fabric,node_guid,port");
	for (size_t i = 0; i < c->nports; i++) {
		const struct ibtopo_port *p = c->ports[i].p, *r = p->remote;

		mb_printf(b, "ibtopo_port_info{%s", c->ports[i].labels);
		name_label(b, "node", p->node);
		mb_printf(b, ",node_type=\"%s\"",
			  ibtopo_node_type_name(p->node->type));
		if (port_lid(p))
			mb_printf(b, ",lid=\"%u\"", port_lid(p));
		if (r) {
			mb_printf(b, ",remote_guid=\"0x%016" PRIx64 "\"",
				  r->node->guid);
			name_label(b, "remote_node", r->node);
			mb_printf(b, ",remote_port=\"%u\"", r->num);
		}
		mb_str(b, "} 1\n");
	}
	if (!(c->collect & IBTOPO_METRICS_COLLECT_LINK))
		return;
	family(b, "ibtopo_port_linked", "gauge",
	       "1 when the port has a link to another port, 0 when not");
	for (size_t i = 0; i < c->nports; i++)
		series(b, "ibtopo_port_linked", c->ports[i].labels, NULL,
		       c->ports[i].p->remote ? "1" : "0");
}

/* One series per switch and CA: what the node is. */
static void write_node_info(struct mctx *c)
{
	struct mbuf *b = &c->b;

	family(b, "ibtopo_node_info", "gauge",
	       "1 per switch and CA: name, type, and where known "
	       "NodeDescription, vendor, device, revision, system image GUID");
	for (size_t i = 0; i < ibtopo_fabric_node_count(c->f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

		if (n->type != IBTOPO_NODE_SWITCH && n->type != IBTOPO_NODE_CA)
			continue;
		mb_str(b, "ibtopo_node_info{fabric=\"");
		mb_label_value(b, c->fabric);
		mb_printf(b, "\",node_guid=\"0x%016" PRIx64 "\"", n->guid);
		name_label(b, "node", n);
		mb_printf(b, ",node_type=\"%s\"",
			  ibtopo_node_type_name(n->type));
		if (n->desc && *n->desc) {
			mb_str(b, ",description=\"");
			mb_label_value(b, n->desc);
			mb_add(b, "\"", 1);
		}
		/* a label without a value is left out: bytes, not news */
		if (n->vendor_id || n->device_id)
			mb_printf(b,
				  ",vendor_id=\"0x%06" PRIx32
				  "\",device_id=\"0x%04" PRIx32
				  "\",revision=\"0x%" PRIx32 "\"",
				  n->vendor_id, n->device_id, n->revision);
		if (n->sysimg_guid)
			mb_printf(b, ",system_image_guid=\"0x%016" PRIx64 "\"",
				  n->sysimg_guid);
		mb_str(b, "} 1\n");
	}
}

/* Prometheus' base unit is the byte: rates in bytes per second. */
static double gbps_to_bytes(double gbps)
{
	return gbps * 1e9 / 8;
}

/*
 * The rate the port's link could run at, as analyze judges it
 * (ibtopo_analysis_link_possible()), or -1 for a port without a link or
 * whose link runs at no known rate.
 */
static double possible_bps(struct mctx *c, const struct ibtopo_port *p)
{
	unsigned speed, width;

	if (!p->link ||
	    ibtopo_analysis_link_possible(c->an, p->link, &speed, &width, NULL))
		return -1;
	if (!speed || !width)
		return -1;
	return gbps_to_bytes(ibtopo_link_gbps(speed, width));
}

static bool port_is_up(const struct ibtopo_port *p)
{
	return p->width_active && p->speed_active &&
	       p->state != IBTOPO_PORT_STATE_DOWN;
}

/* The link group: state, rate, and the rate the link could run at. */
static void write_port_gauges(struct mctx *c)
{
	struct mbuf *b = &c->b;

	if (!(c->collect & IBTOPO_METRICS_COLLECT_LINK))
		return;
	family(b, "ibtopo_port_state", "gauge",
	       "IBA PortState: 1 down, 2 init, 3 armed, 4 active, "
	       "0 unknown");
	for (size_t i = 0; i < c->nports; i++)
		series_u64(b, "ibtopo_port_state", c->ports[i].labels,
			   c->ports[i].p->state);
	family(b, "ibtopo_port_rate_bytes_per_second", "gauge",
	       "Active data rate of the link in bytes, lanes x lane "
	       "speed; 0 when down");
	for (size_t i = 0; i < c->nports; i++) {
		const struct ibtopo_port *p = c->ports[i].p;

		series_real(b, "ibtopo_port_rate_bytes_per_second",
			    c->ports[i].labels,
			    port_is_up(p) ?
				    gbps_to_bytes(ibtopo_link_gbps(
					    p->speed_active, p->width_active)) :
				    0);
	}
	family(b, "ibtopo_port_possible_rate_bytes_per_second", "gauge",
	       "The rate the link could run at as analyze judges it; above "
	       "ibtopo_port_rate_bytes_per_second exactly on a downgraded "
	       "link; 0 when unlinked or unknown");
	for (size_t i = 0; i < c->nports; i++) {
		double v = possible_bps(c, c->ports[i].p);

		series_real(b, "ibtopo_port_possible_rate_bytes_per_second",
			    c->ports[i].labels, v >= 0 ? v : 0);
	}
}

/* The phy group: physical state, lanes and lane speed. */
static void write_port_phy(struct mctx *c)
{
	struct mbuf *b = &c->b;

	if (!(c->collect & IBTOPO_METRICS_COLLECT_PHY))
		return;
	family(b, "ibtopo_port_physical_state", "gauge",
	       "IBA PortPhysicalState: 1 sleep, 2 polling, 3 disabled, "
	       "4 training, 5 linkup, 6 error recovery, 7 phy test, "
	       "0 unknown");
	for (size_t i = 0; i < c->nports; i++)
		series_u64(b, "ibtopo_port_physical_state", c->ports[i].labels,
			   c->ports[i].p->phys_state);
	family(b, "ibtopo_port_width_lanes", "gauge",
	       "Active link width in lanes; 0 when down");
	for (size_t i = 0; i < c->nports; i++) {
		const struct ibtopo_port *p = c->ports[i].p;

		series_u64(b, "ibtopo_port_width_lanes", c->ports[i].labels,
			   port_is_up(p) ? ibtopo_width_lanes(p->width_active) :
					   0);
	}
	family(b, "ibtopo_port_lane_speed_bytes_per_second", "gauge",
	       "Active data rate of one lane, after encoding, in bytes; 0 when down");
	for (size_t i = 0; i < c->nports; i++) {
		const struct ibtopo_port *p = c->ports[i].p;

		series_real(b, "ibtopo_port_lane_speed_bytes_per_second",
			    c->ports[i].labels,
			    port_is_up(p) ?
				    gbps_to_bytes(ibtopo_speed_lane_gbps(
					    p->speed_active)) :
				    0);
	}
}

static bool counter_saturated(const struct ibtopo_counters *k,
			      enum ibtopo_counter i)
{
	return (k->valid & (1u << i)) &&
	       ibtopo_counter_is_saturated(i, (k->extended >> i) & 1u,
					   k->value[i]);
}

static void write_port_counters(struct mctx *c)
{
	struct mbuf *b = &c->b;

	for (unsigned i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		const struct counter_family *cf = &counter_families[i];

		if (!(c->collect & counter_group(i)))
			continue;
		family(b, cf->name, "counter", cf->help);
		for (size_t j = 0; j < c->nports; j++) {
			const struct ibtopo_counters *k =
				c->ports[j].p->counters;

			if (k && (k->valid & (1u << i)))
				series_u64(b, cf->name, c->ports[j].labels,
					   k->value[i] * cf->scale);
		}
	}
	family(b, "ibtopo_port_saturated", "gauge",
	       "1 for each counter that stopped at its largest value, "
	       "collected or not: its _total series holds that value, not a "
	       "reset");
	for (size_t j = 0; j < c->nports; j++) {
		const struct ibtopo_counters *k = c->ports[j].p->counters;
		char extra[64];

		for (unsigned i = 0; k && i < IBTOPO_CTR_COUNT_; i++) {
			if (!counter_saturated(k, i))
				continue;
			snprintf(extra, sizeof(extra), ",counter=\"%s\"",
				 ibtopo_counter_name(i));
			series(b, "ibtopo_port_saturated", c->ports[j].labels,
			       extra, "1");
		}
	}
	if (!(c->collect & IBTOPO_METRICS_COLLECT_SATURATION))
		return;
	family(b, "ibtopo_port_counters_saturated", "gauge",
	       "Counters of the port that stopped at their largest value "
	       "(clear them to count again)");
	for (size_t j = 0; j < c->nports; j++) {
		const struct ibtopo_counters *k = c->ports[j].p->counters;
		unsigned n = 0;

		if (!k)
			continue;
		for (unsigned i = 0; i < IBTOPO_CTR_COUNT_; i++)
			n += counter_saturated(k, i);
		series_u64(b, "ibtopo_port_counters_saturated",
			   c->ports[j].labels, n);
	}
}

/* name{fabric=..,node_guid=..,port=..} value, for a port of no mport */
static void port_series_real(struct mctx *c, const char *name,
			     const struct ibtopo_port *p, double v)
{
	mb_printf(&c->b, "%s{fabric=\"", name);
	mb_label_value(&c->b, c->fabric);
	mb_printf(&c->b,
		  "\",node_guid=\"0x%016" PRIx64 "\",port=\"%u\"} %.6g\n",
		  p->node->guid, p->num, v);
}

/* A port's BER is known: an earlier reading, its lanes and their rate. */
static bool ber_known(const struct ibtopo_health_port *x)
{
	return x && x->before && x->lanes && x->lane_gbps > 0;
}

/* One gauge per receiving end whose BER is known: its BER or its
 * link's threshold. */
static void ber_family(struct mctx *c, const struct ibtopo_health *h,
		       const char *name, const char *help, bool threshold)
{
	family(&c->b, name, "gauge", help);
	for (size_t i = 0; i < h->nlinks; i++) {
		const struct ibtopo_health_link *l = &h->links[i];
		const struct ibtopo_health_port *end[2] = { l->worst,
							    l->other };

		for (unsigned k = 0; k < 2; k++)
			if (ber_known(end[k]))
				port_series_real(c, name, end[k]->port,
						 threshold ? l->threshold :
							     end[k]->ber);
	}
}

/*
 * What port health found between two readings (the previous sweep, or
 * --since): BER per receiving port with its link's threshold, and the
 * share of the link's capacity lost waiting to send.
 */
static void write_health(struct mctx *c, const struct ibtopo_health *h)
{
	struct mbuf *b = &c->b;

	if (!h || !h->since || !(c->collect & IBTOPO_METRICS_COLLECT_HEALTH))
		return;
	ber_family(c, h, "ibtopo_port_bit_error_rate",
		   "Bit error rate of what the port received over the last "
		   "interval (SymbolErrorCounter growth / bits); 0 when none "
		   "grew",
		   false);
	ber_family(c, h, "ibtopo_port_bit_error_rate_threshold",
		   "The BER above which health calls the port's link "
		   "high-ber (its speed's, from the thresholds file; "
		   "default 1e-12)",
		   true);
	family(b, "ibtopo_port_transmit_wait_share", "gauge",
	       "Share of the link's capacity the port lost waiting for "
	       "credits over the last interval (PortXmitWait x 8 bytes)");
	for (size_t i = 0; i < h->count; i++)
		if (h->ports[i].wait_valid)
			port_series_real(c, "ibtopo_port_transmit_wait_share",
					 h->ports[i].port,
					 h->ports[i].wait_share);
	family(b, "ibtopo_port_transmit_wait_share_threshold", "gauge",
	       "The share above which health calls a port congested "
	       "(XmitWaitShare of the thresholds file; default 0.05)");
	mb_str(b, "ibtopo_port_transmit_wait_share_threshold{fabric=\"");
	mb_label_value(b, c->fabric);
	mb_printf(b, "\"} %.6g\n", h->wait_threshold);
}

static void write_build_info(struct mbuf *b)
{
	family(b, "ibtopo_build_info", "gauge",
	       "1, with the version of ibtopo that wrote these metrics");
	mb_str(b, "ibtopo_build_info{version=\"" PACKAGE_VERSION "\"} 1\n");
}

static void write_findings(struct mbuf *b, const char *labels,
			   const struct ibtopo_findings *fl);

static void write_fabric(struct mctx *c, const struct ibtopo_findings *fl)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(c->f);
	struct mbuf *b = &c->b;
	const char *labels;
	struct {
		const char *name, *help;
		size_t v;
	} counts[] = {
		{ "ibtopo_fabric_switches", "Switches in the fabric",
		  ibtopo_fabric_count_type(c->f, IBTOPO_NODE_SWITCH) },
		{ "ibtopo_fabric_cas", "Channel adapters (hosts) in the fabric",
		  ibtopo_fabric_count_type(c->f, IBTOPO_NODE_CA) },
		{ "ibtopo_fabric_routers", "Routers in the fabric",
		  ibtopo_fabric_count_type(c->f, IBTOPO_NODE_ROUTER) },
		{ "ibtopo_fabric_links", "Links in the fabric",
		  ibtopo_fabric_link_count(c->f) },
	};
	struct mbuf lb = { NULL, NULL, 0, 0, 0 };

	mb_str(&lb, "fabric=\"");
	mb_label_value(&lb, c->fabric);
	mb_add(&lb, "\"", 1);
	if (lb.rc) {
		b->rc = lb.rc;
		return;
	}
	lb.p[lb.len] = '\0';
	labels = lb.p;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		family(b, counts[i].name, "gauge", counts[i].help);
		series_u64(b, counts[i].name, labels, counts[i].v);
	}
	family(b, "ibtopo_snapshot_timestamp_seconds", "gauge",
	       "When the fabric was swept, seconds since the epoch");
	series_u64(b, "ibtopo_snapshot_timestamp_seconds", labels,
		   m->taken_at > 0 ? (uint64_t)m->taken_at : 0);
	family(b, "ibtopo_snapshot_partial", "gauge",
	       "1 when the sweep did not reach every node");
	series_u64(b, "ibtopo_snapshot_partial", labels, m->partial ? 1 : 0);
	family(b, "ibtopo_snapshot_id", "gauge",
	       "Id of the stored snapshot; 0 when not stored");
	series_u64(b, "ibtopo_snapshot_id", labels,
		   m->snapshot_id > 0 ? (uint64_t)m->snapshot_id : 0);
	if (fl)
		write_findings(b, labels, fl);
	free(lb.p);
}

static void write_findings(struct mbuf *b, const char *labels,
			   const struct ibtopo_findings *fl)
{
	size_t n[IBTOPO_FIND_KIND_MAX_][3];

	memset(n, 0, sizeof(n));
	for (size_t i = 0; i < fl->count; i++) {
		const struct ibtopo_finding *f = &fl->items[i];

		if (f->kind > 0 && f->kind < IBTOPO_FIND_KIND_MAX_ &&
		    (unsigned)f->severity < 3)
			n[f->kind][f->severity]++;
	}
	family(b, "ibtopo_fabric_findings", "gauge",
	       "Findings of the analysis (ibtopo analyze) by kind and "
	       "severity");
	for (unsigned k = 1; k < IBTOPO_FIND_KIND_MAX_; k++) {
		for (unsigned s = 0; s < 3; s++) {
			char extra[128];
			char num[32];

			if (!n[k][s])
				continue;
			snprintf(extra, sizeof(extra),
				 ",kind=\"%s\",severity=\"%s\"",
				 ibtopo_finding_kind_name(k),
				 ibtopo_severity_name(s));
			snprintf(num, sizeof(num), "%zu", n[k][s]);
			series(b, "ibtopo_fabric_findings", labels, extra, num);
		}
	}
}

int ibtopo_metrics_write(const struct ibtopo_sink *o,
			 struct ibtopo_analysis *an,
			 const struct ibtopo_metrics_opts *opts,
			 struct ibtopo_error *err)
{
	struct ibtopo_metrics_opts d = IBTOPO_METRICS_OPTS_INIT;
	const struct ibtopo_fabric *fabric = ibtopo_analysis_fabric(an);
	const struct ibtopo_findings *fl = NULL;
	const struct ibtopo_health *h = NULL;
	struct mctx c = { .an = an, .f = fabric };
	char name[256];
	int rc = 0;

	if (!o || !o->write || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "metrics: no sink or analysis");
	if (opts && opts->version != IBTOPO_METRICS_OPTS_VERSION &&
	    opts->version != 2)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "metrics: unknown options version %u",
					 opts->version);
	if (opts && opts->version == 2) { /* no collect field */
		d.fabric_name = opts->fabric_name;
		d.flags = opts->flags;
	} else if (opts) {
		d = *opts;
	}
	c.collect = d.collect ? d.collect : IBTOPO_METRICS_COLLECT_DEFAULT;
	c.fabric =
		d.fabric_name ?
			d.fabric_name :
			ibtopo_metrics_fabric_name(name, sizeof(name), fabric);
	if (!(d.flags & IBTOPO_METRICS_NO_FINDINGS)) {
		rc = ibtopo_analysis_findings(an, &fl, err);
		if (rc)
			return rc;
	}
	rc = ibtopo_analysis_health(an, &h, err);
	if (rc)
		return rc;
	c.b = (struct mbuf){ o, malloc(MBUF_FLUSH + 1024), 0, MBUF_FLUSH + 1024,
			     0 };
	if (!c.b.p)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = collect_ports(&c);
	for (size_t i = 0; !rc && i < c.nports; i++)
		rc = port_labels(&c, &c.ports[i]);
	if (rc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_ports;
	}
	write_port_info(&c);
	write_node_info(&c);
	write_port_gauges(&c);
	write_port_phy(&c);
	write_port_counters(&c);
	write_health(&c, h);
	write_fabric(&c, fl);
	write_build_info(&c.b);
	mb_flush(&c.b);
	if (c.b.rc)
		rc = ibtopo__error_set(err, c.b.rc,
				       "cannot write the metrics output");
out_free_ports:
	for (size_t i = 0; i < c.nports; i++)
		free(c.ports[i].labels);
	free(c.ports);
	free(c.b.p);
	return rc;
}
