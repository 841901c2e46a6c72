/*
 * store-tool.c - fill, poke and time snapshot databases for the store's
 * shell tests and bench/store.sh. Not installed.
 *
 *   store-tool fill DB N [LABEL] [K]  save N k-ary fat trees (default k=4);
 *                                     N = 0 creates an empty database
 *   store-tool exec DB SQL            run SQL (no schema checks), print
 *                                     the first value of the last row
 *   store-tool bench DB [K]           time saving and loading one k-ary
 *                                     fat tree (default 36: 11,664 hosts)
 *   store-tool bench-routes DB [K]    the same with a forwarding table on
 *                                     every switch, one entry per LID (k=36:
 *                                     1,620 switches x 13,284 LIDs)
 */
#include "store/store-int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int fail(const struct ibtopo_error *err)
{
	fprintf(stderr, "store-tool: %s\n", err->message);
	return 2;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall time, and this process's CPU time (steadier on a busy machine). */
static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static struct ibtopo_port *port(struct ibtopo_fabric *f, struct ibtopo_node *n,
				unsigned num, struct ibtopo_error *err)
{
	struct ibtopo_port *p = NULL;

	if (ibtopo_node_add_port(&p, f, n, num, err))
		return NULL;
	p->guid = n->type == IBTOPO_NODE_SWITCH ? n->guid : n->guid + num;
	p->lid = (uint16_t)(n->index + 1);
	p->state = IBTOPO_PORT_STATE_ACTIVE;
	p->phys_state = 5;
	p->width_supported = IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X;
	p->width_enabled = p->width_supported;
	p->width_active = IBTOPO_WIDTH_4X;
	p->speed_supported = IBTOPO_SPEED_SDR | IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR;
	p->speed_enabled = p->speed_supported;
	p->speed_active = IBTOPO_SPEED_HDR;
	p->cap_mask = 0x2651e84a;
	if (ibtopo_fabric_index_port(f, p, err))
		return NULL;
	return p;
}

static int wire(struct ibtopo_fabric *f, struct ibtopo_node *x, unsigned xp,
		struct ibtopo_node *y, unsigned yp, struct ibtopo_error *err)
{
	struct ibtopo_port *a = port(f, x, xp, err), *b = port(f, y, yp, err);
	struct ibtopo_link *l = NULL;
	struct ibtopo_cable c = {
		.media = IBTOPO_MEDIA_AOC, .length_m = 3 + (double)(xp % 40),
		.rated_speed = IBTOPO_SPEED_HDR, .vendor = "Mellanox",
		.part_number = "MFS1S00-H010V", .serial = "MT0000000000",
	};

	if (!a || !b || ibtopo_fabric_connect(&l, f, a, b, err))
		return -1;
	if (yp % 2)	/* cable data on about half the links */
		return ibtopo_link_set_cable(f, l, &c, err);
	return 0;
}

/*
 * A k-ary fat tree: k pods of k/2 edge and k/2 aggregation switches,
 * (k/2)^2 core switches, k^3/4 hosts. k = 36: 11,664 hosts, 1,620
 * switches, 34,992 links.
 */
static int fat_tree(struct ibtopo_fabric **out, unsigned k, struct ibtopo_error *err)
{
	unsigned h = k / 2, npod = k, ncore = h * h;
	struct ibtopo_node **edge, **agg, **core, *n;
	struct ibtopo_fabric *f = NULL;
	char desc[96];
	int rc = -1;

	edge = calloc(npod * h, sizeof(*edge));
	agg = calloc(npod * h, sizeof(*agg));
	core = calloc(ncore, sizeof(*core));
	if (!edge || !agg || !core || ibtopo_fabric_new(&f, err))
		goto out_free;
	for (unsigned i = 0; i < ncore; i++) {
		snprintf(desc, sizeof(desc), "core%04u QM8700", i);
		if (ibtopo_fabric_add_node(&core[i], f, IBTOPO_NODE_SWITCH,
					   0x7cfe900300100000ull + i, k, desc, err))
			goto out_free;
	}
	for (unsigned p = 0; p < npod; p++) {
		for (unsigned j = 0; j < h; j++) {
			snprintf(desc, sizeof(desc), "pod%02u-agg%02u", p, j);
			if (ibtopo_fabric_add_node(&agg[p * h + j], f,
					IBTOPO_NODE_SWITCH,
					0x7cfe900300200000ull + p * h + j, k,
					desc, err))
				goto out_free;
			snprintf(desc, sizeof(desc), "pod%02u-leaf%02u", p, j);
			if (ibtopo_fabric_add_node(&edge[p * h + j], f,
					IBTOPO_NODE_SWITCH,
					0x7cfe900300300000ull + p * h + j, k,
					desc, err))
				goto out_free;
		}
	}
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		n = ibtopo_fabric_node(f, i);
		n->vendor_id = 0x02c9;
		n->device_id = 0xd2f0;
		n->enhanced_port0 = true;
		if (!port(f, n, 0, err))
			goto out_free;
	}
	for (unsigned p = 0; p < npod; p++) {
		for (unsigned j = 0; j < h; j++) {
			struct ibtopo_node *e = edge[p * h + j], *a = agg[p * h + j];

			for (unsigned x = 0; x < h; x++) {
				unsigned hi = (p * h + j) * h + x;

				snprintf(desc, sizeof(desc), "node%05u mlx5_0", hi);
				if (ibtopo_fabric_add_node(&n, f, IBTOPO_NODE_CA,
						0x0c42a10300000000ull + 16 * hi,
						1, desc, err))
					goto out_free;
				n->vendor_id = 0x15b3;
				n->device_id = 4123;
				n->sysimg_guid = n->guid;
				if (wire(f, e, x + 1, n, 1, err) ||
				    wire(f, e, h + x + 1, agg[p * h + x], j + 1, err) ||
				    wire(f, a, h + x + 1, core[j * h + x], p + 1, err))
					goto out_free;
			}
		}
	}
	ibtopo_fabric_set_taken_at(f, time(NULL));
	ibtopo_fabric_sort(f);
	*out = f;
	f = NULL;
	rc = 0;
out_free:
	ibtopo_fabric_free(f);
	free(edge);
	free(agg);
	free(core);
	return rc;
}

