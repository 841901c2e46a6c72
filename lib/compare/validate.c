/*
 * validate.c - a planned fabric against the actual one: which nodes and
 * cables are missing, extra or in the wrong port, and which links run
 * below their planned speed or width. Plan nodes are matched to actual
 * ones by GUID, then by name; the links are then paired by diff.c's rule.
 */
#include "compare/compare-int.h"
#include "findings/findings-int.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Set in GUIDs the readers make from names (see ibtopo_name_guid()), as
 * in locally administered EUI-64s; vendors' GUIDs never have it. */
#define NAME_GUID_BIT (1ull << 57)

struct keyed {
	const char *key;
	struct ibtopo_node *node;
};

struct vctx {
	const struct ibtopo_fabric *plan;
	const struct ibtopo_fabric *actual;
	struct ibtopo_node **p2a; /* by plan node index */
	struct ibtopo_node **a2p; /* by actual node index */
	char **pkeys;		  /* name compared, by node index */
	char **akeys;
	regex_t re;
	bool have_re;
};

static char *node_key(struct vctx *c, const char *desc)
{
	regmatch_t m[2];

	if (c->have_re && regexec(&c->re, desc, 2, m, 0) == 0) {
		regmatch_t *g = m[1].rm_so >= 0 ? &m[1] : &m[0];

		return strndup(desc + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
	}
	return strdup(desc);
}

static char **make_keys(struct vctx *c, const struct ibtopo_fabric *f)
{
	size_t n = ibtopo_fabric_node_count(f);
	char **keys = calloc(n ? n : 1, sizeof(*keys));

	for (size_t i = 0; keys && i < n; i++) {
		keys[i] = node_key(c, ibtopo_fabric_node(f, i)->desc);
		if (!keys[i]) {
			for (size_t k = 0; k < i; k++)
				free(keys[k]);
			free(keys);
			return NULL;
		}
	}
	return keys;
}

static void free_keys(char **keys, size_t n)
{
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
}

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int d = strcmp(a->key, b->key);

	if (d)
		return d;
	return a->node->index < b->node->index ?
		       -1 :
		       a->node->index > b->node->index;
}

static bool types_fit(enum ibtopo_node_type x, enum ibtopo_node_type y)
{
	return x == y || x == IBTOPO_NODE_UNKNOWN || y == IBTOPO_NODE_UNKNOWN;
}

static void link_nodes(struct vctx *c, struct ibtopo_node *p,
		       struct ibtopo_node *a)
{
	c->p2a[p->index] = a;
	c->a2p[a->index] = p;
}

