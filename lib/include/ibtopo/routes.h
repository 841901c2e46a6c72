/*
 * ibtopo/routes.h - switch routing tables (linear forwarding tables, LFTs)
 * as the subnet manager programmed them. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_ROUTES_H
#define IBTOPO_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An LFT entry that routes nowhere (IBA: port 255 drops the packet). */
#define IBTOPO_LFT_NONE 255
/** The highest unicast LID an LFT can hold (0xBFFF). */
#define IBTOPO_LFT_MAX_LID 0xbfff

/**
 * One switch's linear forwarding table: the out-port for each destination
 * LID 0..top (LinearFDBTop). port[lid] is a port number of the switch
 * (0 = the switch itself) or IBTOPO_LFT_NONE.
 */
struct ibtopo_lft {
	uint16_t top;		/* highest LID with an entry */
	uint8_t *port;		/* top + 1 entries; owned by the fabric */
};

/**
 * Attach a forwarding table to a switch: entries `ports[0..top]` are
 * copied into fabric-owned memory, replacing an earlier table; NULL
 * ports removes it. The table is then node->lft. IBTOPO_EINVAL when the node is not a switch or top
 * is above IBTOPO_LFT_MAX_LID, IBTOPO_ENOMEM.
 */
int ibtopo_node_set_lft(struct ibtopo_node *node, const uint8_t *ports,
			unsigned top, struct ibtopo_error *err);
/** True when at least one switch of the fabric has a table. */
bool ibtopo_fabric_has_routes(const struct ibtopo_fabric *fabric);
/** Drop every switch's table (before attaching another set). */
void ibtopo_fabric_clear_routes(struct ibtopo_fabric *fabric);

/**
 * The routing engine that computed the tables ("ftree", "updn",
 * "minhop", ...), as a dump or the SM said; NULL when not known.
 * Borrowed from the fabric.
 */
const char *ibtopo_fabric_routing_engine(const struct ibtopo_fabric *fabric);
/** Set (copied) or clear (NULL) the routing engine's name. */
int ibtopo_fabric_set_routing_engine(struct ibtopo_fabric *fabric,
				     const char *engine,
				     struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_ROUTES_H */
