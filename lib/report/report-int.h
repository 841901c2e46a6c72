/*
 * report-int.h - private to libibtopo: the findings, topology and routes
 * reports that other reports and exports share.
 */
#ifndef IBTOPO_REPORT_INT_H
#define IBTOPO_REPORT_INT_H

#include "ibtopo-int.h"

/* report/report_findings.c */
/** Findings as a JSON array (NULL list: empty); NULL when out of memory. */
struct ibtopo__json *ibtopo__findings_json(const struct ibtopo_findings *list);
/** Findings as text tables grouped by severity, or "no findings". */
int ibtopo__findings_text(const struct ibtopo_sink *opts,
			  const struct ibtopo_findings *list,
			  struct ibtopo_error *err);

/* report/report_routes.c: the routing analysis in reports */
struct ibtopo_routes;
/** Add the "routes" object to a JSON object; IBTOPO_ENOMEM. */
int ibtopo__routes_json(struct ibtopo__json *root,
			const struct ibtopo_routes *r);
/** The routing summary and busiest ports; IBTOPO_EIO, IBTOPO_ENOMEM. */
int ibtopo__routes_text(const struct ibtopo_sink *o,
			const struct ibtopo_routes *r);

/* report/report_topology.c: the topology analysis in reports */
struct ibtopo_topology;
/** Add "topology" and "paths" objects to a JSON object. */
int ibtopo__topology_json(struct ibtopo__json *root,
			  const struct ibtopo_topology *t);
/** The architect's summary: class, level table, blocking, path diversity. */
int ibtopo__topology_text(const struct ibtopo_sink *o,
			  const struct ibtopo_topology *t);

#endif /* IBTOPO_REPORT_INT_H */