static int match_nodes(struct vctx *c)
{
	size_t np = ibtopo_fabric_node_count(c->plan);
	size_t na = ibtopo_fabric_node_count(c->actual);
	struct keyed *idx;

	/* the plan knows the real GUIDs: nothing is more certain */
	for (size_t i = 0; i < np; i++) {
		struct ibtopo_node *p = ibtopo_fabric_node(c->plan, i);
		struct ibtopo_node *a =
			ibtopo_fabric_find_node(c->actual, p->guid);

		if (a && !c->a2p[a->index] && types_fit(p->type, a->type))
			link_nodes(c, p, a);
	}
	idx = calloc(na ? na : 1, sizeof(*idx));
	if (!idx)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < na; i++) {
		idx[i].key = c->akeys[i];
		idx[i].node = ibtopo_fabric_node(c->actual, i);
	}
	qsort(idx, na, sizeof(*idx), cmp_keyed);
	for (size_t i = 0; i < np; i++) {
		struct ibtopo_node *p = ibtopo_fabric_node(c->plan, i);
		struct ibtopo_node *best = NULL;
		size_t lo = 0, hi = na;

		if (c->p2a[i])
			continue;
		while (lo < hi) { /* first entry with key >= ours */
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(idx[mid].key, c->pkeys[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo;
		     k < na && strcmp(idx[k].key, c->pkeys[i]) == 0; k++) {
			struct ibtopo_node *a = idx[k].node;

			if (c->a2p[a->index] || !types_fit(p->type, a->type))
				continue;
			if (strcmp(a->desc, p->desc) == 0) {
				best = a;
				break;
			}
			if (!best)
				best = a;
		}
		if (best)
			link_nodes(c, p, best);
	}
	free(idx);
	return 0;
}

/* A plan port named as the operator sees it: the actual node when known. */
static void plan_end(struct vctx *c, struct ibtopo_end *e,
		     const struct ibtopo_port *p)
{
	const struct ibtopo_node *a = c->p2a[p->node->index];

	ibtopo_end_from_port(e, p);
	if (a) {
		e->node = a->desc;
		e->guid = a->guid;
	}
}

static void node_end(struct ibtopo_end *e, const struct ibtopo_node *n)
{
	e->node = n->desc;
	e->guid = n->guid;
	e->port = -1;
}

static int by_name(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;
	bool sa = a->type == IBTOPO_NODE_SWITCH;
	bool sb = b->type == IBTOPO_NODE_SWITCH;

	if (sa != sb)
		return sa ? -1 : 1;
	return ibtopo__natcmp(a->desc ? a->desc : "", b->desc ? b->desc : "");
}

/* The nodes of `f` that `match` leaves unmatched, switches first (a
 * missing leaf before the hosts behind it), each in natural name order
 * (spine02 before spine10): *out, *n of them. */
static int unmatched(const struct ibtopo_node ***out, size_t *n,
		     const struct ibtopo_fabric *f,
		     const struct ibtopo_node *const *match,
		     struct ibtopo_error *err)
{
	size_t count = ibtopo_fabric_node_count(f);

	*n = 0;
	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		if (!match[i])
			(*out)[(*n)++] = ibtopo_fabric_node(f, i);
	qsort(*out, *n, sizeof(**out), by_name);
	return 0;
}

static int report_nodes(struct vctx *c, struct ibtopo_findings *out,
			struct ibtopo_error *err)
{
	const struct ibtopo_node **miss = NULL, **extra = NULL;
	size_t nmiss = 0, nextra = 0;
	struct ibtopo_finding f;
	int rc;

	rc = unmatched(&miss, &nmiss, c->plan,
		       (const struct ibtopo_node *const *)c->p2a, err);
	if (!rc)
		rc = unmatched(&extra, &nextra, c->actual,
			       (const struct ibtopo_node *const *)c->a2p, err);
	for (size_t i = 0; i < nmiss && !rc; i++) {
		const struct ibtopo_node *p = miss[i];

		ibtopo__finding_init(&f, IBTOPO_FIND_MISSING_NODE);
		node_end(&f.a, p);
		/* a GUID made from the name (locally administered bit) means
		 * nothing to the operator */
		if (p->guid & NAME_GUID_BIT)
			f.a.guid = 0;
		if (ibtopo__peers_all_unmatched(p, c->p2a))
			f.note = "every planned peer is missing too: it may be "
				 "fine behind them";
		f.num.links.links = ibtopo__node_link_count(p);
		f.evidence = IBTOPO_EVIDENCE_PLAN;
		rc = ibtopo_findings_add(out, &f, err);
	}
	for (size_t i = 0; i < nextra && !rc; i++) {
		ibtopo__finding_init(&f, IBTOPO_FIND_EXTRA_NODE);
		node_end(&f.a, extra[i]);
		f.num.links.links = ibtopo__node_link_count(extra[i]);
		f.evidence = IBTOPO_EVIDENCE_PLAN;
		rc = ibtopo_findings_add(out, &f, err);
	}
	free(miss);
	free(extra);
	return rc;
}

/* A link only the actual fabric has: the plan is the evidence. */
static void extra_link(struct ibtopo_finding *f, const struct ibtopo_link *l,
		       void *ctx)
{
	(void)l;
	(void)ctx;
	f->evidence = IBTOPO_EVIDENCE_PLAN;
}

/* A link only the plan has: its ends named as the plan names them,
 * ordered as the actual fabric would order them. */
static void missing_link(struct ibtopo_finding *f, const struct ibtopo_link *l,
			 void *ctx)
{
	f->evidence = IBTOPO_EVIDENCE_PLAN;
	plan_end(ctx, &f->a, l->a);
	plan_end(ctx, &f->b, l->b);
	if (f->b.guid < f->a.guid ||
	    (f->b.guid == f->a.guid && f->b.port < f->a.port)) {
		struct ibtopo_end t = f->a;

		f->a = f->b;
		f->b = t;
	}
}

static int report_links(struct vctx *c, const struct ibtopo__link_pairing *lp,
			struct ibtopo_findings *out, struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < lp->nmoves && !rc; i++) {
		const struct ibtopo__move *m = &lp->moves[i];

		ibtopo__finding_init(&f, IBTOPO_FIND_MISWIRED_LINK);
		f.subkind = m->subkind;
		f.evidence = IBTOPO_EVIDENCE_PLAN;
		ibtopo_end_from_port(&f.a, m->a[0]);
		ibtopo_end_from_port(&f.b, m->a[1]);
		if (m->subkind == IBTOPO_MOVE_SWAPPED) {
			ibtopo_end_from_port(&f.c, m->a[2]);
			ibtopo_end_from_port(&f.d, m->a[3]);
		} else {
			plan_end(c, &f.c, m->b[0]);
			plan_end(c, &f.d, m->b[1]);
		}
		rc = ibtopo_findings_add(out, &f, err);
	}
	if (!rc)
		rc = ibtopo__only_links(out, c->plan, lp->bstate,
					IBTOPO_FIND_MISSING_LINK, missing_link, c,
					err);
	if (!rc)
		rc = ibtopo__only_links(out, c->actual, lp->astate,
					IBTOPO_FIND_EXTRA_LINK, extra_link, NULL,
					err);
	return rc;
}

