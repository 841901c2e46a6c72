/*
 * topology_levels.c - the ranking of the switches: levels found from the
 * leaves up (or down from the roots a file or a pattern names), the links
 * a layering breaks, and the figures of each level.
 */
#include "topology-int.h"
#include "findings/findings-int.h"
#include "analysis/analysis-int.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Levels                                                              */
/* ------------------------------------------------------------------ */

/* Multi-source BFS: hops from the nearest source; -1 if unreachable. */
void ibtopo__levels_bfs(const struct ibtopo_topology *t, const bool *src,
			int *dist, size_t *queue)
{
	size_t head = 0, tail = 0;

	for (size_t i = 0; i < t->nsw; i++) {
		dist[i] = src[i] ? 0 : -1;
		if (src[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		size_t u = queue[head++];

		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t v = t->adj[j].v;

			if (dist[v] < 0) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}

/* Links a layering leaves breaking the rules (counted per cable). */
size_t ibtopo__levels_violations(const struct ibtopo_topology *t,
				 const int *level)
{
	size_t v = 0;

	for (size_t u = 0; u < t->nsw; u++) {
		if (level[u] > 1)
			v += t->sw[u].host_links;
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			size_t w = t->adj[j].v;
			int d = level[u] - level[w];

			if (w < u || !level[u] || !level[w])
				continue;
			if (d == 0 || d >= 2 || d <= -2)
				v += t->adj[j].mult;
		}
	}
	return v;
}

/* The two readings of one leaf set: BFS upward, and local roots on top. */
static void layer_from_leaves(const struct ibtopo_topology *t, const bool *leaf,
			      int *up, int *top, size_t *queue)
{
	int maxh = -1;

	ibtopo__levels_bfs(t, leaf, up, queue);
	for (size_t i = 0; i < t->nsw; i++)
		if (up[i] > maxh)
			maxh = up[i];
	for (size_t i = 0; i < t->nsw; i++) {
		bool root = up[i] > 0;

		for (size_t j = t->off[i]; root && j < t->off[i + 1]; j++)
			if (up[t->adj[j].v] > up[i])
				root = false;
		top[i] = up[i] < 0 ? 0 : (root ? maxh + 1 : up[i] + 1);
		up[i] = up[i] < 0 ? 0 : up[i] + 1;
	}
}

static int assign_levels_auto(struct ibtopo_topology *t,
			      struct ibtopo_error *err)
{
	size_t n = t->nsw;
	bool *leafA = calloc(n + 1, sizeof(bool));
	bool *leafB = calloc(n + 1, sizeof(bool));
	int *cand[4] = { NULL };
	size_t *queue = calloc(n + 1, sizeof(*queue));
	size_t best = IBTOPO__NONE, bestv = 0, nb = 0;
	bool any = false, b_differs = false;
	int ret = 0;

	for (int i = 0; i < 4; i++)
		cand[i] = calloc(n + 1, sizeof(int));
	if (!leafA || !leafB || !queue || !cand[0] || !cand[1] || !cand[2] ||
	    !cand[3]) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n; i++) {
		leafA[i] = t->sw[i].host_links > 0;
		any |= leafA[i];
	}
	if (!any)
		goto out_free; /* no servers: nothing to rank from */
	/* Reading B: a switch with servers whose neighbours all have servers
	 * too (no uplink) may be a spine that also carries servers. */
	for (size_t i = 0; i < n; i++) {
		bool up = false;

		for (size_t j = t->off[i]; j < t->off[i + 1]; j++)
			if (!leafA[t->adj[j].v])
				up = true;
		leafB[i] = leafA[i] && (up || t->off[i + 1] == t->off[i]);
		if (leafA[i] && !leafB[i] && t->off[i + 1] > t->off[i])
			b_differs = true;
		nb += leafB[i];
	}
	layer_from_leaves(t, leafA, cand[0], cand[1], queue);
	if (b_differs && nb)
		layer_from_leaves(t, leafB, cand[2], cand[3], queue);
	for (size_t c = 0; c < 4; c++) {
		size_t v;

		if (c >= 2 && !(b_differs && nb))
			break;
		v = ibtopo__levels_violations(t, cand[c]);
		if (best == IBTOPO__NONE || v < bestv) {
			best = c;
			bestv = v;
		}
	}
	for (size_t i = 0; i < n; i++)
		t->sw[i].level = cand[best][i];
out_free:
	for (int i = 0; i < 4; i++)
		free(cand[i]);
	free(queue);
	free(leafB);
	free(leafA);
	return ret;
}

static int assign_levels_roots(struct ibtopo_topology *t, const bool *root,
			       struct ibtopo_error *err)
{
	int *d = calloc(t->nsw + 1, sizeof(int));
	size_t *queue = calloc(t->nsw + 1, sizeof(*queue));
	int deepest = -1, maxd = 0;

	if (!d || !queue) {
		free(queue);
		free(d);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	ibtopo__levels_bfs(t, root, d, queue);
	for (size_t i = 0; i < t->nsw; i++) {
		if (d[i] > maxd)
			maxd = d[i];
		if (t->sw[i].host_links && d[i] > deepest)
			deepest = d[i];
	}
	if (deepest < 0)
		deepest = maxd;
	/* Leaves at the deepest level; anything hanging below them joins it. */
	for (size_t i = 0; i < t->nsw; i++) {
		int l = deepest - d[i] + 1;

		t->sw[i].level = d[i] < 0 ? 0 : (l < 1 ? 1 : l);
	}
	free(queue);
	free(d);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Roots: file and pattern                                             */
/* ------------------------------------------------------------------ */

/* The switch a roots line names: a GUID, a description or a short name. */
static int switch_by_word(size_t *out, const struct ibtopo_topology *t,
			  const char *w, struct ibtopo_error *err)
{
	struct ibtopo__node_lookup how = {
		.types = 1u << IBTOPO_NODE_SWITCH,
		.bare_guids = true,
		.alias =
			ibtopo__topology_short_namer, /* "ib1" for "MF0;ib1:..." */
	};
	struct ibtopo_node *n = NULL;
	int rc;

	*out = IBTOPO__NONE;
	rc = ibtopo__fabric_lookup(&n, t->fabric, w, &how, err);
	if (!rc)
		*out = t->node2sw[n->index];
	return rc;
}

/* The switches the roots file names: each of its words must name one. */
static int roots_named(struct ibtopo_topology *t,
		       const struct ibtopo__roots *roots, bool *root,
		       struct ibtopo_error *err)
{
	int ret = 0;

	for (size_t k = 0; !ret && k < roots->n; k++) {
		const char *s = roots->lines[k].word;
		unsigned lineno = roots->lines[k].line;
		size_t i;

		ret = switch_by_word(&i, t, s, err);
		if (ret == IBTOPO_ENOTFOUND || (!ret && i == IBTOPO__NONE)) {
			char q[IBTOPO__QUOTE_MAX];

			ret = ibtopo__error_set(err, IBTOPO_EINVAL,
						"%s:%u: '%s' names no switch",
						roots->path, lineno,
						ibtopo__quote(q, sizeof(q), s,
							      strlen(s)));
		} else if (ret) {
			/* several switches go by that name */
			ibtopo__error_prefix(err, "%s:%u", roots->path, lineno);
		} else {
			root[i] = true;
		}
	}
	return ret;
}

static int match_roots(struct ibtopo_topology *t, const char *pattern,
		       bool *root, struct ibtopo_error *err)
{
	regex_t re;
	char msg[128];
	size_t hits = 0;
	int rc;

	rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &re, msg, sizeof(msg));
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad root pattern '%s': %s", pattern,
					 msg);
	}
	for (size_t i = 0; i < t->nsw; i++) {
		if (regexec(&re, t->sw[i].node->desc, 0, NULL, 0) == 0) {
			root[i] = true;
			hits++;
		}
	}
	regfree(&re);
	if (!hits)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "root pattern '%s' matches no switch",
					 pattern);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Per level                                                           */
