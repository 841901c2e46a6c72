/* report_health.c - `ibtopo health`: per-port counters, rates, findings */
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

static json *json_u64(uint64_t v)
{
	if (v > INT64_MAX)
		return ibtopo__json_real((double)v);
	return ibtopo__json_int((int64_t)v);
}

static json *end_json(const struct ibtopo_port *p)
{
	json *o;

	if (!p)
		return ibtopo__json_null();
	o = ibtopo__json_object();
	if (!o)
		return NULL;
	if (ibtopo__json_set(o, "node", ibtopo__json_string(p->node->desc)) ||
	    ibtopo__json_set(o, "guid", ibtopo__json_guid(p->node->guid)) ||
	    ibtopo__json_set(o, "port", ibtopo__json_int(p->num))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* Names of the counters whose bit is set in `mask`, as a JSON array. */
static json *names_json(uint32_t mask)
{
	json *a = ibtopo__json_array();

	for (int i = 0; a && i < IBTOPO_CTR_COUNT_; i++) {
		if ((mask & (1u << i)) &&
		    ibtopo__json_append(a, ibtopo__json_string(
				ibtopo_counter_name(i)))) {
			ibtopo__json_free(a);
			return NULL;
		}
	}
	return a;
}

static json *port_json(const struct ibtopo_health *h,
		       const struct ibtopo_health_port *x)
{
	json *o = ibtopo__json_object(), *c = ibtopo__json_object();
	json *g = NULL, *r = NULL;
	int rc = !o || !c;

	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = ibtopo__json_set(c, ibtopo_counter_name(i),
			(x->now->valid & (1u << i)) ?
			json_u64(x->now->value[i]) : ibtopo__json_null());
	if (!rc)
		rc = ibtopo__json_set(o, "node", ibtopo__json_string(
				x->port->node->desc)) ||
		     ibtopo__json_set(o, "guid", ibtopo__json_guid(
				x->port->node->guid)) ||
		     ibtopo__json_set(o, "port", ibtopo__json_int(x->port->num)) ||
		     ibtopo__json_set(o, "peer", end_json(x->port->remote)) ||
		     ibtopo__json_set(o, "read_at_ms",
				      ibtopo__json_int(x->now->read_at_ms)) ||
		     ibtopo__json_set(o, "counters", c) ||
		     ibtopo__json_set(o, "saturated", names_json(x->saturated));
	c = NULL;
	if (!rc && h->since && !x->before)
		rc = ibtopo__json_set(o, "interval_h", ibtopo__json_null());
	if (!rc && h->since && x->before) {
		g = ibtopo__json_object();
		r = ibtopo__json_object();
		rc = !g || !r;
		for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++) {
			if (!(x->now->valid & x->before->valid & (1u << i)))
				continue;
			rc = ibtopo__json_set(g, ibtopo_counter_name(i),
					      json_u64(x->growth[i])) ||
			     ibtopo__json_set(r, ibtopo_counter_name(i),
					      ibtopo__json_real(x->rate[i]));
		}
		if (!rc)
			rc = ibtopo__json_set(o, "interval_h",
					      ibtopo__json_real(x->hours)) ||
			     ibtopo__json_set(o, "growth", g) ||
			     ibtopo__json_set(o, "rate_per_hour", r) ||
			     ibtopo__json_set(o, "reset", names_json(x->reset));
		g = r = NULL;
	}
	ibtopo__json_free(c);
	ibtopo__json_free(g);
	ibtopo__json_free(r);
	if (rc) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static int write_json(const struct ibtopo_sink *opts,
		      const struct ibtopo_health *h,
		      const struct ibtopo_findings *findings,
		      struct ibtopo_error *err)
{
	json *root = ibtopo__json_object(), *ports = ibtopo__json_array();
	int rc = !root || !ports;

	for (size_t i = 0; !rc && i < h->count; i++)
		rc = ibtopo__json_append(ports, port_json(h, &h->ports[i]));
	if (!rc)
		rc = ibtopo__json_set(root, "schema_version",
				      ibtopo__json_int(1)) ||
		     ibtopo__json_set(root, "ports", ports);
	ports = NULL;
	if (!rc)
		rc = ibtopo__json_set(root, "findings",
				      ibtopo__findings_json(findings));
	if (rc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	rc = ibtopo__json_dump(opts, root, err);
out_free:
	ibtopo__json_free(ports);
	ibtopo__json_free(root);
	return rc;
}

static int write_csv(const struct ibtopo_sink *opts,
		     const struct ibtopo_health *h, struct ibtopo_error *err)
{
	int rc = ibtopo__out_printf(opts, "node,guid,port,peer_node,peer_guid,"
				    "peer_port,read_at_ms");

	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = ibtopo__out_printf(opts, ",%s", ibtopo_counter_name(i));
	if (!rc && h->since)
		rc = ibtopo__out_printf(opts, ",interval_h");
	for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED; i++)
		rc = ibtopo__out_printf(opts, ",%s_per_hour",
					ibtopo_counter_name(i));
	if (!rc)
		rc = ibtopo__out_printf(opts, "\n");
	for (size_t k = 0; !rc && k < h->count; k++) {
		const struct ibtopo_health_port *x = &h->ports[k];
		const struct ibtopo_port *peer = x->port->remote;

		rc = ibtopo__out_csv_field(opts, x->port->node->desc);
		if (!rc)
			rc = ibtopo__out_printf(opts, ",0x%016" PRIx64 ",%u,",
						x->port->node->guid,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo__out_csv_field(opts, peer->node->desc) ||
			     ibtopo__out_printf(opts, ",0x%016" PRIx64 ",%u",
						peer->node->guid, peer->num);
		else if (!rc)
			rc = ibtopo__out_printf(opts, ",,");
		if (!rc)
			rc = ibtopo__out_printf(opts, ",%" PRId64,
						x->now->read_at_ms);
		for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
			rc = (x->now->valid & (1u << i)) ?
			     ibtopo__out_printf(opts, ",%" PRIu64,
						x->now->value[i]) :
			     ibtopo__out_printf(opts, ",");
		if (!rc && h->since)
			rc = x->before ? ibtopo__out_printf(opts, ",%.6f",
							    x->hours) :
			     ibtopo__out_printf(opts, ",");
		for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED;
		     i++)
			rc = x->before && (x->now->valid & x->before->valid &
					   (1u << i)) ?
			     ibtopo__out_printf(opts, ",%.3f", x->rate[i]) :
			     ibtopo__out_printf(opts, ",");
		if (!rc)
			rc = ibtopo__out_printf(opts, "\n");
	}
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

/* Ports with errors (or growth), worst first; then the findings. */
static int write_text(const struct ibtopo_sink *opts,
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
			rc = ibtopo__out_printf(opts, "ports with errors%s:\n",
				h->since ? " (count, and growth per hour)" : "");
		if (!rc)
			rc = ibtopo__out_printf(opts, "  %s port %u", 
						x->port->node->desc,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo__out_printf(opts, " <-> %s port %u",
						peer->node->desc, peer->num);
		for (int i = 0; !rc && i <= IBTOPO_CTR_VL15_DROPPED; i++) {
			if (!(x->now->valid & (1u << i)) ||
			    (!x->now->value[i] && !x->growth[i]))
				continue;
			rc = ibtopo__out_printf(opts, "  %s=%" PRIu64 "%s",
				ibtopo_counter_name(i), x->now->value[i],
				(x->saturated & (1u << i)) ? "(saturated)" : "");
			if (!rc && x->before && x->hours > 0)
				rc = ibtopo__out_printf(opts, " (+%" PRIu64
					" %.1f/h%s)", x->growth[i], x->rate[i],
					(x->reset & (1u << i)) ? ", reset" : "");
		}
		if (!rc)
			rc = ibtopo__out_printf(opts, "\n");
	}
	if (!rc && !shown)
		rc = ibtopo__out_printf(opts, "no port errors on %zu ports with "
					"counters\n", h->count);
	if (!rc)
		rc = ibtopo__out_printf(opts, "\n");
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return ibtopo__findings_text(opts, findings, err);
}

int ibtopo_report_health(const struct ibtopo_sink *opts,
			 const struct ibtopo_health *health,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	if (!opts || !opts->write || !health)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or health");
	switch (opts->format) {
	case IBTOPO_FORMAT_JSON:
		return write_json(opts, health, findings, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(opts, health, err);
	default:
		return write_text(opts, health, findings, err);
	}
}
