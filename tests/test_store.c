/* test_store.c - the SQLite snapshot store: round trips, refs, bad files */
#define _GNU_SOURCE	/* nftw */
#include "store/store-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The last "-- @version N" of data/schema.sql. */
#define SCHEMA_LATEST 11

/*
 * sqlite3_open_v2 is wrapped (-Wl,--wrap) so a test can make it fail.
 * Declared by hand: only lib/store/store*.c include <sqlite3.h>.
 */
typedef struct sqlite3 sqlite3;
int __real_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags,
			   const char *vfs);
int __wrap_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags,
			   const char *vfs);

#define FAKE_SQLITE_CANTOPEN 14

static bool mock_open;

int __wrap_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags,
			   const char *vfs)
{
	if (mock_open) {
		int rc = mock_type(int);

		if (rc) {
			*db = NULL;
			return rc;
		}
	}
	return __real_sqlite3_open_v2(filename, db, flags, vfs);
}

struct ctx {
	char dir[64];
	char db[128];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	strcpy(c->dir, "/tmp/test_store.XXXXXX");
	if (!mkdtemp(c->dir))
		return -1;
	snprintf(c->db, sizeof(c->db), "%s/fabric.db", c->dir);
	mock_open = false;
	*state = c;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	nftw(c->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(c);
	mock_open = false;
	return 0;
}

/* ---- a small fabric with every field set to something distinct ---- */

static struct ibtopo_port *mk_port(struct ibtopo_fabric *f, struct ibtopo_node *n,
				   unsigned num, unsigned seed)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, f, n, num, NULL), 0);
	p->ext_num = num ? num + 100 : 0;
	p->guid = n->type == IBTOPO_NODE_SWITCH ? n->guid :
		  n->guid + 0x1000 + num;
	p->lid = (uint16_t)(seed + 1);
	p->lmc = (uint8_t)(seed % 3);
	p->state = IBTOPO_PORT_STATE_ACTIVE;
	p->phys_state = 5;
	p->width_supported = IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X;
	p->width_enabled = IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X;
	p->width_active = IBTOPO_WIDTH_4X;
	p->speed_supported = IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR | IBTOPO_SPEED_SDR;
	p->speed_enabled = IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR;
	p->speed_active = IBTOPO_SPEED_HDR;
	p->cap_mask = 0x2651e848u + seed;
	assert_int_equal(ibtopo_fabric_index_port(f, p, NULL), 0);
	if (num) {
		/* counters: every value distinct, one not read, a 64-bit
		 * extended value beyond INT64_MAX */
		struct ibtopo_counters k = { .read_at_ms = 1700000000123 + seed };

		for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
			k.value[i] = seed * 100u + (unsigned)i;
			k.valid |= 1u << i;
		}
		k.valid &= ~(1u << IBTOPO_CTR_XMIT_WAIT);
		k.value[IBTOPO_CTR_XMIT_WAIT] = 0;
		k.value[IBTOPO_CTR_RCV_DATA] = UINT64_MAX - seed;
		k.extended = 1u << IBTOPO_CTR_RCV_DATA;
		assert_int_equal(ibtopo_port_set_counters(p, &k, NULL), 0);
	}
	return p;
}

static struct ibtopo_fabric *build_fabric(void)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sw1, *sw2, *ca1, *ca2, *ca3, *rt;
	struct ibtopo_port *p[12];
	struct ibtopo_link *l = NULL;
	struct ibtopo_cable cable = {
		.media = IBTOPO_MEDIA_AOC, .length_m = 45.5,
		.rated_speed = IBTOPO_SPEED_HDR, .vendor = "Mellanox",
		.part_number = "MFS1S00-H050E", .serial = "MT2040FT0XYZ",
	};
	struct ibtopo_cable bare = { .media = IBTOPO_MEDIA_PASSIVE_COPPER };

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&sw1, f, IBTOPO_NODE_SWITCH,
		0xf452140300a0b0c0ull, 40, "leaf01 \"QM8700\" é", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&sw2, f, IBTOPO_NODE_SWITCH,
		0x0002c90300001111ull, 36, "spine01", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca1, f, IBTOPO_NODE_CA,
		0x9803b00300aa0001ull, 2, "host001 mlx5_0", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca2, f, IBTOPO_NODE_CA,
		0x9803b00300aa0002ull, 1, "host002 mlx5_0", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&ca3, f, IBTOPO_NODE_CA,
		0x9803b00300aa0003ull, 1, "", NULL), 0);
	assert_int_equal(ibtopo_fabric_add_node(&rt, f, IBTOPO_NODE_ROUTER,
		0x0000000000000042ull, 2, "router, with comma", NULL), 0);
	sw1->sysimg_guid = 0xf452140300a0b0c3ull;
	sw1->vendor_id = 0x02c9;
	sw1->device_id = 0xd2f0;
	sw1->revision = 0xa0;
	sw1->enhanced_port0 = true;
	sw2->vendor_id = 0x119f;
	sw2->device_id = 0xffffffffu;
	sw2->revision = 0x80000000u;
	ca1->sysimg_guid = 0x9803b00300aa0000ull;
	ca1->vendor_id = 0x15b3;
	ca1->device_id = 4123;
	/* firmware as ibdiagnet2 NODES_INFO gives it: with a PSID, without */
	assert_int_equal(ibtopo_node_set_firmware(f, sw1, 27, 2010, 1030,
						  "MT_0000000063", NULL), 0);
	assert_int_equal(ibtopo_node_set_firmware(f, ca1, 20, 38, 1002, NULL,
						  NULL), 0);

	mk_port(f, sw1, 0, 0);
	p[0] = mk_port(f, sw1, 1, 1);
	p[1] = mk_port(f, sw1, 2, 2);
	p[2] = mk_port(f, sw1, 40, 3);
	p[3] = mk_port(f, sw2, 36, 4);
	p[4] = mk_port(f, ca1, 1, 5);
	p[5] = mk_port(f, ca1, 2, 6);		/* unconnected */
	p[6] = mk_port(f, ca2, 1, 7);
	p[7] = mk_port(f, ca3, 1, 8);
	p[8] = mk_port(f, rt, 1, 9);
	p[9] = mk_port(f, sw2, 1, 10);
	p[5]->state = IBTOPO_PORT_STATE_DOWN;
	p[5]->phys_state = 2;
	p[5]->speed_active = 0;
	p[5]->width_active = 0;
	p[6]->speed_active = IBTOPO_SPEED_EDR;	/* trained below HDR */
	p[7]->width_active = IBTOPO_WIDTH_1X;
	p[7]->lid = 0xbfff;

	assert_int_equal(ibtopo_fabric_connect(&l, f, p[0], p[4], NULL), 0);
	assert_int_equal(ibtopo_link_set_cable(f, l, &cable, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(&l, f, p[1], p[6], NULL), 0);
	assert_int_equal(ibtopo_link_set_cable(f, l, &bare, NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(&l, f, p[2], p[3], NULL), 0);
	l->speed = IBTOPO_SPEED_NDR;	/* set apart from the ports' */
	l->width = IBTOPO_WIDTH_2X;
	assert_int_equal(ibtopo_fabric_connect(&l, f, p[7], p[9], NULL), 0);
	assert_int_equal(ibtopo_fabric_connect(&l, f, p[8], mk_port(f, sw2, 2, 11),
					       NULL), 0);

	/* a forwarding table as large as one gets, every port value and
	 * 255 (no route) in it; sw2 has none */
	{
		static uint8_t lft[IBTOPO_LFT_MAX_LID + 1];

		for (size_t i = 0; i < sizeof(lft); i++)
			lft[i] = (uint8_t)(i % 7 == 3 ? IBTOPO_LFT_NONE :
					   (i * 31) % 41);
		assert_int_equal(ibtopo_node_set_lft(sw1, lft,
						     IBTOPO_LFT_MAX_LID, NULL), 0);
	}
	assert_int_equal(ibtopo_fabric_set_routing_engine(f, "ftree", NULL), 0);
	assert_int_equal(ibtopo_fabric_set_label(f, "week 1", NULL), 0);
	assert_int_equal(ibtopo_fabric_set_source(f, "discover:mlx5_0/1", NULL), 0);
	assert_int_equal(ibtopo_fabric_set_host(f, "head01", NULL), 0);
	ibtopo_fabric_set_taken_at(f, 1700000000);
	ibtopo_fabric_set_partial(f, true);
	ibtopo_fabric_sort(f);
	return f;
}

static void assert_str_eq_null(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_port_equal(const struct ibtopo_port *a,
			      const struct ibtopo_port *b)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_int_equal(a->num, b->num);
	assert_int_equal(a->ext_num, b->ext_num);
	assert_int_equal(a->guid, b->guid);
	assert_int_equal(a->lid, b->lid);
	assert_int_equal(a->lmc, b->lmc);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->phys_state, b->phys_state);
	assert_int_equal(a->width_supported, b->width_supported);
	assert_int_equal(a->width_enabled, b->width_enabled);
	assert_int_equal(a->width_active, b->width_active);
	assert_int_equal(a->speed_supported, b->speed_supported);
	assert_int_equal(a->speed_enabled, b->speed_enabled);
	assert_int_equal(a->speed_active, b->speed_active);
	assert_int_equal(a->cap_mask, b->cap_mask);
	assert_int_equal(!a->counters, !b->counters);
	if (a->counters) {
		assert_int_equal(a->counters->valid, b->counters->valid);
		assert_int_equal(a->counters->extended, b->counters->extended);
		assert_int_equal(a->counters->read_at_ms, b->counters->read_at_ms);
		for (int i = 0; i < IBTOPO_CTR_COUNT_; i++)
			assert_int_equal(a->counters->value[i],
					 b->counters->value[i]);
	}
	assert_int_equal(!a->remote, !b->remote);
	if (a->remote) {
		assert_int_equal(a->remote->node->guid, b->remote->node->guid);
		assert_int_equal(a->remote->num, b->remote->num);
		assert_int_equal(a->link->index, b->link->index);
	}
}

