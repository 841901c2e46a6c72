/*
 * diagram_dot.c - fabric diagrams as DOT text: the scene (diagram_scene.c)
 * written in its order, with the colours, shapes and words each kind,
 * category and mark is drawn with, escaped for DOT.
 *
 * The output is a pure function of the scene: numbers are printed with
 * fixed precision and nothing depends on addresses or the clock, so the
 * same input gives the same bytes (golden tests rely on it). Graphviz
 * itself is only called from diagram_layout.c.
 */
#include "diagram/diagram-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Most nodes for which sfdp's overlap removal (prism) may take all its
 * 1,000 passes. On 9,583 nodes (101k hosts collapsed) it took 135 of
 * them, 25 s; 20 passes take 3 s and leave a dozen pairs touching.
 */
#define PRISM_FULL_MAX 4000

static const struct {
	const char *color;
	const char *style; /* NULL = solid */
	const char *legend;
} cats[CAT_MAX_] = {
	[CAT_OK] = { "#555555", NULL, "link (line width: bandwidth)" },
	[CAT_CHANGED] = { "#1f77b4", NULL, "speed or width changed" },
	[CAT_ADDED] = { "#2ca02c", NULL, "added link" },
	[CAT_EXTRA] = { "#17becf", NULL, "link not in the plan" },
	[CAT_TOPO] = { "#9467bd", NULL, "breaks a fat-tree rule" },
	[CAT_MISWIRED] = { "#e377c2", NULL, "miswired (wrong peer)" },
	[CAT_CABLE] = { "#ff7f0e", NULL, "cable problem" },
	[CAT_DOWN] = { "#d62728", NULL, "downgraded link" },
	[CAT_CARRIED] = { "#e6550d", NULL,
			  "carries routes across the failure" },
	[CAT_JOB] = { "#08519c", NULL, "the job's link" },
	[CAT_FAILED] = { "#000000", "dotted", "fails (whatif)" },
	[CAT_REMOVED] = { "#d62728", "dashed", "removed link" },
	[CAT_MISSING] = { "#d62728", "dashed", "planned link missing" },
};

/* Heat map: ColorBrewer YlOrRd (sequential, colour-blind safe), its six
 * classes but the palest, which white paper hides. */
static const char *const heat_colors[IBTOPO_HEAT_STEPS] = {
	"#fed976", "#feb24c", "#fd8d3c", "#f03b20", "#bd0026",
};

/* Is e drawn in the colour of its routes? Ghosts are not cables. */
static bool heat_edge(const struct scene *c, const struct dedge *e)
{
	return c->heat && !ibtopo__diagram_is_ghost_cat(e->cat);
}

const char *ibtopo__diagram_cat_name(enum cat k)
{
	return k < CAT_MAX_ ? cats[k].legend : "";
}

static const char *speed_text(unsigned speed, unsigned width, char *buf,
			      size_t len)
{
	if (!speed)
		snprintf(buf, len, "%s", "");
	else if (!width || width == IBTOPO_WIDTH_4X)
		snprintf(buf, len, "%s", ibtopo_speed_name(speed));
	else
		snprintf(buf, len, "%s%s", ibtopo_width_name(width),
			 ibtopo_speed_name(speed));
	return buf;
}

