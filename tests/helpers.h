/* helpers.h - what the test programs share: an in-memory sink and the
 * fixture fabrics of tests/data. Include it after <cmocka.h>. */
#ifndef IBTOPO_TESTS_HELPERS_H
#define IBTOPO_TESTS_HELPERS_H

#include <ibtopo.h>

#define TEST_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/** A sink of `format` into *b (struct ibtopo_buffer: text, len). */
struct ibtopo_sink test_sink(struct ibtopo_buffer *b,
			     enum ibtopo_format format);

/**
 * A fabric file read (opts may be NULL), the test failed with the
 * library's message when it cannot be.
 */
struct ibtopo_fabric *test_fabric_read(const char *path,
				       const struct ibtopo_read_opts *opts);

/* One cable between two nodes named hostNNN, leafNN or spineNN (any
 * other name is a spine), by port, at a speed and width (0: a default). */
struct test_cable {
	const char *x;
	unsigned px;
	const char *y;
	unsigned py;
	unsigned speed;
	unsigned width;
};

/** The GUID of such a name: base + 0x1000 + N for hostN, + 0x2000 + N for
 * leafN, + 0x3000 + N for the others. */
uint64_t test_guid_of(const char *name, uint64_t base);

/** Is the node of that name a host (a CA)? */
bool test_is_host(const char *name);

/*
 * The library's consumers take an analysis: these make one of `f` with
 * the default options, use it, and free it, for tests about one consumer
 * alone. Same returns as the call they stand for.
 */
int test_diff(struct ibtopo_findings *out, const struct ibtopo_fabric *old,
	      const struct ibtopo_fabric *new_,
	      const struct ibtopo_diff_opts *opts, struct ibtopo_error *err);
int test_diagram_dot(const struct ibtopo_sink *o, const struct ibtopo_fabric *f,
		     const struct ibtopo_diagram_opts *d,
		     struct ibtopo_error *err);
int test_diagram_image(const char *path, const char *format,
		       const struct ibtopo_fabric *f,
		       const struct ibtopo_diagram_opts *d,
		       struct ibtopo_error *err);
int test_metrics_write(const struct ibtopo_sink *o,
		       const struct ibtopo_fabric *f,
		       const struct ibtopo_metrics_opts *mo,
		       struct ibtopo_error *err);
int test_fabric_write_opts(const struct ibtopo_sink *o,
			   const struct ibtopo_fabric *f,
			   enum ibtopo_export_format format,
			   const struct ibtopo_export_opts *xo,
			   struct ibtopo_error *err);

/* tests/data/ck-cables.topo, the small fabric most checks run on. */
#define TEST_CK_CABLES TEST_DATADIR "/ck-cables.topo"

/** Group setup: TEST_CK_CABLES into *state (-1 when it cannot be read). */
int test_setup_ck_cables(void **state);
/** Group teardown: the fabric in *state freed. */
int test_teardown_fabric(void **state);

#endif