static void assert_fabric_equal(const struct ibtopo_fabric *x,
				const struct ibtopo_fabric *y)
{
	const struct ibtopo_fabric_meta *mx = ibtopo_fabric_meta(x);
	const struct ibtopo_fabric_meta *my = ibtopo_fabric_meta(y);

	assert_str_eq_null(mx->label, my->label);
	assert_str_eq_null(mx->source, my->source);
	assert_str_eq_null(mx->host, my->host);
	assert_int_equal(mx->taken_at, my->taken_at);
	assert_int_equal(mx->partial, my->partial);
	assert_str_eq_null(mx->partial_reason, my->partial_reason);
	assert_int_equal(mx->snapshot_id, my->snapshot_id);
	assert_str_eq_null(mx->fabric, my->fabric);
	assert_int_equal(mx->subnet_prefix, my->subnet_prefix);
	assert_str_eq_null(mx->local_ca, my->local_ca);
	assert_int_equal(mx->local_port, my->local_port);
	assert_int_equal(mx->sm_lid, my->sm_lid);
	assert_int_equal(mx->sm_guid, my->sm_guid);
	assert_str_eq_null(ibtopo_fabric_routing_engine(x),
			   ibtopo_fabric_routing_engine(y));

	assert_int_equal(ibtopo_fabric_node_count(x), ibtopo_fabric_node_count(y));
	for (size_t i = 0; i < ibtopo_fabric_node_count(x); i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(x, i);
		const struct ibtopo_node *b = ibtopo_fabric_node(y, i);

		assert_int_equal(a->type, b->type);
		assert_int_equal(a->guid, b->guid);
		assert_int_equal(a->sysimg_guid, b->sysimg_guid);
		assert_string_equal(a->desc, b->desc);
		assert_int_equal(a->vendor_id, b->vendor_id);
		assert_int_equal(a->device_id, b->device_id);
		assert_int_equal(a->revision, b->revision);
		assert_int_equal(a->fw_major, b->fw_major);
		assert_int_equal(a->fw_minor, b->fw_minor);
		assert_int_equal(a->fw_subminor, b->fw_subminor);
		assert_str_eq_null(a->psid, b->psid);
		assert_int_equal(a->nports, b->nports);
		assert_int_equal(a->enhanced_port0, b->enhanced_port0);
		assert_int_equal(a->index, b->index);
		/* forwarding tables: there or not, then byte-equal */
		assert_int_equal(!a->lft, !b->lft);
		if (a->lft) {
			assert_int_equal(a->lft->top, b->lft->top);
			assert_memory_equal(a->lft->port, b->lft->port,
					    (size_t)a->lft->top + 1);
		}
		for (unsigned p = 0; p <= a->nports; p++)
			assert_port_equal(a->ports[p], b->ports[p]);
		assert_ptr_equal(ibtopo_fabric_find_node(y, a->guid), b);
	}
	assert_int_equal(ibtopo_fabric_link_count(x), ibtopo_fabric_link_count(y));
	for (size_t i = 0; i < ibtopo_fabric_link_count(x); i++) {
		const struct ibtopo_link *a = ibtopo_fabric_link(x, i);
		const struct ibtopo_link *b = ibtopo_fabric_link(y, i);

		assert_int_equal(a->a->node->guid, b->a->node->guid);
		assert_int_equal(a->a->num, b->a->num);
		assert_int_equal(a->b->node->guid, b->b->node->guid);
		assert_int_equal(a->b->num, b->b->num);
		assert_int_equal(a->speed, b->speed);
		assert_int_equal(a->width, b->width);
		assert_int_equal(!a->cable, !b->cable);
		if (!a->cable)
			continue;
		assert_int_equal(a->cable->media, b->cable->media);
		assert_true(a->cable->length_m == b->cable->length_m);
		assert_int_equal(a->cable->rated_speed, b->cable->rated_speed);
		assert_str_eq_null(a->cable->vendor, b->cable->vendor);
		assert_str_eq_null(a->cable->part_number, b->cable->part_number);
		assert_str_eq_null(a->cable->serial, b->cable->serial);
	}
}

static int64_t save_labelled(struct ibtopo_store *s, const char *label)
{
	struct ibtopo_fabric *f = build_fabric();
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int64_t id = 0;

	assert_int_equal(ibtopo_fabric_set_label(f, label, NULL), 0);
	if (ibtopo_store_save(&id, s, f, &err))
		fail_msg("save: %s", err.message);
	ibtopo_fabric_free(f);
	return id;
}

static void read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	*buf = malloc(*len + 1);
	assert_non_null(*buf);
	assert_int_equal(read(fd, *buf, *len), (ssize_t)*len);
	close(fd);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* ---- round trip ---- */

static void save_load_round_trip_keeps_every_field(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_int_equal(id, 1);
	assert_int_equal(ibtopo_fabric_meta(f)->snapshot_id, 1);
	ibtopo_store_free(s);

	/* a fresh read-only connection sees what was committed */
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	assert_fabric_equal(f, g);
	assert_int_equal(ibtopo_fabric_link_count(g), 5);
	assert_non_null(ibtopo_fabric_find_port(g, 0x9803b00300aa1002ull));
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

/*
 * More rows of every table than one INSERT statement carries (the store
 * writes rows in batches), in counts that leave a shorter last batch:
 * 403 nodes, 1003 ports, 400 links and 400 cables, each with its own
 * values.
 */
static struct ibtopo_fabric *build_big_fabric(unsigned seed)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *sw[3], *ca;
	struct ibtopo_port *p;
	struct ibtopo_link *l = NULL;
	char desc[64], part[64];

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(desc, sizeof(desc), "sw%u-%u", i, seed);
		assert_int_equal(ibtopo_fabric_add_node(&sw[i], f,
			IBTOPO_NODE_SWITCH, 0x100000ull * (i + 1) + seed, 200,
			desc, NULL), 0);
		for (unsigned n = 0; n <= 200; n++)
			mk_port(f, sw[i], n, 1000 * i + n + seed);
	}
	for (unsigned i = 0; i < 400; i++) {
		struct ibtopo_cable cable = {
			.media = (enum ibtopo_media)(i % 4),
			.length_m = 0.5 * i,
			.rated_speed = IBTOPO_SPEED_EDR,
			.vendor = i % 2 ? "Mellanox" : NULL,
			.part_number = part,
			.serial = NULL,
		};

		snprintf(desc, sizeof(desc), "host%03u mlx5_0", i);
		snprintf(part, sizeof(part), "MCP1600-E%03uE30", i);
		assert_int_equal(ibtopo_fabric_add_node(&ca, f, IBTOPO_NODE_CA,
			0x9000000ull + 16 * i + seed, 1, desc, NULL), 0);
		ca->sysimg_guid = 0x9000000ull + 16 * i + 1;
		ca->device_id = 4000 + i;
		p = mk_port(f, ca, 1, i + seed);
		assert_int_equal(ibtopo_fabric_connect(&l, f,
			ibtopo_node_port(sw[i % 3], i / 3 + 1), p, NULL), 0);
		assert_int_equal(ibtopo_link_set_cable(f, l, &cable, NULL), 0);
	}
	ibtopo_fabric_set_taken_at(f, 1700000000 + seed);
	ibtopo_fabric_set_host(f, "head01", NULL);
	ibtopo_fabric_sort(f);
	return f;
}

static void round_trip_of_more_rows_than_one_insert_carries(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f1 = build_big_fabric(0), *f2 = build_big_fabric(7);
	struct ibtopo_fabric *g = NULL;
	int64_t id1 = 0, id2 = 0, v = 0;

	assert_int_equal(ibtopo_fabric_node_count(f1), 403);
	assert_int_equal(ibtopo_fabric_link_count(f1), 400);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	/* rows of an earlier snapshot come before: ids follow them */
	save_labelled(s, "small");
	assert_int_equal(ibtopo_store_save(&id1, s, f1, &err), 0);
	assert_int_equal(ibtopo_store_save(&id2, s, f2, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id1, &err), 0);
	assert_fabric_equal(f1, g);
	ibtopo_fabric_free(g);
	g = NULL;
	assert_int_equal(ibtopo_store_load(&g, s, id2, &err), 0);
	assert_fabric_equal(f2, g);
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"SELECT (SELECT count(*) FROM nodes) || '/' ||"
		" (SELECT count(*) FROM ports) || '/' ||"
		" (SELECT count(*) FROM links) || '/' ||"
		" (SELECT count(*) FROM cables) = '812/2018/805/802'", &v, &err), 0);
	assert_int_equal(v, 1);
	ibtopo_fabric_free(f1);
	ibtopo_fabric_free(f2);
	ibtopo_store_free(s);
}

