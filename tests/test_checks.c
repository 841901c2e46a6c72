/* test_checks.c - speed/width downgrades, cable checks, findings output */
#include "analysis/analysis-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALL_WIDTHS 0x1f	/* what every ibsim port claims: 1x..12x */
#define IBSIM_SPEEDS (IBTOPO_SPEED_SDR | IBTOPO_SPEED_DDR | IBTOPO_SPEED_QDR | \
		      IBTOPO_SPEED_FDR | IBTOPO_SPEED_EDR | IBTOPO_SPEED_HDR)

struct t {
	struct ibtopo_fabric *f;
	struct ibtopo_findings out;
	uint64_t next_guid;
};

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	if (!t || ibtopo_fabric_new(&t->f, NULL))
		return -1;
	t->next_guid = 0x1000;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	ibtopo_findings_release(&t->out);
	ibtopo_fabric_free(t->f);
	free(t);
	return 0;
}

static struct ibtopo_node *node(struct t *t, enum ibtopo_node_type type,
				const char *desc, unsigned nports)
{
	struct ibtopo_node *n = NULL;

	assert_int_equal(ibtopo_fabric_add_node(&n, t->f, type, t->next_guid++,
						nports, desc, NULL), 0);
	return n;
}

/* A port that knows its PortInfo sets (sup/en 0: unknown, a text dump). */
static struct ibtopo_port *port(struct t *t, struct ibtopo_node *n, unsigned num,
				unsigned speed, unsigned width, unsigned ssup,
				unsigned sen, unsigned wsup, unsigned wen)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, t->f, n, num, NULL), 0);
	p->speed_active = (uint16_t)speed;
	p->width_active = (uint8_t)width;
	p->speed_supported = (uint16_t)ssup;
	p->speed_enabled = (uint16_t)sen;
	p->width_supported = (uint8_t)wsup;
	p->width_enabled = (uint8_t)wen;
	return p;
}

/* A link with PortInfo on both ends, both ends alike. */
static struct ibtopo_link *plink(struct t *t, struct ibtopo_node *x, unsigned px,
				 struct ibtopo_node *y, unsigned py, unsigned speed,
				 unsigned width, unsigned sen, unsigned wen)
{
	struct ibtopo_link *l = NULL;

	assert_int_equal(ibtopo_fabric_connect(&l, t->f,
		port(t, x, px, speed, width, IBSIM_SPEEDS, sen, ALL_WIDTHS, wen),
		port(t, y, py, speed, width, IBSIM_SPEEDS, sen, ALL_WIDTHS, wen),
		NULL), 0);
	return l;
}

/* A link from a text dump: active values only. */
static struct ibtopo_link *tlink(struct t *t, struct ibtopo_node *x, unsigned px,
				 struct ibtopo_node *y, unsigned py, unsigned speed,
				 unsigned width)
{
	struct ibtopo_link *l = NULL;

	assert_int_equal(ibtopo_fabric_connect(&l, t->f,
		port(t, x, px, speed, width, 0, 0, 0, 0),
		port(t, y, py, speed, width, 0, 0, 0, 0), NULL), 0);
	return l;
}

static void cable(struct t *t, struct ibtopo_link *l, enum ibtopo_media media,
		  double length, unsigned rated)
{
	struct ibtopo_cable c = { .media = media, .length_m = length,
				  .rated_speed = rated };

	assert_int_equal(ibtopo_link_set_cable(t->f, l, &c, NULL), 0);
}

static void run(struct t *t)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	ibtopo_fabric_sort(t->f);
	ibtopo_findings_release(&t->out);
	assert_int_equal(ibtopo_check_links(&t->out, t->f, NULL, &err), 0);
}

static const struct ibtopo_finding *nth(struct t *t, size_t i)
{
	assert_true(i < t->out.count);
	return &t->out.items[i];
}

/* Run the checks: exactly one finding, of kind and severity; it. */
static const struct ibtopo_finding *only(struct t *t,
					 enum ibtopo_finding_kind kind,
					 enum ibtopo_severity sev)
{
	const struct ibtopo_finding *f;

	run(t);
	assert_int_equal(t->out.count, 1);
	f = nth(t, 0);
	assert_int_equal(f->kind, kind);
	assert_int_equal(f->severity, sev);
	return f;
}

/* The i-th finding of a severity. */
static const struct ibtopo_finding *find(struct t *t, enum ibtopo_severity sev,
					 size_t i)
{
	for (size_t k = 0; k < t->out.count; k++)
		if (t->out.items[k].severity == sev && i-- == 0)
			return &t->out.items[k];
	fail_msg("no finding %zu of severity %d", i, (int)sev);
	return NULL;
}

static bool end_is_set_(const struct ibtopo_end *e)
{
	return e->node || e->guid;
}

/* ---- PortInfo ---- */

/* Every ibsim port claims 12x and FDR..HDR: a clean fabric is clean. */
static void clean_sim_fabric_gives_nothing(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "spine01", 36);

	for (unsigned i = 1; i <= 4; i++) {
		char name[32];
		struct ibtopo_node *h;

		snprintf(name, sizeof(name), "host%03u mlx5_0", i);
		h = node(t, IBTOPO_NODE_CA, name, 1);
		plink(t, s1, i, h, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X,
		      IBSIM_SPEEDS, ALL_WIDTHS);
		plink(t, s1, 18 + i, s2, i, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X,
		      IBSIM_SPEEDS, ALL_WIDTHS);
	}
	run(t);
	assert_int_equal(t->out.count, 0);
}

static void speed_edr_link_between_hdr_ports_port_config(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "host001 mlx5_0", 1);
	const unsigned no_hdr = IBSIM_SPEEDS & ~IBTOPO_SPEED_HDR;
	const struct ibtopo_finding *f;

	plink(t, s, 1, h, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X, no_hdr, ALL_WIDTHS);
	f = only(t, IBTOPO_FIND_SPEED_DOWNGRADE, IBTOPO_SEV_ERROR);
	assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PORT_INFO);
	assert_int_equal(f->cause, IBTOPO_CAUSE_PORT_CONFIG);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_HDR);
	assert_int_equal(f->num.rate.active, IBTOPO_SPEED_EDR);
	assert_int_equal(f->c.port, -1);
}

static void speed_downgrade_with_everything_enabled_is_unknown(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "host001 mlx5_0", 1);

	plink(t, s, 1, h, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS,
	      ALL_WIDTHS);
	run(t);
	assert_int_equal(t->out.count, 1);
	assert_int_equal(nth(t, 0)->cause, IBTOPO_CAUSE_UNKNOWN);
}

static void speed_edr_cable_on_hdr_ports_names_the_cable(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "host001 mlx5_0", 1);
	struct ibtopo_link *l;

	l = plink(t, s, 1, h, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X,
		  IBSIM_SPEEDS, ALL_WIDTHS);
	cable(t, l, IBTOPO_MEDIA_PASSIVE_COPPER, 2, IBTOPO_SPEED_EDR);
	run(t);
	assert_int_equal(t->out.count, 2);
	assert_int_equal(nth(t, 0)->kind, IBTOPO_FIND_SPEED_DOWNGRADE);
	assert_int_equal(nth(t, 0)->cause, IBTOPO_CAUSE_CABLE);
	/* the cable finding follows the downgrade it explains */
	assert_int_equal(nth(t, 1)->kind, IBTOPO_FIND_CABLE_UNDERRATED);
	assert_int_equal(nth(t, 1)->severity, IBTOPO_SEV_WARNING);
	assert_int_equal(nth(t, 1)->num.rate.expected, IBTOPO_SPEED_HDR);
	assert_int_equal(nth(t, 1)->num.rate.active, IBTOPO_SPEED_EDR);
}

