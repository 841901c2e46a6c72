/*
 * topology_rails.c - rail-optimized fabrics (DGX SuperPOD style): HCA k
 * of every server goes to a leaf of rail k. The rail of an HCA comes
 * from its device name ("dgx01 mlx5_4": the number 4 ranked among the
 * numbers the family "mlx5_" uses in the fabric), a leaf's rail is the
 * one most of its HCAs have, and scalable units are the leaves most of
 * their servers join across rails. The rules are in ibtopo.h.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAMILIES 16
#define MAX_RAILS 64
#define MIN_RAILS 3		/* two: a dual-homed fat tree */

struct family {
	const char *name;	/* "mlx5_" */
	size_t len;
	unsigned nums[MAX_RAILS];
	size_t nnums;
	size_t hcas;
};

struct hca {
	const struct ibtopo_port *port;	/* cabled to a switch */
	size_t server;
	size_t sw;
	int rail;			/* -1: none */
	bool good;			/* on a leaf of its rail */
};

struct rails {
	struct hca *h;
	size_t nh;
	struct family fam[MAX_FAMILIES];
	size_t nfam;
	unsigned R;
	size_t *count;		/* nsw x R: member HCAs per switch and rail */
	int *leaf_rail;		/* per switch, -1: none */
	size_t *uf;		/* per switch: units */
	size_t *unit;		/* per switch: unit index or NONE */
	size_t *unit_leaf;	/* nunits x R: the rail's leaf, or NONE */
	size_t *home;		/* per server: switch, or NONE */
	bool *member;		/* per server */
};

/* The device word of "<host> <device>": family and number. */
static bool device_of(const char *desc, const char **fam, size_t *flen,
		      unsigned *num)
{
	size_t host = ibtopo__desc_host_word(desc), n;
	const char *d;

	if (!host)
		return false;
	d = desc + host;
	while (*d == ' ')
		d++;
	n = strcspn(d, " ");
	if (!n || d[n] || !isdigit((unsigned char)d[n - 1]))
		return false;
	*flen = n;
	while (*flen && isdigit((unsigned char)d[*flen - 1]))
		(*flen)--;
	if (!*flen || n - *flen > 6)
		return false;
	*fam = d;
	*num = (unsigned)strtoul(d + *flen, NULL, 10);
	return true;
}

static int uint_cmp(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;

	return a < b ? -1 : a > b;
}

static size_t uf_find(size_t *p, size_t i)
{
	while (p[i] != i) {
		p[i] = p[p[i]];
		i = p[i];
	}
	return i;
}

static void rails_free(struct rails *r)
{
	free(r->member);
	free(r->home);
	free(r->unit_leaf);
	free(r->unit);
	free(r->uf);
	free(r->leaf_rail);
	free(r->count);
	free(r->h);
}

/* HCAs with their families; false when there is nothing to find. */
static bool collect(struct rails *r, const struct ibtopo_topology *t)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nn = ibtopo_fabric_node_count(f);

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);
		struct hca *h;
		const char *fam;
		size_t flen, k;
		unsigned num;

		if (t->ca_server[i] == IBTOPO__NONE)
			continue;
		h = &r->h[r->nh];
		h->port = NULL;
		for (unsigned p = 1; p <= n->nports && !h->port; p++)
			if (n->ports[p] && n->ports[p]->remote &&
			    n->ports[p]->remote->node->type == IBTOPO_NODE_SWITCH)
				h->port = n->ports[p];
		if (!h->port || !device_of(n->desc, &fam, &flen, &num))
			continue;
		h->server = t->ca_server[i];
		h->sw = t->node2sw[h->port->remote->node->index];
		h->rail = -1;
		for (k = 0; k < r->nfam; k++)
			if (r->fam[k].len == flen &&
			    strncmp(r->fam[k].name, fam, flen) == 0)
				break;
		if (k == r->nfam) {
			if (r->nfam == MAX_FAMILIES)
				continue;
			r->fam[k].name = fam;
			r->fam[k].len = flen;
			r->nfam++;
		}
		r->fam[k].hcas++;
		/* the number for now; the rank once all are known */
		h->rail = (int)(k * 1000000 + num);
		r->nh++;
	}
	return r->nh > 0;
}

