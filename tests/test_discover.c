/*
 * test_discover.c - discovery and cache loading (lib/discover/discover.c).
 *
 * The sweep and libibumad are replaced with -Wl,--wrap: umad_* answer
 * from will_return() values, ibtopo__sweep() hands out fabrics built here
 * from PortInfo fields set with libibmad, so every decoding rule and every
 * failure path runs without a simulator. ibnd_load_fabric() passes
 * through to the real library unless a test makes it fail.
 */
#include "ibtopo-int.h"
#include "discover/discover-int.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CACHE_FILE TEST_DATADIR "/sim-small.cache"

/* ---- wrapped library functions ---- */

int __wrap_umad_init(void);
int __wrap_umad_get_port(const char *ca_name, int portnum, umad_port_t *port);
int __wrap_umad_release_port(umad_port_t *port);
int __wrap_umad_open_port(const char *ca_name, int portnum);
int __wrap_umad_close_port(int portid);
int __wrap_ibtopo__sweep(ibnd_fabric_t **out, const char *ca, int portnum,
			 const struct ibnd_config *config,
			 struct ibtopo__lfts *lfts,
			 struct ibtopo__mad_tally *tally,
			 struct ibtopo_error *err);
void __real_ibtopo__sweep_free(ibnd_fabric_t *fabric);
void __wrap_ibtopo__sweep_free(ibnd_fabric_t *fabric);
ibnd_fabric_t *__real_ibnd_load_fabric(const char *file, unsigned int flags);
ibnd_fabric_t *__wrap_ibnd_load_fabric(const char *file, unsigned int flags);

struct ibmad_port *__wrap_mad_rpc_open_port(char *dev_name, int dev_port,
					    int *mgmt_classes, int num_classes);
void __wrap_mad_rpc_close_port(struct ibmad_port *port);
void __wrap_mad_rpc_set_timeout(struct ibmad_port *port, int timeout);
void __wrap_mad_rpc_set_retries(struct ibmad_port *port, int retries);
uint8_t *__wrap_smp_query_via(void *buf, ib_portid_t *id, unsigned attrid,
			      unsigned mod, unsigned timeout,
			      const struct ibmad_port *srcport);

static struct ibnd_config last_config;
static int destroyed_fakes;

/*
 * The SMPs that repair() sends again: answered from `answers` (by DR path,
 * attribute and modifier), NULL (a timeout) for anything else.
 */
static struct answer {
	const char *path;		/* "0,1,4" */
	unsigned attr, mod;
	uint8_t data[IB_SMP_DATA_SIZE];
} answers[4];
static int nanswers, queries, mad_ports_open;
/* SMPs every discovery sends besides its repairs, before the sweep:
 * discover_local.c's PortInfo of the local port (no SM LID here, so no
 * SMInfo) */
#define LOCAL_QUERIES 1

static struct answer *answer(const char *path, unsigned attr, unsigned mod)
{
	struct answer *a = &answers[nanswers++];

	assert_true(nanswers <= 4);
	memset(a, 0, sizeof(*a));
	a->path = path;
	a->attr = attr;
	a->mod = mod;
	return a;
}

struct ibmad_port *__wrap_mad_rpc_open_port(char *dev_name, int dev_port,
					    int *mgmt_classes, int num_classes)
{
	static int token;

	assert_string_equal(dev_name, "fake0");
	assert_int_equal(dev_port, 1);
	(void)mgmt_classes;
	(void)num_classes;
	mad_ports_open++;
	return (struct ibmad_port *)&token;
}

void __wrap_mad_rpc_close_port(struct ibmad_port *port)
{
	assert_non_null(port);
	mad_ports_open--;
}

void __wrap_mad_rpc_set_timeout(struct ibmad_port *port, int timeout)
{
	(void)port;
	assert_int_equal(timeout, 250);
}

void __wrap_mad_rpc_set_retries(struct ibmad_port *port, int retries)
{
	(void)port;
	assert_true(retries > 0);
}

uint8_t *__wrap_smp_query_via(void *buf, ib_portid_t *id, unsigned attrid,
			      unsigned mod, unsigned timeout,
			      const struct ibmad_port *srcport)
{
	char path[64];
	int at;

	(void)timeout;
	assert_non_null(srcport);
	assert_int_equal(id->lid, 0);
	queries++;
	at = snprintf(path, sizeof(path), "0");
	for (int i = 1; i <= id->drpath.cnt; i++)
		at += snprintf(path + at, sizeof(path) - (size_t)at, ",%d",
			       id->drpath.p[i]);
	for (int i = 0; i < nanswers; i++)
		if (strcmp(answers[i].path, path) == 0 &&
		    answers[i].attr == attrid && answers[i].mod == mod) {
			memcpy(buf, answers[i].data, IB_SMP_DATA_SIZE);
			return buf;
		}
	return NULL;
}

int __wrap_umad_init(void)
{
	return 0;
}

/* will_return: the status; on success the CA name. */
int __wrap_umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	int rc = mock_type(int);

	if (rc < 0)
		return rc;
	memset(port, 0, sizeof(*port));
	snprintf(port->ca_name, sizeof(port->ca_name), "%s",
		 ca_name ? ca_name : "fake0");
	port->portnum = portnum ? portnum : 1;
	snprintf(port->link_layer, sizeof(port->link_layer), "%s",
		 mock_ptr_type(const char *));
	return 0;
}

int __wrap_umad_release_port(umad_port_t *port)
{
	return 0;
}

/* will_return: an fd, or -errno. */
int __wrap_umad_open_port(const char *ca_name, int portnum)
{
	return mock_type(int);
}

int __wrap_umad_close_port(int portid)
{
	return 0;
}

/*
 * What the sweep read of the forwarding tables (discover --routes): the
 * switch `lft_switch` with LinearFDBTop `lft_top`, its blocks answered
 * where lft_have[block]; entry i is lft_entry(i). No switch when NULL.
 */
static ibnd_node_t *lft_switch;
static unsigned lft_top;
static bool lft_have[4];

static uint8_t lft_entry(unsigned lid)
{
	return (uint8_t)(lid % 5);
}