/* ------------------------------------------------------------------ */

/*
 * The fabric's figures from the level table, so that the headline and
 * the table cannot disagree: a level's bisection is half its uplinks'
 * bandwidth, or half that of the servers at and below it where that is
 * less; the fabric's is the least of them. The blocking factor is the
 * largest ratio of the servers at and below a level to its uplinks (by
 * link counts when a speed on the level is unknown, as its OVERSUB): with every server on a
 * leaf, their bandwidth over the narrowest level's uplinks, and the
 * leaves' OVERSUB of a two-level tree. Servers cabled to a spine do not
 * load the leaves' uplinks. A level below the top without uplinks
 * leaves both undefined (0).
 */
static void levels_bandwidth(struct ibtopo_topology *t, const double *host_at,
			     const bool *counted_unknown)
{
	double below = 0, worst = 0, narrow = 0;
	size_t below_links = 0;
	double worst_links = 0;
	bool counts = false, cut = false;

	for (unsigned l = 0; l < t->nlevels; l++) {
		struct ibtopo_topology_level *v = &t->levels[l];

		below += host_at[l];
		below_links += v->host_links;
		v->bisection_gbps =
			(below > 0 && below < v->up_gbps ? below : v->up_gbps) /
			2;
		if (l + 1 == t->nlevels)
			break;
		if (!v->up_links) {
			cut = true;
			continue;
		}
		if (v->up_gbps <= 0 || counted_unknown[l])
			counts = true;
		else if (below / v->up_gbps > worst)
			worst = below / v->up_gbps;
		if ((double)below_links / (double)v->up_links > worst_links)
			worst_links = (double)below_links / (double)v->up_links;
		if (l == 0 || v->bisection_gbps < narrow)
			narrow = v->bisection_gbps;
	}
	t->blocking = 0;
	t->bisection = 0;
	if (cut || t->nlevels < 2)
		return;
	t->blocking = counts ? worst_links : worst;
	t->bisection = counts ? 0 : narrow;
}

