/*
 * write_slurm.c - a fabric as a Slurm topology.conf for the
 * topology/tree plugin: switches by level, each host under one leaf.
 */
#include "export/export-int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * A switch's name: "MF0;<name>:<model>/U1" (Mellanox) gives <name>, a
 * one-word description is the name; else "S-<guid>" as ibnetdiscover
 * names it. Hosts are named by ibtopo__ca_host_name().
 */
static void switch_name(const struct ibtopo_node *n, char *buf, size_t len)
{
	const char *s = n->desc;
	size_t k = ibtopo__desc_switch_name(n->desc, &s);

	if (!k) {
		s = n->desc;
		k = strlen(s);
	}
	if (ibtopo__is_name_word(s, k) && k < len)
		snprintf(buf, len, "%.*s", (int)k, s);
	else
		snprintf(buf, len, "S-%016" PRIx64, n->guid);
}

struct hname {
	const char *s;
	size_t plen;		/* prefix length (up to the trailing digits) */
	uint64_t num;
	bool has_num;
};

static int cmp_hname(const void *x, const void *y)
{
	const struct hname *a = x, *b = y;
	size_t m = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->s, b->s, m);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (a->has_num != b->has_num)
		return a->has_num ? 1 : -1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->s, b->s);
}

static bool padded(const struct hname *h)
{
	const char *d = h->s + h->plen;

	return d[0] == '0' && d[1] != '\0';
}

/* Consecutive numbers written alike (same width, or neither zero-padded). */
static bool hname_next(const struct hname *a, const struct hname *b)
{
	if (b->num != a->num + 1)
		return false;
	if (strlen(a->s) == strlen(b->s))
		return true;
	return !padded(a) && !padded(b);
}

/* Names as a Slurm hostlist expression: node[001-016],other. */
static void write_hostlist(struct ibtopo__wr *w, struct hname *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t d = strlen(h[i].s);

		h[i].plen = d;
		while (h[i].plen && h[i].s[h[i].plen - 1] >= '0' &&
		       h[i].s[h[i].plen - 1] <= '9')
			h[i].plen--;
		h[i].has_num = h[i].plen < d && d - h[i].plen <= 18;
		if (!h[i].has_num)
			h[i].plen = d;
		h[i].num = h[i].has_num ? strtoull(h[i].s + h[i].plen, NULL, 10) : 0;
	}
	if (n)
		qsort(h, n, sizeof(*h), cmp_hname);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		if (i)
			ibtopo__wr_printf(w, ",");
		if (!h[i].has_num) {
			ibtopo__wr_printf(w, "%s", h[i].s);
			i++;
			continue;
		}
		while (j < n && h[j].has_num && h[j].plen == h[i].plen &&
		       memcmp(h[j].s, h[i].s, h[i].plen) == 0)
			j++;
		if (j == i + 1) {
			ibtopo__wr_printf(w, "%s", h[i].s);
			i++;
			continue;
		}
		ibtopo__wr_printf(w, "%.*s[", (int)h[i].plen, h[i].s);
		for (size_t k = i; k < j;) {
			size_t e = k;

			while (e + 1 < j && hname_next(&h[e], &h[e + 1]))
				e++;
			ibtopo__wr_printf(w, "%s%s", k > i ? "," : "", h[k].s + h[k].plen);
			if (e > k)
				ibtopo__wr_printf(w, "-%s", h[e].s + h[e].plen);
			k = e + 1;
		}
		ibtopo__wr_printf(w, "]");
		i = j;
	}
}

#define NAME_LEN 80

struct name_ref {
	const char *name;
	size_t index;
};

static int cmp_name_ref(const void *x, const void *y)
{
	const struct name_ref *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* Switches whose name another switch or CA has get "S-<guid>". */
static int slurm_unique_switches(const struct ibtopo_fabric *f,
				 char (*names)[NAME_LEN])
{
	size_t n = ibtopo_fabric_node_count(f);
	struct name_ref *refs = calloc(n ? n : 1, sizeof(*refs));

	if (!refs)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < n; i++)
		refs[i] = (struct name_ref){ names[i], i };
	if (n)
		qsort(refs, n, sizeof(*refs), cmp_name_ref);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && strcmp(refs[j].name, refs[i].name) == 0)
			j++;
		for (size_t k = i; j > i + 1 && k < j; k++) {
			const struct ibtopo_node *node =
				ibtopo_fabric_node(f, refs[k].index);

			if (node->type == IBTOPO_NODE_SWITCH)
				snprintf(names[refs[k].index], NAME_LEN,
					 "S-%016" PRIx64, node->guid);
		}
		i = j;
	}
	free(refs);
	return 0;
}

