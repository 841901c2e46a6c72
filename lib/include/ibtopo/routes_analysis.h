/*
 * ibtopo/routes_analysis.h - what the switches' forwarding tables do
 * with the traffic: reachability, balance, credit loops and effective
 * bisection bandwidth (`ibtopo routes`, a section of `analyze`). Part of the public
 * interface; programs include <ibtopo.h>, which includes every part.
 *
 * Routes are traced by destination: for each destination LID (every LID
 * of a CA port's LID/LMC range, and every switch's port 0 LID) one walk
 * over the tables from every switch, so each switch's next hop is
 * followed once per destination, never pair by pair. A CA port is a
 * source when it has a LID and is cabled to a switch; the CA-to-CA
 * routes are the ordered pairs of such ports, each to the other's base
 * LID.
 */
#ifndef IBTOPO_ROUTES_ANALYSIS_H
#define IBTOPO_ROUTES_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/findings.h>
#include <ibtopo/sink.h>
#include <ibtopo/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

/* subkinds of route-black-hole: why the packet goes nowhere */
enum ibtopo_route_hole {
	IBTOPO_HOLE_NO_ENTRY = 1,	/* entry 255, or the LID past the table */
	IBTOPO_HOLE_NO_PORT,		/* the switch has no such port */
	IBTOPO_HOLE_UNCONNECTED,	/* the port has no link */
	IBTOPO_HOLE_PORT_DOWN,		/* the link is not active */
	IBTOPO_HOLE_WRONG_NODE,		/* delivered to a node that is not the
					 * destination (a CA, the switch
					 * itself for port 0) */
	IBTOPO_HOLE_NO_TABLE,		/* the switch has no table at all */
};

enum ibtopo_routes_flags {
	IBTOPO_ROUTES_NO_CREDIT_LOOPS = 1u << 0,
	IBTOPO_ROUTES_NO_LEAF_PAIRS = 1u << 1,
};

struct ibtopo_routes_opts {
	unsigned version;	/* IBTOPO_ROUTES_OPTS_VERSION */
	unsigned bisections;	/* random bisections for the EBB; 0 = none */
	uint64_t seed;		/* of the bisections */
	unsigned flags;		/* enum ibtopo_routes_flags */
};
#define IBTOPO_ROUTES_OPTS_VERSION 1
#define IBTOPO_ROUTES_OPTS_INIT { IBTOPO_ROUTES_OPTS_VERSION, 100, 1, 0 }

/** One switch out-port that carries routes. */
struct ibtopo_route_port {
	const struct ibtopo_port *port;	/* the switch's port; borrowed */
	uint64_t routes;	/* CA-to-CA routes that leave through it */
	uint32_t dlids;		/* destination LIDs the table sends out of it */
	int level;		/* the switch's level (topology), 0 unknown */
	bool up;		/* goes to a switch of a higher level */
};

/** min/median/max of one count over a group of ports or pairs. */
struct ibtopo_route_spread {
	size_t n;		/* members; 0 = none */
	double min, median, max;
};

/** Ports of the switches of one level, split by direction. */
struct ibtopo_route_level {
	int level;		/* 1 = leaves; 0 = levels unknown (all ports) */
	struct ibtopo_route_spread up_routes, down_routes;
	struct ibtopo_route_spread up_dlids, down_dlids;
};

/** The result; borrows the fabric: free it first. */
struct ibtopo_routes {
	const char *engine;		/* the fabric's, or NULL */
	size_t switches, switches_with_tables;
	size_t ca_ports;		/* sources */
	size_t dest_lids;		/* destination LIDs traced */
	uint64_t ca_pairs;		/* ordered pairs of CA ports */
	uint64_t unreachable_pairs;	/* CA source and destination LID pairs
					 * not delivered: per LID of a port's
					 * LMC range, so with LMC 0 the CA
					 * pairs not delivered */
	size_t black_holes, loops, not_minimal, credit_loops; /* findings */
	uint64_t *hops;			/* hops[h]: CA pairs delivered over h
					 * links (CA-switch links included) */
	size_t nhops;			/* entries of hops[] */
	struct ibtopo_route_port *ports; /* ports with routes or dlids, in
					  * node order then port order */
	size_t nports;
	struct ibtopo_route_level *levels;
	size_t nlevels;
	/* leaf switch pairs (switches with CA ports), each counted once as
	 * path diversity counts them: the distinct top switches the routes
	 * of its direction that uses fewer turn at, beside the
	 * edge-disjoint paths the cables allow (topology; n 0 without) */
	struct ibtopo_route_spread leaf_spines_used, leaf_paths_cabled;
	size_t leaf_pairs_underused;	/* pairs using fewer spines than the
					 * cables reach (leaf_spines_cabled) */
	/* effective bisection bandwidth: per random bisection of the CA
	 * ports into pairs, the mean fraction of full bandwidth a flow gets
	 * when the flows sharing a link split it; mean and min over them */
	unsigned bisections;
	uint64_t seed;
	double ebb_mean, ebb_min;
	/* leaf pairs: the distinct spines the cables reach, as node-disjoint
	 * paths (parallel cables to one spine count once; n 0 without) */
	struct ibtopo_route_spread leaf_spines_cabled;
	const struct ibtopo_fabric *fabric; /* the one analyzed, borrowed */
	/* CA source and destination LID pairs traced, what
	 * unreachable_pairs counts in: ca_pairs times the LIDs of a port
	 * (2^LMC); ca_pairs with LMC 0 */
	uint64_t lid_pairs;
};

