/*
 * diagram_scene.c - what a fabric diagram draws, as data and no text:
 * the build of a scene, step by step (labels: diagram_names.c; marks:
 * diagram_marks.c; drawn nodes: diagram_nodes.c; edges: diagram_edges.c;
 * the overview: diagram_groups.c), and here the directors, the --focus
 * neighbourhood, the ranks the nodes sit on, the layout engine and what
 * the legend needs. A writer walks the scene in its order (diagram_dot.c
 * writes DOT).
 *
 * The scene is a pure function of the fabric, the findings and the
 * options: nodes and edges are sorted and nothing depends on addresses
 * or the clock, so the same input gives the same scene (golden tests of
 * the DOT text rely on it).
 */
#include "diagram/diagram-int.h"
#include "analysis/topology-int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* directors                                                           */
/* ------------------------------------------------------------------ */

/* Switches sharing a system image GUID are chips of one director. */
static void find_directors(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++)
		c->dir[i] = ibtopo__topology_director(
			c->topo, ibtopo_fabric_node(c->f, i));
}

/* ------------------------------------------------------------------ */
/* focus                                                               */
/* ------------------------------------------------------------------ */

/* The label a node is drawn with, the second name --focus takes. */
static const char *drawn_label(void *arg, const struct ibtopo_node *n,
			       char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return ((struct scene *)arg)->label[n->index];
}

/* Does `name` name group g: "16 leaves, pod 3", "leaves, pod 3", "core1"? */
static bool names_group(const struct sgroup *g, const char *name)
{
	const char *s = g->name;

	if (!strcmp(s, name))
		return true;
	while (isdigit((unsigned char)*s))
		s++;
	return s != g->name && *s == ' ' && !strcmp(s + 1, name);
}

/*
 * --focus names a group of the overview: its switches are the focus
 * (c->seed), the first of them c->focus. False when no group has that
 * name (or the groups cannot be made).
 */
static bool find_focus_group(struct scene *c)
{
	size_t g = NONE;

	for (size_t i = 0; i < c->nn; i++)
		c->visible[i] = true;
	if (ibtopo__diagram_groups(c))
		goto out_release;
	for (size_t k = 0; k < c->nsg && g == NONE; k++)
		if (names_group(&c->sg[k], c->d->focus))
			g = k;
	if (g == NONE)
		goto out_release;
	snprintf(c->focus_name, sizeof(c->focus_name), "%s", c->sg[g].name);
	for (size_t i = 0; i < c->nn; i++) {
		c->seed[i] = c->grp[i] == g;
		if (c->seed[i] && !c->focus)
			c->focus = ibtopo_fabric_node(c->f, i);
	}
out_release:
	ibtopo__diagram_groups_release(c);
	c->grp = c->host_grp = NULL;
	c->sg = NULL;
	c->nsg = c->asg = 0;
	for (size_t i = 0; i < c->nn; i++)
		c->visible[i] = false;
	return c->focus != NULL;
}

static int find_focus(struct scene *c)
{
	struct ibtopo__node_lookup how = { .alias = drawn_label,
					   .alias_arg = c };
	struct ibtopo_node *n = NULL;
	int rc;

	c->focus = NULL;
	if (!c->d->focus)
		return 0;
	/* a GUID, else a description, else a drawn label: one node only */
	rc = ibtopo__fabric_lookup(&n, c->f, c->d->focus, &how, c->err);
	c->focus = n;
	if (rc == IBTOPO_ENOTFOUND && find_focus_group(c))
		rc = 0;
	return rc;
}

static int mark_visible(struct scene *c)
{
	size_t *queue, *dist, head = 0, tail = 0;

	if (!c->focus) {
		for (size_t i = 0; i < c->nn; i++)
			c->visible[i] = true;
		return 0;
	}
	queue = calloc(c->nn, sizeof(*queue));
	dist = calloc(c->nn, sizeof(*dist));
	if (!queue || !dist) {
		free(queue);
		free(dist);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->nn; i++) {
		if (i != c->focus->index && !c->seed[i])
			continue;
		queue[tail++] = i;
		c->visible[i] = true;
		c->mark[i] |= MARK_FOCUS;
	}
	while (head < tail) {
		size_t i = queue[head++];
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

		if (dist[i] >= c->depth)
			continue;
		for (unsigned p = 0; p <= n->nports; p++) {
			const struct ibtopo_port *pp = n->ports[p];
			size_t j;

			if (!pp || !pp->remote)
				continue;
			j = pp->remote->node->index;
			if (c->visible[j])
				continue;
			c->visible[j] = true;
			dist[j] = dist[i] + 1;
			queue[tail++] = j;
		}
	}
	free(queue);
	free(dist);
	return 0;
}

