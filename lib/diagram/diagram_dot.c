/*
 * diagram_dot.c - fabric diagrams as DOT text.
 *
 * The output is a pure function of the fabric, the findings and the
 * options: nodes and edges are sorted before they are written, numbers
 * are printed with fixed precision and nothing depends on addresses or
 * the clock, so the same input gives the same bytes (golden tests rely on
 * it). Graphviz itself is only called from diagram_layout.c.
 */
#include "diagram/diagram-int.h"
#include "analysis/topology-int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *color;
	const char *style;	/* NULL = solid */
	const char *legend;
} cats[CAT_MAX_] = {
	[CAT_OK] = { "#555555", NULL, "link (line width: bandwidth)" },
	[CAT_CHANGED] = { "#1f77b4", NULL, "speed or width changed" },
	[CAT_ADDED] = { "#2ca02c", NULL, "added link" },
	[CAT_EXTRA] = { "#17becf", NULL, "link not in the plan" },
	[CAT_TOPO] = { "#9467bd", NULL, "breaks a fat-tree rule" },
	[CAT_MISWIRED] = { "#e377c2", NULL, "miswired (wrong peer)" },
	[CAT_CABLE] = { "#ff7f0e", NULL, "cable problem" },
	[CAT_DOWN] = { "#d62728", NULL, "downgraded link" },
	[CAT_REMOVED] = { "#d62728", "dashed", "removed link" },
	[CAT_MISSING] = { "#d62728", "dashed", "planned link missing" },
};

/* ------------------------------------------------------------------ */
/* small helpers                                                       */
/* ------------------------------------------------------------------ */

static int grow(void *pptr, size_t *alloc, size_t need, size_t size)
{
	void **p = pptr;
	size_t n = *alloc ? *alloc : 64;
	void *np;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	np = realloc(*p, n * size);
	if (!np)
		return IBTOPO_ENOMEM;
	*p = np;
	*alloc = n;
	return 0;
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

/* Natural order: "leaf2" before "leaf10". */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *sa = a, *sb = b;
			size_t la, lb;

			while (*sa == '0' && isdigit((unsigned char)sa[1]))
				sa++;
			while (*sb == '0' && isdigit((unsigned char)sb[1]))
				sb++;
			a = sa;
			b = sb;
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			la = (size_t)(a - sa);
			lb = (size_t)(b - sb);
			if (la != lb)
				return la < lb ? -1 : 1;
			if (memcmp(sa, sb, la))
				return memcmp(sa, sb, la) < 0 ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/*
 * A CA that is part of a switch (SHARP aggregation node, or sharing the
 * system image GUID of the switch it is cabled to): not a host.
 */
static bool is_aggregation_node(const struct ibtopo_node *n)
{
	if (n->type != IBTOPO_NODE_CA)
		return false;
	if (strstr(n->desc, "Aggregation Node"))
		return true;
	for (unsigned p = 1; n->sysimg_guid && p <= n->nports; p++) {
		const struct ibtopo_port *pp = n->ports[p];

		if (pp && pp->remote &&
		    pp->remote->node->type == IBTOPO_NODE_SWITCH &&
		    pp->remote->node->sysimg_guid == n->sysimg_guid)
			return true;
	}
	return false;
}

static bool is_host_type(enum ibtopo_node_type t)
{
	return t != IBTOPO_NODE_SWITCH;
}

static const char *speed_text(unsigned speed, unsigned width, char *buf,
			      size_t len)
{
	if (!speed)
		snprintf(buf, len, "%s", "");
	else if (!width || width == IBTOPO_WIDTH_4X)
		snprintf(buf, len, "%s", ibtopo_speed_name(speed));
	else
		snprintf(buf, len, "%s%s", ibtopo_width_name(width),
			 ibtopo_speed_name(speed));
	return buf;
}

/* Columns of a block of n hosts: about square. */
static size_t block_columns(size_t n)
{
	size_t cols = 1;

	while (cols * cols < n)
		cols++;
	return cols;
}

static size_t utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* ------------------------------------------------------------------ */
/* labels                                                              */
/* ------------------------------------------------------------------ */

/* Copy s[0..n) trimmed, with runs of blanks squeezed to one space. */
static void squeeze(char *out, size_t len, const char *s, size_t n)
{
	size_t k = 0;
	bool space = false;

	for (size_t i = 0; i < n && s[i]; i++) {
		if (isspace((unsigned char)s[i])) {
			space = k > 0;
			continue;
		}
		if (space && k + 1 < len)
			out[k++] = ' ';
		space = false;
		if (k + 1 < len)
			out[k++] = s[i];
	}
	out[k] = '\0';
}

static bool desc_is_generic(const char *desc)
{
	return strstr(desc, "Mellanox Technologies") ||
	       (desc[0] == 'M' && desc[1] == 'T' && isdigit((unsigned char)desc[2]));
}

/*
 * The readable part of a node description:
 *   "MF0;sw-ib-01:MQM8700/U1"              -> "sw-ib-01"
 *   "MF0;core1:CS7500/L05/U1" in a director -> "L05/U1"
 *   "Voltaire 4036 # hoibp0013"            -> "hoibp0013"
 *   "SwitchIB Mellanox Technologies"        -> "SwitchIB e470" (GUID tail)
 *   "host001 mlx5_0"                       -> "host001" (variant 1: whole)
 *   "MT4129 ConnectX7   Mellanox Technologies" -> "ConnectX7 5d90"
 */
static void short_label(char *out, size_t len, const struct ibtopo_node *n,
			bool director, int variant)
{
	const char *d = n->desc, *semi, *colon, *hash;
	uint64_t g = n->guid;
	unsigned tail;
	char tmp[256];

	/* four hex digits that tell GUIDs apart: not trailing zeros */
	while (g > 0xffff && !(g & 0xffff))
		g >>= 16;
	tail = (unsigned)(g & 0xffff);

	while (isspace((unsigned char)*d))
		d++;
	if (!*d) {
		snprintf(out, len, "%s %04x",
			 n->type == IBTOPO_NODE_SWITCH ? "switch" : "ca", tail);
		return;
	}
	semi = strchr(d, ';');
	/* a ghost known only by its name: switches say "MF0;name:model" */
	if (n->type == IBTOPO_NODE_SWITCH ||
	    (n->type == IBTOPO_NODE_UNKNOWN && semi && strchr(semi, ':'))) {
		colon = semi ? strchr(semi, ':') : NULL;
		hash = strstr(d, " # ");
		if (semi && colon && colon > semi + 1) {
			if (director) {
				const char *slash = strchr(colon, '/');

				squeeze(out, len, slash ? slash + 1 : colon + 1,
					strlen(slash ? slash + 1 : colon + 1));
			} else {
				squeeze(out, len, semi + 1, (size_t)(colon - semi - 1));
			}
		} else if (hash && hash[3]) {
			squeeze(out, len, hash + 3, strlen(hash + 3));
		} else if (desc_is_generic(d) || strstr(d, " - ")) {
			const char *end = strstr(d, " Mellanox");
			const char *dash = strstr(d, " - ");

			if (!end || (dash && dash < end))
				end = dash;
			squeeze(tmp, sizeof(tmp), d, end ? (size_t)(end - d) : strlen(d));
			snprintf(out, len, "%s %04x", tmp[0] ? tmp : "switch", tail);
		} else {
			squeeze(out, len, d, strlen(d));
		}
	} else if (strstr(d, "Aggregation Node")) {
		snprintf(out, len, "SHARP %04x", tail);
	} else if (desc_is_generic(d)) {
		const char *cx = strstr(d, "ConnectX");
		size_t k = 0;

		if (cx)
			while (cx[k] && !isspace((unsigned char)cx[k]))
				k++;
		squeeze(tmp, sizeof(tmp), cx ? cx : "CA", cx ? k : 2);
		snprintf(out, len, "%s %04x", tmp, tail);
	} else if (variant == 0) {
		size_t k = 0;

		while (d[k] && !isspace((unsigned char)d[k]))
			k++;
		squeeze(out, len, d, k);
	} else {
		squeeze(out, len, d, strlen(d));
	}
	if (variant == 2) {
		size_t k = strlen(out);

		snprintf(out + k, len - k, " %04x", tail);
	}
	/* keep labels short: cut at 28 bytes on a character boundary */
	if (strlen(out) > 28) {
		size_t k = 27;

		while (k && ((unsigned char)out[k] & 0xc0) == 0x80)
			k--;
		snprintf(out + k, len - k, "%s", "\xe2\x80\xa6");
	}
}

static uint64_t director_of(const struct ctx *c, const struct ibtopo_node *n);

struct lab {
	size_t i;
	const char *s;
};

static int cmp_lab(const void *x, const void *y)
{
	const struct lab *a = x, *b = y;
	int r = strcmp(a->s, b->s);

	if (r)
		return r;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Label every node; where two nodes would share a label, say more. */
static int make_labels(struct ctx *c)
{
	struct lab *v = calloc(c->nn ? c->nn : 1, sizeof(*v));
	int *variant = calloc(c->nn ? c->nn : 1, sizeof(*variant));
	char buf[300];
	int rc = 0;

	if (!v || !variant) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (int round = 0; round < 3; round++) {
		bool again = false;

		for (size_t i = 0; i < c->nn; i++) {
			const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

			short_label(buf, sizeof(buf), n, director_of(c, n) != 0,
				    variant[i]);
			free(c->label[i]);
			c->label[i] = strdup(buf);
			if (!c->label[i]) {
				rc = IBTOPO_ENOMEM;
				goto out_free;
			}
			v[i].i = i;
			v[i].s = c->label[i];
		}
		qsort(v, c->nn, sizeof(*v), cmp_lab);
		for (size_t k = 0; k + 1 < c->nn; k++) {
			if (strcmp(v[k].s, v[k + 1].s))
				continue;
			/* director line cards repeat across chassis: fine */
			if (director_of(c, ibtopo_fabric_node(c->f, v[k].i)))
				continue;
			for (size_t j = k; j <= k + 1; j++) {
				if (variant[v[j].i] < 2 && round < 2) {
					variant[v[j].i]++;
					again = true;
				}
			}
		}
		if (!again)
			break;
	}
out_free:
	free(variant);
	free(v);
	return rc;
}

/* ------------------------------------------------------------------ */
/* levels                                                              */
/* ------------------------------------------------------------------ */

/*
 * The levels of the topology analysis: the one the caller made, or one
 * of our own without path diversity (*own, to free).
 */
static int levels_analysis(const struct ibtopo_topology **out,
			   struct ibtopo_topology **own,
			   const struct ibtopo_fabric *f,
			   const struct ibtopo_topology *given)
{
	struct ibtopo_topology_opts o = IBTOPO_TOPOLOGY_OPTS_INIT;
	int rc;

	*own = NULL;
	*out = given;
	if (given)
		return 0;
	o.flags = IBTOPO_TOPOLOGY_NO_PATHS | IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = ibtopo_topology_analyze(own, f, &o, NULL, NULL);
	*out = *own;
	return rc;
}

/*
 * Ranks: hosts are 0, switches their level in the topology analysis;
 * a switch it leaves unranked (cut off from every server) is a leaf.
 */
static void compute_levels(const struct ibtopo_fabric *f,
			   const struct ibtopo_topology *t, int *level)
{
	size_t nn = ibtopo_fabric_node_count(f);

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);
		int l = ibtopo_topology_node_level(t, n);

		level[i] = n->type != IBTOPO_NODE_SWITCH ? 0 : l > 0 ? l : 1;
	}
}

