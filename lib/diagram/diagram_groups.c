/*
 * diagram_groups.c - the overview: switches gathered into groups a
 * reader can take in at once (issue 14).
 *
 *  - a director (switch chips sharing a system image GUID) is one group;
 *  - interchangeable switches are one group ("16 leaves, pod 3"): leaves
 *    with the same switches above them (the leaves of a pod; the path
 *    analysis calls them twins), and above the leaves, switches cabled
 *    to the same groups below (the spines of a pod, the cores of a
 *    tree, the spines of a rail plane);
 *  - a pod is a set of switches below the top level cabled together.
 * Hosts are counted in the group of the first switch they hang off.
 * Groups are built bottom up, level by level, so a switch's key can name
 * the groups below it. Everything is in natural label order, so the
 * same fabric gives the same groups whatever its order.
 */
#include "diagram/diagram-int.h"
#include "report/report-int.h"

#include <stdlib.h>
#include <string.h>

/* A switch and what makes it interchangeable with others. */
struct gkey {
	size_t sw; /* fabric index */
	int level;
	size_t off, n;	  /* its key: ids[off .. off + n), sorted */
	const size_t *id; /* ids + off once all keys are made */
};

struct gctx {
	struct scene *c;
	size_t *ids;
	size_t nids, aids;
};

static int push_id(struct gctx *g, size_t id)
{
	if (ibtopo__grow(&g->ids, &g->aids, g->nids + 1, sizeof(*g->ids)))
		return IBTOPO_ENOMEM;
	g->ids[g->nids++] = id;
	return 0;
}

static int cmp_gkey(const void *x, const void *y)
{
	const struct gkey *a = x, *b = y;

	for (size_t i = 0; i < a->n && i < b->n; i++)
		if (a->id[i] != b->id[i])
			return a->id[i] < b->id[i] ? -1 : 1;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static bool same_gkey(const struct gkey *a, const struct gkey *b)
{
	return a->n == b->n && !memcmp(a->id, b->id, a->n * sizeof(*a->id));
}

static bool is_switch(const struct scene *c, size_t i)
{
	return c->visible[i] && !c->hidden[i] &&
	       ibtopo_fabric_node(c->f, i)->type == IBTOPO_NODE_SWITCH;
}

static int new_group(struct scene *c, size_t first, int level, uint64_t sysimg,
		     size_t *out)
{
	struct sgroup *s;

	if (ibtopo__grow(&c->sg, &c->asg, c->nsg + 1, sizeof(*c->sg)))
		return IBTOPO_ENOMEM;
	s = &c->sg[c->nsg];
	memset(s, 0, sizeof(*s));
	s->first = first;
	s->level = level;
	s->sysimg = sysimg;
	*out = c->nsg++;
	return 0;
}

/* Directors: one group per system image GUID, at its highest chip. */
static int director_groups(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++) {
		size_t k;
		int rc;

		if (!is_switch(c, i) || !c->dir[i])
			continue;
		for (k = 0; k < c->nsg; k++)
			if (c->sg[k].sysimg == c->dir[i])
				break;
		if (k == c->nsg) {
			rc = new_group(c, i, c->level[i], c->dir[i], &k);
			if (rc)
				return rc;
		}
		c->grp[i] = k;
		if (c->level[i] > c->sg[k].level)
			c->sg[k].level = c->level[i];
	}
	return 0;
}

/*
 * The key of switch i at level l: leaves, the switches above them (a
 * director's chips as the director); higher, the groups below them.
 * A switch with nothing to compare is alone: its key is itself.
 */
