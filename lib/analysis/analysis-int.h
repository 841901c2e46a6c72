/*
 * analysis-int.h - private to libibtopo: the table of analyses
 * ibtopo_analyze() runs (analysis/analyze.c), and the sections their
 * results make. An analysis is one file that defines a struct
 * ibtopo__analysis and one line in analyze.c; a result it keeps with
 * ibtopo__run_keep() is written by the report section of that name
 * (report/report_analysis.c).
 */
#ifndef IBTOPO_ANALYSIS_INT_H
#define IBTOPO_ANALYSIS_INT_H

#include "io/io-int.h"

/*
 * A result an analysis keeps for the report, besides its findings: one
 * section of ibtopo_report_analysis(), found by name (the section's JSON
 * key). The analysis result owns it and frees it with `free`.
 */
struct ibtopo__section {
	const char *name;
	void *data;
	void (*free)(void *data);
};

/* The sections of an analysis, in the order the analyses kept them. */
struct ibtopo_analysis_sections {
	struct ibtopo__section *items;
	size_t count;
};

/* What every analysis sees, and where it leaves its results. */
struct ibtopo__analysis_run {
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_analyze_opts *opts;
	struct ibtopo_findings *findings;	/* append here */
	struct ibtopo_analysis_sections *sections; /* ibtopo__run_keep() */
	/* results later analyses read (the routing analysis reads the
	 * topology); ibtopo_analyze() keeps them as sections */
	struct ibtopo_topology *topology;	/* the topology analysis' */
	struct ibtopo_routes *routes;		/* the routing analysis' */
};

/**
 * Keep `data` as the section `name` of the analysis being made; it is
 * freed with `free` (NULL: not at all) with the analysis, and at once
 * when this fails. NULL data keeps nothing. Returns 0 or IBTOPO_ENOMEM.
 */
int ibtopo__run_keep(struct ibtopo__analysis_run *run, const char *name,
		     void *data, void (*free)(void *data),
		     struct ibtopo_error *err);

/**
 * The section `name` of an analysis, borrowed; NULL when it has none.
 * In an analysis the caller filled in (no sections) "topology" and
 * "routes" are its public fields.
 */
const void *ibtopo__analysis_section(const struct ibtopo_analysis *an,
				     const char *name);

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
