/*
 * diagram_scene.c - what a fabric diagram draws, as data and no text:
 * the drawn nodes (switches; hosts alone, collapsed into groups or laid
 * out in blocks; ghosts of nodes the findings name), the edges (parallel
 * cables of one kind bundled into one), labels, marks and categories,
 * directors, and the ranks the nodes sit on. A writer walks the scene in
 * its order (diagram_dot.c writes DOT).
 *
 * The scene is a pure function of the fabric, the findings and the
 * options: nodes and edges are sorted and nothing depends on addresses
 * or the clock, so the same input gives the same scene (golden tests of
 * the DOT text rely on it).
 */
#include "diagram/diagram-int.h"
#include "analysis/topology-int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* small helpers                                                       */
/* ------------------------------------------------------------------ */

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

static bool is_host_type(enum ibtopo_node_type t)
{
	return t != IBTOPO_NODE_SWITCH;
}

/* Columns of a block of n hosts: about square. */
static size_t block_columns(size_t n)
{
	size_t cols = 1;

	while (cols * cols < n)
		cols++;
	return cols;
}

/* ------------------------------------------------------------------ */
/* levels                                                              */
/* ------------------------------------------------------------------ */

/*
 * The levels of the topology analysis: the one the caller made, or one
 * of our own without path diversity (*own, to free).
 */
static int levels_analysis(const struct ibtopo_topology **out,
			   struct ibtopo_topology **own,
			   const struct ibtopo_fabric *f,
			   const struct ibtopo_topology *given)
{
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	int rc;

	*own = NULL;
	*out = given;
	if (given)
		return 0;
	o.flags = IBTOPO_TOPOLOGY_NO_PATHS | IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = ibtopo_topology_analyze(own, f, &o, NULL, NULL);
	*out = *own;
	return rc;
}

/*
 * Ranks: hosts are 0, switches their level in the topology analysis;
 * a switch it leaves unranked (cut off from every server) is a leaf.
 */
static void compute_levels(const struct ibtopo_fabric *f,
			   const struct ibtopo_topology *t, int *level)
{
	size_t nn = ibtopo_fabric_node_count(f);

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);
		int l = ibtopo_topology_node_level(t, n);

		level[i] = n->type != IBTOPO_NODE_SWITCH ? 0 : l > 0 ? l : 1;
	}
}

/* ------------------------------------------------------------------ */
/* directors                                                           */
/* ------------------------------------------------------------------ */

/* System image GUID shared with another switch, or 0. */
static uint64_t director_of(const struct scene *c, const struct ibtopo_node *n)
{
	return c->dir[n->index];
}

/* Switches sharing a system image GUID are chips of one director. */
static void find_directors(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++)
		c->dir[i] = ibtopo__topology_director(c->topo,
						      ibtopo_fabric_node(c->f, i));
}

/* ------------------------------------------------------------------ */
/* drawn nodes                                                         */
/* ------------------------------------------------------------------ */

static int add_dnode(struct scene *c, const struct dnode *proto, size_t *out)
{
	if (ibtopo__grow(&c->dn, &c->adn, c->ndn + 1, sizeof(*c->dn)))
		return IBTOPO_ENOMEM;
	c->dn[c->ndn] = *proto;
	c->dn[c->ndn].orig = c->ndn;
	*out = c->ndn++;
	return 0;
}

static int kind_rank(enum dkind k)
{
	return k == DN_SWITCH ? 0 : k == DN_GHOST ? 1 : k == DN_HOST ? 2 :
	       k == DN_BLOCK ? 3 : 4;
}

static int cmp_dnode(const void *x, const void *y)
{
	const struct dnode *a = x, *b = y;
	int r;

	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	if (kind_rank(a->kind) != kind_rank(b->kind))
		return kind_rank(a->kind) - kind_rank(b->kind);
	r = ibtopo__diagram_natcmp(a->label, b->label);
	if (r)
		return r;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* Collapsing: each host's key is the sorted set of switches it hangs off. */
struct hostkey {
	size_t node;		/* fabric index of the host */
	size_t nsw;
	size_t sw[8];		/* fabric indices of its switches, sorted */
};

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

static int cmp_hostkey(const void *x, const void *y)
{
	const struct hostkey *a = x, *b = y;

	for (size_t i = 0; i < a->nsw && i < b->nsw; i++)
		if (a->sw[i] != b->sw[i])
			return a->sw[i] < b->sw[i] ? -1 : 1;
	if (a->nsw != b->nsw)
		return a->nsw < b->nsw ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* Host key, or false when the host cannot be collapsed. */
static bool host_key(const struct scene *c, size_t i, struct hostkey *k)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

	k->node = i;
	k->nsw = 0;
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct ibtopo_port *pp = n->ports[p];
		size_t j;
		bool dup = false;

		if (!pp || !pp->remote)
			continue;
		j = pp->remote->node->index;
		if (pp->remote->node->type != IBTOPO_NODE_SWITCH || !c->visible[j])
			return false;
		for (size_t q = 0; q < k->nsw; q++)
			dup |= k->sw[q] == j;
		if (dup)
			continue;
		if (k->nsw == IBTOPO__ARRAY_SIZE(k->sw))
			return false;
		k->sw[k->nsw++] = j;
	}
	if (!k->nsw)
		return false;
	qsort(k->sw, k->nsw, sizeof(k->sw[0]), cmp_size);
	return true;
}

static bool same_key(const struct hostkey *a, const struct hostkey *b)
{
	return a->nsw == b->nsw && !memcmp(a->sw, b->sw, a->nsw * sizeof(a->sw[0]));
}

struct sv {
	const char *s;
	bool unnamed;	/* a CA whose description names no host */
};

/* Host names in natural order, the unnamed ("ConnectX7 8d88") last. */
static int cmp_sv(const void *x, const void *y)
{
	const struct sv *a = x, *b = y;

	if (a->unnamed != b->unnamed)
		return a->unnamed ? 1 : -1;
	return ibtopo__diagram_natcmp(a->s, b->s);
}

