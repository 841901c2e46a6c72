/*
 * analyze.c - the analysis of one fabric: its sections, each computed on
 * first use and kept (ibtopo__analysis_need()), and their findings
 * collected in the order of sections.h. A new section is one file
 * defining its struct ibtopo__analysis and one line in sections.h.
 */
#include "analysis/analysis-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The sections, in the files of their modules (sections.h). */
#define IBTOPO__SECTION(name, NAME, result, report) \
	extern const struct ibtopo__analysis ibtopo__analysis_##name;
#include "analysis/sections.h"
#undef IBTOPO__SECTION

static const struct ibtopo__analysis *const analyses[IBTOPO__SECTIONS] = {
#define IBTOPO__SECTION(name, NAME, result, report) \
	[IBTOPO__SECTION_##NAME] = &ibtopo__analysis_##name,
#include "analysis/sections.h"
#undef IBTOPO__SECTION
};

/* The public names of the sections (ibtopo_analysis_findings_of()). */
_Static_assert(IBTOPO__SECTION_LINKS == (int)IBTOPO_SECTION_LINKS &&
		       IBTOPO__SECTION_TOPOLOGY == (int)IBTOPO_SECTION_TOPOLOGY &&
		       IBTOPO__SECTION_HEALTH == (int)IBTOPO_SECTION_HEALTH &&
		       IBTOPO__SECTION_ROUTES == (int)IBTOPO_SECTION_ROUTES &&
		       IBTOPO__SECTION_MCAST == (int)IBTOPO_SECTION_MCAST,
	       "sections.h and enum ibtopo_analysis_section disagree");

/* The caller's options as the newest version: what an older caller's
 * struct lacks keeps its default. */
static int copy_opts(struct ibtopo_analyze_opts *to,
		     const struct ibtopo_analyze_opts *from,
		     struct ibtopo_error *err)
{
	static const struct ibtopo_analyze_opts defaults = IBTOPO_ANALYZE_OPTS_INIT;

	*to = defaults;
	if (!from)
		return 0;
	if (from->version < 1 || from->version > IBTOPO_ANALYZE_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "analyze options version %u unknown",
					 from->version);
	to->checks = from->checks;
	to->topology = from->topology;
	to->flags = from->flags;
	if (from->version >= 2)
		to->health = from->health;
	if (from->version >= 3)
		to->routes = from->routes;
	if (from->version >= 4) {
		to->since = from->since;
		to->traffic_top = from->traffic_top;
	}
	if (from->version >= 5) {
		to->reach_text = from->reach_text;
		to->roots_text = from->roots_text;
		to->thresholds_text = from->thresholds_text;
	}
	return 0;
}

int ibtopo_analysis_new(struct ibtopo_analysis **out,
			const struct ibtopo_fabric *fabric,
			const struct ibtopo_analyze_opts *opts,
			struct ibtopo_error *err)
{
	struct ibtopo_analysis *an;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or analysis");
	an = calloc(1, sizeof(*an));
	if (!an)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = copy_opts(&an->opts, opts, err);
	if (rc) {
		free(an);
		return rc;
	}
	an->fabric = fabric;
	*out = an;
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "<name>: <what>: <T> s" for the log, once the section is done. */
static void log_section(const struct ibtopo_analysis *an,
			const struct ibtopo__analysis *a,
			const struct ibtopo__slot *s, double t0)
{
	char what[160], line[256];

	if (!an->log)
		return;
	if (a->summary)
		a->summary(what, sizeof(what), an);
	else
		snprintf(what, sizeof(what), "%zu findings", s->findings.count);
	snprintf(line, sizeof(line), "%s: %s in %.3f s", a->name, what,
		 now_seconds() - t0);
	an->log(an->log_ctx, line);
}

int ibtopo__analysis_need(struct ibtopo_analysis *an,
			  enum ibtopo__section_id id,
			  struct ibtopo_error *err)
{
	const struct ibtopo__analysis *a = analyses[id];
	struct ibtopo__slot *s = &an->slots[id];
	unsigned want;
	double t0;

	if (s->state == 2) {
		if (s->rc)
			ibtopo__error_set(err, s->rc, "%s", s->message);
		return s->rc;
	}
	if (s->state == 1)	/* a section needing itself: a bug */
		return ibtopo__error_set(err, IBTOPO_ERROR,
					 "analysis %s needs itself", a->name);
	if (an->opts.flags & a->skip) {
		s->state = 2;
		return 0;
	}
	s->state = 1;
	t0 = now_seconds();
	want = a->inputs & ~an->loaded;
	s->rc = ibtopo__inputs_load(&an->inputs, want, &an->opts, err);
	if (!s->rc) {
		an->loaded |= want;
		s->rc = a->run(an, &s->findings, err);
	}
	s->state = 2;
	if (s->rc)
		snprintf(s->message, sizeof(s->message), "%s",
			 err ? err->message : ibtopo_strerror(s->rc));
	else
		log_section(an, a, s, t0);
	return s->rc;
}

int ibtopo_analysis_findings(struct ibtopo_analysis *an,
			     const struct ibtopo_findings **out,
			     struct ibtopo_error *err)
{
	int rc = 0;

	if (!an || !out)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no analysis");
	*out = NULL;
	for (unsigned i = 0; !rc && i < IBTOPO__SECTIONS; i++)
		rc = ibtopo__analysis_need(an, (enum ibtopo__section_id)i, err);
	if (rc)
		return rc;
	if (!an->collected) {
		struct ibtopo_findings *all = &an->all;

		for (size_t k = 0; !rc && k < an->input.count; k++)
			rc = ibtopo_findings_add(all, &an->input.items[k], err);
		for (unsigned i = 0; !rc && i < IBTOPO__SECTIONS; i++) {
			const struct ibtopo_findings *f = &an->slots[i].findings;
			size_t first = all->count;

			for (size_t k = 0; !rc && k < f->count; k++)
				rc = ibtopo_findings_add(all, &f->items[k], err);
			if (!rc && analyses[i]->collect)
				analyses[i]->collect(all, first, an);
		}
		if (rc) {
			ibtopo_findings_release(all);
			return rc;
		}
		an->collected = true;
	}
	*out = &an->all;
	return 0;
}

int ibtopo_analysis_section_findings(struct ibtopo_analysis *an,
				     enum ibtopo_analysis_section section,
				     const struct ibtopo_findings **out,
				     struct ibtopo_error *err)
{
	int rc;

	if (!an || !out || (unsigned)section >= IBTOPO__SECTIONS)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no analysis, or no such section");
	*out = NULL;
	rc = ibtopo__analysis_need(an, (enum ibtopo__section_id)section, err);
	if (!rc)
		*out = &an->slots[section].findings;
	return rc;
}

int ibtopo_analysis_note(struct ibtopo_analysis *an,
			 const struct ibtopo_findings *input,
			 struct ibtopo_error *err)
{
	int rc = 0;

	if (!an || an->collected)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no analysis, or its findings are "
					 "collected already");
	for (size_t k = 0; !rc && input && k < input->count; k++)
		rc = ibtopo_findings_add(&an->input, &input->items[k], err);
	return rc;
}

int ibtopo_analyze(struct ibtopo_analysis **out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_analyze_opts *opts,
		   struct ibtopo_error *err)
{
	const struct ibtopo_findings *all;
	int rc = ibtopo_analysis_new(out, fabric, opts, err);

	if (!rc)
		rc = ibtopo_analysis_findings(*out, &all, err);
	if (rc && out) {
		ibtopo_analysis_free(*out);
		*out = NULL;
	}
	return rc;
}

void ibtopo_analysis_free(struct ibtopo_analysis *an)
{
	if (!an)
		return;
	/* the findings first: the routes hold their notes */
	ibtopo_findings_release(&an->all);
	ibtopo_findings_release(&an->input);
	for (unsigned i = IBTOPO__SECTIONS; i-- > 0;) {
		ibtopo_findings_release(&an->slots[i].findings);
		if (analyses[i]->release)
			analyses[i]->release(an);
	}
	ibtopo__inputs_release(&an->inputs);
	free(an);
}

const struct ibtopo_fabric *ibtopo_analysis_fabric(const struct ibtopo_analysis *an)
{
	return an ? an->fabric : NULL;
}

const struct ibtopo_analyze_opts *ibtopo_analysis_opts(const struct ibtopo_analysis *an)
{
	return an ? &an->opts : NULL;
}

void ibtopo_analysis_set_log(struct ibtopo_analysis *an,
			     void (*log)(void *ctx, const char *line),
			     void *ctx)
{
	if (!an)
		return;
	an->log = log;
	an->log_ctx = ctx;
}

int ibtopo__analysis_ready(struct ibtopo_analysis *an,
			   enum ibtopo__section_id id, bool *ready,
			   struct ibtopo_error *err)
{
	int rc;

	*ready = false;
	if (!an)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no analysis");
	rc = ibtopo__analysis_need(an, id, err);
	*ready = !rc && !(an->opts.flags & analyses[id]->skip);
	return rc;
}
