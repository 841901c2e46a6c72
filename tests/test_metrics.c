/*
 * test_metrics.c - test_metrics_write() on a hand-built fabric: label
 * values escaped as the text format wants, bytes as 4 x the words, a
 * saturated counter kept and marked, a downgraded link's possible rate
 * above its rate, a down port still there, the fabric's name, and every
 * failure (a bad version, a sink that fails part-way) returned; the
 * default set of series, and --collect lists.
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
	mo.collect = IBTOPO_METRICS_COLLECT_ALL;
	assert_int_equal(test_metrics_write(&sink, f, &mo, NULL), 0);
	assert_non_null(out.text);
	return out.text;
}

#define CA_LABELS                                                              \
	"fabric=\"fabric-0000000000000020\",node_guid=\"0x0000000000000010\"," \
	"port=\"1\""
#define SW_LABELS(port)                                                        \
	"fabric=\"fabric-0000000000000020\",node_guid=\"0x0000000000000020\"," \
	"port=\"" port "\""

static void ca_port_series_name_both_ends(void **state)
{
	struct ibtopo_fabric *f = fixture();
	char *t = write_it(f, IBTOPO_METRICS_NO_FINDINGS);

	(void)state;
	/* the names and the far end: in the info series alone, escaped */
	assert_non_null(strstr(
		t,
		"\nibtopo_port_info{" CA_LABELS ",node=\"host1\","
		"node_type=\"ca\",remote_guid=\"0x0000000000000020\","
		"remote_node=\"S-0000000000000020\",remote_port=\"1\"} 1\n"));
	/* unknown vendor, device and system image: no such labels */
	assert_non_null(strstr(
		t,
		"\nibtopo_node_info{fabric=\"fabric-0000000000000020\","
		"node_guid=\"0x0000000000000020\",node=\"S-0000000000000020\","
		"node_type=\"switch\",description=\"sw \\\"1\\\"\\\\x\\nnl\"} 1\n"));
	assert_non_null(strstr(t, "\nibtopo_port_linked{" CA_LABELS "} 1\n"));
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
	const char *down = SW_LABELS("2") "} ";
	char want[512];
	size_t n = 0;

	(void)state;
	snprintf(want, sizeof(want), "\nibtopo_port_state{%s1\n", down);
	assert_non_null(strstr(t, want)); /* state 1: down */
	snprintf(want, sizeof(want), "\nibtopo_port_physical_state{%s2\n",
		 down);
	assert_non_null(strstr(t, want)); /* physical: polling */
	snprintf(want, sizeof(want), "\nibtopo_port_width_lanes{%s0\n", down);
	assert_non_null(strstr(t, want)); /* no lanes */
	snprintf(want, sizeof(want), "\nibtopo_port_linked{%s0\n", down);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want),
		 "\nibtopo_port_possible_rate_bytes_per_second{%s0\n", down);
	assert_non_null(strstr(t, want));
	/* unlinked: no remote_* labels in its info */
	assert_non_null(strstr(t, "\nibtopo_port_info{" SW_LABELS(
					  "2") ",node=\"S-0000000000000020\","
					       "node_type=\"switch\"} 1\n"));
	/* no counters on it: of the three ports, only the CA's has them */
	for (const char *p = t;
	     (p = strstr(p, "\nibtopo_port_counters_saturated{")); p++)
		n++;
	assert_int_equal(n, 1);
	free(t);
	ibtopo_fabric_free(f);
}

/* Every "name{labels}" of t but the info series, one a line, sorted. */
static char *series_keys(const char *t)
{
	struct ibtopo_buffer out = { 0 };
	const char *p = t;

	while (*p) {
		const char *e = strchr(p, '\n');
		const char *sp;

		if (!e)
			e = p + strlen(p);
		sp = memchr(p, '}', (size_t)(e - p));
		if (*p != '#' && sp && strncmp(p, "ibtopo_port_info{", 17) &&
		    strncmp(p, "ibtopo_fabric_", 14)) {
			assert_int_equal(ibtopo_write_buffer(
						 &out, p, (size_t)(sp - p) + 1),
					 0);
			assert_int_equal(ibtopo_write_buffer(&out, "\n", 1), 0);
		}
		p = *e ? e + 1 : e;
	}
	return out.text;
}

/*
 * A pulled cable (the same fabric, the switch's port 1 and the CA not
 * linked): every series of the switch's port is still there under the
 * same name and labels, with other values.
 */
