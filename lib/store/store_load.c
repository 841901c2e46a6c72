/*
 * store_load.c - reading a snapshot back into a fabric, table by table
 * in one read transaction.
 *
 * Each table is one query bound to the snapshot id and one function
 * taking a row of it (load_rows() runs them); a row naming what the
 * fabric does not hold is a corrupt snapshot.
 */
#include "store/store-db.h"

#include <stdlib.h>
#include <string.h>

struct load_ctx {
	struct ibtopo_store *s;
	struct ibtopo_fabric *f;
	int64_t sid;
	bool found;	   /* the snapshots row was there */
	int64_t *node_ids; /* rowids, ascending */
	struct ibtopo_node **nodes;
	size_t nnodes, alloc;
};

/* Takes one row of a table's query; 0 or a status. */
typedef int (*load_row_fn)(struct load_ctx *c, sqlite3_stmt *st,
			   struct ibtopo_error *err);

static char *column_text(sqlite3_stmt *st, int i)
{
	return (char *)sqlite3_column_text(st, i);
}

static int corrupt(const struct load_ctx *c, const char *what,
		   struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_EPARSE, "'%s': snapshot %lld: %s",
				 c->s->path, (long long)c->sid, what);
}

/* A model call refused a row: say which file and snapshot it came from. */
static int refused(const struct load_ctx *c, int rc, struct ibtopo_error *err)
{
	ibtopo__error_prefix(err, "'%s': snapshot %lld", c->s->path,
			     (long long)c->sid);
	return rc;
}

