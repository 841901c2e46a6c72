/*
 * diagram.c - the entry points of lib/diagram, on top of its other files:
 * a diagram as DOT text through a sink, and the image dispatcher, which
 * sends each output where it is made: DOT written as is, SVG, PNG and
 * PDF laid out by graphviz (diagram_layout.c), HTML as a page around the
 * SVG (diagram_html.c). The layout and the page never call each other.
 */
#include "diagram/diagram-int.h"

#include <errno.h>
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
static int scene_open(struct scene *c, const struct ibtopo_fabric *f,
		      const struct ibtopo_diagram_opts *d,
		      struct ibtopo_error *err)
{
	static const struct ibtopo_diagram_opts defaults =
		IBTOPO_DIAGRAM_OPTS_INIT;

	if (!d)
		d = &defaults;
	if (d->version != IBTOPO_DIAGRAM_OPTS_VERSION)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"diagram options version %u not supported", d->version);
	return ibtopo__diagram_scene_build(c, f, d, err);
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

int ibtopo_diagram_dot(const struct ibtopo_sink *o,
		       const struct ibtopo_fabric *f,
		       const struct ibtopo_diagram_opts *d,
		       struct ibtopo_error *err)
{
	struct scene c = { 0 };
	int rc;

	if (!o || !o->write || !f)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or output for the diagram");
	rc = scene_open(&c, f, d, err);
	if (!rc)
		rc = scene_dot(o, &c, err);
	ibtopo__diagram_scene_release(&c);
	return rc;
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

static int open_out(FILE **out, const char *fname, struct ibtopo_error *err)
{
	if (strcmp(fname, "-") == 0) {
		*out = stdout;
		return 0;
	}
	*out = fopen(fname, "wb");
	if (!*out)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write '%s': %s", fname,
					 strerror(errno));
	return 0;
}

static int close_out(FILE *f, const char *fname, int rc,
		     struct ibtopo_error *err)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad && !rc)
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write '%s': %s",
				       fname, strerror(errno));
	return rc;
}

/* ---- the three ways out ---- */

/* DOT text straight into the file. */
static int write_dot_file(const char *fname, const struct ibtopo_fabric *f,
			  const struct ibtopo_diagram_opts *d,
			  struct ibtopo_error *err)
{
	struct ibtopo_sink o = { .version = IBTOPO_SINK_VERSION,
				 .write = ibtopo_write_file };
	FILE *file;
	int rc;

	rc = open_out(&file, fname, err);
	if (rc)
		return rc;
	o.write_arg = file;
	rc = ibtopo_diagram_dot(&o, f, d, err);
	return close_out(file, fname, rc, err);
}

/* Lay out DOT text and write the picture in `format` to `fname`. */
static int draw(const char *dot, const char *fname, const char *format,
		struct ibtopo_error *err)
{
	char *data;
	size_t len;
	FILE *f;
	int rc;

	rc = ibtopo__diagram_render(dot, format, &data, &len, err);
	if (rc)
		return rc;
	rc = open_out(&f, fname, err);
	if (rc)
		goto out_free_data;
	if (len && fwrite(data, 1, len, f) != len)
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write '%s': %s",
				       fname, strerror(errno));
	rc = close_out(f, fname, rc, err);
out_free_data:
	ibtopo__diagram_free_render(data);
	return rc;
}

/* The scene of f drawn with d into *c, and its DOT text into m. */
static int dot_in_memory(struct membuf *m, struct scene *c,
			 const struct ibtopo_fabric *f,
			 const struct ibtopo_diagram_opts *d, bool edge_ids,
			 struct ibtopo_error *err)
{
	struct ibtopo_sink o = { .version = IBTOPO_SINK_VERSION,
				 .write = membuf_write,
				 .write_arg = m };
	int rc;

	rc = scene_open(c, f, d, err);
	if (rc)
		return rc;
	c->edge_ids = edge_ids;
	return scene_dot(&o, c, err);
}

/* SVG, PNG or PDF: the DOT text laid out by graphviz. */
static int write_picture(const char *fname, const char *format,
			 const struct ibtopo_fabric *f,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err)
{
	struct membuf m = { NULL, 0, 0 };
	struct scene c = { 0 };
	int rc;

	rc = dot_in_memory(&m, &c, f, d, false, err);
	ibtopo__diagram_scene_release(&c);
	if (!rc)
		rc = draw(m.buf, fname, format, err);
	free(m.buf);
	return rc;
}

/* The page: the scene drawn as SVG with edge ids, and its data. */
static int write_page(const char *fname, const struct ibtopo_fabric *f,
		      const struct ibtopo_diagram_opts *d,
		      struct ibtopo_error *err)
{
	struct membuf m = { NULL, 0, 0 };
	struct scene c = { 0 };
	char *svg = NULL;
	size_t len = 0;
	int rc;

	rc = dot_in_memory(&m, &c, f, d, true, err);
	if (!rc)
		rc = ibtopo__diagram_render(m.buf, "svg", &svg, &len, err);
	if (!rc)
		rc = ibtopo__diagram_html(fname, &c, svg, len, err);
	ibtopo__diagram_free_render(svg);
	free(m.buf);
	ibtopo__diagram_scene_release(&c);
	return rc;
}

int ibtopo_diagram_image(const char *out_path, const char *format,
			 const struct ibtopo_fabric *f,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err)
{
	const char *fmt;

	if (!out_path || !f)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"no fabric or output fname for the diagram");
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
	if (strcmp(fmt, "html") == 0)
		return write_page(out_path, f, d, err);
	if (strcmp(fmt, "dot") == 0)
		return write_dot_file(out_path, f, d, err);
	return write_picture(out_path, fmt, f, d, err);
}
