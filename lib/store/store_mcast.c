/*
 * store_mcast.c - the multicast forwarding of a snapshot (schema version
 * 11): the switches' multicast tables (mfts), the SA's groups and members
 * (mcast_members) and whether the SA was asked (snapshots.mcast_read).
 * store_save.c and store_load.c call these.
 */
#include "store/store-db.h"

#include <stdlib.h>
#include <string.h>

static const char mft_sql[] =
	"INSERT INTO mfts (snapshot_id, node_guid, stride, mlids, masks)"
	" VALUES (?, ?, ?, ?, ?)";

/* The fabric and the scratch the MLIDs are written big-endian into. */
struct mft_save {
	const struct ibtopo_fabric *f;
	uint8_t *be;
	size_t abe;
};

static int bind_mft(sqlite3_stmt *st, void *ctx, size_t i)
{
	struct mft_save *m = ctx;
	const struct ibtopo_node *n = ibtopo_fabric_node(m->f, i);
	const struct ibtopo_mft *t = n->mft;

	if (!t)
		return IBTOPO__STORE_SKIP;
	if (ibtopo__grow(&m->be, &m->abe, 2 * t->count, 1))
		return SQLITE_NOMEM;
	for (size_t k = 0; k < t->count; k++) {
		m->be[2 * k] = (uint8_t)(t->mlid[k] >> 8);
		m->be[2 * k + 1] = (uint8_t)t->mlid[k];
	}
	sqlite3_bind_int64(st, 2, (sqlite3_int64)n->guid);
	sqlite3_bind_int(st, 3, (int)t->stride);
	sqlite3_bind_blob(st, 4, m->be, (int)(2 * t->count), SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, t->mask, (int)(t->count * t->stride),
			  SQLITE_STATIC);
	return SQLITE_OK;
}

static int save_mfts(sqlite3 *db, int64_t sid, const struct ibtopo_fabric *f)
{
	struct mft_save m = { .f = f };
	int rc = ibtopo__store_insert_each(
		db, mft_sql, sid, ibtopo_fabric_node_count(f), bind_mft, &m);

	free(m.be);
	return rc;
}

static const char member_sql[] =
	"INSERT INTO mcast_members (snapshot_id, mgid, mlid, pkey, port_guid,"
	" join_state) VALUES (?, ?, ?, ?, ?, ?)";

static int save_member(sqlite3_stmt *st, int64_t sid,
		       const struct ibtopo_mcast_group *g,
		       const struct ibtopo_mcast_member *m)
{
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_blob(st, 2, g->mgid, 16, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, g->mlid);
	sqlite3_bind_int(st, 4, g->pkey);
	sqlite3_bind_int64(st, 5, m ? (sqlite3_int64)m->port_guid : 0);
	sqlite3_bind_int(st, 6, m ? m->join_state : 0);
	return ibtopo__store_step_reset(st);
}

int ibtopo__store_save_mcast(sqlite3 *db, int64_t sid,
			     const struct ibtopo_fabric *f)
{
	size_t ng = ibtopo_fabric_mcast_group_count(f);
	sqlite3_stmt *st = NULL;
	int rc = save_mfts(db, sid, f);

	if (rc != SQLITE_OK || (!ng && !ibtopo_fabric_mcast_groups_read(f)))
		return rc;
	rc = sqlite3_prepare_v2(db, member_sql, -1, &st, NULL);
	for (size_t i = 0; i < ng && rc == SQLITE_OK; i++) {
		const struct ibtopo_mcast_group *g =
			ibtopo_fabric_mcast_group(f, i);

		if (!g->nmembers)
			rc = save_member(st, sid, g, NULL);
		for (size_t k = 0; k < g->nmembers && rc == SQLITE_OK; k++)
			rc = save_member(st, sid, g, &g->members[k]);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK && ibtopo_fabric_mcast_groups_read(f)) {
		rc = sqlite3_prepare_v2(db,
					"UPDATE snapshots SET mcast_read = 1"
					" WHERE id = ?",
					-1, &st, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, sid);
			rc = ibtopo__store_step_reset(st);
		}
		sqlite3_finalize(st);
	}
	return rc;
}

const char ibtopo__store_mfts_sql[] =
	"SELECT node_guid, stride, mlids, masks FROM mfts WHERE snapshot_id = ?";

int ibtopo__store_mft_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
			  struct ibtopo_error *err)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(
		f, (uint64_t)sqlite3_column_int64(st, 0));
	int stride = sqlite3_column_int(st, 1);
	const uint8_t *be = sqlite3_column_blob(st, 2);
	const uint8_t *masks = sqlite3_column_blob(st, 3);
	size_t count = (size_t)sqlite3_column_bytes(st, 2) / 2;
	uint16_t *mlids;
	int rc;

	if (!n || n->type != IBTOPO_NODE_SWITCH || stride < 1 || stride > 32 ||
	    !be || !masks ||
	    (size_t)sqlite3_column_bytes(st, 3) != count * (size_t)stride)
		return ibtopo__error_set(
			err, IBTOPO_EPARSE,
			"a multicast table of an unknown switch or the wrong "
			"size");
	mlids = malloc(count * sizeof(*mlids));
	if (!mlids)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t k = 0; k < count; k++)
		mlids[k] = (uint16_t)(be[2 * k] << 8 | be[2 * k + 1]);
	rc = ibtopo_node_set_mft(n, mlids, masks, (unsigned)stride, count, err);
	free(mlids);
	return rc;
}

const char ibtopo__store_members_sql[] =
	"SELECT mgid, mlid, pkey, port_guid, join_state FROM mcast_members"
	" WHERE snapshot_id = ?";

int ibtopo__store_member_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
			     struct ibtopo_error *err)
{
	const uint8_t *mgid = sqlite3_column_blob(st, 0);
	struct ibtopo_mcast_member m = {
		.port_guid = (uint64_t)sqlite3_column_int64(st, 3),
		.join_state = (uint8_t)sqlite3_column_int(st, 4),
	};

	if (!mgid || sqlite3_column_bytes(st, 0) != 16)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
					 "a multicast group without its MGID");
	return ibtopo_fabric_add_mcast_member(
		f, mgid, (uint16_t)sqlite3_column_int(st, 1),
		(uint16_t)sqlite3_column_int(st, 2), &m, err);
}

const char ibtopo__store_mcast_read_sql[] =
	"SELECT mcast_read FROM snapshots WHERE id = ? AND mcast_read";

int ibtopo__store_mcast_read_row(struct ibtopo_fabric *f, sqlite3_stmt *st,
				 struct ibtopo_error *err)
{
	(void)st;
	(void)err;
	ibtopo_fabric_set_mcast_groups_read(f, true);
	return 0;
}
