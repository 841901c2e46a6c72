/*
 * sched.c - the tree the scheduler formats write: logical switches built
 * on the topology analysis, hosts named once, names Slurm and
 * Kubernetes take.
 *
 * Slurm's topology/tree plugin refuses a switch line with neither Nodes=
 * nor Switches= and a child it cannot find, and ranks a switch one level
 * above its highest child, stopping on a switch listed below one of its
 * own descendants. So children come from lower levels of the analysis
 * only, a switch with nothing below is left out together with the
 * mentions of it, and each host is under one leaf.
 */
#include "export/sched.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void sched_header(struct ibtopo__wr *w, const struct ibtopo__sched *s,
			 const struct ibtopo_fabric *f, const char *what)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);

	ibtopo__wr_printf(w, "# %s written by ibtopo\n# fabric: %s\n", what,
			  s->fabric);
	if (m && m->source)
		ibtopo__wr_printf(w, "# from: %s%s\n", m->source,
				  m->partial ? " (partial)" : "");
	if (m && m->snapshot_id)
		ibtopo__wr_printf(w, "# snapshot: %lld%s%s\n",
				  (long long)m->snapshot_id,
				  m->label ? " " : "",
				  m->label ? m->label : "");
	if (m && m->taken_at) {
		char t[32];
		struct tm tm;

		gmtime_r(&m->taken_at, &tm);
		strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm);
		ibtopo__wr_printf(w, "# taken: %s\n", t);
	}
	ibtopo__wr_printf(w, "# %zu host%s, %zu switch%s; %s\n", s->nhosts,
			  s->nhosts == 1 ? "" : "s", s->nsw,
			  s->nsw == 1 ? "" : "es", s->rule);
}

/* ---- building the tree */

struct build {
	const struct ibtopo_fabric *f;
	const struct ibtopo_export_opts *x;
	const struct ibtopo_topology *topo; /* the analysis' */
	size_t n;			    /* fabric nodes */
	size_t *uf;			    /* union-find over fabric nodes */
	int *level;			    /* per fabric node (switches) */
	size_t *lsw;			    /* fabric node -> logical switch */
	unsigned *lsw_level; /* per logical switch: analysis level */
	size_t *first;	     /* per logical switch: first member */
	uint64_t *bits;	     /* per logical switch: hosts below */
	size_t words;
	/* per logical switch: its words [lo, hi) that may be non-zero;
	 * hosts are numbered leaf by leaf, so a switch's span is short and
	 * a switch ORs its children's spans only, not whole rows (101,306
	 * hosts: 1,583 words a row) */
	size_t *lo, *hi;
	char (*raw)[IBTOPO__SCHED_NAME + 16]; /* per fabric node */
	size_t *member_unit; /* rails: per switch its unit, 0 none */
	size_t *pre, *suf;   /* per logical switch: name parts shared */
	size_t *members;     /* per logical switch: its switches */
	unsigned sanitized;
};

static void vwarn(const struct ibtopo_export_opts *x, const char *fmt,
		  va_list ap) IBTOPO__PRINTF(2, 0);

