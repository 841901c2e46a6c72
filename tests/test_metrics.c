/*
 * test_metrics.c - test_metrics_write() on a hand-built fabric: label
 * values escaped as the text format wants, bytes as 4 x the words, a
 * saturated counter kept and marked, a downgraded link's possible rate
 * above its rate, a down port still there, the fabric's name, and every
 * failure (a bad version, a sink that fails part-way) returned.
 */
#include "ibtopo-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

static struct ibtopo_port *port(struct ibtopo_fabric *f, struct ibtopo_node *n,
				unsigned num, unsigned speed, unsigned width)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, f, n, num, NULL), 0);
	p->state = IBTOPO_PORT_STATE_ACTIVE;
	p->phys_state = 5;
	p->speed_active = (uint16_t)speed;
	p->width_active = (uint8_t)width;
	p->speed_supported = IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR;
	p->width_supported = IBTOPO_WIDTH_4X;
	return p;
}

/*
 * A switch whose description needs escaping, linked at EDR to a CA
 * (both support HDR: a downgrade), with a down port 2; the CA's port
 * carries counters, one saturated.
 */
static struct ibtopo_fabric *fixture(void)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sw = NULL, *ca = NULL;
	struct ibtopo_port *a, *b, *down;
	struct ibtopo_counters k = { .read_at_ms = 1 };

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&sw, f, IBTOPO_NODE_SWITCH,
						0x20, 2, "sw \"1\"\\x\nnl",
						NULL),
			 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca, f, IBTOPO_NODE_CA, 0x10, 1,
						"host1 mlx5_0", NULL),
			 0);
	a = port(f, sw, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	b = port(f, ca, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	down = port(f, sw, 2, 0, 0);
	down->state = IBTOPO_PORT_STATE_DOWN;
	down->phys_state = 2;
	assert_int_equal(ibtopo_fabric_connect(NULL, f, a, b, NULL), 0);
	k.value[IBTOPO_CTR_SYMBOL_ERRORS] = 65535; /* 16 bits: saturated */
	k.value[IBTOPO_CTR_XMIT_DATA] = 1000;
	k.extended = 1u << IBTOPO_CTR_XMIT_DATA;
	k.valid = (1u << IBTOPO_CTR_SYMBOL_ERRORS) |
		  (1u << IBTOPO_CTR_XMIT_DATA) | (1u << IBTOPO_CTR_RCV_ERRORS);
	assert_int_equal(ibtopo_port_set_counters(b, &k, NULL), 0);
	ibtopo_fabric_sort(f);
	return f;
}

static char *write_it(struct ibtopo_fabric *f, unsigned flags)
{
	struct ibtopo_metrics_opts mo = IBTOPO_METRICS_OPTS_INIT;
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &out, 0 };

	mo.flags = flags;
	assert_int_equal(test_metrics_write(&sink, f, &mo, NULL), 0);
	assert_non_null(out.text);
	return out.text;
}

#define CA_LABELS                                                       \
	"fabric=\"fabric-0000000000000020\",node=\"host1\","             \
	"node_guid=\"0x0000000000000010\",port=\"1\",node_type=\"ca\"," \
	"remote_node=\"S-0000000000000020\","                            \
	"remote_guid=\"0x0000000000000020\",remote_port=\"1\""

static void ca_port_series_name_both_ends(void **state)
{
	struct ibtopo_fabric *f = fixture();
	char *t = write_it(f, IBTOPO_METRICS_NO_FINDINGS);

	(void)state;
	/* bytes: 4 x the words; a saturated counter keeps its value */
	assert_non_null(strstr(
		t, "\nibtopo_port_transmit_bytes_total{" CA_LABELS "} 4000\n"));
	assert_non_null(strstr(t, "\nibtopo_port_symbol_errors_total{" CA_LABELS
				  "} 65535\n"));
	assert_non_null(strstr(t, "\nibtopo_port_saturated{" CA_LABELS
				  ",counter=\"SymbolErrorCounter\"} 1\n"));
	assert_non_null(strstr(t, "\nibtopo_port_counters_saturated{" CA_LABELS
				  "} 1\n"));
	/* read as 0: there, with a zero; not read: absent */
	assert_non_null(strstr(
		t, "\nibtopo_port_receive_errors_total{" CA_LABELS "} 0\n"));
	assert_null(strstr(t, "\nibtopo_port_link_downed_total{"));
	/* EDR 4x runs 100 Gb/s; both ends could run HDR 4x, 200 Gb/s */
	assert_non_null(strstr(t,
			       "\nibtopo_port_rate_bytes_per_second{" CA_LABELS
			       "} 12500000000\n"));
	assert_non_null(strstr(
		t, "\nibtopo_port_possible_rate_bytes_per_second{" CA_LABELS
		   "} 25000000000\n"));
	assert_null(strstr(t, "ibtopo_fabric_findings{"));
	free(t);
	ibtopo_fabric_free(f);
}

