/*
 * analysis-int.h - private to libibtopo: the table of analyses
 * ibtopo_analyze() runs (analysis/analyze.c). An analysis is one file
 * that defines a struct ibtopo__analysis and one line in analyze.c.
 */
#ifndef IBTOPO_ANALYSIS_INT_H
#define IBTOPO_ANALYSIS_INT_H

#include "ibtopo-int.h"

/* What every analysis sees, and where it leaves its results. */
struct ibtopo__analysis_run {
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_analyze_opts *opts;
	struct ibtopo_findings *findings;	/* append here */
	struct ibtopo_topology *topology;	/* the topology analysis' */
};

struct ibtopo__analysis {
	const char *name;
	unsigned skip;		/* enum ibtopo_analyze_flags that skips it */
	int (*run)(struct ibtopo__analysis_run *run, struct ibtopo_error *err);
};

#endif /* IBTOPO_ANALYSIS_INT_H */
