/*
 * diff.c - two fabrics of one cluster -> the changes between them, and the
 * link pairing that diff and validate share: which links are the same on
 * both sides, and which one-sided links are one cable moved or two cables
 * swapped rather than unrelated removals and additions.
 */
#include "compare/compare-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

unsigned ibtopo__node_link_count(const struct ibtopo_node *node)
{
	unsigned n = 0;

	for (unsigned i = 0; i <= node->nports; i++)
		if (node->ports[i] && node->ports[i]->remote)
			n++;
	return n;
}

bool ibtopo__peers_all_unmatched(const struct ibtopo_node *node,
				 struct ibtopo_node *const *map)
{
	unsigned peers = 0;

	for (unsigned i = 1; i <= node->nports; i++) {
		const struct ibtopo_port *p = node->ports[i];

		if (!p || !p->remote)
			continue;
		if (map[p->remote->node->index])
			return false;
		peers++;
	}
	return peers > 0;
}

/* ---- link pairing ---- */

struct pairing_ctx {
	struct ibtopo__link_pairing *out;
	struct ibtopo_node *const *b2a;
	struct ibtopo_node *const *a2b;
	size_t amoves;
};

static const struct ibtopo_port *counterpart(struct ibtopo_node *const *map,
					     const struct ibtopo_port *p)
{
	const struct ibtopo_node *n;

	if (!p)
		return NULL;
	n = map[p->node->index];
	return n ? ibtopo_node_port(n, p->num) : NULL;
}

static const struct ibtopo_port *other_end(const struct ibtopo_link *l,
					   const struct ibtopo_port *p)
{
	return l->a == p ? l->b : l->a;
}

/* The link at port p if it is one-sided and not yet paired. */
static const struct ibtopo_link *free_link(const unsigned char *state,
					   const struct ibtopo_port *p)
{
	if (!p || !p->link || state[p->link->index] != IBTOPO__L_ONLY)
		return NULL;
	return p->link;
}

static int add_move(struct pairing_ctx *c, const struct ibtopo__move *m)
{
	struct ibtopo__link_pairing *o = c->out;

	if (o->nmoves == c->amoves) {
		size_t n = c->amoves ? c->amoves * 2 : 16;
		struct ibtopo__move *nm = realloc(o->moves, n * sizeof(*nm));

		if (!nm)
			return IBTOPO_ENOMEM;
		o->moves = nm;
		c->amoves = n;
	}
	o->moves[o->nmoves++] = *m;
	for (int i = 0; i < 4; i++) {
		if (m->b[i] && m->b[i]->link)
			o->bstate[m->b[i]->link->index] = IBTOPO__L_MOVED;
		if (m->a[i] && m->a[i]->link)
			o->astate[m->a[i]->link->index] = IBTOPO__L_MOVED;
	}
	return 0;
}

static bool port_before(const struct ibtopo_port *x, const struct ibtopo_port *y)
{
	if (x->node->guid != y->node->guid)
		return x->node->guid < y->node->guid;
	return x->num < y->num;
}

/*
 * Before links u-v and z-w, after links u'-w' and z'-v'. Orient the
 * finding so that the kept ends (b[0], b[2]) share a node when they can
 * (two ports of one switch), else are switch ports, the lower port first.
 */
static void orient_swap(struct ibtopo__move *m, const struct ibtopo_port *u,
			const struct ibtopo_port *v, const struct ibtopo_port *z,
			const struct ibtopo_port *w, struct pairing_ctx *c)
{
	bool uz = u->node == z->node, vw = v->node == w->node;
	const struct ibtopo_port *t;

	if ((!uz && vw) ||
	    (uz == vw && u->node->type != IBTOPO_NODE_SWITCH &&
	     v->node->type == IBTOPO_NODE_SWITCH)) {
		t = u; u = v; v = t;
		t = z; z = w; w = t;
	}
	if (port_before(z, u)) {
		t = u; u = z; z = t;
		t = v; v = w; w = t;
	}
	m->subkind = IBTOPO_MOVE_SWAPPED;
	m->b[0] = u;
	m->b[1] = v;
	m->b[2] = z;
	m->b[3] = w;
	m->a[0] = counterpart(c->b2a, u);
	m->a[1] = counterpart(c->b2a, w);
	m->a[2] = counterpart(c->b2a, z);
	m->a[3] = counterpart(c->b2a, v);
}

