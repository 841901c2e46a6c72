/*
 * store-int.h - private to the store's files (lib/io/store*.c), the only
 * ones including <sqlite3.h>:
 *   store.c            opening a database: paths, schema and migrations
 *   store_save.c       writing a snapshot
 *   store_load.c       reading one back into a fabric
 *   store_snapshots.c  labels, references (`latest~N`), listing, deleting
 *                      and keeping (prune, vacuum)
 */
#ifndef IBTOPO_STORE_INT_H
#define IBTOPO_STORE_INT_H

#include "io/io-int.h"

#include <sqlite3.h>

struct ibtopo_store {
	sqlite3 *db;
	char *path;
	int version; /* user_version when opened (after migrating) */
	bool readonly;
};

/* port_counters columns after the key, in enum ibtopo_counter order */
#define IBTOPO__STORE_COUNTER_COLUMNS                                    \
	" symbol_errors, link_error_recovery, link_downed,"              \
	" rcv_errors, rcv_remote_phys_errors, rcv_switch_relay_errors,"  \
	" xmit_discards, xmit_constraint_errors, rcv_constraint_errors," \
	" local_link_integrity_errors, excessive_buffer_overrun_errors," \
	" vl15_dropped, xmit_wait, xmit_data, rcv_data, xmit_pkts, rcv_pkts"

/**
 * Record a failed SQLite call `what` on `db` (may be NULL) as an error
 * naming the store's file; returns its status.
 */
int ibtopo__store_fail(const struct ibtopo_store *s, sqlite3 *db, int rc,
		       const char *what, struct ibtopo_error *err);
/** sqlite3_exec() on the store's connection; a failure is `what`. */
int ibtopo__store_exec(struct ibtopo_store *s, const char *sql,
		       const char *what, struct ibtopo_error *err);
/** Step once, reset. Returns an SQLite code (SQLITE_OK for DONE). */
int ibtopo__store_step_reset(sqlite3_stmt *st);
/** IBTOPO_EINVAL when the store was opened read-only. */
int ibtopo__store_check_rw(const struct ibtopo_store *s,
			   struct ibtopo_error *err);

#endif /* IBTOPO_STORE_INT_H */