/* A DOT quoted string: "..." with \" and \\ escaped, newlines as \n. */
static void put_q(struct ibtopo__wr *w, const char *s)
{
	char buf[256];
	size_t k = 0;

	ibtopo__wr_puts(w, "\"");
	for (; s && *s; s++) {
		if (k + 3 >= sizeof(buf)) {
			buf[k] = '\0';
			ibtopo__wr_puts(w, buf);
			k = 0;
		}
		if (*s == '"' || *s == '\\') {
			buf[k++] = '\\';
			buf[k++] = *s;
		} else if (*s == '\n') {
			buf[k++] = '\\';
			buf[k++] = 'n';
		} else if ((unsigned char)*s < 0x20) {
			buf[k++] = ' ';
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	ibtopo__wr_puts(w, buf);
	ibtopo__wr_puts(w, "\"");
}

/*
 * Text in HTML: & < > " escaped; in a graphviz HTML-like label (label)
 * control characters become blanks too.
 */
void ibtopo__diagram_put_html(struct ibtopo__wr *w, const char *s, bool label)
{
	char buf[256];
	size_t k = 0;

	for (; s && *s; s++) {
		const char *rep = NULL;

		if (k + 8 >= sizeof(buf)) {
			buf[k] = '\0';
			ibtopo__wr_puts(w, buf);
			k = 0;
		}
		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		default:
			if (label && (unsigned char)*s < 0x20)
				rep = " ";
			break;
		}
		if (rep) {
			memcpy(buf + k, rep, strlen(rep));
			k += strlen(rep);
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	ibtopo__wr_puts(w, buf);
}

/* Text inside an HTML-like label. */
static void put_label(struct ibtopo__wr *w, const char *s)
{
	ibtopo__diagram_put_html(w, s, true);
}

static void write_subtitle(struct ibtopo__wr *w, const struct scene *c)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(c->f);
	const char *sep = "";
	size_t nsw, nhost;
	char date[64];
	struct tm tm;
	/* the title names the snapshot unless --title took its place */
	bool titled = c->d->title != NULL;

	if (titled && m->snapshot_id > 0) {
		ibtopo__wr_printf(w, "snapshot %lld",
				  (long long)m->snapshot_id);
		sep = " \xc2\xb7 ";
	}
	if (titled && m->label) {
		ibtopo__wr_puts(w, m->snapshot_id > 0 ? " " : "");
		ibtopo__wr_puts(w, "\xe2\x80\x9c");
		put_label(w, m->label);
		ibtopo__wr_puts(w, "\xe2\x80\x9d");
		sep = " \xc2\xb7 ";
	}
	if (m->taken_at > 0 && gmtime_r(&m->taken_at, &tm) &&
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm)) {
		ibtopo__wr_printf(w, "%s%s", sep, date);
		sep = " \xc2\xb7 ";
	}
	nsw = ibtopo_fabric_count_type(c->f, IBTOPO_NODE_SWITCH);
	nhost = ibtopo_fabric_count_type(c->f, IBTOPO_NODE_CA) +
		ibtopo_fabric_count_type(c->f, IBTOPO_NODE_ROUTER) - c->nsharp;
	ibtopo__wr_printf(w, "%s%zu switch%s, %zu host%s", sep, nsw,
			  nsw == 1 ? "" : "es", nhost, nhost == 1 ? "" : "s");
	if (c->nsharp)
		ibtopo__wr_printf(w, " (+%zu SHARP)", c->nsharp);
	ibtopo__wr_printf(w, ", %zu link%s", c->nl, c->nl == 1 ? "" : "s");
	if (m->partial)
		ibtopo__wr_puts(w, " (PARTIAL)");
	if (c->focus)
		ibtopo__wr_printf(w, " \xc2\xb7 around %s, %u hop%s",
				  c->focus_label, c->depth,
				  c->depth == 1 ? "" : "s");
	if (c->collapse)
		ibtopo__wr_puts(w, " \xc2\xb7 hosts collapsed per switch");
	if (c->groups)
		ibtopo__wr_puts(
			w,
			" \xc2\xb7 switches in groups, hosts counted in them");
}

/* Legend entries: a sample cell, then words. */
struct litem {
	char attrs[96];	    /* of the sample cell */
	const char *color;  /* of the sample's text */
	const char *sample; /* HTML */
	char text[128];
	int size; /* sample's point size before scaling */
};

#define LEGEND_MAX 24
#define LEGEND_PER_ROW 4

#define SOLID "<B>\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81</B>"  /* ━━━ */
#define DASHED "<B>\xe2\x95\x8d\xe2\x95\x8d\xe2\x95\x8d</B>" /* ╍╍╍ */

static struct litem *legend_add(struct litem *it, size_t *n, const char *color,
				const char *sample, int size, const char *text)
{
	struct litem *x;
	size_t len;

	if (*n == LEGEND_MAX)
		return NULL;
	x = &it[(*n)++];
	x->attrs[0] = '\0';
	x->color = color;
	x->sample = sample;
	x->size = size;
	/* cut to fit, as a legend line may be (not a -Wformat-truncation) */
	len = strnlen(text, sizeof(x->text) - 1);
	memcpy(x->text, text, len);
	x->text[len] = '\0';
	return x;
}

static void legend_line(struct litem *it, size_t *n, const char *color,
			bool dashed, const char *text)
{
	legend_add(it, n, color, dashed ? DASHED : SOLID, 12, text);
}

/* A node sample: a filled cell with a border of the mark's colour. */
static void legend_box(struct litem *it, size_t *n, const char *fill,
		       const char *border, int width, const char *word,
		       const char *text)
{
	struct litem *x = legend_add(it, n, "#000000", word, 9, text);

	if (x)
		snprintf(x->attrs, sizeof(x->attrs),
			 " BGCOLOR=\"%s\" BORDER=\"%d\" COLOR=\"%s\"", fill,
			 width, border);
}

/* Counters heat map: a cable's measure as its tooltip says it. */
static const char *heat_text(const struct scene *c, double load, char *buf,
			     size_t len)
{
	switch (c->d->heat_kind) {
	case IBTOPO_HEAT_ERRORS:
		snprintf(buf, len, "errors %.0f", load);
		break;
	case IBTOPO_HEAT_BER:
		snprintf(buf, len, "BER %.2g of its threshold", load);
		break;
	case IBTOPO_HEAT_TRAFFIC:
		snprintf(buf, len, "%.1f%% of its capacity", load * 100);
		break;
	default:
		snprintf(buf, len, "waiting %.2g of the threshold", load);
		break;
	}
	return buf;
}

/* Counters heat map: what is measured, then a line per step. */
static void legend_counters(struct litem *it, size_t *n, const struct scene *c)
{
	static const char *const what[] = {
		[IBTOPO_HEAT_ERRORS] = "error counters per cable, the worse "
				       "end: growth since the earlier "
				       "snapshot, else the count",
		[IBTOPO_HEAT_BER] = "bit error rate per cable, the worse "
				    "direction, against the threshold for "
				    "its speed",
		[IBTOPO_HEAT_TRAFFIC] = "traffic per cable, the busier "
					"direction, against its capacity",
		[IBTOPO_HEAT_CONGESTION] = "capacity lost to PortXmitWait, the "
					   "worse end, against the threshold",
	};
	static const char *const steps[][IBTOPO_HEAT_STEPS] = {
		[IBTOPO_HEAT_ERRORS] = { "clean", "1 to 9", "10 to 99",
					 "100 to 999", "1000 or more" },
		[IBTOPO_HEAT_BER] = { "no symbol errors", "to 1/100",
				      "1/100 to 1/10", "1/10 to the threshold",
				      "above the threshold" },
		[IBTOPO_HEAT_TRAFFIC] = { "to 10%", "10 to 25%", "25 to 50%",
					  "50 to 75%", "above 75%" },
		[IBTOPO_HEAT_CONGESTION] = { "to 1/100", "1/100 to 1/10",
					     "1/10 to 1/2",
					     "1/2 to the threshold",
					     "above the threshold" },
	};
	unsigned k = c->d->heat_kind;
	char text[160];

	snprintf(text, sizeof(text), "%s (%s: its worst)", what[k],
		 c->groups ? "a bundle" : "parallel cables");
	legend_add(it, n, "#555555", "<B>heat</B>", 10, text);
	for (unsigned s = 0; s < IBTOPO_HEAT_STEPS; s++)
		legend_line(it, n, heat_colors[s], false, steps[k][s]);
}

/* Heat map: the scale, a line per step of load against perfect balance,
 * and what balance is in routes. */
static void legend_heat(struct litem *it, size_t *n, const struct scene *c)
{
	char text[128], num[48];

	if (!c->lroutes) {
		legend_counters(it, n, c);
		return;
	}

	snprintf(text, sizeof(text),
		 "CA routes per cable, busier way (%s: its busiest), "
		 "against perfect balance",
		 c->groups ? "a bundle" : "parallel cables");
	legend_add(it, n, "#555555", "<B>heat</B>", 10, text);
	if (c->balance_min == c->balance_max)
		snprintf(num, sizeof(num), "%" PRIu64, c->balance_max);
	else
		snprintf(num, sizeof(num), "%" PRIu64 " to %" PRIu64,
			 c->balance_min, c->balance_max);
	snprintf(text, sizeof(text),
		 "perfect balance: %.40s routes a port (a level's routes one "
		 "way spread evenly over its ports)",
		 num);
	legend_add(it, n, "#555555", "<B>1\xc3\x97</B>", 10, text);
	for (unsigned k = 0; k < IBTOPO_HEAT_STEPS; k++) {
		double lo = k ? ibtopo__diagram_heat_bound(c, k - 1) : 0;

		if (!k)
			snprintf(text, sizeof(text),
				 "balanced or under (to %g\xc3\x97)",
				 ibtopo__diagram_heat_bound(c, 0));
		else if (k + 1 == IBTOPO_HEAT_STEPS)
			snprintf(text, sizeof(text), "over %g\xc3\x97", lo);
		else
			snprintf(text, sizeof(text), "%g\xc3\x97 to %g\xc3\x97",
				 lo, ibtopo__diagram_heat_bound(c, k));
		legend_line(it, n, heat_colors[k], false, text);
	}
}

/* The legend's boxes for node marks, after the low path diversity. */
static const struct mark_box {
	unsigned mark;
	const char *fill, *border;
	int pen;
	const char *word, *text;
} mark_boxes[] = {
	{ MARK_TOPO, "#deebf7", "#9467bd", 2, "switch",
	  "breaks a fat-tree rule" },
	{ MARK_FAILED, "#ffffff", "#000000", 3, "node", "fails (whatif)" },
	{ MARK_JOB, "#ffffff", "#08519c", 3, "host", "the job's host" },
	{ MARK_ADDED, "#ffffff", "#2ca02c", 2, "node", "added node" },
	{ MARK_EXTRA, "#ffffff", "#17becf", 2, "node", "node not in the plan" },
	{ MARK_REMOVED, "#ffffff", "#d62728", 1, "node",
	  "removed node, dashed" },
	{ MARK_MISSING, "#ffffff", "#d62728", 1, "node",
	  "planned node missing, dashed" },
};

/* Marks that are one finding a node (diff, validate): counted as they
 * count them. */
#define NODE_FINDING_MARKS \
	(MARK_ADDED | MARK_EXTRA | MARK_REMOVED | MARK_MISSING)

static size_t count_marked(const struct scene *c, unsigned mark)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ndn; i++)
		n += (c->dn[i].marks & mark) != 0;
	return n;
}

