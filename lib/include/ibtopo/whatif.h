/*
 * ibtopo/whatif.h - what a fabric loses when switches, CAs or cables
 * fail (ibtopo whatif). Part of the public interface; programs include
 * <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_WHATIF_H
#define IBTOPO_WHATIF_H

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/sink.h>
#include <ibtopo/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibtopo_analysis;
struct ibtopo_routes;
struct ibtopo_whatif_reroute;

/*
 * The figures of one fabric, before or after the failure. A server is
 * isolated when none of its links reaches the largest part of the
 * switch graph that is left (the part most server links are cabled to):
 * a failed server, a server whose links all failed, a server cut off
 * with its leaf. It is single-homed when the links that do reach it end
 * on one switch. Leaf pairs and levels are the topology analysis' of
 * the fabric with the failed nodes and links removed.
 */
struct ibtopo_whatif_side {
	enum ibtopo_topology_class cls;
	size_t servers;		/* servers of the fabric before the failure */
	size_t isolated;
	size_t single_homed;
	size_t leaf_pairs;	/* pairs of leaf switches */
	unsigned node_min;	/* node-disjoint paths: least over the pairs */
	double node_median;
	unsigned nlevels;
	struct ibtopo_topology_level *levels;	/* levels[0] = level 1 */
	double bisection_gbps;
	double blocking;	/* ibtopo_topology_blocking_factor() */
};

/** A destination whose routes cross the failure, and how many do. */
struct ibtopo_whatif_dest {
	const struct ibtopo_port *port;	/* the CA port (borrowed) */
	uint16_t lid;
	size_t pairs;
};

struct ibtopo_whatif {
	const struct ibtopo_fabric *fabric;	/* borrowed */
	size_t nnodes, nlinks;			/* what failed (borrowed) */
	const struct ibtopo_node **nodes;
	const struct ibtopo_link **links;
	struct ibtopo_whatif_side before, after;
	/* leaf pairs whose two leaves are leaves after too, whose
	 * node-disjoint paths fell; of them, those left with none */
	size_t pairs_dropped, pairs_cut;
	size_t became_single_homed;	/* dual before, single-homed after */
	/*
	 * With forwarding tables: the CA pairs (a source CA port, a
	 * destination CA port's base LID) the tables route, and those whose
	 * route crosses a failed switch, CA or cable as they stand, before
	 * the subnet manager reacts; per destination, most first.
	 */
	bool routes;
	size_t ca_pairs, ca_pairs_hit;
	size_t ndests;
	struct ibtopo_whatif_dest *dests;
	/* per link index: true when it carries one of those routes, from
	 * the source's cable up to the failure (the whole way when the
	 * destination fails); ncarried of them. NULL without tables */
	bool *carried;
	size_t ncarried;
	/* set by the caller to report OpenSM's reroute with it (borrowed;
	 * NULL: none) */
	const struct ibtopo_whatif_reroute *reroute;
};

/*
 * What a subnet manager's engine does after the failure: the forwarding
 * tables OpenSM computed on the fabric as it is (before) and on the
 * fabric without the failed elements (after), each swept back from a
 * simulator (`whatif --reroute ENGINE`). The swept fabrics keep the
 * GUIDs of the whatif's fabric, which names their ports.
 */
struct ibtopo_whatif_reroute {
	const char *engine;		/* asked for (opensm -R ENGINE) */
	const char *sm_host;		/* the CA OpenSM ran from */
	const struct ibtopo_routes *before, *after;	/* borrowed */
	size_t top;			/* busiest ports listed; 0: 10 */
};

/**
 * The fabric after the failure: a copy of the whatif's fabric without
 * its failed nodes and links (and the links of the failed nodes); free
 * it with ibtopo_fabric_free(). IBTOPO_EINVAL, IBTOPO_ENOMEM.
 */
int ibtopo_whatif_fabric(struct ibtopo_fabric **out,
			 const struct ibtopo_whatif *whatif,
			 struct ibtopo_error *err);

/**
 * What failing `nodes` (switches or CAs) and `links` does to the fabric
 * of `analysis` (its topology options: roots, server policy). *out
 * borrows the fabric and the nodes and links; free it with
 * ibtopo_whatif_free(). IBTOPO_EINVAL (nothing to fail, a node or link
 * of another fabric), IBTOPO_ENOMEM, or the topology analysis' error.
 */
