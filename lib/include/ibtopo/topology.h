/*
 * ibtopo/topology.h - topology analysis. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_TOPOLOGY_H
#define IBTOPO_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/findings.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What ibtopo_topology_analyze() finds, and how.
 *
 * Endpoints. A CA is a server port unless it is part of a switch: a CA
 * whose system image GUID is that of the switch it is cabled to, or whose
 * description says "Aggregation Node" (SHARP), is ignored. Server ports
 * sharing a system image GUID (dual-port, dual-adapter) are one server.
 *
 * Levels, counted from 1 at the leaves (as OpenSM's ftree engine ranks
 * switches, its rank 0 being our top level). Without roots: leaves are
 * the switches with servers, other switches are ranked by BFS upward
 * (level = 1 + hops to the nearest leaf). Two readings are then scored
 * by the links they leave breaking fat-tree rules (same-level links,
 * links skipping a level, servers above level 1) and the better kept:
 * a switch that has servers but only leaves for neighbours may be a
 * spine with servers on it rather than a leaf; a switch with no
 * neighbour above it may be a root whose level is the top. With roots
 * (a file of GUIDs or names, or a regex on descriptions), levels are
 * ranked down from them and the leaves' level is the deepest.
 * Switch chips sharing a system image GUID (directors) are one chassis;
 * levels stay per chip, as the subnet manager routes them. Inside, a
 * director is a 2-level tree: line chips (those with servers or cables
 * to other chassis, and chips an even number of internal hops from
 * them) and fabric chips (odd). A line chip without external cables is
 * ranked at its chassis' line level (the lowest level of its cabled
 * line chips), not above the fabric chips, and its internal links are
 * left out of the per-level links and bandwidth: it carries no traffic.
 * UPLINKS_PILED counts a director as one upper switch.
 *
 * Classes: single-switch (one switch or one chassis); star (every pair
 * of leaf switches is cut apart by one switch or one cable: hub and
 * spoke, or a tree without redundancy); fat-tree (levels where every
 * inter-switch link joins adjacent levels, every switch below the top
 * has an uplink and every one above level 1 a downlink, with at most a
 * quarter of the links breaking the rules: those are reported as
 * fat-tree-violation findings); irregular (anything else; `shape` names
 * "ring", "full-mesh", "mesh" (2-D grid), "torus", "line" or
 * "disconnected" when the switch graph is one).
 *
 * Rail-optimized (DGX SuperPOD style: a server's HCA k is cabled to a
 * leaf of rail k): a fat tree whose servers name their HCAs "<host>
 * <device>" ("dgx01 mlx5_4", "node7 HCA-5"). The device's number, ranked
 * among the numbers its family ("mlx5_", "HCA-") uses in the fabric, is
 * its rail; servers with more HCAs than half the rails are on the rails
 * (others, a UFM host with two, are not checked). A leaf's rail is the
 * rail most of its HCAs have; the class needs 3 rails or more (two are a
 * dual-homed fat tree), every rail with a leaf, and 90% of the rail HCAs
 * on leaves of their rail. Scalable units are the leaves that most of
 * their servers join across rails. Findings rail-mismatch (warning),
 * subkind enum ibtopo_rail_mismatch: WRONG_LEAF (a = the HCA's port,
 * b = the leaf port it is on, c = the leaf of its rail in its server's
 * unit; num.rail.expected = its rail, actual = the leaf's rail,
 * 1-based); MISSING (a = the server's first HCA, c = the leaf it lacks;
 * expected = the missing rail, lacking = the rails it lacks, or, a = a
 * leaf, the servers of its unit without the rail); UNEQUAL (a rail with
 * fewer HCAs than the largest: expected = the largest, actual = its
 * count, rail = the rail).
 *
 * Dragonfly+: groups of leaves and spines, each group a 2-level fat tree
 * (every leaf cabled to its group's spines), the groups joined by global
 * links between spines. Recognized when the switches rank as two levels,
 * the links between leaves and spines fall into 2 groups or more and
 * every link between spines joins two groups. Findings
 * dragonfly-violation (warning), subkind enum
 * ibtopo_dragonfly_violation: UNEQUAL_GROUP (a = a switch of a group
 * whose leaves, spines or servers differ from most groups';
 * num.dragonfly.usual = most groups' leaves, count = its leaves,
 * servers, spines = its own); MISSING_GLOBAL (a, b = the spines, one in
 * each group, with the fewest global links: those the link should join;
 * group_a, group_b, count = their global links, usual = most pairs');
 * UNEVEN_GLOBAL (a = a spine with fewer global links than most spines;
 * usual = theirs, count = its own).
 *
 * Per level: switches, links down (servers and switches below), up,
 * and to the same level, their bandwidth (active speed x width), the
 * oversubscription down:up, and the bisection bandwidth through the
 * level (half its uplink bandwidth, or half that of the servers at and
 * below it where that is less). The fabric's bisection is the least of
 * the levels'; the blocking factor the largest ratio of the servers at
 * and below a level to its uplinks (link counts when a speed on the
 * level is unknown): with every server on a leaf, the servers' bandwidth
 * over the narrowest level's uplinks, the leaves' oversubscription of a
 * two-level tree. Both are computed once, from the level table.
 *
 * Path diversity, over the switch graph (servers do not forward):
 * edge-disjoint paths (cables may not be shared) and node-disjoint paths
 * (no switch shared; parallel cables between two adjacent switches are
 * separate paths) between every pair of leaf switches and of servers,
 * and the number of equal-cost shortest switch routes between leaf
 * switches. Switches with identical neighbours (twins: the leaves of one
 * pod, the spines of one plane) are interchangeable, so one pair stands
 * for all pairs of its twin classes and twins off a pair's ends are
 * contracted into one weighted vertex, which keeps every cut. Edge
 * counts come from one Gomory-Hu tree of that contracted graph (one max
 * flow per vertex); node counts from one max flow per pair of twin
 * classes on its vertex-split form; ECMP counts from one BFS per class.
 * A fat tree with P pods costs O(P^2) flows whatever its size.
 *
 * Findings appended (severity warning):
 * - low-path-diversity, subkind enum ibtopo_path_diversity_kind:
 *   LEAF_PAIR: a leaf switch (a) with fewer than min_paths node-disjoint
 *   paths to num.paths.leaves other leaf switches, the worst being b;
 *   paths = its node-disjoint count, min_paths. Each pair below is
 *   reported once, through the leaf with the most such pairs.
 *   SINGLE_LINK: a server with one link (a = its port, b = the switch
 *   port); ONE_SWITCH: a server whose links all end on one switch
 *   (links = its links, paths = the switches they reach). Once per
 *   server, never per pair, and only when
 *   the server policy is dual. Servers whose links all end on one switch
 *   are single-homed; the policy (opts.servers) says whether that is a
 *   fault: by default it is what most servers of the fabric are (a tie
 *   is dual). Under the single policy the single-homed servers are one
 *   SINGLE_HOMED finding per fabric, severity info (a, b none; servers =
 *   the count, paths = 1, min_paths), the report
 *   listing them (topology.server_policy in JSON).
 * - fat-tree-violation, subkind enum ibtopo_fat_tree_violation, only
 *   when the class is fat-tree or roots were given (CA_TO_CA always):
 *   SAME_LEVEL, LEVEL_SKIP (a, b the link's ends; num.tree.level_a,
 *   level_b their levels); CA_ON_NON_LEAF (a = the server port, b = the
 *   switch port, level_b = the switch's level); UNEVEN_UPLINKS (a = the
 *   switch, port -1; usual_uplinks = the uplinks most of its level have,
 *   uplinks = its own; on a leaf hosts = its hosts, usual_hosts = the
 *   usual leaf's, and severity info when it is no more oversubscribed than
 *   that leaf); UPLINKS_PILED (a = the switch, b = the upper
 *   switch with most of its uplinks, c = an upper switch of the same
 *   group with none; usual_uplinks = the usual cables per upper switch,
 *   uplinks = those to b, or to b's director when b is a director's chip:
 *   a director counts as one upper switch, and then d names it, d.node
 *   its chassis name, d.guid its system image GUID, port -1); CA_TO_CA
 *   (a, b the link's ends).
 */