/*
 * A category's legend line and its cables, counted as validate and diff
 * count them: a gone or missing node's links are its node's finding,
 * not links of their own.
 */
static void cat_legend(const struct scene *c, enum cat k, char *text,
		       size_t len)
{
	const char *whose = k == CAT_REMOVED ? "a removed node's links" :
					       "a missing node's planned links";

	if (!(c->node_cats & (1u << k)))
		snprintf(text, len, "%s (%zu)", cats[k].legend, c->ncats[k]);
	else if (!c->ncats[k])
		snprintf(text, len, "%s", whose);
	else
		snprintf(text, len, "%s (%zu), and %s", cats[k].legend,
			 c->ncats[k], whose);
}

static void write_legend(struct ibtopo__wr *w, const struct scene *c)
{
	struct litem it[LEGEND_MAX];
	size_t n = 0;
	char st[32], text[128];

	legend_box(it, &n, "#deebf7", "#000000", 1, "switch", "switch");
	if (c->used_kinds & (1u << DN_SWGROUP))
		legend_box(it, &n, "#deebf7", "#000000", 2, "N leaves",
			   "switches alike, or a director");
	if (c->used_marks & MARK_FAULT)
		legend_box(it, &n, "#deebf7", "#d62728", 2, "group",
			   "holds a problem (table below)");
	if (c->used_kinds & (1u << DN_GROUP))
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "N hosts",
			   "hosts on the same switches");
	if (c->used_kinds & (1u << DN_HOST | 1u << DN_BLOCK))
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "host",
			   "host (CA)");
	if (c->heat)
		legend_heat(it, &n, c);
	for (int k = 0; k < CAT_MAX_; k++) {
		/* a heat map's colours take the place of the findings' (a
		 * finding stays in its link's tooltip): only ghosts keep
		 * theirs, and the legend lists what is drawn */
		if (c->heat && !ibtopo__diagram_is_ghost_cat((enum cat)k))
			continue;
		if (k == CAT_OK) {
			legend_line(it, &n, cats[k].color, false,
				    cats[k].legend);
			continue;
		}
		if (!(c->used_cats & (1u << k)))
			continue;
		cat_legend(c, (enum cat)k, text, sizeof(text));
		legend_line(it, &n, cats[k].color, cats[k].style != NULL, text);
	}
	if (c->used_marks & MARK_LOWPATH)
		legend_box(it, &n, "#deebf7", "#d62728", 2, "node",
			   "low path diversity");
	if (c->lowpath_hosts) {
		snprintf(
			text, sizeof(text),
			"%zu of %zu host%s: one link or one switch (not marked)",
			c->lowpath_hosts, c->hosts, c->hosts == 1 ? "" : "s");
		legend_box(it, &n, "#f2f2f2", "#000000", 1, "host", text);
	}
	for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(mark_boxes); k++) {
		const struct mark_box *b = &mark_boxes[k];

		if (!(c->used_marks & b->mark))
			continue;
		if (b->mark & NODE_FINDING_MARKS)
			snprintf(text, sizeof(text), "%s (%zu)", b->text,
				 count_marked(c, b->mark));
		else
			snprintf(text, sizeof(text), "%s", b->text);
		legend_box(it, &n, b->fill, b->border, b->pen, b->word, text);
	}
	if (c->groups)
		snprintf(text, sizeof(text),
			 "N cables between two nodes, "
			 "their bandwidth");
	else if (c->usual_count > 1)
		snprintf(text, sizeof(text),
			 "N parallel cables (unlabelled "
			 "switch links: %zu)",
			 c->usual_count);
	else
		snprintf(text, sizeof(text), "N parallel cables");
	legend_add(it, &n, "#555555", "<B>\xc3\x97N</B>", 12, text);
	if (c->sw_speed || c->host_speed) {
		snprintf(text, sizeof(text), "speed shown where not %s",
			 speed_text(c->sw_speed ? c->sw_speed : c->host_speed,
				    c->sw_speed ? c->sw_width : c->host_width,
				    st, sizeof(st)));
		if (c->sw_speed && c->host_speed &&
		    (c->host_speed != c->sw_speed ||
		     c->host_width != c->sw_width)) {
			size_t k = strlen(text);

			snprintf(text + k, sizeof(text) - k, " (hosts: %s)",
				 speed_text(c->host_speed, c->host_width, st,
					    sizeof(st)));
		}
		legend_add(it, &n, "#555555", "<B>EDR</B>", 10, text);
	}
	ibtopo__wr_puts(w, "\t\t<TR><TD><TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" "
			   "CELLBORDER=\"0\" CELLSPACING=\"4\">\n");
	for (size_t i = 0; i < n; i++) {
		if (i % LEGEND_PER_ROW == 0)
			ibtopo__wr_puts(w, "\t\t\t<TR>");
		ibtopo__wr_printf(
			w,
			"<TD%s><FONT POINT-SIZE=\"%.0f\" COLOR=\"%s\">%s</FONT>"
			"</TD><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"%.0f\">",
			it[i].attrs, it[i].size * c->scale, it[i].color,
			it[i].sample, 12 * c->scale);
		put_label(w, it[i].text);
		ibtopo__wr_puts(w, "</FONT></TD>");
		if (i % LEGEND_PER_ROW == LEGEND_PER_ROW - 1 || i + 1 == n)
			ibtopo__wr_puts(w, "</TR>\n");
	}
	ibtopo__wr_puts(w, "\t\t</TABLE></TD></TR>\n");
}

