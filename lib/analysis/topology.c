/*
 * topology.c - the fabric's layout: servers and chassis, switch levels,
 * the class (single switch, star, fat tree, irregular), bandwidth per
 * level, and the fat-tree rules. Path diversity is paths.c's; the rules
 * for each result are documented in ibtopo.h ("Topology analysis").
 */
#include "topology-int.h"
#include "findings/findings-int.h"
#include "analysis/analysis-int.h"

#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A violating link counts this many times against the fat-tree class. */
#define FAT_TREE_MAX_VIOLATION_SHARE 4	/* at most 1 link in 4 */

const char *ibtopo_topology_class_name(enum ibtopo_topology_class cls)
{
	switch (cls) {
	case IBTOPO_TOPOLOGY_SINGLE_SWITCH:
		return "single-switch";
	case IBTOPO_TOPOLOGY_STAR:
		return "star";
	case IBTOPO_TOPOLOGY_FAT_TREE:
		return "fat-tree";
	case IBTOPO_TOPOLOGY_IRREGULAR:
		return "irregular";
	case IBTOPO_TOPOLOGY_RAIL_OPTIMIZED:
		return "rail-optimized";
	case IBTOPO_TOPOLOGY_DRAGONFLY_PLUS:
		return "dragonfly-plus";
	default:
		return "unknown";
	}
}

/* 'name' as a reason quotes a node: with its GUID when several share it. */
static const char *quoted(const struct ibtopo_topology *t,
			  const struct ibtopo_node *n, char *buf, size_t len)
{
	char name[256];

	if (ibtopo__shared_names_has(&t->desc_names, n->desc))
		snprintf(buf, len, "'%s' (0x%016" PRIx64 ")",
			 ibtopo__quote(name, sizeof(name), n->desc,
				       strlen(n->desc)), n->guid);
	else
		snprintf(buf, len, "'%s'", ibtopo__quote(name, sizeof(name),
							 n->desc, strlen(n->desc)));
	return buf;
}

static int name_cmp(const struct ibtopo_node *a, const struct ibtopo_node *b)
{
	int c = strcmp(a->desc ? a->desc : "", b->desc ? b->desc : "");

	if (c)
		return c;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static void end_node(struct ibtopo_end *e, const struct ibtopo_node *n)
{
	e->node = n ? n->desc : NULL;
	e->guid = n ? n->guid : 0;
	e->port = -1;
}

static void finding_init(struct ibtopo_finding *f, enum ibtopo_finding_kind kind,
			 int subkind)
{
	ibtopo__finding_init(f, kind);
	f->subkind = subkind;
}

/* ------------------------------------------------------------------ */
/* Servers and switch-internal CAs                                     */
/* ------------------------------------------------------------------ */

static bool is_switch(const struct ibtopo_node *n)
{
	return n && n->type == IBTOPO_NODE_SWITCH;
}

struct ca_ref {
	const struct ibtopo_node *ca;
	size_t set;		/* union-find parent (index into refs) */
};

static size_t uf_find(struct ca_ref *r, size_t i)
{
	while (r[i].set != i) {
		r[i].set = r[r[i].set].set;
		i = r[i].set;
	}
	return i;
}

static void uf_union(struct ca_ref *r, size_t a, size_t b)
{
	a = uf_find(r, a);
	b = uf_find(r, b);
	if (a != b)
		r[a > b ? a : b].set = a < b ? a : b;
}

static int ref_by_sysimg(const void *x, const void *y)
{
	const struct ca_ref *a = x, *b = y;
	uint64_t ka = a->ca->sysimg_guid ? a->ca->sysimg_guid : a->ca->guid;
	uint64_t kb = b->ca->sysimg_guid ? b->ca->sysimg_guid : b->ca->guid;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return name_cmp(a->ca, b->ca);
}

struct host_key {
	const char *desc;
	size_t len;		/* of the host word; 0 = none */
	size_t ref;
};

static int host_key_cmp(const void *x, const void *y)
{
	const struct host_key *a = x, *b = y;
	int c = strncmp(a->desc, b->desc, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->ref < b->ref ? -1 : a->ref > b->ref;
}

static int attach_cmp(const void *x, const void *y)
{
	const struct ibtopo__attach *a = x, *b = y;

	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static int server_cmp(const void *x, const void *y)
{
	const struct ibtopo__server *a = x, *b = y;

	return name_cmp(a->ca, b->ca);
}

/* Group the CAs cabled to switches into servers. */
static int build_servers(struct ibtopo_topology *t, const bool *internal,
			 struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nn = ibtopo_fabric_node_count(f), nref = 0, *order = NULL;
	struct ca_ref *refs = NULL;
	struct host_key *keys = NULL;
	int ret = 0;

	refs = calloc(nn ? nn : 1, sizeof(*refs));
	order = calloc(nn ? nn : 1, sizeof(*order));
	keys = calloc(nn ? nn : 1, sizeof(*keys));
	if (!refs || !order || !keys) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);
		bool cabled = false;

		if (n->type != IBTOPO_NODE_CA || internal[n->index])
			continue;
		for (unsigned p = 1; p <= n->nports; p++)
			if (n->ports[p] && n->ports[p]->remote &&
			    is_switch(n->ports[p]->remote->node))
				cabled = true;
		if (cabled)
			refs[nref++].ca = n;
	}
	qsort(refs, nref, sizeof(*refs), ref_by_sysimg);
	for (size_t i = 0; i < nref; i++) {
		refs[i].set = i;
		keys[i].desc = refs[i].ca->desc;
		keys[i].len = ibtopo__desc_host_word(refs[i].ca->desc);
		keys[i].ref = i;
	}
	/* Same system image GUID: one server. */
	for (size_t i = 1; i < nref; i++) {
		const struct ibtopo_node *a = refs[i - 1].ca, *b = refs[i].ca;

		if ((a->sysimg_guid ? a->sysimg_guid : a->guid) ==
		    (b->sysimg_guid ? b->sysimg_guid : b->guid))
			uf_union(refs, i - 1, i);
	}
	/* Same host name in "<host> <adapter>": one server too. */
	qsort(keys, nref, sizeof(*keys), host_key_cmp);
	for (size_t k = 1; k < nref; k++) {
		const struct host_key *a = &keys[k - 1], *b = &keys[k];

		if (a->len && a->len == b->len &&
		    strncmp(a->desc, b->desc, a->len) == 0)
			uf_union(refs, a->ref, b->ref);
	}
	for (size_t i = 0; i < nref; i++)
		if (uf_find(refs, i) == i)
			t->nservers++;
	t->servers = calloc(t->nservers ? t->nservers : 1, sizeof(*t->servers));
	if (!t->servers) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	/* order[] now maps a root ref to its server index */
	for (size_t i = 0, s = 0; i < nref; i++) {
		if (uf_find(refs, i) != i)
			continue;
		order[i] = s;
		t->servers[s].ca = refs[i].ca;
		t->servers[s].sysimg = refs[i].ca->sysimg_guid ?
			refs[i].ca->sysimg_guid : refs[i].ca->guid;
		s++;
	}
	for (size_t i = 0; i < nref; i++) {
		struct ibtopo__server *s = &t->servers[order[uf_find(refs, i)]];
		const struct ibtopo_node *n = refs[i].ca;

		for (unsigned p = 1; p <= n->nports; p++) {
			const struct ibtopo_port *port = n->ports[p];
			struct ibtopo__attach *na;
			size_t sw;

			if (!port || !port->remote || !is_switch(port->remote->node))
				continue;
			sw = t->node2sw[port->remote->node->index];
			if (!s->port)
				s->port = port;
			s->links++;
			na = realloc(s->att, (s->natt + 1) * sizeof(*na));
			if (!na) {
				ret = ibtopo__error_set(err, IBTOPO_ENOMEM,
							"out of memory");
				goto out_free;
			}
			s->att = na;
			s->att[s->natt].sw = sw;
			s->att[s->natt].mult = 1;
			s->natt++;
		}
	}
	for (size_t i = 0; i < t->nservers; i++)
		t->servers[i].id = i;
	/* Servers in name order, so their findings read in order. */
	qsort(t->servers, t->nservers, sizeof(*t->servers), server_cmp);
	/* which server each CA is, by the sorted index */
	t->ca_server = calloc(nn + 1, sizeof(*t->ca_server));
	if (!t->ca_server) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nn; i++)
		t->ca_server[i] = IBTOPO__NONE;
	for (size_t i = 0; i < t->nservers; i++)
		keys[t->servers[i].id].ref = i;	/* keys[] is free by now */
	for (size_t i = 0; i < nref; i++)
		t->ca_server[refs[i].ca->index] = keys[order[uf_find(refs, i)]].ref;
	/* Merge cables to the same switch. */
	for (size_t i = 0; i < t->nservers; i++) {
		struct ibtopo__server *s = &t->servers[i];
		size_t k = 0;

		qsort(s->att, s->natt, sizeof(*s->att), attach_cmp);
		for (size_t j = 0; j < s->natt; j++) {
			if (k && s->att[k - 1].sw == s->att[j].sw)
				s->att[k - 1].mult++;
			else
				s->att[k++] = s->att[j];
		}
		s->natt = k;
	}
out_free:
	free(keys);
	free(order);
	free(refs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The switch graph                                                    */
/* ------------------------------------------------------------------ */

static int adj_cmp(const void *x, const void *y)
{
	const struct ibtopo__edge *a = x, *b = y;

	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

static int build_switch_graph(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nl = ibtopo_fabric_link_count(f), ne = 0, k = 0;
	struct ibtopo__edge *e;
	size_t *queue;

	e = calloc(2 * nl + 1, sizeof(*e));
	if (!e)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a = l->a->node, *b = l->b->node;

		if (!is_switch(a) || !is_switch(b) || a == b)
			continue;
		e[ne].u = t->node2sw[a->index];
		e[ne++].v = t->node2sw[b->index];
		e[ne].u = t->node2sw[b->index];
		e[ne++].v = t->node2sw[a->index];
		t->isl_links++;
	}
	qsort(e, ne, sizeof(*e), adj_cmp);
	t->off = calloc(t->nsw + 1, sizeof(*t->off));
	t->adj = calloc(ne + 1, sizeof(*t->adj));
	if (!t->off || !t->adj) {
		free(e);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < ne; i++) {
		if (k && i && e[i].u == e[i - 1].u && e[i].v == e[i - 1].v) {
			t->adj[k - 1].mult++;
			continue;
		}
		t->adj[k].v = e[i].v;
		t->adj[k].mult = 1;
		t->off[e[i].u + 1]++;
		k++;
	}
	for (size_t i = 0; i < t->nsw; i++)
		t->off[i + 1] += t->off[i];
	free(e);

	/* Connected components. */
	queue = calloc(t->nsw + 1, sizeof(*queue));
	if (!queue)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nsw; i++)
		t->sw[i].comp = IBTOPO__NONE;
	for (size_t s = 0; s < t->nsw; s++) {
		size_t head = 0, tail = 0;

		if (t->sw[s].comp != IBTOPO__NONE)
			continue;
		t->sw[s].comp = t->ncomp;
		queue[tail++] = s;
		while (head < tail) {
			size_t u = queue[head++];

			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t v = t->adj[j].v;

				if (t->sw[v].comp == IBTOPO__NONE) {
					t->sw[v].comp = t->ncomp;
					queue[tail++] = v;
				}
			}
		}
		t->ncomp++;
	}
	free(queue);
	return 0;
}

