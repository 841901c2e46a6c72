/*
 * compare-int.h - private to libibtopo: pairing the links of two fabrics
 * (diff, validate).
 */
#ifndef IBTOPO_COMPARE_INT_H
#define IBTOPO_COMPARE_INT_H

#include "ibtopo-int.h"

/* compare/diff.c: pairs the links of two fabrics whose nodes are matched (diff by
 * GUID, validate by name); the rule is documented in ibtopo.h. */
enum ibtopo__lstate {
	IBTOPO__L_NODE = 1,	/* a node of the link has no counterpart */
	IBTOPO__L_SAME,		/* the same two ports are linked on both sides */
	IBTOPO__L_ONLY,		/* on this side only, unpaired */
	IBTOPO__L_MOVED,	/* on this side only, paired into a move */
};

/* ONE_END, BOTH_PORTS: b[0]-b[1] before, a[0]-a[1] after, a[0] and b[0]
 * the kept end. SWAPPED: b[0]-b[1], b[2]-b[3] before; a[0]-a[1],
 * a[2]-a[3] after, where a[i] is the counterpart of b[0], b[3], b[2], b[1]. */
struct ibtopo__move {
	int subkind;	/* enum ibtopo_move_subkind */
	const struct ibtopo_port *b[4];
	const struct ibtopo_port *a[4];
};

struct ibtopo__link_pairing {
	unsigned char *bstate;	/* per before link (by index): enum ibtopo__lstate */
	unsigned char *astate;	/* per after link */
	const struct ibtopo_link **same;	/* after link of each SAME before link */
	struct ibtopo__move *moves;
	size_t nmoves;
};

/**
 * Classify and pair the links of `before` and `after`. b2a[i] is the after
 * node matched to before node i (NULL = none), a2b the inverse; the
 * matching must be one-to-one. Release with ibtopo__link_pairing_release.
 */
int ibtopo__link_pairing_build(struct ibtopo__link_pairing *out,
			       const struct ibtopo_fabric *before,
			       const struct ibtopo_fabric *after,
			       struct ibtopo_node *const *b2a,
			       struct ibtopo_node *const *a2b,
			       struct ibtopo_error *err);
void ibtopo__link_pairing_release(struct ibtopo__link_pairing *p);
/** Start a finding of `kind` about link l: its ends a and b. */
void ibtopo__link_finding_init(struct ibtopo_finding *f,
			       enum ibtopo_finding_kind kind,
			       const struct ibtopo_link *l);
/**
 * A finding of `kind` for each link of `fabric` that only it has
 * (state[i] IBTOPO__L_ONLY), started by ibtopo__link_finding_init(), then
 * given to fill(f, l, ctx) when not NULL, then added to `out`.
 */
int ibtopo__only_links(struct ibtopo_findings *out,
		       const struct ibtopo_fabric *fabric,
		       const unsigned char *state, enum ibtopo_finding_kind kind,
		       void (*fill)(struct ibtopo_finding *f,
				    const struct ibtopo_link *l, void *ctx),
		       void *ctx, struct ibtopo_error *err);
/** Number of ports of a node with a peer. */
unsigned ibtopo__node_link_count(const struct ibtopo_node *node);
/** True if the node has peers and none of them has a counterpart in map. */
bool ibtopo__peers_all_unmatched(const struct ibtopo_node *node,
				 struct ibtopo_node *const *map);

/* compare/diff_counters.c: error counters grown between OLD and NEW */
int ibtopo__diff_counters(struct ibtopo_findings *out,
			  const struct ibtopo_fabric *old,
			  struct ibtopo_analysis *new_,
			  struct ibtopo_error *err);
/* compare/diff_routes.c: route-changed and route-load-changed findings
 * when both fabrics carry forwarding tables (ibtopo_fabric_diff()). */
int ibtopo__diff_routes(struct ibtopo_findings *out,
			struct ibtopo_analysis *old, struct ibtopo_analysis *new_,
			struct ibtopo_error *err);

#endif /* IBTOPO_COMPARE_INT_H */