/* Most groups the table of problems names. */
#define FAULT_ROWS 20

/* The overview: which groups hold problems, and what they are. */
static void write_faults(struct ibtopo__wr *w, const struct scene *c)
{
	size_t rows = 0, more = 0;
	char text[400];

	for (size_t g = 0; g < c->nsg; g++) {
		const struct sgroup *s = &c->sg[g];
		size_t k = 0;

		if (!(s->marks & MARK_FAULT))
			continue;
		if (rows == FAULT_ROWS) {
			more++;
			continue;
		}
		if (!rows)
			ibtopo__wr_printf(
				w,
				"\t\t<TR><TD><TABLE BORDER=\"1\" "
				"COLOR=\"#d62728\" CELLBORDER=\"0\" "
				"CELLSPACING=\"2\"><TR><TD COLSPAN=\"2\">"
				"<FONT POINT-SIZE=\"%.0f\"><B>where the problems "
				"are</B></FONT></TD></TR>\n",
				12 * c->scale);
		rows++;
		text[0] = '\0';
		for (int x = CAT_MAX_ - 1; x > CAT_OK; x--)
			if (s->ncat[x] && k < sizeof(text))
				k += (size_t)snprintf(
					text + k, sizeof(text) - k,
					"%s%s \xc3\x97%zu (at %s%s)",
					k ? "; " : "", cats[x].legend,
					s->ncat[x], s->where[x],
					s->ncat[x] > 1 ? ", \xe2\x80\xa6" : "");
		if (s->marks & MARK_LOWPATH && k < sizeof(text))
			k += (size_t)snprintf(text + k, sizeof(text) - k,
					      "%slow path diversity",
					      k ? "; " : "");
		if (s->marks & MARK_TOPO && !s->ncat[CAT_TOPO] &&
		    k < sizeof(text))
			snprintf(text + k, sizeof(text) - k,
				 "%sbreaks a fat-tree rule", k ? "; " : "");
		ibtopo__wr_printf(w,
				  "\t\t\t<TR><TD ALIGN=\"LEFT\"><FONT "
				  "POINT-SIZE=\"%.0f\" COLOR=\"#d62728\"><B>",
				  12 * c->scale);
		put_label(w, s->name);
		ibtopo__wr_printf(w,
				  "</B></FONT></TD><TD ALIGN=\"LEFT\"><FONT "
				  "POINT-SIZE=\"%.0f\">",
				  12 * c->scale);
		put_label(w, text);
		ibtopo__wr_puts(w, "</FONT></TD></TR>\n");
	}
	if (more)
		ibtopo__wr_printf(
			w,
			"\t\t\t<TR><TD COLSPAN=\"2\"><FONT "
			"POINT-SIZE=\"%.0f\">and %zu more</FONT></TD></TR>\n",
			12 * c->scale, more);
	if (rows)
		ibtopo__wr_puts(w, "\t\t</TABLE></TD></TR>\n");
}

