/*
 * test_health_json.c - `health --format json` writes its ports one
 * small jansson object at a time (lib/report/report_health.c, for
 * speed) instead of as one tree: its text must be what jansson writes
 * for the whole document (compact, keys in order, reals with 6
 * significant digits), for the numbers that are hard to format: 64-bit
 * counters above INT64_MAX, rates with fractions and exponents, whole
 * rates, zero.
 * And a failing cable's evidence (the cable check's numbers and the
 * error counters) is JSON keys of its finding, not only words.
 */
#include <ibtopo.h>

#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

#define LEAF01 0x1000000000000200ull
#define HOST01 0x2000000000000100ull

static struct ibtopo_fabric *fabric(void)
{
	return test_fabric_read(TEST_CK_CABLES, NULL);
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
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink so = test_sink(&m, IBTOPO_FORMAT_JSON);
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
	assert_non_null(m.text);
	j = json_loads(m.text, 0, &jerr);
	if (!j)
		fail_msg("not JSON: %s: %s", jerr.text, m.text);
	again = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER |
			      JSON_REAL_PRECISION(6));
	assert_non_null(again);
	assert_int_equal(m.len, strlen(again) + 1);
	assert_memory_equal(m.text, again, strlen(again));
	assert_string_equal(m.text + m.len - 1, "\n");
	/* the numbers that are hard to format are there */
	assert_non_null(strstr(m.text, "\"PortXmitData\":1.84467e19"));
	assert_non_null(strstr(m.text, "\"SymbolErrorCounter\":6171.43"));
	assert_non_null(strstr(m.text, "\"interval_h\":null"));
	free(again);
	json_decref(j);
	ibtopo_buffer_release(&m);
	ibtopo_health_free(h);
	ibtopo_findings_release(&found);
	ibtopo_fabric_free(now);
	ibtopo_fabric_free(before);
}

/* obj[key] as a string; fails the test when it is not one */
static const char *key_str(json_t *obj, const char *key)
{
	const char *v = json_string_value(json_object_get(obj, key));

	if (!v)
		fail_msg("no string \"%s\"", key);
	return v;
}

static void set_errors(struct ibtopo_fabric *f, uint64_t guid, unsigned port,
		       enum ibtopo_counter a, uint64_t va,
		       enum ibtopo_counter b, uint64_t vb)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);
	struct ibtopo_counters c;

	memset(&c, 0, sizeof(c));
	c.read_at_ms = 1700000000000;
	c.value[a] = va;
	c.value[b] = vb;
	c.valid = 1u << IBTOPO_CTR_SYMBOL_ERRORS | 1u << a | 1u << b;
	assert_non_null(n);
	assert_int_equal(ibtopo_port_set_counters(n->ports[port], &c, NULL),
			 0);
}

static json_t *finding_of(json_t *doc, const char *kind, const char *node)
{
	json_t *list = json_object_get(doc, "findings"), *f;
	size_t i;

	json_array_foreach(list, i, f) {
		const char *k = json_string_value(json_object_get(f, "kind"));
		const char *n = json_string_value(
			json_object_get(json_object_get(f, "a"), "node"));

		if (k && n && strcmp(k, kind) == 0 && strcmp(n, node) == 0)
			return f;
	}
	fail_msg("no %s finding at %s", kind, node);
	return NULL;
}

static void counter_is(json_t *c, const char *end, const char *name,
		       json_int_t count)
{
	assert_non_null(c);
	assert_string_equal(key_str(c, "end"), end);
	assert_string_equal(key_str(c, "counter"),
			    name);
	assert_int_equal(json_integer_value(json_object_get(c, "count")),
			 count);
	assert_int_equal(json_integer_value(json_object_get(c, "threshold")),
			 0);
	assert_true(json_is_false(json_object_get(c, "saturated")));
}

