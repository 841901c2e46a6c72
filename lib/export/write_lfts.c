/*
 * write_lfts.c - the switches' forwarding tables in the layout of
 * OpenSM's opensm-lfts.dump (its --dump_files_dir output), which OpenSM's
 * `file` routing engine loads back (`opensm -R file -U FILE`).
 *
 * The layout, as OpenSM's dump writes it: per switch, in ascending node
 * GUID order,
 *   Unicast lids [0-<top>] of switch Lid <lid> guid 0x<guid> ('<desc>'):
 * then one line per LID 0..top whose out-port is a port of the switch
 * (0..N; 255 and other ports are left out),
 *   0x<lid, 4 hex digits> <port, 3 decimal digits> # <what has the LID>
 * where <what> is "<node type> portguid 0x<port guid>: '<desc>'" (node
 * type "Channel Adapter", "Switch" or "Router") or "unknown node and
 * type", and a last line "<top> lids dumped".
 */
#include "export/export-int.h"

#include <stdlib.h>
#include <string.h>

#define DESC_MAX 64	/* a NodeDescription's bytes */

/* as OpenSM's ib_get_node_type_str() */
static const char *type_str(enum ibtopo_node_type type)
{
	switch (type) {
	case IBTOPO_NODE_CA:
		return "Channel Adapter";
	case IBTOPO_NODE_SWITCH:
		return "Switch";
	case IBTOPO_NODE_ROUTER:
		return "Router";
	default:
		return "Unknown";
	}
}

static int by_guid(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/*
 * owner[lid]: the port that has the LID (its base LID up to LMC more);
 * a switch's LID is its port 0's.
 */
static void map_lids(const struct ibtopo_fabric *f,
		     const struct ibtopo_port **owner)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++) {
			const struct ibtopo_port *p = n->ports[k];
			unsigned count;

			if (!p || !p->lid ||
			    (n->type == IBTOPO_NODE_SWITCH && k != 0))
				continue;
			count = 1u << (p->lmc & 7);
			for (unsigned l = p->lid;
			     l < (unsigned)p->lid + count && l <= IBTOPO_LFT_MAX_LID;
			     l++)
				owner[l] = p;
		}
	}
}

static unsigned switch_lid(const struct ibtopo_node *n)
{
	if (n->ports[0])
		return n->ports[0]->lid;
	for (unsigned k = 1; k <= n->nports; k++)
		if (n->ports[k] && n->ports[k]->lid)
			return n->ports[k]->lid;
	return 0;
}

static void write_switch(struct ibtopo__wr *w, const struct ibtopo_node *n,
			 const struct ibtopo_port *const *owner)
{
	char desc[DESC_MAX + 1];
	const struct ibtopo_lft *t = n->lft;

	ibtopo__wr_printf(w, "Unicast lids [0-%u] of switch Lid %u guid 0x%016"
			  PRIx64 " ('%s'):\n", t->top, switch_lid(n), n->guid,
			  ibtopo__clean_desc(n->desc, desc, DESC_MAX,
					     false));
	for (unsigned lid = 0; lid <= t->top; lid++) {
		const struct ibtopo_port *p = owner[lid];
		unsigned port = t->port[lid];

		if (port > n->nports)
			continue;
		ibtopo__wr_printf(w, "0x%04x %03u # ", lid, port);
		if (p)
			ibtopo__wr_printf(w, "%s portguid 0x%016" PRIx64 ": '%s'\n",
					  type_str(p->node->type), p->guid,
					  ibtopo__clean_desc(p->node->desc, desc,
							     DESC_MAX,
							     false));
		else
			ibtopo__wr_printf(w, "unknown node and type\n");
	}
	ibtopo__wr_printf(w, "%u lids dumped\n", t->top);
}

static int write_lfts(const struct ibtopo_sink *sink,
		      const struct ibtopo_fabric *f, struct ibtopo_error *err)
{
	struct ibtopo__wr w = { sink, 0 };
	const struct ibtopo_port **owner;
	const struct ibtopo_node **sw;
	size_t nn = ibtopo_fabric_node_count(f), ns = 0;
	int rc;

	if (!ibtopo_fabric_has_routes(f))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"the fabric has no forwarding tables (read them with "
			"discover --routes or attach them with import --routes)");
	owner = calloc((size_t)IBTOPO_LFT_MAX_LID + 1, sizeof(*owner));
	sw = calloc(nn, sizeof(*sw));
	if (!owner || !sw) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	map_lids(f, owner);
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->lft)
			sw[ns++] = n;
	}
	qsort(sw, ns, sizeof(*sw), by_guid);
	for (size_t i = 0; i < ns && !w.rc; i++)
		write_switch(&w, sw[i], owner);
	rc = ibtopo__wr_done(&w, "lfts", err);
out_free:
	free(sw);
	free(owner);
	return rc;
}

const struct ibtopo__writer ibtopo__writer_lfts = {
	.format = IBTOPO_EXPORT_LFTS,
	.name = "lfts",
	.write = write_lfts,
};
