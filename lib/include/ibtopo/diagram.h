/*
 * ibtopo/diagram.h - diagrams. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_DIAGRAM_H
#define IBTOPO_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/sink.h>
#include <ibtopo/findings.h>
#include <ibtopo/topology.h>
#include <ibtopo/routes_analysis.h>
#include <ibtopo/health.h>
#include <ibtopo/analyze.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How hosts (CAs) are drawn. */
enum ibtopo_diagram_hosts {
	IBTOPO_HOSTS_AUTO = 0,	/* collapse above IBTOPO_HOSTS_COLLAPSE_ABOVE */
	IBTOPO_HOSTS_ALL,	/* one node per CA; the overview refuses it (EINVAL) */
	IBTOPO_HOSTS_COLLAPSE,	/* one node per set of switches: "24 hosts" */
};
#define IBTOPO_HOSTS_COLLAPSE_ABOVE 200

/** Graphviz layout engine. */
enum ibtopo_diagram_layout {
	/* sfdp above IBTOPO_LAYOUT_SFDP_ABOVE drawn nodes, or with more
	 * edges across ranks than dot lays out in seconds; else dot */
	IBTOPO_LAYOUT_AUTO = 0,
	IBTOPO_LAYOUT_DOT,	/* levels as ranks, top switches at the top */
	IBTOPO_LAYOUT_SFDP,	/* force-directed; for large fabrics */
};
#define IBTOPO_LAYOUT_SFDP_ABOVE 1000

/** Switches one by one, or gathered into groups (the overview). */
enum ibtopo_diagram_detail {
	/* groups above IBTOPO_DETAIL_GROUPS_ABOVE switches drawn or
	 * IBTOPO_DETAIL_LEVEL_ABOVE on one level; else switches */
	IBTOPO_DETAIL_AUTO = 0,
	IBTOPO_DETAIL_SWITCHES,
	/* a director (switches sharing a system image GUID) is one node;
	 * interchangeable switches (the leaves of a pod, the spines above
	 * them) are one node, "16 leaves, pod 3"; hosts are counted in
	 * their switches' node; the cables between two nodes are one edge
	 * labelled with their count and bandwidth; a node holding a link
	 * or switch with a finding is outlined red and named in a table */
	IBTOPO_DETAIL_GROUPS,
};
#define IBTOPO_DETAIL_GROUPS_ABOVE 100
#define IBTOPO_DETAIL_LEVEL_ABOVE 24
/* switches drawn one by one beyond which no layout is quick: more is
 * refused (IBTOPO_EINVAL), groups or a --focus are the way */
#define IBTOPO_DETAIL_SWITCHES_MAX 2000

enum ibtopo_diagram_flags {
	IBTOPO_DIAGRAM_NO_LEGEND = 1u << 0,	/* title lines only */
};

/** What a heat map colours links by (ibtopo_diagram_opts). */
enum ibtopo_heat_kind {
	IBTOPO_HEAT_NONE = 0,
	IBTOPO_HEAT_ERRORS,
	IBTOPO_HEAT_BER,
	IBTOPO_HEAT_TRAFFIC,
	IBTOPO_HEAT_CONGESTION,
};

/** Nodes and links a diagram draws as one set (borrowed). */
struct ibtopo_diagram_highlight {
	const struct ibtopo_node *const *nodes;
	size_t nnodes;
	const struct ibtopo_link *const *links;
	size_t nlinks;
};

/**
 * What a diagram shows. Zeroed fields are the defaults.
 * `findings` are drawn on the picture (borrowed): link findings colour
 * the links they name by (node GUID, port) of both ends (downgrades red,
 * cable problems orange, fat-tree violations purple, miswired pink,
 * diff additions green, speed/width changes blue, extra links teal);
 * low-path-diversity marks the nodes it names with a red double border.
 * Links and nodes a finding names that the fabric lacks (link-removed,
 * link-moved, node-removed from a diff; missing-link, missing-node and
 * the planned side of miswired-link from validate) are drawn dashed red;
 * `other` (the OLD fabric of a diff, or the plan) supplies their types,
 * names and levels and may be NULL.
 */
