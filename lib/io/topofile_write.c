/*
 * topofile_write.c - a fabric as ibnetdiscover text, an ibsim net file, a
 * Slurm topology.conf, CSV or JSON.
 */
#include "io/io-int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Output descriptions are cut here so every line stays readable back. */
#define DESC_MAX 1024
/* ibsim keeps 63 bytes of a description and reads lines of 255. */
#define SIM_DESC_MAX 63

static const char *const export_names[] = {
	[IBTOPO_EXPORT_IBNETDISCOVER] = "ibnetdiscover",
	[IBTOPO_EXPORT_IBSIM] = "ibsim",
	[IBTOPO_EXPORT_SLURM] = "slurm",
	[IBTOPO_EXPORT_CSV] = "csv",
	[IBTOPO_EXPORT_JSON] = "json",
};

int ibtopo_export_format_parse(const char *name)
{
	for (size_t i = 0; name && i < IBTOPO__ARRAY_SIZE(export_names); i++)
		if (strcmp(name, export_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *ibtopo_export_format_name(enum ibtopo_export_format format)
{
	if ((size_t)format >= IBTOPO__ARRAY_SIZE(export_names))
		return "?";
	return export_names[format];
}

/* A writer that remembers the first failure, so the code reads straight. */
struct wr {
	const struct ibtopo_render_opts *o;
	int rc;
};

IBTOPO__PRINTF(2, 3)
static void wr_printf(struct wr *w, const char *fmt, ...)
{
	va_list ap;

	if (w->rc)
		return;
	va_start(ap, fmt);
	w->rc = ibtopo__out_vprintf(w->o, fmt, ap);
	va_end(ap);
}

/* Printable, one line, at most max bytes (as ibnetdiscover's clean_nodedesc). */
static const char *clean_desc(const char *in, char *buf, size_t max, bool sim)
{
	size_t i;

	for (i = 0; in && in[i] && i < max; i++) {
		unsigned char c = (unsigned char)in[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
		if (sim && (c == '"' || c == '#' || c == '='))
			buf[i] = '\'';
	}
	buf[i] = '\0';
	return buf;
}

static char type_letter(enum ibtopo_node_type type)
{
	return type == IBTOPO_NODE_SWITCH ? 'S' :
	       type == IBTOPO_NODE_ROUTER ? 'R' : 'H';
}

static uint16_t node_lid(const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;

	if (n->type == IBTOPO_NODE_SWITCH)
		return n->ports[0] ? n->ports[0]->lid : 0;
	return p->lid;
}

static const char *ws_text(unsigned width, unsigned speed, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", width ? ibtopo_width_name(width) : "??",
		 speed ? ibtopo_speed_name(speed) : "???");
	return buf;
}

static uint64_t switch_port_guid(const struct ibtopo_node *n)
{
	for (unsigned i = 0; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->guid)
			return n->ports[i]->guid;
	return 0;
}

/* ---- ibnetdiscover ---- */

static void ibnd_ids(struct wr *w, const struct ibtopo_node *n)
{
	wr_printf(w, "\nvendid=0x%x\ndevid=0x%x\n", n->vendor_id, n->device_id);
	if (n->sysimg_guid)
		wr_printf(w, "sysimgguid=0x%" PRIx64 "\n", n->sysimg_guid);
}

static void ibnd_remote(struct wr *w, const struct ibtopo_port *r, bool lead)
{
	wr_printf(w, "\"%c-%016" PRIx64 "\"[%u]", type_letter(r->node->type),
		  r->node->guid, r->num);
	if (r->ext_num)
		wr_printf(w, "[ext %u]", r->ext_num);
	if (r->node->type != IBTOPO_NODE_SWITCH && r->guid)
		wr_printf(w, "%s(%" PRIx64 ") ", lead ? " " : "", r->guid);
}

static void ibnd_switch(struct wr *w, const struct ibtopo_node *n, char *desc)
{
	const struct ibtopo_port *p0 = n->ports[0];
	uint64_t pguid = switch_port_guid(n);
	char ws[16];

	ibnd_ids(w, n);
	wr_printf(w, "switchguid=0x%" PRIx64, n->guid);
	if (pguid)
		wr_printf(w, "(%" PRIx64 ")", pguid);
	wr_printf(w, "\nSwitch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" %s port 0 lid %u lmc %u\n",
		  n->nports, n->guid, clean_desc(n->desc, desc, DESC_MAX, false),
		  n->enhanced_port0 ? "enhanced" : "base", p0 ? p0->lid : 0,
		  p0 ? p0->lmc : 0);
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote)
			continue;
		wr_printf(w, "[%u]", p->num);
		if (p->ext_num)
			wr_printf(w, "[ext %u]", p->ext_num);
		wr_printf(w, "\t");
		ibnd_remote(w, p->remote, false);
		wr_printf(w, "\t\t# \"%s\" lid %u %s\n",
			  clean_desc(p->remote->node->desc, desc, DESC_MAX, false),
			  node_lid(p->remote),
			  ws_text(p->link->width, p->link->speed, ws, sizeof(ws)));
	}
}

static void ibnd_ca(struct wr *w, const struct ibtopo_node *n, char *desc)
{
	bool rt = n->type == IBTOPO_NODE_ROUTER;
	char ws[16];

	ibnd_ids(w, n);
	wr_printf(w, "%sguid=0x%" PRIx64 "\n%s\t%u \"%c-%016" PRIx64 "\"\t\t# \"%s\"\n",
		  rt ? "rt" : "ca", n->guid, rt ? "Rt" : "Ca", n->nports,
		  type_letter(n->type), n->guid,
		  clean_desc(n->desc, desc, DESC_MAX, false));
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote)
			continue;
		wr_printf(w, "[%u]", p->num);
		if (p->guid)
			wr_printf(w, "(%" PRIx64 ") ", p->guid);
		wr_printf(w, "\t");
		ibnd_remote(w, p->remote, true);
		wr_printf(w, "\t\t# lid %u lmc %u \"%s\" lid %u %s\n", p->lid, p->lmc,
			  clean_desc(p->remote->node->desc, desc, DESC_MAX, false),
			  node_lid(p->remote),
			  ws_text(p->link->width, p->link->speed, ws, sizeof(ws)));
	}
}