/*
 * A long switch name on two lines, broken after the '-' nearest its
 * middle: "A09-P1-IBLEAF-04-04" -> "A09-P1-\nIBLEAF-04-04". A level of 32
 * such leaves is half as wide.
 */
static char *wrap_label(const char *s)
{
	size_t n = strlen(s), best = 0, mid = n / 2;
	char *out;

	if (ibtopo__diagram_utf8_len(s) <= 14)
		return strdup(s);
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] != '-' && s[i] != '_')
			continue;
		if (!best || (i > mid ? i - mid : mid - i) <
			     (best > mid ? best - mid : mid - best))
			best = i;
	}
	if (!best || best < 3 || n - best < 4)
		return strdup(s);
	out = malloc(n + 2);
	if (!out)
		return NULL;
	memcpy(out, s, best + 1);
	out[best + 1] = '\n';
	memcpy(out + best + 2, s + best + 1, n - best);
	return out;
}

/* "24 hosts: host001, host002, ..." as far as 1000 bytes go. */
static char *group_tooltip(size_t n, const struct sv *names)
{
	char buf[1024];
	size_t k;

	k = (size_t)snprintf(buf, sizeof(buf), "%zu hosts:", n);
	for (size_t i = 0; i < n && k < sizeof(buf); i++) {
		if (k + strlen(names[i].s) + 8 >= sizeof(buf)) {
			snprintf(buf + k, sizeof(buf) - k, " \xe2\x80\xa6");
			break;
		}
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s %s",
				      i ? "," : "", names[i].s);
	}
	return strdup(buf);
}

/* One node standing for hosts k[0..n) (same switches). */
static int add_group(struct scene *c, const struct hostkey *k, size_t n)
{
	struct dnode g = { .kind = DN_GROUP, .level = 0, .nhosts = n,
			   .type = IBTOPO_NODE_CA };
	struct sv *names = calloc(n, sizeof(*names));
	size_t idx, named = 0;
	int rc;

	if (!names)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		names[i].s = c->label[k[i].node];
		names[i].unnamed =
			ibtopo__desc_is_default(ibtopo_fabric_node(c->f, k[i].node)->desc);
	}
	qsort(names, n, sizeof(*names), cmp_sv);
	while (named < n && !names[named].unnamed)
		named++;
	/* named after its lowest GUID: the same whatever the fabric's order */
	g.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 1; i < n; i++)
		if (ibtopo_fabric_node(c->f, k[i].node)->guid < g.guid)
			g.guid = ibtopo_fabric_node(c->f, k[i].node)->guid;
	g.label = ibtopo__diagram_group_label(n, names[0].s,
			      names[named ? named - 1 : n - 1].s);
	g.tooltip = group_tooltip(n, names);
	free(names);
	if (!g.label || !g.tooltip) {
		free(g.label);
		free(g.tooltip);
		return IBTOPO_ENOMEM;
	}
	rc = add_dnode(c, &g, &idx);
	if (rc) {
		free(g.label);
		free(g.tooltip);
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		c->dn_of[k[i].node] = idx;
	return 0;
}

/* Hosts in a block: named hosts first, in natural order of their labels. */
static int cmp_cell(const void *x, const void *y)
{
	const struct dcell *a = x, *b = y;
	bool ua = ibtopo__desc_is_default(a->node->desc);
	bool ub = ibtopo__desc_is_default(b->node->desc);
	int r;

	if (ua != ub)
		return ua ? 1 : -1;
	r = ibtopo__diagram_natcmp(a->label, b->label);
	if (r)
		return r;
	return a->node->index < b->node->index ? -1 :
	       a->node->index > b->node->index;
}

/* Worst category among a host's links. */
static enum cat host_cat(const struct scene *c, const struct ibtopo_node *n)
{
	enum cat k = CAT_OK;

	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p] && n->ports[p]->link &&
		    c->lcat[n->ports[p]->link->index] > k)
			k = c->lcat[n->ports[p]->link->index];
	return k;
}

/* One node, a table with a cell per host, for hosts k[0..n). */
static int add_block(struct scene *c, const struct hostkey *k, size_t n)
{
	struct dnode b = { .kind = DN_BLOCK, .level = 0, .nhosts = n,
			   .type = IBTOPO_NODE_CA, .cols = block_columns(n) };
	char buf[64];
	size_t idx;
	int rc;

	b.cells = calloc(n, sizeof(*b.cells));
	if (!b.cells)
		return IBTOPO_ENOMEM;
	b.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *h = ibtopo_fabric_node(c->f, k[i].node);

		b.cells[i].node = h;
		b.cells[i].label = c->label[k[i].node];
		b.cells[i].marks = c->mark[k[i].node];
		b.cells[i].cat = host_cat(c, h);
		if (h->guid < b.guid)
			b.guid = h->guid;
	}
	qsort(b.cells, n, sizeof(*b.cells), cmp_cell);
	snprintf(buf, sizeof(buf), "%zu hosts", n);
	b.label = strdup(buf);
	b.tooltip = strdup(buf);
	if (!b.label || !b.tooltip) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	rc = add_dnode(c, &b, &idx);
	if (rc)
		goto out_free;
	for (size_t i = 0; i < n; i++)
		c->dn_of[k[i].node] = idx;
	return 0;
out_free:
	free(b.label);
	free(b.tooltip);
	free(b.cells);
	return rc;
}

static int node_tooltip(const struct ibtopo_node *n, char **out)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s\n%s 0x%016" PRIx64, n->desc,
		 ibtopo_node_type_name(n->type), n->guid);
	*out = strdup(buf);
	return *out ? 0 : IBTOPO_ENOMEM;
}

