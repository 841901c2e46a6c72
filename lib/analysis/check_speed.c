/*
 * check_speed.c - links that trained below what their ports can do.
 *
 * With PortInfo (discovery, cache files) the supported and enabled sets
 * prove a downgrade. Text dumps only say what each link runs at; there a
 * link is compared with its peers, links whose ends are known to be the
 * same kind of hardware: the other inter-switch links of both its
 * switches, or the same switch's other links to the same adapter model.
 * A port merely claiming a width (every ibsim port claims 12x) is never
 * evidence: only widths both ends use elsewhere are.
 *
 * A slower link whose slower end is a model that runs no faster anywhere
 * in the fabric (a DDR-only adapter among QDR ones, an FDR switch cabled
 * to an EDR one) is not a fault but a fact worth knowing: an info
 * finding with cause device-limit, never a warning.
 *
 * ibtopo_check_links() also drives the cable checks of check_cable.c so
 * that a cable-underrated finding follows the downgrade it explains.
 */
#include "findings/findings-int.h"
#include "analysis/analysis-int.h"

#include <stdlib.h>
#include <string.h>

/*
 * The two highest values of a group, to answer "the highest value among
 * the OTHER members" for any member in O(1).
 */
struct top2 {
	unsigned max1;	/* highest */
	unsigned n1;	/* members holding max1 */
	unsigned max2;	/* highest below max1, 0 = none */
};

static void top2_add(struct top2 *t, unsigned v)
{
	if (!v)
		return;
	if (v > t->max1) {
		t->max2 = t->max1;
		t->max1 = v;
		t->n1 = 1;
	} else if (v == t->max1) {
		t->n1++;
	} else if (v > t->max2) {
		t->max2 = v;
	}
}

/* Highest value once the `times` entries of value v are taken out. */
static unsigned top2_others(const struct top2 *t, unsigned v, unsigned times)
{
	if (v && v == t->max1 && t->n1 <= times)
		return t->max2;
	return t->max1;
}

static unsigned lanes_to_width(unsigned lanes)
{
	switch (lanes) {
	case 1:
		return IBTOPO_WIDTH_1X;
	case 2:
		return IBTOPO_WIDTH_2X;
	case 4:
		return IBTOPO_WIDTH_4X;
	case 8:
		return IBTOPO_WIDTH_8X;
	case 12:
		return IBTOPO_WIDTH_12X;
	default:
		return 0;
	}
}

static bool is_switch(const struct ibtopo_node *n)
{
	return n->type == IBTOPO_NODE_SWITCH;
}

/* ------------------------------------------------------- adapter model */

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* "mlx5_0" -> length of "mlx5"; 0 when the word is not such a name. */
static size_t hca_name_prefix(const char *w, size_t n)
{
	size_t i = 0, us;

	while (i < n && w[i] >= 'a' && w[i] <= 'z')
		i++;
	if (i == 0)
		return 0;
	while (i < n && w[i] >= '0' && w[i] <= '9')
		i++;
	if (i >= n || w[i] != '_')
		return 0;
	us = i++;
	if (i >= n)
		return 0;
	while (i < n && w[i] >= '0' && w[i] <= '9')
		i++;
	return i == n ? us : 0;
}

uint64_t ibtopo__adapter_model(const struct ibtopo_node *node)
{
	const char *d, *w, *end;
	size_t n;

	if (!node)
		return 0;
	if (node->device_id)
		return (1ull << 63) | ((uint64_t)(node->vendor_id & 0xffffff) << 32) |
		       node->device_id;
	d = node->desc ? node->desc : "";
	end = d + strlen(d);
	while (end > d && end[-1] == ' ')
		end--;
	if (end == d)
		return 0;
	w = end;
	while (w > d && w[-1] != ' ')
		w--;
	n = hca_name_prefix(w, (size_t)(end - w));
	if (n)
		return (fnv1a(w, n) & ~(1ull << 63)) | 1;
	return (fnv1a(d, (size_t)(end - d)) & ~(1ull << 63)) | 1;
}

/* ---------------------------------------------------------- peer tables */

/* What a link's peers say it should run at: a speed bit or lanes, 0 = no
 * evidence, and which comparison said so. */
struct expect {
	unsigned value;
	enum ibtopo_peer_class cls;
};

/* A device model: an adapter model, a switch model, or one switch whose
 * model is unknown. */