static void save_fills_time_and_host_when_unset(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = NULL, *g = NULL;
	time_t before = time(NULL);
	int64_t id = 0;

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, NULL), 0);
	assert_true(ibtopo_fabric_meta(f)->taken_at >= before);
	assert_non_null(ibtopo_fabric_meta(f)->host);
	assert_int_equal(ibtopo_store_load(&g, s, id, NULL), 0);
	assert_fabric_equal(f, g);
	assert_null(ibtopo_fabric_meta(g)->label);
	assert_int_equal(ibtopo_fabric_node_count(g), 0);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void load_unknown_id_is_not_found(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL;
	char want[256];

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "x");
	assert_int_equal(ibtopo_store_load(&g, s, 7, &err), IBTOPO_ENOTFOUND);
	assert_null(g);
	snprintf(want, sizeof(want), "no snapshot '7' in '%s'", c->db);
	assert_string_equal(err.message, want);
	ibtopo_store_free(s);
}

/* ---- references and listing ---- */

static void assert_resolves(struct ibtopo_store *s, const char *ref, int64_t want)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int64_t id = -1;

	if (ibtopo_store_resolve(&id, s, ref, &err))
		fail_msg("resolve '%s': %s", ref, err.message);
	assert_int_equal(id, want);
}

static void resolve_id_label_latest_and_latest_n(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];
	int64_t id;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(save_labelled(s, "a"), 1);
	assert_int_equal(save_labelled(s, "b"), 2);
	assert_int_equal(save_labelled(s, "c"), 3);
	assert_int_equal(save_labelled(s, "2024-05"), 4);
	assert_int_equal(save_labelled(s, NULL), 5);

	assert_resolves(s, "1", 1);
	assert_resolves(s, "3", 3);
	assert_resolves(s, "a", 1);
	assert_resolves(s, "b", 2);
	assert_resolves(s, "2024-05", 4);	/* not an id: a label */
	assert_resolves(s, "latest", 5);
	assert_resolves(s, "latest~0", 5);
	assert_resolves(s, "latest~1", 4);
	assert_resolves(s, "latest~4", 1);

	assert_int_equal(ibtopo_store_resolve(&id, s, "latest~5", &err),
			 IBTOPO_ENOTFOUND);
	snprintf(want, sizeof(want), "no snapshot 'latest~5' in '%s'", c->db);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_resolve(&id, s, "nope", &err),
			 IBTOPO_ENOTFOUND);
	snprintf(want, sizeof(want), "no snapshot 'nope' in '%s'", c->db);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_resolve(&id, s, "0", &err), IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_resolve(&id, s, "latest~x", &err),
			 IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_resolve(&id, s, "", &err), IBTOPO_EINVAL);
	ibtopo_store_free(s);
}

/* ---- labels: a label names one snapshot, and a REF can reach it ---- */

static int save_label_flags(struct ibtopo_store *s, const char *label,
			    unsigned flags, int64_t *id, struct ibtopo_error *err)
{
	struct ibtopo_fabric *f = build_fabric();
	int rc;

	assert_int_equal(ibtopo_fabric_set_label(f, label, NULL), 0);
	rc = ibtopo_store_save_ext(id, s, f, flags, err);
	ibtopo_fabric_free(f);
	return rc;
}

static size_t count_snapshots(struct ibtopo_store *s)
{
	struct ibtopo_snapshot *list = NULL;
	size_t n = 0;

	assert_int_equal(ibtopo_store_list(&list, &n, s, NULL), 0);
	ibtopo_snapshot_list_free(list, n);
	return n;
}

static void label_in_use_is_refused_and_nothing_stored(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(save_labelled(s, "x5-before"), 1);
	assert_int_equal(save_labelled(s, "x5-after"), 2);
	assert_int_equal(save_label_flags(s, "x5-before", 0, &id, &err),
			 IBTOPO_EEXIST);
	assert_string_equal(err.message,
			    "label 'x5-before' names snapshot 1 already");
	assert_int_equal(id, 0);
	assert_int_equal(count_snapshots(s), 2);
	assert_int_equal(ibtopo_store_check_label(s, "x5-before", 0, &err),
			 IBTOPO_EEXIST);
	assert_int_equal(ibtopo_store_check_label(s, "x5-new", 0, &err), 0);
	assert_int_equal(ibtopo_store_check_label(NULL, "x5-before", 0, &err), 0);
	assert_resolves(s, "x5-before", 1);
	ibtopo_store_free(s);
}

static void label_moves_with_the_flag(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_snapshot *list = NULL;
	size_t n = 0;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(save_labelled(s, "base"), 1);
	assert_int_equal(ibtopo_store_check_label(s, "base",
						  IBTOPO_SAVE_MOVE_LABEL, &err), 0);
	assert_int_equal(save_label_flags(s, "base", IBTOPO_SAVE_MOVE_LABEL,
					  &id, &err), 0);
	assert_int_equal(id, 2);
	assert_resolves(s, "base", 2);
	assert_int_equal(ibtopo_store_list(&list, &n, s, NULL), 0);
	assert_int_equal(n, 2);
	assert_null(list[0].label);
	assert_string_equal(list[1].label, "base");
	ibtopo_snapshot_list_free(list, n);
	ibtopo_store_free(s);
}

static void label_that_reads_as_a_ref_is_refused(void **state)
{
	static const char *const bad[] = {
		"3", "0", "007", "latest", "latest~1", "latest~0", "latest~12", "",
	};
	static const char *const good[] = {
		"latest~", "latest~x", "3a", "Latest", "-1", "week 1", "0x10",
	};
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ibtopo_store_check_label(NULL, bad[i], 0, &err),
				 IBTOPO_EINVAL);
		/* the flag moves a label; it never makes one reachable */
		assert_int_equal(save_label_flags(s, bad[i], IBTOPO_SAVE_MOVE_LABEL,
						  &id, &err), IBTOPO_EINVAL);
	}
	assert_string_equal(err.message, "empty snapshot label");
	assert_int_equal(ibtopo_store_check_label(NULL, "latest~1", 0, &err),
			 IBTOPO_EINVAL);
	assert_string_equal(err.message, "label 'latest~1' reads as a snapshot "
			    "reference (an id, 'latest' or 'latest~N'), which it "
			    "could never name");
	assert_int_equal(count_snapshots(s), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(save_label_flags(s, good[i], 0, &id, &err), 0);
		assert_resolves(s, good[i], id);
	}
	ibtopo_store_free(s);
}

/* A database an older ibtopo wrote may hold a label twice: it opens, and
 * a REF naming that label says which snapshots it could mean. */
static void duplicate_label_of_an_old_database_is_ambiguous(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "week1");
	save_labelled(s, "other");
	save_labelled(s, "week2");
	ibtopo_store_free(s);
	assert_int_equal(ibtopo__store_exec_path(c->db, "UPDATE snapshots SET"
		" label = 'week1' WHERE id = 3", NULL, NULL), 0);

	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err), 0);
	assert_int_equal(ibtopo_store_resolve(&id, s, "week1", &err),
			 IBTOPO_EAMBIGUOUS);
	assert_string_equal(err.message,
			    "label 'week1' names snapshots 1, 3: give an id");
	assert_resolves(s, "other", 2);
	assert_resolves(s, "3", 3);
	assert_int_equal(ibtopo_store_check_label(s, "week1", 0, &err),
			 IBTOPO_EEXIST);
	assert_string_equal(err.message,
			    "label 'week1' names snapshots 1, 3 already");
	ibtopo_store_free(s);

	/* moving it there leaves one */
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(save_label_flags(s, "week1", IBTOPO_SAVE_MOVE_LABEL,
					  &id, &err), 0);
	assert_resolves(s, "week1", 4);
	snprintf(want, sizeof(want), "no snapshot 'gone' in '%s'", c->db);
	assert_int_equal(ibtopo_store_resolve(&id, s, "gone", &err),
			 IBTOPO_ENOTFOUND);
	assert_string_equal(err.message, want);
	ibtopo_store_free(s);
}

static void resolve_on_empty_database_says_so(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];
	int64_t id;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(ibtopo_store_resolve(&id, s, "latest", &err),
			 IBTOPO_ENOTFOUND);
	snprintf(want, sizeof(want), "no snapshots in '%s'", c->db);
	assert_string_equal(err.message, want);
	ibtopo_store_free(s);

	/* an empty file opened read-only: no tables, still "empty" */
	write_file(c->db, "", 0);
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err), 0);
	assert_int_equal(ibtopo_store_resolve(&id, s, "1", &err), IBTOPO_ENOTFOUND);
	assert_string_equal(err.message, want);
	ibtopo_store_free(s);
}

static void list_returns_snapshots_oldest_first(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_store *s = NULL;
	struct ibtopo_snapshot *list = NULL;
	size_t n = 99;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	assert_int_equal(ibtopo_store_list(&list, &n, s, NULL), 0);
	assert_int_equal(n, 0);
	ibtopo_snapshot_list_free(list, n);
	save_labelled(s, "one");
	save_labelled(s, NULL);
	assert_int_equal(ibtopo_store_list(&list, &n, s, NULL), 0);
	assert_int_equal(n, 2);
	assert_int_equal(list[0].id, 1);
	assert_string_equal(list[0].label, "one");
	assert_null(list[1].label);
	assert_int_equal(list[0].taken_at, 1700000000);
	assert_string_equal(list[0].source, "discover:mlx5_0/1");
	assert_string_equal(list[0].host, "head01");
	assert_int_equal(list[0].switches, 2);
	assert_int_equal(list[0].cas, 3);
	assert_int_equal(list[0].routers, 1);
	assert_int_equal(list[0].links, 5);
	assert_true(list[0].partial);
	ibtopo_snapshot_list_free(list, n);
	ibtopo_store_free(s);
}

