/*
 * cables.c - cable data: the inventory CSV and ibdiagnet2 db_csv readers,
 * the NVIDIA/Mellanox LinkX part-number decoder, and the reach table of
 * data/cable-reach.tsv (compiled in, overridable with a file).
 */
#include "io/io-int.h"
#include "findings/findings-int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NSPEEDS 9	/* SDR .. XDR, one per enum ibtopo_speed bit */
#define NMEDIA 6	/* enum ibtopo_media */
#define MAX_FIELDS 512	/* db_csv CABLE_INFO has ~200 columns */

/* ---------------------------------------------------------------- text */

static char *trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Empty, "N/A" or "NA": ibdiagnet's way of saying unknown. */
static bool is_blank(const char *s)
{
	return !s || !*s || strcasecmp(s, "N/A") == 0 || strcasecmp(s, "NA") == 0;
}

/* Lines of a buffer, split in place; CR before LF dropped. */
struct lines {
	char *p;
	unsigned no;	/* number of the line last returned */
};

static char *next_line(struct lines *it)
{
	char *line = it->p, *nl;
	size_t n;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		it->p = nl + 1;
	} else {
		it->p = line + strlen(line);
	}
	n = strlen(line);
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	it->no++;
	return line;
}

/*
 * Split one CSV record in place (RFC 4180 quoting within the line).
 * Fields are trimmed. Returns the field count, or -1 for an unterminated
 * quote. Fields beyond `max` are dropped.
 */