static int switch_key(struct gctx *g, size_t i, struct gkey *k)
{
	struct scene *c = g->c;
	const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
	int l = c->level[i];
	size_t unit = 0;
	unsigned rail = ibtopo_topology_node_rail(c->topo, n, &unit);
	int rc = 0;

	k->sw = i;
	k->level = l;
	k->off = g->nids;
	for (unsigned p = 1; !rc && p <= n->nports; p++) {
		const struct ibtopo_port *pp = n->ports[p];
		size_t j;

		if (!pp || !pp->remote)
			continue;
		j = pp->remote->node->index;
		if (!is_switch(c, j))
			continue;
		if (l <= 1 && rail) {
			/* a rail's leaves are alike within their unit only */
			rc = push_id(g, SIZE_MAX / 2 + unit * 256 + rail);
			break;
		}
		if (l <= 1 && c->level[j] > l)
			rc = push_id(g, c->dir[j] ? c->nn + c->grp[j] : j);
		else if (l > 1 && c->level[j] < l && c->grp[j] != NONE)
			rc = push_id(g, c->grp[j]);
	}
	if (!rc && g->nids == k->off)
		rc = push_id(g, SIZE_MAX - i);
	if (rc)
		return rc;
	qsort(g->ids + k->off, g->nids - k->off, sizeof(*g->ids),
	      ibtopo__diagram_cmp_size);
	/* a set: one entry per neighbour or group */
	k->n = 0;
	for (size_t a = k->off; a < g->nids; a++)
		if (!k->n || g->ids[k->off + k->n - 1] != g->ids[a])
			g->ids[k->off + k->n++] = g->ids[a];
	g->nids = k->off + k->n;
	return 0;
}

/* Twins level by level, bottom up. */
static int twin_groups(struct scene *c)
{
	struct gctx g = { .c = c };
	struct gkey *keys = calloc(c->nn + 1, sizeof(*keys));
	int top = 0, rc = 0;

	if (!keys)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++)
		if (is_switch(c, i) && c->level[i] > top)
			top = c->level[i];
	for (int l = 1; !rc && l <= top; l++) {
		size_t nk = 0;

		g.nids = 0;
		for (size_t i = 0; !rc && i < c->nn; i++) {
			if (!is_switch(c, i) || c->dir[i] || c->level[i] != l)
				continue;
			rc = switch_key(&g, i, &keys[nk]);
			nk++;
		}
		if (rc || !nk)
			continue;
		for (size_t k = 0; k < nk; k++)
			keys[k].id = g.ids + keys[k].off;
		qsort(keys, nk, sizeof(*keys), cmp_gkey);
		for (size_t s = 0, e; !rc && s < nk; s = e) {
			size_t k;

			for (e = s + 1; e < nk && same_gkey(&keys[s], &keys[e]);
			     e++)
				;
			rc = new_group(c, keys[s].sw, l, 0, &k);
			for (size_t m = s; !rc && m < e; m++)
				c->grp[keys[m].sw] = k;
		}
	}
	free(g.ids);
	free(keys);
	return rc;
}

/* ---- pods: switches below the top level cabled together ---- */

static size_t find_root(size_t *up, size_t i)
{
	while (up[i] != i) {
		up[i] = up[up[i]];
		i = up[i];
	}
	return i;
}

struct byname {
	size_t i;
	const char *s;
};

static int cmp_byname(const void *x, const void *y)
{
	const struct byname *a = x, *b = y;
	int r = ibtopo__diagram_natcmp(a->s, b->s);

	if (r)
		return r;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* ---- pods alike: one group for many pods of one shape ---- */

/* What makes pods alike: their switches per level, hosts, cables. */
struct podsig {
	size_t pod;
	size_t sw[4];		  /* switches per level 1..4 */
	size_t hosts, inside, up; /* host cables, cables among its
				   * switches, cables up to the top */
	bool apart;		  /* a problem, a director, a level over 4 */
};

static int cmp_podsig(const void *x, const void *y)
{
	const struct podsig *a = x, *b = y;
	int r = memcmp(a->sw, b->sw, sizeof(a->sw));

	if (r)
		return r;
	if (a->hosts != b->hosts)
		return a->hosts < b->hosts ? -1 : 1;
	if (a->inside != b->inside)
		return a->inside < b->inside ? -1 : 1;
	if (a->up != b->up)
		return a->up < b->up ? -1 : 1;
	return a->pod < b->pod ? -1 : a->pod > b->pod;
}

static bool same_podsig(const struct podsig *a, const struct podsig *b)
{
	return !memcmp(a->sw, b->sw, sizeof(a->sw)) && a->hosts == b->hosts &&
	       a->inside == b->inside && a->up == b->up;
}

/* Each pod's shape, and whether a problem sets it apart. */
static void pod_shapes(struct scene *c, int top, const size_t *podof,
		       struct podsig *ps)
{
	for (size_t i = 0; i < c->nn; i++) {
		struct podsig *p;

		if (!podof[i])
			continue;
		p = &ps[podof[i] - 1];
		if (c->level[i] < 1 || c->level[i] > 4 || c->dir[i] ||
		    (c->mark[i] & ~MARK_FOCUS))
			p->apart = true;
		else
			p->sw[c->level[i] - 1]++;
	}
	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		size_t a = l->a->node->index, b = l->b->node->index;
		size_t pa = podof[a], pb = podof[b];

		if (!pa && !pb)
			continue;
		if (pa && pb) {
			ps[pa - 1].inside++;
			ps[pa - 1].apart |= pa != pb || c->lcat[i] != CAT_OK;
			continue;
		}
		if (!pa) {
			size_t t = a;

			a = b;
			b = t;
			pa = pb;
		}
		/* a host's mark sets its pod apart; a core's is the
		 * cores' group's */
		ps[pa - 1].apart |=
			c->lcat[i] != CAT_OK ||
			(!is_switch(c, b) && (c->mark[b] & ~MARK_FOCUS) != 0);
		if (is_switch(c, b) && c->level[b] == top)
			ps[pa - 1].up++;
		else if (!is_switch(c, b))
			ps[pa - 1].hosts++;
		else
			ps[pa - 1].apart = true;
	}
}

