/*
 * diagram_html.c - a fabric diagram as one self-contained HTML page: the
 * SVG graphviz draws of the scene, inline; the scene's data as JSON (what
 * each drawn node and edge is: ports, rates, cables, members, findings;
 * a search index of every node's name, description, GUID and LID); the
 * findings as a table; a small script of our own (html_assets.h) for pan,
 * zoom, search and details. Nothing is fetched: no network, no CDN.
 *
 * Sizes stay bounded on big fabrics: ports are listed for nodes drawn
 * alone, a group lists its members up to GROUP_MEMBERS_MAX, an edge its
 * cables up to EDGE_LINKS_MAX, the table the worst FINDINGS_MAX findings;
 * the index has one short row per node (101,306 hosts: about 3 MB).
 */
#include "diagram/diagram-int.h"
#include "html_assets.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GROUP_MEMBERS_MAX 100
#define EDGE_LINKS_MAX 32
#define FINDINGS_MAX 500

/* ---- writing ---- */

/*
 * The inside of a JSON string. "</" is written "<\/" and non-ASCII stays
 * UTF-8: the text sits in a <script> element, which only "</script"
 * would end.
 */
static void put_js_raw(struct ibtopo__wr *w, const char *s)
{
	const char *p = s ? s : "";
	char esc[8];

	for (s = p; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 0x20 && ch != '"' && ch != '\\' &&
		    !(ch == '/' && s > p && s[-1] == '<'))
			continue;
		ibtopo__wr_write(w, p, (size_t)(s - p));
		if (ch == '"' || ch == '\\' || ch == '/')
			snprintf(esc, sizeof(esc), "\\%c", ch);
		else if (ch == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else
			snprintf(esc, sizeof(esc), "\\u%04x", ch);
		ibtopo__wr_puts(w, esc);
		p = s + 1;
	}
	ibtopo__wr_puts(w, p);
}

/* A JSON string. */
static void put_js(struct ibtopo__wr *w, const char *s)
{
	ibtopo__wr_puts(w, "\"");
	put_js_raw(w, s);
	ibtopo__wr_puts(w, "\"");
}

/* ,"key":"value" in a JSON object. */
static void put_member(struct ibtopo__wr *w, const char *key, const char *value)
{
	ibtopo__wr_printf(w, ",\"%s\":", key);
	put_js(w, value);
}

/* A JSON array of n strings. */
static void put_js_row(struct ibtopo__wr *w, const char *const *v, size_t n)
{
	ibtopo__wr_puts(w, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			ibtopo__wr_puts(w, ",");
		put_js(w, v[i]);
	}
	ibtopo__wr_puts(w, "]");
}

/* ---- what the JSON says ---- */

static const char *kind_name(const struct scene *c, const struct dnode *d)
{
	switch (d->kind) {
	case DN_SWITCH:
		return "switch";
	case DN_HOST:
		return d->type == IBTOPO_NODE_ROUTER ? "router" : "host";
	case DN_GROUP:
	case DN_BLOCK:
		return "hosts on the same switches";
	case DN_GHOST:
		return "absent (named by a finding)";
	case DN_SWGROUP:
		return c->sg[d->group].sysimg ? "director" : "switches alike";
	}
	return "";
}

static void rate_text(unsigned speed, unsigned width, char *buf, size_t len)
{
	if (!speed)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s%s",
			 width ? ibtopo_width_name(width) : "",
			 ibtopo_speed_name(speed));
}

