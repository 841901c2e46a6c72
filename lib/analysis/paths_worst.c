/*
 * paths_worst.c - what paths.c's leaf-pair counts lead to: the pairs of
 * leaf switches with the fewest paths, and one low-path-diversity finding
 * per leaf for the pairs below min_paths.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Worst pairs and findings                                            */
/* ------------------------------------------------------------------ */

static int pair_cmp(const struct ibtopo__pair *a, const struct ibtopo__pair *b)
{
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->edge != b->edge)
		return a->edge < b->edge ? -1 : 1;
	if (a->ecmp != b->ecmp)
		return a->ecmp < b->ecmp ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

static void fill_pair(struct ibtopo_topology *t, struct ibtopo__pair *p,
		      size_t a, size_t b)
{
	size_t ci = t->leaf_class[a], cj = t->leaf_class[b];

	p->a = a;
	p->b = b;
	p->edge = *ibtopo__paths_cell(t, IBTOPO_PATHS_EDGE_DISJOINT, ci, cj);
	p->node = t->leaf_dist[IBTOPO_PATHS_NODE_DISJOINT].computed ?
			  *ibtopo__paths_cell(t, IBTOPO_PATHS_NODE_DISJOINT, ci,
					      cj) :
			  0;
	p->ecmp = *ibtopo__paths_cell(t, IBTOPO_PATHS_ECMP, ci, cj);
}

/* A pair of leaf classes, with the counts its leaf pairs share. */
struct class_pair {
	struct ibtopo__pair p; /* its first leaf pair */
	size_t i, j;
};

static int class_pair_cmp(const void *x, const void *y)
{
	const struct class_pair *a = x, *b = y;

	return pair_cmp(&a->p, &b->p);
}

static bool same_counts(const struct ibtopo__pair *a,
			const struct ibtopo__pair *b)
{
	return a->node == b->node && a->edge == b->edge && a->ecmp == b->ecmp;
}

/* Keep p if it is among the IBTOPO__WORST_PAIRS lowest so far. */
static void worst_insert(struct ibtopo_topology *t,
			 const struct ibtopo__pair *p)
{
	size_t pos;

	if (t->nworst == IBTOPO__WORST_PAIRS &&
	    pair_cmp(p, &t->worst[t->nworst - 1]) >= 0)
		return;
	pos = t->nworst < IBTOPO__WORST_PAIRS ? t->nworst++ : t->nworst - 1;
	while (pos && pair_cmp(p, &t->worst[pos - 1]) < 0) {
		t->worst[pos] = t->worst[pos - 1];
		pos--;
	}
	t->worst[pos] = *p;
}

/*
 * The lowest pairs, ties broken by name: class pairs sorted by their
 * counts, each expanded into its first leaf pairs, until the class pairs
 * left all count more than the worst pairs kept.
 */
int ibtopo__paths_worst(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	size_t n = t->nclass, L = t->nleaves, ncp = 0;
	struct class_pair *cp = calloc(n * (n + 1) / 2 + 1, sizeof(*cp));
	size_t *off = calloc(n + 2, sizeof(*off)),
	       *mem = calloc(L + 1, sizeof(*mem));
	size_t *fill = calloc(n + 1, sizeof(*fill));
	int ret = 0;

	t->nworst = 0;
	if (!cp || !off || !mem || !fill) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	/* members of each class, in leaf (name) order */
	for (size_t l = 0; l < L; l++)
		off[t->leaf_class[l] + 1]++;
	for (size_t i = 0; i < n; i++)
		off[i + 1] += off[i];
	memcpy(fill, off, n * sizeof(*fill));
	for (size_t l = 0; l < L; l++)
		mem[fill[t->leaf_class[l]]++] = l;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i; j < n; j++) {
			size_t a = mem[off[i]];
			size_t b = i == j ? mem[off[i] + 1] : mem[off[j]];

			if (i == j && off[i + 1] - off[i] < 2)
				continue;
			fill_pair(t, &cp[ncp].p, a < b ? a : b, a < b ? b : a);
			cp[ncp].i = i;
			cp[ncp++].j = j;
		}
	}
	qsort(cp, ncp, sizeof(*cp), class_pair_cmp);
	for (size_t k = 0; k < ncp; k++) {
		size_t i = cp[k].i, j = cp[k].j, got = 0;

		if (t->nworst == IBTOPO__WORST_PAIRS &&
		    !same_counts(&cp[k].p, &t->worst[t->nworst - 1]))
			break;
		for (size_t x = off[i];
		     x < off[i + 1] && got < IBTOPO__WORST_PAIRS; x++) {
			for (size_t y = i == j ? x + 1 : off[j];
			     y < off[j + 1] && got < IBTOPO__WORST_PAIRS; y++) {
				struct ibtopo__pair p;
				size_t a = mem[x], b = mem[y];

				fill_pair(t, &p, a < b ? a : b, a < b ? b : a);
				worst_insert(t, &p);
				got++;
			}
		}
	}
