/*
 * diagram.c - the entry points of lib/diagram, on top of its other files:
 * a diagram as DOT text through a sink, and the image dispatcher, which
 * sends each output where it is made: DOT written as is, SVG, PNG and
 * PDF laid out by graphviz (diagram_layout.c), HTML as a page around the
 * SVG (diagram_html.c). The layout and the page never call each other.
 */
#include "diagram/diagram-int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- a memory sink for the DOT text ---- */

struct membuf {
	char *buf;
	size_t len, alloc;
};

static int membuf_write(void *arg, const char *s, size_t n)
{
	struct membuf *m = arg;

	if (ibtopo__grow(&m->buf, &m->alloc, m->len + n + 1, 1))
		return IBTOPO_ENOMEM;
	memcpy(m->buf + m->len, s, n);
	m->len += n;
	m->buf[m->len] = '\0';
	return 0;
}

/* ---- the scene and its DOT ---- */

/* Check the options (NULL: the defaults) and build the scene of f. */
static int scene_open(struct scene *c, struct ibtopo_analysis *an,
		      const struct ibtopo_diagram_opts *d,
		      struct ibtopo_error *err)
{
	static const struct ibtopo_diagram_opts defaults =
		IBTOPO_DIAGRAM_OPTS_INIT;
	int rc;

	if (!d)
		d = &defaults;
	if (d->version == 2) {
		/* version 2 ends before the highlights */
		memcpy(&c->v2, d, offsetof(struct ibtopo_diagram_opts, failed));
		memset(&c->v2.failed, 0, sizeof(c->v2.failed));
		memset(&c->v2.job, 0, sizeof(c->v2.job));
		memset(&c->v2.carried, 0, sizeof(c->v2.carried));
		c->v2.version = IBTOPO_DIAGRAM_OPTS_VERSION;
		d = &c->v2;
	}
	if (d->version != IBTOPO_DIAGRAM_OPTS_VERSION)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"diagram options version %u not supported", d->version);
	/* the levels are the analysis' (none when it skips them) */
	rc = ibtopo_analysis_topology(an, &c->topo, err);
	if (rc)
		return rc;
	return ibtopo__diagram_scene_build(c, ibtopo_analysis_fabric(an), d,
					   err);
}

/* The DOT text of scene c through sink o; a failed write named in err. */
static int scene_dot(const struct ibtopo_sink *o, const struct scene *c,
		     struct ibtopo_error *err)
{
	struct ibtopo__wr w = { .o = o };

	ibtopo__diagram_write_dot(&w, c);
	if (w.rc)
		return ibtopo__error_set(err, w.rc, "writing the diagram: %s",
					 ibtopo_strerror(w.rc));
	return 0;
}

/* ---- formats and files ---- */

static const char *const formats[] = { "svg", "png", "pdf", "dot", "html" };

static const char *format_of(const char *fname, const char *format)
{
	const char *ext = format;

	if (!ext) {
		ext = fname ? strrchr(fname, '.') : NULL;
		if (!ext || strchr(ext, '/'))
			return NULL;
		ext++;
	}
	if (strcasecmp(ext, "gv") == 0)
		return "dot";
	if (strcasecmp(ext, "htm") == 0)
		return "html";
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(formats); i++)
		if (strcasecmp(ext, formats[i]) == 0)
			return formats[i];
	return NULL;
}

/* ---- the three ways out, each through a sink ---- */

/* The scene's DOT text into m. */
static int dot_in_memory(struct membuf *m, const struct scene *c,
			 struct ibtopo_error *err)
{
	struct ibtopo_sink o = { .version = IBTOPO_SINK_VERSION,
				 .write = membuf_write,
				 .write_arg = m };

	return scene_dot(&o, c, err);
}

/* SVG, PNG or PDF: the DOT text laid out by graphviz. */
static int write_picture(const struct ibtopo_sink *o, const char *format,
			 const struct scene *c, struct ibtopo_error *err)
{
	struct membuf m = { NULL, 0, 0 };
	char *data = NULL;
	size_t len = 0;
	int rc;

	rc = dot_in_memory(&m, c, err);
	if (!rc)
		rc = ibtopo__diagram_render(m.buf, format, &data, &len, err);
	if (!rc && len && o->write(o->write_arg, data, len))
		rc = ibtopo__error_set(err, IBTOPO_EIO,
				       "cannot write the diagram");
	ibtopo__diagram_free_render(data);
	free(m.buf);
	return rc;
}

/* The page: the scene drawn as SVG with edge ids, and its data. */
static int write_page(const struct ibtopo_sink *o, const struct scene *c,
		      struct ibtopo_error *err)
{
	struct membuf m = { NULL, 0, 0 };
	char *svg = NULL;
	size_t len = 0;
	int rc;

	rc = dot_in_memory(&m, c, err);
	if (!rc)
		rc = ibtopo__diagram_render(m.buf, "svg", &svg, &len, err);
	if (!rc)
		rc = ibtopo__diagram_html(o, c, svg, len, err);
	ibtopo__diagram_free_render(svg);
	free(m.buf);
	return rc;
}

int ibtopo_diagram_write(const struct ibtopo_sink *o, const char *format,
			 struct ibtopo_analysis *an,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err)
{
	const char *fmt = format ? format_of(NULL, format) : NULL;
	struct scene c = { 0 };
	int rc;

	if (!o || !o->write || !ibtopo_analysis_fabric(an))
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"no analysis or output for the diagram");
	if (!fmt)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"unknown image format '%s' (svg, png, pdf, dot or html)",
			format ? format : "");
	rc = scene_open(&c, an, d, err);
	if (!rc) {
		c.edge_ids = strcmp(fmt, "html") == 0;
		if (c.edge_ids)
			rc = write_page(o, &c, err);
		else if (strcmp(fmt, "dot") == 0)
			rc = scene_dot(o, &c, err);
		else
			rc = write_picture(o, fmt, &c, err);
	}
	ibtopo__diagram_scene_release(&c);
	return rc;
}

int ibtopo_diagram_dot(const struct ibtopo_sink *o, struct ibtopo_analysis *an,
		       const struct ibtopo_diagram_opts *d,
		       struct ibtopo_error *err)
{
	return ibtopo_diagram_write(o, "dot", an, d, err);
}

int ibtopo_diagram_image(const char *out_path, const char *format,
			 struct ibtopo_analysis *an,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err)
{
	struct ibtopo_sink o = { .version = IBTOPO_SINK_VERSION,
				 .write = ibtopo_write_file };
	const char *fmt;
	FILE *f;
	int rc, bad;

	if (!out_path || !ibtopo_analysis_fabric(an))
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"no analysis or output fname for the diagram");
	fmt = format_of(out_path, format);
	if (!fmt) {
		if (format)
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"unknown image format '%s' (svg, png, pdf, dot or html)",
				format);
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"cannot tell the image format of '%s' "
			"(name it .svg, .png, .pdf, .dot or .html)",
			out_path);
	}
	f = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
	if (!f)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write '%s': %s", out_path,
					 strerror(errno));
	o.write_arg = f;
	rc = ibtopo_diagram_write(&o, fmt, an, d, err);
	bad = ferror(f) | (f == stdout ? fflush(f) : fclose(f));
	if (!rc && bad)
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write '%s': %s",
				       out_path, strerror(errno));
	return rc;
}