/* Run `sql`, its one parameter the snapshot id, and `row` on each row. */
static int load_rows(struct load_ctx *c, const char *sql, load_row_fn row,
		     struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(c->s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	sqlite3_bind_int64(st, 1, c->sid);
	for (rc = sqlite3_step(st); rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		int e = row(c, st, err);

		if (e) {
			rc = e;
			goto out_finalize;
		}
	}
	if (rc != SQLITE_DONE)
		goto out_fail;
	rc = 0;
	goto out_finalize;

out_fail:
	rc = ibtopo__store_fail(c->s, c->s->db, rc, "cannot load snapshot",
				err);
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static const char meta_sql[] =
	"SELECT s.label, s.taken_at, s.source, s.host, s.partial,"
	" s.partial_reason, s.routing_engine, f.name, s.subnet_prefix,"
	" s.local_ca, s.local_port, s.sm_lid, s.sm_guid, s.sms_read"
	" FROM snapshots s"
	" LEFT JOIN fabrics f ON f.id = s.fabric_id WHERE s.id = ?";

static int meta_row(struct load_ctx *c, sqlite3_stmt *st,
		    struct ibtopo_error *err)
{
	int rc;

	c->found = true;
	rc = ibtopo_fabric_set_label(c->f, column_text(st, 0), err);
	if (!rc)
		rc = ibtopo_fabric_set_source(c->f, column_text(st, 2), err);
	if (!rc)
		rc = ibtopo_fabric_set_host(c->f, column_text(st, 3), err);
	if (!rc)
		rc = ibtopo_fabric_set_partial_reason(c->f, column_text(st, 5),
						      err);
	if (!rc)
		rc = ibtopo_fabric_set_routing_engine(c->f, column_text(st, 6),
						      err);
	if (!rc)
		rc = ibtopo_fabric_set_fabric_name(c->f, column_text(st, 7),
						   err);
	if (!rc)
		rc = ibtopo_fabric_set_local_port(
			c->f, column_text(st, 9),
			(unsigned)sqlite3_column_int(st, 10), err);
	ibtopo_fabric_set_subnet(c->f, (uint64_t)sqlite3_column_int64(st, 8),
				 (uint16_t)sqlite3_column_int(st, 11),
				 (uint64_t)sqlite3_column_int64(st, 12));
	ibtopo_fabric_set_taken_at(c->f, (time_t)sqlite3_column_int64(st, 1));
	ibtopo_fabric_set_partial(c->f, sqlite3_column_int(st, 4) != 0);
	ibtopo_fabric_set_sms_read(c->f, sqlite3_column_int(st, 13) != 0);
	ibtopo_fabric_set_snapshot_id(c->f, c->sid);
	return rc;
}

static int load_meta(struct load_ctx *c, struct ibtopo_error *err)
{
	int rc = load_rows(c, meta_sql, meta_row, err);

	if (!rc && !c->found)
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no snapshot '%lld' in '%s'",
				       (long long)c->sid, c->s->path);
	return rc;
}

/* Room for one more node in the rowid index. */
static int grow_nodes(struct load_ctx *c, struct ibtopo_error *err)
{
	size_t na = c->alloc ? 2 * c->alloc : 1024;
	int64_t *ids;
	struct ibtopo_node **ns;

	if (c->nnodes < c->alloc)
		return 0;
	ids = realloc(c->node_ids, na * sizeof(*ids));
	if (ids)
		c->node_ids = ids;
	ns = ids ? realloc(c->nodes, na * sizeof(*ns)) : NULL;
	if (!ns)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	c->nodes = ns;
	c->alloc = na;
	return 0;
}

static const char nodes_sql[] =
	"SELECT id, type, guid, sysimg_guid, description, vendor_id,"
	" device_id, revision, nports, enhanced_port0"
	" FROM nodes WHERE snapshot_id = ? ORDER BY id";

static int node_row(struct load_ctx *c, sqlite3_stmt *st,
		    struct ibtopo_error *err)
{
	struct ibtopo_node *n = NULL;
	sqlite3_int64 nports = sqlite3_column_int64(st, 8);
	int rc = grow_nodes(c, err);

	if (rc)
		return rc;
	if (nports < 0 || nports > 255)
		return corrupt(c, "bad node port count", err);
	rc = ibtopo_fabric_add_node(
		&n, c->f, (enum ibtopo_node_type)sqlite3_column_int(st, 1),
		(uint64_t)sqlite3_column_int64(st, 2), (unsigned)nports,
		column_text(st, 4), err);
	if (rc)
		return refused(c, rc, err);
	n->sysimg_guid = (uint64_t)sqlite3_column_int64(st, 3);
	n->vendor_id = (uint32_t)sqlite3_column_int64(st, 5);
	n->device_id = (uint32_t)sqlite3_column_int64(st, 6);
	n->revision = (uint32_t)sqlite3_column_int64(st, 7);
	n->enhanced_port0 = sqlite3_column_int(st, 9) != 0;
	c->node_ids[c->nnodes] = sqlite3_column_int64(st, 0);
	c->nodes[c->nnodes++] = n;
	return 0;
}

static struct ibtopo_node *node_by_rowid(const struct load_ctx *c, int64_t id)
{
	size_t lo = 0, hi = c->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->node_ids[mid] == id)
			return c->nodes[mid];
		if (c->node_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const char ports_sql[] =
	"SELECT node_id, num, ext_num, guid, lid, lmc, state, phys_state,"
	" width_supported, width_enabled, width_active, speed_supported,"
	" speed_enabled, speed_active, cap_mask, mtu_vls"
	" FROM ports WHERE snapshot_id = ? ORDER BY id";

static int port_row(struct load_ctx *c, sqlite3_stmt *st,
		    struct ibtopo_error *err)
{
	struct ibtopo_node *n = node_by_rowid(c, sqlite3_column_int64(st, 0));
	sqlite3_int64 num = sqlite3_column_int64(st, 1);
	struct ibtopo_port *p = NULL;
	int rc, mtu_vls;

	if (!n || num < 0 || num > n->nports)
		return corrupt(c, "port of an unknown node", err);
	rc = ibtopo_node_add_port(&p, c->f, n, (unsigned)num, err);
	if (rc)
		return rc;
	p->ext_num = (unsigned)sqlite3_column_int(st, 2);
	p->guid = (uint64_t)sqlite3_column_int64(st, 3);
	p->lid = (uint16_t)sqlite3_column_int(st, 4);
	p->lmc = (uint8_t)sqlite3_column_int(st, 5);
	p->state = (uint8_t)sqlite3_column_int(st, 6);
	p->phys_state = (uint8_t)sqlite3_column_int(st, 7);
	p->width_supported = (uint8_t)sqlite3_column_int(st, 8);
	p->width_enabled = (uint8_t)sqlite3_column_int(st, 9);
	p->width_active = (uint8_t)sqlite3_column_int(st, 10);
	p->speed_supported = (uint16_t)sqlite3_column_int(st, 11);
	p->speed_enabled = (uint16_t)sqlite3_column_int(st, 12);
	p->speed_active = (uint16_t)sqlite3_column_int(st, 13);
	p->cap_mask = (uint32_t)sqlite3_column_int64(st, 14);
	mtu_vls = sqlite3_column_int(st, 15);
	p->mtu_cap = (uint8_t)(mtu_vls & 15);
	p->neighbor_mtu = (uint8_t)(mtu_vls >> 4 & 15);
	p->vl_cap = (uint8_t)(mtu_vls >> 8 & 15);
	p->oper_vls = (uint8_t)(mtu_vls >> 12 & 15);
	return ibtopo_fabric_index_port(c->f, p, err);
}

/* The port a (node GUID, port number) pair of columns names, or NULL. */
static struct ibtopo_port *end_port(const struct load_ctx *c, sqlite3_stmt *st,
				    int col)
{
	struct ibtopo_node *n;
	sqlite3_int64 num = sqlite3_column_int64(st, col + 1);

	n = ibtopo_fabric_find_node(c->f,
				    (uint64_t)sqlite3_column_int64(st, col));
	if (!n || num < 0 || num > n->nports)
		return NULL;
	return n->ports[num];
}

static const char links_sql[] =
	"SELECT l.a_guid, l.a_port, l.b_guid, l.b_port, l.speed, l.width,"
	" c.link_id, c.media, c.length_m, c.rated_speed, c.vendor,"
	" c.part_number, c.serial"
	" FROM links l LEFT JOIN cables c ON c.link_id = l.id"
	" WHERE l.snapshot_id = ? ORDER BY l.id";

static int link_row(struct load_ctx *c, sqlite3_stmt *st,
		    struct ibtopo_error *err)
{
	struct ibtopo_port *a = end_port(c, st, 0), *b = end_port(c, st, 2);
	struct ibtopo_link *l = NULL;
	struct ibtopo_cable cable;
	int rc;

	if (!a || !b)
		return corrupt(c, "link to an unknown port", err);
	rc = ibtopo_fabric_connect(&l, c->f, a, b, err);
	if (rc)
		return refused(c, rc, err);
	/* the stored values, which a reader may have set apart from the ports' */
	l->speed = (uint16_t)sqlite3_column_int(st, 4);
	l->width = (uint8_t)sqlite3_column_int(st, 5);
	if (sqlite3_column_type(st, 6) == SQLITE_NULL)
		return 0;
	memset(&cable, 0, sizeof(cable));
	cable.media = (enum ibtopo_media)sqlite3_column_int(st, 7);
	cable.length_m = sqlite3_column_double(st, 8);
	cable.rated_speed = (unsigned)sqlite3_column_int(st, 9);
	cable.vendor = column_text(st, 10);
	cable.part_number = column_text(st, 11);
	cable.serial = column_text(st, 12);
	return ibtopo_link_set_cable(c->f, l, &cable, err);
}

static const char counters_sql[] =
	"SELECT node_guid, port, read_at_ms, extended," IBTOPO__STORE_COUNTER_COLUMNS
	" FROM port_counters WHERE snapshot_id = ?";

static int counters_row(struct load_ctx *c, sqlite3_stmt *st,
			struct ibtopo_error *err)
{
	struct ibtopo_port *p = end_port(c, st, 0);
	struct ibtopo_counters k;

	if (!p)
		return corrupt(c, "counters of an unknown port", err);
	memset(&k, 0, sizeof(k));
	k.read_at_ms = sqlite3_column_int64(st, 2);
	k.extended = (uint32_t)sqlite3_column_int64(st, 3);
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (sqlite3_column_type(st, 4 + i) == SQLITE_NULL)
			continue;
		k.value[i] = (uint64_t)sqlite3_column_int64(st, 4 + i);
		k.valid |= 1u << i;
	}
	return ibtopo_port_set_counters(p, &k, err);
}

static const char lfts_sql[] =
	"SELECT node_guid, top, ports FROM lfts WHERE snapshot_id = ?";

static int lft_row(struct load_ctx *c, sqlite3_stmt *st,
		   struct ibtopo_error *err)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(
		c->f, (uint64_t)sqlite3_column_int64(st, 0));
	sqlite3_int64 top = sqlite3_column_int64(st, 1);
	const void *ports = sqlite3_column_blob(st, 2);

	if (!n || n->type != IBTOPO_NODE_SWITCH)
		return corrupt(c, "a forwarding table of an unknown switch",
			       err);
	if (top < 0 || top > IBTOPO_LFT_MAX_LID || !ports ||
	    sqlite3_column_bytes(st, 2) != top + 1)
		return corrupt(c, "a forwarding table of the wrong size", err);
	return ibtopo_node_set_lft(n, ports, (unsigned)top, err);
}

