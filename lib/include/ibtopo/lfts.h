/*
 * ibtopo/lfts.h - switch routing tables (linear forwarding tables, LFTs)
 * as the subnet manager programmed them. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_LFTS_H
#define IBTOPO_LFTS_H

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

/** How ibtopo_routes_load() reads forwarding tables from a file. */
struct ibtopo_routes_load_opts {
	unsigned version;	/* IBTOPO_ROUTES_LOAD_OPTS_VERSION */
	/* optional: warnings ("<path>:<line>: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* the routing engine that computed the tables, when the caller
	 * knows it ("ftree"); NULL: not known (the file does not say) */
	const char *engine;
};
#define IBTOPO_ROUTES_LOAD_OPTS_VERSION 1
#define IBTOPO_ROUTES_LOAD_OPTS_INIT \
	{ IBTOPO_ROUTES_LOAD_OPTS_VERSION, NULL, NULL, NULL }

/**
 * Read switch forwarding tables from a file and make them the fabric's
 * tables: every earlier table is dropped, each switch the file lists gets
 * its table (LIDs the file leaves out route nowhere, IBTOPO_LFT_NONE),
 * and the routing engine becomes opts->engine. The format is detected
 * from the content:
 * - OpenSM's opensm-lfts.dump (--dump_files_dir DIR -D 0x43), ibroute
 *   and dump_fts output: blocks "Unicast lids [A-B] of switch ... guid
 *   0x... (...):", then "0xLID PORT ..." lines;
 * - ibdiagnet's ibdiagnet2.fdbs and OpenSM's opensm.fdbs: blocks
 *   "[osm_ucast_mgr_]dump_ucast_routes: Switch 0x...", then
 *   "0xLID : PORT ..." or "0xLID : UNREACHABLE" lines.
 * Switches are matched by node GUID; switches the fabric does not have
 * are counted in *out_unknown (may be NULL), not an error. A fabric with
 * no LID at all (an ibsim net file) takes the LIDs an opensm-lfts.dump
 * names: each switch's from its header (on a port 0 it gets when it has
 * none), each CA port's from the entries' "portguid 0x...". The file is
 * read whole before any table changes: bad input leaves the fabric as it
 * was. IBTOPO_EPARSE "<path>:<line>: <what was expected>", IBTOPO_EIO,
 * IBTOPO_ENOMEM, IBTOPO_EINVAL.
 */
int ibtopo_routes_load(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_routes_load_opts *opts,
		       size_t *out_unknown, struct ibtopo_error *err);

/**
 * ibtopo_routes_load() on `len` bytes in memory; `name` stands for the
 * path in messages. Text with a NUL byte is refused (IBTOPO_EPARSE).
 */
int ibtopo_routes_load_buffer(struct ibtopo_fabric *fabric, const char *data,
			      size_t len, const char *name,
			      const struct ibtopo_routes_load_opts *opts,
			      size_t *out_unknown, struct ibtopo_error *err);

/** Longest routing engine name kept. */
#define IBTOPO_ROUTING_ENGINE_MAX 63

/**
 * Whether `name` reads as a routing engine's name, as opensm -R names
 * them ("ftree", "updn", "torus-2QoS", "ar_ftree"): 1 to
 * IBTOPO_ROUTING_ENGINE_MAX letters, digits, '_', '-' or '.'.
 */
bool ibtopo_routing_engine_name_ok(const char *name);

/**
 * The routing engine an OpenSM log (opensm -f FILE, /var/log/opensm.log)
 * names: the word before "tables configured on all switches" on the last
 * such line, which OpenSM logs at its default level after each routing
 * ("osm_ucast_mgr_process: ftree tables configured on all switches";
 * older OpenSM's "null (min-hop)" is "minhop"). *out is malloc()ed: the
 * caller frees it. IBTOPO_EPARSE "<path>: ..." when no line names one,
 * IBTOPO_EIO, IBTOPO_ENOMEM, IBTOPO_EINVAL.
 */
int ibtopo_routes_log_engine(char **out, const char *path,
			     struct ibtopo_error *err);
/** ibtopo_routes_log_engine() on `len` bytes; `name` stands for the path. */
int ibtopo_routes_log_engine_buffer(char **out, const char *data, size_t len,
				    const char *name,
				    struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_LFTS_H */
