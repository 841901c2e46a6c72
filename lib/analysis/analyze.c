/*
 * analyze.c - ibtopo_analyze(): every registered analysis over one
 * fabric, in order. A new analysis is one file defining its struct
 * ibtopo__analysis, and one line in analyses[]; what it keeps with
 * ibtopo__run_keep() the analysis result holds as a section.
 */
#include "analysis/analysis-int.h"

#include <stdlib.h>
#include <string.h>

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
	/* freed after the findings: the routes hold their notes */
	struct ibtopo_analysis_sections sections;
};

int ibtopo__run_keep(struct ibtopo__analysis_run *run, const char *name,
		     void *data, void (*free_data)(void *data),
		     struct ibtopo_error *err)
{
	struct ibtopo_analysis_sections *s = run->sections;
	struct ibtopo__section *items;

	if (!data)
		return 0;
	items = realloc(s->items, (s->count + 1) * sizeof(*items));
	if (!items) {
		if (free_data)
			free_data(data);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	items[s->count++] = (struct ibtopo__section){ name, data, free_data };
	s->items = items;
	return 0;
}

const void *ibtopo__analysis_section(const struct ibtopo_analysis *an,
				     const char *name)
{
	const struct ibtopo_analysis_sections *s = an->sections;

	if (!s) {
		if (strcmp(name, "topology") == 0)
			return an->topology;
		if (strcmp(name, "routes") == 0)
			return an->routes;
		return NULL;
	}
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->items[i].name, name) == 0)
			return s->items[i].data;
	return NULL;
}

static void free_topology(void *t)
{
	ibtopo_topology_free(t);
}

static void free_routes(void *r)
{
	ibtopo_routes_free(r);
}

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
	run.sections = &an->sections;
	for (size_t i = 0; rc == 0 && i < IBTOPO__ARRAY_SIZE(analyses); i++) {
		if (opts->flags & analyses[i]->skip)
			continue;
		rc = ibtopo__inputs_load(&run.inputs, analyses[i]->inputs, opts,
					 err);
		if (!rc)
			rc = analyses[i]->run(&run, err);
	}
	ibtopo__inputs_release(&run.inputs);
	/* the results later analyses read are sections too (kept even on
	 * failure, to be freed) */
	if (ibtopo__run_keep(&run, "topology", run.topology, free_topology,
			     rc ? NULL : err) && !rc)
		rc = IBTOPO_ENOMEM;
	if (ibtopo__run_keep(&run, "routes", run.routes, free_routes,
			     rc ? NULL : err) && !rc)
		rc = IBTOPO_ENOMEM;
	an->pub.version = IBTOPO_ANALYSIS_VERSION;
	an->pub.fabric = fabric;
	an->pub.findings = &an->findings;
	an->pub.sections = &an->sections;
	an->pub.topology = ibtopo__analysis_section(&an->pub, "topology");
	an->pub.routes = ibtopo__analysis_section(&an->pub, "routes");
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
	ibtopo_findings_release(&an->findings);
	for (size_t i = an->sections.count; i-- > 0;)
		if (an->sections.items[i].free)
			an->sections.items[i].free(an->sections.items[i].data);
	free(an->sections.items);
	free(an);
}