static void down_port_keeps_its_state(void **state)
{
	struct ibtopo_fabric *f = fixture();
	char *t = write_it(f, IBTOPO_METRICS_NO_FINDINGS);
	const char *down = ",port=\"2\",node_type=\"switch\",remote_node=\"\","
			   "remote_guid=\"\",remote_port=\"\"} ";
	char want[512];
	size_t n = 0;

	(void)state;
	snprintf(want, sizeof(want), "%s1\nibtopo_port_state", down);
	assert_non_null(strstr(t, want)); /* state 1: down */
	snprintf(want, sizeof(want), "%s2\n", down);
	assert_non_null(strstr(t, want)); /* physical: polling */
	snprintf(want, sizeof(want), "%s0\n", down);
	assert_non_null(strstr(t, want)); /* no lanes */
	/* no counters on it: of the three ports, only the CA's has them */
	for (const char *p = t;
	     (p = strstr(p, "\nibtopo_port_counters_saturated{")); p++)
		n++;
	assert_int_equal(n, 1);
	free(t);
	ibtopo_fabric_free(f);
}

static void every_family_once_with_help_and_type(void **state)
{
	struct ibtopo_fabric *f = fixture();
	char *t = write_it(f, 0);
	size_t help = 0, type = 0;

	(void)state;
	for (const char *p = t; (p = strstr(p, "# HELP ")); p++)
		help++;
	for (const char *p = t; (p = strstr(p, "# TYPE ")); p++)
		type++;
	assert_int_equal(help, type);
	assert_true(help >= 30);
	assert_non_null(strstr(t, "# TYPE ibtopo_port_symbol_errors_total "
				  "counter\n"));
	assert_non_null(strstr(
		t,
		"\nibtopo_fabric_links{fabric=\"fabric-0000000000000020\"} 1\n"));
	assert_non_null(strstr(
		t,
		"\nibtopo_fabric_switches{fabric=\"fabric-0000000000000020\"} 1\n"));
	/* the analysis ran: the EDR link is a speed downgrade */
	assert_non_null(strstr(
		t, "ibtopo_fabric_findings{fabric=\"fabric-0000000000000020\","
		   "kind=\"speed-downgrade\","));
	free(t);
	ibtopo_fabric_free(f);
}

static void fabric_name_is_the_stores_else_its_rule(void **state)
{
	struct ibtopo_fabric *f = fixture();
	char name[64];

	(void)state;
	/* no subnet prefix known: "fabric-" and the lowest switch GUID */
	assert_string_equal(ibtopo_metrics_fabric_name(name, sizeof(name), f),
			    "fabric-0000000000000020");
	ibtopo_fabric_set_subnet(f, 0xfe80000000000000ull, 0, 0);
	assert_string_equal(ibtopo_metrics_fabric_name(name, sizeof(name), f),
			    "fe80-0000000000000020");
	/* a label names a snapshot, not its fabric */
	assert_int_equal(ibtopo_fabric_set_label(f, "prod", NULL), 0);
	assert_string_equal(ibtopo_metrics_fabric_name(name, sizeof(name), f),
			    "fe80-0000000000000020");
	assert_int_equal(ibtopo_fabric_set_fabric_name(f, "compute", NULL), 0);
	assert_string_equal(ibtopo_metrics_fabric_name(name, sizeof(name), f),
			    "compute");
	ibtopo_fabric_free(f);
	/* no nodes: the store's rule gives the prefix part alone */
	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	assert_string_equal(ibtopo_metrics_fabric_name(name, sizeof(name), f),
			    "fabric");
	ibtopo_fabric_free(f);
}

static void failures_are_returned(void **state)
{
	struct ibtopo_metrics_opts mo = IBTOPO_METRICS_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = fixture();
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &out, 0 };
	size_t full;

	(void)state;
	assert_int_equal(test_metrics_write(NULL, f, NULL, &err),
			 IBTOPO_EINVAL);
	assert_int_equal(test_metrics_write(&sink, NULL, NULL, &err),
			 IBTOPO_EINVAL);
	mo.version = 99;
	assert_int_equal(test_metrics_write(&sink, f, &mo, &err),
			 IBTOPO_EINVAL);
	assert_string_equal(err.message, "metrics: unknown options version 99");
	assert_int_equal(test_metrics_write(&sink, f, NULL, &err), 0);
	full = out.len;
	free(out.text);
	/* a sink that fails half-way: its error, the message */
	out = (struct ibtopo_buffer){ .limit = full / 2 };
	assert_int_equal(test_metrics_write(&sink, f, NULL, &err),
			 IBTOPO_EIO);
	assert_string_equal(err.message, "cannot write the metrics output");
	free(out.text);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(ca_port_series_name_both_ends),
		cmocka_unit_test(down_port_keeps_its_state),
		cmocka_unit_test(every_family_once_with_help_and_type),
		cmocka_unit_test(fabric_name_is_the_stores_else_its_rule),
		cmocka_unit_test(failures_are_returned),
	};

	return cmocka_run_group_tests_name("metrics", t, NULL, NULL);
}
