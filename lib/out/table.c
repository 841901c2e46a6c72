/*
 * table.c - one column list, three formats. A report declares its columns
 * once; the text table, CSV and JSON writers all walk the same array, so
 * the formats cannot drift apart.
 */
#include "out/out-int.h"

#include <stdlib.h>
#include <string.h>

/* Text form of a cell, for the table and CSV. */
static const char *cell_text(struct ibtopo__cell *c, bool csv, char *buf,
			     size_t len)
{
	size_t used = 0;

	switch (c->type) {
	case IBTOPO__STR:
		return c->s ? c->s : (csv ? "" : "-");
	case IBTOPO__INT:
		snprintf(buf, len, "%" PRId64, c->i);
		return buf;
	case IBTOPO__GUID:
		if (!c->g)
			return csv ? "" : "-";
		snprintf(buf, len, "0x%016" PRIx64, c->g);
		return buf;
	case IBTOPO__REAL:
		snprintf(buf, len, "%.6g", c->d);
		return buf;
	case IBTOPO__BOOL:
		return c->b ? (csv ? "true" : "yes") : (csv ? "false" : "no");
	case IBTOPO__STRLIST:
		buf[0] = '\0';
		for (size_t i = 0; i < c->n && i < IBTOPO__STRLIST_MAX; i++) {
			int w = snprintf(buf + used, len - used, "%s%s",
					 i ? "," : "", c->sv[i]);

			if (w < 0 || (size_t)w >= len - used)
				break;
			used += (size_t)w;
		}
		return c->n ? buf : (csv ? "" : "-");
	case IBTOPO__NULL:
	default:
		return csv ? "" : "-";
	}
}

struct ibtopo__json *ibtopo__cell_json(const struct ibtopo__cell *c)
{
	struct ibtopo__json *arr;

	switch (c->type) {
	case IBTOPO__STR:
		return ibtopo__json_string(c->s);
	case IBTOPO__INT:
		return ibtopo__json_int(c->i);
	case IBTOPO__GUID:
		return ibtopo__json_guid(c->g);
	case IBTOPO__REAL:
		return ibtopo__json_real(c->d);
	case IBTOPO__BOOL:
		return ibtopo__json_bool(c->b);
	case IBTOPO__STRLIST:
		arr = ibtopo__json_array();
		for (size_t i = 0; arr && i < c->n && i < IBTOPO__STRLIST_MAX; i++)
			if (ibtopo__json_append(arr, ibtopo__json_string(c->sv[i])))
				break;
		return arr;
	case IBTOPO__NULL:
	default:
		return ibtopo__json_null();
	}
}

static void get_cell(const struct ibtopo__column *col, const void *row, void *ctx,
		     struct ibtopo__cell *c)
{
	memset(c, 0, sizeof(*c));
	c->type = IBTOPO__NULL;
	col->get(row, ctx, c);
}

static int write_json(const struct ibtopo_sink *sink,
		      const struct ibtopo_fabric *fabric, const char *list_name,
		      const struct ibtopo__column *cols, size_t ncols,
		      const void *const *rows, size_t nrows, void *ctx,
		      struct ibtopo_error *err)
{
	struct ibtopo__cell cell;
	int rc;

