/*
 * diagram_edges.c - the drawn edges of a scene: the cables between two
 * drawn nodes bundled into one edge per category, links to ghosts, the
 * usual rates of switch and host links, the routes over each cable for
 * the heat map, and which edges say their cable count and rate.
 */
#include "diagram/diagram-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* edges                                                               */
/* ------------------------------------------------------------------ */

static int add_edge(struct scene *c, size_t u, size_t v, enum cat k,
		    unsigned speed, unsigned width, const struct ibtopo_link *l)
{
	const struct ibtopo_node *host = NULL;

	struct dedge *e;

	if (u == NONE || v == NONE)
		return 0;
	/* the overview: cables inside a group are not drawn */
	if (c->groups && u == v && (!l || l->a->node != l->b->node))
		return 0;
	/* upper end first: dot ranks heads below tails */
	if (c->dn[v].level > c->dn[u].level ||
	    (c->dn[v].level == c->dn[u].level && v < u)) {
		size_t t = u;

		u = v;
		v = t;
	}
	if (ibtopo__grow(&c->de, &c->ade, c->nde + 1, sizeof(*c->de)))
		return IBTOPO_ENOMEM;
	e = &c->de[c->nde++];
	e->u = u;
	e->v = v;
	e->cat = k;
	e->speed = speed;
	e->width = width;
	e->count = 1;
	e->gbps = ibtopo_link_gbps(speed, width);
	e->link = l;
	e->node_link = false;
	e->routes_down = e->routes_up = e->heat = 0;
	e->load = 0;
	if (l && c->lroutes) {
		uint64_t ab = c->lroutes[2 * l->index];
		uint64_t ba = c->lroutes[2 * l->index + 1];
		bool a_up = c->dn_of[l->a->node->index] == u;

		e->routes_down = a_up ? ab : ba;
		e->routes_up = a_up ? ba : ab;
		e->heat = ab > ba ? ab : ba;
	}
	if (l && c->lload) {
		e->load = c->lload[2 * l->index] > c->lload[2 * l->index + 1] ?
				  c->lload[2 * l->index] :
				  c->lload[2 * l->index + 1];
	}
	/* a problem on a host in a block goes to the host's own cell */
	if (l && k != CAT_OK && c->dn[v].kind == DN_BLOCK)
		host = c->dn_of[l->a->node->index] == v ? l->a->node :
							  l->b->node;
	e->host = host;
	return 0;
}

static int cmp_dedge(const void *x, const void *y)
{
	const struct dedge *a = x, *b = y;

	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	if (a->cat != b->cat)
		return a->cat < b->cat ? -1 : 1;
	if (a->speed != b->speed)
		return a->speed < b->speed ? -1 : 1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	if (a->host != b->host)
		return !a->host			     ? -1 :
		       !b->host			     ? 1 :
		       a->host->guid < b->host->guid ? -1 :
						       1;
	if (a->link && b->link && a->link->index != b->link->index)
		return a->link->index < b->link->index ? -1 : 1;
	return 0;
}

/* Most common (speed, width) among switch-switch and among host links. */
static void common_rates(struct scene *c)
{
	struct {
		unsigned s, w;
		size_t n;
	} mix[2][32];
	size_t nmix[2] = { 0, 0 };

	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		int h = l->a->node->type != IBTOPO_NODE_SWITCH ||
			l->b->node->type != IBTOPO_NODE_SWITCH;
		size_t k;

		for (k = 0; k < nmix[h]; k++)
			if (mix[h][k].s == l->speed && mix[h][k].w == l->width)
				break;
		if (k == nmix[h]) {
			if (k == 32)
				continue;
			mix[h][k].s = l->speed;
			mix[h][k].w = l->width;
			mix[h][k].n = 0;
			nmix[h]++;
		}
		mix[h][k].n++;
	}
	for (int h = 0; h < 2; h++) {
		size_t best = 0;

		/* ties go to the faster rate, whatever the link order */
		for (size_t k = 1; k < nmix[h]; k++)
			if (mix[h][k].n > mix[h][best].n ||
			    (mix[h][k].n == mix[h][best].n &&
			     (mix[h][k].s > mix[h][best].s ||
			      (mix[h][k].s == mix[h][best].s &&
			       mix[h][k].w > mix[h][best].w))))
				best = k;
		if (!nmix[h])
			continue;
		if (h) {
			c->host_speed = mix[h][best].s;
			c->host_width = mix[h][best].w;
		} else {
			c->sw_speed = mix[h][best].s;
			c->sw_width = mix[h][best].w;
		}
	}
}

