/*
 * diagram_marks.c - what findings put on a diagram: the category (colour,
 * style) of each link they name and the marks of each node, by the
 * diagram mark of their kind in the table of kinds (lib/findings/).
 */
#include "diagram/diagram-int.h"

/* The link between two ends if the fabric has it (b may be unknown). */
const struct ibtopo_link *
ibtopo__diagram_find_link(const struct ibtopo_fabric *f,
			  const struct ibtopo_end *a,
			  const struct ibtopo_end *b)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(f, a->guid);
	const struct ibtopo_port *p;

	if (!n || !a->guid || a->port < 0)
		return NULL;
	p = ibtopo_node_port(n, (unsigned)a->port);
	if (!p || !p->link)
		return NULL;
	if (b && b->guid &&
	    (p->remote->node->guid != b->guid ||
	     (b->port >= 0 && p->remote->num != (unsigned)b->port)))
		return NULL;
	return p->link;
}

static void mark_node(struct scene *c, const struct ibtopo_end *e, unsigned m)
{
	const struct ibtopo_node *n;

	if (!e->guid)
		return;
	n = ibtopo_fabric_find_node(c->f, e->guid);
	if (n)
		c->mark[n->index] |= m;
}

static void set_cat(struct scene *c, const struct ibtopo_link *l, enum cat k)
{
	if (l && c->lcat[l->index] < k)
		c->lcat[l->index] = (unsigned char)k;
}

/*
 * The links a finding is about (see ibtopo_fabric_diff() and
 * ibtopo_fabric_validate() for what a-d mean per kind). Categories from
 * CAT_REMOVED on are ghosts: links the drawn fabric does not have.
 */
enum ibtopo__draw ibtopo__diagram_finding_draw(const struct ibtopo_finding *f)
{
	const struct ibtopo__finding_kind *k = ibtopo__finding_kind(f->kind);

	return k ? k->draw : IBTOPO__DRAW_NONE;
}

size_t ibtopo__diagram_finding_links(const struct ibtopo_finding *f,
				     struct flink *out)
{
	bool swapped = f->subkind == IBTOPO_MOVE_SWAPPED;
	size_t n = 0;

#define FL(X, Y, K)                 \
	do {                        \
		out[n].x = (X);     \
		out[n].y = (Y);     \
		out[n++].cat = (K); \
	} while (0)
	switch (ibtopo__diagram_finding_draw(f)) {
	case IBTOPO__DRAW_DOWNGRADE:
		/* info: as fast as the adapter model ever runs, not a fault;
		 * the edge's speed label still shows it */
		if (f->severity == IBTOPO_SEV_INFO)
			break;
		FL(&f->a, &f->b, CAT_DOWN);
		break;
	case IBTOPO__DRAW_CABLE:
		FL(&f->a, &f->b, CAT_CABLE);
		break;
	case IBTOPO__DRAW_TOPOLOGY:
		FL(&f->a, &f->b, CAT_TOPO);
		break;
	case IBTOPO__DRAW_EXTRA_LINK:
		FL(&f->a, &f->b, CAT_EXTRA);
		break;
	case IBTOPO__DRAW_ADDED_LINK:
		FL(&f->a, &f->b, CAT_ADDED);
		break;
	case IBTOPO__DRAW_CHANGED_LINK:
		FL(&f->a, &f->b, CAT_CHANGED);
		break;
	case IBTOPO__DRAW_REMOVED_LINK:
		FL(&f->a, &f->b, CAT_REMOVED);
		break;
	case IBTOPO__DRAW_MISSING_LINK:
		FL(&f->a, &f->b, CAT_MISSING);
		break;
	case IBTOPO__DRAW_MOVED_LINK:
		/* a-b (and c-d when swapped) before; c-d (a-d, c-b) after */
		FL(&f->a, &f->b, CAT_REMOVED);
		if (swapped) {
			FL(&f->c, &f->d, CAT_REMOVED);
			FL(&f->a, &f->d, CAT_ADDED);
			FL(&f->c, &f->b, CAT_ADDED);
		} else {
			FL(&f->c, &f->d, CAT_ADDED);
		}
		break;
	case IBTOPO__DRAW_MISWIRED_LINK:
		/* found a-b (and c-d when swapped); planned c-d (a-d, c-b) */
		FL(&f->a, &f->b, CAT_MISWIRED);
		if (swapped) {
			FL(&f->c, &f->d, CAT_MISWIRED);
			FL(&f->a, &f->d, CAT_MISSING);
			FL(&f->c, &f->b, CAT_MISSING);
		} else {
			FL(&f->c, &f->d, CAT_MISSING);
		}
		break;
	default:
		break;
	}
#undef FL
	return n;
}