static void width_1x_link_with_4x_disabled(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "host001 mlx5_0", 1);
	const struct ibtopo_finding *f;

	plink(t, s, 1, h, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_1X, IBSIM_SPEEDS,
	      IBTOPO_WIDTH_1X);
	f = only(t, IBTOPO_FIND_WIDTH_DOWNGRADE, IBTOPO_SEV_ERROR);
	assert_int_equal(f->cause, IBTOPO_CAUSE_PORT_CONFIG);
	assert_int_equal(f->num.rate.expected, IBTOPO_WIDTH_4X);
	assert_int_equal(f->num.rate.active, IBTOPO_WIDTH_1X);
}

/* 12x only counts where both nodes run it elsewhere. */
static void width_12x_only_where_both_nodes_use_it(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *a = node(t, IBTOPO_NODE_SWITCH, "a", 36);
	struct ibtopo_node *b = node(t, IBTOPO_NODE_SWITCH, "b", 36);
	struct ibtopo_node *c = node(t, IBTOPO_NODE_SWITCH, "c", 36);
	const struct ibtopo_finding *f;

	plink(t, a, 1, b, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_12X, IBSIM_SPEEDS, ALL_WIDTHS);
	plink(t, a, 2, b, 2, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	/* c never runs 12x: its 4x link to a is fine */
	plink(t, a, 3, c, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	f = only(t, IBTOPO_FIND_WIDTH_DOWNGRADE, IBTOPO_SEV_WARNING);
	assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PEERS);
	assert_int_equal(f->num.rate.expected, IBTOPO_WIDTH_12X);
	assert_int_equal(f->a.port, 2);
}

/* ---- peers (text dumps) ---- */

static void isl_slower_than_both_switches_other_isls(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *l1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *l2 = node(t, IBTOPO_NODE_SWITCH, "leaf02", 36);
	struct ibtopo_node *sp = node(t, IBTOPO_NODE_SWITCH, "spine01", 36);
	const struct ibtopo_finding *f;

	tlink(t, l1, 19, sp, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	tlink(t, l1, 20, sp, 2, IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	tlink(t, l2, 19, sp, 3, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	tlink(t, l2, 20, sp, 4, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	f = only(t, IBTOPO_FIND_SPEED_DOWNGRADE, IBTOPO_SEV_WARNING);
	assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PEERS);
	assert_int_equal(f->subkind, IBTOPO_PEER_SWITCHES);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_EDR);
	assert_int_equal(f->num.rate.active, IBTOPO_SPEED_FDR);
}

/* An EDR switch's only link to an FDR switch: the FDR side proves nothing. */
static void isl_to_switch_without_other_isls_is_not_flagged(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *edr = node(t, IBTOPO_NODE_SWITCH, "SwitchIB", 36);
	struct ibtopo_node *fdr = node(t, IBTOPO_NODE_SWITCH, "SX6012", 12);
	struct ibtopo_node *edr2 = node(t, IBTOPO_NODE_SWITCH, "SwitchIB-2", 36);

	tlink(t, edr, 1, edr2, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	tlink(t, edr, 3, fdr, 1, IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 0);
}

static void host_slower_than_same_model_on_same_switch(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h[4];
	const struct ibtopo_finding *f;

	for (unsigned i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "node%u", i);
		h[i] = node(t, IBTOPO_NODE_CA, name, 1);
		h[i]->vendor_id = 0x2c9;
		h[i]->device_id = i == 3 ? 0x1013 : 0x101b;
	}
	tlink(t, s, 1, h[0], 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	tlink(t, s, 2, h[1], 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	tlink(t, s, 3, h[2], 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	/*
	 * another model at EDR: not a fault; the only adapter of its model,
	 * so an EDR adapter and a bad link look alike: info, cause unknown
	 */
	tlink(t, s, 4, h[3], 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 2);
	assert_int_equal(find(t, IBTOPO_SEV_INFO, 0)->cause, IBTOPO_CAUSE_UNKNOWN);
	assert_string_equal(find(t, IBTOPO_SEV_INFO, 0)->b.node, "node3");
	f = find(t, IBTOPO_SEV_WARNING, 0);
	assert_int_equal(f->kind, IBTOPO_FIND_SPEED_DOWNGRADE);
	assert_int_equal(f->subkind, IBTOPO_PEER_HOSTS);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_HDR);
	assert_string_equal(f->b.node, "node2");
}

/*
 * tiny-mixed-speeds: a ConnectX-4 at SDR on an FDR switch (whose other
 * hosts run up to FDR) while the other ConnectX-4 runs EDR elsewhere.
 */
static void host_vs_switch_hosts_and_model_elsewhere(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *edr = node(t, IBTOPO_NODE_SWITCH, "SwitchIB", 36);
	struct ibtopo_node *fdr = node(t, IBTOPO_NODE_SWITCH, "SX6012", 12);
	struct ibtopo_node *h[4];
	static const unsigned dev[4] = { 0x1013, 0x1003, 0x673c, 0x1013 };
	const struct ibtopo_finding *f;

	for (unsigned i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "r-ufm%u HCA-1", i);
		h[i] = node(t, IBTOPO_NODE_CA, name, 1);
		h[i]->vendor_id = 0x2c9;
		h[i]->device_id = dev[i];
	}
	tlink(t, edr, 34, h[0], 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	tlink(t, fdr, 6, h[1], 1, IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	tlink(t, fdr, 2, h[2], 1, IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	tlink(t, fdr, 8, h[3], 1, IBTOPO_SPEED_SDR, IBTOPO_WIDTH_4X);
	tlink(t, edr, 3, fdr, 1, IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	run(t);
	/* the lone 0x673c at QDR: info, nothing to tell adapter from link */
	assert_int_equal(t->out.count, 2);
	f = find(t, IBTOPO_SEV_WARNING, 0);
	assert_int_equal(f->kind, IBTOPO_FIND_SPEED_DOWNGRADE);
	assert_int_equal(f->subkind, IBTOPO_PEER_MODEL);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_FDR);
	assert_int_equal(f->num.rate.active, IBTOPO_SPEED_SDR);
	assert_string_equal(f->b.node, "r-ufm3 HCA-1");
	f = find(t, IBTOPO_SEV_INFO, 0);
	assert_int_equal(f->cause, IBTOPO_CAUSE_UNKNOWN);
	assert_string_equal(f->b.node, "r-ufm2 HCA-1");
}

/*
 * x5-mixed-ddr-qdr: DDR adapters (MT26418) among QDR ones on the same
 * switches, but no MT26418 runs faster anywhere: they do what they can.
 * Not a fault (no warning), but worth knowing: info, device-limit.
 */
static void ddr_model_that_never_runs_faster(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "S-1", 36);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "S-2", 36);
	struct ibtopo_node *ddr = NULL;
	const struct ibtopo_finding *f;

	for (unsigned i = 0; i < 6; i++) {
		struct ibtopo_node *h = node(t, IBTOPO_NODE_CA,
			"MT25408 ConnectX Mellanox Technologies", 1);

		h->vendor_id = 0x2c9;
		h->device_id = i % 2 ? 0x6732 : 0x6746;
		if (i == 1)
			ddr = h;
		tlink(t, i < 3 ? s1 : s2, 1 + i, h, 1,
		      i % 2 ? IBTOPO_SPEED_DDR : IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	}
	tlink(t, s1, 20, s2, 20, IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 3);
	assert_int_equal(ibtopo_findings_max_severity(&t->out), IBTOPO_SEV_INFO);
	for (size_t i = 0; i < 3; i++) {
		f = nth(t, i);
		assert_int_equal(f->kind, IBTOPO_FIND_SPEED_DOWNGRADE);
		assert_int_equal(f->severity, IBTOPO_SEV_INFO);
		assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PEERS);
		assert_int_equal(f->cause, IBTOPO_CAUSE_DEVICE_LIMIT);
		assert_int_equal(f->subkind, IBTOPO_PEER_HOSTS);
		assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_QDR);
		assert_int_equal(f->num.rate.active, IBTOPO_SPEED_DDR);
		assert_true(f->num.rate.model_links == 3);
		assert_int_equal(f->vendor_id, 0x2c9);
		assert_int_equal(f->device_id, 0x6732);
		/* c: the adapter that limits the link */
		assert_true(f->c.guid == f->b.guid);
		assert_int_equal(f->c.port, -1);
	}
	assert_true(nth(t, 0)->b.guid == ddr->guid);
}

/* A leaf whose hosts are all DDR-only: other leaves of its model run QDR. */
static void ddr_leaf_vs_switches_of_its_model(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s[3];
	const struct ibtopo_finding *f;

	for (unsigned i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "Voltaire 4036 #%u", i);
		s[i] = node(t, IBTOPO_NODE_SWITCH, name, 36);
		s[i]->vendor_id = 0x8f1;
		s[i]->device_id = 0x5a5a;
	}
	for (unsigned i = 0; i < 4; i++) {
		struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "MT25408", 1);

		h->vendor_id = 0x2c9;
		h->device_id = i < 2 ? 0x6732 : 0x6746;
		tlink(t, s[i < 2 ? 0 : 1], 1 + i, h, 1,
		      i < 2 ? IBTOPO_SPEED_DDR : IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	}
	tlink(t, s[0], 30, s[2], 1, IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	tlink(t, s[1], 30, s[2], 2, IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 2);
	f = nth(t, 0);
	assert_int_equal(f->severity, IBTOPO_SEV_INFO);
	assert_int_equal(f->cause, IBTOPO_CAUSE_DEVICE_LIMIT);
	assert_int_equal(f->subkind, IBTOPO_PEER_SWITCH_MODEL);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_QDR);
	assert_true(f->num.rate.model_links == 2);
}

/* Without device IDs (-p dumps) each switch is a model of its own. */
static void switches_without_device_id_are_not_compared(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "leaf02", 36);

	for (unsigned i = 0; i < 4; i++) {
		struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "MT25408", 1);

		h->vendor_id = 0x2c9;
		h->device_id = i < 2 ? 0x6732 : 0x6746;
		tlink(t, i < 2 ? s1 : s2, 1 + i, h, 1,
		      i < 2 ? IBTOPO_SPEED_DDR : IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	}
	tlink(t, s1, 30, s2, 30, IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 0);
}

/*
 * tiny-mixed-speeds: the EDR switch's other inter-switch links (here to
 * another EDR switch) run EDR; the SX6012 at the other end runs nothing
 * above FDR on any of its links: the link is as fast as it can be.
 */
static void isl_to_a_switch_model_that_never_runs_faster(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *edr = node(t, IBTOPO_NODE_SWITCH, "SwitchIB", 36);
	struct ibtopo_node *edr2 = node(t, IBTOPO_NODE_SWITCH, "SwitchIB-2", 36);
	struct ibtopo_node *fdr = node(t, IBTOPO_NODE_SWITCH, "SX6012", 12);
	const struct ibtopo_finding *f;
	char buf[512];

	fdr->vendor_id = 0x2c9;
	fdr->device_id = 0xc738;
	tlink(t, edr, 1, edr2, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	tlink(t, edr, 3, fdr, 1, IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	tlink(t, fdr, 2, node(t, IBTOPO_NODE_CA, "h1 HCA-1", 1), 1,
	      IBTOPO_SPEED_FDR, IBTOPO_WIDTH_4X);
	tlink(t, fdr, 3, node(t, IBTOPO_NODE_CA, "h2 HCA-1", 1), 1,
	      IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	run(t);
	/* h2: QDR below the SX6012's FDR host, a model of one: info unknown */
	assert_int_equal(t->out.count, 2);
	f = nth(t, 0);
	assert_int_equal(f->severity, IBTOPO_SEV_INFO);
	assert_int_equal(f->cause, IBTOPO_CAUSE_DEVICE_LIMIT);
	assert_int_equal(f->subkind, IBTOPO_PEER_SWITCHES);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_EDR);
	assert_int_equal(f->num.rate.active, IBTOPO_SPEED_FDR);
	assert_true(f->c.guid == fdr->guid);
	assert_true(f->num.rate.model_links == 3);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "link runs at FDR while the other inter-switch links of 'SwitchIB' run EDR"));
	assert_non_null(strstr(buf, "switch model 0x02c9:0xc738 ('SX6012') runs at most FDR on all 3 of its links"));
	assert_int_equal(nth(t, 1)->cause, IBTOPO_CAUSE_UNKNOWN);
	assert_int_equal(nth(t, 1)->severity, IBTOPO_SEV_INFO);
}

/* plafrim2-subnet1: 'bright mlx4_0' at SDR among 22 QDR hosts. */
static void lone_slow_adapter_is_info_of_unknown_cause(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "IS5030", 36);
	const struct ibtopo_finding *f;
	struct ibtopo_link *l;
	char buf[512];

	for (unsigned i = 1; i <= 3; i++)
		tlink(t, s, i, node(t, IBTOPO_NODE_CA, "MT25408 ConnectX", 1), 1,
		      IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	l = tlink(t, s, 35, node(t, IBTOPO_NODE_CA, "bright mlx4_0", 1), 1,
		  IBTOPO_SPEED_SDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 1);
	f = nth(t, 0);
	assert_int_equal(f->severity, IBTOPO_SEV_INFO);
	assert_int_equal(f->evidence, IBTOPO_EVIDENCE_PEERS);
	assert_int_equal(f->cause, IBTOPO_CAUSE_UNKNOWN);
	assert_int_equal(f->subkind, IBTOPO_PEER_HOSTS);
	assert_int_equal(f->num.rate.expected, IBTOPO_SPEED_QDR);
	assert_int_equal(f->num.rate.active, IBTOPO_SPEED_SDR);
	assert_false(end_is_set_(&f->c));
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "link runs at SDR while the other host links on this switch run QDR; the adapter has no vendor or device ID"));
	/* an SDR-rated cable explains it: cause cable, and the cable finding */
	cable(t, l, IBTOPO_MEDIA_PASSIVE_COPPER, 2, IBTOPO_SPEED_SDR);
	run(t);
	assert_int_equal(t->out.count, 3);
	assert_int_equal(nth(t, 0)->cause, IBTOPO_CAUSE_CABLE);
	assert_int_equal(nth(t, 0)->severity, IBTOPO_SEV_INFO);
	assert_int_equal(nth(t, 1)->kind, IBTOPO_FIND_CABLE_UNDERRATED);
	assert_int_equal(nth(t, 1)->num.rate.expected, IBTOPO_SPEED_QDR);
	/* no reach row for SDR copper: said, not skipped */
	assert_int_equal(nth(t, 2)->kind, IBTOPO_FIND_CABLE_NOT_CHECKED);
}