/* Link `al` runs below the plan's rate: `planned` bits, `active` bits. */
static int below_plan(struct ibtopo_findings *out,
		      enum ibtopo_finding_kind kind,
		      const struct ibtopo_link *al, unsigned planned,
		      unsigned active, struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	ibtopo__link_finding_init(&f, kind, al);
	f.evidence = IBTOPO_EVIDENCE_PLAN;
	f.num.rate.expected = planned;
	f.num.rate.active = active;
	return ibtopo_findings_add(out, &f, err);
}

static int report_rates(struct vctx *c, const struct ibtopo__link_pairing *lp,
			struct ibtopo_findings *out, struct ibtopo_error *err)
{
	size_t np = ibtopo_fabric_link_count(c->plan);
	int rc = 0;

	for (size_t i = 0; i < np && !rc; i++) {
		const struct ibtopo_link *pl = ibtopo_fabric_link(c->plan, i);
		const struct ibtopo_link *al = lp->same[i];

		if (lp->bstate[i] != IBTOPO__L_SAME)
			continue;
		/* speed bits are ordered slowest to fastest */
		if (pl->speed && al->speed && al->speed < pl->speed)
			rc = below_plan(out, IBTOPO_FIND_SPEED_BELOW_PLAN, al,
					pl->speed, al->speed, err);
		if (!rc && pl->width && al->width &&
		    ibtopo_width_lanes(al->width) <
			    ibtopo_width_lanes(pl->width))
			rc = below_plan(out, IBTOPO_FIND_WIDTH_BELOW_PLAN, al,
					pl->width, al->width, err);
	}
	return rc;
}

int ibtopo_fabric_validate(struct ibtopo_findings *out,
			   const struct ibtopo_fabric *plan,
			   const struct ibtopo_fabric *actual,
			   const struct ibtopo_validate_opts *opts,
			   struct ibtopo_error *err)
{
	size_t np = ibtopo_fabric_node_count(plan);
	size_t na = ibtopo_fabric_node_count(actual);
	struct vctx c = { .plan = plan, .actual = actual };
	struct ibtopo__link_pairing lp;
	int rc;

	if (!out || !plan || !actual)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric to validate");
	if (opts && opts->match) {
		int r = regcomp(&c.re, opts->match, REG_EXTENDED);

		if (r) {
			char msg[128];

			regerror(r, &c.re, msg, sizeof(msg));
			return ibtopo__error_set(err, IBTOPO_EINVAL,
						 "bad --match regex '%s': %s",
						 opts->match, msg);
		}
		c.have_re = true;
	}
	c.p2a = calloc(np ? np : 1, sizeof(*c.p2a));
	c.a2p = calloc(na ? na : 1, sizeof(*c.a2p));
	c.pkeys = make_keys(&c, plan);
	c.akeys = make_keys(&c, actual);
	if (!c.p2a || !c.a2p || !c.pkeys || !c.akeys) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	rc = match_nodes(&c);
	if (rc) {
		rc = ibtopo__error_set(err, rc, "out of memory");
		goto out_free;
	}
	rc = report_nodes(&c, out, err);
	if (rc)
		goto out_free;
	rc = ibtopo__link_pairing_build(&lp, plan, actual, c.p2a, c.a2p, err);
	if (rc)
		goto out_free;
	rc = report_links(&c, &lp, out, err);
	if (!rc)
		rc = report_rates(&c, &lp, out, err);
	ibtopo__link_pairing_release(&lp);
out_free:
	free_keys(c.akeys, na);
	free_keys(c.pkeys, np);
	free(c.a2p);
	free(c.p2a);
	if (c.have_re)
		regfree(&c.re);
	return rc;
}
