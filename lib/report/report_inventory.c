/* report_inventory.c - inventory reports (nodes, ports, links, snapshots) */
#include "report/report-int.h"
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

static void set_list(struct ibtopo__cell *c, unsigned mask, bool speed)
{
	static const unsigned wo[] = { IBTOPO_WIDTH_1X, IBTOPO_WIDTH_2X,
		IBTOPO_WIDTH_4X, IBTOPO_WIDTH_8X, IBTOPO_WIDTH_12X };

	if (!mask)
		return;		/* unknown stays null */
	c->type = IBTOPO__STRLIST;
	if (speed) {
		for (unsigned bit = 1; bit <= IBTOPO_SPEED_ALL; bit <<= 1)
			if ((mask & bit) && c->n < IBTOPO__STRLIST_MAX)
				c->sv[c->n++] = ibtopo_speed_name(bit);
	} else {
		for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(wo); i++)
			if (mask & wo[i])
				c->sv[c->n++] = ibtopo_width_name(wo[i]);
	}
}

static void set_speed(struct ibtopo__cell *c, unsigned bit)
{
	if (bit)
		ibtopo__cell_str(c, ibtopo_speed_name(bit));
}

static void set_width(struct ibtopo__cell *c, unsigned bit)
{
	if (bit)
		ibtopo__cell_str(c, ibtopo_width_name(bit));
}

/* ---- nodes ---- */

#define NODE(r) ((const struct ibtopo_node *)(r))

static void n_type(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, ibtopo_node_type_name(NODE(r)->type));
}
static void n_guid(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, NODE(r)->guid);
}
static void n_desc(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, NODE(r)->desc);
}
static void n_sysimg(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, NODE(r)->sysimg_guid);
}
static void n_ports(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, NODE(r)->nports);
}
static void n_vendor(const void *r, void *x, struct ibtopo__cell *c)
{
	if (NODE(r)->vendor_id)
		ibtopo__cell_int(c, NODE(r)->vendor_id);
}
static void n_device(const void *r, void *x, struct ibtopo__cell *c)
{
	if (NODE(r)->device_id)
		ibtopo__cell_int(c, NODE(r)->device_id);
}
static void n_lid(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_node *n = NODE(r);

	/* A switch is addressed through port 0; a CA per port: show the first. */
	for (unsigned i = 0; i <= n->nports; i++) {
		if (n->ports[i] && n->ports[i]->lid) {
			ibtopo__cell_int(c, n->ports[i]->lid);
			return;
		}
	}
}
static void n_links(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_node *n = NODE(r);
	int64_t k = 0;

	for (unsigned i = 1; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->remote)
			k++;
	ibtopo__cell_int(c, k);
}

static const struct ibtopo__column node_cols[] = {
	{ "type", "TYPE", n_type },
	{ "guid", "GUID", n_guid },
	{ "description", "DESCRIPTION", n_desc },
	{ "ports", "PORTS", n_ports },
	{ "links", "LINKS", n_links },
	{ "lid", "LID", n_lid },
	{ "system_image_guid", "SYSIMG GUID", n_sysimg },
	{ "vendor_id", "VENDOR", n_vendor },
	{ "device_id", "DEVICE", n_device },
};

static int render_rows(const struct ibtopo_sink *sink, const char *name,
		       const struct ibtopo__column *cols, size_t ncols,
		       const void **rows, size_t n, struct ibtopo_error *err)
{
	return ibtopo__table_write(sink, name, cols, ncols,
				   (const void *const *)rows, n, NULL, err);
}

