/*
 * topology_rules.c - the fat-tree rules: links that break the levels,
 * uplinks unlike their level's, and servers with one path.
 */
#include "topology-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

static void end_node(struct ibtopo_end *e, const struct ibtopo_node *n)
{
	e->node = n ? n->desc : NULL;
	e->guid = n ? n->guid : 0;
	e->port = -1;
}

static void finding_init(struct ibtopo_finding *f,
			 enum ibtopo_finding_kind kind, int subkind)
{
	ibtopo__finding_init(f, kind);
	f->subkind = subkind;
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
		c->name = ibtopo__fabric_strdup(
			(struct ibtopo_fabric *)t->fabric, name);
		if (!c->name)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
	}
	e->node = c->name;
	e->guid = c->sysimg;
	e->port = -1;
	return 0;
}

int ibtopo__rules_links(struct ibtopo_topology *t, struct ibtopo_findings *out,
			bool rules, struct ibtopo_error *err)
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
		if (ibtopo__topology_is_switch(pa->node) &&
		    ibtopo__topology_is_switch(pb->node)) {
			if (pa->node == pb->node)
				continue;
			la = t->sw[t->node2sw[pa->node->index]].level;
			lb = t->sw[t->node2sw[pb->node->index]].level;
			if (!la || !lb ||
			    (la - lb <= 1 && lb - la <= 1 && la != lb))
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
			fd.num.tree.level_a = (unsigned)la;
			fd.num.tree.level_b = (unsigned)lb;
			ret = ibtopo__topology_add(out, &fd, err);
			continue;
		}
		if (ibtopo__topology_is_switch(pa->node)) {
			const struct ibtopo_port *x = pa;

			pa = pb;
			pb = x;
		}
		if (!ibtopo__topology_is_switch(pb->node) ||
		    pa->node->type != IBTOPO_NODE_CA ||
		    ibtopo__node_in_switch(pa->node))
			continue;
		lb = t->sw[t->node2sw[pb->node->index]].level;
		if (lb <= 1)
			continue;
		finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
			     IBTOPO_FTV_CA_ON_NON_LEAF);
		ibtopo_end_from_port(&fd.a, pa);
		ibtopo_end_from_port(&fd.b, pb);
		fd.num.tree.level_a = 1;
		fd.num.tree.level_b = (unsigned)lb;
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

/*
 * Uneven: switches of level l with fewer uplinks than most of it. On a
 * leaf, fewer uplinks for fewer hosts is a design choice (info, value and
 * limit its hosts and the usual leaf's): a warning only when the leaf is
 * more oversubscribed (hosts:uplinks) than the usual leaf, or has no
 * uplink at all. Above the leaves, and in a partial snapshot (which may
 * just not have reached them), a missing uplink is a warning.
 */
static int uneven_uplinks(struct ibtopo_topology *t, unsigned l, unsigned *vals,
			  struct ibtopo_findings *out, struct ibtopo_error *err)
{
	size_t n = t->nsw, k = 0;
	unsigned usual, usual_down;
	int ret = 0;

	for (size_t u = 0; u < n; u++)
		if (t->sw[u].level == (int)l && !t->sw[u].idle)
			vals[k++] = uplinks_of(t, u);
	usual = mode_of(vals, k);
	k = 0;
	for (size_t u = 0; u < n; u++)
		if (t->sw[u].level == (int)l && !t->sw[u].idle &&
		    uplinks_of(t, u) == usual)
			vals[k++] = (unsigned)t->sw[u].host_links;
	usual_down = mode_of(vals, k);
	for (size_t u = 0; u < n && !ret; u++) {
		struct ibtopo_finding fd;
		unsigned up, down;

		if (t->sw[u].level != (int)l || t->sw[u].idle)
			continue;
		up = uplinks_of(t, u);
		if (up >= usual)
			continue;
		down = (unsigned)t->sw[u].host_links;
		finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
			     IBTOPO_FTV_UNEVEN_UPLINKS);
		end_node(&fd.a, t->sw[u].node);
		fd.num.tree.usual_uplinks = usual;
		fd.num.tree.uplinks = up;
		/* a partial sweep may just not have reached them: no design
		 * choice is inferred, they are missing uplinks */
		if (l == 1 && !ibtopo_fabric_meta(t->fabric)->partial) {
			fd.num.tree.hosts = down;
			fd.num.tree.usual_hosts = usual_down;
		}
		/* down/up <= usual_down/usual, in integers */
		if (l == 1 && up && !ibtopo_fabric_meta(t->fabric)->partial &&
		    (unsigned long long)down * usual <=
			    (unsigned long long)usual_down * up)
			fd.severity = IBTOPO_SEV_INFO;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	return ret;
}