static int pair_swaps(struct pairing_ctx *c, const struct ibtopo_fabric *before)
{
	struct ibtopo__link_pairing *o = c->out;
	size_t n = ibtopo_fabric_link_count(before);

	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_link *m1 = ibtopo_fabric_link(before, i);

		for (int side = 0; side < 2; side++) {
			const struct ibtopo_port *u = side ? m1->b : m1->a;
			const struct ibtopo_port *v = other_end(m1, u);
			const struct ibtopo_port *w, *z, *wa, *za, *va;
			const struct ibtopo_link *e1, *e2, *m2;
			struct ibtopo__move mv = { 0 };
			int rc;

			if (o->bstate[m1->index] != IBTOPO__L_ONLY)
				break;
			e1 = free_link(o->astate, counterpart(c->b2a, u));
			if (!e1)
				continue;
			wa = other_end(e1, counterpart(c->b2a, u));
			w = counterpart(c->a2b, wa);
			m2 = free_link(o->bstate, w);
			if (!m2 || m2 == m1)
				continue;
			z = other_end(m2, w);
			za = counterpart(c->b2a, z);
			e2 = free_link(o->astate, za);
			if (!e2 || e2 == e1)
				continue;
			va = counterpart(c->b2a, v);
			if (!va || other_end(e2, za) != va)
				continue;
			orient_swap(&mv, u, v, z, w, c);
			rc = add_move(c, &mv);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* A cable of after link e moved at one end: the other end stays. */
static int pair_one_end(struct pairing_ctx *c, const struct ibtopo_link *e)
{
	struct ibtopo__link_pairing *o = c->out;
	const struct ibtopo_port *xa = e->a, *ya = e->b;
	const struct ibtopo_link *mx, *my, *m;
	const struct ibtopo_port *anchor;
	struct ibtopo__move mv = { 0 };

	mx = free_link(o->bstate, counterpart(c->a2b, xa));
	my = free_link(o->bstate, counterpart(c->a2b, ya));
	if (!mx && !my)
		return 0;
	/* a host's cable plugged elsewhere: keep the host end */
	if (mx && my && ya->node->type == IBTOPO_NODE_CA &&
	    xa->node->type != IBTOPO_NODE_CA)
		mx = NULL;
	anchor = mx ? xa : ya;
	m = mx ? mx : my;
	mv.subkind = IBTOPO_MOVE_ONE_END;
	mv.a[0] = anchor;
	mv.a[1] = other_end(e, anchor);
	mv.b[0] = counterpart(c->a2b, anchor);
	mv.b[1] = other_end(m, mv.b[0]);
	return add_move(c, &mv);
}

/* After link e joins the same two nodes as a free before link. */
static int pair_both_ports(struct pairing_ctx *c, const struct ibtopo_link *e)
{
	struct ibtopo__link_pairing *o = c->out;
	const struct ibtopo_node *x = c->a2b[e->a->node->index];
	const struct ibtopo_node *y = c->a2b[e->b->node->index];
	struct ibtopo__move mv = { 0 };

	for (unsigned p = 0; p <= x->nports; p++) {
		const struct ibtopo_link *m = free_link(o->bstate, x->ports[p]);

		if (!m || other_end(m, x->ports[p])->node != y)
			continue;
		mv.subkind = IBTOPO_MOVE_BOTH_PORTS;
		mv.a[0] = e->a;
		mv.a[1] = e->b;
		mv.b[0] = x->ports[p];
		mv.b[1] = other_end(m, x->ports[p]);
		return add_move(c, &mv);
	}
	return 0;
}

/* pair(c, e) for each after link e still unpaired, in order. */
static int pair_each_after(struct pairing_ctx *c,
			   const struct ibtopo_fabric *after,
			   int (*pair)(struct pairing_ctx *c,
				       const struct ibtopo_link *e))
{
	size_t n = ibtopo_fabric_link_count(after);
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct ibtopo_link *e = ibtopo_fabric_link(after, i);

		if (c->out->astate[e->index] == IBTOPO__L_ONLY)
			rc = pair(c, e);
	}
	return rc;
}

int ibtopo__link_pairing_build(struct ibtopo__link_pairing *out,
			       const struct ibtopo_fabric *before,
			       const struct ibtopo_fabric *after,
			       struct ibtopo_node *const *b2a,
			       struct ibtopo_node *const *a2b,
			       struct ibtopo_error *err)
{
	size_t nb = ibtopo_fabric_link_count(before);
	size_t na = ibtopo_fabric_link_count(after);
	struct pairing_ctx c = { out, b2a, a2b, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	out->bstate = calloc(nb ? nb : 1, sizeof(*out->bstate));
	out->astate = calloc(na ? na : 1, sizeof(*out->astate));
	out->same = calloc(nb ? nb : 1, sizeof(*out->same));
	if (!out->bstate || !out->astate || !out->same) {
		rc = IBTOPO_ENOMEM;
		goto out_release;
	}
	for (size_t i = 0; i < nb; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(before, i);
		const struct ibtopo_port *x = counterpart(b2a, l->a);
		const struct ibtopo_port *y = counterpart(b2a, l->b);

		if (!b2a[l->a->node->index] || !b2a[l->b->node->index]) {
			out->bstate[i] = IBTOPO__L_NODE;
		} else if (x && y && x->remote == y) {
			out->bstate[i] = IBTOPO__L_SAME;
			out->same[i] = x->link;
			out->astate[x->link->index] = IBTOPO__L_SAME;
		} else {
			out->bstate[i] = IBTOPO__L_ONLY;
		}
	}
	for (size_t i = 0; i < na; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(after, i);

		if (out->astate[i] == IBTOPO__L_SAME)
			continue;
		if (!a2b[l->a->node->index] || !a2b[l->b->node->index])
			out->astate[i] = IBTOPO__L_NODE;
		else
			out->astate[i] = IBTOPO__L_ONLY;
	}
	rc = pair_swaps(&c, before);
	if (!rc)
		rc = pair_each_after(&c, after, pair_one_end);
	if (!rc)
		rc = pair_each_after(&c, after, pair_both_ports);
	if (!rc)
		return 0;
out_release:
	ibtopo__link_pairing_release(out);
	return ibtopo__error_set(err, rc, "out of memory");
}

void ibtopo__link_pairing_release(struct ibtopo__link_pairing *p)
{
	if (!p)
		return;
	free(p->bstate);
	free(p->astate);
	free(p->same);
	free(p->moves);
	memset(p, 0, sizeof(*p));
}

/* ---- diff ---- */

static void end_node(struct ibtopo_end *e, const struct ibtopo_node *n)
{
	e->node = n->desc;
	e->guid = n->guid;
	e->port = -1;
}

static bool lanes_less(unsigned x, unsigned y)
{
	return ibtopo_width_lanes(x) < ibtopo_width_lanes(y);
}

/* A node's finding of `kind`: the node and its links. */
static void node_finding(struct ibtopo_finding *f,
			 enum ibtopo_finding_kind kind,
			 const struct ibtopo_node *n)
{
	ibtopo__finding_init(f, kind);
	end_node(&f->a, n);
	f->num.links.links = ibtopo__node_link_count(n);
}

static int diff_nodes(struct ibtopo_findings *out, const struct ibtopo_fabric *old,
		      const struct ibtopo_fabric *new_,
		      struct ibtopo_node *const *o2n, struct ibtopo_node *const *n2o,
		      struct ibtopo_error *err)
{
	size_t no = ibtopo_fabric_node_count(old), nn = ibtopo_fabric_node_count(new_);
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < no && !rc; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(old, i);

		if (o2n[i])
			continue;
		node_finding(&f, IBTOPO_FIND_NODE_REMOVED, n);
		if (ibtopo__peers_all_unmatched(n, o2n))
			f.note = "every peer it had is gone too: it may be fine "
				 "behind them";
		rc = ibtopo_findings_add(out, &f, err);
	}
	for (size_t i = 0; i < nn && !rc; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(new_, i);

		if (n2o[i])
			continue;
		node_finding(&f, IBTOPO_FIND_NODE_ADDED, n);
		rc = ibtopo_findings_add(out, &f, err);
	}
	for (size_t i = 0; i < no && !rc; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(old, i);

		if (!o2n[i] || strcmp(n->desc, o2n[i]->desc) == 0)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_NODE_RENAMED);
		end_node(&f.a, n);
		end_node(&f.c, o2n[i]);
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

void ibtopo__link_finding_init(struct ibtopo_finding *f,
			       enum ibtopo_finding_kind kind,
			       const struct ibtopo_link *l)
{
	ibtopo__finding_init(f, kind);
	ibtopo_end_from_port(&f->a, l->a);
	ibtopo_end_from_port(&f->b, l->b);
}

int ibtopo__only_links(struct ibtopo_findings *out,
		       const struct ibtopo_fabric *fabric,
		       const unsigned char *state, enum ibtopo_finding_kind kind,
		       void (*fill)(struct ibtopo_finding *f,
				    const struct ibtopo_link *l, void *ctx),
		       void *ctx, struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_link_count(fabric);
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);

		if (state[i] != IBTOPO__L_ONLY)
			continue;
		ibtopo__link_finding_init(&f, kind, l);
		if (fill)
			fill(&f, l, ctx);
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

/* Link nl's speed or width changed from `before` to `after` bits (a
 * warning when `slower`). */
static int rate_changed(struct ibtopo_findings *out,
			enum ibtopo_finding_kind kind, bool slower,
			const struct ibtopo_link *nl, unsigned before,
			unsigned after, struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	ibtopo__link_finding_init(&f, kind, nl);
	f.severity = slower ? IBTOPO_SEV_WARNING : IBTOPO_SEV_INFO;
	f.num.change.before = before;
	f.num.change.after = after;
	return ibtopo_findings_add(out, &f, err);
}

static int diff_links(struct ibtopo_findings *out, const struct ibtopo_fabric *old,
		      const struct ibtopo_fabric *new_,
		      const struct ibtopo__link_pairing *lp, struct ibtopo_error *err)
{
	size_t no = ibtopo_fabric_link_count(old);
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < lp->nmoves && !rc; i++) {
		const struct ibtopo__move *m = &lp->moves[i];

		ibtopo__finding_init(&f, IBTOPO_FIND_LINK_MOVED);
		f.subkind = m->subkind;
		ibtopo_end_from_port(&f.a, m->b[0]);
		ibtopo_end_from_port(&f.b, m->b[1]);
		if (m->subkind == IBTOPO_MOVE_SWAPPED) {
			ibtopo_end_from_port(&f.c, m->b[2]);
			ibtopo_end_from_port(&f.d, m->b[3]);
		} else {
			ibtopo_end_from_port(&f.c, m->a[0]);
			ibtopo_end_from_port(&f.d, m->a[1]);
		}
		rc = ibtopo_findings_add(out, &f, err);
	}
	if (!rc)
		rc = ibtopo__only_links(out, old, lp->bstate,
					IBTOPO_FIND_LINK_REMOVED, NULL, NULL, err);
	if (!rc)
		rc = ibtopo__only_links(out, new_, lp->astate,
					IBTOPO_FIND_LINK_ADDED, NULL, NULL, err);
	for (size_t i = 0; i < no && !rc; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(old, i);
		const struct ibtopo_link *nl = lp->same[i];

		if (lp->bstate[i] != IBTOPO__L_SAME)
			continue;
		if (l->speed && nl->speed && l->speed != nl->speed)
			rc = rate_changed(out, IBTOPO_FIND_LINK_SPEED_CHANGED,
					  nl->speed < l->speed, nl, l->speed,
					  nl->speed, err);
		if (!rc && l->width && nl->width && l->width != nl->width)
			rc = rate_changed(out, IBTOPO_FIND_LINK_WIDTH_CHANGED,
					  lanes_less(nl->width, l->width), nl,
					  l->width, nl->width, err);
	}
	return rc;
}

/* A port whose link changed is reported by its link finding alone. */
static bool link_changed(const unsigned char *state, const struct ibtopo_port *p)
{
	return p->link && state[p->link->index] != IBTOPO__L_SAME;
}

#define PHYS_LINKUP 5

/* A port's logical or physical state changed, its link unchanged. */
static bool state_found(struct ibtopo_finding *f, const struct ibtopo_port *op,
			const struct ibtopo_port *np,
			const struct ibtopo__link_pairing *lp)
{
	bool logical;

	if (link_changed(lp->bstate, op) || link_changed(lp->astate, np))
		return false;
	logical = op->state && np->state && op->state != np->state;
	if (!logical && !(op->phys_state && np->phys_state &&
			  op->phys_state != np->phys_state))
		return false;
	ibtopo__finding_init(f, IBTOPO_FIND_PORT_STATE_CHANGED);
	ibtopo_end_from_port(&f->a, np);
	ibtopo_end_from_port(&f->b, np->remote);
	if (logical) {
		f->subkind = IBTOPO_STATE_LOGICAL;
		f->num.change.before = op->state;
		f->num.change.after = np->state;
		if (op->state == IBTOPO_PORT_STATE_ACTIVE)
			f->severity = IBTOPO_SEV_WARNING;
	} else {
		f->subkind = IBTOPO_STATE_PHYSICAL;
		f->num.change.before = op->phys_state;
		f->num.change.after = np->phys_state;
		if (op->phys_state == PHYS_LINKUP)
			f->severity = IBTOPO_SEV_WARNING;
	}
	return true;
}

/*
 * LID 0 means "none" on a port read before a subnet manager configured
 * it: its state known and not Active, or a switch's port 0 (Active from
 * power-on; a subnet manager gives every switch a LID). A LID assigned
 * since, or lost, is news. Elsewhere (an Active CA port, a dump without
 * LIDs) 0 means unknown.
 */
static bool lid_none(const struct ibtopo_port *p)
{
	return !p->lid && p->state &&
	       (p->state != IBTOPO_PORT_STATE_ACTIVE ||
		(p->num == 0 && p->node->type == IBTOPO_NODE_SWITCH));
}

/* A port's LID assigned, lost or changed. */
static bool lid_found(struct ibtopo_finding *f, const struct ibtopo_port *op,
		      const struct ibtopo_port *np,
		      const struct ibtopo__link_pairing *lp)
{
	(void)lp;
	if (op->lid == np->lid || (!op->lid && !lid_none(op)) ||
	    (!np->lid && !lid_none(np)))
		return false;
	ibtopo__finding_init(f, IBTOPO_FIND_LID_CHANGED);
	ibtopo_end_from_port(&f->a, np);
	f->num.change.before = op->lid;
	f->num.change.after = np->lid;
	return true;
}

/*
 * found(f, op, np, lp)'s finding for each port op of an old node that
 * its matched new node has too (np). switch_lid: a switch has one LID,
 * on port 0, that its other ports echo: look at port 0 alone.
 */
static int diff_ports(struct ibtopo_findings *out,
		      const struct ibtopo_fabric *old,
		      struct ibtopo_node *const *o2n,
		      const struct ibtopo__link_pairing *lp,
		      bool (*found)(struct ibtopo_finding *f,
				    const struct ibtopo_port *op,
				    const struct ibtopo_port *np,
				    const struct ibtopo__link_pairing *lp),
		      bool switch_lid, struct ibtopo_error *err)
{
	size_t no = ibtopo_fabric_node_count(old);
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < no && !rc; i++) {
		const struct ibtopo_node *on = ibtopo_fabric_node(old, i);
		const struct ibtopo_node *nn = o2n[i];
		unsigned last = switch_lid && on->type == IBTOPO_NODE_SWITCH ?
					0 :
					on->nports;

		if (!nn)
			continue;
		for (unsigned p = 0; p <= last && !rc; p++) {
			const struct ibtopo_port *op = on->ports[p];
			const struct ibtopo_port *np = ibtopo_node_port(nn, p);

			if (op && np && found(&f, op, np, lp))
				rc = ibtopo_findings_add(out, &f, err);
		}
	}
	return rc;
}