static int chassis_cmp(const void *x, const void *y)
{
	const struct ibtopo__chassis *a = x, *b = y;

	if (a->sysimg != b->sysimg)
		return a->sysimg < b->sysimg ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Switch chips sharing a system image GUID are one chassis. */
static int build_chassis(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	struct ibtopo__chassis *c;
	size_t k = 0;

	c = calloc(t->nsw + 1, sizeof(*c));
	if (!c)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nsw; i++) {
		c[i].sysimg = t->sw[i].node->sysimg_guid;
		c[i].first = i;
		c[i].chips = 1;
	}
	qsort(c, t->nsw, sizeof(*c), chassis_cmp);
	for (size_t i = 0; i < t->nsw; i++) {
		if (k && c[i].sysimg && c[k - 1].sysimg == c[i].sysimg) {
			c[k - 1].chips++;
			t->sw[c[i].first].chassis = k - 1;
			continue;
		}
		c[k] = c[i];
		t->sw[c[i].first].chassis = k;
		k++;
	}
	t->chassis = c;
	t->nchassis = k;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Levels                                                              */
/* ------------------------------------------------------------------ */

/* Multi-source BFS: hops from the nearest source; -1 if unreachable. */
static void bfs(const struct ibtopo_topology *t, const bool *src, int *dist,
		size_t *queue)
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
static size_t layering_violations(const struct ibtopo_topology *t,
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

	bfs(t, leaf, up, queue);
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

static int assign_levels_auto(struct ibtopo_topology *t, struct ibtopo_error *err)
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
		goto out_free;	/* no servers: nothing to rank from */
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
		v = layering_violations(t, cand[c]);
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
	bfs(t, root, d, queue);
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
		.alias = ibtopo__topology_short_namer,	/* "ib1" for "MF0;ib1:..." */
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
					 "bad root pattern '%s': %s", pattern, msg);
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

static int level_stats(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nl = ibtopo_fabric_link_count(f);
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
	seen = calloc(t->nchassis * L + 1, sizeof(*seen));
	if (!t->levels || !counted_unknown || !seen) {
		free(seen);
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

		if (is_switch(a) && is_switch(b)) {
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
		if (is_switch(b)) {
			const struct ibtopo_node *x = a;

			a = b;
			b = x;
		}
		if (!is_switch(a) || b->type != IBTOPO_NODE_CA)
			continue;
		la = t->sw[t->node2sw[a->index]].level;
		if (!la || ibtopo__node_in_switch(b))
			continue;
		t->levels[la - 1].host_links++;
		t->levels[la - 1].down_links++;
		t->levels[la - 1].down_gbps += g;
		t->host_gbps += g;
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
		v->bisection_gbps = v->up_gbps / 2;
	}
	free(seen);
	free(counted_unknown);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Class                                                               */
/* ------------------------------------------------------------------ */

/* Do two leaf switches have two independent paths somewhere? */
static int any_redundant_leaf_pair(bool *out, const struct ibtopo_topology *t,
				   struct ibtopo_error *err)
{
	struct ibtopo__edge *e;
	size_t ne = 0, *voff = NULL, *vblk = NULL, *mark = NULL;
	int ret;

	*out = false;
	/* Two or more cables between two leaves are two paths already. */
	for (size_t u = 0; u < t->nsw; u++)
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
			if (t->adj[j].mult >= 2 && t->sw[u].host_links &&
			    t->sw[t->adj[j].v].host_links)
				*out = true;
	if (*out)
		return 0;
	e = calloc(t->off[t->nsw] / 2 + 1, sizeof(*e));
	if (!e)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t u = 0; u < t->nsw; u++)
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
			if (t->adj[j].v > u) {
				e[ne].u = u;
				e[ne++].v = t->adj[j].v;
			}
	ret = ibtopo__graph_blocks(&voff, &vblk, t->nsw, e, ne, err);
	free(e);
	if (ret)
		return ret;
	/* Otherwise two leaves need a common block of three vertices or more. */
	mark = calloc(voff[t->nsw] + 1, sizeof(*mark));
	if (!mark) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t u = 0; u < t->nsw && !*out; u++) {
		if (!t->sw[u].host_links)
			continue;
		for (size_t j = voff[u]; j < voff[u + 1]; j++) {
			if (mark[vblk[j]]) {
				*out = true;
				break;
			}
			mark[vblk[j]] = 1;
		}
	}
out_free:
	free(mark);
	free(vblk);
	free(voff);
	return ret;
}

static const char *simple_shape(const struct ibtopo_topology *t)
{
	struct ibtopo__edge *e;
	const char *shape;
	size_t ne = 0;

	e = calloc(t->off[t->nsw] / 2 + 1, sizeof(*e));
	if (!e)
		return NULL;
	for (size_t u = 0; u < t->nsw; u++)
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
			if (t->adj[j].v > u) {
				e[ne].u = u;
				e[ne++].v = t->adj[j].v;
			}
	shape = ibtopo__graph_shape(t->nsw, e, ne);
	free(e);
	return shape;
}

/* Is the chosen layering a fat tree? Sets t->reason when not. */
static bool layered_like_fat_tree(struct ibtopo_topology *t)
{
	size_t total = t->isl_links + t->host_links;
	char q[160];

	if (t->nlevels < 2) {
		t->reason = "every switch with servers is linked only to other switches with servers";
		return false;
	}
	for (size_t u = 0; u < t->nsw; u++) {
		int l = t->sw[u].level;
		bool up = false, down = false;

		if (!l) {
			t->reason = "some switches are not connected to any server";
			return false;
		}
		for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
			int lv = t->sw[t->adj[j].v].level;

			up |= lv > l;
			down |= lv && lv < l;
		}
		if ((unsigned)l < t->nlevels && !up) {
			snprintf(t->reason_buf, sizeof(t->reason_buf),
				 "switch %s at level %d has no uplink, though the top is level %u",
				 quoted(t, t->sw[u].node, q, sizeof(q)), l,
				 t->nlevels);
			t->reason = t->reason_buf;
			return false;
		}
		if (l > 1 && !down && !t->sw[u].idle) {
			snprintf(t->reason_buf, sizeof(t->reason_buf),
				 "switch %s at level %d has no downlink",
				 quoted(t, t->sw[u].node, q, sizeof(q)), l);
			t->reason = t->reason_buf;
			return false;
		}
	}
	if (t->violations * FAT_TREE_MAX_VIOLATION_SHARE > total) {
		snprintf(t->reason_buf, sizeof(t->reason_buf),
			 "%zu of %zu links join switches of one level, skip a level or put servers above the leaves",
			 t->violations, total);
		t->reason = t->reason_buf;
		return false;
	}
	return true;
}