struct ibtopo_diagram_opts {
	unsigned version;		/* IBTOPO_DIAGRAM_OPTS_VERSION */
	enum ibtopo_diagram_hosts hosts;
	enum ibtopo_diagram_layout layout;
	/* draw only nodes within `depth` links of this node: a "0x" node or
	 * port GUID, a node description, or a short label as drawn; a name
	 * several nodes go by is refused (IBTOPO_EAMBIGUOUS) */
	const char *focus;
	unsigned depth;			/* 0 = 2 */
	const char *title;		/* NULL: the fabric's file name or host */
	/* NULL: snapshot id and label, date, counts */
	const char *subtitle;
	const struct ibtopo_findings *findings;	/* NULL: none */
	/* the fabric compared with (--diff's OLD, a plan): its analysis,
	 * for where a node it lacks was (borrowed); NULL: none */
	struct ibtopo_analysis *other;
	unsigned flags;			/* enum ibtopo_diagram_flags */
	enum ibtopo_diagram_detail detail;
	/* a heat map of the routes (ibtopo_analysis_routes() of the analysis,
	 * borrowed): each link drawn in one of IBTOPO_HEAT_STEPS colours
	 * (pale yellow to dark red) and widths by the CA-to-CA routes it
	 * carries, the more of its two directions; a line of parallel
	 * cables, or an overview's bundle, by its busiest cable; colours
	 * by load against perfect balance (a level's routes one way spread
	 * evenly over its ports), in the legend, the routes each way in
	 * the tooltips and
	 * the HTML details. The link colours of findings give way to it
	 * (ghost links stay dashed red). A CA's own direction into its
	 * switch is in no table: host links count the switch's. NULL: none */
	const struct ibtopo_routes *heat;
	/*
	 * A heat map of the port counters instead (with `health`, borrowed:
	 * ibtopo_analysis_health() of the analysis, with `since` an earlier
	 * snapshot for all but errors): each link in the same 5 colours on a
	 * fixed scale of the worse end's measure, a bundle or line of
	 * parallel cables in its worst cable's, the scale in the legend:
	 * - errors: the error counters' growth (else their count): 0, 1-9,
	 *   10-99, 100-999, 1000 or more;
	 * - ber: the link's BER against the threshold for its speed: none
	 *   grew, to 1/100, to 1/10, to the threshold, above it;
	 * - traffic: the busier direction's share of the capacity: to 10%,
	 *   25%, 50%, 75%, above;
	 * - congestion: the capacity lost to PortXmitWait against the
	 *   XmitWaitShare threshold: to 1/100, to 1/10, to 1/2, to it, above.
	 * So a healthy fabric is all the palest colour. 0: none.
	 */
	enum ibtopo_heat_kind heat_kind;
	const struct ibtopo_health *health;
	/*
	 * The HTML page: port histories (ibtopo_health_history(), borrowed):
	 * a clicked link whose end has one shows it as small SVG charts,
	 * errors (growth), BER and traffic over the snapshots. NULL: none.
	 */
	const struct ibtopo_port_history *const *history;
	size_t nhistory;
	/*
	 * Version 3. `failed`: what `whatif` fails, drawn black: its nodes
	 * with a thick double outline, its links and every link of its
	 * nodes dotted ("fails"). `job`: a job's hosts outlined blue and
	 * its links (its hosts' cables, the links its routes cross) blue.
	 * Both over the findings' colours (ghosts stay dashed red), named
	 * in the legend and the HTML details. Nodes and links of another
	 * fabric are ignored. Version 2 callers get neither. `carried`:
	 * the links that carry routes across the failure as the tables
	 * stand (ibtopo_whatif's carried), drawn orange (its nodes unused).
	 */
	struct ibtopo_diagram_highlight failed, job, carried;
};
#define IBTOPO_HEAT_STEPS 5
#define IBTOPO_DIAGRAM_OPTS_VERSION 3
#define IBTOPO_DIAGRAM_OPTS_INIT { IBTOPO_DIAGRAM_OPTS_VERSION, IBTOPO_HOSTS_AUTO, \
	IBTOPO_LAYOUT_AUTO, NULL, 0, NULL, NULL, NULL, NULL, 0, \
	IBTOPO_DETAIL_AUTO, NULL, IBTOPO_HEAT_NONE, NULL, NULL, 0, \
	{ NULL, 0, NULL, 0 }, { NULL, 0, NULL, 0 }, { NULL, 0, NULL, 0 } }

