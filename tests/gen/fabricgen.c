/*
 * fabricgen.c - build test fabrics through the public API only, so the
 * same code serves unit tests, gen-fabric and the benchmark.
 */
#include "fabricgen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gen {
	struct ibtopo_fabric *f;
	const struct fg_params *p;
	uint64_t next_guid;
	unsigned speed, width, host_speed;
	unsigned hostnum;
	struct ibtopo_error *err;
	int rc;		/* first failure; later calls do nothing */
};

#define SWITCH_PORTS 64	/* ports are taken in order; --radix for more */

static struct ibtopo_node *node_new(struct gen *g, enum ibtopo_node_type type,
				    unsigned nports, uint64_t sysimg,
				    const char *fmt, ...)
{
	struct ibtopo_node *n = NULL;
	char name[128];
	va_list ap;

	if (g->rc)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	g->rc = ibtopo_fabric_add_node(&n, g->f, type, ++g->next_guid, nports,
				       name, g->err);
	if (g->rc)
		return NULL;
	n->sysimg_guid = sysimg ? sysimg : n->guid;
	n->vendor_id = 0x2c9;
	return n;
}

static struct ibtopo_node *sw(struct gen *g, const char *fmt, unsigned a,
			      unsigned b)
{
	unsigned ports = g->p->radix ? g->p->radix : SWITCH_PORTS;

	return node_new(g, IBTOPO_NODE_SWITCH, ports, 0, fmt, a, b);
}

/* The lowest port of a node with no cable yet; 0 when all are used. */
static unsigned free_port(struct ibtopo_node *n)
{
	for (unsigned i = 1; i <= n->nports; i++)
		if (!n->ports[i] || !n->ports[i]->remote)
			return i;
	return 0;
}

static void cable(struct gen *g, struct ibtopo_node *a, struct ibtopo_node *b,
		  unsigned speed)
{
	struct ibtopo_port *pa = NULL, *pb = NULL;
	unsigned na, nb;

	if (g->rc || !a || !b)
		return;
	na = free_port(a);
	nb = free_port(b);
	if (!na || !nb || (a == b && na == nb)) {
		g->rc = IBTOPO_EINVAL;
		snprintf(g->err->message, sizeof(g->err->message),
			 "no free port on '%s' or '%s'", a->desc, b->desc);
		g->err->code = g->rc;
		return;
	}
	g->rc = ibtopo_node_add_port(&pa, g->f, a, na, g->err);
	if (!g->rc)
		g->rc = ibtopo_node_add_port(&pb, g->f, b, nb, g->err);
	if (g->rc)
		return;
	pa->guid = a->type == IBTOPO_NODE_SWITCH ? a->guid : a->guid + na;
	pb->guid = b->type == IBTOPO_NODE_SWITCH ? b->guid : b->guid + nb;
	pa->speed_active = pb->speed_active = (uint16_t)speed;
	pa->width_active = pb->width_active = (uint8_t)g->width;
	pa->speed_supported = pb->speed_supported = (uint16_t)speed;
	pa->speed_enabled = pb->speed_enabled = (uint16_t)speed;
	pa->width_supported = pb->width_supported = (uint8_t)g->width;
	pa->width_enabled = pb->width_enabled = (uint8_t)g->width;
	pa->state = pb->state = IBTOPO_PORT_STATE_ACTIVE;
	pa->phys_state = pb->phys_state = 5;	/* LinkUp */
	g->rc = ibtopo_fabric_connect(NULL, g->f, pa, pb, g->err);
}

static void cables(struct gen *g, struct ibtopo_node *a, struct ibtopo_node *b,
		   unsigned n)
{
	for (unsigned i = 0; i < (n ? n : 1); i++)
		cable(g, a, b, g->speed);
}

/* `hosts` servers on leaf (or on leaf and next when dual-homed). */
static void servers(struct gen *g, struct ibtopo_node *leaf,
		    struct ibtopo_node *next, unsigned hosts)
{
	for (unsigned h = 0; h < hosts && !g->rc; h++) {
		unsigned num = ++g->hostnum;
		struct ibtopo_node *ca;

		ca = node_new(g, IBTOPO_NODE_CA, 1, 0, "host%04u mlx5_0", num);
		cable(g, ca, leaf, g->host_speed);
		if (next) {
			struct ibtopo_node *ca2;

			ca2 = node_new(g, IBTOPO_NODE_CA, 1, ca ? ca->sysimg_guid : 0,
				       "host%04u mlx5_1", num);
			cable(g, ca2, next, g->host_speed);
		}
	}
}