	/* Stream: one jansson object per row keeps memory flat on big fabrics. */
	rc = ibtopo__json_report_open(sink, fabric, err);
	if (rc == 0)
		rc = ibtopo_sink_printf(sink, ",\"%s\":[", list_name);
	for (size_t r = 0; rc == 0 && r < nrows; r++) {
		struct ibtopo__json *obj = ibtopo__json_object();

		if (!obj)
			return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		for (size_t i = 0; rc == 0 && i < ncols; i++) {
			get_cell(&cols[i], rows[r], ctx, &cell);
			rc = ibtopo__json_set_path(obj, cols[i].name, ibtopo__cell_json(&cell));
		}
		if (rc == 0 && r)
			rc = ibtopo__out_write(sink, ",", 1);
		if (rc == 0)
			rc = ibtopo__json_write(sink, obj, err);
		ibtopo__json_free(obj);
	}
	if (rc == 0)
		rc = ibtopo__out_write(sink, "]}\n", 3);
	if (rc && err && !err->code)
		ibtopo__error_set(err, rc, "cannot write output");
	return rc;
}

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo__column *cols, size_t ncols,
		     const void *const *rows, size_t nrows, void *ctx)
{
	struct ibtopo__cell cell;
	char buf[256];
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < ncols; i++) {
		if (i)
			rc = ibtopo__out_write(sink, ",", 1);
		if (rc == 0)
			rc = ibtopo__out_csv_field(sink, cols[i].name);
	}
	if (rc == 0)
		rc = ibtopo__out_write(sink, "\r\n", 2);
	for (size_t r = 0; rc == 0 && r < nrows; r++) {
		for (size_t i = 0; rc == 0 && i < ncols; i++) {
			get_cell(&cols[i], rows[r], ctx, &cell);
			if (i)
				rc = ibtopo__out_write(sink, ",", 1);
			if (rc == 0)
				rc = ibtopo__out_csv_field(sink,
					cell_text(&cell, true, buf, sizeof(buf)));
		}
		if (rc == 0)
			rc = ibtopo__out_write(sink, "\r\n", 2);
	}
	return rc;
}

static int write_text(const struct ibtopo_sink *sink,
		      const struct ibtopo__column *cols, size_t ncols,
		      const void *const *rows, size_t nrows, void *ctx,
		      struct ibtopo_error *err)
{
	struct ibtopo__cell cell;
	size_t *width;
	char buf[256];
	int rc = 0;

	width = calloc(ncols, sizeof(*width));
	if (!width)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < ncols; i++)
		width[i] = strlen(cols[i].title ? cols[i].title : cols[i].name);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t i = 0; i < ncols; i++) {
			size_t w;

			get_cell(&cols[i], rows[r], ctx, &cell);
			w = strlen(cell_text(&cell, false, buf, sizeof(buf)));
			if (w > width[i])
				width[i] = w;
		}
	}
	for (size_t i = 0; rc == 0 && i < ncols; i++) {
		const char *t = cols[i].title ? cols[i].title : cols[i].name;

		if (i + 1 < ncols)
			rc = ibtopo_sink_printf(sink, "%-*s  ", (int)width[i], t);
		else
			rc = ibtopo_sink_printf(sink, "%s\n", t);
	}
	for (size_t r = 0; rc == 0 && r < nrows; r++) {
		for (size_t i = 0; rc == 0 && i < ncols; i++) {
			get_cell(&cols[i], rows[r], ctx, &cell);
			if (i + 1 < ncols)
				rc = ibtopo_sink_printf(sink, "%-*s  ", (int)width[i],
					cell_text(&cell, false, buf, sizeof(buf)));
			else
				rc = ibtopo_sink_printf(sink, "%s\n",
					cell_text(&cell, false, buf, sizeof(buf)));
		}
	}
	free(width);
	return rc;
}

int ibtopo__table_write(const struct ibtopo_sink *sink, const char *list_name,
			const struct ibtopo__column *cols, size_t ncols,
			const void *const *rows, size_t nrows, void *ctx,
			struct ibtopo_error *err)
{
	return ibtopo__table_write_of(sink, NULL, list_name, cols, ncols, rows,
				      nrows, ctx, err);
}

int ibtopo__table_write_of(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const char *list_name,
			   const struct ibtopo__column *cols, size_t ncols,
			   const void *const *rows, size_t nrows, void *ctx,
			   struct ibtopo_error *err)
{
	int rc;

	if (!sink || !sink->write || !cols)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output sink");
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		rc = write_json(sink, fabric, list_name, cols, ncols, rows,
				nrows, ctx, err);
		break;
	case IBTOPO_FORMAT_CSV:
		rc = write_csv(sink, cols, ncols, rows, nrows, ctx);
		break;
	case IBTOPO_FORMAT_TEXT:
		rc = write_text(sink, cols, ncols, rows, nrows, ctx, err);
		break;
	default:
		return ibtopo__error_set(err, IBTOPO_EINVAL, "unknown format %d",
					 (int)sink->format);
	}
	if (rc && err && !err->code)
		ibtopo__error_set(err, rc, "cannot write output");
	return rc;
}
