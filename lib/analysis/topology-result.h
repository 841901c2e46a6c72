/*
 * topology-result.h - the result of the topology analysis as the layers
 * above it read it (report_topology.c, the diagram): the analysis object
 * and the names text gives its nodes and chassis. What the files of the
 * analysis give each other stays in topology-int.h.
 */
#ifndef IBTOPO_TOPOLOGY_RESULT_H
#define IBTOPO_TOPOLOGY_RESULT_H

#include "ibtopo-int.h"

#define IBTOPO__NONE ((size_t)-1)

/* ---- the analysis object (topology.c and the files it runs) ---- */

/** A neighbour in the switch graph with the number of cables to it. */
struct ibtopo__adj {
	size_t v;
	unsigned mult;
};

struct ibtopo__tsw {
	const struct ibtopo_node *node;
	int level;		/* 1 = leaves; 0 = unranked */
	size_t chassis;		/* index into chassis[] */
	size_t host_links;	/* links to server CAs */
	size_t leaf;		/* index into leaves[], or IBTOPO__NONE */
	size_t comp;		/* connected component of the switch graph */
	bool low;		/* named by a low-path-diversity finding */
	bool idle;		/* a director's line chip without external links */
	size_t group;		/* Dragonfly+ group, or NONE */
	size_t global;		/* Dragonfly+: links to other groups */
};

struct ibtopo__chassis {
	uint64_t sysimg;	/* 0 = a lone switch without one */
	size_t chips;
	size_t first;		/* first chip (switch index) */
	/* directors (chips >= 2), topology_chassis.c */
	int line_level;		/* level of its line chips; 0 = none */
	size_t line_chips, fabric_chips, idle_chips;
	size_t external_links;	/* cables to servers and other chassis */
	const char *name;	/* director's name in the fabric's strings,
				 * once a finding names it; else NULL */
};

/** Where a server is cabled: a switch and the number of cables. */
struct ibtopo__attach {
	size_t sw;
	unsigned mult;
};

struct ibtopo__group {
	size_t leaves, spines, servers;	/* servers: host links */
	size_t global;			/* links to other groups */
	size_t first;			/* a switch of the group */
};

struct ibtopo__server {
	uint64_t sysimg;		/* or the node GUID when unknown */
	size_t id;			/* index before sorting by name */
	const struct ibtopo_node *ca;	/* its first CA (names it) */
	const struct ibtopo_port *port;	/* a cabled port of it */
	size_t links;			/* cables to switches */
	size_t natt;
	struct ibtopo__attach *att;	/* sorted by switch */
	bool low;
};

/** Values counted over pairs: (value, number of pairs), value ascending. */
struct ibtopo__bin {
	unsigned long long value;
	unsigned long long pairs;
};

struct ibtopo__dist {
	bool computed;
	struct ibtopo__bin *bins;
	size_t nbins;
	unsigned long long pairs;
};

#define IBTOPO__WORST_PAIRS 10

struct ibtopo__pair {
	size_t a, b;		/* leaf indexes */
	unsigned long long edge, node, ecmp;
};

struct ibtopo_topology {
	const struct ibtopo_fabric *fabric;
	enum ibtopo_topology_class cls;
	const char *shape;
	const char *reason;	/* why not a fat tree: static, reason_buf or NULL */
	char reason_buf[320];
	unsigned nlevels;
	unsigned min_paths;
	bool from_roots;
	size_t nroots;

	size_t nsw;
	struct ibtopo__tsw *sw;		/* switches, in fabric order */
	size_t *node2sw;		/* fabric node index -> switch or NONE */
	size_t *off;			/* CSR: neighbours of switch i are */
	struct ibtopo__adj *adj;	/* adj[off[i]..off[i+1]], by index */
	size_t ncomp;			/* components of the switch graph */

	size_t nchassis;
	struct ibtopo__chassis *chassis;

	struct ibtopo_topology_level *levels;	/* levels[0] = level 1 */
	size_t isl_links, host_links, ca_ca_links, internal_cas;
	size_t violations;		/* links breaking the levels */
	double host_gbps;
	double blocking, bisection;

	size_t nservers;
	struct ibtopo__server *servers;
	enum ibtopo_server_policy server_policy;	/* single or dual */
	bool policy_asked;		/* from the options, not the majority */
	size_t single_homed;		/* servers with all links on one switch */
	size_t *ca_server;		/* per fabric node: server or NONE */

	/* rails (topology_rails.c), when rail-optimized */
	unsigned nrails;
	size_t nunits;			/* scalable units */
	size_t rail_servers;		/* servers on the rails */
	size_t *rail_hcas;		/* per rail: HCAs on it */
	size_t *unit_servers;		/* per unit: servers on the rails */
	int *leaf_rail;			/* per switch: rail (0-based), -1 none */
	size_t *leaf_unit;		/* per switch: unit, or NONE */

	/* Dragonfly+ (topology_dragonfly.c) */
	size_t ngroups;
	struct ibtopo__group *groups;
	size_t *pair_links;		/* ngroups x ngroups global links */
	size_t global_links;
	bool *node_low;			/* per fabric node */

	/* leaf switches: switches with servers, by name */
	bool ftree_ok;			/* OpenSM's ftree engine would route it */
	char ftree_reason[320];		/* why not */

	size_t nleaves;
	size_t *leaves;			/* switch indexes */
	/* paths.c results */
	bool paths_done;
	size_t nclass;			/* twin classes of leaves */
	size_t *leaf_class;		/* per leaf */
	unsigned long long *cc[3];	/* nclass x nclass per measure */
	struct ibtopo__dist leaf_dist[3];
	struct ibtopo__dist server_dist[2];
	const char *leaf_note;		/* why leaf pairs were not computed */
	const char *server_note;	/* why server pairs were not computed */
	struct ibtopo__pair worst[IBTOPO__WORST_PAIRS];
	size_t nworst;
	size_t leaf_flows, node_flows, server_flows;	/* work done */

	/* descriptions and short names several nodes share: text names
	 * those nodes with their GUIDs too */
	struct ibtopo__shared_names desc_names;
	struct ibtopo__shared_names short_names;
};

/* ---- names (topology_base.c) and distributions (paths.c) ---- */
/**
 * A node as text names it, into buf: its description, or with `short_name`
 * its short name, followed by " (0x<guid>)" when other nodes go by it too.
 */
const char *ibtopo__topology_node_text(const struct ibtopo_topology *t,
				       const struct ibtopo_node *node,
				       bool short_name, char *buf, size_t len);
/**
 * A chassis as text names it: its name, with its system image GUID when
 * another chassis has that name too.
 */
const char *ibtopo__topology_chassis_text(const struct ibtopo_topology *t,
					  size_t chassis, char *buf, size_t len);
/**
 * System image GUID of the director a switch is a chip of (a chassis of
 * two chips or more), or 0: a lone switch, a CA, a node of another fabric.
 */
uint64_t ibtopo__topology_director(const struct ibtopo_topology *t,
				   const struct ibtopo_node *node);
/** Description of a switch's chassis ("director" name) into buf. */
const char *ibtopo__topology_chassis_name(const struct ibtopo_topology *t,
					  size_t chassis, char *buf, size_t len);
/** Median of a distribution (0 when empty). */
double ibtopo__dist_median(const struct ibtopo__dist *d);

#endif /* IBTOPO_TOPOLOGY_RESULT_H */