struct model {
	unsigned max_speed;	/* the fastest any of its links runs */
	unsigned links;		/* its links (a loopback once) */
	struct top2 host_speed;	/* switch models: links to CAs */
};

struct peers {
	size_t nnodes, nlinks;
	struct top2 *isl_speed;		/* per node: its inter-switch links */
	struct top2 *isl_lanes;
	struct top2 *node_lanes;	/* per node: all its links */
	struct expect *host_speed;	/* per link to a CA */
	struct expect *host_lanes;
	unsigned *sw_host_speed;	/* per link to a CA: the switch's OTHER host links */
	size_t *model_of;		/* per node: index in models, NO_MODEL = unknown */
	struct model *models;
};

#define NO_MODEL ((size_t)-1)

struct host_entry {
	uint64_t model;
	unsigned speed, lanes;
	size_t link;
	unsigned sw_speed, sw_lanes;	/* switch's other host links, any model */
};

static int cmp_host_entry(const void *x, const void *y)
{
	const struct host_entry *a = x, *b = y;

	if (a->model != b->model)
		return a->model < b->model ? -1 : 1;
	return a->link < b->link ? -1 : a->link > b->link;
}

static void peers_release(struct peers *p)
{
	free(p->isl_speed);
	free(p->isl_lanes);
	free(p->node_lanes);
	free(p->host_speed);
	free(p->host_lanes);
	free(p->sw_host_speed);
	free(p->model_of);
	free(p->models);
	memset(p, 0, sizeof(*p));
}

struct model_key {
	int cls;		/* 1 adapter model, 2 switch model, 3 one switch */
	uint64_t key;
	size_t node;
};

