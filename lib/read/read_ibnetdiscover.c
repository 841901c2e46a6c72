/*
 * read_ibnetdiscover.c - ibnetdiscover text (and plans written like it)
 * and ibsim net files, its dialect: one reader, two rows of the table.
 *
 * The reader goes in two passes: the first collects records line by line
 * (a port line names nodes whose records come later), the second builds
 * the fabric. Only what a file states goes into the model: a text dump
 * gives active speeds and widths, never supported or enabled sets.
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

struct rec {			/* one node record */
	char *id;		/* the quoted name */
	char *desc;		/* NULL when the record gives none */
	enum ibtopo_node_type type;
	unsigned nports;
	unsigned line;
	uint64_t guid;		/* stated by a guid line or the id; 0 = none */
	bool guid_stated;
	uint64_t port_guid;	/* switchguid=G(P): P */
	uint64_t sysimg;
	uint32_t vendor, device;
	uint16_t lid;		/* switch port 0 */
	uint8_t lmc;
	bool enhanced;
	size_t dup_of;		/* SIZE_MAX, or the record this repeats */
	size_t clash_of;	/* SIZE_MAX, or the other record of its GUID */
	size_t first_pl, npl;	/* its port lines */
	uint8_t defw, defs, defe;	/* ibsim defaults when it was read */
	struct ibtopo_node *node;
	uint32_t *link_pl;	/* per port: port line (+1) that made its link */
	uint32_t *own_pl;	/* per port: its own port line (+1) */
};

struct pl {			/* one port line */
	unsigned line;
	size_t rec;
	unsigned port, ext;
	unsigned rport, rext;
	uint64_t pguid, rpguid;
	char *rid;
	uint16_t lid;
	uint8_t lmc;
	uint16_t speed;		/* active, from the trailer; 0 = unknown */
	uint8_t width;
	uint8_t mw, ms, me, mm;	/* ibsim: enabled width, speed, ext, FDR10 */
};

struct pending {		/* key=value lines before a record */
	uint64_t guid, port_guid, sysimg;
	uint32_t vendor, device;
	enum ibtopo_node_type guid_type;
	unsigned guid_line;
};

struct topo {
	struct ibtopo__src *s;
	bool ibsim;
	struct ibtopo__arena arena;
	struct rec *recs;
	size_t nrecs, arecs;
	struct pl *pls;
	size_t npls, apls;
	struct ibtopo__imap ids;	/* id -> first record */
	struct pending pend;
	size_t cur;		/* record port lines go to, SIZE_MAX = none */
	bool last_is_record;	/* the last line read was a header or port line */
	uint8_t netw, nets, nete;	/* ibsim globals */
	/* ibsim: the GUID the next CA, switch, router gets, and the last
	 * absolute base (switchguid=B; switchguid+N is B + N); 0 = none */
	uint64_t sim_next[3], sim_base[3];
	struct ibtopo_fabric *f;
};

static size_t sim_kind(enum ibtopo_node_type type)
{
	return type == IBTOPO_NODE_SWITCH ? 1 : type == IBTOPO_NODE_ROUTER ? 2 : 0;
}

/*
 * The GUID ibsim gives the next node of a type (sim_net.c new_node()):
 * per type a counter from 0x100000 (CAs) and 0x200000 (switches) in file
 * order, reset by caguid=, switchguid=, rtguid=; a switch takes one GUID
 * (all its ports share it), a CA or router one for the node and one per
 * port (port i is the node's + i). ibsim starts routers at 0, which no
 * port can have: those keep a GUID from their name.
 */
static uint64_t sim_take(struct topo *t, enum ibtopo_node_type type,
			 unsigned nports)
{
	uint64_t *next = &t->sim_next[sim_kind(type)], g = *next;

	if (g)
		*next += type == IBTOPO_NODE_SWITCH ? 1 : nports + 1;
	return g;
}

static bool id_eq(const void *ctx, size_t i)
{
	const struct topo *t = ((const void *const *)ctx)[0];
	const char *id = ((const void *const *)ctx)[1];

	return strcmp(t->recs[i].id, id) == 0;
}

static size_t find_id(const struct topo *t, const char *id)
{
	const void *ctx[2] = { t, id };

	return ibtopo__imap_find(&t->ids, ibtopo__str_key(id), id_eq, ctx);
}

/* "S-0002c90200417670" (the type's letter and 16 hex digits): its GUID. */
static bool id_guid(const char *id, enum ibtopo_node_type type, uint64_t *out)
{
	const char *p = id + 2;

	if (id[0] != ibtopo__type_letter(type) || id[1] != '-' || strlen(id) != 18)
		return false;
	return ibtopo__parse_hex64(&p, out) && *p == '\0' && *out;
}

