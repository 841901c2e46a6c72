/*
 * report_whatif.c - what a failure does, before and after side by side
 * (ibtopo_report_whatif()), and the single failures ranked
 * (ibtopo_report_whatif_each()): text, CSV and JSON.
 */
#include "report/report-int.h"

#include <stdlib.h>
#include <string.h>

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

static int eio(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
}

/* A row of the side-by-side table: its CSV name, its text title, its
 * value of one side (level: the level it is about, 0 for none). */
struct row {
	const char *metric;
	const char *title;
	void (*get)(const struct ibtopo_whatif_side *s, unsigned level,
		    bool csv, char *buf, size_t len);
};

#define SIDE_INT(fn, field)                                                \
	static void fn(const struct ibtopo_whatif_side *s, unsigned level, \
		       bool csv, char *buf, size_t len)                    \
	{                                                                  \
		(void)level;                                               \
		(void)csv;                                                 \
		snprintf(buf, len, "%zu", (size_t)s->field);               \
	}
SIDE_INT(get_servers, servers)
SIDE_INT(get_isolated, isolated)
SIDE_INT(get_single, single_homed)
SIDE_INT(get_pairs, leaf_pairs)
SIDE_INT(get_min, node_min)

static void get_class(const struct ibtopo_whatif_side *s, unsigned level,
		      bool csv, char *buf, size_t len)
{
	(void)level;
	(void)csv;
	snprintf(buf, len, "%s", ibtopo_topology_class_name(s->cls));
}

static void get_median(const struct ibtopo_whatif_side *s, unsigned level,
		       bool csv, char *buf, size_t len)
{
	(void)level;
	(void)csv;
	snprintf(buf, len, "%g", s->node_median);
}

static void get_bisection(const struct ibtopo_whatif_side *s, unsigned level,
			  bool csv, char *buf, size_t len)
{
	(void)level;
	if (csv)
		snprintf(buf, len, "%g", s->bisection_gbps);
	else
		ibtopo__report_gbps(s->bisection_gbps, buf, len);
}

static void get_blocking(const struct ibtopo_whatif_side *s, unsigned level,
			 bool csv, char *buf, size_t len)
{
	(void)level;
	if (s->blocking <= 0)
		snprintf(buf, len, csv ? "" : "-");
	else
		snprintf(buf, len, csv ? "%.2f" : "%.2f:1", s->blocking);
}

static void get_oversub(const struct ibtopo_whatif_side *s, unsigned level,
			bool csv, char *buf, size_t len)
{
	double o =
		level <= s->nlevels ? s->levels[level - 1].oversubscription : 0;

	if (o <= 0)
		snprintf(buf, len, csv ? "" : "-");
	else
		snprintf(buf, len, csv ? "%.2f" : "%.2f:1", o);
}

static void get_up(const struct ibtopo_whatif_side *s, unsigned level, bool csv,
		   char *buf, size_t len)
{
	(void)csv;
	if (level > s->nlevels)
		snprintf(buf, len, csv ? "" : "-");
	else
		snprintf(buf, len, "%zu", s->levels[level - 1].up_links);
}

static const struct row rows[] = {
	{ "class", "class", get_class },
	{ "servers", "servers", get_servers },
	{ "isolated", "servers isolated", get_isolated },
	{ "single_homed", "servers single-homed", get_single },
	{ "leaf_pairs", "leaf pairs", get_pairs },
	{ "node_disjoint_min", "node-disjoint paths, min", get_min },
	{ "node_disjoint_median", "node-disjoint paths, median", get_median },
	{ "bisection_gbps", "bisection bandwidth", get_bisection },
	{ "blocking_factor", "blocking factor", get_blocking },
};

static const struct row level_rows[] = {
	{ "oversubscription", "oversubscription", get_oversub },
	{ "up_links", "uplinks", get_up },
};

static void failed_name(char *buf, size_t len, const struct ibtopo_node *n,
			const struct ibtopo_link *l)
{
	char a[IBTOPO_NODE_NAME_MAX], b[IBTOPO_NODE_NAME_MAX];

	if (n) {
		snprintf(buf, len, "%s (%s)", ibtopo_node_name(a, sizeof(a), n),
			 ibtopo_node_type_name(n->type));
		return;
	}
	snprintf(buf, len, "%s:%u - %s:%u (cable)",
		 ibtopo_node_name(a, sizeof(a), l->a->node), l->a->num,
		 ibtopo_node_name(b, sizeof(b), l->b->node), l->b->num);
}