static void vwarn(const struct ibtopo_export_opts *x, const char *fmt,
		  va_list ap)
{
	char msg[512];

	if (!x->warn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	x->warn(x->warn_arg, msg);
}

static void warnf(const struct build *b, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

static void warnf(const struct build *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(b->x, fmt, ap);
	va_end(ap);
}

void ibtopo__sched_warn(const struct ibtopo__sched *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(s->x, fmt, ap);
	va_end(ap);
}

static size_t uf_find(size_t *uf, size_t i)
{
	while (uf[i] != i) {
		uf[i] = uf[uf[i]];
		i = uf[i];
	}
	return i;
}

/* Join two sets; the lower index stays the root, so roots are stable. */
static void uf_join(size_t *uf, size_t a, size_t b)
{
	a = uf_find(uf, a);
	b = uf_find(uf, b);
	if (a < b)
		uf[b] = a;
	else if (b < a)
		uf[a] = b;
}

static bool is_switch(const struct ibtopo_node *n)
{
	return n->type == IBTOPO_NODE_SWITCH;
}

/* "MF0;<name>:<model>/U1" gives <name>, a one-word description the word,
 * else "S-<guid>" as ibnetdiscover names the switch. */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

uint32_t ibtopo__sched_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * At most 64 characters of [A-Za-z0-9._-]: other characters become '_',
 * a longer name keeps 55 and gets "-" and 8 hex digits of a hash of the
 * whole. Returns whether the name changed.
 */
static bool sanitize(const char *in, char out[IBTOPO__SCHED_NAME])
{
	size_t n = strlen(in), i;
	bool changed = false;

	for (i = 0; i < n && i < IBTOPO__SCHED_NAME - 1; i++) {
		out[i] = name_char(in[i]) ? in[i] : '_';
		changed |= out[i] != in[i];
	}
	out[i] = '\0';
	if (n > IBTOPO__SCHED_NAME - 1) {
		snprintf(out + 55, IBTOPO__SCHED_NAME - 55, "-%08x",
			 (unsigned)ibtopo__sched_hash(in));
		changed = true;
	}
	return changed;
}

/* ---- directors, scalable units, groups: which switches are one */

static int cmp_sysimg(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;

	if (a->sysimg_guid != b->sysimg_guid)
		return a->sysimg_guid < b->sysimg_guid ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The chips of a director share a system image GUID. */
static int join_directors(struct build *b, size_t *ndirectors)
{
	const struct ibtopo_node **sw = calloc(b->n ? b->n : 1, sizeof(*sw));
	size_t k = 0;

	if (!sw)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(b->f, i);

		if (is_switch(node) && node->sysimg_guid &&
		    node->sysimg_guid != node->guid)
			sw[k++] = node;
	}
	if (k)
		qsort(sw, k, sizeof(*sw), cmp_sysimg);
	*ndirectors = 0;
	for (size_t i = 0; i < k;) {
		size_t j = i + 1;

		while (j < k && sw[j]->sysimg_guid == sw[i]->sysimg_guid)
			uf_join(b->uf, sw[i]->index, sw[j++]->index);
		*ndirectors += j > i + 1;
		i = j;
	}
	free(sw);
	return 0;
}

/* Rail-optimized: the leaves of one scalable unit are one leaf. */
static size_t join_units(struct build *b)
{
	size_t nunits = 0, *unit_first;

	ibtopo_topology_rails(b->topo, &nunits);
	unit_first = calloc(nunits + 1, sizeof(*unit_first));
	if (!unit_first)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(b->f, i);
		size_t u = 0;

		if (!is_switch(node) ||
		    !ibtopo_topology_node_rail(b->topo, node, &u) || !u ||
		    u > nunits)
			continue;
		b->member_unit[i] = u;
		if (unit_first[u])
			uf_join(b->uf, unit_first[u] - 1, i);
		else
			unit_first[u] = i + 1;
	}
	free(unit_first);
	return nunits;
}

/* Dragonfly+: a group is what the links between leaves and spines join. */
static void join_groups(struct build *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(b->f, i);

		if (!is_switch(node) || b->level[i] != 1)
			continue;
		for (unsigned p = 1; p <= node->nports; p++) {
			const struct ibtopo_port *port = node->ports[p];

			if (port && port->remote &&
			    is_switch(port->remote->node) &&
			    b->level[port->remote->node->index] == 2)
				uf_join(b->uf, i, port->remote->node->index);
		}
	}
}

/* Shorten *pre and *suf to what nm shares with first (flen long). */
static void shared_ends(const char *first, size_t flen, const char *nm,
			size_t *pre, size_t *suf)
{
	size_t l = strlen(nm), k;

	for (k = 0; k < *pre && k < l && nm[k] == first[k]; k++)
		;
	*pre = k;
	for (k = 0; k < *suf && k < l && nm[l - 1 - k] == first[flen - 1 - k];
	     k++)
		;
	*suf = k;
}

/*
 * The name of a set of switches whose names share pre characters at the
 * start and suf at the end with first: those parts, cut at '-', '_' or
 * '.' and joined by '-' ("rail1-su01", "rail2-su01" -> "su01";
 * "g01-leaf01", "g01-spine01" -> "g01"; "A09-P1-IBLEAF-01-03",
 * "A09-P1-IBLEAF-02-03" -> "A09-P1-IBLEAF-03"); else fallback.
 */
static void common_name(const char *first, size_t pre, size_t suf,
			const char *fallback, char *out, size_t len)
{
	size_t flen = strlen(first);

	if (pre == flen) {
		snprintf(out, len, "%s", first);
		return;
	}
	/* cut back to a separator, then drop the separators at the cut */
	while (pre && !strchr("-_.", first[pre]))
		pre--;
	while (suf && !strchr("-_.", first[flen - suf - 1]))
		suf--;
	while (pre && strchr("-_.", first[pre - 1]))
		pre--;
	while (suf && strchr("-_.", first[flen - suf]))
		suf--;
	if (pre < 2)
		pre = 0;
	if (suf < 2)
		suf = 0;
	if (pre && suf && pre + suf < flen)
		snprintf(out, len, "%.*s-%s", (int)pre, first,
			 first + flen - suf);
	else if (pre || suf)
		snprintf(out, len, "%.*s", (int)(pre ? pre : suf),
			 pre ? first : first + flen - suf);
	else
		snprintf(out, len, "%s", fallback);
}