/*
 * A dump without vendor or device IDs (plafrim2-subnet1's -p -v dump)
 * cannot say what model an adapter is: the sentence must not claim that
 * no other adapter of its model is in the fabric. With IDs it may.
 */
static void slow_adapter_without_ids_claims_no_model(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "IS5030", 36);
	struct ibtopo_node *h;
	char buf[512];

	for (unsigned i = 1; i <= 3; i++)
		tlink(t, s, i, node(t, IBTOPO_NODE_CA, "MT25408 ConnectX", 1), 1,
		      IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
	h = node(t, IBTOPO_NODE_CA, "bright mlx4_0", 1);
	tlink(t, s, 35, h, 1, IBTOPO_SPEED_SDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 1);
	ibtopo_finding_message(buf, sizeof(buf), nth(t, 0));
	assert_null(strstr(buf, "no other adapter of its model"));
	assert_non_null(strstr(buf, "no vendor or device ID"));
	assert_non_null(strstr(buf, "check the adapter's top speed"));
	/* with the adapter's IDs, a model of one is a fact */
	h->vendor_id = 0x2c9;
	h->device_id = 0x673c;
	run(t);
	assert_int_equal(t->out.count, 1);
	ibtopo_finding_message(buf, sizeof(buf), nth(t, 0));
	assert_non_null(strstr(buf, "no other adapter of its model (0x02c9:0x673c)"));
}