static int cmp_model_key(const void *x, const void *y)
{
	const struct model_key *a = x, *b = y;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/*
 * Group nodes by device model: CAs by ibtopo__adapter_model(), switches
 * by vendor and device ID, each switch alone when its device ID is
 * unknown (text dumps made with -p). Then what each model runs.
 */
static int models_build(struct peers *p, const struct ibtopo_fabric *f,
			const uint64_t *ca_model, struct ibtopo_error *err)
{
	struct model_key *k = calloc(p->nnodes + 1, sizeof(*k));
	size_t nk = 0, ng = 0;

	p->model_of = malloc((p->nnodes + 1) * sizeof(*p->model_of));
	p->models = calloc(p->nnodes + 1, sizeof(*p->models));
	if (!k || !p->model_of || !p->models) {
		free(k);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		p->model_of[i] = NO_MODEL;
		if (n->type == IBTOPO_NODE_CA && ca_model[i])
			k[nk++] = (struct model_key){ 1, ca_model[i], i };
		else if (is_switch(n) && n->device_id)
			k[nk++] = (struct model_key){ 2,
				((uint64_t)n->vendor_id << 32) | n->device_id, i };
		else if (is_switch(n))
			k[nk++] = (struct model_key){ 3, i, i };
	}
	qsort(k, nk, sizeof(*k), cmp_model_key);
	for (size_t i = 0; i < nk; i++) {
		if (i && (k[i].cls != k[i - 1].cls || k[i].key != k[i - 1].key))
			ng++;
		p->model_of[k[i].node] = ng;
	}
	for (size_t i = 0; i < p->nlinks; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		size_t ma = p->model_of[l->a->node->index];
		size_t mb = p->model_of[l->b->node->index];

		if (ma != NO_MODEL) {
			p->models[ma].links++;
			if (l->speed > p->models[ma].max_speed)
				p->models[ma].max_speed = l->speed;
		}
		if (mb != NO_MODEL && l->a->node != l->b->node) {
			p->models[mb].links++;
			if (l->speed > p->models[mb].max_speed)
				p->models[mb].max_speed = l->speed;
		}
		if (ma != NO_MODEL && is_switch(l->a->node) &&
		    l->b->node->type == IBTOPO_NODE_CA)
			top2_add(&p->models[ma].host_speed, l->speed);
		if (mb != NO_MODEL && is_switch(l->b->node) &&
		    l->a->node->type == IBTOPO_NODE_CA)
			top2_add(&p->models[mb].host_speed, l->speed);
	}
	free(k);
	return 0;
}

static unsigned lower(unsigned x, unsigned y)
{
	return x < y ? x : y;
}

/*
 * Host links, grouped by switch then by adapter model. A link's evidence
 * is, first, the same switch's other links to the same model; failing
 * that (no such link), both the switch's other host links and the same
 * model's links elsewhere in the fabric must show the faster value.
 */
static void host_groups(struct peers *p, struct host_entry *ent, size_t n,
			bool per_switch)
{
	for (size_t g = 0; g < n;) {
		struct top2 ts = { 0 }, tl = { 0 };
		size_t e = g;

		while (e < n && ent[e].model == ent[g].model) {
			top2_add(&ts, ent[e].speed);
			top2_add(&tl, ent[e].lanes);
			e++;
		}
		for (size_t k = g; k < e; k++) {
			unsigned s = top2_others(&ts, ent[k].speed, 1);
			unsigned l = top2_others(&tl, ent[k].lanes, 1);
			struct expect *xs = &p->host_speed[ent[k].link];
			struct expect *xl = &p->host_lanes[ent[k].link];

			if (per_switch) {
				if (s) {
					xs->value = s;
					xs->cls = IBTOPO_PEER_HOSTS;
				}
				if (l) {
					xl->value = l;
					xl->cls = IBTOPO_PEER_HOSTS;
				}
				continue;
			}
			if (!xs->value && s && ent[k].sw_speed) {
				xs->value = lower(s, ent[k].sw_speed);
				xs->cls = IBTOPO_PEER_MODEL;
			}
			if (!xl->value && l && ent[k].sw_lanes) {
				xl->value = lower(l, ent[k].sw_lanes);
				xl->cls = IBTOPO_PEER_MODEL;
			}
		}
		g = e;
	}
}

static int peers_build(struct peers *p, const struct ibtopo_fabric *f,
		       struct ibtopo_error *err)
{
	struct host_entry *ent = NULL;
	uint64_t *model = NULL;
	size_t nent = 0;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->nnodes = ibtopo_fabric_node_count(f);
	p->nlinks = ibtopo_fabric_link_count(f);
	p->isl_speed = calloc(p->nnodes + 1, sizeof(*p->isl_speed));
	p->isl_lanes = calloc(p->nnodes + 1, sizeof(*p->isl_lanes));
	p->node_lanes = calloc(p->nnodes + 1, sizeof(*p->node_lanes));
	p->host_speed = calloc(p->nlinks + 1, sizeof(*p->host_speed));
	p->host_lanes = calloc(p->nlinks + 1, sizeof(*p->host_lanes));
	p->sw_host_speed = calloc(p->nlinks + 1, sizeof(*p->sw_host_speed));
	model = calloc(p->nnodes + 1, sizeof(*model));
	ent = calloc(p->nlinks + 1, sizeof(*ent));
	if (!p->isl_speed || !p->isl_lanes || !p->node_lanes || !p->host_speed ||
	    !p->host_lanes || !p->sw_host_speed || !model || !ent) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->index != i) {
			rc = ibtopo__error_set(err, IBTOPO_EINVAL,
					       "fabric node index out of order");
			goto out_free;
		}
		if (n->type == IBTOPO_NODE_CA)
			model[i] = ibtopo__adapter_model(n);
	}
	for (size_t i = 0; i < p->nlinks; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a = l->a->node, *b = l->b->node;
		unsigned lanes = ibtopo_width_lanes(l->width);

		if (l->index != i) {
			rc = ibtopo__error_set(err, IBTOPO_EINVAL,
					       "fabric link index out of order");
			goto out_free;
		}
		top2_add(&p->node_lanes[a->index], lanes);
		top2_add(&p->node_lanes[b->index], lanes);
		if (is_switch(a) && is_switch(b)) {
			top2_add(&p->isl_speed[a->index], l->speed);
			top2_add(&p->isl_speed[b->index], l->speed);
			top2_add(&p->isl_lanes[a->index], lanes);
			top2_add(&p->isl_lanes[b->index], lanes);
		}
	}
	/* Per switch: its host links, by model, then all of them. */
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct ibtopo_node *s = ibtopo_fabric_node(f, i);
		struct top2 all_s = { 0 }, all_l = { 0 };
		size_t first = nent;

		if (!is_switch(s))
			continue;
		for (unsigned k = 1; k <= s->nports; k++) {
			const struct ibtopo_port *pt = s->ports[k];
			struct host_entry *e;

			if (!pt || !pt->remote || !pt->link ||
			    pt->remote->node->type != IBTOPO_NODE_CA)
				continue;
			e = &ent[nent++];
			e->model = model[pt->remote->node->index];
			e->speed = pt->link->speed;
			e->lanes = ibtopo_width_lanes(pt->link->width);
			e->link = pt->link->index;
			top2_add(&all_s, e->speed);
			top2_add(&all_l, e->lanes);
		}
		for (size_t k = first; k < nent; k++) {
			ent[k].sw_speed = top2_others(&all_s, ent[k].speed, 1);
			ent[k].sw_lanes = top2_others(&all_l, ent[k].lanes, 1);
			p->sw_host_speed[ent[k].link] = ent[k].sw_speed;
		}
		/* unknown models (0) compare with nothing */
		for (size_t k = first; k < nent;) {
			if (ent[k].model)
				k++;
			else
				ent[k] = ent[--nent];
		}
		qsort(ent + first, nent - first, sizeof(*ent), cmp_host_entry);
		host_groups(p, ent + first, nent - first, true);
	}
	/* The fallback: the same model anywhere else. */
	qsort(ent, nent, sizeof(*ent), cmp_host_entry);
	host_groups(p, ent, nent, false);
	rc = models_build(p, f, model, err);