static int classify(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	size_t comps_with_servers = 0;
	bool *seen, redundant;
	int ret;

	if (!t->nsw) {
		t->cls = IBTOPO_TOPOLOGY_IRREGULAR;
		t->shape = t->ca_ca_links ? "back-to-back" : NULL;
		t->reason = "no switches";
		return 0;
	}
	if (t->nchassis == 1) {
		t->cls = IBTOPO_TOPOLOGY_SINGLE_SWITCH;
		return 0;
	}
	seen = calloc(t->ncomp + 1, sizeof(bool));
	if (!seen)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nsw; i++)
		if (t->sw[i].host_links && !seen[t->sw[i].comp]) {
			seen[t->sw[i].comp] = true;
			comps_with_servers++;
		}
	free(seen);
	if (t->ncomp > 1) {
		t->cls = IBTOPO_TOPOLOGY_IRREGULAR;
		t->shape = "disconnected";
		t->reason = "the switches form separate groups";
		return 0;
	}
	if (t->nleaves == 0) {
		t->cls = IBTOPO_TOPOLOGY_IRREGULAR;
		t->reason = "no servers";
		t->shape = simple_shape(t);
		return 0;
	}
	if (t->nleaves == 1) {
		t->cls = IBTOPO_TOPOLOGY_STAR;
		t->reason = "all servers are on one switch";
		return 0;
	}
	ret = any_redundant_leaf_pair(&redundant, t, err);
	if (ret)
		return ret;
	if (!redundant) {
		t->cls = IBTOPO_TOPOLOGY_STAR;
		t->reason = "every path between two leaf switches crosses one switch or one cable";
		return 0;
	}
	ret = ibtopo__dragonfly_detect(t, err);
	if (ret || t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS)
		return ret;
	if (layered_like_fat_tree(t)) {
		t->cls = IBTOPO_TOPOLOGY_FAT_TREE;
		return 0;
	}
	t->cls = IBTOPO_TOPOLOGY_IRREGULAR;
	t->shape = simple_shape(t);
	return 0;
}