/* A host drawn alone (the overview: one cabled to no switch). */
static int add_host(struct scene *c, size_t i)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
	struct dnode d = { .kind = DN_HOST, .level = 0, .node = n,
			   .guid = n->guid, .type = n->type,
			   .marks = c->mark[i] };
	int rc;

	d.label = xstrdup(c->label[i]);
	if (!d.label)
		return IBTOPO_ENOMEM;
	rc = node_tooltip(n, &d.tooltip);
	if (!rc)
		rc = add_dnode(c, &d, &c->dn_of[i]);
	if (rc) {
		free(d.label);
		free(d.tooltip);
	}
	return rc;
}

/*
 * The overview: a node per group of switches, a switch alone as itself
 * (with the hosts folded into it), hosts in their switches' node.
 */
static int build_group_nodes(struct scene *c)
{
	size_t *dn_of_grp;
	int rc = ibtopo__diagram_groups(c);

	if (rc)
		return rc;
	dn_of_grp = calloc(c->nsg + 1, sizeof(*dn_of_grp));
	if (!dn_of_grp)
		return IBTOPO_ENOMEM;
	for (size_t g = 0; g < c->nsg; g++)
		dn_of_grp[g] = NONE;
	for (size_t i = 0; !rc && i < c->nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
		size_t g = c->grp[i];
		const struct sgroup *sg;
		struct dnode d = { .level = c->level[i], .node = n,
				   .guid = n->guid, .type = n->type };
		char buf[400];

		if (!c->visible[i] || c->hidden[i])
			continue;
		if (g == NONE) {
			if (c->host_grp[i] == NONE)
				rc = add_host(c, i);
			continue;
		}
		if (dn_of_grp[g] != NONE) {
			c->dn_of[i] = dn_of_grp[g];
			if (n->guid < c->dn[dn_of_grp[g]].guid)
				c->dn[dn_of_grp[g]].guid = n->guid;
			continue;
		}
		sg = &c->sg[g];
		d.marks = sg->marks;
		d.group = g;
		if (sg->n == 1 && !sg->sysimg) {
			d.kind = DN_SWITCH;
			d.label = wrap_label(c->label[i]);
			if (d.label && sg->hosts) {
				snprintf(buf, sizeof(buf), "%s\n%zu host%s", d.label,
					 sg->hosts, sg->hosts == 1 ? "" : "s");
				free(d.label);
				d.label = strdup(buf);
			}
			rc = node_tooltip(n, &d.tooltip);
		} else {
			d.kind = DN_SWGROUP;
			d.node = NULL;
			d.level = sg->level;
			d.label = strdup(sg->label);
			d.tooltip = strdup(sg->tooltip);
			if (sg->sysimg)
				d.guid = sg->sysimg;
		}
		if (!rc && (!d.label || !d.tooltip))
			rc = IBTOPO_ENOMEM;
		if (!rc)
			rc = add_dnode(c, &d, &c->dn_of[i]);
		if (rc) {
			free(d.label);
			free(d.tooltip);
			break;
		}
		dn_of_grp[g] = c->dn_of[i];
	}
	/* a group is named by its lowest GUID: the same in any order */
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].kind == DN_SWGROUP && !c->sg[c->dn[i].group].sysimg)
			for (size_t j = 0; j < c->nn; j++)
				if (c->grp[j] == c->dn[i].group &&
				    ibtopo_fabric_node(c->f, j)->guid < c->dn[i].guid)
					c->dn[i].guid = ibtopo_fabric_node(c->f, j)->guid;
	free(dn_of_grp);
	return rc;
}

static int build_nodes(struct scene *c)
{
	struct hostkey *keys = NULL;
	size_t nkeys = 0, nhosts = 0;
	int rc = 0;

	if (c->groups)
		return build_group_nodes(c);
	for (size_t i = 0; i < c->nn; i++)
		if (c->visible[i] && !c->hidden[i] &&
		    is_host_type(ibtopo_fabric_node(c->f, i)->type))
			nhosts++;
	switch (c->d->hosts) {
	case IBTOPO_HOSTS_ALL:
		c->collapse = false;
		break;
	case IBTOPO_HOSTS_COLLAPSE:
		c->collapse = true;
		break;
	default:
		c->collapse = nhosts > IBTOPO_HOSTS_COLLAPSE_ABOVE;
		break;
	}
	c->blocks = !c->collapse && nhosts > HOST_BLOCKS_ABOVE;
	if (c->collapse || c->blocks) {
		keys = calloc(nhosts ? nhosts : 1, sizeof(*keys));
		if (!keys)
			return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
		struct dnode d = { .level = c->level[i], .node = n,
				   .guid = n->guid, .type = n->type,
				   .marks = c->mark[i] };

		if (!c->visible[i] || c->hidden[i])
			continue;
		if ((c->collapse || c->blocks) && n->type == IBTOPO_NODE_CA &&
		    host_key(c, i, &keys[nkeys])) {
			nkeys++;
			continue;
		}
		d.kind = n->type == IBTOPO_NODE_SWITCH ? DN_SWITCH : DN_HOST;
		d.cluster = director_of(c, n);
		d.label = d.kind == DN_SWITCH ? wrap_label(c->label[i]) :
			  xstrdup(c->label[i]);
		if (!d.label)
			goto out_nomem;
		rc = node_tooltip(n, &d.tooltip);
		if (!rc)
			rc = add_dnode(c, &d, &c->dn_of[i]);
		if (rc) {
			free(d.label);
			free(d.tooltip);
			goto out_free;
		}
	}
	if (nkeys)	/* qsort(NULL, 0) is undefined */
		qsort(keys, nkeys, sizeof(*keys), cmp_hostkey);
	for (size_t s = 0, e; s < nkeys; s = e) {
		for (e = s + 1; e < nkeys && same_key(&keys[s], &keys[e]); e++)
			;
		if (e - s == 1) {
			/* a group of one is just the host */
			const struct ibtopo_node *n =
				ibtopo_fabric_node(c->f, keys[s].node);
			struct dnode d = { .kind = DN_HOST, .level = 0, .node = n,
					   .guid = n->guid, .type = n->type,
					   .marks = c->mark[keys[s].node] };

			d.label = xstrdup(c->label[keys[s].node]);
			if (!d.label)
				goto out_nomem;
			rc = node_tooltip(n, &d.tooltip);
			if (!rc)
				rc = add_dnode(c, &d, &c->dn_of[keys[s].node]);
			if (rc) {
				free(d.label);
				free(d.tooltip);
				goto out_free;
			}
			continue;
		}
		if (c->blocks)
			rc = add_block(c, &keys[s], e - s);
		else
			rc = add_group(c, &keys[s], e - s);
		if (rc)
			goto out_free;
		for (size_t k = s; k < e; k++)
			c->dn[c->ndn - 1].marks |= c->mark[keys[k].node];
	}
	goto out_free;
out_nomem:
	rc = IBTOPO_ENOMEM;
out_free:
	free(keys);
	return rc;
}

