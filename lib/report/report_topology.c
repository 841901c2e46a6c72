/*
 * report_topology.c - the topology analysis as JSON ("topology" and
 * "paths" objects) and as the architect's text summary.
 */
#include "report/report-int.h"
#include "analysis/analysis-int.h"
#include "analysis/topology-result.h"

#include <stdlib.h>
#include <string.h>

#define J struct ibtopo__json

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* Collects the first error so a chain of sets can be checked once. */
/*
 * A JSON builder that remembers its first failure, so the objects read
 * straight: jset() and jappend() take a NULL object, array or value (out
 * of memory), free what they were given and record IBTOPO_ENOMEM, so a
 * builder need not check each allocation.
 */
struct jb {
	int rc;
};

static void jset(struct jb *b, J *obj, const char *key, J *value)
{
	int rc = ibtopo__json_set(obj, key, value);

	if (rc && !b->rc)
		b->rc = rc;
}

static void jappend(struct jb *b, J *arr, J *value)
{
	int rc;

	if (!value) {
		b->rc = IBTOPO_ENOMEM;
		return;
	}
	rc = ibtopo__json_append(arr, value);
	if (rc && !b->rc)
		b->rc = rc;
}

static J *jreal_or_null(double v)
{
	return v > 0 ? ibtopo__json_real(v) : ibtopo__json_null();
}

static J *jcount(unsigned long long v)
{
	return ibtopo__json_int(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static J *dist_json(struct jb *b, const struct ibtopo__dist *d, const char *unit)
{
	J *o, *h;

	if (!d->computed || !d->nbins)
		return ibtopo__json_null();
	o = ibtopo__json_object();
	h = ibtopo__json_array();
	jset(b, o, "min", jcount(d->bins[0].value));
	jset(b, o, "median", ibtopo__json_real(ibtopo__dist_median(d)));
	jset(b, o, "max", jcount(d->bins[d->nbins - 1].value));
	for (size_t i = 0; i < d->nbins; i++) {
		J *bin = ibtopo__json_object();

		if (!bin) {
			b->rc = IBTOPO_ENOMEM;
			break;
		}
		jset(b, bin, "paths", jcount(d->bins[i].value));
		jset(b, bin, unit, jcount(d->bins[i].pairs));
		jappend(b, h, bin);
	}
	jset(b, o, "histogram", h);
	return o;
}

static J *end_json(struct jb *b, const struct ibtopo_node *n)
{
	J *o = ibtopo__json_object();

	if (!o) {
		b->rc = IBTOPO_ENOMEM;
		return NULL;
	}
	jset(b, o, "node", ibtopo__json_string(n->desc));
	jset(b, o, "guid", ibtopo__json_guid(n->guid));
	return o;
}

static J *level_json(struct jb *b, const struct ibtopo_topology_level *l)
{
	J *o = ibtopo__json_object();

	if (!o) {
		b->rc = IBTOPO_ENOMEM;
		return NULL;
	}
	jset(b, o, "level", ibtopo__json_int(l->level));
	jset(b, o, "switches", ibtopo__json_int((int64_t)l->switches));
	jset(b, o, "chassis", ibtopo__json_int((int64_t)l->chassis));
	jset(b, o, "server_links", ibtopo__json_int((int64_t)l->host_links));
	jset(b, o, "down_links", ibtopo__json_int((int64_t)l->down_links));
	jset(b, o, "up_links", ibtopo__json_int((int64_t)l->up_links));
	jset(b, o, "same_links", ibtopo__json_int((int64_t)l->same_links));
	jset(b, o, "down_gbps", ibtopo__json_real(l->down_gbps));
	jset(b, o, "up_gbps", ibtopo__json_real(l->up_gbps));
	jset(b, o, "oversubscription", jreal_or_null(l->oversubscription));
	jset(b, o, "bisection_gbps", jreal_or_null(l->bisection_gbps));
	return o;
}

/* Fewest and most global links between two groups. */
static void global_range(const struct ibtopo_topology *t, size_t *lo, size_t *hi)
{
	size_t G = t->ngroups;

	*lo = *hi = 0;
	for (size_t a = 0; a < G; a++)
		for (size_t c = a + 1; c < G; c++) {
			size_t n = t->pair_links[a * G + c];

			if ((a == 0 && c == 1) || n < *lo)
				*lo = n;
			if (n > *hi)
				*hi = n;
		}
}

static const char *policy_name(enum ibtopo_server_policy p)
{
	return p == IBTOPO_SERVERS_SINGLE ? "single" : "dual";
}

/* The server policy and, under single, the servers it lets be. */
static J *policy_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *o = ibtopo__json_object(), *list = ibtopo__json_array();

	jset(b, o, "policy", ibtopo__json_string(policy_name(t->server_policy)));
	jset(b, o, "from", ibtopo__json_string(t->policy_asked ? "option" :
					       "majority"));
	jset(b, o, "single_homed", ibtopo__json_int((int64_t)t->single_homed));
	jset(b, o, "dual_homed", ibtopo__json_int((int64_t)(t->nservers -
							    t->single_homed)));
	for (size_t i = 0; i < t->nservers; i++) {
		const struct ibtopo__server *s = &t->servers[i];

		if (t->server_policy != IBTOPO_SERVERS_SINGLE ||
		    (s->links >= 2 && s->natt >= 2))
			continue;
		jappend(b, list, end_json(b, s->ca));
	}
	/* under dual, each is a finding of its own */
	jset(b, o, "single_homed_servers", list);
	return o;
}

/* The lowest and highest switch level of chassis `c`'s chips. */
static void chassis_levels(const struct ibtopo_topology *t, size_t c, int *lo,
			   int *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < t->nsw; i++) {
		int l = t->sw[i].level;

		if (t->sw[i].chassis != c || !l)
			continue;
		if (!*lo || l < *lo)
			*lo = l;
		if (l > *hi)
			*hi = l;
	}
}