static void bandwidth(struct ibtopo_topology *t)
{
	double narrow = 0;
	bool counts = false;

	if (!t->nservers)
		return;
	if (t->cls == IBTOPO_TOPOLOGY_SINGLE_SWITCH && t->nlevels < 2) {
		t->blocking = 1.0;
		t->bisection = t->host_gbps / 2;
		return;
	}
	if (t->cls != IBTOPO_TOPOLOGY_FAT_TREE && t->cls != IBTOPO_TOPOLOGY_STAR &&
	    t->cls != IBTOPO_TOPOLOGY_SINGLE_SWITCH)
		return;
	if (t->nlevels < 2)
		return;
	for (unsigned l = 0; l + 1 < t->nlevels; l++) {
		const struct ibtopo_topology_level *v = &t->levels[l];
		double up = v->up_gbps;

		if (v->up_links && v->up_gbps <= 0)
			counts = true;
		if (l == 0 || up < narrow)
			narrow = up;
	}
	if (counts) {
		/* Some speed unknown: ratios of link counts. */
		size_t n = 0;

		for (unsigned l = 0; l + 1 < t->nlevels; l++)
			if (l == 0 || t->levels[l].up_links < n)
				n = t->levels[l].up_links;
		if (n)
			t->blocking = (double)t->host_links / (double)n;
		return;
	}
	if (narrow <= 0)
		return;
	t->blocking = t->host_gbps / narrow;
	t->bisection = (t->host_gbps < narrow ? t->host_gbps : narrow) / 2;
}

/* ------------------------------------------------------------------ */
/* Fat-tree rules                                                      */
/* ------------------------------------------------------------------ */

/*
 * A director as a finding's end: its name (node), its system image GUID
 * (guid), no port; nothing for a lone switch. Findings borrow the fabric,
 * not the analysis (they may outlive it), so the name goes into the
 * fabric's own strings, freed with it: a cache the const fabric keeps,
 * written once per director named.
 */
static int director_end(struct ibtopo_topology *t, size_t chassis,
			struct ibtopo_end *e, struct ibtopo_error *err)
{
	struct ibtopo__chassis *c = &t->chassis[chassis];
	char name[256];

	if (c->chips < 2)
		return 0;
	if (!c->name) {
		ibtopo__topology_chassis_name(t, chassis, name, sizeof(name));
		c->name = ibtopo__fabric_strdup((struct ibtopo_fabric *)t->fabric,
						name);
		if (!c->name)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
	}
	e->node = c->name;
	e->guid = c->sysimg;
	e->port = -1;
	return 0;
}

static int link_violations(struct ibtopo_topology *t,
			   struct ibtopo_findings *out, bool rules,
			   struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nl = ibtopo_fabric_link_count(f);
	int ret = 0;

	for (size_t i = 0; i < nl && !ret; i++) {
		const struct ibtopo_link *lk = ibtopo_fabric_link(f, i);
		const struct ibtopo_port *pa = lk->a, *pb = lk->b;
		struct ibtopo_finding fd;
		int la, lb;

		if (pa->node->type == IBTOPO_NODE_CA &&
		    pb->node->type == IBTOPO_NODE_CA) {
			finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
				     IBTOPO_FTV_CA_TO_CA);
			ibtopo_end_from_port(&fd.a, pa);
			ibtopo_end_from_port(&fd.b, pb);
			ret = ibtopo__topology_add(out, &fd, err);
			continue;
		}
		if (!rules)
			continue;
		if (is_switch(pa->node) && is_switch(pb->node)) {
			if (pa->node == pb->node)
				continue;
			la = t->sw[t->node2sw[pa->node->index]].level;
			lb = t->sw[t->node2sw[pb->node->index]].level;
			if (!la || !lb || (la - lb <= 1 && lb - la <= 1 && la != lb))
				continue;
			/* name the lower end first */
			if (la > lb) {
				const struct ibtopo_port *x = pa;
				int y = la;

				pa = pb;
				pb = x;
				la = lb;
				lb = y;
			}
			finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
				     la == lb ? IBTOPO_FTV_SAME_LEVEL :
				     IBTOPO_FTV_LEVEL_SKIP);
			ibtopo_end_from_port(&fd.a, pa);
			ibtopo_end_from_port(&fd.b, pb);
			fd.expected = (unsigned)la;
			fd.actual = (unsigned)lb;
			ret = ibtopo__topology_add(out, &fd, err);
			continue;
		}
		if (is_switch(pa->node)) {
			const struct ibtopo_port *x = pa;

			pa = pb;
			pb = x;
		}
		if (!is_switch(pb->node) || pa->node->type != IBTOPO_NODE_CA ||
		    ibtopo__node_in_switch(pa->node))
			continue;
		lb = t->sw[t->node2sw[pb->node->index]].level;
		if (lb <= 1)
			continue;
		finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
			     IBTOPO_FTV_CA_ON_NON_LEAF);
		ibtopo_end_from_port(&fd.a, pa);
		ibtopo_end_from_port(&fd.b, pb);
		fd.expected = 1;
		fd.actual = (unsigned)lb;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	return ret;
}

static int uint_cmp(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;

	return a < b ? -1 : a > b;
}

/* The most common of n values (the larger on a tie; 0 if none). Sorts v. */
static unsigned mode_of(unsigned *v, size_t n)
{
	unsigned best = 0;
	size_t bestn = 0;

	qsort(v, n, sizeof(*v), uint_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		if (j - i >= bestn) {
			best = v[i];
			bestn = j - i;
		}
	}
	return best;
}

static unsigned uplinks_of(const struct ibtopo_topology *t, size_t u)
{
	unsigned n = 0;

	for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
		if (t->sw[t->adj[j].v].level > t->sw[u].level)
			n += t->adj[j].mult;
	return n;
}

static size_t grp_find(size_t *p, size_t i)
{
	while (p[i] != i) {
		p[i] = p[p[i]];
		i = p[i];
	}
	return i;
}

static int uplink_violations(struct ibtopo_topology *t,
			     struct ibtopo_findings *out, struct ibtopo_error *err)
{
	size_t n = t->nsw;
	unsigned *vals = calloc(t->off[n] + n + 1, sizeof(*vals));
	unsigned *cnt = calloc(t->nchassis + 1, sizeof(*cnt));
	size_t *grp = calloc(n + 1, sizeof(*grp));
	int ret = 0;

	if (!vals || !grp || !cnt) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (unsigned l = 1; l < t->nlevels && !ret; l++) {
		size_t k = 0;
		unsigned usual, per;

		/* Uneven: fewer uplinks than most of the level. */
		for (size_t u = 0; u < n; u++)
			if (t->sw[u].level == (int)l && !t->sw[u].idle)
				vals[k++] = uplinks_of(t, u);
		usual = mode_of(vals, k);
		for (size_t u = 0; u < n && !ret; u++) {
			struct ibtopo_finding fd;
			unsigned up;

			if (t->sw[u].level != (int)l || t->sw[u].idle)
				continue;
			up = uplinks_of(t, u);
			if (up >= usual)
				continue;
			finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
				     IBTOPO_FTV_UNEVEN_UPLINKS);
			end_node(&fd.a, t->sw[u].node);
			fd.expected = usual;
			fd.actual = up;
			ret = ibtopo__topology_add(out, &fd, err);
		}
		/* Piled: more cables than usual to one upper switch while an
		 * upper switch of the same group gets none. Groups are the
		 * components of the links between this level and the next. A
		 * director counts as one upper switch: which of its line chips
		 * a cable lands on does not matter, its fabric chips join
		 * them all. */
		k = 0;
		for (size_t u = 0; u < n; u++) {
			grp[u] = u;
			if (t->sw[u].level != (int)l)
				continue;
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t c = t->sw[t->adj[j].v].chassis;

				if (t->sw[t->adj[j].v].level == (int)l + 1)
					cnt[c] += t->adj[j].mult;
			}
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t c = t->sw[t->adj[j].v].chassis;