/* will_return: the fabric, or NULL for a sweep that fails */
int __wrap_ibtopo__sweep(ibnd_fabric_t **out, const char *ca, int portnum,
			 const struct ibnd_config *config,
			 struct ibtopo__lfts *lfts,
			 struct ibtopo__mad_tally *tally,
			 struct ibtopo_error *err)
{
	if (lfts && lft_switch) {
		struct ibtopo__lft_read *r;

		assert_int_equal(ibtopo__lfts_add(lfts, lft_switch, lft_top), 0);
		r = &lfts->sw[lfts->count - 1];
		for (unsigned b = 0; b < r->blocks; b++) {
			if (!lft_have[b])
				continue;
			for (unsigned i = 0; i < IBTOPO__LFT_BLOCK; i++)
				r->port[b * IBTOPO__LFT_BLOCK + i] =
					lft_entry(b * IBTOPO__LFT_BLOCK + i);
			r->have[b] = 1;
			r->missing--;
		}
		lfts->gets += r->blocks;
	}
	assert_non_null(config);
	assert_non_null(tally);
	last_config = *config;
	*out = mock_ptr_type(ibnd_fabric_t *);
	if (!*out)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "MAD receive failed: %s", strerror(EIO));
	return 0;
}

/* will_return: true to read the file for real, false to fail. */
ibnd_fabric_t *__wrap_ibnd_load_fabric(const char *file, unsigned int flags)
{
	if (mock_type(int))
		return __real_ibnd_load_fabric(file, flags);
	return NULL;
}

/* Fakes are built like sweeps (calloc'd nodes and ports): counted here. */
void __wrap_ibtopo__sweep_free(ibnd_fabric_t *fabric)
{
	if (fabric && fabric->maxhops_discovered == 999)
		destroyed_fakes++;
	__real_ibtopo__sweep_free(fabric);
}

/* ---- fake fabrics ---- */

static ibnd_fabric_t *fake_fabric(void)
{
	ibnd_fabric_t *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->maxhops_discovered = 999;
	return f;
}

static ibnd_node_t *fake_node(ibnd_fabric_t *f, int type, uint64_t guid,
			      int nports, const char *desc)
{
	ibnd_node_t *n = calloc(1, sizeof(*n));

	assert_non_null(n);
	n->type = type;
	n->guid = guid;
	n->numports = nports;
	n->ports = calloc((size_t)nports + 1, sizeof(*n->ports));
	assert_non_null(n->ports);
	snprintf(n->nodedesc, sizeof(n->nodedesc), "%s", desc);
	mad_set_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F, guid | 0xf000);
	mad_set_field(n->info, 0, IB_NODE_VENDORID_F, 0x02c9);
	mad_set_field(n->info, 0, IB_NODE_DEVID_F, 0xcf08);
	mad_set_field(n->info, 0, IB_NODE_REVISION_F, 0xa0);
	n->next = f->nodes;
	f->nodes = n;
	if (!f->from_node)
		f->from_node = n;
	return n;
}

/* PortInfo of an HDR-capable 4x port, Active/LinkUp at 4xHDR. */
static ibnd_port_t *fake_port(ibnd_node_t *n, int num, uint32_t capmask)
{
	ibnd_port_t *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->node = n;
	p->portnum = num;
	p->guid = n->type == IB_NODE_SWITCH ? n->guid : n->guid + (uint64_t)num;
	p->base_lid = (uint16_t)(n->guid & 0xff);
	mad_set_field(p->info, 0, IB_PORT_CAPMASK_F, capmask);
	mad_set_field(p->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(p->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(p->info, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F, 1 | 2);
	mad_set_field(p->info, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 255);
	mad_set_field(p->info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F, 2);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_SUPPORTED_F, 7);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_ENABLED_F, 15);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F, 4);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, 7);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F, 31);
	mad_set_field(p->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, 4);
	n->ports[num] = p;
	return p;
}

static void fake_link(ibnd_port_t *a, ibnd_port_t *b)
{
	a->remoteport = b;
	b->remoteport = a;
}

#define CAP_EXT (1u << 14)

/*
 * spine (switch 0x20, 4 ports, cap mask on port 0 only) port 1 --
 * host (CA 0x10, 1 port, own cap mask) port 1.
 */
struct small {
	ibnd_fabric_t *f;
	ibnd_node_t *sw, *ca;
	ibnd_port_t *sp1, *cp1;
};

static struct small small_fabric(void)
{
	struct small s;

	s.f = fake_fabric();
	s.sw = fake_node(s.f, IB_NODE_SWITCH, 0x20, 4, "spine01");
	s.ca = fake_node(s.f, IB_NODE_CA, 0x10, 1, "host01 mlx5_0");
	fake_port(s.sw, 0, CAP_EXT);
	s.sp1 = fake_port(s.sw, 1, 0);
	s.cp1 = fake_port(s.ca, 1, CAP_EXT);
	fake_link(s.sp1, s.cp1);
	/* switch ports 2..4 answered: down */
	for (int i = 2; i <= 4; i++) {
		ibnd_port_t *p = fake_port(s.sw, i, 0);

		mad_set_field(p->info, 0, IB_PORT_STATE_F, 1);
		mad_set_field(p->info, 0, IB_PORT_PHYS_STATE_F, 2);
	}
	return s;
}

static void expect_device(const char *link_layer, int open_rc)
{
	will_return(__wrap_umad_get_port, 0);
	will_return(__wrap_umad_get_port, link_layer);
	if (strcmp(link_layer, "Ethernet") != 0)
		will_return(__wrap_umad_open_port, open_rc);
}

static int discover(struct ibtopo_fabric **out, ibnd_fabric_t *fake,
		    unsigned flags, struct ibtopo_error *err)
{
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;

	o.flags = flags;
	o.timeout_ms = 250;
	expect_device("InfiniBand", 3);
	will_return(__wrap_ibtopo__sweep, fake);
	return ibtopo_fabric_discover(out, &o, err);
}

static void count_warning(void *arg, const char *message)
{
	assert_string_equal(message, "the fabric changed during sweep 1 (port 4 "
			    "of 'spine01' went down); sweeping again");
	++*(int *)arg;
}