/* Drawn node of a node of the other fabric: same GUID, else same name. */
static size_t other_dnode(struct scene *c, const struct ibtopo_node *o)
{
	struct ibtopo_end e = { .node = o->desc, .guid = o->guid, .port = -1 };
	const struct ibtopo_node *n;
	size_t i = ibtopo__diagram_end_dnode(c, &e);

	if (i != NONE)
		return i;
	/* plans name nodes; their GUIDs may be made up */
	n = ibtopo_fabric_find_node_desc(c->f, o->desc);
	return n && n->type == o->type ? c->dn_of[n->index] : NONE;
}

/*
 * A node that is gone (diff) or missing (validate) had or should have
 * links: draw those the other fabric has to what is drawn, dashed. The
 * findings do not list them (they are counted in the node's finding).
 */
static int ghost_node_links(struct scene *c)
{
	size_t nghost = c->ndn;

	for (size_t i = 0; i < nghost; i++) {
		const struct dnode *g = &c->dn[i];
		enum cat k =
			g->marks & MARK_REMOVED ? CAT_REMOVED : CAT_MISSING;
		const struct ibtopo_node *o = g->other;

		if (g->kind != DN_GHOST || !o)
			continue;
		for (unsigned p = 1; p <= o->nports; p++) {
			const struct ibtopo_port *pp = o->ports[p];
			size_t j;
			int rc;

			if (!pp || !pp->remote)
				continue;
			j = other_dnode(c, pp->remote->node);
			/* between two ghosts, draw the link once */
			if (j == NONE || (c->dn[j].kind == DN_GHOST &&
					  c->dn[j].guid < g->guid))
				continue;
			size_t before = c->nde;

			rc = add_edge(c, i, j, k, pp->speed_active,
				      pp->width_active, NULL);
			if (rc)
				return rc;
			if (c->nde > before)
				c->de[before].node_link = true;
		}
	}
	return 0;
}

/* A cable merged into edge `to`: routes add up, the busiest cable counts. */
static void add_heat(struct dedge *to, const struct dedge *e)
{
	to->routes_down += e->routes_down;
	to->routes_up += e->routes_up;
	if (e->heat > to->heat)
		to->heat = e->heat;
	if (e->load > to->load)
		to->load = e->load;
}

/* A link side's class for perfect balance: its switch's level and
 * whether the cable goes down, across or up; -1 for a CA's side. */
static int side_class(const struct scene *c, const struct ibtopo_link *l,
		      int side)
{
	const struct ibtopo_node *n = side ? l->b->node : l->a->node;
	const struct ibtopo_node *m = side ? l->a->node : l->b->node;
	int ln = c->level[n->index], lm = c->level[m->index];

	if (n->type != IBTOPO_NODE_SWITCH || ln < 0)
		return -1;
	return 3 * ln + (lm < ln ? 0 : lm == ln ? 1 : 2);
}

/*
 * Heat map: each link side's load against perfect balance. The routes
 * leaving a level's ports one way (the leaves' uplinks, say) add up to
 * the same whatever the tables, for shortest routes; spread evenly,
 * each port carries their mean, rounded up. A side's load is its routes
 * over that: 1 is balanced, whatever the fabric's size.
 */