static int csv_split(char *line, char **fields, int max)
{
	char *r = line, *w;
	int n = 0;

	for (;;) {
		char *start;

		while (*r == ' ' || *r == '\t')
			r++;
		start = w = r;
		if (*r == '"') {
			r++;
			for (;;) {
				if (!*r)
					return -1;
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			/* anything up to the comma after a closing quote */
			while (*r && *r != ',')
				r++;
		} else {
			while (*r && *r != ',')
				r++;
			w = r;
		}
		{
			bool more = *r == ',';

			*w = '\0';
			if (n < max)
				fields[n] = trim(start);
			n++;
			if (!more)
				break;
			r++;
		}
	}
	return n < max ? n : max;
}

/* ------------------------------------------------------- part numbers */

static const struct {
	const char *family;
	enum ibtopo_media media;
	bool cable;	/* carries a length code */
} linkx_families[] = {
	{ "MCP", IBTOPO_MEDIA_PASSIVE_COPPER, true },
	{ "MCA", IBTOPO_MEDIA_ACTIVE_COPPER, true },
	{ "MFA", IBTOPO_MEDIA_AOC, true },
	{ "MFS", IBTOPO_MEDIA_AOC, true },
	{ "MMA", IBTOPO_MEDIA_MULTIMODE, false },
	{ "MMS", IBTOPO_MEDIA_SINGLEMODE, false },
};

static unsigned linkx_rate(char c)
{
	switch (c) {
	case 'E':
		return IBTOPO_SPEED_EDR;
	case 'H':
		return IBTOPO_SPEED_HDR;
	case 'N':
		return IBTOPO_SPEED_NDR;
	default:
		return 0;	/* e.g. C (100GbE) or V (200GbE): no IB rating */
	}
}

int ibtopo_cable_decode_part_number(struct ibtopo_cable *out,
				    const char *part_number)
{
	char pn[32];
	size_t i, n = 0;
	const char *s = part_number;
	double length = 0;

	if (!out || !s)
		return IBTOPO_ENOTFOUND;
	while (isspace((unsigned char)*s))
		s++;
	for (; s[n] && !isspace((unsigned char)s[n]) && n + 1 < sizeof(pn); n++)
		pn[n] = (char)toupper((unsigned char)s[n]);
	pn[n] = '\0';
	/* FAMILY + 4 alphanumerics (e.g. MCP1600, MFS1S00) + '-' + rate */
	if (n < 9 || pn[7] != '-')
		return IBTOPO_ENOTFOUND;
	for (i = 3; i < 7; i++)
		if (!isalnum((unsigned char)pn[i]))
			return IBTOPO_ENOTFOUND;
	for (i = 0; i < IBTOPO__ARRAY_SIZE(linkx_families); i++)
		if (strncmp(pn, linkx_families[i].family, 3) == 0)
			break;
	if (i == IBTOPO__ARRAY_SIZE(linkx_families) || !isalpha((unsigned char)pn[8]))
		return IBTOPO_ENOTFOUND;
	/* Length code after the rate letter: 002 = 2 m, 00A = 0.5 m, 01A = 1.5 m */
	if (linkx_families[i].cable && n >= 12 && isdigit((unsigned char)pn[9]) &&
	    isdigit((unsigned char)pn[10]) &&
	    (isdigit((unsigned char)pn[11]) || pn[11] == 'A')) {
		if (pn[11] == 'A')
			length = (pn[9] - '0') * 10 + (pn[10] - '0') + 0.5;
		else
			length = (pn[9] - '0') * 100 + (pn[10] - '0') * 10 +
				 (pn[11] - '0');
	}
	out->media = linkx_families[i].media;
	out->rated_speed = linkx_rate(pn[8]);
	out->length_m = length;
	return 0;
}

/* --------------------------------------------------------- reach table */

struct ibtopo__reach {
	double m[NSPEEDS][NMEDIA];
	unsigned line[NSPEEDS][NMEDIA];	/* where each row came from */
};

static const char builtin_reach[] =
#include "lib/cable-reach-tsv.h"
	;

static int speed_index(unsigned speed)
{
	for (int i = 0; i < NSPEEDS; i++)
		if (speed == (1u << i))
			return i;
	return -1;
}

int ibtopo__reach_parse(struct ibtopo__reach **out, const char *text,
			const char *name, struct ibtopo_error *err)
{
	struct ibtopo__reach *t;
	struct lines it;
	char *copy, *line;
	int rc = 0;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	copy = strdup(text ? text : "");
	if (!t || !copy) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	it.p = copy;
	it.no = 0;
	while ((line = next_line(&it)) != NULL) {
		char *f[4] = { NULL, NULL, NULL, NULL }, *save = NULL, *end;
		unsigned speed;
		enum ibtopo_media media;
		double metres;
		int si, k = 0;

		line = trim(line);
		if (!*line || *line == '#')
			continue;
		for (char *tok = strtok_r(line, "\t", &save); tok && k < 4;
		     tok = strtok_r(NULL, "\t", &save))
			f[k++] = trim(tok);
		if (strcasecmp(f[0], "speed") == 0)
			continue;	/* the header */
		if (k < 4 || !*f[3]) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: expected 4 tab-separated columns: speed, media, max_m, source",
				name, it.no);
			goto out_free;
		}
		speed = ibtopo_speed_parse(f[0]);
		if (!speed) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "%s:%u: unknown speed '%s'", name, it.no, f[0]);
			goto out_free;
		}
		media = ibtopo_media_parse(f[1]);
		if (media == IBTOPO_MEDIA_UNKNOWN) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: unknown media '%s' (passive-copper, active-copper, aoc, multimode or singlemode)",
				name, it.no, f[1]);
			goto out_free;
		}
		errno = 0;
		metres = strtod(f[2], &end);
		if (errno || end == f[2] || *end || !isfinite(metres) || metres <= 0) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "%s:%u: bad max_m '%s'", name, it.no, f[2]);
			goto out_free;
		}
		si = speed_index(speed);
		if (t->line[si][media]) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: second row for %s %s (first on line %u)",
				name, it.no, ibtopo_speed_name(speed),
				ibtopo_media_name(media), t->line[si][media]);
			goto out_free;
		}
		t->m[si][media] = metres;
		t->line[si][media] = it.no;
	}
	*out = t;
	t = NULL;
out_free:
	free(copy);
	free(t);
	return rc;
}

int ibtopo__reach_load(struct ibtopo__reach **out, const char *path,
		       struct ibtopo_error *err)
{
	char *text = NULL;
	int rc;

	if (!path)
		return ibtopo__reach_parse(out, builtin_reach,
					   "data/cable-reach.tsv (built in)", err);
	*out = NULL;
	rc = ibtopo__read_text_file(&text, path, err);
	if (rc == 0)
		rc = ibtopo__reach_parse(out, text, path, err);
	free(text);
	return rc;
}

void ibtopo__reach_free(struct ibtopo__reach *table)
{
	free(table);
}

