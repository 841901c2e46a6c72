/*
 * test_local_ports.c - the local ports discover --all-ports goes through
 * (lib/discover/discover_local.c): libibumad's CA and port list replaced with
 * -Wl,--wrap by a mocked one, and the choice of the next port to
 * discover through.
 */
#include "ibtopo-int.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

int __wrap_umad_init(void);
int __wrap_umad_get_cas_names(char cas[][UMAD_CA_NAME_LEN], int max);
int __wrap_umad_get_ca(const char *ca_name, umad_ca_t *ca);
int __wrap_umad_release_ca(umad_ca_t *ca);
struct ibmad_port *__wrap_mad_rpc_open_port(char *dev_name, int dev_port,
					    int *mgmt_classes, int num_classes);

/* The mocked machine: two HCAs, mlx5_0 (two ports) and mlx5_1 (one). */
struct mock_port {
	const char *ca;
	int num;
	unsigned state;
	const char *link_layer;
	uint64_t guid, prefix;
	unsigned sm_lid;
};

static const struct mock_port machine[] = {
	{ "mlx5_0", 1, 4, "InfiniBand", 0x1001, 0xfe80000000000000ull, 1 },
	{ "mlx5_0", 2, 1, "InfiniBand", 0x1002, 0xfe80000000000000ull, 0 },
	{ "mlx5_1", 1, 4, "Ethernet", 0x2001, 0xfe80000000000000ull, 0 },
};

static umad_port_t ports[3];
static int sm_ports_opened;

int __wrap_umad_init(void)
{
	return 0;
}

int __wrap_umad_get_cas_names(char cas[][UMAD_CA_NAME_LEN], int max)
{
	assert_true(max >= 2);
	strcpy(cas[0], "mlx5_0");
	strcpy(cas[1], "mlx5_1");
	return 2;
}

int __wrap_umad_get_ca(const char *ca_name, umad_ca_t *ca)
{
	memset(ca, 0, sizeof(*ca));
	snprintf(ca->ca_name, sizeof(ca->ca_name), "%s", ca_name);
	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++) {
		const struct mock_port *m = &machine[i];
		umad_port_t *p = &ports[i];

		if (strcmp(m->ca, ca_name) != 0)
			continue;
		memset(p, 0, sizeof(*p));
		snprintf(p->ca_name, sizeof(p->ca_name), "%s", m->ca);
		p->portnum = m->num;
		p->state = m->state;
		snprintf(p->link_layer, sizeof(p->link_layer), "%s",
			 m->link_layer);
		p->port_guid = htobe64(m->guid);
		p->gid_prefix = htobe64(m->prefix);
		p->sm_lid = m->sm_lid;
		ca->ports[m->num] = p;
		ca->numports++;
	}
	return 0;
}

int __wrap_umad_release_ca(umad_ca_t *ca)
{
	(void)ca;
	return 0;
}

/* SMInfo: only asked on an active InfiniBand port with an SM LID. No
 * MAD port to be had here: the SM's GUID stays unknown. */
struct ibmad_port *__wrap_mad_rpc_open_port(char *dev_name, int dev_port,
					    int *mgmt_classes, int num_classes)
{
	(void)mgmt_classes;
	(void)num_classes;
	assert_string_equal(dev_name, "mlx5_0");
	assert_int_equal(dev_port, 1);
	sm_ports_opened++;
	return NULL;
}