/* Drawn node for a finding's end: the fabric's node or a ghost. */
static size_t end_dnode(struct scene *c, const struct ibtopo_end *e)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(c->f, e->guid);

	if (n)
		return c->dn_of[n->index];
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == e->guid)
			return i;
	return NONE;
}

/* Ghost nodes: nodes named by findings that the fabric does not have. */
static int add_ghost(struct scene *c, const struct ibtopo_end *e, unsigned marks,
		     const int *other_level)
{
	const struct ibtopo_node *o = NULL;
	struct dnode g = { .kind = DN_GHOST, .guid = e->guid, .marks = marks,
			   .type = IBTOPO_NODE_UNKNOWN, .level = 1 };
	char buf[300];
	size_t idx;
	int rc;

	if (!e->guid || ibtopo_fabric_find_node(c->f, e->guid))
		return 0;
	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == e->guid) {
			c->dn[i].marks |= marks;
			return 0;
		}
	}
	if (c->d->other)
		o = ibtopo_fabric_find_node(c->d->other, e->guid);
	if (o) {
		g.other = o;
		g.type = o->type;
		g.level = other_level ? other_level[o->index] :
			  o->type == IBTOPO_NODE_SWITCH ? 1 : 0;
		ibtopo__diagram_short_label(buf, sizeof(buf), o, false, 0);
		g.label = strdup(buf);
		rc = node_tooltip(o, &g.tooltip);
		if (rc) {
			free(g.label);
			return rc;
		}
	} else {
		struct ibtopo_node tmp = { .type = IBTOPO_NODE_UNKNOWN,
					   .guid = e->guid,
					   .desc = (char *)(e->node ? e->node : "") };

		ibtopo__diagram_short_label(buf, sizeof(buf), &tmp, false, 0);
		g.label = strdup(buf);
		snprintf(buf, sizeof(buf), "%s\n0x%016" PRIx64,
			 e->node ? e->node : "", e->guid);
		g.tooltip = strdup(buf);
	}
	if (!g.label || !g.tooltip) {
		free(g.label);
		free(g.tooltip);
		return IBTOPO_ENOMEM;
	}
	rc = add_dnode(c, &g, &idx);
	if (rc) {
		free(g.label);
		free(g.tooltip);
	}
	return rc;
}

static int build_ghosts(struct scene *c)
{
	const struct ibtopo_findings *fs = c->d->findings;
	const struct ibtopo_topology *ot;
	struct ibtopo_topology *own = NULL;
	int *olevel = NULL;
	int rc = 0;

	if (!fs || !fs->count)
		return 0;
	if (c->d->other) {
		size_t on = ibtopo_fabric_node_count(c->d->other);

		olevel = calloc(on ? on : 1, sizeof(*olevel));
		if (!olevel)
			return IBTOPO_ENOMEM;
		rc = levels_analysis(&ot, &own, c->d->other, NULL);
		if (rc)
			goto out_free;
		compute_levels(c->d->other, ot, olevel);
	}
	for (size_t i = 0; !rc && i < fs->count; i++) {
		const struct ibtopo_finding *f = &fs->items[i];
		struct flink fl[4];
		size_t n;

		if (ibtopo__diagram_finding_draw(f) == IBTOPO__DRAW_REMOVED_NODE) {
			rc = add_ghost(c, &f->a, MARK_REMOVED, olevel);
			continue;
		}
		if (ibtopo__diagram_finding_draw(f) == IBTOPO__DRAW_MISSING_NODE) {
			rc = add_ghost(c, &f->a, MARK_MISSING, olevel);
			continue;
		}
		n = ibtopo__diagram_finding_links(f, fl);
		for (size_t k = 0; !rc && k < n; k++) {
			unsigned m = fl[k].cat == CAT_REMOVED ? MARK_REMOVED :
				     MARK_MISSING;

			if (!ibtopo__diagram_ghost_link(c, &fl[k]))
				continue;
			/* with a focus, only ghosts next to what is shown */
			if (c->focus && end_dnode(c, fl[k].x) == NONE &&
			    end_dnode(c, fl[k].y) == NONE)
				continue;
			rc = add_ghost(c, fl[k].x, m, olevel);
			if (!rc)
				rc = add_ghost(c, fl[k].y, m, olevel);
		}
	}
out_free:
	ibtopo_topology_free(own);
	free(olevel);
	return rc;
}

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
	e->routes_down = e->routes_up = e->heat = 0;
	if (l && c->lroutes) {
		uint64_t ab = c->lroutes[2 * l->index];
		uint64_t ba = c->lroutes[2 * l->index + 1];
		bool a_up = c->dn_of[l->a->node->index] == u;

		e->routes_down = a_up ? ab : ba;
		e->routes_up = a_up ? ba : ab;
		e->heat = ab > ba ? ab : ba;
	}
	/* a problem on a host in a block goes to the host's own cell */
	if (l && k != CAT_OK && c->dn[v].kind == DN_BLOCK)
		host = c->dn_of[l->a->node->index] == v ? l->a->node : l->b->node;
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
		return !a->host ? -1 : !b->host ? 1 :
		       a->host->guid < b->host->guid ? -1 : 1;
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
		int h = is_host_type(l->a->node->type) ||
			is_host_type(l->b->node->type);
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
	size_t i = end_dnode(c, &e);

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
		enum cat k = g->marks & MARK_REMOVED ? CAT_REMOVED : CAT_MISSING;
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
			rc = add_edge(c, i, j, k, pp->speed_active,
				      pp->width_active, NULL);
			if (rc)
				return rc;
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
}