out_free:
	free(ent);
	free(model);
	if (rc)
		peers_release(p);
	return rc;
}

/* What the peers say a link should run at (speed bit and lanes). */
static void peer_expect(const struct peers *p, const struct ibtopo_link *l,
			struct expect *speed, struct expect *lanes)
{
	const struct ibtopo_node *a = l->a->node, *b = l->b->node;
	unsigned my_lanes = ibtopo_width_lanes(l->width);

	memset(speed, 0, sizeof(*speed));
	memset(lanes, 0, sizeof(*lanes));
	if (a == b)
		return;		/* a loopback has no peers */
	if (is_switch(a) && is_switch(b)) {
		unsigned sa = top2_others(&p->isl_speed[a->index], l->speed, 1);
		unsigned sb = top2_others(&p->isl_speed[b->index], l->speed, 1);
		unsigned la = top2_others(&p->isl_lanes[a->index], my_lanes, 1);
		unsigned lb = top2_others(&p->isl_lanes[b->index], my_lanes, 1);

		/* Both switches must show it: one alone proves nothing. */
		if (sa && sb) {
			speed->value = lower(sa, sb);
			speed->cls = IBTOPO_PEER_SWITCHES;
		}
		if (la && lb) {
			lanes->value = lower(la, lb);
			lanes->cls = IBTOPO_PEER_SWITCHES;
		}
		return;
	}
	if ((is_switch(a) && b->type == IBTOPO_NODE_CA) ||
	    (is_switch(b) && a->type == IBTOPO_NODE_CA)) {
		*speed = p->host_speed[l->index];
		*lanes = p->host_lanes[l->index];
	}
}

/* ---------------------------------------------------------------- checks */


/* Enabled speeds of both ends within `set` (an unknown enabled set is all). */
static unsigned enabled_within(const struct ibtopo_link *l, unsigned set,
			       bool speed, bool *known)
{
	unsigned ea = speed ? l->a->speed_enabled : l->a->width_enabled;
	unsigned eb = speed ? l->b->speed_enabled : l->b->width_enabled;

	*known = ea || eb;
	if (ea)
		set &= ea;
	if (eb)
		set &= eb;
	return set;
}

/* The model of n when it never runs faster than `speed` on 2 links or more. */
static bool model_limits(const struct peers *p, const struct ibtopo_node *n,
			 unsigned speed, unsigned *links)
{
	size_t m = p->model_of[n->index];

	if (m == NO_MODEL || p->models[m].links < 2 ||
	    p->models[m].max_speed > speed)
		return false;
	*links = p->models[m].links;
	return true;
}

