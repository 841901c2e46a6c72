/*
 * report_health_history.c - `ibtopo health --history NODE[:PORT]`: a
 * port's (or a cable's two ports') counters across the snapshots of its
 * fabric: per snapshot the time, the state, each error counter's value
 * and growth, the error rate, the BER.
 */
#include "report/report-health.h"
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

static const char *when(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "-");
	return buf;
}

static bool has_change(const struct ibtopo_history_row *r)
{
	return r->change.now && r->change.before;
}

static json *counters_json(const struct ibtopo_history_row *r, int what)
{
	const struct ibtopo_health_port *x = &r->change;
	json *o = ibtopo__json_object();

	for (int i = 0; o && i < IBTOPO_CTR_COUNT_; i++) {
		json *v;

		if (!(x->now->valid & (1u << i)) ||
		    (what && !(x->before->valid & (1u << i))))
			continue;
		v = what == 0 ? ibtopo__json_u64(x->now->value[i]) :
		    what == 1 ? ibtopo__json_u64(x->growth[i]) :
				ibtopo__json_real(x->rate[i]);
		if (ibtopo__json_set(o, ibtopo_counter_name(i), v)) {
			ibtopo__json_free(o);
			return NULL;
		}
	}
	return o;
}

static json *row_json(const struct ibtopo_history_row *r)
{
	const struct ibtopo_port_reading *g = r->reading;
	const struct ibtopo_health_port *x = &r->change;
	json *o = ibtopo__json_object();
	char t[32];
	int rc;

	rc = ibtopo__json_set(o, "id", ibtopo__json_int(g->snapshot_id)) ||
	     ibtopo__json_set(o, "label",
			      g->label ? ibtopo__json_string(g->label) :
					 ibtopo__json_null()) ||
	     ibtopo__json_set(
		     o, "taken_at",
		     ibtopo__json_string(when(t, sizeof(t), g->taken_at))) ||
	     ibtopo__json_set(o, "present", ibtopo__json_bool(g->present));
	if (!rc && g->present)
		rc = ibtopo__json_set(
			     o, "state",
			     ibtopo__json_string(
				     ibtopo_port_state_name(g->state))) ||
		     ibtopo__json_set(
			     o, "phys_state",
			     ibtopo__json_string(
				     ibtopo_phys_state_name(g->phys_state))) ||
		     ibtopo__json_set(
			     o, "speed",
			     g->speed_active ?
				     ibtopo__json_string(ibtopo_speed_name(
					     g->speed_active)) :
				     ibtopo__json_null()) ||
		     ibtopo__json_set(
			     o, "width",
			     g->width_active ?
				     ibtopo__json_string(ibtopo_width_name(
					     g->width_active)) :
				     ibtopo__json_null());
	if (!rc && x->now)
		rc = ibtopo__json_set(o, "read_at_ms",
				      ibtopo__json_int(x->now->read_at_ms)) ||
		     ibtopo__json_set(o, "counters", counters_json(r, 0));
	if (!rc && has_change(r))
		rc = ibtopo__json_set(o, "interval_s",
				      ibtopo__json_real(x->hours * 3600)) ||
		     ibtopo__json_set(o, "growth", counters_json(r, 1)) ||
		     ibtopo__json_set(o, "rate_per_hour",
				      counters_json(r, 2)) ||
		     ibtopo__json_set(o, "reset",
				      ibtopo__health_names_json(x->reset)) ||
		     ibtopo__json_set(o, "ber",
				      x->ber > 0 ? ibtopo__json_real(x->ber) :
						   ibtopo__json_null()) ||
		     ibtopo__json_set(o, "ber_upper_bound",
				      x->ber_bound > 0 ?
					      ibtopo__json_real(x->ber_bound) :
					      ibtopo__json_null()) ||
		     ibtopo__json_set(o, "xmit_wait_share",
				      x->wait_valid ?
					      ibtopo__json_real(x->wait_share) :
					      ibtopo__json_null());
	return ibtopo__json_kept(o, rc);
}