/*
 * Slurm's topology/tree plugin ranks a switch one level above its highest
 * child and stops ("Switch configuration is not a tree") when a switch is
 * listed below one of its own descendants. So children are always taken
 * from lower levels of the topology analysis: a switch at level L lists
 * its neighbours at levels 1..L-1, a leaf its hosts, and each host sits
 * under exactly one leaf. Lines go out lowest level first, so Slurm
 * resolves every level in one pass over the file.
 */

/* A host cabled to a switch: one per CA port on a switch. */
struct host_link {
	const char *name;
	size_t sw;		/* fabric node index */
	size_t host;		/* host number, after grouping by name */
};

static int cmp_host_link(const void *x, const void *y)
{
	const struct host_link *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static int cmp_host_link_sw(const void *x, const void *y)
{
	const struct host_link *a = x, *b = y;

	if (a->sw != b->sw)
		return a->sw < b->sw ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct slurm {
	const struct ibtopo_fabric *f;
	char (*names)[NAME_LEN];	/* per fabric node */
	int *level;			/* analysis level per fabric node */
	struct host_link *hl;		/* one per host, sorted by switch */
	size_t nhl, nhosts;
	size_t *first_host;		/* per node: hl[first_host[i]..] */
	size_t *nsw_hosts;		/* per node: hosts placed under it */
	size_t words;			/* bitset words per switch */
	uint64_t *below;		/* per switch rank: hosts below it */
	size_t *rank;			/* fabric node -> row of below[] */
	bool *has_parent;		/* per node */
	size_t *order;			/* switches, lowest level first */
	size_t nsw;
};

/* Which of two switches a host goes under: lower level, more cables, name. */
static bool host_prefers(const struct slurm *s, size_t a, unsigned na,
			 size_t b, unsigned nb)
{
	unsigned la = s->level[a] > 0 ? (unsigned)s->level[a] : UINT_MAX;
	unsigned lb = s->level[b] > 0 ? (unsigned)s->level[b] : UINT_MAX;
	int c;

	if (la != lb)
		return la < lb;
	if (na != nb)
		return na > nb;
	c = strcmp(s->names[a], s->names[b]);
	return c ? c < 0 : a < b;
}

/*
 * Place each host (ibtopo__ca_host_name(); SHARP aggregation nodes left out)
 * under one switch: Slurm warns about nodes under several leaves, and a
 * rail-optimized server is cabled to one leaf per rail. Ties go to the
 * first switch by name, so the servers of a rail group stay together.
 */
static int slurm_place_hosts(struct slurm *s)
{
	const struct ibtopo_fabric *f = s->f;
	size_t n = ibtopo_fabric_node_count(f), out = 0;
	struct host_link *all = NULL;
	size_t nall = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *ca = ibtopo_fabric_node(f, i);

		if (ca->type != IBTOPO_NODE_CA || ibtopo__node_in_switch(ca))
			continue;
		for (unsigned p = 1; p <= ca->nports; p++)
			if (ca->ports[p] && ca->ports[p]->remote &&
			    ca->ports[p]->remote->node->type == IBTOPO_NODE_SWITCH)
				nall++;
	}
	all = calloc(nall ? nall : 1, sizeof(*all));
	if (!all)
		return IBTOPO_ENOMEM;
	nall = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *ca = ibtopo_fabric_node(f, i);

		if (ca->type != IBTOPO_NODE_CA || ibtopo__node_in_switch(ca))
			continue;
		for (unsigned p = 1; p <= ca->nports; p++) {
			const struct ibtopo_port *port = ca->ports[p];

			if (port && port->remote &&
			    port->remote->node->type == IBTOPO_NODE_SWITCH)
				all[nall++] = (struct host_link){
					s->names[i], port->remote->node->index, 0 };
		}
	}
	if (nall)
		qsort(all, nall, sizeof(*all), cmp_host_link);
	/* all[] in runs per host, each run in runs per switch: keep the best */
	for (size_t i = 0; i < nall;) {
		size_t j = i, best = i;
		unsigned best_n = 0;

		while (j < nall && strcmp(all[j].name, all[i].name) == 0) {
			size_t k = j;

			while (k < nall && all[k].sw == all[j].sw &&
			       strcmp(all[k].name, all[j].name) == 0)
				k++;
			if (j == i || host_prefers(s, all[j].sw, (unsigned)(k - j),
						   all[best].sw, best_n)) {
				best = j;
				best_n = (unsigned)(k - j);
			}
			j = k;
		}
		all[out] = all[best];
		all[out].host = out;
		out++;
		i = j;
	}
	s->nhosts = out;
	s->nhl = out;
	if (out)
		qsort(all, out, sizeof(*all), cmp_host_link_sw);
	for (size_t i = 0; i < out; i++) {
		if (!s->nsw_hosts[all[i].sw])
			s->first_host[all[i].sw] = i;
		s->nsw_hosts[all[i].sw]++;
	}
	s->hl = all;
	return 0;
}