bool ibtopo__diagram_is_ghost_cat(enum cat k)
{
	return k >= CAT_REMOVED;
}

/* A ghost link of a finding: named by it and absent from the fabric. */
bool ibtopo__diagram_ghost_link(const struct scene *c, const struct flink *l)
{
	return ibtopo__diagram_is_ghost_cat(l->cat) && l->x->guid &&
	       l->y->guid && !ibtopo__diagram_find_link(c->f, l->x, l->y);
}

/*
 * Hosts with one link, or all links on one switch, are low in path
 * diversity too. Where that is the exception it is worth a mark; where
 * most hosts are single-homed, marks on all of them hide everything
 * else: they are counted in the legend instead.
 */
static void unmark_common_host_marks(struct scene *c)
{
	size_t hosts = 0, marked = 0;

	for (size_t i = 0; i < c->nn; i++) {
		if (ibtopo_fabric_node(c->f, i)->type != IBTOPO_NODE_CA ||
		    c->hidden[i])
			continue;
		hosts++;
		marked += (c->mark[i] & MARK_LOWPATH) != 0;
	}
	if (marked * 2 <= hosts)
		return;
	for (size_t i = 0; i < c->nn; i++)
		if (ibtopo_fabric_node(c->f, i)->type == IBTOPO_NODE_CA)
			c->mark[i] &= ~(unsigned)MARK_LOWPATH;
	c->lowpath_hosts = marked;
	c->hosts = hosts;
}

void ibtopo__diagram_apply_findings(struct scene *c)
{
	const struct ibtopo_findings *fs = c->d->findings;

	for (size_t i = 0; fs && i < fs->count; i++) {
		const struct ibtopo_finding *f = &fs->items[i];
		struct flink fl[4];
		size_t n = ibtopo__diagram_finding_links(f, fl);
		bool found = false;

		for (size_t k = 0; k < n; k++) {
			const struct ibtopo_link *l;

			if (ibtopo__diagram_is_ghost_cat(fl[k].cat))
				continue;
			l = ibtopo__diagram_find_link(c->f, fl[k].x, fl[k].y);
			set_cat(c, l, fl[k].cat);
			found |= l != NULL;
		}
		switch (ibtopo__diagram_finding_draw(f)) {
		case IBTOPO__DRAW_TOPOLOGY:
			/* about a node (uneven uplinks, host on a spine) */
			if (!found) {
				mark_node(c, &f->a, MARK_TOPO);
				if (f->b.port < 0)
					mark_node(c, &f->b, MARK_TOPO);
			}
			break;
		case IBTOPO__DRAW_LOW_PATHS:
			/* a leaf pair names two leaves; a server finding
			 * names the server and, as b, its switch port */
			mark_node(c, &f->a, MARK_LOWPATH);
			if (f->subkind == IBTOPO_LPD_LEAF_PAIR || !f->subkind)
				mark_node(c, &f->b, MARK_LOWPATH);
			break;
		case IBTOPO__DRAW_ADDED_NODE:
			mark_node(c, &f->a, MARK_ADDED);
			break;
		case IBTOPO__DRAW_EXTRA_NODE:
			mark_node(c, &f->a, MARK_EXTRA);
			break;
		default:
			break;
		}
	}
	unmark_common_host_marks(c);
}

/* A node of the fabric drawn, or NULL for one of another fabric. */
static const struct ibtopo_node *own_node(const struct scene *c,
					  const struct ibtopo_node *n)
{
	return n && n->index < c->nn &&
			       ibtopo_fabric_node(c->f, n->index) == n ?
		       n :
		       NULL;
}

static void highlight(struct scene *c, const struct ibtopo_diagram_highlight *h,
		      unsigned mark, enum cat k, bool node_links)
{
	for (size_t i = 0; h->nodes && i < h->nnodes; i++) {
		const struct ibtopo_node *n = own_node(c, h->nodes[i]);

		if (!n)
			continue;
		c->mark[n->index] |= mark;
		for (unsigned p = 1; node_links && p <= n->nports; p++)
			if (n->ports[p])
				set_cat(c, n->ports[p]->link, k);
	}
	for (size_t i = 0; h->links && i < h->nlinks; i++) {
		const struct ibtopo_link *l = h->links[i];

		if (l && l->index < c->nl &&
		    ibtopo_fabric_link(c->f, l->index) == l)
			set_cat(c, l, k);
	}
}

void ibtopo__diagram_apply_highlights(struct scene *c)
{
	highlight(c, &c->d->carried, 0, CAT_CARRIED, false);
	highlight(c, &c->d->job, MARK_JOB, CAT_JOB, false);
	highlight(c, &c->d->failed, MARK_FAILED, CAT_FAILED, true);
}