/* ------------------------------------------------------------------ */
/* arrangement: ranks, layout engine, text scale                       */
/* ------------------------------------------------------------------ */

/* Edges beyond which edge labels no longer take room in the layout. */
#define XLABELS_ABOVE 60

/* Switches per row before a level of switches is split into rows. */
#define ROW_SWITCHES 40
/* Hosts rows are at least this wide (inches) before they are split. */
#define ROW_MIN_WIDTH 20.0
/*
 * What an edge passing through a row takes in it (inches): dot gives it
 * a virtual node, nodesep apart from the next. A level of switches split
 * into rows puts the edges from above into the rows before theirs: when
 * its switches have more such edges than this fits in their width (the
 * leaves of a full mesh of spines), one row is narrower than several
 * (the 79 leaves under 18 spines of a --focus: 328 inches in two rows,
 * 76 in one).
 */
#define ROW_PASSING_WIDTH 0.25

/* Rough width of a drawn node in inches (10 pt Helvetica), with nodesep. */
static double node_width(const struct scene *c, const struct dnode *d)
{
	size_t longest = 0, cur = 0;

	if (d->kind == DN_BLOCK) {
		for (size_t i = 0; i < d->nhosts; i++)
			if (ibtopo__diagram_utf8_len(d->cells[i].label) >
			    longest)
				longest = ibtopo__diagram_utf8_len(
					d->cells[i].label);
		return 0.2 + (double)d->cols * (0.12 + 0.065 * (double)longest);
	}

	for (const char *p = d->label; *p; p++) {
		if (*p == '\n') {
			cur = 0;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80)
			cur++;
		if (cur > longest)
			longest = cur;
	}
	/* dot draws an ellipse about 1.4 times as wide as its text */
	if (d->kind == DN_HOST)
		return 0.3 + 0.105 * (double)longest + 0.2;
	return 0.3 + 0.075 * (double)longest +
	       (d->type != IBTOPO_NODE_SWITCH ? 0.3 : 0) + 0.2;
}

/*
 * Ranks for dot. A level is one rank unless it is wide: a picture 30
 * times wider than tall is no use. Hosts are dealt into rows as wide as
 * the switch rows (at least ROW_MIN_WIDTH), by their place under their
 * switch (a comb under each leaf); a level of switches only beyond
 * ROW_SWITCHES (links between switches crossing a row of switches take
 * room in it). Edges get minlen = the rows between their ends so dot
 * keeps exactly these ranks.
 */
/* Lines of a drawn node's label. */
static size_t label_lines(const struct dnode *d)
{
	size_t n = 1;

	for (const char *p = d->label; p && *p; p++)
		n += *p == '\n';
	return n;
}

/* The overview: width / height aimed at (dot makes it wider: about 2),
 * and the narrowest row (inches) a level is split into. */
#define OVERVIEW_RATIO 1.4
#define OVERVIEW_MIN_WIDTH 6.0

/*
 * The overview: switches a row takes so that the picture is about twice
 * as wide as tall (a page; between 1:2 and 4:1 whatever the fabric).
 * Each level's rows are counted with its widest node and tallest label.
 */
static size_t overview_row_switches(const struct scene *c)
{
	size_t best = ROW_SWITCHES, most = 1;
	double best_score = HUGE_VAL;

	for (size_t s = 0, e; s < c->ndn; s = e) {
		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			;
		if (e - s > most)
			most = e - s;
	}
	for (size_t r = 1; r <= most; r++) {
		/* the title and legend above: about 14 by 3 inches */
		double width = 14, height = 3, score;
		bool narrow = false;

		for (size_t s = 0, e; s < c->ndn; s = e) {
			double w = 0, h = 0;
			size_t n, lines = 1;

			for (e = s;
			     e < c->ndn && c->dn[e].level == c->dn[s].level;
			     e++) {
				w += node_width(c, &c->dn[e]);
				if (label_lines(&c->dn[e]) > lines)
					lines = label_lines(&c->dn[e]);
			}
			n = e - s;
			w /= (double)n;
			h = 0.2 + 0.17 * (double)lines + 0.9;
			if ((double)(n < r ? n : r) * w > width)
				width = (double)(n < r ? n : r) * w;
			height += (double)((n + r - 1) / r) * h;
			/* a level is not split into rows narrower than this */
			narrow |= n > r && (double)r * w < OVERVIEW_MIN_WIDTH;
		}
		if (narrow)
			continue;
		score = fabs(log(width / height / OVERVIEW_RATIO));
		if (score < best_score) {
			best_score = score;
			best = r;
		}
	}
	return best;
}