/* ------------------------------------------------------------------ */
/* directors                                                           */
/* ------------------------------------------------------------------ */

/* System image GUID shared with another switch, or 0. */
static uint64_t director_of(const struct ctx *c, const struct ibtopo_node *n)
{
	return c->dir[n->index];
}

/* Switches sharing a system image GUID are chips of one director. */
static void find_directors(struct ctx *c)
{
	for (size_t i = 0; i < c->nn; i++)
		c->dir[i] = ibtopo__topology_director(c->topo,
						      ibtopo_fabric_node(c->f, i));
}

/* ------------------------------------------------------------------ */
/* drawn nodes                                                         */
/* ------------------------------------------------------------------ */

static int add_dnode(struct ctx *c, const struct dnode *proto, size_t *out)
{
	if (grow(&c->dn, &c->adn, c->ndn + 1, sizeof(*c->dn)))
		return IBTOPO_ENOMEM;
	c->dn[c->ndn] = *proto;
	c->dn[c->ndn].orig = c->ndn;
	*out = c->ndn++;
	return 0;
}

static int kind_rank(enum dkind k)
{
	return k == DN_SWITCH ? 0 : k == DN_GHOST ? 1 : k == DN_HOST ? 2 :
	       k == DN_BLOCK ? 3 : 4;
}

static int cmp_dnode(const void *x, const void *y)
{
	const struct dnode *a = x, *b = y;
	int r;

	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	if (kind_rank(a->kind) != kind_rank(b->kind))
		return kind_rank(a->kind) - kind_rank(b->kind);
	r = natcmp(a->label, b->label);
	if (r)
		return r;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* Collapsing: each host's key is the sorted set of switches it hangs off. */
struct hostkey {
	size_t node;		/* fabric index of the host */
	size_t nsw;
	size_t sw[8];		/* fabric indices of its switches, sorted */
};

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

static int cmp_hostkey(const void *x, const void *y)
{
	const struct hostkey *a = x, *b = y;

	for (size_t i = 0; i < a->nsw && i < b->nsw; i++)
		if (a->sw[i] != b->sw[i])
			return a->sw[i] < b->sw[i] ? -1 : 1;
	if (a->nsw != b->nsw)
		return a->nsw < b->nsw ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* Host key, or false when the host cannot be collapsed. */
static bool host_key(const struct ctx *c, size_t i, struct hostkey *k)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);

	k->node = i;
	k->nsw = 0;
	for (unsigned p = 1; p <= n->nports; p++) {
		const struct ibtopo_port *pp = n->ports[p];
		size_t j;
		bool dup = false;

		if (!pp || !pp->remote)
			continue;
		j = pp->remote->node->index;
		if (pp->remote->node->type != IBTOPO_NODE_SWITCH || !c->visible[j])
			return false;
		for (size_t q = 0; q < k->nsw; q++)
			dup |= k->sw[q] == j;
		if (dup)
			continue;
		if (k->nsw == IBTOPO__ARRAY_SIZE(k->sw))
			return false;
		k->sw[k->nsw++] = j;
	}
	if (!k->nsw)
		return false;
	qsort(k->sw, k->nsw, sizeof(k->sw[0]), cmp_size);
	return true;
}

static bool same_key(const struct hostkey *a, const struct hostkey *b)
{
	return a->nsw == b->nsw && !memcmp(a->sw, b->sw, a->nsw * sizeof(a->sw[0]));
}

struct sv {
	const char *s;
	bool unnamed;	/* a CA whose description names no host */
};

/* Host names in natural order, the unnamed ("ConnectX7 8d88") last. */
static int cmp_sv(const void *x, const void *y)
{
	const struct sv *a = x, *b = y;

	if (a->unnamed != b->unnamed)
		return a->unnamed ? 1 : -1;
	return natcmp(a->s, b->s);
}

/*
 * A long switch name on two lines, broken after the '-' nearest its
 * middle: "A09-P1-IBLEAF-04-04" -> "A09-P1-\nIBLEAF-04-04". A level of 32
 * such leaves is half as wide.
 */
static char *wrap_label(const char *s)
{
	size_t n = strlen(s), best = 0, mid = n / 2;
	char *out;

	if (utf8_len(s) <= 14)
		return strdup(s);
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] != '-' && s[i] != '_')
			continue;
		if (!best || (i > mid ? i - mid : mid - i) <
			     (best > mid ? best - mid : mid - best))
			best = i;
	}
	if (!best || best < 3 || n - best < 4)
		return strdup(s);
	out = malloc(n + 2);
	if (!out)
		return NULL;
	memcpy(out, s, best + 1);
	out[best + 1] = '\n';
	memcpy(out + best + 2, s + best + 1, n - best);
	return out;
}

/* Host name part of a label: up to the first space. */
static size_t first_word(const char *s)
{
	size_t k = 0;

	while (s[k] && s[k] != ' ')
		k++;
	return k;
}

/*
 * "24 hosts" and the range of names, the last without what it shares
 * with the first: "host001 … 024", "a06-p1-dgx-02-c01 … 16".
 */
static char *group_label(size_t n, const char *first, const char *last)
{
	size_t lf = first_word(first), ll = first_word(last), cp = 0;
	char buf[200];

	while (cp < lf && cp < ll && first[cp] == last[cp])
		cp++;
	/* keep a number whole: "host0|01" backs up to "host|001" */
	while (cp > 0 && isdigit((unsigned char)first[cp - 1]) &&
	       cp < ll && isdigit((unsigned char)last[cp]))
		cp--;
	if (cp == ll)	/* one name, or the same host */
		snprintf(buf, sizeof(buf), "%zu hosts\n%.*s", n, (int)lf, first);
	else if (lf + ll - cp > 32)
		snprintf(buf, sizeof(buf), "%zu hosts\n%.*s \xe2\x80\xa6", n,
			 (int)lf, first);
	else
		snprintf(buf, sizeof(buf), "%zu hosts\n%.*s \xe2\x80\xa6 %.*s", n,
			 (int)lf, first, (int)(ll - cp), last + cp);
	return strdup(buf);
}