int ibtopo_report_nodes(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_node_count(fabric);
	const void **rows = calloc(n ? n : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		rows[i] = ibtopo_fabric_node(fabric, i);
	rc = render_rows(sink, "nodes", node_cols, IBTOPO__ARRAY_SIZE(node_cols),
			 rows, n, err);
	free(rows);
	return rc;
}

/* ---- ports ---- */

#define PORT(r) ((const struct ibtopo_port *)(r))

static void p_node(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, PORT(r)->node->desc);
}
static void p_guid(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, PORT(r)->node->guid);
}
static void p_num(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, PORT(r)->num);
}
static void p_pguid(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, PORT(r)->guid);
}
static void p_lid(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->lid)
		ibtopo__cell_int(c, PORT(r)->lid);
}
static void p_state(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->state)
		ibtopo__cell_str(c, ibtopo_port_state_name(PORT(r)->state));
}
static void p_phys(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->phys_state)
		ibtopo__cell_str(c, ibtopo_phys_state_name(PORT(r)->phys_state));
}
static void p_speed(const void *r, void *x, struct ibtopo__cell *c)
{
	set_speed(c, PORT(r)->speed_active);
}
static void p_width(const void *r, void *x, struct ibtopo__cell *c)
{
	set_width(c, PORT(r)->width_active);
}
static void p_ssup(const void *r, void *x, struct ibtopo__cell *c)
{
	set_list(c, PORT(r)->speed_supported, true);
}
static void p_sen(const void *r, void *x, struct ibtopo__cell *c)
{
	set_list(c, PORT(r)->speed_enabled, true);
}
static void p_wsup(const void *r, void *x, struct ibtopo__cell *c)
{
	set_list(c, PORT(r)->width_supported, false);
}
static void p_wen(const void *r, void *x, struct ibtopo__cell *c)
{
	set_list(c, PORT(r)->width_enabled, false);
}
static void p_rnode(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->remote)
		ibtopo__cell_str(c, PORT(r)->remote->node->desc);
}
static void p_rguid(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->remote)
		ibtopo__cell_guid(c, PORT(r)->remote->node->guid);
}
static void p_rport(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->remote)
		ibtopo__cell_int(c, PORT(r)->remote->num);
}

static const struct ibtopo__column port_cols[] = {
	{ "node", "NODE", p_node },
	{ "guid", "GUID", p_guid },
	{ "port", "PORT", p_num },
	{ "port_guid", "PORT GUID", p_pguid },
	{ "lid", "LID", p_lid },
	{ "state", "STATE", p_state },
	{ "phys_state", "PHYS", p_phys },
	{ "width", "WIDTH", p_width },
	{ "speed", "SPEED", p_speed },
	{ "width_supported", "WIDTH SUP", p_wsup },
	{ "width_enabled", "WIDTH EN", p_wen },
	{ "speed_supported", "SPEED SUP", p_ssup },
	{ "speed_enabled", "SPEED EN", p_sen },
	{ "remote.node", "PEER", p_rnode },
	{ "remote.guid", "PEER GUID", p_rguid },
	{ "remote.port", "PEER PORT", p_rport },
};

int ibtopo_report_ports(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(fabric), n = 0, k = 0;
	const void **rows;
	int rc;

	for (size_t i = 0; i < nn; i++)
		n += ibtopo_fabric_node(fabric, i)->nports + 1;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		for (unsigned p = 0; p <= node->nports; p++)
			if (node->ports[p])
				rows[k++] = node->ports[p];
	}
	rc = render_rows(sink, "ports", port_cols, IBTOPO__ARRAY_SIZE(port_cols),
			 rows, k, err);
	free(rows);
	return rc;
}

/* ---- links ---- */

#define LINK(r) ((const struct ibtopo_link *)(r))

#define END_GETTERS(E)							\
static void l_##E##_node(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	ibtopo__cell_str(c, LINK(r)->E->node->desc);				\
}									\
static void l_##E##_guid(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	ibtopo__cell_guid(c, LINK(r)->E->node->guid);				\
}									\
static void l_##E##_port(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	ibtopo__cell_int(c, LINK(r)->E->num);					\
}									\
static void l_##E##_ssup(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	set_list(c, LINK(r)->E->speed_supported, true);			\
}									\
static void l_##E##_sen(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	set_list(c, LINK(r)->E->speed_enabled, true);			\
}									\
static void l_##E##_wsup(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	set_list(c, LINK(r)->E->width_supported, false);		\
}									\
static void l_##E##_wen(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	set_list(c, LINK(r)->E->width_enabled, false);			\
}

