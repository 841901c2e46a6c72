/* new_snapshot.h - what discover and import share: a fabric stored as a
 * new snapshot, with its --label (--force) and routing engine */
#ifndef IBTOPO_NEW_SNAPSHOT_H
#define IBTOPO_NEW_SNAPSHOT_H

#include "cli.h"

struct new_snapshot {
	const char *label;	 /* --label, or NULL */
	unsigned save_flags;	 /* IBTOPO_SAVE_MOVE_LABEL with --force */
	const char *engine_name; /* --routing-engine */
	const char *routes_log;	 /* --routes-log */
	const char *cables;	 /* --cables FILE: stored with the snapshot */
	char *engine;		 /* the engine they name (malloc'd), or NULL */
	bool quiet;		 /* no summary on stdout (discover --quiet) */
	int64_t id;		 /* the snapshot stored, once saved */
};

/**
 * The checks that come before the work (a sweep, a file read): --force
 * without --label, a label a REF would misread, the routing engine
 * (`routes`: tables are read). Returns 0, or the exit status after the
 * message.
 */
int new_snapshot_check(struct new_snapshot *ns, const struct cli_cmd *cmd,
		       bool routes);

/**
 * Merge the --cables inventory into `fabric` (rows that match no link
 * are left out with one warning), label it, open the store only now (a
 * failure before leaves it untouched), save it (ns->id) and print the
 * summary, the time taken since `t0`, unless ns->quiet.
 * Returns the exit status.
 */
int new_snapshot_save(struct new_snapshot *ns, const struct cli_global *g,
		      struct ibtopo_fabric *fabric, double t0);

/**
 * The ports of a stored `fabric` whose counters were asked for and not
 * read, named once: a line on stdout (`out`), or with out NULL (--quiet,
 * --format json) a warning on stderr. Returns EXIT_INCOMPLETE when there
 * are any, else EXIT_CLEAN.
 */
int new_snapshot_unread(const struct ibtopo_fabric *fabric, FILE *out);

/** The message of a failed label check or save: EXIT_TROUBLE. */
int new_snapshot_fail(const struct ibtopo_error *err);

/** Free what new_snapshot_check allocated. */
void new_snapshot_release(struct new_snapshot *ns);

#endif