static int link_loads(struct scene *c)
{
	size_t ncls = 0;
	uint64_t *sum, *cnt;

	for (size_t i = 0; i < c->nn; i++)
		if (c->level[i] >= 0 && (size_t)c->level[i] + 1 > ncls)
			ncls = (size_t)c->level[i] + 1;
	ncls *= 3;
	sum = calloc(ncls + 1, sizeof(*sum));
	cnt = calloc(ncls + 1, sizeof(*cnt));
	c->lload = calloc(2 * c->nl + 1, sizeof(*c->lload));
	if (!sum || !cnt || !c->lload) {
		free(sum);
		free(cnt);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->nl; i++)
		for (int s = 0; s < 2; s++) {
			int k = side_class(c, ibtopo_fabric_link(c->f, i), s);

			if (k < 0)
				continue;
			sum[k] += c->lroutes[2 * i + (size_t)s];
			cnt[k]++;
		}
	for (size_t k = 0; k < ncls; k++) {
		sum[k] = cnt[k] ? (sum[k] + cnt[k] - 1) / cnt[k] : 0;
		if (!sum[k])
			continue;
		if (!c->balance_max || sum[k] < c->balance_min)
			c->balance_min = sum[k];
		if (sum[k] > c->balance_max)
			c->balance_max = sum[k];
	}
	for (size_t i = 0; i < c->nl; i++)
		for (int s = 0; s < 2; s++) {
			int k = side_class(c, ibtopo_fabric_link(c->f, i), s);
			size_t j = 2 * i + (size_t)s;

			if (k >= 0 && sum[k])
				c->lload[j] =
					(double)c->lroutes[j] / (double)sum[k];
		}
	free(sum);
	free(cnt);
	return 0;
}

/*
 * Heat map: the routes leaving each switch port, on its link's side
 * (lroutes), and their load, before the edges are built.
 */
static int link_routes(struct scene *c)
{
	const struct ibtopo_routes *r = c->d->heat;

	if (!r)
		return 0;
	c->heat = true;
	c->lroutes = calloc(2 * c->nl + 1, sizeof(*c->lroutes));
	if (!c->lroutes)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < r->nports; i++) {
		const struct ibtopo_port *p = r->ports[i].port;
		const struct ibtopo_link *l = p ? p->link : NULL;

		if (!l || l->index >= c->nl)
			continue;
		c->lroutes[2 * l->index + (l->a == p ? 0 : 1)] +=
			r->ports[i].routes;
	}
	return link_loads(c);
}

/*
 * The loads where the steps change, per heat map (a load above bound k
 * is step k + 1). Routes: balanced or under, then 1/4, 1/2 and twice
 * over (a cable twice as busy as it need be is dark red). Counters: see
 * <ibtopo/diagram.h>; a clean cable's 0 is the coolest step.
 */
static const double heat_bounds[][IBTOPO_HEAT_STEPS - 1] = {
	[IBTOPO_HEAT_NONE] = { 1.0, 1.25, 1.5, 2.0 },
	[IBTOPO_HEAT_ERRORS] = { 0, 9, 99, 999 },
	[IBTOPO_HEAT_BER] = { 0, 0.01, 0.1, 1 },
	[IBTOPO_HEAT_TRAFFIC] = { 0.1, 0.25, 0.5, 0.75 },
	[IBTOPO_HEAT_CONGESTION] = { 0.01, 0.1, 0.5, 1 },
};

static const double *bounds_of(const struct scene *c)
{
	unsigned k = c->d->heat_kind;

	return heat_bounds[k < IBTOPO__ARRAY_SIZE(heat_bounds) ? k : 0];
}

double ibtopo__diagram_heat_bound(const struct scene *c, unsigned k)
{
	return k < IBTOPO_HEAT_STEPS - 1 ? bounds_of(c)[k] : HUGE_VAL;
}

unsigned ibtopo__diagram_heat_step(const struct scene *c, double load)
{
	const double *b = bounds_of(c);
	unsigned k = 0;

	/* a hair over a bound from rounding is still under it */
	while (k < IBTOPO_HEAT_STEPS - 1 && load > b[k] + 1e-9)
		k++;
	return k;
}