END_GETTERS(a)
END_GETTERS(b)

static void l_speed(const void *r, void *x, struct ibtopo__cell *c)
{
	set_speed(c, LINK(r)->speed);
}
static void l_width(const void *r, void *x, struct ibtopo__cell *c)
{
	set_width(c, LINK(r)->width);
}
static void l_gbps(const void *r, void *x, struct ibtopo__cell *c)
{
	double g = ibtopo_link_gbps(LINK(r)->speed, LINK(r)->width);

	if (g > 0) {
		c->type = IBTOPO__REAL;
		c->d = g;
	}
}
static void l_media(const void *r, void *x, struct ibtopo__cell *c)
{
	if (LINK(r)->cable && LINK(r)->cable->media)
		ibtopo__cell_str(c, ibtopo_media_name(LINK(r)->cable->media));
}
static void l_length(const void *r, void *x, struct ibtopo__cell *c)
{
	if (LINK(r)->cable && LINK(r)->cable->length_m > 0) {
		c->type = IBTOPO__REAL;
		c->d = LINK(r)->cable->length_m;
	}
}
static void l_pn(const void *r, void *x, struct ibtopo__cell *c)
{
	if (LINK(r)->cable)
		ibtopo__cell_str(c, LINK(r)->cable->part_number);
}

static const struct ibtopo__column link_cols[] = {
	{ "a.node", "A NODE", l_a_node },
	{ "a.guid", "A GUID", l_a_guid },
	{ "a.port", "A PORT", l_a_port },
	{ "b.node", "B NODE", l_b_node },
	{ "b.guid", "B GUID", l_b_guid },
	{ "b.port", "B PORT", l_b_port },
	{ "speed", "SPEED", l_speed },
	{ "width", "WIDTH", l_width },
	{ "gbps", "Gb/s", l_gbps },
	{ "a.speed_supported", "A SPEED SUP", l_a_ssup },
	{ "a.speed_enabled", "A SPEED EN", l_a_sen },
	{ "a.width_supported", "A WIDTH SUP", l_a_wsup },
	{ "a.width_enabled", "A WIDTH EN", l_a_wen },
	{ "b.speed_supported", "B SPEED SUP", l_b_ssup },
	{ "b.speed_enabled", "B SPEED EN", l_b_sen },
	{ "b.width_supported", "B WIDTH SUP", l_b_wsup },
	{ "b.width_enabled", "B WIDTH EN", l_b_wen },
	{ "cable.media", "MEDIA", l_media },
	{ "cable.length_m", "LENGTH M", l_length },
	{ "cable.part_number", "PART NUMBER", l_pn },
};

static bool cell_is_empty(const struct ibtopo__cell *c)
{
	switch (c->type) {
	case IBTOPO__NULL:
		return true;
	case IBTOPO__STR:
		return !c->s || !*c->s;
	case IBTOPO__GUID:
		return !c->g;
	case IBTOPO__STRLIST:
		return !c->n;
	default:
		return false;
	}
}

/*
 * The columns of `cols` that carry a value in some row, into `out`
 * (ncols long); returns how many. A text dump has no supported or
 * enabled sets and often no cables: 20 columns, most of them dashes.
 */
static size_t columns_with_data(struct ibtopo__column *out,
				const struct ibtopo__column *cols, size_t ncols,
				const void *const *rows, size_t n)
{
	size_t k = 0;

	for (size_t j = 0; j < ncols; j++) {
		bool used = false;

		for (size_t i = 0; i < n && !used; i++) {
			struct ibtopo__cell c;

			memset(&c, 0, sizeof(c));
			c.type = IBTOPO__NULL;
			cols[j].get(rows[i], NULL, &c);
			used = !cell_is_empty(&c);
		}
		if (used)
			out[k++] = cols[j];
	}
	return k;
}

