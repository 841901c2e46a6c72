/*
 * diagram_nodes.c - the drawn nodes of a scene: the levels they sit on,
 * switches, hosts (alone, collapsed into a group per set of switches, or
 * laid out in blocks, a table cell each), the ghosts of nodes that the
 * findings name and the fabric lacks, and the order a writer walks them
 * in (level, director, kind, name).
 */
#include "diagram/diagram-int.h"

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

int ibtopo__diagram_levels(struct scene *c)
{
	compute_levels(c->f, c->topo, c->level);
	return 0;
}

/* ------------------------------------------------------------------ */
/* drawn nodes                                                         */
/* ------------------------------------------------------------------ */

/*
 * Add a drawn node like proto, whose label and tooltip move into the
 * scene: freed here when either is missing (IBTOPO_ENOMEM, a failed
 * strdup) or the node cannot be added.
 */
static int add_dnode(struct scene *c, const struct dnode *proto, size_t *out)
{
	if (!proto->label || !proto->tooltip) {
		free(proto->label);
		free(proto->tooltip);
		return IBTOPO_ENOMEM;
	}
	if (ibtopo__grow(&c->dn, &c->adn, c->ndn + 1, sizeof(*c->dn))) {
		free(proto->label);
		free(proto->tooltip);
		return IBTOPO_ENOMEM;
	}
	c->dn[c->ndn] = *proto;
	c->dn[c->ndn].orig = c->ndn;
	*out = c->ndn++;
	return 0;
}

static int kind_rank(enum dkind k)
{
	return k == DN_SWITCH ? 0 :
	       k == DN_GHOST  ? 1 :
	       k == DN_HOST   ? 2 :
	       k == DN_BLOCK  ? 3 :
				4;
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
	size_t node; /* fabric index of the host */
	size_t nsw;
	size_t sw[8]; /* fabric indices of its switches, sorted */
};

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
		if (pp->remote->node->type != IBTOPO_NODE_SWITCH ||
		    !c->visible[j])
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
	qsort(k->sw, k->nsw, sizeof(k->sw[0]), ibtopo__diagram_cmp_size);
	return true;
}

static bool same_key(const struct hostkey *a, const struct hostkey *b)
{
	return a->nsw == b->nsw &&
	       !memcmp(a->sw, b->sw, a->nsw * sizeof(a->sw[0]));
}

struct sv {
	const char *s;
	bool unnamed; /* a CA whose description names no host */
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

	k = (size_t)snprintf(buf, sizeof(buf), "%zu host%s:", n,
			     n == 1 ? "" : "s");
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
	struct dnode g = { .kind = DN_GROUP,
			   .level = 0,
			   .nhosts = n,
			   .type = IBTOPO_NODE_CA };
	struct sv *names = calloc(n, sizeof(*names));
	size_t idx, named = 0;
	int rc;

	if (!names)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		names[i].s = c->label[k[i].node];
		names[i].unnamed = ibtopo__desc_is_default(
			ibtopo_fabric_node(c->f, k[i].node)->desc);
	}
	qsort(names, n, sizeof(*names), cmp_sv);
	while (named < n && !names[named].unnamed)
		named++;
	/* named after its lowest GUID: the same whatever the fabric's order */
	g.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 1; i < n; i++)
		if (ibtopo_fabric_node(c->f, k[i].node)->guid < g.guid)
			g.guid = ibtopo_fabric_node(c->f, k[i].node)->guid;
	g.label = ibtopo__diagram_group_label(
		n, names[0].s, names[named ? named - 1 : n - 1].s);
	g.tooltip = group_tooltip(n, names);
	free(names);
	rc = add_dnode(c, &g, &idx);
	if (rc)
		return rc;
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
	return a->node->index < b->node->index ?
		       -1 :
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
	struct dnode b = { .kind = DN_BLOCK,
			   .level = 0,
			   .nhosts = n,
			   .type = IBTOPO_NODE_CA,
			   .cols = block_columns(n) };
	char buf[64];
	size_t idx;
	int rc;

	b.cells = calloc(n, sizeof(*b.cells));
	if (!b.cells)
		return IBTOPO_ENOMEM;
	b.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *h =
			ibtopo_fabric_node(c->f, k[i].node);

		b.cells[i].node = h;
		b.cells[i].label = c->label[k[i].node];
		b.cells[i].marks = c->mark[k[i].node];
		b.cells[i].cat = host_cat(c, h);
		if (h->guid < b.guid)
			b.guid = h->guid;
	}
	qsort(b.cells, n, sizeof(*b.cells), cmp_cell);
	snprintf(buf, sizeof(buf), "%zu host%s", n, n == 1 ? "" : "s");
	b.label = strdup(buf);
	b.tooltip = strdup(buf);
	rc = add_dnode(c, &b, &idx);
	if (rc) {
		free(b.cells);
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		c->dn_of[k[i].node] = idx;
	return 0;
}

