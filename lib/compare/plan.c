/*
 * plan.c - planned topologies: a fat tree, a rail-optimized or a
 * Dragonfly+ fabric built from its parameters, and the writer of plan files (ibnetdiscover text
 * with names where GUIDs would be and the planned speed and width in each
 * port's trailer) and of ibsim net files that simulate the plan.
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_RADIX 40

/* ---- building ---- */

struct builder {
	struct ibtopo_fabric *f;
	unsigned speed, width;
	struct ibtopo_error *err;
	struct ibtopo_node **leaf, **spine, **core; /* freed by plan_done() */
};

/* The digits of n, at least `min` (names of one width sort) */
static unsigned digits(unsigned n, unsigned min)
{
	unsigned d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d < min ? min : d;
}

/* The builder's arrays of nleaves leaves, nspines spines and ncores
 * cores (0: none). */
static int switch_arrays(struct builder *b, size_t nleaves, size_t nspines,
			 size_t ncores)
{
	b->leaf = calloc(nleaves, sizeof(*b->leaf));
	b->spine = calloc(nspines, sizeof(*b->spine));
	if (ncores)
		b->core = calloc(ncores, sizeof(*b->core));
	if (!b->leaf || !b->spine || (ncores && !b->core))
		return ibtopo__error_set(b->err, IBTOPO_ENOMEM, "out of memory");
	return 0;
}

static int add_named(struct builder *b, struct ibtopo_node **out,
		     enum ibtopo_node_type type, unsigned nports,
		     const char *prefix, unsigned width, unsigned num)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%0*u", prefix, (int)width, num);
	return ibtopo_fabric_add_node(out, b->f, type, ibtopo_name_guid(name),
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

/*
 * The start of a plan call: out and the parameters given (have_p), the
 * parameters' version the one this library knows (want 0: not asked).
 */
static int plan_open(struct ibtopo_fabric **out, bool have_p, unsigned version,
		     unsigned want, struct ibtopo_error *err)
{
	if (!out || !have_p)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no plan parameters");
	*out = NULL;
	if (want && version != want)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown plan parameters version %u",
					 version);
	return 0;
}

/* Planned speed and width: HDR and 4x unless given. */
static void rate_defaults(unsigned *speed, unsigned *width)
{
	if (!*speed)
		*speed = IBTOPO_SPEED_HDR;
	if (!*width)
		*width = IBTOPO_WIDTH_4X;
}

/* A new fabric in b for cables at `speed` and `width`. */
static int plan_new(struct builder *b, unsigned speed, unsigned width)
{
	b->speed = speed;
	b->width = width;
	return ibtopo_fabric_new(&b->f, b->err);
}

/* The end of a plan call: the fabric built (rc 0) named `source` into
 * *out, else freed. */
static int plan_done(struct ibtopo_fabric **out, struct builder *b, int rc,
		     const char *source)
{
	if (!rc)
		rc = ibtopo_fabric_set_source(b->f, source, b->err);
	free(b->core);
	free(b->spine);
	free(b->leaf);
	if (rc) {
		ibtopo_fabric_free(b->f);
		return rc;
	}
	*out = b->f;
	return 0;
}

