/* report_inventory.c - inventory reports (nodes, ports, links, snapshots) */
#include "report/report-int.h"
#include "store/store-int.h"

#include <stdio.h>
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

static void set_speeds(struct ibtopo__cell *c, unsigned mask)
{
	set_list(c, mask, true);
}

static void set_widths(struct ibtopo__cell *c, unsigned mask)
{
	set_list(c, mask, false);
}

/* 0 (unknown, unset) stays null */
static void set_nonzero(struct ibtopo__cell *c, int64_t v)
{
	if (v)
		ibtopo__cell_int(c, v);
}

/* The name of a speed, width or state; 0 (unknown) stays null. */
static void set_named(struct ibtopo__cell *c, unsigned v, const char *name)
{
	if (v)
		ibtopo__cell_str(c, name);
}

/*
 * A column getter of one value: `set(c, value...)`, where the values are
 * expressions of the row `r`, a const T *. The set_* helpers leave
 * unknown values null, as a NULL string and a GUID of 0 are.
 */
#define GETTER(fn, T, set, ...)						\
static void fn(const void *row, void *x, struct ibtopo__cell *c)	\
{									\
	const T *r = row;						\
									\
	(void)x;							\
	set(c, __VA_ARGS__);						\
}

/* The data rate of a speed and width; unknown stays null. */
static void set_gbps(struct ibtopo__cell *c, unsigned speed, unsigned width)
{
	double g = ibtopo_link_gbps(speed, width);

	if (g > 0)
		ibtopo__cell_real(c, g);
}

/* A switch is addressed through port 0; a CA per port: the first LID. */
static uint16_t node_lid(const struct ibtopo_node *n)
{
	for (unsigned i = 0; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->lid)
			return n->ports[i]->lid;
	return 0;
}

/* ---- nodes ---- */

#define NODE(r) ((const struct ibtopo_node *)(r))

GETTER(n_type, struct ibtopo_node, ibtopo__cell_str, ibtopo_node_type_name(r->type))
GETTER(n_guid, struct ibtopo_node, ibtopo__cell_guid, r->guid)
GETTER(n_desc, struct ibtopo_node, ibtopo__cell_str, r->desc)
GETTER(n_sysimg, struct ibtopo_node, ibtopo__cell_guid, r->sysimg_guid)
GETTER(n_ports, struct ibtopo_node, ibtopo__cell_int, r->nports)
GETTER(n_vendor, struct ibtopo_node, set_nonzero, r->vendor_id)
GETTER(n_device, struct ibtopo_node, set_nonzero, r->device_id)
GETTER(n_lid, struct ibtopo_node, set_nonzero, node_lid(r))
static void n_links(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_node *n = NODE(r);
	int64_t k = 0;

	for (unsigned i = 1; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->remote)
			k++;
	ibtopo__cell_int(c, k);
}

/* Firmware where an input carried it (ibdiagnet2 NODES_INFO): "27.2010.1030" */
static void n_firmware(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_node *n = NODE(r);

	(void)x;
	if (!n->fw_major && !n->fw_minor && !n->fw_subminor)
		return;
	snprintf(c->buf, sizeof(c->buf), "%u.%u.%u", n->fw_major, n->fw_minor,
		 n->fw_subminor);
	ibtopo__cell_str(c, c->buf);
}
GETTER(n_psid, struct ibtopo_node, ibtopo__cell_str, r->psid)

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
	{ "firmware", "FIRMWARE", n_firmware },
	{ "psid", "PSID", n_psid },
};

/* The rows of a report: at(src, i) for each i < n that is not NULL. */
static const void **collect_rows(const void *src, size_t n,
				 const void *(*at)(const void *src, size_t i),
				 size_t *nrows)
{
	const void **rows = calloc(n ? n : 1, sizeof(*rows));

	*nrows = 0;
	for (size_t i = 0; rows && i < n; i++) {
		const void *r = at(src, i);

		if (r)
			rows[(*nrows)++] = r;
	}
	return rows;
}

/* A report (of `fabric`, may be NULL) of the rows collect_rows() picks,
 * in the columns `cols`. */