static const char clashes_sql[] =
	"SELECT guid, port, a_guid, a_port, b_guid, b_port FROM guid_clashes"
	" WHERE snapshot_id = ?";

static int clash_row(struct load_ctx *c, sqlite3_stmt *st,
		     struct ibtopo_error *err)
{
	struct ibtopo_guid_clash k = {
		.guid = (uint64_t)sqlite3_column_int64(st, 0),
		.port = (unsigned)sqlite3_column_int(st, 1),
	};

	for (int i = 0; i < 2; i++) {
		k.peer_guid[i] = (uint64_t)sqlite3_column_int64(st, 2 + 2 * i);
		k.peer_port[i] = (unsigned)sqlite3_column_int(st, 3 + 2 * i);
	}
	return ibtopo_fabric_add_guid_clash(c->f, &k, err);
}

static const char sms_sql[] =
	"SELECT node_guid, port, answered, guid, priority, state, act_count,"
	" reread, act_count2 FROM sms WHERE snapshot_id = ?";

static int sm_row(struct load_ctx *c, sqlite3_stmt *st,
		  struct ibtopo_error *err)
{
	struct ibtopo_sm sm = {
		.node_guid = (uint64_t)sqlite3_column_int64(st, 0),
		.port = (unsigned)sqlite3_column_int(st, 1),
		.answered = sqlite3_column_int(st, 2) != 0,
		.guid = (uint64_t)sqlite3_column_int64(st, 3),
		.priority = (uint8_t)sqlite3_column_int(st, 4),
		.state = (uint8_t)sqlite3_column_int(st, 5),
		.act_count = (uint32_t)sqlite3_column_int64(st, 6),
		.reread = sqlite3_column_int(st, 7) != 0,
		.act_count2 = (uint32_t)sqlite3_column_int64(st, 8),
	};