/* key=value lines: 1 if handled, 0 if the line is not one, <0 error. */
static int topo_assignment(struct topo *t, const char *p)
{
	static const struct {
		const char *key;
		int what;
	} keys[] = {
		{ "vendid", 1 }, { "devid", 2 }, { "sysimgguid", 3 },
		{ "switchguid", 4 }, { "caguid", 5 }, { "hcaguids", 5 },
		{ "rtguid", 6 }, { "width", 7 }, { "speed", 8 },
		{ "extspeed", 9 },
	};
	struct ibtopo__src *s = t->s;
	unsigned long v;
	uint64_t g;
	size_t i, n = 0;
	bool relative;

	for (i = 0; i < IBTOPO__ARRAY_SIZE(keys); i++) {
		n = strlen(keys[i].key);
		if (strncmp(p, keys[i].key, n) == 0 &&
		    (p[n] == '=' || p[n] == ' ' || p[n] == '\t'))
			break;
	}
	if (i == IBTOPO__ARRAY_SIZE(keys))
		return 0;
	p = ibtopo__skip_ws(p + n);
	relative = t->ibsim && *p == '+' && keys[i].what >= 4 &&
		   keys[i].what <= 6;
	if (*p != '=' && !relative)
		return ibtopo__src_error(s, s->lineno, "expected '=' after '%s'",
				 keys[i].key);
	p = ibtopo__skip_ws(p + 1);
	switch (keys[i].what) {
	case 1:
	case 2:
		if (!ibtopo__parse_cnum(&p, 0xffffffffu, &v))
			return ibtopo__src_error(s, s->lineno, "expected a number after '%s='",
					 keys[i].key);
		if (keys[i].what == 1)
			t->pend.vendor = (uint32_t)v;
		else
			t->pend.device = (uint32_t)v;
		break;
	case 3:
		if (!ibtopo__parse_hex64(&p, &g))
			return ibtopo__src_error(s, s->lineno, "expected a GUID after '%s='",
					 keys[i].key);
		t->pend.sysimg = g;
		break;
	case 4:
	case 5:
	case 6:
		if (!ibtopo__parse_hex64(&p, &g))
			return ibtopo__src_error(s, s->lineno, "expected a GUID after '%s='",
					 keys[i].key);
		t->pend.guid = g;
		t->pend.guid_line = s->lineno;
		t->pend.guid_type = keys[i].what == 4 ? IBTOPO_NODE_SWITCH :
				    keys[i].what == 5 ? IBTOPO_NODE_CA :
				    IBTOPO_NODE_ROUTER;
		if (t->ibsim) {
			size_t k = sim_kind(t->pend.guid_type);

			if (!relative)
				t->sim_base[k] = g;
			t->sim_next[k] = relative ? t->sim_base[k] + g : g;
		}
		t->pend.port_guid = 0;
		p = ibtopo__skip_ws(p);
		if (*p == '(') {
			p++;
			if (!ibtopo__parse_hex64(&p, &g) || *p != ')')
				return ibtopo__src_error(s, s->lineno,
						 "expected '(<port guid>)' after the switch GUID");
			t->pend.port_guid = g;
		}
		break;
	case 7:
		if (!ibtopo__parse_cnum(&p, 31, &v) || v < 1)
			return ibtopo__src_error(s, s->lineno,
					 "expected an enabled width mask 1..31 after 'width='");
		t->netw = (uint8_t)v;
		break;
	case 8:
		if (!ibtopo__parse_cnum(&p, 7, &v) || v < 1)
			return ibtopo__src_error(s, s->lineno,
					 "expected an enabled speed mask 1..7 after 'speed='");
		t->nets = (uint8_t)v;
		break;
	case 9:
		if (!ibtopo__parse_cnum(&p, 15, &v))
			return ibtopo__src_error(s, s->lineno,
					 "expected an extended speed mask 0..15 after 'extspeed='");
		t->nete = (uint8_t)v;
		break;
	}
	/* a record's port lines end here */
	t->cur = SIZE_MAX;
	return 1;
}

/*
 * The description in a header's comment: `# "desc" ...` up to the last
 * quote of the line (descriptions may hold quotes), or, unquoted, up to
 * the words ibnetdiscover puts after it. *rest gets what follows.
 */