static int write_rows(const struct ibtopo_sink *sink,
		      const struct ibtopo_fabric *fabric, const char *name,
		      const struct ibtopo__column *cols, size_t ncols,
		      const void *src, size_t n,
		      const void *(*at)(const void *src, size_t i),
		      struct ibtopo_error *err)
{
	size_t k;
	const void **rows = collect_rows(src, n, at, &k);
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = ibtopo__table_write_of(sink, fabric, name, cols, ncols,
				    (const void *const *)rows, k, NULL, err);
	free(rows);
	return rc;
}

static const void *node_at(const void *fabric, size_t i)
{
	return ibtopo_fabric_node(fabric, i);
}

static size_t columns_with_data(struct ibtopo__column *out,
				const struct ibtopo__column *cols, size_t ncols,
				const void *const *rows, size_t n);

/*
 * The rows in the columns `cols`; the text table leaves out the columns
 * no row has a value in, unless IBTOPO_SINK_WIDE (JSON and CSV keep
 * every key).
 */
static int write_shown(const struct ibtopo_sink *sink,
		       const struct ibtopo_fabric *fabric, const char *name,
		       const struct ibtopo__column *cols, size_t ncols,
		       const void *const *rows, size_t n,
		       struct ibtopo_error *err)
{
	struct ibtopo__column *shown = calloc(ncols, sizeof(*shown));
	size_t k = ncols;
	int rc;

	if (!shown)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	memcpy(shown, cols, ncols * sizeof(*shown));
	if (sink && sink->format == IBTOPO_FORMAT_TEXT &&
	    !(sink->flags & IBTOPO_SINK_WIDE) && n)
		k = columns_with_data(shown, cols, ncols, rows, n);
	rc = ibtopo__table_write_of(sink, fabric, name, shown, k, rows, n, NULL,
				    err);
	free(shown);
	return rc;
}

int ibtopo_report_nodes(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t k;
	const void **rows = collect_rows(fabric, ibtopo_fabric_node_count(fabric),
					 node_at, &k);
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = write_shown(sink, fabric, "nodes", node_cols, IBTOPO__ARRAY_SIZE(node_cols),
			 (const void *const *)rows, k, err);
	free(rows);
	return rc;
}

/* ---- ports ---- */

#define PORT(r) ((const struct ibtopo_port *)(r))

GETTER(p_node, struct ibtopo_port, ibtopo__cell_str, r->node->desc)
GETTER(p_guid, struct ibtopo_port, ibtopo__cell_guid, r->node->guid)
GETTER(p_num, struct ibtopo_port, ibtopo__cell_int, r->num)
GETTER(p_pguid, struct ibtopo_port, ibtopo__cell_guid, r->guid)
GETTER(p_lid, struct ibtopo_port, set_nonzero, r->lid)
GETTER(p_state, struct ibtopo_port, set_named, r->state,
       ibtopo_port_state_name(r->state))
GETTER(p_phys, struct ibtopo_port, set_named, r->phys_state,
       ibtopo_phys_state_name(r->phys_state))
GETTER(p_speed, struct ibtopo_port, set_named, r->speed_active,
       ibtopo_speed_name(r->speed_active))
GETTER(p_width, struct ibtopo_port, set_named, r->width_active,
       ibtopo_width_name(r->width_active))
GETTER(p_ssup, struct ibtopo_port, set_speeds, r->speed_supported)
GETTER(p_sen, struct ibtopo_port, set_speeds, r->speed_enabled)
GETTER(p_wsup, struct ibtopo_port, set_widths, r->width_supported)
GETTER(p_wen, struct ibtopo_port, set_widths, r->width_enabled)
GETTER(p_rnode, struct ibtopo_port, ibtopo__cell_str,
       r->remote ? r->remote->node->desc : NULL)
GETTER(p_rguid, struct ibtopo_port, ibtopo__cell_guid,
       r->remote ? r->remote->node->guid : 0)