double ibtopo__reach_lookup(const struct ibtopo__reach *table, unsigned speed,
			    enum ibtopo_media media)
{
	int si = speed_index(speed);

	if (!table || si < 0 || (unsigned)media >= NMEDIA)
		return 0;
	return table->m[si][media];
}

/* ---------------------------------------------------------- cable rows */

/* What one load gathers for a link before anything is stored. */
struct pending {
	bool set;
	struct ibtopo_cable cable;	/* strings point into the file buffer */
};

struct loader {
	struct ibtopo_fabric *fabric;
	const char *path;
	const struct ibtopo_cables_opts *opts;
	struct pending *pend;		/* one per link, by link->index */
	size_t nlinks;
	struct ibtopo_node **by_desc;	/* nodes sorted by description */
	size_t nnodes;
	/* stale rows, names still in the file buffer; NULL: rows must match */
	struct ibtopo_findings *unmatched;
	struct ibtopo_findings miss;
};

static bool parse_guid(const char *s, uint64_t *out)
{
	char *end;

	if (strncasecmp(s, "0x", 2) != 0 || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return !errno && !*end;
}

static bool parse_port(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 255)
		return false;
	*out = (unsigned)v;
	return true;
}

/* "30", "30m", "2.5 m"; false when not a length >= 0. */
static bool parse_length(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return false;
	while (*end == ' ')
		end++;
	if (*end == 'm' || *end == 'M')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

/* ibtopo_media_name() names, plus the usual abbreviations. */
static bool parse_media(const char *s, enum ibtopo_media *out)
{
	static const struct {
		const char *name;
		enum ibtopo_media media;
	} aliases[] = {
		{ "dac", IBTOPO_MEDIA_PASSIVE_COPPER },
		{ "acc", IBTOPO_MEDIA_ACTIVE_COPPER },
		{ "aec", IBTOPO_MEDIA_ACTIVE_COPPER },
		{ "mmf", IBTOPO_MEDIA_MULTIMODE },
		{ "smf", IBTOPO_MEDIA_SINGLEMODE },
	};
	enum ibtopo_media m = ibtopo_media_parse(s);

	if (m == IBTOPO_MEDIA_UNKNOWN)
		for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(aliases); i++)
			if (strcasecmp(s, aliases[i].name) == 0)
				m = aliases[i].media;
	if (m == IBTOPO_MEDIA_UNKNOWN && strcasecmp(s, "unknown") != 0)
		return false;
	*out = m;
	return true;
}

/* Highest speed named in "SDR/DDR/QDR/FDR/EDR/HDR" (any separators). */
static unsigned parse_speed_list(const char *s)
{
	char buf[128], *save = NULL;
	unsigned best = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, "/, ;|", &save); t; t = strtok_r(NULL, "/, ;|", &save)) {
		unsigned b = ibtopo_speed_parse(t);

		if (b > best)
			best = b;
	}
	return best;
}

/*
 * Media from an SFF-8636 transmitter technology description as ibdiagnet
 * prints it ("Copper cable unequalized", "850 nm VCSEL", "1310 nm DFB").
 * An optical module with an assembly length (LengthCopperOrActive) is an
 * active optical cable; without one it is a separable transceiver.
 */
static enum ibtopo_media media_from_type(const char *type, double assembly_m)
{
	char low[128];
	size_t i;

	for (i = 0; type[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)type[i]);
	low[i] = '\0';
	if (strstr(low, "copper"))
		return strstr(low, "active") ? IBTOPO_MEDIA_ACTIVE_COPPER :
					       IBTOPO_MEDIA_PASSIVE_COPPER;
	if (strstr(low, "850") || strstr(low, "vcsel")) {
		if (assembly_m > 0)
			return IBTOPO_MEDIA_AOC;
		return IBTOPO_MEDIA_MULTIMODE;
	}
	if (strstr(low, "1310") || strstr(low, "1550") || strstr(low, "1490") ||
	    strstr(low, "dfb") || strstr(low, "eml")) {
		if (assembly_m > 0)
			return IBTOPO_MEDIA_AOC;
		return IBTOPO_MEDIA_SINGLEMODE;
	}
	return IBTOPO_MEDIA_UNKNOWN;
}

/*
 * Merge a row's values into a link's pending cable. `override`: the
 * inventory's later rows win; for db_csv the first end's value stays and
 * the other end's row only fills what is missing.
 */