/* Leaf number i's hosts: host<n> on its first hosts_per_leaf ports. */
static int add_hosts(struct builder *b, struct ibtopo_node *leaf, unsigned i,
		     unsigned hosts_per_leaf, unsigned wh)
{
	int rc = 0;

	for (unsigned h = 0; h < hosts_per_leaf && !rc; h++) {
		struct ibtopo_node *host;

		rc = add_named(b, &host, IBTOPO_NODE_CA, 1, "host", wh,
			       i * hosts_per_leaf + h + 1);
		if (!rc)
			rc = cable(b, leaf, h + 1, host, 1);
	}
	return rc;
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
			"leaves need %u ports (%u host%s + %u uplink%s) but the radix is %u",
			q->hosts_per_leaf + q->uplinks, q->hosts_per_leaf,
			q->hosts_per_leaf == 1 ? "" : "s", q->uplinks,
			q->uplinks == 1 ? "" : "s", q->radix);
	if (q->uplinks % q->spines)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--uplinks %u' is not a multiple of '--spines %u': every leaf "
			"needs the same number of cables to each spine",
			q->uplinks, q->spines);
	per_spine = q->uplinks / q->spines;
	down = q->leaves * per_spine;
	if (down > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"spines need %u ports (%u lea%s x %u cable%s) but the radix is %u",
			down, q->leaves, q->leaves == 1 ? "f" : "ves", per_spine,
			per_spine == 1 ? "" : "s", q->radix);
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
	unsigned wl = digits(nleaves, 2), ws = digits(nspines, 2);
	unsigned wc = digits(ncores, 2), wh = digits(nhosts, 3);
	int rc = switch_arrays(b, nleaves, nspines, ncores);
	struct ibtopo_node **leaf = b->leaf, **spine = b->spine, **core = b->core;

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

		rc = add_hosts(b, leaf[i], i, q->hosts_per_leaf, wh);
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
	return rc;
}

/* ---- rail-optimized ---- */

static int check_rails(const struct ibtopo_plan_rail_params *q,
		       struct ibtopo_error *err)
{
	unsigned units, per_spine;

	if (!q->servers || !q->rails || !q->spines || !q->unit)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--%s' must be at least 1",
			!q->servers ? "servers" : !q->rails ? "rails" :
			!q->spines ? "spines" : "unit");
	if (q->rails > 64)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--rails %u': at most 64 HCAs per server", q->rails);
	if (q->radix < 2 || q->radix > 255)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--radix %u' out of range (2-255 ports)", q->radix);
	if (q->unit + q->uplinks > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"leaves need %u ports (%u server%s + %u uplink%s) but the radix is %u",
			q->unit + q->uplinks, q->unit, q->unit == 1 ? "" : "s",
			q->uplinks, q->uplinks == 1 ? "" : "s", q->radix);
	if (q->uplinks % q->spines)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--uplinks %u' is not a multiple of '--spines %u': every leaf "
			"needs the same number of cables to each spine",
			q->uplinks, q->spines);
	units = (q->servers + q->unit - 1) / q->unit;
	per_spine = q->uplinks / q->spines;
	if ((unsigned long)units * q->rails * per_spine > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"spines need %lu ports (%u lea%s x %u cable%s) but the radix is %u",
			(unsigned long)units * q->rails * per_spine,
			units * q->rails, units * q->rails == 1 ? "f" : "ves",
			per_spine, per_spine == 1 ? "" : "s", q->radix);
	if (ibtopo_speed_lane_gbps(q->speed) <= 0)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned speed");
	if (!ibtopo_width_lanes(q->width))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned width");
	return 0;
}

