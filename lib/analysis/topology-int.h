/*
 * topology-int.h - private to the topology analysis: topology.c (the
 * entry point, servers, chassis, classes), topology_levels.c (ranking
 * and roots), topology_rules.c (fat-tree rules), topology_ftree.c
 * (OpenSM's ftree engine), topology_rails.c, topology_dragonfly.c,
 * topology_chassis.c, topology_base.c (names and finding helpers),
 * paths.c and paths_worst.c (path diversity), report_topology.c (JSON
 * and text) and graph.c (the only file including <igraph.h>).
 */
#ifndef IBTOPO_TOPOLOGY_INT_H
#define IBTOPO_TOPOLOGY_INT_H

#include "ibtopo-int.h"

#define IBTOPO__NONE ((size_t)-1)

/* ---- graph.c: graph algorithms over plain arrays ---- */

/** An edge u-v (or arc u->v in a directed network) with a capacity. */
struct ibtopo__edge {
	size_t u, v;
	double cap;
};

/**
 * Gomory-Hu tree of an undirected graph on n vertices (the edges'
 * capacities as weights): n - 1 tree edges written to tree[] (caller
 * allocates n). The minimum cut between two vertices is the lightest
 * edge on their tree path. Returns the number of tree edges in
 * *out_count. IBTOPO_ERROR if igraph fails, IBTOPO_ENOMEM.
 */
int ibtopo__graph_gomory_hu(struct ibtopo__edge *tree, size_t *out_count,
			    size_t n, const struct ibtopo__edge *edges,
			    size_t nedges, struct ibtopo_error *err);

/** A flow network built once and queried many times. */
struct ibtopo__flownet;

/** Build a network; `directed` false: each edge carries flow both ways. */
int ibtopo__flownet_new(struct ibtopo__flownet **out, size_t n,
			const struct ibtopo__edge *edges, size_t nedges,
			bool directed, struct ibtopo_error *err);
void ibtopo__flownet_free(struct ibtopo__flownet *net);
/** Change the capacity of edge i (in the order given to _new). */
void ibtopo__flownet_set_cap(struct ibtopo__flownet *net, size_t i, double cap);
/** Maximum flow value from s to t. IBTOPO_ERROR if igraph fails. */
int ibtopo__flownet_maxflow(double *out, struct ibtopo__flownet *net,
			    size_t s, size_t t, struct ibtopo_error *err);

/**
 * Name of the shape of a connected simple graph: "line", "ring",
 * "full-mesh", "torus", "mesh" (2-D grid), "hypercube", or NULL.
 */
const char *ibtopo__graph_shape(size_t n, const struct ibtopo__edge *edges,
				size_t nedges);

/**
 * Biconnected components of three vertices or more (a two-vertex block
 * is a bridge: one path), listed per vertex as CSR arrays the caller
 * frees: the blocks holding vertex v are vblk[voff[v]..voff[v + 1]].
 * Two vertices sharing such a block have two vertex-disjoint paths.
 */
int ibtopo__graph_blocks(size_t **out_voff, size_t **out_vblk, size_t n,
			 const struct ibtopo__edge *edges, size_t nedges,
			 struct ibtopo_error *err);

/**
 * BFS from src over a CSR adjacency (off[n + 1], nbr[]): dist[v] (hops,
 * UINT_MAX unreachable) and count[v], the number of distinct shortest
 * vertex sequences from src to v (as a double: it can exceed 2^64).
 * `queue` is scratch of n entries.
 */
void ibtopo__graph_count_shortest(unsigned *dist, double *count, size_t *queue,
				  size_t n, const size_t *off, const size_t *nbr,
				  size_t src);

/* ---- topology.c: the analysis object ---- */

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

/* paths.c */
/** Path diversity for leaf pairs and servers; appends findings. */
int ibtopo__paths_analyze(struct ibtopo_topology *t,
			  struct ibtopo_findings *findings, unsigned flags,
			  struct ibtopo_error *err);
void ibtopo__paths_release(struct ibtopo_topology *t);
/** The count of measure m between leaf classes i and j. */
static inline unsigned long long *
ibtopo__paths_cell(struct ibtopo_topology *t, int m, size_t i, size_t j)
{
	return &t->cc[m][i * t->nclass + j];
}

/* paths_worst.c: from the leaf-pair counts paths.c left in cc[] */
/** The IBTOPO__WORST_PAIRS leaf pairs with the fewest paths (worst[]). */
int ibtopo__paths_worst(struct ibtopo_topology *t, struct ibtopo_error *err);
/** Low-path-diversity findings for leaf pairs below min_paths. */
int ibtopo__paths_leaf_findings(struct ibtopo_topology *t,
				struct ibtopo_findings *out,
				struct ibtopo_error *err);
/** Median of a distribution (0 when empty). */
double ibtopo__dist_median(const struct ibtopo__dist *d);