static void merge(struct pending *p, const struct ibtopo_cable *c, bool override)
{
	struct ibtopo_cable *d = &p->cable;

#define TAKE(field, unset)						\
	do {								\
		if (c->field != (unset) && (override || d->field == (unset))) \
			d->field = c->field;				\
	} while (0)
	TAKE(media, IBTOPO_MEDIA_UNKNOWN);
	TAKE(length_m, 0);
	TAKE(rated_speed, 0u);
	TAKE(vendor, NULL);
	TAKE(part_number, NULL);
	TAKE(serial, NULL);
#undef TAKE
	p->set = true;
}

static void warn(const struct loader *ld, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

static void warn(const struct loader *ld, const char *fmt, ...)
{
	char msg[1024], printable[IBTOPO_ERROR_SIZE];
	va_list ap;

	if (!ld->opts || !ld->opts->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* rows are quoted: keep the terminal clean */
	ld->opts->warn(ld->opts->warn_arg, ibtopo__quote(printable,
			sizeof(printable), msg, strlen(msg)));
}

/*
 * A node named in the inventory, as every node name is read
 * (ibtopo_fabric_find_node_name()): a "0x" node or port GUID, else a
 * description only one node has. Returns 0 or an error naming the line.
 */
static int find_node(struct ibtopo_node **out, struct loader *ld, unsigned line,
		     const char *name, struct ibtopo_error *err)
{
	struct ibtopo__node_lookup how = { 0 };
	char q[IBTOPO__QUOTE_MAX];
	uint64_t guid;
	int rc;

	*out = NULL;
	if (!ld->by_desc &&
	    ibtopo__fabric_desc_index(&ld->by_desc, &ld->nnodes, ld->fabric))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	how.by_desc = ld->by_desc;
	how.nby_desc = ld->nnodes;
	rc = ibtopo__fabric_lookup(out, ld->fabric, name, &how, err);
	if (rc == IBTOPO_ENOTFOUND && ld->unmatched) {
		/* a stale row, not an error: the caller makes it a finding */
		if (err) {
			err->code = 0;
			err->message[0] = '\0';
		}
		return IBTOPO_ENOTFOUND;
	}
	if (rc == IBTOPO_ENOTFOUND && parse_guid(name, &guid))
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"%s:%u: no node or port with GUID %s in the fabric",
			ld->path, line, ibtopo__quote(q, sizeof(q), name,
						      strlen(name)));
	if (rc == IBTOPO_ENOMEM || !rc)
		return rc;
	/* not found, or several nodes of that name */
	if (err)
		err->code = IBTOPO_EPARSE;
	ibtopo__error_prefix(err, "%s:%u", ld->path, line);
	return IBTOPO_EPARSE;
}

/*
 * A stale row: the finding, its names still in the file buffer until
 * commit_unmatched() copies them into the fabric.
 */
static int add_unmatched(struct loader *ld, unsigned line,
			 enum ibtopo_cable_row_miss miss, const char *node_a,
			 const struct ibtopo_node *na, unsigned port_a,
			 const char *node_b, unsigned port_b,
			 const struct ibtopo_port *peer, struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	ibtopo__finding_init(&f, IBTOPO_FIND_CABLE_ROW_UNMATCHED);
	f.subkind = (int)miss;
	f.a.node = node_a;
	f.a.guid = na ? na->guid : 0;
	f.a.port = (int)port_a;
	if (node_b && *node_b) {
		f.b.node = node_b;
		f.b.port = (int)port_b;
	}
	if (peer)
		ibtopo_end_from_port(&f.c, peer);
	f.value = line;
	return ibtopo_findings_add(&ld->miss, &f, err);
}

/* The stale rows, into the caller's list, their strings into the fabric. */
static int commit_unmatched(struct loader *ld, struct ibtopo_error *err)
{
	size_t before = ld->unmatched ? ld->unmatched->count : 0;
	int rc = 0;

	for (size_t i = 0; i < ld->miss.count && !rc; i++) {
		struct ibtopo_finding f = ld->miss.items[i];
		char where[512];

		snprintf(where, sizeof(where), "%s:%u", ld->path,
			 (unsigned)f.value);
		f.note = ibtopo__fabric_strdup(ld->fabric, where);
		f.a.node = ibtopo__fabric_strdup(ld->fabric, f.a.node);
		if (f.b.node)
			f.b.node = ibtopo__fabric_strdup(ld->fabric, f.b.node);
		if (!f.note || !f.a.node || (ld->miss.items[i].b.node && !f.b.node))
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		else
			rc = ibtopo_findings_add(ld->unmatched, &f, err);
	}
	/* all or nothing for the caller's list too */
	if (rc)
		ld->unmatched->count = before;
	return rc;
}

/* ------------------------------------------------------- inventory CSV */

enum inv_col {
	COL_NODE_A, COL_PORT_A, COL_NODE_B, COL_PORT_B, COL_MEDIA, COL_LENGTH,
	COL_PN, COL_RATED, COL_VENDOR, COL_SERIAL, COL_COUNT_
};

static const struct {
	const char *name;
	enum inv_col col;
} inv_names[] = {
	{ "node_a", COL_NODE_A }, { "port_a", COL_PORT_A },
	{ "node_b", COL_NODE_B }, { "port_b", COL_PORT_B },
	{ "media", COL_MEDIA }, { "length_m", COL_LENGTH },
	{ "part_number", COL_PN }, { "pn", COL_PN },
	{ "rated_speed", COL_RATED }, { "vendor", COL_VENDOR },
	{ "serial", COL_SERIAL }, { "sn", COL_SERIAL },
};

/*
 * The values of a row, checked before its names are looked up: a stale
 * row with a bad number is still a malformed file. False: err is set.
 */
static bool row_values_parse(struct loader *ld, unsigned line,
			     const char *const *v, struct ibtopo_cable *c,
			     struct ibtopo_error *err)
{
	if (*v[COL_MEDIA] && !parse_media(v[COL_MEDIA], &c->media)) {
		ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"%s:%u: unknown media '%s' (passive-copper, active-copper, aoc, multimode, singlemode)",
			ld->path, line, v[COL_MEDIA]);
		return false;
	}
	if (*v[COL_LENGTH] && !parse_length(v[COL_LENGTH], &c->length_m)) {
		ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"%s:%u: bad length_m '%s'", ld->path, line,
			v[COL_LENGTH]);
		return false;
	}
	if (*v[COL_RATED]) {
		c->rated_speed = ibtopo_speed_parse(v[COL_RATED]);
		if (!c->rated_speed) {
			ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: unknown rated_speed '%s'", ld->path,
				line, v[COL_RATED]);
			return false;
		}
	}
	c->part_number = *v[COL_PN] ? (char *)v[COL_PN] : NULL;
	c->vendor = *v[COL_VENDOR] ? (char *)v[COL_VENDOR] : NULL;
	c->serial = *v[COL_SERIAL] ? (char *)v[COL_SERIAL] : NULL;
	return true;
}