static int add_slow_link(struct ibtopo_findings *out, const struct ibtopo_link *l,
			 unsigned expected, enum ibtopo_peer_class cls,
			 const struct ibtopo_node *limit, unsigned links,
			 struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	ibtopo__finding_init_link(&f, IBTOPO_FIND_SPEED_DOWNGRADE, l);
	f.severity = IBTOPO_SEV_INFO;
	f.num.rate.expected = expected;
	f.num.rate.active = l->speed;
	f.evidence = IBTOPO_EVIDENCE_PEERS;
	f.subkind = (int)cls;
	if (limit) {
		f.cause = IBTOPO_CAUSE_DEVICE_LIMIT;
		f.c.node = limit->desc;
		f.c.guid = limit->guid;
		f.num.rate.model_links = links;
		if (limit->device_id) {
			f.vendor_id = limit->vendor_id;
			f.device_id = limit->device_id;
		}
	} else {
		unsigned rated = l->cable ? l->cable->rated_speed : 0;
		const struct ibtopo_node *ca =
			is_switch(l->a->node) ? l->b->node : l->a->node;

		f.cause = rated && rated < expected ? IBTOPO_CAUSE_CABLE :
						      IBTOPO_CAUSE_UNKNOWN;
		/* the adapter's IDs: without them its model is a guess */
		f.vendor_id = ca->vendor_id;
		f.device_id = ca->device_id;
	}
	return ibtopo_findings_add(out, &f, err);
}

/*
 * A link slower than its class runs, where the peer rule found no fault:
 * - a host link below the switch's other host links (else below what
 *   switches of the same model run to their hosts) whose adapter model
 *   runs no faster on any of its links (2 or more): device-limit;
 * - the same below the switch's other host links, when the adapter's
 *   model has no other link to tell: cause unknown;
 * - an inter-switch link below one switch's other inter-switch links
 *   whose other switch's model runs no faster anywhere: device-limit.
 * All info: nothing here is proven to be wrong.
 */
static int check_device_limit(struct ibtopo_findings *out,
			      const struct ibtopo_link *l, const struct peers *p,
			      unsigned *capable, struct ibtopo_error *err)
{
	const struct ibtopo_node *a = l->a->node, *b = l->b->node, *sw, *ca;
	unsigned v = l->speed, links = 0, expected;
	enum ibtopo_peer_class cls;
	size_t m;

	if (a == b)
		return 0;
	if (is_switch(a) && is_switch(b)) {
		unsigned oa = top2_others(&p->isl_speed[a->index], v, 1);
		unsigned ob = top2_others(&p->isl_speed[b->index], v, 1);
		const struct ibtopo_node *slow;

		if (oa > v && ob <= v) {
			slow = b;
			expected = oa;
		} else if (ob > v && oa <= v) {
			slow = a;
			expected = ob;
		} else {
			return 0;
		}
		if (!model_limits(p, slow, v, &links))
			return 0;
		return add_slow_link(out, l, expected, IBTOPO_PEER_SWITCHES,
				     slow, links, err);
	}
	if (is_switch(a) && b->type == IBTOPO_NODE_CA) {
		sw = a;
		ca = b;
	} else if (is_switch(b) && a->type == IBTOPO_NODE_CA) {
		sw = b;
		ca = a;
	} else {
		return 0;
	}
	m = p->model_of[sw->index];
	expected = p->sw_host_speed[l->index];
	cls = IBTOPO_PEER_HOSTS;
	if (expected <= v && m != NO_MODEL) {
		expected = top2_others(&p->models[m].host_speed, v, 1);
		cls = IBTOPO_PEER_SWITCH_MODEL;
	}
	if (expected <= v)
		return 0;
	if (model_limits(p, ca, v, &links))
		return add_slow_link(out, l, expected, cls, ca, links, err);
	m = p->model_of[ca->index];
	if (cls != IBTOPO_PEER_HOSTS || (m != NO_MODEL && p->models[m].links > 1))
		return 0;
	*capable = expected;
	return add_slow_link(out, l, expected, cls, NULL, 0, err);
}

static int check_speed(struct ibtopo_findings *out, const struct ibtopo_link *l,
		       const struct peers *p, unsigned *capable,
		       struct ibtopo_error *err)
{
	const struct ibtopo_port *a = l->a, *b = l->b;
	unsigned rated = l->cable ? l->cable->rated_speed : 0;
	struct ibtopo_finding f;

