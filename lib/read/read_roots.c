/*
 * read_roots.c - the roots file of the topology analysis: one switch a
 * line (a GUID, a description or a short name, optionally in double
 * quotes), blank lines and "#" comments skipped. The words are kept with
 * their line numbers; the analysis matches them to switches and names
 * the line of a word that matches none ("<path>:<line>: ...").
 */
#include "read/read-int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int roots_add(struct ibtopo__roots *r, const char *word, unsigned lineno,
		     struct ibtopo_error *err)
{
	struct ibtopo__root_line *grown;

	if (r->n == r->alloc) {
		size_t alloc = r->alloc ? 2 * r->alloc : 16;

		grown = realloc(r->lines, alloc * sizeof(*grown));
		if (!grown)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		r->lines = grown;
		r->alloc = alloc;
	}
	r->lines[r->n].word = strdup(word);
	if (!r->lines[r->n].word)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	r->lines[r->n++].line = lineno;
	return 0;
}

/* The word of one line, in place: without comment, blanks and quotes. */
static char *line_word(char *s)
{
	char *e = strchr(s, '#');

	if (e)
		*e = '\0';
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (*s == '"' && e > s + 1 && e[-1] == '"') {
		*--e = '\0';
		s++;
	}
	return s;
}

int ibtopo__roots_parse(struct ibtopo__roots **out, const char *text,
			size_t len, const char *name, struct ibtopo_error *err)
{
	struct ibtopo__roots *r;
	unsigned lineno = 0;
	char *copy, *line, *next;
	int ret = 0;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	copy = malloc(len + 1);
	if (!r || !copy || !(r->path = strdup(name))) {
		free(r);
		free(copy);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = copy; !ret && line < copy + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(copy + len - line));
		char *s;

		next = nl ? nl + 1 : copy + len;
		if (nl)
			*nl = '\0';
		lineno++;
		s = line_word(line);
		if (*s)
			ret = roots_add(r, s, lineno, err);
	}
	free(copy);
	if (ret)
		ibtopo__roots_free(r);
	else
		*out = r;
	return ret;
}

int ibtopo__roots_read(struct ibtopo__roots **out, const char *path,
		       struct ibtopo_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (ibtopo__read_whole_file(&buf, &len, path, err))
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot read roots file '%s': %s",
					 path, strerror(errno));
	rc = ibtopo__roots_parse(out, buf, len, path, err);
	free(buf);
	return rc;
}

void ibtopo__roots_free(struct ibtopo__roots *roots)
{
	if (!roots)
		return;
	for (size_t i = 0; i < roots->n; i++)
		free(roots->lines[i].word);
	free(roots->lines);
	free(roots->path);
	free(roots);
}
