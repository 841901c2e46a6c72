/*
 * store_save.c - writing a fabric into the store as a new snapshot: one
 * transaction, rows batched many to an INSERT.
 */
#include "store/store-db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static const char snapshot_sql[] =
	"INSERT INTO snapshots (label, taken_at, source, host, switches, cas,"
	" routers, links, partial, partial_reason, routing_engine,"
	" subnet_prefix, local_ca, local_port, sm_lid, sm_guid, sms_read)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/*
 * A switch's forwarding table: one row, its entries one byte each in a
 * BLOB (rows of their own, or batches, would cost 21.5 million rows on a
 * 1,620-switch, 13,284-LID fabric).
 */
static const char lft_sql[] =
	"INSERT INTO lfts (snapshot_id, node_guid, top, ports)"
	" VALUES (?, ?, ?, ?)";

static int bind_lft(sqlite3_stmt *st, void *fabric, size_t i)
{
	const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

	if (!n->lft)
		return IBTOPO__STORE_SKIP;
	sqlite3_bind_int64(st, 2, (sqlite3_int64)n->guid);
	sqlite3_bind_int(st, 3, n->lft->top);
	sqlite3_bind_blob(st, 4, n->lft->port, (int)n->lft->top + 1,
			  SQLITE_STATIC);
	return SQLITE_OK;
}

static int save_lfts(sqlite3 *db, int64_t sid,
		     const struct ibtopo_fabric *fabric)
{
	return ibtopo__store_insert_each(db, lft_sql, sid,
					 ibtopo_fabric_node_count(fabric),
					 bind_lft, (void *)fabric);
}

/* Node GUIDs two nodes answer with: a few rows, when any. */
static const char clash_sql[] =
	"INSERT INTO guid_clashes (snapshot_id, guid, port, a_guid, a_port,"
	" b_guid, b_port) VALUES (?, ?, ?, ?, ?, ?, ?)";

static int bind_clash(sqlite3_stmt *st, void *fabric, size_t i)
{
	const struct ibtopo_guid_clash *c = ibtopo_fabric_guid_clash(fabric, i);

	sqlite3_bind_int64(st, 2, (sqlite3_int64)c->guid);
	sqlite3_bind_int(st, 3, (int)c->port);
	for (int k = 0; k < 2; k++) {
		sqlite3_bind_int64(st, 4 + 2 * k,
				   (sqlite3_int64)c->peer_guid[k]);
		sqlite3_bind_int(st, 5 + 2 * k, (int)c->peer_port[k]);
	}
	return SQLITE_OK;
}

static int save_clashes(sqlite3 *db, int64_t sid,
			const struct ibtopo_fabric *fabric)
{
	return ibtopo__store_insert_each(db, clash_sql, sid,
					 ibtopo_fabric_guid_clash_count(fabric),
					 bind_clash, (void *)fabric);
}

/* The subnet managers a sweep found: a few rows, when any. */
static const char sm_sql[] =
	"INSERT INTO sms (snapshot_id, node_guid, port, answered, guid,"
	" priority, state, act_count, reread, act_count2)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static int bind_sm(sqlite3_stmt *st, void *fabric, size_t i)
{
	const struct ibtopo_sm *sm = ibtopo_fabric_sm(fabric, i);

	sqlite3_bind_int64(st, 2, (sqlite3_int64)sm->node_guid);
	sqlite3_bind_int(st, 3, (int)sm->port);
	sqlite3_bind_int(st, 4, sm->answered);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)sm->guid);
	sqlite3_bind_int(st, 6, sm->priority);
	sqlite3_bind_int(st, 7, sm->state);
	sqlite3_bind_int64(st, 8, sm->act_count);
	sqlite3_bind_int(st, 9, sm->reread);
	sqlite3_bind_int64(st, 10, sm->act_count2);
	return SQLITE_OK;
}

