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

/*
 * The spine of group g that lacks the most global links (the first), or,
 * when none lacks any, the one with the fewest.
 */
static size_t freest_spine(const struct ibtopo_topology *t, size_t g,
			   const size_t *lack)
{
	size_t best = IBTOPO__NONE;

	for (size_t u = 0; u < t->nsw; u++) {
		if (t->sw[u].level != 2 || t->sw[u].group != g)
			continue;
		if (best == IBTOPO__NONE || lack[u] > lack[best] ||
		    (lack[u] == lack[best] &&
		     t->sw[u].global < t->sw[best].global))
			best = u;
	}
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

/*
 * The number of global links most pairs of groups have (the larger on a
 * tie). Link counts per pair are small: a count above 255 counts as 255.
 */
static size_t pair_mode(const struct ibtopo_topology *t)
{
	size_t G = t->ngroups, hist[256] = { 0 }, best = 0;

	for (size_t a = 0; a < G; a++)
		for (size_t b = a + 1; b < G; b++) {
			size_t n = t->pair_links[a * G + b];

			hist[n < 255 ? n : 255]++;
		}
	for (size_t n = 1; n < 256; n++)
		if (hist[n] >= hist[best])
			best = n;
	return best;
}

/*
 * A pair of groups joined by fewer global links than most pairs: one
 * finding per missing link, between the two spines that lack one (the
 * free global ports are where it goes). Each spine's lack is spent, so
 * that a missing cable is not reported again as two uneven spines.
 */
static int missing_globals(struct ibtopo_topology *t, size_t *lack,
			   size_t usual_pair, struct ibtopo_findings *out,
			   struct ibtopo_error *err)
{
	size_t G = t->ngroups;
	int ret = 0;

	for (size_t a = 0; a < G && !ret; a++)
		for (size_t b = a + 1; b < G && !ret; b++) {
			size_t have = t->pair_links[a * G + b];

			for (size_t k = have; k < usual_pair && !ret; k++) {
				struct ibtopo_finding fd;
				size_t sa = freest_spine(t, a, lack);
				size_t sb = freest_spine(t, b, lack);

				finding(&fd, IBTOPO_DFP_MISSING_GLOBAL);
				ibtopo__topology_end_switch(&fd.a, t, sa);
				ibtopo__topology_end_switch(&fd.b, t, sb);
				fd.num.dragonfly.usual = (unsigned)usual_pair;
				fd.num.dragonfly.count = (unsigned)have;
				fd.num.dragonfly.group_a = (double)(a + 1);
				fd.num.dragonfly.group_b = (double)(b + 1);
				if (lack[sa])
					lack[sa]--;
				if (lack[sb])
					lack[sb]--;
				ret = ibtopo__topology_add(out, &fd, err);
			}
		}
	return ret;
}

int ibtopo__dragonfly_findings(struct ibtopo_topology *t,
			       struct ibtopo_findings *out,
			       struct ibtopo_error *err)
{
	size_t G = t->ngroups, *v, *lack, nv = 0, usual, usual_pair;
	size_t ul, us, uh;
	int ret = 0;

	v = calloc((G > t->nsw ? G : t->nsw) + 1, sizeof(*v));
	lack = calloc(t->nsw + 1, sizeof(*lack));
	if (!v || !lack) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
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
		fd.num.dragonfly.usual = (unsigned)ul;
		fd.num.dragonfly.count = (unsigned)g->leaves;
		fd.num.dragonfly.servers = (double)g->servers;
		fd.num.dragonfly.spines = (double)g->spines;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	/* what each spine lacks of the usual number of global links */
	for (size_t u = 0; u < t->nsw; u++)
		if (t->sw[u].level == 2)
			v[nv++] = t->sw[u].global;
	usual = mode(v, nv);
	for (size_t u = 0; u < t->nsw; u++)
		if (t->sw[u].level == 2 && t->sw[u].global < usual)
			lack[u] = usual - t->sw[u].global;
	/* every pair of groups linked, by as many links as most pairs */
	usual_pair = pair_mode(t);
	if (!ret)
		ret = missing_globals(t, lack, usual_pair ? usual_pair : 1, out,
				      err);
	/* global links evenly over the spines: what no missing link explains */
	for (size_t u = 0; u < t->nsw && !ret; u++) {
		struct ibtopo_finding fd;

		if (!lack[u])
			continue;
		finding(&fd, IBTOPO_DFP_UNEVEN_GLOBAL);
		ibtopo__topology_end_switch(&fd.a, t, u);
		fd.num.dragonfly.usual = (unsigned)usual;
		fd.num.dragonfly.count = (unsigned)t->sw[u].global;
		ret = ibtopo__topology_add(out, &fd, err);
	}
out_free:
	free(lack);
	free(v);
	return ret;
}
