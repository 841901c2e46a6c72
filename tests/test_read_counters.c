/*
 * test_read_counters.c - port counters from perfquery and ibqueryerrors
 * output and ibdiagnet's ibdiagnet2.pm and ibdiagnet2.db_csv PM sections
 * (lib/read/read_counters.c), on small samples written from the formats
 * infiniband-diags and ibdiagnet print, against tests/data/ck-cables.topo
 * (leaf01 0x1000000000000200 is LID 2; host01's port GUID
 * 0x2000000000000101 is LID 11).
 */
#include <ibtopo.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <string.h>

#define LEAF01 0x1000000000000200ull
#define HOST01 0x2000000000000100ull

static const struct ibtopo_counters *ctr(struct ibtopo_fabric *f,
					 uint64_t guid, unsigned port)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);

	assert_non_null(n);
	assert_true(port <= n->nports && n->ports[port]);
	return n->ports[port]->counters;
}

static size_t with_counters(struct ibtopo_fabric *f)
{
	size_t k = 0;

	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned p = 0; p <= n->nports; p++)
			k += n->ports[p] && n->ports[p]->counters;
	}
	return k;
}

static int load(struct ibtopo_fabric *f, const char *text, size_t *unknown,
		struct ibtopo_error *err)
{
	struct ibtopo_counters_load_opts o = IBTOPO_COUNTERS_LOAD_OPTS_INIT;

	o.read_at_ms = 1700000000000;
	return ibtopo_counters_load_buffer(f, text, strlen(text), "c.txt", &o,
					   unknown, err);
}

#define BIT(c) (1u << (c))

static void perfquery_blocks_go_to_the_port_by_lid(void **state)
{
	static const char text[] =
		"# Port counters: Lid 2 port 39 (CapMask: 0x1600)\n"
		"PortSelect:......................39\n"
		"CounterSelect:...................0x0000\n"
		"SymbolErrorCounter:..............12\n"
		"LinkDownedCounter:...............255\n"
		"CounterSelect2:..................0x00\n"
		"PortXmitData:....................4294967295\n"
		"PortRcvData:.....................1000\n"
		"# Port extended counters: Lid 2 port 39 (CapMask: 0x1600)\n"
		"PortSelect:......................39\n"
		"PortXmitData:....................123456789012\n"
		"PortUnicastXmitPkts:.............20\n"
		"# Port counters: Lid 11 port 1 (CapMask: 0x1400)\n"
		"PortRcvErrors:...................5\n";
	struct ibtopo_fabric *f = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_counters *c;
	size_t unknown = 99;

	assert_int_equal(load(f, text, &unknown, &err), 0);
	assert_int_equal(unknown, 0);
	c = ctr(f, LEAF01, 39);
	assert_non_null(c);
	assert_int_equal(c->value[IBTOPO_CTR_SYMBOL_ERRORS], 12);
	assert_int_equal(c->value[IBTOPO_CTR_LINK_DOWNED], 255);
	assert_true(ibtopo_counter_is_saturated(IBTOPO_CTR_LINK_DOWNED, false,
						c->value[IBTOPO_CTR_LINK_DOWNED]));
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_DATA], 123456789012ull);
	assert_int_equal(c->value[IBTOPO_CTR_RCV_DATA], 1000);
	assert_int_equal(c->valid, BIT(IBTOPO_CTR_SYMBOL_ERRORS) |
				   BIT(IBTOPO_CTR_LINK_DOWNED) |
				   BIT(IBTOPO_CTR_XMIT_DATA) |
				   BIT(IBTOPO_CTR_RCV_DATA));
	assert_int_equal(c->extended, BIT(IBTOPO_CTR_XMIT_DATA));
	assert_int_equal(c->read_at_ms, 1700000000000);
	c = ctr(f, HOST01, 1);
	assert_non_null(c);
	assert_int_equal(c->valid, BIT(IBTOPO_CTR_RCV_ERRORS));
	assert_int_equal(c->value[IBTOPO_CTR_RCV_ERRORS], 5);
	assert_int_equal(with_counters(f), 2);
}

static void extended_data_stays_over_a_later_32_bit_block(void **state)
{
	static const char text[] =
		"# Port extended counters: Lid 2 port 40 (CapMask: 0x1600)\n"
		"PortRcvData:.....................98765432100\n"
		"# Port counters: Lid 2 port 40 (CapMask: 0x1600)\n"
		"PortRcvData:.....................4294967295\n"
		"VL15Dropped:.....................3\n";
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_counters *c;

	assert_int_equal(load(f, text, NULL, NULL), 0);
	c = ctr(f, LEAF01, 40);
	assert_non_null(c);
	assert_int_equal(c->value[IBTOPO_CTR_RCV_DATA], 98765432100ull);
	assert_int_equal(c->extended, BIT(IBTOPO_CTR_RCV_DATA));
	assert_int_equal(c->value[IBTOPO_CTR_VL15_DROPPED], 3);
}

