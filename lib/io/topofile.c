/*
 * topofile.c - text fabric files into the model: ibnetdiscover output (and
 * plans written like it), the `ibnetdiscover -p` ports report, ibsim net
 * files; node-name maps.
 *
 * The readers go in two passes: the first collects records line by line
 * (a port line names nodes whose records come later), the second builds
 * the fabric. Only what a file states goes into the model: a text dump
 * gives active speeds and widths, never supported or enabled sets.
 */
#include "ibtopo-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Real dumps stay under 300 bytes a line; anything longer is not one. */
#define LINE_MAX_LEN 4096

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

struct src {
	const char *name;		/* for messages */
	const char *buf;
	size_t len, pos;
	unsigned lineno;
	bool last_had_newline;
	char line[LINE_MAX_LEN + 1];
	const struct ibtopo_read_opts *opts;
	struct ibtopo_error *err;
};

static void src_init(struct src *s, const char *buf, size_t len,
		     const char *name, const struct ibtopo_read_opts *opts,
		     struct ibtopo_error *err)
{
	memset(s, 0, sizeof(*s));
	s->name = name ? name : "<buffer>";
	s->buf = buf;
	s->len = len;
	s->opts = opts;
	s->err = err;
}

IBTOPO__PRINTF(3, 4)
static int src_error(struct src *s, unsigned line, const char *fmt, ...)
{
	char msg[IBTOPO_ERROR_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the message quotes the file: make it printable */
	return ibtopo__error_set_input(s->err, IBTOPO_EPARSE, "%s:%u: %s",
				       s->name, line, msg);
}

IBTOPO__PRINTF(2, 3)
static void src_warn(struct src *s, const char *fmt, ...)
{
	char msg[1024], printable[1024];
	va_list ap;

	if (!s->opts || !s->opts->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->opts->warn(s->opts->warn_arg, ibtopo__quote(printable, sizeof(printable),
							msg, strlen(msg)));
}

static bool is_text_byte(unsigned char c)
{
	return c >= 0x20 ? c != 0x7f : c == '\t' || c == '\r' || c == '\n';
}

/*
 * Check the whole buffer before anything else: binary data and empty
 * input get one clear message instead of a parse error somewhere.
 */
static int src_check_text(struct src *s)
{
	unsigned line = 1;
	bool content = false;

	for (size_t i = 0; i < s->len; i++) {
		unsigned char c = (unsigned char)s->buf[i];

		if (!is_text_byte(c) ||
		    (c == '\r' && i + 1 < s->len && s->buf[i + 1] != '\n'))
			return src_error(s, line, "binary data (expected text)");
		if (c == '\n')
			line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			content = true;
	}
	if (!content)
		return src_error(s, 1, "empty file (expected a fabric topology)");
	return 0;
}

/* Next line into s->line, without its end of line: 1, 0 at the end, or <0. */
static int src_next(struct src *s)
{
	const char *p, *nl;
	size_t n;

	if (s->pos >= s->len)
		return 0;
	p = s->buf + s->pos;
	nl = memchr(p, '\n', s->len - s->pos);
	n = nl ? (size_t)(nl - p) : s->len - s->pos;
	s->pos += n + (nl ? 1 : 0);
	s->last_had_newline = nl != NULL;
	s->lineno++;
	if (n && p[n - 1] == '\r')
		n--;
	if (s->lineno == 1 && n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;	/* UTF-8 byte order mark */
		n -= 3;
	}
	if (n > LINE_MAX_LEN)
		return src_error(s, s->lineno,
				 "line longer than %d bytes (expected a topology line)",
				 LINE_MAX_LEN);
	memcpy(s->line, p, n);
	s->line[n] = '\0';
	return 1;
}

/* ------------------------------------------------------------------ */
/* Small parsers over a cursor                                         */
/* ------------------------------------------------------------------ */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal number <= max; advances *pp. */
static bool parse_uint(const char **pp, unsigned long max, unsigned long *out)
{
	const char *p = *pp;
	unsigned long v = 0;

	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return false;
	}
	*out = v;
	*pp = p;
	return true;
}

/* Hex number of 1..16 digits, optional 0x; advances *pp. */
static bool parse_hex64(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; hex_val(*p) >= 0; p++, n++) {
		if (n == 16)
			return false;
		v = (v << 4) | (uint64_t)hex_val(*p);
	}
	if (!n)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* Number as C's strtoul with base 0 would read it (ibsim options). */
static bool parse_cnum(const char **pp, unsigned long max, unsigned long *out)
{
	const char *p = *pp;
	uint64_t v;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (!parse_hex64(&p, &v) || v > max)
			return false;
		*out = (unsigned long)v;
		*pp = p;
		return true;
	}
	return parse_uint(pp, max, out);
}

/* Does p start with word, followed by a blank or the end? */
static bool word_at(const char *p, const char *word)
{
	size_t n = strlen(word);

	return strncmp(p, word, n) == 0 &&
	       (p[n] == ' ' || p[n] == '\t' || p[n] == '\0');
}

/* ------------------------------------------------------------------ */
/* Arena for strings, and hash maps                                    */
/* ------------------------------------------------------------------ */

struct arena_blk {
	struct arena_blk *next;
	size_t used, size;
	char data[];
};

struct arena {
	struct arena_blk *head;
};