				if (cnt[c])
					vals[k++] = cnt[c];
				cnt[c] = 0;
			}
		}
		per = mode_of(vals, k);
		for (size_t u = 0; u < n; u++) {
			if (t->sw[u].level != (int)l)
				continue;
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t v = t->adj[j].v;

				if (t->sw[v].level == (int)l + 1) {
					size_t a = grp_find(grp, u), b = grp_find(grp, v);

					if (a != b)
						grp[a] = b;
				}
			}
		}
		for (size_t u = 0; u < n && !ret; u++) {
			struct ibtopo_finding fd;
			size_t most = IBTOPO__NONE, none = IBTOPO__NONE;
			unsigned mostn = 0, chipn = 0;

			if (t->sw[u].level != (int)l)
				continue;
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
				if (t->sw[t->adj[j].v].level == (int)l + 1)
					cnt[t->sw[t->adj[j].v].chassis] += t->adj[j].mult;
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t v = t->adj[j].v;
				unsigned m = cnt[t->sw[v].chassis];

				if (t->sw[v].level != (int)l + 1)
					continue;
				/* the chassis with most, named by its chip with most */
				if (m > mostn || (m == mostn && most != IBTOPO__NONE &&
						  t->sw[v].chassis == t->sw[most].chassis &&
						  t->adj[j].mult > chipn)) {
					mostn = m;
					chipn = t->adj[j].mult;
					most = v;
				}
			}
			for (size_t v = 0; v < n && mostn > per && none == IBTOPO__NONE; v++)
				if (t->sw[v].level == (int)l + 1 && !t->sw[v].idle &&
				    grp_find(grp, v) == grp_find(grp, u) &&
				    !cnt[t->sw[v].chassis])
					none = v;
			for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
				cnt[t->sw[t->adj[j].v].chassis] = 0;
			/* no list to add to: leave the fabric's strings be */
			if (most == IBTOPO__NONE || mostn <= per ||
			    none == IBTOPO__NONE || !out)
				continue;
			finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
				     IBTOPO_FTV_UPLINKS_PILED);
			end_node(&fd.a, t->sw[u].node);
			end_node(&fd.b, t->sw[most].node);
			end_node(&fd.c, t->sw[none].node);
			ret = director_end(t, t->sw[most].chassis, &fd.d, err);
			fd.expected = per;
			fd.actual = mostn;
			if (!ret)
				ret = ibtopo__topology_add(out, &fd, err);
		}
	}
out_free:
	free(grp);
	free(cnt);
	free(vals);
	return ret;
}

static bool single_homed(const struct ibtopo__server *s)
{
	return s->links < 2 || s->natt < 2;
}

/*
 * The server policy: the one asked for, else what most servers are (a
 * tie is dual). Under dual, each single-homed server is a finding; under
 * single, they are one info finding for the fabric.
 */
static int server_findings(struct ibtopo_topology *t,
			   enum ibtopo_server_policy asked,
			   struct ibtopo_findings *out, struct ibtopo_error *err)
{
	struct ibtopo_finding fd;
	int ret = 0;

	/* the diagram marks them whatever the policy (it folds a flood) */
	for (size_t i = 0; i < t->nservers; i++) {
		t->servers[i].low = single_homed(&t->servers[i]);
		t->single_homed += t->servers[i].low;
	}
	t->policy_asked = asked != IBTOPO_SERVERS_MAJORITY;
	if (t->policy_asked)
		t->server_policy = asked;
	else
		t->server_policy = t->single_homed * 2 > t->nservers ?
				   IBTOPO_SERVERS_SINGLE : IBTOPO_SERVERS_DUAL;
	if (t->server_policy == IBTOPO_SERVERS_SINGLE) {
		if (!t->single_homed)
			return 0;
		finding_init(&fd, IBTOPO_FIND_LOW_PATH_DIVERSITY,
			     IBTOPO_LPD_SINGLE_HOMED);
		fd.severity = IBTOPO_SEV_INFO;
		end_node(&fd.a, NULL);
		end_node(&fd.b, NULL);
		fd.expected = t->min_paths;
		fd.actual = 1;
		fd.value = (double)t->single_homed;
		return ibtopo__topology_add(out, &fd, err);
	}
	for (size_t i = 0; i < t->nservers && !ret; i++) {
		struct ibtopo__server *s = &t->servers[i];

		if (!s->low)
			continue;
		finding_init(&fd, IBTOPO_FIND_LOW_PATH_DIVERSITY,
			     s->links < 2 ? IBTOPO_LPD_SINGLE_LINK :
			     IBTOPO_LPD_ONE_SWITCH);
		ibtopo_end_from_port(&fd.a, s->port);
		if (s->links < 2)
			ibtopo_end_from_port(&fd.b, s->port->remote);
		else
			end_node(&fd.b, t->sw[s->att[0].sw].node);
		fd.expected = t->min_paths;
		fd.actual = s->links < 2 ? 1 : (unsigned)s->natt;
		fd.value = (double)s->links;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* What OpenSM's ftree engine would say                                */
/* ------------------------------------------------------------------ */

/*
 * OpenSM 3.3's ftree routing (osm_ucast_ftree.c, no roots or CN file)
 * ranks switches from those cabled to any CA (aggregation nodes
 * included), takes the farthest as roots, ranks again down from them,
 * and refuses the fabric (falling back to minhop) when a CA is cabled to
 * a CA, all switches are at rank 0, a CA's switch is not at the deepest
 * rank, or switches of one rank differ from the rank's first switch (in
 * its map order: network-order GUIDs) in the number of up or down port
 * groups or in the size of a group. A port group is the cables to one
 * neighbour (each CA port its own). Mirrored here so the report can say
 * whether ftree routing will run.
 */
struct osm_sw {
	size_t sw;
	uint64_t key;		/* the GUID as OpenSM's map orders it */
};

static int osm_sw_cmp(const void *x, const void *y)
{
	const struct osm_sw *a = x, *b = y;

	return a->key < b->key ? -1 : a->key > b->key;
}

struct osm_groups {
	unsigned up, down;
	unsigned first_up, first_down;	/* sizes of the first groups */
	bool up_even;			/* every up group as big as `want` */
};

/* Port groups of switch u, in port order; up groups checked against want. */
static void osm_groups_of(const struct ibtopo_topology *t, const int *rank,
			  size_t u, unsigned want, struct osm_groups *g)
{
	const struct ibtopo_node *n = t->sw[u].node;
	const struct ibtopo_node **seen;
	unsigned *size;
	bool *up;
	size_t k = 0;

	memset(g, 0, sizeof(*g));
	g->up_even = true;
	seen = calloc(n->nports + 1, sizeof(*seen));
	size = calloc(n->nports + 1, sizeof(*size));
	up = calloc(n->nports + 1, sizeof(*up));
	if (!seen || !size || !up)
		goto out_free;
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];
		const struct ibtopo_node *r;
		size_t j, v;

		if (!p || !p->remote || p->remote->node == n)
			continue;
		r = p->remote->node;
		if (r->type == IBTOPO_NODE_CA) {
			if (!g->down)
				g->first_down = 1;
			g->down++;
			continue;
		}
		if (!is_switch(r))
			continue;
		v = t->node2sw[r->index];
		if (rank[v] < 0 || rank[v] == rank[u])
			continue;
		for (j = 0; j < k && seen[j] != r; j++)
			;
		if (j == k) {
			seen[k] = r;
			up[k] = rank[v] < rank[u];
			size[k++] = 0;
			if (up[j]) {
				g->up++;
			} else {
				g->down++;
			}
		}
		size[j]++;
	}
	/* the first group of each direction, by first port */
	for (size_t j = 0; j < k; j++) {
		if (up[j] && !g->first_up)
			g->first_up = size[j];
		if (up[j] && want && size[j] != want)
			g->up_even = false;
	}
	for (unsigned i = 1, found = 0; i <= n->nports && !found; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote || p->remote->node == n)
			continue;
		if (p->remote->node->type == IBTOPO_NODE_CA) {
			g->first_down = 1;
			found = 1;
		}
		for (size_t j = 0; j < k && !found; j++)
			if (seen[j] == p->remote->node && !up[j]) {
				g->first_down = size[j];
				found = 1;
			}
	}