static void ports_the_fabric_lacks_are_counted(void **state)
{
	static const char text[] =
		"# Port counters: Lid 99 port 1 (CapMask: 0x1400)\n"
		"SymbolErrorCounter:..............7\n"
		"# Port counters: Lid 2 port 255 (CapMask: 0x1600)\n"
		"SymbolErrorCounter:..............7\n"
		"# Port counters: Lid 2 port 33 (CapMask: 0x1600)\n"
		"SymbolErrorCounter:..............7\n";
	struct ibtopo_fabric *f = *state;
	size_t unknown = 0;

	assert_int_equal(load(f, text, &unknown, NULL), 0);
	assert_int_equal(unknown, 3);
	assert_int_equal(with_counters(f), 0);
}

static void ibqueryerrors_lines_go_to_the_port_by_guid(void **state)
{
	static const char text[] =
		"Errors for 0x1000000000000200 \"leaf01\"\n"
		"   GUID 0x1000000000000200 port 39: [SymbolErrorCounter == 12]"
		" [LinkDownedCounter == 3]\n"
		"   GUID 0x1000000000000200 port ALL: [SymbolErrorCounter == 12]\n"
		"   Link info:     2   39[  ] ==( 4X  53.125 Gbps Active/  LinkUp)==>"
		"  0x1000000000000100    1    1[  ] \"spine01\" ( )\n"
		"Errors for \"host01 mlx5_0\"\n"
		"   GUID 0x2000000000000101 port 1: [PortRcvErrors == 5]"
		" [PortXmitData == 8589934592 (32.000GB)] [PortXmitWait == 0]\n"
		"   GUID 0x0123000000000000 port 1: [PortRcvErrors == 1]\n"
		"## Summary: 7 nodes checked, 2 bad nodes found\n"
		"##      22 ports checked, 2 ports have errors beyond threshold\n";
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_counters *c;
	size_t unknown = 0;

	assert_int_equal(load(f, text, &unknown, NULL), 0);
	assert_int_equal(unknown, 2);
	c = ctr(f, LEAF01, 39);
	assert_non_null(c);
	assert_int_equal(c->valid, BIT(IBTOPO_CTR_SYMBOL_ERRORS) |
				   BIT(IBTOPO_CTR_LINK_DOWNED));
	assert_int_equal(c->value[IBTOPO_CTR_LINK_DOWNED], 3);
	c = ctr(f, HOST01, 1);
	assert_non_null(c);
	assert_int_equal(c->value[IBTOPO_CTR_RCV_ERRORS], 5);
	/* wider than PortCounters' 32 bits: it came from a 64-bit counter */
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_DATA], 8589934592ull);
	assert_int_equal(c->extended, BIT(IBTOPO_CTR_XMIT_DATA));
	assert_true(c->valid & BIT(IBTOPO_CTR_XMIT_WAIT));
	assert_int_equal(with_counters(f), 2);
}

/* Bad input: FILE:LINE and what was expected; no port changes. */
static void bad(struct ibtopo_fabric *f, const char *text, const char *msg)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	assert_int_equal(load(f, text, NULL, &err), IBTOPO_EPARSE);
	if (!strstr(err.message, msg))
		fail_msg("'%s' does not say '%s'", err.message, msg);
	assert_int_equal(with_counters(f), 0);
}