static int assign_rows(struct scene *c)
{
	size_t *parent, *nth, *row, base = 0;
	size_t per_row = c->groups ? overview_row_switches(c) : ROW_SWITCHES;
	double widest = ROW_MIN_WIDTH;

	parent = calloc(c->ndn + 1, sizeof(*parent));
	nth = calloc(c->ndn + 1, sizeof(*nth));
	row = calloc(c->ndn + 1, sizeof(*row));
	if (!parent || !nth || !row) {
		free(parent);
		free(nth);
		free(row);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->ndn; i++)
		parent[i] = NONE;
	/* edges are sorted by upper end: the first one down is the parent */
	for (size_t i = 0; i < c->nde; i++) {
		const struct dedge *e = &c->de[i];

		if (c->dn[e->v].level < c->dn[e->u].level &&
		    parent[e->v] == NONE)
			parent[e->v] = e->u;
	}
	for (size_t s = 0, e; s < c->ndn; s = e) {
		size_t n, rows = 1, from_above = 0;
		double width = 0;

		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			width += node_width(c, &c->dn[e]);
		n = e - s;
		for (size_t i = 0; i < c->nde; i++)
			from_above += c->de[i].v >= s && c->de[i].v < e &&
				      c->dn[c->de[i].u].level > c->dn[s].level;
		if (c->dn[s].level > 0) {
			if (n > per_row &&
			    (c->groups ||
			     (double)from_above * ROW_PASSING_WIDTH < width))
				rows = (n + per_row - 1) / per_row;
			if (width / (double)rows > widest)
				widest = width / (double)rows;
		} else if (width > widest) {
			rows = (size_t)ceil(width / widest);
		}
		for (size_t i = s; i < e; i++) {
			size_t p = parent[i];

			if (c->dn[s].level > 0 || p == NONE) {
				row[i] = (i - s) % rows;
			} else {
				/* staggered by the parent's place in its level,
				 * so that lone children alternate rows too */
				row[i] = (p + nth[p]) % rows;
				nth[p]++;
			}
			c->dn[i].pos = base + row[i];
		}
		base += rows;
	}
	c->nrows = base;
	free(parent);
	free(nth);
	free(row);
	return 0;
}

/*
 * Left to right in each dot rank, decided here rather than by dot's
 * crossing reduction, which draws a tie as it comes (the README demo's
 * leaves as leaf01, leaf02, leaf04, leaf03, their hosts scattered):
 * level by level from the top, each node at the mean place of the nodes
 * above it that it is linked to (a host under its switches, a leaf under
 * its spines), ties and the top level in name order (the drawn
 * nodes' order). So the hosts of a group of leaves sit under them in
 * name order, and the leaves in name order. Not for rail-optimized
 * fabrics (their columns are their own), directors (dot keeps a
 * director's box whole), nor from a rank holding a link between two of
 * its nodes down (dot orders those by the link, and the ranks below
 * follow).
 */