static int build_rails(struct builder *b, const struct ibtopo_plan_rail_params *q)
{
	unsigned units = (q->servers + q->unit - 1) / q->unit;
	unsigned nleaves = units * q->rails, per_spine = q->uplinks / q->spines;
	unsigned wu = digits(units, 2), ws = digits(q->spines, 2);
	unsigned wh = digits(q->servers, 3);
	int rc = switch_arrays(b, nleaves, q->spines, 0);
	struct ibtopo_node **leaf = b->leaf, **spine = b->spine;

	for (unsigned i = 0; i < nleaves && !rc; i++) {
		char name[64];

		snprintf(name, sizeof(name), "rail%u-su%0*u", i % q->rails + 1,
			 (int)wu, i / q->rails + 1);
		rc = ibtopo_fabric_add_node(&leaf[i], b->f, IBTOPO_NODE_SWITCH,
					    ibtopo_name_guid(name), q->radix, name,
					    b->err);
	}
	for (unsigned i = 0; i < q->spines && !rc; i++)
		rc = add_named(b, &spine[i], IBTOPO_NODE_SWITCH, q->radix, "spine",
			       ws, i + 1);
	for (unsigned s = 0; s < q->servers && !rc; s++) {
		unsigned u = s / q->unit, j = s % q->unit;
		uint64_t sysimg = 0;

		for (unsigned k = 0; k < q->rails && !rc; k++) {
			struct ibtopo_node *hca;
			char name[64];

			snprintf(name, sizeof(name), "dgx%0*u mlx5_%u", (int)wh,
				 s + 1, k);
			rc = ibtopo_fabric_add_node(&hca, b->f, IBTOPO_NODE_CA,
						    ibtopo_name_guid(name), 1, name,
						    b->err);
			if (rc)
				break;
			/* one server: the HCAs share a system image GUID */
			if (!sysimg)
				sysimg = hca->guid;
			hca->sysimg_guid = sysimg;
			rc = cable(b, leaf[u * q->rails + k], j + 1, hca, 1);
		}
	}
	for (unsigned i = 0; i < nleaves && !rc; i++)
		for (unsigned k = 0; k < q->uplinks && !rc; k++)
			rc = cable(b, leaf[i], q->unit + k + 1,
				   spine[k % q->spines],
				   i * per_spine + k / q->spines + 1);
	return rc;
}

int ibtopo_plan_rail_optimized(struct ibtopo_fabric **out,
			       const struct ibtopo_plan_rail_params *p,
			       struct ibtopo_error *err)
{
	struct ibtopo_plan_rail_params q;
	struct builder b = { .err = err };
	int rc;

	rc = plan_open(out, p != NULL, p ? p->version : 0,
		       IBTOPO_PLAN_RAIL_PARAMS_VERSION, err);
	if (rc)
		return rc;
	q = *p;
	if (!q.radix)
		q.radix = DEFAULT_RADIX;
	if (!q.unit)
		q.unit = q.radix / 2;
	if (!q.uplinks)
		q.uplinks = q.unit;
	rate_defaults(&q.speed, &q.width);
	rc = check_rails(&q, err);
	if (!rc)
		rc = plan_new(&b, q.speed, q.width);
	if (!rc)
		rc = plan_done(out, &b, build_rails(&b, &q), "plan:rail-optimized");
	return rc;
}

/* ---- Dragonfly+ ---- */

static int check_dragonfly(const struct ibtopo_plan_dragonfly_params *q,
			   struct ibtopo_error *err)
{
	unsigned slots, leaf_ports, spine_ports;

	if (q->groups < 2)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--groups %u': a Dragonfly+ fabric has 2 groups or more",
			q->groups);
	if (!q->leaves || !q->spines || !q->hosts_per_leaf)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--%s' must be at least 1",
			!q->leaves ? "leaves" : !q->spines ? "spines" : "hosts-per-leaf");
	if (q->radix < 2 || q->radix > 255)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--radix %u' out of range (2-255 ports)", q->radix);
	if (q->uplinks % q->spines)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"'--uplinks %u' is not a multiple of '--spines %u': every leaf "
			"needs the same number of cables to each spine",
			q->uplinks, q->spines);
	slots = (q->groups - 1) * q->global;
	if (slots % q->spines) {
		/* the smallest --global that spreads: spines / gcd */
		unsigned a = q->groups - 1, b = q->spines, k;

		while (b) {
			unsigned t = a % b;

			a = b;
			b = t;
		}
		k = q->spines / a;
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"%u global links per group (%u other groups x %u) do not "
			"spread evenly over %u spines: --global %u (or a multiple) "
			"gives each spine %u global link%s", slots, q->groups - 1,
			q->global, q->spines, k, (q->groups - 1) * k / q->spines,
			(q->groups - 1) * k / q->spines == 1 ? "" : "s");
	}
	leaf_ports = q->hosts_per_leaf + q->uplinks;
	spine_ports = q->leaves * (q->uplinks / q->spines) + slots / q->spines;
	if (leaf_ports > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"leaves need %u ports (%u host%s + %u uplink%s) but the radix is %u",
			leaf_ports, q->hosts_per_leaf, q->hosts_per_leaf == 1 ? "" : "s",
			q->uplinks, q->uplinks == 1 ? "" : "s", q->radix);
	if (spine_ports > q->radix)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"spines need %u ports (%u down, %u global) but the radix is %u",
			spine_ports, spine_ports - slots / q->spines,
			slots / q->spines, q->radix);
	if (ibtopo_speed_lane_gbps(q->speed) <= 0)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned speed");
	if (!ibtopo_width_lanes(q->width))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad planned width");
	return 0;
}