/* Hosts at QDR and inter-switch links at FDR10 are different classes. */
static void hosts_and_isls_are_not_compared(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "ib5", 36);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "ib8", 36);

	for (unsigned i = 1; i <= 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "stage%u mlx4_0", i);
		tlink(t, s1, i, node(t, IBTOPO_NODE_CA, name, 1), 1,
		      IBTOPO_SPEED_QDR, IBTOPO_WIDTH_4X);
		tlink(t, s1, 20 + i, s2, i, IBTOPO_SPEED_FDR10, IBTOPO_WIDTH_4X);
	}
	run(t);
	assert_int_equal(t->out.count, 0);
}

static void adapter_model_from_description(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *a = node(t, IBTOPO_NODE_CA, "host1 mlx5_0", 1);
	struct ibtopo_node *b = node(t, IBTOPO_NODE_CA, "host2 mlx5_3", 1);
	struct ibtopo_node *c = node(t, IBTOPO_NODE_CA, "host3 mlx4_0", 1);
	struct ibtopo_node *d = node(t, IBTOPO_NODE_CA, "o0001 HCA-1", 1);
	struct ibtopo_node *e = node(t, IBTOPO_NODE_CA, "o0002 HCA-1", 1);
	struct ibtopo_node *x = node(t, IBTOPO_NODE_CA, "", 1);

	assert_true(ibtopo__adapter_model(a) == ibtopo__adapter_model(b));
	assert_true(ibtopo__adapter_model(a) != ibtopo__adapter_model(c));
	assert_true(ibtopo__adapter_model(d) != ibtopo__adapter_model(e));
	assert_true(ibtopo__adapter_model(x) == 0);
	a->device_id = 0x101b;
	assert_true(ibtopo__adapter_model(a) != ibtopo__adapter_model(b));
}

static void host_1x_among_4x_peers(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);

	tlink(t, s, 1, node(t, IBTOPO_NODE_CA, "h1 mlx5_0", 1), 1,
	      IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	tlink(t, s, 2, node(t, IBTOPO_NODE_CA, "h2 mlx5_0", 1), 1,
	      IBTOPO_SPEED_HDR, IBTOPO_WIDTH_1X);
	run(t);
	assert_int_equal(t->out.count, 1);
	assert_int_equal(nth(t, 0)->kind, IBTOPO_FIND_WIDTH_DOWNGRADE);
	assert_int_equal(nth(t, 0)->evidence, IBTOPO_EVIDENCE_PEERS);
	assert_int_equal(nth(t, 0)->num.rate.expected, IBTOPO_WIDTH_4X);
}

/* ---- cables ---- */

static void hdr_aoc_over_30m(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 40);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "spine01", 40);
	struct ibtopo_link *l30, *l45, *edr45;
	const struct ibtopo_finding *f;

	l30 = plink(t, s1, 1, s2, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	l45 = plink(t, s1, 2, s2, 2, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	edr45 = plink(t, s1, 3, s2, 3, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X,
		      IBSIM_SPEEDS & ~IBTOPO_SPEED_HDR, ALL_WIDTHS);
	cable(t, l30, IBTOPO_MEDIA_AOC, 30, IBTOPO_SPEED_HDR);
	cable(t, l45, IBTOPO_MEDIA_AOC, 45, IBTOPO_SPEED_HDR);
	cable(t, edr45, IBTOPO_MEDIA_AOC, 45, IBTOPO_SPEED_HDR);
	run(t);
	/* the EDR link: its downgrade only (no reach row for EDR) */
	assert_int_equal(t->out.count, 2);
	f = nth(t, 0);
	assert_int_equal(f->kind, IBTOPO_FIND_CABLE_OVER_LENGTH);
	assert_int_equal(f->severity, IBTOPO_SEV_ERROR);
	assert_true(f->num.reach.length_m == 45);
	assert_true(f->num.reach.reach_m == 30);
	assert_int_equal(f->subkind, IBTOPO_MEDIA_AOC);
	assert_int_equal(f->a.port, 2);
	assert_int_equal(nth(t, 1)->kind, IBTOPO_FIND_SPEED_DOWNGRADE);
}

/* A 3 m copper cable rated NDR holds HDR; one rated HDR does not. */
static void reach_up_to_the_cables_rating(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 40);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "spine01", 40);
	struct ibtopo_link *ndr, *hdr;

	ndr = plink(t, s1, 1, s2, 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	hdr = plink(t, s1, 2, s2, 2, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X, IBSIM_SPEEDS, ALL_WIDTHS);
	cable(t, ndr, IBTOPO_MEDIA_PASSIVE_COPPER, 3, IBTOPO_SPEED_NDR);
	cable(t, hdr, IBTOPO_MEDIA_PASSIVE_COPPER, 3, IBTOPO_SPEED_HDR);
	run(t);
	assert_int_equal(t->out.count, 1);
	assert_int_equal(nth(t, 0)->kind, IBTOPO_FIND_CABLE_OVER_LENGTH);
	assert_int_equal(nth(t, 0)->a.port, 2);
	assert_true(nth(t, 0)->num.reach.reach_m == 2);
}