/*
 * More pods than a level shows in a row (IBTOPO_DETAIL_LEVEL_ABOVE) are
 * a wall of look-alike nodes: the pods of one shape with no problem are
 * one group, "64 pods alike", under the top; the others keep their
 * groups. Not for --focus, which names a pod's groups.
 */
static int merge_alike_pods(struct scene *c, int top, const size_t *podof,
			    size_t npods)
{
	struct podsig *ps;
	size_t *to;
	int rc = 0;

	if (npods <= IBTOPO_DETAIL_LEVEL_ABOVE || c->d->focus || top < 3)
		return 0;
	ps = calloc(npods, sizeof(*ps));
	to = calloc(npods + 1, sizeof(*to));
	if (!ps || !to) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (size_t p = 0; p < npods; p++)
		ps[p].pod = p + 1;
	pod_shapes(c, top, podof, ps);
	qsort(ps, npods, sizeof(*ps), cmp_podsig);
	for (size_t s = 0, e; !rc && s < npods; s = e) {
		size_t n = 0, g = NONE;

		for (e = s; e < npods && same_podsig(&ps[s], &ps[e]); e++)
			n += !ps[e].apart;
		if (n < 2)
			continue;
		for (size_t k = s; !rc && k < e; k++) {
			if (ps[k].apart)
				continue;
			if (g == NONE) {
				rc = new_group(c, 0, top - 1, 0, &g);
				if (rc)
					break;
				c->sg[g].pods = n;
				memcpy(c->sg[g].each, ps[k].sw,
				       sizeof(ps[k].sw));
			}
			to[ps[k].pod] = g + 1;
		}
	}
	for (size_t i = 0; !rc && i < c->nn; i++) {
		if (!podof[i] || !to[podof[i]])
			continue;
		if (!c->sg[to[podof[i]] - 1].n++)
			c->sg[to[podof[i]] - 1].first = i;
		c->grp[i] = to[podof[i]] - 1;
	}
	/* count_groups counts them again */
	for (size_t g = 0; g < c->nsg; g++)
		c->sg[g].n = 0;
out_free:
	free(to);
	free(ps);
	return rc;
}