/* ---- the logical switches */

struct pair {
	size_t a, b;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* A host's cable to a logical switch. */
struct hlink {
	const char *name;
	size_t lsw;
};

static int cmp_hlink(const void *x, const void *y)
{
	const struct hlink *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->lsw < b->lsw ? -1 : a->lsw > b->lsw;
}

static int sched_add(struct ibtopo__sched *s, size_t *cap, const char *name)
{
	struct ibtopo__sched_sw *sw;

	if (s->nsw == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct ibtopo__sched_sw *g = realloc(s->sw, c * sizeof(*g));

		if (!g)
			return IBTOPO_ENOMEM;
		s->sw = g;
		*cap = c;
	}
	sw = &s->sw[s->nsw++];
	memset(sw, 0, sizeof(*sw));
	snprintf(sw->name, sizeof(sw->name), "%s", name);
	sw->parent = SIZE_MAX;
	return 0;
}

/* Which logical switch a host goes under: lower level, more cables, name. */
static bool host_prefers(const struct build *b, const struct ibtopo__sched *s,
			 size_t x, unsigned nx, size_t y, unsigned ny)
{
	int c;

	if (b->lsw_level[x] != b->lsw_level[y])
		return b->lsw_level[x] < b->lsw_level[y];
	if (nx != ny)
		return nx > ny;
	c = strcmp(s->sw[x].name, s->sw[y].name);
	return c ? c < 0 : x < y;
}

static bool is_unnamed(const struct ibtopo_node *ca, const char *name)
{
	char g[24];

	snprintf(g, sizeof(g), "H-%016" PRIx64, ca->guid);
	return strcmp(g, name) == 0;
}

/* Hosts: grouped by name, each under its best logical switch. */
static int place_hosts(struct build *b, struct ibtopo__sched *s)
{
	struct hlink *all = NULL;
	size_t nall = 0, cap = 0, unnamed = 0, unread = 0, orphans = 0;
	char first_orphan[IBTOPO__SCHED_NAME + 16] = "";
	int rc = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *ca = ibtopo_fabric_node(b->f, i);
		bool cabled = false;

		if (ca->type != IBTOPO_NODE_CA || ibtopo__node_in_switch(ca))
			continue;
		if (!(b->x->flags & IBTOPO_EXPORT_HOST_GUIDS) &&
		    is_unnamed(ca, b->raw[i])) {
			/* no description at all: a sweep that lost it */
			if (!ca->desc[0] && ibtopo_fabric_meta(b->f)->partial)
				unread++;
			else
				unnamed++;
			continue;
		}
		for (unsigned p = 1; p <= ca->nports; p++) {
			const struct ibtopo_port *port = ca->ports[p];

			if (!port || !port->remote ||
			    !is_switch(port->remote->node))
				continue;
			cabled = true;
			if (nall == cap) {
				size_t c = cap ? cap * 2 : 256;
				struct hlink *g = realloc(all, c * sizeof(*g));

				if (!g) {
					rc = IBTOPO_ENOMEM;
					goto out_free;
				}
				all = g;
				cap = c;
			}
			all[nall++] = (struct hlink){
				b->raw[i], b->lsw[port->remote->node->index]
			};
		}
		if (!cabled && !orphans++)
			snprintf(first_orphan, sizeof(first_orphan), "%s",
				 b->raw[i]);
	}
	if (unnamed)
		warnf(b,
		      "%zu host%s without a name (a firmware-default CA "
		      "description) left out; name %s with --node-name-map "
		      "or list %s by GUID with --host-names guid",
		      unnamed, unnamed == 1 ? "" : "s",
		      unnamed == 1 ? "it" : "them",
		      unnamed == 1 ? "it" : "them");
	if (unread)
		warnf(b,
		      "%zu host%s whose NodeDescription the partial discovery "
		      "did not read left out; discover again, or list %s by "
		      "GUID with --host-names guid",
		      unread, unread == 1 ? "" : "s",
		      unread == 1 ? "it" : "them");
	if (orphans)
		warnf(b, "%zu host%s on no switch left out: '%s'%s", orphans,
		      orphans == 1 ? "" : "s", first_orphan,
		      orphans > 1 ? " and others" : "");
	if (nall)
		qsort(all, nall, sizeof(*all), cmp_hlink);
	s->host = calloc(nall ? nall : 1, sizeof(*s->host));
	if (!s->host) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	/* all[] in runs per host, each in runs per logical switch */
	for (size_t i = 0; i < nall;) {
		size_t j = i, best = i, h = s->nhosts++;
		unsigned best_n = 0;
		struct ibtopo__sched_sw *sw;

		while (j < nall && strcmp(all[j].name, all[i].name) == 0) {
			size_t k = j;

			while (k < nall && all[k].lsw == all[j].lsw &&
			       strcmp(all[k].name, all[j].name) == 0)
				k++;
			if (j == i ||
			    host_prefers(b, s, all[j].lsw, (unsigned)(k - j),
					 all[best].lsw, best_n)) {
				best = j;
				best_n = (unsigned)(k - j);
			}
			j = k;
		}
		b->sanitized += sanitize(all[i].name, s->host[h]);
		sw = &s->sw[all[best].lsw];
		if (!(sw->nhosts & (sw->nhosts + 1)) || !sw->hosts) {
			size_t *g = realloc(sw->hosts,
					    (sw->nhosts + 1) * 2 * sizeof(*g));

			if (!g) {
				rc = IBTOPO_ENOMEM;
				goto out_free;
			}
			sw->hosts = g;
		}
		sw->hosts[sw->nhosts++] = h;
		i = j;
	}
out_free:
	free(all);
	return rc;
}