static int read_inventory(struct loader *ld, struct lines *it, char *header,
			  struct ibtopo_error *err)
{
	char *fields[MAX_FIELDS], *line;
	int colpos[COL_COUNT_], n;

	for (int i = 0; i < COL_COUNT_; i++)
		colpos[i] = -1;
	n = csv_split(header, fields, MAX_FIELDS);
	if (n < 0)
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					 "%s:%u: unterminated quote", ld->path, it->no);
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(inv_names); k++)
			if (strcasecmp(fields[i], inv_names[k].name) == 0 &&
			    colpos[inv_names[k].col] < 0)
				colpos[inv_names[k].col] = i;
	if (colpos[COL_NODE_A] < 0 || colpos[COL_PORT_A] < 0)
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"%s:%u: the header lacks node_a or port_a (expected node_a,port_a,node_b,port_b,media,length_m,part_number)",
			ld->path, it->no);

	while ((line = next_line(it)) != NULL) {
		const char *v[COL_COUNT_];
		struct ibtopo_node *na, *nb;
		struct ibtopo_port *pa;
		struct ibtopo_cable c = { 0 };
		unsigned port_a, port_b;
		int rc;

		line = trim(line);
		if (!*line || *line == '#')
			continue;
		n = csv_split(line, fields, MAX_FIELDS);
		if (n < 0)
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: unterminated quote", ld->path, it->no);
		for (int i = 0; i < COL_COUNT_; i++)
			v[i] = colpos[i] >= 0 && colpos[i] < n ? fields[colpos[i]] : "";

		if (!*v[COL_NODE_A] || !parse_port(v[COL_PORT_A], &port_a))
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: %s", ld->path, it->no, !*v[COL_NODE_A] ?
				"node_a is empty" : "port_a is not a port number");
		port_b = 0;
		if ((*v[COL_NODE_B] || *v[COL_PORT_B]) &&
		    (!*v[COL_NODE_B] || !parse_port(v[COL_PORT_B], &port_b)))
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: node_b and port_b go together (a node and a port number)",
				ld->path, it->no);
		if (!row_values_parse(ld, it->no, v, &c, err))
			return err ? err->code : IBTOPO_EPARSE;
		rc = find_node(&na, ld, it->no, v[COL_NODE_A], err);
		if (rc == IBTOPO_ENOTFOUND) {
			rc = add_unmatched(ld, it->no, IBTOPO_CABLE_ROW_NO_NODE,
					   v[COL_NODE_A], NULL, port_a,
					   v[COL_NODE_B], port_b, NULL, err);
			if (rc)
				return rc;
			continue;
		}
		if (rc)
			return rc;
		pa = ibtopo_node_port(na, port_a);
		if ((!pa || !pa->link || !pa->remote) && ld->unmatched) {
			rc = add_unmatched(ld, it->no, IBTOPO_CABLE_ROW_NO_LINK,
					   v[COL_NODE_A], na, port_a,
					   v[COL_NODE_B], port_b, NULL, err);
			if (rc)
				return rc;
			continue;
		}
		if (!pa || !pa->link || !pa->remote)
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: port %u of '%s' has no link in the fabric",
				ld->path, it->no, port_a, na->desc);
		if (*v[COL_NODE_B]) {
			rc = find_node(&nb, ld, it->no, v[COL_NODE_B], err);
			if (rc == IBTOPO_ENOTFOUND || (rc == 0 && ld->unmatched &&
			    (pa->remote->node != nb || pa->remote->num != port_b))) {
				rc = add_unmatched(ld, it->no, rc ?
					IBTOPO_CABLE_ROW_NO_PEER_NODE :
					IBTOPO_CABLE_ROW_OTHER_PEER,
					v[COL_NODE_A], na, port_a, v[COL_NODE_B],
					port_b, pa->remote, err);
				if (rc)
					return rc;
				continue;
			}
			if (rc)
				return rc;
			if (pa->remote->node != nb || pa->remote->num != port_b)
				return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					"%s:%u: port %u of '%s' is linked to port %u of '%s', not to port %u of '%s'",
					ld->path, it->no, port_a, na->desc,
					pa->remote->num, pa->remote->node->desc,
					port_b, nb->desc);
		}
		merge(&ld->pend[pa->link->index], &c, true);
	}
	return 0;
}