static void write_label(struct ibtopo__wr *w, const struct scene *c)
{
	const struct ibtopo_diagram_opts *d = c->d;
	char title[512];

	ibtopo__wr_puts(w, "\tlabel=<<TABLE BORDER=\"0\" CELLSPACING=\"2\">\n");
	ibtopo__wr_printf(w, "\t\t<TR><TD><FONT POINT-SIZE=\"%.0f\"><B>",
			  22 * c->scale);
	put_label(w, ibtopo__diagram_title(c, title, sizeof(title)));
	ibtopo__wr_puts(w, "</B></FONT></TD></TR>\n");
	ibtopo__wr_printf(w, "\t\t<TR><TD><FONT POINT-SIZE=\"%.0f\">",
			  13 * c->scale);
	if (d->subtitle)
		put_label(w, d->subtitle);
	else
		write_subtitle(w, c);
	ibtopo__wr_puts(w, "</FONT></TD></TR>\n");
	if (!(d->flags & IBTOPO_DIAGRAM_NO_LEGEND))
		write_legend(w, c);
	if (c->groups)
		write_faults(w, c);
	ibtopo__wr_puts(w, "\t</TABLE>>;\n");
}

static const char *switch_fill(int level, int top)
{
	if (level >= top && top > 1)
		return "#9ecae1";
	if (level > 1)
		return "#c6dbef";
	return "#deebf7";
}

/* Hosts as the cells of a table; problems colour their cell. */
static void write_block(struct ibtopo__wr *w, const struct scene *c,
			const struct dnode *d, const char *id)
{
	size_t cols = d->cols;

	ibtopo__wr_printf(
		w,
		"\t%s [shape=plain, style=solid, label=<<TABLE BORDER=\"1\" "
		"COLOR=\"#888888\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
		"CELLPADDING=\"2\" BGCOLOR=\"#f2f2f2\">",
		id);
	ibtopo__wr_printf(w,
			  "<TR><TD COLSPAN=\"%zu\"><FONT POINT-SIZE=\"8\" "
			  "COLOR=\"#666666\">%zu host%s</FONT></TD></TR>",
			  cols, d->nhosts, d->nhosts == 1 ? "" : "s");
	for (size_t i = 0; i < d->nhosts; i++) {
		const struct ibtopo_node *n = d->cells[i].node;
		unsigned m = d->cells[i].marks;
		/* a heat map colours the links, not the findings' cells */
		enum cat k = c->heat ? CAT_OK : d->cells[i].cat;

		if (i % cols == 0)
			ibtopo__wr_puts(w, "<TR>");
		ibtopo__wr_printf(w, "<TD PORT=\"p%016" PRIx64 "\"", n->guid);
		if (m & (MARK_FAILED | MARK_JOB))
			ibtopo__wr_printf(w, " BORDER=\"3\" COLOR=\"%s\"",
					  m & MARK_FAILED ? "#000000" :
							    "#08519c");
		else if (m & MARK_LOWPATH)
			ibtopo__wr_puts(w, " BORDER=\"2\" COLOR=\"#d62728\"");
		else if (m & (MARK_ADDED | MARK_EXTRA | MARK_TOPO))
			ibtopo__wr_printf(w, " BORDER=\"2\" COLOR=\"%s\"",
					  m & MARK_TOPO	 ? "#9467bd" :
					  m & MARK_ADDED ? "#2ca02c" :
							   "#17becf");
		else if (k != CAT_OK)
			ibtopo__wr_printf(w, " BORDER=\"1\" COLOR=\"%s\"",
					  cats[k].color);
		ibtopo__wr_puts(w, " BGCOLOR=\"#ffffff\" TITLE=\"");
		put_label(w, n->desc);
		ibtopo__wr_printf(w,
				  " 0x%016" PRIx64 "\"><FONT POINT-SIZE=\"9\"",
				  n->guid);
		if (k != CAT_OK)
			ibtopo__wr_printf(w, " COLOR=\"%s\"", cats[k].color);
		ibtopo__wr_puts(w, ">");
		put_label(w, d->cells[i].label);
		ibtopo__wr_puts(w, "</FONT></TD>");
		if (i % cols == cols - 1 || i + 1 == d->nhosts)
			ibtopo__wr_puts(w, "</TR>");
	}
	ibtopo__wr_puts(w, "</TABLE>>];\n");
}

