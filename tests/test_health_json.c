/*
 * test_health_json.c - `health --format json` writes its ports itself
 * (lib/report/report_health.c, for speed) instead of through a jansson
 * tree: its text must be what jansson writes for the same document
 * (compact, keys in order, reals with 6 significant digits), for the
 * numbers that are hard to format: 64-bit counters above INT64_MAX,
 * rates with fractions and exponents, whole rates, zero.
 */
#include "ibtopo-int.h"

#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#define LEAF01 0x1000000000000200ull
#define HOST01 0x2000000000000100ull

struct mem {
	char *p;
	size_t len;
};

static int mem_write(void *arg, const char *buf, size_t len)
{
	struct mem *m = arg;
	char *np = realloc(m->p, m->len + len + 1);

	if (!np)
		return -1;
	memcpy(np + m->len, buf, len);
	m->p = np;
	m->len += len;
	m->p[m->len] = '\0';
	return 0;
}

static struct ibtopo_fabric *fabric(void)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;

	assert_int_equal(ibtopo_fabric_read_file(&f, TEST_DATADIR
						 "/ck-cables.topo", &o, NULL),
			 0);
	return f;
}

static void set(struct ibtopo_fabric *f, uint64_t guid, unsigned port,
		int64_t at, uint64_t sym, uint64_t data, bool data_ext)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);
	struct ibtopo_counters c;

	memset(&c, 0, sizeof(c));
	c.read_at_ms = at;
	c.value[IBTOPO_CTR_SYMBOL_ERRORS] = sym;
	c.value[IBTOPO_CTR_XMIT_DATA] = data;
	c.valid = 1u << IBTOPO_CTR_SYMBOL_ERRORS | 1u << IBTOPO_CTR_XMIT_DATA |
		  1u << IBTOPO_CTR_LINK_DOWNED;
	c.extended = data_ext ? 1u << IBTOPO_CTR_XMIT_DATA : 0;
	assert_non_null(n);
	assert_int_equal(ibtopo_port_set_counters(n->ports[port], &c, NULL),
			 0);
}

static void written_as_jansson_writes_it(void **state)
{
	struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
	struct ibtopo_fabric *now = fabric(), *before = fabric();
	struct mem m = { NULL, 0 };
	struct ibtopo_sink so = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_JSON,
				  mem_write, &m, 0 };
	struct ibtopo_health *h = NULL;
	json_error_t jerr;
	json_t *j;
	char *again;

	(void)state;
	/* 7 s apart: 12 symbol errors are 6171.43/h; the data grew by
	 * 2^64-1 - 5 (an exponent), and a counter above INT64_MAX */
	set(before, LEAF01, 39, 1700000000000, 0, 5, true);
	set(now, LEAF01, 39, 1700000007000, 12, UINT64_MAX, true);
	set(before, HOST01, 1, 1700000000000, 3, 100, false);
	set(now, HOST01, 1, 1700000007000, 1, 100, false);	/* reset */
	set(now, LEAF01, 1, 1700000007000, 0, 0, false);	/* no before */
	assert_int_equal(ibtopo_health_analyze(&h, &found, now, before, NULL,
					       NULL), 0);
	assert_int_equal(ibtopo_report_health(&so, h, &found, NULL), 0);
	assert_non_null(m.p);
	j = json_loads(m.p, 0, &jerr);
	if (!j)
		fail_msg("not JSON: %s: %s", jerr.text, m.p);
	again = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER |
			      JSON_REAL_PRECISION(6));
	assert_non_null(again);
	assert_int_equal(m.len, strlen(again) + 1);
	assert_memory_equal(m.p, again, strlen(again));
	assert_string_equal(m.p + m.len - 1, "\n");
	/* the numbers that are hard to format are there */
	assert_non_null(strstr(m.p, "\"PortXmitData\":1.84467e19"));
	assert_non_null(strstr(m.p, "\"SymbolErrorCounter\":6171.43"));
	assert_non_null(strstr(m.p, "\"interval_h\":null"));
	free(again);
	json_decref(j);
	free(m.p);
	ibtopo_health_free(h);
	ibtopo_findings_release(&found);
	ibtopo_fabric_free(now);
	ibtopo_fabric_free(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_as_jansson_writes_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