static int add_kid(struct ibtopo__sched_sw *sw, size_t kid)
{
	if (!(sw->nkids & (sw->nkids + 1)) || !sw->kids) {
		size_t *g = realloc(sw->kids, (sw->nkids + 1) * 2 * sizeof(*g));

		if (!g)
			return IBTOPO_ENOMEM;
		sw->kids = g;
	}
	sw->kids[sw->nkids++] = kid;
	return 0;
}

/* Links between logical switches: the lower one below the higher one. */
static int link_switches(struct build *b, struct ibtopo__sched *s)
{
	struct pair *p = NULL;
	size_t np = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(b->f, i);

		if (!is_switch(node))
			continue;
		for (unsigned k = 1; k <= node->nports; k++) {
			const struct ibtopo_port *port = node->ports[k];
			size_t x = b->lsw[i], y;

			if (!port || !port->remote ||
			    !is_switch(port->remote->node))
				continue;
			y = b->lsw[port->remote->node->index];
			if (x == y || b->lsw_level[y] >= b->lsw_level[x])
				continue;
			if (np == cap) {
				size_t c = cap ? cap * 2 : 256;
				struct pair *g = realloc(p, c * sizeof(*g));

				if (!g) {
					rc = IBTOPO_ENOMEM;
					goto out_free;
				}
				p = g;
				cap = c;
			}
			p[np++] = (struct pair){ x, y };
		}
	}
	if (np)
		qsort(p, np, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < np && !rc; i++)
		if (!i || cmp_pair(&p[i], &p[i - 1]))
			rc = add_kid(&s->sw[p[i].a], p[i].b);
out_free:
	free(p);
	return rc;
}

/* A name no logical switch or host has: base, else base-1, base-2... */
static void free_name(const struct ibtopo__sched *s, const char *base,
		      char out[IBTOPO__SCHED_NAME])
{
	unsigned k = 0;
	bool taken;

	snprintf(out, IBTOPO__SCHED_NAME, "%s", base);
	do {
		taken = false;
		for (size_t i = 0; i < s->nsw && !taken; i++)
			taken = strcmp(s->sw[i].name, out) == 0;
		for (size_t i = 0; i < s->nhosts && !taken; i++)
			taken = strcmp(s->host[i], out) == 0;
		if (taken)
			snprintf(out, IBTOPO__SCHED_NAME, "%.50s-%u", base,
				 ++k);
	} while (taken);
}

static unsigned popcount(const struct build *b, size_t i)
{
	const uint64_t *row = b->bits + i * b->words;
	unsigned c = 0;

	for (size_t k = b->lo[i]; k < b->hi[i]; k++)
		c += (unsigned)__builtin_popcountll(row[k]);
	return c;
}

/* Host `id` below logical switch i. */
static void set_host(struct build *b, size_t i, size_t id)
{
	size_t w = id / 64;

	b->bits[i * b->words + w] |= UINT64_C(1) << (id % 64);
	if (w < b->lo[i])
		b->lo[i] = w;
	if (w + 1 > b->hi[i])
		b->hi[i] = w + 1;
}

/* Everything below logical switch k is below i too. */
static void or_row(struct build *b, size_t i, size_t k)
{
	uint64_t *row = b->bits + i * b->words;
	const uint64_t *kr = b->bits + k * b->words;

	for (size_t w = b->lo[k]; w < b->hi[k]; w++)
		row[w] |= kr[w];
	if (b->lo[k] < b->lo[i])
		b->lo[i] = b->lo[k];
	if (b->hi[k] > b->hi[i])
		b->hi[i] = b->hi[k];
}