static void write_node(struct ibtopo__wr *w, const struct scene *c, size_t i)
{
	const struct dnode *d = &c->dn[i];
	char id[40];

	ibtopo__diagram_dnode_id(c, i, id, sizeof(id));
	if (d->kind == DN_BLOCK) {
		write_block(w, c, d, id);
		return;
	}
	ibtopo__wr_printf(w, "\t%s [label=", id);
	put_q(w, d->label);
	switch (d->kind) {
	case DN_SWITCH:
		ibtopo__wr_printf(
			w,
			", shape=box, style=\"rounded,filled\", fillcolor=\"%s\"",
			switch_fill(d->level, c->top));
		break;
	case DN_HOST:
		ibtopo__wr_puts(
			w, d->type == IBTOPO_NODE_ROUTER ?
				   ", shape=hexagon, fillcolor=\"#f2f2f2\"" :
				   ", shape=ellipse, fillcolor=\"#f2f2f2\"");
		break;
	case DN_GROUP:
		ibtopo__wr_puts(w, ", shape=box3d, fillcolor=\"#f2f2f2\"");
		break;
	case DN_BLOCK:
		break;
	case DN_GHOST:
		ibtopo__wr_printf(
			w, ", shape=%s, style=dashed, fontcolor=\"#d62728\"",
			d->type == IBTOPO_NODE_SWITCH ? "box" : "ellipse");
		break;
	case DN_SWGROUP:
		ibtopo__wr_printf(w,
				  ", shape=box, style=\"%sfilled\", "
				  "peripheries=2, fillcolor=\"%s\"",
				  c->sg[d->group].sysimg ? "" : "rounded,",
				  switch_fill(d->level, c->top));
		break;
	}
	if (c->groups && d->kind != DN_GHOST) {
		/* the overview: a problem is somewhere inside */
		if (d->marks & MARK_FAULT)
			ibtopo__wr_puts(w, ", color=\"#d62728\", penwidth=2.5");
	} else if (d->marks & MARK_FAILED)
		ibtopo__wr_puts(
			w, ", color=\"#000000\", peripheries=2, penwidth=3");
	else if (d->marks & MARK_JOB)
		ibtopo__wr_puts(w, ", color=\"#08519c\", penwidth=3");
	else if (d->marks & (MARK_REMOVED | MARK_MISSING))
		ibtopo__wr_puts(w, ", color=\"#d62728\"");
	else if (d->marks & MARK_LOWPATH)
		ibtopo__wr_puts(
			w, ", color=\"#d62728\", peripheries=2, penwidth=2");
	else if (d->marks & MARK_TOPO)
		ibtopo__wr_puts(w, ", color=\"#9467bd\", penwidth=2.5");
	else if (d->marks & MARK_ADDED)
		ibtopo__wr_puts(w, ", color=\"#2ca02c\", penwidth=2.5");
	else if (d->marks & MARK_EXTRA)
		ibtopo__wr_puts(w, ", color=\"#17becf\", penwidth=2.5");
	if (d->marks & MARK_FOCUS)
		ibtopo__wr_puts(w, ", penwidth=3, fontname=\"Helvetica-Bold\"");
	ibtopo__wr_puts(w, ", tooltip=");
	put_q(w, d->tooltip);
	ibtopo__wr_puts(w, "];\n");
}

static double penwidth(const struct scene *c, const struct dedge *e)
{
	double pw;

	if (heat_edge(c, e))
		return (c->sfdp ? 1.0 : 1.5) +
		       ibtopo__diagram_heat_step(c, e->load);
	if (e->gbps <= 0)
		pw = e->cat >= CAT_REMOVED ? 1.5 : 1.0;
	else
		pw = 1.0 + log2(1.0 + e->gbps / 200.0);
	if (pw > 6.0)
		pw = 6.0;
	/* a large drawing is a mesh of links: keep it thin so that the
	 * problems, drawn thick and last, stand out */
	if (c->sfdp)
		pw = e->cat == CAT_OK ? pw * 0.4 : pw < 3.0 ? 3.0 : pw;
	return pw;
}

/* Routes leaving through port p: a CA's are in no table. */
static void route_count(const struct ibtopo_port *p, uint64_t n, char *buf,
			size_t len)
{
	if (p->node->type == IBTOPO_NODE_SWITCH)
		snprintf(buf, len, "%" PRIu64, n);
	else
		snprintf(buf, len, "%s", "? (a host: no table)");
}

