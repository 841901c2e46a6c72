/*
 * topology-int.h - private to the topology analysis: topology.c (the
 * entry point, servers, chassis, classes), topology_levels.c (ranking
 * and roots), topology_rules.c (fat-tree rules), topology_ftree.c
 * (OpenSM's ftree engine), topology_rails.c, topology_dragonfly.c,
 * topology_chassis.c, topology_base.c (names and finding helpers),
 * paths.c and paths_worst.c (path diversity) and graph.c (the only file
 * including <igraph.h>). The result they build, which the report reads,
 * is in topology-result.h.
 */
#ifndef IBTOPO_TOPOLOGY_INT_H
#define IBTOPO_TOPOLOGY_INT_H

#include "analysis/topology-result.h"

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
struct ibtopo__roots;		/* read/read-int.h */
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
/** Append f to list; a NULL list (no findings wanted) takes nothing. */
int ibtopo__topology_add(struct ibtopo_findings *list,
			 const struct ibtopo_finding *f,
			 struct ibtopo_error *err);
/** Switch `sw` of the analysis as a finding's end (no port); none for
 * IBTOPO__NONE. */
void ibtopo__topology_end_switch(struct ibtopo_end *e,
				 const struct ibtopo_topology *t, size_t sw);

#endif /* IBTOPO_TOPOLOGY_INT_H */