static void rank_rails(struct rails *r)
{
	size_t best = 0;

	for (size_t i = 0; i < r->nh; i++) {
		struct family *fm = &r->fam[r->h[i].rail / 1000000];
		unsigned num = (unsigned)(r->h[i].rail % 1000000);
		size_t k;

		for (k = 0; k < fm->nnums && fm->nums[k] != num; k++)
			;
		if (k == fm->nnums && fm->nnums < MAX_RAILS)
			fm->nums[fm->nnums++] = num;
	}
	for (size_t k = 0; k < r->nfam; k++) {
		qsort(r->fam[k].nums, r->fam[k].nnums, sizeof(unsigned), uint_cmp);
		if (r->fam[k].hcas > r->fam[best].hcas)
			best = k;
	}
	r->R = (unsigned)r->fam[best].nnums;
	for (size_t i = 0; i < r->nh; i++) {
		struct family *fm = &r->fam[r->h[i].rail / 1000000];
		unsigned num = (unsigned)(r->h[i].rail % 1000000);
		size_t k;

		for (k = 0; k < fm->nnums && fm->nums[k] != num; k++)
			;
		r->h[i].rail = k < fm->nnums && k < r->R ? (int)k : -1;
	}
}

/*
 * Rails a server has no HCA on. A fact about the server: one finding per
 * server (value = how many rails, expected and c the first and its
 * leaf), not per rail. A rail whose leaf its whole scalable unit lacks
 * is a fact about the unit: one finding per unit and rail (a = a leaf of
 * the unit, value = its servers without the rail), not one per server.
 */
static int missing_rails(struct rails *r, struct ibtopo_topology *t,
			 const uint64_t *has, struct ibtopo_findings *out,
			 struct ibtopo_error *err)
{
	size_t *lack = calloc(t->nunits * r->R + 1, sizeof(*lack));
	int ret = 0;

	if (!lack)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t s = 0; s < t->nservers && !ret; s++) {
		size_t u = r->home[s] == IBTOPO__NONE ? IBTOPO__NONE :
			   r->unit[r->home[s]];
		struct ibtopo_finding fd;
		unsigned n = 0, first = 0;

		if (!r->member[s])
			continue;
		for (unsigned k = 0; k < r->R; k++) {
			if (has[s] & (1ull << k))
				continue;
			if (u != IBTOPO__NONE &&
			    r->unit_leaf[u * r->R + k] == IBTOPO__NONE) {
				lack[u * r->R + k]++;
				continue;
			}
			if (!n++)
				first = k;
		}
		if (!n)
			continue;
		ibtopo__finding_init(&fd, IBTOPO_FIND_RAIL_MISMATCH);
		fd.subkind = IBTOPO_RAIL_MISSING;
		ibtopo_end_from_port(&fd.a, t->servers[s].port);
		ibtopo__topology_end_switch(&fd.b, t, IBTOPO__NONE);
		ibtopo__topology_end_switch(&fd.c, t,
			u == IBTOPO__NONE ? IBTOPO__NONE :
			r->unit_leaf[u * r->R + first]);
		fd.num.rail.expected = first + 1;
		fd.num.rail.lacking = n;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	for (size_t u = 0; u < t->nunits && !ret; u++)
		for (unsigned k = 0; k < r->R && !ret; k++) {
			struct ibtopo_finding fd;
			size_t leaf = IBTOPO__NONE;

			if (!lack[u * r->R + k])
				continue;
			for (unsigned j = 0; j < r->R && leaf == IBTOPO__NONE; j++)
				leaf = r->unit_leaf[u * r->R + j];
			ibtopo__finding_init(&fd, IBTOPO_FIND_RAIL_MISMATCH);
			fd.subkind = IBTOPO_RAIL_MISSING;
			ibtopo__topology_end_switch(&fd.a, t, leaf);
			ibtopo__topology_end_switch(&fd.b, t, IBTOPO__NONE);
			ibtopo__topology_end_switch(&fd.c, t, IBTOPO__NONE);
			fd.num.rail.expected = k + 1;
			fd.num.rail.lacking = (double)lack[u * r->R + k];
			ret = ibtopo__topology_add(out, &fd, err);
		}
	free(lack);
	return ret;
}

static int findings(struct rails *r, struct ibtopo_topology *t,
		    struct ibtopo_findings *out, struct ibtopo_error *err)
{
	uint64_t *has = calloc(t->nservers + 1, sizeof(*has));
	size_t most = 0;
	int ret = 0;

