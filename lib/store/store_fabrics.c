/*
 * store_fabrics.c - the fabrics of a store: which fabric a new snapshot
 * joins, the fabric a REF is read in, listing and renaming fabrics.
 *
 * A fabric is a row of `fabrics`; each snapshot names one (fabric_id).
 * A snapshot saved without a fabric name joins the fabric whose latest
 * snapshot shares at least half of its switch GUIDs (the most shared
 * wins, then the most recent), else a new fabric named for its subnet prefix and lowest switch
 * GUID, so that two cron jobs of two subnets keep two histories.
 */
#include "store/store-db.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FABRIC_NAME_MAX 64

bool ibtopo_store_fabric_name_is_valid(const char *name)
{
	size_t n = 0;

	if (!name || !*name || *name == '-' || *name == '_' || *name == '.')
		return false;
	for (; name[n]; n++) {
		char c = name[n];

		if (n >= FABRIC_NAME_MAX ||
		    !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.'))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Finding a fabric                                                    */
/* ------------------------------------------------------------------ */

/* The id of fabric `name` into *out, 0 when there is none. SQLite code. */
static int fabric_lookup(sqlite3 *db, const char *name, int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = 0;
	rc = sqlite3_prepare_v2(db, "SELECT id FROM fabrics WHERE name = ?", -1,
				&st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*out = sqlite3_column_int64(st, 0);
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * "a (latest: 3, 2026-12-01T10:00:00Z), b (latest: 5, ...)" into buf:
 * each fabric with its latest snapshot, by name. Only whole entries: the
 * ones that do not fit are counted ("and 2 more (ibtopo fabrics)"), so
 * that every name shown can be given back to --fabric.
 */
#define SUMMARY_MORE_ROOM 32

/* Keep the fabrics of `list` that have snapshots; how many. */
static size_t drop_empty(struct ibtopo_fabric_info *list, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (list[i].snapshots)
			list[k++] = list[i];
		else
			free(list[i].name);
	}
	return k;
}

static int fabric_summary(struct ibtopo_store *s, char *buf, size_t len,
			  size_t *count, struct ibtopo_error *err)
{
	struct ibtopo_fabric_info *list = NULL;
	size_t n = 0, used = 0;
	int rc;

	buf[0] = '\0';
	rc = ibtopo_store_fabrics(&list, &n, s, err);
	/* an empty fabric holds no snapshot a REF could name */
	if (!rc)
		n = drop_empty(list, n);
	for (size_t i = 0; i < n && !rc; i++) {
		char when[32] = "?", entry[160];
		time_t t = list[i].latest_at;
		struct tm tm;
		size_t room;

		if (gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		snprintf(entry, sizeof(entry), "%s%s (latest: %lld, %s)",
			 i ? ", " : "", list[i].name,
			 (long long)list[i].latest_id, when);
		/* the last entry may take the room kept for "and N more" */
		room = len - used;
		if (i + 1 < n)
			room = room > SUMMARY_MORE_ROOM ?
				       room - SUMMARY_MORE_ROOM :
				       0;
		if (strlen(entry) >= room) {
			snprintf(buf + used, len - used,
				 "%s%zu more (ibtopo fabrics)",
				 i ? " and " : "", n - i);
			break;
		}
		memcpy(buf + used, entry, strlen(entry) + 1);
		used += strlen(entry);
	}
	*count = n;
	ibtopo_fabric_info_list_free(list, n);
	return rc;
}

int ibtopo__store_fabric_scope(struct ibtopo_store *s, const char *name,
			       const char *ref, int64_t *out,
			       struct ibtopo_error *err)
{
	char list[160], q[96];
	int64_t only = 0;
	size_t n = 0;
	int rc;

	*out = 0;
	if (!s->version)
		return 0;
	if (name) {
		rc = fabric_lookup(s->db, name, out);
		if (rc != SQLITE_OK)
			return ibtopo__store_fail(s, s->db, rc,
						  "cannot read fabrics", err);
		if (*out)
			return 0;
		rc = fabric_summary(s, list, sizeof(list), &n, err);
		if (rc)
			return rc;
		ibtopo__quote(q, sizeof(q), name, strlen(name));
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no fabric '%s' in '%s'%s%s", q,
					 s->path, n ? "; fabrics: " : "", list);
	}
	rc = fabric_summary(s, list, sizeof(list), &n, err);
	if (rc)
		return rc;
	if (n <= 1) {
		if (n == 1) {
			rc = ibtopo__store_fabric_only(s, &only, err);
			*out = only;
		}
		return rc;
	}
	ibtopo__quote(q, sizeof(q), ref ? ref : "", ref ? strlen(ref) : 0);
	return ibtopo__error_set(err, IBTOPO_EAMBIGUOUS,
				 "'%s' could be in any of %zu fabrics: %s; "
				 "name one (--fabric NAME)",
				 q, n, list);
}

int ibtopo__store_fabric_only(struct ibtopo_store *s, int64_t *out,
			      struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = 0;
	rc = sqlite3_prepare_v2(s->db,
				"SELECT min(fabric_id) FROM snapshots"
				" WHERE fabric_id IS NOT NULL",
				-1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return ibtopo__store_fail(s, s->db, rc, "cannot read fabrics",
					  err);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The fabric a new snapshot joins                                     */
/* ------------------------------------------------------------------ */

/*
 * Per fabric, its latest snapshot's switch GUIDs (all its node GUIDs
 * when the new snapshot has no switch) and how many of them the new
 * snapshot ?1 has too. ?2: whether to look at switches only.
 */
static const char shared_sql[] =
	"SELECT l.fid,"
	" (SELECT count(*) FROM nodes n WHERE n.snapshot_id = l.sid"
	"  AND (?2 = 0 OR n.type = 2)),"
	" (SELECT count(*) FROM nodes n WHERE n.snapshot_id = l.sid"
	"  AND (?2 = 0 OR n.type = 2) AND n.guid IN (SELECT guid FROM nodes"
	"  WHERE snapshot_id = ?1 AND (?2 = 0 OR type = 2)))"
	" FROM (SELECT fabric_id AS fid, max(id) AS sid FROM snapshots"
	" WHERE fabric_id IS NOT NULL AND id <> ?1 GROUP BY fabric_id) l"
	" ORDER BY l.sid DESC";

/*
 * The fabric sharing the most (and at least half) GUIDs, on a tie the
 * one whose latest snapshot is the newest; 0 for none.
 */
static int fabric_matching(sqlite3 *db, int64_t sid, bool switches,
			   int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int64_t best = 0;
	int rc;

	*out = 0;
	rc = sqlite3_prepare_v2(db, shared_sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int(st, 2, switches);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t total = sqlite3_column_int64(st, 1);
		int64_t shared = sqlite3_column_int64(st, 2);

		if (shared > 0 && 2 * shared >= total && shared > best) {
			best = shared;
			*out = sqlite3_column_int64(st, 0);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * The name of a new fabric: its subnet prefix (trailing zero groups cut:
 * "fe80") and lowest switch GUID (lowest node GUID without switches),
 * "fe80-0008f10400411a08"; "fabric-<guid>" without a known prefix.
 */
/* Create fabric `name` (a free variant of it: "-2", "-3"...). */
static int fabric_create(sqlite3 *db, const char *name, bool exact,
			 int64_t *out)
{
	char try[FABRIC_NAME_MAX + 16];
	sqlite3_stmt *st = NULL;
	int64_t id = 0;
	int rc;

	snprintf(try, sizeof(try), "%s", name);
	for (int i = 2;; i++) {
		rc = fabric_lookup(db, try, &id);
		if (rc != SQLITE_OK || !id || exact)
			break;
		snprintf(try, sizeof(try), "%s-%d", name, i);
	}
	if (rc != SQLITE_OK || id) {
		*out = id;
		return rc;
	}
	rc = sqlite3_prepare_v2(db, "INSERT INTO fabrics (name) VALUES (?)", -1,
				&st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, try, -1, SQLITE_STATIC);
		rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		*out = sqlite3_last_insert_rowid(db);
	return rc;
}

int ibtopo__store_attach(struct ibtopo_store *s, int64_t sid,
			 struct ibtopo_fabric *fabric, int64_t *out_fid,
			 struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	bool sw = ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH) > 0;
	char name[FABRIC_NAME_MAX + 16];
	sqlite3_stmt *st = NULL;
	int64_t fid = 0;
	int rc;

	if (m->fabric)
		rc = fabric_create(s->db, m->fabric, true, &fid);
	else
		rc = fabric_matching(s->db, sid, sw, &fid);
	if (rc == SQLITE_OK && !fid) {
		ibtopo_fabric_default_name(name, sizeof(name), fabric);
		rc = fabric_create(s->db, name, false, &fid);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(
			s->db,
			"UPDATE snapshots SET fabric_id = ?1 WHERE id = ?2", -1,
			&st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, fid);
		sqlite3_bind_int64(st, 2, sid);
		rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	/* the name the store gave it, for the caller to show */
	if (rc == SQLITE_OK && !m->fabric)
		rc = sqlite3_prepare_v2(s->db,
					"SELECT name FROM fabrics WHERE id = ?",
					-1, &st, NULL);
	if (rc == SQLITE_OK && st) {
		sqlite3_bind_int64(st, 1, fid);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    ibtopo_fabric_set_fabric_name(
			    fabric, (const char *)sqlite3_column_text(st, 0),
			    err)) {
			sqlite3_finalize(st);
			return IBTOPO_ENOMEM;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return ibtopo__store_fail(s, s->db, rc, "cannot save snapshot",
					  err);
	*out_fid = fid;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Listing and renaming                                                */
/* ------------------------------------------------------------------ */

static const char fabrics_sql[] =
	"SELECT f.name, s.subnet_prefix, s.sm_lid, s.sm_guid,"
	" (SELECT count(*) FROM snapshots c WHERE c.fabric_id = f.id),"
	" s.id, s.taken_at, s.switches, s.cas FROM fabrics f"
	" LEFT JOIN snapshots s ON s.id = (SELECT max(id) FROM snapshots"
	" WHERE fabric_id = f.id) ORDER BY f.name";

static int fabric_row(void *elem, sqlite3_stmt *st)
{
	struct ibtopo_fabric_info *f = elem;

	f->name = strdup((const char *)sqlite3_column_text(st, 0));
	f->subnet_prefix = (uint64_t)sqlite3_column_int64(st, 1);
	f->sm_lid = (uint16_t)sqlite3_column_int(st, 2);
	f->sm_guid = (uint64_t)sqlite3_column_int64(st, 3);
	f->snapshots = (size_t)sqlite3_column_int64(st, 4);
	f->latest_id = sqlite3_column_int64(st, 5);
	f->latest_at = (time_t)sqlite3_column_int64(st, 6);
	f->switches = (size_t)sqlite3_column_int64(st, 7);
	f->cas = (size_t)sqlite3_column_int64(st, 8);
	return f->name ? 0 : IBTOPO_ENOMEM;
}

static void fabric_release(void *elem)
{
	free(((struct ibtopo_fabric_info *)elem)->name);
}

int ibtopo_store_fabrics(struct ibtopo_fabric_info **out, size_t *out_count,
			 struct ibtopo_store *store, struct ibtopo_error *err)
{
	return ibtopo__store_rows(store, fabrics_sql, NULL, 0, sizeof(**out),
				  fabric_row, fabric_release, out, out_count,
				  "cannot list fabrics", err);
}

void ibtopo_fabric_info_list_free(struct ibtopo_fabric_info *list, size_t count)
{
	for (size_t i = 0; list && i < count; i++)
		fabric_release(&list[i]);
	free(list);
}

/* A write transaction: IBTOPO_EINVAL when the store is read-only. */
static int write_begin(struct ibtopo_store *s, const char *what,
		       struct ibtopo_error *err)
{
	int rc = ibtopo__store_check_rw(s, err);

	if (!rc)
		rc = ibtopo__store_exec(s, "BEGIN IMMEDIATE", what, err);
	return rc;
}

/*
 * Its end: committed when nothing failed, else rolled back. rc: an error
 * already set; src: an SQLite code, a failure of `what`.
 */
static int write_end(struct ibtopo_store *s, int src, int rc, const char *what,
		     struct ibtopo_error *err)
{
	if (!rc && src == SQLITE_OK)
		src = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (!rc && src == SQLITE_OK)
		return 0;
	if (!rc)
		rc = ibtopo__store_fail(s, s->db, src, what, err);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int ibtopo_store_rename_fabric(struct ibtopo_store *store, const char *old_name,
			       const char *new_name, struct ibtopo_error *err)
{
	const char *what = "cannot rename fabric";
	int64_t old_id = 0, new_id = 0;
	sqlite3_stmt *st = NULL;
	char q[96];
	int rc, src;

	if (!store || !old_name || !new_name)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric name");
	if (!ibtopo_store_fabric_name_is_valid(new_name)) {
		ibtopo__quote(q, sizeof(q), new_name, strlen(new_name));
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"bad fabric name '%s' (1 to %d letters, digits, '-', "
			"'_' or '.')",
			q, FABRIC_NAME_MAX);
	}
	rc = write_begin(store, what, err);
	if (rc)
		return rc;
	src = fabric_lookup(store->db, old_name, &old_id);
	if (src == SQLITE_OK)
		src = fabric_lookup(store->db, new_name, &new_id);
	if (src != SQLITE_OK)
		goto out;
	if (!old_id) {
		ibtopo__quote(q, sizeof(q), old_name, strlen(old_name));
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no fabric '%s' in '%s'", q,
				       store->path);
		goto out;
	}
	if (new_id) {
		rc = ibtopo__error_set(err, IBTOPO_EEXIST,
				       "fabric '%s' exists already", new_name);
		goto out;
	}
	src = sqlite3_prepare_v2(store->db,
				 "UPDATE fabrics SET name = ? WHERE id = ?", -1,
				 &st, NULL);
	if (src == SQLITE_OK) {
		sqlite3_bind_text(st, 1, new_name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, old_id);
		src = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
out:
	return write_end(store, src, rc, what, err);
}

/* ------------------------------------------------------------------ */
/* Deleting and merging                                                */
/* ------------------------------------------------------------------ */

/* The id of fabric `name` into *out (0: none) and its snapshots. */
static int fabric_count(sqlite3 *db, const char *name, int64_t *out,
			int64_t *snapshots)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*snapshots = 0;
	rc = fabric_lookup(db, name, out);
	if (rc != SQLITE_OK || !*out)
		return rc;
	rc = sqlite3_prepare_v2(db,
				"SELECT count(*) FROM snapshots"
				" WHERE fabric_id = ?",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, *out);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*snapshots = sqlite3_column_int64(st, 0);
		rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc;
}

static int no_fabric(struct ibtopo_store *s, const char *name,
		     struct ibtopo_error *err)
{
	char q[96];

	ibtopo__quote(q, sizeof(q), name, strlen(name));
	return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				 "no fabric '%s' in '%s'", q, s->path);
}

/* One statement with ?1 and ?2 bound to a and b. An SQLite code. */
static int exec_ids(sqlite3 *db, const char *sql, int64_t a, int64_t b)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, a);
		sqlite3_bind_int64(st, 2, b);
		rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_delete_fabric(struct ibtopo_store *store, const char *name,
			       unsigned flags, int64_t *out_deleted,
			       struct ibtopo_error *err)
{
	const char *what = "cannot delete fabric";
	int64_t fid = 0, n = 0;
	int rc, src, deleted = 0;

	if (out_deleted)
		*out_deleted = 0;
	if (!store || !name)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric name");
	rc = write_begin(store, what, err);
	if (rc)
		return rc;
	src = fabric_count(store->db, name, &fid, &n);
	if (src != SQLITE_OK)
		goto out;
	if (!fid) {
		rc = no_fabric(store, name, err);
		goto out;
	}
	if (n && !(flags & IBTOPO_FABRIC_DELETE_SNAPSHOTS)) {
		rc = ibtopo__error_set(err, IBTOPO_EEXIST,
				       "fabric '%s' has %lld snapshot%s", name,
				       (long long)n, n == 1 ? "" : "s");
		goto out;
	}
	src = ibtopo__store_delete_rows(store->db, true, fid, &deleted);
	if (src == SQLITE_OK)
		src = exec_ids(store->db, "DELETE FROM fabrics WHERE id = ?1",
			       fid, 0);
out:
	rc = write_end(store, src, rc, what, err);
	if (!rc && out_deleted)
		*out_deleted = deleted;
	return rc;
}

/* A label both fabrics use, into *label (NULL: none): a merge would make
 * it name two snapshots. */
static int label_clash(sqlite3 *db, int64_t a, int64_t b, char *label,
		       size_t len, int64_t ids[2])
{
	sqlite3_stmt *st = NULL;
	int rc;

	label[0] = '\0';
	rc = sqlite3_prepare_v2(db,
				"SELECT x.label, x.id, y.id FROM snapshots x"
				" JOIN snapshots y ON x.label = y.label"
				" WHERE x.fabric_id = ?1 AND y.fabric_id = ?2"
				" ORDER BY x.id LIMIT 1",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, a);
		sqlite3_bind_int64(st, 2, b);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			snprintf(label, len, "%s", sqlite3_column_text(st, 0));
			ids[0] = sqlite3_column_int64(st, 1);
			ids[1] = sqlite3_column_int64(st, 2);
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_merge_fabric(struct ibtopo_store *store, const char *from,
			      const char *into, struct ibtopo_error *err)
{
	const char *what = "cannot merge fabrics";
	int64_t fid = 0, tid = 0, n, ids[2] = { 0, 0 };
	char label[96];
	int rc, src;

	if (!store || !from || !into)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric name");
	rc = write_begin(store, what, err);
	if (rc)
		return rc;
	src = fabric_count(store->db, from, &fid, &n);
	if (src == SQLITE_OK)
		src = fabric_count(store->db, into, &tid, &n);
	if (src == SQLITE_OK && fid && tid)
		src = label_clash(store->db, fid, tid, label, sizeof(label),
				  ids);
	if (src != SQLITE_OK)
		goto out;
	if (!fid || !tid) {
		rc = no_fabric(store, fid ? into : from, err);
		goto out;
	}
	if (fid == tid) {
		rc = ibtopo__error_set(err, IBTOPO_EINVAL,
				       "fabric '%s' merged into itself", from);
		goto out;
	}
	if (label[0]) {
		rc = ibtopo__error_set(
			err, IBTOPO_EEXIST,
			"label '%s' names snapshot %lld of '%s' and snapshot "
			"%lld of '%s'",
			label, (long long)ids[0], from, (long long)ids[1],
			into);
		goto out;
	}
	src = exec_ids(
		store->db,
		"UPDATE snapshots SET fabric_id = ?2 WHERE fabric_id = ?1", fid,
		tid);
	if (src == SQLITE_OK)
		src = exec_ids(store->db, "DELETE FROM fabrics WHERE id = ?1",
			       fid, 0);
out:
	return write_end(store, src, rc, what, err);
}

/* ------------------------------------------------------------------ */
/* A name against the switches                                         */
/* ------------------------------------------------------------------ */

/* Per fabric with snapshots, newest first: its latest snapshot's switch
 * GUIDs (?1 = 0: all its node GUIDs). */
static const char latest_guids_sql[] =
	"SELECT l.fid, f.name, l.sid, n.guid FROM (SELECT fabric_id AS fid,"
	" max(id) AS sid FROM snapshots WHERE fabric_id IS NOT NULL"
	" GROUP BY fabric_id) l JOIN fabrics f ON f.id = l.fid"
	" JOIN nodes n ON n.snapshot_id = l.sid AND (?1 = 0 OR n.type = 2)"
	" ORDER BY l.sid DESC, n.guid";

/* One fabric's count, into the named slot or the best other one. */
static void match_take(struct ibtopo_fabric_match *m, const char *name,
		       const char *fname, int64_t sid, size_t total,
		       size_t shared)
{
	if (strcmp(fname, name) == 0) {
		snprintf(m->named, sizeof(m->named), "%s", fname);
		m->named_latest = sid;
		m->named_total = total;
		m->named_shared = shared;
		return;
	}
	if (shared && 2 * shared >= total && shared > m->other_shared) {
		snprintf(m->other, sizeof(m->other), "%s", fname);
		m->other_latest = sid;
		m->other_total = total;
		m->other_shared = shared;
	}
}

int ibtopo_store_fabric_match(struct ibtopo_fabric_match *out,
			      struct ibtopo_store *store,
			      const struct ibtopo_fabric *fabric,
			      const char *name, struct ibtopo_error *err)
{
	bool sw = ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH) > 0;
	sqlite3_stmt *st = NULL;
	char fname[FABRIC_NAME_MAX + 16] = "";
	size_t total = 0, shared = 0;
	int64_t fid = 0, sid = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store || !fabric || !name)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric");
	if (!store->version)
		return 0;
	rc = sqlite3_prepare_v2(store->db, latest_guids_sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	sqlite3_bind_int(st, 1, sw);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct ibtopo_node *node = ibtopo_fabric_find_node(
			fabric, (uint64_t)sqlite3_column_int64(st, 3));

		if (sqlite3_column_int64(st, 0) != fid) {
			if (fid)
				match_take(out, name, fname, sid, total,
					   shared);
			fid = sqlite3_column_int64(st, 0);
			snprintf(fname, sizeof(fname), "%s",
				 sqlite3_column_text(st, 1));
			sid = sqlite3_column_int64(st, 2);
			total = shared = 0;
		}
		total++;
		shared += node && (!sw || node->type == IBTOPO_NODE_SWITCH);
	}
	if (rc != SQLITE_DONE)
		goto out_fail;
	if (fid)
		match_take(out, name, fname, sid, total, shared);
	sqlite3_finalize(st);
	return 0;

out_fail:
	sqlite3_finalize(st);
	return ibtopo__store_fail(store, store->db, rc, "cannot read fabrics",
				  err);
}
