/*
 * ibtopo/fabric.h - fabric model. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_FABRIC_H
#define IBTOPO_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_node_type {
	IBTOPO_NODE_UNKNOWN = 0,
	IBTOPO_NODE_CA = 1,
	IBTOPO_NODE_SWITCH = 2,
	IBTOPO_NODE_ROUTER = 3,
};

/** "ca", "switch", "router", "unknown". */
const char *ibtopo_node_type_name(enum ibtopo_node_type type);

/** IBA PortState; 0 when not known (text dumps). */
enum ibtopo_port_state {
	IBTOPO_PORT_STATE_UNKNOWN = 0,
	IBTOPO_PORT_STATE_DOWN = 1,
	IBTOPO_PORT_STATE_INIT = 2,
	IBTOPO_PORT_STATE_ARMED = 3,
	IBTOPO_PORT_STATE_ACTIVE = 4,
};

/** "down", "init", "armed", "active" or "unknown". */
const char *ibtopo_port_state_name(unsigned state);
/** IBA PortPhysicalState name ("polling", "linkup", ...) or "unknown". */
const char *ibtopo_phys_state_name(unsigned phys_state);

struct ibtopo_node;
struct ibtopo_link;
struct ibtopo_counters;	/* port counters, <ibtopo/counters.h> */
struct ibtopo_pkeys;	/* a port's partition keys, below */
struct ibtopo_lft;	/* a switch's forwarding table, <ibtopo/lfts.h> */
struct ibtopo_mft;	/* its multicast forwarding table, <ibtopo/mcast.h> */

/** Cable media, as far as it is known. */
enum ibtopo_media {
	IBTOPO_MEDIA_UNKNOWN = 0,
	IBTOPO_MEDIA_PASSIVE_COPPER,	/* DAC */
	IBTOPO_MEDIA_ACTIVE_COPPER,	/* ACC / AEC */
	IBTOPO_MEDIA_AOC,		/* active optical cable */
	IBTOPO_MEDIA_MULTIMODE,		/* multimode transceivers + fiber */
	IBTOPO_MEDIA_SINGLEMODE,	/* single-mode transceivers + fiber */
};

/** "passive-copper", "active-copper", "aoc", "multimode", "singlemode", "unknown". */
const char *ibtopo_media_name(enum ibtopo_media media);
/** Inverse of ibtopo_media_name(); IBTOPO_MEDIA_UNKNOWN if not recognized. */
enum ibtopo_media ibtopo_media_parse(const char *name);

/** A cable attached to a link (from a CSV inventory or an ibdiagnet db_csv). */
struct ibtopo_cable {
	enum ibtopo_media media;
	double length_m;	/* 0 = unknown */
	unsigned rated_speed;	/* highest speed bit the cable is rated for; 0 = unknown */
	char *vendor;		/* NULL = unknown; owned by the fabric */
	char *part_number;
	char *serial;
};

/** One port. Masks are 0 when unknown (e.g. read from a text dump). */
struct ibtopo_port {
	struct ibtopo_node *node;	/* owner */
	unsigned num;			/* port number; 0 = switch management port */
	unsigned ext_num;		/* external (faceplate) number, 0 = none */
	uint64_t guid;			/* port GUID; 0 = unknown */
	uint16_t lid;			/* 0 = unknown */
	uint8_t lmc;
	uint8_t state;			/* enum ibtopo_port_state */
	uint8_t phys_state;		/* IBA PortPhysicalState, 0 = unknown */
	uint8_t width_supported;	/* enum ibtopo_width masks */
	uint8_t width_enabled;
	uint8_t width_active;		/* one bit, or 0 */
	uint16_t speed_supported;	/* enum ibtopo_speed masks */
	uint16_t speed_enabled;
	uint16_t speed_active;		/* one bit, or 0 */
	uint32_t cap_mask;		/* PortInfo CapabilityMask; 0 = unknown */
	/* PortInfo MTUCap, NeighborMTU (1 256 .. 5 4096 bytes), VLCap and
	 * OperVLs (1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14); 0 = unknown
	 * (text dumps) */
	uint8_t mtu_cap;
	uint8_t neighbor_mtu;
	uint8_t vl_cap;
	uint8_t oper_vls;
	struct ibtopo_port *remote;	/* peer port, NULL if unconnected */
	struct ibtopo_link *link;	/* link this port is an end of, or NULL */
	/* PMA counters (discover --counters, import --counters); NULL = not
	 * read. Owned by the fabric: set with ibtopo_port_set_counters(). */
	struct ibtopo_counters *counters;
	/* PKeyTable (discover reads it for CA ports and for switch ports
	 * that enforce partitions); NULL = not read. Owned by the fabric:
	 * set with ibtopo_port_set_pkeys(). */
	struct ibtopo_pkeys *pkeys;
};