/* "directors": the chassis of two chips or more. */
static J *directors_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *dirs = ibtopo__json_array();
	char name[256];

	if (!dirs) {
		b->rc = IBTOPO_ENOMEM;
		return NULL;
	}
	for (size_t c = 0; c < t->nchassis; c++) {
		J *d;
		int lo, hi;

		if (t->chassis[c].chips < 2)
			continue;
		d = ibtopo__json_object();
		if (!d) {
			b->rc = IBTOPO_ENOMEM;
			break;
		}
		chassis_levels(t, c, &lo, &hi);
		jset(b, d, "name", ibtopo__json_string(
			ibtopo__topology_chassis_name(t, c, name, sizeof(name))));
		jset(b, d, "system_image_guid", ibtopo__json_guid(t->chassis[c].sysimg));
		jset(b, d, "chips", ibtopo__json_int((int64_t)t->chassis[c].chips));
		jset(b, d, "lowest_level", ibtopo__json_int(lo));
		jset(b, d, "highest_level", ibtopo__json_int(hi));
		jset(b, d, "line_level", ibtopo__json_int(t->chassis[c].line_level));
		jset(b, d, "line_chips", ibtopo__json_int((int64_t)t->chassis[c].line_chips));
		jset(b, d, "idle_line_chips",
		     ibtopo__json_int((int64_t)t->chassis[c].idle_chips));
		jset(b, d, "fabric_chips",
		     ibtopo__json_int((int64_t)t->chassis[c].fabric_chips));
		jset(b, d, "external_links",
		     ibtopo__json_int((int64_t)t->chassis[c].external_links));
		jappend(b, dirs, d);
	}
	return dirs;
}

/* Dragonfly+: "groups", "global_links", "global_links_per_pair", "by_group". */
static void dragonfly_json(struct jb *b, J *o, const struct ibtopo_topology *t)
{
	J *gs = ibtopo__json_array(), *pp = ibtopo__json_object();
	size_t lo = 0, hi = 0;

	global_range(t, &lo, &hi);
	jset(b, o, "groups", ibtopo__json_int((int64_t)t->ngroups));
	jset(b, o, "global_links", ibtopo__json_int((int64_t)t->global_links));
	jset(b, pp, "min", ibtopo__json_int((int64_t)lo));
	jset(b, pp, "max", ibtopo__json_int((int64_t)hi));
	jset(b, o, "global_links_per_pair", pp);
	for (size_t k = 0; k < t->ngroups; k++) {
		const struct ibtopo__group *g = &t->groups[k];
		J *x = ibtopo__json_object();

		if (!x) {
			b->rc = IBTOPO_ENOMEM;
			break;
		}
		jset(b, x, "leaves", ibtopo__json_int((int64_t)g->leaves));
		jset(b, x, "spines", ibtopo__json_int((int64_t)g->spines));
		jset(b, x, "server_links", ibtopo__json_int((int64_t)g->servers));
		jset(b, x, "global_links", ibtopo__json_int((int64_t)g->global));
		jappend(b, gs, x);
	}
	jset(b, o, "by_group", gs);
}

