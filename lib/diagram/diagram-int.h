/*
 * diagram-int.h - private to lib/diagram. Its files, top down (each calls
 * only files below it):
 *   diagram.c         the entry points: DOT through a sink, the image
 *                     dispatcher (DOT, SVG/PNG/PDF, HTML)
 *   diagram_html.c    the HTML page around an SVG of the scene
 *   diagram_layout.c  DOT text to SVG/PNG/PDF through libgvc
 *   diagram_dot.c     a scene's DOT text; the HTML escape
 *   diagram_scene.c   the build of the scene a diagram is drawn from, in
 *                     steps; directors, --focus, ranks, layout engine
 *   diagram_edges.c   its edges: cables bundled, rates, heat
 *   diagram_nodes.c   its drawn nodes: levels, hosts, groups, ghosts
 *   diagram_groups.c  the overview: switches drawn as groups; rail rows
 *   diagram_marks.c   the marks and categories findings put on a scene
 *   diagram_names.c   labels, names and their order
 *
 * The scene says what is drawn, not how it looks: kinds, categories and
 * marks, not colours or shapes, which are each writer's. A writer reads
 * the "drawn" part of struct scene, never the per-fabric build arrays.
 */
#ifndef IBTOPO_DIAGRAM_INT_H
#define IBTOPO_DIAGRAM_INT_H

#include "findings/findings-int.h"

#define NONE ((size_t)-1)

/* Hosts beyond which hosts are drawn in blocks, one per set of switches. */
#define HOST_BLOCKS_ABOVE 32

/* Edge categories, lowest priority first: a link carrying several findings
 * is drawn in the colour of the highest one. */
enum cat {
	CAT_OK = 0,
	CAT_CHANGED,  /* diff: speed or width changed */
	CAT_ADDED,    /* diff: new link */
	CAT_EXTRA,    /* validate: link not in the plan */
	CAT_TOPO,     /* fat-tree rule broken */
	CAT_MISWIRED, /* validate: goes to the wrong peer */
	CAT_CABLE,    /* cable too long, under-rated, loopback */
	CAT_DOWN,     /* trained below what both ends support */
	CAT_CARRIED,  /* carries routes across a failure (render --whatif) */
	CAT_JOB,      /* a job's cable or route (render --job) */
	CAT_FAILED,   /* fails (render --whatif) */
	CAT_REMOVED,  /* diff: link gone (drawn as a ghost) */
	CAT_MISSING,  /* validate: planned link absent (ghost) */
	CAT_MAX_
};

/* Node marks (bits). */
enum {
	MARK_LOWPATH = 1u << 0, /* low path diversity */
	MARK_TOPO = 1u << 1,	/* fat-tree rule broken at this node */
	MARK_ADDED = 1u << 2,	/* diff: new node */
	MARK_EXTRA = 1u << 3,	/* validate: node not in the plan */
	MARK_REMOVED = 1u << 4, /* diff: node gone (ghost) */
	MARK_MISSING = 1u << 5, /* validate: planned node absent (ghost) */
	MARK_FOCUS = 1u << 6,
	MARK_FAULT = 1u
		     << 7, /* a group holding a link or switch with a finding */
	MARK_FAILED = 1u << 8, /* fails (render --whatif) */
	MARK_JOB = 1u << 9,    /* a job's host (render --job) */
};

enum dkind {
	DN_SWITCH,
	DN_HOST,    /* CA or router drawn alone */
	DN_GROUP,   /* hosts collapsed by the switches they hang off */
	DN_BLOCK,   /* hosts on the same switches, one table cell each */
	DN_GHOST,   /* named by a finding, absent from the fabric */
	DN_SWGROUP, /* the overview: switches in a group (diagram_groups.c) */
};

/* A host in a block: one table cell. */
struct dcell {
	const struct ibtopo_node *node;
	const char *label; /* the node's label in the scene */
	unsigned marks;
	enum cat cat; /* worst category among its links */
};

struct dnode {
	enum dkind kind;
	int level;
	const struct ibtopo_node *node;	 /* DN_SWITCH, DN_HOST; else NULL */
	const struct ibtopo_node *other; /* DN_GHOST: in d->other, or NULL */
	uint64_t guid;			 /* node GUID; group: first member */
	uint64_t cluster;	    /* director system image GUID, 0 = none */
	enum ibtopo_node_type type; /* ghosts: the type if known */
	char *label;
	char *tooltip;
	size_t nhosts;	     /* DN_GROUP, DN_BLOCK */
	struct dcell *cells; /* DN_BLOCK: nhosts, in drawing order */
	size_t cols;	     /* DN_BLOCK: cells per row */
	unsigned marks;
	size_t orig;   /* index before sorting */
	size_t pos;    /* dot rank: levels split into rows */
	size_t group;  /* DN_SWGROUP: its struct sgroup */
	unsigned rail; /* a rail's leaf (1..), else 0 */
	size_t unit;   /* its scalable unit's row (1..), or 0 */
};

