/*
 * sched_hostlist.c - names as Slurm writes them in a hostlist expression:
 * runs of names that differ only in their trailing number, folded into
 * "node[001-016]", the rest joined by commas (as scontrol show hostlist).
 */
#include "export/sched.h"

#include <stdlib.h>
#include <string.h>

struct hname {
	const char *s;
	size_t plen; /* prefix length (up to the trailing digits) */
	uint64_t num;
	bool has_num;
};

static int cmp_hname(const void *x, const void *y)
{
	const struct hname *a = x, *b = y;
	size_t m = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->s, b->s, m);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (a->has_num != b->has_num)
		return a->has_num ? 1 : -1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->s, b->s);
}

static bool padded(const struct hname *h)
{
	const char *d = h->s + h->plen;

	return d[0] == '0' && d[1] != '\0';
}

/* Consecutive numbers written alike (same width, or neither zero-padded). */
static bool hname_next(const struct hname *a, const struct hname *b)
{
	if (b->num != a->num + 1)
		return false;
	if (strlen(a->s) == strlen(b->s))
		return true;
	return !padded(a) && !padded(b);
}

static void hname_split(struct hname *h, const char *s)
{
	size_t d = strlen(s);

	h->s = s;
	h->plen = d;
	while (h->plen && s[h->plen - 1] >= '0' && s[h->plen - 1] <= '9')
		h->plen--;
	h->has_num = h->plen < d && d - h->plen <= 18;
	if (!h->has_num)
		h->plen = d;
	h->num = h->has_num ? strtoull(s + h->plen, NULL, 10) : 0;
}

/* One run of names sharing a prefix: prefix[1-3,7] */
static void write_run(struct ibtopo__wr *w, const struct hname *h, size_t n)
{
	ibtopo__wr_printf(w, "%.*s[", (int)h[0].plen, h[0].s);
	for (size_t k = 0; k < n;) {
		size_t e = k;

		while (e + 1 < n && hname_next(&h[e], &h[e + 1]))
			e++;
		ibtopo__wr_printf(w, "%s%s", k ? "," : "", h[k].s + h[k].plen);
		if (e > k)
			ibtopo__wr_printf(w, "-%s", h[e].s + h[e].plen);
		k = e + 1;
	}
	ibtopo__wr_printf(w, "]");
}

void ibtopo__sched_hostlist(struct ibtopo__wr *w, const char **names, size_t n)
{
	struct hname *h = calloc(n ? n : 1, sizeof(*h));

	if (!h) {
		w->rc = IBTOPO_ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++)
		hname_split(&h[i], names[i]);
	if (n)
		qsort(h, n, sizeof(*h), cmp_hname);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		if (i)
			ibtopo__wr_printf(w, ",");
		while (h[i].has_num && j < n && h[j].has_num &&
		       h[j].plen == h[i].plen &&
		       memcmp(h[j].s, h[i].s, h[i].plen) == 0)
			j++;
		if (j == i + 1)
			ibtopo__wr_printf(w, "%s", h[i].s);
		else
			write_run(w, h + i, j - i);
		i = j;
	}
	free(h);
}

void ibtopo__sched_list(struct ibtopo__wr *w, const struct ibtopo__sched *s,
			const struct ibtopo__sched_sw *sw, bool hosts)
{
	size_t n = hosts ? sw->nhosts : sw->nkids;
	const char **names = calloc(n ? n : 1, sizeof(*names));

	if (!names) {
		w->rc = IBTOPO_ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++)
		names[i] =
			hosts ? s->host[sw->hosts[i]] : s->sw[sw->kids[i]].name;
	ibtopo__sched_hostlist(w, names, n);
	free(names);
}