int ibtopo_report_links(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	struct ibtopo__column shown[IBTOPO__ARRAY_SIZE(link_cols)];
	size_t n = ibtopo_fabric_link_count(fabric);
	size_t ncols = IBTOPO__ARRAY_SIZE(link_cols);
	const void **rows = calloc(n ? n : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		rows[i] = ibtopo_fabric_link(fabric, i);
	memcpy(shown, link_cols, sizeof(link_cols));
	/* the machine formats keep every key; text shows what has data */
	if (sink && sink->format == IBTOPO_FORMAT_TEXT &&
	    !(sink->flags & IBTOPO_SINK_WIDE) && n)
		ncols = columns_with_data(shown, link_cols, ncols,
					  (const void *const *)rows, n);
	rc = render_rows(sink, "links", shown, ncols, rows, n, err);
	free(rows);
	return rc;
}

/* ---- cables: links that carry cable data ---- */

static void l_rated(const void *r, void *x, struct ibtopo__cell *c)
{
	set_speed(c, LINK(r)->cable->rated_speed);
}
static void l_vendor(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, LINK(r)->cable->vendor);
}
static void l_serial(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, LINK(r)->cable->serial);
}

static const struct ibtopo__column cable_cols[] = {
	{ "a.node", "A NODE", l_a_node },
	{ "a.guid", "A GUID", l_a_guid },
	{ "a.port", "A PORT", l_a_port },
	{ "b.node", "B NODE", l_b_node },
	{ "b.guid", "B GUID", l_b_guid },
	{ "b.port", "B PORT", l_b_port },
	{ "speed", "SPEED", l_speed },
	{ "width", "WIDTH", l_width },
	{ "media", "MEDIA", l_media },
	{ "length_m", "LENGTH M", l_length },
	{ "rated_speed", "RATED", l_rated },
	{ "vendor", "VENDOR", l_vendor },
	{ "part_number", "PART NUMBER", l_pn },
	{ "serial", "SERIAL", l_serial },
};

int ibtopo_report_cables(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_link_count(fabric), k = 0;
	const void **rows = calloc(n ? n : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (ibtopo_fabric_link(fabric, i)->cable)
			rows[k++] = ibtopo_fabric_link(fabric, i);
	rc = render_rows(sink, "cables", cable_cols, IBTOPO__ARRAY_SIZE(cable_cols),
			 rows, k, err);
	free(rows);
	return rc;
}

/* ---- snapshots ---- */

#define SNAP(r) ((const struct ibtopo_snapshot *)(r))

static void s_id(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, SNAP(r)->id);
}
static void s_label(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->label);
}
static void s_taken(const void *r, void *x, struct ibtopo__cell *c)
{
	time_t t = SNAP(r)->taken_at;
	struct tm tm;

	if (gmtime_r(&t, &tm) &&
	    strftime(c->buf, sizeof(c->buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		ibtopo__cell_str(c, c->buf);
}
static void s_source(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->source);
}
static void s_host(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->host);
}
static void s_sw(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->switches);
}
static void s_ca(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->cas);
}
static void s_links(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, (int64_t)SNAP(r)->links);
}
static void s_partial(const void *r, void *x, struct ibtopo__cell *c)
{
	c->type = IBTOPO__BOOL;
	c->b = SNAP(r)->partial;
}

static void s_why(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SNAP(r)->partial_reason);
}

