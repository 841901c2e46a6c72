/*
 * ibtopo/analyze.h - ibtopo_analyze(): every analysis of the library over
 * one fabric, and the analysis it makes (ibtopo_report_analysis() in
 * <ibtopo/report.h> writes it). Part of the public interface; programs
 * include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_ANALYZE_H
#define IBTOPO_ANALYZE_H

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/findings.h>
#include <ibtopo/checks.h>
#include <ibtopo/topology.h>
#include <ibtopo/routes_analysis.h>
#include <ibtopo/health.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every result of ibtopo_analyze(), by section; opaque. */
struct ibtopo_analysis_sections;

/** What `ibtopo analyze` reports; everything borrowed. */
struct ibtopo_analysis {
	unsigned version;	/* IBTOPO_ANALYSIS_VERSION */
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_findings *findings;	/* may be NULL: none */
	const struct ibtopo_topology *topology;	/* may be NULL: not analyzed */
	const struct ibtopo_routes *routes;	/* may be NULL: no tables */
	/* set by ibtopo_analyze(): every section the report writes (the
	 * topology and routes above among them); NULL in an analysis the
	 * caller fills in, which reports its topology and routes */
	const struct ibtopo_analysis_sections *sections;
};
#define IBTOPO_ANALYSIS_VERSION 1

enum ibtopo_analyze_flags {
	IBTOPO_ANALYZE_NO_CHECKS = 1u << 0,	/* no link and cable checks */
	IBTOPO_ANALYZE_NO_TOPOLOGY = 1u << 1,	/* no topology analysis */
	IBTOPO_ANALYZE_NO_HEALTH = 1u << 2,	/* no port health (counters) */
	IBTOPO_ANALYZE_NO_ROUTES = 1u << 3,	/* no routing analysis */
};

/** Options of every analysis ibtopo_analyze() runs. */
struct ibtopo_analyze_opts {
	unsigned version;			/* IBTOPO_ANALYZE_OPTS_VERSION */
	struct ibtopo_check_opts checks;	/* ibtopo_check_links() */
	struct ibtopo_topology_opts topology;	/* ibtopo_topology_analyze() */
	unsigned flags;				/* enum ibtopo_analyze_flags */
	/* version 2: the port health section's thresholds
	 * (ibtopo_health_analyze()); version 1 callers get the defaults */
	struct ibtopo_health_opts health;
	/* version 3: the routing section's options (ibtopo_routes_analyze():
	 * bisections, seed, flags); earlier versions get the defaults */
	struct ibtopo_routes_opts routes;
};
#define IBTOPO_ANALYZE_OPTS_VERSION 3
#define IBTOPO_ANALYZE_OPTS_INIT { IBTOPO_ANALYZE_OPTS_VERSION, \
	IBTOPO_CHECK_OPTS_INIT, IBTOPO_TOPOLOGY_OPTS_INIT, 0, \
	IBTOPO_HEALTH_OPTS_INIT, IBTOPO_ROUTES_OPTS_INIT }

/**
 * Run every analysis the library has, in order: the link and cable checks
 * (ibtopo_check_links()), then the topology (ibtopo_topology_analyze()),
 * then port health when ports carry counters (ibtopo_health_analyze() on
 * this one snapshot, opts->health's thresholds: port-errors findings),
 * then, when switches have forwarding tables, the routing
 * (ibtopo_routes_analyze(), opts->routes), each unless a flag skips
 * it. *out is a new analysis whose findings are
 * the findings of all of them, in that order, and whose topology is the
 * topology analysis (NULL when skipped); it borrows the fabric: free it
 * with ibtopo_analysis_free() before the fabric. `opts` may be NULL
 * (defaults). Returns 0, IBTOPO_EINVAL (no fabric or out, unknown opts
 * version), or what the failing analysis returns (see there); on
 * failure *out is NULL.
 */
int ibtopo_analyze(struct ibtopo_analysis **out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_analyze_opts *opts,
		   struct ibtopo_error *err);

/**
 * Free an analysis made by ibtopo_analyze() (never one the caller filled
 * in), its findings and topology; NULL is fine.
 */
void ibtopo_analysis_free(struct ibtopo_analysis *analysis);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_ANALYZE_H */
