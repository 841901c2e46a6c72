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