static struct ibtopo_node **nodes(struct gen *g, size_t n)
{
	struct ibtopo_node **v = calloc(n ? n : 1, sizeof(*v));

	if (!v && !g->rc) {
		g->rc = IBTOPO_ENOMEM;
		g->err->code = g->rc;
		snprintf(g->err->message, sizeof(g->err->message), "out of memory");
	}
	return v;
}

static void fat_tree2(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned nsp = p->spines - ((p->faults & FG_FAULT_MISSING_SPINE) ? 1 : 0);
	struct ibtopo_node **spine = nodes(g, p->spines);
	struct ibtopo_node **leaf = nodes(g, p->leaves);

	if (!spine || !leaf)
		goto out;
	for (unsigned s = 0; s < nsp; s++)
		spine[s] = sw(g, "spine%02u", s + 1, 0);
	for (unsigned l = 0; l < p->leaves; l++)
		leaf[l] = sw(g, "leaf%02u", l + 1, 0);
	for (unsigned l = 0; l < p->leaves; l++) {
		for (unsigned s = 0; s < nsp; s++) {
			unsigned n = p->links ? p->links : 1;

			if (l == 0 && s == 0 && (p->faults & FG_FAULT_DROP_UPLINK))
				continue;
			if (l == 0 && nsp >= 2 && (p->faults & FG_FAULT_PILED)) {
				if (s == 1)
					continue;
				if (s == 0)
					n *= 2;
			}
			cables(g, leaf[l], spine[s], n);
		}
	}
	for (unsigned l = 0; l < p->leaves; l++)
		servers(g, leaf[l], p->dual_homed ? leaf[l ^ 1] : NULL,
			p->dual_homed && (l & 1) ? 0 : p->hosts);
	if ((p->faults & FG_FAULT_SAME_LEVEL) && p->leaves >= 2)
		cable(g, leaf[0], leaf[1], g->speed);
	if ((p->faults & FG_FAULT_HOST_ON_SPINE) && nsp)
		servers(g, spine[0], NULL, 1);
out:
	free(leaf);
	free(spine);
}

static void fat_tree3(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned ncore = p->cores - ((p->faults & FG_FAULT_MISSING_SPINE) ? 1 : 0);
	unsigned per_group = p->cores / p->spines;
	struct ibtopo_node **core = nodes(g, p->cores);
	struct ibtopo_node **agg = nodes(g, (size_t)p->pods * p->spines);
	struct ibtopo_node **leaf = nodes(g, (size_t)p->pods * p->leaves);

	if (!core || !agg || !leaf)
		goto out;
	for (unsigned c = 0; c < ncore; c++)
		core[c] = sw(g, "core%02u", c + 1, 0);
	for (unsigned q = 0; q < p->pods; q++)
		for (unsigned a = 0; a < p->spines; a++)
			agg[q * p->spines + a] = sw(g, "agg%02u-%02u", q + 1, a + 1);
	for (unsigned q = 0; q < p->pods; q++)
		for (unsigned l = 0; l < p->leaves; l++)
			leaf[q * p->leaves + l] = sw(g, "leaf%02u-%02u", q + 1, l + 1);
	for (unsigned q = 0; q < p->pods; q++) {
		for (unsigned l = 0; l < p->leaves; l++) {
			for (unsigned a = 0; a < p->spines; a++) {
				if (q == 0 && l == 0 && a == 0 &&
				    (p->faults & FG_FAULT_DROP_UPLINK))
					continue;
				cables(g, leaf[q * p->leaves + l],
				       agg[q * p->spines + a], p->links);
			}
		}
		/* agg a of every pod goes to core group a */
		for (unsigned a = 0; a < p->spines; a++)
			for (unsigned c = a * per_group; c < (a + 1) * per_group; c++)
				if (c < ncore)
					cables(g, agg[q * p->spines + a], core[c],
					       p->core_links);
	}
	for (unsigned i = 0; i < p->pods * p->leaves; i++)
		servers(g, leaf[i], p->dual_homed ? leaf[i ^ 1] : NULL,
			p->dual_homed && (i & 1) ? 0 : p->hosts);
	if ((p->faults & FG_FAULT_SAME_LEVEL) && p->leaves >= 2)
		cable(g, leaf[0], leaf[1], g->speed);
	if ((p->faults & FG_FAULT_LEVEL_SKIP) && ncore)
		cable(g, leaf[0], core[0], g->speed);
	if ((p->faults & FG_FAULT_HOST_ON_SPINE) && ncore)
		servers(g, core[0], NULL, 1);
out:
	free(leaf);
	free(agg);
	free(core);
}