/**
 * Analyze the fabric's forwarding tables. `topo` (may be NULL) gives
 * switch levels and the cabled path diversity of leaf pairs. Findings
 * are appended to `findings` (may be NULL): route-black-hole,
 * route-loop, route-not-minimal (one per destination LID and switch
 * port where the route goes wrong, counting the CA routes it hits: to
 * other CAs' LIDs and to switches' port 0 LIDs) and credit-loop (one
 * per cycle of the channel dependency graph of the routes from CA ports
 * to every destination LID, switches' included, on one VL). They
 * borrow the fabric and *out (notes): free them first. IBTOPO_EINVAL without tables or LIDs (the message
 * says which), IBTOPO_ENOMEM.
 */
int ibtopo_routes_analyze(struct ibtopo_routes **out,
			  const struct ibtopo_fabric *fabric,
			  const struct ibtopo_topology *topo,
			  const struct ibtopo_routes_opts *opts,
			  struct ibtopo_findings *findings,
			  struct ibtopo_error *err);

/** Free a result; NULL is fine. */
void ibtopo_routes_free(struct ibtopo_routes *routes);

/**
 * Write a routing analysis. JSON: as doc/json.md gives `ibtopo routes`
 * (the counts, hops, spreads per level, leaf pairs, the busiest ports,
 * the effective bisection bandwidth, the findings). Text: a summary,
 * the busiest ports, then the findings. CSV: one row per port, an empty
 * line, then the findings table (the columns of ibtopo_report_findings()).
 * IBTOPO_EIO
 * if the sink fails, IBTOPO_ENOMEM.
 */
int ibtopo_report_routes(const struct ibtopo_sink *sink,
			 const struct ibtopo_routes *routes,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err);

/* subkinds of mcast-dead-end: why a port of an MLID's mask leads nowhere */
enum ibtopo_mcast_dead_end {
	IBTOPO_MCAST_NO_LINK = 1,	/* the port has no link */
	IBTOPO_MCAST_NO_ENTRY,		/* the switch beyond has no entry */
	IBTOPO_MCAST_ONE_WAY,		/* ... has one, without this link */
	IBTOPO_MCAST_NO_WAY_ON,		/* a switch of the tree that forwards
					 * only back where packets came from */
};

/** One multicast LID: its forwarding as the switches' tables hold it. */
struct ibtopo_mcast_mlid {
	uint16_t mlid;
	const char *mgid;	/* the SA's group as text, or NULL; borrowed */
	size_t switches;	/* switches with an entry for it */
	size_t members;		/* receivers: the SA's full and non members,
				 * else the CA ports (and switches' port 0)
				 * the entries deliver to */
	size_t reached;		/* of them, on the tree that reaches most */
	size_t loops, dead_ends, disconnected; /* findings */
};

/** The multicast forwarding of a fabric; borrows it. */
struct ibtopo_mcast {
	bool groups_read;	/* members from the SA (else from the tables) */
	size_t groups;		/* the SA's groups */
	size_t switches_with_tables;
	struct ibtopo_mcast_mlid *mlids; /* ascending */
	size_t nmlids;
	size_t unreached, loops, dead_ends, disconnected; /* findings */
	char (*mgids)[48];	/* the groups' MGIDs as text (owned) */
	const struct ibtopo_fabric *fabric;
};

/**
 * Check the multicast forwarding of every MLID the switches' tables or
 * the SA's groups name: its tree (the links both ends forward on) must
 * join every receiver, with no cycle, and no port of a mask may lead
 * nowhere. Findings appended to `findings` (may be NULL): mcast-unreached
 * (a receiver off the tree that joins most), mcast-loop (a cycle, once a
 * tree), mcast-dead-end (a mask port leading nowhere, or a switch that
 * forwards only back), mcast-disconnected (switches with an entry that no
 * receiver's tree joins). *out is NULL when the fabric has neither
 * tables nor groups. IBTOPO_ENOMEM.
 */
int ibtopo_mcast_analyze(struct ibtopo_mcast **out,
			 const struct ibtopo_fabric *fabric,
			 struct ibtopo_findings *findings,
			 struct ibtopo_error *err);
/** Free a result; NULL is fine. */
void ibtopo_mcast_free(struct ibtopo_mcast *mcast);

/**
 * ibtopo_report_routes() with the multicast forwarding too: either of
 * `routes` and `mcast` may be NULL (not both). JSON: "mcast":
 * {"groups_read","groups","switches_with_tables","mlids":[{"mlid",
 * "mgid","switches","members","reached","loops","dead_ends",
 * "disconnected"}]} beside "routes". Text: its block after the routes'.
 * CSV: after the ports and an empty line, one row per MLID and an
 * empty line, then the findings.
 */
int ibtopo_report_routes_mcast(const struct ibtopo_sink *sink,
			       const struct ibtopo_routes *routes,
			       const struct ibtopo_mcast *mcast,
			       const struct ibtopo_findings *findings,
			       struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_ROUTES_ANALYSIS_H */