/* Rail-optimized: "rails", "scalable_units", "rail_servers", and the
 * HCAs per rail and servers per unit. */
static void rails_json(struct jb *b, J *o, const struct ibtopo_topology *t)
{
	J *hc = ibtopo__json_array(), *su = ibtopo__json_array();

	jset(b, o, "rails", ibtopo__json_int(t->nrails));
	jset(b, o, "scalable_units", ibtopo__json_int((int64_t)t->nunits));
	jset(b, o, "rail_servers", ibtopo__json_int((int64_t)t->rail_servers));
	for (unsigned k = 0; k < t->nrails; k++)
		jappend(b, hc, ibtopo__json_int((int64_t)t->rail_hcas[k]));
	for (size_t u = 0; u < t->nunits; u++)
		jappend(b, su, ibtopo__json_int((int64_t)t->unit_servers[u]));
	jset(b, o, "hcas_per_rail", hc);
	jset(b, o, "servers_per_unit", su);
}

/* "opensm_ftree": whether OpenSM's ftree engine would accept the fabric. */
static J *opensm_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *osm = ibtopo__json_object();

	if (!osm)
		b->rc = IBTOPO_ENOMEM;
	jset(b, osm, "accepted", ibtopo__json_bool(t->ftree_ok));
	jset(b, osm, "reason", ibtopo__json_string(t->ftree_ok ? NULL :
						   t->ftree_reason));
	return osm;
}

/* The node GUIDs of a level's switches, in fabric order: what every
 * output that ranks switches must agree with. */
static J *level_guids(struct jb *b, const struct ibtopo_topology *t, int level)
{
	J *a = ibtopo__json_array();
	char g[24];

	for (size_t i = 0; a && i < t->nsw; i++) {
		if (t->sw[i].level != level)
			continue;
		snprintf(g, sizeof(g), "0x%016" PRIx64, t->sw[i].node->guid);
		jappend(b, a, ibtopo__json_string(g));
	}
	if (!a)
		b->rc = IBTOPO_ENOMEM;
	return a;
}

static J *topology_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *o = ibtopo__json_object(), *lv = ibtopo__json_array();

	jset(b, o, "class", ibtopo__json_string(ibtopo_topology_class_name(t->cls)));
	jset(b, o, "shape", ibtopo__json_string(t->shape));
	jset(b, o, "reason", ibtopo__json_string(t->cls == IBTOPO_TOPOLOGY_FAT_TREE ||
						 t->cls == IBTOPO_TOPOLOGY_RAIL_OPTIMIZED ?
						 NULL : t->reason));
	jset(b, o, "levels", ibtopo__json_int(t->nlevels));
	jset(b, o, "ranked_from", ibtopo__json_string(t->from_roots ? "roots" :
						      "leaves"));
	jset(b, o, "switches", ibtopo__json_int((int64_t)t->nsw));
	jset(b, o, "chassis", ibtopo__json_int((int64_t)t->nchassis));
	jset(b, o, "leaves", ibtopo__json_int((int64_t)t->nleaves));
	jset(b, o, "servers", ibtopo__json_int((int64_t)t->nservers));
	jset(b, o, "server_links", ibtopo__json_int((int64_t)t->host_links));
	jset(b, o, "switch_links", ibtopo__json_int((int64_t)t->isl_links));
	jset(b, o, "switch_internal_cas", ibtopo__json_int((int64_t)t->internal_cas));
	jset(b, o, "violating_links", ibtopo__json_int((int64_t)t->violations));
	for (unsigned l = t->nlevels; l >= 1; l--) {
		J *lo = level_json(b, &t->levels[l - 1]);

		if (lo)
			jset(b, lo, "switch_guids", level_guids(b, t, (int)l));
		jappend(b, lv, lo);
	}
	jset(b, o, "by_level", lv);
	jset(b, o, "opensm_ftree", opensm_json(b, t));
	jset(b, o, "blocking_factor", jreal_or_null(t->blocking));
	jset(b, o, "bisection_gbps", jreal_or_null(t->bisection));
	jset(b, o, "directors", directors_json(b, t));
	jset(b, o, "server_policy", policy_json(b, t));
	if (t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS)
		dragonfly_json(b, o, t);
	if (t->cls == IBTOPO_TOPOLOGY_RAIL_OPTIMIZED)
		rails_json(b, o, t);
	return o;
}