/* Edge switches under directors; DROP_UPLINK: edge 1 loses one cable. */
static void director(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned used = p->lines - p->idle, ports = p->radix ? p->radix :
						   SWITCH_PORTS;
	struct ibtopo_node **line = nodes(g, (size_t)p->directors * p->lines);
	struct ibtopo_node **edge = nodes(g, p->leaves);
	unsigned next = 0;

	if (!line || !edge)
		goto out;
	for (unsigned d = 0; d < p->directors; d++) {
		uint64_t sysimg = 0x7cfe900300aa0000ull + d;
		struct ibtopo_node *fab[64] = { NULL };

		for (unsigned c = 0; c < p->spines && c < 64; c++)
			fab[c] = node_new(g, IBTOPO_NODE_SWITCH, ports, sysimg,
					  "MF0;dir%u:IS5600/S%02u/U1", d + 1, c + 1);
		for (unsigned l = 0; l < p->lines; l++) {
			line[d * p->lines + l] =
				node_new(g, IBTOPO_NODE_SWITCH, ports, sysimg,
					 "MF0;dir%u:IS5600/L%02u/U1", d + 1, l + 1);
			for (unsigned c = 0; c < p->spines && c < 64; c++)
				cable(g, line[d * p->lines + l], fab[c], g->speed);
		}
	}
	for (unsigned e = 0; e < p->leaves; e++)
		edge[e] = sw(g, "edge%02u", e + 1, 0);
	for (unsigned e = 0; e < p->leaves; e++) {
		for (unsigned d = 0; d < p->directors; d++) {
			for (unsigned k = 0; k < (p->links ? p->links : 1); k++) {
				unsigned dd = d, kk = k;
				struct ibtopo_node *to;

				if (e == 0 && d == 0 && (p->faults & FG_FAULT_PILED))
					kk = 0;
				if (e == 0 && d + 1 == p->directors && d &&
				    (p->faults & FG_FAULT_PILED_ACROSS))
					dd = 0;
				to = line[dd * p->lines + (next + kk) % used];

				if (e == 0 && d == 0 && k == 0 &&
				    (p->faults & FG_FAULT_DROP_UPLINK))
					continue;
				cable(g, edge[e], to, g->speed);
			}
		}
		next += p->links ? p->links : 1;
	}
	for (unsigned e = 0; e < p->leaves; e++)
		servers(g, edge[e], NULL, p->hosts);
out:
	free(edge);
	free(line);
}

/* Rail-optimized: leaf of rail k in unit u for HCA k of u's servers;
 * DROP_UPLINK: rail1-su01 loses its cables to spine01. */