/* "24 hosts: host001, host002, ..." as far as 1000 bytes go. */
static char *group_tooltip(size_t n, const struct sv *names)
{
	char buf[1024];
	size_t k;

	k = (size_t)snprintf(buf, sizeof(buf), "%zu hosts:", n);
	for (size_t i = 0; i < n && k < sizeof(buf); i++) {
		if (k + strlen(names[i].s) + 8 >= sizeof(buf)) {
			snprintf(buf + k, sizeof(buf) - k, " \xe2\x80\xa6");
			break;
		}
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s %s",
				      i ? "," : "", names[i].s);
	}
	return strdup(buf);
}

/* One node standing for hosts k[0..n) (same switches). */
static int add_group(struct ctx *c, const struct hostkey *k, size_t n)
{
	struct dnode g = { .kind = DN_GROUP, .level = 0, .nhosts = n,
			   .type = IBTOPO_NODE_CA };
	struct sv *names = calloc(n, sizeof(*names));
	size_t idx, named = 0;
	int rc;

	if (!names)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		names[i].s = c->label[k[i].node];
		names[i].unnamed =
			desc_is_generic(ibtopo_fabric_node(c->f, k[i].node)->desc);
	}
	qsort(names, n, sizeof(*names), cmp_sv);
	while (named < n && !names[named].unnamed)
		named++;
	/* named after its lowest GUID: the same whatever the fabric's order */
	g.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 1; i < n; i++)
		if (ibtopo_fabric_node(c->f, k[i].node)->guid < g.guid)
			g.guid = ibtopo_fabric_node(c->f, k[i].node)->guid;
	g.label = group_label(n, names[0].s,
			      names[named ? named - 1 : n - 1].s);
	g.tooltip = group_tooltip(n, names);
	free(names);
	if (!g.label || !g.tooltip) {
		free(g.label);
		free(g.tooltip);
		return IBTOPO_ENOMEM;
	}
	rc = add_dnode(c, &g, &idx);
	if (rc) {
		free(g.label);
		free(g.tooltip);
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		c->dn_of[k[i].node] = idx;
	return 0;
}

/* Hosts in a block: natural order of their labels. */
static const struct ctx *sort_ctx;

static int cmp_member(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	bool ua = desc_is_generic(ibtopo_fabric_node(sort_ctx->f, a)->desc);
	bool ub = desc_is_generic(ibtopo_fabric_node(sort_ctx->f, b)->desc);
	int r;

	if (ua != ub)	/* named hosts first */
		return ua ? 1 : -1;
	r = natcmp(sort_ctx->label[a], sort_ctx->label[b]);

	if (r)
		return r;
	return a < b ? -1 : a > b;
}

/* One node, a table with a cell per host, for hosts k[0..n). */
static int add_block(struct ctx *c, const struct hostkey *k, size_t n)
{
	struct dnode b = { .kind = DN_BLOCK, .level = 0, .nhosts = n,
			   .type = IBTOPO_NODE_CA };
	char buf[64];
	size_t idx;
	int rc;

	b.members = calloc(n, sizeof(*b.members));
	if (!b.members)
		return IBTOPO_ENOMEM;
	b.guid = ibtopo_fabric_node(c->f, k[0].node)->guid;
	for (size_t i = 0; i < n; i++) {
		b.members[i] = k[i].node;
		if (ibtopo_fabric_node(c->f, k[i].node)->guid < b.guid)
			b.guid = ibtopo_fabric_node(c->f, k[i].node)->guid;
	}
	sort_ctx = c;
	qsort(b.members, n, sizeof(*b.members), cmp_member);
	sort_ctx = NULL;
	snprintf(buf, sizeof(buf), "%zu hosts", n);
	b.label = strdup(buf);
	b.tooltip = strdup(buf);
	if (!b.label || !b.tooltip) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	rc = add_dnode(c, &b, &idx);
	if (rc)
		goto out_free;
	for (size_t i = 0; i < n; i++)
		c->dn_of[k[i].node] = idx;
	return 0;
out_free:
	free(b.label);
	free(b.tooltip);
	free(b.members);
	return rc;
}

static int node_tooltip(const struct ibtopo_node *n, char **out)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s\n%s 0x%016" PRIx64, n->desc,
		 ibtopo_node_type_name(n->type), n->guid);
	*out = strdup(buf);
	return *out ? 0 : IBTOPO_ENOMEM;
}

static int build_nodes(struct ctx *c)
{
	struct hostkey *keys = NULL;
	size_t nkeys = 0, nhosts = 0;
	int rc = 0;

	for (size_t i = 0; i < c->nn; i++)
		if (c->visible[i] && !c->hidden[i] &&
		    is_host_type(ibtopo_fabric_node(c->f, i)->type))
			nhosts++;
	switch (c->d->hosts) {
	case IBTOPO_HOSTS_ALL:
		c->collapse = false;
		break;
	case IBTOPO_HOSTS_COLLAPSE:
		c->collapse = true;
		break;
	default:
		c->collapse = nhosts > IBTOPO_HOSTS_COLLAPSE_ABOVE;
		break;
	}
	c->blocks = !c->collapse && nhosts > HOST_BLOCKS_ABOVE;
	if (c->collapse || c->blocks) {
		keys = calloc(nhosts ? nhosts : 1, sizeof(*keys));
		if (!keys)
			return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < c->nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, i);
		struct dnode d = { .level = c->level[i], .node = n,
				   .guid = n->guid, .type = n->type,
				   .marks = c->mark[i] };

		if (!c->visible[i] || c->hidden[i])
			continue;
		if ((c->collapse || c->blocks) && n->type == IBTOPO_NODE_CA &&
		    host_key(c, i, &keys[nkeys])) {
			nkeys++;
			continue;
		}
		d.kind = n->type == IBTOPO_NODE_SWITCH ? DN_SWITCH : DN_HOST;
		d.cluster = director_of(c, n);
		d.label = d.kind == DN_SWITCH ? wrap_label(c->label[i]) :
			  xstrdup(c->label[i]);
		if (!d.label)
			goto out_nomem;
		rc = node_tooltip(n, &d.tooltip);
		if (!rc)
			rc = add_dnode(c, &d, &c->dn_of[i]);
		if (rc) {
			free(d.label);
			free(d.tooltip);
			goto out_free;
		}
	}
	if (nkeys)	/* qsort(NULL, 0) is undefined */
		qsort(keys, nkeys, sizeof(*keys), cmp_hostkey);
	for (size_t s = 0, e; s < nkeys; s = e) {
		for (e = s + 1; e < nkeys && same_key(&keys[s], &keys[e]); e++)
			;
		if (e - s == 1) {
			/* a group of one is just the host */
			const struct ibtopo_node *n =
				ibtopo_fabric_node(c->f, keys[s].node);
			struct dnode d = { .kind = DN_HOST, .level = 0, .node = n,
					   .guid = n->guid, .type = n->type,
					   .marks = c->mark[keys[s].node] };

			d.label = xstrdup(c->label[keys[s].node]);
			if (!d.label)
				goto out_nomem;
			rc = node_tooltip(n, &d.tooltip);
			if (!rc)
				rc = add_dnode(c, &d, &c->dn_of[keys[s].node]);
			if (rc) {
				free(d.label);
				free(d.tooltip);
				goto out_free;
			}
			continue;
		}
		if (c->blocks)
			rc = add_block(c, &keys[s], e - s);
		else
			rc = add_group(c, &keys[s], e - s);
		if (rc)
			goto out_free;
		for (size_t k = s; k < e; k++)
			c->dn[c->ndn - 1].marks |= c->mark[keys[k].node];
	}
	goto out_free;
out_nomem:
	rc = IBTOPO_ENOMEM;
out_free:
	free(keys);
	return rc;
}

/* Drawn node for a finding's end: the fabric's node or a ghost. */
static size_t end_dnode(struct ctx *c, const struct ibtopo_end *e)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(c->f, e->guid);

	if (n)
		return c->dn_of[n->index];
	for (size_t i = 0; i < c->ndn; i++)
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == e->guid)
			return i;
	return NONE;
}

