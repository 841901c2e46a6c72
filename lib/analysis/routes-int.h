/*
 * routes-int.h - private to the routing analysis (analysis/routes*.c):
 * the switches and destinations it works on, the step of one packet
 * through one table, and what the files of the module give each other.
 *
 *   routes_trace.c   tracing by destination on the threads, leaf pairs,
 *                    per-level balance; ibtopo_routes_analyze()
 *   routes_walk.c    the trace of one destination: reachability, loops,
 *                    hops, per-port counts, findings
 *   routes_credit.c  the channel dependency graph and its cycles
 *   routes_ebb.c     effective bisection bandwidth over random bisections
 *   routes_net.c     the net they share and the step of one packet
 *
 * routes_trace.c calls routes_walk.c, routes_credit.c and routes_ebb.c;
 * routes_walk.c calls routes_credit.c; all call routes_net.c, which calls
 * none of them.
 */
#ifndef IBTOPO_ROUTES_INT_H
#define IBTOPO_ROUTES_INT_H

#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

#include <ibtopo/routes_analysis.h>

/* Findings kept per kind; the totals in struct ibtopo_routes count all. */
#define IBTOPO__ROUTES_MAX_FINDINGS 10000

/* One destination LID. */
struct ibtopo__rdest {
	uint16_t lid;
	bool ca;		/* a CA port's LID (else a switch's) */
	bool base;		/* the port's base LID (LMC offset 0) */
	const struct ibtopo_port *port;	/* the CA port, or the switch's port 0 */
	int attach;		/* switch index the port hangs off, or the switch */
};

/* What one table does with one destination: the outcome of a step. */
enum ibtopo__rstep {
	IBTOPO__STEP_NEXT = 0,		/* on to switch *next */
	IBTOPO__STEP_DELIVERED,		/* reached the destination */
	IBTOPO__STEP_HOLE,		/* dropped (*hole says why) */
};

/* The switches and destinations, shared by the files of the module. */
struct ibtopo__rnet {
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_topology *topo;
	size_t nsw;
	struct ibtopo_node **sw;	/* switch index -> node */
	int *swid;			/* node index -> switch index, or -1 */
	size_t *pbase;			/* switch index -> first port id */
	size_t nport_ids;		/* sum over switches of nports + 1 */
	int *level;			/* switch index -> level, 0 unknown */
	uint32_t *local;		/* switch index -> CA sources cabled to it */
	struct ibtopo__rdest *dest;
	size_t ndest;
	/* the CA sources: port, the switch it is cabled to, its base LID */
	const struct ibtopo_port **src;
	int *src_sw;
	size_t nsrc;
	/*
	 * What each switch port leads to, so a step reads two arrays, not
	 * five structs: port id -> next switch (>= 0) or an IBTOPO__NBR_*;
	 * for IBTOPO__NBR_PEER the node's port in peer[].
	 */
	int *nbr;
	const struct ibtopo_port **peer;
	uint8_t *rnum;			/* port id -> the peer's port number */
	uint8_t *has_table;		/* switch index -> has an LFT */
	const uint8_t **lft;		/* switch index -> its entries, or NULL */
	unsigned *lft_top;		/* switch index -> its LinearFDBTop */
	/* ibtopo__rnet_rows(): destination index -> the entry of every
	 * switch for it (ndest rows of nsw), so that a trace reads one row */
	uint8_t *rows;
};

#define IBTOPO__NBR_SELF (-1)		/* port 0 */
#define IBTOPO__NBR_NO_PORT (-2)
#define IBTOPO__NBR_UNCONNECTED (-3)
#define IBTOPO__NBR_DOWN (-4)
#define IBTOPO__NBR_PEER (-5)		/* a CA or router */

/* routes_net.c */
/** "'leaf01' [39]": a port as a note names it, into buf. */
void ibtopo__route_port_name(char *buf, size_t len,
			     const struct ibtopo_port *port);

/** Build the net of a fabric (its topology gives the levels, or NULL). */
int ibtopo__rnet_build(struct ibtopo__rnet *net,
		       const struct ibtopo_fabric *fabric,
		       const struct ibtopo_topology *topo,
		       struct ibtopo_error *err);
/** The tables by destination: net->rows, built on the threads. */
int ibtopo__rnet_rows(struct ibtopo__rnet *net, struct ibtopo_error *err);
/** Free what ibtopo__rnet_build() allocated (not `net` itself). */
void ibtopo__rnet_release(struct ibtopo__rnet *net);

/** A usable link: cabled, and active as far as the ports tell. */
bool ibtopo__route_link_up(const struct ibtopo_port *p);

/** The table's entry at switch `s` for `lid`: 255 past its top or without. */
unsigned ibtopo__route_entry(const struct ibtopo__rnet *net, size_t s,
			     unsigned lid);