/* ---- tests ---- */

static void discover_without_device_is_enodev(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = (void *)1;

	will_return(__wrap_umad_get_port, -ENODEV);
	assert_int_equal(ibtopo_fabric_discover(&f, NULL, &err), IBTOPO_ENODEV);
	assert_null(f);
	assert_string_equal(err.message, "no InfiniBand device found (is "
			    "ib_umad loaded? can you read /dev/infiniband/umad*?)");
}

static void discover_names_the_missing_ca(void **state)
{
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	o.ca = "mlx5_9";
	o.port = 2;
	will_return(__wrap_umad_get_port, -ENODEV);
	assert_int_equal(ibtopo_fabric_discover(&f, &o, &err), IBTOPO_ENODEV);
	assert_string_equal(err.message, "no InfiniBand device 'mlx5_9' port 2 "
			    "(is ib_umad loaded? does ibstat list it?)");
}

static void discover_unopenable_umad_is_enodev(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	expect_device("InfiniBand", -EACCES);
	assert_int_equal(ibtopo_fabric_discover(&f, NULL, &err), IBTOPO_ENODEV);
	assert_non_null(strstr(err.message, "'fake0' port 1: Permission denied"));
}

static void discover_refuses_ethernet_port(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	expect_device("Ethernet", 0);
	assert_int_equal(ibtopo_fabric_discover(&f, NULL, &err), IBTOPO_ENODEV);
	assert_non_null(strstr(err.message, "Ethernet"));
}

static void discover_sweep_failure_names_the_port(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	assert_int_equal(discover(&f, NULL, 0, &err), IBTOPO_EIO);
	assert_null(f);
	assert_string_equal(err.message, "discovery through 'fake0' port 1: "
			    "MAD receive failed: Input/output error");
}

static void discover_bad_options_are_einval(void **state)
{
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;

	o.version = 99;
	assert_int_equal(ibtopo_fabric_discover(&f, &o, NULL), IBTOPO_EINVAL);
	o.version = IBTOPO_DISCOVER_OPTS_VERSION;
	o.port = 256;
	assert_int_equal(ibtopo_fabric_discover(&f, &o, NULL), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_fabric_discover(NULL, NULL, NULL), IBTOPO_EINVAL);
}

static void discover_passes_a_full_config(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;

	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_int_equal(last_config.max_smps, 16);
	assert_int_equal(last_config.timeout_ms, 250);
	assert_true(last_config.flags & IBND_CONFIG_MLX_EPI);
	ibtopo_fabric_free(f);
}

static void discover_copies_nodes_ports_and_meta(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	const struct ibtopo_fabric_meta *m;
	struct ibtopo_node *sw, *ca;
	struct ibtopo_port *p;
	char host[256] = "";
	time_t before = time(NULL);
	int destroyed = destroyed_fakes;

	s.sw->smaenhsp0 = 1;
	s.cp1->ext_portnum = 0;
	s.sp1->ext_portnum = 7;
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_int_equal(destroyed_fakes, destroyed + 1);

	assert_int_equal(ibtopo_fabric_node_count(f), 2);
	sw = ibtopo_fabric_node(f, 0);		/* sorted: switches first */
	ca = ibtopo_fabric_node(f, 1);
	assert_int_equal(sw->type, IBTOPO_NODE_SWITCH);
	assert_string_equal(sw->desc, "spine01");
	assert_int_equal(sw->guid, 0x20);
	assert_int_equal(sw->sysimg_guid, 0xf020);
	assert_int_equal(sw->vendor_id, 0x02c9);
	assert_int_equal(sw->device_id, 0xcf08);
	assert_int_equal(sw->revision, 0xa0);
	assert_int_equal(sw->nports, 4);
	assert_true(sw->enhanced_port0);
	assert_int_equal(ca->type, IBTOPO_NODE_CA);
	assert_string_equal(ca->desc, "host01 mlx5_0");
	assert_null(ca->ports[0]);		/* CAs have no port 0 */

	p = ibtopo_node_port(sw, 1);
	assert_int_equal(p->ext_num, 7);
	assert_int_equal(p->guid, 0x20);
	assert_int_equal(p->lid, 0x20);
	assert_int_equal(p->state, IBTOPO_PORT_STATE_ACTIVE);
	assert_int_equal(p->phys_state, 5);
	assert_ptr_equal(p->remote, ibtopo_node_port(ca, 1));
	assert_ptr_equal(ibtopo_fabric_find_port(f, 0x11), ibtopo_node_port(ca, 1));

	assert_int_equal(ibtopo_fabric_link_count(f), 1);
	assert_int_equal(ibtopo_fabric_link(f, 0)->speed, IBTOPO_SPEED_HDR);
	assert_int_equal(ibtopo_fabric_link(f, 0)->width, IBTOPO_WIDTH_4X);

	m = ibtopo_fabric_meta(f);
	assert_string_equal(m->source, "discover:fake0/1");
	gethostname(host, sizeof(host) - 1);
	assert_string_equal(m->host, host);
	assert_true(m->taken_at >= before && m->taken_at <= time(NULL));
	assert_false(m->partial);
	ibtopo_fabric_free(f);
}

#define ALL_BASE (IBTOPO_SPEED_SDR | IBTOPO_SPEED_DDR | IBTOPO_SPEED_QDR)
#define ALL_EXT (IBTOPO_SPEED_FDR | IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR)

static void speeds_enabled_codes_mean_supported(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port *p;

	/* width 255, speed 15, ext 31: "all supported" */
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	p = ibtopo_fabric_find_port(f, 0x11);
	assert_int_equal(p->width_supported, IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X);
	assert_int_equal(p->width_enabled, IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X);
	assert_int_equal(p->width_active, IBTOPO_WIDTH_4X);
	assert_int_equal(p->speed_supported, ALL_BASE | ALL_EXT);
	assert_int_equal(p->speed_enabled, ALL_BASE | ALL_EXT);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_HDR);
	ibtopo_fabric_free(f);
}