static void failing_cable_evidence_is_json_keys(void **state)
{
	struct ibtopo_findings copy = IBTOPO_FINDINGS_INIT;
	const struct ibtopo_findings *all;
	struct ibtopo_fabric *f = fabric();
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink so = test_sink(&m, IBTOPO_FORMAT_JSON);
	struct ibtopo_analysis *an = NULL;
	json_t *j, *x, *cs;
	json_error_t jerr;

	(void)state;
	assert_int_equal(ibtopo_cables_load(f, TEST_DATADIR "/ck-cables.csv",
					    NULL, NULL), 0);
	/* leaf01 [39] - spine01 [1]: a 45 m AOC (30 m reach at HDR), errors
	 * at both ends; host01 [1] - leaf01 [1]: an EDR cable on HDR ports */
	set_errors(f, LEAF01, 39, IBTOPO_CTR_SYMBOL_ERRORS, 12,
		   IBTOPO_CTR_LINK_DOWNED, 3);
	set_errors(f, 0x1000000000000100ull, 1, IBTOPO_CTR_RCV_ERRORS, 7,
		   IBTOPO_CTR_SYMBOL_ERRORS, 0);
	set_errors(f, HOST01, 1, IBTOPO_CTR_RCV_ERRORS, 5,
		   IBTOPO_CTR_SYMBOL_ERRORS, 0);
	assert_int_equal(ibtopo_analyze(&an, f, NULL, NULL), 0);
	assert_int_equal(ibtopo_report_analysis(&so, an, NULL), 0);
	j = json_loads(m.text, 0, &jerr);
	if (!j)
		fail_msg("not JSON: %s: %s", jerr.text, m.text);

	x = finding_of(j, "failing-cable", "leaf01");
	assert_string_equal(key_str(x, "check"),
			    "cable-over-length");
	assert_string_equal(key_str(x, "media"),
			    "aoc");
	assert_true(json_real_value(json_object_get(x, "length_m")) == 45);
	assert_true(json_real_value(json_object_get(x, "reach_m")) == 30);
	assert_string_equal(key_str(x, "rated_speed"),
			    "HDR");
	cs = json_object_get(x, "counters");
	assert_int_equal(json_array_size(cs), 3);
	counter_is(json_array_get(cs, 0), "a", "SymbolErrorCounter", 12);
	counter_is(json_array_get(cs, 1), "b", "PortRcvErrors", 7);
	counter_is(json_array_get(cs, 2), "a", "LinkDownedCounter", 3);

	x = finding_of(j, "failing-cable", "host01 mlx5_0");
	assert_string_equal(key_str(x, "check"),
			    "cable-underrated");
	assert_string_equal(key_str(x, "rated_speed"),
			    "EDR");
	assert_string_equal(key_str(x, "expected"),
			    "HDR");
	assert_true(json_real_value(json_object_get(x, "length_m")) == 2);
	assert_null(json_object_get(x, "reach_m"));
	cs = json_object_get(x, "counters");
	assert_int_equal(json_array_size(cs), 1);
	counter_is(json_array_get(cs, 0), "a", "PortRcvErrors", 5);

	/* a copy of the list owns a copy of the evidence */
	assert_int_equal(ibtopo_analysis_findings(an, &all, NULL), 0);
	for (size_t i = 0; i < all->count; i++)
		assert_int_equal(ibtopo_findings_add(&copy, &all->items[i],
						     NULL), 0);
	for (size_t i = 0; i < copy.count; i++)
		if (copy.items[i].cable) {
			assert_ptr_not_equal(copy.items[i].cable,
					     all->items[i].cable);
			assert_memory_equal(copy.items[i].cable,
					    all->items[i].cable,
					    sizeof(*copy.items[i].cable));
		}
	json_decref(j);
	ibtopo_buffer_release(&m);
	ibtopo_analysis_free(an);
	ibtopo_findings_release(&copy);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_as_jansson_writes_it),
		cmocka_unit_test(failing_cable_evidence_is_json_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
