/* whatif_reroute.h - `whatif --reroute ENGINE`: OpenSM's engine routes
 * the fabric as it is and the failed fabric under ibsim, and ibtopo's own
 * sweep reads the tables back */
#ifndef IBTOPO_WHATIF_REROUTE_H
#define IBTOPO_WHATIF_REROUTE_H

#include "cli.h"

/* What one reroute leaves: the swept fabrics, their analyses, and the
 * result the whatif report borrows. */
struct reroute {
	struct ibtopo_fabric *fabric[2];     /* before, after */
	struct ibtopo_analysis *analysis[2]; /* of them */
	struct ibtopo_whatif_reroute result;
	char sm_host[IBTOPO_NODE_NAME_MAX];
};

/**
 * Export the fabric of `w` as it is, and without what failed, to ibsim
 * net files in a private temporary directory; for each, start ibsim,
 * run `opensm -o -R engine` once and `ibtopo discover --routes` under
 * umad2sim, stop ibsim by its PID; analyse the routing of both (with
 * `ao`'s topology options). Programs: $IBSIM, $OPENSM, $UMAD2SIM, else
 * those configure found, else ibsim and opensm in PATH or /usr/sbin and
 * libumad2sim.so where Debian and Fedora put it. 0, or EXIT_TROUBLE
 * after one line on stderr (a program not installed is named).
 */
int reroute_run(struct reroute *out, const struct ibtopo_whatif *w,
		const char *engine, const struct ibtopo_analyze_opts *ao,
		const struct cli_global *g);
/** Free what reroute_run() left; a zeroed struct is fine. */
void reroute_release(struct reroute *r);

#endif /* IBTOPO_WHATIF_REROUTE_H */