/* Ghost nodes: nodes named by findings that the fabric does not have. */
static int add_ghost(struct ctx *c, const struct ibtopo_end *e, unsigned marks,
		     const int *other_level)
{
	const struct ibtopo_node *o = NULL;
	struct dnode g = { .kind = DN_GHOST, .guid = e->guid, .marks = marks,
			   .type = IBTOPO_NODE_UNKNOWN, .level = 1 };
	char buf[300];
	size_t idx;
	int rc;

	if (!e->guid || ibtopo_fabric_find_node(c->f, e->guid))
		return 0;
	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].kind == DN_GHOST && c->dn[i].guid == e->guid) {
			c->dn[i].marks |= marks;
			return 0;
		}
	}
	if (c->d->other)
		o = ibtopo_fabric_find_node(c->d->other, e->guid);
	if (o) {
		g.other = o;
		g.type = o->type;
		g.level = other_level ? other_level[o->index] :
			  o->type == IBTOPO_NODE_SWITCH ? 1 : 0;
		short_label(buf, sizeof(buf), o, false, 0);
		g.label = strdup(buf);
		rc = node_tooltip(o, &g.tooltip);
		if (rc) {
			free(g.label);
			return rc;
		}
	} else {
		struct ibtopo_node tmp = { .type = IBTOPO_NODE_UNKNOWN,
					   .guid = e->guid,
					   .desc = (char *)(e->node ? e->node : "") };

		short_label(buf, sizeof(buf), &tmp, false, 0);
		g.label = strdup(buf);
		snprintf(buf, sizeof(buf), "%s\n0x%016" PRIx64,
			 e->node ? e->node : "", e->guid);
		g.tooltip = strdup(buf);
	}
	if (!g.label || !g.tooltip) {
		free(g.label);
		free(g.tooltip);
		return IBTOPO_ENOMEM;
	}
	rc = add_dnode(c, &g, &idx);
	if (rc) {
		free(g.label);
		free(g.tooltip);
	}
	return rc;
}

static int build_ghosts(struct ctx *c)
{
	const struct ibtopo_findings *fs = c->d->findings;
	const struct ibtopo_topology *ot;
	struct ibtopo_topology *own = NULL;
	int *olevel = NULL;
	int rc = 0;

	if (!fs || !fs->count)
		return 0;
	if (c->d->other) {
		size_t on = ibtopo_fabric_node_count(c->d->other);

		olevel = calloc(on ? on : 1, sizeof(*olevel));
		if (!olevel)
			return IBTOPO_ENOMEM;
		rc = levels_analysis(&ot, &own, c->d->other, NULL);
		if (rc)
			goto out_free;
		compute_levels(c->d->other, ot, olevel);
	}
	for (size_t i = 0; !rc && i < fs->count; i++) {
		const struct ibtopo_finding *f = &fs->items[i];
		struct flink fl[4];
		size_t n;

		if (ibtopo__diagram_finding_draw(f) == IBTOPO__DRAW_REMOVED_NODE) {
			rc = add_ghost(c, &f->a, MARK_REMOVED, olevel);
			continue;
		}
		if (ibtopo__diagram_finding_draw(f) == IBTOPO__DRAW_MISSING_NODE) {
			rc = add_ghost(c, &f->a, MARK_MISSING, olevel);
			continue;
		}
		n = ibtopo__diagram_finding_links(f, fl);
		for (size_t k = 0; !rc && k < n; k++) {
			unsigned m = fl[k].cat == CAT_REMOVED ? MARK_REMOVED :
				     MARK_MISSING;

			if (!ibtopo__diagram_ghost_link(c, &fl[k]))
				continue;
			/* with a focus, only ghosts next to what is shown */
			if (c->focus && end_dnode(c, fl[k].x) == NONE &&
			    end_dnode(c, fl[k].y) == NONE)
				continue;
			rc = add_ghost(c, fl[k].x, m, olevel);
			if (!rc)
				rc = add_ghost(c, fl[k].y, m, olevel);
		}
	}
out_free:
	ibtopo_topology_free(own);
	free(olevel);
	return rc;
}

/* ------------------------------------------------------------------ */
/* edges                                                               */
/* ------------------------------------------------------------------ */

static int add_edge(struct ctx *c, size_t u, size_t v, enum cat k,
		    unsigned speed, unsigned width, const struct ibtopo_link *l)
{
	const struct ibtopo_node *host = NULL;

	struct dedge *e;

	if (u == NONE || v == NONE)
		return 0;
	/* upper end first: dot ranks heads below tails */
	if (c->dn[v].level > c->dn[u].level ||
	    (c->dn[v].level == c->dn[u].level && v < u)) {
		size_t t = u;

		u = v;
		v = t;
	}
	if (grow(&c->de, &c->ade, c->nde + 1, sizeof(*c->de)))
		return IBTOPO_ENOMEM;
	e = &c->de[c->nde++];
	e->u = u;
	e->v = v;
	e->cat = k;
	e->speed = speed;
	e->width = width;
	e->count = 1;
	e->gbps = ibtopo_link_gbps(speed, width);
	e->link = l;
	/* a problem on a host in a block goes to the host's own cell */
	if (l && k != CAT_OK && c->dn[v].kind == DN_BLOCK)
		host = c->dn_of[l->a->node->index] == v ? l->a->node : l->b->node;
	e->host = host;
	return 0;
}

static int cmp_dedge(const void *x, const void *y)
{
	const struct dedge *a = x, *b = y;

	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	if (a->cat != b->cat)
		return a->cat < b->cat ? -1 : 1;
	if (a->speed != b->speed)
		return a->speed < b->speed ? -1 : 1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	if (a->host != b->host)
		return !a->host ? -1 : !b->host ? 1 :
		       a->host->guid < b->host->guid ? -1 : 1;
	if (a->link && b->link && a->link->index != b->link->index)
		return a->link->index < b->link->index ? -1 : 1;
	return 0;
}

/* Most common (speed, width) among switch-switch and among host links. */
static void common_rates(struct ctx *c)
{
	struct {
		unsigned s, w;
		size_t n;
	} mix[2][32];
	size_t nmix[2] = { 0, 0 };

	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		int h = is_host_type(l->a->node->type) ||
			is_host_type(l->b->node->type);
		size_t k;

		for (k = 0; k < nmix[h]; k++)
			if (mix[h][k].s == l->speed && mix[h][k].w == l->width)
				break;
		if (k == nmix[h]) {
			if (k == 32)
				continue;
			mix[h][k].s = l->speed;
			mix[h][k].w = l->width;
			mix[h][k].n = 0;
			nmix[h]++;
		}
		mix[h][k].n++;
	}
	for (int h = 0; h < 2; h++) {
		size_t best = 0;

		/* ties go to the faster rate, whatever the link order */
		for (size_t k = 1; k < nmix[h]; k++)
			if (mix[h][k].n > mix[h][best].n ||
			    (mix[h][k].n == mix[h][best].n &&
			     (mix[h][k].s > mix[h][best].s ||
			      (mix[h][k].s == mix[h][best].s &&
			       mix[h][k].w > mix[h][best].w))))
				best = k;
		if (!nmix[h])
			continue;
		if (h) {
			c->host_speed = mix[h][best].s;
			c->host_width = mix[h][best].w;
		} else {
			c->sw_speed = mix[h][best].s;
			c->sw_width = mix[h][best].w;
		}
	}
}

/* Drawn node of a node of the other fabric: same GUID, else same name. */
static size_t other_dnode(struct ctx *c, const struct ibtopo_node *o)
{
	struct ibtopo_end e = { .node = o->desc, .guid = o->guid, .port = -1 };
	const struct ibtopo_node *n;
	size_t i = end_dnode(c, &e);

	if (i != NONE)
		return i;
	/* plans name nodes; their GUIDs may be made up */
	n = ibtopo_fabric_find_node_desc(c->f, o->desc);
	return n && n->type == o->type ? c->dn_of[n->index] : NONE;
}

/*
 * A node that is gone (diff) or missing (validate) had or should have
 * links: draw those the other fabric has to what is drawn, dashed. The
 * findings do not list them (they are counted in the node's finding).
 */
