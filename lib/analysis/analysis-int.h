/*
 * analysis-int.h - private to libibtopo: the table of analyses
 * ibtopo_analyze() runs (analysis/analyze.c). An analysis is one file
 * that defines a struct ibtopo__analysis and one line in analyze.c.
 */
#ifndef IBTOPO_ANALYSIS_INT_H
#define IBTOPO_ANALYSIS_INT_H

#include "io/io-int.h"

/* What every analysis sees, and where it leaves its results. */
struct ibtopo__analysis_run {
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_analyze_opts *opts;
	struct ibtopo_findings *findings;	/* append here */
	struct ibtopo_topology *topology;	/* the topology analysis' */
	struct ibtopo_routes *routes;		/* the routing analysis' */
};

struct ibtopo__analysis {
	const char *name;
	unsigned skip;		/* enum ibtopo_analyze_flags that skips it */
	int (*run)(struct ibtopo__analysis_run *run, struct ibtopo_error *err);
};

/* analysis/check_speed.c: peer evidence for fabrics without supported sets */
/**
 * Adapter model key of a CA: vendor:device when known, else the HCA name
 * its description ends with ("mlx5_0" -> "mlx5"), else the description;
 * 0 when nothing is known (empty description).
 */
uint64_t ibtopo__adapter_model(const struct ibtopo_node *node);

/* analysis/check_cable.c: per-link cable checks run by ibtopo_check_links() */
/** cable-underrated when the cable is rated below `capable` (a speed bit). */
int ibtopo__check_cable_rating(struct ibtopo_findings *out,
			       const struct ibtopo_link *link, unsigned capable,
			       struct ibtopo_error *err);
/** cable-over-length against the reach table. */
int ibtopo__check_cable_length(struct ibtopo_findings *out,
			       const struct ibtopo_link *link,
			       const struct ibtopo__reach *reach,
			       struct ibtopo_error *err);
/** loopback-cable when both ends are on one switch. */
int ibtopo__check_loopback(struct ibtopo_findings *out,
			   const struct ibtopo_link *link,
			   struct ibtopo_error *err);

#endif /* IBTOPO_ANALYSIS_INT_H */
