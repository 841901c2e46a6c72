/*
 * cables-load.h - private to the cable loader (lib/cables/cables*.c): what the
 * two readers of cable rows share with cables.c, which runs them.
 *   cables.c            the entry: tells the format, stores what was read
 *   cables_inventory.c  the inventory CSV
 *   cables_dbcsv.c      ibdiagnet2 db_csv sections, CABLE_INFO
 *   cables_row.c        a row's values, merged into a link's pending cable
 * (cables_pn.c, the part-number decoder, and cables_reach.c, the reach
 * table, stand alone.)
 */
#ifndef IBTOPO_CABLES_LOAD_H
#define IBTOPO_CABLES_LOAD_H

#include "cables/cables-int.h"

#define IBTOPO__CABLE_MAX_FIELDS 512 /* db_csv CABLE_INFO has ~200 columns */

/* What one load gathers for a link before anything is stored. */
struct ibtopo__cable_pending {
	bool set;
	struct ibtopo_cable cable; /* strings point into the file buffer */
};

struct ibtopo__cable_loader {
	struct ibtopo_fabric *fabric;
	const char *path;
	const struct ibtopo_cables_opts *opts;
	struct ibtopo__cable_pending *pend; /* one per link, by link->index */
	size_t nlinks;
	struct ibtopo_node **by_desc; /* nodes sorted by description */
	size_t nnodes;
	/* stale rows, names still in the file buffer; NULL: rows must match */
	struct ibtopo_findings *unmatched;
	struct ibtopo_findings miss;
};

/** "0x" and hex digits, nothing after. */
bool ibtopo__cable_parse_guid(const char *s, uint64_t *out);
/** A port number 0..255, nothing after. */
bool ibtopo__cable_parse_port(const char *s, unsigned *out);
/** "30", "30m", "2.5 m"; false when not a length >= 0. */
bool ibtopo__cable_parse_length(const char *s, double *out);
/**
 * Merge a row's values into a link's pending cable. `override`: the
 * inventory's later rows win; for db_csv the first end's value stays and
 * the other end's row only fills what is missing.
 */
void ibtopo__cable_merge(struct ibtopo__cable_pending *p,
			 const struct ibtopo_cable *c, bool override);

/**
 * The inventory's rows after `header` (its first line that is not a
 * comment, `it` just past it), into ld->pend, stale rows into ld->miss.
 */
int ibtopo__cables_read_inventory(struct ibtopo__cable_loader *ld,
				  struct ibtopo__lines *it, char *header,
				  struct ibtopo_error *err);
/**
 * The NODES_INFO section of a db_csv `text`, when it has one: each known
 * node's firmware version and PSID, onto the fabric's nodes. `text` is
 * split in place.
 */
int ibtopo__nodes_info_read_db_csv(struct ibtopo__cable_loader *ld, char *text,
				   struct ibtopo_error *err);
/** The CABLE_INFO section of a db_csv `text`, into ld->pend. */
int ibtopo__cables_read_db_csv(struct ibtopo__cable_loader *ld, char *text,
			       struct ibtopo_error *err);

#endif /* IBTOPO_CABLES_LOAD_H */
