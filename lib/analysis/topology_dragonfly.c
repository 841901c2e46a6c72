/*
 * topology_dragonfly.c - Dragonfly+ fabrics: groups of leaves and spines
 * (each group a 2-level fat tree), joined by global links between the
 * spines of different groups. Recognition and rules are in ibtopo.h.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 4096

static size_t uf_find(size_t *p, size_t i)
{
	while (p[i] != i) {
		p[i] = p[p[i]];
		i = p[i];
	}
	return i;
}

int ibtopo__dragonfly_detect(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	size_t *uf, *gid = NULL, G = 0;
	int ret = 0;

	if (t->nlevels != 2 || t->levels[1].host_links || t->levels[0].same_links ||
	    !t->levels[1].same_links)
		return 0;
	uf = calloc(t->nsw + 1, sizeof(*uf));
	if (!uf)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nsw; i++)
		uf[i] = i;
	for (size_t u = 0; u < t->nsw; u++) {
		if (t->sw[u].level != 1)
			continue;
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t a = uf_find(uf, u), b = uf_find(uf, t->adj[j].v);

			if (t->sw[t->adj[j].v].level == 2 && a != b)
				uf[a > b ? a : b] = a < b ? a : b;
		}
	}
	gid = calloc(t->nsw + 1, sizeof(*gid));
	if (!gid) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < t->nsw; i++)
		gid[i] = IBTOPO__NONE;
	/* groups numbered in the order of their first leaf's name */
	for (size_t k = 0; k < t->nleaves; k++) {
		size_t r = uf_find(uf, t->leaves[k]);

		if (gid[r] == IBTOPO__NONE)
			gid[r] = G++;
	}
	for (size_t i = 0; i < t->nsw; i++) {
		size_t r = uf_find(uf, i);

		if (!t->sw[i].level || gid[r] == IBTOPO__NONE)
			goto out_free;
		t->sw[i].group = gid[r];
	}
	if (G < 2 || G > MAX_GROUPS)
		goto out_free;
	/* spine links join two groups; every group has leaves and spines */
	t->groups = calloc(G, sizeof(*t->groups));
	t->pair_links = calloc(G * G, sizeof(*t->pair_links));
	if (!t->groups || !t->pair_links) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_not;
	}
	for (size_t u = 0; u < t->nsw; u++) {
		struct ibtopo__group *g = &t->groups[t->sw[u].group];

		t->sw[u].global = 0;
		if (t->sw[u].level == 1) {
			if (!g->leaves++ ||
			    t->sw[u].leaf < t->sw[g->first].leaf)
				g->first = u;
			g->servers += t->sw[u].host_links;
			continue;
		}
		g->spines++;
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t v = t->adj[j].v;

			if (t->sw[v].level != 2)
				continue;
			if (t->sw[v].group == t->sw[u].group)
				goto out_not;
			t->sw[u].global += t->adj[j].mult;
			g->global += t->adj[j].mult;
			t->pair_links[t->sw[u].group * G + t->sw[v].group] +=
				t->adj[j].mult;
			if (u < v)
				t->global_links += t->adj[j].mult;
		}
	}
	for (size_t k = 0; k < G; k++)
		if (!t->groups[k].leaves || !t->groups[k].spines)
			goto out_not;
	t->ngroups = G;
	t->cls = IBTOPO_TOPOLOGY_DRAGONFLY_PLUS;
	t->reason = NULL;
	goto out_free;
out_not:
	free(t->pair_links);
	free(t->groups);
	t->pair_links = NULL;
	t->groups = NULL;
	t->global_links = 0;
out_free:
	free(gid);
	free(uf);
	return ret;
}

static void finding(struct ibtopo_finding *f, int subkind)
{
	ibtopo__finding_init(f, IBTOPO_FIND_DRAGONFLY_VIOLATION);
	f->subkind = subkind;
}

/* The spine of group g with the fewest global links (the first). */
static size_t freest_spine(const struct ibtopo_topology *t, size_t g)
{
	size_t best = IBTOPO__NONE;

	for (size_t u = 0; u < t->nsw; u++)
		if (t->sw[u].level == 2 && t->sw[u].group == g &&
		    (best == IBTOPO__NONE || t->sw[u].global < t->sw[best].global))
			best = u;
	return best;
}

/* The most common value (the larger on a tie). */
static size_t mode(const size_t *v, size_t n)
{
	size_t best = 0, bestn = 0;

	for (size_t i = 0; i < n; i++) {
		size_t c = 0;

		for (size_t j = 0; j < n && c <= n; j++)
			c += v[j] == v[i];
		if (c > bestn || (c == bestn && v[i] > best)) {
			best = v[i];
			bestn = c;
		}
		if (bestn * 2 > n)
			break;
	}
	return best;
}

int ibtopo__dragonfly_findings(struct ibtopo_topology *t,
			       struct ibtopo_findings *out,
			       struct ibtopo_error *err)
{
	size_t G = t->ngroups, *v, nv = 0, usual;
	size_t ul, us, uh;
	int ret = 0;

	v = calloc((G > t->nsw ? G : t->nsw) + 1, sizeof(*v));
	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	/* groups of one shape: most groups' leaves, spines and servers */
	for (size_t k = 0; k < G; k++)
		v[k] = t->groups[k].leaves;
	ul = mode(v, G);
	for (size_t k = 0; k < G; k++)
		v[k] = t->groups[k].spines;
	us = mode(v, G);
	for (size_t k = 0; k < G; k++)
		v[k] = t->groups[k].servers;
	uh = mode(v, G);
	for (size_t k = 0; k < G && !ret; k++) {
		const struct ibtopo__group *g = &t->groups[k];
		struct ibtopo_finding fd;

		if (g->leaves == ul && g->spines == us && g->servers == uh)
			continue;
		finding(&fd, IBTOPO_DFP_UNEQUAL_GROUP);
		ibtopo__topology_end_switch(&fd.a, t, g->first);
		fd.expected = (unsigned)ul;
		fd.actual = (unsigned)g->leaves;
		fd.value = (double)g->servers;
		fd.limit = (double)g->spines;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	/* every pair of groups linked */
	for (size_t a = 0; a < G && !ret; a++)
		for (size_t b = a + 1; b < G && !ret; b++) {
			struct ibtopo_finding fd;

			if (t->pair_links[a * G + b])
				continue;
			finding(&fd, IBTOPO_DFP_MISSING_GLOBAL);
			ibtopo__topology_end_switch(&fd.a, t, freest_spine(t, a));
			ibtopo__topology_end_switch(&fd.b, t, freest_spine(t, b));
			ret = ibtopo__topology_add(out, &fd, err);
		}
	/* global links evenly over the spines */
	for (size_t u = 0; u < t->nsw; u++)
		if (t->sw[u].level == 2)
			v[nv++] = t->sw[u].global;
	usual = mode(v, nv);
	for (size_t u = 0; u < t->nsw && !ret; u++) {
		struct ibtopo_finding fd;

		if (t->sw[u].level != 2 || t->sw[u].global >= usual)
			continue;
		finding(&fd, IBTOPO_DFP_UNEVEN_GLOBAL);
		ibtopo__topology_end_switch(&fd.a, t, u);
		fd.expected = (unsigned)usual;
		fd.actual = (unsigned)t->sw[u].global;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	free(v);
	return ret;
}