static char *header_desc(struct topo *t, const char *c, const char **rest)
{
	const char *e;

	c = ibtopo__skip_ws(c);
	if (*c == '"') {
		e = strrchr(c + 1, '"');
		if (!e)
			e = c + strlen(c);
		*rest = *e ? e + 1 : e;
		return ibtopo__arena_strndup(&t->arena, c + 1, (size_t)(e - c - 1));
	}
	e = strstr(c, " enhanced port ");
	if (!e)
		e = strstr(c, " base port ");
	if (!e)
		e = strstr(c, " lid ");
	if (!e)
		e = strstr(c, " lmc ");
	if (!e)
		e = c + strlen(c);
	*rest = e;
	while (e > c && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return ibtopo__arena_strndup(&t->arena, c, (size_t)(e - c));
}

/* "... lid N ... lmc M": the numbers after the words, if present. */
static void find_lid_lmc(const char *p, uint16_t *lid, uint8_t *lmc)
{
	const char *w;
	unsigned long v;

	w = strstr(p, "lid ");
	if (w) {
		w = ibtopo__skip_ws(w + 4);
		if (ibtopo__parse_uint(&w, 0xffff, &v))
			*lid = (uint16_t)v;
	}
	w = strstr(p, "lmc ");
	if (w) {
		w = ibtopo__skip_ws(w + 4);
		if (ibtopo__parse_uint(&w, 7, &v))
			*lmc = (uint8_t)v;
	}
}

static int topo_header(struct topo *t, const char *p, enum ibtopo_node_type type,
		       size_t kwlen)
{
	struct ibtopo__src *s = t->s;
	struct rec r = { 0 };
	unsigned long nports;
	const char *q, *rest = "";
	size_t dup;

	p = ibtopo__skip_ws(p + kwlen);
	if (!ibtopo__parse_uint(&p, 1000, &nports))
		return ibtopo__src_error(s, s->lineno,
				 "expected the port count after the node type");
	if (nports < 1 || nports > 255)
		return ibtopo__src_error(s, s->lineno,
				 "port count %lu out of range (1..255)", nports);
	p = ibtopo__skip_ws(p);
	if (*p != '"')
		return ibtopo__src_error(s, s->lineno,
				 "expected '\"<name>\"' after the port count");
	q = strchr(p + 1, '"');
	if (!q)
		return ibtopo__src_error(s, s->lineno, "unterminated node name");
	if (q == p + 1)
		return ibtopo__src_error(s, s->lineno, "empty node name");
	r.id = ibtopo__arena_strndup(&t->arena, p + 1, (size_t)(q - p - 1));
	if (!r.id)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	p = ibtopo__skip_ws(q + 1);
	if (*p == '#') {
		r.desc = header_desc(t, p + 1, &rest);
		if (!r.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM,
						 "out of memory");
	} else if (*p) {
		return ibtopo__src_error(s, s->lineno,
				 "expected '# \"<description>\"' after the node name");
	}
	r.type = type;
	r.nports = (unsigned)nports;
	r.line = s->lineno;
	r.dup_of = SIZE_MAX;
	r.clash_of = SIZE_MAX;
	r.defw = t->netw;
	r.defs = t->nets;
	r.defe = t->nete;
	if (type == IBTOPO_NODE_SWITCH) {
		r.enhanced = strstr(rest, "enhanced port 0") != NULL;
		if (!t->ibsim)
			find_lid_lmc(rest, &r.lid, &r.lmc);
	}
	if (t->ibsim) {
		/* the GUID comes from ibsim's counters, below */
		if (t->pend.guid && t->pend.guid_type == type)
			r.port_guid = t->pend.port_guid;
	} else if (t->pend.guid && t->pend.guid_type == type) {
		r.guid = t->pend.guid;
		r.port_guid = t->pend.port_guid;
	} else if (t->pend.guid) {
		ibtopo__src_warn(s, "%s:%u: '%s' line is not followed by a %s record; ignored",
			 s->name, t->pend.guid_line,
			 t->pend.guid_type == IBTOPO_NODE_SWITCH ? "switchguid" :
			 t->pend.guid_type == IBTOPO_NODE_ROUTER ? "rtguid" :
			 "caguid", ibtopo__type_word(t->pend.guid_type));
	}
	if (!r.guid && !t->ibsim)
		id_guid(r.id, type, &r.guid);
	r.sysimg = t->pend.sysimg;
	r.vendor = t->pend.vendor;
	r.device = t->pend.device;
	memset(&t->pend, 0, sizeof(t->pend));
	r.first_pl = t->npls;

	dup = find_id(t, r.id);
	if (t->ibsim)
		r.guid = dup != SIZE_MAX ? t->recs[dup].guid :
					   sim_take(t, type, r.nports);
	r.guid_stated = r.guid != 0;
	if (dup != SIZE_MAX) {
		const struct rec *o = &t->recs[dup];

		if (o->type != r.type || o->nports != r.nports ||
		    (o->desc && r.desc && strcmp(o->desc, r.desc)) ||
		    (!o->desc) != (!r.desc) || o->guid != r.guid)
			return ibtopo__src_error(s, s->lineno,
					 "node '%s' again, but not as its record at line %u",
					 r.id, o->line);
		r.dup_of = dup;
	}
	if (ibtopo__grow(&t->recs, &t->arecs, t->nrecs + 1, sizeof(*t->recs)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	if (dup == SIZE_MAX && ibtopo__imap_put(&t->ids, ibtopo__str_key(r.id), t->nrecs))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	t->recs[t->nrecs] = r;
	t->cur = t->nrecs++;
	return 0;
}

/* ibsim: what a trailer "lid N <w>x<speed>" sets. */
static void sim_trailer_masks(struct pl *l, unsigned wnum, const char *speed,
			      size_t n)
{
	struct ibtopo__ibsim_masks m = { l->mw, l->ms, l->me, l->mm };

	ibtopo__ibsim_trailer(&m, wnum, speed, n);
	l->mw = m.w;
	l->ms = m.s;
	l->me = m.e;
	l->mm = m.m;
}

/*
 * The comment of a port line. Switch ports: `"peer desc" lid N 4xQDR`;
 * CA ports: `lid N lmc M "peer desc" lid N 4xQDR`; extras may follow
 * (`s=1 w=2 v=4`, `slot 3`, `(scp)`). The peer's description may hold
 * quotes, so the numbers are read after the last quote.
 */
static int topo_trailer(struct topo *t, struct pl *l, const char *c)
{
	struct ibtopo__src *s = t->s;
	const char *q1 = strchr(c, '"'), *q2 = strrchr(c, '"');
	const char *post = q1 ? q2 + 1 : c;
	const enum ibtopo_node_type type = t->recs[l->rec].type;

	if (q1 && type != IBTOPO_NODE_SWITCH && !t->ibsim) {
		char pre[IBTOPO__LINE_MAX + 1];

		memcpy(pre, c, (size_t)(q1 - c));
		pre[q1 - c] = '\0';
		find_lid_lmc(pre, &l->lid, &l->lmc);
	}
	for (const char *p = ibtopo__skip_ws(post); *p; p = ibtopo__skip_ws(p)) {
		const char *e = p;
		unsigned w, sp;
		int rc;

		while (*e && *e != ' ' && *e != '\t')
			e++;
		rc = ibtopo__parse_ws_token(p, (size_t)(e - p), &w, &sp);
		if (rc < 0)
			return ibtopo__src_error(s, s->lineno,
					 "unknown width or speed '%.*s' (expected e.g. 4xHDR)",
					 (int)(e - p), p);
		if (rc > 0) {
			l->width = (uint8_t)w;
			l->speed = (uint16_t)sp;
			if (t->ibsim) {
				size_t wl = 0;

				while (ibtopo__is_digit(p[wl]))
					wl++;
				sim_trailer_masks(l, wl ? (unsigned)atoi(p) : 0,
						  p + wl + 1, (size_t)(e - p) - wl - 1);
			}
			break;
		}
		p = e;
	}
	return 0;
}

/* `w=2 s=7 e=4` between the peer and the comment. */
static int topo_options(struct topo *t, struct pl *l, const char **pp)
{
	struct ibtopo__src *s = t->s;
	const char *p = *pp;

	while (*p && *p != '#') {
		char opt = *p;
		unsigned long v, max;

		if (!((opt >= 'a' && opt <= 'z') || (opt >= 'A' && opt <= 'Z')) ||
		    p[1] != '=')
			return ibtopo__src_error(s, s->lineno,
					 "unexpected '%.20s' after the peer port (expected w=, s=, e= or '#')",
					 p);
		p += 2;
		max = opt == 'w' ? 31 : opt == 's' ? 7 : opt == 'e' ? 15 :
		      0xffffffffu;
		if (!ibtopo__parse_cnum(&p, max, &v) ||
		    ((opt == 'w' || opt == 's') && v == 0))
			return ibtopo__src_error(s, s->lineno,
					 "bad port option '%c=' (w=1..31, s=1..7, e=0..15)",
					 opt);
		if (opt == 'w')
			l->mw = (uint8_t)v;
		else if (opt == 's')
			l->ms = (uint8_t)v;
		else if (opt == 'e')
			l->me = (uint8_t)v;
		if (*p && *p != ' ' && *p != '\t' && *p != '#')
			return ibtopo__src_error(s, s->lineno,
					 "bad port option '%c=' (w=1..31, s=1..7, e=0..15)",
					 opt);
		p = ibtopo__skip_ws(p);
	}
	*pp = p;
	return 0;
}

/* "[N]" optionally followed by "[ext M]". */
static bool parse_port_ref(const char **pp, unsigned *port, unsigned *ext)
{
	const char *p = *pp;
	unsigned long v;

	if (*p != '[')
		return false;
	p = ibtopo__skip_ws(p + 1);
	if (!ibtopo__parse_uint(&p, 255, &v))
		return false;
	p = ibtopo__skip_ws(p);
	if (*p != ']')
		return false;
	*port = (unsigned)v;
	p++;
	if (strncmp(p, "[ext ", 5) == 0) {
		const char *q = p + 5;

		if (ibtopo__parse_uint(&q, 255, &v) && *q == ']') {
			*ext = (unsigned)v;
			p = q + 1;
		}
	}
	*pp = p;
	return true;
}

static int topo_port_line(struct topo *t, const char *p)
{
	struct ibtopo__src *s = t->s;
	struct rec *r;
	struct pl l = { 0 };
	const char *q;
	int rc;

	if (t->cur == SIZE_MAX)
		return ibtopo__src_error(s, s->lineno,
				 "port line before any node record (expected 'Switch', 'Ca' or 'Rt' first)");
	r = &t->recs[t->cur];
	l.line = s->lineno;
	l.rec = t->cur;
	l.mw = r->defw;
	l.ms = r->defs;
	l.me = r->defe;
	if (!parse_port_ref(&p, &l.port, &l.ext))
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected '[<port>]' at its start)");
	p = ibtopo__skip_ws(p);
	if (*p == '(') {
		p++;
		if (!ibtopo__parse_hex64(&p, &l.pguid) || *p != ')')
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected '(<port guid>)' after '[%u]')",
					 l.port);
		p = ibtopo__skip_ws(p + 1);
	}
	if (*p != '"')
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected '\"<peer>\"[<port>]' after '[%u]')",
				 l.port);
	q = strchr(p + 1, '"');
	if (!q)
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (unterminated peer name)");
	if (q == p + 1)
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (empty peer name)");
	l.rid = ibtopo__arena_strndup(&t->arena, p + 1, (size_t)(q - p - 1));
	if (!l.rid)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	p = q + 1;
	if (!parse_port_ref(&p, &l.rport, &l.rext)) {
		if (!t->ibsim || *p == '[')
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected '[<port>]' after the peer name)");
		l.rport = 1;	/* ibsim's default */
	}
	p = ibtopo__skip_ws(p);
	if (*p == '(') {
		p++;
		if (!ibtopo__parse_hex64(&p, &l.rpguid) || *p != ')')
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected '(<port guid>)' after the peer port)");
		p = ibtopo__skip_ws(p + 1);
	}
	rc = topo_options(t, &l, &p);
	if (rc)
		return rc;
	if (*p == '#') {
		rc = topo_trailer(t, &l, p + 1);
		if (rc)
			return rc;
	}
	if (ibtopo__grow(&t->pls, &t->apls, t->npls + 1, sizeof(*t->pls)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	t->pls[t->npls++] = l;
	r->npl++;
	return 0;
}

static int topo_parse(struct topo *t)
{
	struct ibtopo__src *s = t->s;
	int rc;

	for (rc = ibtopo__src_next(s); rc > 0; rc = ibtopo__src_next(s)) {
		const char *p = ibtopo__skip_ws(s->line);

		t->last_is_record = *p == '[' || ibtopo__word_at(p, "Switch") ||
				    ibtopo__word_at(p, "Ca") || ibtopo__word_at(p, "Hca") ||
				    ibtopo__word_at(p, "Rt") || ibtopo__word_at(p, "Rtr");
		if (*p == '\0' || *p == '#')
			continue;
		if (*p == '[') {
			rc = topo_port_line(t, p);
		} else if (ibtopo__word_at(p, "Switch")) {
			rc = topo_header(t, p, IBTOPO_NODE_SWITCH, 6);
		} else if (ibtopo__word_at(p, "Ca")) {
			rc = topo_header(t, p, IBTOPO_NODE_CA, 2);
		} else if (ibtopo__word_at(p, "Hca")) {
			rc = topo_header(t, p, IBTOPO_NODE_CA, 3);
		} else if (ibtopo__word_at(p, "Rt")) {
			rc = topo_header(t, p, IBTOPO_NODE_ROUTER, 2);
		} else if (ibtopo__word_at(p, "Rtr")) {
			rc = topo_header(t, p, IBTOPO_NODE_ROUTER, 3);
		} else if (*p == '@') {
			rc = ibtopo__src_error(s, s->lineno,
				       "ibsim port aliases ('@') are not supported");
		} else if (ibtopo__word_at(p, "include") || strncmp(p, "module", 6) == 0) {
			rc = ibtopo__src_error(s, s->lineno,
				       "ibsim '%.7s' is not supported (expected one self-contained file)",
				       p);
		} else {
			rc = topo_assignment(t, p);
			if (rc == 0) {
				/* -g grouping lines, ibwarn noise, ibsim commands */
				if (!ibtopo__word_at(p, "Chassis") &&
				    strncmp(p, "Non-Chassis Nodes", 17) &&
				    strncmp(p, "Hostname:", 9) &&
				    strncmp(p, "do", 2) && strncmp(p, "pdebug", 6))
					ibtopo__src_warn(s, "%s:%u: line ignored (not part of a node record)",
						 s->name, s->lineno);
				t->cur = SIZE_MAX;
			}
			rc = rc < 0 ? rc : 0;
		}
		if (rc)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (!t->nrecs)
		return ibtopo__src_error(s, s->lineno ? s->lineno : 1,
				 "no node records (expected 'Switch', 'Ca' or 'Rt' lines)");
	return 0;
}

/* A repeated record must say exactly what the first one said. */
static int topo_check_dups(struct topo *t)
{
	struct ibtopo__src *s = t->s;
	uint32_t *by_port = NULL;
	int rc = 0;

	for (size_t i = 0; i < t->nrecs && !rc; i++) {
		const struct rec *d = &t->recs[i], *o;

		if (d->dup_of == SIZE_MAX)
			continue;
		o = &t->recs[d->dup_of];
		free(by_port);
		by_port = calloc(o->nports + 1, sizeof(*by_port));
		if (!by_port)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		for (size_t j = 0; j < o->npl; j++)
			if (t->pls[o->first_pl + j].port <= o->nports)
				by_port[t->pls[o->first_pl + j].port] =
					(uint32_t)(o->first_pl + j + 1);
		for (size_t k = 0; k < d->npl && !rc; k++) {
			const struct pl *x = &t->pls[d->first_pl + k];
			const struct pl *y = x->port <= o->nports && by_port[x->port] ?
					     &t->pls[by_port[x->port] - 1] : NULL;

			if (!y || y->rport != x->rport || strcmp(y->rid, x->rid) ||
			    y->speed != x->speed || y->width != x->width)
				rc = ibtopo__src_error(s, x->line,
					       "node '%s' again, but port %u differs from its record at line %u",
					       d->id, x->port, o->line);
		}
		if (!rc && d->npl != o->npl)
			rc = ibtopo__src_error(s, d->line,
				       "node '%s' again, but with %zu port lines instead of %zu (line %u)",
				       d->id, d->npl, o->npl, o->line);
	}
	free(by_port);
	return rc;
}

static int topo_add_node(struct topo *t, struct rec *r, uint64_t guid)
{
	struct ibtopo_error e = IBTOPO_ERROR_INIT;
	struct ibtopo_node *n;
	int rc;

	rc = ibtopo_fabric_add_node(&n, t->f, r->type, guid, r->nports,
				    r->desc ? r->desc : r->id, &e);
	if (rc) {
		*t->s->err = e;
		return rc;
	}
	r->node = n;
	r->guid = guid;
	n->sysimg_guid = r->sysimg;
	n->vendor_id = r->vendor;
	n->device_id = r->device;
	n->enhanced_port0 = r->enhanced;
	r->link_pl = calloc(r->nports + 1, sizeof(*r->link_pl));
	r->own_pl = calloc(r->nports + 1, sizeof(*r->own_pl));
	if (!r->link_pl || !r->own_pl)
		return ibtopo__error_set(t->s->err, IBTOPO_ENOMEM, "out of memory");
	return 0;
}

/*
 * Record `i` states the GUID of a node already made. A dump from a sweep
 * never holds that (libibnetdisc merges what answers with one GUID), but
 * a dump written or joined by other means does: two nodes with one GUID,
 * which the model cannot hold apart. The second is read as the first, as
 * a sweep would see it, and the clash is recorded; links to it that
 * disagree are recorded port by port (topo_links). A net file for ibsim
 * is refused: ibsim refuses it too.
 */
static int topo_clash(struct topo *t, size_t i, const struct ibtopo_node *other)
{
	struct rec *r = &t->recs[i];
	struct ibtopo_guid_clash c = { .guid = r->guid };

	for (size_t j = 0; j < i; j++) {
		const struct rec *o = &t->recs[j];

		if (o->node != other)
			continue;
		if (t->ibsim || o->type != r->type || o->nports != r->nports)
			return ibtopo__src_error(t->s, r->line,
					 "node '%s' has GUID 0x%016" PRIx64 ", as '%s' at line %u",
					 r->id, r->guid, o->id, o->line);
		ibtopo__src_warn(t->s, "%s:%u: node '%s' has GUID 0x%016" PRIx64 ", as '%s' at line %u: read as one node",
			 t->s->name, r->line, r->id, r->guid, o->id, o->line);
		r->clash_of = j;
		return ibtopo_fabric_add_guid_clash(t->f, &c, t->s->err);
	}
	return ibtopo__src_error(t->s, r->line, "node '%s' has GUID 0x%016" PRIx64
				 " of another node", r->id, r->guid);
}

/* Nodes with stated GUIDs first, so a name's GUID steps around them. */
static int topo_nodes(struct topo *t)
{
	struct ibtopo__src *s = t->s;
	int rc;

	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];
		const struct ibtopo_node *other;

		if (r->dup_of != SIZE_MAX || !r->guid)
			continue;
		other = ibtopo_fabric_find_node(t->f, r->guid);
		if (other) {
			rc = topo_clash(t, i, other);
			if (rc)
				return rc;
			continue;
		}
		rc = topo_add_node(t, r, r->guid);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];
		unsigned attempt = 0;
		uint64_t g;

		if (r->dup_of != SIZE_MAX || r->clash_of != SIZE_MAX || r->node)
			continue;
		do {
			g = ibtopo__name_guid_attempt(r->id, attempt++);
		} while (ibtopo_fabric_find_node(t->f, g) && attempt < 256);
		if (ibtopo_fabric_find_node(t->f, g))
			return ibtopo__src_error(s, r->line, "no free GUID for '%s'", r->id);
		rc = topo_add_node(t, r, g);
		if (rc)
			return rc;
	}
	/* what the switch header states about port 0 */
	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];
		struct ibtopo_port *p0;

		if (!r->node || r->type != IBTOPO_NODE_SWITCH ||
		    (!r->lid && !r->lmc && !r->port_guid))
			continue;
		rc = ibtopo_node_add_port(&p0, t->f, r->node, 0, s->err);
		if (rc)
			return rc;
		p0->lid = r->lid;
		p0->lmc = r->lmc;
		p0->guid = r->port_guid;
		rc = ibtopo_fabric_index_port(t->f, p0, s->err);
		if (rc)
			return rc;
	}
	return 0;
}

