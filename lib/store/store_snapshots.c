/*
 * store_snapshots.c - the snapshots of a store: labels, references
 * (an id, `latest`, `latest~N` or a label), listing, deleting, and what
 * is kept (prune, vacuum).
 */
#include "store/store-db.h"

#include <stdlib.h>
#include <string.h>

/* Parse a non-negative decimal; false if `s` is anything else. */
static bool parse_count(const char *s, int64_t *out)
{
	int64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return true;
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */
/* ------------------------------------------------------------------ */

/* What ibtopo_store_resolve() reads as an id, `latest` or `latest~N`. */
static bool reads_as_ref(const char *ref)
{
	int64_t n;

	return parse_count(ref, &n) || strcmp(ref, "latest") == 0 ||
	       (strncmp(ref, "latest~", 7) == 0 && parse_count(ref + 7, &n));
}

#define LABEL_IDS_SHOWN 8

/*
 * The snapshots a label names, oldest first: *count of them, the first
 * LABEL_IDS_SHOWN in ids[], and ", "-separated in `list` ("3, 5, 9 and 2
 * more"). The newest is ids[*count - 1] when *count <= LABEL_IDS_SHOWN.
 */
static int label_ids(struct ibtopo_store *s, int64_t fid, int64_t except,
		     const char *label, int64_t *ids, size_t *count, char *list,
		     size_t len, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t n = 0, used = 0;
	int rc;

	*count = 0;
	list[0] = '\0';
	if (!s->version)
		return 0;
	rc = sqlite3_prepare_v2(s->db,
				"SELECT id FROM snapshots WHERE label = ?1"
				" AND (?2 = 0 OR fabric_id = ?2) AND id <> ?3"
				" ORDER BY id",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, fid);
	sqlite3_bind_int64(st, 3, except);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (n < LABEL_IDS_SHOWN) {
			ids[n] = id;
			used += (size_t)snprintf(list + used,
						 used < len ? len - used : 0,
						 "%s%lld", n ? ", " : "",
						 (long long)id);
		}
		n++;
	}
	if (rc != SQLITE_DONE)
		goto out_fail;
	sqlite3_finalize(st);
	if (n > LABEL_IDS_SHOWN && used < len)
		snprintf(list + used, len - used, " and %zu more",
			 n - LABEL_IDS_SHOWN);
	*count = n;
	return 0;

out_fail:
	rc = ibtopo__store_fail(s, s->db, rc, "cannot read snapshots", err);
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_check_label(struct ibtopo_store *store, const char *label,
			     unsigned flags, struct ibtopo_error *err)
{
	return ibtopo__store_check_label(store, 0, 0, label, flags, err);
}

int ibtopo_store_check_label_in(struct ibtopo_store *store, const char *fabric,
				const char *label, unsigned flags,
				struct ibtopo_error *err)
{
	int64_t fid = 0;
	int rc;

	if (!store)
		return ibtopo__store_check_label(NULL, 0, 0, label, flags, err);
	rc = ibtopo__store_fabric_scope(store, fabric, label, &fid, err);
	/* several fabrics: the save checks, in the one it chooses */
	if (rc == IBTOPO_EAMBIGUOUS)
		return ibtopo__store_check_label(NULL, 0, 0, label, flags, err);
	/* a fabric not there yet holds no label */
	if (rc == IBTOPO_ENOTFOUND)
		return ibtopo__store_check_label(NULL, 0, 0, label, flags, err);
	if (rc)
		return rc;
	return ibtopo__store_check_label(store, fid, 0, label, flags, err);
}

int ibtopo__store_check_label(struct ibtopo_store *store, int64_t fid,
			      int64_t except, const char *label, unsigned flags,
			      struct ibtopo_error *err)
{
	int64_t ids[LABEL_IDS_SHOWN];
	char q[96], list[160];
	size_t n;
	int rc;

	if (!label || !*label)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "empty snapshot label");
	ibtopo__quote(q, sizeof(q), label, strlen(label));
	if (reads_as_ref(label))
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"label '%s' reads as a snapshot reference (an id, 'latest'"
			" or 'latest~N'), which it could never name",
			q);
	if (!store || (flags & IBTOPO_SAVE_MOVE_LABEL))
		return 0;
	rc = label_ids(store, fid, except, label, ids, &n, list, sizeof(list),
		       err);
	if (rc || !n)
		return rc;
	return ibtopo__error_set(err, IBTOPO_EEXIST,
				 "label '%s' names snapshot%s %s already", q,
				 n == 1 ? "" : "s", list);
}