static void p_rport(const void *r, void *x, struct ibtopo__cell *c)
{
	if (PORT(r)->remote)
		ibtopo__cell_int(c, PORT(r)->remote->num);
}
/*
 * A port's PKeys as its table holds them ("0xffff", "0x8101"), in the
 * cell's scratch; more than the cell takes end in "...".
 */
static void p_pkeys(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_pkeys *k = PORT(r)->pkeys;
	size_t at = 0;

	(void)x;
	if (!k)
		return; /* not read: null */
	c->type = IBTOPO__STRLIST;
	for (size_t i = 0; i < k->count && c->n < IBTOPO__STRLIST_MAX; i++) {
		if (c->n == IBTOPO__STRLIST_MAX - 1 && i + 1 < k->count) {
			c->sv[c->n++] = "...";
			break;
		}
		snprintf(c->buf + at, sizeof(c->buf) - at, "0x%04x",
			 k->keys[i]);
		c->sv[c->n++] = c->buf + at;
		at += 7;
	}
}
GETTER(p_type, struct ibtopo_port, ibtopo__cell_str, ibtopo_node_type_name(r->node->type))
GETTER(p_gbps, struct ibtopo_port, set_gbps, r->speed_active, r->width_active)

/*
 * A port, in the JSON and CSV of both `show ports` and `show switches`
 * (one schema for the one key "ports"); the far end is its "peer".
 */
static const struct ibtopo__column port_cols[] = {
	{ "node", "NODE", p_node },
	{ "guid", "GUID", p_guid },
	{ "type", "TYPE", p_type },
	{ "port", "PORT", p_num },
	{ "port_guid", "PORT GUID", p_pguid },
	{ "lid", "LID", p_lid },
	{ "state", "STATE", p_state },
	{ "phys_state", "PHYS", p_phys },
	{ "width", "WIDTH", p_width },
	{ "speed", "SPEED", p_speed },
	{ "gbps", "Gb/s", p_gbps },
	{ "width_supported", "WIDTH SUP", p_wsup },
	{ "width_enabled", "WIDTH EN", p_wen },
	{ "speed_supported", "SPEED SUP", p_ssup },
	{ "speed_enabled", "SPEED EN", p_sen },
	{ "peer.node", "PEER", p_rnode },
	{ "peer.guid", "PEER GUID", p_rguid },
	{ "peer.port", "PEER PORT", p_rport },
	{ "pkeys", "PKEYS", p_pkeys },
};

/* The text table of `show ports` leaves out the node's type and the
 * rate, as it did before they joined the machine formats. */
static bool port_text_column(const struct ibtopo__column *c)
{
	return strcmp(c->name, "type") != 0 && strcmp(c->name, "gbps") != 0;
}

/*
 * The ports of the fabric, node by node, that keep(port, arg) lists,
 * into a new array of *n; NULL when out of memory.
 */
static const void **port_rows(const struct ibtopo_fabric *fabric,
			      bool (*keep)(const struct ibtopo_port *p,
					   const void *arg),
			      const void *arg, size_t *n)
{
	size_t nn = ibtopo_fabric_node_count(fabric), np = 0;
	const void **rows;

	for (size_t i = 0; i < nn; i++)
		np += ibtopo_fabric_node(fabric, i)->nports + 1;
	rows = calloc(np ? np : 1, sizeof(*rows));
	*n = 0;
	for (size_t i = 0; rows && i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		for (unsigned p = 0; p <= node->nports; p++)
			if (node->ports[p] && keep(node->ports[p], arg))
				rows[(*n)++] = node->ports[p];
	}
	return rows;
}

static bool any_port(const struct ibtopo_port *p, const void *arg)
{
	(void)p;
	(void)arg;
	return true;
}

int ibtopo_report_ports(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	struct ibtopo__column cols[IBTOPO__ARRAY_SIZE(port_cols)];
	size_t k, ncols = 0;
	const void **rows = port_rows(fabric, any_port, NULL, &k);
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(port_cols); i++)
		if (!sink || sink->format != IBTOPO_FORMAT_TEXT ||
		    port_text_column(&port_cols[i]))
			cols[ncols++] = port_cols[i];
	rc = write_shown(sink, fabric, "ports", cols, ncols,
			 (const void *const *)rows, k, err);
	free(rows);
	return rc;
}