static int ghost_node_links(struct ctx *c)
{
	size_t nghost = c->ndn;

	for (size_t i = 0; i < nghost; i++) {
		const struct dnode *g = &c->dn[i];
		enum cat k = g->marks & MARK_REMOVED ? CAT_REMOVED : CAT_MISSING;
		const struct ibtopo_node *o = g->other;

		if (g->kind != DN_GHOST || !o)
			continue;
		for (unsigned p = 1; p <= o->nports; p++) {
			const struct ibtopo_port *pp = o->ports[p];
			size_t j;
			int rc;

			if (!pp || !pp->remote)
				continue;
			j = other_dnode(c, pp->remote->node);
			/* between two ghosts, draw the link once */
			if (j == NONE || (c->dn[j].kind == DN_GHOST &&
					  c->dn[j].guid < g->guid))
				continue;
			rc = add_edge(c, i, j, k, pp->speed_active,
				      pp->width_active, NULL);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int build_edges(struct ctx *c)
{
	const struct ibtopo_findings *fs = c->d->findings;
	size_t m = 0;
	int rc = 0;

	for (size_t i = 0; i < c->nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(c->f, i);
		size_t ia = l->a->node->index, ib = l->b->node->index;

		if (!c->visible[ia] || !c->visible[ib] || c->hidden[ia] ||
		    c->hidden[ib])
			continue;
		rc = add_edge(c, c->dn_of[ia], c->dn_of[ib], (enum cat)c->lcat[i],
			      l->speed, l->width, l);
		if (rc)
			return rc;
	}
	for (size_t i = 0; fs && i < fs->count; i++) {
		struct flink fl[4];
		size_t n = ibtopo__diagram_finding_links(&fs->items[i], fl);

		for (size_t k = 0; k < n; k++) {
			if (!ibtopo__diagram_ghost_link(c, &fl[k]))
				continue;
			rc = add_edge(c, end_dnode(c, fl[k].x), end_dnode(c, fl[k].y),
				      fl[k].cat, 0, 0, NULL);
			if (rc)
				return rc;
		}
	}
	rc = ghost_node_links(c);
	if (rc)
		return rc;
	if (c->nde)
		qsort(c->de, c->nde, sizeof(*c->de), cmp_dedge);
	/* merge parallel cables of one kind into one edge */
	for (size_t i = 0; i < c->nde; i++) {
		struct dedge *last = m ? &c->de[m - 1] : NULL;

		if (last && last->u == c->de[i].u && last->v == c->de[i].v &&
		    last->cat == c->de[i].cat && last->speed == c->de[i].speed &&
		    last->width == c->de[i].width && last->host == c->de[i].host) {
			last->count++;
			last->gbps += c->de[i].gbps;
			continue;
		}
		c->de[m++] = c->de[i];
	}
	c->nde = m;
	for (size_t i = 0; i < c->nde; i++) {
		c->used_cats |= 1u << c->de[i].cat;
		c->ncats[c->de[i].cat] += c->de[i].count;
	}
	return 0;
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
	return ((struct ctx *)arg)->label[n->index];
}

static int find_focus(struct ctx *c)
{
	struct ibtopo__node_lookup how = { .alias = drawn_label, .alias_arg = c };
	struct ibtopo_node *n = NULL;
	int rc;

	c->focus = NULL;
	if (!c->d->focus)
		return 0;
	/* a GUID, else a description, else a drawn label: one node only */
	rc = ibtopo__fabric_lookup(&n, c->f, c->d->focus, &how, c->err);
	c->focus = n;
	return rc;
}

static int mark_visible(struct ctx *c)
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
	queue[tail++] = c->focus->index;
	c->visible[c->focus->index] = true;
	c->mark[c->focus->index] |= MARK_FOCUS;
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
/* writing                                                             */
/* ------------------------------------------------------------------ */

struct out {
	const struct ibtopo_render_opts *o;
	int rc;
};

static void put(struct out *w, const char *s)
{
	if (!w->rc)
		w->rc = ibtopo__out_write(w->o, s, strlen(s));
}

static void putf(struct out *w, const char *fmt, ...) IBTOPO__PRINTF(2, 3);
static void putf(struct out *w, const char *fmt, ...)
{
	char small[512], *buf = small;
	va_list ap;
	int n;

	if (w->rc)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		w->rc = IBTOPO_EINVAL;
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			w->rc = IBTOPO_ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	w->rc = ibtopo__out_write(w->o, buf, (size_t)n);
	if (buf != small)
		free(buf);
}

/* A DOT quoted string: "..." with \" and \\ escaped, newlines as \n. */
static void put_q(struct out *w, const char *s)
{
	char buf[256];
	size_t k = 0;

	put(w, "\"");
	for (; s && *s; s++) {
		if (k + 3 >= sizeof(buf)) {
			buf[k] = '\0';
			put(w, buf);
			k = 0;
		}
		if (*s == '"' || *s == '\\') {
			buf[k++] = '\\';
			buf[k++] = *s;
		} else if (*s == '\n') {
			buf[k++] = '\\';
			buf[k++] = 'n';
		} else if ((unsigned char)*s < 0x20) {
			buf[k++] = ' ';
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	put(w, buf);
	put(w, "\"");
}

/* Text inside an HTML-like label. */
static void put_html(struct out *w, const char *s)
{
	char buf[256];
	size_t k = 0;

	for (; s && *s; s++) {
		const char *rep = NULL;

		if (k + 8 >= sizeof(buf)) {
			buf[k] = '\0';
			put(w, buf);
			k = 0;
		}
		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		default:
			if ((unsigned char)*s < 0x20)
				rep = " ";
			break;
		}
		if (rep) {
			memcpy(buf + k, rep, strlen(rep));
			k += strlen(rep);
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	put(w, buf);
}

static void dnode_id(const struct ctx *c, size_t i, char *buf, size_t len)
{
	const struct dnode *d = &c->dn[i];

	if (d->kind == DN_GROUP)
		snprintf(buf, len, "g%016" PRIx64, d->guid);
	else if (d->kind == DN_BLOCK)
		snprintf(buf, len, "b%016" PRIx64, d->guid);
	else if (d->kind == DN_GHOST)
		snprintf(buf, len, "x%016" PRIx64, d->guid);
	else
		snprintf(buf, len, "n%016" PRIx64, d->guid);
}

static const char *fabric_name(const struct ctx *c, char *buf, size_t len)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(c->f);

	if (m->source && strncmp(m->source, "file:", 5) == 0) {
		const char *s = strrchr(m->source, '/');

		snprintf(buf, len, "%s", s ? s + 1 : m->source + 5);
	} else if (m->host) {
		snprintf(buf, len, "%s", m->host);
	} else if (m->label) {
		snprintf(buf, len, "%s", m->label);
	} else {
		snprintf(buf, len, "%s", "InfiniBand fabric");
	}
	return buf;
}

static void write_subtitle(struct out *w, const struct ctx *c)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(c->f);
	const char *sep = "";
	size_t nsharp = 0, nsw, nhost;
	char date[64];
	struct tm tm;

	if (m->snapshot_id > 0) {
		putf(w, "snapshot %lld", (long long)m->snapshot_id);
		sep = " \xc2\xb7 ";
	}
	if (m->label) {
		put(w, m->snapshot_id > 0 ? " " : "");
		put(w, "\xe2\x80\x9c");
		put_html(w, m->label);
		put(w, "\xe2\x80\x9d");
		sep = " \xc2\xb7 ";
	}
	if (m->taken_at > 0 && gmtime_r(&m->taken_at, &tm) &&
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm)) {
		putf(w, "%s%s", sep, date);
		sep = " \xc2\xb7 ";
	}
	for (size_t i = 0; i < c->nn; i++)
		nsharp += c->hidden[i];
	nsw = ibtopo_fabric_count_type(c->f, IBTOPO_NODE_SWITCH);
	nhost = ibtopo_fabric_count_type(c->f, IBTOPO_NODE_CA) +
		ibtopo_fabric_count_type(c->f, IBTOPO_NODE_ROUTER) - nsharp;
	putf(w, "%s%zu switch%s, %zu host%s", sep, nsw, nsw == 1 ? "" : "es",
	     nhost, nhost == 1 ? "" : "s");
	if (nsharp)
		putf(w, " (+%zu SHARP)", nsharp);
	putf(w, ", %zu link%s", c->nl, c->nl == 1 ? "" : "s");
	if (m->partial)
		put(w, " (PARTIAL)");
	if (c->focus)
		putf(w, " \xc2\xb7 around %s, %u hop%s", c->label[c->focus->index],
		     c->depth, c->depth == 1 ? "" : "s");
	if (c->collapse)
		put(w, " \xc2\xb7 hosts collapsed per switch");
}

/* Legend entries: a sample cell, then words. */
struct litem {
	char attrs[96];		/* of the sample cell */
	const char *color;	/* of the sample's text */
	const char *sample;	/* HTML */
	char text[128];
	int size;		/* sample's point size before scaling */
};

#define LEGEND_MAX 24
#define LEGEND_PER_ROW 4

#define SOLID "<B>\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81</B>"	/* ━━━ */
#define DASHED "<B>\xe2\x95\x8d\xe2\x95\x8d\xe2\x95\x8d</B>"	/* ╍╍╍ */

static struct litem *legend_add(struct litem *it, size_t *n, const char *color,
				const char *sample, int size, const char *text)
{
	struct litem *x;

	if (*n == LEGEND_MAX)
		return NULL;
	x = &it[(*n)++];
	x->attrs[0] = '\0';
	x->color = color;
	x->sample = sample;
	x->size = size;
	snprintf(x->text, sizeof(x->text), "%s", text);
	return x;
}

static void legend_line(struct litem *it, size_t *n, const char *color,
			bool dashed, const char *text)
{
	legend_add(it, n, color, dashed ? DASHED : SOLID, 12, text);
}

/* A node sample: a filled cell with a border of the mark's colour. */
static void legend_box(struct litem *it, size_t *n, const char *fill,
		       const char *border, int width, const char *word,
		       const char *text)
{
	struct litem *x = legend_add(it, n, "#000000", word, 9, text);

	if (x)
		snprintf(x->attrs, sizeof(x->attrs),
			 " BGCOLOR=\"%s\" BORDER=\"%d\" COLOR=\"%s\"", fill,
			 width, border);
}

static void write_legend(struct out *w, const struct ctx *c)
{
	struct litem it[LEGEND_MAX];
	size_t n = 0;
	char st[32], text[128];

	legend_box(it, &n, "#deebf7", "#000000", 1, "switch", "switch");
	if (c->used_kinds & (1u << DN_GROUP))
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "N hosts",
			   "hosts on the same switches");
	if (c->used_kinds & (1u << DN_HOST | 1u << DN_BLOCK))
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "host", "host (CA)");
	for (int k = 0; k < CAT_MAX_; k++) {
		if (k == CAT_OK) {
			legend_line(it, &n, cats[k].color, false, cats[k].legend);
			continue;
		}
		if (!(c->used_cats & (1u << k)))
			continue;
		snprintf(text, sizeof(text), "%s (%zu)", cats[k].legend,
			 c->ncats[k]);
		legend_line(it, &n, cats[k].color, cats[k].style != NULL, text);
	}
	if (c->used_marks & MARK_LOWPATH)
		legend_box(it, &n, "#deebf7", "#d62728", 2, "node",
			   "low path diversity");
	if (c->lowpath_hosts) {
		snprintf(text, sizeof(text),
			 "%zu of %zu hosts: one link or one switch (not marked)",
			 c->lowpath_hosts, c->hosts);
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "host", text);
	}
	if (c->used_marks & MARK_TOPO)
		legend_box(it, &n, "#deebf7", "#9467bd", 2, "switch",
			   "breaks a fat-tree rule");
	if (c->used_marks & MARK_ADDED)
		legend_box(it, &n, "#ffffff", "#2ca02c", 2, "node", "added node");
	if (c->used_marks & MARK_EXTRA)
		legend_box(it, &n, "#ffffff", "#17becf", 2, "node",
			   "node not in the plan");
	if (c->used_marks & MARK_REMOVED)
		legend_box(it, &n, "#ffffff", "#d62728", 1, "node",
			   "removed node (dashed)");
	if (c->used_marks & MARK_MISSING)
		legend_box(it, &n, "#ffffff", "#d62728", 1, "node",
			   "planned node missing (dashed)");
	if (c->usual_count > 1)
		snprintf(text, sizeof(text), "N parallel cables (unlabelled "
			 "switch links: %zu)", c->usual_count);
	else
		snprintf(text, sizeof(text), "N parallel cables");
	legend_add(it, &n, "#555555", "<B>\xc3\x97N</B>", 12, text);
	if (c->sw_speed || c->host_speed) {
		snprintf(text, sizeof(text), "speed shown where not %s",
			 speed_text(c->sw_speed ? c->sw_speed : c->host_speed,
				    c->sw_speed ? c->sw_width : c->host_width,
				    st, sizeof(st)));
		if (c->sw_speed && c->host_speed &&
		    (c->host_speed != c->sw_speed || c->host_width != c->sw_width)) {
			size_t k = strlen(text);

			snprintf(text + k, sizeof(text) - k, " (hosts: %s)",
				 speed_text(c->host_speed, c->host_width, st,
					    sizeof(st)));
		}
		legend_add(it, &n, "#555555", "<B>EDR</B>", 10, text);
	}
	put(w, "\t\t<TR><TD><TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" "
	       "CELLBORDER=\"0\" CELLSPACING=\"4\">\n");
	for (size_t i = 0; i < n; i++) {
		if (i % LEGEND_PER_ROW == 0)
			put(w, "\t\t\t<TR>");
		putf(w, "<TD%s><FONT POINT-SIZE=\"%.0f\" COLOR=\"%s\">%s</FONT>"
			"</TD><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"%.0f\">",
		     it[i].attrs, it[i].size * c->scale, it[i].color,
		     it[i].sample, 12 * c->scale);
		put_html(w, it[i].text);
		put(w, "</FONT></TD>");
		if (i % LEGEND_PER_ROW == LEGEND_PER_ROW - 1 || i + 1 == n)
			put(w, "</TR>\n");
	}
	put(w, "\t\t</TABLE></TD></TR>\n");
}