	return ibtopo_fabric_add_sm(c->f, &sm, err);
}

static int firmware_row(struct load_ctx *c, sqlite3_stmt *st,
			struct ibtopo_error *err)
{
	bool unknown = false;
	int rc = ibtopo__store_firmware_row(c->f, st, &unknown, err);

	if (!rc && unknown)
		return corrupt(c, "firmware of a node it does not hold", err);
	return rc ? refused(c, rc, err) : 0;
}

static const char pkeys_sql[] =
	"SELECT node_guid, port, enforce, keys FROM pkeys"
	" WHERE snapshot_id = ?";

/* One port's PKeys: hex words separated by blanks. */
static int pkeys_row(struct load_ctx *c, sqlite3_stmt *st,
		     struct ibtopo_error *err)
{
	struct ibtopo_port *p = end_port(c, st, 0);
	const char *t = column_text(st, 3);
	uint16_t keys[2048];
	size_t n = 0;

	if (!p)
		return corrupt(c, "PKeys of an unknown port", err);
	while (t && *t) {
		char *end;
		unsigned long k = strtoul(t, &end, 16);

		if (end == t || k > 0xffff || n == IBTOPO__ARRAY_SIZE(keys) ||
		    (*end && *end != ' '))
			return corrupt(c, "bad PKeys", err);
		keys[n++] = (uint16_t)k;
		t = *end ? end + 1 : end;
	}
	return ibtopo_port_set_pkeys(p, keys, n,
				     (unsigned)sqlite3_column_int(st, 2), err);
}

/* store_mcast.c's rows, on the fabric being loaded */
static int mft_row(struct load_ctx *c, sqlite3_stmt *st,
		   struct ibtopo_error *err)
{
	return ibtopo__store_mft_row(c->f, st, err);
}

static int member_row(struct load_ctx *c, sqlite3_stmt *st,
		      struct ibtopo_error *err)
{
	return ibtopo__store_member_row(c->f, st, err);
}

static int mcast_read_row(struct load_ctx *c, sqlite3_stmt *st,
			  struct ibtopo_error *err)
{
	return ibtopo__store_mcast_read_row(c->f, st, err);
}

/* The tables after the snapshot's own row, in the order they refer back. */
static const struct {
	const char *sql;
	load_row_fn row;
} tables[] = {
	{ nodes_sql, node_row },
	{ ports_sql, port_row },
	{ links_sql, link_row },
	{ counters_sql, counters_row },
	{ lfts_sql, lft_row },
	{ clashes_sql, clash_row },
	{ sms_sql, sm_row },
	{ ibtopo__store_firmware_sql, firmware_row },
	{ pkeys_sql, pkeys_row },
	{ ibtopo__store_mfts_sql, mft_row },
	{ ibtopo__store_members_sql, member_row },
	{ ibtopo__store_mcast_read_sql, mcast_read_row },
};

int ibtopo_store_load(struct ibtopo_fabric **out, struct ibtopo_store *store,
		      int64_t id, struct ibtopo_error *err)
{
	struct load_ctx c = { .s = store, .sid = id };
	int rc;

	if (!out || !store)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no store to load from");
	*out = NULL;
	if (!store->version) /* empty file: no tables yet */
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no snapshot '%lld' in '%s'",
					 (long long)id, store->path);
	rc = ibtopo_fabric_new(&c.f, err);
	if (rc)
		return rc;
	/* one read transaction: a consistent view while writers go on */
	rc = ibtopo__store_exec(store, "BEGIN", "cannot load snapshot", err);
	if (rc)
		goto out_free_fabric;
	rc = load_meta(&c, err);
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(tables) && !rc; i++)
		rc = load_rows(&c, tables[i].sql, tables[i].row, err);
	sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (rc)
		goto out_free_fabric;
	ibtopo_fabric_sort(c.f);
	*out = c.f;
	c.f = NULL;
out_free_fabric:
	ibtopo_fabric_free(c.f);
	free(c.node_ids);
	free(c.nodes);
	return rc;
}