/* ------------------------------------------------------------------ */
/* References and listing                                              */
/* ------------------------------------------------------------------ */

/* Run a query yielding at most one id; *found tells whether it did. */
static int query_id(struct ibtopo_store *s, const char *sql, const char *text,
		    int64_t arg, int64_t fid, int64_t *out, bool *found,
		    struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = false;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, arg);
	if (sqlite3_bind_parameter_count(st) > 1)
		sqlite3_bind_int64(st, 2, fid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		*found = true;
	} else if (rc != SQLITE_DONE) {
		goto out_fail;
	}
	sqlite3_finalize(st);
	return 0;

out_fail:
	rc = ibtopo__store_fail(s, s->db, rc, "cannot read snapshots", err);
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_resolve(int64_t *out, struct ibtopo_store *store,
			 const char *ref, struct ibtopo_error *err)
{
	return ibtopo_store_resolve_in(out, store, NULL, ref, err);
}

/*
 * The snapshot of fabric fid (0: any) labelled `label` into *out when
 * *count is 1. Several: an error when `several_fail` (an older ibtopo let
 * a label name several snapshots of a fabric), else only *count.
 */
static int label_id(struct ibtopo_store *s, int64_t fid, const char *label,
		    bool several_fail, int64_t *out, size_t *count,
		    struct ibtopo_error *err)
{
	int64_t ids[LABEL_IDS_SHOWN];
	char list[160], q[96];
	int rc = label_ids(s, fid, 0, label, ids, count, list, sizeof(list),
			   err);

	if (rc)
		return rc;
	if (*count == 1)
		*out = ids[0];
	if (*count <= 1 || !several_fail)
		return 0;
	ibtopo__quote(q, sizeof(q), label, strlen(label));
	return ibtopo__error_set(err, IBTOPO_EAMBIGUOUS,
				 "label '%s' names snapshots %s: give an id", q,
				 list);
}

int ibtopo_store_resolve_in(int64_t *out, struct ibtopo_store *store,
			    const char *fabric, const char *ref,
			    struct ibtopo_error *err)
{
	char q[96];
	bool found = false;
	int64_t n = 0, any, fid = 0;
	bool is_latest;
	size_t count;
	int rc;

	if (!out || !store || !ref || !*ref)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "empty snapshot reference");
	*out = 0;
	if (store->version) {
		rc = query_id(store, "SELECT id FROM snapshots LIMIT ?", NULL,
			      1, 0, &any, &found, err);
		if (rc)
			return rc;
	}
	if (!found)
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no snapshots in '%s'", store->path);
	found = false;
	if (parse_count(ref, &n)) {
		rc = query_id(store, "SELECT id FROM snapshots WHERE id = ?",
			      NULL, n, 0, out, &found, err);
		if (rc || found)
			return rc;
		/* ids are global: no fabric holds it */
		goto out_notfound;
	}
	is_latest =
		strcmp(ref, "latest") == 0 ||
		(strncmp(ref, "latest~", 7) == 0 && parse_count(ref + 7, &n));
	/* a label with no fabric named: the one snapshot that has it, in
	 * whichever fabric; held in several, the fabrics are named below */
	if (!fabric && !is_latest) {
		rc = label_id(store, 0, ref, false, out, &count, err);
		if (rc || count == 1)
			return rc;
		if (!count)
			goto out_notfound;
	}
	/* the rest is read within a fabric */
	rc = ibtopo__store_fabric_scope(store, fabric, ref, &fid, err);
	if (rc)
		return rc;
	if (is_latest) {
		rc = query_id(store,
			      "SELECT id FROM snapshots"
			      " WHERE (?2 = 0 OR fabric_id = ?2)"
			      " ORDER BY id DESC LIMIT 1 OFFSET ?1",
			      NULL, ref[6] ? n : 0, fid, out, &found, err);
		if (rc || found)
			return rc;
	} else {
		rc = label_id(store, fid, ref, true, out, &count, err);
		if (rc || count == 1)
			return rc;
	}