/* "<description>\n<type> 0x<GUID>", strdup'd (NULL: out of memory). */
static char *node_tooltip(const struct ibtopo_node *n)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s\n%s 0x%016" PRIx64, n->desc,
		 ibtopo_node_type_name(n->type), n->guid);
	return strdup(buf);
}

/* A host drawn alone (the overview: one cabled to no switch). */
static int add_host(struct scene *c, size_t i)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
	struct dnode d = { .kind = DN_HOST,
			   .level = 0,
			   .node = n,
			   .guid = n->guid,
			   .type = n->type,
			   .marks = c->mark[i] };

	d.label = xstrdup(c->label[i]);
	d.tooltip = node_tooltip(n);
	return add_dnode(c, &d, &c->dn_of[i]);
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
		struct dnode d = { .level = c->level[i],
				   .node = n,
				   .guid = n->guid,
				   .type = n->type };
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
				snprintf(buf, sizeof(buf), "%s\n%zu host%s",
					 d.label, sg->hosts,
					 sg->hosts == 1 ? "" : "s");
				free(d.label);
				d.label = strdup(buf);
			}
			d.tooltip = node_tooltip(n);
		} else {
			d.kind = DN_SWGROUP;
			d.node = NULL;
			d.level = sg->level;
			d.label = strdup(sg->label);
			d.tooltip = strdup(sg->tooltip);
			if (sg->sysimg)
				d.guid = sg->sysimg;
		}
		rc = add_dnode(c, &d, &c->dn_of[i]);
		if (rc)
			break;
		dn_of_grp[g] = c->dn_of[i];
	}
	/* a group is named by its lowest GUID: the same in any order */
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].kind == DN_SWGROUP &&
		    !c->sg[c->dn[i].group].sysimg)
			for (size_t j = 0; j < c->nn; j++)
				if (c->grp[j] == c->dn[i].group &&
				    ibtopo_fabric_node(c->f, j)->guid <
					    c->dn[i].guid)
					c->dn[i].guid =
						ibtopo_fabric_node(c->f, j)
							->guid;
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
		struct dnode d = { .level = c->level[i],
				   .node = n,
				   .guid = n->guid,
				   .type = n->type,
				   .marks = c->mark[i] };

		if (!c->visible[i] || c->hidden[i])
			continue;
		if ((c->collapse || c->blocks) && n->type == IBTOPO_NODE_CA &&
		    host_key(c, i, &keys[nkeys])) {
			nkeys++;
			continue;
		}
		d.kind = n->type == IBTOPO_NODE_SWITCH ? DN_SWITCH : DN_HOST;
		d.cluster = c->dir[i];
		d.label = d.kind == DN_SWITCH ? wrap_label(c->label[i]) :
						xstrdup(c->label[i]);
		d.tooltip = node_tooltip(n);
		rc = add_dnode(c, &d, &c->dn_of[i]);
		if (rc)
			goto out_free;
	}
	if (nkeys) /* qsort(NULL, 0) is undefined */
		qsort(keys, nkeys, sizeof(*keys), cmp_hostkey);
	for (size_t s = 0, e; s < nkeys; s = e) {
		for (e = s + 1; e < nkeys && same_key(&keys[s], &keys[e]); e++)
			;
		if (e - s == 1) /* a group of one is just the host */
			rc = add_host(c, keys[s].node);
		else if (c->blocks)
			rc = add_block(c, &keys[s], e - s);
		else
			rc = add_group(c, &keys[s], e - s);
		if (rc)
			goto out_free;
		for (size_t k = s; k < e; k++)
			c->dn[c->ndn - 1].marks |= c->mark[keys[k].node];
	}
out_free:
	free(keys);
	return rc;
}

/* Drawn node for a finding's end: the fabric's node or a ghost. */
size_t ibtopo__diagram_end_dnode(const struct scene *c,
				 const struct ibtopo_end *e)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(c->f, e->guid);
	uint64_t guid = e->guid;

	if (n)
		return c->dn_of[n->index];
	/* a plan's node the fabric lacks has a name and no GUID: the
	 * ghost carries the plan's */
	if (!guid && e->node && c->d->other) {
		n = ibtopo_fabric_find_node_desc(
			ibtopo_analysis_fabric(c->d->other), e->node);
		guid = n ? n->guid : 0;
	}
	for (size_t i = 0; guid && i < c->ndn; i++)
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == guid)
			return i;
	return NONE;
}