/* data/cable-reach.tsv has EDR, FDR and QDR rows for copper and AOC. */
static void edr_fdr_qdr_cables_are_checked_against_reach(void **state)
{
	struct t *t = *state;
	static const struct {
		unsigned speed;
		enum ibtopo_media media;
		double length, reach;
	} c[] = {
		{ IBTOPO_SPEED_EDR, IBTOPO_MEDIA_PASSIVE_COPPER, 6, 5 },
		{ IBTOPO_SPEED_EDR, IBTOPO_MEDIA_AOC, 120, 100 },
		{ IBTOPO_SPEED_FDR, IBTOPO_MEDIA_PASSIVE_COPPER, 4, 3 },
		{ IBTOPO_SPEED_FDR, IBTOPO_MEDIA_AOC, 110, 100 },
		{ IBTOPO_SPEED_QDR, IBTOPO_MEDIA_PASSIVE_COPPER, 8, 7 },
		{ IBTOPO_SPEED_QDR, IBTOPO_MEDIA_AOC, 150, 100 },
	};

	struct ibtopo_node *s1, *s2;

	/* one pair of switches per speed: no peers to compare */
	for (unsigned i = 0; i < IBTOPO__ARRAY_SIZE(c); i++) {
		s1 = node(t, IBTOPO_NODE_SWITCH, "leaf", 40);
		s2 = node(t, IBTOPO_NODE_SWITCH, "spine", 40);
		cable(t, tlink(t, s1, 1 + i, s2, 1 + i, c[i].speed,
			       IBTOPO_WIDTH_4X),
		      c[i].media, c[i].length, c[i].speed);
	}
	/* and within reach: nothing */
	s1 = node(t, IBTOPO_NODE_SWITCH, "leaf", 40);
	s2 = node(t, IBTOPO_NODE_SWITCH, "spine", 40);
	cable(t, tlink(t, s1, 10, s2, 10, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X),
	      IBTOPO_MEDIA_PASSIVE_COPPER, 5, IBTOPO_SPEED_EDR);
	run(t);
	assert_int_equal(t->out.count, IBTOPO__ARRAY_SIZE(c));
	for (unsigned i = 0; i < IBTOPO__ARRAY_SIZE(c); i++) {
		assert_int_equal(nth(t, i)->kind, IBTOPO_FIND_CABLE_OVER_LENGTH);
		assert_int_equal(nth(t, i)->a.port, (int)(1 + i));
		assert_true(nth(t, i)->num.reach.reach_m == c[i].reach);
	}
}

/* No reach row for the link's speed and media: info, not silence. */
static void cable_without_reach_row_is_not_checked_info(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 40);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "spine01", 40);
	const struct ibtopo_finding *f;
	char buf[512];

	cable(t, tlink(t, s1, 1, s2, 1, IBTOPO_SPEED_DDR, IBTOPO_WIDTH_4X),
	      IBTOPO_MEDIA_PASSIVE_COPPER, 12, IBTOPO_SPEED_DDR);
	/* no length, or no media: nothing to check, nothing said */
	cable(t, tlink(t, s1, 2, s2, 2, IBTOPO_SPEED_DDR, IBTOPO_WIDTH_4X),
	      IBTOPO_MEDIA_PASSIVE_COPPER, 0, IBTOPO_SPEED_DDR);
	cable(t, tlink(t, s1, 3, s2, 3, IBTOPO_SPEED_DDR, IBTOPO_WIDTH_4X),
	      IBTOPO_MEDIA_UNKNOWN, 12, IBTOPO_SPEED_DDR);
	f = only(t, IBTOPO_FIND_CABLE_NOT_CHECKED, IBTOPO_SEV_INFO);
	assert_int_equal(f->a.port, 1);
	assert_int_equal(f->num.unchecked.active_speed, IBTOPO_SPEED_DDR);
	assert_int_equal(f->subkind, IBTOPO_MEDIA_PASSIVE_COPPER);
	assert_string_equal(ibtopo_finding_kind_name(f->kind), "cable-not-checked");
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "12 m"));
	assert_non_null(strstr(buf, "not checked"));
	assert_non_null(strstr(buf, "DDR"));
}

/* ---- port states ---- */

static void set_state(struct ibtopo_link *l, unsigned sa, unsigned pa,
		      unsigned sb, unsigned pb)
{
	l->a->state = (uint8_t)sa;
	l->a->phys_state = (uint8_t)pa;
	l->b->state = (uint8_t)sb;
	l->b->phys_state = (uint8_t)pb;
}

#define LINKUP 5
#define POLLING 2

/* One link, its ends' MTU and VLs set (IBA codes); 0 = unknown. */
static struct ibtopo_link *caps_link(struct t *t, unsigned i,
				     const uint8_t a[4], const uint8_t b[4])
{
	struct ibtopo_node *sw = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_link *l;
	char name[32];

	snprintf(name, sizeof(name), "h%u mlx5_0", i);
	l = tlink(t, sw, 1 + i, node(t, IBTOPO_NODE_CA, name, 1), 1,
		  IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	/* a is the end of the lower GUID: the switch, made first */
	l->a->mtu_cap = a[0];
	l->a->neighbor_mtu = a[1];
	l->a->vl_cap = a[2];
	l->a->oper_vls = a[3];
	l->b->mtu_cap = b[0];
	l->b->neighbor_mtu = b[1];
	l->b->vl_cap = b[2];
	l->b->oper_vls = b[3];
	return l;
}

/*
 * NeighborMTU and OperVLs against the smaller capability of the two ends:
 * above it an error, below it a warning; equal, or unknown, nothing.
 */
static void mtu_and_vls_against_both_ends_caps(void **state)
{
	struct t *t = *state;
	const struct ibtopo_finding *f;
	char buf[600];

	/* 4096-capable switch, 2048-capable CA: both at 2048, VL0-7 */
	caps_link(t, 1, (const uint8_t[]){ 5, 4, 4, 4 },
		  (const uint8_t[]){ 4, 4, 4, 4 });
	/* unknown at one end */
	caps_link(t, 2, (const uint8_t[]){ 5, 5, 4, 4 },
		  (const uint8_t[]){ 0, 0, 0, 0 });
	run(t);
	assert_int_equal(t->out.count, 0);
	/* the switch sends 4096 to a 2048 CA */
	caps_link(t, 3, (const uint8_t[]){ 5, 5, 4, 4 },
		  (const uint8_t[]){ 4, 4, 4, 4 });
	f = only(t, IBTOPO_FIND_MTU_MISMATCH, IBTOPO_SEV_ERROR);
	assert_int_equal(f->subkind, IBTOPO_LINK_CAP_ABOVE);
	assert_int_equal(f->num.link_cap.cap, 4);
	assert_int_equal(f->num.link_cap.set_a, 5);
	assert_int_equal(f->num.link_cap.set_b, 4);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "NeighborMTU is 4096 at 'leaf01'"));
	assert_non_null(strstr(buf, "smaller MTUCap of the two ports is 2048"));
}

static void vls_below_both_ends_caps_warn(void **state)
{
	struct t *t = *state;
	const struct ibtopo_finding *f;

	caps_link(t, 1, (const uint8_t[]){ 4, 4, 5, 2 },
		  (const uint8_t[]){ 4, 4, 4, 4 });
	f = only(t, IBTOPO_FIND_VL_MISMATCH, IBTOPO_SEV_WARNING);
	assert_int_equal(f->subkind, IBTOPO_LINK_CAP_BELOW);
	assert_int_equal(f->num.link_cap.cap, 4);
	assert_int_equal(f->num.link_cap.set_a, 2);
	assert_int_equal(f->num.link_cap.set_b, 4);
}

