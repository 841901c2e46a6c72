/*
 * diagram_layout.c - DOT text to SVG, PNG or PDF in memory through libgvc,
 * in process (diagram.c writes the files and hands the SVG to the page).
 * The only file including <gvc.h>/<cgraph.h>: graphviz enters here.
 *
 * Graphviz reports problems through agerr(), which prints to stderr by
 * default; a library must not print, so a handler collects them while a
 * diagram is drawn and the last one becomes the error message. That
 * handler and graphviz's own state are global: not thread-safe.
 *
 * One graphviz context serves the whole process. graphviz 2.42's pango
 * plugin keeps a static pointer to the last font name, which lives in the
 * context: a second context makes it read freed memory (AddressSanitizer
 * caught it on the second image of a run). The context stays reachable
 * until exit, like graphviz's own plugin state.
 */
#include "diagram/diagram-int.h"

#include <gvc.h>
#include <cgraph.h>

#include <stdlib.h>
#include <string.h>

/* ---- graphviz messages ---- */

static char gv_msg[IBTOPO_ERROR_SIZE];

static int gv_collect(char *msg)
{
	size_t n;

	/* keep the last non-empty line, without its newline */
	while (*msg == ' ' || *msg == '\n')
		msg++;
	if (!*msg)
		return 0;
	snprintf(gv_msg, sizeof(gv_msg), "%s", msg);
	n = strlen(gv_msg);
	while (n && (gv_msg[n - 1] == '\n' || gv_msg[n - 1] == ' '))
		gv_msg[--n] = '\0';
	/* "Layout type: "dot" not recognized. Use one of:" lists nothing
	 * when no plugin loaded: drop the empty list */
	if (n > 12 && strcmp(gv_msg + n - 12, " Use one of:") == 0)
		gv_msg[n - 12] = '\0';
	return 0;
}

static const char *gv_last(void)
{
	return gv_msg[0] ? gv_msg : "no message from graphviz";
}

static GVC_t *gv_context(void)
{
	static GVC_t *gvc;

	if (!gvc)
		gvc = gvContext();
	return gvc;
}

/*
 * Cairo's time for a bitmap grows with the edges drawn times the image's
 * size: the 101k-host fat tree (205,350 edges) took 121 s of CPU and 1 GB
 * as a 13,700-pixel PNG. Its long side gets at most this many pixels
 * over the edges (2,900 there; 94,000 for 6,400 edges, no limit then).
 */
#define PNG_EDGE_PIXELS 6e8
#define PNG_DPI 96.0
/*
 * And never more than this on either side: viewers and browsers refuse,
 * or shrink to a blur, a 25,000-pixel PNG (a --focus on 79 leaves). 8,000
 * less graphviz's margin and rounding.
 */
#define PNG_MAX_SIDE 7900.0

/* A size attribute for graph g drawn as `format`, if it needs one. */
static void limit_bitmap(Agraph_t *g, const char *format)
{
	char size[64];
	int ne = agnedges(g);
	double side = PNG_MAX_SIDE;

	if (strcmp(format, "png") != 0)
		return;
	/* size only scales a bigger drawing down */
	if (ne > 0 && PNG_EDGE_PIXELS / ne < side)
		side = PNG_EDGE_PIXELS / ne;
	snprintf(size, sizeof(size), "%.1f,%.1f", side / PNG_DPI,
		 side / PNG_DPI);
	agsafeset(g, "size", size, "");
}

int ibtopo__diagram_render(const char *dot, const char *format, char **out,
			   size_t *out_len, struct ibtopo_error *err)
{
	agusererrf old_handler;
	GVC_t *gvc;
	Agraph_t *g;
	const char *engine;
	char *data = NULL;
	unsigned int len = 0;
	int rc = 0;

	*out = NULL;
	*out_len = 0;
	gv_msg[0] = '\0';
	old_handler = agseterrf(gv_collect);
	gvc = gv_context();
	if (!gvc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
				       "graphviz: cannot create a context");
		goto out_restore;
	}
	g = agmemread(dot);
	if (!g) {
		rc = ibtopo__error_set(err, IBTOPO_ERROR,
				       "graphviz cannot read the diagram: %s",
				       gv_last());
		goto out_restore;
	}
	limit_bitmap(g, format);
	engine = agget(g, "layout");
	if (!engine || !*engine)
		engine = "dot";
	if (gvLayout(gvc, g, engine) != 0) {
		rc = ibtopo__error_set(err, IBTOPO_ERROR,
				       "graphviz layout '%s' failed: %s "
				       "(is graphviz configured? run 'dot -c')",
				       engine, gv_last());
		goto out_close_graph;
	}
	if (gvRenderData(gvc, g, format, &data, &len) != 0 || !data) {
		rc = ibtopo__error_set(err, IBTOPO_ERROR,
				       "graphviz cannot write '%s': %s "
				       "(is graphviz configured? run 'dot -c')",
				       format, gv_last());
		goto out_free_layout;
	}
	*out = data;
	*out_len = len;
out_free_layout:
	gvFreeLayout(gvc, g);
out_close_graph:
	agclose(g);
out_restore:
	agseterrf(old_handler);
	return rc;
}

void ibtopo__diagram_free_render(char *data)
{
	if (data)
		gvFreeRenderData(data);
}
