/*
 * metrics_many.c - the metrics of several fabrics (serve --all-ports: one
 * subnet per local port) in one exposition. The text format wants each
 * family once, its HELP and TYPE first and all its series together, so
 * each fabric is written on its own (ibtopo_metrics_write()) and the
 * texts are merged family by family: the families in the order they
 * first appear, each fabric's series of a family in fabric order. A
 * series two fabrics write alike (ibtopo_build_info) is kept once.
 */
#define _GNU_SOURCE /* memmem */
#include "export/export-int.h"

#include <stdlib.h>
#include <string.h>

/* One family block of one text: from its "# HELP" line to the next. */
struct block {
	const char *name; /* after "# HELP ", up to a space */
	size_t name_len;
	const char *p; /* the block, HELP and TYPE lines first */
	size_t len;
	size_t head; /* bytes of the HELP and TYPE lines */
	bool done;   /* merged */
};

/* The length of the line at p, its newline included. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
}

/* The family blocks of text t, appended to *out (grown). */
static int split(const struct ibtopo_buffer *t, struct block **out, size_t *n,
		 size_t *alloc)
{
	const char *p = t->text, *end = t->text + t->len;

	while (p < end) {
		struct block b = { 0 };
		size_t l = line_len(p, end);

		if (strncmp(p, "# HELP ", 7) != 0)
			return IBTOPO_EINVAL; /* not what metrics writes */
		b.name = p + 7;
		b.name_len = strcspn(b.name, " \n");
		b.p = p;
		b.head = l;
		p += l;
		if (p < end && strncmp(p, "# TYPE ", 7) == 0) {
			l = line_len(p, end);
			b.head += l;
			p += l;
		}
		while (p < end && strncmp(p, "# HELP ", 7) != 0)
			p += line_len(p, end);
		b.len = (size_t)(p - b.p);
		if (ibtopo__grow(out, alloc, *n + 1, sizeof(**out)))
			return IBTOPO_ENOMEM;
		(*out)[(*n)++] = b;
	}
	return 0;
}

static bool same_name(const struct block *a, const struct block *b)
{
	return a->name_len == b->name_len &&
	       memcmp(a->name, b->name, a->name_len) == 0;
}

/* Is the series line s (len n) in the blocks of this family so far? */
static bool written(const struct block *bl, size_t upto, const struct block *f,
		    const char *s, size_t n)
{
	for (size_t i = 0; i < upto; i++) {
		const char *p, *end;

		if (!bl[i].done || !same_name(&bl[i], f))
			continue;
		p = bl[i].p + bl[i].head;
		end = bl[i].p + bl[i].len;
		while (p < end) {
			size_t l = line_len(p, end);

			if (l == n && memcmp(p, s, n) == 0)
				return true;
			p += l;
		}
	}
	return false;
}

/* Family f (the block at bl[i]) with the series of every later block
 * of the same name, each line once. */
static int write_family(const struct ibtopo_sink *o, struct block *bl, size_t n,
			size_t i)
{
	int rc = o->write(o->write_arg, bl[i].p, bl[i].len);

	bl[i].done = true;
	for (size_t j = i + 1; !rc && j < n; j++) {
		const char *p, *end;

		if (bl[j].done || !same_name(&bl[i], &bl[j]))
			continue;
		p = bl[j].p + bl[j].head;
		end = bl[j].p + bl[j].len;
		while (!rc && p < end) {
			size_t l = line_len(p, end);

			/* a series with its fabric's label is its own */
			if (memmem(p, l, "{fabric=\"", 9) ||
			    !written(bl, j, &bl[i], p, l))
				rc = o->write(o->write_arg, p, l);
			p += l;
		}
		bl[j].done = true;
	}
	return rc;
}

int ibtopo_metrics_write_many(const struct ibtopo_sink *o,
			      struct ibtopo_analysis *const *analyses,
			      const struct ibtopo_metrics_opts *opts, size_t n,
			      struct ibtopo_error *err)
{
	struct ibtopo_buffer *t = NULL;
	struct block *bl = NULL;
	size_t nbl = 0, abl = 0;
	int rc = 0;

	if (!o || !o->write || !analyses || !n)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "metrics: no sink or analyses");
	if (n == 1)
		return ibtopo_metrics_write(o, analyses[0], opts, err);
	t = calloc(n, sizeof(*t));
	if (!t)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		struct ibtopo_sink s = { IBTOPO_SINK_VERSION,
					 IBTOPO_FORMAT_TEXT,
					 ibtopo_write_buffer, &t[i], 0 };

		rc = ibtopo_metrics_write(&s, analyses[i],
					  opts ? &opts[i] : NULL, err);
		if (!rc)
			rc = split(&t[i], &bl, &nbl, &abl);
		if (rc == IBTOPO_ENOMEM)
			rc = ibtopo__error_set(err, rc, "out of memory");
		else if (rc == IBTOPO_EINVAL)
			rc = ibtopo__error_set(err, rc,
					       "metrics: a text without HELP");
	}
	for (size_t i = 0; i < nbl && !rc; i++)
		if (!bl[i].done && (rc = write_family(o, bl, nbl, i)))
			rc = ibtopo__error_set(
				err, rc, "cannot write the metrics output");
	for (size_t i = 0; i < n; i++)
		ibtopo_buffer_release(&t[i]);
	free(t);
	free(bl);
	return rc;
}
