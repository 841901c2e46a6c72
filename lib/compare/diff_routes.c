/*
 * diff_routes.c - what changed in the forwarding tables between two
 * fabrics that both carry them (part of ibtopo_fabric_diff()):
 * - route-changed: one per destination LID whose entry changed on some
 *   switch that has a table on both sides, at the first such switch (in
 *   NEW's order), with how many switches changed it;
 * - route-load-changed: the switch out-ports whose CA-to-CA route count
 *   (ibtopo_routes_analyze()) changed most, at most LOAD_CHANGES.
 * Switches matched by GUID; a LID is reported when a port of NEW (else of
 * OLD) has it, so entries for unused LIDs are not noise.
 */
#include "compare/compare-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

#define LOAD_CHANGES 10

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

static unsigned entry(const struct ibtopo_lft *lft, unsigned lid)
{
	return lid <= lft->top ? lft->port[lid] : IBTOPO_LFT_NONE;
}

/* LID -> the port that has it, for the LIDs of `f` (LMC ranges too). */
static void owners(const struct ibtopo_port **own, const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned p = 0; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];
			unsigned span;

			if (!pp || !pp->lid ||
			    (n->type == IBTOPO_NODE_SWITCH && p != 0))
				continue;
			span = 1u << (pp->lmc > 7 ? 7 : pp->lmc);
			for (unsigned l = pp->lid;
			     l < pp->lid + span && l <= IBTOPO_LFT_MAX_LID; l++)
				if (!own[l])
					own[l] = pp;
		}
	}
}

struct lid_change {
	const struct ibtopo_node *first;	/* NEW's switch */
	unsigned old_port, new_port, switches;
};

static int diff_entries(struct ibtopo_findings *out,
			const struct ibtopo_fabric *old,
			const struct ibtopo_fabric *new_,
			struct ibtopo_error *err)
{
	size_t nl = (size_t)IBTOPO_LFT_MAX_LID + 1;
	struct lid_change *ch = calloc(nl, sizeof(*ch));
	const struct ibtopo_port **own_new = calloc(nl, sizeof(*own_new));
	const struct ibtopo_port **own_old = calloc(nl, sizeof(*own_old));
	int rc = 0;

	if (!ch || !own_new || !own_old) {
		rc = nomem(err);
		goto out_free;
	}
	owners(own_new, new_);
	owners(own_old, old);
	for (size_t i = 0; i < ibtopo_fabric_node_count(new_); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(new_, i);
		const struct ibtopo_node *o;
		unsigned top;

		if (n->type != IBTOPO_NODE_SWITCH || !n->lft)
			continue;
		o = ibtopo_fabric_find_node(old, n->guid);
		if (!o || o->type != IBTOPO_NODE_SWITCH || !o->lft)
			continue;
		top = n->lft->top > o->lft->top ? n->lft->top : o->lft->top;
		for (unsigned lid = 0; lid <= top; lid++) {
			unsigned a = entry(o->lft, lid), b = entry(n->lft, lid);

			if (a == b || (!own_new[lid] && !own_old[lid]))
				continue;
			if (!ch[lid].switches++) {
				ch[lid].first = n;
				ch[lid].old_port = a;
				ch[lid].new_port = b;
			}
		}
	}
	for (unsigned lid = 0; lid < nl && !rc; lid++) {
		struct ibtopo_finding f;

		if (!ch[lid].switches)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_ROUTE_CHANGED);
		f.a.node = ch[lid].first->desc;
		f.a.guid = ch[lid].first->guid;
		f.a.port = (int)ch[lid].new_port;
		ibtopo_end_from_port(&f.b, own_new[lid] ? own_new[lid] :
					   own_old[lid]);
		if (f.b.port == 0)
			f.b.port = -1;
		f.num.route_change.old_port = ch[lid].old_port;
		f.num.route_change.new_port = ch[lid].new_port;
		f.num.route_change.switches = ch[lid].switches;
		f.num.route_change.dlid = lid;
		rc = ibtopo_findings_add(out, &f, err);
	}

out_free:
	free(own_old);
	free(own_new);
	free(ch);
	return rc;
}