/*
 * Lowest level first: what each switch reaches, its switches with
 * nothing below dropped; a switch with both hosts and switches below
 * gets a leaf "<name>-hosts" for its hosts (Slurm takes Nodes= or
 * Switches=, not both). Returns the new order of switches.
 */
static int settle(struct build *b, struct ibtopo__sched *s, size_t *order,
		  size_t nlsw, size_t *cap)
{
	for (size_t r = 0; r < nlsw; r++) {
		size_t i = order[r], keep = 0;
		struct ibtopo__sched_sw *sw = &s->sw[i];

		for (size_t h = 0; h < sw->nhosts; h++)
			set_host(b, i, sw->hosts[h]);
		for (size_t k = 0; k < sw->nkids; k++) {
			if (!s->sw[sw->kids[k]].nbelow)
				continue;
			or_row(b, i, sw->kids[k]);
			sw->kids[keep++] = sw->kids[k];
		}
		sw->nkids = keep;
		sw->nbelow = popcount(b, i);
		if (sw->nhosts && sw->nkids) {
			char base[IBTOPO__SCHED_NAME + 8],
				nm[IBTOPO__SCHED_NAME];
			size_t v = s->nsw;

			snprintf(base, sizeof(base), "%.56s-hosts", sw->name);
			free_name(s, base, nm);
			if (sched_add(s, cap, nm) || add_kid(&s->sw[i], v))
				return IBTOPO_ENOMEM;
			sw = &s->sw[i];
			s->sw[v].hosts = sw->hosts;
			s->sw[v].nhosts = sw->nhosts;
			s->sw[v].nbelow = sw->nhosts;
			sw->hosts = NULL;
			sw->nhosts = 0;
			for (size_t h = 0; h < s->sw[v].nhosts; h++)
				set_host(b, v, s->sw[v].hosts[h]);
		}
	}
	return 0;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Names that clash once mapped: Slurm and Kubernetes would merge them. */
static int check_clashes(const struct ibtopo__sched *s,
			 struct ibtopo_error *err)
{
	size_t n = s->nsw + s->nhosts, nc = 0;
	const char **v = calloc(n ? n : 1, sizeof(*v));
	char list[200] = "";
	int rc = 0;

	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->nsw; i++)
		v[i] = s->sw[i].name;
	for (size_t i = 0; i < s->nhosts; i++)
		v[s->nsw + i] = s->host[i];
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 1; i < n; i++) {
		size_t l = strlen(list);

		if (strcmp(v[i], v[i - 1]) ||
		    (i > 1 && !strcmp(v[i], v[i - 2])))
			continue;
		if (l + strlen(v[i]) + 8 < sizeof(list))
			snprintf(list + l, sizeof(list) - l, "%s'%s'",
				 nc ? ", " : "", v[i]);
		nc++;
	}
	if (nc)
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
				       "%zu names clash once made valid "
				       "scheduler names: %s",
				       nc, list);
	free(v);
	return rc;
}

/* Tiers: 0 for leaves, else one above the highest kid; first parent. */
static void set_tiers(struct ibtopo__sched *s, const size_t *order, size_t n)
{
	s->ntiers = 0;
	for (size_t r = 0; r < n; r++) {
		struct ibtopo__sched_sw *sw = &s->sw[order[r]];

		sw->tier = 0;
		for (size_t k = 0; k < sw->nkids; k++)
			if (s->sw[sw->kids[k]].tier + 1 > sw->tier)
				sw->tier = s->sw[sw->kids[k]].tier + 1;
		if (sw->tier + 1 > s->ntiers)
			s->ntiers = sw->tier + 1;
		for (size_t k = 0; k < sw->nkids; k++) {
			struct ibtopo__sched_sw *kid = &s->sw[sw->kids[k]];

			if (kid->parent == SIZE_MAX ||
			    strcmp(sw->name, s->sw[kid->parent].name) < 0)
				kid->parent = order[r];
		}
	}
}

