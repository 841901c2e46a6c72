/*
 * store_history.c - one port across every stored snapshot of its fabric,
 * without loading the snapshots: one query, the port's counters by the
 * port_counters key and its state through the nodes and ports indexes,
 * a row per snapshot (`health --history`).
 */
#include "store/store-db.h"

#include <stdlib.h>
#include <string.h>

static const char history_sql[] =
	"SELECT s.id, s.taken_at, s.label, p.id IS NOT NULL, p.state,"
	" p.phys_state, p.speed_active, p.width_active, c.snapshot_id IS NOT"
	" NULL, c.read_at_ms, c.extended," IBTOPO__STORE_COUNTER_COLUMNS
	" FROM snapshots s"
	" LEFT JOIN port_counters c ON c.snapshot_id = s.id"
	"  AND c.node_guid = ?1 AND c.port = ?2"
	" LEFT JOIN nodes n ON n.snapshot_id = s.id AND n.guid = ?1"
	" LEFT JOIN ports p ON p.node_id = n.id AND p.num = ?2"
	" WHERE s.fabric_id IS (SELECT fabric_id FROM snapshots WHERE id = ?3)"
	" ORDER BY s.id";

static int reading_row(void *elem, sqlite3_stmt *st)
{
	struct ibtopo_port_reading *r = elem;
	const char *label = (const char *)sqlite3_column_text(st, 2);

	r->snapshot_id = sqlite3_column_int64(st, 0);
	r->taken_at = (time_t)sqlite3_column_int64(st, 1);
	r->label = label ? strdup(label) : NULL;
	if (label && !r->label)
		return IBTOPO_ENOMEM;
	r->present = sqlite3_column_int(st, 3) != 0;
	r->state = (unsigned)sqlite3_column_int(st, 4);
	r->phys_state = (unsigned)sqlite3_column_int(st, 5);
	r->speed_active = (unsigned)sqlite3_column_int(st, 6);
	r->width_active = (unsigned)sqlite3_column_int(st, 7);
	r->has_counters = sqlite3_column_int(st, 8) != 0;
	if (!r->has_counters)
		return 0;
	r->counters.read_at_ms = sqlite3_column_int64(st, 9);
	r->counters.extended = (uint32_t)sqlite3_column_int64(st, 10);
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (sqlite3_column_type(st, 11 + i) == SQLITE_NULL)
			continue;
		r->counters.value[i] =
			(uint64_t)sqlite3_column_int64(st, 11 + i);
		r->counters.valid |= 1u << i;
	}
	return 0;
}

static void reading_release(void *elem)
{
	free(((struct ibtopo_port_reading *)elem)->label);
}

int ibtopo_store_port_history(struct ibtopo_port_reading **out,
			      size_t *out_count, struct ibtopo_store *store,
			      int64_t snapshot_id, uint64_t node_guid,
			      unsigned port, struct ibtopo_error *err)
{
	const int64_t params[] = { (int64_t)node_guid, port, snapshot_id };
	int rc =
		ibtopo__store_rows(store, history_sql, params, 3, sizeof(**out),
				   reading_row, reading_release, out, out_count,
				   "cannot read the port's history", err);

	if (!rc && !*out_count)
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no snapshot %lld in '%s'",
				       (long long)snapshot_id, store->path);
	return rc;
}

void ibtopo_port_readings_free(struct ibtopo_port_reading *list, size_t count)
{
	for (size_t i = 0; list && i < count; i++)
		reading_release(&list[i]);
	free(list);
}