/**
 * Write the analysed fabric as a graphviz DOT graph through the sink
 * (sink->format is ignored). Levels are ranks (top switches first, hosts
 * last), the analysis' levels (ibtopo_analysis_topology(); when it skips
 * the topology, every switch a leaf); labels are
 * the readable part of node descriptions ("MF0;sw-01:MQM8700/U1" ->
 * "sw-01", "host001 mlx5_0" -> "host001"); descriptions sharing a long
 * start keep what tells them apart ("QLogic 12800-180 GUID=0x... L116"
 * -> "L116" in its chassis box, "MF0;sw:MQM9790/U2" -> "sw U2"), the
 * GUID tail only where nothing else differs; parallel cables between two
 * nodes are one edge labelled with the count, whose width grows with
 * bandwidth; switches sharing a system image GUID (directors) are one
 * cluster; SHARP aggregation nodes are not drawn. Hosts on the same set
 * of switches are one node ("24 hosts") when collapsed, else, above 32
 * hosts, one table with a cell per host (a problem link goes to its
 * host's cell); wide levels are split into rows. A title (fabric, snapshot, date,
 * counts) and a legend of what is drawn head the graph. The text is the
 * same bytes for the same input. `d` may be NULL (defaults).
 * Returns 0; IBTOPO_EINVAL (no fabric or sink, unknown opts version);
 * IBTOPO_ENOTFOUND (focus names no node); IBTOPO_EAMBIGUOUS (focus names
 * several, the message listing GUIDs); IBTOPO_ENOMEM; or the sink's
 * error.
 */
int ibtopo_diagram_dot(const struct ibtopo_sink *sink,
		       struct ibtopo_analysis *analysis,
		       const struct ibtopo_diagram_opts *d,
		       struct ibtopo_error *err);

/**
 * Draw the analysed fabric through the sink (sink->format is ignored),
 * through libgvc in process: `format` "svg", "png", "pdf", "dot" (the
 * DOT text of ibtopo_diagram_dot()) or "html" (one self-contained page:
 * the SVG inline with a script of its own for pan, zoom, search by name,
 * GUID or LID, details of nodes and links from a JSON copy of the
 * diagram's data, and the findings table; nothing loaded from the
 * network). IBTOPO_EINVAL for another format; else as
 * ibtopo_diagram_image().
 */
int ibtopo_diagram_write(const struct ibtopo_sink *sink, const char *format,
			 struct ibtopo_analysis *analysis,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err);

/**
 * ibtopo_diagram_write() into `out_path` ("-" = stdout); `format` NULL
 * takes it from the path's extension (.htm is html, .gv dot). The
 * layout engine is the one ibtopo_diagram_dot() chose. Graphviz messages
 * never reach stderr: an error carries the last one. Not thread-safe
 * (graphviz keeps global state). Returns 0; IBTOPO_EINVAL (unknown
 * format, no fabric); IBTOPO_EIO (cannot write the file); IBTOPO_ERROR
 * (graphviz failed: no layout or output plugin, e.g. an unconfigured
 * graphviz install, see `dot -c`); or as ibtopo_diagram_dot().
 */
int ibtopo_diagram_image(const char *out_path, const char *format,
			 struct ibtopo_analysis *analysis,
			 const struct ibtopo_diagram_opts *d,
			 struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_DIAGRAM_H */