/* topology_rails.c */
/**
 * Recognize rails in a fat tree (class becomes rail-optimized) and
 * append the rail-mismatch findings.
 */
int ibtopo__rails_analyze(struct ibtopo_topology *t,
			  struct ibtopo_findings *findings,
			  struct ibtopo_error *err);

/* topology_dragonfly.c */
/** Class dragonfly-plus when the fabric is one (sets groups). */
int ibtopo__dragonfly_detect(struct ibtopo_topology *t,
			     struct ibtopo_error *err);
/** The Dragonfly+ rules: dragonfly-violation findings. */
int ibtopo__dragonfly_findings(struct ibtopo_topology *t,
			       struct ibtopo_findings *findings,
			       struct ibtopo_error *err);

/* topology_chassis.c */
/**
 * After the levels: a director's line chips without external links get
 * their chassis' line level and are marked idle; counts line, fabric and
 * idle chips and external links per chassis.
 */
int ibtopo__chassis_rank(struct ibtopo_topology *t, struct ibtopo_error *err);

/* topology_levels.c */
struct ibtopo__roots;		/* io/io-int.h */
/**
 * Rank the switches: down from the roots (the roots file as io read it,
 * and the switches whose descriptions match opts->root_pattern), else
 * up from the leaves. Sets levels, from_roots and nroots.
 */
int ibtopo__levels_rank(struct ibtopo_topology *t,
			const struct ibtopo_topology_opts *opts,
			const struct ibtopo__roots *roots,
			struct ibtopo_error *err);
/** Multi-source BFS: hops from the nearest source; -1 if unreachable. */
void ibtopo__levels_bfs(const struct ibtopo_topology *t, const bool *src,
			int *dist, size_t *queue);
/** Links the layering `level` (per switch) breaks, counted per cable. */
size_t ibtopo__levels_violations(const struct ibtopo_topology *t,
				 const int *level);
/** The figures of each level (t->levels). */
int ibtopo__levels_stats(struct ibtopo_topology *t, struct ibtopo_error *err);

/* topology_ftree.c */
/** Would OpenSM's ftree engine route it: sets ftree_ok, ftree_reason. */
int ibtopo__ftree_emulate(struct ibtopo_topology *t, struct ibtopo_error *err);

/* topology_rules.c: the fat-tree rules' findings */
/** Links breaking the levels (findings when `rules`, else counted). */
int ibtopo__rules_links(struct ibtopo_topology *t,
			struct ibtopo_findings *out, bool rules,
			struct ibtopo_error *err);
/** Switches whose uplinks differ from their level's usual count. */
int ibtopo__rules_uplinks(struct ibtopo_topology *t,
			  struct ibtopo_findings *out,
			  struct ibtopo_error *err);
/** Servers with fewer paths than the policy wants (marks them low). */
int ibtopo__rules_servers(struct ibtopo_topology *t,
			  enum ibtopo_server_policy asked,
			  struct ibtopo_findings *out,
			  struct ibtopo_error *err);

/*
 * topology_base.c: what the files of the topology analysis and the
 * renderer share. topology.c calls topology_levels.c, topology_ftree.c,
 * topology_rules.c, topology_rails.c, topology_dragonfly.c,
 * topology_chassis.c and paths.c (topology_ftree.c also calls the levels'
 * BFS); all of them call topology_base.c, which calls none of them.
 */
static inline bool ibtopo__topology_is_switch(const struct ibtopo_node *n)
{
	return n && n->type == IBTOPO_NODE_SWITCH;
}
/** 'name' as a reason quotes a node: with its GUID when several share it. */
const char *ibtopo__topology_quoted(const struct ibtopo_topology *t,
				    const struct ibtopo_node *n, char *buf,
				    size_t len);
/** qsort() order of struct ibtopo__edge: by u, then v. */
int ibtopo__edge_cmp(const void *x, const void *y);
/** The node namer giving short names ("ib1" for "MF0;ib1:..."). */
const char *ibtopo__topology_short_namer(void *arg,
					 const struct ibtopo_node *n,
					 char *buf, size_t len);
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
/** Append f to list; a NULL list (no findings wanted) takes nothing. */
int ibtopo__topology_add(struct ibtopo_findings *list,
			 const struct ibtopo_finding *f,
			 struct ibtopo_error *err);
/** Switch `sw` of the analysis as a finding's end (no port); none for
 * IBTOPO__NONE. */
void ibtopo__topology_end_switch(struct ibtopo_end *e,
				 const struct ibtopo_topology *t, size_t sw);
/** Description of a switch's chassis ("director" name) into buf. */
const char *ibtopo__topology_chassis_name(const struct ibtopo_topology *t,
					  size_t chassis, char *buf, size_t len);

#endif /* IBTOPO_TOPOLOGY_INT_H */