/* Drop the switches with nothing below; renumber by tier, then order. */
static int compact(struct ibtopo__sched *s)
{
	size_t *map = calloc(s->nsw ? s->nsw : 1, sizeof(*map));
	struct ibtopo__sched_sw *out =
		calloc(s->nsw ? s->nsw : 1, sizeof(*out));
	size_t n = 0;

	if (!map || !out) {
		free(map);
		free(out);
		return IBTOPO_ENOMEM;
	}
	for (unsigned t = 0; t < s->ntiers; t++)
		for (size_t i = 0; i < s->nsw; i++)
			if (s->sw[i].nbelow && s->sw[i].tier == t) {
				map[i] = n;
				out[n++] = s->sw[i];
				s->sw[i].kids = NULL;
				s->sw[i].hosts = NULL;
			}
	for (size_t i = 0; i < s->nsw; i++) {
		free(s->sw[i].kids);
		free(s->sw[i].hosts);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < out[i].nkids; k++)
			out[i].kids[k] = map[out[i].kids[k]];
		if (out[i].parent != SIZE_MAX)
			out[i].parent = map[out[i].parent];
	}
	s->top = map[s->top];
	free(s->sw);
	free(map);
	s->sw = out;
	s->nsw = n;
	return 0;
}

/* The name of a director, scalable unit or group: what its chips' names
 * share, else a name of its kind; another switch's name is not taken. */
static void name_set(struct build *b, struct ibtopo__sched *s, size_t l)
{
	const struct ibtopo_node *node = ibtopo_fabric_node(b->f, b->first[l]);
	char nm[IBTOPO__SCHED_NAME + 16], fb[32];
	bool taken = false;

	if (s->kind == IBTOPO__SCHED_RAILS && b->member_unit[node->index])
		snprintf(fb, sizeof(fb), "su%02zu",
			 b->member_unit[node->index]);
	else if (node->sysimg_guid && node->sysimg_guid != node->guid)
		snprintf(fb, sizeof(fb), "S-%016" PRIx64, node->sysimg_guid);
	else
		snprintf(fb, sizeof(fb), "group%02zu", l + 1);
	common_name(b->raw[node->index], b->pre[l], b->suf[l], fb, nm,
		    sizeof(nm));
	for (size_t i = 0; i < s->nsw && !taken; i++)
		taken = i != l && strcmp(s->sw[i].name, nm) == 0;
	if (taken)
		snprintf(nm, sizeof(nm), "%s", fb);
	b->sanitized += sanitize(nm, s->sw[l].name);
}

static int build_logical(struct build *b, struct ibtopo__sched *s, size_t *cap,
			 size_t *nlsw)
{
	size_t nunits = 0, ngroups, ndirectors = 0;
	int rc;

	rc = join_directors(b, &ndirectors);
	if (rc)
		return rc;
	if (ibtopo_topology_rails(b->topo, NULL) >= 3) {
		nunits = join_units(b);
		s->kind = nunits ? IBTOPO__SCHED_RAILS : s->kind;
	}
	ngroups = ibtopo_topology_groups(b->topo, NULL);
	if (!nunits && ngroups >= 2) {
		join_groups(b);
		s->kind = IBTOPO__SCHED_DRAGONFLY;
	}
	snprintf(s->rule, sizeof(s->rule), "%s",
		 s->kind == IBTOPO__SCHED_RAILS ?
			 "rail-optimized: one leaf per scalable unit, its rail "
			 "leaves" :
		 s->kind == IBTOPO__SCHED_DRAGONFLY ?
			 "Dragonfly+: one leaf per group, a top above" :
			 "tree: switches by analysis level");
	if (ndirectors) {
		size_t l = strlen(s->rule);

		snprintf(s->rule + l, sizeof(s->rule) - l,
			 "; %zu directors, each one switch", ndirectors);
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(b->f, i);
		size_t root, l;
		unsigned lv;

		if (!is_switch(node))
			continue;
		root = uf_find(b->uf, i);
		lv = b->level[i] > 0 ? (unsigned)b->level[i] : 1;
		if (root != i) {
			l = b->lsw[root];
			b->lsw[i] = l;
			if (lv < b->lsw_level[l])
				b->lsw_level[l] = lv;
			shared_ends(b->raw[root], strlen(b->raw[root]),
				    b->raw[i], &b->pre[l], &b->suf[l]);
			b->members[l]++;
			continue;
		}
		l = (*nlsw)++;
		b->lsw[i] = l;
		b->lsw_level[l] = lv;
		b->first[l] = i;
		b->pre[l] = b->suf[l] = strlen(b->raw[i]);
		b->members[l] = 1;
		rc = sched_add(s, cap, b->raw[i]);
		if (rc)
			return rc;
	}
	for (size_t l = 0; l < *nlsw; l++)
		if (b->members[l] > 1)
			name_set(b, s, l);
	for (size_t l = 0; l < *nlsw; l++)
		if (b->members[l] == 1)
			b->sanitized +=
				sanitize(b->raw[b->first[l]], s->sw[l].name);
	return 0;
}

/*
 * A logical "top" over the roots unless a root of the highest tier
 * reaches every host: a job spanning the fabric then has one switch, and
 * the top level reaches every server.
 */