/*
 * Heat map: the routes leaving each switch port, on its link's side
 * (lroutes), before the edges are built.
 */
static int link_routes(struct scene *c)
{
	const struct ibtopo_routes *r = c->d->heat;

	if (!r)
		return 0;
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
	return 0;
}

/* Heat map: the scale, over the edges of cables the fabric has. */
static void heat_scale(struct scene *c)
{
	bool any = false;

	for (size_t i = 0; c->lroutes && i < c->nde; i++) {
		const struct dedge *e = &c->de[i];

		if (ibtopo__diagram_is_ghost_cat(e->cat))
			continue;
		if (!any || e->heat < c->heat_min)
			c->heat_min = e->heat;
		if (!any || e->heat > c->heat_max)
			c->heat_max = e->heat;
		any = true;
	}
}

unsigned ibtopo__diagram_heat_step(const struct scene *c, uint64_t heat)
{
	uint64_t range = c->heat_max - c->heat_min, k;

	if (heat <= c->heat_min || !range)
		return 0;
	if (heat >= c->heat_max)
		return IBTOPO_HEAT_STEPS - 1;
	k = (heat - c->heat_min) * IBTOPO_HEAT_STEPS / range;
	return k >= IBTOPO_HEAT_STEPS ? IBTOPO_HEAT_STEPS - 1 : (unsigned)k;
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
		rc = add_edge(c, c->dn_of[ia], c->dn_of[ib], (enum cat)c->lcat[i],
			      l->speed, l->width, l);
		if (rc)
			return rc;
	}
	for (size_t i = 0; fs && i < fs->count; i++) {
		struct flink fl[4];
		size_t n = ibtopo__diagram_finding_links(&fs->items[i], fl);

		for (size_t k = 0; k < n; k++) {
			if (!ibtopo__diagram_ghost_link(c, &fl[k]))
				continue;
			rc = add_edge(c, end_dnode(c, fl[k].x), end_dnode(c, fl[k].y),
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
	 * merges all cables between two nodes, in the worst category */
	for (size_t i = 0; i < c->nde; i++) {
		struct dedge *last = m ? &c->de[m - 1] : NULL;
		const struct dedge *e = &c->de[i];

		if (last && c->groups && last->u == e->u && last->v == e->v) {
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
		    last->cat == e->cat && last->speed == e->speed &&
		    last->width == e->width && last->host == e->host) {
			last->count++;
			last->gbps += e->gbps;
			add_heat(last, e);
			continue;
		}
		c->de[m++] = *e;
		c->de[m - 1].bundle = c->groups;
	}
	c->nde = m;
	heat_scale(c);
	for (size_t i = 0; i < c->nde; i++) {
		c->used_cats |= 1u << c->de[i].cat;
		if (!c->groups)
			c->ncats[c->de[i].cat] += c->de[i].count;
	}
	/* the overview: a bundle is in its worst category; count cables */
	for (size_t i = 0; c->groups && i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);

		if (c->visible[l->a->node->index] && c->visible[l->b->node->index])
			c->ncats[c->lcat[i]]++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* focus                                                               */
/* ------------------------------------------------------------------ */

/* The label a node is drawn with, the second name --focus takes. */
static const char *drawn_label(void *arg, const struct ibtopo_node *n,
			       char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return ((struct scene *)arg)->label[n->index];
}

/* Does `name` name group g: "16 leaves, pod 3", "leaves, pod 3", "core1"? */
static bool names_group(const struct sgroup *g, const char *name)
{
	const char *s = g->name;

	if (!strcmp(s, name))
		return true;
	while (isdigit((unsigned char)*s))
		s++;
	return s != g->name && *s == ' ' && !strcmp(s + 1, name);
}

/*
 * --focus names a group of the overview: its switches are the focus
 * (c->seed), the first of them c->focus. False when no group has that
 * name (or the groups cannot be made).
 */
static bool find_focus_group(struct scene *c)
{
	size_t g = NONE;

	for (size_t i = 0; i < c->nn; i++)
		c->visible[i] = true;
	if (ibtopo__diagram_groups(c))
		goto out_release;
	for (size_t k = 0; k < c->nsg && g == NONE; k++)
		if (names_group(&c->sg[k], c->d->focus))
			g = k;
	if (g == NONE)
		goto out_release;
	snprintf(c->focus_name, sizeof(c->focus_name), "%s", c->sg[g].name);
	for (size_t i = 0; i < c->nn; i++) {
		c->seed[i] = c->grp[i] == g;
		if (c->seed[i] && !c->focus)
			c->focus = ibtopo_fabric_node(c->f, i);
	}
out_release:
	ibtopo__diagram_groups_release(c);
	c->grp = c->host_grp = NULL;
	c->sg = NULL;
	c->nsg = c->asg = 0;
	for (size_t i = 0; i < c->nn; i++)
		c->visible[i] = false;
	return c->focus != NULL;
}

static int find_focus(struct scene *c)
{
	struct ibtopo__node_lookup how = { .alias = drawn_label, .alias_arg = c };
	struct ibtopo_node *n = NULL;
	int rc;

	c->focus = NULL;
	if (!c->d->focus)
		return 0;
	/* a GUID, else a description, else a drawn label: one node only */
	rc = ibtopo__fabric_lookup(&n, c->f, c->d->focus, &how, c->err);
	c->focus = n;
	if (rc == IBTOPO_ENOTFOUND && find_focus_group(c))
		rc = 0;
	return rc;
}

static int mark_visible(struct scene *c)
{
	size_t *queue, *dist, head = 0, tail = 0;

	if (!c->focus) {
		for (size_t i = 0; i < c->nn; i++)
			c->visible[i] = true;
		return 0;
	}
	queue = calloc(c->nn, sizeof(*queue));
	dist = calloc(c->nn, sizeof(*dist));
	if (!queue || !dist) {
		free(queue);
		free(dist);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->nn; i++) {
		if (i != c->focus->index && !c->seed[i])
			continue;
		queue[tail++] = i;
		c->visible[i] = true;
		c->mark[i] |= MARK_FOCUS;
	}
	while (head < tail) {
		size_t i = queue[head++];
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

		if (dist[i] >= c->depth)
			continue;
		for (unsigned p = 0; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];
			size_t j;

			if (!pp || !pp->remote)
				continue;
			j = pp->remote->node->index;
			if (c->visible[j])
				continue;
			c->visible[j] = true;
			dist[j] = dist[i] + 1;
			queue[tail++] = j;
		}
	}
	free(queue);
	free(dist);
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
	const struct dnode *g = c->dn[e->v].kind == DN_GROUP ||
				c->dn[e->v].kind == DN_BLOCK ? &c->dn[e->v] : NULL;

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
		return 0;	/* only a label less */
	for (size_t i = 0; i < c->nde; i++)
		if (is_switch_edge(c, &c->de[i]))
			v[n++] = c->de[i].count;
	qsort(v, n, sizeof(*v), cmp_size);
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
static void label_edges(struct scene *c)
{
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

/* ------------------------------------------------------------------ */
/* arrangement: ranks, layout engine, text scale                       */
/* ------------------------------------------------------------------ */

/* Edges beyond which edge labels no longer take room in the layout. */
#define XLABELS_ABOVE 60

/* Switches per row before a level of switches is split into rows. */
#define ROW_SWITCHES 40
/* Hosts rows are at least this wide (inches) before they are split. */
#define ROW_MIN_WIDTH 20.0

/* Rough width of a drawn node in inches (10 pt Helvetica), with nodesep. */
static double node_width(const struct scene *c, const struct dnode *d)
{
	size_t longest = 0, cur = 0;

	if (d->kind == DN_BLOCK) {
		for (size_t i = 0; i < d->nhosts; i++)
			if (ibtopo__diagram_utf8_len(d->cells[i].label) > longest)
				longest = ibtopo__diagram_utf8_len(d->cells[i].label);
		return 0.2 + (double)d->cols *
		       (0.12 + 0.065 * (double)longest);
	}

	for (const char *p = d->label; *p; p++) {
		if (*p == '\n') {
			cur = 0;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80)
			cur++;
		if (cur > longest)
			longest = cur;
	}
	/* dot draws an ellipse about 1.4 times as wide as its text */
	if (d->kind == DN_HOST)
		return 0.3 + 0.105 * (double)longest + 0.5;
	return 0.3 + 0.075 * (double)longest +
	       (d->type != IBTOPO_NODE_SWITCH ? 0.3 : 0) + 0.2;
}

/*
 * Ranks for dot. A level is one rank unless it is wide: a picture 30
 * times wider than tall is no use. Hosts are dealt into rows as wide as
 * the switch rows (at least ROW_MIN_WIDTH), by their place under their
 * switch (a comb under each leaf); a level of switches only beyond
 * ROW_SWITCHES (links between switches crossing a row of switches take
 * room in it). Edges get minlen = the rows between their ends so dot
 * keeps exactly these ranks.
 */
/* Lines of a drawn node's label. */
static size_t label_lines(const struct dnode *d)
{
	size_t n = 1;

	for (const char *p = d->label; p && *p; p++)
		n += *p == '\n';
	return n;
}

/* The overview: width / height aimed at (dot makes it wider: about 2),
 * and the narrowest row (inches) a level is split into. */
#define OVERVIEW_RATIO 1.4
#define OVERVIEW_MIN_WIDTH 6.0

/*
 * The overview: switches a row takes so that the picture is about twice
 * as wide as tall (a page; between 1:2 and 4:1 whatever the fabric).
 * Each level's rows are counted with its widest node and tallest label.
 */
static size_t overview_row_switches(const struct scene *c)
{
	size_t best = ROW_SWITCHES, most = 1;
	double best_score = HUGE_VAL;

	for (size_t s = 0, e; s < c->ndn; s = e) {
		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			;
		if (e - s > most)
			most = e - s;
	}
	for (size_t r = 1; r <= most; r++) {
		/* the title and legend above: about 14 by 3 inches */
		double width = 14, height = 3, score;
		bool narrow = false;

		for (size_t s = 0, e; s < c->ndn; s = e) {
			double w = 0, h = 0;
			size_t n, lines = 1;

			for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++) {
				w += node_width(c, &c->dn[e]);
				if (label_lines(&c->dn[e]) > lines)
					lines = label_lines(&c->dn[e]);
			}
			n = e - s;
			w /= (double)n;
			h = 0.2 + 0.17 * (double)lines + 0.9;
			if ((double)(n < r ? n : r) * w > width)
				width = (double)(n < r ? n : r) * w;
			height += (double)((n + r - 1) / r) * h;
			/* a level is not split into rows narrower than this */
			narrow |= n > r && (double)r * w < OVERVIEW_MIN_WIDTH;
		}
		if (narrow)
			continue;
		score = fabs(log(width / height / OVERVIEW_RATIO));
		if (score < best_score) {
			best_score = score;
			best = r;
		}
	}
	return best;
}

static int assign_rows(struct scene *c)
{
	size_t *parent, *nth, *row, base = 0;
	size_t per_row = c->groups ? overview_row_switches(c) : ROW_SWITCHES;
	double widest = ROW_MIN_WIDTH;

	parent = calloc(c->ndn + 1, sizeof(*parent));
	nth = calloc(c->ndn + 1, sizeof(*nth));
	row = calloc(c->ndn + 1, sizeof(*row));
	if (!parent || !nth || !row) {
		free(parent);
		free(nth);
		free(row);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->ndn; i++)
		parent[i] = NONE;
	/* edges are sorted by upper end: the first one down is the parent */
	for (size_t i = 0; i < c->nde; i++) {
		const struct dedge *e = &c->de[i];

		if (c->dn[e->v].level < c->dn[e->u].level && parent[e->v] == NONE)
			parent[e->v] = e->u;
	}
	for (size_t s = 0, e; s < c->ndn; s = e) {
		size_t n, rows = 1;
		double width = 0;

		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			width += node_width(c, &c->dn[e]);
		n = e - s;
		if (c->dn[s].level > 0) {
			if (n > per_row)
				rows = (n + per_row - 1) / per_row;
			if (width / (double)rows > widest)
				widest = width / (double)rows;
		} else if (width > widest) {
			rows = (size_t)ceil(width / widest);
		}
		for (size_t i = s; i < e; i++) {
			size_t p = parent[i];

			if (c->dn[s].level > 0 || p == NONE) {
				row[i] = (i - s) % rows;
			} else {
				/* staggered by the parent's place in its level,
				 * so that lone children alternate rows too */
				row[i] = (p + nth[p]) % rows;
				nth[p]++;
			}
			c->dn[i].pos = base + row[i];
		}
		base += rows;
	}
	c->nrows = base;
	free(parent);
	free(nth);
	free(row);
	return 0;
}

/*
 * Title and legend grow with the drawing so they stay readable next to
 * it: with sfdp the drawing grows with the square root of the node count,
 * with dot with the widest rank.
 */
static double text_scale(const struct scene *c)
{
	double s = 1.0;

	if (c->sfdp) {
		s = sqrt((double)c->ndn / 200.0);
	} else {
		size_t rows = c->nrows ? c->nrows : 1;
		size_t *width = calloc(rows, sizeof(*width));

		for (size_t i = 0; width && i < c->ndn; i++)
			width[c->dn[i].pos]++;
		for (size_t r = 0; width && r < rows; r++)
			if ((double)width[r] / 40.0 > s)
				s = (double)width[r] / 40.0;
		free(width);
	}
	if (s < 1.0)
		s = 1.0;
	return s > 10.0 ? 10.0 : s;
}

/*
 * The size of the graph dot lays out: drawn nodes, edges, and one virtual
 * node for each rank an edge crosses. dot_mincross and the network
 * simplex that places the nodes grow much faster than it (2 cores, 3-level
 * fat trees of 16 leaves and 16 spines a pod): 4,100 took 3 s of CPU,
 * 8,100 27 s, 13,500 72 s, and 43,200 (16 pods: 896 nodes, 6,400 edges,
 * 35,900 virtual nodes) ran in dot_mincross for over 15 minutes. Above
 * DOT_WORK_MAX the automatic choice is sfdp; asked for, dot gets limits.
 */
static size_t dot_work(const struct scene *c)
{
	size_t work = c->ndn + c->nde;

	for (size_t i = 0; i < c->nde; i++) {
		size_t a = c->dn[c->de[i].u].pos, b = c->dn[c->de[i].v].pos;
		size_t span = a > b ? a - b : b - a;

		if (span > 1)
			work += span - 1;
	}
	return work;
}

/* Sort drawn nodes and renumber what points at them. */
static int sort_dnodes(struct scene *c)
{
	size_t *perm;

	if (!c->ndn)
		return 0;
	perm = calloc(c->ndn, sizeof(*perm));
	if (!perm)
		return IBTOPO_ENOMEM;
	qsort(c->dn, c->ndn, sizeof(*c->dn), cmp_dnode);
	for (size_t i = 0; i < c->ndn; i++)
		perm[c->dn[i].orig] = i;
	for (size_t i = 0; i < c->nn; i++)
		if (c->dn_of[i] != NONE)
			c->dn_of[i] = perm[c->dn_of[i]];
	free(perm);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the finished scene: directors, what the legend needs               */
/* ------------------------------------------------------------------ */

/* Directors in order of their first drawn member, named by their chassis. */
static int find_clusters(struct scene *c)
{
	for (size_t s = 0; s < c->ndn; s++) {
		uint64_t sys = c->dn[s].cluster;
		struct dcluster *cl;
		bool seen = false;
		char name[128];

		if (!sys)
			continue;
		/* members may sit on several levels: one box for all */
		for (size_t i = 0; i < c->ncl; i++)
			seen |= c->cl[i].sysimg == sys;
		if (seen)
			continue;
		ibtopo__diagram_chassis_name(c, sys, name, sizeof(name));
		cl = realloc(c->cl, (c->ncl + 1) * sizeof(*c->cl));
		if (!cl)
			return IBTOPO_ENOMEM;
		c->cl = cl;
		cl[c->ncl].sysimg = sys;
		cl[c->ncl].first = s;
		cl[c->ncl].label = strdup(name);
		if (!cl[c->ncl].label)
			return IBTOPO_ENOMEM;
		c->ncl++;
	}
	return 0;
}

/* What the legend and the subtitle need to know about what is drawn. */
static void tally(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++)
		c->nsharp += c->hidden[i];
	if (c->focus)
		c->focus_label = c->focus_name[0] ? c->focus_name :
				 c->label[c->focus->index];
	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].level > c->top)
			c->top = c->dn[i].level;
		c->used_marks |= c->dn[i].marks;
		c->used_kinds |= 1u << c->dn[i].kind;
	}
}