out_free:
	free(up);
	free(size);
	free(seen);
}

static void ftree_refuse(struct ibtopo_topology *t, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

static void ftree_refuse(struct ibtopo_topology *t, const char *fmt, ...)
{
	va_list ap;

	t->ftree_ok = false;
	va_start(ap, fmt);
	vsnprintf(t->ftree_reason, sizeof(t->ftree_reason), fmt, ap);
	va_end(ap);
}

static int opensm_ftree(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nn = ibtopo_fabric_node_count(f), ncas = 0, nranked = 0;
	bool *src = calloc(t->nsw + 1, sizeof(bool));
	int *dist = calloc(t->nsw + 1, sizeof(int));
	int *rank = calloc(t->nsw + 1, sizeof(int));
	size_t *queue = calloc(t->nsw + 1, sizeof(*queue));
	struct osm_sw *order = calloc(t->nsw + 1, sizeof(*order));
	int maxd = 0, leaf = 0;
	char q1[160], q2[160];
	int ret = 0;

	if (!src || !dist || !rank || !queue || !order) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	t->ftree_ok = true;
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type != IBTOPO_NODE_CA)
			continue;
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct ibtopo_port *port = n->ports[p];

			if (!port || !port->remote)
				continue;
			if (port->remote->node->type == IBTOPO_NODE_CA) {
				ftree_refuse(t, "ERR AB0F: CA %s is cabled to CA %s",
					     quoted(t, n, q1, sizeof(q1)),
					     quoted(t, port->remote->node, q2,
						    sizeof(q2)));
				goto out_free;
			}
			if (is_switch(port->remote->node))
				src[t->node2sw[port->remote->node->index]] = true;
		}
		ncas += n->nports > 0;
	}
	if (t->nsw < 2) {
		ftree_refuse(t, "the fabric has %zu switch%s", t->nsw,
			     t->nsw == 1 ? "" : "es");
		goto out_free;
	}
	if (ncas < 2) {
		ftree_refuse(t, "the fabric has %zu CA%s", ncas, ncas == 1 ? "" : "s");
		goto out_free;
	}
	if (t->ncomp > 1) {
		/* a subnet manager sees only the part it is cabled to */
		ftree_refuse(t, "the switches form %zu separate fabrics", t->ncomp);
		goto out_free;
	}
	bfs(t, src, dist, queue);
	for (size_t i = 0; i < t->nsw; i++) {
		if (dist[i] > maxd)
			maxd = dist[i];
		nranked += dist[i] >= 0;
	}
	if (maxd == 0 && nranked > 1) {
		ftree_refuse(t, "ERR AB2B: every switch has CAs, so all are roots at rank 0");
		goto out_free;
	}
	for (size_t i = 0; i < t->nsw; i++)
		src[i] = dist[i] == maxd;
	bfs(t, src, rank, queue);
	for (size_t i = 0; i < t->nsw; i++)
		if (rank[i] > leaf)
			leaf = rank[i];
	if (leaf + 1 < 2 || leaf + 1 > 8) {
		ftree_refuse(t, "the fabric's rank %d is outside 2..8", leaf + 1);
		goto out_free;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type != IBTOPO_NODE_CA)
			continue;
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct ibtopo_port *port = n->ports[p];
			size_t s;

			if (!port || !port->remote || !is_switch(port->remote->node))
				continue;
			s = t->node2sw[port->remote->node->index];
			if (rank[s] >= 0 && rank[s] != leaf) {
				ftree_refuse(t, "ERR AB26: CA %s is on switch %s at rank %d, while the leaves are at rank %d",
					     quoted(t, n, q1, sizeof(q1)),
					     quoted(t, t->sw[s].node, q2, sizeof(q2)),
					     rank[s], leaf);
				goto out_free;
			}
		}
	}
	for (size_t i = 0; i < t->nsw; i++) {
		order[i].sw = i;
		order[i].key = __builtin_bswap64(t->sw[i].node->guid);
	}
	qsort(order, t->nsw, sizeof(*order), osm_sw_cmp);
	for (int r = 0; r <= leaf; r++) {
		struct osm_groups ref, g;
		size_t refsw = IBTOPO__NONE;

		for (size_t k = 0; k < t->nsw; k++) {
			size_t u = order[k].sw;

			if (rank[u] != r)
				continue;
			if (refsw == IBTOPO__NONE) {
				refsw = u;
				osm_groups_of(t, rank, u, 0, &ref);
				continue;
			}
			osm_groups_of(t, rank, u, ref.first_up, &g);
			if (g.up != ref.up) {
				ftree_refuse(t, "ERR AB09: switches %s and %s (rank %d) have %u and %u upward port groups",
					     quoted(t, t->sw[refsw].node, q1, sizeof(q1)),
					     quoted(t, t->sw[u].node, q2, sizeof(q2)),
					     r, ref.up, g.up);
				goto out_free;
			}
			if (r != leaf && g.down != ref.down) {
				ftree_refuse(t, "ERR AB0A: switches %s and %s (rank %d) have %u and %u downward port groups",
					     quoted(t, t->sw[refsw].node, q1, sizeof(q1)),
					     quoted(t, t->sw[u].node, q2, sizeof(q2)),
					     r, ref.down, g.down);
				goto out_free;
			}
			if (ref.up && !g.up_even) {
				ftree_refuse(t, "ERR AB0B: switch %s (rank %d) has an upward port group of another size than the %u cables of %s",
					     quoted(t, t->sw[u].node, q1, sizeof(q1)),
					     r, ref.first_up,
					     quoted(t, t->sw[refsw].node, q2, sizeof(q2)));
				goto out_free;
			}
			if (r != leaf && ref.down && g.down &&
			    g.first_down != ref.first_down) {
				ftree_refuse(t, "ERR AB0C: switches %s and %s (rank %d) have downward port groups of %u and %u cables",
					     quoted(t, t->sw[refsw].node, q1, sizeof(q1)),
					     quoted(t, t->sw[u].node, q2, sizeof(q2)),
					     r, ref.first_down, g.first_down);
				goto out_free;
			}
		}
	}