static void write_label(struct out *w, const struct ctx *c)
{
	const struct ibtopo_diagram_opts *d = c->d;
	char name[256];

	put(w, "\tlabel=<<TABLE BORDER=\"0\" CELLSPACING=\"2\">\n");
	putf(w, "\t\t<TR><TD><FONT POINT-SIZE=\"%.0f\"><B>", 22 * c->scale);
	put_html(w, d->title ? d->title : fabric_name(c, name, sizeof(name)));
	put(w, "</B></FONT></TD></TR>\n");
	putf(w, "\t\t<TR><TD><FONT POINT-SIZE=\"%.0f\">", 13 * c->scale);
	if (d->subtitle)
		put_html(w, d->subtitle);
	else
		write_subtitle(w, c);
	put(w, "</FONT></TD></TR>\n");
	if (!(d->flags & IBTOPO_DIAGRAM_NO_LEGEND))
		write_legend(w, c);
	put(w, "\t</TABLE>>;\n");
}

static const char *switch_fill(const struct ctx *c, int level, int top)
{
	(void)c;
	if (level >= top && top > 1)
		return "#9ecae1";
	if (level > 1)
		return "#c6dbef";
	return "#deebf7";
}

/* Worst category among a host's links. */
static enum cat host_cat(const struct ctx *c, const struct ibtopo_node *n)
{
	enum cat k = CAT_OK;

	for (unsigned p = 1; p <= n->nports; p++)
		if (n->ports[p] && n->ports[p]->link &&
		    c->lcat[n->ports[p]->link->index] > k)
			k = c->lcat[n->ports[p]->link->index];
	return k;
}

/* Hosts as the cells of a table; problems colour their cell. */
static void write_block(struct out *w, const struct ctx *c,
			const struct dnode *d, const char *id)
{
	size_t cols = block_columns(d->nhosts);

	putf(w, "\t%s [shape=plain, style=solid, label=<<TABLE BORDER=\"1\" "
		"COLOR=\"#888888\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
		"CELLPADDING=\"2\" BGCOLOR=\"#f2f2f2\">", id);
	putf(w, "<TR><TD COLSPAN=\"%zu\"><FONT POINT-SIZE=\"8\" "
		"COLOR=\"#666666\">%zu hosts</FONT></TD></TR>", cols, d->nhosts);
	for (size_t i = 0; i < d->nhosts; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(c->f, d->members[i]);
		unsigned m = c->mark[d->members[i]];
		enum cat k = host_cat(c, n);

		if (i % cols == 0)
			put(w, "<TR>");
		putf(w, "<TD PORT=\"p%016" PRIx64 "\"", n->guid);
		if (m & MARK_LOWPATH)
			put(w, " BORDER=\"2\" COLOR=\"#d62728\"");
		else if (m & (MARK_ADDED | MARK_EXTRA | MARK_TOPO))
			putf(w, " BORDER=\"2\" COLOR=\"%s\"",
			     m & MARK_TOPO ? "#9467bd" :
			     m & MARK_ADDED ? "#2ca02c" : "#17becf");
		else if (k != CAT_OK)
			putf(w, " BORDER=\"1\" COLOR=\"%s\"", cats[k].color);
		put(w, " BGCOLOR=\"#ffffff\" TITLE=\"");
		put_html(w, n->desc);
		putf(w, " 0x%016" PRIx64 "\"><FONT POINT-SIZE=\"9\"", n->guid);
		if (k != CAT_OK)
			putf(w, " COLOR=\"%s\"", cats[k].color);
		put(w, ">");
		put_html(w, c->label[d->members[i]]);
		put(w, "</FONT></TD>");
		if (i % cols == cols - 1 || i + 1 == d->nhosts)
			put(w, "</TR>");
	}
	put(w, "</TABLE>>];\n");
}