/** One node (CA, switch or router). */
struct ibtopo_node {
	enum ibtopo_node_type type;
	uint64_t guid;			/* node GUID */
	uint64_t sysimg_guid;		/* system image GUID; 0 = unknown */
	char *desc;			/* node description; never NULL */
	uint32_t vendor_id;		/* 0 = unknown */
	uint32_t device_id;
	uint32_t revision;
	unsigned nports;		/* number of physical ports */
	/* ports[0..nports]; ports[i] is port i or NULL when absent or unknown.
	 * CAs have no port 0. */
	struct ibtopo_port **ports;
	size_t index;			/* position in the fabric's node list */
	bool enhanced_port0;		/* switch port 0 is enhanced */
	/* firmware, where an input carries it (ibdiagnet2.db_csv
	 * NODES_INFO): version major.minor.subminor (all 0: unknown) and
	 * PSID (NULL: unknown; owned by the fabric) */
	uint16_t fw_major, fw_minor, fw_subminor;
	const char *psid;
	/* a switch's linear forwarding table (discover --routes, import
	 * --routes); NULL = not read. Owned by the fabric: set with
	 * ibtopo_node_set_lft(). */
	struct ibtopo_lft *lft;
	/* its multicast forwarding table (discover --routes, --routes
	 * opensm.mcfdbs); NULL = not read or empty. Owned by the fabric:
	 * set with ibtopo_node_set_mft(). */
	struct ibtopo_mft *mft;
};

/**
 * One physical link between two ports. `a` is the end whose node GUID is
 * the lower (ties broken by port number) so links compare stably.
 * Planned values come from a topology file's trailer (0 = not stated).
 */
struct ibtopo_link {
	struct ibtopo_port *a;
	struct ibtopo_port *b;
	size_t index;			/* position in the fabric's link list */
	uint16_t speed;			/* active speed bit (as both ends report) */
	uint8_t width;			/* active width bit */
	struct ibtopo_cable *cable;	/* NULL when no cable data */
};

/** Where a fabric came from and when; strings owned by the fabric. */
struct ibtopo_fabric_meta {
	char *label;		/* NULL = none */
	char *source;		/* "discover:mlx5_0/1", "file:/path", ... */
	char *host;		/* host the snapshot was taken on */
	time_t taken_at;	/* UTC seconds */
	bool partial;		/* discovery did not reach every node */
	int64_t snapshot_id;	/* 0 = not stored */
	char *partial_reason;	/* what did not answer; NULL = not known */
	/* The fabric (subnet) a snapshot belongs to in the store: set it
	 * before ibtopo_store_save() to choose one, else the store picks. */
	char *fabric;		/* NULL = not named */
	/* Where a discovery was made from; 0 or NULL = not known. */
	uint64_t subnet_prefix;	/* PortInfo GidPrefix of the local port */
	char *local_ca;		/* local CA discovered through */
	unsigned local_port;	/* its port */
	uint16_t sm_lid;	/* PortInfo MasterSMLID */
	uint64_t sm_guid;	/* master SM's port GUID (SMInfo) */
};

struct ibtopo_fabric;

/** Create an empty fabric. */
int ibtopo_fabric_new(struct ibtopo_fabric **out, struct ibtopo_error *err);
/** Free a fabric and everything it owns; NULL is fine. */
void ibtopo_fabric_free(struct ibtopo_fabric *fabric);

/** Metadata of a fabric; borrowed, writable through the setters below. */
const struct ibtopo_fabric_meta *ibtopo_fabric_meta(const struct ibtopo_fabric *fabric);
/** Set a metadata string (label, source, host); value is copied; NULL clears. */
int ibtopo_fabric_set_label(struct ibtopo_fabric *fabric, const char *label,
			    struct ibtopo_error *err);