static const struct ibtopo__column snap_cols[] = {
	{ "id", "ID", s_id },
	{ "label", "LABEL", s_label },
	{ "taken_at", "TAKEN AT (UTC)", s_taken },
	{ "switches", "SWITCHES", s_sw },
	{ "cas", "CAS", s_ca },
	{ "links", "LINKS", s_links },
	{ "partial", "PARTIAL", s_partial },
	{ "host", "HOST", s_host },
	{ "source", "SOURCE", s_source },
	{ "partial_reason", "WHY PARTIAL", s_why },
};

int ibtopo_report_snapshots(const struct ibtopo_sink *sink,
			    const struct ibtopo_snapshot *list, size_t count,
			    struct ibtopo_error *err)
{
	const void **rows = calloc(count ? count : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		rows[i] = &list[i];
	rc = render_rows(sink, "snapshots", snap_cols, IBTOPO__ARRAY_SIZE(snap_cols),
			 rows, count, err);
	free(rows);
	return rc;
}

/* ---- switches: one block per switch (or CA), its ports, as iblinkinfo ---- */

#define SWP(r) ((const struct ibtopo_port *)(r))

static void w_node(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, SWP(r)->node->desc);
}
static void w_guid(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_guid(c, SWP(r)->node->guid);
}
static void w_type(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, ibtopo_node_type_name(SWP(r)->node->type));
}
static void w_port(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_int(c, SWP(r)->num);
}
static void w_state(const void *r, void *x, struct ibtopo__cell *c)
{
	if (SWP(r)->state)
		ibtopo__cell_str(c, ibtopo_port_state_name(SWP(r)->state));
}
static void w_phys(const void *r, void *x, struct ibtopo__cell *c)
{
	if (SWP(r)->phys_state)
		ibtopo__cell_str(c, ibtopo_phys_state_name(SWP(r)->phys_state));
}
static void w_width(const void *r, void *x, struct ibtopo__cell *c)
{
	set_width(c, SWP(r)->width_active);
}
static void w_speed(const void *r, void *x, struct ibtopo__cell *c)
{
	set_speed(c, SWP(r)->speed_active);
}
static void w_gbps(const void *r, void *x, struct ibtopo__cell *c)
{
	double g = ibtopo_link_gbps(SWP(r)->speed_active, SWP(r)->width_active);

	if (g > 0)
		ibtopo__cell_real(c, g);
}
static void w_peer_node(const void *r, void *x, struct ibtopo__cell *c)
{
	if (SWP(r)->remote)
		ibtopo__cell_str(c, SWP(r)->remote->node->desc);
}
static void w_peer_guid(const void *r, void *x, struct ibtopo__cell *c)
{
	if (SWP(r)->remote)
		ibtopo__cell_guid(c, SWP(r)->remote->node->guid);
}
static void w_peer_port(const void *r, void *x, struct ibtopo__cell *c)
{
	if (SWP(r)->remote)
		ibtopo__cell_int(c, SWP(r)->remote->num);
}

static const struct ibtopo__column switch_port_cols[] = {
	{ "node", "NODE", w_node },
	{ "guid", "GUID", w_guid },
	{ "type", "TYPE", w_type },
	{ "port", "PORT", w_port },
	{ "state", "STATE", w_state },
	{ "physical", "PHYSICAL", w_phys },
	{ "width", "WIDTH", w_width },
	{ "speed", "SPEED", w_speed },
	{ "gbps", "Gb/s", w_gbps },
	{ "peer.node", "PEER", w_peer_node },
	{ "peer.guid", "PEER GUID", w_peer_guid },
	{ "peer.port", "PEER PORT", w_peer_port },
};

/* Physically linked, not active: what `--down` lists. */
static bool port_is_stuck(const struct ibtopo_port *p)
{
	return p->phys_state == 5 && p->state &&
	       p->state != IBTOPO_PORT_STATE_ACTIVE;
}

static bool switch_port_listed(const struct ibtopo_port *p, unsigned flags)
{
	if (!p || p->num == 0)
		return false;
	return !(flags & IBTOPO_SWITCHES_DOWN) || port_is_stuck(p);
}

