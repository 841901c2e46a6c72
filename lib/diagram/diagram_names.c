/*
 * diagram_names.c - the names a diagram shows, and their order: node
 * labels made from descriptions (short, distinct, cut), ranges of host
 * names, director (chassis) names, the natural order of names and the
 * DOT ids of drawn nodes. The low floor of lib/diagram: it calls no other
 * file of it, and the scene, the overview and the writers all use it.
 */
#include "diagram/diagram-int.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Natural order: "leaf2" before "leaf10" (the model's, one rule). */
int ibtopo__diagram_natcmp(const char *a, const char *b)
{
	return ibtopo__natcmp(a, b);
}

int ibtopo__diagram_cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

size_t ibtopo__diagram_utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

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

/*
 * The readable part of a node description:
 *   "MF0;sw-ib-01:MQM8700/U1"              -> "sw-ib-01"
 *   "MF0;core1:CS7500/L05/U1" in a director -> "L05/U1"
 *   "Voltaire 4036 # hoibp0013"            -> "hoibp0013"
 *   "SwitchIB Mellanox Technologies"        -> "SwitchIB e470" (GUID tail)
 *   "host001 mlx5_0"                       -> "host001" (variant 1: whole)
 *   "MT4129 ConnectX7   Mellanox Technologies" -> "ConnectX7 5d90"
 */
void ibtopo__diagram_short_label(char *out, size_t len,
				 const struct ibtopo_node *n, bool director,
				 int variant)
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
				squeeze(out, len, semi + 1,
					(size_t)(colon - semi - 1));
			}
		} else if (hash && hash[3]) {
			squeeze(out, len, hash + 3, strlen(hash + 3));
		} else if (ibtopo__desc_is_default(d) || strstr(d, " - ")) {
			const char *end = strstr(d, " Mellanox");
			const char *dash = strstr(d, " - ");

			if (!end || (dash && dash < end))
				end = dash;
			squeeze(tmp, sizeof(tmp), d,
				end ? (size_t)(end - d) : strlen(d));
			snprintf(out, len, "%s %04x", tmp[0] ? tmp : "switch",
				 tail);
		} else {
			squeeze(out, len, d, strlen(d));
		}
	} else if (ibtopo__desc_is_aggregation(d)) {
		snprintf(out, len, "SHARP %04x", tail);
	} else if (ibtopo__desc_is_default(d)) {
		const char *cx = strstr(d, "ConnectX");
		size_t k = 0;

		if (cx)
			while (cx[k] && !isspace((unsigned char)cx[k]))
				k++;
		squeeze(tmp, sizeof(tmp), cx ? cx : "CA", cx ? k : 2);
		snprintf(out, len, "%s %04x", tmp, tail);
	} else if (variant == 0) {
		size_t k = ibtopo__desc_first_word(&d);

		squeeze(out, len, d, k);
	} else {
		squeeze(out, len, d, strlen(d));
	}
}

/* Four hex digits that tell GUIDs apart: not trailing zeros. */
static unsigned guid_tail(uint64_t g)
{
	while (g > 0xffff && !(g & 0xffff))
		g >>= 16;
	return (unsigned)(g & 0xffff);
}

/* Keep labels short: cut s at LABEL_MAX bytes on a character boundary. */
#define LABEL_MAX 28