static void rails(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned nsp = p->cores ? p->spines * p->rails : p->spines;
	struct ibtopo_node **spine = nodes(g, nsp);
	struct ibtopo_node **leaf = nodes(g, (size_t)p->units * p->rails);
	struct ibtopo_node **core = nodes(g, p->cores);

	if (!spine || !leaf || !core)
		goto out;
	for (unsigned s = 0; s < nsp; s++)
		spine[s] = p->cores ? sw(g, "spine%u-%02u", s / p->spines + 1,
					 s % p->spines + 1) :
				      sw(g, "spine%02u", s + 1, 0);
	for (unsigned c = 0; c < p->cores; c++)
		core[c] = sw(g, "core%02u", c + 1, 0);
	for (unsigned u = 0; u < p->units; u++)
		for (unsigned k = 0; k < p->rails; k++)
			leaf[u * p->rails + k] = sw(g, "rail%u-su%02u", k + 1, u + 1);
	for (unsigned i = 0; i < p->units * p->rails; i++) {
		unsigned base = p->cores ? (i % p->rails) * p->spines : 0;

		for (unsigned s = 0; s < p->spines; s++)
			if (i || s || !(p->faults & FG_FAULT_DROP_UPLINK))
				cables(g, leaf[i], spine[base + s], p->links);
	}
	for (unsigned s = 0; s < nsp && p->cores; s++)
		for (unsigned c = 0; c < p->cores; c++)
			cables(g, spine[s], core[c], p->core_links);
	for (unsigned u = 0; u < p->units && !g->rc; u++) {
		for (unsigned h = 0; h < p->hosts && !g->rc; h++) {
			unsigned num = ++g->hostnum;
			uint64_t sysimg = 0;

			for (unsigned k = 0; k < p->rails; k++) {
				struct ibtopo_node *ca;
				unsigned to = k;

				if (num == 1 && k + 1 == p->rails && p->rails > 1 &&
				    (p->faults & FG_FAULT_MISSING_RAIL))
					continue;
				if (num == 1 && k < 2 && p->rails >= 2 &&
				    (p->faults & FG_FAULT_SWAP_RAIL))
					to = 1 - k;
				ca = node_new(g, IBTOPO_NODE_CA, 1, sysimg,
					      "dgx%04u mlx5_%u", num, k);
				if (ca && !sysimg)
					sysimg = ca->sysimg_guid;
				cable(g, ca, leaf[u * p->rails + to], g->host_speed);
			}
		}
	}
out:
	free(core);
	free(leaf);
	free(spine);
}

static void dragonfly(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned G = p->groups, L = p->leaves, S = p->spines;
	unsigned K = p->global ? p->global : 1;
	struct ibtopo_node **leaf = nodes(g, (size_t)G * L);
	struct ibtopo_node **spine = nodes(g, (size_t)G * S);

	if (!leaf || !spine)
		goto out;
	for (unsigned a = 0; a < G; a++) {
		for (unsigned l = 0; l < L; l++)
			leaf[a * L + l] = sw(g, "g%02u-leaf%02u", a + 1, l + 1);
		for (unsigned s = 0; s < S; s++)
			spine[a * S + s] = sw(g, "g%02u-spine%02u", a + 1, s + 1);
	}
	for (unsigned i = 0; i < G * L; i++)
		for (unsigned s = 0; s < S; s++)
			if (i || s || !(p->faults & FG_FAULT_DROP_UPLINK))
				cable(g, leaf[i], spine[(i / L) * S + s], g->speed);
	for (unsigned a = 0; a < G; a++)
		for (unsigned c = a + 1; c < G; c++)
			for (unsigned j = 0; j < K; j++) {
				unsigned ka = (c - 1) * K + j, kc = a * K + j;

				if (a == 0 && c == 1 &&
				    (p->faults & FG_FAULT_MISSING_GLOBAL))
					continue;
				cable(g, spine[a * S + ka % S], spine[c * S + kc % S],
				      g->speed);
			}
	for (unsigned i = 0; i < G * L; i++)
		servers(g, leaf[i], NULL, p->hosts);
out:
	free(spine);
	free(leaf);
}

static void shapes(struct gen *g)
{
	const struct fg_params *p = g->p;
	unsigned n = p->switches;
	struct ibtopo_node **s;

	if (p->shape == FG_GRID || p->shape == FG_TORUS)
		n = p->rows * p->cols;
	if (p->shape == FG_SINGLE)
		n = 1;
	if (p->shape == FG_STAR)
		n = p->switches + 1;
	s = nodes(g, n);
	if (!s)
		return;
	for (unsigned i = 0; i < n; i++)
		s[i] = sw(g, p->shape == FG_STAR && i == 0 ? "hub" : "sw%02u",
			  i, 0);
	switch (p->shape) {
	case FG_SINGLE:
		break;
	case FG_STAR:
		for (unsigned i = 1; i < n; i++)
			cables(g, s[0], s[i], p->links);
		break;
	case FG_RING:
		for (unsigned i = 0; i < n; i++)
			cables(g, s[i], s[(i + 1) % n], p->links);
		break;
	case FG_MESH:
		for (unsigned i = 0; i < n; i++)
			for (unsigned j = i + 1; j < n; j++)
				cables(g, s[i], s[j], p->links);
		break;
	case FG_GRID:
	case FG_TORUS:
		for (unsigned r = 0; r < p->rows; r++) {
			for (unsigned c = 0; c < p->cols; c++) {
				unsigned i = r * p->cols + c;

				if (c + 1 < p->cols || (p->shape == FG_TORUS && p->cols > 2))
					cables(g, s[i], s[r * p->cols + (c + 1) % p->cols],
					       p->links);
				if (r + 1 < p->rows || (p->shape == FG_TORUS && p->rows > 2))
					cables(g, s[i], s[((r + 1) % p->rows) * p->cols + c],
					       p->links);
			}
		}
		break;
	default:
		break;
	}
	for (unsigned i = p->shape == FG_STAR ? 1 : 0; i < n; i++)
		servers(g, s[i], NULL, p->hosts);
	free(s);
}