static void topo_warn_conflict(struct topo *t, const struct pl *a,
			       const struct pl *b)
{
	struct ibtopo__src *s = t->s;

	ibtopo__src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but %s:%u: port %u of '%s' says '%s'[%u]",
		 s->name, a->line, a->port, t->recs[a->rec].id, a->rid, a->rport,
		 s->name, b->line, b->port, t->recs[b->rec].id, b->rid, b->rport);
}

static int topo_set_port(struct topo *t, struct ibtopo_port **out,
			 struct rec *r, unsigned num, unsigned ext,
			 uint64_t guid)
{
	struct ibtopo_port *p;
	int rc;

	rc = ibtopo_node_add_port(&p, t->f, r->node, num, t->s->err);
	if (rc)
		return rc;
	if (ext)
		p->ext_num = ext;
	if (r->type == IBTOPO_NODE_SWITCH)
		guid = r->port_guid;
	if (guid && !p->guid) {
		p->guid = guid;
		rc = ibtopo_fabric_index_port(t->f, p, t->s->err);
	}
	*out = p;
	return rc;
}

static int topo_links(struct topo *t)
{
	struct ibtopo__src *s = t->s;
	int rc;

	for (size_t i = 0; i < t->npls; i++) {
		struct pl *l = &t->pls[i];
		struct rec *lr = &t->recs[l->rec], *rr;
		struct ibtopo_port *lp, *rp;
		struct ibtopo_link *link;
		bool clash;
		size_t ri;

		if (lr->dup_of != SIZE_MAX)
			continue;
		ri = find_id(t, l->rid);
		if (ri == SIZE_MAX)
			return ibtopo__src_error(s, l->line,
					 "'%s' has no node record (truncated file?)",
					 l->rid);
		rr = &t->recs[ri];
		/* a record of a clashing GUID stands for its first */
		clash = lr->clash_of != SIZE_MAX;
		if (clash)
			lr = &t->recs[lr->clash_of];
		if (rr->clash_of != SIZE_MAX)
			rr = &t->recs[rr->clash_of];
		if (l->port < 1 || l->port > lr->nports)
			return ibtopo__src_error(s, l->line,
					 "port %u out of range ('%s' has ports 1..%u)",
					 l->port, lr->id, lr->nports);
		if (l->rport < 1 || l->rport > rr->nports)
			return ibtopo__src_error(s, l->line,
					 "peer port %u out of range ('%s' has ports 1..%u)",
					 l->rport, rr->id, rr->nports);
		if (lr == rr && l->port == l->rport)
			return ibtopo__src_error(s, l->line, "port %u linked to itself",
					 l->port);
		if (lr->own_pl[l->port] && !clash)
			return ibtopo__src_error(s, l->line,
					 "port %u of '%s' listed twice (first at line %u)",
					 l->port, lr->id,
					 t->pls[lr->own_pl[l->port] - 1].line);
		if (!lr->own_pl[l->port])
			lr->own_pl[l->port] = (uint32_t)i + 1;
		rc = topo_set_port(t, &lp, lr, l->port, l->ext, l->pguid);
		if (!rc)
			rc = topo_set_port(t, &rp, rr, l->rport, l->rext, l->rpguid);
		if (rc)
			return rc;
		/* "lid 0 lmc 0" (plans) says nothing; keep any other pair */
		if (!t->ibsim && lr->type != IBTOPO_NODE_SWITCH &&
		    (l->lid || l->lmc)) {
			lp->lid = l->lid;
			lp->lmc = l->lmc;
		}
		if (lp->remote == rp) {
			/* the other end of a link already made */
			const struct pl *o = &t->pls[lr->link_pl[l->port] - 1];

			link = lp->link;
			if (t->ibsim)
				continue;
			if ((l->speed && link->speed && l->speed != link->speed) ||
			    (l->width && link->width && l->width != link->width)) {
				char x[16], y[16];

				ibtopo__src_warn(s, "%s:%u: port %u of '%s' says %s, but %s:%u: port %u of '%s' says %s",
					 s->name, o->line, o->port, t->recs[o->rec].id,
					 ibtopo__ws_text(link->width, link->speed, x, sizeof(x)),
					 s->name, l->line, l->port, lr->id,
					 ibtopo__ws_text(l->width, l->speed, y, sizeof(y)));
				continue;
			}
			if (!link->speed && l->speed)
				link->speed = lp->speed_active = rp->speed_active = l->speed;
			if (!link->width && l->width)
				link->width = lp->width_active = rp->width_active = l->width;
			continue;
		}
		if (lp->remote) {
			topo_warn_conflict(t, &t->pls[lr->link_pl[l->port] - 1], l);
			rc = ibtopo__fabric_port_clash(t->f, lp, rp, s->err);
			if (rc)
				return rc;
			continue;
		}
		if (rp->remote) {
			topo_warn_conflict(t, &t->pls[rr->link_pl[l->rport] - 1], l);
			rc = ibtopo__fabric_port_clash(t->f, rp, lp, s->err);
			if (rc)
				return rc;
			continue;
		}
		if (!t->ibsim) {
			lp->speed_active = rp->speed_active = l->speed;
			lp->width_active = rp->width_active = (uint8_t)l->width;
		}
		rc = ibtopo_fabric_connect(&link, t->f, lp, rp, s->err);
		if (rc)
			return rc;
		lr->link_pl[l->port] = (uint32_t)i + 1;
		rr->link_pl[l->rport] = (uint32_t)i + 1;
	}
	return 0;
}

