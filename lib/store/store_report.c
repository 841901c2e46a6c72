/*
 * store_report.c - the store's lists as tables (text, JSON, CSV): the
 * snapshots with their fabric, and the fabrics. One column list each,
 * walked by the table writer for every format.
 */
#include "store/store-db.h"

#include <stdlib.h>
#include <string.h>

static void set_time(struct ibtopo__cell *c, time_t t)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) &&
	    strftime(c->buf, sizeof(c->buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		ibtopo__cell_str(c, c->buf);
}

/* ---- snapshots ---- */

#define SNAP(r) ((const struct ibtopo_snapshot *)(r))

static void s_id(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, SNAP(r)->id);
}
static void s_label(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->label);
}
static void s_fabric(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->fabric);
}
static void s_taken(const void *r, void *x, struct ibtopo__cell *c)
{
	set_time(c, SNAP(r)->taken_at);
}
static void s_source(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->source);
}
static void s_host(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->host);
}
static void s_sw(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->switches);
}
static void s_ca(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->cas);
}
static void s_links(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->links);
}
static void s_partial(const void *r, void *x, struct ibtopo__cell *c)
{
	c->type = IBTOPO__BOOL;
	c->b = SNAP(r)->partial;
}
static void s_why(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->partial_reason);
}

static const struct ibtopo__column snap_cols[] = {
	{ "id", "ID", s_id },
	{ "label", "LABEL", s_label },
	{ "taken_at", "TAKEN AT (UTC)", s_taken },
	{ "switches", "SWITCHES", s_sw },
	{ "cas", "CAS", s_ca },
	{ "links", "LINKS", s_links },
	{ "partial", "PARTIAL", s_partial },
	{ "host", "HOST", s_host },
	{ "source", "SOURCE", s_source },
	{ "partial_reason", "WHY PARTIAL", s_why },
	/* last: the columns before it read as they did before fabrics */
	{ "fabric", "FABRIC", s_fabric },
};

int ibtopo__store_snapshots_write(const struct ibtopo_sink *sink,
				  const struct ibtopo_snapshot *list,
				  size_t count, const char *fabric,
				  bool fabric_column, struct ibtopo_error *err)
{
	const void **rows = calloc(count ? count : 1, sizeof(*rows));
	size_t n = 0;
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		if (!fabric ||
		    (list[i].fabric && strcmp(list[i].fabric, fabric) == 0))
			rows[n++] = &list[i];
	rc = ibtopo__table_write(sink, "snapshots", snap_cols,
				 IBTOPO__ARRAY_SIZE(snap_cols) - !fabric_column,
				 (const void *const *)rows, n, NULL, err);
	free(rows);
	return rc;
}

int ibtopo_store_report_snapshots(const struct ibtopo_sink *sink,
				  const struct ibtopo_snapshot *list,
				  size_t count, const char *fabric,
				  struct ibtopo_error *err)
{
	return ibtopo__store_snapshots_write(sink, list, count, fabric, true,
					     err);
}

/* ---- fabrics ---- */

#define FAB(r) ((const struct ibtopo_fabric_info *)(r))

static void f_name(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, FAB(r)->name);
}
static void f_prefix(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, FAB(r)->subnet_prefix);
}
static void f_sm_lid(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FAB(r)->sm_lid)
		ibtopo__cell_int(c, FAB(r)->sm_lid);
}
static void f_sm_guid(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, FAB(r)->sm_guid);
}
static void f_count(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)FAB(r)->snapshots);
}
static void f_latest(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FAB(r)->latest_id)
		ibtopo__cell_int(c, FAB(r)->latest_id);
}
static void f_latest_at(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FAB(r)->latest_id)
		set_time(c, FAB(r)->latest_at);
}
static void f_sw(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)FAB(r)->switches);
}
static void f_ca(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)FAB(r)->cas);
}

static const struct ibtopo__column fabric_cols[] = {
	{ "name", "FABRIC", f_name },
	{ "subnet_prefix", "PREFIX", f_prefix },
	{ "sm_lid", "SM LID", f_sm_lid },
	{ "sm_guid", "SM GUID", f_sm_guid },
	{ "snapshots", "SNAPSHOTS", f_count },
	{ "latest_id", "LATEST", f_latest },
	{ "latest_at", "LATEST AT (UTC)", f_latest_at },
	{ "switches", "SWITCHES", f_sw },
	{ "cas", "CAS", f_ca },
};

int ibtopo_store_report_fabrics(const struct ibtopo_sink *sink,
				const struct ibtopo_fabric_info *list,
				size_t count, struct ibtopo_error *err)
{
	const void **rows = calloc(count ? count : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		rows[i] = &list[i];
	rc = ibtopo__table_write(sink, "fabrics", fabric_cols,
				 IBTOPO__ARRAY_SIZE(fabric_cols),
				 (const void *const *)rows, count, NULL, err);
	free(rows);
	return rc;
}