/* A name no node has: base, else base-1, base-2... */
static void slurm_free_name(const struct slurm *s, const char *base,
			    char *buf, size_t len)
{
	size_t n = ibtopo_fabric_node_count(s->f);
	unsigned k = 0;
	bool taken;

	snprintf(buf, len, "%s", base);
	do {
		taken = false;
		for (size_t i = 0; i < n && !taken; i++)
			taken = strcmp(s->names[i], buf) == 0;
		if (taken)
			snprintf(buf, len, "%s-%u", base, ++k);
	} while (taken);
}

static bool below_all(const struct slurm *s, const uint64_t *row)
{
	size_t count = 0;

	for (size_t k = 0; k < s->words; k++)
		count += (size_t)__builtin_popcountll(row[k]);
	return count == s->nhosts;
}

static bool below_any(const struct slurm *s, const uint64_t *row)
{
	for (size_t k = 0; k < s->words; k++)
		if (row[k])
			return true;
	return false;
}

/* One switch's line (and, before it, a leaf for hosts it cannot list). */
static void slurm_write_switch(struct ibtopo__wr *w, struct slurm *s, size_t i,
			       struct hname *list, size_t *seen)
{
	const struct ibtopo_node *sw = ibtopo_fabric_node(s->f, i);
	uint64_t *row = s->below + s->rank[i] * s->words;
	size_t nh = s->nsw_hosts[i], ns = 0;
	char vname[NAME_LEN + 16];

	for (unsigned p = 1; s->level[i] > 1 && p <= sw->nports; p++) {
		const struct ibtopo_port *port = sw->ports[p];
		size_t t;

		if (!port || !port->remote ||
		    port->remote->node->type != IBTOPO_NODE_SWITCH)
			continue;
		t = port->remote->node->index;
		if (s->level[t] < 1 || s->level[t] >= s->level[i] ||
		    seen[t] == i + 1)
			continue;
		seen[t] = i + 1;
		s->has_parent[t] = true;
		for (size_t k = 0; k < s->words; k++)
			row[k] |= s->below[s->rank[t] * s->words + k];
		list[ns++].s = s->names[t];
	}
	for (size_t h = 0; h < nh; h++) {
		size_t id = s->hl[s->first_host[i] + h].host;

		row[id / 64] |= UINT64_C(1) << (id % 64);
	}
	if (nh && ns) {
		/* hosts on a switch above the leaves: Slurm takes either
		 * Nodes= or Switches=, so they get a leaf of their own */
		char base[NAME_LEN + 8];

		snprintf(base, sizeof(base), "%s-hosts", s->names[i]);
		slurm_free_name(s, base, vname, sizeof(vname));
		ibtopo__wr_printf(w, "SwitchName=%s Nodes=", vname);
		for (size_t h = 0; h < nh; h++)
			list[ns + h].s = s->hl[s->first_host[i] + h].name;
		write_hostlist(w, list + ns, nh);
		ibtopo__wr_printf(w, "\n");
		list[ns++].s = vname;
		nh = 0;
	}
	ibtopo__wr_printf(w, "SwitchName=%s", s->names[i]);
	if (nh) {
		for (size_t h = 0; h < nh; h++)
			list[h].s = s->hl[s->first_host[i] + h].name;
		ibtopo__wr_printf(w, " Nodes=");
		write_hostlist(w, list, nh);
	} else if (ns) {
		ibtopo__wr_printf(w, " Switches=");
		write_hostlist(w, list, ns);
	}
	ibtopo__wr_printf(w, "\n");
}

/*
 * When no switch reaches every host (one level of switches, or parts
 * that no switch joins), a logical top switch lists the switches nothing
 * lists: otherwise Slurm warns that no switch can reach all nodes and
 * will not place a job across them.
 */