static void edge_tooltip(const struct scene *c, const struct dedge *e,
			 char *tip, size_t len)
{
	const struct dnode *u = &c->dn[e->u], *v = &c->dn[e->v];
	char rate[32] = "", num[48];
	size_t k;

	if (e->speed)
		snprintf(rate, sizeof(rate), "%s%s, ",
			 e->width ? ibtopo_width_name(e->width) : "",
			 ibtopo_speed_name(e->speed));
	if (ibtopo__diagram_is_ghost_cat(e->cat))
		snprintf(tip, len, "%s: %s -- %s", cats[e->cat].legend,
			 u->label, v->label);
	else if (e->link && e->count == 1)
		snprintf(tip, len, "%s [%u] -- %s [%u]: %s%.0f Gb/s",
			 e->link->a->node->desc, e->link->a->num,
			 e->link->b->node->desc, e->link->b->num, rate,
			 e->gbps);
	else
		snprintf(tip, len, "%s -- %s: %zu cables, %s%.0f Gb/s",
			 u->label, v->label, e->count, rate, e->gbps);
	k = strlen(tip);
	if (e->cat != CAT_OK && !ibtopo__diagram_is_ghost_cat(e->cat))
		snprintf(tip + k, len - k, " (%s)", cats[e->cat].legend);
	k = strlen(tip);
	/* routes each way, the first end named to the second and back */
	if (heat_edge(c, e) && !c->lroutes) {
		snprintf(tip + k, len - k, "; %s",
			 heat_text(c, e->load, num, sizeof(num)));
	} else if (heat_edge(c, e) && e->link && e->count == 1) {
		char ab[24], ba[24];

		route_count(e->link->a, c->lroutes[2 * e->link->index], ab,
			    sizeof(ab));
		route_count(e->link->b, c->lroutes[2 * e->link->index + 1], ba,
			    sizeof(ba));
		snprintf(tip + k, len - k,
			 "; routes \xe2\x86\x92 %s, \xe2\x86\x90 %s", ab, ba);
	} else if (heat_edge(c, e) && c->lroutes)
		snprintf(tip + k, len - k,
			 "; routes \xe2\x86\x92 %" PRIu64
			 ", \xe2\x86\x90 %" PRIu64 ", busiest cable %" PRIu64,
			 e->routes_down, e->routes_up, e->heat);
	/* one line: a wrapped name joins up again, other lines get a space */
	for (char *p = tip, *q = tip;; p++) {
		if (*p == '\n' && p > tip && p[-1] == '-')
			continue;
		*q++ = *p == '\n' ? ' ' : *p;
		if (!*p)
			break;
	}
}

/* The overview's edges: "×128 51.2 Tb/s", "400 Gb/s". */
static void bandwidth_label(const struct dedge *e, char *buf, size_t len)
{
	size_t k = 0;

	if (e->count > 1)
		k = (size_t)snprintf(buf, len, "\xc3\x97%zu ", e->count);
	if (e->gbps >= 1000)
		snprintf(buf + k, len - k, "%.1f Tb/s", e->gbps / 1000);
	else
		snprintf(buf + k, len - k, "%.0f Gb/s", e->gbps);
}

/* Does dot draw e between two nodes of one rank (a loop is not flat)? */
static bool flat_edge(const struct scene *c, const struct dedge *e)
{
	return !c->sfdp && e->u != e->v && c->dn[e->u].pos == c->dn[e->v].pos;
}

size_t ibtopo__diagram_edge_ends(const struct scene *c, const struct dedge *e,
				 char *a, size_t alen, char *b, size_t blen)
{
	const struct dnode *u = &c->dn[e->u], *v = &c->dn[e->v];
	size_t minlen;

	if (!c->sfdp && u->pos > v->pos) {
		/* same level, the lower row first */
		ibtopo__diagram_dnode_id(c, e->v, a, alen);
		ibtopo__diagram_dnode_id(c, e->u, b, blen);
		minlen = u->pos - v->pos;
	} else {
		ibtopo__diagram_dnode_id(c, e->u, a, alen);
		ibtopo__diagram_dnode_id(c, e->v, b, blen);
		minlen = c->sfdp ? 1 : v->pos - u->pos;
	}
	if (e->host) {
		/* the block is the lower end: v, written second */
		size_t k = strlen(b);

		snprintf(b + k, blen - k, ":p%016" PRIx64 ":n", e->host->guid);
	}
	return minlen;
}

static void write_edge(struct ibtopo__wr *w, const struct scene *c,
		       const struct dedge *e)
{
	char a[40], b[64], st[32], label[64], tip[600];
	size_t minlen =
		ibtopo__diagram_edge_ends(c, e, a, sizeof(a), b, sizeof(b));
	speed_text(e->speed, e->width, st, sizeof(st));
	if (e->bundle)
		bandwidth_label(e, label, sizeof(label));
	else if (e->show_count)
		snprintf(label, sizeof(label), "\xc3\x97%zu%s%s", e->count,
			 e->show_speed ? " " : "", e->show_speed ? st : "");
	else
		snprintf(label, sizeof(label), "%s", e->show_speed ? st : "");
	edge_tooltip(c, e, tip, sizeof(tip));
	ibtopo__wr_printf(w, "\t%s -> %s [", a, b);
	/* the HTML view finds an edge by its SVG id */
	if (c->edge_ids)
		ibtopo__wr_printf(w, "id=\"e%zu\", ", (size_t)(e - c->de));
	if (label[0]) {
		/* dot makes room for a label in the rank it crosses; with
		 * many, that room is most of the picture: place them after.
		 * Always after on a flat edge (two nodes of one rank): dot
		 * (2.43) grows the rank above for its label node and later
		 * frees the array it grew from, twice (gvFreeLayout) */
		ibtopo__wr_puts(w, c->xlabels || flat_edge(c, e) ? "xlabel=" :
								   "label=");
		put_q(w, label);
		ibtopo__wr_puts(w, ", ");
	}
	if (heat_edge(c, e))
		ibtopo__wr_printf(
			w, "color=\"%s\", ",
			heat_colors[ibtopo__diagram_heat_step(c, e->load)]);
	else if (e->cat != CAT_OK)
		ibtopo__wr_printf(w, "color=\"%s\", fontcolor=\"%s\", ",
				  cats[e->cat].color, cats[e->cat].color);
	else if (c->sfdp)
		ibtopo__wr_puts(w, "color=\"#55555560\", ");
	if (cats[e->cat].style)
		ibtopo__wr_printf(w, "style=%s, ", cats[e->cat].style);
	ibtopo__wr_printf(w, "penwidth=%.1f", penwidth(c, e));
	if (e->count > 1)
		ibtopo__wr_printf(w, ", weight=%zu", e->count);
	if (minlen > 1)
		ibtopo__wr_printf(w, ", minlen=%zu", minlen);
	ibtopo__wr_puts(w, ", tooltip=");
	put_q(w, tip);
	ibtopo__wr_puts(w, "];\n");
}