static int number_pods(struct scene *c, int top)
{
	size_t *up = calloc(c->nn + 1, sizeof(*up));
	size_t *size = calloc(c->nn + 1, sizeof(*size));
	size_t *pod = calloc(c->nn + 1, sizeof(*pod));
	struct byname *v = calloc(c->nn + 1, sizeof(*v));
	size_t *podof = NULL;
	size_t nv = 0, npods = 0, big = 0;
	int rc = 0;

	if (!up || !size || !pod || !v) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (size_t i = 0; i < c->nn; i++)
		up[i] = i;
	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *lk = ibtopo_fabric_link(c->f, i);
		size_t a = lk->a->node->index, b = lk->b->node->index;

		if (!is_switch(c, a) || !is_switch(c, b) ||
		    c->level[a] >= top || c->level[b] >= top)
			continue;
		up[find_root(up, a)] = find_root(up, b);
	}
	for (size_t i = 0; i < c->nn; i++) {
		if (!is_switch(c, i) || c->level[i] >= top)
			continue;
		size[find_root(up, i)]++;
		v[nv].i = i;
		v[nv++].s = c->label[i];
	}
	for (size_t i = 0; i < c->nn; i++)
		big += up[i] == i && size[i] > 1;
	/* one pod is no pod: the name would say nothing */
	if (big < 2)
		goto out_free;
	qsort(v, nv, sizeof(*v), cmp_byname);
	for (size_t k = 0; k < nv; k++) {
		size_t r = find_root(up, v[k].i);

		if (size[r] > 1 && !pod[r])
			pod[r] = ++npods;
	}
	/* a group in one pod is named after it */
	for (size_t g = 0; g < c->nsg; g++) {
		size_t p = NONE;

		for (size_t i = 0; i < c->nn && p != 0; i++) {
			size_t q;

			if (c->grp[i] != g || c->level[i] >= top)
				continue;
			q = pod[find_root(up, i)];
			p = p == NONE ? q : p == q ? p : 0;
		}
		c->sg[g].pod = p == NONE ? 0 : p;
	}
	podof = calloc(c->nn + 1, sizeof(*podof));
	if (!podof) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (size_t i = 0; i < c->nn; i++)
		if (is_switch(c, i) && c->level[i] < top)
			podof[i] = pod[find_root(up, i)];
	rc = merge_alike_pods(c, top, podof, npods);
out_free:
	free(podof);
	free(v);
	free(pod);
	free(size);
	free(up);
	return rc;
}

/* ---- names ---- */

static const char *level_word(int level, int top)
{
	if (level <= 1)
		return "leaves";
	if (level == top && top >= 3)
		return "cores";
	if (level == 2 || level == top)
		return "spines";
	return NULL;
}

/* "64 pods alike", and its label: what each pod has. */
static void pods_name(const struct sgroup *s, int top, char *name, size_t nlen,
		      char *label, size_t llen)
{
	size_t k;

	snprintf(name, nlen, "%zu pods alike", s->pods);
	k = (size_t)snprintf(label, llen, "%s:\n", name);
	/* the highest level first, as drawn */
	for (int l = top - 1; l >= 1 && k < llen; l--) {
		const char *w = level_word(l, top);

		if (!s->each[l - 1])
			continue;
		if (w)
			k += (size_t)snprintf(label + k, llen - k, "%zu %s, ",
					      s->each[l - 1], w);
		else
			k += (size_t)snprintf(label + k, llen - k,
					      "%zu level-%d switches, ",
					      s->each[l - 1], l);
	}
	if (k < llen)
		snprintf(label + k, llen - k, "%zu host%s each",
			 s->hosts / s->pods,
			 s->hosts / s->pods == 1 ? "" : "s");
}

/* "16 leaves, pod 3", "director core1", its members and hosts. */
static int name_group(struct scene *c, size_t g, int top)
{
	struct sgroup *s = &c->sg[g];
	const char *first = NULL, *last = NULL, *w;
	char name[160], range[160], buf[400];
	size_t k = 0;

	for (size_t i = 0; i < c->nn; i++) {
		if (c->grp[i] != g)
			continue;
		if (!first || ibtopo__diagram_natcmp(c->label[i], first) < 0)
			first = c->label[i];
		if (!last || ibtopo__diagram_natcmp(c->label[i], last) > 0)
			last = c->label[i];
	}
	if (!s->n) {
		/* its switches went to a group of pods alike: not drawn */
		s->name = strdup("");
		s->label = strdup("");
		return s->name && s->label ? 0 : IBTOPO_ENOMEM;
	}
	if (s->pods) {
		pods_name(s, top, name, sizeof(name), buf, sizeof(buf));
		s->name = strdup(name);
		s->label = strdup(buf);
		return s->name && s->label ? 0 : IBTOPO_ENOMEM;
	}
	if (s->sysimg) {
		ibtopo__diagram_chassis_name(c, s->sysimg, name, sizeof(name));
		snprintf(range, sizeof(range),
			 "director, %zu chips, %zu ports out", s->n,
			 s->ext_ports);
	} else if (s->n == 1) {
		snprintf(name, sizeof(name), "%s", first);
		range[0] = '\0';
	} else {
		w = level_word(s->level, top);
		if (w)
			k = (size_t)snprintf(name, sizeof(name), "%zu %s", s->n,
					     w);
		else
			k = (size_t)snprintf(name, sizeof(name),
					     "%zu level-%d switches", s->n,
					     s->level);
		if (s->pod)
			snprintf(name + k, sizeof(name) - k, ", pod %zu",
				 s->pod);
		ibtopo__diagram_name_range(range, sizeof(range), first, last);
	}
	s->name = strdup(name);
	if (s->hosts)
		snprintf(buf, sizeof(buf), "%s\n%s\n%zu host%s", name, range,
			 s->hosts, s->hosts == 1 ? "" : "s");
	else
		snprintf(buf, sizeof(buf), "%s\n%s", name, range);
	s->label = strdup(buf);
	return s->name && s->label ? 0 : IBTOPO_ENOMEM;
}