struct dedge {
	size_t u, v;			/* dnode indices, u the upper end */
	const struct ibtopo_node *host; /* into a block: the host's cell */
	enum cat cat;
	unsigned speed, width;
	size_t count;
	double gbps;
	const struct ibtopo_link *link; /* the one link when count == 1 */
	bool show_count; /* label: the cable count says something */
	bool show_speed; /* label: the rate is not the usual one, or matters */
	bool bundle;	 /* the overview: cables between groups, any rate */
	/* a gone or missing node's link: its node's finding counts it */
	bool node_link;
	/* heat map (d->heat): CA-to-CA routes u->v and v->u over its
	 * cables, and its busiest cable's (the more of its directions) */
	uint64_t routes_down, routes_up, heat;
	/* and its load: the busiest cable's routes against perfect balance
	 * (1 = its level's routes that way spread evenly over its ports) */
	double load;
};

/* The overview: switches that are one node (diagram_groups.c). */
struct sgroup {
	size_t first; /* fabric index of a member */
	size_t n;     /* switches */
	int level;
	uint64_t sysimg; /* a director: its system image GUID; else 0 */
	size_t pod;	 /* 1.. when all its switches are in one pod */
	/* pods alike drawn as one group: how many, and each one's
	 * switches per level (each[l - 1], levels 1..4); else 0 */
	size_t pods, each[4];
	size_t hosts;		     /* hosts folded into it */
	size_t ext_ports;	     /* a director: ports cabled outside it */
	size_t ncat[CAT_MAX_];	     /* cables with a finding, per category */
	const char *where[CAT_MAX_]; /* the first node of those, by name */
	unsigned marks;		     /* its switches' and hosts', MARK_FAULT */
	char *name;		     /* "16 leaves, pod 3", the chassis name */
	char *label;		     /* name, member names, hosts */
	char *tooltip;
};

/* A director: switch chips sharing a system image GUID, drawn boxed. */
struct dcluster {
	uint64_t sysimg;
	char *label;  /* the chassis name, or "director <GUID>" */
	size_t first; /* its first dnode; members follow in dn order */
};

/* Most work for dot (see dot_work) before the automatic choice is sfdp. */
#define DOT_WORK_MAX 5000

struct scene {
	/* what it is built from */
	const struct ibtopo_fabric *f;
	const struct ibtopo_diagram_opts *d;
	struct ibtopo_error *err;
	struct ibtopo_diagram_opts v2; /* a version 2 caller's, completed */

	/* building: per fabric node (nn) and link (nl) */
	size_t nn, nl;
	int *level;    /* per fabric node */
	char **label;  /* per fabric node */
	bool *visible; /* per fabric node */
	bool *hidden;  /* SHARP aggregation nodes: folded into their switch */
	uint64_t *dir; /* per fabric node: director sysimg GUID or 0 */
	/* levels and directors: the analysis' (NULL when it skips them) */
	const struct ibtopo_topology *topo;
	unsigned *mark;	     /* per fabric node */
	size_t *dn_of;	     /* fabric node -> dnode */
	unsigned char *lcat; /* per link */
	/* heat map: per link, routes a->b at [2i], b->a at [2i+1]; NULL
	 * without d->heat */
	uint64_t *lroutes;
	double *lload; /* per link side as lroutes: routes / balance */
	/* a heat map, of routes or counters (d->heat_kind): every drawn
	 * cable in a colour of its load (lload, with or without lroutes) */
	bool heat;
	/* routes per port under perfect balance, least and most over the
	 * levels and directions (the legend's 1x) */
	uint64_t balance_min, balance_max;

