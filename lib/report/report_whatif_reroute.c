/*
 * report_whatif_reroute.c - OpenSM's reroute in the whatif report: the
 * routing of the same engine before and after the failure side by side
 * (reachability, balance per level, credit loops, EBB), and the busiest
 * ports that survive, with what they carried before.
 */
#include "report/report-int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

#define TOP_DEFAULT 10

/* The routes a port (by its node's GUID and number) carried, 0 if none. */
static uint64_t routes_of(const struct ibtopo_routes *r, uint64_t guid,
			  unsigned num)
{
	for (size_t i = 0; r && i < r->nports; i++)
		if (r->ports[i].port->node->guid == guid &&
		    r->ports[i].port->num == num)
			return r->ports[i].routes;
	return 0;
}

static int busiest_cmp(const void *a, const void *b)
{
	const struct ibtopo_route_port *x =
		*(const struct ibtopo_route_port *const *)a;
	const struct ibtopo_route_port *y =
		*(const struct ibtopo_route_port *const *)b;

	if (x->routes != y->routes)
		return x->routes > y->routes ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The busiest switch ports after the reroute, most routes first (an
 * array of *n borrowed pointers to free), NULL when out of memory. */
static const struct ibtopo_route_port **
busiest(const struct ibtopo_whatif_reroute *rr, size_t *n)
{
	const struct ibtopo_routes *a = rr->after;
	size_t top = rr->top ? rr->top : TOP_DEFAULT;
	const struct ibtopo_route_port **by;

	by = calloc(a->nports + 1, sizeof(*by));
	if (!by)
		return NULL;
	*n = 0;
	for (size_t i = 0; i < a->nports; i++)
		if (a->ports[i].routes)
			by[(*n)++] = &a->ports[i];
	qsort(by, *n, sizeof(*by), busiest_cmp);
	if (*n > top)
		*n = top;
	return by;
}

/* ---- JSON ---- */

static json *busiest_json(const struct ibtopo_whatif_reroute *rr)
{
	size_t n = 0;
	const struct ibtopo_route_port **by = busiest(rr, &n);
	json *arr = by ? ibtopo__json_array() : NULL;
	int rc = !arr;

	for (size_t i = 0; !rc && i < n; i++) {
		const struct ibtopo_port *p = by[i]->port;
		json *o = ibtopo__json_object();

		rc = !o || ibtopo__json_append(arr, o) ||
		     ibtopo__json_set(o, "node",
				      ibtopo__json_string(p->node->desc)) ||
		     ibtopo__json_set(o, "guid",
				      ibtopo__json_guid(p->node->guid)) ||
		     ibtopo__json_set(o, "port", ibtopo__json_int(p->num)) ||
		     ibtopo__json_set(o, "routes",
				      ibtopo__json_u64(by[i]->routes)) ||
		     ibtopo__json_set(o, "routes_before",
				      ibtopo__json_u64(routes_of(rr->before,
								 p->node->guid,
								 p->num)));
	}
	free(by);
	return ibtopo__json_kept(arr, rc);
}

json *ibtopo__reroute_json(const struct ibtopo_whatif *w)
{
	const struct ibtopo_whatif_reroute *rr = w->reroute;
	json *o = ibtopo__json_object();

	if (!o)
		return NULL;
	if (ibtopo__json_set(o, "engine", ibtopo__json_string(rr->engine)) ||
	    ibtopo__json_set(o, "sm_host", ibtopo__json_string(rr->sm_host)) ||
	    ibtopo__json_set(o, "before",
			     ibtopo__report_routes_json(rr->before)) ||
	    ibtopo__json_set(o, "after",
			     ibtopo__report_routes_json(rr->after)) ||
	    ibtopo__json_set(o, "busiest_ports", busiest_json(rr))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* ---- text and CSV ---- */

static void row(struct ibtopo__wr *wr, bool csv, const char *metric,
		const char *title, const char *before, const char *after)
{
	if (csv)
		ibtopo__wr_printf(wr, "reroute_%s,%s,%s\n", metric,
				  strcmp(before, "-") ? before : "",
				  strcmp(after, "-") ? after : "");
	else
		ibtopo__wr_printf(wr, "  %-30s %14s %14s\n", title, before,
				  after);
}

static void row_u64(struct ibtopo__wr *wr, bool csv, const char *metric,
		    const char *title, uint64_t before, uint64_t after)
{
	char b[24], a[24];

	snprintf(b, sizeof(b), "%" PRIu64, before);
	snprintf(a, sizeof(a), "%" PRIu64, after);
	row(wr, csv, metric, title, b, a);
}

static void ebb(char *buf, size_t len, const struct ibtopo_routes *r, bool min)
{
	if (!r->bisections)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", min ? r->ebb_min : r->ebb_mean);
}

static const struct ibtopo_route_level *level_of(const struct ibtopo_routes *r,
						 int level)
{
	for (size_t i = 0; i < r->nlevels; i++)
		if (r->levels[i].level == level)
			return &r->levels[i];
	return NULL;
}

static void spread(char *buf, size_t len, const struct ibtopo_route_level *l,
		   bool up, bool max)
{
	const struct ibtopo_route_spread *s = !l ? NULL :
					      up ? &l->up_routes :
						   &l->down_routes;

	if (!s || !s->n)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%g", max ? s->max : s->median);
}

/* Per level and direction: the most routes on one port, and the median. */
static void balance_rows(struct ibtopo__wr *wr, bool csv,
			 const struct ibtopo_routes *b,
			 const struct ibtopo_routes *a)
{
	int top = 0;

	for (size_t i = 0; i < b->nlevels; i++)
		if (b->levels[i].level > top)
			top = b->levels[i].level;
	for (int lv = 1; lv <= top; lv++) {
		for (int k = 0; k < 4; k++) {
			bool up = k < 2, max = !(k & 1);
			char metric[64], title[64], bs[32], as[32];

			snprintf(metric, sizeof(metric),
				 "level_%d_%s_routes_%s", lv,
				 up ? "up" : "down", max ? "max" : "median");
			snprintf(title, sizeof(title), "level %d %s routes, %s",
				 lv, up ? "up" : "down",
				 max ? "max" : "median");
			spread(bs, sizeof(bs), level_of(b, lv), up, max);
			spread(as, sizeof(as), level_of(a, lv), up, max);
			if (strcmp(bs, "-") || strcmp(as, "-"))
				row(wr, csv, metric, title, bs, as);
		}
	}
}

static void busiest_text(struct ibtopo__wr *wr, bool csv,
			 const struct ibtopo_whatif_reroute *rr)
{
	size_t n = 0;
	const struct ibtopo_route_port **by = busiest(rr, &n);

	if (!by) {
		wr->rc = IBTOPO_ENOMEM;
		return;
	}
	if (csv)
		ibtopo__wr_puts(wr, "\nnode,guid,port,routes,routes_before\n");
	else if (n)
		ibtopo__wr_puts(wr, "Busiest surviving ports after the "
				    "reroute (routes now, before):\n");
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_port *p = by[i]->port;
		uint64_t was = routes_of(rr->before, p->node->guid, p->num);

		if (csv)
			ibtopo__wr_printf(wr,
					  "%s,0x%016" PRIx64 ",%u,%" PRIu64
					  ",%" PRIu64 "\n",
					  p->node->desc, p->node->guid, p->num,
					  by[i]->routes, was);
		else
			ibtopo__wr_printf(
				wr, "  %s [%u]: %" PRIu64 " (%" PRIu64 ")\n",
				p->node->desc, p->num, by[i]->routes, was);
	}
	free(by);
}

void ibtopo__reroute_text(struct ibtopo__wr *wr, const struct ibtopo_whatif *w,
			  bool csv)
{
	const struct ibtopo_whatif_reroute *rr = w->reroute;
	const struct ibtopo_routes *b = rr->before, *a = rr->after;
	char bs[32], as[32];

	if (!csv) {
		ibtopo__wr_printf(wr,
				  "\nRerouted by OpenSM (-R %s, from %s) under "
				  "ibsim, before and after the failure:\n",
				  rr->engine, rr->sm_host ? rr->sm_host : "-");
		for (int side = 0; side < 2; side++) {
			const char *e = side ? a->engine : b->engine;

			if (e && strcmp(e, rr->engine))
				ibtopo__wr_printf(
					wr,
					"  OpenSM routed with %s, not "
					"%s, %s the failure\n",
					e, rr->engine,
					side ? "after" : "before");
		}
		ibtopo__wr_printf(wr, "  %-30s %14s %14s\n", "", "BEFORE",
				  "AFTER");
	}
	row(wr, csv, "engine", "engine", b->engine ? b->engine : "-",
	    a->engine ? a->engine : "-");
	row_u64(wr, csv, "ca_pairs", "CA pairs", b->ca_pairs, a->ca_pairs);
	row_u64(wr, csv, "unreachable_pairs", "unreachable pairs",
		b->unreachable_pairs, a->unreachable_pairs);
	row_u64(wr, csv, "black_holes", "black holes", b->black_holes,
		a->black_holes);
	row_u64(wr, csv, "loops", "loops", b->loops, a->loops);
	row_u64(wr, csv, "credit_loops", "credit loops", b->credit_loops,
		a->credit_loops);
	balance_rows(wr, csv, b, a);
	ebb(bs, sizeof(bs), b, false);
	ebb(as, sizeof(as), a, false);
	row(wr, csv, "ebb_mean", "EBB, mean", bs, as);
	ebb(bs, sizeof(bs), b, true);
	ebb(as, sizeof(as), a, true);
	row(wr, csv, "ebb_min", "EBB, min", bs, as);
	busiest_text(wr, csv, rr);
}