/* ------------------------------------------------------ ibdiagnet db_csv */

bool ibtopo__dbcsv_section(struct ibtopo__dbcsv *s, char *text,
			   const char *name)
{
	size_t n = strlen(name);
	unsigned no = 0;
	char *line = text;

	if (n + 5 > sizeof(s->end))
		return false;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		char *t = line, *e = nl ? nl : line + strlen(line);

		no++;
		while (t < e && isspace((unsigned char)*t))
			t++;
		while (e > t && isspace((unsigned char)e[-1]))
			e--;
		if ((size_t)(e - t) == n + 6 && strncmp(t, "START_", 6) == 0 &&
		    strncmp(t + 6, name, n) == 0) {
			s->p = nl ? nl + 1 : e;
			s->no = no;
			snprintf(s->end, sizeof(s->end), "END_%s", name);
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

int ibtopo__dbcsv_row(struct ibtopo__dbcsv *s, char **fields, int max)
{
	struct lines it = { .p = s->p, .no = s->no };
	char *line;
	int n = 0;

	while ((line = next_line(&it)) != NULL) {
		line = trim(line);
		if (strcmp(line, s->end) == 0) {
			line = NULL;
			break;
		}
		if (*line)
			break;
	}
	s->p = line ? it.p : NULL;
	s->no = it.no;
	if (line)
		n = csv_split(line, fields, max);
	return n;
}

enum db_col {
	DB_NODE_GUID, DB_PORT_GUID, DB_PORT_NUM, DB_VENDOR, DB_PN, DB_SN,
	DB_LENGTH, DB_TYPE, DB_SPEEDS, DB_COUNT_
};

static const char *const db_names[DB_COUNT_] = {
	[DB_NODE_GUID] = "NodeGuid", [DB_PORT_GUID] = "PortGuid",
	[DB_PORT_NUM] = "PortNum", [DB_VENDOR] = "Vendor", [DB_PN] = "PN",
	[DB_SN] = "SN", [DB_LENGTH] = "LengthCopperOrActive",
	[DB_TYPE] = "TypeDesc", [DB_SPEEDS] = "SupportedSpeedDesc",
};

static int read_db_csv(struct loader *ld, struct lines *it, struct ibtopo_error *err)
{
	char *fields[MAX_FIELDS];
	int colpos[DB_COUNT_], n;
	unsigned skipped = 0, first_skipped = 0;
	struct ibtopo__dbcsv sec;
	bool header = false;

	for (int i = 0; i < DB_COUNT_; i++)
		colpos[i] = -1;
	if (!ibtopo__dbcsv_section(&sec, it->p, "CABLE_INFO"))
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"'%s': the ibdiagnet db_csv file has no CABLE_INFO section",
			ld->path);
	while ((n = ibtopo__dbcsv_row(&sec, fields, MAX_FIELDS)) != 0) {
		const char *v[DB_COUNT_];
		struct ibtopo_node *node = NULL;
		struct ibtopo_port *port;
		struct ibtopo_cable c = { 0 };
		double assembly = 0;
		uint64_t guid;
		unsigned num;

		it->no = sec.no;
		if (n < 0)
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: unterminated quote", ld->path, it->no);
		if (!header) {
			for (int i = 0; i < n; i++)
				for (int k = 0; k < DB_COUNT_; k++)
					if (strcasecmp(fields[i], db_names[k]) == 0 &&
					    colpos[k] < 0)
						colpos[k] = i;
			if (colpos[DB_PORT_NUM] < 0 ||
			    (colpos[DB_NODE_GUID] < 0 && colpos[DB_PORT_GUID] < 0))
				return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					"%s:%u: the CABLE_INFO header lacks PortNum or NodeGuid",
					ld->path, it->no);
			header = true;
			continue;
		}
		for (int i = 0; i < DB_COUNT_; i++)
			v[i] = colpos[i] >= 0 && colpos[i] < n ? fields[colpos[i]] : "";
		if (!parse_port(v[DB_PORT_NUM], &num))
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: bad PortNum '%s'", ld->path, it->no,
				v[DB_PORT_NUM]);
		if (*v[DB_NODE_GUID]) {
			if (!parse_guid(v[DB_NODE_GUID], &guid))
				return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					"%s:%u: bad NodeGuid '%s'", ld->path,
					it->no, v[DB_NODE_GUID]);
			node = ibtopo_fabric_find_node(ld->fabric, guid);
		}
		if (!node && *v[DB_PORT_GUID]) {
			if (!parse_guid(v[DB_PORT_GUID], &guid))
				return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					"%s:%u: bad PortGuid '%s'", ld->path,
					it->no, v[DB_PORT_GUID]);
			port = ibtopo_fabric_find_port(ld->fabric, guid);
			node = port ? port->node : NULL;
		}
		port = ibtopo_node_port(node, num);
		if (!port || !port->link) {
			if (!skipped++)
				first_skipped = it->no;
			continue;
		}
		if (!is_blank(v[DB_LENGTH]) && !parse_length(v[DB_LENGTH], &assembly))
			return ibtopo__error_set_input(err, IBTOPO_EPARSE,
				"%s:%u: bad LengthCopperOrActive '%s'", ld->path,
				it->no, v[DB_LENGTH]);
		c.length_m = assembly;
		if (!is_blank(v[DB_TYPE]))
			c.media = media_from_type(v[DB_TYPE], assembly);
		if (!is_blank(v[DB_SPEEDS]))
			c.rated_speed = parse_speed_list(v[DB_SPEEDS]);
		c.vendor = is_blank(v[DB_VENDOR]) ? NULL : (char *)v[DB_VENDOR];
		c.part_number = is_blank(v[DB_PN]) ? NULL : (char *)v[DB_PN];
		c.serial = is_blank(v[DB_SN]) ? NULL : (char *)v[DB_SN];
		merge(&ld->pend[port->link->index], &c, false);
	}
	if (skipped)
		warn(ld, "%s:%u: %u CABLE_INFO rows skipped: their ports have no link in this fabric",
		     ld->path, first_skipped, skipped);
	return 0;
}