static int build_dragonfly(struct builder *b,
			   const struct ibtopo_plan_dragonfly_params *q)
{
	unsigned G = q->groups, L = q->leaves, S = q->spines;
	unsigned per = q->uplinks / S, down = L * per;
	unsigned wg = digits(G, 2), wl = digits(L, 2), ws = digits(S, 2);
	unsigned wh = digits(G * L * q->hosts_per_leaf, 3);
	int rc = switch_arrays(b, (size_t)G * L, (size_t)G * S, 0);
	struct ibtopo_node **leaf = b->leaf, **spine = b->spine;

	for (unsigned g = 0; g < G && !rc; g++) {
		char name[64];

		for (unsigned l = 0; l < L && !rc; l++) {
			snprintf(name, sizeof(name), "g%0*u-leaf%0*u", (int)wg,
				 g + 1, (int)wl, l + 1);
			rc = ibtopo_fabric_add_node(&leaf[g * L + l], b->f,
						    IBTOPO_NODE_SWITCH,
						    ibtopo_name_guid(name), q->radix,
						    name, b->err);
		}
		for (unsigned s = 0; s < S && !rc; s++) {
			snprintf(name, sizeof(name), "g%0*u-spine%0*u", (int)wg,
				 g + 1, (int)ws, s + 1);
			rc = ibtopo_fabric_add_node(&spine[g * S + s], b->f,
						    IBTOPO_NODE_SWITCH,
						    ibtopo_name_guid(name), q->radix,
						    name, b->err);
		}
	}
	for (unsigned i = 0; i < G * L && !rc; i++) {
		unsigned g = i / L, l = i % L;

		rc = add_hosts(b, leaf[i], i, q->hosts_per_leaf, wh);
		for (unsigned k = 0; k < q->uplinks && !rc; k++)
			rc = cable(b, leaf[i], q->hosts_per_leaf + k + 1,
				   spine[g * S + k % S], l * per + k / S + 1);
	}
	/* global slot k of group a: spine k mod S, port down + k / S + 1 */
	for (unsigned a = 0; a < G && !rc; a++)
		for (unsigned c = a + 1; c < G && !rc; c++)
			for (unsigned j = 0; j < q->global && !rc; j++) {
				unsigned ka = (c - 1) * q->global + j;
				unsigned kc = a * q->global + j;

				rc = cable(b, spine[a * S + ka % S], down + ka / S + 1,
					   spine[c * S + kc % S], down + kc / S + 1);
			}
	return rc;
}

int ibtopo_plan_dragonfly_plus(struct ibtopo_fabric **out,
			       const struct ibtopo_plan_dragonfly_params *p,
			       struct ibtopo_error *err)
{
	struct ibtopo_plan_dragonfly_params q;
	struct builder b = { .err = err };
	int rc;