/**
 * One step of a packet for `d` at switch `s`, whose table entry for it is
 * `e`: the next switch, delivery, or a hole with its reason. `*port` is
 * the entry (-1 without a table).
 */
enum ibtopo__rstep ibtopo__route_step(const struct ibtopo__rnet *net, size_t s,
				      const struct ibtopo__rdest *d, unsigned e,
				      int *next, int *port,
				      enum ibtopo_route_hole *hole);

/*
 * The channel dependency graph: a channel is a switch out-port cabled to
 * a switch, numbered by its port id. Routes add the turns they take.
 */
struct ibtopo__cdg;
int ibtopo__cdg_new(struct ibtopo__cdg **out, const struct ibtopo__rnet *net);
void ibtopo__cdg_free(struct ibtopo__cdg *g);
/** A route enters switch `s` by port `in` and leaves by port `out`. */
void ibtopo__cdg_turn(struct ibtopo__cdg *g, size_t s, unsigned in,
		      unsigned out);
/** Add the turns of `from` (a graph of the same net) to `g`. */
void ibtopo__cdg_merge(struct ibtopo__cdg *g, const struct ibtopo__cdg *from);
/**
 * Find the cycles (one per strongly connected component with one) and
 * report each as a credit-loop finding; its note, the links in order,
 * is appended to `notes` (owned by the result). Returns 0 or an error.
 */
int ibtopo__cdg_cycles(struct ibtopo__cdg *g, const struct ibtopo__rnet *net,
		       size_t *count, struct ibtopo_findings *findings,
		       char ***notes, size_t *nnotes,
		       struct ibtopo_error *err);

/** Effective bisection bandwidth: mean and min over the bisections. */
int ibtopo__routes_ebb(const struct ibtopo__rnet *net, unsigned bisections,
		       uint64_t seed, double *mean, double *min,
		       struct ibtopo_error *err);

/* routes_walk.c: the trace of one destination */
#define IBTOPO__DIST_INF 0xffffu

/* The result with what its findings borrow. */
struct ibtopo__owned_routes {
	struct ibtopo_routes pub;	/* first: ibtopo_routes_free() */
	char **notes;
	size_t nnotes;
};

/* One fault of the destination being traced. */
struct ibtopo__fault {
	enum ibtopo_finding_kind kind;
	int sw, port;
	int subkind;
	uint64_t routes;		/* CA routes it hits */
};

/* A switch's outcome for the destination being traced. */
enum { IBTOPO__ST_NEW = 0, IBTOPO__ST_STACK, IBTOPO__ST_DONE };

/*
 * The trace of one destination at a time: the net, its scratch and its
 * sums. Each thread has one; routes_trace.c adds their sums up.
 */
struct ibtopo__trace {
	struct ibtopo__rnet net;
	struct ibtopo__owned_routes *res;
	struct ibtopo_findings *findings;
	struct ibtopo__cdg *cdg;
	/* per switch, for the destination being traced */
	uint8_t *state;
	int *next;		/* next switch; -1 delivered here; -2 fault */
	int *outp;		/* the table's entry (out-port) */
	uint16_t *hops;		/* links to the destination when delivered */
	int *fault;		/* fault index, or -1 */
	int *pos;		/* position on the walk's stack */
	int *stack;
	int *order;		/* resolved switches, successor first */
	size_t norder;
	uint64_t *flow;
	int *top;		/* highest-level switch on the way on */
	/* the entries of every switch for the destination: net.rows' row */
	const uint8_t *row;
	struct ibtopo__fault *faults;
	size_t nfaults, afaults;
	/* cabled switch distances, rows computed on demand */
	size_t *adj_start;
	int *adj;
	uint16_t **dist;
	int *queue;
	/* totals */
	uint64_t *port_routes;
	uint32_t *port_dlids;
	size_t kept[4];		/* findings kept: hole, loop, long, credit */
};


/** The scratch of `t` for its net (set before); 0 or IBTOPO_ENOMEM. */
int ibtopo__trace_alloc(struct ibtopo__trace *t, struct ibtopo_error *err);
/** The switch graph the cable distances are computed on. */
int ibtopo__trace_adjacency(struct ibtopo__trace *t, struct ibtopo_error *err);
/** Free the scratch and the graph of channel dependencies (not the net). */
void ibtopo__trace_release(struct ibtopo__trace *t);
/** Trace destination `d` (its row in t->row): walk every switch, then
 * count into t's sums and findings. */
int ibtopo__trace_one(struct ibtopo__trace *t, const struct ibtopo__rdest *d,
		      struct ibtopo_error *err);

#endif /* IBTOPO_ROUTES_INT_H */