static void local_ports_lists_every_port_of_every_ca(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_local_port *list = NULL;
	size_t n = 0;

	(void)state;
	sm_ports_opened = 0;
	assert_int_equal(ibtopo_local_ports(&list, &n, 0, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(list[0].ca, "mlx5_0");
	assert_int_equal(list[0].port, 1);
	assert_true(list[0].active);
	assert_true(list[0].infiniband);
	assert_int_equal(list[0].port_guid, 0x1001);
	assert_int_equal(list[0].subnet_prefix, 0xfe80000000000000ull);
	assert_int_equal(list[0].sm_lid, 1);
	assert_int_equal(list[0].sm_guid, 0);
	assert_false(list[1].active);
	assert_string_equal(list[2].ca, "mlx5_1");
	assert_false(list[2].infiniband);
	/* one SMInfo: the one port that is active, InfiniBand, with an SM */
	assert_int_equal(sm_ports_opened, 1);
	free(list);
}

/* Port selection over a mocked list: rail-style, four ports, two SMs. */
static void next_port_skips_down_ethernet_and_covered_subnets(void **state)
{
	static const struct ibtopo_local_port list[] = {
		{ "mlx5_0", 1, true, true, 0x11, 0, 1, 0xa },	 /* SM a */
		{ "mlx5_1", 1, true, false, 0x21, 0, 0, 0 },	 /* down */
		{ "mlx5_2", 1, false, true, 0x31, 0, 1, 0xb },	 /* RoCE */
		{ "mlx5_3", 1, true, true, 0x41, 0, 1, 0xa },	 /* SM a again */
		{ "mlx5_4", 1, true, true, 0x51, 0, 7, 0xb },	 /* SM b */
		{ "mlx5_5", 1, true, true, 0x61, 0, 0, 0 },	 /* SM unknown */
	};
	const size_t n = sizeof(list) / sizeof(list[0]);
	uint64_t seen[4] = { 0 };
	size_t i;

	(void)state;
	i = ibtopo_local_ports_next(list, n, 0, seen, 0);
	assert_int_equal(i, 0);
	seen[0] = list[i].sm_guid;
	/* mlx5_1 is down, mlx5_2 Ethernet, mlx5_3 behind SM a already */
	i = ibtopo_local_ports_next(list, n, i + 1, seen, 1);
	assert_int_equal(i, 4);
	seen[1] = list[i].sm_guid;
	/* an SM not known: the switch GUIDs decide, after the sweep */
	i = ibtopo_local_ports_next(list, n, i + 1, seen, 2);
	assert_int_equal(i, 5);
	assert_int_equal(ibtopo_local_ports_next(list, n, i + 1, seen, 2), n);
	/* nothing covered: every active InfiniBand port */
	assert_int_equal(ibtopo_local_ports_next(list, n, 1, seen, 0), 3);
	assert_int_equal(ibtopo_local_ports_next(NULL, 0, 0, seen, 0), 0);
}

/* The subnet a swept port covers: the sweep's master, else the port's. */
static void seen_takes_the_sweeps_sm_then_the_ports(void **state)
{
	static const struct ibtopo_local_port a = { "mlx5_0", 1, true, true,
						    0x11, 0, 1, 0xa };
	static const struct ibtopo_local_port b = { "mlx5_1", 1, true, true,
						    0x21, 0, 0, 0 };
	struct ibtopo_error err;
	struct ibtopo_fabric *f = NULL;
	uint64_t seen[4] = { 0 };
	size_t n = 0;

	(void)state;
	assert_int_equal(ibtopo_fabric_new(&f, &err), 0);
	/* no SM found by the sweep: the port's own */
	ibtopo_local_ports_seen(seen, &n, &a, f);
	assert_int_equal(n, 1);
	assert_int_equal(seen[0], 0xa);
	/* neither knows one: nothing to remember */
	ibtopo_local_ports_seen(seen, &n, &b, f);
	assert_int_equal(n, 1);
	/* the sweep's master wins over the port's */
	ibtopo_fabric_set_subnet(f, 0xfe80000000000000ull, 1, 0xc);
	ibtopo_local_ports_seen(seen, &n, &a, f);
	assert_int_equal(n, 2);
	assert_int_equal(seen[1], 0xc);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(local_ports_lists_every_port_of_every_ca),
		cmocka_unit_test(next_port_skips_down_ethernet_and_covered_subnets),
		cmocka_unit_test(seen_takes_the_sweeps_sm_then_the_ports),
	};

	return cmocka_run_group_tests_name("local_ports", tests, NULL, NULL);
}
