/*
 * ibtopo/sink.h - output: formats and sinks. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_SINK_H
#define IBTOPO_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/store.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The version of every JSON document ibtopo writes: the "schema_version"
 * key that opens each one. It changes when a key is renamed, removed or
 * changes its type (doc/json.md lists each version's changes); keys are
 * added without a change.
 */
#define IBTOPO_JSON_SCHEMA_VERSION 2

enum ibtopo_format {
	IBTOPO_FORMAT_TEXT = 0,
	IBTOPO_FORMAT_JSON,
	IBTOPO_FORMAT_CSV,
};

/** "text", "json", "csv" -> format; -1 if unknown. */
int ibtopo_format_parse(const char *name);

/** An output sink: reports and writers write through write(), which
 * returns 0 or a negative status. */
struct ibtopo_sink {
	unsigned version;	/* IBTOPO_SINK_VERSION */
	enum ibtopo_format format;
	int (*write)(void *arg, const char *buf, size_t len);
	void *write_arg;	/* e.g. a FILE * for ibtopo_write_file */
	unsigned flags;		/* enum ibtopo_sink_flags */
};
#define IBTOPO_SINK_VERSION 1

enum ibtopo_sink_flags {
	/* text tables: every column, also those no row has a value in */
	IBTOPO_SINK_WIDE = 1u << 0,
};

/** A ready-made sink: write_arg is a FILE *. */
int ibtopo_write_file(void *file, const char *buf, size_t len);

/** printf() through a sink: 0 or the sink's negative status. */
int ibtopo_sink_printf(const struct ibtopo_sink *sink, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/**
 * Output kept in memory. Start from all zeros; text is NUL-terminated
 * (NULL before the first write). limit > 0 caps len: a write that would
 * pass it fails with IBTOPO_EIO and adds nothing.
 */
struct ibtopo_buffer {
	char *text;
	size_t len;
	size_t alloc;
	size_t limit;
};

/** A ready-made sink: write_arg is a struct ibtopo_buffer *. */
int ibtopo_write_buffer(void *buffer, const char *buf, size_t len);

/** Free what *buffer holds; it is all zeros (limit kept) and reusable. */
void ibtopo_buffer_release(struct ibtopo_buffer *buffer);

struct ibtopo_mad_stats;

/**
 * What one discover stored, as one JSON object (JSON only; else
 * IBTOPO_EINVAL), as doc/json.md gives `ibtopo discover`: the fabric's
 * meta as the store set it (the snapshot object is analyze's), the
 * seconds and the MADs.
 */
int ibtopo_report_discover(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const struct ibtopo_mad_stats *mads, double seconds,
			   struct ibtopo_error *err);

/**
 * Inventory reports (show / snapshots). The text tables of nodes, ports
 * and links leave out the columns no row has a value in, unless
 * sink->flags has IBTOPO_SINK_WIDE; JSON and CSV carry every key.
 */
int ibtopo_report_nodes(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
int ibtopo_report_ports(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
/** Links; the text table leaves out the columns no link has a value in
 * (the supported and enabled sets of a text dump, absent cables). */
int ibtopo_report_links(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
/** Links that carry cable data: both ends, media, length, rating, ids. */
int ibtopo_report_cables(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
enum ibtopo_switches_flags {
	IBTOPO_SWITCHES_CAS = 1u << 0,	/* CAs instead of switches */
	IBTOPO_SWITCHES_DOWN = 1u << 1,	/* only ports physically linked but not active */
};
/**
 * The ports of each switch (with IBTOPO_SWITCHES_CAS each CA), as
 * iblinkinfo lists them: text, one block per node ("Switch: 0x<guid>
 * <desc> (LID n):") and a line per port: number, width, speed and Gb/s,
 * port and physical state, and the peer; JSON and CSV the rows of
 * ibtopo_report_ports() (`ibtopo show switches` in doc/json.md).
 * `only` (may be NULL): that node alone, whatever its type. Returns 0,
 * IBTOPO_EINVAL, IBTOPO_ENOMEM or the sink's error.
 */
int ibtopo_report_switches(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const struct ibtopo_node *only, unsigned flags,
			   struct ibtopo_error *err);
int ibtopo_report_snapshots(const struct ibtopo_sink *sink,
			    const struct ibtopo_snapshot *list, size_t count,
			    struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_SINK_H */