out_notfound:
	ibtopo__quote(q, sizeof(q), ref, strlen(ref));
	if (fabric)
		return ibtopo__error_set(
			err, IBTOPO_ENOTFOUND,
			"no snapshot '%s' in fabric '%s' of '%s'", q, fabric,
			store->path);
	return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				 "no snapshot '%s' in '%s'", q, store->path);
}

static char *dup_column(sqlite3_stmt *st, int i, bool *oom)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	char *copy;

	if (!s)
		return NULL;
	copy = strdup(s);
	if (!copy)
		*oom = true;
	return copy;
}

static const char list_sql[] = "SELECT s.id, s.label, s.taken_at, s.source,"
			       " s.host, s.switches, s.cas, s.routers, s.links,"
			       " s.partial, s.partial_reason, f.name"
			       " FROM snapshots s LEFT JOIN fabrics f"
			       " ON f.id = s.fabric_id ORDER BY s.id";

static int snapshot_row(void *elem, sqlite3_stmt *st)
{
	struct ibtopo_snapshot *s = elem;
	bool oom = false;

	s->id = sqlite3_column_int64(st, 0);
	s->label = dup_column(st, 1, &oom);
	s->taken_at = (time_t)sqlite3_column_int64(st, 2);
	s->source = dup_column(st, 3, &oom);
	s->host = dup_column(st, 4, &oom);
	s->switches = (size_t)sqlite3_column_int64(st, 5);
	s->cas = (size_t)sqlite3_column_int64(st, 6);
	s->routers = (size_t)sqlite3_column_int64(st, 7);
	s->links = (size_t)sqlite3_column_int64(st, 8);
	s->partial = sqlite3_column_int(st, 9) != 0;
	s->partial_reason = dup_column(st, 10, &oom);
	s->fabric = dup_column(st, 11, &oom);
	return oom ? IBTOPO_ENOMEM : 0;
}

static void snapshot_release(void *elem)
{
	struct ibtopo_snapshot *s = elem;

	free(s->label);
	free(s->source);
	free(s->host);
	free(s->partial_reason);
	free(s->fabric);
}

int ibtopo_store_list(struct ibtopo_snapshot **out, size_t *out_count,
		      struct ibtopo_store *store, struct ibtopo_error *err)
{
	return ibtopo__store_rows(store, list_sql, NULL, 0, sizeof(**out),
				  snapshot_row, snapshot_release, out,
				  out_count, "cannot list snapshots", err);
}

void ibtopo_snapshot_list_free(struct ibtopo_snapshot *list, size_t count)
{
	for (size_t i = 0; list && i < count; i++)
		snapshot_release(&list[i]);
	free(list);
}

int ibtopo_store_delete(struct ibtopo_store *store, int64_t id,
			struct ibtopo_error *err)
{
	const char *what = "cannot delete snapshot";
	int rc, src, deleted;

	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	rc = ibtopo__store_check_rw(store, err);
	if (rc)
		return rc;
	rc = ibtopo__store_exec(store, "BEGIN IMMEDIATE", what, err);
	if (rc)
		return rc;
	src = ibtopo__store_delete_rows(store->db, false, id, &deleted);
	if (src != SQLITE_OK) {
		rc = ibtopo__store_fail(store, store->db, src, what, err);
		goto out_rollback;
	}
	if (deleted == 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no snapshot '%lld' in '%s'",
				       (long long)id, store->path);
		goto out_rollback;
	}
	src = sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = ibtopo__store_fail(store, store->db, src, what, err);
		goto out_rollback;
	}
	return 0;

out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* --------------------------------------------------------- housekeeping */

static bool same_fabric(const struct ibtopo_snapshot *a,
			const struct ibtopo_snapshot *b)
{
	if (!a->fabric || !b->fabric)
		return !a->fabric && !b->fabric;
	return strcmp(a->fabric, b->fabric) == 0;
}