/* Each rank left to right as the scene ordered it: a chain of invisible
 * links, which dot keeps pointing right, one statement a rank. */
static void write_chain(struct ibtopo__wr *w, const struct scene *c)
{
	for (size_t k = 0; k < c->nchain; k++) {
		bool first = !k || c->dn[c->chain[k - 1]].pos !=
					   c->dn[c->chain[k]].pos;
		bool last =
			k + 1 == c->nchain ||
			c->dn[c->chain[k + 1]].pos != c->dn[c->chain[k]].pos;
		char id[40];

		if (first && last)
			continue;
		ibtopo__diagram_dnode_id(c, c->chain[k], id, sizeof(id));
		ibtopo__wr_printf(w, "%s%s%s", first ? "\t" : " -> ", id,
				  last ? " [style=invis];\n" : "");
	}
}

void ibtopo__diagram_write_dot(struct ibtopo__wr *w, const struct scene *c)
{
	ibtopo__wr_puts(w, "// ibtopo fabric diagram\n");
	ibtopo__wr_puts(w, "digraph fabric {\n");
	if (c->sfdp)
		ibtopo__wr_printf(
			w,
			"\tgraph [layout=sfdp, overlap=%s, splines=false, "
			"outputorder=edgesfirst];\n",
			c->ndn > PRISM_FULL_MAX ? "prism20" : "prism");
	else
		ibtopo__wr_puts(
			w,
			"\tgraph [layout=dot, rankdir=TB, newrank=true, "
			"ranksep=0.9, nodesep=0.2, outputorder=edgesfirst];\n");
	if (!c->sfdp && c->work > DOT_WORK_MAX) {
		/* dot asked for on a big drawing: fewer mincross passes and
		 * network simplex iterations, in proportion */
		double k = (double)DOT_WORK_MAX / (double)c->work;

		ibtopo__wr_printf(w,
				  "\tgraph [mclimit=%.3f, nslimit=%.3f, "
				  "remincross=false];\n",
				  k, k);
	}
	ibtopo__wr_puts(
		w,
		"\tgraph [fontname=\"Helvetica\", labelloc=t, bgcolor=white, "
		"pad=0.3];\n");
	ibtopo__wr_puts(
		w, "\tnode [fontname=\"Helvetica\", fontsize=10, style=filled, "
		   "height=0.3, margin=\"0.08,0.03\"];\n");
	ibtopo__wr_puts(
		w,
		"\tedge [dir=none, color=\"#555555\", fontname=\"Helvetica\", "
		"fontsize=9];\n");
	write_label(w, c);
	for (size_t i = 0; i < c->ndn; i++)
		write_node(w, c, i);
	/* levels as ranks: dnodes are sorted by level, highest first */
	if (!c->sfdp) {
		for (size_t r = 0; r < c->nrows; r++) {
			ibtopo__wr_printf(w, "\t{ rank=same;");
			for (size_t i = 0; i < c->ndn; i++) {
				char id[40];

				if (c->dn[i].pos != r)
					continue;
				ibtopo__diagram_dnode_id(c, i, id, sizeof(id));
				ibtopo__wr_printf(w, " %s;", id);
			}
			ibtopo__wr_puts(w, " }\n");
		}
	}
	write_chain(w, c);
	ibtopo__diagram_rails_dot(w, c);
	/* directors: switch chips sharing a system image GUID */
	for (size_t k = 0; k < c->ncl; k++) {
		const struct dcluster *cl = &c->cl[k];

		ibtopo__wr_printf(w,
				  "\tsubgraph cluster_%016" PRIx64
				  " {\n\t\tlabel=",
				  cl->sysimg);
		put_q(w, cl->label);
		ibtopo__wr_puts(
			w,
			";\n\t\tstyle=\"rounded,filled\"; fillcolor=\"#f7f7f7\"; "
			"color=\"#888888\"; fontsize=12;\n\t\t");
		for (size_t i = cl->first; i < c->ndn; i++) {
			char id[40];

			if (c->dn[i].cluster != cl->sysimg)
				continue;
			ibtopo__diagram_dnode_id(c, i, id, sizeof(id));
			ibtopo__wr_printf(w, "%s; ", id);
		}
		ibtopo__wr_puts(w, "\n\t}\n");
	}
	/* healthy links first, problems after: drawn over them */
	for (int k = 0; k < CAT_MAX_; k++)
		for (size_t i = 0; i < c->nde; i++)
			if (c->de[i].cat == (enum cat)k)
				write_edge(w, c, &c->de[i]);
	ibtopo__wr_puts(w, "}\n");
}
