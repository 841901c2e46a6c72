/*
 * plan.c - planned topologies: a fat tree built from its parameters, and
 * the writer of plan files (ibnetdiscover text with names where GUIDs
 * would be and the planned speed and width in each port's trailer) and of
 * ibsim net files that simulate the plan.
 */
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_RADIX 40

/* ---- building ---- */

/*
 * A stable GUID for a planned node from its name (64-bit FNV-1a), so the
 * same plan always yields the same fabric. Kept clear of the OUI range by
 * setting the locally administered bit of the top byte.
 */
static uint64_t plan_guid(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		h ^= *s;
		h *= 0x100000001b3ull;
	}
	return h | 0x0200000000000000ull;
}

struct builder {
	struct ibtopo_fabric *f;
	unsigned speed, width;
	struct ibtopo_error *err;
};

static unsigned digits(unsigned n)
{
	unsigned d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static int add_named(struct builder *b, struct ibtopo_node **out,
		     enum ibtopo_node_type type, unsigned nports,
		     const char *prefix, unsigned width, unsigned num)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%0*u", prefix, (int)width, num);
	return ibtopo_fabric_add_node(out, b->f, type, plan_guid(name),
				      nports, name, b->err);
}

static int cable(struct builder *b, struct ibtopo_node *x, unsigned px,
		 struct ibtopo_node *y, unsigned py)
{
	struct ibtopo_port *a, *c;
	int rc;

	rc = ibtopo_node_add_port(&a, b->f, x, px, b->err);
	if (!rc)
		rc = ibtopo_node_add_port(&c, b->f, y, py, b->err);
	if (rc)
		return rc;
	a->speed_active = c->speed_active = (uint16_t)b->speed;
	a->width_active = c->width_active = (uint8_t)b->width;
	a->state = c->state = IBTOPO_PORT_STATE_ACTIVE;
	return ibtopo_fabric_connect(NULL, b->f, a, c, b->err);
}

static int check_params(struct ibtopo_plan_params *q, struct ibtopo_error *err)
{
	unsigned per_spine, down;

	if (q->levels != 2 && q->levels != 3)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"levels %u: a planned fat tree has 2 or 3 levels", q->levels);
	if (!q->leaves || !q->spines || !q->hosts_per_leaf)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--%s' must be at least 1",
			!q->leaves ? "leaves" : !q->spines ? "spines" : "hosts-per-leaf");
	if (q->levels == 3 && !q->pods)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--pods' must be at least 1 for a 3-level fat tree");
	if (q->levels == 2 && q->pods > 1)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--pods' needs '--levels 3'");
	if (q->radix < 2 || q->radix > 255)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--radix %u' out of range (2-255 ports)", q->radix);
	if (q->hosts_per_leaf + q->uplinks > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"leaves need %u ports (%u hosts + %u uplinks) but the radix is %u",
			q->hosts_per_leaf + q->uplinks, q->hosts_per_leaf,
			q->uplinks, q->radix);
	if (q->uplinks % q->spines)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--uplinks %u' is not a multiple of '--spines %u': every leaf "
			"needs the same number of cables to each spine",
			q->uplinks, q->spines);
	per_spine = q->uplinks / q->spines;
	down = q->leaves * per_spine;
	if (down > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"spines need %u ports (%u leaves x %u cables) but the radix is %u",
			down, q->leaves, per_spine, q->radix);
	if (q->levels == 3) {
		if (2 * down > q->radix)
			return ibtopo__error_set(err, IBTOPO_EINVAL,
				"pod spines need %u ports (%u down to leaves, as many up "
				"to cores) but the radix is %u", 2 * down, down, q->radix);
		if (q->pods > q->radix)
			return ibtopo__error_set(err, IBTOPO_EINVAL,
				"core switches need %u ports (one per pod) but the "
				"radix is %u", q->pods, q->radix);
	}
	if (ibtopo_speed_lane_gbps(q->speed) <= 0)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned speed");
	if (!ibtopo_width_lanes(q->width))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned width");
	return 0;
}