static void delete_removes_snapshot_and_its_rows(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL;
	struct ibtopo_snapshot *list = NULL;
	size_t n = 0;
	int64_t v = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "a");
	save_labelled(s, "b");
	save_labelled(s, "c");
	assert_int_equal(ibtopo_store_delete(s, 3, &err), 0);
	assert_int_equal(save_labelled(s, "d"), 4);	/* ids are never reused */
	assert_int_equal(ibtopo_store_delete(s, 4, &err), 0);
	assert_int_equal(ibtopo_store_delete(s, 1, &err), 0);
	assert_int_equal(ibtopo_store_delete(s, 1, &err), IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_load(&g, s, 1, &err), IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_load(&g, s, 2, &err), 0);
	assert_int_equal(ibtopo_fabric_node_count(g), 6);
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo_store_list(&list, &n, s, NULL), 0);
	assert_int_equal(n, 1);
	ibtopo_snapshot_list_free(list, n);
	/* nothing of snapshot 1 is left behind */
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"SELECT (SELECT count(*) FROM nodes) || '/' ||"
		" (SELECT count(*) FROM ports) || '/' ||"
		" (SELECT count(*) FROM links) || '/' ||"
		" (SELECT count(*) FROM cables) || '/' ||"
		" (SELECT count(*) FROM port_counters) || '/' ||"
		" (SELECT count(*) FROM lfts) = '6/12/5/2/11/1'", &v,
		&err), 0);
	assert_int_equal(v, 1);
	ibtopo_store_free(s);
}

static void failed_save_leaves_nothing_behind(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric();
	char want[256];
	int64_t id = 7, v = -1;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "before");
	/* the third link of the next snapshot fails to insert */
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"CREATE TRIGGER fail_link BEFORE INSERT ON links"
		" WHEN (SELECT count(*) FROM links WHERE snapshot_id ="
		" NEW.snapshot_id) = 2 BEGIN SELECT RAISE(ABORT, 'injected'); END",
		NULL, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), IBTOPO_ERROR);
	assert_int_equal(id, 0);
	snprintf(want, sizeof(want), "'%s': cannot save snapshot: injected", c->db);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"SELECT (SELECT count(*) FROM snapshots) || '/' ||"
		" (SELECT count(*) FROM nodes) || '/' ||"
		" (SELECT count(*) FROM ports) || '/' ||"
		" (SELECT count(*) FROM links) || '/' ||"
		" (SELECT count(*) FROM cables) = '1/6/12/5/2'", &v, &err), 0);
	assert_int_equal(v, 1);
	/* and the store works on */
	assert_int_equal(ibtopo__store_exec_path(c->db, "DROP TRIGGER fail_link",
						 NULL, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_int_equal(id, 2);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void damaged_rows_fail_the_load_cleanly(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL;
	char want[256];

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "a");
	save_labelled(s, "b");
	save_labelled(s, "c");
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"UPDATE links SET b_port = 33 WHERE id = (SELECT min(id) FROM"
		" links WHERE snapshot_id = 1);"
		"UPDATE ports SET num = 200 WHERE id = (SELECT min(id) FROM"
		" ports WHERE snapshot_id = 2);"
		"UPDATE nodes SET nports = 999 WHERE snapshot_id = 3",
		NULL, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, 1, &err), IBTOPO_EPARSE);
	snprintf(want, sizeof(want), "'%s': snapshot 1: link to an unknown port",
		 c->db);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_load(&g, s, 2, &err), IBTOPO_EPARSE);
	snprintf(want, sizeof(want), "'%s': snapshot 2: port of an unknown node",
		 c->db);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_load(&g, s, 3, &err), IBTOPO_EPARSE);
	snprintf(want, sizeof(want), "'%s': snapshot 3: bad node port count",
		 c->db);
	assert_string_equal(err.message, want);
	assert_null(g);
	ibtopo_store_free(s);
}

static void readonly_store_refuses_writes(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric();

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	ibtopo_store_free(s);
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, NULL), 0);
	assert_int_equal(ibtopo_store_save(NULL, s, f, &err), IBTOPO_EINVAL);
	assert_int_equal(ibtopo_store_delete(s, 1, &err), IBTOPO_EINVAL);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

/* ---- schema versions ---- */

static void newer_schema_version_is_refused_and_file_untouched(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char *before, *after, want[256];
	size_t nb, na;
	struct stat st1, st2;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, NULL), 0);
	save_labelled(s, "old");
	ibtopo_store_free(s);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version = 99",
						 NULL, &err), 0);
	read_file(c->db, &before, &nb);
	assert_int_equal(stat(c->db, &st1), 0);

	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EVERSION);
	assert_null(s);
	snprintf(want, sizeof(want),
		 "'%s': schema version 99 is newer than this ibtopo supports (%d)",
		 c->db, SCHEMA_LATEST);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err),
			 IBTOPO_EVERSION);
	assert_string_equal(err.message, want);

	read_file(c->db, &after, &na);
	assert_int_equal(stat(c->db, &st2), 0);
	assert_int_equal(na, nb);
	assert_memory_equal(before, after, nb);
	assert_int_equal(st1.st_mtim.tv_sec, st2.st_mtim.tv_sec);
	assert_int_equal(st1.st_mtim.tv_nsec, st2.st_mtim.tv_nsec);
	/* no -wal or -shm beside it either */
	snprintf(want, sizeof(want), "%s-wal", c->db);
	assert_int_not_equal(stat(want, &st2), 0);
	snprintf(want, sizeof(want), "%s-shm", c->db);
	assert_int_not_equal(stat(want, &st2), 0);
	free(before);
	free(after);
}

static void empty_file_is_upgraded_to_the_latest_schema(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL;
	int64_t id = 0, v = 0;

	/* a database at user_version 0 with no tables */
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"CREATE TABLE t (x); DROP TABLE t; PRAGMA user_version = 0", NULL,
		&err), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	id = save_labelled(s, "first");
	assert_int_equal(id, 1);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	ibtopo_fabric_free(g);
	ibtopo_store_free(s);
	/* and it is now ours, at the latest version */
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, SCHEMA_LATEST);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA application_id",
						 &v, &err), 0);
	assert_int_equal(v, 0x49425450);
}

/*
 * tests/data/store-v1.db was written by ibtopo at schema version 1 (commit
 * a276379): `import --label week1 tests/data/sim-small.cache`, then
 * `import tests/data/rd-small.topo`.
 */
static void copy_v1_database(const char *to)
{
	char *buf;
	size_t len;

	read_file(TEST_DATADIR "/store-v1.db", &buf, &len);
	write_file(to, buf, len);
	free(buf);
}

