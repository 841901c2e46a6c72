/*
 * ibtopo/report.h - findings and analysis output. Part of the public
 * interface; programs include <ibtopo.h>, which includes every part.
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
#include <ibtopo/analyze.h>

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
 * JSON: {"findings":[...]} (a diff's changes too), each finding its
 * kind, severity, ends, message and the details of its family, as
 * doc/json.md lists them.
 * A port of -1 and a GUID of 0 are null. CSV: one row per finding, a
 * column per JSON key (dotted: a.node, a.guid, ...), empty when not
 * set. `list_name` says what the list is: NULL or "findings", or
 * "changes" for a diff, whose empty list's text is "no differences"
 * (else "no findings"); the JSON key is "findings" either way (it was
 * `list_name` up to schema_version 1). Returns 0, IBTOPO_EINVAL (no
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

/**
 * Write an analysis. JSON: ONE object, as doc/json.md gives `ibtopo
 * analyze`: the fabric's name and the snapshot read, the keys of each
 * section the analysis has, then the findings (each
 * as in ibtopo_report_findings()). Text: a summary line of the fabric,
 * each section's block (the topology summary, the routing summary), then
 * the findings tables (a description is ambiguous when two nodes of the
 * fabric share it). CSV: the findings only. Every section the options
 * leave is computed first (ibtopo_analysis_findings()); its error is
 * returned as it is. Otherwise the same returns as
 * ibtopo_report_findings().
 */
int ibtopo_report_analysis(const struct ibtopo_sink *sink,
			   struct ibtopo_analysis *analysis,
			   struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_REPORT_H */
