/*
 * out-int.h - private to libibtopo: the output plumbing every module may
 * use: writing through a sink (formatted output, tables, JSON). It depends
 * on nothing but the model.
 */
#ifndef IBTOPO_OUT_INT_H
#define IBTOPO_OUT_INT_H

#include "model/model-int.h"

/* out/output.c: a sink with formatted writes */
int ibtopo__out_write(const struct ibtopo_sink *sink, const char *buf,
		      size_t len);
/* printf through a sink: ibtopo_sink_printf() (<ibtopo/sink.h>) */
int ibtopo__out_vprintf(const struct ibtopo_sink *sink, const char *fmt,
			va_list ap) IBTOPO__PRINTF(2, 0);
/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF. */
int ibtopo__out_csv_field(const struct ibtopo_sink *sink, const char *s);

/* A sink that remembers its first failure, so a writer reads straight. */
struct ibtopo__wr {
	const struct ibtopo_sink *o;
	int rc;
};

/** n bytes of s unless an earlier write failed; the failure stays in w->rc. */
void ibtopo__wr_write(struct ibtopo__wr *w, const char *s, size_t n);
/** The string s, likewise. */
void ibtopo__wr_puts(struct ibtopo__wr *w, const char *s);
/** Formatted output unless an earlier write failed; the failure stays in w->rc. */
void ibtopo__wr_printf(struct ibtopo__wr *w, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

/* out/table.c: one column list, three formats */
enum ibtopo__ctype {
	IBTOPO__STR,  /* s; NULL -> JSON null, empty in CSV/text */
	IBTOPO__INT,  /* i */
	IBTOPO__GUID, /* g; "0x%016" PRIx64, 0 -> null */
	IBTOPO__REAL, /* d */
	IBTOPO__BOOL, /* b */
	IBTOPO__STRLIST, /* list of n strings in sv (JSON array; "a,b" in text/CSV) */
	IBTOPO__NULL, /* no value */
};

#define IBTOPO__STRLIST_MAX 12

struct ibtopo__cell {
	enum ibtopo__ctype type;
	const char *s;
	int64_t i;
	uint64_t g;
	double d;
	bool b;
	const char *sv[IBTOPO__STRLIST_MAX];
	size_t n;
	char buf[96]; /* scratch for accessors that format */
};

/* Fill a cell with one value of a type. */
static inline void ibtopo__cell_str(struct ibtopo__cell *c, const char *s)
{
	c->type = IBTOPO__STR;
	c->s = s;
}

static inline void ibtopo__cell_int(struct ibtopo__cell *c, int64_t v)
{
	c->type = IBTOPO__INT;
	c->i = v;
}

static inline void ibtopo__cell_guid(struct ibtopo__cell *c, uint64_t g)
{
	c->type = IBTOPO__GUID;
	c->g = g;
}

static inline void ibtopo__cell_real(struct ibtopo__cell *c, double v)
{
	c->type = IBTOPO__REAL;
	c->d = v;
}

/**
 * A column: `name` is the JSON key; a dot nests ("a.node" -> "a":{"node"}).
 * CSV headers are the dotted names. get() fills the cell for one row.
 */
struct ibtopo__column {
	const char *name;
	const char *title; /* text table header */
	void (*get)(const void *row, void *ctx, struct ibtopo__cell *out);
};

/** One cell as a JSON value (a new reference; NULL when out of memory). */
struct ibtopo__json *ibtopo__cell_json(const struct ibtopo__cell *c);

/**
 * Write rows as a text table, CSV, or JSON
 * {"schema_version","<list_name>":[...]}.
 */
int ibtopo__table_write(const struct ibtopo_sink *sink, const char *list_name,
			const struct ibtopo__column *cols, size_t ncols,
			const void *const *rows, size_t nrows, void *ctx,
			struct ibtopo_error *err);
/** The same, its JSON a report of `fabric` (ibtopo__json_report()). */
int ibtopo__table_write_of(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const char *list_name,
			   const struct ibtopo__column *cols, size_t ncols,
			   const void *const *rows, size_t nrows, void *ctx,
			   struct ibtopo_error *err);

/* out/json.c: the only file including <jansson.h>. Values are jansson json_t. */
struct ibtopo__json;
struct ibtopo__json *ibtopo__json_object(void);
struct ibtopo__json *ibtopo__json_array(void);
struct ibtopo__json *ibtopo__json_string(const char *s); /* NULL -> null */
struct ibtopo__json *ibtopo__json_int(int64_t v);
/** A counter: an integer, or a real above INT64_MAX (JSON has no u64). */
struct ibtopo__json *ibtopo__json_u64(uint64_t v);
struct ibtopo__json *ibtopo__json_real(double v);
struct ibtopo__json *ibtopo__json_bool(bool v);
struct ibtopo__json *ibtopo__json_null(void);
struct ibtopo__json *ibtopo__json_guid(uint64_t guid); /* 0 -> null */
/** Set obj[key] = value, taking the reference; returns 0 or IBTOPO_ENOMEM. */
int ibtopo__json_set(struct ibtopo__json *obj, const char *key,
		     struct ibtopo__json *value);
/** Set obj[a][b]... along a dotted path, creating objects. */
int ibtopo__json_set_path(struct ibtopo__json *obj, const char *dotted,
			  struct ibtopo__json *value);
int ibtopo__json_append(struct ibtopo__json *arr, struct ibtopo__json *value);
/** Write compactly (keys in insertion order), no newline. */
int ibtopo__json_write(const struct ibtopo_sink *sink,
		       struct ibtopo__json *value, struct ibtopo_error *err);
/** Write compactly (keys in insertion order) plus "\n" to the sink. */
int ibtopo__json_dump(const struct ibtopo_sink *sink,
		      struct ibtopo__json *value, struct ibtopo_error *err);
void ibtopo__json_free(struct ibtopo__json *value);
/** `value` when `rc` is 0 (everything set), else NULL after freeing it:
 * the end of a function that builds an object. */
struct ibtopo__json *ibtopo__json_kept(struct ibtopo__json *value, int rc);
/**
 * Set obj[key] to the name of the fabric `fabric` belongs to in the
 * store (meta->fabric), when it has one: a snapshot, or a file named by
 * --fabric; else set nothing. 0 or IBTOPO_ENOMEM.
 */
int ibtopo__json_set_fabric(struct ibtopo__json *obj, const char *key,
			    const struct ibtopo_fabric *fabric);
/**
 * A report's top-level object: "schema_version" (the public
 * IBTOPO_JSON_SCHEMA_VERSION; no other code writes it), then "fabric" as
 * ibtopo__json_set_fabric() sets it (fabric may be NULL). NULL when out
 * of memory.
 */
struct ibtopo__json *ibtopo__json_report(const struct ibtopo_fabric *fabric);
/**
 * What was read, the "snapshot" of analyze and discover: {"id" (null for
 * a file),"label","source","switches","cas","routers","links","cables"
 * (links with cable data),"partial"}. NULL when out of memory.
 */
struct ibtopo__json *ibtopo__json_snapshot(const struct ibtopo_fabric *fabric);
/** The same object without its closing brace, for a report that streams. */
int ibtopo__json_report_open(const struct ibtopo_sink *sink,
			     const struct ibtopo_fabric *fabric,
			     struct ibtopo_error *err);
/** Speed or width set as a JSON array of names. */
struct ibtopo__json *ibtopo__json_speed_set(unsigned mask);
struct ibtopo__json *ibtopo__json_width_set(unsigned mask);

#endif /* IBTOPO_OUT_INT_H */