static int fill(const char *db, long n, const char *label, unsigned k)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = NULL;
	int rc = 0;

	if (fat_tree(&f, k, &err) || ibtopo_fabric_set_label(f, label, &err) ||
	    ibtopo_fabric_set_source(f, "store-tool", &err))
		return fail(&err);
	/* a connection per snapshot, as separate commands would; N = 0
	 * creates an empty database. A label names one snapshot: the first
	 * gets LABEL, the next LABEL.1, LABEL.2, ... */
	for (long i = 0; (i < n || i == 0) && !rc; i++) {
		char name[256];

		if (label && i) {
			snprintf(name, sizeof(name), "%s.%ld", label, i);
			rc = ibtopo_fabric_set_label(f, name, &err);
		}
		if (!rc)
			rc = ibtopo_store_open(&s, db, 0, &err);
		if (!rc && n)
			rc = ibtopo_store_save(NULL, s, f, &err);
		ibtopo_store_free(s);
		s = NULL;
	}
	ibtopo_fabric_free(f);
	return rc ? fail(&err) : 0;
}

/*
 * Close *s, open db read-only again and load snapshot id into *g; the
 * wall and CPU seconds the open and the load took in *wall and *cpus.
 */
static int reload(struct ibtopo_store **s, const char *db, int64_t id,
		  struct ibtopo_fabric **g, double *wall, double *cpus,
		  struct ibtopo_error *err)
{
	double t0, c0;

	ibtopo_store_free(*s);
	*s = NULL;
	t0 = now();
	c0 = cpu();
	if (ibtopo_store_open(s, db, IBTOPO_STORE_READONLY, err) ||
	    ibtopo_store_load(g, *s, id, err))
		return -1;
	*wall = now() - t0;
	*cpus = cpu() - c0;
	return 0;
}

/* The size of the database file, when it can be read. */
static void print_db_size(const char *db)
{
	struct stat st;

	if (stat(db, &st) == 0)
		printf("database: %.1f MB\n", (double)st.st_size / 1e6);
}

static int bench(const char *db, unsigned k)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = NULL, *g = NULL;
	size_t nports = 0;
	double t0, t1, t2, t3, c0, c1;
	int64_t id = 0;

	t0 = now();
	if (fat_tree(&f, k, &err))
		return fail(&err);
	t1 = now();
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned p = 0; p <= n->nports; p++)
			nports += n->ports[p] != NULL;
	}
	if (ibtopo_store_open(&s, db, 0, &err))
		return fail(&err);
	t2 = now();
	c0 = cpu();
	if (ibtopo_store_save(&id, s, f, &err))
		return fail(&err);
	t3 = now();
	c1 = cpu();
	printf("fabric: k=%u, %zu switches, %zu CAs, %zu ports, %zu links "
	       "(built in %.3f s)\n", k,
	       ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH),
	       ibtopo_fabric_count_type(f, IBTOPO_NODE_CA), nports,
	       ibtopo_fabric_link_count(f), t1 - t0);
	printf("save: %.3f s (cpu %.3f s; snapshot %lld)\n", t3 - t2, c1 - c0,
	       (long long)id);
	if (reload(&s, db, id, &g, &t1, &c1, &err))
		return fail(&err);
	printf("load: %.3f s (cpu %.3f s; %zu nodes, %zu links)\n", t1, c1,
	       ibtopo_fabric_node_count(g), ibtopo_fabric_link_count(g));
	print_db_size(db);
	if (ibtopo_fabric_node_count(g) != ibtopo_fabric_node_count(f) ||
	    ibtopo_fabric_link_count(g) != ibtopo_fabric_link_count(f)) {
		fprintf(stderr, "store-tool: loaded fabric differs\n");
		return 1;
	}
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
	return 0;
}