	*capable = 0;
	if (a->speed_supported && b->speed_supported) {
		unsigned common = a->speed_supported & b->speed_supported;
		unsigned expected = ibtopo_speed_highest(common);
		bool known;

		*capable = expected;
		if (!l->speed || !expected || l->speed >= expected)
			return 0;
		ibtopo__finding_init_link(&f, IBTOPO_FIND_SPEED_DOWNGRADE, l);
		f.num.rate.expected = expected;
		f.num.rate.active = l->speed;
		f.evidence = IBTOPO_EVIDENCE_PORT_INFO;
		if (rated && rated < expected)
			f.cause = IBTOPO_CAUSE_CABLE;
		else if (ibtopo_speed_highest(enabled_within(l, common, true, &known)) <
				 expected && known)
			f.cause = IBTOPO_CAUSE_PORT_CONFIG;
		else
			f.cause = IBTOPO_CAUSE_UNKNOWN;
		return ibtopo_findings_add(out, &f, err);
	} else {
		struct expect speed, lanes;

		peer_expect(p, l, &speed, &lanes);
		*capable = speed.value > l->speed ? speed.value : l->speed;
		if (!l->speed)
			return 0;
		if (!speed.value || l->speed >= speed.value)
			return check_device_limit(out, l, p, capable, err);
		ibtopo__finding_init_link(&f, IBTOPO_FIND_SPEED_DOWNGRADE, l);
		f.severity = IBTOPO_SEV_WARNING;
		f.num.rate.expected = speed.value;
		f.num.rate.active = l->speed;
		f.evidence = IBTOPO_EVIDENCE_PEERS;
		f.subkind = (int)speed.cls;
		f.cause = rated && rated < speed.value ? IBTOPO_CAUSE_CABLE :
							 IBTOPO_CAUSE_UNKNOWN;
		return ibtopo_findings_add(out, &f, err);
	}
}

static int check_width(struct ibtopo_findings *out, const struct ibtopo_link *l,
		       const struct peers *p, struct ibtopo_error *err)
{
	const struct ibtopo_port *a = l->a, *b = l->b;
	unsigned active = ibtopo_width_lanes(l->width), expected = 0;
	enum ibtopo_peer_class cls = IBTOPO_PEER_NONE;
	struct ibtopo_finding f;
	bool known;

	if (!active)
		return 0;
	if (a->width_supported && b->width_supported) {
		unsigned common = a->width_supported & b->width_supported;

		if ((common & IBTOPO_WIDTH_4X) && active < 4) {
			ibtopo__finding_init_link(&f, IBTOPO_FIND_WIDTH_DOWNGRADE, l);
			f.num.rate.expected = IBTOPO_WIDTH_4X;
			f.num.rate.active = l->width;
			f.evidence = IBTOPO_EVIDENCE_PORT_INFO;
			f.cause = !(enabled_within(l, common, false, &known) &
				    IBTOPO_WIDTH_4X) && known ?
				IBTOPO_CAUSE_PORT_CONFIG : IBTOPO_CAUSE_UNKNOWN;
			return ibtopo_findings_add(out, &f, err);
		}
		/* 8x/12x only where both nodes run it on their other links. */
		if (a->node != b->node) {
			unsigned wa = top2_others(&p->node_lanes[a->node->index],
						  active, 1);
			unsigned wb = top2_others(&p->node_lanes[b->node->index],
						  active, 1);

			expected = wa < wb ? wa : wb;
		}
		if (expected < 8 || active >= expected ||
		    !(common & lanes_to_width(expected)))
			return 0;
	} else {
		struct expect speed, lanes;

		peer_expect(p, l, &speed, &lanes);
		expected = lanes.value;
		cls = lanes.cls;
		if (!expected || active >= expected)
			return 0;
	}
	ibtopo__finding_init_link(&f, IBTOPO_FIND_WIDTH_DOWNGRADE, l);
	f.severity = IBTOPO_SEV_WARNING;
	f.num.rate.expected = lanes_to_width(expected);
	f.num.rate.active = l->width;
	f.evidence = IBTOPO_EVIDENCE_PEERS;
	f.cause = IBTOPO_CAUSE_UNKNOWN;
	f.subkind = (int)cls;
	return ibtopo_findings_add(out, &f, err);
}

int ibtopo__check_links_run(struct ibtopo_findings *out,
			    const struct ibtopo_fabric *fabric,
			    const struct ibtopo_check_opts *opts,
			    const struct ibtopo__reach *reach,
			    struct ibtopo_error *err)
{
	struct peers peers;
	size_t n;
	int rc;

	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or findings list");
	rc = ibtopo__check_opts_check(opts, err);
	if (rc)
		return rc;
	rc = peers_build(&peers, fabric, err);
	if (rc)
		return rc;
	rc = ibtopo__check_ports(out, fabric, err);
	n = ibtopo_fabric_link_count(fabric);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);
		unsigned capable = 0;

		rc = check_speed(out, l, &peers, &capable, err);
		if (rc == 0)
			rc = ibtopo__check_cable_rating(out, l, capable, err);
		if (rc == 0)
			rc = check_width(out, l, &peers, err);
		if (rc == 0)
			rc = ibtopo__check_cable_length(out, l, reach, err);
		if (rc == 0)
			rc = ibtopo__check_loopback(out, l, err);
		if (rc == 0)
			rc = ibtopo__check_link_caps(out, l, err);
	}
	peers_release(&peers);
	return rc;
}

