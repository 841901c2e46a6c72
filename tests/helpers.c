/* helpers.c - what the test programs share (tests/helpers.h) */
#include "helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

struct ibtopo_sink test_sink(struct ibtopo_buffer *b, enum ibtopo_format format)
{
	struct ibtopo_sink o = {
		.version = IBTOPO_SINK_VERSION,
		.format = format,
		.write = ibtopo_write_buffer,
		.write_arg = b,
	};

	return o;
}

struct ibtopo_fabric *test_fabric_read(const char *path,
				       const struct ibtopo_read_opts *opts)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	if (ibtopo_fabric_read_file(&f, path, opts, &err))
		fail_msg("read %s: %s", path, err.message);
	return f;
}

int test_setup_ck_cables(void **state)
{
	struct ibtopo_fabric *f = NULL;

	if (ibtopo_fabric_read_file(&f, TEST_CK_CABLES, NULL, NULL))
		return -1;
	*state = f;
	return 0;
}

int test_teardown_fabric(void **state)
{
	ibtopo_fabric_free(*state);
	return 0;
}

uint64_t test_guid_of(const char *name, uint64_t base)
{
	unsigned n =
		(unsigned)strtoul(name + strcspn(name, "0123456789"), NULL, 10);

	if (test_is_host(name))
		return base + 0x1000 + n;
	if (strncmp(name, "leaf", 4) == 0)
		return base + 0x2000 + n;
	return base + 0x3000 + n;
}

bool test_is_host(const char *name)
{
	return strncmp(name, "host", 4) == 0;
}

/* An analysis of f with the defaults, or NULL (rc in *rc). */
static struct ibtopo_analysis *analysis_of(const struct ibtopo_fabric *f,
					   const struct ibtopo_analyze_opts *ao,
					   int *rc, struct ibtopo_error *err)
{
	struct ibtopo_analysis *an = NULL;

	*rc = ibtopo_analysis_new(&an, f, ao, err);
	return an;
}

int test_diff(struct ibtopo_findings *out, const struct ibtopo_fabric *old,
	      const struct ibtopo_fabric *new_,
	      const struct ibtopo_diff_opts *opts, struct ibtopo_error *err)
{
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_analysis *a = NULL, *b = NULL;
	int rc = 0;

	ao.since = old;
	if (old)
		a = analysis_of(old, NULL, &rc, err);
	if (!rc && new_)
		b = analysis_of(new_, &ao, &rc, err);
	if (!rc || !old || !new_)
		rc = ibtopo_fabric_diff(out, a, b, opts, err);
	ibtopo_analysis_free(b);
	ibtopo_analysis_free(a);
	return rc;
}

int test_diagram_dot(const struct ibtopo_sink *o, const struct ibtopo_fabric *f,
		     const struct ibtopo_diagram_opts *d,
		     struct ibtopo_error *err)
{
	int rc = 0;
	struct ibtopo_analysis *an = f ? analysis_of(f, NULL, &rc, err) : NULL;

	if (!rc)
		rc = ibtopo_diagram_dot(o, an, d, err);
	ibtopo_analysis_free(an);
	return rc;
}

int test_metrics_write(const struct ibtopo_sink *o,
		       const struct ibtopo_fabric *f,
		       const struct ibtopo_metrics_opts *mo,
		       struct ibtopo_error *err)
{
	int rc = 0;
	struct ibtopo_analysis *an = f ? analysis_of(f, NULL, &rc, err) : NULL;

	if (!rc)
		rc = ibtopo_metrics_write(o, an, mo, err);
	ibtopo_analysis_free(an);
	return rc;
}

int test_fabric_write_opts(const struct ibtopo_sink *o,
			   const struct ibtopo_fabric *f,
			   enum ibtopo_export_format format,
			   const struct ibtopo_export_opts *xo,
			   struct ibtopo_error *err)
{
	int rc = 0;
	struct ibtopo_analysis *an = f ? analysis_of(f, NULL, &rc, err) : NULL;

	if (!rc)
		rc = ibtopo_analysis_write(o, an, format, xo, err);
	ibtopo_analysis_free(an);
	return rc;
}

int test_diagram_image(const char *path, const char *format,
		       const struct ibtopo_fabric *f,
		       const struct ibtopo_diagram_opts *d,
		       struct ibtopo_error *err)
{
	int rc = 0;
	struct ibtopo_analysis *an = f ? analysis_of(f, NULL, &rc, err) : NULL;

	if (!rc)
		rc = ibtopo_diagram_image(path, format, an, d, err);
	ibtopo_analysis_free(an);
	return rc;
}