/* Links stated from one end only, in a dump where both ends always are. */
static void topo_one_sided(struct topo *t)
{
	struct ibtopo__src *s = t->s;

	for (size_t i = 0; i < t->nrecs; i++) {
		const struct rec *r = &t->recs[i];

		if (r->dup_of != SIZE_MAX || r->clash_of != SIZE_MAX)
			continue;
		for (unsigned p = 1; p <= r->nports; p++) {
			const struct pl *l;

			if (!r->link_pl[p] || r->own_pl[p])
				continue;
			l = &t->pls[r->link_pl[p] - 1];
			ibtopo__src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but '%s' (line %u) lists no port %u",
				 s->name, l->line, l->port, t->recs[l->rec].id,
				 l->rid, l->rport, r->id, r->line, p);
		}
	}
}

/* ibsim: a port's enabled masks come from its own line or its record. */
static void sim_masks(const struct topo *t, const struct rec *r, unsigned port,
		      uint8_t m[4])
{
	if (r->own_pl[port]) {
		const struct pl *l = &t->pls[r->own_pl[port] - 1];

		m[0] = l->mw;
		m[1] = l->ms;
		m[2] = l->me;
		m[3] = l->mm;
	} else {
		m[0] = r->defw;
		m[1] = r->defs;
		m[2] = r->defe;
		m[3] = 0;
	}
}