static int order_ranks(struct scene *c)
{
	double *place = calloc(c->ndn + 1, sizeof(*place));
	double *sum = calloc(c->ndn + 1, sizeof(*sum));
	size_t *up = calloc(c->ndn + 1, sizeof(*up));
	bool *flat = calloc(c->nrows + 1, sizeof(*flat));
	size_t *idx = calloc(c->ndn + 1, sizeof(*idx));
	int rc = IBTOPO_ENOMEM;

	if (!place || !sum || !up || !flat || !idx)
		goto out_free;
	for (size_t i = 0; i < c->nde; i++) {
		const struct dedge *e = &c->de[i];

		if (e->u != e->v && c->dn[e->u].pos == c->dn[e->v].pos)
			flat[c->dn[e->u].pos] = true;
	}
	for (size_t s = 0, e; s < c->ndn; s = e) {
		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			;
		/* the mean place of the nodes above, set by the levels before */
		for (size_t i = 0; i < c->nde; i++) {
			const struct dedge *d = &c->de[i];

			/* each node above once: the edges of a pair (a
			 * bundle and its cable with a finding) are adjacent */
			bool again = i && d[-1].u == d->u && d[-1].v == d->v;

			if (d->v >= s && d->v < e && d->u < s && !again) {
				sum[d->v] += place[d->u];
				up[d->v]++;
			}
		}
		for (size_t i = s; i < e; i++) {
			place[i] = up[i] ? sum[i] / (double)up[i] : HUGE_VAL;
			if (s == 0)
				place[i] = (double)i;
		}
		/* insertion sort by (place, name order): stable, and the
		 * levels are short next to the edges already read */
		for (size_t i = s; i < e; i++) {
			size_t k = i;

			while (k > s && place[idx[k - 1]] > place[i])
				k--;
			memmove(&idx[k + 1], &idx[k], (i - k) * sizeof(*idx));
			idx[k] = i;
		}
		for (size_t i = s; i < e; i++)
			sum[idx[i]] = (double)(i - s) / (double)(e - s);
		for (size_t i = s; i < e; i++)
			place[i] = sum[i];
	}
	/* idx holds each level left to right: its rows in that order, down
	 * to the first row dot orders (the places below follow from it) */
	c->nchain = 0;
	for (size_t r = 0; r < c->nrows && !flat[r]; r++)
		for (size_t k = 0; k < c->ndn; k++)
			if (c->dn[idx[k]].pos == r)
				c->chain[c->nchain++] = idx[k];
	rc = 0;
out_free:
	free(place);
	free(sum);
	free(up);
	free(flat);
	free(idx);
	return rc;
}

/*
 * Title and legend grow with the drawing so they stay readable next to
 * it: with sfdp the drawing grows with the square root of the node count,
 * with dot with the widest rank.
 */
static double text_scale(const struct scene *c)
{
	double s = 1.0;

	if (c->sfdp) {
		s = sqrt((double)c->ndn / 200.0);
	} else {
		size_t rows = c->nrows ? c->nrows : 1;
		size_t *width = calloc(rows, sizeof(*width));

		for (size_t i = 0; width && i < c->ndn; i++)
			width[c->dn[i].pos]++;
		for (size_t r = 0; width && r < rows; r++)
			if ((double)width[r] / 40.0 > s)
				s = (double)width[r] / 40.0;
		free(width);
	}
	if (s < 1.0)
		s = 1.0;
	return s > 10.0 ? 10.0 : s;
}

/*
 * The size of the graph dot lays out: drawn nodes, edges, and one virtual
 * node for each rank an edge crosses. dot_mincross and the network
 * simplex that places the nodes grow much faster than it (2 cores, 3-level
 * fat trees of 16 leaves and 16 spines a pod): 4,100 took 3 s of CPU,
 * 8,100 27 s, 13,500 72 s, and 43,200 (16 pods: 896 nodes, 6,400 edges,
 * 35,900 virtual nodes) ran in dot_mincross for over 15 minutes. Above
 * DOT_WORK_MAX the automatic choice is sfdp; asked for, dot gets limits.
 */
static size_t dot_work(const struct scene *c)
{
	size_t work = c->ndn + c->nde;

	for (size_t i = 0; i < c->nde; i++) {
		size_t a = c->dn[c->de[i].u].pos, b = c->dn[c->de[i].v].pos;
		size_t span = a > b ? a - b : b - a;

		if (span > 1)
			work += span - 1;
	}
	return work;
}

/* ------------------------------------------------------------------ */
/* the finished scene: directors, what the legend needs               */
/* ------------------------------------------------------------------ */