static int save_sms(sqlite3 *db, int64_t sid,
		    const struct ibtopo_fabric *fabric)
{
	return ibtopo__store_insert_each(db, sm_sql, sid,
					 ibtopo_fabric_sm_count(fabric),
					 bind_sm, (void *)fabric);
}

/* A port's PKeys as the pkeys table holds them: "0xffff 0x8101". */
static char *pkeys_text(const struct ibtopo_pkeys *k)
{
	char *t = malloc(k->count * 7 + 1);
	size_t at = 0;

	if (!t)
		return NULL;
	t[0] = '\0';
	for (size_t i = 0; i < k->count; i++)
		at += (size_t)sprintf(t + at, "%s0x%04x", i ? " " : "",
				      k->keys[i]);
	return t;
}

static const char pkey_sql[] =
	"INSERT INTO pkeys (snapshot_id, node_guid, port, enforce, keys)"
	" VALUES (?, ?, ?, ?, ?)";

/* The PKeyTables a sweep read: one row a port. */
static int save_pkeys(sqlite3 *db, int64_t sid,
		      const struct ibtopo_fabric *fabric)
{
	size_t nn = ibtopo_fabric_node_count(fabric);
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK;

	for (size_t i = 0; i < nn && rc == SQLITE_OK; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

		for (unsigned j = 0; j <= n->nports && rc == SQLITE_OK; j++) {
			const struct ibtopo_port *p = n->ports[j];
			char *text;

			if (!p || !p->pkeys)
				continue;
			if (!st)
				rc = sqlite3_prepare_v2(db, pkey_sql, -1, &st,
							NULL);
			text = rc == SQLITE_OK ? pkeys_text(p->pkeys) : NULL;
			if (rc == SQLITE_OK && !text)
				rc = SQLITE_NOMEM;
			if (rc != SQLITE_OK)
				break;
			sqlite3_bind_int64(st, 1, sid);
			sqlite3_bind_int64(st, 2, (sqlite3_int64)n->guid);
			sqlite3_bind_int(st, 3, (int)j);
			sqlite3_bind_int(st, 4, p->pkeys->enforce);
			sqlite3_bind_text(st, 5, text, -1, free);
			rc = ibtopo__store_step_reset(st);
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Rows go in many to an INSERT statement: executed once per row, a
 * statement costs SQLite more (setting up the VM, opening and closing
 * cursors, halting) than the row it writes (callgrind of bench/store.sh:
 * 16,700 instructions a row). Each table's rows are held in `cells` until
 * a statement's worth is there; the last, shorter batch gets a statement
 * of its own. Node and link ids are given rather than read back with
 * sqlite3_last_insert_rowid(), so that ports and cables can name them
 * before their batch is written.
 */
#define BATCH_VARS 999 /* most parameters before SQLite 3.32 */

enum cell_kind { CELL_NULL, CELL_INT, CELL_REAL, CELL_TEXT };

struct cell {
	enum cell_kind kind;
	sqlite3_int64 i;
	double d;
	const char *s; /* owned by the fabric being saved */
};

struct batch {
	const char *head; /* "INSERT INTO t (a, b, c)" */
	unsigned ncols;
	unsigned max_rows; /* rows in `full` */
	unsigned rows;	   /* rows held in cells */
	unsigned col;	   /* next cell of the row being added */
	struct cell *cells;
	sqlite3_stmt *full;
};

#define BATCH_INIT(head_, ncols_)                   \
	{                                           \
		.head = (head_), .ncols = (ncols_), \
		.max_rows = BATCH_VARS / (ncols_)   \
	}

static int batch_prepare(sqlite3 *db, const struct batch *b, unsigned rows,
			 sqlite3_stmt **out)
{
	size_t len = strlen(b->head) + 8 + rows * (4 * b->ncols + 2);
	char *sql = malloc(len), *at;
	int rc;

	*out = NULL;
	if (!sql)
		return SQLITE_NOMEM;
	at = sql + sprintf(sql, "%s VALUES ", b->head);
	for (unsigned r = 0; r < rows; r++) {
		*at++ = r ? ',' : ' ';
		*at++ = '(';
		for (unsigned c = 0; c < b->ncols; c++)
			at += sprintf(at, c ? ", ?" : "?");
		*at++ = ')';
	}
	*at = '\0';
	rc = sqlite3_prepare_v2(db, sql, -1, out, NULL);
	free(sql);
	return rc;
}

static int batch_init(sqlite3 *db, struct batch *b)
{
	b->cells = calloc((size_t)b->max_rows * b->ncols, sizeof(*b->cells));
	if (!b->cells)
		return SQLITE_NOMEM;
	return batch_prepare(db, b, b->max_rows, &b->full);
}

static void batch_release(struct batch *b)
{
	sqlite3_finalize(b->full);
	free(b->cells);
}

/* Bind the rows held to `st` (made for exactly that many), step, reset. */
static int batch_step(struct batch *b, sqlite3_stmt *st)
{
	const struct cell *c = b->cells;
	int rc;

	for (int i = 1; i <= (int)(b->rows * b->ncols); i++, c++) {
		switch (c->kind) {
		case CELL_INT:
			sqlite3_bind_int64(st, i, c->i);
			break;
		case CELL_REAL:
			sqlite3_bind_double(st, i, c->d);
			break;
		case CELL_TEXT:
			sqlite3_bind_text(st, i, c->s, -1, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, i);
			break;
		}
	}
	b->rows = 0;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Write the rows held: a full batch, or the last, shorter one. */
static int batch_flush(sqlite3 *db, struct batch *b)
{
	sqlite3_stmt *st;
	int rc;

	if (!b->rows)
		return SQLITE_OK;
	if (b->rows == b->max_rows)
		return batch_step(b, b->full);
	rc = batch_prepare(db, b, b->rows, &st);
	if (rc == SQLITE_OK)
		rc = batch_step(b, st);
	sqlite3_finalize(st);
	return rc;
}

static struct cell *batch_cell(struct batch *b)
{
	struct cell *c = &b->cells[b->rows * b->ncols + b->col];

	if (++b->col == b->ncols) {
		b->col = 0;
		b->rows++;
	}
	return c;
}

static void put_int(struct batch *b, sqlite3_int64 v)
{
	struct cell *c = batch_cell(b);

	c->kind = CELL_INT;
	c->i = v;
}

static void put_real(struct batch *b, double v)
{
	struct cell *c = batch_cell(b);

	c->kind = CELL_REAL;
	c->d = v;
}

static void put_null(struct batch *b)
{
	batch_cell(b)->kind = CELL_NULL;
}

static void put_text(struct batch *b, const char *s)
{
	struct cell *c = batch_cell(b);

	c->kind = s ? CELL_TEXT : CELL_NULL;
	c->s = s;
}

/* The row just put is complete: write a batch when one is full. */
static int batch_row_done(sqlite3 *db, struct batch *b)
{
	return b->rows == b->max_rows ? batch_flush(db, b) : SQLITE_OK;
}

enum { B_NODE, B_PORT, B_LINK, B_CABLE, B_COUNTERS, B_COUNT_ };

static const char node_head[] =
	"INSERT INTO nodes (id, snapshot_id, type,"
	" guid, sysimg_guid, description, vendor_id, device_id, revision,"
	" nports, enhanced_port0)";
static const char port_head[] =
	"INSERT INTO ports (snapshot_id, node_id,"
	" num, ext_num, guid, lid, lmc, state, phys_state, width_supported,"
	" width_enabled, width_active, speed_supported, speed_enabled,"
	" speed_active, cap_mask, mtu_vls)";
static const char link_head[] = "INSERT INTO links (id, snapshot_id, a_guid,"
				" a_port, b_guid, b_port, speed, width)";
static const char cable_head[] =
	"INSERT INTO cables (link_id, snapshot_id,"
	" media, length_m, rated_speed, vendor, part_number, serial)";

static const char counters_head[] =
	"INSERT INTO port_counters (snapshot_id,"
	" node_guid, port, read_at_ms, extended," IBTOPO__STORE_COUNTER_COLUMNS
	")";

struct save_ctx {
	sqlite3 *db;
	int64_t sid;
	struct batch b[B_COUNT_];
};

static int save_counters(struct save_ctx *x, const struct ibtopo_node *n,
			 const struct ibtopo_port *p)
{
	const struct ibtopo_counters *c = p->counters;
	struct batch *b = &x->b[B_COUNTERS];

	put_int(b, x->sid);
	put_int(b, (sqlite3_int64)n->guid);
	put_int(b, (int)p->num);
	put_int(b, c->read_at_ms);
	put_int(b, c->extended);
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (c->valid & (1u << i))
			put_int(b, (sqlite3_int64)c->value[i]);
		else
			put_null(b);
	}
	return batch_row_done(x->db, b);
}

static int save_node(struct save_ctx *x, int64_t node_id,
		     const struct ibtopo_node *n)
{
	struct batch *nb = &x->b[B_NODE], *pb = &x->b[B_PORT];
	int rc;

	put_int(nb, node_id);
	put_int(nb, x->sid);
	put_int(nb, (int)n->type);
	put_int(nb, (sqlite3_int64)n->guid);
	put_int(nb, (sqlite3_int64)n->sysimg_guid);
	put_text(nb, n->desc);
	put_int(nb, n->vendor_id);
	put_int(nb, n->device_id);
	put_int(nb, n->revision);
	put_int(nb, (int)n->nports);
	put_int(nb, n->enhanced_port0);
	rc = batch_row_done(x->db, nb);
	if (rc != SQLITE_OK)
		return rc;

	for (unsigned i = 0; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p)
			continue;
		put_int(pb, x->sid);
		put_int(pb, node_id);
		put_int(pb, (int)p->num);
		put_int(pb, (int)p->ext_num);
		put_int(pb, (sqlite3_int64)p->guid);
		put_int(pb, p->lid);
		put_int(pb, p->lmc);
		put_int(pb, p->state);
		put_int(pb, p->phys_state);
		put_int(pb, p->width_supported);
		put_int(pb, p->width_enabled);
		put_int(pb, p->width_active);
		put_int(pb, p->speed_supported);
		put_int(pb, p->speed_enabled);
		put_int(pb, p->speed_active);
		put_int(pb, p->cap_mask);
		put_int(pb, (p->mtu_cap & 15) | (p->neighbor_mtu & 15) << 4 |
				    (p->vl_cap & 15) << 8 |
				    (p->oper_vls & 15) << 12);
		rc = batch_row_done(x->db, pb);
		if (rc == SQLITE_OK && p->counters)
			rc = save_counters(x, n, p);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int save_link(struct save_ctx *x, int64_t link_id,
		     const struct ibtopo_link *l)
{
	struct batch *lb = &x->b[B_LINK], *cb = &x->b[B_CABLE];
	const struct ibtopo_cable *c = l->cable;
	int rc;

	put_int(lb, link_id);
	put_int(lb, x->sid);
	put_int(lb, (sqlite3_int64)l->a->node->guid);
	put_int(lb, (int)l->a->num);
	put_int(lb, (sqlite3_int64)l->b->node->guid);
	put_int(lb, (int)l->b->num);
	put_int(lb, l->speed);
	put_int(lb, l->width);
	rc = batch_row_done(x->db, lb);
	if (rc != SQLITE_OK || !c)
		return rc;
	put_int(cb, link_id);
	put_int(cb, x->sid);
	put_int(cb, (int)c->media);
	put_real(cb, c->length_m);
	put_int(cb, (int)c->rated_speed);
	put_text(cb, c->vendor);
	put_text(cb, c->part_number);
	put_text(cb, c->serial);
	return batch_row_done(x->db, cb);
}

/* The value of `sql`, "SELECT max(id) FROM t", into *out (0 for NULL). */
static int max_id(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Fill in when and where a snapshot was taken if the reader did not. */
static int fill_meta(struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	char host[256];

	if (!m->taken_at)
		ibtopo_fabric_set_taken_at(fabric, time(NULL));
	if (!m->host && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		return ibtopo_fabric_set_host(fabric, host, err);
	}
	return 0;
}

/* The snapshots row, its id into x->sid. Returns an SQLite code. */
static int insert_snapshot(struct save_ctx *x,
			   const struct ibtopo_fabric *fabric)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(x->db, snapshot_sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		goto out_finalize;
	/* the label is set once the fabric is known: see set_label() */
	sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)m->taken_at);
	bind_text(st, 3, m->source);
	bind_text(st, 4, m->host);
	sqlite3_bind_int64(st, 5,
			   (sqlite3_int64)ibtopo_fabric_count_type(
				   fabric, IBTOPO_NODE_SWITCH));
	sqlite3_bind_int64(st, 6,
			   (sqlite3_int64)ibtopo_fabric_count_type(
				   fabric, IBTOPO_NODE_CA));
	sqlite3_bind_int64(st, 7,
			   (sqlite3_int64)ibtopo_fabric_count_type(
				   fabric, IBTOPO_NODE_ROUTER));
	sqlite3_bind_int64(st, 8,
			   (sqlite3_int64)ibtopo_fabric_link_count(fabric));
	sqlite3_bind_int(st, 9, m->partial);
	bind_text(st, 10, m->partial ? m->partial_reason : NULL);
	bind_text(st, 11, ibtopo_fabric_routing_engine(fabric));
	if (m->subnet_prefix)
		sqlite3_bind_int64(st, 12, (sqlite3_int64)m->subnet_prefix);
	bind_text(st, 13, m->local_ca);
	if (m->local_ca) /* port 0: a switch's management port */
		sqlite3_bind_int(st, 14, (int)m->local_port);
	if (m->sm_lid)
		sqlite3_bind_int(st, 15, m->sm_lid);
	if (m->sm_guid)
		sqlite3_bind_int64(st, 16, (sqlite3_int64)m->sm_guid);
	sqlite3_bind_int(st, 17, ibtopo_fabric_sms_read(fabric));
	rc = ibtopo__store_step_reset(st);
	if (rc == SQLITE_OK)
		x->sid = sqlite3_last_insert_rowid(x->db);
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_save(int64_t *out_id, struct ibtopo_store *store,
		      struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	return ibtopo_store_save_ext(out_id, store, fabric, 0, err);
}

/*
 * In the open transaction: take the label from the snapshots of fabric
 * `fid` holding it (with `move`), and give it to snapshot `sid`.
 */
static int set_label(struct ibtopo_store *s, int64_t fid, int64_t sid,
		     const char *label, bool move)
{
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK;

	if (move)
		rc = sqlite3_prepare_v2(s->db,
					"UPDATE snapshots SET label = NULL"
					" WHERE label = ?1 AND fabric_id = ?2",
					-1, &st, NULL);
	if (rc == SQLITE_OK && st) {
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, fid);
		rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(s->db,
					"UPDATE snapshots SET label = ?1"
					" WHERE id = ?2",
					-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, sid);
		rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_save_ext(int64_t *out_id, struct ibtopo_store *store,
			  struct ibtopo_fabric *fabric, unsigned flags,
			  struct ibtopo_error *err)
{
	struct save_ctx x = {
		.b = {
			[B_NODE] = BATCH_INIT(node_head, 11),
			[B_PORT] = BATCH_INIT(port_head, 17),
			[B_LINK] = BATCH_INIT(link_head, 8),
			[B_CABLE] = BATCH_INIT(cable_head, 8),
			[B_COUNTERS] = BATCH_INIT(counters_head,
						  5 + IBTOPO_CTR_COUNT_),
		},
	};
	const struct ibtopo_fabric_meta *m;
	const char *what = "cannot save snapshot";
	size_t nn, nl;
	int64_t node_base = 0, link_base = 0, fid = 0;
	int rc, src = SQLITE_OK;

	if (out_id)
		*out_id = 0;
	if (!store || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no store or fabric");
	rc = ibtopo__store_check_rw(store, err);
	if (rc)
		return rc;
	rc = fill_meta(fabric, err);
	if (rc)
		return rc;
	m = ibtopo_fabric_meta(fabric);
	if (m->fabric && !ibtopo_store_fabric_name_is_valid(m->fabric))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad fabric name '%s' (1 to 64 "
					 "letters, digits, '-', '_' or '.')",
					 m->fabric);
	if (m->label) {
		rc = ibtopo_store_check_label(NULL, m->label, flags, err);
		if (rc)
			return rc;
	}
	nn = ibtopo_fabric_node_count(fabric);
	nl = ibtopo_fabric_link_count(fabric);
	x.db = store->db;

	rc = ibtopo__store_exec(store, "BEGIN IMMEDIATE", what, err);
	if (rc)
		return rc;
	for (int i = 0; i < B_COUNT_ && src == SQLITE_OK; i++)
		src = batch_init(store->db, &x.b[i]);
	if (src == SQLITE_OK)
		src = max_id(store->db, "SELECT max(id) FROM nodes",
			     &node_base);
	if (src == SQLITE_OK)
		src = max_id(store->db, "SELECT max(id) FROM links",
			     &link_base);
	if (src == SQLITE_OK)
		src = insert_snapshot(&x, fabric);
	if (src != SQLITE_OK)
		goto out_fail;

	for (size_t i = 0; i < nn && src == SQLITE_OK; i++)
		src = save_node(&x, node_base + 1 + (int64_t)i,
				ibtopo_fabric_node(fabric, i));
	for (size_t i = 0; i < nl && src == SQLITE_OK; i++)
		src = save_link(&x, link_base + 1 + (int64_t)i,
				ibtopo_fabric_link(fabric, i));
	for (int i = 0; i < B_COUNT_ && src == SQLITE_OK; i++)
		src = batch_flush(store->db, &x.b[i]);
	if (src == SQLITE_OK)
		src = save_lfts(store->db, x.sid, fabric);
	if (src == SQLITE_OK)
		src = save_clashes(store->db, x.sid, fabric);
	if (src == SQLITE_OK)
		src = save_sms(store->db, x.sid, fabric);
	if (src == SQLITE_OK)
		src = ibtopo__store_save_firmware(store->db, x.sid, fabric);
	if (src == SQLITE_OK)
		src = save_pkeys(store->db, x.sid, fabric);
	if (src == SQLITE_OK)
		src = ibtopo__store_save_mcast(store->db, x.sid, fabric);
	if (src != SQLITE_OK)
		goto out_fail;
	/* under the write lock: a concurrent save cannot slip in */
	rc = ibtopo__store_attach(store, x.sid, fabric, &fid, err);
	if (!rc && m->label)
		rc = ibtopo__store_check_label(store, fid, x.sid, m->label,
					       flags, err);
	if (rc)
		goto out_rollback;
	if (m->label)
		src = set_label(store, fid, x.sid, m->label,
				flags & IBTOPO_SAVE_MOVE_LABEL);
	if (src != SQLITE_OK)
		goto out_fail;
	src = sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK)
		goto out_fail;

	ibtopo_fabric_set_snapshot_id(fabric, x.sid);
	if (out_id)
		*out_id = x.sid;
	rc = 0;
	goto out_release_batches;

out_fail:
	rc = ibtopo__store_fail(store, store->db, src, what, err);
out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
out_release_batches:
	for (int i = 0; i < B_COUNT_; i++)
		batch_release(&x.b[i]);
	return rc;
}