enum ibtopo_topology_class {
	IBTOPO_TOPOLOGY_UNKNOWN = 0,
	IBTOPO_TOPOLOGY_SINGLE_SWITCH,
	IBTOPO_TOPOLOGY_STAR,
	IBTOPO_TOPOLOGY_FAT_TREE,
	IBTOPO_TOPOLOGY_IRREGULAR,
	IBTOPO_TOPOLOGY_RAIL_OPTIMIZED,
	IBTOPO_TOPOLOGY_DRAGONFLY_PLUS,
};

/**
 * "single-switch", "star", "fat-tree", "rail-optimized", "dragonfly-plus",
 * "irregular";
 * "unknown" otherwise.
 */
const char *ibtopo_topology_class_name(enum ibtopo_topology_class cls);

/** Subkinds of fat-tree-violation findings. */
enum ibtopo_fat_tree_violation {
	IBTOPO_FTV_SAME_LEVEL = 1,	/* switch-to-switch link within a level */
	IBTOPO_FTV_LEVEL_SKIP,		/* link across two levels or more */
	IBTOPO_FTV_CA_ON_NON_LEAF,	/* server cabled above level 1 */
	IBTOPO_FTV_UNEVEN_UPLINKS,	/* fewer uplinks than its level's peers */
	IBTOPO_FTV_UPLINKS_PILED,	/* uplinks doubled up, an upper switch left out */
	IBTOPO_FTV_CA_TO_CA,		/* two CAs cabled to each other */
};