/* Linked ports Init, Armed, or polling their peer carry no traffic. */
static void linked_ports_not_active_are_errors(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_link *l[5];
	char buf[512];

	for (unsigned i = 0; i < 5; i++) {
		char name[32];

		snprintf(name, sizeof(name), "h%u mlx5_0", i + 1);
		l[i] = tlink(t, s, 1 + i, node(t, IBTOPO_NODE_CA, name, 1), 1,
			     IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	}
	set_state(l[0], IBTOPO_PORT_STATE_ACTIVE, LINKUP,
		  IBTOPO_PORT_STATE_ACTIVE, LINKUP);
	set_state(l[1], IBTOPO_PORT_STATE_INIT, LINKUP,
		  IBTOPO_PORT_STATE_INIT, LINKUP);
	set_state(l[2], IBTOPO_PORT_STATE_ACTIVE, LINKUP,
		  IBTOPO_PORT_STATE_ARMED, LINKUP);
	set_state(l[3], IBTOPO_PORT_STATE_DOWN, POLLING,
		  IBTOPO_PORT_STATE_DOWN, POLLING);
	set_state(l[4], IBTOPO_PORT_STATE_ACTIVE, LINKUP,
		  IBTOPO_PORT_STATE_ACTIVE, LINKUP);
	run(t);
	assert_int_equal(t->out.count, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(nth(t, i)->kind, IBTOPO_FIND_PORT_NOT_ACTIVE);
		assert_int_equal(nth(t, i)->severity, IBTOPO_SEV_ERROR);
		assert_int_equal(nth(t, i)->subkind, IBTOPO_PORT_LINK_NOT_ACTIVE);
		assert_int_equal(nth(t, i)->a.port, (int)(2 + i));
		/* the count: 3 such links in the fabric */
		assert_int_equal(nth(t, i)->num.ports.links, 3);
	}
	assert_string_equal(ibtopo_finding_kind_name(IBTOPO_FIND_PORT_NOT_ACTIVE),
			    "port-not-active");
	ibtopo_finding_message(buf, sizeof(buf), nth(t, 0));
	assert_non_null(strstr(buf, "Init"));
	assert_non_null(strstr(buf, "subnet manager"));
	ibtopo_finding_message(buf, sizeof(buf), nth(t, 1));
	assert_non_null(strstr(buf, "'h3 mlx5_0' port 1 is Armed"));
	assert_null(strstr(buf, "'leaf01' port 3 is"));
	ibtopo_finding_message(buf, sizeof(buf), nth(t, 2));
	assert_non_null(strstr(buf, "Polling"));
	assert_non_null(strstr(buf, "reseat"));
}

/* Before a subnet manager runs every port is Init: one finding. */
static void fabric_without_subnet_manager_is_one_finding(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	const struct ibtopo_finding *f;
	char buf[512];

	for (unsigned i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "h%u mlx5_0", i + 1);
		set_state(tlink(t, s, 1 + i, node(t, IBTOPO_NODE_CA, name, 1), 1,
				IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X),
			  IBTOPO_PORT_STATE_INIT, LINKUP,
			  IBTOPO_PORT_STATE_INIT, LINKUP);
	}
	f = only(t, IBTOPO_FIND_PORT_NOT_ACTIVE, IBTOPO_SEV_ERROR);
	assert_int_equal(f->subkind, IBTOPO_PORT_NO_SUBNET_MANAGER);
	assert_int_equal(f->num.ports.links, 4);
	assert_null(f->a.node);
	ibtopo_finding_message(buf, sizeof(buf), f);
	assert_non_null(strstr(buf, "no subnet manager has configured this fabric"));
	assert_non_null(strstr(buf, "all 4 links"));
	assert_non_null(strstr(buf, "start a subnet manager"));
}

static void loopback_on_one_switch(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *s = node(t, IBTOPO_NODE_SWITCH, "SwitchIB", 36);

	tlink(t, s, 1, s, 2, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 1);
	assert_int_equal(nth(t, 0)->kind, IBTOPO_FIND_LOOPBACK_CABLE);
	assert_int_equal(nth(t, 0)->severity, IBTOPO_SEV_WARNING);
}

