/*
 * ibtopo/read.h - reading fabric files. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_READ_H
#define IBTOPO_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_file_format {
	IBTOPO_FILE_AUTO = 0,		/* detect from content */
	IBTOPO_FILE_CACHE,		/* ibnetdiscover --cache */
	IBTOPO_FILE_IBNETDISCOVER,	/* ibnetdiscover text (also plans) */
	IBTOPO_FILE_PORTS,		/* ibnetdiscover -p ports report */
	IBTOPO_FILE_IBSIM,		/* ibsim net file */
	IBTOPO_FILE_IBLINKINFO,		/* iblinkinfo output (not -l) */
};

struct ibtopo_read_opts {
	unsigned version;		/* IBTOPO_READ_OPTS_VERSION */
	enum ibtopo_file_format format;
	const char *node_name_map;	/* infiniband-diags map file, or NULL */
	/* optional: non-fatal problems ("file:line: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
};
#define IBTOPO_READ_OPTS_VERSION 1
#define IBTOPO_READ_OPTS_INIT { IBTOPO_READ_OPTS_VERSION, IBTOPO_FILE_AUTO, NULL, NULL, NULL }

/**
 * Read a fabric from a file of any supported format (opts may be NULL:
 * detect the format, no name map, no warnings). The fabric's source is
 * set to "file:<path>". IBTOPO_EIO if unreadable, IBTOPO_EPARSE with
 * "<path>:<line>: ..." for malformed content.
 */
int ibtopo_fabric_read_file(struct ibtopo_fabric **out, const char *path,
			    const struct ibtopo_read_opts *opts,
			    struct ibtopo_error *err);

/**
 * Read a fabric from text in memory (`len` bytes, need not end in NUL);
 * `name` stands for the file in messages ("<name>:<line>: ..."). Accepts
 * the text formats: ibnetdiscover output and plans written like it,
 * the `ibnetdiscover -p` ports report (with or without the -v DR-path
 * lines), and ibsim net files; `opts->format` forces one (CACHE is
 * IBTOPO_EINVAL here: cache files are read from a path). What the text
 * does not state stays unknown: speeds and widths are active values,
 * supported and enabled sets stay 0, LIDs are those printed (ibsim net
 * files: enabled sets as stated, supported sets as ibsim fixes them,
 * active values as ibsim trains each link, LIDs unknown). Nodes named
 * instead of GUIDs ("leaf01") get ibtopo_name_guid(); a link seen from
 * both ends is one link, and ends that disagree are reported through
 * opts->warn naming both lines. A ports report without the -v DR-path
 * lines gives CA port GUIDs only: each CA port becomes a CA of its own
 * (a dual-port CA reads as two), and opts->warn says so once, counting
 * them. IBTOPO_EPARSE with "<name>:<line>: <what
 * was expected>" for malformed text, binary data, an empty or truncated
 * file, a line over 4096 bytes, duplicate nodes that differ, a port line
 * before any node; *out is then NULL. The source is left unset.
 * Messages and warnings quote the input printably: bytes that are not
 * printable ASCII or well-formed UTF-8 (and the backslash) read "\xNN",
 * and a message too long for the buffer ends in "...".
 */
int ibtopo_fabric_read_buffer(struct ibtopo_fabric **out, const char *buf,
			      size_t len, const char *name,
			      const struct ibtopo_read_opts *opts,
			      struct ibtopo_error *err);

/**
 * The text format of a buffer, from its content: IBTOPO_FILE_PORTS,
 * IBTOPO_FILE_IBSIM (Hca records, w=/s=/e= port options or global
 * width=/speed=/extspeed= lines), IBTOPO_FILE_IBNETDISCOVER (node
 * records), or IBTOPO_FILE_AUTO when none fits.
 */
enum ibtopo_file_format ibtopo_file_format_detect(const char *buf, size_t len);
/** "auto", "cache", "ibnetdiscover", "ports", "ibsim". */
const char *ibtopo_file_format_name(enum ibtopo_file_format format);
/** Inverse of ibtopo_file_format_name() ("plan" = ibnetdiscover); -1 if unknown. */
int ibtopo_file_format_parse(const char *name);

/**
 * The GUID the readers (and planned fabrics) give a node known by name
 * only: 64-bit FNV-1a of the name with bit 57 set (the locally
 * administered bit of the top byte), so it never takes a vendor's OUI.
 * A reader that finds two names with one GUID rehashes the later name.
 */
uint64_t ibtopo_name_guid(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_READ_H */