static int write_ibnetdiscover(struct wr *w, const struct ibtopo_fabric *f)
{
	size_t n = ibtopo_fabric_node_count(f);
	char *desc = malloc(DESC_MAX + 1);

	if (!desc)
		return IBTOPO_ENOMEM;
	wr_printf(w, "#\n# Topology file: written by ibtopo\n#\n");
	/* switches, then CAs, then routers, as ibnetdiscover prints them */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct ibtopo_node *node = ibtopo_fabric_node(f, i);

			if (pass == 0 && node->type == IBTOPO_NODE_SWITCH)
				ibnd_switch(w, node, desc);
			else if (pass == 1 && node->type != IBTOPO_NODE_SWITCH &&
				 node->type != IBTOPO_NODE_ROUTER)
				ibnd_ca(w, node, desc);
			else if (pass == 2 && node->type == IBTOPO_NODE_ROUTER)
				ibnd_ca(w, node, desc);
		}
	}
	free(desc);
	return w->rc;
}

/* ---- ibsim ---- */

/*
 * The port options that make ibsim train a link at its active values:
 * both ends get only the active width and speed enabled. FDR10 has no
 * option, only ibnetdiscover's trailer sets it (returned in *trailer).
 */
static void sim_options(const struct ibtopo_link *l, char *buf, size_t len,
			bool *trailer)
{
	struct ibtopo__ibsim_masks m;
	size_t used = 0;

	*trailer = ibtopo__ibsim_needs_trailer(l->speed);
	buf[0] = '\0';
	if (l->width)
		used += (size_t)snprintf(buf + used, len - used, "w=%u ", l->width);
	if (!ibtopo__ibsim_speed_masks(&m, l->speed, false) && used < len)
		used += (size_t)snprintf(buf + used, len - used, "s=%u e=%u ",
					 m.s, m.e);
	if (used && used <= len)
		buf[used - 1] = '\0';
}