static void version_1_database_migrates_and_keeps_its_snapshots(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL, *fresh = NULL;
	struct ibtopo_snapshot *list = NULL;
	const struct ibtopo_fabric_meta *m;
	size_t n = 0;
	int64_t v = 0, id = 0;

	copy_v1_database(c->db);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, 1);
	/* a reader that may write the file upgrades it */
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY,
					   &err), 0);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, SCHEMA_LATEST);
	/* version 3's and 4's tables are there, empty */
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"SELECT count(*) FROM port_counters", &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"SELECT count(*) FROM lfts", &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ibtopo_store_list(&list, &n, s, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].label, "week1");
	assert_int_equal(list[0].links, 9);
	assert_null(list[1].label);
	assert_int_equal(list[1].links, 16);
	assert_int_equal(list[1].cas, 8);
	assert_null(list[0].partial_reason);
	/* schema 5: the snapshots there were all join one fabric */
	assert_string_equal(list[0].fabric, "default");
	assert_string_equal(list[1].fabric, "default");
	ibtopo_snapshot_list_free(list, n);

	/* every field of snapshot 1 is the cache it was imported from */
	assert_int_equal(ibtopo_store_load(&g, s, 1, &err), 0);
	assert_int_equal(ibtopo_fabric_load_cache(&fresh, TEST_DATADIR
						  "/sim-small.cache", &err), 0);
	m = ibtopo_fabric_meta(g);
	assert_int_equal(ibtopo_fabric_set_label(fresh, m->label, NULL), 0);
	assert_int_equal(ibtopo_fabric_set_source(fresh, m->source, NULL), 0);
	assert_int_equal(ibtopo_fabric_set_host(fresh, m->host, NULL), 0);
	assert_string_equal(m->fabric, "default");
	assert_int_equal(ibtopo_fabric_set_fabric_name(fresh, m->fabric, NULL),
			 0);
	ibtopo_fabric_set_taken_at(fresh, m->taken_at);
	ibtopo_fabric_set_snapshot_id(fresh, 1);
	assert_fabric_equal(g, fresh);
	ibtopo_fabric_free(g);
	ibtopo_store_free(s);

	/* and it takes new snapshots after them (week1 is taken) */
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, fresh, &err), IBTOPO_EEXIST);
	assert_int_equal(ibtopo_fabric_set_label(fresh, "week3", NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, fresh, &err), 0);
	assert_int_equal(id, 3);
	ibtopo_fabric_free(fresh);
	/* and forwarding tables in the upgraded file round-trip */
	fresh = build_fabric();
	assert_int_equal(ibtopo_fabric_set_label(fresh, "routes", NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, fresh, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	assert_non_null(ibtopo_fabric_find_node(g, 0xf452140300a0b0c0ull)->lft);
	assert_fabric_equal(fresh, g);
	ibtopo_fabric_free(g);
	ibtopo_store_free(s);
	ibtopo_fabric_free(fresh);
}

/* SQL taking schema version 11's additions (multicast) out. */
#define UNDO_V11                                                         \
	"DROP TABLE mfts; DROP TABLE mcast_members;"                     \
	" ALTER TABLE snapshots DROP COLUMN mcast_read; "

/* SQL taking schema version 10's additions (PKeys, SMInfo read twice),
 * and the later versions', out. */
#define UNDO_V10                                                         \
	UNDO_V11 "DROP TABLE pkeys; ALTER TABLE sms DROP COLUMN reread; "  \
	"ALTER TABLE sms DROP COLUMN act_count2; "
/* SQL taking schema version 9's additions (firmware), and the later
 * versions', out. */
#define UNDO_V9 UNDO_V10 "DROP TABLE firmware; "

/* SQL taking schema version 8's additions (subnet managers), and the
 * later versions', out. */
#define UNDO_V8                                                          \
	UNDO_V9 "DROP TABLE sms; ALTER TABLE snapshots DROP COLUMN sms_read; "

/* SQL taking schema version 7's additions (MTU and VLs), and the later
 * versions', out. */
#define UNDO_V7 UNDO_V8 "ALTER TABLE ports DROP COLUMN mtu_vls; "

/* SQL taking schema version 6's additions (GUID clashes), and the later
 * versions', out. */
#define UNDO_V6 UNDO_V7 "DROP TABLE guid_clashes; "

/* SQL taking schema version 5's additions (fabrics), and the later
 * versions', out of a database. */
#define UNDO_V5                                                          \
	UNDO_V6 "DROP INDEX snapshots_fabric;"                           \
	" ALTER TABLE snapshots DROP COLUMN fabric_id;"                  \
	" ALTER TABLE snapshots DROP COLUMN subnet_prefix;"              \
	" ALTER TABLE snapshots DROP COLUMN local_ca;"                   \
	" ALTER TABLE snapshots DROP COLUMN local_port;"                 \
	" ALTER TABLE snapshots DROP COLUMN sm_lid;"                     \
	" ALTER TABLE snapshots DROP COLUMN sm_guid; DROP TABLE fabrics;"

/*
 * A database as schema version 8 left it (no firmware table): opened
 * again, it gains the table; its snapshot loads without firmware, and a
 * snapshot saved after keeps the nodes' firmware and PSIDs.
 */
static void version_8_database_gains_firmware(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	int64_t id = 0, v = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	ibtopo_store_free(s);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		UNDO_V9 "PRAGMA user_version = 8", NULL, &err), 0);
	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, SCHEMA_LATEST);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	for (size_t i = 0; i < ibtopo_fabric_node_count(g); i++) {
		assert_int_equal(ibtopo_fabric_node(g, i)->fw_major, 0);
		assert_null(ibtopo_fabric_node(g, i)->psid);
	}
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo_fabric_set_label(f, "firmware", NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	assert_int_equal(ibtopo_fabric_set_fabric_name(f,
			 ibtopo_fabric_meta(g)->fabric, NULL), 0);
	ibtopo_fabric_set_snapshot_id(f, id);
	assert_fabric_equal(f, g);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

/*
 * A database as schema version 3 left it (port counters, no forwarding
 * tables), made by taking version 4's additions out of a new one: opened
 * again, it is upgraded in place and its snapshot loads whole, with its
 * counters and without tables; then it takes a snapshot with tables.
 */
static void version_3_database_gains_tables_and_keeps_counters(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	int64_t id = 0, v = 0;

	assert_int_equal(ibtopo_fabric_set_routing_engine(f, NULL, NULL), 0);
	ibtopo_fabric_clear_routes(f);
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) /* version 9 */
		assert_int_equal(ibtopo_node_set_firmware(f,
				 ibtopo_fabric_node(f, i), 0, 0, 0, NULL, NULL), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	ibtopo_store_free(s);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		UNDO_V5 " DROP TABLE lfts;"
		" ALTER TABLE snapshots DROP COLUMN routing_engine;"
		" PRAGMA user_version = 3", NULL, &err), 0);

	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, SCHEMA_LATEST);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	/* upgraded to version 5, its snapshots joined one fabric */
	assert_int_equal(ibtopo_fabric_set_fabric_name(f, "default", NULL), 0);
	assert_fabric_equal(f, g);	/* counters and all, no tables */
	assert_false(ibtopo_fabric_has_routes(g));
	assert_null(ibtopo_fabric_routing_engine(g));
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);

	f = build_fabric();
	assert_int_equal(ibtopo_fabric_set_label(f, "with tables", NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	assert_fabric_equal(f, g);
	assert_true(ibtopo_fabric_has_routes(g));
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void partial_reason_is_kept_only_for_partial_snapshots(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	struct ibtopo_snapshot *list = NULL;
	size_t n = 0;
	const char *why = "1 SMP went unanswered (first: the peer of 'leaf02' "
			  "port 8 at DR path 0,1,8 did not answer NodeInfo)";

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_fabric_set_partial_reason(f, why, NULL), 0);
	ibtopo_fabric_set_partial(f, true);
	assert_int_equal(ibtopo_store_save(NULL, s, f, &err), 0);
	ibtopo_fabric_set_partial(f, false);	/* a stale reason is dropped */
	assert_int_equal(ibtopo_fabric_set_label(f, NULL, NULL), 0);
	assert_int_equal(ibtopo_store_save(NULL, s, f, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, 1, &err), 0);
	assert_string_equal(ibtopo_fabric_meta(g)->partial_reason, why);
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo_store_load(&g, s, 2, &err), 0);
	assert_null(ibtopo_fabric_meta(g)->partial_reason);
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo_store_list(&list, &n, s, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].partial_reason, why);
	assert_null(list[1].partial_reason);
	ibtopo_snapshot_list_free(list, n);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void foreign_database_is_refused(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];

	assert_int_equal(ibtopo__store_exec_path(c->db,
		"CREATE TABLE moz_places (id INTEGER PRIMARY KEY)", NULL, &err), 0);
	snprintf(want, sizeof(want), "'%s': not an ibtopo database", c->db);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EPARSE);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err),
			 IBTOPO_EPARSE);
	assert_string_equal(err.message, want);
	/* a version set by someone else, no tables */
	assert_int_equal(ibtopo__store_exec_path(c->db,
		"DROP TABLE moz_places; PRAGMA user_version = 1", NULL, &err), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EPARSE);
	assert_null(s);
}

static void corrupt_file_is_refused_without_a_crash(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	unsigned char junk[8192];
	uint32_t x = 2463534242u;
	char want[256];

	for (size_t i = 0; i < sizeof(junk); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		junk[i] = (unsigned char)x;
	}
	write_file(c->db, junk, sizeof(junk));
	snprintf(want, sizeof(want), "'%s': not an ibtopo database", c->db);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EPARSE);
	assert_string_equal(err.message, want);
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err),
			 IBTOPO_EPARSE);
	assert_string_equal(err.message, want);

	/* an SQLite header followed by garbage */
	memcpy(junk, "SQLite format 3", 16);
	write_file(c->db, junk, sizeof(junk));
	assert_true(ibtopo_store_open(&s, c->db, 0, &err) < 0);
	assert_null(s);
	assert_non_null(strstr(err.message, c->db));
	assert_true(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err) < 0);
	assert_null(s);
}

/* ---- files and permissions ---- */

static void readonly_open_of_missing_file_is_not_found(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];
	struct stat st;

	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err),
			 IBTOPO_ENOTFOUND);
	snprintf(want, sizeof(want), "no database '%s'", c->db);
	assert_string_equal(err.message, want);
	assert_int_not_equal(stat(c->db, &st), 0);	/* not created */
}

static void new_database_is_private(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_store *s = NULL;
	char path[192], dir[160];
	mode_t old = umask(0);
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/share/ibtopo", c->dir);
	snprintf(path, sizeof(path), "%s/fabric.db", dir);
	assert_int_equal(ibtopo_store_open(&s, path, 0, NULL), 0);
	umask(old);
	save_labelled(s, "x");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	ibtopo_store_free(s);
}

static void unwritable_location_gives_one_clear_message(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char file[128], path[160], want[256];

	/* a path under a regular file fails for root too */
	snprintf(file, sizeof(file), "%s/plain", c->dir);
	write_file(file, "x", 1);
	snprintf(path, sizeof(path), "%s/x.db", file);
	assert_int_equal(ibtopo_store_open(&s, path, 0, &err), IBTOPO_EIO);
	assert_null(s);
	snprintf(want, sizeof(want), "cannot create database '%s': %s", path,
		 strerror(ENOTDIR));
	assert_string_equal(err.message, want);

	snprintf(path, sizeof(path), "%s/sub/x.db", file);
	assert_int_equal(ibtopo_store_open(&s, path, 0, &err), IBTOPO_EIO);
	assert_non_null(strstr(err.message, file));

	/* a directory where the file should be */
	assert_int_equal(ibtopo_store_open(&s, c->dir, 0, &err), IBTOPO_EIO);
	assert_non_null(strstr(err.message, "is a directory"));
}

