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

/*
 * The analysis of one fabric: the fabric, the options, and each section's
 * result, computed on first use and kept. It is what every output reads
 * (the report, the writers, the metrics, the diagram), so they all say
 * what one set of options found. Opaque; made by ibtopo_analysis_new()
 * or ibtopo_analyze(), freed by ibtopo_analysis_free(). Not thread-safe:
 * one thread uses an analysis at a time.
 */
struct ibtopo_analysis;

/*
 * Threads: route tracing and path diversity run on a pool of worker
 * threads; their results are the same whatever the count.
 */
#define IBTOPO_THREADS_MAX 1024
/** Use `n` threads (1 to IBTOPO_THREADS_MAX); 0 for the default, the
 * CPUs the process may use. Set it before analysing: the library reads
 * it when an analysis starts. IBTOPO_EINVAL past the maximum. */
int ibtopo_set_threads(unsigned n);
/** The threads an analysis uses now (at least 1). */
unsigned ibtopo_threads(void);

enum ibtopo_analyze_flags {
	IBTOPO_ANALYZE_NO_CHECKS = 1u << 0,	/* no link and cable checks */
	IBTOPO_ANALYZE_NO_TOPOLOGY = 1u << 1,	/* no topology analysis */
	IBTOPO_ANALYZE_NO_HEALTH = 1u << 2,	/* no port health (counters) */
	IBTOPO_ANALYZE_NO_ROUTES = 1u << 3,	/* no routing analysis */
};

/** Options of every analysis of an analysis. */
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
	/* version 4: the port health section against an earlier snapshot of
	 * the same fabric (borrowed; NULL: this snapshot alone), and then
	 * the traffic per level with its `top` busiest links (0: 10) */
	const struct ibtopo_fabric *since;
	size_t traffic_top;
	/* version 5: an input given as text rather than by path (standard
	 * input, say), borrowed, NUL-terminated: when set it is read in
	 * place of its file (checks.reach_path, topology.roots_file,
	 * health.thresholds_path), whose path, when set, names it in
	 * messages ("-" when not) */
	const char *reach_text;
	const char *roots_text;
	const char *thresholds_text;
};
#define IBTOPO_ANALYZE_OPTS_VERSION 5
#define IBTOPO_ANALYZE_OPTS_INIT { IBTOPO_ANALYZE_OPTS_VERSION, \
	IBTOPO_CHECK_OPTS_INIT, IBTOPO_TOPOLOGY_OPTS_INIT, 0, \
	IBTOPO_HEALTH_OPTS_INIT, IBTOPO_ROUTES_OPTS_INIT, NULL, 0, NULL, \
	NULL, NULL }

/**
 * A new analysis of `fabric` (borrowed: free the analysis first) with a
 * copy of `opts` (NULL: the defaults; the paths and the `since` fabric
 * it names are borrowed too). Nothing is computed yet. Returns 0,
 * IBTOPO_EINVAL (no fabric or out, an unknown options version) or
 * IBTOPO_ENOMEM.
 */
int ibtopo_analysis_new(struct ibtopo_analysis **out,
			const struct ibtopo_fabric *fabric,
			const struct ibtopo_analyze_opts *opts,
			struct ibtopo_error *err);

/**
 * ibtopo_analysis_new(), then every section the flags leave, in order,
 * and their findings collected (ibtopo_analysis_findings()). On failure
 * *out is NULL and the error is the failing section's.
 */
int ibtopo_analyze(struct ibtopo_analysis **out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_analyze_opts *opts,
		   struct ibtopo_error *err);

/** Free an analysis and every result it keeps; NULL is fine. */
void ibtopo_analysis_free(struct ibtopo_analysis *analysis);

/** The fabric and the options of an analysis (borrowed). */
const struct ibtopo_fabric *
ibtopo_analysis_fabric(const struct ibtopo_analysis *analysis);
const struct ibtopo_analyze_opts *
ibtopo_analysis_opts(const struct ibtopo_analysis *analysis);

/*
 * The sections. Each computes on its first call and keeps its result
 * (and its error: a failed section fails the same way again); *out is
 * borrowed from the analysis. A section its flag skips gives NULL and 0.
 * Their errors are those of the functions named.
 */
/** The link and cable checks' findings (ibtopo_check_links()). */
int ibtopo_analysis_links(struct ibtopo_analysis *analysis,
			  const struct ibtopo_findings **out,
			  struct ibtopo_error *err);