	rc = plan_open(out, p != NULL, p ? p->version : 0,
		       IBTOPO_PLAN_DRAGONFLY_PARAMS_VERSION, err);
	if (rc)
		return rc;
	q = *p;
	if (!q.radix)
		q.radix = DEFAULT_RADIX;
	if (!q.uplinks)
		q.uplinks = q.spines;
	if (!q.global)
		q.global = 1;
	rate_defaults(&q.speed, &q.width);
	rc = check_dragonfly(&q, err);
	if (!rc)
		rc = plan_new(&b, q.speed, q.width);
	if (!rc)
		rc = plan_done(out, &b, build_dragonfly(&b, &q), "plan:dragonfly-plus");
	return rc;
}

int ibtopo_plan_fat_tree(struct ibtopo_fabric **out,
			 const struct ibtopo_plan_params *p,
			 struct ibtopo_error *err)
{
	struct ibtopo_plan_params q;
	struct builder b = { .err = err };
	int rc;

	rc = plan_open(out, p != NULL, p ? p->version : 0, 0, err);
	if (rc)
		return rc;
	q = *p;
	if (!q.levels)
		q.levels = 2;
	if (!q.radix)
		q.radix = DEFAULT_RADIX;
	if (!q.uplinks)
		q.uplinks = q.hosts_per_leaf;
	rate_defaults(&q.speed, &q.width);
	rc = check_params(&q, err);
	if (!rc)
		rc = plan_new(&b, q.speed, q.width);
	if (!rc)
		rc = plan_done(out, &b, build(&b, &q), "plan:fat-tree");
	return rc;
}

/* ---- writing ---- */

/* ibsim's enabled masks that make a link train at `speed`, and slower. */
static int ibsim_speed_masks(unsigned speed, unsigned *base, unsigned *ext)
{
	struct ibtopo__ibsim_masks m;

	if (!speed)		/* not stated: QDR, as ibsim assumes */
		speed = IBTOPO_SPEED_QDR;
	/* a plan has no trailer, so no FDR10 */
	if (ibtopo__ibsim_needs_trailer(speed) ||
	    ibtopo__ibsim_speed_masks(&m, speed, true))
		return IBTOPO_EINVAL;
	*base = m.s;
	*ext = m.e;
	return 0;
}

static int check_name(const struct ibtopo_node *n, struct ibtopo_error *err)
{
	if (!n->desc[0] || strpbrk(n->desc, "\"#@\n"))
		return ibtopo__error_set_input(err, IBTOPO_EINVAL,
			"node '%s' cannot be named in a plan file: a name needs "
			"to be non-empty without '\"', '#' or '@'", n->desc);
	return 0;
}

static int write_node(const struct ibtopo_sink *o,
		      const struct ibtopo_node *n, enum ibtopo_file_format format,
		      const struct ibtopo_link *global, struct ibtopo_error *err)
{
	bool sw = n->type == IBTOPO_NODE_SWITCH;
	const char *type = sw ? "Switch" :
			   n->type == IBTOPO_NODE_ROUTER ? "Rt" :
			   format == IBTOPO_FILE_IBSIM ? "Hca" : "Ca";
	int rc;

	if (format == IBTOPO_FILE_IBSIM)
		rc = ibtopo_sink_printf(o, "%s\t%u \"%s\"\n", type, n->nports,
					n->desc);
	else
		rc = ibtopo_sink_printf(o, "%s\t%u \"%s\"\t\t# \"%s\"\n", type,
					n->nports, n->desc, n->desc);
	for (unsigned p = 1; p <= n->nports && !rc; p++) {
		const struct ibtopo_port *port = n->ports[p];
		const struct ibtopo_link *l = port ? port->link : NULL;
		const struct ibtopo_port *r = port ? port->remote : NULL;
		unsigned base, ext, gbase, gext;

		if (!r)
			continue;
		rc = ibtopo_sink_printf(o, "[%u]\t\"%s\"[%u]", p, r->node->desc,
					r->num);
		if (rc)
			break;
		if (format == IBTOPO_FILE_IBSIM) {
			if (ibsim_speed_masks(l->speed, &base, &ext) ||
			    ibsim_speed_masks(global->speed, &gbase, &gext))
				return ibtopo__error_set_input(err, IBTOPO_EINVAL,
					"ibsim cannot simulate %s links (port %u of '%s')",
					ibtopo_speed_name(l->speed), p, n->desc);
			if (base != gbase)
				rc = ibtopo_sink_printf(o, "\ts=%u", base);
			if (!rc && ext != gext)
				rc = ibtopo_sink_printf(o, "\te=%u", ext);
			/* both ends restricted: one-sided, ibsim retrains */
			if (!rc && ibtopo__ibsim_width_mask(l->width) !=
				   ibtopo__ibsim_width_mask(global->width))
				rc = ibtopo_sink_printf(o, "\tw=%u", l->width ?
							l->width : IBTOPO_WIDTH_4X);
			if (!rc)
				rc = ibtopo__out_write(o, "\n", 1);
		} else if (l->speed && l->width) {
			rc = ibtopo_sink_printf(o, "\t\t# \"%s\" lid 0 %s%s\n",
						r->node->desc,
						ibtopo_width_name(l->width),
						ibtopo_speed_name(l->speed));
		} else {
			rc = ibtopo_sink_printf(o, "\t\t# \"%s\"\n", r->node->desc);
		}
	}
	if (!rc)
		rc = ibtopo__out_write(o, "\n", 1);
	return rc ? ibtopo__error_set(err, rc, "cannot write the plan") : 0;
}