/*
 * Root ignores file permissions, so these run in a child that drops to
 * nobody when started as root. The child checks with CHECK (a failure
 * exits it) rather than cmocka's asserts, which would go on running the
 * other tests in the child.
 */
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			_exit(1);					\
		}							\
	} while (0)
#define CHECK_MSG(err, want)						\
	do {								\
		if (strcmp((err).message, (want)) != 0) {		\
			fprintf(stderr, "%s:%d: message '%s', wanted '%s'\n", \
				__FILE__, __LINE__, (err).message, (want)); \
			_exit(1);					\
		}							\
	} while (0)

static void as_unprivileged(void (*body)(struct ctx *), struct ctx *c)
{
	int status = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 &&
		    (chown(c->dir, 65534, 65534) != 0 || setgroups(0, NULL) != 0 ||
		     setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		body(c);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void old_unwritable_body(struct ctx *c)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char *before, *after, want[512];
	size_t nb, na;

	read_file(c->db, &before, &nb);
	CHECK(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err) ==
	      IBTOPO_EVERSION);
	snprintf(want, sizeof(want), "'%s': schema version 1 is older than this "
		 "ibtopo's (%d), and the file is not writable here to upgrade it "
		 "(run ibtopo once as a user who can write it)", c->db,
		 SCHEMA_LATEST);
	CHECK_MSG(err, want);
	read_file(c->db, &after, &na);
	CHECK(na == nb && memcmp(before, after, nb) == 0);
	free(before);
	free(after);
}

static void old_database_that_cannot_be_written_is_refused_untouched(void **state)
{
	struct ctx *c = *state;

	copy_v1_database(c->db);
	assert_int_equal(chmod(c->db, 0444), 0);
	as_unprivileged(old_unwritable_body, c);
}

static void write_protected_body(struct ctx *c)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	char want[256];

	CHECK(ibtopo_store_open(&s, c->db, 0, NULL) == 0);
	ibtopo_store_free(s);
	s = NULL;
	CHECK(chmod(c->db, 0400) == 0);
	CHECK(ibtopo_store_open(&s, c->db, 0, &err) == IBTOPO_EIO);
	snprintf(want, sizeof(want), "database '%s' is read-only", c->db);
	CHECK_MSG(err, want);
	CHECK(s == NULL);
}

static void write_protected_file_is_reported_read_only(void **state)
{
	as_unprivileged(write_protected_body, *state);
}

static void read_only_directory_body(struct ctx *c)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = NULL, *g = NULL;
	char want[256];

	CHECK(ibtopo_store_open(&s, c->db, 0, NULL) == 0);
	CHECK(ibtopo_fabric_new(&f, NULL) == 0);
	CHECK(ibtopo_fabric_set_label(f, "kept", NULL) == 0);
	CHECK(ibtopo_store_save(NULL, s, f, NULL) == 0);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
	s = NULL;
	CHECK(chmod(c->dir, 0500) == 0);
	CHECK(ibtopo_store_open(&s, c->db, 0, &err) == IBTOPO_EIO);
	snprintf(want, sizeof(want),
		 "cannot write database '%s': directory '%s': %s", c->db, c->dir,
		 strerror(EACCES));
	CHECK_MSG(err, want);
	/* readers cannot create the -shm file here, and need not */
	CHECK(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err) == 0);
	CHECK(ibtopo_store_load(&g, s, 1, &err) == 0);
	CHECK(strcmp(ibtopo_fabric_meta(g)->label, "kept") == 0);
	ibtopo_fabric_free(g);
	ibtopo_store_free(s);
	CHECK(chmod(c->dir, 0700) == 0);
}

static void read_only_directory_refuses_writes_but_reads(void **state)
{
	as_unprivileged(read_only_directory_body, *state);
}

static void open_failure_is_reported_at_each_step(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;

	mock_open = true;
	/* the read-only look at the version */
	will_return(__wrap_sqlite3_open_v2, FAKE_SQLITE_CANTOPEN);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EIO);
	assert_null(s);
	assert_non_null(strstr(err.message, "cannot open database"));
	assert_non_null(strstr(err.message, c->db));
	/* the read-write connection */
	will_return(__wrap_sqlite3_open_v2, 0);
	will_return(__wrap_sqlite3_open_v2, FAKE_SQLITE_CANTOPEN);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), IBTOPO_EIO);
	assert_null(s);
	/* a read-only store */
	will_return(__wrap_sqlite3_open_v2, FAKE_SQLITE_CANTOPEN);
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY, &err),
			 IBTOPO_EIO);
	assert_null(s);
	mock_open = false;
	/* and the file is still usable */
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	ibtopo_store_free(s);
}

static void default_path_follows_db_env_xdg_home(void **state)
{
	char buf[256], small[8];
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	(void)state;
	setenv("IBTOPO_DB", "/env/fabric.db", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(ibtopo_store_default_path(buf, sizeof(buf), "/x.db", NULL), 0);
	assert_string_equal(buf, "/x.db");
	assert_int_equal(ibtopo_store_default_path(buf, sizeof(buf), NULL, NULL), 0);
	assert_string_equal(buf, "/env/fabric.db");
	unsetenv("IBTOPO_DB");
	assert_int_equal(ibtopo_store_default_path(buf, sizeof(buf), NULL, NULL), 0);
	assert_string_equal(buf, "/xdg/ibtopo/fabric.db");
	setenv("XDG_DATA_HOME", "relative", 1);		/* ignored, per XDG */
	assert_int_equal(ibtopo_store_default_path(buf, sizeof(buf), NULL, NULL), 0);
	assert_string_equal(buf, "/home/u/.local/share/ibtopo/fabric.db");
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(ibtopo_store_default_path(buf, sizeof(buf), NULL, NULL), 0);
	assert_string_equal(buf, "/home/u/.local/share/ibtopo/fabric.db");
	assert_int_equal(ibtopo_store_default_path(small, sizeof(small), NULL, &err),
			 IBTOPO_EINVAL);
	assert_string_equal(err.message, "database path too long");
}


/* ------------------------------------------------------------------ */
/* Several fabrics (issue 25)                                          */
/* ------------------------------------------------------------------ */

/* A fabric of switches alone, with these GUIDs, in fabric `name`. */
static struct ibtopo_fabric *switches_fabric(const uint64_t *guids, size_t n,
					     const char *name)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_node *node;

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ibtopo_fabric_add_node(&node, f,
				IBTOPO_NODE_SWITCH, guids[i], 8, "sw", NULL), 0);
	assert_int_equal(ibtopo_fabric_set_fabric_name(f, name, NULL), 0);
	return f;
}