static int write_ibsim(struct wr *w, const struct ibtopo_fabric *f)
{
	size_t n = ibtopo_fabric_node_count(f);
	char desc[SIM_DESC_MAX + 1], opt[64], ws[16];

	wr_printf(w, "# ibsim net file written by ibtopo. Each port enables only its\n"
		     "# link's active width (w=), speed (s=) and extended speed (e=),\n"
		     "# so ibsim trains every link as it ran; run: ibsim -s -n FILE\n");
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct ibtopo_node *node = ibtopo_fabric_node(f, i);
			enum ibtopo_node_type t = node->type;

			if ((pass == 0) != (t == IBTOPO_NODE_SWITCH) ||
			    (pass == 2) != (t == IBTOPO_NODE_ROUTER))
				continue;
			clean_desc(node->desc, desc, SIM_DESC_MAX, true);
			/* vendor ids matter: FDR10 is read from Mellanox nodes only */
			wr_printf(w, "\nvendid=0x%x\ndevid=0x%x\n", node->vendor_id,
				  node->device_id);
			if (node->sysimg_guid)
				wr_printf(w, "sysimgguid=0x%" PRIx64 "\n",
					  node->sysimg_guid);
			if (t == IBTOPO_NODE_SWITCH)
				wr_printf(w, "switchguid=0x%" PRIx64 "\nSwitch\t%u \"S-%016" PRIx64 "\"\t# \"%s\" %s port 0\n",
					  node->guid, node->nports, node->guid, desc,
					  node->enhanced_port0 ? "enhanced" : "base");
			else
				wr_printf(w, "%sguid=0x%" PRIx64 "\n%s\t%u \"%c-%016" PRIx64 "\"\t# \"%s\"\n",
					  t == IBTOPO_NODE_ROUTER ? "rt" : "ca",
					  node->guid,
					  t == IBTOPO_NODE_ROUTER ? "Rt" : "Hca",
					  node->nports, type_letter(t), node->guid,
					  desc);
			for (unsigned p = 1; p <= node->nports; p++) {
				const struct ibtopo_port *port = node->ports[p];
				bool trailer;

				if (!port || !port->remote)
					continue;
				sim_options(port->link, opt, sizeof(opt), &trailer);
				wr_printf(w, "[%u]\t\"%c-%016" PRIx64 "\"[%u]\t%s", p,
					  type_letter(port->remote->node->type),
					  port->remote->node->guid, port->remote->num,
					  opt);
				if (trailer)
					wr_printf(w, "\t# lid 0 %s",
						  ws_text(port->link->width,
							  port->link->speed, ws,
							  sizeof(ws)));
				wr_printf(w, "\n");
			}
		}
	}
	return w->rc;
}

/* ---- Slurm topology.conf ---- */

static bool slurm_name_ok(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
			return false;
	}
	return true;
}

