/*
 * store_firmware.c - the firmware of a snapshot's nodes in the store
 * (table firmware, schema version 9): written with the snapshot, read
 * back onto its nodes. Only nodes an input gave a version (ibdiagnet2
 * NODES_INFO) have a row.
 */
#include "store/store-db.h"

static const char firmware_insert_sql[] =
	"INSERT INTO firmware (snapshot_id, node_guid, major, minor, subminor,"
	" psid) VALUES (?, ?, ?, ?, ?, ?)";

static bool has_firmware(const struct ibtopo_node *n)
{
	return n->fw_major || n->fw_minor || n->fw_subminor || n->psid;
}

static int bind_firmware(sqlite3_stmt *st, void *fabric, size_t i)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

	if (!has_firmware(n))
		return IBTOPO__STORE_SKIP;
	sqlite3_bind_int64(st, 2, (sqlite3_int64)n->guid);
	sqlite3_bind_int(st, 3, n->fw_major);
	sqlite3_bind_int(st, 4, n->fw_minor);
	sqlite3_bind_int(st, 5, n->fw_subminor);
	if (n->psid)
		sqlite3_bind_text(st, 6, n->psid, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 6);
	return SQLITE_OK;
}

int ibtopo__store_save_firmware(sqlite3 *db, int64_t sid,
				const struct ibtopo_fabric *fabric)
{
	return ibtopo__store_insert_each(db, firmware_insert_sql, sid,
					 ibtopo_fabric_node_count(fabric),
					 bind_firmware, (void *)fabric);
}

const char ibtopo__store_firmware_sql[] =
	"SELECT node_guid, major, minor, subminor, psid FROM firmware"
	" WHERE snapshot_id = ?";

int ibtopo__store_firmware_row(struct ibtopo_fabric *fabric, sqlite3_stmt *st,
			       bool *unknown, struct ibtopo_error *err)
{
	uint64_t guid = (uint64_t)sqlite3_column_int64(st, 0);
	struct ibtopo_node *n = ibtopo_fabric_find_node(fabric, guid);
	const char *psid = (const char *)sqlite3_column_text(st, 4);

	*unknown = n == NULL;
	if (!n)
		return 0;
	return ibtopo_node_set_firmware(fabric, n,
					(unsigned)sqlite3_column_int(st, 1),
					(unsigned)sqlite3_column_int(st, 2),
					(unsigned)sqlite3_column_int(st, 3),
					psid, err);
}