out_free:
	free(fill);
	free(mem);
	free(off);
	free(cp);
	return ret;
}

static unsigned long long diversity(struct ibtopo_topology *t, size_t a,
				    size_t b)
{
	int m = t->leaf_dist[IBTOPO_PATHS_NODE_DISJOINT].computed ?
			IBTOPO_PATHS_NODE_DISJOINT :
			IBTOPO_PATHS_EDGE_DISJOINT;

	return *ibtopo__paths_cell(t, m, t->leaf_class[a], t->leaf_class[b]);
}

/*
 * One finding per leaf switch, for the pairs below min_paths: the leaf
 * with the most such pairs takes them all, then the next, so a leaf cut
 * off by one uplink is one finding, not one per peer.
 */
int ibtopo__paths_leaf_findings(struct ibtopo_topology *t,
				struct ibtopo_findings *out,
				struct ibtopo_error *err)
{
	size_t L = t->nleaves;
	unsigned char *done = NULL;
	size_t *bad = NULL;
	bool any = false;
	int ret = 0;

	bad = calloc(L + 1, sizeof(*bad));
	if (!bad)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t a = 0; a < L; a++)
		for (size_t b = 0; b < L; b++)
			if (a != b && diversity(t, a, b) < t->min_paths) {
				bad[a]++;
				any = true;
			}
	if (!any)
		goto out_free;
	done = calloc(L * L / 8 + 1, 1);
	if (!done) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
#define DONE(a, b) (done[((a)*L + (b)) / 8] & (1u << (((a)*L + (b)) % 8)))
#define SET_DONE(a, b) \
	(done[((a)*L + (b)) / 8] |= (unsigned char)(1u << (((a)*L + (b)) % 8)))
	for (;;) {
		struct ibtopo_finding f;
		size_t best = IBTOPO__NONE, worst = IBTOPO__NONE;
		unsigned long long wv = 0;

		for (size_t a = 0; a < L; a++)
			if (bad[a] &&
			    (best == IBTOPO__NONE || bad[a] > bad[best]))
				best = a;
		if (best == IBTOPO__NONE)
			break;
		for (size_t b = 0; b < L; b++) {
			unsigned long long v;

			if (b == best || DONE(best, b))
				continue;
			v = diversity(t, best, b);
			if (v >= t->min_paths)
				continue;
			if (worst == IBTOPO__NONE || v < wv) {
				worst = b;
				wv = v;
			}
		}
		ibtopo__finding_init(&f, IBTOPO_FIND_LOW_PATH_DIVERSITY);
		f.subkind = IBTOPO_LPD_LEAF_PAIR;
		f.a.node = t->sw[t->leaves[best]].node->desc;
		f.a.guid = t->sw[t->leaves[best]].node->guid;
		f.b.node = t->sw[t->leaves[worst]].node->desc;
		f.b.guid = t->sw[t->leaves[worst]].node->guid;
		f.num.paths.min_paths = t->min_paths;
		f.num.paths.paths = (unsigned)(wv > UINT_MAX ? UINT_MAX : wv);
		f.num.paths.leaves = (double)bad[best];
		t->sw[t->leaves[best]].low = true;
		for (size_t b = 0; b < L; b++) {
			if (b == best || DONE(best, b) ||
			    diversity(t, best, b) >= t->min_paths)
				continue;
			SET_DONE(best, b);
			SET_DONE(b, best);
			bad[best]--;
			bad[b]--;
			t->sw[t->leaves[b]].low = true;
		}
		if (out) {
			ret = ibtopo_findings_add(out, &f, err);
			if (ret)
				break;
		}
	}
#undef DONE
#undef SET_DONE
out_free:
	free(done);
	free(bad);
	return ret;
}