/*
 * Train every link as ibsim does: the highest bit common to both ends'
 * enabled masks; the extended speed wins when one is common, then FDR10.
 * No common width or base speed makes ibsim stop, so it is an error here.
 */
static int sim_train(struct topo *t)
{
	struct ibtopo__src *s = t->s;
	size_t n = ibtopo_fabric_link_count(t->f);

	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];

		if (r->node)
			r->node->index = i;	/* back to the record, until sorted */
	}
	for (size_t i = 0; i < n; i++) {
		struct ibtopo_link *link = ibtopo_fabric_link(t->f, i);
		const struct rec *ra = &t->recs[link->a->node->index];
		const struct rec *rb = &t->recs[link->b->node->index];
		uint8_t ma[4], mb[4];
		unsigned w, b, e, m, line;
		struct ibtopo_port *ends[2] = { link->a, link->b };
		const uint8_t *masks[2] = { ma, mb };

		sim_masks(t, ra, link->a->num, ma);
		sim_masks(t, rb, link->b->num, mb);
		line = t->pls[ra->link_pl[link->a->num] - 1].line;
		w = ma[0] & mb[0];
		b = ma[1] & mb[1];
		e = ma[2] & mb[2];
		m = ma[3] & mb[3] & 1;
		if (!w)
			return ibtopo__src_error(s, line,
					 "no enabled width common to both ends (w=%u and w=%u; ibsim would stop)",
					 ma[0], mb[0]);
		if (!b)
			return ibtopo__src_error(s, line,
					 "no enabled speed common to both ends (s=%u and s=%u; ibsim would stop)",
					 ma[1], mb[1]);
		link->width = (uint8_t)ibtopo__ibsim_train_width(w);
		link->speed = (uint16_t)ibtopo__ibsim_train_speed(b, e, m);
		for (int k = 0; k < 2; k++) {
			struct ibtopo_port *p = ends[k];
			const uint8_t *mk = masks[k];

			p->width_active = link->width;
			p->speed_active = link->speed;
			p->width_enabled = mk[0];
			p->width_supported = IBTOPO_WIDTH_ALL;
			p->speed_enabled = (uint16_t)ibtopo__ibsim_speed_set(mk[1],
					e ? mk[2] : 0, mk[3] & 1);
			p->speed_supported =
				(uint16_t)ibtopo__ibsim_speed_supported(e, m);
			p->state = IBTOPO_PORT_STATE_UNKNOWN;
		}
	}
	/* ibsim gives CA ports the node GUID plus the port number */
	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];

		if (!r->node || r->type == IBTOPO_NODE_SWITCH || !r->guid_stated)
			continue;
		for (unsigned p = 1; p <= r->nports; p++) {
			struct ibtopo_port *port = r->node->ports[p];

			if (port && !port->guid) {
				port->guid = r->guid + p;
				if (ibtopo_fabric_index_port(t->f, port, s->err))
					return IBTOPO_ENOMEM;
			}
		}
	}
	return 0;
}