/*
 * The rate each link could run at, the one rule every output follows:
 * its active speed and width, unless a speed- or width-downgrade finding
 * of warning or error says what it should run at (an info one does not:
 * a device-limit end runs no faster anywhere, a lone slow adapter proves
 * nothing). So `rate < possible` is exactly a link the checks call
 * downgraded. Two entries a link: speed bit, width bit.
 */
static int possible_build(struct ibtopo_analysis *an,
			  const struct ibtopo_findings *found,
			  struct ibtopo_error *err)
{
	size_t nl = ibtopo_fabric_link_count(an->fabric);
	unsigned *p = calloc(2 * (nl ? nl : 1), sizeof(*p));

	if (!p)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(an->fabric, i);

		p[2 * i] = l->speed;
		p[2 * i + 1] = l->width;
	}
	for (size_t i = 0; i < found->count; i++) {
		const struct ibtopo_finding *f = &found->items[i];
		bool speed = f->kind == IBTOPO_FIND_SPEED_DOWNGRADE;
		const struct ibtopo_node *n;
		const struct ibtopo_port *port = NULL;

		if ((!speed && f->kind != IBTOPO_FIND_WIDTH_DOWNGRADE) ||
		    f->severity < IBTOPO_SEV_WARNING || f->a.port < 0)
			continue;
		n = ibtopo_fabric_find_node(an->fabric, f->a.guid);
		if (n && (unsigned)f->a.port <= n->nports)
			port = n->ports[f->a.port];
		if (port && port->link && port->link->index < nl)
			p[2 * port->link->index + !speed] =
				f->num.rate.expected;
	}
	an->links = p;
	return 0;
}

static int run_links(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		     struct ibtopo_error *err)
{
	int rc = ibtopo__check_links_run(found, an->fabric, &an->opts.checks,
					 an->inputs.reach, err);

	/* what the subnet manager needs unique: not link checks, so not
	 * ibtopo_check_links()'s, but the same section of the analysis */
	if (!rc)
		rc = ibtopo__check_subnet(found, an->fabric, err);
	return rc ? rc : possible_build(an, found, err);
}

static void release_links(struct ibtopo_analysis *an)
{
	free(an->links);
	an->links = NULL;
}

int ibtopo_analysis_link_possible(struct ibtopo_analysis *an,
				  const struct ibtopo_link *link,
				  unsigned *speed, unsigned *width,
				  struct ibtopo_error *err)
{
	int rc;

	if (!an || !link || !speed || !width)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no analysis or link");
	*speed = link->speed;
	*width = link->width;
	rc = ibtopo__analysis_need(an, IBTOPO__SECTION_LINKS, err);
	if (!rc && an->links &&
	    link->index < ibtopo_fabric_link_count(an->fabric) &&
	    ibtopo_fabric_link(an->fabric, link->index) == link) {
		*speed = an->links[2 * link->index];
		*width = an->links[2 * link->index + 1];
	}
	return rc;
}

const struct ibtopo__analysis ibtopo__analysis_links = {
	.name = "links",
	.skip = IBTOPO_ANALYZE_NO_CHECKS,
	.inputs = IBTOPO__INPUT_REACH,
	.run = run_links,
	.release = release_links,
};

/* The public entry point: the reach table read, then the checks. */
int ibtopo_check_links(struct ibtopo_findings *out,
		       const struct ibtopo_fabric *fabric,
		       const struct ibtopo_check_opts *opts,
		       struct ibtopo_error *err)
{
	struct ibtopo__inputs in = { 0 };
	int rc;

	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or findings list");
	rc = ibtopo__inputs_reach(&in, opts, NULL, err);
	if (!rc)
		rc = ibtopo__check_links_run(out, fabric, opts, in.reach, err);
	ibtopo__inputs_release(&in);
	return rc;
}

/* the link checks' findings: the section's public face */
IBTOPO__ACCESSOR(ibtopo_analysis_links, LINKS, const struct ibtopo_findings,
		 &an->slots[IBTOPO__SECTION_LINKS].findings)
