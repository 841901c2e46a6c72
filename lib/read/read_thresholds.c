/*
 * read_thresholds.c - the health thresholds file: one "Name=value" a line
 * (a counter's name and a count), blank lines and "#" comments skipped.
 * Besides the counters, real-valued limits: "BER=1e-12" (every speed),
 * "BER.<SPEED>=1e-12" (one speed: SDR .. XDR) and "XmitWaitShare=0.05"
 * (congested-port). Errors name the file and the line
 * ("<path>:<line>: ...").
 */
#include "read/read-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void set_defaults(struct ibtopo__thresholds *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < IBTOPO__SPEED_BITS; i++)
		t->ber[i] = IBTOPO__BER_DEFAULT;
	t->xmit_wait_share = IBTOPO__XMIT_WAIT_DEFAULT;
}

/* The speed bit's index of "BER.<SPEED>"; -1 for "BER"; -2 otherwise. */
static int ber_speed(const char *name)
{
	unsigned bit;
	int i = 0;

	if (strcasecmp(name, "BER") == 0)
		return -1;
	if (strncasecmp(name, "BER.", 4) != 0)
		return -2;
	bit = ibtopo_speed_parse(name + 4);
	if (!bit)
		return -2;
	while (!(bit & 1u)) {
		bit >>= 1;
		i++;
	}
	return i < IBTOPO__SPEED_BITS ? i : -2;
}

/* A real limit (BER, XmitWaitShare): 1 = done, 0 = not one, < 0 bad. */
static int real_value(struct ibtopo__thresholds *t, const char *name,
		      const char *p, const char *end)
{
	int speed = ber_speed(name);
	char num[64], *stop;
	double v;

	if (speed == -2 && strcasecmp(name, "XmitWaitShare") != 0)
		return 0;
	if ((size_t)(end - p) >= sizeof(num) || end == p)
		return -1;
	memcpy(num, p, (size_t)(end - p));
	num[end - p] = '\0';
	v = strtod(num, &stop);
	if (*stop || !(v >= 0) || v > 1)
		return -1;
	if (speed == -2)
		t->xmit_wait_share = v;
	else if (speed == -1)
		for (int i = 0; i < IBTOPO__SPEED_BITS; i++)
			t->ber[i] = v;
	else
		t->ber[speed] = v;
	return 1;
}

int ibtopo__thresholds_parse(struct ibtopo__thresholds *t, const char *buf,
			     size_t len, const char *path,
			     struct ibtopo_error *err)
{
	const char *line, *end;
	unsigned lineno = 0;
	int rc;

	set_defaults(t);
	for (line = buf; line < buf + len; line = end + 1) {
		char name[64], q[IBTOPO__QUOTE_MAX];
		const char *eq, *vend, *p;
		char *np;
		unsigned long long v;
		size_t n;
		int c;

		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		lineno++;
		while (line < end && isspace((unsigned char)*line))
			line++;
		n = (size_t)(end - line);
		while (n && isspace((unsigned char)line[n - 1]))
			n--;
		if (!n || *line == '#')
			continue;
		eq = memchr(line, '=', n);
		if (!eq || (size_t)(eq - line) >= sizeof(name)) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: expected Name=value, got '%s'", path,
				lineno, ibtopo__quote(q, sizeof(q), line, n));
			goto out_free;
		}
		memcpy(name, line, (size_t)(eq - line));
		name[eq - line] = '\0';
		for (np = name + strlen(name);
		     np > name && isspace((unsigned char)np[-1]);)
			*--np = '\0';
		p = eq + 1;
		while (p < line + n && isspace((unsigned char)*p))
			p++;
		c = real_value(t, name, p, line + n);
		if (c < 0) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: bad value for %s (a number from 0 to 1)",
				path, lineno, name);
			goto out_free;
		}
		if (c)
			continue;
		c = ibtopo_counter_parse(name);
		if (c < 0) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: unknown counter '%s'", path, lineno,
				ibtopo__quote(q, sizeof(q), name,
					      strlen(name)));
			goto out_free;
		}
		v = 0;
		vend = p;
		while (vend < line + n && isdigit((unsigned char)*vend) &&
		       v < UINT64_MAX / 10)
			v = v * 10 + (unsigned)(*vend++ - '0');
		if (vend == p || vend != line + n) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: bad value for %s (a count, 0 or more)",
				path, lineno, ibtopo_counter_name(c));
			goto out_free;
		}
		t->v[c] = v;
	}
	rc = 0;
out_free:
	return rc;
}

int ibtopo__thresholds_read(struct ibtopo__thresholds *t, const char *path,
			    struct ibtopo_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	set_defaults(t);
	if (!path)
		return 0;
	rc = ibtopo__read_whole_file(&buf, &len, path, err);
	if (!rc)
		rc = ibtopo__thresholds_parse(t, buf, len, path, err);
	free(buf);
	return rc;
}
