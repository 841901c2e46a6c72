/*
 * text.c - what every text reader shares: whole files into memory, a line
 * reader over a buffer with messages that name the file and line, small
 * parsers over a cursor, and the width and speed tokens ibnetdiscover
 * prints ("4xHDR").
 */
#include "base/base-int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

FILE *ibtopo__open_read(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);
	struct stat st;

	/* fopen takes a directory; only the first read would fail */
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	return f;
}

/* Whole file into memory (the readers want random access and line numbers). */
int ibtopo__read_whole_file(char **out, size_t *out_len, const char *path,
			    struct ibtopo_error *err)
{
	FILE *f = ibtopo__open_read(path, "rb");
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
		/* one byte kept for the NUL */
		n = fread(buf + len, 1, alloc - len - 1, f);
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
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

int ibtopo__read_text_file(char **out, const char *path,
			   struct ibtopo_error *err)
{
	size_t len = 0;
	int rc;

	*out = NULL;
	rc = ibtopo__read_whole_file(out, &len, path, err);
	if (!rc && memchr(*out, '\0', len)) {
		free(*out);
		*out = NULL;
		rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
					     "'%s': binary data, not a text file",
					     path);
	}
	return rc;
}


void ibtopo__src_init(struct ibtopo__src *s, const char *buf, size_t len,
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
int ibtopo__src_error(struct ibtopo__src *s, unsigned line, const char *fmt, ...)
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
void ibtopo__src_warn(struct ibtopo__src *s, const char *fmt, ...)
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

bool ibtopo__is_text_byte(unsigned char c)
{
	return c >= 0x20 ? c != 0x7f : c == '\t' || c == '\r' || c == '\n';
}

/*
 * What each byte is to the text check: 0 blank (space, tab, newline), 1
 * not text, 2 carriage return (text before a newline), 4 content.
 */
static const unsigned char byte_class[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 2, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
};

/*
 * Check the whole buffer before anything else: binary data and empty
 * input get one clear message instead of a parse error somewhere. The
 * common case is one branchless pass that ORs the bytes' classes;
 * only a carriage return or a byte that is not text asks for a second
 * look (where, and on which line, for the message).
 */
int ibtopo__src_check_text(struct ibtopo__src *s)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t n = s->len, bad = n;
	unsigned acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= byte_class[b[i]];
	if (acc & 3)
		for (size_t i = 0; i < n && bad == n; i++)
			if (byte_class[b[i]] == 1 ||
			    (b[i] == '\r' && i + 1 < n && b[i + 1] != '\n'))
				bad = i;
	if (bad < n) {
		unsigned line = 1;

		for (size_t k = 0; k < bad; k++)
			line += b[k] == '\n';
		return ibtopo__src_error(s, line, "binary data (expected text)");
	}
	if (!(acc & 4))
		return ibtopo__src_error(s, 1, "empty file (expected a fabric topology)");
	return 0;
}

/* Next line into s->line, without its end of line: 1, 0 at the end, or <0. */
int ibtopo__src_next(struct ibtopo__src *s)
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
	if (n > IBTOPO__LINE_MAX)
		return ibtopo__src_error(s, s->lineno,
				 "line longer than %d bytes (expected a topology line)",
				 IBTOPO__LINE_MAX);
	memcpy(s->line, p, n);
	s->line[n] = '\0';
	return 1;
}

/* ------------------------------------------------------------------ */
/* Small parsers over a cursor                                         */
/* ------------------------------------------------------------------ */

const char *ibtopo__skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

bool ibtopo__is_digit(char c)
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
bool ibtopo__parse_uint(const char **pp, unsigned long max, unsigned long *out)
{
	const char *p = *pp;
	unsigned long v = 0;

	if (!ibtopo__is_digit(*p))
		return false;
	for (; ibtopo__is_digit(*p); p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return false;
	}
	*out = v;
	*pp = p;
	return true;
}

/* Hex number of 1..16 digits, optional 0x; advances *pp. */
bool ibtopo__parse_hex64(const char **pp, uint64_t *out)
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
bool ibtopo__parse_cnum(const char **pp, unsigned long max, unsigned long *out)
{
	const char *p = *pp;
	uint64_t v;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (!ibtopo__parse_hex64(&p, &v) || v > max)
			return false;
		*out = (unsigned long)v;
		*pp = p;
		return true;
	}
	return ibtopo__parse_uint(pp, max, out);
}

/* Does p start with word, followed by a blank or the end? */
bool ibtopo__word_at(const char *p, const char *word)
{
	size_t n = strlen(word);

	return strncmp(p, word, n) == 0 &&
	       (p[n] == ' ' || p[n] == '\t' || p[n] == '\0');
}

/* ------------------------------------------------------------------ */
/* Speeds and widths as the text writes them                           */
/* ------------------------------------------------------------------ */

/* "4x", "12x", "??" -> width bit (0 for "??"); false if not a width. */
bool ibtopo__parse_width_text(const char *s, size_t n, unsigned *out)
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
bool ibtopo__parse_speed_text(const char *s, size_t n, unsigned *out)
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
int ibtopo__parse_ws_token(const char *tok, size_t n, unsigned *width,
			  unsigned *speed)
{
	size_t wl;

	if (n >= 2 && tok[0] == '?' && tok[1] == '?') {
		/* ibnetdiscover prints an unknown width as "??" */
		*width = 0;
		if (n == 2 || !ibtopo__parse_speed_text(tok + 2, n - 2, speed))
			return n == 2 ? 0 : -1;
		return 1;
	}
	for (wl = 0; wl < n && ibtopo__is_digit(tok[wl]); wl++)
		;
	if (wl == 0 || wl > 2 || wl >= n || (tok[wl] != 'x' && tok[wl] != 'X'))
		return 0;
	if (!ibtopo__parse_width_text(tok, wl + 1, width))
		return -1;
	if (!ibtopo__parse_speed_text(tok + wl + 1, n - wl - 1, speed))
		return -1;
	return 1;
}


const char *ibtopo__type_word(enum ibtopo_node_type type)
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

char ibtopo__type_letter(enum ibtopo_node_type type)
{
	return type == IBTOPO_NODE_SWITCH ? 'S' :
	       type == IBTOPO_NODE_ROUTER ? 'R' : 'H';
}

const char *ibtopo__ws_text(unsigned width, unsigned speed, char *buf,
			    size_t len)
{
	snprintf(buf, len, "%s%s", width ? ibtopo_width_name(width) : "??",
		 speed ? ibtopo_speed_name(speed) : "???");
	return buf;
}

/* ---- lines split in place, CSV records ---- */

char *ibtopo__trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *ibtopo__lines_next(struct ibtopo__lines *it)
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
int ibtopo__csv_split(char *line, char **fields, int max)
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
				fields[n] = ibtopo__trim(start);
			n++;
			if (!more)
				break;
			r++;
		}
	}
	return n < max ? n : max;
}