int ibtopo_fabric_set_source(struct ibtopo_fabric *fabric, const char *source,
			     struct ibtopo_error *err);
int ibtopo_fabric_set_host(struct ibtopo_fabric *fabric, const char *host,
			   struct ibtopo_error *err);
void ibtopo_fabric_set_taken_at(struct ibtopo_fabric *fabric, time_t when);
void ibtopo_fabric_set_partial(struct ibtopo_fabric *fabric, bool partial);
/** Why the fabric is partial (copied; NULL clears). */
int ibtopo_fabric_set_partial_reason(struct ibtopo_fabric *fabric,
				     const char *reason, struct ibtopo_error *err);
void ibtopo_fabric_set_snapshot_id(struct ibtopo_fabric *fabric, int64_t id);
/** Name the fabric (subnet) the snapshot belongs to (copied; NULL clears). */
int ibtopo_fabric_set_fabric_name(struct ibtopo_fabric *fabric,
				  const char *name, struct ibtopo_error *err);
/**
 * A node's name, the one rule every output names it by (the Slurm and
 * Kubernetes files, the metrics' node label, the diagram where nothing
 * else tells two nodes apart), into buf (len bytes with the NUL): a
 * switch's <name> of "MF0;<name>:<model>/<unit>", or its description
 * when that is one name word ("spine01"); a CA's host name (the first
 * word of "<host> <adapter>", or a description a person wrote,
 * "compute-01"); else "S-<guid>", "H-<guid>" or "R-<guid>", as
 * ibnetdiscover calls a switch, CA or router. Only letters, digits,
 * '-', '_' and '.'. Returns buf.
 */
const char *ibtopo_node_name(char *buf, size_t len,
			     const struct ibtopo_node *node);
/* A buffer that holds every name ibtopo_node_name() makes. */
#define IBTOPO_NODE_NAME_MAX 256
/**
 * The name the store gives a new fabric, into buf (len bytes with the
 * NUL): its subnet prefix's leading group ("fe80", "fabric" when not
 * known) and the lowest switch node GUID (lowest node GUID without
 * switches): "fe80-0008f10400411a08". The same fabric always gets the
 * same name. Returns buf.
 */
const char *ibtopo_fabric_default_name(char *buf, size_t len,
				       const struct ibtopo_fabric *fabric);
/**
 * Record the subnet a discovery was made in: the local port's subnet
 * prefix and master SM LID, and the SM's port GUID (0 = not known).
 */
void ibtopo_fabric_set_subnet(struct ibtopo_fabric *fabric, uint64_t prefix,
			      uint16_t sm_lid, uint64_t sm_guid);
/** Record the local CA (copied; NULL clears) and port discovered through. */
int ibtopo_fabric_set_local_port(struct ibtopo_fabric *fabric, const char *ca,
				 unsigned port, struct ibtopo_error *err);

/**
 * Add a node with `nports` physical ports (no port objects yet).
 * Returns IBTOPO_EINVAL if a node with that GUID exists already.
 * The node is owned by the fabric; *out is borrowed.
 */
int ibtopo_fabric_add_node(struct ibtopo_node **out, struct ibtopo_fabric *fabric,
			   enum ibtopo_node_type type, uint64_t guid,
			   unsigned nports, const char *desc,
			   struct ibtopo_error *err);
/** Set a node's firmware version and PSID (copied; NULL: unknown). */
int ibtopo_node_set_firmware(struct ibtopo_fabric *fabric,
			     struct ibtopo_node *node, unsigned major,
			     unsigned minor, unsigned subminor,
			     const char *psid, struct ibtopo_error *err);
/** Replace a node's description (copied). */
int ibtopo_node_set_desc(struct ibtopo_node *node, const char *desc,
			 struct ibtopo_error *err);
/**
 * Create port `num` of a node (0..nports), zeroed but for node/num, or
 * return the existing one. The port is owned by the fabric.
 */
int ibtopo_node_add_port(struct ibtopo_port **out, struct ibtopo_fabric *fabric,
			 struct ibtopo_node *node, unsigned num,
			 struct ibtopo_error *err);
/** Register a port GUID in the fabric's port index (after setting port->guid). */
int ibtopo_fabric_index_port(struct ibtopo_fabric *fabric, struct ibtopo_port *port,
			     struct ibtopo_error *err);