static void cable_text(const struct ibtopo_link *l, char *buf, size_t len)
{
	const struct ibtopo_cable *k = l ? l->cable : NULL;
	size_t n = 0;

	buf[0] = '\0';
	if (!k)
		return;
	if (k->media)
		n += (size_t)snprintf(buf + n, len - n, "%s ",
				      ibtopo_media_name(k->media));
	if (k->length_m > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%.1f m ", k->length_m);
	if (k->vendor && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s ", k->vendor);
	if (k->part_number && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s ", k->part_number);
	if (k->serial && n < len)
		n += (size_t)snprintf(buf + n, len - n, "SN %s", k->serial);
	while (n && n < len && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

/*
 * The drawn node a fabric node is in: itself, its block, its group
 * (grp_dn: the drawn node of each group of the overview, or NULL).
 */
static size_t drawn_of(const struct scene *c, const size_t *grp_dn, size_t i)
{
	if (c->dn_of[i] != NONE)
		return c->dn_of[i];
	if (grp_dn && c->host_grp && c->host_grp[i] != NONE)
		return grp_dn[c->host_grp[i]];
	return NONE;
}

/*
 * The drawn edge a cable is in: its ends' drawn nodes, upper first as
 * add_edge() puts them, and in the edge the merge made for its kind.
 * c->de is sorted by its ends: a binary search finds the first.
 */
static const struct dedge *edge_of(const struct scene *c,
				   const struct ibtopo_link *l)
{
	size_t u = c->dn_of[l->a->node->index], v = c->dn_of[l->b->node->index];
	size_t lo = 0, hi = c->nde;
	const struct dedge *best = NULL;
	enum cat k = (enum cat)c->lcat[l->index];

	if (u == NONE || v == NONE)
		return NULL;
	if (c->dn[v].level > c->dn[u].level ||
	    (c->dn[v].level == c->dn[u].level && v < u)) {
		size_t t = u;

		u = v;
		v = t;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct dedge *e = &c->de[mid];

		if (e->u < u || (e->u == u && e->v < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < c->nde; i++) {
		const struct dedge *e = &c->de[i];

		if (e->u != u || e->v != v)
			break;
		if (c->groups)
			return e;
		if (e->cat == k && e->speed == l->speed &&
		    e->width == l->width &&
		    (!e->host || e->host == l->a->node ||
		     e->host == l->b->node))
			return e;
		if (!best)
			best = e;
	}
	return best;
}

/* Edges in the order of c->de, each cable's index by edge (CSR). */
struct links_of {
	size_t *off; /* nde + 1 */
	size_t *link;
};

static int edge_links(const struct scene *c, struct links_of *x)
{
	size_t *fill;

	x->off = calloc(c->nde + 2, sizeof(*x->off));
	x->link = calloc(c->nl + 1, sizeof(*x->link));
	fill = calloc(c->nde + 1, sizeof(*fill));
	if (!x->off || !x->link || !fill) {
		free(fill);
		return IBTOPO_ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < c->nl; i++) {
			const struct dedge *e =
				edge_of(c, ibtopo_fabric_link(c->f, i));
			size_t k;

			if (!e)
				continue;
			k = (size_t)(e - c->de);
			if (!pass)
				x->off[k + 1]++;
			else
				x->link[x->off[k] + fill[k]++] = i;
		}
		if (!pass)
			for (size_t k = 0; k < c->nde; k++)
				x->off[k + 1] += x->off[k];
	}
	free(fill);
	return 0;
}

/* An edge's id in the SVG (see c->edge_ids) and the JSON. */
static void edge_key(const struct scene *c, const struct dedge *e, char *buf,
		     size_t len)
{
	snprintf(buf, len, "e%zu", (size_t)(e - c->de));
}

/* Which findings go in the table: errors first, at most FINDINGS_MAX. */
static size_t *table_findings(const struct ibtopo_findings *fs, size_t *n)
{
	size_t *v = calloc(fs && fs->count ? fs->count : 1, sizeof(*v));

	*n = 0;
	if (!v || !fs)
		return v;
	for (int sev = IBTOPO_SEV_ERROR; sev >= 0 && *n < FINDINGS_MAX; sev--)
		for (size_t i = 0; i < fs->count && *n < FINDINGS_MAX; i++)
			if ((int)fs->items[i].severity == sev)
				v[(*n)++] = i;
	return v;
}

/* Port histories by (node GUID, port), for the links' "hist". */
struct hist_key {
	uint64_t guid;
	unsigned port;
	size_t i;
};

struct ctx {
	struct ibtopo__wr *w;
	const struct scene *c;
	struct links_of lk;
	size_t *tab; /* findings in the table, by their index */
	size_t ntab;
	size_t *fnode;		    /* per table row: its drawn node or NONE */
	const struct dedge **fedge; /* per table row: its edge or NULL */
	size_t *grp_dn;		    /* the overview: each group's drawn node */
	const char *names[GROUP_MEMBERS_MAX];
	struct hist_key *hk; /* d->history by port, sorted; NULL: none */
};

static int cmp_name(const void *x, const void *y)
{
	return ibtopo__diagram_natcmp(*(const char *const *)x,
				      *(const char *const *)y);
}

static void write_findings_of(struct ctx *x, size_t dn, const struct dedge *e)
{
	bool first = true;

	ibtopo__wr_puts(x->w, ",\"findings\":[");
	for (size_t r = 0; r < x->ntab; r++) {
		if ((e && x->fedge[r] != e) || (!e && x->fnode[r] != dn))
			continue;
		ibtopo__wr_printf(x->w, "%s%zu", first ? "" : ",", r);
		first = false;
	}
	ibtopo__wr_puts(x->w, "]");
}

static void write_ports(struct ctx *x, const struct ibtopo_node *n)
{
	const struct scene *c = x->c;
	char rate[32], to[300], cable[200], num[16], lid[16];

	ibtopo__wr_puts(x->w, ",\"ports\":[");
	for (unsigned p = 0, k = 0; p <= n->nports; p++) {
		const struct ibtopo_port *pp = n->ports[p];

		if (!pp || (!pp->remote && p))
			continue;
		rate_text(pp->speed_active, pp->width_active, rate,
			  sizeof(rate));
		to[0] = '\0';
		if (pp->remote)
			snprintf(to, sizeof(to), "%s [%u]",
				 c->label[pp->remote->node->index],
				 pp->remote->num);
		cable_text(pp->link, cable, sizeof(cable));
		snprintf(num, sizeof(num), "%u", p);
		snprintf(lid, sizeof(lid), "%u", pp->lid);
		ibtopo__wr_puts(x->w, k++ ? "," : "");
		put_js_row(x->w,
			   (const char *[]){ num, pp->lid ? lid : "", rate, to,
					     cable },
			   5);
	}
	ibtopo__wr_puts(x->w, "]");
}

static unsigned node_lid(const struct ibtopo_node *n)
{
	for (unsigned p = 0; p <= n->nports; p++)
		if (n->ports[p] && n->ports[p]->lid)
			return n->ports[p]->lid;
	return 0;
}

static void write_nodes(struct ctx *x)
{
	const struct scene *c = x->c;
	char id[40], buf[64];

	ibtopo__wr_puts(x->w, "\"nodes\":{");
	for (size_t i = 0; i < c->ndn; i++) {
		const struct dnode *d = &c->dn[i];

		ibtopo__diagram_dnode_id(c, i, id, sizeof(id));
		ibtopo__wr_puts(x->w, i ? ",\n" : "\n");
		put_js(x->w, id);
		ibtopo__wr_puts(x->w, ":{\"label\":");
		put_js(x->w, d->label);
		put_member(x->w, "kind", kind_name(c, d));
		if (d->marks & (MARK_FAILED | MARK_JOB))
			put_member(x->w, "mark",
				   d->marks & MARK_FAILED ? "fails (whatif)" :
							    "the job's host");
		if (d->node) {
			put_member(x->w, "desc", d->node->desc);
			snprintf(buf, sizeof(buf), "0x%016" PRIx64,
				 d->node->guid);
			put_member(x->w, "guid", buf);
			if (node_lid(d->node))
				ibtopo__wr_printf(x->w, ",\"lid\":%u",
						  node_lid(d->node));
			write_ports(x, d->node);
		}
		if (d->kind == DN_GROUP || d->kind == DN_BLOCK)
			ibtopo__wr_printf(x->w, ",\"hosts\":%zu", d->nhosts);
		if (d->kind == DN_SWGROUP) {
			const struct sgroup *s = &c->sg[d->group];
			size_t k = 0;

			if (s->sysimg) {
				snprintf(buf, sizeof(buf), "0x%016" PRIx64,
					 s->sysimg);
				put_member(x->w, "guid", buf);
			}
			ibtopo__wr_printf(x->w, ",\"hosts\":%zu,\"members\":[",
					  s->hosts);
			for (size_t m = 0; m < c->nn && k < GROUP_MEMBERS_MAX;
			     m++)
				if (c->grp[m] == d->group)
					x->names[k++] = c->label[m];
			qsort(x->names, k, sizeof(*x->names), cmp_name);
			for (size_t m = 0; m < k; m++) {
				ibtopo__wr_puts(x->w, m ? "," : "");
				put_js(x->w, x->names[m]);
			}
			ibtopo__wr_puts(x->w, "]");
			if (s->n > k)
				ibtopo__wr_printf(x->w, ",\"more\":%zu",
						  s->n - k);
		}
		write_findings_of(x, i, NULL);
		ibtopo__wr_puts(x->w, "}");
	}
	ibtopo__wr_puts(x->w, "}");
}

/* Heat map: the routes leaving through port p; a CA's are in no table. */
static void put_routes(struct ibtopo__wr *w, const struct ibtopo_port *p,
		       uint64_t n)
{
	if (p->node->type == IBTOPO_NODE_SWITCH)
		ibtopo__wr_printf(w, ",%" PRIu64, n);
	else
		ibtopo__wr_puts(w, ",\"?\"");
}

static int cmp_hist_key(const void *p, const void *q)
{
	const struct hist_key *a = p, *b = q;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->port < b->port ? -1 : a->port > b->port;
}

/* The history of a link's end, its index in d->history; NONE. */
static size_t hist_of(const struct ctx *x, const struct ibtopo_port *p)
{
	struct hist_key k = { p->node->guid, p->num, 0 }, *hit;

	if (!x->hk)
		return NONE;
	hit = bsearch(&k, x->hk, x->c->d->nhistory, sizeof(k), cmp_hist_key);
	return hit ? hit->i : NONE;
}

/* "hist":[i, ...]: the histories of the shown links' ends. */
static void put_hists(struct ctx *x, size_t s, size_t shown)
{
	bool any = false;

	for (size_t k = 0; x->hk && k < shown; k++) {
		const struct ibtopo_link *l =
			ibtopo_fabric_link(x->c->f, x->lk.link[s + k]);
		size_t h[2] = { hist_of(x, l->a), hist_of(x, l->b) };

		for (int j = 0; j < 2; j++) {
			if (h[j] == NONE)
				continue;
			ibtopo__wr_printf(x->w, "%s%zu",
					  any ? "," : ",\"hist\":[", h[j]);
			any = true;
		}
	}
	if (any)
		ibtopo__wr_puts(x->w, "]");
}

/* A number of a chart, or null. */
static void put_point(struct ibtopo__wr *w, bool set, double v, bool first)
{
	if (!first)
		ibtopo__wr_puts(w, ",");
	if (set)
		ibtopo__wr_printf(w, "%.6g", v);
	else
		ibtopo__wr_puts(w, "null");
}

/*
 * "history":[{"name","t":[s],"err":[error counters' growth],"ber":[],
 * "bnd":[BER bound when none grew],"gbps":[sent]}]: the charts' data.
 */
static void write_history(struct ctx *x)
{
	const struct ibtopo_diagram_opts *d = x->c->d;
	char name[300];

	ibtopo__wr_puts(x->w, ",\n\"history\":[");
	for (size_t i = 0; i < d->nhistory; i++) {
		const struct ibtopo_port_history *h = d->history[i];

		snprintf(name, sizeof(name), "%s [%u]", h->node, h->port);
		ibtopo__wr_puts(x->w, i ? ",\n{\"name\":" : "\n{\"name\":");
		put_js(x->w, name);
		for (int series = 0; series < 5; series++) {
			static const char *const key[] = { "t", "err", "ber",
							   "bnd", "gbps" };

			ibtopo__wr_printf(x->w, ",\"%s\":[", key[series]);
			for (size_t k = 0; k < h->count; k++) {
				const struct ibtopo_health_port *c =
					&h->rows[k].change;
				bool grew = c->now && c->before;
				double err = 0, s = c->hours * 3600;

				for (int j = 0;
				     grew && j <= IBTOPO_CTR_VL15_DROPPED; j++)
					err += (double)c->growth[j];
				switch (series) {
				case 0: /* the reading's time, else the snapshot's */
					ibtopo__wr_printf(
						x->w, "%s%lld", k ? "," : "",
						c->now && c->now->read_at_ms ?
							(long long)(c->now->read_at_ms /
								    1000) :
							(long long)h->rows[k]
								.reading
								->taken_at);
					break;
				case 1:
					put_point(x->w, grew, err, !k);
					break;
				case 2:
					put_point(x->w, c->ber > 0, c->ber, !k);
					break;
				case 3:
					put_point(x->w, c->ber_bound > 0,
						  c->ber_bound, !k);
					break;
				default:
					put_point(
						x->w,
						grew && s > 0 &&
							(c->now->valid &
							 c->before->valid &
							 (1u
							  << IBTOPO_CTR_XMIT_DATA)),
						(double)c->growth[IBTOPO_CTR_XMIT_DATA] *
							32 / s / 1e9,
						!k);
				}
			}
			ibtopo__wr_puts(x->w, "]");
		}
		ibtopo__wr_puts(x->w, "}");
	}
	ibtopo__wr_puts(x->w, "]");
}

static void write_edges(struct ctx *x)
{
	const struct scene *c = x->c;
	char key[120], rate[32], cable[200], a[300], b[300], bw[32];

	ibtopo__wr_puts(x->w, ",\n\"edges\":{");
	for (size_t i = 0; i < c->nde; i++) {
		const struct dedge *e = &c->de[i];
		size_t s = x->lk.off[i], n = x->lk.off[i + 1] - s, shown;

		edge_key(c, e, key, sizeof(key));
		ibtopo__wr_puts(x->w, i ? ",\n" : "\n");
		put_js(x->w, key);
		snprintf(a, sizeof(a), "%s \xe2\x80\x94 %s", c->dn[e->u].label,
			 c->dn[e->v].label);
		for (char *p = a; *p; p++)
			if (*p == '\n')
				*p = ' ';
		ibtopo__wr_puts(x->w, ":{\"ends\":");
		put_js(x->w, a);
		rate_text(e->speed, e->width, rate, sizeof(rate));
		if (e->gbps >= 1000)
			snprintf(bw, sizeof(bw), "%.1f Tb/s", e->gbps / 1000);
		else
			snprintf(bw, sizeof(bw), "%.0f Gb/s", e->gbps);
		ibtopo__wr_printf(x->w, ",\"count\":%zu,\"bw\":", e->count);
		put_js(x->w, bw);
		put_member(x->w, "rate", rate);
		put_member(x->w, "cat",
			   e->cat == CAT_OK ? "" :
					      ibtopo__diagram_cat_name(e->cat));
		ibtopo__wr_puts(x->w, ",\"links\":[");
		shown = n < EDGE_LINKS_MAX ? n : EDGE_LINKS_MAX;
		for (size_t k = 0; k < shown; k++) {
			const struct ibtopo_link *l =
				ibtopo_fabric_link(c->f, x->lk.link[s + k]);

			snprintf(a, sizeof(a), "%s [%u]",
				 c->label[l->a->node->index], l->a->num);
			snprintf(b, sizeof(b), "%s [%u]",
				 c->label[l->b->node->index], l->b->num);
			rate_text(l->speed, l->width, rate, sizeof(rate));
			cable_text(l, cable, sizeof(cable));
			ibtopo__wr_puts(x->w, k ? ",[" : "[");
			put_js(x->w, a);
			ibtopo__wr_puts(x->w, ",");
			put_js(x->w, b);
			ibtopo__wr_puts(x->w, ",");
			put_js(x->w, rate);
			ibtopo__wr_puts(x->w, ",");
			put_js(x->w, cable);
			/* heat map: routes from -> to, to -> from */
			if (c->lroutes) {
				put_routes(x->w, l->a,
					   c->lroutes[2 * l->index]);
				put_routes(x->w, l->b,
					   c->lroutes[2 * l->index + 1]);
			}
			ibtopo__wr_puts(x->w, "]");
		}
		ibtopo__wr_puts(x->w, "]");
		if (c->lroutes && !ibtopo__diagram_is_ghost_cat(e->cat)) {
			ibtopo__wr_printf(x->w,
					  ",\"routes\":{\"down\":%" PRIu64
					  ",\"up\":",
					  e->routes_down);
			/* hosts send up through no table of theirs */
			if (c->dn[e->v].kind == DN_HOST ||
			    c->dn[e->v].kind == DN_GROUP ||
			    c->dn[e->v].kind == DN_BLOCK)
				ibtopo__wr_puts(x->w, "\"?\"");
			else
				ibtopo__wr_printf(x->w, "%" PRIu64,
						  e->routes_up);
			ibtopo__wr_printf(x->w, ",\"busiest\":%" PRIu64 "}",
					  e->heat);
		}
		if (n > shown)
			ibtopo__wr_printf(x->w, ",\"more\":%zu", n - shown);
		put_hists(x, s, shown);
		write_findings_of(x, NONE, e);
		ibtopo__wr_puts(x->w, "}");
	}
	ibtopo__wr_puts(x->w, "}");
}

/* A string of the index: "\n" between rows, none inside them. */
static void put_row(struct ibtopo__wr *w, const char *s, bool first)
{
	char buf[320];

	snprintf(buf, sizeof(buf), "%s%s", first ? "" : "\n", s);
	for (char *p = buf + !first; *p; p++)
		if (*p == '\n')
			*p = ' ';
	put_js_raw(w, buf);
}

/*
 * The search index, by columns (one row per node drawn or folded into
 * what is drawn): names, descriptions where they say more, GUIDs in hex
 * (no 0x, no leading zeros), LIDs, and runs [first row, rows, drawn node]
 * of where each row is drawn. 101,306 hosts take about 3 MB.
 */
static void write_index(struct ctx *x)
{
	const struct scene *c = x->c;
	char id[40], guid[20];
	size_t *rows = calloc(c->nn + 1, sizeof(*rows)), n = 0;

	if (!rows) {
		x->w->rc = IBTOPO_ENOMEM;
		return;
	}
	for (size_t i = 0; i < c->nn; i++)
		if (c->visible[i] && !c->hidden[i] &&
		    drawn_of(c, x->grp_dn, i) != NONE)
			rows[n++] = i;
	ibtopo__wr_puts(x->w, ",\n\"ids\":[");
	for (size_t i = 0; i < c->ndn; i++) {
		ibtopo__diagram_dnode_id(c, i, id, sizeof(id));
		ibtopo__wr_puts(x->w, i ? "," : "");
		put_js(x->w, id);
	}
	ibtopo__wr_puts(x->w, "],\n\"index\":{\"name\":\"");
	for (size_t r = 0; r < n; r++)
		put_row(x->w, c->label[rows[r]], !r);
	ibtopo__wr_puts(x->w, "\",\n\"desc\":\"");
	for (size_t r = 0; r < n; r++) {
		const char *d = ibtopo_fabric_node(c->f, rows[r])->desc;

		put_row(x->w, strcmp(d, c->label[rows[r]]) ? d : "", !r);
	}
	ibtopo__wr_puts(x->w, "\",\n\"guid\":\"");
	for (size_t r = 0; r < n; r++) {
		snprintf(guid, sizeof(guid), "%" PRIx64,
			 ibtopo_fabric_node(c->f, rows[r])->guid);
		put_row(x->w, guid, !r);
	}
	ibtopo__wr_puts(x->w, "\",\n\"lid\":[");
	for (size_t r = 0; r < n; r++)
		ibtopo__wr_printf(x->w, "%s%u", r ? "," : "",
				  node_lid(ibtopo_fabric_node(c->f, rows[r])));
	ibtopo__wr_puts(x->w, "],\n\"to\":[");
	for (size_t s = 0, e; s < n; s = e) {
		size_t d = drawn_of(c, x->grp_dn, rows[s]);

		for (e = s + 1; e < n && drawn_of(c, x->grp_dn, rows[e]) == d;
		     e++)
			;
		ibtopo__wr_printf(x->w, "%s[%zu,%zu,%zu]", s ? "," : "", s,
				  e - s, d);
	}
	ibtopo__wr_puts(x->w, "]}");
	free(rows);
}

/* Each table row's edge (its first link) or node. */
static int place_findings(struct ctx *x)
{
	const struct scene *c = x->c;
	const struct ibtopo_findings *fs = c->d->findings;

	x->fnode = calloc(x->ntab + 1, sizeof(*x->fnode));
	x->fedge = calloc(x->ntab + 1, sizeof(*x->fedge));
	if (!x->fnode || !x->fedge)
		return IBTOPO_ENOMEM;
	for (size_t r = 0; r < x->ntab; r++) {
		const struct ibtopo_finding *f = &fs->items[x->tab[r]];
		struct flink fl[4];
		size_t n = ibtopo__diagram_finding_links(f, fl);
		const struct ibtopo_node *node;

		x->fnode[r] = NONE;
		for (size_t k = 0; k < n && !x->fedge[r]; k++) {
			const struct ibtopo_link *l = ibtopo__diagram_find_link(
				c->f, fl[k].x, fl[k].y);

			if (l)
				x->fedge[r] = edge_of(c, l);
		}
		if (x->fedge[r])
			continue;
		node = f->a.guid ? ibtopo_fabric_find_node(c->f, f->a.guid) :
				   NULL;
		if (node && c->visible[node->index] && !c->hidden[node->index])
			x->fnode[r] = drawn_of(c, x->grp_dn, node->index);
	}
	return 0;
}

/* A finding's sentence, after the name of the node it is about. */
static void finding_text(const struct scene *c, const struct ibtopo_finding *f,
			 char *buf, size_t len)
{
	const struct ibtopo_node *n =
		f->a.guid ? ibtopo_fabric_find_node(c->f, f->a.guid) : NULL;
	const char *name = n ? c->label[n->index] : f->a.node;
	size_t k = 0;

	/* the port too: the row names where to go */
	if (name && *name && f->a.port >= 0)
		k = (size_t)snprintf(buf, len, "%s [%d]: ", name, f->a.port);
	else if (name && *name)
		k = (size_t)snprintf(buf, len, "%s: ", name);
	if (k >= len || ibtopo__finding_sentence(buf + k, len - k, f, NULL) < 0)
		buf[k < len ? k : 0] = '\0';
}

static void write_data(struct ctx *x)
{
	const struct ibtopo_findings *fs = x->c->d->findings;
	char key[120], id[40], text[600];

	ibtopo__wr_puts(x->w, "{");
	write_nodes(x);
	write_edges(x);
	write_index(x);
	if (x->c->d->nhistory)
		write_history(x);
	ibtopo__wr_puts(x->w, ",\n\"findings\":[");
	for (size_t r = 0; r < x->ntab; r++) {
		const struct ibtopo_finding *f = &fs->items[x->tab[r]];

		finding_text(x->c, f, text, sizeof(text));
		ibtopo__wr_puts(x->w, r ? ",\n{\"s\":" : "\n{\"s\":");
		put_js(x->w, ibtopo_severity_name(f->severity));
		put_member(x->w, "k", ibtopo_finding_kind_name(f->kind));
		put_member(x->w, "t", text);
		key[0] = id[0] = '\0';
		if (x->fedge[r])
			edge_key(x->c, x->fedge[r], key, sizeof(key));
		else if (x->fnode[r] != NONE)
			ibtopo__diagram_dnode_id(x->c, x->fnode[r], id,
						 sizeof(id));
		put_member(x->w, "e", key);
		put_member(x->w, "n", id);
		ibtopo__wr_puts(x->w, "}");
	}
	ibtopo__wr_puts(x->w, "]}");
}

static void write_table(struct ctx *x)
{
	const struct ibtopo_findings *fs = x->c->d->findings;
	size_t total = fs ? fs->count : 0;
	char text[600];

	ibtopo__wr_printf(x->w, "<div id=\"findings\"><b>%zu finding%s</b>",
			  total, total == 1 ? "" : "s");
	if (total > x->ntab)
		ibtopo__wr_printf(x->w,
				  " (the %zu worst here; <code>ibtopo "
				  "analyze</code> lists all)",
				  x->ntab);
	ibtopo__wr_puts(x->w, "\n<table>\n");
	for (size_t r = 0; r < x->ntab; r++) {
		const struct ibtopo_finding *f = &fs->items[x->tab[r]];
		const char *sev = ibtopo_severity_name(f->severity);

		finding_text(x->c, f, text, sizeof(text));
		ibtopo__wr_printf(x->w,
				  "<tr class=\"row\" data-i=\"%zu\"><td "
				  "class=\"sev-%s\">%s</td><td>",
				  r, sev, sev);
		ibtopo__diagram_put_html(x->w, text, false);
		ibtopo__wr_puts(x->w, "</td></tr>\n");
	}
	ibtopo__wr_puts(x->w, "</table></div>\n");
}

/* The SVG from its <svg element on: no XML prolog, no DOCTYPE. */
static const char *svg_start(const char *svg, size_t len, size_t *n)
{
	const char *s = svg;

	while ((size_t)(s - svg) + 4 < len) {
		s = memchr(s, '<', len - (size_t)(s - svg));
		if (!s)
			break;
		if (!strncmp(s, "<svg", 4)) {
			*n = len - (size_t)(s - svg);
			return s;
		}
		s++;
	}
	*n = len;
	return svg;
}

static void write_page(struct ctx *x, const char *svg, size_t svg_len,
		       const char *title)
{
	size_t n;
	const char *s = svg_start(svg, svg_len, &n);

	ibtopo__wr_puts(x->w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			      "<meta charset=\"utf-8\">\n<title>");
	ibtopo__diagram_put_html(x->w, title, false);
	ibtopo__wr_puts(x->w, "</title>\n<style>\n");
	ibtopo__wr_puts(x->w, html_style);
	ibtopo__wr_puts(x->w, "</style>\n</head>\n<body>\n<div id=\"view\">\n");
	ibtopo__wr_write(x->w, s, n);
	ibtopo__wr_puts(
		x->w,
		"\n<div id=\"tools\"><button id=\"zin\" title=\"zoom in\">+"
		"</button><button id=\"zout\" title=\"zoom out\">\xe2\x88\x92"
		"</button><button id=\"fit\" title=\"whole fabric\">\xe2\x8c\x82"
		"</button></div>\n</div>\n<div id=\"side\">\n<div><input "
		"type=\"search\" id=\"q\" placeholder=\"name, GUID or LID\" "
		"autocomplete=\"off\"><div id=\"status\"></div></div>\n"
		"<div id=\"details\">Click a node or a link; wheel to zoom, "
		"drag to pan.</div>\n");
	write_table(x);
	ibtopo__wr_puts(x->w, "</div>\n<script type=\"application/json\" "
			      "id=\"fabric-data\">\n");
	write_data(x);
	ibtopo__wr_puts(x->w, "\n</script>\n<script>\n");
	ibtopo__wr_puts(x->w, html_script);
	ibtopo__wr_puts(x->w, "</script>\n</body>\n</html>\n");
}

int ibtopo__diagram_html(const struct ibtopo_sink *o, const struct scene *c,
			 const char *svg, size_t svg_len,
			 struct ibtopo_error *err)
{
	struct ibtopo__wr w = { .o = o };
	struct ctx x = { .w = &w, .c = c };
	char title[512];
	int rc;

	x.tab = table_findings(c->d->findings, &x.ntab);
	if (c->groups) {
		x.grp_dn = calloc(c->nsg + 1, sizeof(*x.grp_dn));
		for (size_t g = 0; x.grp_dn && g < c->nsg; g++)
			x.grp_dn[g] = NONE;
		for (size_t i = 0; x.grp_dn && i < c->nn; i++)
			if (c->grp[i] != NONE)
				x.grp_dn[c->grp[i]] = c->dn_of[i];
	}
	if (c->d->nhistory) {
		x.hk = calloc(c->d->nhistory, sizeof(*x.hk));
		for (size_t i = 0; x.hk && i < c->d->nhistory; i++) {
			x.hk[i].guid = c->d->history[i]->guid;
			x.hk[i].port = c->d->history[i]->port;
			x.hk[i].i = i;
		}
		if (x.hk)
			qsort(x.hk, c->d->nhistory, sizeof(*x.hk),
			      cmp_hist_key);
	}
	if (!x.tab || (c->groups && !x.grp_dn) || edge_links(c, &x.lk) ||
	    place_findings(&x) || (c->d->nhistory && !x.hk)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	write_page(&x, svg, svg_len,
		   ibtopo__diagram_title(c, title, sizeof(title)));
	rc = w.rc;
	if (rc)
		rc = ibtopo__error_set(err, rc, "cannot write the page: %s",
				       ibtopo_strerror(rc));
out_free:
	free(x.hk);
	free(x.grp_dn);
	free(x.fnode);
	free(x.fedge);
	free(x.lk.off);
	free(x.lk.link);
	free(x.tab);
	return rc;
}