static void edr_link_between_hdr_ports(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port *p;

	/* both ends enable FDR|EDR only, ext 30 disables on a down port */
	mad_set_field(s.sp1->info, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F, 3);
	mad_set_field(s.sp1->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, 2);
	mad_set_field(s.cp1->info, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F, 3);
	mad_set_field(s.cp1->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, 2);
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F, 30);
	mad_set_field(s.sw->ports[3]->info, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 1);
	mad_set_field(s.sw->ports[3]->info, 0, IB_PORT_LINK_SPEED_ENABLED_F, 5);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_int_equal(ibtopo_fabric_link(f, 0)->speed, IBTOPO_SPEED_EDR);
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 1);
	assert_int_equal(p->speed_supported, ALL_BASE | ALL_EXT);
	assert_int_equal(p->speed_enabled, ALL_BASE | IBTOPO_SPEED_FDR |
			 IBTOPO_SPEED_EDR);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_EDR);

	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 2);
	assert_int_equal(p->speed_enabled, ALL_BASE);
	assert_int_equal(p->state, IBTOPO_PORT_STATE_DOWN);
	assert_int_equal(p->speed_active, 0);	/* stale when down */
	assert_int_equal(p->width_active, 0);
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 3);
	assert_int_equal(p->width_enabled, IBTOPO_WIDTH_1X);
	assert_int_equal(p->speed_enabled, IBTOPO_SPEED_SDR | IBTOPO_SPEED_QDR |
			 ALL_EXT);
	ibtopo_fabric_free(f);
}

static void ext_speeds_need_the_capability_bit(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port *p;

	/* the CA's own cap mask lacks bit 14: its ext fields are reserved */
	mad_set_field(s.cp1->info, 0, IB_PORT_CAPMASK_F, 0);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	p = ibtopo_fabric_find_port(f, 0x11);
	assert_int_equal(p->speed_supported, ALL_BASE);
	assert_int_equal(p->speed_enabled, ALL_BASE);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_QDR);
	assert_int_equal(p->cap_mask, 0);
	ibtopo_fabric_free(f);
}

static void switch_capability_comes_from_port0(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port *p;

	/* port 1 has bit 14 in its own (reserved) field; port 0 does not */
	mad_set_field(s.sw->ports[0]->info, 0, IB_PORT_CAPMASK_F, 0);
	mad_set_field(s.sp1->info, 0, IB_PORT_CAPMASK_F, CAP_EXT);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	p = ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 1);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_QDR);
	assert_int_equal(p->speed_supported, ALL_BASE);
	ibtopo_fabric_free(f);
}

static void fdr10_from_mellanox_ext_port_info(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port *p;

	mad_set_field(s.cp1->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, 0);
	mad_set_field(s.cp1->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F, 1);
	mad_set_field(s.cp1->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F, 1);
	mad_set_field(s.cp1->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F, 1);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	p = ibtopo_fabric_find_port(f, 0x11);
	assert_int_equal(p->speed_active, IBTOPO_SPEED_FDR10);
	assert_true(p->speed_supported & IBTOPO_SPEED_FDR10);
	assert_true(p->speed_enabled & IBTOPO_SPEED_FDR10);
	ibtopo_fabric_free(f);
}

static void unanswered_peer_fails_without_partial(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = (void *)1;
	int destroyed = destroyed_fakes;

	/* port 4 is LinkUp but its peer never answered NodeInfo */
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_STATE_F, 2);
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	assert_int_equal(discover(&f, s.f, 0, &err), IBTOPO_EPARTIAL);
	assert_null(f);
	assert_int_equal(destroyed_fakes, destroyed + 1);
	assert_string_equal(err.message, "discovery incomplete: 1 SMP went "
		"unanswered (first: the peer of 'spine01' port 4 at DR path 0,4 "
		"did not answer NodeInfo)");
	assert_int_equal(mad_ports_open, 0);
}

static void unanswered_peer_is_kept_with_partial(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;

	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	assert_int_equal(discover(&f, s.f, IBTOPO_DISCOVER_PARTIAL, NULL), 0);
	assert_true(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_fabric_link_count(f), 1);
	ibtopo_fabric_free(f);
}

static void switch_port_without_port_info_is_partial(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	free(s.sw->ports[3]);
	s.sw->ports[3] = NULL;
	assert_int_equal(discover(&f, s.f, 0, &err), IBTOPO_EPARTIAL);
	assert_non_null(strstr(err.message,
			"port 3 of switch 'spine01' at DR path 0 did not answer "
			"PortInfo"));
}

static void lost_node_description_is_asked_again(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;

	nanswers = queries = 0;
	memset(s.ca->nodedesc, 0, sizeof(s.ca->nodedesc));
	s.ca->path_portid.drpath.cnt = 1;
	s.ca->path_portid.drpath.p[1] = 1;
	strcpy((char *)answer("0,1", IB_ATTR_NODE_DESC, 0)->data, "host01 mlx5_0");
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_string_equal(ibtopo_fabric_find_node(f, 0x10)->desc, "host01 mlx5_0");
	assert_int_equal(queries, 1 + LOCAL_QUERIES);
	assert_int_equal(mad_ports_open, 0);
	ibtopo_fabric_free(f);
}

static void silent_node_description_is_partial(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	nanswers = queries = 0;
	memset(s.ca->nodedesc, 0, sizeof(s.ca->nodedesc));
	s.ca->path_portid.drpath.cnt = 1;
	s.ca->path_portid.drpath.p[1] = 1;
	assert_int_equal(discover(&f, s.f, 0, &err), IBTOPO_EPARTIAL);
	assert_string_equal(err.message, "discovery incomplete: 1 SMP went "
		"unanswered (first: node 0x0000000000000010 at DR path 0,1 did "
		"not answer NodeDescription)");
	assert_int_equal(mad_ports_open, 0);
}