static bool switch_node_listed(const struct ibtopo_node *n,
			       const struct ibtopo_node *only, unsigned flags)
{
	if (only)
		return n == only;
	if (flags & IBTOPO_SWITCHES_CAS)
		return n->type == IBTOPO_NODE_CA;
	return n->type == IBTOPO_NODE_SWITCH;
}

static uint16_t node_lid(const struct ibtopo_node *n)
{
	for (unsigned i = 0; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->lid)
			return n->ports[i]->lid;
	return 0;
}

/* "Switch: 0x... leaf01 (LID 5):", then "  1  4x HDR 200 Gb/s  active/linkup  ==> host01 port 1" */
static int switches_text(const struct ibtopo_sink *sink,
			 const void *const *rows, size_t n,
			 struct ibtopo_error *err)
{
	struct ibtopo__wr w = { .o = sink };
	const struct ibtopo_node *cur = NULL;

	if (!n)
		ibtopo__wr_printf(&w, "no ports\n");
	for (size_t i = 0; i < n && !w.rc; i++) {
		const struct ibtopo_port *p = rows[i];
		char state[64], link[48];
		double g = ibtopo_link_gbps(p->speed_active, p->width_active);

		if (p->node != cur) {
			uint16_t lid = node_lid(p->node);

			cur = p->node;
			ibtopo__wr_printf(&w, "%s%s: 0x%016" PRIx64 " %s", i ? "\n" : "",
					  p->node->type == IBTOPO_NODE_SWITCH ? "Switch" :
					  p->node->type == IBTOPO_NODE_CA ? "CA" : "Router",
					  p->node->guid, p->node->desc);
			if (lid)
				ibtopo__wr_printf(&w, " (LID %u)", lid);
			ibtopo__wr_printf(&w, "\n");
		}
		snprintf(state, sizeof(state), "%s/%s",
			 p->state ? ibtopo_port_state_name(p->state) : "?",
			 p->phys_state ? ibtopo_phys_state_name(p->phys_state) : "?");
		if (g > 0)
			snprintf(link, sizeof(link), "%s %s %g Gb/s",
				 ibtopo_width_name(p->width_active),
				 ibtopo_speed_name(p->speed_active), g);
		else
			link[0] = '\0';
		ibtopo__wr_printf(&w, "  %3u  %-20s %-*s", p->num, link,
				  p->remote ? 22 : 0,
				  p->state || p->phys_state ? state : "");
		if (p->remote)
			ibtopo__wr_printf(&w, " ==> %s port %u (0x%016" PRIx64 ")",
					  p->remote->node->desc, p->remote->num,
					  p->remote->node->guid);
		ibtopo__wr_printf(&w, "\n");
	}
	if (w.rc)
		return ibtopo__error_set(err, w.rc, "cannot write output");
	return 0;
}

int ibtopo_report_switches(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const struct ibtopo_node *only, unsigned flags,
			   struct ibtopo_error *err)
{
	size_t nn, np = 0;
	const void **rows;
	int rc;

	if (!sink || !sink->write || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or fabric");
	nn = ibtopo_fabric_node_count(fabric);
	for (size_t i = 0; i < nn; i++)
		np += ibtopo_fabric_node(fabric, i)->nports + 1;
	rows = calloc(np ? np : 1, sizeof(*rows));
	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	np = 0;
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		if (!switch_node_listed(node, only, flags))
			continue;
		for (unsigned k = 1; k <= node->nports; k++)
			if (switch_port_listed(node->ports[k], flags))
				rows[np++] = node->ports[k];
	}
	if (sink->format == IBTOPO_FORMAT_TEXT)
		rc = switches_text(sink, rows, np, err);
	else
		rc = render_rows(sink, "ports", switch_port_cols,
				 IBTOPO__ARRAY_SIZE(switch_port_cols), rows, np,
				 err);
	free(rows);
	return rc;
}