int ibtopo__levels_stats(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nl = ibtopo_fabric_link_count(f);
	double *host_at;
	bool *counted_unknown;
	unsigned L = 0;
	size_t *seen;

	for (size_t i = 0; i < t->nsw; i++)
		if (t->sw[i].level > 0 && (unsigned)t->sw[i].level > L)
			L = (unsigned)t->sw[i].level;
	t->nlevels = L;
	if (!L)
		return 0;
	t->levels = calloc(L, sizeof(*t->levels));
	counted_unknown = calloc(L, sizeof(bool));
	host_at = calloc(L, sizeof(*host_at));
	seen = calloc(t->nchassis * L + 1, sizeof(*seen));
	if (!t->levels || !counted_unknown || !host_at || !seen) {
		free(seen);
		free(host_at);
		free(counted_unknown);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (unsigned l = 0; l < L; l++)
		t->levels[l].level = l + 1;
	for (size_t i = 0; i < t->nsw; i++) {
		int l = t->sw[i].level;

		if (l <= 0)
			continue;
		t->levels[l - 1].switches++;
		if (!seen[t->sw[i].chassis * L + (size_t)(l - 1)]++)
			t->levels[l - 1].chassis++;
	}
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *lk = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a = lk->a->node, *b = lk->b->node;
		double g = ibtopo_link_gbps(lk->speed, lk->width);
		int la, lb;

		if (ibtopo__topology_is_switch(a) &&
		    ibtopo__topology_is_switch(b)) {
			if (a == b)
				continue;
			la = t->sw[t->node2sw[a->index]].level;
			lb = t->sw[t->node2sw[b->index]].level;
			/* an idle line chip carries no traffic */
			if (!la || !lb || t->sw[t->node2sw[a->index]].idle ||
			    t->sw[t->node2sw[b->index]].idle)
				continue;
			if (la == lb) {
				t->levels[la - 1].same_links++;
				continue;
			}
			if (la > lb) {
				int x = la;

				la = lb;
				lb = x;
			}
			t->levels[la - 1].up_links++;
			t->levels[la - 1].up_gbps += g;
			t->levels[lb - 1].down_links++;
			t->levels[lb - 1].down_gbps += g;
			if (g <= 0) {
				counted_unknown[la - 1] = true;
				counted_unknown[lb - 1] = true;
			}
			continue;
		}
		if (ibtopo__topology_is_switch(b)) {
			const struct ibtopo_node *x = a;

			a = b;
			b = x;
		}
		if (!ibtopo__topology_is_switch(a) || b->type != IBTOPO_NODE_CA)
			continue;
		la = t->sw[t->node2sw[a->index]].level;
		if (!la || ibtopo__node_in_switch(b))
			continue;
		t->levels[la - 1].host_links++;
		t->levels[la - 1].down_links++;
		t->levels[la - 1].down_gbps += g;
		t->host_gbps += g;
		host_at[la - 1] += g;
		if (g <= 0)
			counted_unknown[la - 1] = true;
	}
	for (unsigned l = 0; l < L; l++) {
		struct ibtopo_topology_level *v = &t->levels[l];

		if (v->up_links) {
			if (counted_unknown[l] || v->up_gbps <= 0)
				v->oversubscription = (double)v->down_links /
						      (double)v->up_links;
			else
				v->oversubscription = v->down_gbps / v->up_gbps;
		}
	}
	levels_bandwidth(t, host_at, counted_unknown);
	free(seen);
	free(host_at);
	free(counted_unknown);
	return 0;
}

int ibtopo__levels_rank(struct ibtopo_topology *t,
			const struct ibtopo_topology_opts *opts,
			const struct ibtopo__roots *roots,
			struct ibtopo_error *err)
{
	bool *root;
	int ret = 0;

	if (!roots && !opts->root_pattern)
		return assign_levels_auto(t, err);
	root = calloc(t->nsw + 1, sizeof(bool));
	if (!root)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (roots)
		ret = roots_named(t, roots, root, err);
	if (!ret && opts->root_pattern)
		ret = match_roots(t, opts->root_pattern, root, err);
	for (size_t i = 0; i < t->nsw; i++)
		t->nroots += root[i];
	if (!ret && !t->nroots)
		ret = ibtopo__error_set(
			err, IBTOPO_EINVAL, "roots file '%s' names no switch",
			opts->roots_file ? opts->roots_file : "");
	if (!ret)
		ret = assign_levels_roots(t, root, err);
	t->from_roots = true;
	free(root);
	return ret;
}