static void pulled_cable_keeps_every_series(void **state)
{
	struct ibtopo_fabric *f = fixture(), *g = NULL;
	struct ibtopo_node *sw = NULL, *ca = NULL;
	struct ibtopo_port *a;
	char *t, *u, *kt, *ku;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&g, NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&sw, g, IBTOPO_NODE_SWITCH,
						0x20, 2, "sw \"1\"\\x\nnl",
						NULL),
			 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca, g, IBTOPO_NODE_CA, 0x10, 1,
						"host1 mlx5_0", NULL),
			 0);
	a = port(g, sw, 1, 0, 0);
	a->state = IBTOPO_PORT_STATE_DOWN;
	port(g, ca, 1, 0, 0)->state = IBTOPO_PORT_STATE_DOWN;
	port(g, sw, 2, 0, 0)->state = IBTOPO_PORT_STATE_DOWN;
	ibtopo_fabric_sort(g);
	t = write_it(f, IBTOPO_METRICS_NO_FINDINGS);
	u = write_it(g, IBTOPO_METRICS_NO_FINDINGS);
	kt = series_keys(t);
	ku = series_keys(u);
	/* the counters were on the CA's port alone: the rest is equal */
	for (const char *p = kt; *p;) {
		const char *e = strchr(p, '\n');
		char line[512];

		snprintf(line, sizeof(line), "%.*s\n", (int)(e - p + 1) - 1, p);
		if (!strstr(line, "_total{") && !strstr(line, "saturated{"))
			assert_non_null(strstr(ku, line));
		p = e + 1;
	}
	assert_non_null(
		strstr(u, "\nibtopo_port_linked{" SW_LABELS("1") "} 0\n"));
	assert_non_null(
		strstr(u, "\nibtopo_port_state{" SW_LABELS("1") "} 1\n"));
	free(kt);
	free(ku);
	free(t);
	free(u);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
}

/* The CA's port of the fixture. */
static struct ibtopo_counters *ca_counters(struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type == IBTOPO_NODE_CA)
			return (struct ibtopo_counters *)n->ports[1]->counters;
	}
	fail();
	return NULL;
}

/*
 * With an earlier reading an hour before, the BER of what the CA
 * received and the threshold it is held to; without one, neither.
 */
static void since_gives_ber_and_wait_share(void **state)
{
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_fabric *before = fixture(), *now = fixture();
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &out, 0 };
	struct ibtopo_counters *k = ca_counters(now);
	char *t;

	(void)state;
	ca_counters(before)->value[IBTOPO_CTR_SYMBOL_ERRORS] = 100;
	k->value[IBTOPO_CTR_SYMBOL_ERRORS] = 1000;
	k->read_at_ms = 3600 * 1000 + 1;
	ao.since = before;
	assert_int_equal(ibtopo_analysis_new(&an, now, &ao, NULL), 0);
	assert_int_equal(ibtopo_metrics_write(&sink, an, NULL, NULL), 0);
	assert_non_null(strstr(out.text,
			       "\nibtopo_port_bit_error_rate{" CA_LABELS "} "));
	assert_non_null(strstr(
		out.text, "\nibtopo_port_bit_error_rate_threshold{" CA_LABELS
			  "} 1e-12\n"));
	assert_non_null(strstr(out.text,
			       "\nibtopo_port_transmit_wait_share_threshold{"));
	ibtopo_analysis_free(an);
	free(out.text);
	t = write_it(now, 0);
	assert_null(strstr(t, "ibtopo_port_bit_error_rate"));
	free(t);
	ibtopo_fabric_free(now);
	ibtopo_fabric_free(before);
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