static void slurm_write_top(struct ibtopo__wr *w, struct slurm *s, struct hname *list)
{
	char top[NAME_LEN];
	size_t ns = 0;

	if (!s->nhosts)
		return;
	for (size_t r = 0; r < s->nsw; r++)
		if (below_all(s, s->below + r * s->words))
			return;
	for (size_t r = 0; r < s->nsw; r++) {
		size_t i = s->order[r];

		if (!s->has_parent[i] && below_any(s, s->below + s->rank[i] * s->words))
			list[ns++].s = s->names[i];
	}
	slurm_free_name(s, "top", top, sizeof(top));
	ibtopo__wr_printf(w, "SwitchName=%s Switches=", top);
	write_hostlist(w, list, ns);
	ibtopo__wr_printf(w, "\n");
}

/* Switches by level (lowest first), then in fabric order. */
static void slurm_sort_levels(struct slurm *s)
{
	size_t r = 0;
	int top = 0;

	for (size_t k = 0; k < s->nsw; k++)
		if (s->level[s->order[k]] > top)
			top = s->level[s->order[k]];
	for (int l = 0; l <= top; l++)
		for (size_t i = 0; i < ibtopo_fabric_node_count(s->f); i++)
			if (ibtopo_fabric_node(s->f, i)->type == IBTOPO_NODE_SWITCH &&
			    s->level[i] == l)
				s->order[r++] = i;
	for (r = 0; r < s->nsw; r++)
		s->rank[s->order[r]] = r;
}

static void slurm_release(struct slurm *s)
{
	free(s->order);
	free(s->has_parent);
	free(s->rank);
	free(s->below);
	free(s->nsw_hosts);
	free(s->first_host);
	free(s->hl);
	free(s->level);
	free(s->names);
}

static int write_slurm(const struct ibtopo_sink *opts,
		       const struct ibtopo_fabric *f, struct ibtopo_error *err)
{
	struct ibtopo__wr wr = { opts, 0 }, *w = &wr;
	struct ibtopo_topology_opts topts = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_topology *topo = NULL;
	size_t n = ibtopo_fabric_node_count(f), alloc = n ? n : 1, maxports = 0;
	struct slurm s = { .f = f };
	struct hname *list = NULL;
	size_t *seen = NULL;
	int rc;

	s.names = calloc(alloc, sizeof(*s.names));
	s.level = calloc(alloc, sizeof(*s.level));
	s.first_host = calloc(alloc, sizeof(*s.first_host));
	s.nsw_hosts = calloc(alloc, sizeof(*s.nsw_hosts));
	s.rank = calloc(alloc, sizeof(*s.rank));
	s.has_parent = calloc(alloc, sizeof(*s.has_parent));
	s.order = calloc(alloc, sizeof(*s.order));
	seen = calloc(alloc, sizeof(*seen));
	if (!s.names || !s.level || !s.first_host || !s.nsw_hosts || !s.rank ||
	    !s.has_parent || !s.order || !seen) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_release;
	}
	topts.flags = IBTOPO_TOPOLOGY_NO_PATHS;
	rc = ibtopo_topology_analyze(&topo, f, &topts, NULL, err);
	if (rc)
		goto out_release;
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(f, i);

		if (node->type == IBTOPO_NODE_SWITCH) {
			switch_name(node, s.names[i], NAME_LEN);
			s.level[i] = ibtopo_topology_node_level(topo, node);
			s.order[s.nsw++] = i;
			if (node->nports > maxports)
				maxports = node->nports;
		} else {
			ibtopo__ca_host_name(node, s.names[i], NAME_LEN);
		}
	}
	/* a switch sharing its name would merge with another node in Slurm */
	rc = slurm_unique_switches(f, s.names);
	if (!rc)
		rc = slurm_place_hosts(&s);
	if (rc) {
		rc = ibtopo__error_set(err, rc, "out of memory");
		goto out_free_topo;
	}
	slurm_sort_levels(&s);
	s.words = (s.nhosts + 63) / 64;
	s.below = calloc(s.nsw * s.words + 1, sizeof(*s.below));
	list = calloc((maxports > s.nsw ? maxports : s.nsw) + 2, sizeof(*list));
	if (!s.below || !list) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_list;
	}
	ibtopo__wr_printf(w, "# Slurm topology.conf (topology/tree) written by ibtopo\n");
	for (size_t r = 0; r < s.nsw; r++)
		slurm_write_switch(w, &s, s.order[r], list, seen);
	slurm_write_top(w, &s, list);
	rc = ibtopo__wr_done(w, "slurm", err);
out_free_list:
	free(list);
out_free_topo:
	ibtopo_topology_free(topo);
out_release:
	free(seen);
	slurm_release(&s);
	return rc;
}

const struct ibtopo__writer ibtopo__writer_slurm = {
	.format = IBTOPO_EXPORT_SLURM,
	.name = "slurm",
	.write = write_slurm,
};