static char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	struct arena_blk *b = a->head;
	char *p;

	if (!b || b->size - b->used < n + 1) {
		size_t size = n + 1 > 65536 ? n + 1 : 65536;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->next = a->head;
		b->used = 0;
		b->size = size;
		a->head = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

static void arena_release(struct arena *a)
{
	while (a->head) {
		struct arena_blk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

static uint64_t fnv1a(const void *data, size_t n, uint64_t h)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_OFFSET 0xcbf29ce484222325ull
#define NAME_GUID_BIT 0x0200000000000000ull

uint64_t ibtopo_name_guid(const char *name)
{
	return fnv1a(name, name ? strlen(name) : 0, FNV_OFFSET) | NAME_GUID_BIT;
}

/* The GUID for a name after `attempt` collisions; attempt 0 is the public one. */
static uint64_t name_guid_attempt(const char *name, unsigned attempt)
{
	uint64_t h = fnv1a(name, strlen(name), FNV_OFFSET);
	unsigned char a = (unsigned char)attempt;

	if (attempt)
		h = fnv1a(&a, 1, fnv1a("#", 1, h));
	return h | NAME_GUID_BIT;
}

/*
 * Open-addressing map from a key (string or 64-bit number) to an index.
 * Slots hold index + 1; 0 is empty.
 */
struct imap {
	size_t *slots;
	uint64_t *keys;		/* numeric keys, or the hash of string keys */
	size_t size, count;
};

static void imap_release(struct imap *m)
{
	free(m->slots);
	free(m->keys);
	memset(m, 0, sizeof(*m));
}

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int imap_grow(struct imap *m)
{
	struct imap n = { 0 };

	if (m->count * 2 < m->size)
		return 0;
	n.size = m->size ? m->size * 2 : 64;
	n.slots = calloc(n.size, sizeof(*n.slots));
	n.keys = calloc(n.size, sizeof(*n.keys));
	if (!n.slots || !n.keys) {
		imap_release(&n);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < m->size; i++) {
		size_t j;

		if (!m->slots[i])
			continue;
		j = (size_t)mix64(m->keys[i]) & (n.size - 1);
		while (n.slots[j])
			j = (j + 1) & (n.size - 1);
		n.slots[j] = m->slots[i];
		n.keys[j] = m->keys[i];
	}
	n.count = m->count;
	imap_release(m);
	*m = n;
	return 0;
}

/*
 * Find key in the map; `eq` tells stored index i matches (for string keys;
 * NULL compares the numbers). Returns the index or SIZE_MAX.
 */
static size_t imap_find(const struct imap *m, uint64_t key,
			bool (*eq)(const void *ctx, size_t i), const void *ctx)
{
	size_t j;

	if (!m->size)
		return SIZE_MAX;
	j = (size_t)mix64(key) & (m->size - 1);
	while (m->slots[j]) {
		if (m->keys[j] == key && (!eq || eq(ctx, m->slots[j] - 1)))
			return m->slots[j] - 1;
		j = (j + 1) & (m->size - 1);
	}
	return SIZE_MAX;
}

/* Insert (key -> idx); the caller has checked it is absent. */
static int imap_put(struct imap *m, uint64_t key, size_t idx)
{
	size_t j;

	if (imap_grow(m))
		return IBTOPO_ENOMEM;
	j = (size_t)mix64(key) & (m->size - 1);
	while (m->slots[j])
		j = (j + 1) & (m->size - 1);
	m->slots[j] = idx + 1;
	m->keys[j] = key;
	m->count++;
	return 0;
}

/* imap_grow rehashes with the stored key, so keep stored keys pre-mixed. */
static size_t imap_find_u64(const struct imap *m, uint64_t key)
{
	return imap_find(m, key, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Speeds and widths as the text writes them                           */
/* ------------------------------------------------------------------ */

/* "4x", "12x", "??" -> width bit (0 for "??"); false if not a width. */
static bool parse_width_text(const char *s, size_t n, unsigned *out)
{
	if (n == 2 && s[0] == '?' && s[1] == '?') {
		*out = 0;
		return true;
	}
	if (n < 2 || (s[n - 1] != 'x' && s[n - 1] != 'X'))
		return false;
	if (n == 2 && s[0] == '1')
		*out = IBTOPO_WIDTH_1X;
	else if (n == 2 && s[0] == '2')
		*out = IBTOPO_WIDTH_2X;
	else if (n == 2 && s[0] == '4')
		*out = IBTOPO_WIDTH_4X;
	else if (n == 2 && s[0] == '8')
		*out = IBTOPO_WIDTH_8X;
	else if (n == 3 && s[0] == '1' && s[1] == '2')
		*out = IBTOPO_WIDTH_12X;
	else
		return false;
	return true;
}

/* "QDR", "FDR10", "???" -> speed bit (0 for "???"); false if not a speed. */
static bool parse_speed_text(const char *s, size_t n, unsigned *out)
{
	char buf[8];

	if (n == 3 && memcmp(s, "???", 3) == 0) {
		*out = 0;
		return true;
	}
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = ibtopo_speed_parse(buf);
	return *out != 0;
}

/*
 * A trailer token "4xQDR", "2xNDR", "4x???", "?????": width and speed.
 * Returns 1 when the token is one, 0 when it is not, -1 when it looks like
 * one (a width and more) but the speed is unknown.
 */
static int parse_ws_token(const char *tok, size_t n, unsigned *width,
			  unsigned *speed)
{
	size_t wl;

	if (n >= 2 && tok[0] == '?' && tok[1] == '?') {
		/* ibnetdiscover prints an unknown width as "??" */
		*width = 0;
		if (n == 2 || !parse_speed_text(tok + 2, n - 2, speed))
			return n == 2 ? 0 : -1;
		return 1;
	}
	for (wl = 0; wl < n && is_digit(tok[wl]); wl++)
		;
	if (wl == 0 || wl > 2 || wl >= n || (tok[wl] != 'x' && tok[wl] != 'X'))
		return 0;
	if (!parse_width_text(tok, wl + 1, width))
		return -1;
	if (!parse_speed_text(tok + wl + 1, n - wl - 1, speed))
		return -1;
	return 1;
}

/* ------------------------------------------------------------------ */
/* ibnetdiscover text, plans and ibsim net files                       */
/* ------------------------------------------------------------------ */

/* ibsim's enabled masks (IBA encodings) and what it fixes as supported. */
#define SIM_WIDTH_DEFAULT 2	/* 4x */
#define SIM_SPEED_DEFAULT 1	/* SDR */

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
	struct src *s;
	bool ibsim;
	struct arena arena;
	struct rec *recs;
	size_t nrecs, arecs;
	struct pl *pls;
	size_t npls, apls;
	struct imap ids;	/* id -> first record */
	struct pending pend;
	size_t cur;		/* record port lines go to, SIZE_MAX = none */
	bool last_is_record;	/* the last line read was a header or port line */
	uint8_t netw, nets, nete;	/* ibsim globals */
	struct ibtopo_fabric *f;
};

static uint64_t str_key(const char *s)
{
	return mix64(fnv1a(s, strlen(s), FNV_OFFSET));
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

	return imap_find(&t->ids, str_key(id), id_eq, ctx);
}

static const char *type_word(enum ibtopo_node_type type)
{
	switch (type) {
	case IBTOPO_NODE_SWITCH:
		return "switch";
	case IBTOPO_NODE_ROUTER:
		return "router";
	default:
		return "CA";
	}
}

/* "S-0002c90200417670" (the type's letter and 16 hex digits): its GUID. */
static bool id_guid(const char *id, enum ibtopo_node_type type, uint64_t *out)
{
	char letter = type == IBTOPO_NODE_SWITCH ? 'S' :
		      type == IBTOPO_NODE_ROUTER ? 'R' : 'H';
	const char *p = id + 2;

	if (id[0] != letter || id[1] != '-' || strlen(id) != 18)
		return false;
	return parse_hex64(&p, out) && *p == '\0' && *out;
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
	struct src *s = t->s;
	unsigned long v;
	uint64_t g;
	size_t i, n = 0;

	for (i = 0; i < IBTOPO__ARRAY_SIZE(keys); i++) {
		n = strlen(keys[i].key);
		if (strncmp(p, keys[i].key, n) == 0 &&
		    (p[n] == '=' || p[n] == ' ' || p[n] == '\t'))
			break;
	}
	if (i == IBTOPO__ARRAY_SIZE(keys))
		return 0;
	p = skip_ws(p + n);
	if (*p != '=')
		return src_error(s, s->lineno, "expected '=' after '%s'",
				 keys[i].key);
	p = skip_ws(p + 1);
	switch (keys[i].what) {
	case 1:
	case 2:
		if (!parse_cnum(&p, 0xffffffffu, &v))
			return src_error(s, s->lineno, "expected a number after '%s='",
					 keys[i].key);
		if (keys[i].what == 1)
			t->pend.vendor = (uint32_t)v;
		else
			t->pend.device = (uint32_t)v;
		break;
	case 3:
		if (!parse_hex64(&p, &g))
			return src_error(s, s->lineno, "expected a GUID after '%s='",
					 keys[i].key);
		t->pend.sysimg = g;
		break;
	case 4:
	case 5:
	case 6:
		if (!parse_hex64(&p, &g))
			return src_error(s, s->lineno, "expected a GUID after '%s='",
					 keys[i].key);
		t->pend.guid = g;
		t->pend.guid_line = s->lineno;
		t->pend.guid_type = keys[i].what == 4 ? IBTOPO_NODE_SWITCH :
				    keys[i].what == 5 ? IBTOPO_NODE_CA :
				    IBTOPO_NODE_ROUTER;
		t->pend.port_guid = 0;
		p = skip_ws(p);
		if (*p == '(') {
			p++;
			if (!parse_hex64(&p, &g) || *p != ')')
				return src_error(s, s->lineno,
						 "expected '(<port guid>)' after the switch GUID");
			t->pend.port_guid = g;
		}
		break;
	case 7:
		if (!parse_cnum(&p, 31, &v) || v < 1)
			return src_error(s, s->lineno,
					 "expected an enabled width mask 1..31 after 'width='");
		t->netw = (uint8_t)v;
		break;
	case 8:
		if (!parse_cnum(&p, 7, &v) || v < 1)
			return src_error(s, s->lineno,
					 "expected an enabled speed mask 1..7 after 'speed='");
		t->nets = (uint8_t)v;
		break;
	case 9:
		if (!parse_cnum(&p, 15, &v))
			return src_error(s, s->lineno,
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

	c = skip_ws(c);
	if (*c == '"') {
		e = strrchr(c + 1, '"');
		if (!e)
			e = c + strlen(c);
		*rest = *e ? e + 1 : e;
		return arena_strndup(&t->arena, c + 1, (size_t)(e - c - 1));
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
	return arena_strndup(&t->arena, c, (size_t)(e - c));
}

/* "... lid N ... lmc M": the numbers after the words, if present. */
static void find_lid_lmc(const char *p, uint16_t *lid, uint8_t *lmc)
{
	const char *w;
	unsigned long v;

	w = strstr(p, "lid ");
	if (w) {
		w = skip_ws(w + 4);
		if (parse_uint(&w, 0xffff, &v))
			*lid = (uint16_t)v;
	}
	w = strstr(p, "lmc ");
	if (w) {
		w = skip_ws(w + 4);
		if (parse_uint(&w, 7, &v))
			*lmc = (uint8_t)v;
	}
}

static int topo_header(struct topo *t, const char *p, enum ibtopo_node_type type,
		       size_t kwlen)
{
	struct src *s = t->s;
	struct rec r = { 0 };
	unsigned long nports;
	const char *q, *rest = "";
	size_t dup;

	p = skip_ws(p + kwlen);
	if (!parse_uint(&p, 1000, &nports))
		return src_error(s, s->lineno,
				 "expected the port count after the node type");
	if (nports < 1 || nports > 255)
		return src_error(s, s->lineno,
				 "port count %lu out of range (1..255)", nports);
	p = skip_ws(p);
	if (*p != '"')
		return src_error(s, s->lineno,
				 "expected '\"<name>\"' after the port count");
	q = strchr(p + 1, '"');
	if (!q)
		return src_error(s, s->lineno, "unterminated node name");
	if (q == p + 1)
		return src_error(s, s->lineno, "empty node name");
	r.id = arena_strndup(&t->arena, p + 1, (size_t)(q - p - 1));
	if (!r.id)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	p = skip_ws(q + 1);
	if (*p == '#') {
		r.desc = header_desc(t, p + 1, &rest);
		if (!r.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM,
						 "out of memory");
	} else if (*p) {
		return src_error(s, s->lineno,
				 "expected '# \"<description>\"' after the node name");
	}
	r.type = type;
	r.nports = (unsigned)nports;
	r.line = s->lineno;
	r.dup_of = SIZE_MAX;
	r.defw = t->netw;
	r.defs = t->nets;
	r.defe = t->nete;
	if (type == IBTOPO_NODE_SWITCH) {
		r.enhanced = strstr(rest, "enhanced port 0") != NULL;
		if (!t->ibsim)
			find_lid_lmc(rest, &r.lid, &r.lmc);
	}
	if (t->pend.guid && t->pend.guid_type == type) {
		r.guid = t->pend.guid;
		r.port_guid = t->pend.port_guid;
	} else if (t->pend.guid) {
		src_warn(s, "%s:%u: '%s' line is not followed by a %s record; ignored",
			 s->name, t->pend.guid_line,
			 t->pend.guid_type == IBTOPO_NODE_SWITCH ? "switchguid" :
			 t->pend.guid_type == IBTOPO_NODE_ROUTER ? "rtguid" :
			 "caguid", type_word(t->pend.guid_type));
	}
	if (!r.guid)
		id_guid(r.id, type, &r.guid);
	r.guid_stated = r.guid != 0;
	r.sysimg = t->pend.sysimg;
	r.vendor = t->pend.vendor;
	r.device = t->pend.device;
	memset(&t->pend, 0, sizeof(t->pend));
	r.first_pl = t->npls;

	dup = find_id(t, r.id);
	if (dup != SIZE_MAX) {
		const struct rec *o = &t->recs[dup];

		if (o->type != r.type || o->nports != r.nports ||
		    (o->desc && r.desc && strcmp(o->desc, r.desc)) ||
		    (!o->desc) != (!r.desc) || o->guid != r.guid)
			return src_error(s, s->lineno,
					 "node '%s' again, but not as its record at line %u",
					 r.id, o->line);
		r.dup_of = dup;
	}
	if (ibtopo__grow(&t->recs, &t->arecs, t->nrecs + 1, sizeof(*t->recs)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	if (dup == SIZE_MAX && imap_put(&t->ids, str_key(r.id), t->nrecs))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	t->recs[t->nrecs] = r;
	t->cur = t->nrecs++;
	return 0;
}

/* ibsim: what a trailer "lid N <w>x<speed>" sets, as ibsim 0.10 (+NDR). */
static void sim_trailer_masks(struct pl *l, unsigned wnum, const char *speed,
			      size_t n)
{
	static const struct {
		const char *name;
		int s, e, m;	/* -1 = unchanged */
	} tab[] = {
		{ "SDR", 1, -1, -1 },
		{ "DDR", 3, -1, -1 },
		{ "QDR", 7, -1, -1 },
		{ "FDR", 7, 1, 1 },
		{ "EDR", 7, 3, 1 },
		{ "HDR", 7, 7, 1 },
		{ "NDR", 7, 15, 1 },
		{ "FDR10", 7, -1, 1 },
	};

	switch (wnum) {
	case 12:
		l->mw = 1 | 2 | 8;
		break;
	case 8:
		l->mw = 4;
		break;
	case 4:
		l->mw = 1 | 2;
		break;
	case 1:
		l->mw = 1;
		break;
	case 2:
		l->mw = 16;
		break;
	default:
		break;
	}
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(tab); i++) {
		if (strlen(tab[i].name) != n || memcmp(tab[i].name, speed, n))
			continue;
		l->ms = (uint8_t)tab[i].s;
		if (tab[i].e >= 0)
			l->me = (uint8_t)tab[i].e;
		if (tab[i].m >= 0)
			l->mm = (uint8_t)tab[i].m;
	}
}

/*
 * The comment of a port line. Switch ports: `"peer desc" lid N 4xQDR`;
 * CA ports: `lid N lmc M "peer desc" lid N 4xQDR`; extras may follow
 * (`s=1 w=2 v=4`, `slot 3`, `(scp)`). The peer's description may hold
 * quotes, so the numbers are read after the last quote.
 */
static int topo_trailer(struct topo *t, struct pl *l, const char *c)
{
	struct src *s = t->s;
	const char *q1 = strchr(c, '"'), *q2 = strrchr(c, '"');
	const char *post = q1 ? q2 + 1 : c;
	const enum ibtopo_node_type type = t->recs[l->rec].type;

	if (q1 && type != IBTOPO_NODE_SWITCH && !t->ibsim) {
		char pre[LINE_MAX_LEN + 1];

		memcpy(pre, c, (size_t)(q1 - c));
		pre[q1 - c] = '\0';
		find_lid_lmc(pre, &l->lid, &l->lmc);
	}
	for (const char *p = skip_ws(post); *p; p = skip_ws(p)) {
		const char *e = p;
		unsigned w, sp;
		int rc;

		while (*e && *e != ' ' && *e != '\t')
			e++;
		rc = parse_ws_token(p, (size_t)(e - p), &w, &sp);
		if (rc < 0)
			return src_error(s, s->lineno,
					 "unknown width or speed '%.*s' (expected e.g. 4xHDR)",
					 (int)(e - p), p);
		if (rc > 0) {
			l->width = (uint8_t)w;
			l->speed = (uint16_t)sp;
			if (t->ibsim) {
				size_t wl = 0;

				while (is_digit(p[wl]))
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
	struct src *s = t->s;
	const char *p = *pp;

	while (*p && *p != '#') {
		char opt = *p;
		unsigned long v, max;

		if (!((opt >= 'a' && opt <= 'z') || (opt >= 'A' && opt <= 'Z')) ||
		    p[1] != '=')
			return src_error(s, s->lineno,
					 "unexpected '%.20s' after the peer port (expected w=, s=, e= or '#')",
					 p);
		p += 2;
		max = opt == 'w' ? 31 : opt == 's' ? 7 : opt == 'e' ? 15 :
		      0xffffffffu;
		if (!parse_cnum(&p, max, &v) ||
		    ((opt == 'w' || opt == 's') && v == 0))
			return src_error(s, s->lineno,
					 "bad port option '%c=' (w=1..31, s=1..7, e=0..15)",
					 opt);
		if (opt == 'w')
			l->mw = (uint8_t)v;
		else if (opt == 's')
			l->ms = (uint8_t)v;
		else if (opt == 'e')
			l->me = (uint8_t)v;
		if (*p && *p != ' ' && *p != '\t' && *p != '#')
			return src_error(s, s->lineno,
					 "bad port option '%c=' (w=1..31, s=1..7, e=0..15)",
					 opt);
		p = skip_ws(p);
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
	p = skip_ws(p + 1);
	if (!parse_uint(&p, 255, &v))
		return false;
	p = skip_ws(p);
	if (*p != ']')
		return false;
	*port = (unsigned)v;
	p++;
	if (strncmp(p, "[ext ", 5) == 0) {
		const char *q = p + 5;

		if (parse_uint(&q, 255, &v) && *q == ']') {
			*ext = (unsigned)v;
			p = q + 1;
		}
	}
	*pp = p;
	return true;
}

static int topo_port_line(struct topo *t, const char *p)
{
	struct src *s = t->s;
	struct rec *r;
	struct pl l = { 0 };
	const char *q;
	int rc;

	if (t->cur == SIZE_MAX)
		return src_error(s, s->lineno,
				 "port line before any node record (expected 'Switch', 'Ca' or 'Rt' first)");
	r = &t->recs[t->cur];
	l.line = s->lineno;
	l.rec = t->cur;
	l.mw = r->defw;
	l.ms = r->defs;
	l.me = r->defe;
	if (!parse_port_ref(&p, &l.port, &l.ext))
		return src_error(s, s->lineno,
				 "malformed port line (expected '[<port>]' at its start)");
	p = skip_ws(p);
	if (*p == '(') {
		p++;
		if (!parse_hex64(&p, &l.pguid) || *p != ')')
			return src_error(s, s->lineno,
					 "malformed port line (expected '(<port guid>)' after '[%u]')",
					 l.port);
		p = skip_ws(p + 1);
	}
	if (*p != '"')
		return src_error(s, s->lineno,
				 "malformed port line (expected '\"<peer>\"[<port>]' after '[%u]')",
				 l.port);
	q = strchr(p + 1, '"');
	if (!q)
		return src_error(s, s->lineno,
				 "malformed port line (unterminated peer name)");
	if (q == p + 1)
		return src_error(s, s->lineno,
				 "malformed port line (empty peer name)");
	l.rid = arena_strndup(&t->arena, p + 1, (size_t)(q - p - 1));
	if (!l.rid)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	p = q + 1;
	if (!parse_port_ref(&p, &l.rport, &l.rext)) {
		if (!t->ibsim || *p == '[')
			return src_error(s, s->lineno,
					 "malformed port line (expected '[<port>]' after the peer name)");
		l.rport = 1;	/* ibsim's default */
	}
	p = skip_ws(p);
	if (*p == '(') {
		p++;
		if (!parse_hex64(&p, &l.rpguid) || *p != ')')
			return src_error(s, s->lineno,
					 "malformed port line (expected '(<port guid>)' after the peer port)");
		p = skip_ws(p + 1);
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
	struct src *s = t->s;
	int rc;

	for (rc = src_next(s); rc > 0; rc = src_next(s)) {
		const char *p = skip_ws(s->line);

		t->last_is_record = *p == '[' || word_at(p, "Switch") ||
				    word_at(p, "Ca") || word_at(p, "Hca") ||
				    word_at(p, "Rt") || word_at(p, "Rtr");
		if (*p == '\0' || *p == '#')
			continue;
		if (*p == '[') {
			rc = topo_port_line(t, p);
		} else if (word_at(p, "Switch")) {
			rc = topo_header(t, p, IBTOPO_NODE_SWITCH, 6);
		} else if (word_at(p, "Ca")) {
			rc = topo_header(t, p, IBTOPO_NODE_CA, 2);
		} else if (word_at(p, "Hca")) {
			rc = topo_header(t, p, IBTOPO_NODE_CA, 3);
		} else if (word_at(p, "Rt")) {
			rc = topo_header(t, p, IBTOPO_NODE_ROUTER, 2);
		} else if (word_at(p, "Rtr")) {
			rc = topo_header(t, p, IBTOPO_NODE_ROUTER, 3);
		} else if (*p == '@') {
			rc = src_error(s, s->lineno,
				       "ibsim port aliases ('@') are not supported");
		} else if (word_at(p, "include") || strncmp(p, "module", 6) == 0) {
			rc = src_error(s, s->lineno,
				       "ibsim '%.7s' is not supported (expected one self-contained file)",
				       p);
		} else {
			rc = topo_assignment(t, p);
			if (rc == 0) {
				/* -g grouping lines, ibwarn noise, ibsim commands */
				if (!word_at(p, "Chassis") &&
				    strncmp(p, "Non-Chassis Nodes", 17) &&
				    strncmp(p, "Hostname:", 9) &&
				    strncmp(p, "do", 2) && strncmp(p, "pdebug", 6))
					src_warn(s, "%s:%u: line ignored (not part of a node record)",
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
		return src_error(s, s->lineno ? s->lineno : 1,
				 "no node records (expected 'Switch', 'Ca' or 'Rt' lines)");
	return 0;
}

/* A repeated record must say exactly what the first one said. */
static int topo_check_dups(struct topo *t)
{
	struct src *s = t->s;
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
				rc = src_error(s, x->line,
					       "node '%s' again, but port %u differs from its record at line %u",
					       d->id, x->port, o->line);
		}
		if (!rc && d->npl != o->npl)
			rc = src_error(s, d->line,
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

/* Nodes with stated GUIDs first, so a name's GUID steps around them. */
static int topo_nodes(struct topo *t)
{
	struct src *s = t->s;
	int rc;

	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];
		const struct ibtopo_node *other;

		if (r->dup_of != SIZE_MAX || !r->guid)
			continue;
		other = ibtopo_fabric_find_node(t->f, r->guid);
		if (other) {
			for (size_t j = 0; j < i; j++)
				if (t->recs[j].node == other)
					return src_error(s, r->line,
							 "node '%s' has GUID 0x%016" PRIx64 ", as '%s' at line %u",
							 r->id, r->guid, t->recs[j].id,
							 t->recs[j].line);
		}
		rc = topo_add_node(t, r, r->guid);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < t->nrecs; i++) {
		struct rec *r = &t->recs[i];
		unsigned attempt = 0;
		uint64_t g;

		if (r->dup_of != SIZE_MAX || r->node)
			continue;
		do {
			g = name_guid_attempt(r->id, attempt++);
		} while (ibtopo_fabric_find_node(t->f, g) && attempt < 256);
		if (ibtopo_fabric_find_node(t->f, g))
			return src_error(s, r->line, "no free GUID for '%s'", r->id);
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

static const char *speed_width_text(unsigned width, unsigned speed, char *buf,
				    size_t len)
{
	snprintf(buf, len, "%s%s", width ? ibtopo_width_name(width) : "??",
		 speed ? ibtopo_speed_name(speed) : "???");
	return buf;
}

static void topo_warn_conflict(struct topo *t, const struct pl *a,
			       const struct pl *b)
{
	struct src *s = t->s;

	src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but %s:%u: port %u of '%s' says '%s'[%u]",
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
	struct src *s = t->s;
	int rc;

	for (size_t i = 0; i < t->npls; i++) {
		struct pl *l = &t->pls[i];
		struct rec *lr = &t->recs[l->rec], *rr;
		struct ibtopo_port *lp, *rp;
		struct ibtopo_link *link;
		size_t ri;

		if (lr->dup_of != SIZE_MAX)
			continue;
		ri = find_id(t, l->rid);
		if (ri == SIZE_MAX)
			return src_error(s, l->line,
					 "'%s' has no node record (truncated file?)",
					 l->rid);
		rr = &t->recs[ri];
		if (l->port < 1 || l->port > lr->nports)
			return src_error(s, l->line,
					 "port %u out of range ('%s' has ports 1..%u)",
					 l->port, lr->id, lr->nports);
		if (l->rport < 1 || l->rport > rr->nports)
			return src_error(s, l->line,
					 "peer port %u out of range ('%s' has ports 1..%u)",
					 l->rport, rr->id, rr->nports);
		if (lr == rr && l->port == l->rport)
			return src_error(s, l->line, "port %u linked to itself",
					 l->port);
		if (lr->own_pl[l->port])
			return src_error(s, l->line,
					 "port %u of '%s' listed twice (first at line %u)",
					 l->port, lr->id,
					 t->pls[lr->own_pl[l->port] - 1].line);
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

				src_warn(s, "%s:%u: port %u of '%s' says %s, but %s:%u: port %u of '%s' says %s",
					 s->name, o->line, o->port, t->recs[o->rec].id,
					 speed_width_text(link->width, link->speed, x, sizeof(x)),
					 s->name, l->line, l->port, lr->id,
					 speed_width_text(l->width, l->speed, y, sizeof(y)));
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
			continue;
		}
		if (rp->remote) {
			topo_warn_conflict(t, &t->pls[rr->link_pl[l->rport] - 1], l);
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
	struct src *s = t->s;

	for (size_t i = 0; i < t->nrecs; i++) {
		const struct rec *r = &t->recs[i];

		if (r->dup_of != SIZE_MAX)
			continue;
		for (unsigned p = 1; p <= r->nports; p++) {
			const struct pl *l;

			if (!r->link_pl[p] || r->own_pl[p])
				continue;
			l = &t->pls[r->link_pl[p] - 1];
			src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but '%s' (line %u) lists no port %u",
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

/* IBA enabled-width bits are ibtopo's width bits; speeds map bit by bit. */
static unsigned sim_speed_bits(unsigned base, unsigned ext, bool fdr10)
{
	unsigned v = 0;

	if (base & 1)
		v |= IBTOPO_SPEED_SDR;
	if (base & 2)
		v |= IBTOPO_SPEED_DDR;
	if (base & 4)
		v |= IBTOPO_SPEED_QDR;
	if (ext & 1)
		v |= IBTOPO_SPEED_FDR;
	if (ext & 2)
		v |= IBTOPO_SPEED_EDR;
	if (ext & 4)
		v |= IBTOPO_SPEED_HDR;
	if (ext & 8)
		v |= IBTOPO_SPEED_NDR;
	if (fdr10)
		v |= IBTOPO_SPEED_FDR10;
	return v;
}

/*
 * Train every link as ibsim does: the highest bit common to both ends'
 * enabled masks; the extended speed wins when one is common, then FDR10.
 * No common width or base speed makes ibsim stop, so it is an error here.
 */
static int sim_train(struct topo *t)
{
	struct src *s = t->s;
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
		unsigned w, b, e, m, active, line;
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
			return src_error(s, line,
					 "no enabled width common to both ends (w=%u and w=%u; ibsim would stop)",
					 ma[0], mb[0]);
		if (!b)
			return src_error(s, line,
					 "no enabled speed common to both ends (s=%u and s=%u; ibsim would stop)",
					 ma[1], mb[1]);
		link->width = (uint8_t)(w & 8 ? IBTOPO_WIDTH_12X :
					w & 4 ? IBTOPO_WIDTH_8X :
					w & 2 ? IBTOPO_WIDTH_4X :
					w & 16 ? IBTOPO_WIDTH_2X : IBTOPO_WIDTH_1X);
		if (e)
			active = ibtopo_speed_highest(sim_speed_bits(0, e, false));
		else if (m)
			active = IBTOPO_SPEED_FDR10;
		else
			active = ibtopo_speed_highest(sim_speed_bits(b, 0, false));
		link->speed = (uint16_t)active;
		for (int k = 0; k < 2; k++) {
			struct ibtopo_port *p = ends[k];
			const uint8_t *mk = masks[k];

			p->width_active = link->width;
			p->speed_active = link->speed;
			p->width_enabled = mk[0];
			p->width_supported = IBTOPO_WIDTH_ALL;
			p->speed_enabled = (uint16_t)sim_speed_bits(mk[1],
					e ? mk[2] : 0, mk[3] & 1);
			p->speed_supported = (uint16_t)sim_speed_bits(7,
					e ? (e & 8 ? 15 : 7) : 0, m);
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
	imap_release(&t->ids);
	arena_release(&t->arena);
}

static int read_topo(struct ibtopo_fabric **out, struct src *s, bool ibsim)
{
	struct topo t = { 0 };
	bool dump = true;
	int rc;

	t.s = s;
	t.ibsim = ibsim;
	t.cur = SIZE_MAX;
	t.netw = SIM_WIDTH_DEFAULT;
	t.nets = SIM_SPEED_DEFAULT;
	rc = topo_parse(&t);
	/* In a dump (GUIDs everywhere) every link is printed from both ends,
	 * and every line ends: a last line without its end was cut short,
	 * even when what is left of it parses. */
	for (size_t i = 0; !rc && i < t.nrecs && dump; i++)
		dump = t.recs[i].guid_stated;
	if (!rc && dump && !ibsim && t.last_is_record && !s->last_had_newline)
		rc = src_error(s, s->lineno,
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

/* ------------------------------------------------------------------ */
/* ibnetdiscover -p: the ports report                                  */
/* ------------------------------------------------------------------ */

/*
 * One line per port:
 *   CA  134  1 0x7cfe9003003b4bde 4x EDR - SW 1719 10 0x7cfe9003009ce5b0 ( 'a' - 'b' )
 *   SW 2052 37 0x506b4b03005c2740 4x ???                          'desc'
 * GUIDs are port GUIDs. A switch's ports share its node GUID; a CA's node
 * GUID is known only from the -v DR-path lines, else its port GUID stands
 * for it (a dual-port CA then shows as two nodes).
 */

struct pend_end {
	enum ibtopo_node_type type;
	unsigned lid, port;
	uint64_t pguid;
	char *desc;
};

struct pline {
	unsigned line;
	struct pend_end a, b;
	bool linked;
	unsigned width, speed;
	char *inner;		/* "a' - 'b" when the split was ambiguous */
};

struct pnode {
	uint64_t guid;
	enum ibtopo_node_type type;
	char *desc;
	unsigned line;		/* first line naming it */
	unsigned maxport;
	uint16_t lid;		/* switch: port 0 */
	struct ibtopo_node *node;
};

struct dr_edge {
	uint64_t from;		/* node GUID */
	unsigned port;
	uint64_t to;		/* node GUID */
	unsigned to_port;
	enum ibtopo_node_type to_type;	/* up edges: the CA's type */
	uint64_t claim;		/* up edges: the port GUID that took it */
};

struct ports {
	struct src *s;
	struct arena arena;
	struct pline *lines;
	size_t nlines, alines;
	struct pnode *nodes;
	size_t nnodes, anodes;
	struct imap node_idx;	/* node GUID -> pnode */
	struct dr_edge *edges;
	size_t nedges, aedges;
	struct imap edge_idx;	/* (from, port) -> edge */
	struct imap up_idx;	/* (switch, CA port) -> the CA it was reached from */
	struct imap path_idx;	/* DR path -> index into paths */
	char **paths;
	uint64_t *path_guid;
	enum ibtopo_node_type *path_type;	/* of the node at the path */
	size_t npaths, apaths, apath_guid, apath_type;
	struct ibtopo_fabric *f;
};

static enum ibtopo_node_type ports_type(const char *p, size_t n)
{
	if (n == 2 && memcmp(p, "CA", 2) == 0)
		return IBTOPO_NODE_CA;
	if (n == 2 && memcmp(p, "SW", 2) == 0)
		return IBTOPO_NODE_SWITCH;
	if (n == 2 && memcmp(p, "RT", 2) == 0)
		return IBTOPO_NODE_ROUTER;
	return IBTOPO_NODE_UNKNOWN;
}

/* "SW  1719 10 0x7cfe9003009ce5b0": type lid port guid */
static bool ports_end(const char **pp, struct pend_end *e)
{
	const char *p = skip_ws(*pp);
	unsigned long v;

	e->type = ports_type(p, 2);
	if (e->type == IBTOPO_NODE_UNKNOWN || (p[2] != ' ' && p[2] != '\t'))
		return false;
	p = skip_ws(p + 2);
	if (!parse_uint(&p, 0xffff, &v))
		return false;
	e->lid = (unsigned)v;
	p = skip_ws(p);
	if (!parse_uint(&p, 255, &v))
		return false;
	e->port = (unsigned)v;
	p = skip_ws(p);
	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
	    !parse_hex64(&p, &e->pguid))
		return false;
	*pp = p;
	return true;
}

static bool path_eq(const void *ctx, size_t i)
{
	const struct ports *r = ((const void *const *)ctx)[0];

	return strcmp(r->paths[i], ((const void *const *)ctx)[1]) == 0;
}

static uint64_t edge_key(uint64_t guid, unsigned port)
{
	return mix64(guid * 257 + port);
}

static int ports_add_edge(struct ports *r, uint64_t from, unsigned port,
			  uint64_t to, unsigned to_port)
{
	if (imap_find_u64(&r->edge_idx, edge_key(from, port)) != SIZE_MAX)
		return 0;
	if (ibtopo__grow(&r->edges, &r->aedges, r->nedges + 1, sizeof(*r->edges)))
		return IBTOPO_ENOMEM;
	r->edges[r->nedges] = (struct dr_edge){ from, port, to, to_port,
						 IBTOPO_NODE_UNKNOWN, 0 };
	if (imap_put(&r->edge_idx, edge_key(from, port), r->nedges))
		return IBTOPO_ENOMEM;
	r->nedges++;
	return 0;
}

/* DR path slid 0; dlid 0; 0,1,3 -> new Channel Adapter {f452140300135ae0} portnum 1 lid 0-0 "" */
static int ports_dr_line(struct ports *r, const char *p)
{
	struct src *s = r->s;
	const char *arrow, *path, *brace, *q;
	char key[LINE_MAX_LEN + 1];
	uint64_t guid;
	unsigned long portnum;
	size_t plen, parent;
	const void *ctx[2];

	arrow = strstr(p, " -> ");
	path = arrow;
	while (path && path > p && path[-1] != ' ' && path[-1] != ';')
		path--;
	brace = arrow ? strchr(arrow, '{') : NULL;
	q = brace ? brace + 1 : NULL;
	if (!arrow || !q || !parse_hex64(&q, &guid) || *q != '}' || !guid)
		return src_error(s, s->lineno,
				 "malformed DR path line (expected '<path> -> ... {<guid>} portnum <n>')");
	q = strstr(q, "portnum ");
	if (!q)
		return src_error(s, s->lineno,
				 "malformed DR path line (expected 'portnum <n>')");
	q += 8;
	if (!parse_uint(&q, 255, &portnum))
		return src_error(s, s->lineno,
				 "malformed DR path line (expected a number after 'portnum')");
	plen = (size_t)(arrow - path);
	memcpy(key, path, plen);
	key[plen] = '\0';
	ctx[0] = r;
	ctx[1] = key;
	if (imap_find(&r->path_idx, str_key(key), path_eq, ctx) == SIZE_MAX) {
		if (ibtopo__grow(&r->paths, &r->apaths, r->npaths + 1,
			       sizeof(*r->paths)) ||
		    ibtopo__grow(&r->path_guid, &r->apath_guid, r->npaths + 1,
			       sizeof(*r->path_guid)) ||
		    ibtopo__grow(&r->path_type, &r->apath_type, r->npaths + 1,
			       sizeof(*r->path_type)))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		r->path_type[r->npaths] =
			strstr(arrow, " Switch ") ? IBTOPO_NODE_SWITCH :
			strstr(arrow, " Router ") ? IBTOPO_NODE_ROUTER :
			IBTOPO_NODE_CA;
		r->paths[r->npaths] = arena_strndup(&r->arena, key, plen);
		if (!r->paths[r->npaths] ||
		    imap_put(&r->path_idx, str_key(key), r->npaths))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		r->path_guid[r->npaths++] = guid;
	}
	/* the node at the parent path, left through the last hop's port */
	q = strrchr(key, ',');
	if (!q)
		return 0;
	key[q - key] = '\0';
	parent = imap_find(&r->path_idx, str_key(key), path_eq, ctx);
	if (parent != SIZE_MAX) {
		const char *hop = q + 1;
		unsigned long out_port;

		if (!parse_uint(&hop, 255, &out_port))
			return src_error(s, s->lineno,
					 "malformed DR path line (bad path '%.*s')",
					 (int)plen, path);
		if (ports_add_edge(r, r->path_guid[parent], (unsigned)out_port,
				   guid, (unsigned)portnum) ||
		    ports_add_edge(r, guid, (unsigned)portnum,
				   r->path_guid[parent], (unsigned)out_port))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		/*
		 * A switch reports no entry port ("portnum 0"), so the CA the
		 * walk started from is found by the switch and its own port.
		 */
		if (!portnum && r->path_type[parent] != IBTOPO_NODE_SWITCH &&
		    imap_find_u64(&r->up_idx, edge_key(guid, (unsigned)out_port)) ==
		    SIZE_MAX) {
			if (ibtopo__grow(&r->edges, &r->aedges, r->nedges + 1,
				       sizeof(*r->edges)) ||
			    imap_put(&r->up_idx, edge_key(guid, (unsigned)out_port),
				     r->nedges))
				return ibtopo__error_set(s->err, IBTOPO_ENOMEM,
							 "out of memory");
			r->edges[r->nedges++] = (struct dr_edge){
				guid, (unsigned)out_port, r->path_guid[parent],
				(unsigned)out_port, r->path_type[parent], 0 };
		}
	}
	return 0;
}

static int ports_port_line(struct ports *r, const char *p)
{
	struct src *s = r->s;
	struct pline l = { 0 };
	const char *e;
	size_t n;

	l.line = s->lineno;
	if (!ports_end(&p, &l.a))
		return src_error(s, s->lineno,
				 "malformed port line (expected '<CA|SW|RT> <lid> <port> 0x<guid>')");
	if (!l.a.pguid)
		return src_error(s, s->lineno,
				 "port GUID 0 (expected a non-zero GUID)");
	p = skip_ws(p);
	for (e = p; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (!parse_width_text(p, (size_t)(e - p), &l.width))
		return src_error(s, s->lineno,
				 "malformed port line (expected a width such as '4x' after the GUID)");
	p = skip_ws(e);
	for (e = p; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (!parse_speed_text(p, (size_t)(e - p), &l.speed))
		return src_error(s, s->lineno,
				 "malformed port line (expected a speed such as 'QDR' after the width)");
	p = skip_ws(e);
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (*p == '-') {
		const char *sep, *inner;
		size_t ilen;

		p++;
		if (!ports_end(&p, &l.b))
			return src_error(s, s->lineno,
					 "malformed port line (expected '- <CA|SW|RT> <lid> <port> 0x<guid>')");
		if (!l.b.pguid)
			return src_error(s, s->lineno,
					 "peer port GUID 0 (expected a non-zero GUID)");
		p = skip_ws(p);
		n = strlen(p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n < 6 || strncmp(p, "( '", 3) || strncmp(p + n - 3, "' )", 3))
			return src_error(s, s->lineno,
					 "malformed port line (expected \"( '<desc>' - '<desc>' )\")");
		inner = p + 3;
		ilen = n - 6;
		sep = NULL;
		for (size_t i = 0; i + 5 <= ilen; i++) {
			if (memcmp(inner + i, "' - '", 5) == 0) {
				if (sep) {
					l.inner = arena_strndup(&r->arena, inner, ilen);
					if (!l.inner)
						return IBTOPO_ENOMEM;
					break;
				}
				sep = inner + i;
			}
		}
		if (!sep)
			return src_error(s, s->lineno,
					 "malformed port line (expected \"'<desc>' - '<desc>'\" in the parentheses)");
		l.a.desc = arena_strndup(&r->arena, inner, (size_t)(sep - inner));
		l.b.desc = arena_strndup(&r->arena, sep + 5,
					 ilen - (size_t)(sep - inner) - 5);
		if (!l.a.desc || !l.b.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		l.linked = true;
	} else if (*p == '\'' && n >= 2 && p[n - 1] == '\'') {
		l.a.desc = arena_strndup(&r->arena, p + 1, n - 2);
		if (!l.a.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		/* a port with no peer: its active values mean nothing */
		l.width = l.speed = 0;
	} else {
		return src_error(s, s->lineno,
				 "malformed port line (expected \"- <peer>\" or \"'<desc>'\" after the speed)");
	}
	if (ibtopo__grow(&r->lines, &r->alines, r->nlines + 1, sizeof(*r->lines)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	r->lines[r->nlines++] = l;
	return 0;
}

static int ports_parse(struct ports *r)
{
	struct src *s = r->s;
	int rc;

	for (rc = src_next(s); rc > 0; rc = src_next(s)) {
		const char *p = skip_ws(s->line);

		if (*p == '\0' || *p == '#')
			continue;
		if (strncmp(p, "DR path ", 8) == 0)
			rc = ports_dr_line(r, p);
		else if (ports_type(p, 2) != IBTOPO_NODE_UNKNOWN &&
			 (p[2] == ' ' || p[2] == '\t'))
			rc = ports_port_line(r, p);
		else
			src_warn(s, "%s:%u: line ignored (not a port line)", s->name,
				 s->lineno);
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (!r->nlines)
		return src_error(s, s->lineno ? s->lineno : 1,
				 "no port lines (expected '<CA|SW|RT> <lid> <port> 0x<guid> ...')");
	return 0;
}

/*
 * A CA port's node GUID from the DR edges, else its port GUID. The CA the
 * walk started from has no edge into it (a switch reports no entry port):
 * the first port of its type on that switch, with that port number and
 * unexplained by another edge, takes it.
 */
static uint64_t ports_node_guid(struct ports *r, const struct pend_end *e,
				const struct pend_end *peer)
{
	struct dr_edge *up;
	size_t k;

	if (e->type == IBTOPO_NODE_SWITCH || !peer ||
	    peer->type != IBTOPO_NODE_SWITCH)
		return e->pguid;
	k = imap_find_u64(&r->edge_idx, edge_key(peer->pguid, peer->port));
	if (k != SIZE_MAX)
		return r->edges[k].to_port == e->port ? r->edges[k].to : e->pguid;
	k = imap_find_u64(&r->up_idx, edge_key(peer->pguid, e->port));
	if (k == SIZE_MAX)
		return e->pguid;
	up = &r->edges[k];
	if (up->to_type != e->type || (up->claim && up->claim != e->pguid))
		return e->pguid;
	up->claim = e->pguid;
	return up->to;
}

static int ports_note_node(struct ports *r, const struct pline *l,
			   const struct pend_end *e, uint64_t guid, size_t *out)
{
	struct src *s = r->s;
	size_t k = imap_find_u64(&r->node_idx, mix64(guid));
	struct pnode *n;

	if (k == SIZE_MAX) {
		if (ibtopo__grow(&r->nodes, &r->anodes, r->nnodes + 1,
			       sizeof(*r->nodes)) ||
		    imap_put(&r->node_idx, mix64(guid), r->nnodes))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		k = r->nnodes++;
		r->nodes[k] = (struct pnode){ .guid = guid, .type = e->type,
					      .desc = e->desc, .line = l->line };
	}
	n = &r->nodes[k];
	if (n->type != e->type)
		return src_error(s, l->line,
				 "GUID 0x%016" PRIx64 " is a %s here, a %s at line %u",
				 guid, type_word(e->type), type_word(n->type), n->line);
	if (e->desc && !n->desc)
		n->desc = e->desc;
	else if (e->desc && strcmp(e->desc, n->desc))
		return src_error(s, l->line,
				 "GUID 0x%016" PRIx64 " is '%s' here, '%s' at line %u",
				 guid, e->desc, n->desc, n->line);
	if (e->port > n->maxport)
		n->maxport = e->port;
	if (e->type == IBTOPO_NODE_SWITCH && e->lid && !n->lid)
		n->lid = (uint16_t)e->lid;
	*out = k;
	return 0;
}

/* Pick the split of "a' - 'b" whose halves match descriptions seen elsewhere. */
static int ports_resolve_inner(struct ports *r, struct pline *l)
{
	size_t ilen = strlen(l->inner);
	size_t ka = imap_find_u64(&r->node_idx,
				  mix64(ports_node_guid(r, &l->a, &l->b)));
	size_t kb = imap_find_u64(&r->node_idx,
				  mix64(ports_node_guid(r, &l->b, &l->a)));
	const char *da = ka != SIZE_MAX ? r->nodes[ka].desc : NULL;
	const char *db = kb != SIZE_MAX ? r->nodes[kb].desc : NULL;

	for (size_t i = 0; i + 5 <= ilen; i++) {
		if (memcmp(l->inner + i, "' - '", 5))
			continue;
		if ((da && strlen(da) == i && memcmp(da, l->inner, i) == 0) ||
		    (db && strcmp(db, l->inner + i + 5) == 0)) {
			l->a.desc = arena_strndup(&r->arena, l->inner, i);
			l->b.desc = arena_strndup(&r->arena, l->inner + i + 5,
						  ilen - i - 5);
			if (!l->a.desc || !l->b.desc)
				return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM,
							 "out of memory");
			break;
		}
	}
	return 0;
}

static void ports_warn_conflict(struct ports *r, const struct pline *x,
				const struct pline *y)
{
	struct src *s = r->s;

	src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but %s:%u: port %u of '%s' says '%s'[%u]",
		 s->name, x->line, x->a.port, x->a.desc, x->b.desc, x->b.port,
		 s->name, y->line, y->a.port, y->a.desc, y->b.desc, y->b.port);
}

static int ports_build(struct ports *r)
{
	struct src *s = r->s;
	struct imap link_line = { 0 };	/* port (guid, num) -> line index */
	int rc = 0;

	/* nodes: unambiguous lines first, so ambiguous splits can use them */
	for (int pass = 0; pass < 2 && !rc; pass++) {
		for (size_t i = 0; i < r->nlines && !rc; i++) {
			struct pline *l = &r->lines[i];
			size_t ka, kb;

			if ((pass == 0) == (l->inner != NULL))
				continue;
			if (l->inner)
				rc = ports_resolve_inner(r, l);
			if (!rc)
				rc = ports_note_node(r, l, &l->a,
						     ports_node_guid(r, &l->a,
								     l->linked ? &l->b : NULL),
						     &ka);
			if (!rc && l->linked)
				rc = ports_note_node(r, l, &l->b,
						     ports_node_guid(r, &l->b, &l->a),
						     &kb);
		}
	}
	if (rc)
		goto out;
	rc = ibtopo_fabric_new(&r->f, s->err);
	for (size_t i = 0; i < r->nnodes && !rc; i++) {
		struct pnode *n = &r->nodes[i];
		struct ibtopo_port *p0;

		rc = ibtopo_fabric_add_node(&n->node, r->f, n->type, n->guid,
					    n->maxport ? n->maxport : 1,
					    n->desc ? n->desc : "", s->err);
		if (!rc && n->type == IBTOPO_NODE_SWITCH && n->lid) {
			rc = ibtopo_node_add_port(&p0, r->f, n->node, 0, s->err);
			if (!rc) {
				p0->lid = n->lid;
				p0->guid = n->guid;
				rc = ibtopo_fabric_index_port(r->f, p0, s->err);
			}
		}
	}
	for (size_t i = 0; i < r->nlines && !rc; i++) {
		struct pline *l = &r->lines[i];
		struct pend_end *ends[2] = { &l->a, &l->b };
		struct ibtopo_port *ports[2] = { NULL, NULL };
		struct ibtopo_link *link;
		size_t k;

		for (int j = 0; j < (l->linked ? 2 : 1) && !rc; j++) {
			struct pend_end *e = ends[j];
			uint64_t g = ports_node_guid(r, e, l->linked ? ends[1 - j] : NULL);
			struct pnode *n = &r->nodes[imap_find_u64(&r->node_idx, mix64(g))];

			if (e->port == 0 || e->port > n->node->nports) {
				rc = src_error(s, l->line, "port %u out of range",
					       e->port);
				break;
			}
			rc = ibtopo_node_add_port(&ports[j], r->f, n->node, e->port,
						  s->err);
			if (rc)
				break;
			if (!ports[j]->guid) {
				ports[j]->guid = e->pguid;
				rc = ibtopo_fabric_index_port(r->f, ports[j], s->err);
			}
			if (n->type != IBTOPO_NODE_SWITCH && e->lid)
				ports[j]->lid = (uint16_t)e->lid;
		}
		if (rc || !l->linked)
			continue;
		if (ports[0] == ports[1]) {
			rc = src_error(s, l->line, "port %u linked to itself",
				       l->a.port);
			break;
		}
		if (ports[0]->remote == ports[1]) {
			link = ports[0]->link;
			k = imap_find_u64(&link_line,
					  edge_key(ports[0]->node->guid, ports[0]->num));
			if ((l->speed && link->speed && l->speed != link->speed) ||
			    (l->width && link->width && l->width != link->width)) {
				char x[16], y[16];
				const struct pline *o = &r->lines[k];

				src_warn(s, "%s:%u: port %u of '%s' says %s, but %s:%u: port %u of '%s' says %s",
					 s->name, o->line, o->a.port, o->a.desc,
					 speed_width_text(link->width, link->speed, x, sizeof(x)),
					 s->name, l->line, l->a.port, l->a.desc,
					 speed_width_text(l->width, l->speed, y, sizeof(y)));
			}
			continue;
		}
		for (int j = 0; j < 2; j++) {
			if (!ports[j]->remote)
				continue;
			k = imap_find_u64(&link_line,
					  edge_key(ports[j]->node->guid, ports[j]->num));
			ports_warn_conflict(r, &r->lines[k], l);
			break;
		}
		if (ports[0]->remote || ports[1]->remote)
			continue;
		ports[0]->speed_active = ports[1]->speed_active = (uint16_t)l->speed;
		ports[0]->width_active = ports[1]->width_active = (uint8_t)l->width;
		rc = ibtopo_fabric_connect(&link, r->f, ports[0], ports[1], s->err);
		for (int j = 0; j < 2 && !rc; j++)
			if (imap_put(&link_line,
				     edge_key(ports[j]->node->guid, ports[j]->num), i))
				rc = ibtopo__error_set(s->err, IBTOPO_ENOMEM,
						       "out of memory");
	}
out:
	imap_release(&link_line);
	return rc;
}

static int cmp_str_ptr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/*
 * Without the -v DR-path lines a report names CA ports, never CAs: each
 * port GUID stands for a node, so a dual-port CA reads as two. Say so
 * once, with the count, and how to get a report that joins them.
 */
static int ports_warn_unjoined(struct ports *r)
{
	struct src *s = r->s;
	const char **descs;
	size_t ncas = 0, alike = 0;

	if (r->npaths || !s->opts || !s->opts->warn)
		return 0;
	descs = calloc(r->nnodes + 1, sizeof(*descs));
	if (!descs)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].type != IBTOPO_NODE_SWITCH)
			descs[ncas++] = r->nodes[i].desc ? r->nodes[i].desc : "";
	qsort(descs, ncas, sizeof(*descs), cmp_str_ptr);
	for (size_t i = 0; i < ncas; i++)
		if ((i > 0 && strcmp(descs[i], descs[i - 1]) == 0) ||
		    (i + 1 < ncas && strcmp(descs[i], descs[i + 1]) == 0))
			alike++;
	free(descs);
	if (!ncas)
		return 0;
	if (alike)
		src_warn(s, "%s: %zu CA ports read as %zu CAs (%zu of them share a "
			 "description with another): without -v an ibnetdiscover -p "
			 "report cannot join the ports of one CA; run "
			 "`ibnetdiscover -p -v` for one node per CA", s->name,
			 ncas, ncas, alike);
	else
		src_warn(s, "%s: %zu CA ports read as %zu CAs: without -v an "
			 "ibnetdiscover -p report cannot join the ports of one CA; "
			 "run `ibnetdiscover -p -v` for one node per CA", s->name,
			 ncas, ncas);
	return 0;
}

static int read_ports(struct ibtopo_fabric **out, struct src *s)
{
	struct ports r = { 0 };
	int rc;

	r.s = s;
	rc = ports_parse(&r);
	if (!rc)
		rc = ports_build(&r);
	if (!rc)
		rc = ports_warn_unjoined(&r);
	if (!rc) {
		ibtopo_fabric_sort(r.f);
		*out = r.f;
		r.f = NULL;
	}
	ibtopo_fabric_free(r.f);
	free(r.lines);
	free(r.nodes);
	free(r.edges);
	free(r.paths);
	free(r.path_guid);
	free(r.path_type);
	imap_release(&r.up_idx);
	imap_release(&r.node_idx);
	imap_release(&r.edge_idx);
	imap_release(&r.path_idx);
	arena_release(&r.arena);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Format detection and the entry point                                */
/* ------------------------------------------------------------------ */

static bool looks_like_ports_line(const char *p, size_t n)
{
	struct pend_end e;
	char buf[128];
	const char *q = buf;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return ports_end(&q, &e);
}

/* A port line with ibsim options (w= s= e=) before its comment. */
static bool has_sim_options(const char *p, size_t n)
{
	for (size_t i = 1; i + 1 < n && p[i] != '#'; i++)
		if (p[i + 1] == '=' && (p[i] == 'w' || p[i] == 's' || p[i] == 'e') &&
		    (p[i - 1] == ' ' || p[i - 1] == '\t'))
			return true;
	return false;
}

static bool line_word(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n > k && strncmp(p, w, k) == 0 && (p[k] == ' ' || p[k] == '\t');
}

static bool line_key(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n > k && strncmp(p, w, k) == 0 && (p[k] == '=' || p[k] == ' ');
}

enum ibtopo_file_format ibtopo_file_format_detect(const char *buf, size_t len)
{
	bool records = false, sim = false;
	size_t pos = 0;

	while (pos < len && buf) {
		const char *p = buf + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;

		pos += n + 1;
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (!n || *p == '#')
			continue;
		if (!records && ((n > 8 && strncmp(p, "DR path ", 8) == 0) ||
				 looks_like_ports_line(p, n)))
			return IBTOPO_FILE_PORTS;
		if (line_word(p, n, "Hca") || line_key(p, n, "width") ||
		    line_key(p, n, "speed") || line_key(p, n, "extspeed") ||
		    (*p == '[' && has_sim_options(p, n)))
			sim = true;
		if (line_word(p, n, "Switch") || line_word(p, n, "Ca") ||
		    line_word(p, n, "Hca") || line_word(p, n, "Rt") ||
		    line_word(p, n, "Rtr"))
			records = true;
	}
	if (sim)
		return IBTOPO_FILE_IBSIM;
	return records ? IBTOPO_FILE_IBNETDISCOVER : IBTOPO_FILE_AUTO;
}

static const char *const format_names[] = {
	[IBTOPO_FILE_AUTO] = "auto",
	[IBTOPO_FILE_CACHE] = "cache",
	[IBTOPO_FILE_IBNETDISCOVER] = "ibnetdiscover",
	[IBTOPO_FILE_PORTS] = "ports",
	[IBTOPO_FILE_IBSIM] = "ibsim",
};

const char *ibtopo_file_format_name(enum ibtopo_file_format format)
{
	if ((size_t)format >= IBTOPO__ARRAY_SIZE(format_names))
		return "?";
	return format_names[format];
}

int ibtopo_file_format_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(format_names); i++)
		if (strcmp(name, format_names[i]) == 0)
			return (int)i;
	if (strcmp(name, "plan") == 0)
		return IBTOPO_FILE_IBNETDISCOVER;
	return -1;
}

int ibtopo_fabric_read_buffer(struct ibtopo_fabric **out, const char *buf,
			      size_t len, const char *name,
			      const struct ibtopo_read_opts *opts,
			      struct ibtopo_error *err)
{
	enum ibtopo_file_format format = opts ? opts->format : IBTOPO_FILE_AUTO;
	struct ibtopo_name_map *map = NULL;
	struct ibtopo_fabric *f = NULL;
	struct src *s;
	int rc;

	if (!out || (!buf && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no buffer to read");
	*out = NULL;
	if (opts && opts->version < 1)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad read options version %u", opts->version);
	if (format == IBTOPO_FILE_CACHE)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': cache files are read from a path",
					 name ? name : "<buffer>");
	s = malloc(sizeof(*s));
	if (!s)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	src_init(s, buf, len, name, opts, err);
	rc = src_check_text(s);
	if (rc)
		goto out_free_src;
	if (format == IBTOPO_FILE_AUTO)
		format = ibtopo_file_format_detect(buf, len);
	switch (format) {
	case IBTOPO_FILE_IBNETDISCOVER:
		rc = read_topo(&f, s, false);
		break;
	case IBTOPO_FILE_IBSIM:
		rc = read_topo(&f, s, true);
		break;
	case IBTOPO_FILE_PORTS:
		rc = read_ports(&f, s);
		break;
	default:
		rc = src_error(s, 1, "not a fabric file (expected ibnetdiscover output, an ibnetdiscover -p report or an ibsim net file)");
		break;
	}
	if (rc)
		goto out_free_src;
	if (opts && opts->node_name_map) {
		rc = ibtopo_name_map_load(&map, opts->node_name_map, err);
		if (!rc)
			rc = ibtopo_name_map_apply(map, f, NULL, err);
		ibtopo_name_map_free(map);
		if (rc)
			goto out_free_fabric;
	}
	*out = f;
	f = NULL;
out_free_fabric:
	ibtopo_fabric_free(f);
out_free_src:
	free(s);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Node-name maps                                                      */
/* ------------------------------------------------------------------ */

struct name_entry {
	uint64_t guid;
	char *name;
	size_t order;
};

struct ibtopo_name_map {
	struct name_entry *items;
	size_t count, alloc;
	struct arena arena;
};

void ibtopo_name_map_free(struct ibtopo_name_map *map)
{
	if (!map)
		return;
	free(map->items);
	arena_release(&map->arena);
	free(map);
}

static int cmp_entry(const void *x, const void *y)
{
	const struct name_entry *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int map_line(struct ibtopo_name_map *m, struct src *s, const char *p)
{
	uint64_t guid;
	const char *e;
	char *name;

	if ((p[0] == 'S' || p[0] == 'H' || p[0] == 'R') && p[1] == '-')
		p += 2;
	else if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return src_error(s, s->lineno,
				 "expected '0x<guid> \"<name>\"' or 'H-<guid> <name>'");
	if (!parse_hex64(&p, &guid) || (*p != ' ' && *p != '\t'))
		return src_error(s, s->lineno,
				 "expected a GUID of up to 16 hex digits, then the name");
	p = skip_ws(p);
	if (*p == '"') {
		e = strchr(p + 1, '"');
		if (!e)
			return src_error(s, s->lineno, "unterminated name");
		name = arena_strndup(&m->arena, p + 1, (size_t)(e - p - 1));
		if (*skip_ws(e + 1) && *skip_ws(e + 1) != '#')
			return src_error(s, s->lineno,
					 "unexpected text after the quoted name");
	} else {
		e = strchr(p, '#');
		if (!e)
			e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		name = arena_strndup(&m->arena, p, (size_t)(e - p));
	}
	if (!name)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	if (!*name)
		return src_error(s, s->lineno, "expected a name after the GUID");
	if (ibtopo__grow(&m->items, &m->alloc, m->count + 1, sizeof(*m->items)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	m->items[m->count] = (struct name_entry){ guid, name, m->count };
	m->count++;
	return 0;
}

int ibtopo_name_map_parse(struct ibtopo_name_map **out, const char *buf,
			  size_t len, const char *name, struct ibtopo_error *err)
{
	struct ibtopo_name_map *m;
	struct src *s;
	size_t k = 0;
	int rc;

	if (!out || (!buf && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map to parse");
	*out = NULL;
	m = calloc(1, sizeof(*m));
	s = malloc(sizeof(*s));
	if (!m || !s) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	src_init(s, buf, len, name, NULL, err);
	for (rc = src_next(s); rc > 0; rc = src_next(s)) {
		const char *p = skip_ws(s->line);

		for (const char *c = p; *c; c++) {
			if (!is_text_byte((unsigned char)*c)) {
				rc = src_error(s, s->lineno,
					       "binary data (expected text)");
				goto out_free;
			}
		}
		if (*p == '\0' || *p == '#')
			continue;
		rc = map_line(m, s, p);
		if (rc)
			goto out_free;
	}
	if (rc < 0)
		goto out_free;
	if (memchr(buf, '\0', len)) {
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
				       "%s: binary data (expected text)", s->name);
		goto out_free;
	}
	/* sorted by GUID, the first entry of each GUID kept */
	if (m->count)
		qsort(m->items, m->count, sizeof(*m->items), cmp_entry);
	for (size_t i = 0; i < m->count; i++)
		if (!k || m->items[k - 1].guid != m->items[i].guid)
			m->items[k++] = m->items[i];
	m->count = k;
	*out = m;
	m = NULL;
	rc = 0;
out_free:
	free(s);
	ibtopo_name_map_free(m);
	return rc;
}

/* Whole file into memory (the readers want random access and line numbers). */
static int slurp(char **out, size_t *out_len, const char *path,
		 struct ibtopo_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t len = 0, alloc = 0, n;
	int rc = 0;

	if (!f)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot open '%s': %s",
					 path, strerror(errno));
	do {
		if (alloc - len < 65536) {
			alloc = alloc ? alloc * 2 : 1 << 20;
			nb = realloc(buf, alloc);
			if (!nb) {
				rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
						       "out of memory");
				goto out_close;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f))
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot read '%s': %s",
				       path, strerror(errno));
out_close:
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int ibtopo__read_whole_file(char **out, size_t *out_len, const char *path,
			    struct ibtopo_error *err)
{
	return slurp(out, out_len, path, err);
}

int ibtopo_name_map_load(struct ibtopo_name_map **out, const char *path,
			 struct ibtopo_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map file");
	*out = NULL;
	rc = slurp(&buf, &len, path, err);
	if (rc)
		return rc;
	rc = ibtopo_name_map_parse(out, buf, len, path, err);
	free(buf);
	return rc;
}

const char *ibtopo_name_map_lookup(const struct ibtopo_name_map *map,
				   uint64_t guid)
{
	size_t lo = 0, hi = map ? map->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->items[mid].guid == guid)
			return map->items[mid].name;
		if (map->items[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t ibtopo_name_map_count(const struct ibtopo_name_map *map)
{
	return map ? map->count : 0;
}

int ibtopo_name_map_apply(const struct ibtopo_name_map *map,
			  struct ibtopo_fabric *fabric, size_t *out_renamed,
			  struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_node_count(fabric), renamed = 0;
	int rc;

	if (!map || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map or fabric");
	for (size_t i = 0; i < n; i++) {
		struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);
		const char *name = ibtopo_name_map_lookup(map, node->guid);

		if (!name || strcmp(name, node->desc) == 0)
			continue;
		rc = ibtopo_node_set_desc(node, name, err);
		if (rc)
			return rc;
		renamed++;
	}
	if (out_renamed)
		*out_renamed = renamed;
	return 0;
}
