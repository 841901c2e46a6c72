/*
 * cables_row.c - the values of one cable row, as both cable readers
 * (cables_inventory.c, cables_dbcsv.c) parse them, and merging a row
 * into the cable pending for its link.
 */
#include "cables/cables-load.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

bool ibtopo__cable_parse_guid(const char *s, uint64_t *out)
{
	char *end;

	if (strncasecmp(s, "0x", 2) != 0 || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return !errno && !*end;
}

bool ibtopo__cable_parse_port(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 255)
		return false;
	*out = (unsigned)v;
	return true;
}

/* "30", "30m", "2.5 m"; false when not a length >= 0. */
bool ibtopo__cable_parse_length(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return false;
	while (*end == ' ')
		end++;
	if (*end == 'm' || *end == 'M')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

/*
 * Merge a row's values into a link's pending cable. `override`: the
 * inventory's later rows win; for db_csv the first end's value stays and
 * the other end's row only fills what is missing.
 */
void ibtopo__cable_merge(struct ibtopo__cable_pending *p,
			 const struct ibtopo_cable *c, bool override)
{
	struct ibtopo_cable *d = &p->cable;

#define TAKE(field, unset)                                                    \
	do {                                                                  \
		if (c->field != (unset) && (override || d->field == (unset))) \
			d->field = c->field;                                  \
	} while (0)
	TAKE(media, IBTOPO_MEDIA_UNKNOWN);
	TAKE(length_m, 0);
	TAKE(rated_speed, 0u);
	TAKE(vendor, NULL);
	TAKE(part_number, NULL);
	TAKE(serial, NULL);
#undef TAKE
	p->set = true;
}
