/*
 * report_routes.c - the routing analysis in reports (`ibtopo routes`, the
 * routing section of `analyze`): JSON {"schema_version","routes":{...},
 * "findings":[...]}, a text summary with the busiest ports, CSV one row
 * per port that carries routes, an empty line, then the findings table.
 */
#include "report/report-int.h"
#include "analysis/analysis-int.h"
#include "ibtopo-int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

/* the busiest ports the text shows: lines, and ports that tie in one */
#define TEXT_PORTS 10
#define TIE_PORTS 3

/* "" for one, "s" for any other count */
static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

static json *spread_json(const struct ibtopo_route_spread *s)
{
	json *o = ibtopo__json_object();

	if (!o)
		return NULL;
	if (ibtopo__json_set(o, "min", s->n ? ibtopo__json_real(s->min) :
					    ibtopo__json_null()) ||
	    ibtopo__json_set(o, "median", s->n ? ibtopo__json_real(s->median) :
					       ibtopo__json_null()) ||
	    ibtopo__json_set(o, "max", s->n ? ibtopo__json_real(s->max) :
					    ibtopo__json_null())) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static json *side_json(size_t n, const struct ibtopo_route_spread *routes,
		       const struct ibtopo_route_spread *dlids)
{
	json *o = ibtopo__json_object();

	if (!o)
		return NULL;
	if (ibtopo__json_set(o, "ports", ibtopo__json_int((int64_t)n)) ||
	    ibtopo__json_set(o, "routes", spread_json(routes)) ||
	    ibtopo__json_set(o, "dlids", spread_json(dlids))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static json *port_json(const struct ibtopo_route_port *p)
{
	json *o = ibtopo__json_object();

	if (!o)
		return NULL;
	if (ibtopo__json_set(o, "guid", ibtopo__json_guid(p->port->node->guid)) ||
	    ibtopo__json_set(o, "node", ibtopo__json_string(p->port->node->desc)) ||
	    ibtopo__json_set(o, "port", ibtopo__json_int(p->port->num)) ||
	    ibtopo__json_set(o, "routes", ibtopo__json_u64(p->routes)) ||
	    ibtopo__json_set(o, "dlids", ibtopo__json_int(p->dlids)) ||
	    ibtopo__json_set(o, "level", p->level ?
			     ibtopo__json_int(p->level) : ibtopo__json_null()) ||
	    ibtopo__json_set(o, "up", ibtopo__json_bool(p->up))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* The "routes" object. */
json *ibtopo__report_routes_json(const struct ibtopo_routes *r)
{
	json *o = ibtopo__json_object(), *hops = ibtopo__json_object();
	json *ports = ibtopo__json_array(), *levels = ibtopo__json_array();
	json *lp = ibtopo__json_object(), *ebb = ibtopo__json_object();
	int rc = !o || !hops || !ports || !levels || !lp || !ebb;

	for (size_t h = 0; !rc && h < r->nhops; h++) {
		char key[24];

		if (!r->hops[h])
			continue;
		snprintf(key, sizeof(key), "%zu", h);
		rc = ibtopo__json_set(hops, key, ibtopo__json_u64(r->hops[h]));
	}
	for (size_t i = 0; !rc && i < r->nports; i++)
		rc = ibtopo__json_append(ports, port_json(&r->ports[i]));
	for (size_t i = 0; !rc && i < r->nlevels; i++) {
		const struct ibtopo_route_level *L = &r->levels[i];
		json *l = ibtopo__json_object();

		rc = !l || ibtopo__json_append(levels, l) ||
		     ibtopo__json_set(l, "level", L->level ?
				      ibtopo__json_int(L->level) :
				      ibtopo__json_null()) ||
		     ibtopo__json_set(l, "up", side_json(L->up_routes.n,
							 &L->up_routes,
							 &L->up_dlids)) ||
		     ibtopo__json_set(l, "down", side_json(L->down_routes.n,
							   &L->down_routes,
							   &L->down_dlids));
	}
	if (!rc)
		rc = ibtopo__json_set(lp, "pairs", ibtopo__json_int(
					      (int64_t)r->leaf_spines_used.n)) ||
		     ibtopo__json_set(lp, "spines_used",
				      spread_json(&r->leaf_spines_used)) ||
		     ibtopo__json_set(lp, "node_disjoint",
				      spread_json(&r->leaf_spines_cabled)) ||
		     ibtopo__json_set(lp, "edge_disjoint",
				      spread_json(&r->leaf_paths_cabled)) ||
		     ibtopo__json_set(lp, "underused", ibtopo__json_int(
					      (int64_t)r->leaf_pairs_underused));
	if (!rc)
		rc = ibtopo__json_set(ebb, "mean", r->bisections ?
				      ibtopo__json_real(r->ebb_mean) :
				      ibtopo__json_null()) ||
		     ibtopo__json_set(ebb, "min", r->bisections ?
				      ibtopo__json_real(r->ebb_min) :
				      ibtopo__json_null()) ||
		     ibtopo__json_set(ebb, "bisections",
				      ibtopo__json_int(r->bisections)) ||
		     ibtopo__json_set(ebb, "seed", ibtopo__json_u64(r->seed));
	if (!rc)
		rc = ibtopo__json_set(o, "engine", ibtopo__json_string(r->engine)) ||
		     ibtopo__json_set(o, "switches",
				      ibtopo__json_int((int64_t)r->switches)) ||
		     ibtopo__json_set(o, "switches_with_tables",
				      ibtopo__json_int((int64_t)
						       r->switches_with_tables)) ||
		     ibtopo__json_set(o, "ca_ports",
				      ibtopo__json_int((int64_t)r->ca_ports)) ||
		     ibtopo__json_set(o, "dlids",
				      ibtopo__json_int((int64_t)r->dest_lids)) ||
		     ibtopo__json_set(o, "ca_pairs", ibtopo__json_u64(r->ca_pairs)) ||
		     ibtopo__json_set(o, "lid_pairs", ibtopo__json_u64(r->lid_pairs)) ||
		     ibtopo__json_set(o, "unreachable_pairs",
				      ibtopo__json_u64(r->unreachable_pairs)) ||
		     ibtopo__json_set(o, "black_holes",
				      ibtopo__json_int((int64_t)r->black_holes)) ||
		     ibtopo__json_set(o, "loops",
				      ibtopo__json_int((int64_t)r->loops)) ||
		     ibtopo__json_set(o, "not_minimal",
				      ibtopo__json_int((int64_t)r->not_minimal)) ||
		     ibtopo__json_set(o, "credit_loops",
				      ibtopo__json_int((int64_t)r->credit_loops)) ||
		     ibtopo__json_set(o, "hops", hops) ||
		     ibtopo__json_set(o, "by_level", levels) ||
		     ibtopo__json_set(o, "leaf_pairs", lp) ||
		     ibtopo__json_set(o, "ports", ports) ||
		     ibtopo__json_set(o, "ebb", ebb);
	else {
		ibtopo__json_free(hops);
		ibtopo__json_free(levels);
		ibtopo__json_free(lp);
		ibtopo__json_free(ports);
		ibtopo__json_free(ebb);
	}
	return ibtopo__json_kept(o, rc);
}

static int routes_section_json(struct ibtopo__json *root,
			       const struct ibtopo_routes *routes)
{
	json *o = ibtopo__report_routes_json(routes);

	if (!o)
		return IBTOPO_ENOMEM;
	return ibtopo__json_set(root, "routes", o);
}

static void spread_text(struct ibtopo__wr *w, const char *what,
			const struct ibtopo_route_spread *s)
{
	if (!s->n)
		return;
	ibtopo__wr_printf(w, " %s %g/%g/%g", what, s->min, s->median, s->max);
}

/* Ports by routes, most first; ties in node and port order. */
static int busiest_cmp(const void *a, const void *b)
{
	const struct ibtopo_route_port *x = *(const struct ibtopo_route_port *const *)a;
	const struct ibtopo_route_port *y = *(const struct ibtopo_route_port *const *)b;

	if (x->routes != y->routes)
		return x->routes > y->routes ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool is_host_port(const struct ibtopo_route_port *p)
{
	return p->port->remote && p->port->remote->node->type == IBTOPO_NODE_CA;
}

/* One line for ports that tie: "32 host ports with 31 routes each". */
static void ties_text(struct ibtopo__wr *w, size_t n, const char *what,
		      uint64_t lo, uint64_t hi)
{
	ibtopo__wr_printf(w, "  %zu %s port%s with %" PRIu64, n, what,
			  plural((double)n), lo);
	if (lo != hi)
		ibtopo__wr_printf(w, " to %" PRIu64 " routes\n", hi);
	else
		ibtopo__wr_printf(w, " route%s%s\n", plural((double)hi),
				  n == 1 ? "" : " each");
}

static void port_text(struct ibtopo__wr *w, const struct ibtopo_route_port *p)
{
	ibtopo__wr_printf(w, "  %s [%u]: %" PRIu64 " route%s, %u dlid%s\n",
			  p->port->node->desc, p->port->num, p->routes,
			  plural((double)p->routes), p->dlids,
			  plural(p->dlids));
}

/*
 * The busiest ports, ties summarized: the host ports (to a CA) are one
 * line, every CA routing to one LID through it; among the switch ports
 * those that stand out are named, and a run of TIE_PORTS or more with
 * the same routes is one line. False when out of memory.
 */
static bool busiest_text(struct ibtopo__wr *w, const struct ibtopo_routes *r)
{
	const struct ibtopo_route_port **by;
	uint64_t hlo = 0, hhi = 0;
	size_t nhost = 0, n = 0, lines = 0;

	if (!r->nports)
		return true;
	by = malloc(r->nports * sizeof(*by));
	if (!by)
		return false;
	for (size_t i = 0; i < r->nports; i++) {
		const struct ibtopo_route_port *p = &r->ports[i];

		if (!p->routes)
			continue;
		if (!is_host_port(p)) {
			by[n++] = p;
			continue;
		}
		if (!nhost || p->routes < hlo)
			hlo = p->routes;
		if (!nhost || p->routes > hhi)
			hhi = p->routes;
		nhost++;
	}
	qsort(by, n, sizeof(*by), busiest_cmp);
	if (nhost || n)
		ibtopo__wr_printf(w, "busiest ports (CA routes, destination "
				     "LIDs):\n");
	if (nhost)
		ties_text(w, nhost, "host", hlo, hhi);
	for (size_t i = 0; i < n && lines < TEXT_PORTS; lines++) {
		size_t j = i;

		while (j < n && by[j]->routes == by[i]->routes)
			j++;
		if (j - i >= TIE_PORTS) {
			ties_text(w, j - i, "switch", by[i]->routes,
				  by[i]->routes);
			i = j;
		} else {
			port_text(w, by[i++]);
		}
	}
	free(by);
	return true;
}

/* The routing summary and busiest ports; IBTOPO_EIO, IBTOPO_ENOMEM. */
static int routes_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_routes *r)
{
	struct ibtopo__wr w = { sink, 0 };

	ibtopo__wr_printf(&w, "routing: engine %s; %zu of %zu switches with "
			  "tables; %zu CA ports, %" PRIu64 " CA pairs, ",
			  r->engine ? r->engine : "unknown",
			  r->switches_with_tables, r->switches, r->ca_ports,
			  r->ca_pairs);
	/* with LMC > 0 unreachable counts per destination LID */
	if (r->lid_pairs != r->ca_pairs)
		ibtopo__wr_printf(&w, "%" PRIu64 " with every LID of the LMC "
				  "ranges, ", r->lid_pairs);
	ibtopo__wr_printf(&w, "%" PRIu64 " unreachable\n",
			  r->unreachable_pairs);
	ibtopo__wr_printf(&w, "faults: %zu black hole%s, %zu loop%s, %zu "
			  "route%s longer than the cables allow, %zu credit "
			  "loop%s\n", r->black_holes,
			  r->black_holes == 1 ? "" : "s", r->loops,
			  r->loops == 1 ? "" : "s", r->not_minimal,
			  r->not_minimal == 1 ? "" : "s", r->credit_loops,
			  r->credit_loops == 1 ? "" : "s");
	ibtopo__wr_printf(&w, "hops (links, CA to CA):");
	for (size_t h = 0; h < r->nhops; h++)
		if (r->hops[h])
			ibtopo__wr_printf(&w, " %zu: %" PRIu64, h, r->hops[h]);
	ibtopo__wr_printf(&w, "\nroutes per out-port (min/median/max):\n");
	for (size_t i = 0; i < r->nlevels; i++) {
		const struct ibtopo_route_level *L = &r->levels[i];

		if (L->level)
			ibtopo__wr_printf(&w, "  level %d:", L->level);
		else
			ibtopo__wr_printf(&w, "  all switches:");
		if (L->up_routes.n)
			ibtopo__wr_printf(&w, " %zu up", L->up_routes.n);
		spread_text(&w, "routes", &L->up_routes);
		spread_text(&w, "dlids", &L->up_dlids);
		if (L->down_routes.n)
			ibtopo__wr_printf(&w, "%s %zu down",
					  L->up_routes.n ? ";" : "",
					  L->down_routes.n);
		spread_text(&w, "routes", &L->down_routes);
		spread_text(&w, "dlids", &L->down_dlids);
		ibtopo__wr_printf(&w, "\n");
	}
	if (r->leaf_spines_used.n) {
		ibtopo__wr_printf(&w, "leaf pairs: %zu (each counted once, by "
				  "the direction that uses fewer spines);",
				  r->leaf_spines_used.n);
		if (r->leaf_spines_cabled.n)
			ibtopo__wr_printf(&w, " %g spine%s reachable by cables "
					  "(median, min %g; node-disjoint "
					  "paths),",
					  r->leaf_spines_cabled.median,
					  plural(r->leaf_spines_cabled.median),
					  r->leaf_spines_cabled.min);
		ibtopo__wr_printf(&w, " %g spine%s used by routing (median, "
				  "min %g); %zu pair%s use%s fewer spines than "
				  "the cables reach", r->leaf_spines_used.median,
				  plural(r->leaf_spines_used.median),
				  r->leaf_spines_used.min,
				  r->leaf_pairs_underused,
				  r->leaf_pairs_underused == 1 ? "" : "s",
				  r->leaf_pairs_underused == 1 ? "s" : "");
		if (r->leaf_paths_cabled.n)
			ibtopo__wr_printf(&w, "; %g edge-disjoint path%s "
					  "(median, min %g; parallel cables "
					  "count)", r->leaf_paths_cabled.median,
					  plural(r->leaf_paths_cabled.median),
					  r->leaf_paths_cabled.min);
		ibtopo__wr_printf(&w, "\n");
	}
	if (r->bisections)
		ibtopo__wr_printf(&w, "effective bisection bandwidth: mean %.3f, "
				  "min %.3f over %u bisections (seed %" PRIu64
				  ")\n", r->ebb_mean, r->ebb_min,
				  r->bisections, r->seed);
	if (!busiest_text(&w, r))
		return IBTOPO_ENOMEM;
	return w.rc;
}

static int section_json(struct ibtopo__json *root,
			const struct ibtopo_analysis *an)
{
	return an->routes ? routes_section_json(root, an->routes) : 0;
}

static int section_text(const struct ibtopo_sink *sink,
			const struct ibtopo_analysis *an)
{
	int rc;

	if (!an->routes)
		return 0;
	rc = routes_text(sink, an->routes);
	return rc ? rc : ibtopo_sink_printf(sink, "\n");
}

/* ibtopo_report_analysis(): "routes" beside "fabric"; the summary */
const struct ibtopo__report_section ibtopo__report_section_routes = {
	"routes", section_json, section_text,
};

static int write_csv(const struct ibtopo_sink *sink, const struct ibtopo_routes *r,
		     struct ibtopo_error *err)
{
	int rc = ibtopo_sink_printf(sink, "guid,node,port,routes,dlids,level,up\n");

	for (size_t i = 0; !rc && i < r->nports; i++) {
		const struct ibtopo_route_port *p = &r->ports[i];

		rc = ibtopo_sink_printf(sink, "0x%016" PRIx64 ",", p->port->node->guid) ||
		     ibtopo__out_csv_field(sink, p->port->node->desc) ||
		     ibtopo_sink_printf(sink, ",%u,%" PRIu64 ",%u,", p->port->num,
					p->routes, p->dlids);
		if (!rc && p->level)
			rc = ibtopo_sink_printf(sink, "%d", p->level);
		if (!rc)
			rc = ibtopo_sink_printf(sink, ",%s\n",
						p->up ? "true" : "false");
	}
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

int ibtopo_report_routes(const struct ibtopo_sink *sink,
			 const struct ibtopo_routes *routes,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	if (!routes)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no sink or routes");
	return ibtopo_report_routes_mcast(sink, routes, NULL, findings, err);
}

static int text_and_csv(const struct ibtopo_sink *sink,
			const struct ibtopo_routes *routes,
			const struct ibtopo_mcast *mcast,
			const struct ibtopo_findings *findings,
			struct ibtopo_error *err)
{
	bool csv = sink->format == IBTOPO_FORMAT_CSV;
	int rc = 0;

	if (routes && csv)
		rc = write_csv(sink, routes, err);
	else if (routes)
		rc = routes_text(sink, routes);
	if (!rc && routes && ibtopo_sink_printf(sink, "\n"))
		rc = IBTOPO_EIO;
	/* the ports, an empty line, the MLIDs, an empty line, the findings
	 * (analyze's columns) */
	if (!rc && mcast)
		rc = csv ? ibtopo__mcast_csv(sink, mcast) :
			   ibtopo__mcast_text(sink, mcast);
	if (!rc && mcast && ibtopo_sink_printf(sink, "\n"))
		rc = IBTOPO_EIO;
	if (rc == IBTOPO_ENOMEM)
		return ibtopo__error_set(err, rc, "out of memory");
	if (rc)
		return err && err->code ? rc :
			ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	if (csv)
		return ibtopo_report_findings(sink, NULL, findings, err);
	return ibtopo__findings_text(sink, NULL, 0, findings, err);
}

int ibtopo_report_routes_mcast(const struct ibtopo_sink *sink,
			       const struct ibtopo_routes *routes,
			       const struct ibtopo_mcast *mcast,
			       const struct ibtopo_findings *findings,
			       struct ibtopo_error *err)
{
	json *root = NULL;
	int rc;

	if (!sink || !sink->write || (!routes && !mcast))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no sink, or neither routes nor "
					 "multicast");
	if (sink->format != IBTOPO_FORMAT_JSON)
		return text_and_csv(sink, routes, mcast, findings, err);
	root = ibtopo__json_report(routes ? routes->fabric : mcast->fabric);
	if (!root || (routes && routes_section_json(root, routes)) ||
	    (mcast && ibtopo__mcast_json(root, mcast)) ||
	    ibtopo__json_set(root, "findings", ibtopo__findings_json(findings))) {
		ibtopo__json_free(root);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	rc = ibtopo__json_dump(sink, root, err);
	ibtopo__json_free(root);
	return rc;
}