static int add_top(struct ibtopo__sched *s, size_t *cap)
{
	size_t root = SIZE_MAX, t;
	unsigned high = 0;
	char nm[IBTOPO__SCHED_NAME];

	for (size_t i = 0; i < s->nsw; i++)
		if (s->sw[i].nbelow && s->sw[i].parent == SIZE_MAX &&
		    s->sw[i].tier >= high)
			high = s->sw[i].tier;
	for (size_t i = 0; i < s->nsw && root == SIZE_MAX; i++)
		if (s->sw[i].nbelow == s->nhosts && s->sw[i].tier == high &&
		    s->sw[i].parent == SIZE_MAX)
			root = i;
	if (root != SIZE_MAX) {
		s->top = root;
		return 0;
	}
	free_name(s, "top", nm);
	if (sched_add(s, cap, nm))
		return IBTOPO_ENOMEM;
	t = s->nsw - 1;
	for (size_t i = 0; i < t; i++)
		if (s->sw[i].nbelow && s->sw[i].parent == SIZE_MAX) {
			if (add_kid(&s->sw[t], i))
				return IBTOPO_ENOMEM;
			s->sw[i].parent = t;
			if (s->sw[i].tier + 1 > s->sw[t].tier)
				s->sw[t].tier = s->sw[i].tier + 1;
		}
	s->sw[t].nbelow = s->nhosts;
	if (s->sw[t].tier + 1 > s->ntiers)
		s->ntiers = s->sw[t].tier + 1;
	s->top = t;
	return 0;
}

/* The logical switches by level, then in fabric order, into order[]. */
static int sort_levels(const struct build *b, size_t *order, size_t nlsw)
{
	struct pair *p = calloc(nlsw ? nlsw : 1, sizeof(*p));

	if (!p)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < nlsw; i++)
		p[i] = (struct pair){ b->lsw_level[i], i };
	if (nlsw)
		qsort(p, nlsw, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < nlsw; i++)
		order[i] = p[i].b;
	free(p);
	return 0;
}

static int build_alloc(struct build *b)
{
	size_t a = b->n ? b->n : 1;

	b->uf = calloc(a, sizeof(*b->uf));
	b->level = calloc(a, sizeof(*b->level));
	b->lsw = calloc(a, sizeof(*b->lsw));
	b->lsw_level = calloc(a, sizeof(*b->lsw_level));
	b->first = calloc(a, sizeof(*b->first));
	b->raw = calloc(a, sizeof(*b->raw));
	b->member_unit = calloc(a, sizeof(*b->member_unit));
	b->pre = calloc(a, sizeof(*b->pre));
	b->suf = calloc(a, sizeof(*b->suf));
	b->members = calloc(a, sizeof(*b->members));
	if (!b->uf || !b->level || !b->lsw || !b->lsw_level || !b->first ||
	    !b->raw || !b->member_unit || !b->pre || !b->suf || !b->members)
		return IBTOPO_ENOMEM;
	return 0;
}

static void build_release(struct build *b)
{
	free(b->hi);
	free(b->lo);
	free(b->bits);
	free(b->members);
	free(b->suf);
	free(b->pre);
	free(b->member_unit);
	free(b->raw);
	free(b->first);
	free(b->lsw_level);
	free(b->lsw);
	free(b->level);
	free(b->uf);
}

/* Chips of one director: they may share a name */
static bool same_chassis(const struct ibtopo_node *a,
			 const struct ibtopo_node *b)
{
	return is_switch(a) && is_switch(b) && a->sysimg_guid &&
	       a->sysimg_guid == b->sysimg_guid;
}

struct name_ref {
	const char *name;
	size_t index;
};

static int cmp_name_ref(const void *x, const void *y)
{
	const struct name_ref *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

/*
 * Switches named like another node get "S-<guid>" (Slurm would merge
 * them), unless the others are chips of the same director: runs of
 * equal names, sorted.
 */
static int unique_switch_names(struct build *b)
{
	struct name_ref *r = calloc(b->n ? b->n : 1, sizeof(*r));

	if (!r)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < b->n; i++)
		r[i] = (struct name_ref){ b->raw[i], i };
	if (b->n)
		qsort(r, b->n, sizeof(*r), cmp_name_ref);
	for (size_t i = 0; i < b->n;) {
		size_t j = i + 1;
		bool one_chassis = true;

		while (j < b->n && !strcmp(r[j].name, r[i].name))
			j++;
		for (size_t k = i + 1; k < j; k++)
			one_chassis &= same_chassis(
				ibtopo_fabric_node(b->f, r[i].index),
				ibtopo_fabric_node(b->f, r[k].index));
		for (size_t k = i; j > i + 1 && !one_chassis && k < j; k++) {
			const struct ibtopo_node *node =
				ibtopo_fabric_node(b->f, r[k].index);

			if (is_switch(node))
				snprintf(b->raw[node->index],
					 sizeof(b->raw[node->index]),
					 "S-%016" PRIx64, node->guid);
		}
		i = j;
	}
	free(r);
	return 0;
}

