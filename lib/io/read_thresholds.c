/*
 * read_thresholds.c - the health thresholds file: one "Name=value" a line
 * (a counter's name and a count), blank lines and "#" comments skipped.
 * Errors name the file and the line ("<path>:<line>: ...").
 */
#include "io/io-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int ibtopo__thresholds_read(struct ibtopo__thresholds *t, const char *path,
			    struct ibtopo_error *err)
{
	char *buf = NULL, *line, *end;
	size_t len = 0;
	unsigned lineno = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!path)
		return 0;
	rc = ibtopo__read_whole_file(&buf, &len, path, err);
	if (rc)
		return rc;
	for (line = buf; line < buf + len; line = end + 1) {
		char name[64], q[IBTOPO__QUOTE_MAX], *eq, *vend, *p;
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
		for (p = name + strlen(name);
		     p > name && isspace((unsigned char)p[-1]);)
			*--p = '\0';
		c = ibtopo_counter_parse(name);
		if (c < 0) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: unknown counter '%s'", path, lineno,
				ibtopo__quote(q, sizeof(q), name,
					      strlen(name)));
			goto out_free;
		}
		p = eq + 1;
		while (p < line + n && isspace((unsigned char)*p))
			p++;
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
	free(buf);
	return rc;
}