/* Save those switches; returns the id, *fabric_out the fabric joined. */
static int64_t save_switches(struct ibtopo_store *s, const uint64_t *guids,
			     size_t n, const char *name, const char *label,
			     char *joined, size_t len)
{
	struct ibtopo_fabric *f = switches_fabric(guids, n, name);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int64_t id = 0;

	assert_int_equal(ibtopo_fabric_set_label(f, label, NULL), 0);
	if (ibtopo_store_save(&id, s, f, &err))
		fail_msg("save: %s", err.message);
	if (joined)
		snprintf(joined, len, "%s", ibtopo_fabric_meta(f)->fabric);
	ibtopo_fabric_free(f);
	return id;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void snapshot_joins_the_fabric_sharing_half_its_switches(void **state)
{
	static const uint64_t f1[] = { 4, 3, 2, 1 }, f2[] = { 1, 2, 9, 10 },
			      f3[] = { 0x20, 0x21, 0x22 },
			      f4[] = { 1, 0x30, 0x31, 0x32 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f;
	struct ibtopo_fabric_info *list = NULL;
	char name[96];
	size_t n = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_switches(s, f1, N(f1), NULL, NULL, name, sizeof(name));
	assert_string_equal(name, "fabric-0000000000000001");
	/* 2 of the latest's 4 switches: half, the same fabric */
	save_switches(s, f2, N(f2), NULL, NULL, name, sizeof(name));
	assert_string_equal(name, "fabric-0000000000000001");
	save_switches(s, f3, N(f3), NULL, NULL, name, sizeof(name));
	assert_string_equal(name, "fabric-0000000000000020");
	/* 1 of the latest's 4 (f2, not f1): a new fabric, its name taken */
	save_switches(s, f4, N(f4), NULL, NULL, name, sizeof(name));
	assert_string_equal(name, "fabric-0000000000000001-2");
	/* the subnet prefix, trailing zero groups cut, names it */
	f = switches_fabric((const uint64_t[]){ 0x41, 0x40 }, 2, NULL);
	ibtopo_fabric_set_subnet(f, 0xfe80000000000000ull, 1, 0x99);
	assert_int_equal(ibtopo_store_save(NULL, s, f, &err), 0);
	assert_string_equal(ibtopo_fabric_meta(f)->fabric,
			    "fe80-0000000000000040");
	ibtopo_fabric_free(f);
	/* a name given wins over the GUIDs */
	save_switches(s, f1, N(f1), "storage", NULL, name, sizeof(name));
	assert_string_equal(name, "storage");
	/* a tie goes to the fabric of the newest snapshot */
	save_switches(s, f1, N(f1), NULL, NULL, name, sizeof(name));
	assert_string_equal(name, "storage");

	assert_int_equal(ibtopo_store_fabrics(&list, &n, s, &err), 0);
	assert_int_equal(n, 5);
	assert_string_equal(list[0].name, "fabric-0000000000000001");
	assert_int_equal(list[0].snapshots, 2);
	assert_int_equal(list[0].latest_id, 2);
	assert_int_equal(list[0].switches, 4);
	assert_string_equal(list[3].name, "fe80-0000000000000040");
	assert_int_equal(list[3].subnet_prefix, 0xfe80000000000000ull);
	assert_int_equal(list[3].sm_lid, 1);
	assert_int_equal(list[3].sm_guid, 0x99);
	assert_string_equal(list[4].name, "storage");
	assert_int_equal(list[4].snapshots, 2);
	ibtopo_fabric_info_list_free(list, n);
	ibtopo_store_free(s);
}

static void subnet_and_local_port_round_trip(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	int64_t id = 0;

	ibtopo_fabric_set_subnet(f, 0xfec0000000000001ull, 0xbeef,
				 0x0002c90300001111ull);
	assert_int_equal(ibtopo_fabric_set_local_port(f, "mlx5_4", 2, NULL), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_string_equal(ibtopo_fabric_meta(f)->fabric,
			    "fec0000000000001-0002c90300001111");
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	assert_fabric_equal(f, g);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

/*
 * PKeys (schema 10) and a master's SMInfo read twice round-trip: a CA
 * port's table, a switch port's with its enforcement bits, an empty
 * table (read, none valid) apart from one not read.
 */
static void pkeys_and_sm_reread_round_trip(void **state)
{
	static const uint16_t host[] = { 0xffff, 0x0000, 0x8101, 0x0202 };
	static const uint16_t sw[] = { 0x7fff };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = build_fabric(), *g = NULL;
	struct ibtopo_sm sm = { .node_guid = 1, .answered = true, .state = 3,
				.act_count = 7, .reread = true,
				.act_count2 = 9 };
	struct ibtopo_port *pa = NULL, *pb = NULL, *pc = NULL;
	size_t nn = ibtopo_fabric_node_count(f);
	int64_t id = 0;

	for (size_t i = 0; i < nn; i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned j = 1; j <= n->nports; j++) {
			struct ibtopo_port *p = n->ports[j];

			if (!p)
				continue;
			if (n->type == IBTOPO_NODE_SWITCH && !pb)
				pb = p;
			else if (n->type != IBTOPO_NODE_SWITCH && !pa)
				pa = p;
			else if (n->type != IBTOPO_NODE_SWITCH && !pc)
				pc = p;
		}
	}
	assert_non_null(pa);
	assert_non_null(pb);
	assert_non_null(pc);
	assert_int_equal(ibtopo_port_set_pkeys(pa, host, 4, 0, &err), 0);
	assert_int_equal(ibtopo_port_set_pkeys(pb, sw, 1, 3, &err), 0);
	assert_int_equal(ibtopo_port_set_pkeys(pc, NULL, 0, 0, &err), 0);
	assert_int_equal(ibtopo_fabric_add_sm(f, &sm, &err), 0);
	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), 0);
	assert_int_equal(ibtopo_store_load(&g, s, id, &err), 0);
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(f, i);
		const struct ibtopo_node *b =
			ibtopo_fabric_find_node(g, a->guid);

		for (unsigned j = 0; j <= a->nports; j++) {
			const struct ibtopo_pkeys *x =
				a->ports[j] ? a->ports[j]->pkeys : NULL;
			const struct ibtopo_pkeys *y =
				b->ports[j] ? b->ports[j]->pkeys : NULL;

			assert_true(!x == !y);
			if (!x)
				continue;
			assert_int_equal(x->count, y->count);
			assert_int_equal(x->enforce, y->enforce);
			assert_memory_equal(x->keys, y->keys,
					    x->count * sizeof(*x->keys));
		}
	}
	assert_int_equal(pa->pkeys->count, 3); /* 0x0000 left out */
	assert_int_equal(ibtopo_port_pkey_member(pa, 0x0101), 2);
	assert_int_equal(ibtopo_port_pkey_member(pa, 0x0202), 1);
	assert_int_equal(ibtopo_port_pkey_member(pc, 0x7fff), 0);
	assert_true(ibtopo_fabric_sm(g, 0)->reread);
	assert_int_equal(ibtopo_fabric_sm(g, 0)->act_count2, 9);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void refs_resolve_within_a_fabric(void **state)
{
	static const uint64_t a[] = { 1, 2 }, b[] = { 5, 6 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_switches(s, a, N(a), "a", "mon", NULL, 0);	/* 1 */
	/* one fabric: as ever */
	assert_resolves(s, "latest", 1);
	assert_resolves(s, "mon", 1);
	save_switches(s, b, N(b), "b", "mon", NULL, 0);	/* 2 */
	save_switches(s, a, N(a), "a", NULL, NULL, 0);	/* 3 */
	/* ids are global */
	assert_resolves(s, "2", 2);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "a", "2", &err), 0);
	assert_int_equal(id, 2);
	assert_int_equal(ibtopo_store_resolve(&id, s, "7", &err),
			 IBTOPO_ENOTFOUND);
	/* two fabrics and none named: relative REFs and labels */
	assert_int_equal(ibtopo_store_resolve(&id, s, "latest", &err),
			 IBTOPO_EAMBIGUOUS);
	assert_non_null(strstr(err.message,
			       "'latest' could be in any of 2 fabrics: a "
			       "(latest: 3, "));
	assert_non_null(strstr(err.message, "), b (latest: 2, "));
	assert_int_equal(ibtopo_store_resolve(&id, s, "mon", &err),
			 IBTOPO_EAMBIGUOUS);
	/* within one */
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "a", "latest", &err),
			 0);
	assert_int_equal(id, 3);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "a", "latest~1", &err),
			 0);
	assert_int_equal(id, 1);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "a", "latest~2", &err),
			 IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "b", "mon", &err), 0);
	assert_int_equal(id, 2);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "c", "latest", &err),
			 IBTOPO_ENOTFOUND);
	assert_non_null(strstr(err.message, "no fabric 'c' in "));
	/* many fabrics: the message names whole fabrics, counts the rest */
	{
		static const uint64_t g[][2] = { { 11, 12 }, { 21, 22 } };
		const char *names[] = { "compute-fabric-of-building-one",
					"storage-fabric-of-building-two" };

		for (size_t i = 0; i < 2; i++)
			save_switches(s, g[i], 2, names[i], NULL, NULL, 0);
		assert_int_equal(ibtopo_store_resolve(&id, s, "latest", &err),
				 IBTOPO_EAMBIGUOUS);
		assert_non_null(strstr(err.message, " and 2 more (ibtopo "
						    "fabrics); name one "
						    "(--fabric NAME)"));
		assert_non_null(strstr(err.message, "a (latest: 3, "));
	}
	/* a label only one fabric has needs no fabric named; one that no
	 * snapshot has is not found, not ambiguous */
	save_switches(s, b, N(b), "b", "tue", NULL, 0);	/* 6 */
	assert_resolves(s, "tue", 6);
	assert_int_equal(ibtopo_store_resolve(&id, s, "wed", &err),
			 IBTOPO_ENOTFOUND);
	assert_non_null(strstr(err.message, "no snapshot 'wed' in "));
	ibtopo_store_free(s);
}

static void labels_are_unique_within_a_fabric(void **state)
{
	static const uint64_t a[] = { 1, 2 }, b[] = { 5, 6 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f;
	int64_t id = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_switches(s, a, N(a), "a", "x", NULL, 0);	/* 1 */
	save_switches(s, b, N(b), "b", "x", NULL, 0);	/* 2: another fabric */
	f = switches_fabric(a, N(a), "a");
	assert_int_equal(ibtopo_fabric_set_label(f, "x", NULL), 0);
	assert_int_equal(ibtopo_store_save(&id, s, f, &err), IBTOPO_EEXIST);
	assert_string_equal(err.message, "label 'x' names snapshot 1 already");
	assert_int_equal(ibtopo_store_check_label_in(s, "b", "x", 0, &err),
			 IBTOPO_EEXIST);
	assert_int_equal(ibtopo_store_check_label_in(s, "c", "x", 0, &err), 0);
	/* none named, several fabrics: the save checks in the one it picks */
	assert_int_equal(ibtopo_store_check_label_in(s, NULL, "x", 0, &err), 0);
	/* moving takes it from fabric a only */
	assert_int_equal(ibtopo_store_save_ext(&id, s, f,
					       IBTOPO_SAVE_MOVE_LABEL, &err), 0);
	assert_int_equal(id, 3);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "a", "x", &err), 0);
	assert_int_equal(id, 3);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "b", "x", &err), 0);
	assert_int_equal(id, 2);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
}