/**
 * Link two ports. Sets remote/link on both; link speed/width are taken
 * from the ports' active values. Returns IBTOPO_EINVAL if either port is
 * already linked (to another port) or a == b.
 */
int ibtopo_fabric_connect(struct ibtopo_link **out, struct ibtopo_fabric *fabric,
			  struct ibtopo_port *a, struct ibtopo_port *b,
			  struct ibtopo_error *err);
/** Attach cable data to a link (copied; replaces any earlier cable). */
int ibtopo_link_set_cable(struct ibtopo_fabric *fabric, struct ibtopo_link *link,
			  const struct ibtopo_cable *cable, struct ibtopo_error *err);

size_t ibtopo_fabric_node_count(const struct ibtopo_fabric *fabric);
struct ibtopo_node *ibtopo_fabric_node(const struct ibtopo_fabric *fabric, size_t i);
size_t ibtopo_fabric_link_count(const struct ibtopo_fabric *fabric);
struct ibtopo_link *ibtopo_fabric_link(const struct ibtopo_fabric *fabric, size_t i);
/** Count of nodes of one type. */
size_t ibtopo_fabric_count_type(const struct ibtopo_fabric *fabric,
				enum ibtopo_node_type type);
/** Node by node GUID, or NULL. */
struct ibtopo_node *ibtopo_fabric_find_node(const struct ibtopo_fabric *fabric,
					    uint64_t guid);
/** Port by port GUID, or NULL. */
struct ibtopo_port *ibtopo_fabric_find_port(const struct ibtopo_fabric *fabric,
					    uint64_t guid);
/**
 * First node whose description equals `desc`, or NULL. Descriptions need
 * not be unique: to find the node a person names, use
 * ibtopo_fabric_find_node_name().
 */
struct ibtopo_node *ibtopo_fabric_find_node_desc(const struct ibtopo_fabric *fabric,
						 const char *desc);
/**
 * The one node a person names: a node GUID or a port GUID ("0x" and 1 to
 * 16 hex digits), else a node description. A GUID is always taken; a
 * description only when one node has it. IBTOPO_ENOTFOUND "no node
 * '<name>' in the fabric"; IBTOPO_EAMBIGUOUS when several nodes have that
 * description, the message counting them and listing GUIDs to give
 * instead ("'<name>' names 78 nodes: 0x..., 0x..., ... and 73 more; name
 * one by its GUID"); IBTOPO_EINVAL without a fabric or name. When no
 * description fits: "lid:N" or a plain decimal N (a LID in a port's
 * LID/LMC range), a GUID without "0x" or as an ibnetdiscover id
 * ("S-<hex>", "H-<hex>"), a switch's short name, a CA's host name. *out is
 * borrowed from the fabric, NULL on failure. Every option taking a node
 * name (render --focus, analyze --roots lines, cable inventories) reads
 * it this way.
 */
int ibtopo_fabric_find_node_name(struct ibtopo_node **out,
				 const struct ibtopo_fabric *fabric,
				 const char *name, struct ibtopo_error *err);
/**
 * A node GUID that two nodes answer with (cloned firmware, a board
 * replaced with its old GUID), as a reader or a sweep found it: the model
 * holds one node per GUID, so the two are merged, and the sign left is a
 * port of that GUID that two different peers are cabled to. Peer GUIDs
 * are 0 and ports 0 when not known (two records of one GUID in a dump).
 */
struct ibtopo_guid_clash {
	uint64_t guid;		/* the node GUID two nodes use */
	unsigned port;		/* its port two peers claim; 0 = not known */
	uint64_t peer_guid[2];	/* node GUIDs of those peers */
	unsigned peer_port[2];	/* their port numbers */
};
/**
 * Record a GUID clash (copied; one per GUID and port, a repeat is
 * ignored). The analysis reports each as a duplicate-node-guid finding.
 */
int ibtopo_fabric_add_guid_clash(struct ibtopo_fabric *fabric,
				 const struct ibtopo_guid_clash *clash,
				 struct ibtopo_error *err);
/** How many GUID clashes a fabric carries, and the i-th (borrowed). */
size_t ibtopo_fabric_guid_clash_count(const struct ibtopo_fabric *fabric);
const struct ibtopo_guid_clash *
ibtopo_fabric_guid_clash(const struct ibtopo_fabric *fabric, size_t i);