static void table_line(struct ibtopo__wr *w, const struct ibtopo_whatif *r,
		       const struct row *row, unsigned level, bool csv)
{
	char title[64], before[48], after[48];

	row->get(&r->before, level, csv, before, sizeof(before));
	row->get(&r->after, level, csv, after, sizeof(after));
	if (csv) {
		if (level)
			ibtopo__wr_printf(w, "level_%u_%s,%s,%s\n", level,
					  row->metric, before, after);
		else
			ibtopo__wr_printf(w, "%s,%s,%s\n", row->metric, before,
					  after);
		return;
	}
	if (level)
		snprintf(title, sizeof(title), "level %u %s", level,
			 row->title);
	else
		snprintf(title, sizeof(title), "%s", row->title);
	ibtopo__wr_printf(w, "  %-30s %14s %14s\n", title, before, after);
}

static void routes_text(struct ibtopo__wr *w, const struct ibtopo_whatif *r)
{
	char name[IBTOPO_NODE_NAME_MAX];

	if (!r->routes) {
		ibtopo__wr_puts(w, "Routes: no forwarding tables, so no blast "
				   "radius (discover --routes, or --routes "
				   "DUMP)\n");
		return;
	}
	ibtopo__wr_printf(w,
			  "Routes crossing the failure before the subnet "
			  "manager reacts: %zu of %zu CA pairs, to %zu "
			  "destinations\n",
			  r->ca_pairs_hit, r->ca_pairs, r->ndests);
	for (size_t i = 0; i < r->ndests && i < 10; i++)
		ibtopo__wr_printf(w, "  %-30s port %u (LID %u): %zu pairs\n",
				  ibtopo_node_name(name, sizeof(name),
						   r->dests[i].port->node),
				  r->dests[i].port->num, r->dests[i].lid,
				  r->dests[i].pairs);
	if (r->ndests > 10)
		ibtopo__wr_printf(w, "  ... and %zu more destinations\n",
				  r->ndests - 10);
}

static void whatif_text(struct ibtopo__wr *w, const struct ibtopo_whatif *r,
			bool csv)
{
	char name[2 * IBTOPO_NODE_NAME_MAX + 32];
	unsigned levels = r->before.nlevels > r->after.nlevels ?
				  r->before.nlevels :
				  r->after.nlevels;

	if (csv)
		ibtopo__wr_puts(w, "metric,before,after\n");
	for (size_t i = 0; !csv && i < r->nnodes + r->nlinks; i++) {
		failed_name(name, sizeof(name),
			    i < r->nnodes ? r->nodes[i] : NULL,
			    i < r->nnodes ? NULL : r->links[i - r->nnodes]);
		ibtopo__wr_printf(w, "%s %s\n", i ? "    " : "Failing:", name);
	}
	if (!csv)
		ibtopo__wr_printf(w, "\n  %-30s %14s %14s\n", "", "BEFORE",
				  "AFTER");
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(rows); i++)
		table_line(w, r, &rows[i], 0, csv);
	for (unsigned l = 1; l <= levels; l++)
		for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(level_rows); i++)
			table_line(w, r, &level_rows[i], l, csv);
	if (csv) {
		ibtopo__wr_printf(w,
				  "pairs_dropped,,%zu\npairs_cut,,%zu\n"
				  "became_single_homed,,%zu\n",
				  r->pairs_dropped, r->pairs_cut,
				  r->became_single_homed);
		if (r->routes)
			ibtopo__wr_printf(w, "ca_pairs_hit,,%zu\n",
					  r->ca_pairs_hit);
		if (r->reroute)
			ibtopo__reroute_text(w, r, true);
		return;
	}
	ibtopo__wr_printf(w,
			  "\nLeaf pairs losing node-disjoint paths: %zu (%zu "
			  "left without a path); servers newly isolated: %zu; "
			  "newly single-homed: %zu\n",
			  r->pairs_dropped, r->pairs_cut,
			  r->after.isolated > r->before.isolated ?
				  r->after.isolated - r->before.isolated :
				  0,
			  r->became_single_homed);
	routes_text(w, r);
	if (r->reroute)
		ibtopo__reroute_text(w, r, false);
}

/* ---- JSON ---- */

static struct ibtopo__json *end_json(const struct ibtopo_port *p)
{
	struct ibtopo__json *o = ibtopo__json_object();

