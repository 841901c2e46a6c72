/*
 * store-db.h - private to the store's files (lib/store/store*.c), the only
 * ones including <sqlite3.h>:
 *   store.c            opening a database: paths, schema and migrations
 *   store_save.c       writing a snapshot
 *   store_load.c       reading one back into a fabric
 *   store_snapshots.c  labels, references (`latest~N`), listing, deleting
 *                      and keeping (prune, vacuum)
 *   store_fabrics.c    fabrics: which one a snapshot joins, listing, renaming
 *   store_report.c     the snapshot and fabric lists as tables
 *   store_firmware.c   the nodes' firmware versions and PSIDs
 */
#ifndef IBTOPO_STORE_DB_H
#define IBTOPO_STORE_DB_H

#include "store/store-int.h"

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
/** What a bind function of ibtopo__store_insert_each() returns for a row it
 * does not write. */
#define IBTOPO__STORE_SKIP (-1)
/**
 * Insert up to `n` rows of `sql` on `db` for snapshot `sid`, bound to ?1:
 * bind(st, ctx, i) binds the rest of row i and returns SQLITE_OK to write
 * it, IBTOPO__STORE_SKIP to pass over it, or an SQLite code that ends the
 * insert. The statement is prepared when there is a row (n > 0). Returns an
 * SQLite code (SQLITE_OK when all went in).
 */
int ibtopo__store_insert_each(
	sqlite3 *db, const char *sql, int64_t sid, size_t n,
	int (*bind)(sqlite3_stmt *st, void *ctx, size_t i), void *ctx);
/**
 * The rows of `sql` as a new array in *list (elements of `size` bytes),
 * *count of them; each element is zeroed, then filled by row(), which
 * returns 0 or IBTOPO_ENOMEM. The statement's ?1, ?2, ?3 are bound to
 * params[0..nparams-1]. A store without a schema yet has no rows. On
 * failure (`what` names it) release() frees each row read and *list is
 * NULL.
 */
int ibtopo__store_rows(struct ibtopo_store *s, const char *sql,
		       const int64_t *params, int nparams, size_t size,
		       int (*row)(void *elem, sqlite3_stmt *st),
		       void (*release)(void *elem), void *list, size_t *count,
		       const char *what, struct ibtopo_error *err);
/** IBTOPO_EINVAL when the store was opened read-only. */
int ibtopo__store_check_rw(const struct ibtopo_store *s,
			   struct ibtopo_error *err);

/**
 * Delete snapshot `id` (`fabric`: every snapshot of fabric `id`) and its
 * rows, in the caller's transaction; *deleted: snapshots deleted. An
 * SQLite code.
 */
int ibtopo__store_delete_rows(sqlite3 *db, bool fabric, int64_t id,
			      int *deleted);

/**
 * The fabric REFs are read in, into *out: fabric `name` (IBTOPO_ENOTFOUND
 * naming the fabrics there are), else the only fabric, else 0 (no
 * fabrics: every snapshot). Several fabrics and no name: IBTOPO_EAMBIGUOUS
 * naming `ref` and listing the fabrics with their latest snapshots.
 */
int ibtopo__store_fabric_scope(struct ibtopo_store *s, const char *name,
			       const char *ref, int64_t *out,
			       struct ibtopo_error *err);
/** The lowest id of a fabric with snapshots, 0 for none. */
int ibtopo__store_fabric_only(struct ibtopo_store *s, int64_t *out,
			      struct ibtopo_error *err);
/**
 * In the open save transaction: attach snapshot `sid`, whose nodes are
 * stored, to the fabric the fabric's meta names (created when new), else
 * to the one it shares most switch GUIDs with, else to a new one; the
 * fabric's meta gets the name. *out_fid: the fabric's id.
 */
int ibtopo__store_attach(struct ibtopo_store *s, int64_t sid,
			 struct ibtopo_fabric *fabric, int64_t *out_fid,
			 struct ibtopo_error *err);
/**
 * The label check of ibtopo_store_check_label() among the snapshots of
 * fabric `fid` (0: all), leaving snapshot `except` out.
 */
int ibtopo__store_check_label(struct ibtopo_store *s, int64_t fid,
			      int64_t except, const char *label, unsigned flags,
			      struct ibtopo_error *err);

/* store_firmware.c: the nodes' firmware (table firmware) */
/** Write the rows of the nodes with a firmware version; an SQLite code. */
int ibtopo__store_save_firmware(sqlite3 *db, int64_t sid,
				const struct ibtopo_fabric *fabric);
/** Its query, bound to the snapshot id, and the taking of one row onto
 * its node: *unknown when the fabric has no node of that GUID. */
extern const char ibtopo__store_firmware_sql[];
int ibtopo__store_firmware_row(struct ibtopo_fabric *fabric, sqlite3_stmt *st,
			       bool *unknown, struct ibtopo_error *err);
/* store/store_mcast.c: multicast tables and groups (schema version 11) */
int ibtopo__store_save_mcast(sqlite3 *db, int64_t sid,
			     const struct ibtopo_fabric *f);
extern const char ibtopo__store_mfts_sql[];
extern const char ibtopo__store_members_sql[];
extern const char ibtopo__store_mcast_read_sql[];
int ibtopo__store_mft_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
			  struct ibtopo_error *err);
int ibtopo__store_member_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
			     struct ibtopo_error *err);
int ibtopo__store_mcast_read_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
				 struct ibtopo_error *err);

#endif /* IBTOPO_STORE_DB_H */