/** Subkinds of low-path-diversity findings. */
enum ibtopo_path_diversity_kind {
	IBTOPO_LPD_LEAF_PAIR = 1,	/* leaf switches below min_paths */
	IBTOPO_LPD_SINGLE_LINK,		/* server with one link */
	IBTOPO_LPD_ONE_SWITCH,		/* server with all links on one switch */
	IBTOPO_LPD_SINGLE_HOMED,	/* single-homed servers by policy (info) */
};

/** Subkinds of rail-mismatch findings. */
enum ibtopo_rail_mismatch {
	IBTOPO_RAIL_WRONG_LEAF = 1,	/* an HCA on another rail's (or unit's) leaf */
	IBTOPO_RAIL_MISSING,		/* a server without HCAs on rails, or a
				 * unit without a rail's leaf (a = a leaf) */
	IBTOPO_RAIL_UNEQUAL,		/* a rail with fewer HCAs than the largest */
};

/** Subkinds of dragonfly-violation findings. */
enum ibtopo_dragonfly_violation {
	IBTOPO_DFP_UNEQUAL_GROUP = 1,	/* a group shaped unlike most */
	IBTOPO_DFP_MISSING_GLOBAL,	/* two groups without a global link */
	IBTOPO_DFP_UNEVEN_GLOBAL,	/* a spine with fewer global links */
};

/** What the site wants of its servers' cabling (analyze --servers). */
enum ibtopo_server_policy {
	IBTOPO_SERVERS_MAJORITY = 0,	/* what most servers of the fabric are */
	IBTOPO_SERVERS_SINGLE,		/* one link, or one switch, is fine */
	IBTOPO_SERVERS_DUAL,		/* every server on two switches or more */
};

/**
 * Stable name of a subkind of a topology finding ("same-level-link",
 * "level-skip", "ca-on-non-leaf", "uneven-uplinks", "uplinks-piled",
 * "ca-to-ca"; "leaf-pair", "single-link", "one-switch", "single-homed";
 * "wrong-leaf", "missing-rail", "unequal-rails"; "unequal-group",
 * "missing-global-link", "uneven-global-links"),
 * or NULL when the kind is not a topology kind or the subkind is unknown.
 */
const char *ibtopo_topology_subkind_name(enum ibtopo_finding_kind kind,
					 int subkind);

enum ibtopo_topology_flags {
	IBTOPO_TOPOLOGY_NO_PATHS = 1u << 0,	/* skip path diversity */
	IBTOPO_TOPOLOGY_NO_SERVER_PAIRS = 1u << 1, /* skip server-pair flows */
};