/*
 * later[i]: how many snapshots of the fabric of snapshot i come after it
 * in the list (oldest first, by id). One pass from the newest, counting
 * per fabric; a database holds a handful of fabrics.
 */
static int count_later(const struct ibtopo_snapshot *list, size_t count,
		       size_t *later)
{
	const struct ibtopo_snapshot **seen =
		calloc(count ? count : 1, sizeof(*seen));
	size_t *n = calloc(count ? count : 1, sizeof(*n)), nseen = 0;

	if (!seen || !n) {
		free(seen);
		free(n);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = count; i-- > 0;) {
		size_t k = 0;

		while (k < nseen && !same_fabric(seen[k], &list[i]))
			k++;
		if (k == nseen)
			seen[nseen++] = &list[i];
		later[i] = n[k]++;
	}
	free(seen);
	free(n);
	return 0;
}

/*
 * Whether ibtopo_store_prune() must keep snapshot i: the newest of its
 * fabric (what 'latest' names there), or the newest of a label in it.
 */
static bool prune_protected(const struct ibtopo_snapshot *list, size_t count,
			    size_t i, size_t later)
{
	if (!later)
		return true;
	if (!list[i].label)
		return false;
	for (size_t j = i + 1; j < count; j++)
		if (list[j].label &&
		    strcmp(list[j].label, list[i].label) == 0 &&
		    same_fabric(&list[i], &list[j]))
			return false;
	return true;
}

int ibtopo_store_prune(int64_t **out_ids, size_t *out_count,
		       struct ibtopo_store *store, size_t keep, time_t before,
		       struct ibtopo_error *err)
{
	return ibtopo_store_prune_in(out_ids, out_count, store, NULL, keep,
				     before, err);
}

int ibtopo_store_prune_in(int64_t **out_ids, size_t *out_count,
			  struct ibtopo_store *store, const char *fabric,
			  size_t keep, time_t before, struct ibtopo_error *err)
{
	struct ibtopo_snapshot *list = NULL;
	int64_t *ids = NULL, fid = 0;
	size_t count = 0, n = 0, *later = NULL;
	int rc;

	if (out_ids)
		*out_ids = NULL;
	if (out_count)
		*out_count = 0;
	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	if (fabric) {
		rc = ibtopo__store_fabric_scope(store, fabric, NULL, &fid, err);
		if (rc)
			return rc;
	}
	rc = ibtopo_store_list(&list, &count, store, err);
	if (rc)
		return rc;
	ids = calloc(count ? count : 1, sizeof(*ids));
	later = calloc(count ? count : 1, sizeof(*later));
	if (!ids || !later || count_later(list, count, later)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_list;
	}
	for (size_t i = 0; i < count; i++) {
		bool old = before && list[i].taken_at < before;

		if (fabric &&
		    (!list[i].fabric || strcmp(list[i].fabric, fabric) != 0))
			continue;
		if (((keep && later[i] >= keep) || old) &&
		    !prune_protected(list, count, i, later[i]))
			ids[n++] = list[i].id;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		rc = ibtopo_store_delete(store, ids[i], err);
		if (rc)
			n = i; /* what was deleted before the failure */
	}
	if (out_count)
		*out_count = n;
	if (out_ids && n) {
		*out_ids = ids;
		ids = NULL;
	}
out_free_list:
	free(ids);
	free(later);
	ibtopo_snapshot_list_free(list, count);
	return rc;
}

int ibtopo_store_vacuum(struct ibtopo_store *store, struct ibtopo_error *err)
{
	int rc;

	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	rc = ibtopo__store_check_rw(store, err);
	if (rc)
		return rc;
	rc = ibtopo__store_exec(store, "VACUUM", "cannot vacuum", err);
	/* give the WAL back to the main file, so the file shrinks now */
	if (rc == 0)
		rc = ibtopo__store_exec(store,
					"PRAGMA wal_checkpoint(TRUNCATE)",
					"cannot checkpoint", err);
	return rc;
}
