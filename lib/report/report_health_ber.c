/*
 * report_health_ber.c - `ibtopo health --since`: the bit error rate of
 * each link and the ports that wait to send (JSON objects, CSV cells and
 * text sections report_health.c puts in place).
 */
#include "report/report-int.h"
#include "report/report-health.h"
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

/* {"node","guid","port"} of a port; NULL is null (report_health.c too) */
json *ibtopo__health_end_json(const struct ibtopo_port *p)
{
	json *o;

	if (!p)
		return ibtopo__json_null();
	o = ibtopo__json_object();
	if (ibtopo__json_set(o, "node", ibtopo__json_string(p->node->desc)) ||
	    ibtopo__json_set(o, "guid", ibtopo__json_guid(p->node->guid)) ||
	    ibtopo__json_set(o, "port", ibtopo__json_int(p->num))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static json *real_or_null(double v, bool set)
{
	return set ? ibtopo__json_real(v) : ibtopo__json_null();
}

int ibtopo__health_port_ber_json(json *o, const struct ibtopo_health_port *x)
{
	return ibtopo__json_set(o, "lanes", ibtopo__json_int(x->lanes)) ||
	       ibtopo__json_set(o, "lane_gbps",
				real_or_null(x->lane_gbps, x->lane_gbps > 0)) ||
	       ibtopo__json_set(o, "ber", real_or_null(x->ber, x->ber > 0)) ||
	       ibtopo__json_set(o, "ber_upper_bound",
				real_or_null(x->ber_bound, x->ber_bound > 0)) ||
	       ibtopo__json_set(o, "xmit_wait_per_s",
				real_or_null(x->wait_per_s, x->wait_valid)) ||
	       ibtopo__json_set(o, "xmit_wait_share",
				real_or_null(x->wait_share, x->wait_valid)) ||
	       ibtopo__json_set(o, "xmit_wait_ratio",
				real_or_null(x->wait_ratio, x->wait_valid)) ||
	       ibtopo__json_set(o, "level",
				x->level >= 0 ? ibtopo__json_int(x->level) :
						ibtopo__json_null()) ||
	       ibtopo__json_set(o, "direction",
				x->direction ?
					ibtopo__json_string(x->direction) :
					ibtopo__json_null());
}

static json *link_json(const struct ibtopo_health_link *l)
{
	const struct ibtopo_health_port *w = l->worst;
	json *o = ibtopo__json_object();

	if (ibtopo__json_set(o, "a", ibtopo__health_end_json(w->port)) ||
	    ibtopo__json_set(o, "b",
			     ibtopo__health_end_json(w->port->remote)) ||
	    ibtopo__json_set(
		    o, "speed",
		    ibtopo__json_string(ibtopo_speed_name(l->link->speed))) ||
	    ibtopo__json_set(
		    o, "width",
		    ibtopo__json_string(ibtopo_width_name(l->link->width))) ||
	    ibtopo__json_set(o, "lanes", ibtopo__json_int(w->lanes)) ||
	    ibtopo__json_set(o, "lane_gbps", ibtopo__json_real(w->lane_gbps)) ||
	    ibtopo__json_set(o, "interval_s", ibtopo__json_real(l->seconds)) ||
	    ibtopo__json_set(o, "symbol_errors",
			     ibtopo__json_u64(l->symbol_errors)) ||
	    ibtopo__json_set(o, "ber", real_or_null(l->ber, l->ber > 0)) ||
	    ibtopo__json_set(o, "ber_upper_bound",
			     real_or_null(l->ber_bound, l->ber <= 0)) ||
	    ibtopo__json_set(o, "threshold", ibtopo__json_real(l->threshold))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

json *ibtopo__health_links_json(const struct ibtopo_health *h)
{
	json *a = ibtopo__json_array();

	for (size_t i = 0; a && i < h->nlinks; i++)
		if (ibtopo__json_append(a, link_json(&h->links[i]))) {
			ibtopo__json_free(a);
			return NULL;
		}
	return a;
}

static json *congested_json(const struct ibtopo_health_port *x)
{
	json *o = ibtopo__json_object();

	if (ibtopo__json_set(o, "node",
			     ibtopo__json_string(x->port->node->desc)) ||
	    ibtopo__json_set(o, "guid",
			     ibtopo__json_guid(x->port->node->guid)) ||
	    ibtopo__json_set(o, "port", ibtopo__json_int(x->port->num)) ||
	    ibtopo__json_set(o, "peer",
			     ibtopo__health_end_json(x->port->remote)) ||
	    ibtopo__json_set(
		    o, "xmit_wait",
		    ibtopo__json_u64(x->growth[IBTOPO_CTR_XMIT_WAIT])) ||
	    ibtopo__health_port_ber_json(o, x)) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* {"threshold":X,"top":N,"ports_waiting":N,"ports":[most waiting]} */
json *ibtopo__health_congestion_json(const struct ibtopo_health *h, size_t top)
{
	json *o = ibtopo__json_object(), *a = ibtopo__json_array();
	int rc = ibtopo__json_set(o, "threshold",
				  ibtopo__json_real(h->wait_threshold)) ||
		 ibtopo__json_set(o, "top", ibtopo__json_int((int64_t)top)) ||
		 ibtopo__json_set(o, "ports_waiting",
				  ibtopo__json_int((int64_t)h->ncongested));

	for (size_t i = 0; !rc && i < h->ncongested && i < top; i++)
		rc = ibtopo__json_append(a, congested_json(h->congested[i]));
	if (!rc)
		rc = ibtopo__json_set(o, "ports", a);
	else
		ibtopo__json_free(a);
	return ibtopo__json_kept(o, rc);
}

/* ---- CSV: after the per-hour rates, with --since ---- */

int ibtopo__health_csv_header(const struct ibtopo_sink *sink)
{
	return ibtopo_sink_printf(sink, ",ber,ber_upper_bound,xmit_wait_per_s,"
					"xmit_wait_share,xmit_wait_ratio");
}

int ibtopo__health_csv_cells(const struct ibtopo_sink *sink,
			     const struct ibtopo_health_port *x)
{
	int rc = x->ber > 0 ? ibtopo_sink_printf(sink, ",%.6g", x->ber) :
			      ibtopo_sink_printf(sink, ",");

	if (!rc)
		rc = x->ber_bound > 0 ?
			     ibtopo_sink_printf(sink, ",%.6g", x->ber_bound) :
			     ibtopo_sink_printf(sink, ",");
	if (!rc && x->wait_valid)
		rc = ibtopo_sink_printf(sink, ",%.6g,%.6g,%.6g", x->wait_per_s,
					x->wait_share, x->wait_ratio);
	else if (!rc)
		rc = ibtopo_sink_printf(sink, ",,,");
	return rc;
}

/* ---- text ---- */

static const char *where(char *buf, size_t len,
			 const struct ibtopo_health_port *x)
{
	if (x->direction && x->level > 0)
		snprintf(buf, len, "level %d %s-link", x->level, x->direction);
	else if (x->direction)
		snprintf(buf, len, "%s link", x->direction);
	else
		snprintf(buf, len, "level unknown");
	return buf;
}

/* The links whose symbol errors grew, worst first; the bound of the rest. */
int ibtopo__health_ber_text(const struct ibtopo_sink *sink,
			    const struct ibtopo_health *h)
{
	double bound = 0;
	size_t clean = 0, shown = 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < h->nlinks; i++) {
		const struct ibtopo_health_link *l = &h->links[i];
		const struct ibtopo_port *p = l->worst->port;

		if (l->ber <= 0) {
			clean++;
			if (l->ber_bound > bound)
				bound = l->ber_bound;
			continue;
		}
		if (!shown++)
			rc = ibtopo_sink_printf(
				sink, "bit error rate (symbol "
				      "errors / bits received, the worse "
				      "direction):\n");
		if (!rc)
			rc = ibtopo_sink_printf(
				sink,
				"  %s port %u <- %s port %u  BER %.2g%s  (%" PRIu64
				" symbol errors in %.0f s, %s %s at "
				"%g Gb/s a lane; threshold %.2g)\n",
				p->node->desc, p->num,
				p->remote ? p->remote->node->desc : "?",
				p->remote ? p->remote->num : 0, l->ber,
				l->ber > l->threshold ? " HIGH" : "",
				l->symbol_errors, l->seconds,
				ibtopo_width_name(l->link->width),
				ibtopo_speed_name(l->link->speed),
				l->worst->lane_gbps, l->threshold);
	}
	if (!rc && clean)
		rc = ibtopo_sink_printf(
			sink,
			"%s%zu link%s without symbol "
			"errors: BER below 1/(bits in the interval), %.2g or "
			"less\n",
			shown ? "  " : "bit error rate: ", clean,
			clean == 1 ? "" : "s", bound);
	if (!rc && (shown || clean))
		rc = ibtopo_sink_printf(sink, "\n");
	return rc;
}

/*
 * Where the congested ports (above the threshold) are: one line per
 * level and direction, most ports first ("level 2 down-links: 3
 * ports"), so "the spines' down-links are congested" reads at once.
 */
static int congested_where(const struct ibtopo_sink *sink,
			   const struct ibtopo_health *h)
{
	enum { LEVELS = 16, DIRS = 5 };
	static const char *const dirs[DIRS] = { "up", "down", "across", "host",
						NULL };
	size_t n[LEVELS][DIRS] = { { 0 } };
	int rc = 0;

	for (size_t i = 0; i < h->ncongested; i++) {
		const struct ibtopo_health_port *x = h->congested[i];
		int d = 0;

		if (x->wait_share <= h->wait_threshold)
			continue;
		while (d < DIRS - 1 &&
		       (!x->direction || strcmp(dirs[d], x->direction) != 0))
			d++;
		n[x->level >= 0 && x->level < LEVELS ? x->level : 0][d]++;
	}
	for (;;) {
		size_t best = 0;
		int bl = 0, bd = 0;
		char b[48];

		for (int l = 0; l < LEVELS; l++)
			for (int d = 0; d < DIRS; d++)
				if (n[l][d] > best) {
					best = n[l][d];
					bl = l;
					bd = d;
				}
		if (!best || rc)
			break;
		if (dirs[bd] && bl > 0)
			snprintf(b, sizeof(b), "level %d %s-links", bl,
				 dirs[bd]);
		else if (dirs[bd])
			snprintf(b, sizeof(b), "%s links", dirs[bd]);
		else
			snprintf(b, sizeof(b), "links of unknown level");
		rc = ibtopo_sink_printf(sink, "  congested: %s, %zu port%s\n",
					b, best, best == 1 ? "" : "s");
		n[bl][bd] = 0;
	}
	return rc;
}

/* The ports most waiting to send, and where they are in the fabric. */
int ibtopo__health_congestion_text(const struct ibtopo_sink *sink,
				   const struct ibtopo_health *h, size_t top)
{
	char b[48];
	int rc;

	if (!h->ncongested)
		return ibtopo_sink_printf(sink, "congestion: no PortXmitWait "
						"growth\n\n");
	rc = ibtopo_sink_printf(
		sink,
		"most congested ports (%zu of %zu "
		"waiting; PortXmitWait/s, capacity lost at 8 bytes a tick as "
		"ibdiagnet counts, lost/sent):\n",
		h->ncongested < top ? h->ncongested : top, h->ncongested);
	for (size_t i = 0; !rc && i < h->ncongested && i < top; i++) {
		const struct ibtopo_health_port *x = h->congested[i];
		const struct ibtopo_port *p = x->port;

		rc = ibtopo_sink_printf(
			sink,
			"  %s port %u -> %s port %u  %.3g/s  %.1f%%%s  "
			"%.3g  (%s)\n",
			p->node->desc, p->num,
			p->remote ? p->remote->node->desc : "?",
			p->remote ? p->remote->num : 0, x->wait_per_s,
			x->wait_share * 100,
			x->wait_share > h->wait_threshold ? " CONGESTED" : "",
			x->wait_ratio, where(b, sizeof(b), x));
	}
	if (!rc)
		rc = congested_where(sink, h);
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\n");
	return rc;
}
