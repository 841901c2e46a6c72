/*
 * report_analysis.c - ibtopo_report_analysis(): the fabric, every
 * section of the analysis that has a report (computed first), in the
 * order of analysis/sections.h, then the findings. A section's report is
 * one file, lib/report/report_<name>.c, defining its struct
 * ibtopo__report_section; its line in sections.h says it has one.
 */
#include "report/report-int.h"
#include "analysis/analysis-int.h"

/* The sections with a report, in the files of their reports and the
 * order of analysis/sections.h. */
#define REPORT_0(name)
#define REPORT_1(name)                             \
	extern const struct ibtopo__report_section \
		ibtopo__report_section_##name;
#define IBTOPO__SECTION(name, NAME, result, report) REPORT_##report(name)
#include "analysis/sections.h"
#undef IBTOPO__SECTION
#undef REPORT_1

#define REPORT_1(name) &ibtopo__report_section_##name,
static const struct ibtopo__report_section *const sections[] = {
#define IBTOPO__SECTION(name, NAME, result, report) REPORT_##report(name)
#include "analysis/sections.h"
#undef IBTOPO__SECTION
};
#undef REPORT_1
#undef REPORT_0

static int analysis_json(const struct ibtopo_sink *sink,
			 const struct ibtopo_analysis *an,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	/* One object: the fabric's name (a snapshot's, as every report
	 * has it) and what was read, the sections, then the findings. */
	struct ibtopo__json *root = ibtopo__json_report(an->fabric);
	int rc = !root || ibtopo__json_set(root, "snapshot",
					   ibtopo__json_snapshot(an->fabric));

	for (size_t i = 0; !rc && i < IBTOPO__ARRAY_SIZE(sections); i++)
		rc = sections[i]->json(root, an);
	if (!rc)
		rc = ibtopo__json_set(root, "findings",
				      ibtopo__findings_json(findings));
	if (rc) {
		ibtopo__json_free(root);
		root = NULL;
	}
	return ibtopo__report_json_doc(sink, root, err);
}

/* "snapshot 3 (label): 2 switches, ..." */
static int fabric_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_fabric *f)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	struct ibtopo__wr w = { sink, 0 };

	if (m->snapshot_id > 0)
		ibtopo__wr_printf(&w, "snapshot %lld",
				  (long long)m->snapshot_id);
	else
		ibtopo__wr_printf(&w, "fabric %s",
				  m->source ? m->source : "(unnamed)");
	if (m->label)
		ibtopo__wr_printf(&w, " (%s)", m->label);
	ibtopo__wr_printf(
		&w,
		": %zu switches, %zu CAs, %zu routers, %zu links, %zu with cable data%s\n\n",
		ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH),
		ibtopo_fabric_count_type(f, IBTOPO_NODE_CA),
		ibtopo_fabric_count_type(f, IBTOPO_NODE_ROUTER),
		ibtopo_fabric_link_count(f), ibtopo__fabric_cable_count(f),
		m->partial ? " (PARTIAL)" : "");
	return w.rc;
}

static int analysis_text(const struct ibtopo_sink *sink,
			 const struct ibtopo_analysis *an,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	int rc = fabric_text(sink, an->fabric);

	for (size_t i = 0; !rc && i < IBTOPO__ARRAY_SIZE(sections); i++)
		rc = sections[i]->text(sink, an);
	if (rc)
		return ibtopo__error_set(err, rc, "cannot write output");
	return ibtopo__findings_text(sink, &an->fabric, 1, findings, err);
}

int ibtopo_report_analysis(const struct ibtopo_sink *sink,
			   struct ibtopo_analysis *an, struct ibtopo_error *err)
{
	const struct ibtopo_findings *findings;
	int rc = ibtopo__report_check_sink(sink, err);

	if (rc)
		return rc;
	if (!an)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no analysis to render");
	/* every section computed, its findings collected */
	rc = ibtopo_analysis_findings(an, &findings, err);
	if (rc)
		return rc;
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		return analysis_json(sink, an, findings, err);
	case IBTOPO_FORMAT_CSV:
		/* the findings only */
		return ibtopo_report_findings(sink, NULL, findings, err);
	default:
		return analysis_text(sink, an, findings, err);
	}
}