int ibtopo_plan_write(const struct ibtopo_sink *sink,
		      const struct ibtopo_fabric *plan,
		      enum ibtopo_file_format format, struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(plan);
	const struct ibtopo_link *global = ibtopo_fabric_link(plan, 0);
	static const struct ibtopo_link none;
	unsigned base, ext;
	int rc;

	if (!sink || !sink->write || !plan)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no plan or sink");
	if (format != IBTOPO_FILE_IBNETDISCOVER && format != IBTOPO_FILE_IBSIM)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"plans are written as ibnetdiscover text or ibsim net files");
	for (size_t i = 0; i < nn; i++) {
		rc = check_name(ibtopo_fabric_node(plan, i), err);
		if (rc)
			return rc;
	}
	if (!global)
		global = &none;
	if (format == IBTOPO_FILE_IBSIM) {
		if (ibsim_speed_masks(global->speed, &base, &ext))
			return ibtopo__error_set(err, IBTOPO_EINVAL,
				"ibsim cannot simulate %s links",
				ibtopo_speed_name(global->speed));
		rc = ibtopo_sink_printf(sink,
			"# ibsim net file written by ibtopo: %zu switches, %zu CAs, "
			"%zu links\n"
			"# run: ibsim -s -n <this file>\n"
			"width=%u\nspeed=%u\nextspeed=%u\n\n",
			ibtopo_fabric_count_type(plan, IBTOPO_NODE_SWITCH),
			ibtopo_fabric_count_type(plan, IBTOPO_NODE_CA),
			ibtopo_fabric_link_count(plan),
			ibtopo__ibsim_width_mask(global->width), base, ext);
	} else {
		rc = ibtopo_sink_printf(sink,
			"#\n# Planned topology written by ibtopo: %zu switches, "
			"%zu CAs, %zu links.\n"
			"# Node names stand where ibnetdiscover prints GUIDs; each "
			"port's trailer\n# states the link's planned width and "
			"speed (\"lid 0 4xHDR\").\n#\n\n",
			ibtopo_fabric_count_type(plan, IBTOPO_NODE_SWITCH),
			ibtopo_fabric_count_type(plan, IBTOPO_NODE_CA),
			ibtopo_fabric_link_count(plan));
	}
	if (rc)
		return ibtopo__error_set(err, rc, "cannot write the plan");
	for (size_t i = 0; i < nn && !rc; i++)
		rc = write_node(sink, ibtopo_fabric_node(plan, i), format, global,
				err);
	return rc;
}