/* "16 leaves, pod 3: leaf03-01, leaf03-02, ..." as far as 1000 bytes go. */
static int group_tooltip(struct scene *c, size_t g, struct byname *v)
{
	struct sgroup *s = &c->sg[g];
	char buf[1024];
	size_t k, nv = 0;

	for (size_t i = 0; i < c->nn; i++)
		if (c->grp[i] == g) {
			v[nv].i = i;
			v[nv++].s = c->label[i];
		}
	qsort(v, nv, sizeof(*v), cmp_byname);
	k = (size_t)snprintf(buf, sizeof(buf), "%s:", s->name);
	for (size_t m = 0; m < nv && k < sizeof(buf); m++) {
		if (k + strlen(v[m].s) + 8 >= sizeof(buf)) {
			snprintf(buf + k, sizeof(buf) - k, " \xe2\x80\xa6");
			break;
		}
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s %s",
				      m ? "," : "", v[m].s);
	}
	s->tooltip = strdup(buf);
	return s->tooltip ? 0 : IBTOPO_ENOMEM;
}

/*
 * A cable of category k at node i (a member, or a host folded in) of
 * group g; the group is named after the first such node by name.
 */
static void count_problem(struct scene *c, size_t g, enum cat k, size_t i)
{
	struct sgroup *s = &c->sg[g];

	s->ncat[k]++;
	if (!s->where[k] ||
	    ibtopo__diagram_natcmp(c->label[i], s->where[k]) < 0)
		s->where[k] = c->label[i];
}

/* Members, hosts, external ports, and the problems a group holds. */
static void count_groups(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++)
		if (c->grp[i] != NONE) {
			c->sg[c->grp[i]].n++;
			c->sg[c->grp[i]].marks |= c->mark[i];
		}
	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		size_t a = l->a->node->index, b = l->b->node->index;
		size_t ga = c->grp[a], gb = c->grp[b];
		enum cat k = (enum cat)c->lcat[i];

		if (c->hidden[a] || c->hidden[b])
			continue;
		if (ga != NONE && c->sg[ga].sysimg && ga != gb)
			c->sg[ga].ext_ports++;
		if (gb != NONE && c->sg[gb].sysimg && ga != gb)
			c->sg[gb].ext_ports++;
		if (k == CAT_OK)
			continue;
		/* a host's link counts for the group the host is in */
		if (ga == NONE && c->host_grp)
			ga = c->host_grp[a];
		if (gb == NONE && c->host_grp)
			gb = c->host_grp[b];
		if (ga != NONE)
			count_problem(c, ga, k, a);
		if (gb != NONE && gb != ga)
			count_problem(c, gb, k, b);
	}
	for (size_t i = 0; i < c->nn; i++)
		if (c->host_grp[i] != NONE) {
			c->sg[c->host_grp[i]].hosts++;
			c->sg[c->host_grp[i]].marks |=
				c->mark[i] & ~MARK_LOWPATH;
		}
}

/* Hosts go to the group of the first switch they hang off. */
static void fold_hosts(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
		size_t best = NONE;

		c->host_grp[i] = NONE;
		if (!c->visible[i] || c->hidden[i] ||
		    n->type == IBTOPO_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];
			size_t j;

			if (!pp || !pp->remote)
				continue;
			j = pp->remote->node->index;
			if (c->grp[j] == NONE) {
				best = NONE; /* on a host or a ghost: drawn */
				break;
			}
			if (best == NONE || c->grp[j] < best)
				best = c->grp[j];
		}
		c->host_grp[i] = best;
	}
}