/* Directors in order of their first drawn member, named by their chassis. */
static int find_clusters(struct scene *c)
{
	for (size_t s = 0; s < c->ndn; s++) {
		uint64_t sys = c->dn[s].cluster;
		struct dcluster *cl;
		bool seen = false;
		char name[128];

		if (!sys)
			continue;
		/* members may sit on several levels: one box for all */
		for (size_t i = 0; i < c->ncl; i++)
			seen |= c->cl[i].sysimg == sys;
		if (seen)
			continue;
		ibtopo__diagram_chassis_name(c, sys, name, sizeof(name));
		cl = realloc(c->cl, (c->ncl + 1) * sizeof(*c->cl));
		if (!cl)
			return IBTOPO_ENOMEM;
		c->cl = cl;
		cl[c->ncl].sysimg = sys;
		cl[c->ncl].first = s;
		cl[c->ncl].label = strdup(name);
		if (!cl[c->ncl].label)
			return IBTOPO_ENOMEM;
		c->ncl++;
	}
	return 0;
}

/* What the legend and the subtitle need to know about what is drawn. */
static void tally(struct scene *c)
{
	for (size_t i = 0; i < c->nn; i++)
		c->nsharp += c->hidden[i];
	if (c->focus)
		c->focus_label = c->focus_name[0] ? c->focus_name :
						    c->label[c->focus->index];
	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].level > c->top)
			c->top = c->dn[i].level;
		c->used_marks |= c->dn[i].marks;
		c->used_kinds |= 1u << c->dn[i].kind;
	}
}

/* ------------------------------------------------------------------ */
/* entry points                                                        */
/* ------------------------------------------------------------------ */

/*
 * Groups or switches: auto draws groups above IBTOPO_DETAIL_GROUPS_ABOVE
 * switches or IBTOPO_DETAIL_LEVEL_ABOVE on one level (a row of 32 leaves
 * is a ribbon no page shows readably), and a --focus switch by switch. No layout of more than
 * IBTOPO_DETAIL_SWITCHES_MAX switches one by one is quick: refused.
 */
static int choose_detail(struct scene *c)
{
	size_t nsw = 0, widest = 0, *per_level;
	int top = 0;

	for (size_t i = 0; i < c->nn; i++)
		if (c->level[i] > top)
			top = c->level[i];
	per_level = calloc((size_t)top + 1, sizeof(*per_level));
	if (!per_level)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		if (!c->visible[i] || c->hidden[i] ||
		    ibtopo_fabric_node(c->f, i)->type != IBTOPO_NODE_SWITCH)
			continue;
		nsw++;
		if (++per_level[c->level[i]] > widest)
			widest = per_level[c->level[i]];
	}
	free(per_level);
	switch (c->d->detail) {
	case IBTOPO_DETAIL_GROUPS:
		c->groups = true;
		break;
	case IBTOPO_DETAIL_SWITCHES:
		c->groups = false;
		break;
	default:
		c->groups = !c->focus && (nsw > IBTOPO_DETAIL_GROUPS_ABOVE ||
					  widest > IBTOPO_DETAIL_LEVEL_ABOVE);
		break;
	}
	/* the overview counts hosts in their switches' groups: asked for
	 * every host, saying so beats a picture without them */
	if (c->groups && c->d->hosts == IBTOPO_HOSTS_ALL)
		return ibtopo__error_set(
			c->err, IBTOPO_EINVAL,
			"--hosts all: cannot draw every host in the overview of %zu "
			"switches, which counts hosts in their switches' "
			"groups; draw switch by switch (--detail switches) "
			"or a part (--focus)",
			nsw);
	if (!c->groups && nsw > IBTOPO_DETAIL_SWITCHES_MAX)
		return ibtopo__error_set(
			c->err, IBTOPO_EINVAL,
			"cannot draw %zu switches one by one: more than %d "
			"take too long to lay out; draw groups (--detail "
			"groups) or a part (--focus)",
			nsw, IBTOPO_DETAIL_SWITCHES_MAX);
	return 0;
}

/* The arrays per fabric node and link that the build fills. */
static int alloc_arrays(struct scene *c)
{
	c->nn = ibtopo_fabric_node_count(c->f);
	c->nl = ibtopo_fabric_link_count(c->f);
	c->depth = c->d->depth ? c->d->depth : 2;
	c->level = calloc(c->nn + 1, sizeof(*c->level));
	c->label = calloc(c->nn + 1, sizeof(*c->label));
	c->visible = calloc(c->nn + 1, sizeof(*c->visible));
	c->hidden = calloc(c->nn + 1, sizeof(*c->hidden));
	c->mark = calloc(c->nn + 1, sizeof(*c->mark));
	c->dn_of = calloc(c->nn + 1, sizeof(*c->dn_of));
	c->lcat = calloc(c->nl + 1, sizeof(*c->lcat));
	c->dir = calloc(c->nn + 1, sizeof(*c->dir));
	c->seed = calloc(c->nn + 1, sizeof(*c->seed));
	if (!c->level || !c->label || !c->visible || !c->hidden || !c->mark ||
	    !c->dn_of || !c->lcat || !c->dir || !c->seed)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		c->dn_of[i] = NONE;
		c->hidden[i] =
			ibtopo__node_in_switch(ibtopo_fabric_node(c->f, i));
	}
	return 0;
}