	if (!has)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nh && !ret; i++) {
		const struct hca *h = &r->h[i];
		size_t u = r->home[h->server] == IBTOPO__NONE ? IBTOPO__NONE :
			   r->unit[r->home[h->server]];
		size_t want;
		struct ibtopo_finding fd;

		if (h->rail < 0 || !r->member[h->server])
			continue;
		has[h->server] |= 1ull << h->rail;
		t->rail_hcas[h->rail]++;
		want = u == IBTOPO__NONE ? IBTOPO__NONE :
		       r->unit_leaf[u * r->R + (size_t)h->rail];
		if (h->good && (u == IBTOPO__NONE || r->unit[h->sw] == u))
			continue;
		ibtopo__finding_init(&fd, IBTOPO_FIND_RAIL_MISMATCH);
		fd.subkind = IBTOPO_RAIL_WRONG_LEAF;
		ibtopo_end_from_port(&fd.a, h->port);
		ibtopo_end_from_port(&fd.b, h->port->remote);
		ibtopo__topology_end_switch(&fd.c, t, want);
		fd.num.rail.expected = (unsigned)h->rail + 1;
		fd.num.rail.actual = r->leaf_rail[h->sw] < 0 ? 0 :
			    (unsigned)r->leaf_rail[h->sw] + 1;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	ret = ret ? ret : missing_rails(r, t, has, out, err);
	for (unsigned k = 0; k < r->R; k++)
		if (t->rail_hcas[k] > most)
			most = t->rail_hcas[k];
	for (unsigned k = 0; k < r->R && !ret; k++) {
		struct ibtopo_finding fd;

		if (t->rail_hcas[k] >= most)
			continue;
		ibtopo__finding_init(&fd, IBTOPO_FIND_RAIL_MISMATCH);
		fd.subkind = IBTOPO_RAIL_UNEQUAL;
		ibtopo__topology_end_switch(&fd.a, t, IBTOPO__NONE);
		ibtopo__topology_end_switch(&fd.b, t, IBTOPO__NONE);
		fd.num.rail.expected = (unsigned)most;
		fd.num.rail.actual = (unsigned)t->rail_hcas[k];
		fd.num.rail.rail = k + 1;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	free(has);
	return ret;
}

struct pair {
	size_t a, b;
};

static int pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Scalable units: leaves that most of their servers join across rails. */
static int units(struct rails *r, struct ibtopo_topology *t,
		 struct ibtopo_error *err)
{
	struct pair *pr = calloc(r->nh + 1, sizeof(*pr));
	size_t *on = calloc(t->nsw + 1, sizeof(*on)), np = 0;

	if (!pr || !on) {
		free(on);
		free(pr);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->nh; i++) {
		const struct hca *h = &r->h[i];
		size_t *home = &r->home[h->server];

		if (!h->good || !r->member[h->server])
			continue;
		on[h->sw]++;
		if (*home == IBTOPO__NONE ||
		    r->leaf_rail[h->sw] < r->leaf_rail[*home])
			*home = h->sw;
	}
	for (size_t i = 0; i < r->nh; i++) {
		const struct hca *h = &r->h[i];
		size_t home = r->home[h->server];

		if (!h->good || !r->member[h->server] || home == h->sw)
			continue;
		pr[np].a = home;
		pr[np++].b = h->sw;
	}
	qsort(pr, np, sizeof(*pr), pair_cmp);
	for (size_t i = 0; i < t->nsw; i++)
		r->uf[i] = i;
	for (size_t i = 0, j; i < np; i = j) {
		size_t least;

		for (j = i; j < np && pr[j].a == pr[i].a && pr[j].b == pr[i].b; j++)
			;
		least = on[pr[i].a] < on[pr[i].b] ? on[pr[i].a] : on[pr[i].b];
		if ((j - i) * 2 > least) {
			size_t a = uf_find(r->uf, pr[i].a), b = uf_find(r->uf, pr[i].b);

			if (a != b)
				r->uf[a > b ? a : b] = a < b ? a : b;
		}
	}
	for (size_t i = 0; i < t->nsw; i++) {
		size_t root = uf_find(r->uf, i);

		r->unit[i] = IBTOPO__NONE;
		if (r->leaf_rail[i] < 0 || !on[i])
			continue;
		if (r->unit[root] == IBTOPO__NONE || root == i) {
			if (r->unit[root] == IBTOPO__NONE)
				r->unit[root] = t->nunits++;
		}
		r->unit[i] = r->unit[root];
	}
	free(pr);
	r->unit_leaf = calloc(t->nunits * r->R + 1, sizeof(*r->unit_leaf));
	t->unit_servers = calloc(t->nunits + 1, sizeof(*t->unit_servers));
	if (!r->unit_leaf || !t->unit_servers) {
		free(on);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->nunits * r->R; i++)
		r->unit_leaf[i] = IBTOPO__NONE;
	for (size_t i = 0; i < t->nsw; i++) {
		size_t *l;

		if (r->unit[i] == IBTOPO__NONE)
			continue;
		l = &r->unit_leaf[r->unit[i] * r->R + (size_t)r->leaf_rail[i]];
		if (*l == IBTOPO__NONE || on[i] > on[*l])
			*l = i;
	}
	for (size_t s = 0; s < t->nservers; s++)
		if (r->member[s] && r->home[s] != IBTOPO__NONE)
			t->unit_servers[r->unit[r->home[s]]]++;
	free(on);
	return 0;
}

int ibtopo__rails_analyze(struct ibtopo_topology *t,
			  struct ibtopo_findings *out, struct ibtopo_error *err)
{
	struct rails r;
	size_t *per = NULL, good = 0, total = 0;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.h = calloc(ibtopo_fabric_node_count(t->fabric) + 1, sizeof(*r.h));
	per = calloc(t->nservers + 1, sizeof(*per));
	r.member = calloc(t->nservers + 1, sizeof(*r.member));
	r.home = calloc(t->nservers + 1, sizeof(*r.home));
	if (!r.h || !per || !r.member || !r.home) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	if (!collect(&r, t))
		goto out_free;
	rank_rails(&r);
	if (r.R < MIN_RAILS)
		goto out_free;
	/* on the rails: servers with HCAs on more than half of them */
	for (size_t i = 0; i < r.nh; i++)
		per[r.h[i].server] += r.h[i].rail >= 0;
	for (size_t s = 0; s < t->nservers; s++) {
		r.member[s] = per[s] * 2 > r.R;
		r.home[s] = IBTOPO__NONE;
		t->rail_servers += r.member[s];
	}
	if (t->rail_servers < 2)
		goto out_free;
	r.count = calloc(t->nsw * r.R + 1, sizeof(*r.count));
	r.leaf_rail = calloc(t->nsw + 1, sizeof(*r.leaf_rail));
	r.uf = calloc(t->nsw + 1, sizeof(*r.uf));
	r.unit = calloc(t->nsw + 1, sizeof(*r.unit));
	t->rail_hcas = calloc(r.R, sizeof(*t->rail_hcas));
	if (!r.count || !r.leaf_rail || !r.uf || !r.unit || !t->rail_hcas) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < r.nh; i++)
		if (r.h[i].rail >= 0 && r.member[r.h[i].server])
			r.count[r.h[i].sw * r.R + (size_t)r.h[i].rail]++;
	for (size_t i = 0; i < t->nsw; i++) {
		size_t best = 0;

		r.leaf_rail[i] = -1;
		for (unsigned k = 0; k < r.R; k++)
			if (r.count[i * r.R + k] > best) {
				best = r.count[i * r.R + k];
				r.leaf_rail[i] = (int)k;
			}
	}
	/* every rail has a leaf, and 90% of the HCAs are on their rail */
	for (unsigned k = 0; k < r.R; k++) {
		bool leaf = false;

		for (size_t i = 0; i < t->nsw && !leaf; i++)
			leaf = r.leaf_rail[i] == (int)k;
		if (!leaf)
			goto out_not;
	}
	for (size_t i = 0; i < r.nh; i++) {
		struct hca *h = &r.h[i];

		if (h->rail < 0 || !r.member[h->server])
			continue;
		total++;
		h->good = r.leaf_rail[h->sw] == h->rail;
		good += h->good;
	}
	if (good * 10 < total * 9)
		goto out_not;
	ret = units(&r, t, err);
	if (ret)
		goto out_free;
	t->nrails = r.R;
	t->cls = IBTOPO_TOPOLOGY_RAIL_OPTIMIZED;
	ret = findings(&r, t, out, err);
	/* kept for ibtopo_topology_node_rail() */
	t->leaf_rail = r.leaf_rail;
	r.leaf_rail = NULL;
	t->leaf_unit = r.unit;
	r.unit = NULL;
	goto out_free;
out_not:
	t->rail_servers = 0;
	free(t->rail_hcas);
	t->rail_hcas = NULL;
out_free:
	rails_free(&r);
	free(per);
	return ret;
}