/* The heat of a port's side of its link: its measure on the scale. */
static double port_load(const struct scene *c,
			const struct ibtopo_health_port *x)
{
	const struct ibtopo_health *h = c->d->health;
	double sum = 0;

	switch (c->d->heat_kind) {
	case IBTOPO_HEAT_ERRORS:
		if (!h->since)
			return (double)x->errors;
		for (int i = 0; x->before && i <= IBTOPO_CTR_VL15_DROPPED; i++)
			sum += (double)x->growth[i];
		return sum;
	case IBTOPO_HEAT_CONGESTION:
		return h->wait_threshold > 0 ?
			       x->wait_share / h->wait_threshold :
			       0;
	default:
		return 0;
	}
}

static void side_max(struct scene *c, const struct ibtopo_link *l, int side,
		     double v)
{
	if (l && l->index < c->nl && v > c->lload[2 * l->index + side])
		c->lload[2 * l->index + side] = v;
}

/* Heat map of the counters (d->health): each link side's load. */
static int link_measures(struct scene *c)
{
	const struct ibtopo_health *h = c->d->health;

	if (!h || c->d->heat_kind == IBTOPO_HEAT_NONE)
		return 0;
	c->heat = true;
	c->lload = calloc(2 * c->nl + 1, sizeof(*c->lload));
	if (!c->lload)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < h->count; i++) {
		const struct ibtopo_port *p = h->ports[i].port;

		if (p->link)
			side_max(c, p->link, p->link->a == p ? 0 : 1,
				 port_load(c, &h->ports[i]));
	}
	for (size_t i = 0; c->d->heat_kind == IBTOPO_HEAT_BER && i < h->nlinks;
	     i++) {
		const struct ibtopo_health_link *l = &h->links[i];

		if (l->threshold > 0)
			side_max(c, l->link, 0, l->ber / l->threshold);
	}
	for (size_t i = 0; c->d->heat_kind == IBTOPO_HEAT_TRAFFIC &&
			   h->traffic && i < h->traffic->count;
	     i++)
		side_max(c, h->traffic->links[i].link, 0,
			 h->traffic->links[i].utilisation);
	return 0;
}

static int build_edges(struct scene *c)
{
	const struct ibtopo_findings *fs = c->d->findings;
	size_t m = 0;
	int rc = 0;

	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		size_t ia = l->a->node->index, ib = l->b->node->index;

		if (!c->visible[ia] || !c->visible[ib] || c->hidden[ia] ||
		    c->hidden[ib])
			continue;
		rc = add_edge(c, c->dn_of[ia], c->dn_of[ib],
			      (enum cat)c->lcat[i], l->speed, l->width, l);
		if (rc)
			return rc;
	}
	for (size_t i = 0; fs && i < fs->count; i++) {
		struct flink fl[4];
		size_t n = ibtopo__diagram_finding_links(&fs->items[i], fl);

		for (size_t k = 0; k < n; k++) {
			if (!ibtopo__diagram_ghost_link(c, &fl[k]))
				continue;
			rc = add_edge(c, ibtopo__diagram_end_dnode(c, fl[k].x),
				      ibtopo__diagram_end_dnode(c, fl[k].y),
				      fl[k].cat, 0, 0, NULL);
			if (rc)
				return rc;
		}
	}
	rc = ghost_node_links(c);
	if (rc)
		return rc;
	if (c->nde)
		qsort(c->de, c->nde, sizeof(*c->de), cmp_dedge);
	/* merge parallel cables of one kind into one edge; the overview
	 * merges the cables between two nodes of one category, any rate
	 * (one bad cable of 48 is drawn apart, not the 48 in its colour),
	 * and on a heat map all of them, in the worst category */
	for (size_t i = 0; i < c->nde; i++) {
		struct dedge *last = m ? &c->de[m - 1] : NULL;
		const struct dedge *e = &c->de[i];

		if (last && c->groups && last->u == e->u && last->v == e->v &&
		    (c->heat || last->cat == e->cat)) {
			last->bundle = true;
			if (e->cat > last->cat)
				last->cat = e->cat;
			if (e->speed != last->speed || e->width != last->width)
				last->speed = last->width = 0;
			last->count++;
			last->gbps += e->gbps;
			last->link = NULL;
			add_heat(last, e);
			continue;
		}
		if (last && last->u == e->u && last->v == e->v &&
		    last->cat == e->cat && last->node_link == e->node_link &&
		    last->speed == e->speed && last->width == e->width &&
		    last->host == e->host) {
			last->count++;
			last->gbps += e->gbps;
			add_heat(last, e);
			continue;
		}
		c->de[m++] = *e;
		c->de[m - 1].bundle = c->groups;
	}
	c->nde = m;
	for (size_t i = 0; i < c->nde; i++) {
		c->used_cats |= 1u << c->de[i].cat;
		/* as validate and diff count: a node's links are in its
		 * node's finding */
		if (c->de[i].node_link)
			c->node_cats |= 1u << c->de[i].cat;
		else if (!c->groups)
			c->ncats[c->de[i].cat] += c->de[i].count;
	}
	/* the overview: a bundle is in its worst category; count cables */
	for (size_t i = 0; c->groups && i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);

		if (c->visible[l->a->node->index] &&
		    c->visible[l->b->node->index])
			c->ncats[c->lcat[i]]++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* edge labels                                                         */