/*
 * For the piled rule at level l: the usual number of cables from a
 * switch to one upper chassis (returned), and the groups (grp): the
 * components of the links between this level and the next.
 */
static unsigned piled_usual(const struct ibtopo_topology *t, unsigned l,
			    unsigned *vals, unsigned *cnt, size_t *grp)
{
	size_t n = t->nsw, k = 0;
	unsigned per;

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
				size_t a = grp_find(grp, u),
				       b = grp_find(grp, v);

				if (a != b)
					grp[a] = b;
			}
		}
	}
	return per;
}

/*
 * Piled: switch u of level l has more cables than usual (per) to one
 * upper switch while an upper switch of its group gets none. A director
 * counts as one upper switch: which of its line chips a cable lands on
 * does not matter, its fabric chips join them all.
 */
static int piled_uplinks(struct ibtopo_topology *t, unsigned l, size_t u,
			 unsigned per, unsigned *cnt, size_t *grp,
			 struct ibtopo_findings *out, struct ibtopo_error *err)
{
	struct ibtopo_finding fd;
	size_t n = t->nsw, most = IBTOPO__NONE, none = IBTOPO__NONE;
	unsigned mostn = 0, chipn = 0;
	int ret;

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
	if (most == IBTOPO__NONE || mostn <= per || none == IBTOPO__NONE ||
	    !out)
		return 0;
	finding_init(&fd, IBTOPO_FIND_FAT_TREE_VIOLATION,
		     IBTOPO_FTV_UPLINKS_PILED);
	end_node(&fd.a, t->sw[u].node);
	end_node(&fd.b, t->sw[most].node);
	end_node(&fd.c, t->sw[none].node);
	ret = director_end(t, t->sw[most].chassis, &fd.d, err);
	fd.num.tree.usual_uplinks = per;
	fd.num.tree.uplinks = mostn;
	if (!ret)
		ret = ibtopo__topology_add(out, &fd, err);
	return ret;
}

int ibtopo__rules_uplinks(struct ibtopo_topology *t,
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
		unsigned per;

		ret = uneven_uplinks(t, l, vals, out, err);
		if (ret)
			break;
		per = piled_usual(t, l, vals, cnt, grp);
		for (size_t u = 0; u < n && !ret; u++)
			if (t->sw[u].level == (int)l)
				ret = piled_uplinks(t, l, u, per, cnt, grp, out,
						    err);
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
int ibtopo__rules_servers(struct ibtopo_topology *t,
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
					   IBTOPO_SERVERS_SINGLE :
					   IBTOPO_SERVERS_DUAL;
	if (t->server_policy == IBTOPO_SERVERS_SINGLE) {
		if (!t->single_homed)
			return 0;
		finding_init(&fd, IBTOPO_FIND_LOW_PATH_DIVERSITY,
			     IBTOPO_LPD_SINGLE_HOMED);
		fd.severity = IBTOPO_SEV_INFO;
		end_node(&fd.a, NULL);
		end_node(&fd.b, NULL);
		fd.num.paths.min_paths = t->min_paths;
		fd.num.paths.paths = 1;
		fd.num.paths.servers = (double)t->single_homed;
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
		fd.num.paths.min_paths = t->min_paths;
		fd.num.paths.paths = s->links < 2 ? 1 : (unsigned)s->natt;
		fd.num.paths.links = (double)s->links;
		ret = ibtopo__topology_add(out, &fd, err);
	}
	return ret;
}