/*
 * Forwarding tables on every switch of `f`: LIDs 1..(nodes) in node
 * order, entries drawn from the switch's ports (and 255) by a fixed LCG.
 */
static int add_routes(struct ibtopo_fabric *f, size_t *entries,
		      struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(f);
	unsigned top = (unsigned)nn;
	uint8_t *lft = malloc((size_t)top + 1);
	uint32_t x = 12345;

	*entries = 0;
	if (!lft)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nn; i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type != IBTOPO_NODE_SWITCH)
			continue;
		for (unsigned l = 0; l <= top; l++) {
			x = x * 1103515245u + 12345u;
			lft[l] = l ? (uint8_t)((x >> 16) % (n->nports + 1)) :
				     IBTOPO_LFT_NONE;
		}
		if (ibtopo_node_set_lft(n, lft, top, err)) {
			free(lft);
			return err->code;
		}
		*entries += (size_t)top + 1;
	}
	free(lft);
	return ibtopo_fabric_set_routing_engine(f, "ftree", err);
}

static bool same_routes(const struct ibtopo_fabric *f,
			const struct ibtopo_fabric *g)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(f, i);
		const struct ibtopo_node *b = ibtopo_fabric_find_node(g, a->guid);

		if (!b || !a->lft != !b->lft)
			return false;
		if (a->lft && (a->lft->top != b->lft->top ||
			       memcmp(a->lft->port, b->lft->port,
				      (size_t)a->lft->top + 1)))
			return false;
	}
	return true;
}

static int bench_routes(const char *db, unsigned k)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *s = NULL;
	struct ibtopo_fabric *f = NULL, *g = NULL;
	size_t entries = 0;
	double t0, t1, c0, c1;
	int64_t id = 0;

	if (fat_tree(&f, k, &err) || add_routes(f, &entries, &err))
		return fail(&err);
	printf("fabric: k=%u, %zu switches, %zu CAs; tables of %zu LIDs, "
	       "%zu entries\n", k,
	       ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH),
	       ibtopo_fabric_count_type(f, IBTOPO_NODE_CA),
	       ibtopo_fabric_node_count(f), entries);
	if (ibtopo_store_open(&s, db, 0, &err))
		return fail(&err);
	t0 = now();
	c0 = cpu();
	if (ibtopo_store_save(&id, s, f, &err))
		return fail(&err);
	t1 = now();
	c1 = cpu();
	printf("save with tables: %.3f s (cpu %.3f s; snapshot %lld)\n",
	       t1 - t0, c1 - c0, (long long)id);
	if (reload(&s, db, id, &g, &t1, &c1, &err))
		return fail(&err);
	printf("load with tables: %.3f s (cpu %.3f s)\n", t1, c1);
	print_db_size(db);
	if (!same_routes(f, g)) {
		fprintf(stderr, "store-tool: loaded tables differ\n");
		return 1;
	}
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(f);
	ibtopo_store_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	int64_t v = 0;

	if (argc >= 4 && strcmp(argv[1], "fill") == 0)
		return fill(argv[2], atol(argv[3]), argc > 4 ? argv[4] : NULL,
			    argc > 5 ? (unsigned)atoi(argv[5]) : 4);
	if (argc == 4 && strcmp(argv[1], "exec") == 0) {
		if (ibtopo__store_exec_path(argv[2], argv[3], &v, &err))
			return fail(&err);
		printf("%lld\n", (long long)v);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "bench-routes") == 0)
		return bench_routes(argv[2], argc > 3 ? (unsigned)atoi(argv[3]) : 36);
	if (argc >= 3 && strcmp(argv[1], "bench") == 0)
		return bench(argv[2], argc > 3 ? (unsigned)atoi(argv[3]) : 36);
	fprintf(stderr, "usage: store-tool fill DB N [LABEL] [K] | exec DB SQL | "
		"bench DB [K] | bench-routes DB [K]\n");
	return 2;
}