/* ------------------------------------------------------------------ */

static bool is_switch_edge(const struct scene *c, const struct dedge *e)
{
	return c->dn[e->u].kind == DN_SWITCH && c->dn[e->v].kind == DN_SWITCH;
}

/*
 * The cable count is worth a label where it says something: not on the
 * links to a host group with one cable per host ("×24" under "24 hosts"),
 * and not on switch links that have the usual count (the legend says).
 */
static bool show_count(const struct scene *c, const struct dedge *e)
{
	const struct dnode *g =
		c->dn[e->v].kind == DN_GROUP || c->dn[e->v].kind == DN_BLOCK ?
			&c->dn[e->v] :
			NULL;

	if (e->count < 2)
		return false;
	if (g && e->count == g->nhosts)
		return false;
	return !(c->usual_count > 1 && e->count == c->usual_count &&
		 is_switch_edge(c, e));
}

/* The count most switch-to-switch edges have, when that is most of them. */
static size_t usual_count(const struct scene *c)
{
	size_t *v = calloc(c->nde + 1, sizeof(*v));
	size_t n = 0, best = 0, best_n = 0;

	if (!v)
		return 0; /* only a label less */
	for (size_t i = 0; i < c->nde; i++)
		if (is_switch_edge(c, &c->de[i]))
			v[n++] = c->de[i].count;
	qsort(v, n, sizeof(*v), ibtopo__diagram_cmp_size);
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s; e < n && v[e] == v[s]; e++)
			;
		if (e - s > best_n) {
			best = v[s];
			best_n = e - s;
		}
	}
	free(v);
	return best_n * 2 > n && n >= 4 ? best : 0;
}

/* Which edges say their cable count and their rate. */
void ibtopo__diagram_label_edges(struct scene *c)
{
	c->usual_count = usual_count(c);
	for (size_t i = 0; i < c->nde; i++) {
		struct dedge *e = &c->de[i];
		bool host = c->dn[e->u].kind != DN_SWITCH ||
			    c->dn[e->v].kind != DN_SWITCH;
		unsigned cs = host ? c->host_speed : c->sw_speed;
		unsigned cw = host ? c->host_width : c->sw_width;

		e->show_count = show_count(c, e);
		e->show_speed = e->speed &&
				(e->speed != cs || e->width != cw ||
				 e->cat == CAT_DOWN || e->cat == CAT_CHANGED);
	}
}

/*
 * The drawn edges: the usual rates, the routes over each cable for the
 * heat map, then the cables bundled into edges between drawn nodes.
 */
int ibtopo__diagram_edges(struct scene *c)
{
	int rc;

	common_rates(c);
	rc = link_routes(c);
	if (!rc && !c->lroutes)
		rc = link_measures(c);
	if (!rc)
		rc = build_edges(c);
	return rc;
}