	/* drawn: nodes by level (highest first), director, kind, name;
	 * edges by their ends (u the upper); directors by first member */
	struct dnode *dn;
	size_t ndn, adn;
	struct dedge *de;
	size_t nde, ade;
	struct dcluster *cl;
	size_t ncl;
	int top;			 /* highest level drawn */
	const struct ibtopo_node *focus; /* a --focus group: its first */
	bool *seed;	      /* per fabric node: in the --focus group */
	char focus_name[160]; /* the --focus group's name */
	const char *focus_label;
	unsigned depth;
	bool collapse;
	bool blocks; /* hosts drawn in blocks (many, not collapsed) */
	/* the overview (--detail groups): per fabric node, its group */
	bool groups;
	size_t *grp;	  /* switches: index into sg, or NONE */
	size_t *host_grp; /* hosts: the group they are folded into */
	struct sgroup *sg;
	size_t nsg, asg;
	/* rail-optimized: a column of leaves per rail (diagram_groups.c) */
	unsigned nrails; /* 0: not laid out by rails */
	size_t nunits;	 /* unit rows */
	/* arrangement */
	bool sfdp;
	double scale; /* title and legend font scale for big drawings */
	size_t nrows; /* dot ranks (see assign_rows) */
	/* dot: drawn nodes left to right, rank by rank (see order_ranks):
	 * consecutive entries of one rank are kept in this order; NULL when
	 * dot chooses (sfdp, rails, directors) */
	size_t *chain, nchain;
	size_t work;   /* dot: its graph's size (see dot_work) */
	bool xlabels;  /* edge labels placed after layout */
	bool edge_ids; /* DOT edges say id="e<index in de>" (HTML) */
	/* legend and subtitle */
	size_t usual_count;   /* cables most switch pairs have, if > 1 */
	size_t lowpath_hosts; /* hosts low in path diversity, not marked */
	size_t hosts;
	size_t nsharp;	    /* SHARP aggregation nodes (not drawn) */
	unsigned used_cats; /* bit per enum cat drawn */
	unsigned node_cats; /* bit per enum cat of a ghost node's links */
	unsigned used_marks;
	unsigned used_kinds;	/* bit per enum dkind drawn */
	size_t ncats[CAT_MAX_]; /* cables per category (for the legend) */
	/* most common speed/width of switch links and of host links */
	unsigned sw_speed, sw_width, host_speed, host_width;
};

/* A link a finding names: drawn in a colour, or as a ghost when absent. */
struct flink {
	const struct ibtopo_end *x, *y;
	enum cat cat;
};

/* diagram_names.c: names and their order (calls no other diagram file) */
/** Natural order of names: "leaf2" before "leaf10". */
int ibtopo__diagram_natcmp(const char *a, const char *b);
/** qsort order of size_t values. */
int ibtopo__diagram_cmp_size(const void *x, const void *y);
/** Characters (not bytes) of UTF-8 text. */
size_t ibtopo__diagram_utf8_len(const char *s);
/**
 * The readable part of node n's description into out; director: its
 * chip's slot rather than the chassis; variant 1: a CA's whole
 * description, not its first word.
 */
void ibtopo__diagram_short_label(char *out, size_t len,
				 const struct ibtopo_node *n, bool director,
				 int variant);
/**
 * Label every fabric node (c->label), distinct and short; needs the
 * directors (c->dir). IBTOPO_ENOMEM.
 */
int ibtopo__diagram_labels(struct scene *c);
/** "host001 … 024": the names from first to last, into buf. */
void ibtopo__diagram_name_range(char *buf, size_t len, const char *first,
				const char *last);
/** "24 hosts\nnode001..node024" for a group of n hosts (strdup'd). */
char *ibtopo__diagram_group_label(size_t n, const char *first,
				  const char *last);
/** The name of the director with system image GUID sys, into out. */
void ibtopo__diagram_chassis_name(const struct scene *c, uint64_t sys,
				  char *out, size_t len);
/**
 * The title of the picture and the page, into buf (or --title): a stored
 * snapshot's fabric name and the snapshot, a file's name.
 */
const char *ibtopo__diagram_title(const struct scene *c, char *buf, size_t len);
/** The DOT (and SVG title) name of drawn node i: "n<GUID>", "s<GUID>"... */
void ibtopo__diagram_dnode_id(const struct scene *c, size_t i, char *buf,
			      size_t len);

/* diagram_scene.c */
/**
 * Build the scene of fabric f drawn with options d into *c (zeroed by the
 * caller); release it with ibtopo__diagram_scene_release() whatever this
 * returns. Errors: IBTOPO_ENOMEM, and those of --focus's node lookup.
 */
int ibtopo__diagram_scene_build(struct scene *c, const struct ibtopo_fabric *f,
				const struct ibtopo_diagram_opts *d,
				struct ibtopo_error *err);
/** Free what a scene holds (not the struct itself). */
void ibtopo__diagram_scene_release(struct scene *c);

/* diagram_nodes.c */
/** Levels: hosts 0, switches theirs in the topology (c->level, c->topo). */
int ibtopo__diagram_levels(struct scene *c);
/** The drawn nodes (c->dn), sorted; needs the marks and visibility. */
int ibtopo__diagram_nodes(struct scene *c);
/** Drawn node for a finding's end: the fabric's node or a ghost; NONE. */
size_t ibtopo__diagram_end_dnode(const struct scene *c,
				 const struct ibtopo_end *e);