out_free:
	free(order);
	free(queue);
	free(rank);
	free(dist);
	free(src);
	return ret;
}

bool ibtopo_topology_opensm_ftree(const struct ibtopo_topology *topo,
				  const char **reason)
{
	if (reason)
		*reason = topo && !topo->ftree_ok ? topo->ftree_reason : NULL;
	return topo && topo->ftree_ok;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

struct leaf_key {
	const struct ibtopo_node *node;
	size_t sw;
};

static int leaf_cmp(const void *x, const void *y)
{
	const struct leaf_key *a = x, *b = y;

	return name_cmp(a->node, b->node);
}

/* Leaf switches, for path diversity: those with servers, by name. */
static int build_leaves(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	struct leaf_key *k = calloc(t->nsw + 1, sizeof(*k));

	t->leaves = calloc(t->nsw + 1, sizeof(*t->leaves));
	if (!t->leaves || !k) {
		free(k);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->nsw; i++) {
		t->sw[i].leaf = IBTOPO__NONE;
		if (t->sw[i].host_links) {
			k[t->nleaves].node = t->sw[i].node;
			k[t->nleaves++].sw = i;
		}
	}
	qsort(k, t->nleaves, sizeof(*k), leaf_cmp);
	for (size_t i = 0; i < t->nleaves; i++) {
		t->leaves[i] = k[i].sw;
		t->sw[k[i].sw].leaf = i;
	}
	free(k);
	return 0;
}

static int build_nodes(struct ibtopo_topology *t, bool **out_internal,
		       struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = t->fabric;
	size_t nn = ibtopo_fabric_node_count(f), nl = ibtopo_fabric_link_count(f);
	bool *internal;

	*out_internal = NULL;
	internal = calloc(nn + 1, sizeof(bool));
	t->node2sw = calloc(nn + 1, sizeof(*t->node2sw));
	t->node_low = calloc(nn + 1, sizeof(bool));
	if (!internal || !t->node2sw || !t->node_low) {
		free(internal);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		t->node2sw[i] = IBTOPO__NONE;
		if (is_switch(n))
			t->nsw++;
		else if (n->type == IBTOPO_NODE_CA && ibtopo__node_in_switch(n))
			internal[i] = true;
	}
	t->sw = calloc(t->nsw + 1, sizeof(*t->sw));
	if (!t->sw) {
		free(internal);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0, k = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (!is_switch(n))
			continue;
		t->sw[k].node = n;
		t->node2sw[i] = k++;
	}
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a = l->a->node, *b = l->b->node;

		if (is_switch(b)) {
			const struct ibtopo_node *x = a;

			a = b;
			b = x;
		}
		if (a->type == IBTOPO_NODE_CA && b->type == IBTOPO_NODE_CA)
			t->ca_ca_links++;
		if (!is_switch(a) || b->type != IBTOPO_NODE_CA)
			continue;
		if (internal[b->index]) {
			t->internal_cas++;
			continue;
		}
		t->sw[t->node2sw[a->index]].host_links++;
		t->host_links++;
	}
	*out_internal = internal;
	return 0;
}

int ibtopo__topology_opts_check(const struct ibtopo_topology_opts *opts,
				struct ibtopo_error *err)
{
	if (opts->version != IBTOPO_TOPOLOGY_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown topology options version %u",
					 opts->version);
	if ((unsigned)opts->servers > IBTOPO_SERVERS_DUAL)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown server policy %u",
					 (unsigned)opts->servers);
	return 0;
}

int ibtopo__topology_run(struct ibtopo_topology **out,
			 const struct ibtopo_fabric *fabric,
			 const struct ibtopo_topology_opts *opts,
			 const struct ibtopo__roots *roots,
			 struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	struct ibtopo_topology_opts defaults = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_topology *t;
	bool *internal = NULL, *root = NULL;
	int *levels = NULL;
	int ret;

	if (!out)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output pointer");
	*out = NULL;
	if (!fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric");
	if (!opts)
		opts = &defaults;
	ret = ibtopo__topology_opts_check(opts, err);
	if (ret)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	t->fabric = fabric;
	t->min_paths = opts->min_paths ? opts->min_paths : 2;

	if (ibtopo__shared_names_init(&t->desc_names, &fabric, 1, NULL, NULL,
				      NULL) ||
	    ibtopo__shared_names_init(&t->short_names, &fabric, 1, NULL,
				      ibtopo__topology_short_namer, NULL))
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	else
		ret = build_nodes(t, &internal, err);
	if (!ret)
		ret = build_switch_graph(t, err);
	if (!ret)
		ret = build_chassis(t, err);
	if (!ret)
		ret = build_servers(t, internal, err);
	if (!ret)
		ret = build_leaves(t, err);
	if (ret)
		goto out_fail;

	if (roots || opts->root_pattern) {
		root = calloc(t->nsw + 1, sizeof(bool));
		if (!root) {
			ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
			goto out_fail;
		}
		if (roots)
			ret = roots_named(t, roots, root, err);
		if (!ret && opts->root_pattern)
			ret = match_roots(t, opts->root_pattern, root, err);
		for (size_t i = 0; i < t->nsw; i++)
			t->nroots += root[i];
		if (!ret && !t->nroots)
			ret = ibtopo__error_set(err, IBTOPO_EINVAL,
						"roots file '%s' names no switch",
						opts->roots_file ? opts->roots_file : "");
		if (!ret)
			ret = assign_levels_roots(t, root, err);
		t->from_roots = true;
	} else {
		ret = assign_levels_auto(t, err);
	}
	if (!ret)
		ret = ibtopo__chassis_rank(t, err);
	if (ret)
		goto out_fail;
	levels = calloc(t->nsw + 1, sizeof(int));
	if (!levels) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_fail;
	}
	for (size_t i = 0; i < t->nsw; i++)
		levels[i] = t->sw[i].level;
	t->violations = layering_violations(t, levels);
	ret = level_stats(t, err);
	if (!ret)
		ret = classify(t, err);
	if (ret)
		goto out_fail;
	bandwidth(t);
	ret = opensm_ftree(t, err);
	if (ret)
		goto out_fail;

	ret = link_violations(t, findings,
			      t->cls == IBTOPO_TOPOLOGY_FAT_TREE || t->from_roots,
			      err);
	/* a Dragonfly+ group is a 2-level fat tree: its leaves' uplinks too */
	if (!ret && (t->cls == IBTOPO_TOPOLOGY_FAT_TREE || t->from_roots ||
		     t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS))
		ret = uplink_violations(t, findings, err);
	if (!ret)
		ret = server_findings(t, opts->servers, findings, err);
	if (!ret && t->cls == IBTOPO_TOPOLOGY_FAT_TREE && !t->from_roots)
		ret = ibtopo__rails_analyze(t, findings, err);
	if (!ret && t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS)
		ret = ibtopo__dragonfly_findings(t, findings, err);
	if (!ret && !(opts->flags & IBTOPO_TOPOLOGY_NO_PATHS))
		ret = ibtopo__paths_analyze(t, findings, opts->flags, err);
	if (ret)
		goto out_fail;
	for (size_t i = 0; i < t->nservers; i++) {
		const struct ibtopo__server *s = &t->servers[i];

		if (s->low)
			t->node_low[s->ca->index] = true;
	}
	for (size_t i = 0; i < t->nsw; i++)
		if (t->sw[i].low)
			t->node_low[t->sw[i].node->index] = true;
	*out = t;
	goto out_free;
out_fail:
	ibtopo_topology_free(t);
out_free:
	free(levels);
	free(root);
	free(internal);
	return ret;
}