int ibtopo__diagram_groups(struct scene *c)
{
	struct byname *v;
	int top = 0, rc;

	c->grp = calloc(c->nn + 1, sizeof(*c->grp));
	c->host_grp = calloc(c->nn + 1, sizeof(*c->host_grp));
	if (!c->grp || !c->host_grp)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		c->grp[i] = NONE;
		if (is_switch(c, i) && c->level[i] > top)
			top = c->level[i];
	}
	rc = director_groups(c);
	if (!rc)
		rc = twin_groups(c);
	if (!rc)
		rc = number_pods(c, top);
	if (rc)
		return rc;
	fold_hosts(c);
	count_groups(c);
	v = calloc(c->nn + 1, sizeof(*v));
	if (!v)
		return IBTOPO_ENOMEM;
	for (size_t g = 0; !rc && g < c->nsg; g++) {
		rc = name_group(c, g, top);
		if (!rc)
			rc = group_tooltip(c, g, v);
		for (int k = 0; k < CAT_MAX_; k++)
			if (c->sg[g].ncat[k])
				c->sg[g].marks |= MARK_FAULT;
		if (c->sg[g].marks & (MARK_LOWPATH | MARK_TOPO))
			c->sg[g].marks |= MARK_FAULT;
	}
	free(v);
	return rc;
}

void ibtopo__diagram_groups_release(struct scene *c)
{
	for (size_t g = 0; g < c->nsg; g++) {
		free(c->sg[g].name);
		free(c->sg[g].label);
		free(c->sg[g].tooltip);
	}
	free(c->sg);
	free(c->grp);
	free(c->host_grp);
}

/* ---- rail-optimized fabrics: one column per rail ---- */

/* The fabric node a drawn leaf stands for (a group: its first switch). */
static const struct ibtopo_node *dnode_switch(const struct scene *c,
					      const struct dnode *d)
{
	if (d->kind == DN_SWITCH)
		return d->node;
	if (d->kind == DN_SWGROUP)
		return ibtopo_fabric_node(c->f, c->sg[d->group].first);
	return NULL;
}

struct unit_name {
	size_t unit;	   /* the analysis' unit, 1.. */
	const char *first; /* its first leaf by name */
};

static int cmp_unit_name(const void *x, const void *y)
{
	const struct unit_name *a = x, *b = y;
	int r = ibtopo__diagram_natcmp(a->first, b->first);

	if (r)
		return r;
	return a->unit < b->unit ? -1 : a->unit > b->unit;
}

int ibtopo__diagram_rail_rows(struct scene *c)
{
	size_t nunits = 0, first = NONE, last = 0, rows, old;
	unsigned nrails = ibtopo_topology_rails(c->topo, &nunits);
	struct unit_name *u;
	size_t *row;
	bool other = false;

	if (!nrails || c->sfdp)
		return 0;
	u = calloc(nunits + 1, sizeof(*u));
	row = calloc(nunits + 1, sizeof(*row));
	if (!u || !row) {
		free(u);
		free(row);
		return IBTOPO_ENOMEM;
	}
	for (size_t k = 0; k < nunits; k++)
		u[k].unit = k + 1;
	for (size_t i = 0; i < c->ndn; i++) {
		struct dnode *d = &c->dn[i];
		const struct ibtopo_node *n = dnode_switch(c, d);
		size_t un = 0;

		if (d->level != 1)
			continue;
		if (first == NONE || d->pos < first)
			first = d->pos;
		if (d->pos > last)
			last = d->pos;
		d->rail = n ? ibtopo_topology_node_rail(c->topo, n, &un) : 0;
		d->unit = d->rail ? un : 0;
		if (d->unit && (!u[un - 1].first ||
				ibtopo__diagram_natcmp(c->label[n->index],
						       u[un - 1].first) < 0))
			u[un - 1].first = c->label[n->index];
		other |= !d->unit;
	}
	if (first == NONE)
		goto out_free;
	/* units in the order of their first leaf's name; undrawn ones last */
	for (size_t k = 0; k < nunits; k++)
		if (!u[k].first)
			u[k].first = "\xff";
	qsort(u, nunits, sizeof(*u), cmp_unit_name);
	rows = 0;
	for (size_t k = 0; k < nunits; k++)
		if (u[k].first[0] != '\xff')
			row[u[k].unit - 1] = ++rows;
	c->nunits = rows;
	rows += other;
	old = last - first + 1;
	/* the leaves' rows: one per unit, leaves in none after them */
	for (size_t i = 0; i < c->ndn; i++) {
		struct dnode *d = &c->dn[i];

		if (d->pos > last)
			d->pos = d->pos - old + rows;
		else if (d->pos >= first)
			d->pos = first +
				 (d->unit ? row[d->unit - 1] - 1 : rows - 1);
		if (d->unit)
			d->unit = row[d->unit - 1];
	}
	c->nrows = c->nrows - old + rows;
	c->nrails = nrails;
out_free:
	free(row);
	free(u);
	return 0;
}