int ibtopo__sched_build(struct ibtopo__sched *s, struct ibtopo_analysis *an,
			const struct ibtopo_export_opts *xopts,
			struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = ibtopo_analysis_fabric(an);
	struct build b = { .f = f,
			   .x = xopts,
			   .n = ibtopo_fabric_node_count(f) };
	size_t cap = 0, nlsw = 0, *order = NULL;
	int rc;

	memset(s, 0, sizeof(*s));
	s->x = xopts;
	ibtopo_metrics_fabric_name(s->fabric, sizeof(s->fabric), f);
	rc = ibtopo_analysis_topology(an, &b.topo, err);
	if (!rc && !b.topo)
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
				       "the scheduler formats need the "
				       "topology analysis (its levels)");
	if (rc)
		goto out_release;
	rc = build_alloc(&b);
	if (rc)
		goto out_nomem;
	for (size_t i = 0; i < b.n; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(f, i);

		b.uf[i] = i;
		if (is_switch(node)) {
			ibtopo_node_name(b.raw[i], sizeof(b.raw[i]), node);
			b.level[i] = ibtopo_topology_node_level(b.topo, node);
		} else {
			ibtopo_node_name(b.raw[i], sizeof(b.raw[i]), node);
		}
	}
	rc = unique_switch_names(&b);
	if (!rc)
		rc = build_logical(&b, s, &cap, &nlsw);
	if (!rc)
		rc = place_hosts(&b, s);
	if (!rc)
		rc = link_switches(&b, s);
	if (rc)
		goto out_nomem;
	if (!s->nhosts) {
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
				       "no server to list: the fabric has no "
				       "named host on a switch");
		goto out_release;
	}
	/* room for a "-hosts" leaf per switch */
	b.words = (s->nhosts + 63) / 64;
	b.bits = calloc((2 * nlsw + 2) * b.words, sizeof(*b.bits));
	b.lo = calloc(2 * nlsw + 2, sizeof(*b.lo));
	b.hi = calloc(2 * nlsw + 2, sizeof(*b.hi));
	order = calloc(2 * nlsw + 2, sizeof(*order));
	if (!b.bits || !b.lo || !b.hi || !order)
		goto out_nomem;
	for (size_t i = 0; i < 2 * nlsw + 2; i++)
		b.lo[i] = b.words; /* empty: lo >= hi */
	rc = sort_levels(&b, order, nlsw);
	if (!rc)
		rc = settle(&b, s, order, nlsw, &cap);
	if (rc)
		goto out_nomem;
	/* the "-hosts" leaves go first: they are below their switch */
	memmove(order + (s->nsw - nlsw), order, nlsw * sizeof(*order));
	for (size_t i = nlsw; i < s->nsw; i++)
		order[i - nlsw] = i;
	set_tiers(s, order, s->nsw);
	rc = add_top(s, &cap);
	if (!rc)
		rc = compact(s);
	if (rc)
		goto out_nomem;
	if (b.sanitized)
		warnf(&b,
		      "%u names changed to at most 64 characters of "
		      "[A-Za-z0-9._-]",
		      b.sanitized);
	rc = check_clashes(s, err);
	goto out_release;
out_nomem:
	rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
out_release:
	free(order);
	build_release(&b);
	return rc;
}

void ibtopo__sched_release(struct ibtopo__sched *s)
{
	for (size_t i = 0; s->sw && i < s->nsw; i++) {
		free(s->sw[i].kids);
		free(s->sw[i].hosts);
	}
	free(s->sw);
	free(s->host);
	memset(s, 0, sizeof(*s));
}

int ibtopo__sched_write(const struct ibtopo_sink *sink,
			struct ibtopo_analysis *an,
			const struct ibtopo_export_opts *xopts,
			const char *format, const char *title,
			ibtopo__sched_body *body, struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = ibtopo_analysis_fabric(an);
	struct ibtopo__wr wr = { sink, 0 };
	struct ibtopo__sched s;
	int rc = ibtopo__sched_build(&s, an, xopts, err);

	if (!rc) {
		sched_header(&wr, &s, f, title);
		rc = body(&wr, &s, err);
		if (!rc)
			rc = ibtopo__wr_done(&wr, format, err);
	}
	ibtopo__sched_release(&s);
	return rc;
}