/* ---- links ---- */

#define LINK(r) ((const struct ibtopo_link *)(r))

#define END_GETTERS(E)							\
GETTER(l_##E##_node, struct ibtopo_link, ibtopo__cell_str, r->E->node->desc) \
GETTER(l_##E##_guid, struct ibtopo_link, ibtopo__cell_guid, r->E->node->guid) \
GETTER(l_##E##_port, struct ibtopo_link, ibtopo__cell_int, r->E->num)	\
GETTER(l_##E##_ssup, struct ibtopo_link, set_speeds, r->E->speed_supported) \
GETTER(l_##E##_sen, struct ibtopo_link, set_speeds, r->E->speed_enabled) \
GETTER(l_##E##_wsup, struct ibtopo_link, set_widths, r->E->width_supported) \
GETTER(l_##E##_wen, struct ibtopo_link, set_widths, r->E->width_enabled)

END_GETTERS(a)
END_GETTERS(b)

GETTER(l_speed, struct ibtopo_link, set_named, r->speed,
       ibtopo_speed_name(r->speed))
GETTER(l_width, struct ibtopo_link, set_named, r->width,
       ibtopo_width_name(r->width))
GETTER(l_gbps, struct ibtopo_link, set_gbps, r->speed, r->width)
GETTER(l_media, struct ibtopo_link, ibtopo__cell_str,
       r->cable && r->cable->media ? ibtopo_media_name(r->cable->media) :
				       NULL)
static void l_length(const void *r, void *x, struct ibtopo__cell *c)
{
	if (LINK(r)->cable && LINK(r)->cable->length_m > 0)
		ibtopo__cell_real(c, LINK(r)->cable->length_m);
}
GETTER(l_pn, struct ibtopo_link, ibtopo__cell_str,
       r->cable ? r->cable->part_number : NULL)

/* The first columns of the links and the cables reports: the ends and the rate. */
#define LINK_COLS							\
	{ "a.node", "A NODE", l_a_node },				\
	{ "a.guid", "A GUID", l_a_guid },				\
	{ "a.port", "A PORT", l_a_port },				\
	{ "b.node", "B NODE", l_b_node },				\
	{ "b.guid", "B GUID", l_b_guid },				\
	{ "b.port", "B PORT", l_b_port },				\
	{ "speed", "SPEED", l_speed },					\
	{ "width", "WIDTH", l_width }

static const struct ibtopo__column link_cols[] = {
	LINK_COLS,
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

static const void *link_at(const void *fabric, size_t i)
{
	return ibtopo_fabric_link(fabric, i);
}

int ibtopo_report_links(const struct ibtopo_sink *sink,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t n;
	const void **rows = collect_rows(fabric, ibtopo_fabric_link_count(fabric),
					 link_at, &n);
	int rc;

	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = write_shown(sink, fabric, "links", link_cols, IBTOPO__ARRAY_SIZE(link_cols),
			 (const void *const *)rows, n, err);
	free(rows);
	return rc;
}

/* ---- cables: links that carry cable data ---- */

GETTER(l_rated, struct ibtopo_link, set_named, r->cable->rated_speed,
       ibtopo_speed_name(r->cable->rated_speed))
GETTER(l_vendor, struct ibtopo_link, ibtopo__cell_str, r->cable->vendor)
GETTER(l_serial, struct ibtopo_link, ibtopo__cell_str, r->cable->serial)

static const struct ibtopo__column cable_cols[] = {
	LINK_COLS,
	{ "media", "MEDIA", l_media },
	{ "length_m", "LENGTH M", l_length },
	{ "rated_speed", "RATED", l_rated },
	{ "vendor", "VENDOR", l_vendor },
	{ "part_number", "PART NUMBER", l_pn },
	{ "serial", "SERIAL", l_serial },
};

/* the links that carry cable data */
static const void *cable_at(const void *fabric, size_t i)
{
	const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);

	return l->cable ? l : NULL;
}

int ibtopo_report_cables(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	return write_rows(sink, fabric, "cables", cable_cols,
			  IBTOPO__ARRAY_SIZE(cable_cols), fabric,
			  ibtopo_fabric_link_count(fabric), cable_at, err);
}

/* ---- snapshots: the store's list, without the fabric column ---- */

int ibtopo_report_snapshots(const struct ibtopo_sink *sink,
			    const struct ibtopo_snapshot *list, size_t count,
			    struct ibtopo_error *err)
{
	return ibtopo__store_snapshots_write(sink, list, count, NULL, false,
					     err);
}

/* ---- switches: one block per switch (or CA), its ports, as iblinkinfo ---- */

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

/* Which ports `switches` lists: of which nodes, and the flags. */
struct switches_pick {
	const struct ibtopo_node *only;
	unsigned flags;
};

static bool switch_port_picked(const struct ibtopo_port *p, const void *arg)
{
	const struct switches_pick *pick = arg;

	return switch_node_listed(p->node, pick->only, pick->flags) &&
	       switch_port_listed(p, pick->flags);
}

int ibtopo_report_switches(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const struct ibtopo_node *only, unsigned flags,
			   struct ibtopo_error *err)
{
	struct switches_pick pick = { only, flags };
	const void **rows;
	size_t np;
	int rc;

	if (!sink || !sink->write || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or fabric");
	rows = port_rows(fabric, switch_port_picked, &pick, &np);
	if (!rows)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (sink->format == IBTOPO_FORMAT_TEXT)
		rc = switches_text(sink, rows, np, err);
	else
		rc = ibtopo__table_write_of(sink, fabric, "ports", port_cols,
					    IBTOPO__ARRAY_SIZE(port_cols),
					    (const void *const *)rows, np,
					    NULL, err);
	free(rows);
	return rc;
}

/* ---- discover: what one sweep stored and what its MADs cost ---- */

int ibtopo_report_discover(const struct ibtopo_sink *sink,
			   const struct ibtopo_fabric *fabric,
			   const struct ibtopo_mad_stats *mads, double seconds,
			   struct ibtopo_error *err)
{
	struct ibtopo__json *root, *cost;
	int rc = IBTOPO_ENOMEM;

	if (!sink || !sink->write || !fabric || !mads)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no sink, fabric or MAD counts");
	if (sink->format != IBTOPO_FORMAT_JSON)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "the discover summary is JSON only");
	root = ibtopo__json_report(fabric);
	cost = ibtopo__json_object();
	if (!root || !cost ||
	    ibtopo__json_set(cost, "sent", ibtopo__json_u64(mads->sent)) ||
	    ibtopo__json_set(cost, "asked_again",
			     ibtopo__json_u64(mads->asked_again)) ||
	    ibtopo__json_set(cost, "lost", ibtopo__json_u64(mads->lost)) ||
	    ibtopo__json_set(cost, "window_max",
			     ibtopo__json_int(mads->window_max)) ||
	    ibtopo__json_set(cost, "window_min",
			     ibtopo__json_int(mads->window_min)) ||
	    ibtopo__json_set(cost, "sweeps", ibtopo__json_u64(mads->sweeps)) ||
	    ibtopo__json_set(cost, "worst_guid",
			     ibtopo__json_guid(mads->worst_guid)) ||
	    ibtopo__json_set(cost, "worst_timeouts",
			     ibtopo__json_u64(mads->worst_timeouts)))
		goto out_fail;
	if (ibtopo__json_set(root, "snapshot", ibtopo__json_snapshot(fabric)) ||
	    ibtopo__json_set(root, "seconds", ibtopo__json_real(seconds)))
		goto out_fail;
	rc = ibtopo__json_set(root, "mads", cost);
	cost = NULL;
	if (rc)
		goto out_fail;
	rc = ibtopo__json_dump(sink, root, err);
	ibtopo__json_free(root);
	return rc;
out_fail:
	ibtopo__json_free(cost);
	ibtopo__json_free(root);
	return ibtopo__error_set(err, rc, "out of memory");
}
