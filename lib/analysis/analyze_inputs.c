/*
 * analyze_inputs.c - the files the analyses take, read by io before they
 * run: the reach table, the roots file and the thresholds. ibtopo_analyze()
 * loads what each analysis names; the public entry points whose options
 * carry paths load theirs through ibtopo__inputs_reach() (the link
 * checks) and ibtopo__inputs_thresholds() (port health) in their own
 * files, ibtopo_topology_analyze() here. The options are checked here
 * before anything is read, so their errors come first as they always
 * did.
 */
#include "analysis/analysis-int.h"

#include <string.h>

/* The options of a section, checked before anything is read. */
int ibtopo__check_opts_check(const struct ibtopo_check_opts *opts,
			     struct ibtopo_error *err)
{
	if (opts && opts->version != IBTOPO_CHECK_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "check options version %u unknown",
					 opts->version);
	return 0;
}

int ibtopo__health_opts_check(const struct ibtopo_health_opts *opts,
			      struct ibtopo_error *err)
{
	if (opts && opts->version != IBTOPO_HEALTH_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "unknown health options version %u",
					 opts->version);
	return 0;
}

/* Version 1 analyze options end before `health`: the default thresholds. */
static const struct ibtopo_health_opts *
health_opts(const struct ibtopo_analyze_opts *opts)
{
	return opts->version >= 2 ? &opts->health : NULL;
}

/* What names an input given as text in messages: its path, else "-". */
static const char *text_name(const char *path)
{
	return path ? path : "-";
}

int ibtopo__inputs_reach(struct ibtopo__inputs *in,
			 const struct ibtopo_check_opts *opts, const char *text,
			 struct ibtopo_error *err)
{
	int rc = ibtopo__check_opts_check(opts, err);
	const char *path = opts ? opts->reach_path : NULL;

	if (!rc && text)
		rc = ibtopo__reach_parse(&in->reach, text, text_name(path),
					 err);
	else if (!rc)
		rc = ibtopo__reach_load(&in->reach, path, err);
	return rc;
}

static int load_roots(struct ibtopo__inputs *in,
		      const struct ibtopo_topology_opts *opts, const char *text,
		      struct ibtopo_error *err)
{
	int rc = ibtopo__topology_opts_check(opts, err);

	if (!rc && text)
		rc = ibtopo__roots_parse(&in->roots, text, strlen(text),
					 text_name(opts->roots_file), err);
	else if (!rc && opts->roots_file)
		rc = ibtopo__roots_read(&in->roots, opts->roots_file, err);
	return rc;
}

int ibtopo__inputs_thresholds(struct ibtopo__inputs *in,
			      const struct ibtopo_health_opts *opts,
			      const char *text, struct ibtopo_error *err)
{
	int rc = ibtopo__health_opts_check(opts, err);
	const char *path = opts ? opts->thresholds_path : NULL;

	if (!rc && text)
		rc = ibtopo__thresholds_parse(&in->thresholds, text,
					      strlen(text), text_name(path),
					      err);
	else if (!rc)
		rc = ibtopo__thresholds_read(&in->thresholds, path, err);
	return rc;
}

int ibtopo__inputs_load(struct ibtopo__inputs *in, unsigned which,
			const struct ibtopo_analyze_opts *opts,
			struct ibtopo_error *err)
{
	int rc = 0;

	if (which & IBTOPO__INPUT_REACH)
		rc = ibtopo__inputs_reach(in, &opts->checks, opts->reach_text,
					  err);
	if (!rc && (which & IBTOPO__INPUT_ROOTS))
		rc = load_roots(in, &opts->topology, opts->roots_text, err);
	if (!rc && (which & IBTOPO__INPUT_THRESHOLDS))
		rc = ibtopo__inputs_thresholds(in, health_opts(opts),
					       opts->thresholds_text, err);
	return rc;
}

void ibtopo__inputs_release(struct ibtopo__inputs *in)
{
	ibtopo__reach_free(in->reach);
	ibtopo__roots_free(in->roots);
	memset(in, 0, sizeof(*in));
}

int ibtopo_topology_analyze(struct ibtopo_topology **out,
			    const struct ibtopo_fabric *fabric,
			    const struct ibtopo_topology_opts *opts,
			    struct ibtopo_findings *findings,
			    struct ibtopo_error *err)
{
	struct ibtopo_topology_opts defaults = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo__inputs in = { 0 };
	int rc;

	if (!out)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no output pointer");
	*out = NULL;
	if (!fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric");
	if (!opts)
		opts = &defaults;
	rc = load_roots(&in, opts, NULL, err);
	if (!rc)
		rc = ibtopo__topology_run(out, fabric, opts, in.roots, findings,
					  err);
	ibtopo__inputs_release(&in);
	return rc;
}