static void cut_label(char *s, size_t len)
{
	size_t k = LABEL_MAX - 1;

	if (strlen(s) <= LABEL_MAX)
		return;
	while (k && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	snprintf(s + k, len - k, "%s", "\xe2\x80\xa6");
}

/* Where a name may be split: after a blank or a separator. */
static bool token_end(char ch)
{
	return isspace((unsigned char)ch) || ch == ';' || ch == ':' ||
	       ch == '/' || ch == '=' || ch == ',' || ch == '#';
}

/*
 * Length of the prefix a and b share, backed up to where a token starts
 * in a: "QLogic 12800-180 GUID=0x11 L116" and "... L117" share
 * "QLogic 12800-180 GUID=0x11 ", not "... L11".
 */
static size_t token_prefix(const char *a, const char *b)
{
	size_t k = 0;

	while (a[k] && a[k] == b[k])
		k++;
	if (!a[k] && !b[k])
		return k;
	while (k && !token_end(a[k - 1]))
		k--;
	return k;
}

struct lab {
	size_t i;
	const char *s;
	uint64_t dir; /* director of node i, or 0 */
};

/* Labels by text, then director: one label twice in a chassis collides. */
static int cmp_lab(const void *x, const void *y)
{
	const struct lab *a = x, *b = y;
	int r = strcmp(a->s, b->s);

	if (r)
		return r;
	if (a->dir != b->dir)
		return a->dir < b->dir ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void sort_labels(struct scene *c, struct lab *v)
{
	for (size_t i = 0; i < c->nn; i++) {
		v[i].i = i;
		v[i].s = c->label[i];
		v[i].dir = c->dir[i];
	}
	qsort(v, c->nn, sizeof(*v), cmp_lab);
}

static bool collide(const struct lab *a, const struct lab *b)
{
	return !strcmp(a->s, b->s) && a->dir == b->dir;
}

static int set_label(struct scene *c, size_t i, const char *s)
{
	char *n = strdup(s);

	if (!n)
		return IBTOPO_ENOMEM;
	free(c->label[i]);
	c->label[i] = n;
	return 0;
}

static int cmp_desc(const void *x, const void *y)
{
	const struct lab *a = x, *b = y;
	int r = strcmp(a->s, b->s);

	if (r)
		return r;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Nodes v[0..n) share a label: add what tells their descriptions apart
 * ("MF0;sw:MQM9790/U1", "/U2" -> "sw U1", "sw U2"), or the GUID tail
 * where the descriptions are the same.
 */
static int split_collision(struct scene *c, struct lab *v, size_t n)
{
	char buf[300], rest[200];
	int rc = 0;

	for (size_t k = 0; k < n; k++)
		v[k].s = ibtopo_fabric_node(c->f, v[k].i)->desc;
	qsort(v, n, sizeof(*v), cmp_desc);
	for (size_t k = 0; !rc && k < n; k++) {
		const char *d = v[k].s;
		size_t p = 0, q;
		bool same = false;

		for (size_t j = k ? k - 1 : k + 1; j <= k + 1 && j < n;
		     j += 2) {
			q = token_prefix(d, v[j].s);
			same |= !strcmp(d, v[j].s);
			if (q > p)
				p = q;
		}
		squeeze(rest, sizeof(rest), d + p, strlen(d + p));
		if (same || !rest[0])
			snprintf(buf, sizeof(buf), "%s %04x", c->label[v[k].i],
				 guid_tail(ibtopo_fabric_node(c->f, v[k].i)
						   ->guid));
		else
			snprintf(buf, sizeof(buf), "%s %s", c->label[v[k].i],
				 rest);
		rc = set_label(c, v[k].i, buf);
	}
	return rc;
}

/*
 * A label too long to show whole that shares a long start with another
 * keeps what differs: the chips of a QLogic director, "QLogic 12800-180
 * GUID=0x... L116", are "L116" in the chassis box and "QLogic…L116"
 * elsewhere.
 */
static int keep_distinct_part(struct scene *c, struct lab *v)
{
	size_t *keep = calloc(c->nn ? c->nn : 1, sizeof(*keep));
	char buf[300];
	int rc = 0;

	if (!keep)
		return IBTOPO_ENOMEM;
	/* first where each label's own part starts, then the new labels:
	 * v points at the old ones */
	sort_labels(c, v);
	for (size_t k = 0; k < c->nn; k++) {
		const char *s = v[k].s;
		size_t p = 0, q;

		if (strlen(s) <= LABEL_MAX)
			continue;
		if (k > 0 && (q = token_prefix(s, v[k - 1].s)) > p)
			p = q;
		if (k + 1 < c->nn && (q = token_prefix(s, v[k + 1].s)) > p)
			p = q;
		if (p >= 8 && s[p])
			keep[v[k].i] = p;
	}
	for (size_t i = 0; !rc && i < c->nn; i++) {
		const char *s = c->label[i];
		size_t p = keep[i], w;

		if (!p)
			continue;
		if (c->dir[i]) {
			snprintf(buf, sizeof(buf), "%s", s + p);
		} else {
			for (w = 0;
			     w < 12 && s[w] && !isspace((unsigned char)s[w]);
			     w++)
				;
			snprintf(buf, sizeof(buf), "%.*s\xe2\x80\xa6%s", (int)w,
				 s, s + p);
		}
		rc = set_label(c, i, buf);
	}
	free(keep);
	return rc;
}

/*
 * Label every node with the readable part of its description; where two
 * nodes would share a label, say more (a CA's whole description, then
 * what tells the descriptions apart, then the GUID tail); where labels
 * are too long, keep the part that differs, then cut.
 */
int ibtopo__diagram_labels(struct scene *c)
{
	struct lab *v = calloc(c->nn ? c->nn : 1, sizeof(*v));
	int *variant = calloc(c->nn ? c->nn : 1, sizeof(*variant));
	char buf[300];
	int rc = 0;

	if (!v || !variant) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (int round = 0; round < 2; round++) {
		bool again = false;

		for (size_t i = 0; i < c->nn; i++) {
			const struct ibtopo_node *n =
				ibtopo_fabric_node(c->f, i);

			ibtopo__diagram_short_label(buf, sizeof(buf), n,
						    c->dir[n->index] != 0,
						    variant[i]);
			rc = set_label(c, i, buf);
			if (rc)
				goto out_free;
		}
		sort_labels(c, v);
		for (size_t k = 0; k + 1 < c->nn; k++) {
			if (!collide(&v[k], &v[k + 1]))
				continue;
			for (size_t j = k; j <= k + 1; j++) {
				if (!variant[v[j].i] && round < 1) {
					variant[v[j].i]++;
					again = true;
				}
			}
		}
		if (!again)
			break;
	}
	for (size_t s = 0, e; !rc && s < c->nn; s = e) {
		for (e = s + 1; e < c->nn && collide(&v[s], &v[e]); e++)
			;
		if (e - s > 1)
			rc = split_collision(c, &v[s], e - s);
	}
	if (!rc)
		rc = keep_distinct_part(c, v);
	for (size_t i = 0; !rc && i < c->nn; i++) {
		if (strlen(c->label[i]) <= LABEL_MAX)
			continue;
		snprintf(buf, sizeof(buf), "%s", c->label[i]);
		cut_label(buf, sizeof(buf));
		rc = set_label(c, i, buf);
	}
	/* cut to the same text: the GUID tail after what is left */
	if (!rc)
		sort_labels(c, v);
	for (size_t k = 0; !rc && k + 1 < c->nn; k++) {
		size_t i = v[k + 1].i;

		if (!collide(&v[k], &v[k + 1]))
			continue;
		snprintf(buf, sizeof(buf), "%s", c->label[i]);
		if (strlen(buf) > LABEL_MAX - 5) {
			size_t m = LABEL_MAX - 6;

			while (m && ((unsigned char)buf[m] & 0xc0) == 0x80)
				m--;
			buf[m] = '\0';
		}
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %04x",
			 guid_tail(ibtopo_fabric_node(c->f, i)->guid));
		rc = set_label(c, i, buf);
		v[k + 1].s = c->label[i];
	}
out_free:
	free(variant);
	free(v);
	return rc;
}

/* Host name part of a label: up to the first space. */
static size_t first_word(const char *s)
{
	size_t k = 0;

	while (s[k] && s[k] != ' ')
		k++;
	return k;
}

/* What first and last share, backed up to keep a number whole. */
static size_t shared_prefix(const char *first, size_t lf, const char *last,
			    size_t ll)
{
	size_t cp = 0;

	while (cp < lf && cp < ll && first[cp] == last[cp])
		cp++;
	/* keep a number whole: "host0|01" backs up to "host|001" */
	while (cp > 0 && isdigit((unsigned char)first[cp - 1]) && cp < ll &&
	       isdigit((unsigned char)last[cp]))
		cp--;
	return cp;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/*
 * The range of names from first to last, the last without what it shares
 * with the first: "host001 … 024", "a06-p1-dgx-02-c01 … 16"; one name
 * when they are the same, the first alone when the range is long.
 */
void ibtopo__diagram_name_range(char *buf, size_t len, const char *first,
				const char *last)
{
	size_t lf = first_word(first), ll = first_word(last);
	size_t cp = shared_prefix(first, lf, last, ll);

	if (cp == ll) /* one name, or the same host */
		snprintf(buf, len, "%.*s", (int)lf, first);
	else if (lf + ll - cp > 32)
		snprintf(buf, len, "%.*s \xe2\x80\xa6", (int)lf, first);
	else
		snprintf(buf, len, "%.*s \xe2\x80\xa6 %.*s", (int)lf, first,
			 (int)(ll - cp), last + cp);
}

/*
 * "24 hosts" and, when the first and last names differ only in their
 * trailing number, the range as a hostlist reads: "node001..node261".
 * Names that are no range ("bigmem01", "node261") give the count alone.
 */
char *ibtopo__diagram_group_label(size_t n, const char *first, const char *last)
{
	size_t lf = first_word(first), ll = first_word(last);
	size_t cp = shared_prefix(first, lf, last, ll);
	char buf[200];

	if (cp == ll && cp == lf) /* one name, or the same host */
		snprintf(buf, sizeof(buf), "%zu host%s\n%.*s", n,
			 n == 1 ? "" : "s", (int)lf, first);
	else if (all_digits(first + cp, lf - cp) &&
		 all_digits(last + cp, ll - cp) && lf + ll + 2 <= 40)
		snprintf(buf, sizeof(buf), "%zu host%s\n%.*s..%.*s", n,
			 n == 1 ? "" : "s", (int)lf, first, (int)ll, last);
	else
		snprintf(buf, sizeof(buf), "%zu host%s", n, n == 1 ? "" : "s");
	return strdup(buf);
}

/*
 * The name of the director with system image GUID sys: the switch name
 * of its chips ("MF0;core1:CS7500/L05/U1" -> "core1"), else the start
 * their descriptions share when their labels leave it out ("QLogic
 * 12800-180 GUID=0x0011750000ffd9b8" for "... L116", "... S209A"), else
 * "director <GUID>".
 */
void ibtopo__diagram_chassis_name(const struct scene *c, uint64_t sys,
				  char *out, size_t len)
{
	const char *d = NULL, *semi, *colon;
	size_t p = 0, members = 0;

	for (size_t i = 0; i < c->nn; i++) {
		const char *x = ibtopo_fabric_node(c->f, i)->desc;
		size_t q;

		if (c->dir[i] != sys || !c->visible[i])
			continue;
		members++;
		if (!d) {
			d = x;
			p = strlen(d);
			continue;
		}
		q = token_prefix(d, x);
		if (q < p)
			p = q;
	}
	semi = d ? strchr(d, ';') : NULL;
	colon = semi ? strchr(semi, ':') : NULL;
	if (semi && colon && colon > semi + 1) {
		squeeze(out, len, semi + 1, (size_t)(colon - semi - 1));
		return;
	}
	while (p && token_end(d[p - 1]))
		p--;
	if (members > 1 && p >= 4)
		squeeze(out, len, d, p);
	else
		snprintf(out, len, "director %016" PRIx64, sys);
}

void ibtopo__diagram_dnode_id(const struct scene *c, size_t i, char *buf,
			      size_t len)
{
	const struct dnode *d = &c->dn[i];

	if (d->kind == DN_GROUP)
		snprintf(buf, len, "g%016" PRIx64, d->guid);
	else if (d->kind == DN_BLOCK)
		snprintf(buf, len, "b%016" PRIx64, d->guid);
	else if (d->kind == DN_GHOST)
		snprintf(buf, len, "x%016" PRIx64, d->guid);
	else if (d->kind == DN_SWGROUP)
		snprintf(buf, len, "%c%016" PRIx64,
			 c->sg[d->group].sysimg ? 'd' : 's', d->guid);
	else
		snprintf(buf, len, "n%016" PRIx64, d->guid);
}

/*
 * The title of a picture and of its page, into buf: --title as given; a
 * stored snapshot's fabric, by the one rule of a fabric's name
 * (ibtopo_metrics_fabric_name(): what metrics, export and serve call
 * it), and the snapshot: "fe80-0008f104...  ·  snapshot 3 “week1”"; a
 * file read directly, its name; else the fabric's name. Never the host
 * the snapshot was taken on.
 */
const char *ibtopo__diagram_title(const struct scene *c, char *buf, size_t len)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(c->f);
	char name[256];
	size_t k;

	if (c->d->title)
		return c->d->title;
	if (m->snapshot_id <= 0 && m->source &&
	    strncmp(m->source, "file:", 5) == 0) {
		const char *s = strrchr(m->source, '/');

		snprintf(buf, len, "%s", s ? s + 1 : m->source + 5);
		return buf;
	}
	ibtopo_metrics_fabric_name(name, sizeof(name), c->f);
	if (m->snapshot_id > 0)
		snprintf(buf, len, "%s \xc2\xb7 snapshot %lld", name,
			 (long long)m->snapshot_id);
	else
		snprintf(buf, len, "%s", name);
	k = strlen(buf);
	if (m->label)
		snprintf(buf + k, len - k, " \xe2\x80\x9c%s\xe2\x80\x9d",
			 m->label);
	return buf;
}