/* Ghost nodes: nodes named by findings that the fabric does not have. */
static int add_ghost(struct scene *c, const struct ibtopo_end *e,
		     unsigned marks, const int *other_level)
{
	const struct ibtopo_node *o = NULL;
	struct dnode g = { .kind = DN_GHOST,
			   .guid = e->guid,
			   .marks = marks,
			   .type = IBTOPO_NODE_UNKNOWN,
			   .level = 1 };
	char buf[300];
	size_t idx;

	/* named only (a plan's node validate did not find): the plan's */
	if (!e->guid && e->node && c->d->other &&
	    !ibtopo_fabric_find_node_desc(c->f, e->node)) {
		o = ibtopo_fabric_find_node_desc(
			ibtopo_analysis_fabric(c->d->other), e->node);
		g.guid = o ? o->guid : 0;
	}
	if (!g.guid || ibtopo_fabric_find_node(c->f, g.guid))
		return 0;
	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == g.guid) {
			c->dn[i].marks |= marks;
			return 0;
		}
	}
	if (c->d->other && !o)
		o = ibtopo_fabric_find_node(ibtopo_analysis_fabric(c->d->other),
					    g.guid);
	if (o) {
		g.other = o;
		g.type = o->type;
		g.level = other_level ? other_level[o->index] :
			  o->type == IBTOPO_NODE_SWITCH ? 1 :
							  0;
		ibtopo__diagram_short_label(buf, sizeof(buf), o, false, 0);
		g.label = strdup(buf);
		g.tooltip = node_tooltip(o);
	} else {
		struct ibtopo_node tmp = { .type = IBTOPO_NODE_UNKNOWN,
					   .guid = e->guid,
					   .desc = (char *)(e->node ? e->node :
								      "") };

		ibtopo__diagram_short_label(buf, sizeof(buf), &tmp, false, 0);
		g.label = strdup(buf);
		snprintf(buf, sizeof(buf), "%s\n0x%016" PRIx64,
			 e->node ? e->node : "", e->guid);
		g.tooltip = strdup(buf);
	}
	return add_dnode(c, &g, &idx);
}

static int build_ghosts(struct scene *c)
{
	const struct ibtopo_findings *fs = c->d->findings;
	const struct ibtopo_topology *ot;
	int *olevel = NULL;
	int rc = 0;

	if (!fs || !fs->count)
		return 0;
	if (c->d->other) {
		const struct ibtopo_fabric *of =
			ibtopo_analysis_fabric(c->d->other);
		size_t on = ibtopo_fabric_node_count(of);

		olevel = calloc(on ? on : 1, sizeof(*olevel));
		if (!olevel)
			return IBTOPO_ENOMEM;
		rc = ibtopo_analysis_topology(c->d->other, &ot, c->err);
		if (rc)
			goto out_free;
		compute_levels(of, ot, olevel);
	}
	for (size_t i = 0; !rc && i < fs->count; i++) {
		const struct ibtopo_finding *f = &fs->items[i];
		struct flink fl[4];
		size_t n;

		if (ibtopo__diagram_finding_draw(f) ==
		    IBTOPO__DRAW_REMOVED_NODE) {
			rc = add_ghost(c, &f->a, MARK_REMOVED, olevel);
			continue;
		}
		if (ibtopo__diagram_finding_draw(f) ==
		    IBTOPO__DRAW_MISSING_NODE) {
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
			if (c->focus &&
			    ibtopo__diagram_end_dnode(c, fl[k].x) == NONE &&
			    ibtopo__diagram_end_dnode(c, fl[k].y) == NONE)
				continue;
			rc = add_ghost(c, fl[k].x, m, olevel);
			if (!rc)
				rc = add_ghost(c, fl[k].y, m, olevel);
		}
	}
out_free:
	free(olevel);
	return rc;
}

/* ------------------------------------------------------------------ */
/* the order of drawn nodes                                           */
/* ------------------------------------------------------------------ */

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

/*
 * The drawn nodes: switches, hosts (alone, in groups or in blocks) and
 * ghosts, sorted by level, director, kind and name.
 */
int ibtopo__diagram_nodes(struct scene *c)
{
	int rc = build_nodes(c);

	if (!rc)
		rc = build_ghosts(c);
	if (!rc)
		rc = sort_dnodes(c);
	return rc;
}