	if (o &&
	    (ibtopo__json_set(o, "node", ibtopo__json_string(p->node->desc)) ||
	     ibtopo__json_set(o, "guid", ibtopo__json_guid(p->node->guid)) ||
	     ibtopo__json_set(o, "port", ibtopo__json_int(p->num)))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

/* A failed element: {"type","node","guid"} or {"type":"cable","a","b"}. */
static struct ibtopo__json *failed_json(const struct ibtopo_node *n,
					const struct ibtopo_link *l)
{
	struct ibtopo__json *o = ibtopo__json_object();
	int rc;

	if (!o)
		return NULL;
	if (n)
		rc = ibtopo__json_set(o, "type",
				      ibtopo__json_string(ibtopo_node_type_name(
					      n->type))) ||
		     ibtopo__json_set(o, "node",
				      ibtopo__json_string(n->desc)) ||
		     ibtopo__json_set(o, "guid", ibtopo__json_guid(n->guid));
	else
		rc = ibtopo__json_set(o, "type",
				      ibtopo__json_string("cable")) ||
		     ibtopo__json_set(o, "a", end_json(l->a)) ||
		     ibtopo__json_set(o, "b", end_json(l->b));
	return ibtopo__json_kept(o, rc);
}

static struct ibtopo__json *real_or_null(double v)
{
	return v > 0 ? ibtopo__json_real(v) : ibtopo__json_null();
}

static struct ibtopo__json *side_json(const struct ibtopo_whatif_side *s)
{
	struct ibtopo__json *o = ibtopo__json_object();
	struct ibtopo__json *lv = ibtopo__json_array();
	struct ibtopo__json *nd = ibtopo__json_object();
	int rc = !o || !lv || !nd;

	for (unsigned i = 0; !rc && i < s->nlevels; i++) {
		struct ibtopo__json *e = ibtopo__json_object();

		rc = !e ||
		     ibtopo__json_set(e, "level", ibtopo__json_int(i + 1)) ||
		     ibtopo__json_set(
			     e, "switches",
			     ibtopo__json_int(
				     (int64_t)s->levels[i].switches)) ||
		     ibtopo__json_set(
			     e, "up_links",
			     ibtopo__json_int(
				     (int64_t)s->levels[i].up_links)) ||
		     ibtopo__json_set(
			     e, "oversubscription",
			     real_or_null(s->levels[i].oversubscription)) ||
		     ibtopo__json_set(
			     e, "bisection_gbps",
			     real_or_null(s->levels[i].bisection_gbps)) ||
		     ibtopo__json_append(lv, e);
	}
	rc = rc || ibtopo__json_set(nd, "min", ibtopo__json_int(s->node_min)) ||
	     ibtopo__json_set(nd, "median",
			      ibtopo__json_real(s->node_median)) ||
	     ibtopo__json_set(
		     o, "class",
		     ibtopo__json_string(ibtopo_topology_class_name(s->cls))) ||
	     ibtopo__json_set(o, "servers",
			      ibtopo__json_int((int64_t)s->servers)) ||
	     ibtopo__json_set(o, "isolated",
			      ibtopo__json_int((int64_t)s->isolated)) ||
	     ibtopo__json_set(o, "single_homed",
			      ibtopo__json_int((int64_t)s->single_homed)) ||
	     ibtopo__json_set(o, "leaf_pairs",
			      ibtopo__json_int((int64_t)s->leaf_pairs)) ||
	     ibtopo__json_set(o, "node_disjoint", nd) ||
	     ibtopo__json_set(o, "by_level", lv) ||
	     ibtopo__json_set(o, "bisection_gbps",
			      ibtopo__json_real(s->bisection_gbps)) ||
	     ibtopo__json_set(o, "blocking_factor", real_or_null(s->blocking));
	return ibtopo__json_kept(o, rc);
}

static struct ibtopo__json *routes_json(const struct ibtopo_whatif *r)
{
	struct ibtopo__json *o, *d;
	int rc;

	if (!r->routes)
		return ibtopo__json_null();
	o = ibtopo__json_object();
	d = ibtopo__json_array();
	rc = !o || !d;
	for (size_t i = 0; !rc && i < r->ndests; i++) {
		struct ibtopo__json *e = end_json(r->dests[i].port);

		rc = !e ||
		     ibtopo__json_set(e, "lid",
				      ibtopo__json_int(r->dests[i].lid)) ||
		     ibtopo__json_set(
			     e, "pairs",
			     ibtopo__json_int((int64_t)r->dests[i].pairs)) ||
		     ibtopo__json_append(d, e);
	}
	rc = rc ||
	     ibtopo__json_set(o, "ca_pairs",
			      ibtopo__json_int((int64_t)r->ca_pairs)) ||
	     ibtopo__json_set(o, "ca_pairs_hit",
			      ibtopo__json_int((int64_t)r->ca_pairs_hit)) ||
	     ibtopo__json_set(o, "destinations", d);
	return ibtopo__json_kept(o, rc);
}

static struct ibtopo__json *whatif_json(const struct ibtopo_whatif *r)
{
	struct ibtopo__json *o = ibtopo__json_object();
	struct ibtopo__json *f = ibtopo__json_array();
	int rc = !o || !f;

	for (size_t i = 0; !rc && i < r->nnodes + r->nlinks; i++)
		rc = ibtopo__json_append(
			f,
			failed_json(i < r->nnodes ? r->nodes[i] : NULL,
				    i < r->nnodes ? NULL :
						    r->links[i - r->nnodes]));
	rc = rc || ibtopo__json_set(o, "failed", f) ||
	     ibtopo__json_set(o, "before", side_json(&r->before)) ||
	     ibtopo__json_set(o, "after", side_json(&r->after)) ||
	     ibtopo__json_set(o, "pairs_dropped",
			      ibtopo__json_int((int64_t)r->pairs_dropped)) ||
	     ibtopo__json_set(o, "pairs_cut",
			      ibtopo__json_int((int64_t)r->pairs_cut)) ||
	     ibtopo__json_set(
		     o, "became_single_homed",
		     ibtopo__json_int((int64_t)r->became_single_homed)) ||
	     ibtopo__json_set(o, "routes", routes_json(r)) ||
	     (r->reroute &&
	      ibtopo__json_set(o, "reroute", ibtopo__reroute_json(r)));
	return ibtopo__json_kept(o, rc);
}

int ibtopo_report_whatif(const struct ibtopo_sink *sink,
			 const struct ibtopo_whatif *whatif,
			 struct ibtopo_error *err)
{
	struct ibtopo__json *root;
	struct ibtopo__wr w = { sink, 0 };

	if (!whatif)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no whatif result");
	if (ibtopo__report_check_sink(sink, err))
		return err ? err->code : IBTOPO_EINVAL;
	if (sink->format != IBTOPO_FORMAT_JSON) {
		whatif_text(&w, whatif, sink->format == IBTOPO_FORMAT_CSV);
		return w.rc ? eio(err) : 0;
	}
	root = ibtopo__json_report(whatif->fabric);
	if (!root || ibtopo__json_set(root, "whatif", whatif_json(whatif))) {
		ibtopo__json_free(root);
		return nomem(err);
	}
	return ibtopo__report_json_doc(sink, root, err);
}

/* ---- the ranking of single failures ---- */

static void rank_name(char *buf, size_t len, const struct ibtopo_whatif_rank *k)
{
	char a[IBTOPO_NODE_NAME_MAX], b[IBTOPO_NODE_NAME_MAX];

	if (k->node)
		ibtopo_node_name(buf, len, k->node);
	else
		snprintf(buf, len, "%s:%u-%s:%u",
			 ibtopo_node_name(a, sizeof(a), k->link->a->node),
			 k->link->a->num,
			 ibtopo_node_name(b, sizeof(b), k->link->b->node),
			 k->link->b->num);
}

/* One line: whether the fabric survives any one failure of the kind. */
static void verdict(struct ibtopo__wr *w, const struct ibtopo_whatif_ranking *r)
{
	const char *what = ibtopo_whatif_each_name(r->what);

	if (!r->count)
		ibtopo__wr_printf(w, "No %s to fail.\n", what);
	else if (ibtopo_whatif_ranking_survives(r))
		ibtopo__wr_printf(w,
				  "Survives any single %s failure: no server "
				  "isolated, no leaf pair cut off (worst: %zu "
				  "leaf pairs lose a node-disjoint path).\n",
				  what, r->ranks[0].pairs_dropped);
	else
		ibtopo__wr_printf(w,
				  "Does not survive every single %s failure: "
				  "the worst isolates %zu server%s and cuts "
				  "%zu leaf pair%s off.\n",
				  what, r->ranks[0].isolated,
				  r->ranks[0].isolated == 1 ? "" : "s",
				  r->ranks[0].pairs_cut,
				  r->ranks[0].pairs_cut == 1 ? "" : "s");
}

static void each_text(struct ibtopo__wr *w,
		      const struct ibtopo_whatif_ranking *r, size_t top,
		      bool csv)
{
	char name[2 * IBTOPO_NODE_NAME_MAX + 16], bw[32];

	if (!csv) {
		verdict(w, r);
		ibtopo__wr_printf(w,
				  "%zu %s failures tried (%zu topology "
				  "analyses)\n\n",
				  r->count, ibtopo_whatif_each_name(r->what),
				  r->analyses);
		ibtopo__wr_printf(w, "  %-4s %-40s %8s %8s %8s %6s %12s\n",
				  "RANK", "FAILED", "ISOLATED", "SINGLE",
				  "PAIRS", "CUT", "BW LOST");
	} else {
		ibtopo__wr_puts(w, "rank,failed,guid,isolated,"
				   "became_single_homed,pairs_dropped,"
				   "pairs_cut,bisection_lost_gbps\n");
	}
	for (size_t i = 0; i < r->count && (!top || i < top); i++) {
		const struct ibtopo_whatif_rank *k = &r->ranks[i];

		rank_name(name, sizeof(name), k);
		if (csv) {
			ibtopo__wr_printf(w, "%zu,", i + 1);
			ibtopo__out_csv_field(w->o, name);
			ibtopo__wr_printf(w,
					  ",0x%016" PRIx64
					  ",%zu,%zu,%zu,%zu,%g\n",
					  k->node ? k->node->guid :
						    k->link->a->node->guid,
					  k->isolated, k->became_single_homed,
					  k->pairs_dropped, k->pairs_cut,
					  k->bisection_lost);
			continue;
		}
		snprintf(bw, sizeof(bw), "0");
		if (k->bisection_lost > 0)
			ibtopo__report_gbps(k->bisection_lost, bw, sizeof(bw));
		ibtopo__wr_printf(w, "  %-4zu %-40s %8zu %8zu %8zu %6zu %12s\n",
				  i + 1, name, k->isolated,
				  k->became_single_homed, k->pairs_dropped,
				  k->pairs_cut, bw);
	}
}

static struct ibtopo__json *rank_json(const struct ibtopo_whatif_rank *k)
{
	struct ibtopo__json *o = failed_json(k->node, k->link);

	if (o &&
	    (ibtopo__json_set(o, "isolated",
			      ibtopo__json_int((int64_t)k->isolated)) ||
	     ibtopo__json_set(
		     o, "became_single_homed",
		     ibtopo__json_int((int64_t)k->became_single_homed)) ||
	     ibtopo__json_set(o, "pairs_dropped",
			      ibtopo__json_int((int64_t)k->pairs_dropped)) ||
	     ibtopo__json_set(o, "pairs_cut",
			      ibtopo__json_int((int64_t)k->pairs_cut)) ||
	     ibtopo__json_set(o, "bisection_lost_gbps",
			      ibtopo__json_real(k->bisection_lost)))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *each_json(const struct ibtopo_whatif_ranking *r,
				      size_t top)
{
	struct ibtopo__json *o = ibtopo__json_object();
	struct ibtopo__json *a = ibtopo__json_array();
	int rc = !o || !a;

	for (size_t i = 0; !rc && i < r->count && (!top || i < top); i++)
		rc = ibtopo__json_append(a, rank_json(&r->ranks[i]));
	rc = rc ||
	     ibtopo__json_set(
		     o, "each",
		     ibtopo__json_string(ibtopo_whatif_each_name(r->what))) ||
	     ibtopo__json_set(o, "tried",
			      ibtopo__json_int((int64_t)r->count)) ||
	     ibtopo__json_set(o, "analyses",
			      ibtopo__json_int((int64_t)r->analyses)) ||
	     ibtopo__json_set(
		     o, "survives",
		     ibtopo__json_bool(ibtopo_whatif_ranking_survives(r))) ||
	     ibtopo__json_set(o, "leaf_pairs",
			      ibtopo__json_int((int64_t)r->leaf_pairs)) ||
	     ibtopo__json_set(o, "bisection_gbps",
			      ibtopo__json_real(r->bisection_gbps)) ||
	     ibtopo__json_set(o, "ranking", a);
	return ibtopo__json_kept(o, rc);
}

int ibtopo_report_whatif_each(const struct ibtopo_sink *sink,
			      const struct ibtopo_whatif_ranking *ranking,
			      size_t top, struct ibtopo_error *err)
{
	struct ibtopo__json *root;
	struct ibtopo__wr w = { sink, 0 };

	if (!ranking)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no ranking");
	if (ibtopo__report_check_sink(sink, err))
		return err ? err->code : IBTOPO_EINVAL;
	if (sink->format != IBTOPO_FORMAT_JSON) {
		each_text(&w, ranking, top, sink->format == IBTOPO_FORMAT_CSV);
		return w.rc ? eio(err) : 0;
	}
	root = ibtopo__json_report(ranking->fabric);
	if (!root ||
	    ibtopo__json_set(root, "whatif", each_json(ranking, top))) {
		ibtopo__json_free(root);
		return nomem(err);
	}
	return ibtopo__report_json_doc(sink, root, err);
}