struct ibtopo_topology_opts {
	unsigned version;		/* IBTOPO_TOPOLOGY_OPTS_VERSION */
	unsigned min_paths;		/* 0 = 2 */
	/* roots: a file of node GUIDs ("0x..." or hex) or descriptions, one
	 * a line, '#' comments; and/or a POSIX extended regex matched
	 * against switch descriptions. NULL = none. */
	const char *roots_file;
	const char *root_pattern;
	unsigned flags;			/* enum ibtopo_topology_flags */
	enum ibtopo_server_policy servers;	/* 0 = the fabric's majority */
};
#define IBTOPO_TOPOLOGY_OPTS_VERSION 1
#define IBTOPO_TOPOLOGY_OPTS_INIT { IBTOPO_TOPOLOGY_OPTS_VERSION, 0, NULL, NULL, 0, 0 }

struct ibtopo_topology;

/**
 * Analyze the fabric's layout: levels, class, per-level bandwidth and
 * path diversity (see above). Findings are appended to `findings` (may
 * be NULL) and borrow the fabric's descriptions; *out borrows the fabric
 * too: free both before the fabric. `opts` may be NULL (defaults).
 * Returns 0; IBTOPO_EINVAL (no fabric, unknown opts version, a bad root
 * pattern, roots naming no switch: the message names it);
 * IBTOPO_EAMBIGUOUS (a roots line names several switches; lines are read
 * as ibtopo_fabric_find_node_name() reads names, GUIDs also without "0x"
 * or as "S-<guid>", descriptions also as the short names drawn); IBTOPO_EIO
 * (unreadable roots file); IBTOPO_ENOMEM; IBTOPO_ERROR (the graph
 * library failed). On failure *out is NULL; findings appended stay.
 */
int ibtopo_topology_analyze(struct ibtopo_topology **out,
			    const struct ibtopo_fabric *fabric,
			    const struct ibtopo_topology_opts *opts,
			    struct ibtopo_findings *findings,
			    struct ibtopo_error *err);

/** Free an analysis; NULL is fine. */
void ibtopo_topology_free(struct ibtopo_topology *topo);

/** The fabric's class. */
enum ibtopo_topology_class ibtopo_topology_class(const struct ibtopo_topology *topo);
/** Recognized shape of an irregular fabric ("ring", ...), or NULL. */
const char *ibtopo_topology_shape(const struct ibtopo_topology *topo);
/** Number of switch levels (0 without switches). */
unsigned ibtopo_topology_levels(const struct ibtopo_topology *topo);

/**
 * Level of a switch, 1 = leaves, ibtopo_topology_levels() = top; 0 for
 * CAs, routers, NULL, and switches cut off from every server.
 */
int ibtopo_topology_node_level(const struct ibtopo_topology *topo,
			       const struct ibtopo_node *node);
/**
 * True for a leaf switch below min_paths to some other leaf, and for a
 * server CA with one link or one switch (single-homed: named by a
 * finding of its own, or counted by the single-homed one).
 */
bool ibtopo_topology_node_low_diversity(const struct ibtopo_topology *topo,
					const struct ibtopo_node *node);

/** One level of the fabric. Bandwidths in Gb/s. */
struct ibtopo_topology_level {
	unsigned level;		/* 1 = leaves */
	size_t switches;	/* switch chips */
	size_t chassis;		/* boxes: a director counts once */
	size_t host_links;	/* links to servers (included in down_links) */
	size_t down_links;	/* to servers and lower levels */
	size_t up_links;	/* to higher levels */
	size_t same_links;	/* within the level */
	double down_gbps;
	double up_gbps;
	/* down:up bandwidth (link counts when a speed is unknown); 0 at the
	 * top or without uplinks */
	double oversubscription;
	/* min(up_gbps, servers' Gb/s at and below the level) / 2; 0 at
	 * the top */
	double bisection_gbps;
};

/** Fill *out for level 1..levels; IBTOPO_EINVAL outside that range. */
int ibtopo_topology_level(struct ibtopo_topology_level *out,
			  const struct ibtopo_topology *topo, unsigned level);