static void topo_release(struct topo *t)
{
	for (size_t i = 0; i < t->nrecs; i++) {
		free(t->recs[i].link_pl);
		free(t->recs[i].own_pl);
	}
	free(t->recs);
	free(t->pls);
	ibtopo__imap_release(&t->ids);
	ibtopo__arena_release(&t->arena);
}

static int read_topo(struct ibtopo_fabric **out, struct ibtopo__src *s, bool ibsim)
{
	struct topo t = { 0 };
	bool dump = true;
	int rc;

	t.s = s;
	t.ibsim = ibsim;
	t.cur = SIZE_MAX;
	t.sim_next[0] = t.sim_base[0] = 0x100000;
	t.sim_next[1] = t.sim_base[1] = 0x200000;
	t.netw = IBTOPO__IBSIM_WIDTH_DEFAULT;
	t.nets = IBTOPO__IBSIM_SPEED_DEFAULT;
	rc = topo_parse(&t);
	/* In a dump (GUIDs everywhere) every link is printed from both ends,
	 * and every line ends: a last line without its end was cut short,
	 * even when what is left of it parses. */
	for (size_t i = 0; !rc && i < t.nrecs && dump; i++)
		dump = t.recs[i].guid_stated;
	if (!rc && dump && !ibsim && t.last_is_record && !s->last_had_newline)
		rc = ibtopo__src_error(s, s->lineno,
			       "last line has no end (truncated file?)");
	if (!rc)
		rc = topo_check_dups(&t);
	if (!rc)
		rc = ibtopo_fabric_new(&t.f, s->err);
	if (!rc)
		rc = topo_nodes(&t);
	if (!rc)
		rc = topo_links(&t);
	if (!rc && ibsim)
		rc = sim_train(&t);
	if (rc)
		goto out_free;
	if (dump && !ibsim)
		topo_one_sided(&t);
	ibtopo_fabric_sort(t.f);
	*out = t.f;
	t.f = NULL;
out_free:
	ibtopo_fabric_free(t.f);
	topo_release(&t);
	return rc;
}

