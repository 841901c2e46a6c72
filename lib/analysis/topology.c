/*
 * topology.c - the fabric's layout: servers and chassis, switch levels,
 * the class (single switch, star, fat tree, irregular), bandwidth per
 * level; the entry point that runs the files of the analysis in turn
 * (ranking in topology_levels.c, the fat-tree rules in topology_rules.c,
 * OpenSM's ftree engine in topology_ftree.c, rails, Dragonfly+, path
 * diversity in paths.c). The rules for each result are documented in
 * ibtopo.h ("Topology analysis").
 */
#include "topology-int.h"
#include "findings/findings-int.h"
#include "analysis/analysis-int.h"

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

static int name_cmp(const struct ibtopo_node *a, const struct ibtopo_node *b)
{
	int c = strcmp(a->desc ? a->desc : "", b->desc ? b->desc : "");

	if (c)
		return c;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* ------------------------------------------------------------------ */
/* Servers and switch-internal CAs                                     */
/* ------------------------------------------------------------------ */

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

/* The cables of CA n to switches, as attachments of its server s. */
static int server_attach(struct ibtopo_topology *t, struct ibtopo__server *s,
			 const struct ibtopo_node *n, struct ibtopo_error *err)
{
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct ibtopo_port *port = n->ports[p];
		struct ibtopo__attach *na;

		if (!port || !port->remote ||
		    !ibtopo__topology_is_switch(port->remote->node))
			continue;
		if (!s->port)
			s->port = port;
		s->links++;
		na = realloc(s->att, (s->natt + 1) * sizeof(*na));
		if (!na)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		s->att = na;
		s->att[s->natt].sw = t->node2sw[port->remote->node->index];
		s->att[s->natt].mult = 1;
		s->natt++;
	}
	return 0;
}

/* Merge each server's cables to the same switch. */
static void merge_attachments(struct ibtopo_topology *t)
{
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
			    ibtopo__topology_is_switch(
				    n->ports[p]->remote->node))
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

		ret = server_attach(t, s, refs[i].ca, err);
		if (ret)
			goto out_free;
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
	merge_attachments(t);
out_free:
	free(keys);
	free(order);
	free(refs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The switch graph                                                    */
/* ------------------------------------------------------------------ */

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

		if (!ibtopo__topology_is_switch(a) || !ibtopo__topology_is_switch(b) || a == b)
			continue;
		e[ne].u = t->node2sw[a->index];
		e[ne++].v = t->node2sw[b->index];
		e[ne].u = t->node2sw[b->index];
		e[ne++].v = t->node2sw[a->index];
		t->isl_links++;
	}
	qsort(e, ne, sizeof(*e), ibtopo__edge_cmp);
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
				 ibtopo__topology_quoted(t, t->sw[u].node, q, sizeof(q)), l,
				 t->nlevels);
			t->reason = t->reason_buf;
			return false;
		}
		if (l > 1 && !down && !t->sw[u].idle) {
			snprintf(t->reason_buf, sizeof(t->reason_buf),
				 "switch %s at level %d has no downlink",
				 ibtopo__topology_quoted(t, t->sw[u].node, q, sizeof(q)), l);
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

/* The level table's blocking factor and bisection (topology_levels.c),
 * kept where they are defined: a fat tree or a star with servers. */
static void bandwidth(struct ibtopo_topology *t)
{
	if (!t->nservers) {
		t->blocking = 0;
		t->bisection = 0;
		return;
	}
	if (t->cls == IBTOPO_TOPOLOGY_SINGLE_SWITCH && t->nlevels < 2) {
		t->blocking = 1.0;
		t->bisection = t->host_gbps / 2;
		return;
	}
	if (t->cls != IBTOPO_TOPOLOGY_FAT_TREE && t->cls != IBTOPO_TOPOLOGY_STAR &&
	    t->cls != IBTOPO_TOPOLOGY_SINGLE_SWITCH) {
		t->blocking = 0;
		t->bisection = 0;
	}
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
		if (ibtopo__topology_is_switch(n))
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

		if (!ibtopo__topology_is_switch(n))
			continue;
		t->sw[k].node = n;
		t->node2sw[i] = k++;
	}
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a = l->a->node, *b = l->b->node;

		if (ibtopo__topology_is_switch(b)) {
			const struct ibtopo_node *x = a;

			a = b;
			b = x;
		}
		if (a->type == IBTOPO_NODE_CA && b->type == IBTOPO_NODE_CA)
			t->ca_ca_links++;
		if (!ibtopo__topology_is_switch(a) || b->type != IBTOPO_NODE_CA)
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

	ret = ibtopo__levels_rank(t, opts, roots, err);
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
	t->violations = ibtopo__levels_violations(t, levels);
	ret = ibtopo__levels_stats(t, err);
	if (!ret)
		ret = classify(t, err);
	if (ret)
		goto out_fail;
	bandwidth(t);
	ret = ibtopo__ftree_emulate(t, err);
	if (ret)
		goto out_fail;

	ret = ibtopo__rules_links(t, findings,
			      t->cls == IBTOPO_TOPOLOGY_FAT_TREE || t->from_roots,
			      err);
	/* a Dragonfly+ group is a 2-level fat tree: its leaves' uplinks too */
	if (!ret && (t->cls == IBTOPO_TOPOLOGY_FAT_TREE || t->from_roots ||
		     t->cls == IBTOPO_TOPOLOGY_DRAGONFLY_PLUS))
		ret = ibtopo__rules_uplinks(t, findings, err);
	if (!ret)
		ret = ibtopo__rules_servers(t, opts->servers, findings, err);
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

static int run_topology(struct ibtopo_analysis *an,
			struct ibtopo_findings *found, struct ibtopo_error *err)
{
	return ibtopo__topology_run(&an->topology, an->fabric,
				    &an->opts.topology, an->inputs.roots, found,
				    err);
}

/* "fat-tree, 3 levels, 2 findings" */
static void topology_summary(char *buf, size_t len,
			     const struct ibtopo_analysis *an)
{
	const struct ibtopo_topology *t = an->topology;

	snprintf(buf, len, "%s, %u levels, %zu findings",
		 t ? ibtopo_topology_class_name(ibtopo_topology_class(t)) :
		     "none",
		 t ? ibtopo_topology_levels(t) : 0,
		 an->slots[IBTOPO__SECTION_TOPOLOGY].findings.count);
}

static void release_topology(struct ibtopo_analysis *an)
{
	ibtopo_topology_free(an->topology);
	an->topology = NULL;
}

const struct ibtopo__analysis ibtopo__analysis_topology = {
	.name = "topology",
	.skip = IBTOPO_ANALYZE_NO_TOPOLOGY,
	.inputs = IBTOPO__INPUT_ROOTS,
	.run = run_topology,
	.summary = topology_summary,
	.release = release_topology,
};

IBTOPO__ACCESSOR(ibtopo_analysis_topology, TOPOLOGY,
		 const struct ibtopo_topology, an->topology)
