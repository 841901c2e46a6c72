/*
 * hostlist.c - Slurm's hostlist expressions read into names:
 * "gpu[001-003,010],login1" is gpu001 gpu002 gpu003 gpu010 login1. A
 * bracket holds numbers and ranges separated by commas; a range's width
 * is its first number's when that has leading zeros (as Slurm pads);
 * several brackets in one name multiply ("r[1-2]n[1-2]"). Commas outside
 * brackets separate names.
 */
#include "model/model-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HOSTLIST_MAX 1000000 /* names one expression may stand for */

struct names {
	char **v;
	size_t n, alloc;
};

static int add(struct names *out, const char *s, size_t len,
	       struct ibtopo_error *err)
{
	if (out->n >= HOSTLIST_MAX)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"hostlist stands for more than %d names", HOSTLIST_MAX);
	if (ibtopo__grow(&out->v, &out->alloc, out->n + 1, sizeof(*out->v)))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	out->v[out->n] = strndup(s, len);
	if (!out->v[out->n])
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	out->n++;
	return 0;
}

static int bad(struct ibtopo_error *err, const char *expr, const char *why)
{
	char q[IBTOPO__QUOTE_MAX];

	return ibtopo__error_set(
		err, IBTOPO_EINVAL, "bad hostlist '%s': %s",
		ibtopo__quote(q, sizeof(q), expr, strlen(expr)), why);
}

/* A number of the bracket at *p: its value and digits. */
static bool number(const char **p, unsigned long long *v, size_t *digits)
{
	const char *s = *p;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end - s > 18)
		return false;
	*digits = (size_t)(end - s);
	*p = end;
	return true;
}

static int expand(struct names *out, const char *item, size_t len,
		  const char *expr, struct ibtopo_error *err);

/* Each number of the bracket [open, close) in front of the rest. */
static int bracket(struct names *out, const char *item, size_t len,
		   const char *open, const char *close, const char *expr,
		   struct ibtopo_error *err)
{
	size_t pre = (size_t)(open - item),
	       post = len - (size_t)(close + 1 - item);
	const char *p = open + 1;
	char *buf = malloc(len + 64);
	int rc = 0;

	if (!buf)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	memcpy(buf, item, pre);
	while (!rc && p < close) {
		unsigned long long lo, hi;
		size_t dl, dh, width;

		if (!number(&p, &lo, &dl)) {
			rc = bad(err, expr,
				 "a bracket holds numbers and ranges");
			break;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			if (!number(&p, &hi, &dh) || hi < lo) {
				rc = bad(
					err, expr,
					"a range runs from a number up to one");
				break;
			}
		}
		if (p < close && (*p++ != ',' || p == close)) {
			rc = bad(err, expr,
				 "a bracket holds numbers and ranges");
			break;
		}
		width = dl; /* "01" pads to 2 digits, "1" does not pad */
		for (unsigned long long v = lo; !rc && v <= hi; v++) {
			int w = snprintf(buf + pre, 32, "%0*llu", (int)width,
					 v);

			memcpy(buf + pre + w, close + 1, post);
			rc = expand(out, buf, pre + (size_t)w + post, expr,
				    err);
		}
	}
	free(buf);
	return rc;
}

/* One name of the list, its first bracket expanded, recursively. */
static int expand(struct names *out, const char *item, size_t len,
		  const char *expr, struct ibtopo_error *err)
{
	const char *open = memchr(item, '[', len), *close;

	if (!open) {
		if (memchr(item, ']', len))
			return bad(err, expr, "']' without '['");
		return add(out, item, len, err);
	}
	close = memchr(open, ']', len - (size_t)(open - item));
	if (!close || close == open + 1)
		return bad(err, expr, "'[' without numbers and ']'");
	if (memchr(open + 1, '[', (size_t)(close - open - 1)))
		return bad(err, expr, "brackets inside a bracket");
	return bracket(out, item, len, open, close, expr, err);
}

int ibtopo_hostlist_expand(char ***out, size_t *count, const char *expr,
			   struct ibtopo_error *err)
{
	struct names names = { 0 };
	const char *p = expr;
	int rc = 0;

	if (!out || !count || !expr)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no hostlist");
	*out = NULL;
	*count = 0;
	if (strpbrk(expr, " \t\r\n"))
		return bad(err, expr,
			   "a blank in it (names are separated by commas)");
	while (!rc && *p) {
		const char *s = p;
		int depth = 0;

		while (*p && (depth || *p != ',')) {
			depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
			p++;
		}
		if (p == s)
			rc = bad(err, expr, "an empty name, or a blank");
		else
			rc = expand(&names, s, (size_t)(p - s), expr, err);
		if (*p == ',' && !*++p && !rc)
			rc = bad(err, expr, "an empty name, or a blank");
	}
	if (!rc && !names.n)
		rc = bad(err, expr, "no name");
	if (rc) {
		ibtopo_hostlist_free(names.v, names.n);
		return rc;
	}
	*out = names.v;
	*count = names.n;
	return 0;
}

void ibtopo_hostlist_free(char **names, size_t count)
{
	for (size_t i = 0; names && i < count; i++)
		free(names[i]);
	free(names);
}