static void custom_reach_table_and_its_errors(void **state)
{
	struct t *t = *state;
	struct ibtopo_check_opts o = IBTOPO_CHECK_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_node *s1 = node(t, IBTOPO_NODE_SWITCH, "leaf01", 40);
	struct ibtopo_node *s2 = node(t, IBTOPO_NODE_SWITCH, "spine01", 40);
	char path[] = "/tmp/test_checks_reachXXXXXX";
	struct ibtopo_link *l;
	FILE *fp;
	int fd;

	/* a text dump's EDR link: no supported sets, no peers */
	l = tlink(t, s1, 1, s2, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	cable(t, l, IBTOPO_MEDIA_AOC, 45, IBTOPO_SPEED_EDR);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("speed\tmedia\tmax_m\tsource\nEDR\taoc\t40\tsite test\n", fp);
	fclose(fp);
	o.reach_path = path;
	ibtopo_fabric_sort(t->f);
	assert_int_equal(ibtopo_check_links(&t->out, t->f, &o, &err), 0);
	assert_int_equal(t->out.count, 1);
	assert_int_equal(nth(t, 0)->kind, IBTOPO_FIND_CABLE_OVER_LENGTH);
	assert_true(nth(t, 0)->num.reach.reach_m == 40);
	/* the built-in table: EDR AOCs reach 100 m */
	ibtopo_findings_release(&t->out);
	assert_int_equal(ibtopo_check_links(&t->out, t->f, NULL, &err), 0);
	assert_int_equal(t->out.count, 0);

	o.reach_path = "/nonexistent/reach.tsv";
	assert_int_equal(ibtopo_check_links(&t->out, t->f, &o, &err), IBTOPO_EIO);
	assert_non_null(strstr(err.message, "/nonexistent/reach.tsv"));
	unlink(path);
}

/* ---- words ---- */

static void every_kind_has_a_sentence(void **state)
{
	char buf[512];

	(void)state;
	for (int k = 1; k < IBTOPO_FIND_KIND_MAX_; k++) {
		struct ibtopo_finding f = { .kind = (enum ibtopo_finding_kind)k,
			.num.rate = { .expected = IBTOPO_SPEED_HDR,
				      .active = IBTOPO_SPEED_EDR },
			.a = { "leaf01", 1, 3 }, .b = { "host001", 2, 1 },
			.c = { "leaf02", 3, 4 }, .d = { "host002", 4, 1 } };
		int n = ibtopo_finding_message(buf, sizeof(buf), &f);

		assert_true(n > 10);
		assert_true((size_t)n < sizeof(buf));
		assert_null(strchr(buf, '%'));
		assert_null(strstr(buf, "(null)"));
		assert_string_not_equal(buf, ibtopo_finding_kind_name(f.kind));
	}
	assert_int_equal(ibtopo_finding_message(buf, sizeof(buf), NULL), IBTOPO_EINVAL);
	/* the info speed-downgrades, every subkind and cause */
	for (int sub = IBTOPO_PEER_SWITCHES; sub <= IBTOPO_PEER_SWITCH_MODEL; sub++)
		for (int dl = 0; dl < 3; dl++) {
			struct ibtopo_finding f = {
				.kind = IBTOPO_FIND_SPEED_DOWNGRADE,
				.severity = IBTOPO_SEV_INFO,
				.evidence = IBTOPO_EVIDENCE_PEERS, .subkind = sub,
				.cause = dl == 1 ? IBTOPO_CAUSE_DEVICE_LIMIT :
					 dl == 2 ? IBTOPO_CAUSE_CABLE :
						   IBTOPO_CAUSE_UNKNOWN,
				.num.rate = { .expected = IBTOPO_SPEED_QDR,
					      .active = IBTOPO_SPEED_DDR,
					      .model_links = dl == 1 ? 23 : 0 },
				.vendor_id = 0x2c9, .device_id = dl == 1 ? 0x6732 : 0,
				.a = { "leaf01", 1, 3 }, .b = { "host001", 2, 1 },
				.c = { "host001", 2, -1 }, .d = { NULL, 0, -1 } };
			int n = ibtopo_finding_message(buf, sizeof(buf), &f);

			assert_true(n > 10 && (size_t)n < sizeof(buf));
			assert_null(strchr(buf, '%'));
			assert_null(strstr(buf, "(null)"));
			assert_non_null(strstr(buf, "link runs at DDR while "));
			if (dl == 1 && sub != IBTOPO_PEER_SWITCHES)
				assert_non_null(strstr(buf, "; adapter model 0x02c9:0x6732 runs at most DDR on all 23 of its links in this fabric, so the adapter is likely limited to DDR: replace it to reach QDR"));
		}
}

static void render(struct t *t, enum ibtopo_format fmt, struct ibtopo_buffer *s)
{
	struct ibtopo_sink o = test_sink(s, fmt);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	ibtopo_buffer_release(s);
	assert_int_equal(ibtopo_report_findings(&o, NULL, &t->out, &err), 0);
}

static void findings_in_three_formats(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *sw = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_node *h = node(t, IBTOPO_NODE_CA, "host001 mlx5_0", 1);
	struct ibtopo_link *l;
	struct ibtopo_buffer s = { 0 };

	l = plink(t, sw, 1, h, 1, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X,
		  IBSIM_SPEEDS, ALL_WIDTHS);
	cable(t, l, IBTOPO_MEDIA_AOC, 3, IBTOPO_SPEED_EDR);
	tlink(t, sw, 2, sw, 3, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	run(t);
	assert_int_equal(t->out.count, 3);

	render(t, IBTOPO_FORMAT_JSON, &s);
	assert_non_null(strstr(s.text, "{\"schema_version\":2,\"findings\":[{\"kind\":\"speed-downgrade\",\"severity\":\"error\",\"a\":{\"node\":\"leaf01\",\"guid\":\"0x0000000000001000\",\"port\":1},\"b\":{\"node\":\"host001 mlx5_0\",\"guid\":\"0x0000000000001001\",\"port\":1},\"message\":"));
	assert_non_null(strstr(s.text, "\"active\":\"EDR\",\"expected\":\"HDR\",\"evidence\":\"port-info\",\"cause\":\"cable\"}"));
	assert_non_null(strstr(s.text, "\"kind\":\"cable-underrated\""));
	assert_non_null(strstr(s.text, "\"expected\":\"HDR\",\"rated_speed\":\"EDR\""));
	assert_null(strstr(s.text, "\"c\":"));

	render(t, IBTOPO_FORMAT_CSV, &s);
	assert_true(strncmp(s.text, "kind,severity,a.node,a.guid,a.port,b.node,b.guid,b.port,c.node,c.guid,c.port,d.node,d.guid,d.port,message,active,expected,rated_speed,old,new,links,paths,min_paths,evidence,cause,media,length_m,reach_m,detail\r\n", 200) == 0);
	assert_non_null(strstr(s.text, "\r\nspeed-downgrade,error,leaf01,0x0000000000001000,1,"));

	render(t, IBTOPO_FORMAT_TEXT, &s);
	assert_non_null(strstr(s.text, "errors (1)\n"));
	assert_non_null(strstr(s.text, "\nwarnings (2)\n"));
	assert_true(strstr(s.text, "errors (1)") < strstr(s.text, "warnings (2)"));
	assert_non_null(strstr(s.text, "leaf01 [1]"));

	ibtopo_findings_release(&t->out);
	render(t, IBTOPO_FORMAT_TEXT, &s);
	assert_string_equal(s.text, "no findings\n");
	render(t, IBTOPO_FORMAT_JSON, &s);
	assert_string_equal(s.text, "{\"schema_version\":2,\"findings\":[]}\n");
	ibtopo_buffer_release(&s);
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * x5: 89 CAs are all "MT25408 ConnectX Mellanox Technologies": the text
 * table adds their GUIDs, and shows 5 of many findings alike.
 */
static void text_tells_alike_nodes_apart_and_folds_many(void **state)
{
	struct t *t = *state;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer s = { 0 };

	for (unsigned i = 1; i <= 12; i++) {
		struct ibtopo_finding f = { .kind = IBTOPO_FIND_LINK_ADDED,
			.severity = IBTOPO_SEV_INFO,
			.a = { "MT25408 ConnectX", i, 1 },
			.b = { "leaf01", 0x99, (int)i },
			.c = { NULL, 0, -1 }, .d = { NULL, 0, -1 } };

		assert_int_equal(ibtopo_findings_add(&t->out, &f, &err), 0);
		if (i == 10) {
			render(t, IBTOPO_FORMAT_TEXT, &s);
			assert_int_equal(count_str(s.text, "\nlink-added "), 10);
			assert_null(strstr(s.text, "more"));
		}
	}
	render(t, IBTOPO_FORMAT_TEXT, &s);
	assert_non_null(strstr(s.text, "info (12)\n"));
	assert_non_null(strstr(s.text, "MT25408 ConnectX (0x0000000000000001) [1]"));
	assert_non_null(strstr(s.text, "MT25408 ConnectX (0x0000000000000005) [1]"));
	assert_null(strstr(s.text, "(0x0000000000000006)"));
	/* one leaf01: no GUID */
	assert_non_null(strstr(s.text, "  leaf01 [1] "));
	assert_null(strstr(s.text, "0x0000000000000099"));
	assert_int_equal(count_str(s.text, "\nlink-added "), 5);
	assert_non_null(strstr(s.text, "\n... and 7 more link-added findings (see --format json)\n"));
	render(t, IBTOPO_FORMAT_JSON, &s);
	assert_int_equal(count_str(s.text, "\"kind\":\"link-added\""), 12);
	render(t, IBTOPO_FORMAT_CSV, &s);
	assert_int_equal(count_str(s.text, "\nlink-added,"), 12);
	ibtopo_buffer_release(&s);
}

static void analysis_is_one_json_object(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *sw = node(t, IBTOPO_NODE_SWITCH, "leaf01", 36);
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_buffer s = { 0 };
	struct ibtopo_sink o = test_sink(&s, IBTOPO_FORMAT_JSON);
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	tlink(t, sw, 1, sw, 2, IBTOPO_SPEED_EDR, IBTOPO_WIDTH_4X);
	run(t);
	/* the link checks alone, whose findings run() made */
	ao.flags = IBTOPO_ANALYZE_NO_TOPOLOGY | IBTOPO_ANALYZE_NO_HEALTH |
		   IBTOPO_ANALYZE_NO_ROUTES;
	assert_int_equal(ibtopo_analysis_new(&an, t->f, &ao, &err), 0);
	assert_int_equal(ibtopo_report_analysis(&o, an, &err), 0);
	ibtopo_analysis_free(an);
	assert_non_null(strstr(s.text, "{\"schema_version\":2,\"snapshot\":{\"id\":null,\"label\":null,\"source\":null,\"switches\":1,\"cas\":0,\"routers\":0,\"links\":1,\"cables\":0,\"partial\":false,\"partial_reason\":null,\"counters_unread\":0},\"findings\":[{\"kind\":\"loopback-cable\""));
	assert_int_equal(s.text[s.len - 1], '\n');
	ibtopo_buffer_release(&s);
}

/* The partition checks alone over t's fabric: their finding count. */
static size_t pkey_findings(struct t *t)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	ibtopo_findings_release(&t->out);
	memset(&t->out, 0, sizeof(t->out));
	assert_int_equal(ibtopo__check_pkeys(&t->out, t->f, &err), 0);
	return t->out.count;
}

static void set_keys(struct ibtopo_port *p, uint16_t a, uint16_t b,
		     unsigned enforce)
{
	uint16_t k[2] = { a, b };

	assert_int_equal(ibtopo_port_set_pkeys(p, k, 2, enforce, NULL), 0);
}

/*
 * Three hosts on one leaf: nothing without tables; the minority of a
 * PKey held both ways (the limited ones on a tie); an enforcing switch
 * port that lacks a host's PKey; the default partition without a full
 * member, unless the master SM runs on a switch (whose table is not
 * read); a partition of limited members only.
 */
static void partitions_as_ibdiagnet_checks_them(void **state)
{
	struct t *t = *state;
	struct ibtopo_node *sw = node(t, IBTOPO_NODE_SWITCH, "leaf01", 8);
	struct ibtopo_node *h[3];
	struct ibtopo_sm sm = { .node_guid = sw->guid, .port = 0,
				.answered = true, .state = IBTOPO_SM_MASTER };
	const struct ibtopo_finding *f;

	h[0] = node(t, IBTOPO_NODE_CA, "h1", 1);
	h[1] = node(t, IBTOPO_NODE_CA, "h2", 1);
	h[2] = node(t, IBTOPO_NODE_CA, "h3", 1);
	for (unsigned i = 0; i < 3; i++)
		tlink(t, sw, i + 1, h[i], 1, IBTOPO_SPEED_HDR, IBTOPO_WIDTH_4X);
	assert_int_equal(pkey_findings(t), 0);
	for (unsigned i = 0; i < 3; i++)
		set_keys(h[i]->ports[1], 0xffff, 0x8101, 0);
	assert_int_equal(pkey_findings(t), 0);
	/* h3 limited, the two others full: h3 */
	set_keys(h[2]->ports[1], 0xffff, 0x0101, 0);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_int_equal(f->kind, IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED);
	assert_string_equal(f->a.node, "h3");
	assert_int_equal(f->subkind, IBTOPO_PKEY_MIXED_LIMITED);
	/* h1 and h2 limited, h3 full: h3 again, the other way */
	set_keys(h[0]->ports[1], 0xffff, 0x0101, 0);
	set_keys(h[1]->ports[1], 0xffff, 0x0101, 0);
	set_keys(h[2]->ports[1], 0xffff, 0x8101, 0);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_string_equal(f->a.node, "h3");
	assert_int_equal(f->subkind, IBTOPO_PKEY_MIXED_FULL);
	/* all limited: no full member in 0x0101 */
	set_keys(h[2]->ports[1], 0xffff, 0x0101, 0);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_int_equal(f->kind, IBTOPO_FIND_PKEY_NO_FULL_MEMBER);
	assert_int_equal(f->subkind, IBTOPO_PKEY_NOFULL_PARTITION);
	assert_int_equal(f->num.pkey.ports, 3);
	/* the default partition limited everywhere */
	for (unsigned i = 0; i < 3; i++)
		set_keys(h[i]->ports[1], 0x7fff, 0x8101, 0);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_int_equal(f->subkind, IBTOPO_PKEY_NOFULL_DEFAULT);
	/* ... which an SM on the switch may be a full member of */
	assert_int_equal(ibtopo_fabric_add_sm(t->f, &sm, NULL), 0);
	assert_int_equal(pkey_findings(t), 0);
	/* h2's switch port enforces, without 0x0101, then with it limited */
	set_keys(sw->ports[2], 0x7fff, 0x0202, IBTOPO_PKEY_ENFORCE_IN);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_int_equal(f->kind, IBTOPO_FIND_PKEY_SWITCH_DROP);
	assert_string_equal(f->a.node, "h2");
	assert_int_equal(f->b.port, 2);
	assert_int_equal(f->subkind, IBTOPO_PKEY_DROP_MISSING);
	set_keys(sw->ports[2], 0x7fff, 0x0101, IBTOPO_PKEY_ENFORCE_IN);
	assert_int_equal(pkey_findings(t), 1);
	f = &t->out.items[0];
	assert_int_equal(f->subkind, IBTOPO_PKEY_DROP_LIMITED);
	assert_int_equal(f->severity, IBTOPO_SEV_WARNING);
	/* not enforcing: its table decides nothing */
	set_keys(sw->ports[2], 0x7fff, 0x0202, 0);
	assert_int_equal(pkey_findings(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(clean_sim_fabric_gives_nothing),
		T(partitions_as_ibdiagnet_checks_them),
		T(speed_edr_link_between_hdr_ports_port_config),
		T(speed_downgrade_with_everything_enabled_is_unknown),
		T(speed_edr_cable_on_hdr_ports_names_the_cable),
		T(width_1x_link_with_4x_disabled),
		T(width_12x_only_where_both_nodes_use_it),
		T(isl_slower_than_both_switches_other_isls),
		T(isl_to_switch_without_other_isls_is_not_flagged),
		T(host_slower_than_same_model_on_same_switch),
		T(host_vs_switch_hosts_and_model_elsewhere),
		T(ddr_model_that_never_runs_faster),
		T(ddr_leaf_vs_switches_of_its_model),
		T(switches_without_device_id_are_not_compared),
		T(isl_to_a_switch_model_that_never_runs_faster),
		T(lone_slow_adapter_is_info_of_unknown_cause),
		T(slow_adapter_without_ids_claims_no_model),
		T(hosts_and_isls_are_not_compared),
		T(adapter_model_from_description),
		T(host_1x_among_4x_peers),
		T(hdr_aoc_over_30m),
		T(reach_up_to_the_cables_rating),
		T(edr_fdr_qdr_cables_are_checked_against_reach),
		T(cable_without_reach_row_is_not_checked_info),
		T(linked_ports_not_active_are_errors),
		T(mtu_and_vls_against_both_ends_caps),
		T(vls_below_both_ends_caps_warn),
		T(fabric_without_subnet_manager_is_one_finding),
		T(loopback_on_one_switch),
		T(custom_reach_table_and_its_errors),
		T(every_kind_has_a_sentence),
		T(findings_in_three_formats),
		T(text_tells_alike_nodes_apart_and_folds_many),
		T(analysis_is_one_json_object),
#undef T
	};

	return cmocka_run_group_tests_name("checks", tests, NULL, NULL);
}