static void bad_input_names_the_line_and_changes_nothing(void **state)
{
	struct ibtopo_fabric *f = *state;

	bad(f, "", "c.txt:1: expected counters: perfquery");
	bad(f, "Switch 40 \"S-1\"\n", "c.txt:1: expected counters: perfquery");
	bad(f, "# Port counters: Lid 2 port 39\nSymbolErrorCounter:....12\n"
	       "# Port counters: Lid 2 port 40\nSymbolErrorCounter:....x\n",
	    "c.txt:4: expected a number after 'SymbolErrorCounter:'");
	bad(f, "# Port counters: Lid 2 port 39\nSymbolErrorCounter 12\n",
	    "c.txt:2: expected 'Field:....value'");
	bad(f, "SymbolErrorCounter:....12\n# Port counters: Lid 2 port 39\n",
	    "c.txt:1: expected '# Port counters: Lid N port P'");
	bad(f, "# Port counters: DR path slid 0; dlid 0; 0,1 port 1\n",
	    "c.txt:1: expected 'Lid N port P'");
	bad(f, "# Port counters: Lid 70000 port 1\n",
	    "c.txt:1: expected a LID");
	bad(f, "# Port counters: Lid 2 port 39\n"
	       "PortXmitData:....99999999999999999999\n",
	    "c.txt:2: expected a number");
	bad(f, "GUID 0x1000000000000200 port 39: [SymbolErrorCounter == 1]\n"
	       "GUID 0x1000000000000200 port 40: SymbolErrorCounter == 1\n",
	    "c.txt:2: expected '[Counter == value]'");
	bad(f, "GUID 0x1000000000000200 port 39 [SymbolErrorCounter == 1]\n",
	    "c.txt:1: expected ':' after the port");
	bad(f, "GUID 0x1000000000000200 port 39: [SymbolErrorCounter == 1\n",
	    "c.txt:1: expected ']'");
	bad(f, "Errors for \"x\"\nsomething else\n",
	    "c.txt:2: expected 'GUID 0x... port N: [Counter == value]'");
}

static void a_nul_byte_is_binary_data(void **state)
{
	static const char text[] =
		"# Port counters: Lid 2 port 39\nSymbolErrorCounter:..1\0\n";
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	assert_int_equal(ibtopo_counters_load_buffer(*state, text,
						     sizeof(text) - 1, "c.txt",
						     NULL, NULL, &err),
			 IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "c.txt:1: binary data"));
	assert_int_equal(with_counters(*state), 0);
}

#define LEAF02 0x1000000000000300ull

static int load_file(struct ibtopo_fabric *f, const char *path,
		     struct ibtopo_fabric *before, size_t *unknown,
		     struct ibtopo_error *err)
{
	struct ibtopo_counters_load_opts o = IBTOPO_COUNTERS_LOAD_OPTS_INIT;

	o.read_at_ms = 1700000000000;
	o.before = before;
	o.pm_pause_ms = 60000;
	return ibtopo_counters_load(f, path, &o, unknown, err);
}

static void ibdiagnet_pm_blocks_go_to_the_port_by_guid(void **state)
{
	struct ibtopo_fabric *f = *state;
	const struct ibtopo_counters *c;
	size_t unknown = 0;

	assert_int_equal(load_file(f, TEST_DATADIR "/hc-ibdiagnet2.pm", NULL,
				   &unknown, NULL), 0);
	assert_int_equal(unknown, 1);
	c = ctr(f, LEAF01, 39);
	assert_non_null(c);
	assert_int_equal(c->read_at_ms, 1700000000000);
	assert_int_equal(c->value[IBTOPO_CTR_SYMBOL_ERRORS], 12);
	/* the names ibdiagnet2.pm shortens */
	assert_int_equal(c->value[IBTOPO_CTR_LINK_DOWNED], 3);
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_DISCARDS], 7);
	assert_int_equal(
		c->value[IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS], 2);
	/* _extended wins over the 32-bit one; NA leaves the 32-bit one */
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_DATA], 123456789012ull);
	assert_int_equal(c->value[IBTOPO_CTR_RCV_DATA], 2000);
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_PKTS], 10);
	assert_int_equal(c->extended, BIT(IBTOPO_CTR_XMIT_DATA) |
				      BIT(IBTOPO_CTR_RCV_DATA));
	c = ctr(f, HOST01, 1);
	assert_non_null(c);
	assert_int_equal(c->value[IBTOPO_CTR_RCV_ERRORS], 5);
	assert_false(c->valid & BIT(IBTOPO_CTR_XMIT_DATA));
	assert_int_equal(with_counters(f), 2);
}