static void write_node(struct out *w, const struct ctx *c, size_t i, int top)
{
	const struct dnode *d = &c->dn[i];
	char id[40];

	dnode_id(c, i, id, sizeof(id));
	if (d->kind == DN_BLOCK) {
		write_block(w, c, d, id);
		return;
	}
	putf(w, "\t%s [label=", id);
	put_q(w, d->label);
	switch (d->kind) {
	case DN_SWITCH:
		putf(w, ", shape=box, style=\"rounded,filled\", fillcolor=\"%s\"",
		     switch_fill(c, d->level, top));
		break;
	case DN_HOST:
		put(w, d->type == IBTOPO_NODE_ROUTER ?
		    ", shape=hexagon, fillcolor=\"#f2f2f2\"" :
		    ", shape=ellipse, fillcolor=\"#f2f2f2\"");
		break;
	case DN_GROUP:
		put(w, ", shape=box3d, fillcolor=\"#f2f2f2\"");
		break;
	case DN_BLOCK:
		break;
	case DN_GHOST:
		putf(w, ", shape=%s, style=dashed, fontcolor=\"#d62728\"",
		     d->type == IBTOPO_NODE_SWITCH ? "box" : "ellipse");
		break;
	}
	if (d->marks & (MARK_REMOVED | MARK_MISSING))
		put(w, ", color=\"#d62728\"");
	else if (d->marks & MARK_LOWPATH)
		put(w, ", color=\"#d62728\", peripheries=2, penwidth=2");
	else if (d->marks & MARK_TOPO)
		put(w, ", color=\"#9467bd\", penwidth=2.5");
	else if (d->marks & MARK_ADDED)
		put(w, ", color=\"#2ca02c\", penwidth=2.5");
	else if (d->marks & MARK_EXTRA)
		put(w, ", color=\"#17becf\", penwidth=2.5");
	if (d->marks & MARK_FOCUS)
		put(w, ", penwidth=3, fontname=\"Helvetica-Bold\"");
	put(w, ", tooltip=");
	put_q(w, d->tooltip);
	put(w, "];\n");
}

static double penwidth(const struct ctx *c, const struct dedge *e)
{
	double pw;

	if (e->gbps <= 0)
		pw = e->cat >= CAT_REMOVED ? 1.5 : 1.0;
	else
		pw = 1.0 + log2(1.0 + e->gbps / 200.0);
	if (pw > 6.0)
		pw = 6.0;
	/* a large drawing is a mesh of links: keep it thin so that the
	 * problems, drawn thick and last, stand out */
	if (c->sfdp)
		pw = e->cat == CAT_OK ? pw * 0.4 : pw < 3.0 ? 3.0 : pw;
	return pw;
}

static void edge_tooltip(const struct ctx *c, const struct dedge *e, char *tip,
			 size_t len)
{
	const struct dnode *u = &c->dn[e->u], *v = &c->dn[e->v];
	char rate[32] = "";
	size_t k;

	if (e->speed)
		snprintf(rate, sizeof(rate), "%s%s, ",
			 e->width ? ibtopo_width_name(e->width) : "",
			 ibtopo_speed_name(e->speed));
	if (ibtopo__diagram_is_ghost_cat(e->cat))
		snprintf(tip, len, "%s: %s -- %s", cats[e->cat].legend,
			 u->label, v->label);
	else if (e->link && e->count == 1)
		snprintf(tip, len, "%s [%u] -- %s [%u]: %s%.0f Gb/s",
			 e->link->a->node->desc, e->link->a->num,
			 e->link->b->node->desc, e->link->b->num, rate, e->gbps);
	else
		snprintf(tip, len, "%s -- %s: %zu cables, %s%.0f Gb/s",
			 u->label, v->label, e->count, rate, e->gbps);
	k = strlen(tip);
	if (e->cat != CAT_OK && !ibtopo__diagram_is_ghost_cat(e->cat))
		snprintf(tip + k, len - k, " (%s)", cats[e->cat].legend);
	/* one line: a wrapped name joins up again, other lines get a space */
	for (char *p = tip, *q = tip;; p++) {
		if (*p == '\n' && p > tip && p[-1] == '-')
			continue;
		*q++ = *p == '\n' ? ' ' : *p;
		if (!*p)
			break;
	}
}

static bool is_switch_edge(const struct ctx *c, const struct dedge *e)
{
	return c->dn[e->u].kind == DN_SWITCH && c->dn[e->v].kind == DN_SWITCH;
}

/*
 * The cable count is worth a label where it says something: not on the
 * links to a host group with one cable per host ("×24" under "24 hosts"),
 * and not on switch links that have the usual count (the legend says).
 */
static bool show_count(const struct ctx *c, const struct dedge *e)
{
	const struct dnode *g = c->dn[e->v].kind == DN_GROUP ||
				c->dn[e->v].kind == DN_BLOCK ? &c->dn[e->v] : NULL;

	if (e->count < 2)
		return false;
	if (g && e->count == g->nhosts)
		return false;
	return !(c->usual_count > 1 && e->count == c->usual_count &&
		 is_switch_edge(c, e));
}

/* The count most switch-to-switch edges have, when that is most of them. */
static size_t usual_count(const struct ctx *c)
{
	size_t *v = calloc(c->nde + 1, sizeof(*v));
	size_t n = 0, best = 0, best_n = 0;

	if (!v)
		return 0;	/* only a label less */
	for (size_t i = 0; i < c->nde; i++)
		if (is_switch_edge(c, &c->de[i]))
			v[n++] = c->de[i].count;
	qsort(v, n, sizeof(*v), cmp_size);
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s; e < n && v[e] == v[s]; e++)
			;
		if (e - s > best_n) {
			best = v[s];
			best_n = e - s;
		}
	}
	free(v);
	return best_n * 2 > n && n >= 4 ? best : 0;
}

/* Does dot draw e between two nodes of one rank (a loop is not flat)? */
static bool flat_edge(const struct ctx *c, const struct dedge *e)
{
	return !c->sfdp && e->u != e->v && c->dn[e->u].pos == c->dn[e->v].pos;
}

static void write_edge(struct out *w, const struct ctx *c, const struct dedge *e)
{
	const struct dnode *u = &c->dn[e->u], *v = &c->dn[e->v];
	bool host = u->kind != DN_SWITCH || v->kind != DN_SWITCH;
	unsigned cs = host ? c->host_speed : c->sw_speed;
	unsigned cw = host ? c->host_width : c->sw_width;
	bool show_speed = e->speed && (e->speed != cs || e->width != cw ||
				       e->cat == CAT_DOWN || e->cat == CAT_CHANGED);
	char a[40], b[64], st[32], label[64], tip[600];
	size_t minlen = 1;

	if (!c->sfdp && u->pos > v->pos) {
		/* same level, the lower row first */
		dnode_id(c, e->v, a, sizeof(a));
		dnode_id(c, e->u, b, sizeof(b));
		minlen = u->pos - v->pos;
	} else {
		dnode_id(c, e->u, a, sizeof(a));
		dnode_id(c, e->v, b, sizeof(b));
		minlen = c->sfdp ? 1 : v->pos - u->pos;
	}
	if (e->host) {
		/* the block is the lower end: v, written second */
		size_t k = strlen(b);

		snprintf(b + k, sizeof(b) - k, ":p%016" PRIx64 ":n", e->host->guid);
	}
	speed_text(e->speed, e->width, st, sizeof(st));
	if (show_count(c, e))
		snprintf(label, sizeof(label), "\xc3\x97%zu%s%s", e->count,
			 show_speed ? " " : "", show_speed ? st : "");
	else
		snprintf(label, sizeof(label), "%s", show_speed ? st : "");
	edge_tooltip(c, e, tip, sizeof(tip));
	putf(w, "\t%s -> %s [", a, b);
	if (label[0]) {
		/* dot makes room for a label in the rank it crosses; with
		 * many, that room is most of the picture: place them after.
		 * Always after on a flat edge (two nodes of one rank): dot
		 * (2.43) grows the rank above for its label node and later
		 * frees the array it grew from, twice (gvFreeLayout) */
		put(w, c->xlabels || flat_edge(c, e) ? "xlabel=" : "label=");
		put_q(w, label);
		put(w, ", ");
	}
	if (e->cat != CAT_OK)
		putf(w, "color=\"%s\", fontcolor=\"%s\", ", cats[e->cat].color,
		     cats[e->cat].color);
	else if (c->sfdp)
		put(w, "color=\"#55555560\", ");
	if (cats[e->cat].style)
		putf(w, "style=%s, ", cats[e->cat].style);
	putf(w, "penwidth=%.1f", penwidth(c, e));
	if (e->count > 1)
		putf(w, ", weight=%zu", e->count);
	if (minlen > 1)
		putf(w, ", minlen=%zu", minlen);
	put(w, ", tooltip=");
	put_q(w, tip);
	put(w, "];\n");
}