int ibtopo_whatif_run(struct ibtopo_whatif **out,
		      struct ibtopo_analysis *analysis,
		      const struct ibtopo_node *const *nodes, size_t nnodes,
		      const struct ibtopo_link *const *links, size_t nlinks,
		      struct ibtopo_error *err);
/** Free a result; NULL is fine. */
void ibtopo_whatif_free(struct ibtopo_whatif *whatif);

/** What `whatif --each` fails, one at a time. */
enum ibtopo_whatif_each {
	IBTOPO_WHATIF_EACH_SWITCH = 0,	/* every switch */
	IBTOPO_WHATIF_EACH_SPINE,	/* every switch above level 1 */
	IBTOPO_WHATIF_EACH_LEAF,	/* every switch of level 1 */
	IBTOPO_WHATIF_EACH_CABLE,	/* every link */
};

/** One element failed alone, and its effect. */
struct ibtopo_whatif_rank {
	const struct ibtopo_node *node;	/* the switch, or NULL */
	const struct ibtopo_link *link;	/* the cable, or NULL */
	size_t isolated;		/* servers isolated (new ones) */
	size_t became_single_homed;
	size_t pairs_dropped, pairs_cut;
	double bisection_lost;		/* Gb/s */
};

struct ibtopo_whatif_ranking {
	const struct ibtopo_fabric *fabric;	/* borrowed */
	enum ibtopo_whatif_each what;
	size_t count;
	struct ibtopo_whatif_rank *ranks;	/* worst first */
	/* the topology analyses run: elements with the same place in the
	 * graph (same neighbours, cables and servers) share one */
	size_t analyses;
	double bisection_gbps;		/* before */
	size_t leaf_pairs;		/* before */
};

enum ibtopo_whatif_flags {
	/* group only twins (switches with the same neighbours by the same
	 * cables), not the classes of colour refinement */
	IBTOPO_WHATIF_EXACT = 1u << 0,
};

/**
 * Fail each element of a kind alone and rank them by their effect:
 * servers isolated, then leaf pairs losing node-disjoint paths, then
 * bisection bandwidth lost (then servers left single-homed, then fabric
 * order). `level` > 0 limits switches to that level.
 *
 * The servers an element cuts off are counted for each element. The
 * topology after a failure is computed once per class of elements:
 * switches of one colour under colour refinement (1-dimensional
 * Weisfeiler-Leman: the same level and server cables, then neighbours of
 * the same colours by the same cables, to a fixed point; on fat trees,
 * rails and Dragonfly+ the switches the fabric's symmetries exchange),
 * or with IBTOPO_WHATIF_EXACT only twins (the same neighbours by the same
 * cables: swapping them maps the fabric onto itself, so the figures are
 * exact on any fabric); cables between the same two classes at the same
 * rate. Free with ibtopo_whatif_ranking_free(). Errors as
 * ibtopo_whatif_run()'s.
 */
int ibtopo_whatif_each(struct ibtopo_whatif_ranking **out,
		       struct ibtopo_analysis *analysis,
		       enum ibtopo_whatif_each what, unsigned level,
		       unsigned flags, struct ibtopo_error *err);
void ibtopo_whatif_ranking_free(struct ibtopo_whatif_ranking *ranking);
/** "switch", "spine", "leaf", "cable"; NULL for another value. */
const char *ibtopo_whatif_each_name(enum ibtopo_whatif_each what);
/**
 * True when no element of the ranking isolates a server or leaves a
 * leaf pair without a path: the fabric survives any one failure of the
 * kind.
 */
bool ibtopo_whatif_ranking_survives(const struct ibtopo_whatif_ranking *r);

/**
 * The report: the figures before and after side by side (text: a
 * table; CSV: rows "metric,before,after"; JSON: {"schema_version",
 * "fabric","whatif":{"failed":[...],"before":{...},"after":{...},
 * "pairs_dropped","pairs_cut","became_single_homed","routes":{...}}}).
 * With whatif->reroute, the routing before and after OpenSM's reroute
 * too (JSON: "reroute", its keys in doc/json.md; text: a table and the
 * busiest surviving ports; CSV: rows "reroute_<metric>,before,after",
 * an empty line, the busiest ports).
 */
int ibtopo_report_whatif(const struct ibtopo_sink *sink,
			 const struct ibtopo_whatif *whatif,
			 struct ibtopo_error *err);
/** The `top` worst of a ranking (0: all), and the survival line. */
int ibtopo_report_whatif_each(const struct ibtopo_sink *sink,
			      const struct ibtopo_whatif_ranking *ranking,
			      size_t top, struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_WHATIF_H */