/* ------------------------------------------------------------------ */
/* entry points                                                        */
/* ------------------------------------------------------------------ */

/*
 * Groups or switches: auto draws groups above IBTOPO_DETAIL_GROUPS_ABOVE
 * switches or IBTOPO_DETAIL_LEVEL_ABOVE on one level (a row of 32 leaves
 * is a ribbon no page shows readably), and a --focus switch by switch. No layout of more than
 * IBTOPO_DETAIL_SWITCHES_MAX switches one by one is quick: refused.
 */
static int choose_detail(struct scene *c)
{
	size_t nsw = 0, widest = 0, *per_level;
	int top = 0;

	for (size_t i = 0; i < c->nn; i++)
		if (c->level[i] > top)
			top = c->level[i];
	per_level = calloc((size_t)top + 1, sizeof(*per_level));
	if (!per_level)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		if (!c->visible[i] || c->hidden[i] ||
		    ibtopo_fabric_node(c->f, i)->type != IBTOPO_NODE_SWITCH)
			continue;
		nsw++;
		if (++per_level[c->level[i]] > widest)
			widest = per_level[c->level[i]];
	}
	free(per_level);
	switch (c->d->detail) {
	case IBTOPO_DETAIL_GROUPS:
		c->groups = true;
		break;
	case IBTOPO_DETAIL_SWITCHES:
		c->groups = false;
		break;
	default:
		c->groups = !c->focus && (nsw > IBTOPO_DETAIL_GROUPS_ABOVE ||
					  widest > IBTOPO_DETAIL_LEVEL_ABOVE);
		break;
	}
	if (!c->groups && nsw > IBTOPO_DETAIL_SWITCHES_MAX)
		return ibtopo__error_set(c->err, IBTOPO_EINVAL,
			"cannot draw %zu switches one by one: more than %d "
			"take too long to lay out; draw groups (--detail "
			"groups) or a part (--focus)", nsw,
			IBTOPO_DETAIL_SWITCHES_MAX);
	return 0;
}