static json *history_json(const struct ibtopo_port_history *h)
{
	json *o = ibtopo__json_object(), *a = ibtopo__json_array();
	int rc = ibtopo__json_set(o, "node", ibtopo__json_string(h->node)) ||
		 ibtopo__json_set(o, "guid", ibtopo__json_guid(h->guid)) ||
		 ibtopo__json_set(o, "port", ibtopo__json_int(h->port));

	for (size_t i = 0; !rc && i < h->count; i++)
		rc = ibtopo__json_append(a, row_json(&h->rows[i]));
	if (!rc)
		rc = ibtopo__json_set(o, "snapshots", a);
	else
		ibtopo__json_free(a);
	return ibtopo__json_kept(o, rc);
}

static int write_json(const struct ibtopo_sink *sink,
		      const struct ibtopo_port_history *const *h, size_t n,
		      struct ibtopo_error *err)
{
	json *o = ibtopo__json_report(NULL), *a = ibtopo__json_array();
	int rc = o ? 0 : IBTOPO_ENOMEM;

	if (!rc && n && h[0]->fabric)
		rc = ibtopo__json_set(o, "fabric",
				      ibtopo__json_string(h[0]->fabric));
	for (size_t i = 0; !rc && i < n; i++)
		rc = ibtopo__json_append(a, history_json(h[i]));
	if (!rc)
		rc = ibtopo__json_set(o, "ports", a);
	else
		ibtopo__json_free(a);
	if (rc) {
		ibtopo__json_free(o);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	rc = ibtopo__json_dump(sink, o, err);
	ibtopo__json_free(o);
	return rc;
}

static int csv_row(const struct ibtopo_sink *sink,
		   const struct ibtopo_port_history *h,
		   const struct ibtopo_history_row *r)
{
	const struct ibtopo_port_reading *g = r->reading;
	const struct ibtopo_health_port *x = &r->change;
	char t[32];
	int rc =
		ibtopo__out_csv_field(sink, h->node) ||
		ibtopo_sink_printf(sink, ",0x%016" PRIx64 ",%u,%" PRId64 ",",
				   h->guid, h->port, g->snapshot_id) ||
		ibtopo__out_csv_field(sink, g->label ? g->label : "") ||
		ibtopo_sink_printf(
			sink, ",%s,%s,%s,%s,%s,%s",
			when(t, sizeof(t), g->taken_at),
			g->present ? "true" : "false",
			g->present ? ibtopo_port_state_name(g->state) : "",
			g->present ? ibtopo_phys_state_name(g->phys_state) : "",
			g->speed_active ? ibtopo_speed_name(g->speed_active) :
					  "",
			g->width_active ? ibtopo_width_name(g->width_active) :
					  "");

	if (!rc)
		rc = has_change(r) ? ibtopo_sink_printf(sink, ",%.3f",
							x->hours * 3600) :
				     ibtopo_sink_printf(sink, ",");
	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = x->now && (x->now->valid & (1u << i)) ?
			     ibtopo_sink_printf(sink, ",%" PRIu64,
						x->now->value[i]) :
			     ibtopo_sink_printf(sink, ",");
	for (int i = 0; !rc && i <= IBTOPO_CTR_VL15_DROPPED; i++)
		rc = has_change(r) && (x->now->valid & x->before->valid &
				       (1u << i)) ?
			     ibtopo_sink_printf(sink, ",%" PRIu64,
						x->growth[i]) :
			     ibtopo_sink_printf(sink, ",");
	if (!rc)
		rc = has_change(r) ?
			     ibtopo_sink_printf(sink, ",%.3f", x->error_rate) :
			     ibtopo_sink_printf(sink, ",");
	if (!rc)
		rc = x->ber > 0 ? ibtopo_sink_printf(sink, ",%.6g", x->ber) :
				  ibtopo_sink_printf(sink, ",");
	if (!rc)
		rc = x->ber_bound > 0 ?
			     ibtopo_sink_printf(sink, ",%.6g\n", x->ber_bound) :
			     ibtopo_sink_printf(sink, ",\n");
	return rc;
}

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo_port_history *const *h, size_t n,
		     struct ibtopo_error *err)
{
	int rc = ibtopo_sink_printf(sink,
				    "node,guid,port,snapshot,label,"
				    "taken_at,present,state,phys_state,speed,"
				    "width,interval_s");

	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = ibtopo_sink_printf(sink, ",%s", ibtopo_counter_name(i));
	for (int i = 0; !rc && i <= IBTOPO_CTR_VL15_DROPPED; i++)
		rc = ibtopo_sink_printf(sink, ",%s_growth",
					ibtopo_counter_name(i));
	if (!rc)
		rc = ibtopo_sink_printf(sink, ",error_rate_per_hour,ber,"
					      "ber_upper_bound\n");
	for (size_t k = 0; !rc && k < n; k++)
		for (size_t i = 0; !rc && i < h[k]->count; i++)
			rc = csv_row(sink, h[k], &h[k]->rows[i]);
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write output");
	return 0;
}