int ibtopo_fabric_diff(struct ibtopo_findings *out,
		       struct ibtopo_analysis *old_an,
		       struct ibtopo_analysis *new_an,
		       const struct ibtopo_diff_opts *opts,
		       struct ibtopo_error *err)
{
	const struct ibtopo_fabric *old = ibtopo_analysis_fabric(old_an);
	const struct ibtopo_fabric *new_ = ibtopo_analysis_fabric(new_an);
	size_t no = ibtopo_fabric_node_count(old), nn = ibtopo_fabric_node_count(new_);
	struct ibtopo__link_pairing lp;
	struct ibtopo_node **o2n, **n2o;
	unsigned flags = opts ? opts->flags : 0;
	int rc;

	if (!out || !old || !new_)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric to diff");
	o2n = calloc(no ? no : 1, sizeof(*o2n));
	n2o = calloc(nn ? nn : 1, sizeof(*n2o));
	if (!o2n || !n2o) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_maps;
	}
	for (size_t i = 0; i < no; i++) {
		struct ibtopo_node *on = ibtopo_fabric_node(old, i);
		struct ibtopo_node *m = ibtopo_fabric_find_node(new_, on->guid);

		if (m && !n2o[m->index]) {
			o2n[i] = m;
			n2o[m->index] = on;
		}
	}
	rc = diff_nodes(out, old, new_, o2n, n2o, err);
	if (rc)
		goto out_free_maps;
	rc = ibtopo__link_pairing_build(&lp, old, new_, o2n, n2o, err);
	if (rc)
		goto out_free_maps;
	rc = diff_links(out, old, new_, &lp, err);
	if (!rc)
		rc = diff_ports(out, old, o2n, &lp, state_found, false, err);
	if (!rc && (flags & IBTOPO_DIFF_LIDS))
		rc = diff_ports(out, old, o2n, &lp, lid_found, true, err);
	if (!rc)
		rc = ibtopo__diff_counters(out, old, new_an, err);
	if (!rc)
		rc = ibtopo__diff_routes(out, old_an, new_an, err);
	ibtopo__link_pairing_release(&lp);
out_free_maps:
	free(n2o);
	free(o2n);
	return rc;
}
