/* output_file.h - where `-o FILE` output goes (export, plan, render) */
#ifndef IBTOPO_OUTPUT_FILE_H
#define IBTOPO_OUTPUT_FILE_H

#include "cli.h"

#include <stdio.h>

/*
 * `-o NAME` writes into what NAME names, never replaces it by something
 * else:
 *  - "-" (or no -o): standard output;
 *  - a regular file, or a name that does not exist yet: a temporary file
 *    beside it, renamed over it once complete and flushed to disk, so a
 *    reader sees the old bytes or the new ones; an existing file keeps
 *    its permission bits, a new one gets 0666 less the umask. Where no
 *    file can be created beside it, the file is written in place;
 *  - a symbolic link: what it points to, as above; the link stays;
 *  - anything else (a FIFO, a device): opened and written directly
 *    (a writer that opens a path itself gets a temporary file in
 *    $TMPDIR, copied into the target at the end);
 *  - a directory: an error.
 * Every failure, a write error (ENOSPC, EIO, a short write) as much as
 * failing to flush, sync, close or rename, is one line on stderr and
 * EXIT_TROUBLE.
 */
struct output_file {
	const char *name; /* as given; "-" = standard output */
	char *target;	  /* what is written: NAME, a symlink resolved */
	char *tmp;	  /* temporary file beside target, or NULL */
	const char *path; /* where a writer opens it: tmp, target or "-" */
	FILE *f;	  /* stream on path (stream mode), or stdout */
	int fd;		  /* tmp's descriptor (path mode), or -1 */
	bool copy;	  /* tmp is in $TMPDIR, copied to target at the end */
	int mode;	  /* permission bits for tmp */
	int error;	  /* errno of the first failed write, or 0 */
};

/**
 * Prepare `name` (NULL = "-") for writing. stream: open o->f, which
 * output_file_write() writes through; else only o->path is set, for a
 * library that opens the path itself (it must truncate what it opens).
 * Returns 0, or EXIT_TROUBLE after printing why.
 */
int output_file_open(struct output_file *o, const char *name, bool stream);

/** An ibtopo_sink write callback; arg is the output_file. */
int output_file_write(void *arg, const char *buf, size_t len);

/** Render options that write through output_file_write(). */
struct ibtopo_sink output_file_opts(struct output_file *o,
				    enum ibtopo_format format);

/**
 * Finish: flush, sync and close, then rename the temporary file over the
 * target. Returns 0, or EXIT_TROUBLE after printing why (the temporary
 * file removed). Releases o in both cases.
 */
int output_file_close(struct output_file *o);

/** Give up: close, remove the temporary file, release o. */
void output_file_abort(struct output_file *o);

/**
 * Report a writer's failure: the write error when output_file_write()
 * saw one ("cannot write 'NAME': why"), else err's message with the
 * temporary file's name replaced by NAME. Returns EXIT_TROUBLE.
 */
int output_file_fail(const struct output_file *o,
		     const struct ibtopo_error *err);

#endif