static void db_csv_pm_info_and_pm_delta(void **state)
{
	struct ibtopo_read_opts ro = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
	struct ibtopo_fabric *f = *state, *before = NULL;
	struct ibtopo_health *h = NULL;
	const struct ibtopo_counters *c;
	size_t unknown = 0, rates = 0;

	assert_int_equal(ibtopo_fabric_read_file(&before, TEST_DATADIR
						 "/ck-cables.topo", &ro, NULL),
			 0);
	assert_int_equal(load_file(f, TEST_DATADIR "/hc-ibdiagnet2.db_csv",
				   before, &unknown, NULL), 0);
	assert_int_equal(unknown, 1);
	assert_int_equal(with_counters(f), 3);
	c = ctr(f, LEAF01, 39);
	assert_int_equal(c->value[IBTOPO_CTR_SYMBOL_ERRORS], 12);
	assert_int_equal(c->value[IBTOPO_CTR_LINK_DOWNED], 3);
	assert_int_equal(c->value[IBTOPO_CTR_XMIT_DATA], 123456789012ull);
	assert_true(c->extended & BIT(IBTOPO_CTR_XMIT_DATA));
	/* a "...Ext" column is the 64-bit error counter */
	c = ctr(f, LEAF02, 39);
	assert_int_equal(c->value[IBTOPO_CTR_SYMBOL_ERRORS], 70000);
	assert_true(c->extended & BIT(IBTOPO_CTR_SYMBOL_ERRORS));
	/* the earlier reading: PM_INFO less PM_DELTA, 60 s before */
	c = ctr(before, LEAF01, 39);
	assert_non_null(c);
	assert_int_equal(c->value[IBTOPO_CTR_SYMBOL_ERRORS], 10);
	assert_int_equal(c->value[IBTOPO_CTR_LINK_DOWNED], 3);
	assert_int_equal(c->read_at_ms, 1700000000000 - 60000);
	assert_int_equal(with_counters(before), 3);
	/* health from the one file: 2 symbol errors in 60 s, 120/h */
	assert_int_equal(ibtopo_health_analyze(&h, &found, f, before, NULL,
					       NULL), 0);
	for (size_t i = 0; i < found.count; i++) {
		const struct ibtopo_finding *x = &found.items[i];

		if (x->kind != IBTOPO_FIND_PORT_ERROR_RATE)
			continue;
		rates++;
		assert_int_equal(x->a.guid, LEAF01);
		assert_int_equal(x->a.port, 39);
		assert_int_equal(x->subkind, IBTOPO_CTR_SYMBOL_ERRORS);
		assert_int_equal(x->num.growth.growth, 2);
		assert_true(x->num.growth.rate_per_hour > 119.9 &&
			    x->num.growth.rate_per_hour < 120.1);
	}
	assert_int_equal(rates, 1);
	ibtopo_health_free(h);
	ibtopo_findings_release(&found);
	ibtopo_fabric_free(before);
}

static void bad_ibdiagnet_input(void **state)
{
	struct ibtopo_fabric *f = *state;

	bad(f, "symbol_error_counter=0x1\n"
	       "Port=1 Lid=0x1 GUID=0x1000000000000200 Device=1 Port Name=x\n",
	    "c.txt:1: expected 'Port=N Lid=... GUID=0x...' before");
	bad(f, "Port=39 Lid=0x2 GUID=0x1000000000000200 Device=1 Port Name=x\n"
	       "symbol_error_counter=0xzz\n",
	    "c.txt:2: expected a number or NA");
	bad(f, "Port=39 Lid=0x2 GUID=0x1000000000000200 Device=1 Port Name=x\n"
	       "symbol_error_counter\n",
	    "c.txt:2: expected 'counter_name=value'");
	bad(f, "Port=300 Lid=0x2 GUID=0x1000000000000200 Device=1\n",
	    "c.txt:1: expected a port number");
	bad(f, "START_PM_INFO\nNodeGUID,SymbolErrorCounter\n0x1,1\n"
	       "END_PM_INFO\n",
	    "c.txt:2: the PM_INFO header lacks PortNumber or NodeGUID");
	bad(f, "START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n"
	       "0x1000000000000200,39,1\n0x1000000000000200,40,x\n"
	       "END_PM_INFO\n",
	    "c.txt:4: bad SymbolErrorCounter value 'x'");
	bad(f, "START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n"
	       "0x1000000000000200,39,1\nEND_PM_INFO\nSTART_PM_DELTA\n"
	       "NodeGUID,PortNumber,SymbolErrorCounter\n"
	       "0x1000000000000200,zz,1\nEND_PM_DELTA\n",
	    "c.txt:7: bad PortNumber 'zz'");
	bad(f, "START_PM_DELTA\nNodeGUID,PortNumber,SymbolErrorCounter\n"
	       "END_PM_DELTA\n",
	    "c.txt:1: the ibdiagnet db_csv file has no PM_INFO section");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, test_setup_ck_cables, test_teardown_fabric)
		T(perfquery_blocks_go_to_the_port_by_lid),
		T(extended_data_stays_over_a_later_32_bit_block),
		T(ports_the_fabric_lacks_are_counted),
		T(ibqueryerrors_lines_go_to_the_port_by_guid),
		T(bad_input_names_the_line_and_changes_nothing),
		T(a_nul_byte_is_binary_data),
		T(ibdiagnet_pm_blocks_go_to_the_port_by_guid),
		T(db_csv_pm_info_and_pm_delta),
		T(bad_ibdiagnet_input),
#undef T
	};

	return cmocka_run_group_tests_name("read_counters", tests, NULL, NULL);
}
