/*
 * whatif-int.h - private to the failure analysis (analysis/whatif*.c):
 *
 *   whatif.c         the servers' state with failed elements masked, the
 *                    topology of the fabric without them; ibtopo_whatif_run()
 *   whatif_routes.c  the CA routes the forwarding tables send across them
 *   whatif_each.c    single failures ranked: ibtopo_whatif_each()
 *
 * whatif.c calls whatif_routes.c; whatif_each.c calls whatif.c.
 */
#ifndef IBTOPO_WHATIF_INT_H
#define IBTOPO_WHATIF_INT_H

#include "analysis/analysis-int.h"
#include "analysis/topology-result.h"

/* A cable by its ends' node indexes and its link index. */
struct ibtopo__wcable {
	size_t a, b, link; /* of server cables: a the CA, b the switch */
};

/* The analysis of the fabric as it is, and scratch for the evaluations. */
struct ibtopo__whatif_ctx {
	struct ibtopo_analysis *an;
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_topology *topo; /* before */
	size_t *up, *weight;	    /* per node: union-find, server links */
	size_t *fill;		    /* per server: scratch */
	struct ibtopo__wcable *swl; /* cables between switches */
	size_t nswl;
	struct ibtopo__wcable *att; /* server cables, by server */
	size_t *att_off;	    /* server s: att[att_off[s]..[s + 1]] */
	size_t *switches;	    /* the switches' node indexes */
	unsigned char *state; /* per server: 0 isolated, 1 single, 2 more */
	unsigned char *base;  /* the same before the failure */
	bool *dnode, *dlink;  /* the failed elements */
	size_t analyses;      /* topology analyses run */
	struct ibtopo__whatif_count {
		size_t isolated, single;
		size_t new_isolated, became_single;
	} before;
};

/* The topology after the failure, against the one before. */
struct ibtopo__whatif_after {
	struct ibtopo_whatif_side side; /* levels owned */
	size_t dropped, cut;		/* leaf pairs */
};

int ibtopo__whatif_ctx_init(struct ibtopo__whatif_ctx *c,
			    struct ibtopo_analysis *an,
			    struct ibtopo_error *err);
void ibtopo__whatif_ctx_release(struct ibtopo__whatif_ctx *c);
/** Servers isolated and single-homed with the elements masked. */
void ibtopo__whatif_servers(struct ibtopo__whatif_ctx *c, const bool *dnode,
			    const bool *dlink,
			    struct ibtopo__whatif_count *out);
/** The topology analysis of the fabric without the masked elements. */
int ibtopo__whatif_after(struct ibtopo__whatif_ctx *c, const bool *dnode,
			 const bool *dlink, struct ibtopo__whatif_after *out,
			 struct ibtopo_error *err);
/** With forwarding tables: w->routes, ca_pairs, ca_pairs_hit, dests. */
int ibtopo__whatif_routes(struct ibtopo_whatif *w,
			  const struct ibtopo__whatif_ctx *c,
			  struct ibtopo_error *err);

#endif /* IBTOPO_WHATIF_INT_H */