static void write_dot(struct out *w, struct ctx *c)
{
	int top = 0;

	for (size_t i = 0; i < c->ndn; i++) {
		if (c->dn[i].level > top)
			top = c->dn[i].level;
		c->used_marks |= c->dn[i].marks;
		c->used_kinds |= 1u << c->dn[i].kind;
	}
	put(w, "// ibtopo fabric diagram\n");
	put(w, "digraph fabric {\n");
	if (c->sfdp)
		putf(w, "\tgraph [layout=sfdp, overlap=%s, splines=false, "
		       "outputorder=edgesfirst];\n",
		     c->ndn > PRISM_FULL_MAX ? "prism20" : "prism");
	else
		put(w, "\tgraph [layout=dot, rankdir=TB, newrank=true, "
		       "ranksep=0.9, nodesep=0.2, outputorder=edgesfirst];\n");
	if (!c->sfdp && c->work > DOT_WORK_MAX) {
		/* dot asked for on a big drawing: fewer mincross passes and
		 * network simplex iterations, in proportion */
		double k = (double)DOT_WORK_MAX / (double)c->work;

		putf(w, "\tgraph [mclimit=%.3f, nslimit=%.3f, "
		       "remincross=false];\n", k, k);
	}
	put(w, "\tgraph [fontname=\"Helvetica\", labelloc=t, bgcolor=white, "
	       "pad=0.3];\n");
	put(w, "\tnode [fontname=\"Helvetica\", fontsize=10, style=filled, "
	       "height=0.3, margin=\"0.08,0.03\"];\n");
	put(w, "\tedge [dir=none, color=\"#555555\", fontname=\"Helvetica\", "
	       "fontsize=9];\n");
	write_label(w, c);
	for (size_t i = 0; i < c->ndn; i++)
		write_node(w, c, i, top);
	/* levels as ranks: dnodes are sorted by level, highest first */
	if (!c->sfdp) {
		for (size_t r = 0; r < c->nrows; r++) {
			putf(w, "\t{ rank=same;");
			for (size_t i = 0; i < c->ndn; i++) {
				char id[40];

				if (c->dn[i].pos != r)
					continue;
				dnode_id(c, i, id, sizeof(id));
				putf(w, " %s;", id);
			}
			put(w, " }\n");
		}
	}
	/* directors: switch chips sharing a system image GUID */
	for (size_t s = 0, e; s < c->ndn; s = e) {
		uint64_t sys = c->dn[s].cluster;

		e = s + 1;
		if (!sys)
			continue;
		/* members may sit on several levels: collect all of them */
		if (s > 0) {
			bool seen = false;

			for (size_t i = 0; i < s; i++)
				seen |= c->dn[i].cluster == sys;
			if (seen)
				continue;
		}
		putf(w, "\tsubgraph cluster_%016" PRIx64 " {\n\t\tlabel=", sys);
		{
			const struct ibtopo_node *n = c->dn[s].node;
			const char *semi = strchr(n->desc, ';');
			const char *colon = semi ? strchr(semi, ':') : NULL;
			char name[128];

			if (semi && colon && colon > semi + 1)
				squeeze(name, sizeof(name), semi + 1,
					(size_t)(colon - semi - 1));
			else
				snprintf(name, sizeof(name), "director %016" PRIx64,
					 sys);
			put_q(w, name);
		}
		put(w, ";\n\t\tstyle=\"rounded,filled\"; fillcolor=\"#f7f7f7\"; "
		       "color=\"#888888\"; fontsize=12;\n\t\t");
		for (size_t i = s; i < c->ndn; i++) {
			char id[40];

			if (c->dn[i].cluster != sys)
				continue;
			dnode_id(c, i, id, sizeof(id));
			putf(w, "%s; ", id);
		}
		put(w, "\n\t}\n");
	}
	/* healthy links first, problems after: drawn over them */
	for (int k = 0; k < CAT_MAX_; k++)
		for (size_t i = 0; i < c->nde; i++)
			if (c->de[i].cat == (enum cat)k)
				write_edge(w, c, &c->de[i]);
	put(w, "}\n");
}

/* ------------------------------------------------------------------ */
/* entry point                                                         */
/* ------------------------------------------------------------------ */

static void free_ctx(struct ctx *c)
{
	ibtopo_topology_free(c->topo_own);
	for (size_t i = 0; c->label && i < c->nn; i++)
		free(c->label[i]);
	for (size_t i = 0; i < c->ndn; i++) {
		free(c->dn[i].label);
		free(c->dn[i].tooltip);
		free(c->dn[i].members);
	}
	free(c->dn);
	free(c->de);
	free(c->label);
	free(c->level);
	free(c->visible);
	free(c->hidden);
	free(c->mark);
	free(c->dn_of);
	free(c->lcat);
	free(c->dir);
}

/* Edges beyond which edge labels no longer take room in the layout. */
#define XLABELS_ABOVE 60

/* Switches per row before a level of switches is split into rows. */
#define ROW_SWITCHES 40
/* Hosts rows are at least this wide (inches) before they are split. */
#define ROW_MIN_WIDTH 30.0

/* Rough width of a drawn node in inches (10 pt Helvetica), with nodesep. */
static double node_width(const struct ctx *c, const struct dnode *d)
{
	size_t longest = 0, cur = 0;

	if (d->kind == DN_BLOCK) {
		for (size_t i = 0; i < d->nhosts; i++)
			if (utf8_len(c->label[d->members[i]]) > longest)
				longest = utf8_len(c->label[d->members[i]]);
		return 0.2 + (double)block_columns(d->nhosts) *
		       (0.12 + 0.065 * (double)longest);
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
	return 0.3 + 0.075 * (double)longest +
	       (d->kind == DN_HOST || d->type != IBTOPO_NODE_SWITCH ? 0.3 : 0) +
	       0.2;
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
static int assign_rows(struct ctx *c)
{
	size_t *parent, *nth, *row, base = 0;
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

		if (c->dn[e->v].level < c->dn[e->u].level && parent[e->v] == NONE)
			parent[e->v] = e->u;
	}
	for (size_t s = 0, e; s < c->ndn; s = e) {
		size_t n, rows = 1;
		double width = 0;

		for (e = s; e < c->ndn && c->dn[e].level == c->dn[s].level; e++)
			width += node_width(c, &c->dn[e]);
		n = e - s;
		if (c->dn[s].level > 0) {
			if (n > ROW_SWITCHES)
				rows = (n + ROW_SWITCHES - 1) / ROW_SWITCHES;
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
 * Title and legend grow with the drawing so they stay readable next to
 * it: with sfdp the drawing grows with the square root of the node count,
 * with dot with the widest rank.
 */
static double text_scale(const struct ctx *c)
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
static size_t dot_work(const struct ctx *c)
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

/* Sort drawn nodes and renumber what points at them. */
static int sort_dnodes(struct ctx *c)
{
	size_t *perm;

	if (!c->ndn)
		return 0;
	perm = calloc(c->ndn, sizeof(*perm));
	if (!perm)
		return IBTOPO_ENOMEM;
	qsort(c->dn, c->ndn, sizeof(*c->dn), cmp_dnode);
	for (size_t i = 0; i < c->ndn; i++)
		perm[c->dn[i].orig] = i;
	for (size_t i = 0; i < c->nn; i++)
		if (c->dn_of[i] != NONE)
			c->dn_of[i] = perm[c->dn_of[i]];
	free(perm);
	return 0;
}

static int prepare(struct ctx *c)
{
	int rc;

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
	if (!c->level || !c->label || !c->visible || !c->hidden || !c->mark ||
	    !c->dn_of || !c->lcat || !c->dir)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < c->nn; i++) {
		c->dn_of[i] = NONE;
		c->hidden[i] = is_aggregation_node(ibtopo_fabric_node(c->f, i));
	}
	rc = levels_analysis(&c->topo, &c->topo_own, c->f, c->d->topology);
	if (rc)
		return rc;
	find_directors(c);
	compute_levels(c->f, c->topo, c->level);
	rc = make_labels(c);
	if (!rc)
		rc = find_focus(c);
	if (!rc)
		rc = mark_visible(c);
	if (rc)
		return rc;
	ibtopo__diagram_apply_findings(c);
	rc = build_nodes(c);
	if (!rc)
		rc = build_ghosts(c);
	if (!rc)
		rc = sort_dnodes(c);
	if (rc)
		return rc;
	common_rates(c);
	rc = build_edges(c);
	if (rc)
		return rc;
	if (c->d->layout != IBTOPO_LAYOUT_SFDP) {
		rc = assign_rows(c);
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
	c->xlabels = c->sfdp || c->nde > XLABELS_ABOVE;
	c->usual_count = usual_count(c);
	c->scale = text_scale(c);
	return 0;
}

int ibtopo_render_dot(const struct ibtopo_render_opts *o,
		      const struct ibtopo_fabric *f,
		      const struct ibtopo_diagram_opts *d,
		      struct ibtopo_error *err)
{
	static const struct ibtopo_diagram_opts defaults = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ctx c = { .f = f, .d = d ? d : &defaults, .err = err };
	struct out w = { .o = o };
	int rc;

	if (!o || !o->write || !f)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or output for the diagram");
	if (c.d->version != IBTOPO_DIAGRAM_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "diagram options version %u not supported",
					 c.d->version);
	rc = prepare(&c);
	if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	if (rc)
		goto out_free;
	write_dot(&w, &c);
	rc = w.rc;
	if (rc)
		rc = ibtopo__error_set(err, rc, "writing the diagram: %s",
				       ibtopo_strerror(rc));
out_free:
	free_ctx(&c);
	return rc;
}