static void lost_port_info_is_asked_again(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct answer *a;

	nanswers = queries = 0;
	/* switch port 3 never answered; the CA port is a shell */
	free(s.sw->ports[3]);
	s.sw->ports[3] = NULL;
	memset(s.cp1->info, 0, sizeof(s.cp1->info));
	a = answer("0", IB_ATTR_PORT_INFO, 3);
	mad_set_field(a->data, 0, IB_PORT_STATE_F, 1);
	mad_set_field(a->data, 0, IB_PORT_PHYS_STATE_F, 2);
	a = answer("0", IB_ATTR_PORT_INFO, 1);	/* the CA's path is "0" too */
	mad_set_field(a->data, 0, IB_PORT_STATE_F, 4);
	mad_set_field(a->data, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(a->data, 0, IB_PORT_LID_F, 77);
	mad_set_field(a->data, 0, IB_PORT_LINK_WIDTH_ACTIVE_F, 2);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 3)->state,
			 IBTOPO_PORT_STATE_DOWN);
	assert_int_equal(ibtopo_fabric_find_port(f, 0x11)->lid, 77);
	assert_int_equal(ibtopo_fabric_find_port(f, 0x11)->width_active,
			 IBTOPO_WIDTH_4X);
	assert_int_equal(queries, 2 + LOCAL_QUERIES);
	ibtopo_fabric_free(f);
}

static void peer_found_elsewhere_is_linked(void **state)
{
	struct small s = small_fabric();
	ibnd_node_t *ca2 = fake_node(s.f, IB_NODE_CA, 0x30, 2, "host02");
	struct ibtopo_fabric *f = NULL;
	struct answer *a;

	nanswers = queries = 0;
	/* host02 port 1 on spine01 port 2; port 4 is up, its NodeInfo lost */
	fake_link(s.sw->ports[2], fake_port(ca2, 1, CAP_EXT));
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	a = answer("0,4", IB_ATTR_NODE_INFO, 0);
	mad_set_field64(a->data, 0, IB_NODE_GUID_F, 0x30);
	mad_set_field(a->data, 0, IB_NODE_LOCAL_PORT_F, 2);
	a = answer("0,4", IB_ATTR_PORT_INFO, 2);
	mad_set_field(a->data, 0, IB_PORT_STATE_F, 4);
	mad_set_field(a->data, 0, IB_PORT_PHYS_STATE_F, 5);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_fabric_link_count(f), 3);
	assert_int_equal(ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20), 4)
			 ->link->b->node->guid, 0x30);
	assert_int_equal(queries, 2 + LOCAL_QUERIES);
	ibtopo_fabric_free(f);
}

/*
 * Two CAs answer with GUID 0x30: the sweep reached the second through
 * spine01 port 2 and kept it (port 1 of 0x30 cabled there); port 4, the
 * first one's cable, is LinkUp without a peer. Asked again, NodeInfo
 * through port 4 names 0x30 port 1 again: a duplicate node GUID, not an
 * unanswered peer.
 */
static void peer_cabled_elsewhere_is_a_guid_clash(void **state)
{
	struct small s = small_fabric();
	ibnd_node_t *ca2 = fake_node(s.f, IB_NODE_CA, 0x30, 1, "host02");
	struct ibtopo_fabric *f = NULL;
	const struct ibtopo_guid_clash *c;
	struct answer *a;

	nanswers = queries = 0;
	fake_link(s.sw->ports[2], fake_port(ca2, 1, CAP_EXT));
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	a = answer("0,4", IB_ATTR_NODE_INFO, 0);
	mad_set_field64(a->data, 0, IB_NODE_GUID_F, 0x30);
	mad_set_field(a->data, 0, IB_NODE_LOCAL_PORT_F, 1);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_fabric_guid_clash_count(f), 1);
	c = ibtopo_fabric_guid_clash(f, 0);
	assert_int_equal(c->guid, 0x30);
	assert_int_equal(c->port, 1);
	/* its two peers: spine01 ports 2 and 4, in either order */
	assert_int_equal(c->peer_guid[0], 0x20);
	assert_int_equal(c->peer_guid[1], 0x20);
	assert_int_equal(c->peer_port[0] + c->peer_port[1], 6);
	assert_int_equal(ibtopo_fabric_link_count(f), 2);
	assert_int_equal(queries, 1 + LOCAL_QUERIES);
	ibtopo_fabric_free(f);
}

/* An LFT block answered again, as the sweep would have had it. */
static void lft_block_answer(const char *path, unsigned block)
{
	struct answer *a = answer(path, IB_ATTR_LINEARFORWTBL, block);

	for (unsigned i = 0; i < IBTOPO__LFT_BLOCK; i++)
		a->data[i] = lft_entry(block * IBTOPO__LFT_BLOCK + i);
}

static void assert_lft(const struct ibtopo_fabric *f, uint64_t guid,
		       unsigned top)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);

	assert_non_null(n->lft);
	assert_int_equal(n->lft->top, top);
	for (unsigned l = 0; l <= top; l++)
		assert_int_equal(n->lft->port[l], lft_entry(l));
}

static void lost_lft_block_is_asked_again(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;

	nanswers = queries = 0;
	lft_switch = s.sw;
	lft_top = 70;		/* blocks 0 and 1 */
	lft_have[0] = true;
	lft_have[1] = false;
	lft_block_answer("0", 1);
	assert_int_equal(discover(&f, s.f, IBTOPO_DISCOVER_ROUTES, NULL), 0);
	lft_switch = NULL;
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_lft(f, 0x20, 70);
	assert_int_equal(queries, 1 + LOCAL_QUERIES);
	ibtopo_fabric_free(f);
}

static void silent_lft_block_is_partial_and_no_table(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	const char *why = "1 SMP went unanswered (first: switch 'spine01' "
			  "0x0000000000000020 at DR path 0 did not answer "
			  "LinearForwardingTable block 1 (1 of 2 blocks missing))";

	nanswers = queries = 0;
	lft_switch = s.sw;
	lft_top = 127;
	lft_have[0] = true;
	lft_have[1] = false;
	assert_int_equal(discover(&f, s.f, IBTOPO_DISCOVER_ROUTES, &err),
			 IBTOPO_EPARTIAL);
	assert_null(f);
	s = small_fabric();
	lft_switch = s.sw;
	assert_int_equal(discover(&f, s.f, IBTOPO_DISCOVER_ROUTES |
				  IBTOPO_DISCOVER_PARTIAL, &err), 0);
	lft_switch = NULL;
	assert_true(ibtopo_fabric_meta(f)->partial);
	assert_string_equal(ibtopo_fabric_meta(f)->partial_reason, why);
	/* never a short table */
	assert_null(ibtopo_fabric_find_node(f, 0x20)->lft);
	ibtopo_fabric_free(f);
}