/* The error counters that are not 0 in some reading: the text's columns. */
static uint32_t shown_counters(const struct ibtopo_port_history *h)
{
	uint32_t mask = 0;

	for (size_t i = 0; i < h->count; i++) {
		const struct ibtopo_health_port *x = &h->rows[i].change;

		for (int c = 0; x->now && c <= IBTOPO_CTR_VL15_DROPPED; c++)
			if ((x->now->valid & (1u << c)) && x->now->value[c])
				mask |= 1u << c;
	}
	return mask;
}

static int text_row(const struct ibtopo_sink *sink,
		    const struct ibtopo_history_row *r, uint32_t mask)
{
	const struct ibtopo_port_reading *g = r->reading;
	const struct ibtopo_health_port *x = &r->change;
	char t[32], name[24];
	int rc;

	snprintf(name, sizeof(name), "%" PRId64 "%s%s", g->snapshot_id,
		 g->label ? " " : "", g->label ? g->label : "");
	/* the time of the reading, else of the snapshot */
	rc = ibtopo_sink_printf(
		sink, "  %-16s %-20s %-7s", name,
		when(t, sizeof(t),
		     x->now && x->now->read_at_ms ?
			     (time_t)(x->now->read_at_ms / 1000) :
			     g->taken_at),
		g->present ? ibtopo_port_state_name(g->state) : "absent");
	if (!rc && !x->now)
		return ibtopo_sink_printf(sink, "  no counters\n");
	for (int c = 0; !rc && c <= IBTOPO_CTR_VL15_DROPPED; c++) {
		if (!(mask & (1u << c)))
			continue;
		rc = ibtopo_sink_printf(
			sink, "  %s=%" PRIu64, ibtopo_counter_name(c),
			(x->now->valid & (1u << c)) ? x->now->value[c] : 0);
		if (!rc && has_change(r) && x->growth[c])
			rc = ibtopo_sink_printf(
				sink, " (+%" PRIu64 "%s)", x->growth[c],
				(x->reset & (1u << c)) ? ", reset" : "");
	}
	if (!rc && has_change(r))
		rc = ibtopo_sink_printf(sink, "  %.1f errors/h", x->error_rate);
	if (!rc && x->ber > 0)
		rc = ibtopo_sink_printf(sink, "  BER %.2g", x->ber);
	else if (!rc && x->ber_bound > 0)
		rc = ibtopo_sink_printf(sink, "  BER < %.2g", x->ber_bound);
	if (!rc)
		rc = ibtopo_sink_printf(sink, "\n");
	return rc;
}

static int write_text(const struct ibtopo_sink *sink,
		      const struct ibtopo_port_history *const *h, size_t n,
		      struct ibtopo_error *err)
{
	int rc = 0;

	for (size_t k = 0; !rc && k < n; k++) {
		uint32_t mask = shown_counters(h[k]);

		rc = ibtopo_sink_printf(sink,
					"%s%s port %u (0x%016" PRIx64
					"): %zu snapshot%s%s\n",
					k ? "\n" : "", h[k]->node, h[k]->port,
					h[k]->guid, h[k]->count,
					h[k]->count == 1 ? "" : "s",
					mask ? "" : ", no error counts");
		for (size_t i = 0; !rc && i < h[k]->count; i++)
			rc = text_row(sink, &h[k]->rows[i], mask);
	}
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write output");
	return 0;
}

int ibtopo_report_port_history(const struct ibtopo_sink *sink,
			       const struct ibtopo_port_history *const *h,
			       size_t n, struct ibtopo_error *err)
{
	if (!sink || !sink->write || (n && !h))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no sink or history");
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		return write_json(sink, h, n, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(sink, h, n, err);
	default:
		return write_text(sink, h, n, err);
	}
}