/* -------------------------------------------------------------- loading */

static int apply(struct loader *ld, struct ibtopo_error *err)
{
	for (size_t i = 0; i < ld->nlinks; i++) {
		struct ibtopo_link *l = ibtopo_fabric_link(ld->fabric, i);
		struct pending *p = &ld->pend[l->index];
		struct ibtopo_cable c = { 0 }, dec = { 0 };
		int rc;

		if (!p->set)
			continue;
		if (l->cable)
			c = *l->cable;
		{
			struct pending m = { .cable = c };

			merge(&m, &p->cable, true);
			c = m.cable;
		}
		/* The part number fills in what the file leaves out. */
		if (c.part_number && ibtopo_cable_decode_part_number(&dec, c.part_number) == 0) {
			if (c.media == IBTOPO_MEDIA_UNKNOWN)
				c.media = dec.media;
			if (!c.rated_speed)
				c.rated_speed = dec.rated_speed;
			if (c.length_m <= 0)
				c.length_m = dec.length_m;
		}
		rc = ibtopo_link_set_cable(ld->fabric, l, &c, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Parse `text` (NUL-terminated, split in place) into the fabric. */
static int cables_parse(struct ibtopo_fabric *fabric, char *text,
			const char *path, const struct ibtopo_cables_opts *opts,
			struct ibtopo_error *err)
{
	struct loader ld = { .fabric = fabric, .path = path, .opts = opts };
	struct lines it;
	char *line, *first = NULL;
	int rc;

	if (opts && opts->version >= 2)
		ld.unmatched = opts->unmatched;
	ld.nlinks = ibtopo_fabric_link_count(fabric);
	ld.pend = calloc(ld.nlinks ? ld.nlinks : 1, sizeof(*ld.pend));
	if (!ld.pend)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	/*
	 * Detect: ibdiagnet's db_csv has START_<SECTION> lines; the
	 * inventory's first line that is not a comment is its header.
	 */
	if (strstr(text, "START_CABLE_INFO") || strncmp(text, "START_", 6) == 0 ||
	    strstr(text, "\nSTART_")) {
		it.p = text;
		it.no = 0;
		rc = read_db_csv(&ld, &it, err);
	} else {
		it.p = text;
		it.no = 0;
		while ((line = next_line(&it)) != NULL) {
			char *t = trim(line);

			if (*t && *t != '#') {
				first = t;
				break;
			}
		}
		if (!first) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "'%s': empty cable file", path);
			goto out_free;
		}
		rc = read_inventory(&ld, &it, first, err);
	}
	if (rc == 0)
		rc = apply(&ld, err);
	if (rc == 0)
		rc = commit_unmatched(&ld, err);
out_free:
	ibtopo_findings_release(&ld.miss);
	free(ld.by_desc);
	free(ld.pend);
	return rc;
}

int ibtopo_cables_load(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_cables_opts *opts,
		       struct ibtopo_error *err)
{
	char *text = NULL;
	int rc;

	if (!fabric || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or cable file");
	rc = ibtopo__read_text_file(&text, path, err);
	if (rc == 0)
		rc = cables_parse(fabric, text, path, opts, err);
	free(text);
	return rc;
}

int ibtopo_cables_load_buffer(struct ibtopo_fabric *fabric, const char *data,
			      size_t len, const char *name,
			      const struct ibtopo_cables_opts *opts,
			      struct ibtopo_error *err)
{
	char *text;
	int rc;

	if (!fabric || (!data && len) || !name)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric, cable data or name");
	if (len && memchr(data, '\0', len))
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					 "'%s': binary data, not a text file", name);
	text = malloc(len + 1);
	if (!text)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (len)
		memcpy(text, data, len);
	text[len] = '\0';
	rc = cables_parse(fabric, text, name, opts, err);
	free(text);
	return rc;
}
