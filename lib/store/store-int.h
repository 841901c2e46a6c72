/*
 * store-int.h - private to libibtopo: what the store (lib/store/) gives
 * the other modules besides the public API, without <sqlite3.h>
 * (store-db.h, which has it, is the store's own).
 */
#ifndef IBTOPO_STORE_INT_H
#define IBTOPO_STORE_INT_H

#include "base/base-int.h"

/* store.c */
/**
 * Run SQL on a database file, creating it; no schema checks (for tests).
 * The first column of the last row any statement returned goes to *out
 * (may be NULL).
 */
int ibtopo__store_exec_path(const char *path, const char *sql, int64_t *out,
			    struct ibtopo_error *err);

/* store_report.c */
/**
 * The snapshots of `list` as a table, those of `fabric` only (NULL: all),
 * with the fabric as a last column when `fabric_column`: the one column
 * list of ibtopo_store_report_snapshots() and ibtopo_report_snapshots().
 */
int ibtopo__store_snapshots_write(const struct ibtopo_sink *sink,
				  const struct ibtopo_snapshot *list,
				  size_t count, const char *fabric,
				  bool fabric_column, struct ibtopo_error *err);

#endif /* IBTOPO_STORE_INT_H */
