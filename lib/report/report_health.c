/* report_health.c - `ibtopo health`: per-port counters, rates, findings */
#include "report/report-int.h"
#include "report/report-health.h"
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

/*
 * The ports are written one at a time, each a small jansson object, not
 * as one tree: on a 11,664-host fabric that tree was 4 million values and
 * most of `health --format json`'s time. The findings go through the
 * shared findings writer.
 */

json *ibtopo__health_names_json(uint32_t mask)
{
	json *a = ibtopo__json_array();

	for (int i = 0; a && i < IBTOPO_CTR_COUNT_; i++)
		if ((mask & (1u << i)) &&
		    ibtopo__json_append(a, ibtopo__json_string(
						   ibtopo_counter_name(i)))) {
			ibtopo__json_free(a);
			return NULL;
		}
	return a;
}

/* Every counter: its value, or null when the port does not have it. */
static json *counters_json(const struct ibtopo_counters *c)
{
	json *o = ibtopo__json_object();

	for (int i = 0; o && i < IBTOPO_CTR_COUNT_; i++)
		if (ibtopo__json_set(o, ibtopo_counter_name(i),
				     (c->valid & (1u << i)) ?
				     ibtopo__json_u64(c->value[i]) :
				     ibtopo__json_null())) {
			ibtopo__json_free(o);
			return NULL;
		}
	return o;
}

/* Growth (rate: per hour) of the counters both readings have. */
static json *change_json(const struct ibtopo_health_port *x, bool rate)
{
	json *o = ibtopo__json_object();

	for (int i = 0; o && i < IBTOPO_CTR_COUNT_; i++) {
		if (!(x->now->valid & x->before->valid & (1u << i)))
			continue;
		if (ibtopo__json_set(o, ibtopo_counter_name(i),
				     rate ? ibtopo__json_real(x->rate[i]) :
				     ibtopo__json_u64(x->growth[i]))) {
			ibtopo__json_free(o);
			return NULL;
		}
	}
	return o;
}

static json *port_json(const struct ibtopo_health *h,
		       const struct ibtopo_health_port *x)
{
	json *o = ibtopo__json_object();
	int rc;

	rc = ibtopo__json_set(o, "node", ibtopo__json_string(x->port->node->desc)) ||
	     ibtopo__json_set(o, "guid", ibtopo__json_guid(x->port->node->guid)) ||
	     ibtopo__json_set(o, "port", ibtopo__json_int(x->port->num)) ||
	     ibtopo__json_set(o, "peer", ibtopo__health_end_json(x->port->remote)) ||
	     ibtopo__json_set(o, "read_at_ms", ibtopo__json_int(x->now->read_at_ms)) ||
	     ibtopo__json_set(o, "counters", counters_json(x->now)) ||
	     ibtopo__json_set(o, "saturated", ibtopo__health_names_json(x->saturated));
	/* interval_s as every port and link of health has it; interval_h
	 * the unit of rate_per_hour */
	if (!rc && h->since)
		rc = ibtopo__json_set(o, "interval_s", x->before ?
				      ibtopo__json_real(x->hours * 3600) :
				      ibtopo__json_null()) ||
		     ibtopo__json_set(o, "interval_h", x->before ?
				      ibtopo__json_real(x->hours) :
				      ibtopo__json_null());
	if (!rc && h->since && x->before)
		rc = ibtopo__json_set(o, "growth", change_json(x, false)) ||
		     ibtopo__json_set(o, "rate_per_hour", change_json(x, true)) ||
		     ibtopo__json_set(o, "reset", ibtopo__health_names_json(x->reset)) ||
		     ibtopo__health_port_ber_json(o, x);
	return ibtopo__json_kept(o, rc);
}