/* A port row's key: node GUID and port number. */
struct load {
	uint64_t guid;
	unsigned port;
	uint64_t routes;
	const struct ibtopo_port *p;
	uint64_t change;	/* |new - old| */
	uint64_t old_routes;
};

static int load_key_cmp(const void *a, const void *b)
{
	const struct load *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->port < y->port ? -1 : x->port > y->port;
}

static int load_change_cmp(const void *a, const void *b)
{
	const struct load *x = a, *y = b;

	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return load_key_cmp(a, b);
}

static struct load *rows_of(const struct ibtopo_routes *r, size_t extra)
{
	struct load *v = calloc(r->nports + extra + 1, sizeof(*v));

	for (size_t i = 0; v && i < r->nports; i++) {
		v[i].guid = r->ports[i].port->node->guid;
		v[i].port = r->ports[i].port->num;
		v[i].routes = r->ports[i].routes;
		v[i].p = r->ports[i].port;
	}
	return v;
}

static unsigned clamp(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
}

/* The routes of both analyses, traced once each (they are theirs). */
static int diff_loads(struct ibtopo_findings *out,
		      struct ibtopo_analysis *old, struct ibtopo_analysis *new_,
		      struct ibtopo_error *err)
{
	const struct ibtopo_routes *ra = NULL, *rb = NULL;
	struct ibtopo_error quiet = IBTOPO_ERROR_INIT;
	struct load *va = NULL, *vb = NULL;
	size_t nb;
	int rc;

	rc = ibtopo_analysis_routes(old, &ra, &quiet);
	if (!rc)
		rc = ibtopo_analysis_routes(new_, &rb, &quiet);
	if (rc == IBTOPO_EINVAL || (!rc && (!ra || !rb))) {
		/* no LIDs, or the routing skipped: entries only */
		rc = 0;
		goto out_free;
	}
	if (rc) {
		*err = quiet;
		goto out_free;
	}
	va = rows_of(ra, 0);
	vb = rows_of(rb, ra->nports);
	if (!va || !vb) {
		rc = nomem(err);
		goto out_free;
	}
	qsort(va, ra->nports, sizeof(*va), load_key_cmp);
	/* NEW's rows with OLD's counts; OLD's rows NEW lacks, at 0 */
	nb = rb->nports;
	for (size_t i = 0; i < nb; i++) {
		struct load *m = bsearch(&vb[i], va, ra->nports, sizeof(*va),
					 load_key_cmp);

		vb[i].old_routes = m ? m->routes : 0;
		if (m)
			m->change = 1;	/* seen */
	}
	for (size_t i = 0; i < ra->nports; i++)
		if (!va[i].change) {
			vb[nb] = va[i];
			vb[nb].old_routes = va[i].routes;
			vb[nb++].routes = 0;
		}
	for (size_t i = 0; i < nb; i++)
		vb[i].change = vb[i].routes > vb[i].old_routes ?
			       vb[i].routes - vb[i].old_routes :
			       vb[i].old_routes - vb[i].routes;
	qsort(vb, nb, sizeof(*vb), load_change_cmp);
	for (size_t i = 0; i < nb && i < LOAD_CHANGES && !rc; i++) {
		struct ibtopo_finding f;

		if (!vb[i].change)
			break;
		ibtopo__finding_init(&f, IBTOPO_FIND_ROUTE_LOAD_CHANGED);
		ibtopo_end_from_port(&f.a, vb[i].p);
		f.num.change.before = clamp(vb[i].old_routes);
		f.num.change.after = clamp(vb[i].routes);
		rc = ibtopo_findings_add(out, &f, err);
	}

out_free:
	free(vb);
	free(va);
	return rc;
}

int ibtopo__diff_routes(struct ibtopo_findings *out,
			struct ibtopo_analysis *old, struct ibtopo_analysis *new_,
			struct ibtopo_error *err)
{
	int rc;

	if (!ibtopo_fabric_has_routes(ibtopo_analysis_fabric(old)) ||
	    !ibtopo_fabric_has_routes(ibtopo_analysis_fabric(new_)))
		return 0;
	rc = diff_entries(out, ibtopo_analysis_fabric(old),
			  ibtopo_analysis_fabric(new_), err);
	if (!rc)
		rc = diff_loads(out, old, new_, err);
	return rc;
}