int fg_build(struct ibtopo_fabric **out, const struct fg_params *p,
	     struct ibtopo_error *err)
{
	struct ibtopo_error local = IBTOPO_ERROR_INIT;
	struct gen g;

	*out = NULL;
	memset(&g, 0, sizeof(g));
	g.p = p;
	g.err = err ? err : &local;
	g.speed = p->speed ? p->speed : IBTOPO_SPEED_HDR;
	g.width = p->width ? p->width : IBTOPO_WIDTH_4X;
	g.host_speed = p->host_speed ? p->host_speed : g.speed;
	g.next_guid = 0x0002c90300001000ull;
	if (p->shape == FG_FAT_TREE &&
	    (p->levels < 2 || p->levels > 3 || !p->leaves || !p->spines ||
	     (p->levels == 3 && (!p->pods || !p->cores || p->cores % p->spines)) ||
	     (p->dual_homed && p->leaves % 2))) {
		snprintf(g.err->message, sizeof(g.err->message),
			 "bad fat tree parameters");
		return g.err->code = IBTOPO_EINVAL;
	}
	if (p->shape == FG_DRAGONFLY && (p->groups < 2 || !p->leaves || !p->spines)) {
		snprintf(g.err->message, sizeof(g.err->message),
			 "bad Dragonfly+ parameters");
		return g.err->code = IBTOPO_EINVAL;
	}
	if (p->shape == FG_RAILS && (!p->rails || !p->units || !p->spines)) {
		snprintf(g.err->message, sizeof(g.err->message),
			 "bad rail parameters");
		return g.err->code = IBTOPO_EINVAL;
	}
	if (p->shape == FG_DIRECTOR &&
	    (!p->directors || !p->lines || p->idle >= p->lines || !p->spines ||
	     p->spines > 64 || !p->leaves)) {
		snprintf(g.err->message, sizeof(g.err->message),
			 "bad director parameters");
		return g.err->code = IBTOPO_EINVAL;
	}
	g.rc = ibtopo_fabric_new(&g.f, g.err);
	if (g.rc)
		return g.rc;
	if (p->shape == FG_FAT_TREE && p->levels == 2)
		fat_tree2(&g);
	else if (p->shape == FG_FAT_TREE)
		fat_tree3(&g);
	else if (p->shape == FG_DIRECTOR)
		director(&g);
	else if (p->shape == FG_RAILS)
		rails(&g);
	else if (p->shape == FG_DRAGONFLY)
		dragonfly(&g);
	else
		shapes(&g);
	if (!g.rc && (p->faults & FG_FAULT_CA_TO_CA)) {
		struct ibtopo_node *a, *b;

		a = node_new(&g, IBTOPO_NODE_CA, 1, 0, "lonely1 mlx5_0");
		b = node_new(&g, IBTOPO_NODE_CA, 1, 0, "lonely2 mlx5_0");
		cable(&g, a, b, g.speed);
	}
	if (g.rc) {
		ibtopo_fabric_free(g.f);
		return g.rc;
	}
	ibtopo_fabric_sort(g.f);
	*out = g.f;
	return 0;
}

struct ibtopo_node *fg_node(const struct ibtopo_fabric *f, const char *name)
{
	return ibtopo_fabric_find_node_desc(f, name);
}
