/*
 * analyze.c - ibtopo_analyze(): every registered analysis over one
 * fabric, in order. A new analysis is one file defining its struct
 * ibtopo__analysis, and one line in analyses[].
 */
#include "analysis/analysis-int.h"

#include <stdlib.h>

/* The analyses, in the files of their modules. */
extern const struct ibtopo__analysis ibtopo__analysis_links;	/* check_speed.c */
extern const struct ibtopo__analysis ibtopo__analysis_topology; /* topology.c */
extern const struct ibtopo__analysis ibtopo__analysis_health;	/* health.c */
extern const struct ibtopo__analysis ibtopo__analysis_routes;	/* routes_trace.c */

static const struct ibtopo__analysis *const analyses[] = {
	&ibtopo__analysis_links,
	&ibtopo__analysis_topology,
	&ibtopo__analysis_health,
	&ibtopo__analysis_routes,
};

/* The analysis ibtopo_analyze() hands out owns what it points to. */
struct owned_analysis {
	struct ibtopo_analysis pub;	/* first: ibtopo_analysis_free() */
	struct ibtopo_findings findings;
	struct ibtopo_topology *topology;
	struct ibtopo_routes *routes;	/* its findings' notes: free after them */
};

int ibtopo_analyze(struct ibtopo_analysis **out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_analyze_opts *opts,
		   struct ibtopo_error *err)
{
	static const struct ibtopo_analyze_opts defaults = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo__analysis_run run = { 0 };
	struct owned_analysis *an;
	int rc = 0;

	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or analysis");
	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->version < 1 || opts->version > IBTOPO_ANALYZE_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "analyze options version %u unknown",
					 opts->version);
	an = calloc(1, sizeof(*an));
	if (!an)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	run.fabric = fabric;
	run.opts = opts;
	run.findings = &an->findings;
	for (size_t i = 0; rc == 0 && i < IBTOPO__ARRAY_SIZE(analyses); i++) {
		if (opts->flags & analyses[i]->skip)
			continue;
		rc = ibtopo__inputs_load(&run.inputs, analyses[i]->inputs, opts,
					 err);
		if (!rc)
			rc = analyses[i]->run(&run, err);
	}
	ibtopo__inputs_release(&run.inputs);
	an->topology = run.topology;
	an->routes = run.routes;
	an->pub.version = IBTOPO_ANALYSIS_VERSION;
	an->pub.fabric = fabric;
	an->pub.findings = &an->findings;
	an->pub.topology = an->topology;
	an->pub.routes = an->routes;
	if (rc) {
		ibtopo_analysis_free(&an->pub);
		return rc;
	}
	*out = &an->pub;
	return 0;
}

void ibtopo_analysis_free(struct ibtopo_analysis *analysis)
{
	struct owned_analysis *an = (struct owned_analysis *)analysis;

	if (!an)
		return;
	ibtopo_topology_free(an->topology);
	ibtopo_findings_release(&an->findings);
	ibtopo_routes_free(an->routes);
	free(an);
}