static void prune_keeps_the_newest_of_each_fabric(void **state)
{
	static const uint64_t a[] = { 1, 2 }, b[] = { 5, 6 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_snapshot *list = NULL;
	int64_t *ids = NULL;
	size_t n = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	for (int i = 0; i < 3; i++)
		save_switches(s, a, N(a), "a", NULL, NULL, 0);	/* 1 2 3 */
	save_switches(s, b, N(b), "b", NULL, NULL, 0);		/* 4 */
	save_switches(s, b, N(b), "b", NULL, NULL, 0);		/* 5 */
	save_switches(s, a, N(a), "a", NULL, NULL, 0);		/* 6 */
	/* one fabric alone */
	assert_int_equal(ibtopo_store_prune_in(&ids, &n, s, "b", 1, 0, &err),
			 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 4);
	free(ids);
	assert_int_equal(ibtopo_store_prune_in(&ids, &n, s, "c", 1, 0, &err),
			 IBTOPO_ENOTFOUND);
	/* --keep 2 counts per fabric: a keeps 3 and 6, b keeps 5 */
	assert_int_equal(ibtopo_store_prune(&ids, &n, s, 2, 0, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 2);
	free(ids);
	/* and never the newest of a fabric, however old */
	assert_int_equal(ibtopo_store_prune(&ids, &n, s, 0, time(NULL) + 60,
					    &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 3);
	free(ids);
	assert_int_equal(ibtopo_store_list(&list, &n, s, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(list[0].id, 5);
	assert_string_equal(list[0].fabric, "b");
	assert_int_equal(list[1].id, 6);
	assert_string_equal(list[1].fabric, "a");
	ibtopo_snapshot_list_free(list, n);
	ibtopo_store_free(s);
}

static void fabric_renames_and_refuses_bad_names(void **state)
{
	static const uint64_t a[] = { 1, 2 }, b[] = { 5, 6 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *g = NULL;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_switches(s, a, N(a), "a", NULL, NULL, 0);
	save_switches(s, b, N(b), "b", NULL, NULL, 0);
	assert_int_equal(ibtopo_store_rename_fabric(s, "a", "compute", &err),
			 0);
	assert_int_equal(ibtopo_store_load(&g, s, 1, &err), 0);
	assert_string_equal(ibtopo_fabric_meta(g)->fabric, "compute");
	ibtopo_fabric_free(g);
	assert_int_equal(ibtopo_store_rename_fabric(s, "compute", "b", &err),
			 IBTOPO_EEXIST);
	assert_int_equal(ibtopo_store_rename_fabric(s, "a", "x", &err),
			 IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_rename_fabric(s, "b", "-x", &err),
			 IBTOPO_EINVAL);
	assert_false(ibtopo_store_fabric_name_is_valid(""));
	assert_false(ibtopo_store_fabric_name_is_valid("a b"));
	assert_false(ibtopo_store_fabric_name_is_valid("a/b"));
	assert_true(ibtopo_store_fabric_name_is_valid("rail-1.ib_0"));
	g = switches_fabric(a, N(a), "no/slash");
	assert_int_equal(ibtopo_store_save(NULL, s, g, &err), IBTOPO_EINVAL);
	ibtopo_fabric_free(g);
	ibtopo_store_free(s);
	/* read-only: no renaming */
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY,
					   &err), 0);
	assert_int_equal(ibtopo_store_rename_fabric(s, "b", "c", &err),
			 IBTOPO_EINVAL);
	ibtopo_store_free(s);
}

/* issue 33, items 3 and 6: a name against the switches; delete, merge */
static void fabric_match_delete_and_merge(void **state)
{
	static const uint64_t a[] = { 1, 2, 3, 4 }, b[] = { 5, 6 };
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric_match m;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f;
	int64_t deleted = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_switches(s, a, N(a), "a", "x", NULL, 0);
	save_switches(s, b, N(b), "b", "x", NULL, 0);
	/* a's switches under the name 'compute': a has them */
	f = switches_fabric(a, 3, "compute");
	assert_int_equal(ibtopo_store_fabric_match(&m, s, f, "compute", &err),
			 0);
	assert_string_equal(m.named, "");
	assert_string_equal(m.other, "a");
	assert_int_equal(m.other_total, 4);
	assert_int_equal(m.other_shared, 3);
	/* ... under the name 'b': b's latest has none of them */
	assert_int_equal(ibtopo_store_fabric_match(&m, s, f, "b", &err), 0);
	assert_string_equal(m.named, "b");
	assert_int_equal(m.named_latest, 2);
	assert_int_equal(m.named_total, 2);
	assert_int_equal(m.named_shared, 0);
	assert_string_equal(m.other, "a");
	ibtopo_fabric_free(f);
	/* merge: a label both have is refused, then moved */
	assert_int_equal(ibtopo_store_merge_fabric(s, "b", "a", &err),
			 IBTOPO_EEXIST);
	assert_string_equal(err.message, "label 'x' names snapshot 2 of 'b' "
					 "and snapshot 1 of 'a'");
	assert_int_equal(ibtopo_store_delete(s, 1, &err), 0);
	assert_int_equal(ibtopo_store_merge_fabric(s, "b", "a", &err), 0);
	assert_int_equal(ibtopo_store_merge_fabric(s, "b", "a", &err),
			 IBTOPO_ENOTFOUND);
	assert_int_equal(ibtopo_store_merge_fabric(s, "a", "a", &err),
			 IBTOPO_EINVAL);
	/* delete: refused with snapshots, unless told */
	assert_int_equal(ibtopo_store_delete_fabric(s, "a", 0, &deleted, &err),
			 IBTOPO_EEXIST);
	assert_string_equal(err.message, "fabric 'a' has 1 snapshot");
	assert_int_equal(ibtopo_store_delete_fabric(
				 s, "a", IBTOPO_FABRIC_DELETE_SNAPSHOTS,
				 &deleted, &err),
			 0);
	assert_int_equal(deleted, 1);
	assert_int_equal(ibtopo_store_delete_fabric(s, "a", 0, NULL, &err),
			 IBTOPO_ENOTFOUND);
	ibtopo_store_free(s);
	/* read-only: neither */
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY,
					   &err), 0);
	assert_int_equal(ibtopo_store_delete_fabric(s, "a", 0, NULL, &err),
			 IBTOPO_EINVAL);
	ibtopo_store_free(s);
}

/*
 * A database as schema version 4 left it (before fabrics): upgraded in
 * place, its snapshots all join the fabric 'default'.
 */
static void version_4_database_joins_one_fabric(void **state)
{
	struct ctx *c = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric_info *list = NULL;
	struct ibtopo_fabric *f;
	int64_t v = 0, id = 0;
	size_t n = 0;

	assert_int_equal(ibtopo_store_open(&s, c->db, 0, &err), 0);
	save_labelled(s, "one");
	f = switches_fabric((const uint64_t[]){ 7, 8 }, 2, NULL);
	assert_int_equal(ibtopo_store_save(NULL, s, f, &err), 0);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
	assert_int_equal(ibtopo__store_exec_path(c->db,
		UNDO_V5 " PRAGMA user_version = 4", NULL, &err), 0);

	s = NULL;
	assert_int_equal(ibtopo_store_open(&s, c->db, IBTOPO_STORE_READONLY,
					   &err), 0);
	assert_int_equal(ibtopo__store_exec_path(c->db, "PRAGMA user_version",
						 &v, &err), 0);
	assert_int_equal(v, SCHEMA_LATEST);
	assert_int_equal(ibtopo_store_fabrics(&list, &n, s, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(list[0].name, "default");
	assert_int_equal(list[0].snapshots, 2);
	ibtopo_fabric_info_list_free(list, n);
	assert_resolves(s, "latest~1", 1);
	assert_resolves(s, "one", 1);
	assert_int_equal(ibtopo_store_resolve_in(&id, s, "default", "latest",
						 &err), 0);
	assert_int_equal(id, 2);
	ibtopo_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(save_load_round_trip_keeps_every_field),
		T(round_trip_of_more_rows_than_one_insert_carries),
		T(save_fills_time_and_host_when_unset),
		T(load_unknown_id_is_not_found),
		T(resolve_id_label_latest_and_latest_n),
		T(label_in_use_is_refused_and_nothing_stored),
		T(label_moves_with_the_flag),
		T(label_that_reads_as_a_ref_is_refused),
		T(duplicate_label_of_an_old_database_is_ambiguous),
		T(resolve_on_empty_database_says_so),
		T(list_returns_snapshots_oldest_first),
		T(delete_removes_snapshot_and_its_rows),
		T(failed_save_leaves_nothing_behind),
		T(damaged_rows_fail_the_load_cleanly),
		T(readonly_store_refuses_writes),
		T(newer_schema_version_is_refused_and_file_untouched),
		T(empty_file_is_upgraded_to_the_latest_schema),
		T(version_1_database_migrates_and_keeps_its_snapshots),
		T(old_database_that_cannot_be_written_is_refused_untouched),
		T(version_3_database_gains_tables_and_keeps_counters),
		T(version_8_database_gains_firmware),
		T(partial_reason_is_kept_only_for_partial_snapshots),
		T(foreign_database_is_refused),
		T(corrupt_file_is_refused_without_a_crash),
		T(readonly_open_of_missing_file_is_not_found),
		T(new_database_is_private),
		T(unwritable_location_gives_one_clear_message),
		T(write_protected_file_is_reported_read_only),
		T(read_only_directory_refuses_writes_but_reads),
		T(open_failure_is_reported_at_each_step),
		T(default_path_follows_db_env_xdg_home),
		T(snapshot_joins_the_fabric_sharing_half_its_switches),
		T(subnet_and_local_port_round_trip),
		T(pkeys_and_sm_reread_round_trip),
		T(refs_resolve_within_a_fabric),
		T(labels_are_unique_within_a_fabric),
		T(prune_keeps_the_newest_of_each_fabric),
		T(fabric_renames_and_refuses_bad_names),
		T(fabric_match_delete_and_merge),
		T(version_4_database_joins_one_fabric),
#undef T
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
