/*
 * export-int.h - private to libibtopo: what the writers in lib/export/
 * share. Exports sit above the analyses: a writer may analyze the fabric
 * (Slurm's tree) or report it (CSV, JSON); nothing below includes this.
 */
#ifndef IBTOPO_EXPORT_INT_H
#define IBTOPO_EXPORT_INT_H

#include "read/read-int.h"

/* export/writers.c: the table of writers */

/*
 * One export format: lib/export/write_<format>.c exports one
 * `const struct ibtopo__writer`, writers.c lists it. write() gets a sink
 * and a fabric checked by ibtopo_fabric_write() and sets err itself.
 */
struct ibtopo__writer {
	enum ibtopo_export_format format;
	const char *name; /* for --format, ibtopo_export_format_name() */
	int (*write)(const struct ibtopo_sink *sink,
		     const struct ibtopo_fabric *f, struct ibtopo_error *err);
	/* the scheduler formats: write() from the analysis (its levels),
	 * with export options, instead */
	int (*write_opts)(const struct ibtopo_sink *sink,
			  struct ibtopo_analysis *an,
			  const struct ibtopo_export_opts *xopts,
			  struct ibtopo_error *err);
	/* optional: what write() cannot keep, see ibtopo_export_losses() */
	size_t (*losses)(char *buf, size_t len, const struct ibtopo_fabric *f);
};

/** 0, or the first failure as "out of memory" / "cannot write the <what> output". */
int ibtopo__wr_done(const struct ibtopo__wr *w, const char *what,
		    struct ibtopo_error *err);
/**
 * A description as one printable line of at most max bytes into buf
 * (max + 1 bytes), as ibnetdiscover's clean_nodedesc; `sim` also turns
 * the quotes, '#' and '=' ibsim would misread into '\''.
 */
const char *ibtopo__clean_desc(const char *in, char *buf, size_t max, bool sim);

#endif /* IBTOPO_EXPORT_INT_H */
