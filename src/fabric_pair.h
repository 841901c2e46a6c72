/* fabric_pair.h - load the two fabrics that diff and validate compare */
#ifndef IBTOPO_FABRIC_PAIR_H
#define IBTOPO_FABRIC_PAIR_H

#include "cli.h"

/**
 * cli_load_fabric() for `a_what` and `b_what` at once, the second in a
 * thread of its own (each reads its own file or database connection;
 * an 11,664-host snapshot takes about 0.3 s). On failure *a and *b are
 * NULL and err holds the first failure, `a_what`'s before `b_what`'s.
 */
int load_fabric_pair(struct ibtopo_fabric **a, struct ibtopo_fabric **b,
		     const struct cli_global *g, const char *a_what,
		     const char *b_what, struct ibtopo_error *err);

/**
 * Two stored snapshots taken in the wrong order: `before` (named
 * `before_what` in the message, "--since", "OLD") taken after `after`,
 * or, unless `same_ok`, both the same snapshot. IBTOPO_EINVAL naming
 * both with their ids, labels and times; 0 otherwise, and always for a
 * file (its time is only its mtime).
 */
int cli_check_order(const struct ibtopo_fabric *before,
		    const struct ibtopo_fabric *after, const char *before_what,
		    const char *after_what, bool same_ok,
		    struct ibtopo_error *err);

#endif