static json *traffic_link_json(const struct ibtopo_traffic_link *x)
{
	json *o = ibtopo__json_object();

	if (ibtopo__json_set(o, "a", ibtopo__health_end_json(x->link->a)) ||
	    ibtopo__json_set(o, "b", ibtopo__health_end_json(x->link->b)) ||
	    ibtopo__json_set(o, "level", ibtopo__json_int(x->level)) ||
	    ibtopo__json_set(o, "bytes_ab", ibtopo__json_u64(x->bytes_ab)) ||
	    ibtopo__json_set(o, "bytes_ba", ibtopo__json_u64(x->bytes_ba)) ||
	    ibtopo__json_set(o, "gbps_ab", ibtopo__json_real(x->gbps_ab)) ||
	    ibtopo__json_set(o, "gbps_ba", ibtopo__json_real(x->gbps_ba)) ||
	    ibtopo__json_set(o, "gbps", ibtopo__json_real(x->capacity_gbps)) ||
	    ibtopo__json_set(o, "utilisation",
			     ibtopo__json_real(x->utilisation)) ||
	    ibtopo__json_set(o, "interval_s",
			     ibtopo__json_real(x->hours * 3600)) ||
	    ibtopo__json_set(o, "interval_h", ibtopo__json_real(x->hours)) ||
	    ibtopo__json_set(o, "saturated", ibtopo__json_bool(x->saturated))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static json *traffic_level_json(const struct ibtopo_traffic_level *v)
{
	json *o = ibtopo__json_object();

	if (ibtopo__json_set(o, "level", ibtopo__json_int(v->level)) ||
	    ibtopo__json_set(o, "links", ibtopo__json_int((int64_t)v->links)) ||
	    ibtopo__json_set(o, "bytes", ibtopo__json_u64(v->bytes)) ||
	    ibtopo__json_set(o, "capacity_bytes",
			     ibtopo__json_real(v->capacity_bytes)) ||
	    ibtopo__json_set(o, "utilisation",
			     ibtopo__json_real(v->utilisation))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* {"top":N,"links_with_data":N,"links":[the top N],"by_level":[...]} */
static json *traffic_json(const struct ibtopo_traffic *t)
{
	json *o = ibtopo__json_object(), *links = ibtopo__json_array();
	json *levels = ibtopo__json_array();
	int rc = ibtopo__json_set(o, "top", ibtopo__json_int((int64_t)t->top)) ||
		 ibtopo__json_set(o, "links_with_data",
				  ibtopo__json_int((int64_t)t->count));

	for (size_t i = 0; !rc && i < t->count && i < t->top; i++)
		rc = ibtopo__json_append(links, traffic_link_json(&t->links[i]));
	for (size_t k = 0; !rc && k < t->nlevels; k++)
		rc = ibtopo__json_append(levels,
					 traffic_level_json(&t->levels[k]));
	if (rc) {
		ibtopo__json_free(links);
		ibtopo__json_free(levels);
	} else {
		rc = ibtopo__json_set(o, "links", links) ||
		     ibtopo__json_set(o, "by_level", levels);
	}
	return ibtopo__json_kept(o, rc);
}

/* Write a value (NULL: out of memory) and free it. */
static int write_value(const struct ibtopo_sink *sink, json *v,
		       struct ibtopo_error *err)
{
	int rc;

	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = ibtopo__json_write(sink, v, err);
	ibtopo__json_free(v);
	return rc;
}

static int write_text_part(const struct ibtopo_sink *sink, const char *s,
			   struct ibtopo_error *err)
{
	if (ibtopo__out_write(sink, s, strlen(s)))
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

/* How many ports the congestion lists: as many as the busiest links. */
static size_t top_of(const struct ibtopo_health *h)
{
	return h->traffic && h->traffic->top ? h->traffic->top : 10;
}

/* {"schema_version","fabric":NAME (a snapshot's),"ports":[...],
 * "findings":[...],"traffic":{...},"links":[...],"congestion":{...}} */
static int write_json(const struct ibtopo_sink *sink,
		      const struct ibtopo_health *h,
		      const struct ibtopo_findings *findings,
		      struct ibtopo_error *err)
{
	int rc = ibtopo__json_report_open(sink, h->fabric, err);

	if (!rc)
		rc = write_text_part(sink, ",\"ports\":[", err);
	for (size_t i = 0; !rc && i < h->count; i++) {
		if (i)
			rc = write_text_part(sink, ",", err);
		if (!rc)
			rc = write_value(sink, port_json(h, &h->ports[i]), err);
	}
	if (!rc) {
		char tail[64];

		snprintf(tail, sizeof(tail), "],\"counters_unread\":%zu,"
			 "\"findings\":", h->unread);
		rc = write_text_part(sink, tail, err);
	}
	if (!rc)
		rc = write_value(sink, ibtopo__findings_json(findings), err);
	if (!rc && h->traffic) {
		rc = write_text_part(sink, ",\"traffic\":", err);
		if (!rc)
			rc = write_value(sink, traffic_json(h->traffic), err);
	}
	if (!rc && h->since) {
		rc = write_text_part(sink, ",\"links\":", err);
		if (!rc)
			rc = write_value(sink, ibtopo__health_links_json(h), err);
		if (!rc)
			rc = write_text_part(sink, ",\"congestion\":", err);
		if (!rc)
			rc = write_value(sink, ibtopo__health_congestion_json(
						 h, top_of(h)), err);
	}
	if (!rc)
		rc = write_text_part(sink, "}\n", err);
	return rc;
}

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo_health *h, struct ibtopo_error *err)
{
	int rc = ibtopo_sink_printf(sink, "node,guid,port,peer.node,peer.guid,"
				    "peer.port,read_at_ms");

	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = ibtopo_sink_printf(sink, ",%s", ibtopo_counter_name(i));
	if (!rc && h->since)
		rc = ibtopo_sink_printf(sink, ",interval_s,interval_h");
	for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED; i++)
		rc = ibtopo_sink_printf(sink, ",%s_per_hour",
					ibtopo_counter_name(i));
	if (!rc && h->since)
		rc = ibtopo__health_csv_header(sink);
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\n");
	for (size_t k = 0; !rc && k < h->count; k++) {
		const struct ibtopo_health_port *x = &h->ports[k];
		const struct ibtopo_port *peer = x->port->remote;

		rc = ibtopo__out_csv_field(sink, x->port->node->desc);
		if (!rc)
			rc = ibtopo_sink_printf(sink, ",0x%016" PRIx64 ",%u,",
						x->port->node->guid,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo__out_csv_field(sink, peer->node->desc) ||
			     ibtopo_sink_printf(sink, ",0x%016" PRIx64 ",%u",
						peer->node->guid, peer->num);
		else if (!rc)
			rc = ibtopo_sink_printf(sink, ",,");
		if (!rc)
			rc = ibtopo_sink_printf(sink, ",%" PRId64,
						x->now->read_at_ms);
		for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
			rc = (x->now->valid & (1u << i)) ?
			     ibtopo_sink_printf(sink, ",%" PRIu64,
						x->now->value[i]) :
			     ibtopo_sink_printf(sink, ",");
		if (!rc && h->since)
			rc = x->before ? ibtopo_sink_printf(sink, ",%.3f,%.6f",
							    x->hours * 3600,
							    x->hours) :
			     ibtopo_sink_printf(sink, ",,");
		for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED;
		     i++)
			rc = x->before && (x->now->valid & x->before->valid &
					   (1u << i)) ?
			     ibtopo_sink_printf(sink, ",%.3f", x->rate[i]) :
			     ibtopo_sink_printf(sink, ",");
		if (!rc && h->since)
			rc = ibtopo__health_csv_cells(sink, x);
		if (!rc)
			rc = ibtopo_sink_printf(sink, "\n");
	}
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

/* "1.2 GB": decimal units, as link rates are */
static const char *bytes_text(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB",
					    "PB", "EB" };
	unsigned u = 0;

	while (v >= 1000 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static const char *level_text(char *buf, size_t len, unsigned level)
{
	if (!level)
		snprintf(buf, len, "host links");
	else
		snprintf(buf, len, "level %u up", level);
	return buf;
}

/* The busiest links, then the utilisation per level. */
static int traffic_text(const struct ibtopo_sink *sink,
			const struct ibtopo_traffic *t)
{
	char b1[32], b2[32], b3[32];
	int rc;

	if (!t->count)
		return ibtopo_sink_printf(sink, "no traffic data (PortXmitData "
					  "in both snapshots)\n\n");
	rc = ibtopo_sink_printf(sink, "busiest links (%zu of %zu; bytes a->b, "
				"b->a; busier direction against the link):\n",
				t->count < t->top ? t->count : t->top,
				t->count);
	for (size_t i = 0; !rc && i < t->count && i < t->top; i++) {
		const struct ibtopo_traffic_link *x = &t->links[i];

		rc = ibtopo_sink_printf(sink,
			"  %s port %u <-> %s port %u  %s, %s%s  %.1f%% of "
			"%.0f Gb/s (%s)\n",
			x->link->a->node->desc, x->link->a->num,
			x->link->b->node->desc, x->link->b->num,
			bytes_text(b1, sizeof(b1), (double)x->bytes_ab),
			bytes_text(b2, sizeof(b2), (double)x->bytes_ba),
			x->saturated ? " or more (saturated)" : "",
			x->utilisation * 100, x->capacity_gbps,
			level_text(b3, sizeof(b3), x->level));
	}
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\nutilisation per level "
					"(carried / capacity over the "
					"interval):\n");
	for (size_t k = 0; !rc && k < t->nlevels; k++) {
		const struct ibtopo_traffic_level *v = &t->levels[k];

		if (!v->links)
			continue;
		rc = ibtopo_sink_printf(sink, "  %-12s %6zu links  %s  %.2f%%\n",
			level_text(b3, sizeof(b3), v->level), v->links,
			bytes_text(b1, sizeof(b1), (double)v->bytes),
			v->utilisation * 100);
	}
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\n");
	return rc;
}

/* The ports asked for and not read: named, never counted as clean. */
static int unread_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_health *h)
{
	char which[512];

	ibtopo_fabric_counters_unread(h->fabric, which, sizeof(which));
	return ibtopo_sink_printf(sink, "counters of %zu port%s not read "
				  "(their PMA did not answer): %s\n",
				  h->unread, h->unread == 1 ? "" : "s", which);
}

/* Ports with errors (or growth), worst first; then the findings. */
static int write_text(const struct ibtopo_sink *sink,
		      const struct ibtopo_health *h,
		      const struct ibtopo_findings *findings,
		      struct ibtopo_error *err)
{
	size_t shown = 0;
	int rc = 0;

	for (size_t k = 0; !rc && k < h->count; k++) {
		const struct ibtopo_health_port *x = &h->ports[k];
		const struct ibtopo_port *peer = x->port->remote;

		if (!x->errors && x->error_rate <= 0)
			continue;
		if (!shown++)
			rc = ibtopo_sink_printf(sink, "ports with errors%s:\n",
				h->since ? " (count, and growth per hour)" : "");
		if (!rc)
			rc = ibtopo_sink_printf(sink, "  %s port %u", 
						x->port->node->desc,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo_sink_printf(sink, " <-> %s port %u",
						peer->node->desc, peer->num);
		for (int i = 0; !rc && i <= IBTOPO_CTR_VL15_DROPPED; i++) {
			if (!(x->now->valid & (1u << i)) ||
			    (!x->now->value[i] && !x->growth[i]))
				continue;
			rc = ibtopo_sink_printf(sink, "  %s=%" PRIu64 "%s",
				ibtopo_counter_name(i), x->now->value[i],
				(x->saturated & (1u << i)) ? "(saturated)" : "");
			if (!rc && x->before && x->hours > 0)
				rc = ibtopo_sink_printf(sink, " (+%" PRIu64
					" %.1f/h%s)", x->growth[i], x->rate[i],
					(x->reset & (1u << i)) ? ", reset" : "");
		}
		if (!rc)
			rc = ibtopo_sink_printf(sink, "\n");
	}
	if (!rc && !shown)
		rc = ibtopo_sink_printf(sink, "no port errors on %zu ports with "
					"counters\n", h->count);
	if (!rc && h->unread)
		rc = unread_text(sink, h);
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\n");
	if (!rc && h->since)
		rc = ibtopo__health_ber_text(sink, h);
	if (!rc && h->traffic)
		rc = traffic_text(sink, h->traffic);
	if (!rc && h->since)
		rc = ibtopo__health_congestion_text(sink, h, top_of(h));
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return ibtopo__findings_text(sink, NULL, 0, findings, err);
}

int ibtopo_report_health(const struct ibtopo_sink *sink,
			 const struct ibtopo_health *health,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	int rc;

	if (!sink || !sink->write || !health)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or health");
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		return write_json(sink, health, findings, err);
	case IBTOPO_FORMAT_CSV:
		/* the ports, an empty line, the findings (analyze's columns) */
		rc = write_csv(sink, health, err);
		if (rc)
			return rc;
		if (ibtopo_sink_printf(sink, "\n"))
			return ibtopo__error_set(err, IBTOPO_EIO,
						 "cannot write output");
		return ibtopo_report_findings(sink, NULL, findings, err);
	default:
		return write_text(sink, health, findings, err);
	}
}