static int build(struct builder *b, const struct ibtopo_plan_params *q)
{
	unsigned pods = q->levels == 3 ? q->pods : 1;
	unsigned per_spine = q->uplinks / q->spines;
	unsigned down = q->leaves * per_spine;
	unsigned nleaves = pods * q->leaves, nspines = pods * q->spines;
	unsigned ncores = q->levels == 3 ? q->spines * down : 0;
	unsigned nhosts = nleaves * q->hosts_per_leaf;
	unsigned wl = digits(nleaves), ws = digits(nspines), wc = digits(ncores);
	unsigned wh = digits(nhosts);
	struct ibtopo_node **leaf, **spine, **core = NULL;
	int rc = IBTOPO_ENOMEM;

	wl = wl < 2 ? 2 : wl;
	ws = ws < 2 ? 2 : ws;
	wc = wc < 2 ? 2 : wc;
	wh = wh < 3 ? 3 : wh;
	leaf = calloc(nleaves, sizeof(*leaf));
	spine = calloc(nspines, sizeof(*spine));
	if (ncores)
		core = calloc(ncores, sizeof(*core));
	if (!leaf || !spine || (ncores && !core)) {
		rc = ibtopo__error_set(b->err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	rc = 0;
	for (unsigned i = 0; i < nleaves && !rc; i++)
		rc = add_named(b, &leaf[i], IBTOPO_NODE_SWITCH, q->radix, "leaf",
			       wl, i + 1);
	for (unsigned i = 0; i < nspines && !rc; i++)
		rc = add_named(b, &spine[i], IBTOPO_NODE_SWITCH, q->radix, "spine",
			       ws, i + 1);
	for (unsigned i = 0; i < ncores && !rc; i++)
		rc = add_named(b, &core[i], IBTOPO_NODE_SWITCH, q->radix, "core",
			       wc, i + 1);
	for (unsigned i = 0; i < nleaves && !rc; i++) {
		unsigned pod = i / q->leaves, l = i % q->leaves;

		for (unsigned h = 0; h < q->hosts_per_leaf && !rc; h++) {
			struct ibtopo_node *host;

			rc = add_named(b, &host, IBTOPO_NODE_CA, 1, "host", wh,
				       i * q->hosts_per_leaf + h + 1);
			if (!rc)
				rc = cable(b, leaf[i], h + 1, host, 1);
		}
		/* uplink k goes to spine k mod S of the pod */
		for (unsigned k = 0; k < q->uplinks && !rc; k++)
			rc = cable(b, leaf[i], q->hosts_per_leaf + k + 1,
				   spine[pod * q->spines + k % q->spines],
				   l * per_spine + k / q->spines + 1);
	}
	/* pod spine s has `down` cables up, one to each core of group s */
	for (unsigned i = 0; i < nspines && ncores && !rc; i++) {
		unsigned pod = i / q->spines, s = i % q->spines;

		for (unsigned k = 0; k < down && !rc; k++)
			rc = cable(b, spine[i], down + k + 1, core[s * down + k],
				   pod + 1);
	}
out_free:
	free(core);
	free(spine);
	free(leaf);
	return rc;
}

int ibtopo_plan_fat_tree(struct ibtopo_fabric **out,
			 const struct ibtopo_plan_params *p,
			 struct ibtopo_error *err)
{
	struct ibtopo_plan_params q;
	struct builder b = { .err = err };
	int rc;

	if (!out || !p)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no plan parameters");
	*out = NULL;
	q = *p;
	if (!q.levels)
		q.levels = 2;
	if (!q.radix)
		q.radix = DEFAULT_RADIX;
	if (!q.uplinks)
		q.uplinks = q.hosts_per_leaf;
	if (!q.speed)
		q.speed = IBTOPO_SPEED_HDR;
	if (!q.width)
		q.width = IBTOPO_WIDTH_4X;
	rc = check_params(&q, err);
	if (rc)
		return rc;
	rc = ibtopo_fabric_new(&b.f, err);
	if (rc)
		return rc;
	b.speed = q.speed;
	b.width = q.width;
	rc = build(&b, &q);
	if (!rc)
		rc = ibtopo_fabric_set_source(b.f, "plan:fat-tree", err);
	if (rc) {
		ibtopo_fabric_free(b.f);
		return rc;
	}
	*out = b.f;
	return 0;
}
