/*
 * report-int.h - private to libibtopo: the findings report other reports
 * share, and the sections of the analysis report.
 */
#ifndef IBTOPO_REPORT_INT_H
#define IBTOPO_REPORT_INT_H

#include "ibtopo-int.h"

/* report/report_findings.c */
/** Findings as a JSON array (NULL list: empty); NULL when out of memory. */
struct ibtopo__json *ibtopo__findings_json(const struct ibtopo_findings *list);
/**
 * Findings as text tables grouped by severity, or "no findings"; a
 * description two nodes of `fabrics` share (or two ends in the list)
 * gets the GUID.
 */
int ibtopo__findings_text(const struct ibtopo_sink *sink,
			  const struct ibtopo_fabric *const *fabrics,
			  size_t nfabrics, const struct ibtopo_findings *list,
			  struct ibtopo_error *err);
/** IBTOPO_EINVAL unless the sink writes text, JSON or CSV. */
int ibtopo__report_check_sink(const struct ibtopo_sink *sink,
			      struct ibtopo_error *err);
/** Write a JSON document and free it; NULL root: IBTOPO_ENOMEM. */
int ibtopo__report_json_doc(const struct ibtopo_sink *sink,
			    struct ibtopo__json *root,
			    struct ibtopo_error *err);

/* report/report_topology.c */
/** A rate in Gb/s as "1.6 Tb/s" or "800 Gb/s", written into buf. */
const char *ibtopo__report_gbps(double g, char *buf, size_t len);

/* report/report_routes.c */
/** A routing analysis as `routes`' "routes" object; NULL: no memory. */
struct ibtopo__json *ibtopo__report_routes_json(const struct ibtopo_routes *r);

/* report/report_whatif_reroute.c: whatif->reroute in the whatif report */
struct ibtopo__wr;
struct ibtopo_whatif;
/** The "reroute" object; NULL when out of memory. */
struct ibtopo__json *ibtopo__reroute_json(const struct ibtopo_whatif *w);
/** Its text block (csv: "reroute_<metric>,before,after" rows, then an
 * empty line and the busiest ports table). */
void ibtopo__reroute_text(struct ibtopo__wr *wr, const struct ibtopo_whatif *w,
			  bool csv);

/*
 * A section of ibtopo_report_analysis(): how one section of the analysis
 * (its field of struct ibtopo_analysis, computed) reads in JSON and in
 * text; both write nothing when the analysis has no such result. One
 * descriptor in the section's file, one line in report_analysis.c.
 */
struct ibtopo_analysis;
struct ibtopo__report_section {
	const char *name;
	/** Add its keys to the document's object; IBTOPO_ENOMEM. */
	int (*json)(struct ibtopo__json *root, const struct ibtopo_analysis *an);
	/** Its text block, then a blank line; IBTOPO_EIO or IBTOPO_ENOMEM. */
	int (*text)(const struct ibtopo_sink *sink,
		    const struct ibtopo_analysis *an);
};

/* report/report_mcast.c: the multicast block of analyze and routes */
int ibtopo__mcast_json(struct ibtopo__json *root, const struct ibtopo_mcast *mc);
int ibtopo__mcast_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_mcast *mc);
int ibtopo__mcast_csv(const struct ibtopo_sink *sink,
		      const struct ibtopo_mcast *mc);

#endif /* IBTOPO_REPORT_INT_H */