/* The host name of a CA: the first word of its description. */
static void host_name(const struct ibtopo_node *n, char *buf, size_t len)
{
	const char *d = n->desc, *e;

	while (*d == ' ' || *d == '\t')
		d++;
	for (e = d; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (ibtopo__desc_is_default(d) || !slurm_name_ok(d, (size_t)(e - d)) ||
	    (size_t)(e - d) >= len)
		snprintf(buf, len, "H-%016" PRIx64, n->guid);
	else
		snprintf(buf, len, "%.*s", (int)(e - d), d);
}

/*
 * A switch's name: "MF0;<name>:<model>/U1" (Mellanox) gives <name>, a
 * one-word description is the name; else "S-<guid>" as ibnetdiscover
 * names it.
 */
static void switch_name(const struct ibtopo_node *n, char *buf, size_t len)
{
	const char *d = n->desc, *s = d, *e;

	if (strncmp(d, "MF0;", 4) == 0) {
		s = d + 4;
		e = strchr(s, ':');
		if (!e)
			e = s + strlen(s);
	} else {
		e = s + strlen(s);
	}
	if (slurm_name_ok(s, (size_t)(e - s)) && (size_t)(e - s) < len)
		snprintf(buf, len, "%.*s", (int)(e - s), s);
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
static void write_hostlist(struct wr *w, struct hname *h, size_t n)
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
			wr_printf(w, ",");
		if (!h[i].has_num) {
			wr_printf(w, "%s", h[i].s);
			i++;
			continue;
		}
		while (j < n && h[j].has_num && h[j].plen == h[i].plen &&
		       memcmp(h[j].s, h[i].s, h[i].plen) == 0)
			j++;
		if (j == i + 1) {
			wr_printf(w, "%s", h[i].s);
			i++;
			continue;
		}
		wr_printf(w, "%.*s[", (int)h[i].plen, h[i].s);
		for (size_t k = i; k < j;) {
			size_t e = k;

			while (e + 1 < j && hname_next(&h[e], &h[e + 1]))
				e++;
			wr_printf(w, "%s%s", k > i ? "," : "", h[k].s + h[k].plen);
			if (e > k)
				wr_printf(w, "-%s", h[e].s + h[e].plen);
			k = e + 1;
		}
		wr_printf(w, "]");
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
 * Place each host (a CA's first word; SHARP aggregation nodes left out)
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
static void slurm_write_switch(struct wr *w, struct slurm *s, size_t i,
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
		wr_printf(w, "SwitchName=%s Nodes=", vname);
		for (size_t h = 0; h < nh; h++)
			list[ns + h].s = s->hl[s->first_host[i] + h].name;
		write_hostlist(w, list + ns, nh);
		wr_printf(w, "\n");
		list[ns++].s = vname;
		nh = 0;
	}
	wr_printf(w, "SwitchName=%s", s->names[i]);
	if (nh) {
		for (size_t h = 0; h < nh; h++)
			list[h].s = s->hl[s->first_host[i] + h].name;
		wr_printf(w, " Nodes=");
		write_hostlist(w, list, nh);
	} else if (ns) {
		wr_printf(w, " Switches=");
		write_hostlist(w, list, ns);
	}
	wr_printf(w, "\n");
}

/*
 * When no switch reaches every host (one level of switches, or parts
 * that no switch joins), a logical top switch lists the switches nothing
 * lists: otherwise Slurm warns that no switch can reach all nodes and
 * will not place a job across them.
 */
static void slurm_write_top(struct wr *w, struct slurm *s, struct hname *list)
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
	wr_printf(w, "SwitchName=%s Switches=", top);
	write_hostlist(w, list, ns);
	wr_printf(w, "\n");
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

static int write_slurm(struct wr *w, const struct ibtopo_fabric *f,
		       struct ibtopo_error *err)
{
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
			host_name(node, s.names[i], NAME_LEN);
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
	wr_printf(w, "# Slurm topology.conf (topology/tree) written by ibtopo\n");
	for (size_t r = 0; r < s.nsw; r++)
		slurm_write_switch(w, &s, s.order[r], list, seen);
	slurm_write_top(w, &s, list);
	rc = w->rc;
	if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	else if (rc)
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write the slurm output");
out_free_list:
	free(list);
out_free_topo:
	ibtopo_topology_free(topo);
out_release:
	free(seen);
	slurm_release(&s);
	return rc;
}

/* ---- JSON ---- */

static struct ibtopo__json *json_speed(unsigned bit)
{
	return bit ? ibtopo__json_string(ibtopo_speed_name(bit)) :
		     ibtopo__json_null();
}

static struct ibtopo__json *json_width(unsigned bit)
{
	return bit ? ibtopo__json_string(ibtopo_width_name(bit)) :
		     ibtopo__json_null();
}

static struct ibtopo__json *json_opt_int(int64_t v)
{
	return v ? ibtopo__json_int(v) : ibtopo__json_null();
}

static struct ibtopo__json *json_mask(unsigned mask, bool speed)
{
	if (!mask)
		return ibtopo__json_null();
	return speed ? ibtopo__json_speed_set(mask) : ibtopo__json_width_set(mask);
}

static struct ibtopo__json *json_port(const struct ibtopo_port *p)
{
	struct ibtopo__json *o = ibtopo__json_object();
	int rc = 0;

	rc |= ibtopo__json_set(o, "port", ibtopo__json_int(p->num));
	rc |= ibtopo__json_set(o, "external_port", json_opt_int(p->ext_num));
	rc |= ibtopo__json_set(o, "port_guid", ibtopo__json_guid(p->guid));
	rc |= ibtopo__json_set(o, "lid", json_opt_int(p->lid));
	rc |= ibtopo__json_set(o, "state", p->state ?
			ibtopo__json_string(ibtopo_port_state_name(p->state)) :
			ibtopo__json_null());
	rc |= ibtopo__json_set(o, "width", json_width(p->width_active));
	rc |= ibtopo__json_set(o, "speed", json_speed(p->speed_active));
	rc |= ibtopo__json_set(o, "width_supported", json_mask(p->width_supported, false));
	rc |= ibtopo__json_set(o, "width_enabled", json_mask(p->width_enabled, false));
	rc |= ibtopo__json_set(o, "speed_supported", json_mask(p->speed_supported, true));
	rc |= ibtopo__json_set(o, "speed_enabled", json_mask(p->speed_enabled, true));
	if (p->remote) {
		rc |= ibtopo__json_set_path(o, "remote.guid",
					    ibtopo__json_guid(p->remote->node->guid));
		rc |= ibtopo__json_set_path(o, "remote.port",
					    ibtopo__json_int(p->remote->num));
	} else {
		rc |= ibtopo__json_set(o, "remote", ibtopo__json_null());
	}
	if (rc) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *json_end(const struct ibtopo_port *p)
{
	struct ibtopo__json *o = ibtopo__json_object();
	int rc = 0;

	rc |= ibtopo__json_set(o, "node", ibtopo__json_string(p->node->desc));
	rc |= ibtopo__json_set(o, "guid", ibtopo__json_guid(p->node->guid));
	rc |= ibtopo__json_set(o, "port", ibtopo__json_int(p->num));
	if (rc) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static int write_json(const struct ibtopo_render_opts *opts,
		      const struct ibtopo_fabric *f, struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	struct ibtopo__json *doc = ibtopo__json_object();
	struct ibtopo__json *nodes = ibtopo__json_array();
	struct ibtopo__json *links = ibtopo__json_array();
	size_t n = ibtopo_fabric_node_count(f), nl = ibtopo_fabric_link_count(f);
	int rc = 0;

	rc |= ibtopo__json_set(doc, "schema_version", ibtopo__json_int(1));
	rc |= ibtopo__json_set(doc, "source", ibtopo__json_string(m->source));
	rc |= ibtopo__json_set(doc, "label", ibtopo__json_string(m->label));
	for (size_t i = 0; i < n && !rc; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(f, i);
		struct ibtopo__json *o = ibtopo__json_object();
		struct ibtopo__json *ports = ibtopo__json_array();

		rc |= ibtopo__json_set(o, "type",
				ibtopo__json_string(ibtopo_node_type_name(node->type)));
		rc |= ibtopo__json_set(o, "guid", ibtopo__json_guid(node->guid));
		rc |= ibtopo__json_set(o, "description", ibtopo__json_string(node->desc));
		rc |= ibtopo__json_set(o, "ports", ibtopo__json_int(node->nports));
		rc |= ibtopo__json_set(o, "system_image_guid",
				       ibtopo__json_guid(node->sysimg_guid));
		rc |= ibtopo__json_set(o, "vendor_id", json_opt_int(node->vendor_id));
		rc |= ibtopo__json_set(o, "device_id", json_opt_int(node->device_id));
		if (node->type == IBTOPO_NODE_SWITCH)
			rc |= ibtopo__json_set(o, "enhanced_port0",
					       ibtopo__json_bool(node->enhanced_port0));
		for (unsigned p = 0; p <= node->nports; p++)
			if (node->ports[p])
				rc |= ibtopo__json_append(ports, json_port(node->ports[p]));
		rc |= ibtopo__json_set(o, "port_list", ports);
		rc |= ibtopo__json_append(nodes, o);
	}
	for (size_t i = 0; i < nl && !rc; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		struct ibtopo__json *o = ibtopo__json_object();

		rc |= ibtopo__json_set(o, "a", json_end(l->a));
		rc |= ibtopo__json_set(o, "b", json_end(l->b));
		rc |= ibtopo__json_set(o, "speed", json_speed(l->speed));
		rc |= ibtopo__json_set(o, "width", json_width(l->width));
		rc |= ibtopo__json_append(links, o);
	}
	rc |= ibtopo__json_set(doc, "nodes", nodes);
	rc |= ibtopo__json_set(doc, "links", links);
	if (rc) {
		ibtopo__json_free(doc);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	rc = ibtopo__json_dump(opts, doc, err);
	ibtopo__json_free(doc);
	return rc;
}

int ibtopo_fabric_write(const struct ibtopo_render_opts *opts,
			const struct ibtopo_fabric *fabric,
			enum ibtopo_export_format format,
			struct ibtopo_error *err)
{
	struct ibtopo_render_opts csv;
	struct wr w = { opts, 0 };
	int rc;

	if (!opts || !opts->write || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or fabric");
	switch (format) {
	case IBTOPO_EXPORT_IBNETDISCOVER:
		rc = write_ibnetdiscover(&w, fabric);
		break;
	case IBTOPO_EXPORT_IBSIM:
		rc = write_ibsim(&w, fabric);
		break;
	case IBTOPO_EXPORT_SLURM:
		return write_slurm(&w, fabric, err);
	case IBTOPO_EXPORT_CSV:
		csv = *opts;
		csv.format = IBTOPO_FORMAT_CSV;
		return ibtopo_render_links(&csv, fabric, err);
	case IBTOPO_EXPORT_JSON:
		return write_json(opts, fabric, err);
	default:
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown export format %d", (int)format);
	}
	if (rc == IBTOPO_ENOMEM)
		return ibtopo__error_set(err, rc, "out of memory");
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write the %s output",
					 export_names[format]);
	return 0;
}
