/*
 * writers.c - the table of export formats, as readers.c is of input
 * formats: each format is one writer in a file of its own
 * (write_<format>.c); this file finds it by name or enumerator, runs it,
 * and holds what the text writers share.
 *
 * A new format: its file, its row below, its enumerator in
 * enum ibtopo_export_format (ibtopo.h) and its line in Makefile.am.
 */
#include "export/export-int.h"

#include <stddef.h>

#include <string.h>

extern const struct ibtopo__writer ibtopo__writer_ibnetdiscover;
extern const struct ibtopo__writer ibtopo__writer_ibsim;
extern const struct ibtopo__writer ibtopo__writer_slurm;
extern const struct ibtopo__writer ibtopo__writer_csv;
extern const struct ibtopo__writer ibtopo__writer_json;
extern const struct ibtopo__writer ibtopo__writer_lfts;
extern const struct ibtopo__writer ibtopo__writer_slurm_block;
extern const struct ibtopo__writer ibtopo__writer_slurm_yaml;
extern const struct ibtopo__writer ibtopo__writer_k8s;

static const struct ibtopo__writer *const writers[] = {
	&ibtopo__writer_ibnetdiscover,
	&ibtopo__writer_ibsim,
	&ibtopo__writer_slurm,
	&ibtopo__writer_csv,
	&ibtopo__writer_json,
	&ibtopo__writer_lfts,
	&ibtopo__writer_slurm_block,
	&ibtopo__writer_slurm_yaml,
	&ibtopo__writer_k8s,
};

static const struct ibtopo__writer *writer_find(enum ibtopo_export_format format)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(writers); i++)
		if (writers[i]->format == format)
			return writers[i];
	return NULL;
}

int ibtopo_export_format_parse(const char *name)
{
	for (size_t i = 0; name && i < IBTOPO__ARRAY_SIZE(writers); i++)
		if (strcmp(name, writers[i]->name) == 0)
			return (int)writers[i]->format;
	return -1;
}

const char *ibtopo_export_format_name(enum ibtopo_export_format format)
{
	const struct ibtopo__writer *wr = writer_find(format);

	return wr ? wr->name : "?";
}

int ibtopo_analysis_write(const struct ibtopo_sink *sink,
			  struct ibtopo_analysis *an,
			  enum ibtopo_export_format format,
			  const struct ibtopo_export_opts *xopts,
			  struct ibtopo_error *err)
{
	const struct ibtopo__writer *wr = writer_find(format);
	const struct ibtopo_export_opts defaults = IBTOPO_EXPORT_OPTS_INIT;
	const struct ibtopo_fabric *fabric = ibtopo_analysis_fabric(an);
	struct ibtopo_export_opts x = defaults;

	if (!sink || !sink->write || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no sink or analysis");
	if (!wr)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown export format %d", (int)format);

	if (xopts && (xopts->version < 1 ||
		      xopts->version > IBTOPO_EXPORT_OPTS_VERSION))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown export options version %u",
					 xopts->version);
	/* an older version ends sooner: the fields after its end keep
	 * their defaults (1 ends after warn_arg, 2 after nhosts) */
	if (xopts && xopts->version == 1) {
		x.flags = xopts->flags;
		x.warn = xopts->warn;
		x.warn_arg = xopts->warn_arg;
	} else if (xopts && xopts->version == 2) {
		memcpy(&x, xopts, offsetof(struct ibtopo_export_opts,
					   slurm_release));
		x.version = IBTOPO_EXPORT_OPTS_VERSION;
	} else if (xopts) {
		x = *xopts;
	}
	if (wr->write_opts)
		return wr->write_opts(sink, an, &x, err);
	return wr->write(sink, fabric, err);
}

int ibtopo_fabric_write(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric,
			enum ibtopo_export_format format,
			struct ibtopo_error *err)
{
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_analysis *an = NULL;
	int rc;

	/* the levels alone: what the scheduler formats read */
	ao.topology.flags |= IBTOPO_TOPOLOGY_NO_PATHS |
			     IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = ibtopo_analysis_new(&an, fabric, &ao, err);
	if (!rc)
		rc = ibtopo_analysis_write(sink, an, format, NULL, err);
	ibtopo_analysis_free(an);
	return rc;
}

size_t ibtopo_export_losses(char *buf, size_t len,
			    const struct ibtopo_fabric *fabric,
			    enum ibtopo_export_format format)
{
	const struct ibtopo__writer *wr = writer_find(format);

	if (buf && len)
		buf[0] = '\0';
	if (!buf || !len || !fabric || !wr || !wr->losses)
		return 0;
	return wr->losses(buf, len, fabric);
}

int ibtopo__wr_done(const struct ibtopo__wr *w, const char *what,
		    struct ibtopo_error *err)
{
	if (w->rc == IBTOPO_ENOMEM)
		return ibtopo__error_set(err, w->rc, "out of memory");
	if (w->rc)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write the %s output", what);
	return 0;
}

/* Printable, one line, at most max bytes (as ibnetdiscover's clean_nodedesc). */
const char *ibtopo__clean_desc(const char *in, char *buf, size_t max, bool sim)
{
	size_t i;

	for (i = 0; in && in[i] && i < max; i++) {
		unsigned char c = (unsigned char)in[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
		if (sim && (c == '"' || c == '#' || c == '='))
			buf[i] = '\'';
	}
	buf[i] = '\0';
	return buf;
}