static int read_ibnetdiscover(struct ibtopo_fabric **out, struct ibtopo__src *s)
{
	return read_topo(out, s, false);
}

static int read_ibsim(struct ibtopo_fabric **out, struct ibtopo__src *s)
{
	return read_topo(out, s, true);
}

static int is_record(void *arg, const char *p, size_t n)
{
	(void)arg;
	return ibtopo__line_is_record(p, n);
}

/* Node records: ibnetdiscover text, the weakest claim. */
static int detect_ibnetdiscover(const char *buf, size_t len)
{
	return ibtopo__each_line(buf, len, is_record, NULL) ? 1 : 0;
}

/* A port line with ibsim options (w= s= e=) before its comment. Most
 * lines have no '=' at all: memchr says so at once (every port line of
 * an ibnetdiscover dump is scanned when detecting the format). */
static bool has_sim_options(const char *p, size_t n)
{
	const char *hash = memchr(p, '#', n);

	if (hash)
		n = (size_t)(hash - p);
	if (!memchr(p, '=', n))
		return false;
	for (size_t i = 1; i + 1 < n && p[i] != '#'; i++)
		if (p[i + 1] == '=' && (p[i] == 'w' || p[i] == 's' || p[i] == 'e') &&
		    (p[i - 1] == ' ' || p[i - 1] == '\t'))
			return true;
	return false;
}

static int is_sim_line(void *arg, const char *p, size_t n)
{
	(void)arg;
	return ibtopo__line_word(p, n, "Hca") || ibtopo__line_key(p, n, "width") ||
	       ibtopo__line_key(p, n, "speed") ||
	       ibtopo__line_key(p, n, "extspeed") ||
	       (*p == '[' && has_sim_options(p, n));
}

/* Hca records, global width=/speed=/extspeed= lines or port options. */
static int detect_ibsim(const char *buf, size_t len)
{
	return ibtopo__each_line(buf, len, is_sim_line, NULL) ? 2 : 0;
}

const struct ibtopo__reader ibtopo__reader_ibnetdiscover = {
	.format = IBTOPO_FILE_IBNETDISCOVER,
	.name = "ibnetdiscover",
	.what = "ibnetdiscover output",
	.detect = detect_ibnetdiscover,
	.read = read_ibnetdiscover,
};

const struct ibtopo__reader ibtopo__reader_ibsim = {
	.format = IBTOPO_FILE_IBSIM,
	.name = "ibsim",
	.what = "an ibsim net file",
	.detect = detect_ibsim,
	.read = read_ibsim,
};
