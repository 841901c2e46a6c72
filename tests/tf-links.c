/*
 * tf-links.c - compare the links of two fabric files (any format ibtopo
 * reads): both ends (node GUID, port), active speed and width. Prints the
 * differences and exits 1 when there are any, 2 when a file cannot be
 * read. Used by tests/integration/topofile-sim.sh.
 */
#include <ibtopo.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row {
	uint64_t ag, bg;
	unsigned ap, bp, speed, width;
};

static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->ag != b->ag)
		return a->ag < b->ag ? -1 : 1;
	if (a->ap != b->ap)
		return a->ap < b->ap ? -1 : 1;
	return 0;
}

static struct row *rows(const char *path, size_t *n)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	struct row *r;

	if (ibtopo_fabric_read_file(&f, path, NULL, &err)) {
		fprintf(stderr, "tf-links: %s\n", err.message);
		exit(2);
	}
	*n = ibtopo_fabric_link_count(f);
	r = calloc(*n ? *n : 1, sizeof(*r));
	if (!r)
		exit(2);
	for (size_t i = 0; i < *n; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);

		r[i] = (struct row){ l->a->node->guid, l->b->node->guid,
				     l->a->num, l->b->num, l->speed, l->width };
	}
	qsort(r, *n, sizeof(*r), cmp_row);
	ibtopo_fabric_free(f);
	return r;
}

static void show(const char *tag, const struct row *r)
{
	printf("%s 0x%016" PRIx64 "[%u] - 0x%016" PRIx64 "[%u] %s%s\n", tag,
	       r->ag, r->ap, r->bg, r->bp,
	       r->width ? ibtopo_width_name(r->width) : "??",
	       r->speed ? ibtopo_speed_name(r->speed) : "???");
}

int main(int argc, char **argv)
{
	struct row *a, *b;
	size_t na, nb, i = 0, j = 0;
	int diff = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: tf-links FILE1 FILE2\n");
		return 2;
	}
	a = rows(argv[1], &na);
	b = rows(argv[2], &nb);
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : cmp_row(&a[i], &b[j]);

		if (c < 0) {
			show("-", &a[i++]);
			diff = 1;
		} else if (c > 0) {
			show("+", &b[j++]);
			diff = 1;
		} else {
			if (memcmp(&a[i], &b[j], sizeof(a[i]))) {
				show("-", &a[i]);
				show("+", &b[j]);
				diff = 1;
			}
			i++;
			j++;
		}
	}
	free(a);
	free(b);
	return diff;
}