/**
 * The speed and width bits `link` (of the analysis' fabric) could run
 * at, the one rule of every output: its active ones, unless the link
 * checks found it downgraded (a speed- or width-downgrade finding of
 * warning or error; an info one, such as a device-limit end, is a fact,
 * not a fault), then what they expect. So a link runs below this exactly
 * when analyze warns that it is downgraded. Without the checks
 * (IBTOPO_ANALYZE_NO_CHECKS) its active ones.
 */
int ibtopo_analysis_link_possible(struct ibtopo_analysis *analysis,
				  const struct ibtopo_link *link,
				  unsigned *speed, unsigned *width,
				  struct ibtopo_error *err);
/** The topology (ibtopo_topology_analyze()). */
int ibtopo_analysis_topology(struct ibtopo_analysis *analysis,
			     const struct ibtopo_topology **out,
			     struct ibtopo_error *err);
/**
 * Port health (ibtopo_health_analyze() against opts->since; with it, the
 * traffic per level of ibtopo_health_traffic() too); NULL when no port
 * carries counters.
 */
int ibtopo_analysis_health(struct ibtopo_analysis *analysis,
			   const struct ibtopo_health **out,
			   struct ibtopo_error *err);
/**
 * The multicast forwarding (ibtopo_mcast_analyze()); NULL without
 * multicast tables or groups. Skipped with the routing.
 */
int ibtopo_analysis_mcast(struct ibtopo_analysis *analysis,
			  const struct ibtopo_mcast **out,
			  struct ibtopo_error *err);
/** The routing (ibtopo_routes_analyze()); NULL without tables. */
int ibtopo_analysis_routes(struct ibtopo_analysis *analysis,
			   const struct ibtopo_routes **out,
			   struct ibtopo_error *err);
/** One subnet manager of ibtopo_analysis_subnet_managers(). */
struct ibtopo_sm_entry {
	const struct ibtopo_sm *sm;	/* its SMInfo (the fabric's) */
	const struct ibtopo_node *node;	/* its node; NULL when not swept */
	uint16_t lid;			/* its port's LID (a switch's port 0) */
};
/** The subnet managers of a live sweep. */
struct ibtopo_subnet_managers {
	/* the master first, then standby, discovering, not active and
	 * silent ones (SMInfo not answered), each by priority, highest first */
	struct ibtopo_sm_entry *items;
	size_t count;
	size_t masters, standbys, silent;
};
/**
 * The subnet managers (every IsSM port the sweep asked for its SMInfo);
 * NULL for a fabric that does not say (a file; a sweep that did not
 * ask). The sm-state findings judge them.
 */
int ibtopo_analysis_subnet_managers(struct ibtopo_analysis *analysis,
				    const struct ibtopo_subnet_managers **out,
				    struct ibtopo_error *err);
/**
 * Every section's findings, in the order of the sections (links,
 * topology, health, routes), after the findings about the input added
 * with ibtopo_analysis_note(); computes every section not yet computed.
 * A cable the checks find over length or under-rated whose ports have
 * errors is one failing-cable finding.
 */
int ibtopo_analysis_findings(struct ibtopo_analysis *analysis,
			     const struct ibtopo_findings **out,
			     struct ibtopo_error *err);
/* The sections, in the order they run and their findings come. */
enum ibtopo_analysis_section {
	IBTOPO_SECTION_LINKS,		/* the link and cable checks */
	IBTOPO_SECTION_TOPOLOGY,
	IBTOPO_SECTION_HEALTH,
	IBTOPO_SECTION_ROUTES,
	IBTOPO_SECTION_MCAST,		/* multicast forwarding */
};

/**
 * One section's own findings (computing it first), for a command that
 * reports that section alone (health, routes); IBTOPO_EINVAL for a
 * section it does not know. The failing-cable merge of
 * ibtopo_analysis_findings() is not applied.
 */
int ibtopo_analysis_section_findings(struct ibtopo_analysis *analysis,
				     enum ibtopo_analysis_section section,
				     const struct ibtopo_findings **out,
				     struct ibtopo_error *err);

/**
 * Findings about the input (a cable row that matched nothing, say),
 * copied: they come first in ibtopo_analysis_findings(). Before it only
 * (IBTOPO_EINVAL after).
 */
int ibtopo_analysis_note(struct ibtopo_analysis *analysis,
			 const struct ibtopo_findings *input,
			 struct ibtopo_error *err);

/**
 * Where an analysis says what it computes: one line per section, once,
 * "<section>: <what it found> in <seconds> s" (no newline), as it
 * finishes. NULL stops it.
 */
void ibtopo_analysis_set_log(struct ibtopo_analysis *analysis,
			     void (*log)(void *ctx, const char *line),
			     void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_ANALYZE_H */