/* Per-server distribution of links or switches, as a dist. */
static int server_counts(struct ibtopo__dist *d, const struct ibtopo_topology *t,
			 bool switches)
{
	struct ibtopo__bin *bins = calloc(t->nservers + 1, sizeof(*bins));
	size_t k = 0;

	memset(d, 0, sizeof(*d));
	if (!bins)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < t->nservers; i++) {
		unsigned long long v = switches ? t->servers[i].natt :
				       t->servers[i].links;
		size_t j;

		for (j = 0; j < k && bins[j].value != v; j++)
			;
		if (j == k) {
			bins[k].value = v;
			k++;
		}
		bins[j].pairs++;
		d->pairs++;
	}
	/* few distinct values: insertion sort */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j && bins[j - 1].value > bins[j].value; j--) {
			struct ibtopo__bin x = bins[j];

			bins[j] = bins[j - 1];
			bins[j - 1] = x;
		}
	d->bins = bins;
	d->nbins = k;
	d->computed = true;
	return 0;
}

static J *servers_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *o = ibtopo__json_object();
	struct ibtopo__dist links, sws;
	size_t single = 0, one = 0;

	if (!o) {
		b->rc = IBTOPO_ENOMEM;
		return NULL;
	}
	if (server_counts(&links, t, false) || server_counts(&sws, t, true)) {
		free(links.bins);
		b->rc = IBTOPO_ENOMEM;
		return o;
	}
	for (size_t i = 0; i < t->nservers; i++) {
		if (t->servers[i].links < 2)
			single++;
		else if (t->servers[i].natt < 2)
			one++;
	}
	jset(b, o, "count", ibtopo__json_int((int64_t)t->nservers));
	jset(b, o, "single_link", ibtopo__json_int((int64_t)single));
	jset(b, o, "one_switch", ibtopo__json_int((int64_t)one));
	jset(b, o, "links", dist_json(b, &links, "servers"));
	jset(b, o, "switches", dist_json(b, &sws, "servers"));
	jset(b, o, "pairs", t->server_dist[0].computed ?
	     jcount(t->server_dist[0].pairs) : ibtopo__json_null());
	jset(b, o, "edge_disjoint", dist_json(b, &t->server_dist[0], "pairs"));
	jset(b, o, "node_disjoint", dist_json(b, &t->server_dist[1], "pairs"));
	jset(b, o, "note", ibtopo__json_string(t->server_note));
	free(sws.bins);
	free(links.bins);
	return o;
}

static J *paths_json(struct jb *b, const struct ibtopo_topology *t)
{
	J *o = ibtopo__json_object(), *lp = ibtopo__json_object();
	J *worst = ibtopo__json_array(), *method = ibtopo__json_object();

	jset(b, o, "computed", ibtopo__json_bool(t->paths_done));
	jset(b, o, "min_paths", ibtopo__json_int(t->min_paths));
	jset(b, lp, "leaves", ibtopo__json_int((int64_t)t->nleaves));
	jset(b, lp, "pairs", ibtopo__json_int((int64_t)(t->nleaves *
				(t->nleaves ? t->nleaves - 1 : 0) / 2)));
	jset(b, lp, "edge_disjoint", dist_json(b, &t->leaf_dist[0], "pairs"));
	jset(b, lp, "node_disjoint", dist_json(b, &t->leaf_dist[1], "pairs"));
	jset(b, lp, "ecmp", dist_json(b, &t->leaf_dist[2], "pairs"));
	for (size_t i = 0; i < t->nworst; i++) {
		const struct ibtopo__pair *p = &t->worst[i];
		J *w = ibtopo__json_object();

		if (!w) {
			b->rc = IBTOPO_ENOMEM;
			break;
		}
		jset(b, w, "a", end_json(b, t->sw[t->leaves[p->a]].node));
		jset(b, w, "b", end_json(b, t->sw[t->leaves[p->b]].node));
		jset(b, w, "edge_disjoint", jcount(p->edge));
		jset(b, w, "node_disjoint", t->leaf_dist[1].computed ?
		     jcount(p->node) : ibtopo__json_null());
		jset(b, w, "ecmp", jcount(p->ecmp));
		jappend(b, worst, w);
	}
	jset(b, lp, "worst", worst);
	jset(b, lp, "note", ibtopo__json_string(t->leaf_note));
	jset(b, o, "leaf_pairs", lp);
	jset(b, o, "servers", servers_json(b, t));
	jset(b, method, "twin_classes", ibtopo__json_int((int64_t)t->nclass));
	jset(b, method, "gomory_hu_flows", ibtopo__json_int((int64_t)t->leaf_flows));
	jset(b, method, "node_flows", ibtopo__json_int((int64_t)t->node_flows));
	jset(b, method, "server_flows", ibtopo__json_int((int64_t)t->server_flows));
	jset(b, o, "method", method);
	return o;
}