/* The first drawn leaf of a rail in a unit row, or NONE. */
static size_t rail_leaf(const struct scene *c, unsigned rail, size_t unit)
{
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].rail == rail && c->dn[i].unit == unit)
			return i;
	return NONE;
}

void ibtopo__diagram_rails_dot(struct ibtopo__wr *w, const struct scene *c)
{
	char a[40], b[40];

	if (!c->nrails || c->sfdp)
		return;
	/* every spine is cabled to every leaf: edges bound for one column
	 * share their way down, or their bends push the columns apart */
	ibtopo__wr_printf(w, "\tgraph [concentrate=true];\n");
	for (unsigned r = 1; r <= c->nrails; r++) {
		size_t up = NONE;

		for (size_t i = 0; i < c->ndn; i++)
			if (c->dn[i].rail == r) {
				ibtopo__diagram_dnode_id(c, i, a, sizeof(a));
				ibtopo__wr_printf(
					w, "\t%s [group=\"rail%u\"];\n", a, r);
			}
		/* down the column: heavy, so dot keeps it straight */
		for (size_t k = 1; k <= c->nunits; k++) {
			size_t i = rail_leaf(c, r, k);

			if (i == NONE)
				continue;
			ibtopo__diagram_dnode_id(c, i, b, sizeof(b));
			if (up != NONE) {
				ibtopo__diagram_dnode_id(c, up, a, sizeof(a));
				ibtopo__wr_printf(w,
						  "\t%s -> %s [style=invis, "
						  "weight=100, minlen=%zu];\n",
						  a, b,
						  c->dn[i].pos - c->dn[up].pos);
			}
			up = i;
		}
	}
	/*
	 * Across each unit row, rail 1 first. The names are the leaves'
	 * outside labels (every drawn node is a node of the fabric): a
	 * rail's on the top leaf of its column, a unit's and its hosts' on
	 * the last leaf of its row.
	 */
	for (size_t k = 1; k <= c->nunits; k++) {
		size_t hosts = 0, left = NONE;

		for (size_t i = 0; c->groups && i < c->ndn; i++) {
			const struct ibtopo_node *n =
				dnode_switch(c, &c->dn[i]);

			if (c->dn[i].unit == k && n && c->grp[n->index] != NONE)
				hosts += c->sg[c->grp[n->index]].hosts;
		}
		for (unsigned r = 1; r <= c->nrails; r++) {
			size_t i = rail_leaf(c, r, k), top = NONE, next = NONE;
			bool first_in_column, last_in_row;

			if (i == NONE)
				continue;
			for (size_t m = 1; m <= c->nunits && top == NONE; m++)
				top = rail_leaf(c, r, m);
			for (unsigned q = r + 1; q <= c->nrails && next == NONE;
			     q++)
				next = rail_leaf(c, q, k);
			first_in_column = top == i;
			last_in_row = next == NONE;
			ibtopo__diagram_dnode_id(c, i, b, sizeof(b));
			if (left != NONE)
				ibtopo__wr_printf(
					w, "\t%s -> %s [style=invis];\n", a, b);
			if (first_in_column || last_in_row) {
				ibtopo__wr_printf(w, "\t%s [xlabel=\"", b);
				if (first_in_column)
					ibtopo__wr_printf(w, "rail %u%s", r,
							  last_in_row ? "\\n" :
									"");
				if (last_in_row)
					ibtopo__wr_printf(w, "unit %zu", k);
				if (last_in_row && hosts)
					ibtopo__wr_printf(
						w, "\\n%zu host%s", hosts,
						hosts == 1 ? "" : "s");
				ibtopo__wr_printf(w, "\"];\n");
			}
			memcpy(a, b, sizeof(a));
			left = i;
		}
	}
}