/* What a default write holds, and what --collect lists parse to. */
static void default_set_and_collect_groups(void **state)
{
	struct ibtopo_metrics_opts mo = IBTOPO_METRICS_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = fixture();
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &out, 0 };
	unsigned c = 0;

	(void)state;
	assert_int_equal(test_metrics_write(&sink, f, NULL, NULL), 0);
	/* the default: link, errors, traffic (and health with since) */
	assert_non_null(strstr(out.text, "\nibtopo_port_linked{"));
	assert_non_null(strstr(out.text, "\nibtopo_port_state{"));
	assert_non_null(strstr(out.text, "\nibtopo_port_possible_rate_bytes_"));
	assert_non_null(strstr(out.text, "\nibtopo_port_symbol_errors_total{"));
	assert_non_null(
		strstr(out.text, "\nibtopo_port_receive_errors_total{"));
	assert_non_null(
		strstr(out.text, "\nibtopo_port_transmit_bytes_total{"));
	/* sparse, always: the saturated symbol error counter */
	assert_non_null(strstr(out.text,
			       "\nibtopo_port_saturated{" CA_LABELS
			       ",counter=\"SymbolErrorCounter\"} 1\n"));
	assert_null(strstr(out.text, "ibtopo_port_physical_state"));
	assert_null(strstr(out.text, "ibtopo_port_width_lanes"));
	assert_null(strstr(out.text, "ibtopo_port_counters_saturated"));
	assert_null(strstr(out.text, "ibtopo_port_receive_bytes_total"));
	free(out.text);
	/* a group added, a default one left out */
	assert_int_equal(
		ibtopo_metrics_collect_parse("phy,no-errors", &c, &err), 0);
	assert_int_equal(c, (IBTOPO_METRICS_COLLECT_DEFAULT |
			     IBTOPO_METRICS_COLLECT_PHY) &
				    ~IBTOPO_METRICS_COLLECT_ERRORS);
	mo.collect = c;
	out = (struct ibtopo_buffer){ 0 };
	assert_int_equal(test_metrics_write(&sink, f, &mo, NULL), 0);
	assert_non_null(strstr(out.text, "\nibtopo_port_physical_state{"));
	assert_null(strstr(out.text, "ibtopo_port_symbol_errors_total"));
	free(out.text);
	c = 0;
	assert_int_equal(ibtopo_metrics_collect_parse("all", &c, &err), 0);
	assert_int_equal(c, IBTOPO_METRICS_COLLECT_ALL);
	assert_int_equal(ibtopo_metrics_collect_parse("phy,bogus", &c, &err),
			 IBTOPO_EINVAL);
	assert_non_null(strstr(err.message, "unknown group 'bogus'"));
	assert_int_equal(ibtopo_metrics_collect_parse("no-", &c, &err),
			 IBTOPO_EINVAL);
	ibtopo_fabric_free(f);
}

/* n occurrences of what in t */
static size_t count_of(const char *t, const char *what)
{
	size_t n = 0;

	for (const char *p = t; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* Two fabrics in one exposition: each family once, both fabrics' series
 * together, ibtopo_build_info once. */
static void two_fabrics_in_one_exposition(void **state)
{
	struct ibtopo_metrics_opts mo[2] = { IBTOPO_METRICS_OPTS_INIT,
					     IBTOPO_METRICS_OPTS_INIT };
	struct ibtopo_fabric *f[2] = { fixture(), fixture() };
	struct ibtopo_analysis *an[2] = { NULL, NULL };
	struct ibtopo_buffer out = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &out, 0 };
	const char *a, *b, *next;

	(void)state;
	mo[0].fabric_name = "rail0";
	mo[1].fabric_name = "rail1";
	for (int i = 0; i < 2; i++)
		assert_int_equal(ibtopo_analysis_new(&an[i], f[i], NULL, NULL),
				 0);
	assert_int_equal(ibtopo_metrics_write_many(&sink, an, mo, 2, NULL), 0);
	assert_int_equal(count_of(out.text, "# HELP ibtopo_port_state "), 1);
	assert_int_equal(count_of(out.text, "# TYPE ibtopo_port_state "), 1);
	assert_int_equal(count_of(out.text, "\nibtopo_build_info{"), 1);
	assert_int_equal(count_of(out.text, "\nibtopo_fabric_links{"), 2);
	/* both fabrics' series of a family before the next family */
	a = strstr(out.text, "\nibtopo_port_state{fabric=\"rail0\"");
	b = strstr(out.text, "\nibtopo_port_state{fabric=\"rail1\"");
	next = strstr(out.text, "# HELP ibtopo_port_rate_bytes_per_second ");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(next);
	assert_true(a < b && b < next);
	assert_int_equal(count_of(out.text, "# HELP "),
			 count_of(out.text, "# TYPE "));
	free(out.text);
	for (int i = 0; i < 2; i++) {
		ibtopo_analysis_free(an[i]);
		ibtopo_fabric_free(f[i]);
	}
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
	assert_int_equal(test_metrics_write(&sink, f, NULL, &err), IBTOPO_EIO);
	assert_string_equal(err.message, "cannot write the metrics output");
	free(out.text);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(ca_port_series_name_both_ends),
		cmocka_unit_test(down_port_keeps_its_state),
		cmocka_unit_test(pulled_cable_keeps_every_series),
		cmocka_unit_test(since_gives_ber_and_wait_share),
		cmocka_unit_test(every_family_once_with_help_and_type),
		cmocka_unit_test(fabric_name_is_the_stores_else_its_rule),
		cmocka_unit_test(default_set_and_collect_groups),
		cmocka_unit_test(two_fabrics_in_one_exposition),
		cmocka_unit_test(failures_are_returned),
	};

	return cmocka_run_group_tests_name("metrics", t, NULL, NULL);
}
