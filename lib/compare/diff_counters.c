/*
 * diff_counters.c - the counter part of a diff: when both snapshots carry
 * port counters, the error counters that grew between them, per link,
 * with the growth and the rate per hour (port-error-rate, link-flapping
 * as ibtopo_health_analyze() finds them; a = the port whose counter grew
 * in NEW, b its peer). Counts above thresholds in one snapshot are not a
 * change and stay with analyze and health.
 */
#include "compare/compare-int.h"
#include "findings/findings-int.h"

/*
 * The growth is NEW's health section when its analysis measures it
 * against OLD (since = OLD's fabric: computed once, for the report too),
 * else a health analysis of its own.
 */
int ibtopo__diff_counters(struct ibtopo_findings *out,
			  const struct ibtopo_fabric *old,
			  struct ibtopo_analysis *new_,
			  struct ibtopo_error *err)
{
	struct ibtopo_findings own = IBTOPO_FINDINGS_INIT;
	const struct ibtopo_findings *all = &own;
	struct ibtopo_health *h = NULL;
	int rc;

	if (ibtopo_analysis_opts(new_)->since == old)
		rc = ibtopo_analysis_section_findings(new_, IBTOPO_SECTION_HEALTH,
						      &all, err);
	else
		rc = ibtopo_health_analyze(&h, &own,
					   ibtopo_analysis_fabric(new_), old,
					   NULL, err);
	for (size_t i = 0; !rc && i < all->count; i++) {
		const struct ibtopo_finding *f = &all->items[i];

		if (f->kind == IBTOPO_FIND_PORT_ERROR_RATE ||
		    f->kind == IBTOPO_FIND_LINK_FLAPPING)
			rc = ibtopo_findings_add(out, f, err);
	}
	ibtopo_health_free(h);
	ibtopo_findings_release(&own);
	return rc;
}