/* diagram_edges.c */
/** The drawn edges (c->de), sorted; after the drawn nodes. */
int ibtopo__diagram_edges(struct scene *c);
/** Which edges say their cable count and rate (c->usual_count too). */
void ibtopo__diagram_label_edges(struct scene *c);
/** Heat map: the step (0 coolest .. IBTOPO_HEAT_STEPS-1) of a load, on
 * the scale of the scene's heat map. */
unsigned ibtopo__diagram_heat_step(const struct scene *c, double load);
/** Heat map: the load above which step k + 1 begins (k < STEPS - 1). */
double ibtopo__diagram_heat_bound(const struct scene *c, unsigned k);

/* diagram_groups.c: the overview */
/**
 * Gather the drawn switches into groups (c->grp, c->sg) and the hosts
 * into their switches' groups (c->host_grp); needs levels, directors,
 * labels, visibility and the findings' marks. IBTOPO_ENOMEM.
 */
int ibtopo__diagram_groups(struct scene *c);
void ibtopo__diagram_groups_release(struct scene *c);
/**
 * A rail-optimized fabric drawn by dot: after the rows are assigned, put
 * the leaves of a scalable unit in a row of their own (units in name
 * order) and set each leaf's rail and unit (c->nrails, c->nunits).
 * Nothing for other fabrics. IBTOPO_ENOMEM.
 */
int ibtopo__diagram_rail_rows(struct scene *c);
/**
 * The DOT that keeps a rail's leaves in one column (rail 1 leftmost):
 * invisible edges down each column and across each unit row, the unit
 * names left of their rows and the rail names under the columns.
 */
void ibtopo__diagram_rails_dot(struct ibtopo__wr *w, const struct scene *c);

/* diagram_dot.c */
/** The DOT text of a built scene, through w. */
void ibtopo__diagram_write_dot(struct ibtopo__wr *w, const struct scene *c);
/** The DOT names of an edge's tail and head, as written; its minlen. */
size_t ibtopo__diagram_edge_ends(const struct scene *c, const struct dedge *e,
				 char *a, size_t alen, char *b, size_t blen);
/**
 * Text in HTML through w: & < > " escaped; label (a graphviz HTML-like
 * label): control characters written as blanks.
 */
void ibtopo__diagram_put_html(struct ibtopo__wr *w, const char *s, bool label);
/** The legend's words for a category ("downgraded link"). */
const char *ibtopo__diagram_cat_name(enum cat k);

/* diagram_layout.c */
/**
 * Lay out DOT text and render it as `format` into memory: *out (free
 * with ibtopo__diagram_free_render()), *len bytes. IBTOPO_ERROR with
 * graphviz's last message, IBTOPO_ENOMEM.
 */
int ibtopo__diagram_render(const char *dot, const char *format, char **out,
			   size_t *len, struct ibtopo_error *err);
void ibtopo__diagram_free_render(char *data);

/* diagram_html.c */
/**
 * Write scene c as one self-contained HTML page through the sink: svg (svg_len bytes, graphviz's drawing of c's DOT with edge
 * ids) inline, a script for pan, zoom, search and details, the scene's
 * data as JSON, the findings table. IBTOPO_ENOMEM, IBTOPO_EIO.
 */
int ibtopo__diagram_html(const struct ibtopo_sink *o, const struct scene *c,
			 const char *svg, size_t svg_len,
			 struct ibtopo_error *err);

/* diagram_marks.c: findings -> link categories and node marks */
/** The link between two ends if the fabric has it (b may be unknown). */
const struct ibtopo_link *
ibtopo__diagram_find_link(const struct ibtopo_fabric *f,
			  const struct ibtopo_end *a,
			  const struct ibtopo_end *b);
/** How the table of kinds says to draw a finding. */
enum ibtopo__draw ibtopo__diagram_finding_draw(const struct ibtopo_finding *f);
/** The links a finding is about, into out[4]; returns how many. */
size_t ibtopo__diagram_finding_links(const struct ibtopo_finding *f,
				     struct flink *out);
/** Categories drawn as ghosts: links the drawn fabric lacks. */
bool ibtopo__diagram_is_ghost_cat(enum cat k);
/** A ghost link of a finding: named by it and absent from the fabric. */
bool ibtopo__diagram_ghost_link(const struct scene *c, const struct flink *l);
/** Colour the links and mark the nodes the findings name. */
void ibtopo__diagram_apply_findings(struct scene *c);
/** The highlights of the options (failed, job): marks and categories. */
void ibtopo__diagram_apply_highlights(struct scene *c);

#endif /* IBTOPO_DIAGRAM_INT_H */