/** SMInfo SMState. */
enum ibtopo_sm_state {
	IBTOPO_SM_NOT_ACTIVE = 0,
	IBTOPO_SM_DISCOVERING = 1,
	IBTOPO_SM_STANDBY = 2,
	IBTOPO_SM_MASTER = 3,
};

/**
 * A subnet manager: a port whose CapabilityMask says IsSM, and what its
 * SMInfo answered (a live sweep asks each with a Get).
 */
struct ibtopo_sm {
	uint64_t node_guid;	/* the node of the SM's port */
	unsigned port;		/* its port (0: a switch's) */
	bool answered;		/* SMInfo answered; else the rest is 0 */
	uint64_t guid;		/* SMInfo GUID: the SM's port GUID */
	uint8_t priority;
	uint8_t state;		/* enum ibtopo_sm_state */
	uint32_t act_count;	/* ActCount */
	/* a master's SMInfo read again a moment later (discover): its
	 * ActCount then; an SM counts the SMPs it sends, that answer too */
	bool reread;
	uint32_t act_count2;
};
/** Record a subnet manager (copied). */
int ibtopo_fabric_add_sm(struct ibtopo_fabric *fabric,
			 const struct ibtopo_sm *sm, struct ibtopo_error *err);
/** How many subnet managers a fabric carries, and the i-th (borrowed). */
size_t ibtopo_fabric_sm_count(const struct ibtopo_fabric *fabric);
const struct ibtopo_sm *ibtopo_fabric_sm(const struct ibtopo_fabric *fabric,
					 size_t i);
/**
 * Whether the subnet managers were looked for (a live sweep asks every
 * IsSM port; a file says nothing of them): only then does a fabric
 * without one lack one.
 */
void ibtopo_fabric_set_sms_read(struct ibtopo_fabric *fabric, bool read);
bool ibtopo_fabric_sms_read(const struct ibtopo_fabric *fabric);

/** PortInfo PartitionEnforcementInbound / Outbound of a switch port. */
enum ibtopo_pkey_enforce {
	IBTOPO_PKEY_ENFORCE_IN = 1u << 0,
	IBTOPO_PKEY_ENFORCE_OUT = 1u << 1,
};
/* A PKey's membership bit (set: full member) and its partition bits. */
#define IBTOPO_PKEY_FULL 0x8000u
#define IBTOPO_PKEY_BASE 0x7fffu
/* The default partition's PKey (0x7fff limited, 0xffff full). */
#define IBTOPO_PKEY_DEFAULT 0x7fffu

/**
 * A port's PKeyTable as read: its valid entries in table order (those
 * whose partition bits are not 0), the membership bit (IBTOPO_PKEY_FULL)
 * as the table holds it; and, for a switch port, the partition
 * enforcement its PortInfo says (enum ibtopo_pkey_enforce).
 */
struct ibtopo_pkeys {
	uint16_t *keys;		/* `count` entries; owned by the fabric */
	size_t count;
	uint8_t enforce;	/* enum ibtopo_pkey_enforce */
};
/**
 * Set a port's PKeys: `count` entries of `keys` (copied; entries whose
 * partition bits are 0 are left out) and its enforcement bits. NULL
 * keys with count 0 records an empty table. IBTOPO_EINVAL, IBTOPO_ENOMEM.
 */
int ibtopo_port_set_pkeys(struct ibtopo_port *port, const uint16_t *keys,
			  size_t count, unsigned enforce,
			  struct ibtopo_error *err);
/**
 * The membership `port` has in partition `base` (a PKey's low 15 bits):
 * 2 full, 1 limited, 0 none (or its table was not read).
 */
int ibtopo_port_pkey_member(const struct ibtopo_port *port, unsigned base);

/** Port `num` of a node or NULL. */
struct ibtopo_port *ibtopo_node_port(const struct ibtopo_node *node, unsigned num);
/**
 * Sort nodes by (type, GUID) and links by (a GUID, a port), renumbering
 * `index`, so every reader yields the same order for the same fabric.
 */
void ibtopo_fabric_sort(struct ibtopo_fabric *fabric);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_FABRIC_H */