static void switch_info_lost_is_asked_again_then_blocks(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;
	struct answer *a;

	nanswers = queries = 0;
	lft_switch = NULL;	/* the sweep had no SwitchInfo */
	a = answer("0", IB_ATTR_SWITCH_INFO, 0);
	mad_set_field(a->data, 0, IB_SW_LINEAR_FDB_CAP_F, 49152);
	mad_set_field(a->data, 0, IB_SW_LINEAR_FDB_TOP_F, 20);
	lft_block_answer("0", 0);
	assert_int_equal(discover(&f, s.f, IBTOPO_DISCOVER_ROUTES, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_lft(f, 0x20, 20);
	assert_int_equal(queries, 2 + LOCAL_QUERIES);
	/* without --routes, no table and no LFT query */
	ibtopo_fabric_free(f);
	s = small_fabric();
	queries = 0;
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_has_routes(f));
	assert_int_equal(queries, LOCAL_QUERIES);
	ibtopo_fabric_free(f);
}

static void asking_again_gives_up_after_16_misses(void **state)
{
	struct small s = small_fabric();
	ibnd_node_t *big = fake_node(s.f, IB_NODE_SWITCH, 0x40, 24, "leaf09");
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	nanswers = queries = 0;
	/* a switch that answered port 0 and nothing else: 24 ports to ask */
	fake_port(big, 0, CAP_EXT);
	assert_int_equal(discover(&f, s.f, 0, &err), IBTOPO_EPARTIAL);
	assert_int_equal(queries, 16 + LOCAL_QUERIES);
	assert_non_null(strstr(err.message, "24 SMPs went unanswered"));
	assert_int_equal(mad_ports_open, 0);
}

static void sweep_is_repeated_when_the_fabric_changed(void **state)
{
	struct small s1 = small_fabric(), s2 = small_fabric();
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_mad_stats st;
	struct ibtopo_fabric *f = NULL;
	int warned = 0;

	nanswers = queries = 0;
	/*
	 * first sweep: ports 3 and 4 up without a peer; asked again, port
	 * 4 is down (Polling): the fabric changed, and port 3 stays
	 * unanswered: sweep again, and the second sweep is whole
	 */
	mad_set_field(s1.sw->ports[3]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(s1.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(answer("0", IB_ATTR_PORT_INFO, 4)->data, 0,
		      IB_PORT_PHYS_STATE_F, 2);
	o.warn = count_warning;
	o.warn_arg = &warned;
	o.stats = &st;
	expect_device("InfiniBand", 3);
	will_return(__wrap_ibtopo__sweep, s1.f);
	will_return(__wrap_ibtopo__sweep, s2.f);
	assert_int_equal(ibtopo_fabric_discover(&f, &o, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(warned, 1);
	assert_int_equal(last_config.retries, IBTOPO_DISCOVER_RETRIES);
	assert_int_equal(st.sweeps, 2);
	assert_int_equal(st.lost, 0);
	/* NodeInfo past ports 3 and 4, then their PortInfo: one MAD each */
	assert_int_equal(st.asked_again, 4);
	ibtopo_fabric_free(f);
}

static void port_gone_down_since_the_sweep_is_kept_down(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_mad_stats st;
	struct ibtopo_fabric *f = NULL;

	nanswers = queries = 0;
	/* port 4 up without a peer; asked again, it is Polling */
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(answer("0", IB_ATTR_PORT_INFO, 4)->data, 0,
		      IB_PORT_PHYS_STATE_F, 2);
	o.stats = &st;
	expect_device("InfiniBand", 3);
	will_return(__wrap_ibtopo__sweep, s.f);
	assert_int_equal(ibtopo_fabric_discover(&f, &o, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_node_port(ibtopo_fabric_find_node(f, 0x20),
					  4)->phys_state, 2);
	assert_int_equal(st.sweeps, 1);
	assert_int_equal(st.asked_again, 2);
	ibtopo_fabric_free(f);
}

static void lost_peer_without_a_change_is_not_swept_again(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_mad_stats st;
	struct ibtopo_fabric *f = NULL;
	int warned = 0;

	nanswers = queries = 0;
	/* port 4 up without a peer, and still up when asked again */
	mad_set_field(s.sw->ports[4]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	mad_set_field(answer("0", IB_ATTR_PORT_INFO, 4)->data, 0,
		      IB_PORT_PHYS_STATE_F, 5);
	o.retries = 7;
	o.warn = count_warning;
	o.warn_arg = &warned;
	o.stats = &st;
	expect_device("InfiniBand", 3);
	will_return(__wrap_ibtopo__sweep, s.f);
	assert_int_equal(ibtopo_fabric_discover(&f, &o, NULL), IBTOPO_EPARTIAL);
	assert_null(f);
	assert_int_equal(warned, 0);
	assert_int_equal(last_config.retries, 7);
	assert_int_equal(st.sweeps, 1);
	assert_int_equal(st.lost, 1);
}

static void window_halves_once_per_window_and_grows_back(void **state)
{
	struct ibtopo__window w;
	unsigned long first, late;

	ibtopo__window_init(&w, 16);
	first = ibtopo__window_sent(&w);
	for (int i = 0; i < 15; i++)
		late = ibtopo__window_sent(&w);
	ibtopo__window_loss(&w, first);
	assert_int_equal(w.cur, 8);
	/* sent before the cut: the same congestion, no second cut */
	ibtopo__window_loss(&w, late);
	assert_int_equal(w.cur, 8);
	for (int i = 0; i < 3; i++)
		ibtopo__window_loss(&w, ibtopo__window_sent(&w));
	assert_int_equal(w.cur, 1);
	ibtopo__window_loss(&w, ibtopo__window_sent(&w));
	assert_int_equal(w.cur, 1);	/* floor */
	assert_int_equal(w.min, 1);
	/* one more per window's worth of answers: 1, 2 (after 1), 3 (2) */
	ibtopo__window_answer(&w);
	assert_int_equal(w.cur, 2);
	ibtopo__window_answer(&w);
	assert_int_equal(w.cur, 2);
	ibtopo__window_answer(&w);
	assert_int_equal(w.cur, 3);
	for (int i = 0; i < 1000; i++)
		ibtopo__window_answer(&w);
	assert_int_equal(w.cur, 16);	/* never above the start */
	assert_int_equal(w.min, 1);
}

static void retry_timeouts_double_up_to_four_times(void **state)
{
	assert_int_equal(ibtopo__retry_timeout(250, 0), 250);
	assert_int_equal(ibtopo__retry_timeout(250, 1), 500);
	assert_int_equal(ibtopo__retry_timeout(250, 2), 1000);
	assert_int_equal(ibtopo__retry_timeout(250, 7), 1000);
}

static void tally_names_a_node_far_worse_than_the_others(void **state)
{
	struct ibtopo__mad_tally t = { 0 };
	size_t n = 99;

	for (uint64_t g = 1; g <= 40; g++)
		ibtopo__tally_timeout(&t, g);	/* spread: no one stands out */
	ibtopo__tally_timeout(&t, 0);		/* not known: not counted */
	assert_int_equal(ibtopo__tally_worst(&t, &n), 0);
	assert_int_equal(n, 0);
	for (int i = 0; i < 9; i++)
		ibtopo__tally_timeout(&t, 0x33);
	assert_int_equal(ibtopo__tally_worst(&t, &n), 0x33);
	assert_int_equal(n, 9);
	/* another almost as bad: neither is "far more" */
	for (int i = 0; i < 4; i++)
		ibtopo__tally_timeout(&t, 0x44);
	assert_int_equal(ibtopo__tally_worst(&t, &n), 0);
	ibtopo__tally_release(&t);
	assert_null(t.blame);
}

static void ca_ports_never_reached_are_not_partial(void **state)
{
	struct small s = small_fabric();
	ibnd_node_t *ca2 = fake_node(s.f, IB_NODE_CA, 0x30, 2, "host02");
	struct ibtopo_fabric *f = NULL;

	/* a dual-port CA reached through port 2 only; port 1 unknown */
	fake_link(s.sw->ports[2], fake_port(ca2, 2, CAP_EXT));
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_STATE_F, 4);
	mad_set_field(s.sw->ports[2]->info, 0, IB_PORT_PHYS_STATE_F, 5);
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_false(ibtopo_fabric_meta(f)->partial);
	assert_int_equal(ibtopo_fabric_link_count(f), 2);
	ibtopo_fabric_free(f);
}

static void node_description_is_bounded(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_fabric *f = NULL;

	memset(s.ca->nodedesc, 'x', sizeof(s.ca->nodedesc));	/* no NUL */
	assert_int_equal(discover(&f, s.f, 0, NULL), 0);
	assert_int_equal(strlen(ibtopo_fabric_find_node(f, 0x10)->desc), 64);
	ibtopo_fabric_free(f);
}

static void inconsistent_port_is_refused(void **state)
{
	struct small s = small_fabric();
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	s.sw->ports[2]->portnum = 3;
	assert_int_equal(discover(&f, s.f, 0, &err), IBTOPO_EPARSE);
	assert_null(f);
	assert_non_null(strstr(err.message, "port 2 is inconsistent"));
}

/* ---- counters-only sweeps ---- */

static void counters_only_needs_a_live_fabric(void **state)
{
	struct ibtopo_discover_opts o = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_counters_signs sg = { .signs = 7 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *kept = NULL, *f = NULL;

	assert_int_equal(ibtopo_fabric_discover_counters(&f, NULL, &o, &sg,
							 NULL),
			 IBTOPO_EINVAL);
	/* a cache file says no local port: nothing to read through */
	will_return(__wrap_ibnd_load_fabric, 1);
	assert_int_equal(ibtopo_fabric_load_cache(&kept, CACHE_FILE, NULL), 0);
	assert_int_equal(ibtopo_fabric_discover_counters(&f, kept, &o, &sg,
							 &err),
			 IBTOPO_EINVAL);
	assert_string_equal(err.message, "the fabric does not say which local "
					 "port it was discovered through");
	assert_null(f);
	assert_int_equal(sg.signs, 0);
	o.version = 99;
	assert_int_equal(ibtopo_fabric_discover_counters(&f, kept, &o, &sg,
							 NULL),
			 IBTOPO_EINVAL);
	ibtopo_fabric_free(kept);
}

/* ---- cache files ---- */

static void load_cache_reads_the_committed_fixture(void **state)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_link *edr = NULL, *one_x = NULL;

	will_return(__wrap_ibnd_load_fabric, 1);
	assert_int_equal(ibtopo_fabric_load_cache(&f, CACHE_FILE, NULL), 0);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH), 4);
	assert_int_equal(ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), 4);
	assert_int_equal(ibtopo_fabric_link_count(f), 9);
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++) {
		struct ibtopo_link *l = ibtopo_fabric_link(f, i);

		if (l->speed == IBTOPO_SPEED_EDR)
			edr = l;
		else
			assert_int_equal(l->speed, IBTOPO_SPEED_HDR);
		if (l->width == IBTOPO_WIDTH_1X)
			one_x = l;
		else
			assert_int_equal(l->width, IBTOPO_WIDTH_4X);
		assert_int_not_equal(l->a->lid, 0);
		assert_int_equal(l->a->state, IBTOPO_PORT_STATE_ACTIVE);
	}
	assert_non_null(edr);
	assert_true(edr->a->speed_supported & IBTOPO_SPEED_HDR);
	assert_true(edr->b->speed_supported & IBTOPO_SPEED_HDR);
	assert_false(edr->a->speed_enabled & IBTOPO_SPEED_HDR);
	assert_non_null(one_x);
	assert_string_equal(one_x->b->node->desc, "leaf01");
	assert_true(one_x->a->width_supported & IBTOPO_WIDTH_4X);
	assert_int_equal(one_x->a->width_enabled, IBTOPO_WIDTH_1X);
	assert_int_equal(one_x->b->width_enabled, IBTOPO_WIDTH_1X);
	assert_string_equal(ibtopo_fabric_meta(f)->source, "file:" CACHE_FILE);
	assert_null(ibtopo_fabric_meta(f)->host);
	assert_false(ibtopo_fabric_meta(f)->partial);
	ibtopo_fabric_free(f);
}

static void load_cache_library_refusal_is_eparse(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = (void *)1;

	will_return(__wrap_ibnd_load_fabric, 0);
	assert_int_equal(ibtopo_fabric_load_cache(&f, CACHE_FILE, &err),
			 IBTOPO_EPARSE);
	assert_null(f);
	assert_string_equal(err.message, "'" CACHE_FILE "': truncated or "
			    "corrupt cache file");
}

static char tmp_path[64];

static int tmp_setup(void **state)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "/tmp/test_discover.XXXXXX");
	fd = mkstemp(tmp_path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int tmp_teardown(void **state)
{
	unlink(tmp_path);
	return 0;
}

static void write_tmp(const void *buf, size_t len)
{
	FILE *fp = fopen(tmp_path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
}

static void load_cache_empty_file_is_not_a_cache(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	char want[128];

	write_tmp("", 0);
	assert_false(ibtopo_file_is_cache(tmp_path));
	assert_int_equal(ibtopo_fabric_load_cache(&f, tmp_path, &err),
			 IBTOPO_EPARSE);
	snprintf(want, sizeof(want), "'%s': not an ibnetdiscover cache file",
		 tmp_path);
	assert_string_equal(err.message, want);
}

static void load_cache_header_only_is_truncated(void **state)
{
	static const uint8_t hdr[28] = { 0x2b, 0x83, 0xe7, 0x8f, 1, 0, 0, 0, 1 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	write_tmp(hdr, sizeof(hdr));
	assert_true(ibtopo_file_is_cache(tmp_path));
	assert_int_equal(ibtopo_fabric_load_cache(&f, tmp_path, &err),
			 IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "truncated or corrupt cache file"));
}

static void load_cache_other_version_is_refused(void **state)
{
	static const uint8_t hdr[28] = { 0x2b, 0x83, 0xe7, 0x8f, 2 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	write_tmp(hdr, sizeof(hdr));
	assert_int_equal(ibtopo_fabric_load_cache(&f, tmp_path, &err),
			 IBTOPO_EPARSE);
	assert_non_null(strstr(err.message, "unsupported cache file version 2"));
}

static void load_cache_missing_file_says_why(void **state)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	assert_false(ibtopo_file_is_cache("/nonexistent/ibtopo.cache"));
	assert_true(ibtopo_fabric_load_cache(&f, "/nonexistent/ibtopo.cache",
					     &err) < 0);
	assert_non_null(strstr(err.message, "No such file or directory"));
	assert_int_equal(ibtopo_fabric_load_cache(NULL, "x", NULL), IBTOPO_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(discover_without_device_is_enodev),
		cmocka_unit_test(discover_names_the_missing_ca),
		cmocka_unit_test(discover_unopenable_umad_is_enodev),
		cmocka_unit_test(discover_refuses_ethernet_port),
		cmocka_unit_test(discover_sweep_failure_names_the_port),
		cmocka_unit_test(discover_bad_options_are_einval),
		cmocka_unit_test(discover_passes_a_full_config),
		cmocka_unit_test(discover_copies_nodes_ports_and_meta),
		cmocka_unit_test(speeds_enabled_codes_mean_supported),
		cmocka_unit_test(edr_link_between_hdr_ports),
		cmocka_unit_test(ext_speeds_need_the_capability_bit),
		cmocka_unit_test(switch_capability_comes_from_port0),
		cmocka_unit_test(fdr10_from_mellanox_ext_port_info),
		cmocka_unit_test(unanswered_peer_fails_without_partial),
		cmocka_unit_test(unanswered_peer_is_kept_with_partial),
		cmocka_unit_test(switch_port_without_port_info_is_partial),
		cmocka_unit_test(lost_node_description_is_asked_again),
		cmocka_unit_test(silent_node_description_is_partial),
		cmocka_unit_test(lost_port_info_is_asked_again),
		cmocka_unit_test(peer_found_elsewhere_is_linked),
		cmocka_unit_test(peer_cabled_elsewhere_is_a_guid_clash),
		cmocka_unit_test(asking_again_gives_up_after_16_misses),
		cmocka_unit_test(lost_lft_block_is_asked_again),
		cmocka_unit_test(silent_lft_block_is_partial_and_no_table),
		cmocka_unit_test(switch_info_lost_is_asked_again_then_blocks),
		cmocka_unit_test(sweep_is_repeated_when_the_fabric_changed),
		cmocka_unit_test(port_gone_down_since_the_sweep_is_kept_down),
		cmocka_unit_test(lost_peer_without_a_change_is_not_swept_again),
		cmocka_unit_test(window_halves_once_per_window_and_grows_back),
		cmocka_unit_test(retry_timeouts_double_up_to_four_times),
		cmocka_unit_test(tally_names_a_node_far_worse_than_the_others),
		cmocka_unit_test(ca_ports_never_reached_are_not_partial),
		cmocka_unit_test(node_description_is_bounded),
		cmocka_unit_test(inconsistent_port_is_refused),
		cmocka_unit_test(counters_only_needs_a_live_fabric),
		cmocka_unit_test(load_cache_reads_the_committed_fixture),
		cmocka_unit_test(load_cache_library_refusal_is_eparse),
		cmocka_unit_test_setup_teardown(load_cache_empty_file_is_not_a_cache,
						tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(load_cache_header_only_is_truncated,
						tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(load_cache_other_version_is_refused,
						tmp_setup, tmp_teardown),
		cmocka_unit_test(load_cache_missing_file_says_why),
	};

	return cmocka_run_group_tests_name("discover", tests, NULL, NULL);
}