/**
 * The largest ratio of the servers' bandwidth at and below a level to the
 * level's uplink bandwidth (1.0 = non-blocking; 2.0 = 2:1); 1.0 for a
 * single switch; 0 when not defined (irregular fabrics, no servers).
 */
double ibtopo_topology_blocking_factor(const struct ibtopo_topology *topo);
/**
 * Bisection bandwidth in Gb/s, the least of the levels' bisection_gbps,
 * where the blocking factor is defined and every speed known, else 0.
 */
double ibtopo_topology_bisection_gbps(const struct ibtopo_topology *topo);

enum ibtopo_path_measure {
	IBTOPO_PATHS_EDGE_DISJOINT = 0,
	IBTOPO_PATHS_NODE_DISJOINT,
	IBTOPO_PATHS_ECMP,		/* equal-cost shortest routes */
};

/** Distribution of one measure over pairs. */
struct ibtopo_path_stats {
	size_t pairs;		/* pairs counted; 0 = not computed */
	unsigned min;
	unsigned max;
	double median;
};

/**
 * Statistics over all pairs of leaf switches (`servers` false) or of
 * servers (true; ECMP is not computed for servers). IBTOPO_EINVAL for
 * an unknown measure. Values above UINT_MAX (ECMP) are clamped.
 */
int ibtopo_topology_path_stats(struct ibtopo_path_stats *out,
			       const struct ibtopo_topology *topo, bool servers,
			       enum ibtopo_path_measure measure);

/**
 * One measure between two leaf switches (any switch with servers), or
 * -1 when either is not one or the measure was not computed.
 */
long long ibtopo_topology_leaf_paths(const struct ibtopo_topology *topo,
				     const struct ibtopo_node *a,
				     const struct ibtopo_node *b,
				     enum ibtopo_path_measure measure);

/**
 * Number of servers: CAs grouped by system image GUID, then by the host
 * name of "<host> <adapter>" descriptions; a CA with neither is one.
 */
size_t ibtopo_topology_server_count(const struct ibtopo_topology *topo);
/**
 * The server policy applied (single or dual: the one asked for, or the
 * fabric's majority) and, in *single_homed (may be NULL), how many
 * servers have all their links on one switch.
 */
enum ibtopo_server_policy
ibtopo_topology_server_policy(const struct ibtopo_topology *topo,
			      size_t *single_homed);
/**
 * Groups of a Dragonfly+ fabric (0 otherwise) and, in *global_links (may
 * be NULL), its links between groups.
 */
size_t ibtopo_topology_groups(const struct ibtopo_topology *topo,
			      size_t *global_links);
/**
 * Rails of a rail-optimized fabric (0 otherwise) and, in *units (may be
 * NULL), its scalable units.
 */
unsigned ibtopo_topology_rails(const struct ibtopo_topology *topo,
			       size_t *units);
/**
 * Rail of a leaf switch of a rail-optimized fabric, 1-based (the rail
 * most of its HCAs have, as above), and in *unit (may be NULL) its
 * scalable unit, 1-based in the analysis' order, 0 when in none.
 * 0 (and *unit 0) for other switches and nodes, NULL, and fabrics that
 * are not rail-optimized.
 */
unsigned ibtopo_topology_node_rail(const struct ibtopo_topology *topo,
				   const struct ibtopo_node *node, size_t *unit);
/** Number of chassis (a director, whatever its chips, counts once). */
size_t ibtopo_topology_chassis_count(const struct ibtopo_topology *topo);

/**
 * Whether OpenSM's ftree routing engine (3.3, without a roots or compute
 * node file) would route this fabric rather than fall back to minhop,
 * judged by its own rules: ranks from the switches cabled to any CA
 * (aggregation nodes too), every CA on the deepest rank, no CA cabled to
 * a CA, and at each rank the same number of up and down port groups and
 * the same cables per group as the rank's first switch. *reason (may be
 * NULL) receives why not, led by OpenSM's error code ("ERR AB26: ..."),
 * borrowed from the analysis; NULL when accepted.
 */
bool ibtopo_topology_opensm_ftree(const struct ibtopo_topology *topo,
				  const char **reason);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_TOPOLOGY_H */