static int prepare(struct scene *c)
{
	int rc;

	c->nn = ibtopo_fabric_node_count(c->f);
	c->nl = ibtopo_fabric_link_count(c->f);
	c->depth = c->d->depth ? c->d->depth : 2;
	c->level = calloc(c->nn + 1, sizeof(*c->level));
	c->label = calloc(c->nn + 1, sizeof(*c->label));
	c->visible = calloc(c->nn + 1, sizeof(*c->visible));
	c->hidden = calloc(c->nn + 1, sizeof(*c->hidden));
	c->mark = calloc(c->nn + 1, sizeof(*c->mark));
	c->dn_of = calloc(c->nn + 1, sizeof(*c->dn_of));
	c->lcat = calloc(c->nl + 1, sizeof(*c->lcat));
	c->dir = calloc(c->nn + 1, sizeof(*c->dir));
	c->seed = calloc(c->nn + 1, sizeof(*c->seed));
	if (!c->level || !c->label || !c->visible || !c->hidden || !c->mark ||
	    !c->dn_of || !c->lcat || !c->dir || !c->seed)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		c->dn_of[i] = NONE;
		c->hidden[i] = ibtopo__node_in_switch(ibtopo_fabric_node(c->f, i));
	}
	rc = levels_analysis(&c->topo, &c->topo_own, c->f, c->d->topology);
	if (rc)
		return rc;
	find_directors(c);
	compute_levels(c->f, c->topo, c->level);
	rc = ibtopo__diagram_labels(c);
	if (!rc)
		rc = find_focus(c);
	if (!rc)
		rc = mark_visible(c);
	if (rc)
		return rc;
	ibtopo__diagram_apply_findings(c);
	rc = choose_detail(c);
	if (!rc)
		rc = build_nodes(c);
	if (!rc)
		rc = build_ghosts(c);
	if (!rc)
		rc = sort_dnodes(c);
	if (rc)
		return rc;
	common_rates(c);
	rc = link_routes(c);
	if (!rc)
		rc = build_edges(c);
	if (rc)
		return rc;
	if (c->d->layout != IBTOPO_LAYOUT_SFDP) {
		rc = assign_rows(c);
		if (!rc)
			rc = ibtopo__diagram_rail_rows(c);
		if (rc)
			return rc;
	}
	switch (c->d->layout) {
	case IBTOPO_LAYOUT_DOT:
		c->sfdp = false;
		break;
	case IBTOPO_LAYOUT_SFDP:
		c->sfdp = true;
		break;
	default:
		c->sfdp = c->ndn > IBTOPO_LAYOUT_SFDP_ABOVE ||
			  dot_work(c) > DOT_WORK_MAX;
		break;
	}
	if (!c->sfdp)
		c->work = dot_work(c);
	c->xlabels = c->sfdp || c->nde > XLABELS_ABOVE;
	c->usual_count = usual_count(c);
	label_edges(c);
	c->scale = text_scale(c);
	tally(c);
	return find_clusters(c);
}

int ibtopo__diagram_scene_build(struct scene *c, const struct ibtopo_fabric *f,
				const struct ibtopo_diagram_opts *d,
				struct ibtopo_error *err)
{
	int rc;

	c->f = f;
	c->d = d;
	c->err = err;
	rc = prepare(c);
	if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	return rc;
}

void ibtopo__diagram_scene_release(struct scene *c)
{
	ibtopo__diagram_groups_release(c);
	free(c->seed);
	ibtopo_topology_free(c->topo_own);
	for (size_t i = 0; c->label && i < c->nn; i++)
		free(c->label[i]);
	for (size_t i = 0; i < c->ndn; i++) {
		free(c->dn[i].label);
		free(c->dn[i].tooltip);
		free(c->dn[i].cells);
	}
	for (size_t i = 0; i < c->ncl; i++)
		free(c->cl[i].label);
	free(c->cl);
	free(c->dn);
	free(c->de);
	free(c->label);
	free(c->level);
	free(c->visible);
	free(c->hidden);
	free(c->mark);
	free(c->dn_of);
	free(c->lcat);
	free(c->lroutes);
	free(c->dir);
}
