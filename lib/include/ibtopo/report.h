/*
 * ibtopo/report.h - findings output. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_REPORT_H
#define IBTOPO_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/sink.h>
#include <ibtopo/findings.h>
#include <ibtopo/checks.h>
#include <ibtopo/topology.h>
#include <ibtopo/routing.h>
#include <ibtopo/health.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One sentence a person can act on, for any finding kind, into buf
 * (always NUL-terminated when len > 0). It does not repeat the ends'
 * names unless they are needed. Returns the length the full sentence
 * needs, like snprintf(), or IBTOPO_EINVAL for a NULL finding.
 */
int ibtopo_finding_message(char *buf, size_t len, const struct ibtopo_finding *f);

/**
 * Write findings. Text: a table per severity, errors first, or
 * "no findings"; an end whose description names several nodes (two ends
 * in the list with different GUIDs) reads "desc (0x<guid>) [port]"; of
 * more than 10 findings sharing kind, subkind and severity the table
 * shows the first 5 and a line "... and N more <kind> findings".
 * JSON: {"schema_version":1,"<list_name>":[finding...]} where a finding
 * is {"kind","severity","a":{"node","guid","port"}, "b":{...}, then
 * when set "c","d" (the struct's c/d ends; their meaning per kind is
 * documented with the kind), "message", and the details of its kind
 * when known:
 *   "active","expected" speed or width names (speed/width downgrades,
 *     speed/width below plan); "rated" (cable-underrated: the cable's
 *     rating; "expected" the ports' speed);
 *   "old","new" (diff: speed/width names, port state names, LIDs);
 *   "links" (node added/removed, missing/extra node: link count);
 *   "paths","min_paths" (low-path-diversity);
 *   "evidence" ("port-info", "peers", "plan"); "cause" ("cable",
 *     "port-config", "device-limit", "unknown");
 *   "length_m","reach_m" (cable-over-length);
 *   "media" (cable-over-length: the cable's media);
 *   "detail" (the note, or the subkind: "inter-switch", "hosts",
 *     "model", "switch-model", "one-end", "both-ports", "swapped",
 *     "physical").
 * A port of -1 and a GUID of 0 are null. CSV: one row per finding, the
 * columns every key above (dotted: a.node, a.guid, ...), empty when not
 * set. `list_name` NULL means "findings". An empty list's text is "no
 * findings", or "no differences" when `list_name` is "changes". Returns 0, IBTOPO_EINVAL (no
 * sink, unknown format), IBTOPO_ENOMEM or the sink's error.
 */
int ibtopo_report_findings(const struct ibtopo_sink *sink,
			   const char *list_name,
			   const struct ibtopo_findings *list,
			   struct ibtopo_error *err);

/**
 * ibtopo_report_findings() for findings that name nodes of `a` and `b`
 * (a diff's OLD and NEW, a plan and the actual fabric; either may be
 * NULL): the text names an end "desc (0x<guid>)", in the tables and in
 * the sentences, whenever two nodes of either fabric share its
 * description, not only when the list shows two of them.
 */
int ibtopo_report_findings_of(const struct ibtopo_sink *sink,
			      const char *list_name,
			      const struct ibtopo_findings *list,
			      const struct ibtopo_fabric *a,
			      const struct ibtopo_fabric *b,
			      struct ibtopo_error *err);

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

/**
 * Write an analysis. JSON: ONE object {"schema_version":1,
 * "fabric":{"source","label","snapshot_id","switches","cas","routers",
 * "links","cables","partial"}, with a topology also "topology":{...} and
 * "paths":{...}, then "findings":[...]} (findings as in
 * ibtopo_report_findings()). Text: a summary line of the fabric, the
 * topology summary when there is one, then the findings tables (a
 * description is ambiguous when two nodes of the fabric share it). CSV: the
 * findings only. Same returns as ibtopo_report_findings().
 */
int ibtopo_report_analysis(const struct ibtopo_sink *sink,
			   const struct ibtopo_analysis *analysis,
			   struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_REPORT_H */