static int section_json(struct ibtopo__json *root,
			const struct ibtopo_analysis *an)
{
	const struct ibtopo_topology *t = an->topology;
	struct jb b = { 0 };

	if (!t)
		return 0;
	if (!root)
		return IBTOPO_EINVAL;
	jset(&b, root, "topology", topology_json(&b, t));
	jset(&b, root, "paths", paths_json(&b, t));
	return b.rc;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

const char *ibtopo__report_gbps(double g, char *buf, size_t len)
{
	if (g >= 1000)
		snprintf(buf, len, "%.1f Tb/s", g / 1000);
	else
		snprintf(buf, len, "%.0f Gb/s", g);
	return buf;
}

static const char *ratio(double r, char *buf, size_t len)
{
	if (r <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f:1", r);
	return buf;
}

static int dist_line(const struct ibtopo_sink *sink, const char *what,
		     const struct ibtopo__dist *d)
{
	if (!d->computed || !d->nbins)
		return ibtopo_sink_printf(sink, "  %-15s not computed\n", what);
	return ibtopo_sink_printf(sink, "  %-15s min %llu  median %g  max %llu\n",
				  what, d->bins[0].value, ibtopo__dist_median(d),
				  d->bins[d->nbins - 1].value);
}

static const char *class_words(const struct ibtopo_topology *t)
{
	switch (t->cls) {
	case IBTOPO_TOPOLOGY_SINGLE_SWITCH:
		return "single switch";
	case IBTOPO_TOPOLOGY_STAR:
		return "star (hub and spoke)";
	case IBTOPO_TOPOLOGY_FAT_TREE:
		return "fat tree";
	case IBTOPO_TOPOLOGY_RAIL_OPTIMIZED:
		return "rail-optimized fat tree";
	case IBTOPO_TOPOLOGY_DRAGONFLY_PLUS:
		return "Dragonfly+";
	case IBTOPO_TOPOLOGY_IRREGULAR:
		return "irregular";
	default:
		return "unknown";
	}
}

/* The class line, why, groups or rails, and how levels were ranked. */
static int shape_text(const struct ibtopo_sink *sink,
		      const struct ibtopo_topology *t)
{
	char na[256];
	int rc;

	rc = ibtopo_sink_printf(sink, "Topology: %s%s%s%s, %u switch level%s, "
				"%zu switch%s, %zu server%s\n",
				class_words(t), t->shape ? " (" : "",
				t->shape ? t->shape : "", t->shape ? ")" : "",
				t->nlevels, t->nlevels == 1 ? "" : "s", t->nsw,
				t->nsw == 1 ? "" : "es", t->nservers,
				t->nservers == 1 ? "" : "s");
	if (!rc && t->cls != IBTOPO_TOPOLOGY_FAT_TREE &&
	    t->cls != IBTOPO_TOPOLOGY_RAIL_OPTIMIZED && t->reason)
		rc = ibtopo_sink_printf(sink, "  why: %s\n", t->reason);
	if (!rc && t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS) {
		size_t lo, hi;

		global_range(t, &lo, &hi);
		rc = ibtopo_sink_printf(sink, "  %zu groups; %zu global links, %zu to %zu between two groups\n",
					t->ngroups, t->global_links, lo, hi);
		/* a line per group when they are few */
		for (size_t k = 0; k < t->ngroups && t->ngroups <= 16 && !rc; k++) {
			const struct ibtopo__group *g = &t->groups[k];

			rc = ibtopo_sink_printf(sink, "  group %zu (%s): %zu leaves, %zu spines, %zu server links, %zu global links\n",
						k + 1,
						ibtopo__topology_node_text(t, t->sw[g->first].node,
									   true, na, sizeof(na)),
						g->leaves, g->spines, g->servers, g->global);
		}
	}
	if (!rc && t->cls == IBTOPO_TOPOLOGY_RAIL_OPTIMIZED) {
		size_t lo = 0, hi = 0;

		for (size_t u = 0; u < t->nunits; u++) {
			if (!u || t->unit_servers[u] < lo)
				lo = t->unit_servers[u];
			if (t->unit_servers[u] > hi)
				hi = t->unit_servers[u];
		}
		rc = ibtopo_sink_printf(sink, "  %u rails, %zu scalable unit%s of %zu to %zu servers; %zu servers on the rails\n",
					t->nrails, t->nunits,
					t->nunits == 1 ? "" : "s", lo, hi,
					t->rail_servers);
	}
	if (!rc && t->from_roots)
		rc = ibtopo_sink_printf(sink, "  levels ranked down from %zu root%s\n",
					t->nroots, t->nroots == 1 ? "" : "s");
	return rc;
}

/* A line per director: its chips, line and fabric levels. */
static int directors_text(const struct ibtopo_sink *sink,
			  const struct ibtopo_topology *t)
{
	char na[256];
	int rc = 0;

	for (size_t c = 0; c < t->nchassis && !rc; c++) {
		if (t->chassis[c].chips < 2)
			continue;
		const struct ibtopo__chassis *ch = &t->chassis[c];

		rc = ibtopo_sink_printf(sink, "  director %s: %zu switch chips",
					ibtopo__topology_chassis_text(t, c, na,
								      sizeof(na)),
					ch->chips);
		if (!rc && ch->line_level)
			rc = ibtopo_sink_printf(sink, ", %zu line at level %d",
						ch->line_chips, ch->line_level);
		if (!rc && ch->idle_chips)
			rc = ibtopo_sink_printf(sink, " (%zu without external links)",
						ch->idle_chips);
		if (!rc && ch->fabric_chips)
			rc = ibtopo_sink_printf(sink, ", %zu fabric at level %d",
						ch->fabric_chips, ch->line_level + 1);
		if (!rc)
			rc = ibtopo_sink_printf(sink, "; %zu external links\n",
						ch->external_links);
	}
	return rc;
}

/* The level table, the blocking factor and OpenSM's ftree verdict. */
static int levels_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_topology *t)
{
	char b1[64], b2[64], b3[64], b4[64];
	int rc = 0;

	if (!rc && t->nlevels)
		/* links, not servers: a dual-homed server counts twice */
		rc = ibtopo_sink_printf(sink, "\n  %-5s %8s %7s %10s %6s %6s %6s %11s %11s %9s %11s\n",
					"LEVEL", "SWITCHES", "CHASSIS", "HOST LINKS", "DOWN",
					"UP", "SAME", "DOWN BW", "UP BW",
					"OVERSUB", "BISECTION");
	for (unsigned l = t->nlevels; l >= 1 && !rc; l--) {
		const struct ibtopo_topology_level *v = &t->levels[l - 1];

		rc = ibtopo_sink_printf(sink, "  %-5u %8zu %7zu %10zu %6zu %6zu %6zu %11s %11s %9s %11s\n",
					v->level, v->switches, v->chassis, v->host_links,
					v->down_links, v->up_links, v->same_links,
					ibtopo__report_gbps(v->down_gbps, b1, sizeof(b1)),
					v->up_links ? ibtopo__report_gbps(v->up_gbps, b2, sizeof(b2)) : "-",
					ratio(v->oversubscription, b3, sizeof(b3)),
					v->up_links ? ibtopo__report_gbps(v->bisection_gbps, b4, sizeof(b4)) : "-");
	}
	if (!rc && t->blocking > 0)
		rc = ibtopo_sink_printf(sink, "\nBlocking factor %s; bisection bandwidth %s\n",
					ratio(t->blocking, b1, sizeof(b1)),
					t->bisection > 0 ?
					ibtopo__report_gbps(t->bisection, b2, sizeof(b2)) : "unknown");
	if (!rc && t->nsw)
		rc = ibtopo_sink_printf(sink, "OpenSM's ftree routing %s%s\n",
					t->ftree_ok ? "would route this fabric" :
					"would not route it (minhop would): ",
					t->ftree_ok ? "" : t->ftree_reason);
	return rc;
}

/* Path diversity between leaf switches. */
static int paths_text(const struct ibtopo_sink *sink,
		      const struct ibtopo_topology *t)
{
	char na[256], nb[256];
	int rc = 0;

	if (t->nleaves >= 2 && t->leaf_note) {
		rc = ibtopo_sink_printf(sink, "\nPath diversity between %zu leaf switches: %s\n",
					t->nleaves, t->leaf_note);
	} else if (t->nleaves >= 2) {
		size_t npairs = t->nleaves * (t->nleaves - 1) / 2;

		rc = ibtopo_sink_printf(sink, "\nPath diversity between %zu leaf switches "
					"(%zu pair%s; %u wanted):\n", t->nleaves,
					npairs, npairs == 1 ? "" : "s",
					t->min_paths);
		if (!rc)
			rc = dist_line(sink, "edge-disjoint", &t->leaf_dist[0]);
		if (!rc)
			rc = dist_line(sink, "node-disjoint", &t->leaf_dist[1]);
		if (!rc)
			rc = dist_line(sink, "ECMP routes", &t->leaf_dist[2]);
		if (!rc && t->nworst) {
			const struct ibtopo__pair *p = &t->worst[0];

			rc = ibtopo_sink_printf(sink, "  worst pair: %s - %s: %llu node-, "
						"%llu edge-disjoint, %llu route%s\n",
						/* as the findings name them */
						ibtopo__topology_node_text(t,
							t->sw[t->leaves[p->a]].node,
							false, na, sizeof(na)),
						ibtopo__topology_node_text(t,
							t->sw[t->leaves[p->b]].node,
							false, nb, sizeof(nb)),
						p->node, p->edge, p->ecmp,
						p->ecmp == 1 ? "" : "s");
		}
	}
	return rc;
}

/* Servers: how they are homed, and their path diversity. Single-homed
 * means all links on one switch, as the low-path-diversity finding says:
 * with one link or with several. */
static int servers_text(const struct ibtopo_sink *sink,
			const struct ibtopo_topology *t)
{
	size_t single = 0, several = 0;
	int rc = 0;

	for (size_t i = 0; i < t->nservers; i++) {
		if (t->servers[i].links < 2)
			single++;
		else if (t->servers[i].natt < 2)
			several++;
	}
	if (!rc && t->nservers)
		rc = ibtopo_sink_printf(sink, "\nServers: %zu; %zu single-homed "
					"(all links on one switch: %zu with "
					"one link, %zu with several), %zu "
					"multi-homed; policy %s-homed (%s)\n",
					t->nservers, single + several, single,
					several, t->nservers - single - several,
					policy_name(t->server_policy),
					t->policy_asked ? "--servers" :
					"most servers are");
	if (!rc && t->server_dist[0].computed) {
		rc = dist_line(sink, "edge-disjoint", &t->server_dist[0]);
		if (!rc)
			rc = dist_line(sink, "node-disjoint", &t->server_dist[1]);
	} else if (!rc && t->nservers >= 2 && t->server_note) {
		rc = ibtopo_sink_printf(sink, "  server pairs: %s\n", t->server_note);
	}
	return rc;
}

static int topology_text(const struct ibtopo_sink *sink,
			 const struct ibtopo_topology *t)
{
	int rc = shape_text(sink, t);

	if (!rc)
		rc = directors_text(sink, t);
	if (!rc)
		rc = levels_text(sink, t);
	if (rc)
		return rc;
	if (!t->paths_done)
		return ibtopo_sink_printf(sink, "\nPath diversity: not computed\n");
	rc = paths_text(sink, t);
	if (!rc)
		rc = servers_text(sink, t);
	return rc;
}

static int section_text(const struct ibtopo_sink *sink,
			const struct ibtopo_analysis *an)
{
	int rc;

	if (!an->topology)
		return 0;
	rc = topology_text(sink, an->topology);
	return rc ? rc : ibtopo_sink_printf(sink, "\n");
}

/* ibtopo_report_analysis(): "topology" and "paths" beside "fabric"; the
 * architect's summary (class, level table, blocking, path diversity) */
const struct ibtopo__report_section ibtopo__report_section_topology = {
	"topology", section_json, section_text,
};