void ibtopo_topology_free(struct ibtopo_topology *topo)
{
	if (!topo)
		return;
	ibtopo__paths_release(topo);
	ibtopo__shared_names_release(&topo->short_names);
	ibtopo__shared_names_release(&topo->desc_names);
	for (size_t i = 0; i < topo->nservers; i++)
		free(topo->servers[i].att);
	free(topo->servers);
	free(topo->ca_server);
	free(topo->rail_hcas);
	free(topo->unit_servers);
	free(topo->leaf_rail);
	free(topo->leaf_unit);
	free(topo->groups);
	free(topo->pair_links);
	free(topo->leaves);
	free(topo->levels);
	free(topo->chassis);
	free(topo->adj);
	free(topo->off);
	free(topo->node_low);
	free(topo->node2sw);
	free(topo->sw);
	free(topo);
}

enum ibtopo_topology_class ibtopo_topology_class(const struct ibtopo_topology *topo)
{
	return topo ? topo->cls : IBTOPO_TOPOLOGY_UNKNOWN;
}

const char *ibtopo_topology_shape(const struct ibtopo_topology *topo)
{
	return topo ? topo->shape : NULL;
}

unsigned ibtopo_topology_levels(const struct ibtopo_topology *topo)
{
	return topo ? topo->nlevels : 0;
}

int ibtopo_topology_node_level(const struct ibtopo_topology *topo,
			       const struct ibtopo_node *node)
{
	size_t i;

	if (!topo || !node || node->index >= ibtopo_fabric_node_count(topo->fabric) ||
	    ibtopo_fabric_node(topo->fabric, node->index) != node)
		return 0;
	i = topo->node2sw[node->index];
	return i == IBTOPO__NONE ? 0 : topo->sw[i].level;
}

bool ibtopo_topology_node_low_diversity(const struct ibtopo_topology *topo,
					const struct ibtopo_node *node)
{
	if (!topo || !node || node->index >= ibtopo_fabric_node_count(topo->fabric) ||
	    ibtopo_fabric_node(topo->fabric, node->index) != node)
		return false;
	return topo->node_low[node->index];
}

int ibtopo_topology_level(struct ibtopo_topology_level *out,
			  const struct ibtopo_topology *topo, unsigned level)
{
	if (!out || !topo || level < 1 || level > topo->nlevels)
		return IBTOPO_EINVAL;
	*out = topo->levels[level - 1];
	return 0;
}

double ibtopo_topology_blocking_factor(const struct ibtopo_topology *topo)
{
	return topo ? topo->blocking : 0;
}

double ibtopo_topology_bisection_gbps(const struct ibtopo_topology *topo)
{
	return topo ? topo->bisection : 0;
}

size_t ibtopo_topology_server_count(const struct ibtopo_topology *topo)
{
	return topo ? topo->nservers : 0;
}

size_t ibtopo_topology_groups(const struct ibtopo_topology *topo,
			      size_t *global_links)
{
	if (global_links)
		*global_links = topo ? topo->global_links : 0;
	return topo ? topo->ngroups : 0;
}

unsigned ibtopo_topology_rails(const struct ibtopo_topology *topo,
			       size_t *units)
{
	if (units)
		*units = topo ? topo->nunits : 0;
	return topo ? topo->nrails : 0;
}

unsigned ibtopo_topology_node_rail(const struct ibtopo_topology *topo,
				   const struct ibtopo_node *node, size_t *unit)
{
	size_t i;

	if (unit)
		*unit = 0;
	if (!topo || !topo->leaf_rail || !node ||
	    node->index >= ibtopo_fabric_node_count(topo->fabric) ||
	    ibtopo_fabric_node(topo->fabric, node->index) != node)
		return 0;
	i = topo->node2sw[node->index];
	if (i == IBTOPO__NONE || topo->leaf_rail[i] < 0)
		return 0;
	if (unit && topo->leaf_unit[i] != IBTOPO__NONE)
		*unit = topo->leaf_unit[i] + 1;
	return (unsigned)topo->leaf_rail[i] + 1;
}

enum ibtopo_server_policy
ibtopo_topology_server_policy(const struct ibtopo_topology *topo,
			      size_t *single_homed)
{
	if (single_homed)
		*single_homed = topo ? topo->single_homed : 0;
	return topo ? topo->server_policy : IBTOPO_SERVERS_MAJORITY;
}

size_t ibtopo_topology_chassis_count(const struct ibtopo_topology *topo)
{
	return topo ? topo->nchassis : 0;
}

static int run_topology(struct ibtopo__analysis_run *run, struct ibtopo_error *err)
{
	return ibtopo__topology_run(&run->topology, run->fabric,
				    &run->opts->topology, run->inputs.roots,
				    run->findings, err);
}

const struct ibtopo__analysis ibtopo__analysis_topology = {
	.name = "topology",
	.skip = IBTOPO_ANALYZE_NO_TOPOLOGY,
	.inputs = IBTOPO__INPUT_ROOTS,
	.run = run_topology,
};
