/*
 * cables_reach.c - the cable reach table of data/cable-reach.tsv: how far
 * a speed carries over each media. Compiled in, overridable with a file.
 */
#include "cables/cables-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NSPEEDS 9 /* SDR .. XDR, one per enum ibtopo_speed bit */
#define NMEDIA 6  /* enum ibtopo_media */

struct ibtopo__reach {
	double m[NSPEEDS][NMEDIA];
	unsigned line[NSPEEDS][NMEDIA]; /* where each row came from */
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
	struct ibtopo__lines it;
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
	while ((line = ibtopo__lines_next(&it)) != NULL) {
		char *f[4] = { NULL, NULL, NULL, NULL }, *save = NULL, *end;
		unsigned speed;
		enum ibtopo_media media;
		double metres;
		int si, k = 0;

		line = ibtopo__trim(line);
		if (!*line || *line == '#')
			continue;
		for (char *tok = strtok_r(line, "\t", &save); tok && k < 4;
		     tok = strtok_r(NULL, "\t", &save))
			f[k++] = ibtopo__trim(tok);
		if (strcasecmp(f[0], "speed") == 0)
			continue; /* the header */
		if (k < 4 || !*f[3]) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: expected 4 tab-separated columns: speed, media, max_m, source",
				name, it.no);
			goto out_free;
		}
		speed = ibtopo_speed_parse(f[0]);
		if (!speed) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: unknown speed '%s'",
				name, it.no, f[0]);
			goto out_free;
		}
		media = ibtopo_media_parse(f[1]);
		if (media == IBTOPO_MEDIA_UNKNOWN) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: unknown media '%s' (passive-copper, active-copper, aoc, multimode or singlemode)",
				name, it.no, f[1]);
			goto out_free;
		}
		errno = 0;
		metres = strtod(f[2], &end);
		if (errno || end == f[2] || *end || !isfinite(metres) ||
		    metres <= 0) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
						     "%s:%u: bad max_m '%s'",
						     name, it.no, f[2]);
			goto out_free;
		}
		si = speed_index(speed);
		if (t->line[si][media]) {
			rc = ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
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
					   "data/cable-reach.tsv (built in)",
					   err);
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
