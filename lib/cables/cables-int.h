/*
 * cables-int.h - private to libibtopo: what the cable room (lib/cables/)
 * gives the other modules: the cable reach table (for the cable checks)
 * and the sections of ibdiagnet's db_csv (for the counter reader).
 * cables-load.h is the cable loader's own.
 */
#ifndef IBTOPO_CABLES_INT_H
#define IBTOPO_CABLES_INT_H

#include "base/base-int.h"

/* cables_reach.c: the cable reach table (data/cable-reach.tsv) */
struct ibtopo__reach;
/**
 * Load a reach table from `path`, or the built-in copy of
 * data/cable-reach.tsv when path is NULL. IBTOPO_EIO, IBTOPO_EPARSE
 * ("<path>:<line>: ..."), IBTOPO_ENOMEM.
 */
int ibtopo__reach_load(struct ibtopo__reach **out, const char *path,
		       struct ibtopo_error *err);
/** Parse a reach table held in memory; `name` names it in errors. */
int ibtopo__reach_parse(struct ibtopo__reach **out, const char *text,
			const char *name, struct ibtopo_error *err);
void ibtopo__reach_free(struct ibtopo__reach *table);
/** Metres for one speed bit and media; 0 when the table has no row. */
double ibtopo__reach_lookup(const struct ibtopo__reach *table, unsigned speed,
			    enum ibtopo_media media);

/*
 * cables_dbcsv.c: the sections of ibdiagnet's db_csv ("START_<NAME>", a CSV
 * header, rows, "END_<NAME>"), read by the cable and the counter readers.
 */
struct ibtopo__dbcsv {
	char *p;      /* the next line; the text is split in place */
	unsigned no;  /* number of the line last returned */
	char end[64]; /* "END_<NAME>" */
};
/**
 * Find the line "START_<name>" in `text` (NUL-terminated; nothing before
 * the section is changed, so several sections can be found first and
 * read after). False when the text has no such section.
 */
bool ibtopo__dbcsv_section(struct ibtopo__dbcsv *s, char *text,
			   const char *name);
/**
 * The next row of the section (the first is its header), split in place
 * into trimmed fields (at most `max`); blank lines are skipped. Returns
 * the field count, 0 at "END_<name>" or the end of the text, -1 for an
 * unterminated quote (line s->no).
 */
int ibtopo__dbcsv_row(struct ibtopo__dbcsv *s, char **fields, int max);

#endif /* IBTOPO_CABLES_INT_H */
