/* fail_spec.h - the elements a --fail SPEC names (whatif, render) */
#ifndef IBTOPO_FAIL_SPEC_H
#define IBTOPO_FAIL_SPEC_H

#include "cli.h"

/* The failed elements, growing (arrays allocated by the caller or by
 * fail_set_alloc()). */
struct fail_set {
	const struct ibtopo_node **nodes;
	const struct ibtopo_link **links;
	size_t nnodes, nlinks;
};

/** A decimal count up to max ("+", "-" and "" refused). */
bool fail_parse_count(const char *s, unsigned max, unsigned *out);
/** Room for `nodes` nodes and `links` links; 0 or EXIT_TROUBLE. */
int fail_set_alloc(struct fail_set *f, size_t nodes, size_t links);
void fail_set_release(struct fail_set *f);
/**
 * Add what each SPEC names (those starting "level:" are skipped: the
 * caller's): a node by name, GUID, S-<guid> or H-<guid>, else a cable
 * by one end, NODE:PORT. 0, or EXIT_TROUBLE after "bad OPTION 'SPEC':
 * why" on stderr.
 */
int fail_set_resolve(struct fail_set *f, const struct ibtopo_fabric *fabric,
		     const char *option, const char *const *specs,
		     size_t nspecs);

#endif /* IBTOPO_FAIL_SPEC_H */