static int levels_and_directors(struct scene *c)
{
	int rc = ibtopo__diagram_levels(c);

	if (!rc)
		find_directors(c);
	return rc;
}

/* Colour what the findings name, then choose how much to draw. */
static int mark_findings(struct scene *c)
{
	ibtopo__diagram_apply_findings(c);
	ibtopo__diagram_apply_highlights(c);
	return choose_detail(c);
}

/* Are switches boxed as directors (dot clusters)? */
static bool has_directors(const struct scene *c)
{
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].cluster)
			return true;
	return false;
}

/* Ranks and the layout engine: dot unless asked or too big for it. */
static int arrange(struct scene *c)
{
	int rc;

	if (c->d->layout != IBTOPO_LAYOUT_SFDP) {
		rc = assign_rows(c);
		if (!rc)
			rc = ibtopo__diagram_rail_rows(c);
		if (rc)
			return rc;
	}
	switch (c->d->layout) {
	case IBTOPO_LAYOUT_DOT:
		c->sfdp = false;
		break;
	case IBTOPO_LAYOUT_SFDP:
		c->sfdp = true;
		break;
	default:
		c->sfdp = c->ndn > IBTOPO_LAYOUT_SFDP_ABOVE ||
			  dot_work(c) > DOT_WORK_MAX;
		break;
	}
	if (!c->sfdp)
		c->work = dot_work(c);
	if (!c->sfdp && !c->nrails && !has_directors(c)) {
		c->chain = calloc(c->ndn + 1, sizeof(*c->chain));
		if (!c->chain)
			return IBTOPO_ENOMEM;
		rc = order_ranks(c);
		if (rc)
			return rc;
	}
	c->xlabels = c->sfdp || c->nde > XLABELS_ABOVE;
	return 0;
}

/* Edge labels, text scale, the legend's tally, the directors' boxes. */
static int finish(struct scene *c)
{
	ibtopo__diagram_label_edges(c);
	c->scale = text_scale(c);
	tally(c);
	return find_clusters(c);
}

/* The build, in order: each step needs what the steps before it made. */
static int (*const build_steps[])(struct scene *c) = {
	alloc_arrays,
	levels_and_directors,
	ibtopo__diagram_labels,
	find_focus,
	mark_visible,
	mark_findings,
	ibtopo__diagram_nodes,
	ibtopo__diagram_edges,
	arrange,
	finish,
};

int ibtopo__diagram_scene_build(struct scene *c, const struct ibtopo_fabric *f,
				const struct ibtopo_diagram_opts *d,
				struct ibtopo_error *err)
{
	int rc;

	c->f = f;
	c->d = d;
	c->err = err;
	rc = 0;
	for (size_t i = 0; !rc && i < IBTOPO__ARRAY_SIZE(build_steps); i++)
		rc = build_steps[i](c);
	if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	return rc;
}

void ibtopo__diagram_scene_release(struct scene *c)
{
	ibtopo__diagram_groups_release(c);
	free(c->seed);
	for (size_t i = 0; c->label && i < c->nn; i++)
		free(c->label[i]);
	for (size_t i = 0; i < c->ndn; i++) {
		free(c->dn[i].label);
		free(c->dn[i].tooltip);
		free(c->dn[i].cells);
	}
	for (size_t i = 0; i < c->ncl; i++)
		free(c->cl[i].label);
	free(c->cl);
	free(c->chain);
	free(c->dn);
	free(c->de);
	free(c->label);
	free(c->level);
	free(c->visible);
	free(c->hidden);
	free(c->mark);
	free(c->dn_of);
	free(c->lcat);
	free(c->lroutes);
	free(c->lload);
	free(c->dir);
}
