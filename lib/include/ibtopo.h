/*
 * ibtopo.h - InfiniBand fabric topology analyzer, public interface.
 *
 * The only header a program using libibtopo includes. Self-contained C11.
 *
 * Conventions, the same for every function below:
 * - Names are ibtopo_<noun>_<verb>(); macros and enumerators IBTOPO_.
 * - Functions that can fail return 0 or a negative enum ibtopo_status and
 *   take an optional struct ibtopo_error * as their last argument, which
 *   receives a one-line message (the library never prints or exits).
 * - `**out` results come first, belong to the caller and are freed with
 *   the matching _free() (which accepts NULL); plain pointers returned
 *   are borrowed from their parent.
 * - struct ibtopo_fabric owns every node, port and link; findings borrow it.
 * - Option structs start with a version field: initialize them with
 *   their IBTOPO_*_INIT macro.
 * Build with `pkg-config --cflags --libs ibtopo` (add --static to link
 * libibtopo.a); README.md describes the command built on this library.
 */
#ifndef IBTOPO_H
#define IBTOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

enum ibtopo_status {
	IBTOPO_OK = 0,
	IBTOPO_ERROR = -1,	/* generic failure */
	IBTOPO_EINVAL = -2,	/* bad argument or usage */
	IBTOPO_ENOMEM = -3,	/* out of memory */
	IBTOPO_ENOTFOUND = -4,	/* no such snapshot, node, file */
	IBTOPO_EIO = -5,	/* reading or writing a file or database */
	IBTOPO_EPARSE = -6,	/* malformed input */
	IBTOPO_ENODEV = -7,	/* no InfiniBand device or port */
	IBTOPO_EPARTIAL = -8,	/* discovery incomplete */
	IBTOPO_EVERSION = -9,	/* database from a newer schema version */
	IBTOPO_EBUSY = -10,	/* database locked too long */
	IBTOPO_EEXIST = -11,	/* a label names another snapshot already */
	IBTOPO_EAMBIGUOUS = -12, /* a name or label fits several things */
};

#define IBTOPO_ERROR_SIZE 256

/** Error detail: a status code and a one-line lowercase message. */
struct ibtopo_error {
	int code;
	char message[IBTOPO_ERROR_SIZE];
};

#define IBTOPO_ERROR_INIT { 0, { 0 } }

/** Static description of a status code; never NULL. */
const char *ibtopo_strerror(int code);

/* ------------------------------------------------------------------ */
/* Speeds and widths                                                   */
/* ------------------------------------------------------------------ */

/** Link speeds as bits, ordered slowest to fastest; sets are masks. */
enum ibtopo_speed {
	IBTOPO_SPEED_SDR = 1u << 0,
	IBTOPO_SPEED_DDR = 1u << 1,
	IBTOPO_SPEED_QDR = 1u << 2,
	IBTOPO_SPEED_FDR10 = 1u << 3,
	IBTOPO_SPEED_FDR = 1u << 4,
	IBTOPO_SPEED_EDR = 1u << 5,
	IBTOPO_SPEED_HDR = 1u << 6,
	IBTOPO_SPEED_NDR = 1u << 7,
	IBTOPO_SPEED_XDR = 1u << 8,
};
#define IBTOPO_SPEED_ALL 0x1ffu

/** Link widths as IBA LinkWidth bits; sets are masks. */
enum ibtopo_width {
	IBTOPO_WIDTH_1X = 1u << 0,
	IBTOPO_WIDTH_4X = 1u << 1,
	IBTOPO_WIDTH_8X = 1u << 2,
	IBTOPO_WIDTH_12X = 1u << 3,
	IBTOPO_WIDTH_2X = 1u << 4,
};
#define IBTOPO_WIDTH_ALL 0x1fu

/** "SDR".."XDR" for one speed bit; "?" for 0 or several bits. */
const char *ibtopo_speed_name(unsigned speed);
/** Parse "HDR", "FDR10", ... (case-insensitive) into a bit; 0 if unknown. */
unsigned ibtopo_speed_parse(const char *name);
/** Highest speed bit of a mask; 0 for an empty mask. */
unsigned ibtopo_speed_highest(unsigned mask);
/** Data rate of one lane at that speed in Gb/s (after encoding); 0 if unknown. */
double ibtopo_speed_lane_gbps(unsigned speed);

/** "1x", "2x", "4x", "8x", "12x" for one width bit; "?" otherwise. */
const char *ibtopo_width_name(unsigned width);
/** Parse "4x" / "4X" into a width bit; 0 if unknown. */
unsigned ibtopo_width_parse(const char *name);
/** Lanes of one width bit (1, 2, 4, 8, 12); 0 if unknown. */
unsigned ibtopo_width_lanes(unsigned width);
/** Widest width bit of a mask (by lanes); 0 for an empty mask. */
unsigned ibtopo_width_highest(unsigned mask);

/** Data rate of a link in Gb/s from one speed bit and one width bit. */
double ibtopo_link_gbps(unsigned speed, unsigned width);

/* ------------------------------------------------------------------ */
/* Fabric model                                                        */
/* ------------------------------------------------------------------ */

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
	struct ibtopo_port *remote;	/* peer port, NULL if unconnected */
	struct ibtopo_link *link;	/* link this port is an end of, or NULL */
	/* PMA counters (discover --counters, import --counters); NULL = not
	 * read. Owned by the fabric: set with ibtopo_port_set_counters(). */
	struct ibtopo_counters *counters;
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

/**
 * Add a node with `nports` physical ports (no port objects yet).
 * Returns IBTOPO_EINVAL if a node with that GUID exists already.
 * The node is owned by the fabric; *out is borrowed.
 */
int ibtopo_fabric_add_node(struct ibtopo_node **out, struct ibtopo_fabric *fabric,
			   enum ibtopo_node_type type, uint64_t guid,
			   unsigned nports, const char *desc,
			   struct ibtopo_error *err);
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
 * one by its GUID"); IBTOPO_EINVAL without a fabric or name. *out is
 * borrowed from the fabric, NULL on failure. Every option taking a node
 * name (render --focus, analyze --roots lines, cable inventories) reads
 * it this way.
 */
int ibtopo_fabric_find_node_name(struct ibtopo_node **out,
				 const struct ibtopo_fabric *fabric,
				 const char *name, struct ibtopo_error *err);
/** Port `num` of a node or NULL. */
struct ibtopo_port *ibtopo_node_port(const struct ibtopo_node *node, unsigned num);
/**
 * Sort nodes by (type, GUID) and links by (a GUID, a port), renumbering
 * `index`, so every reader yields the same order for the same fabric.
 */
void ibtopo_fabric_sort(struct ibtopo_fabric *fabric);

/* ------------------------------------------------------------------ */
/* Port counters (PerfMgt PortCounters / PortCountersExtended)         */
/* ------------------------------------------------------------------ */

/** The counters a port's PMA keeps, in PortCounters order. */
enum ibtopo_counter {
	IBTOPO_CTR_SYMBOL_ERRORS = 0,		/* 16 bits */
	IBTOPO_CTR_LINK_ERROR_RECOVERY,		/* 8 */
	IBTOPO_CTR_LINK_DOWNED,			/* 8 */
	IBTOPO_CTR_RCV_ERRORS,			/* 16 */
	IBTOPO_CTR_RCV_REMOTE_PHYS_ERRORS,	/* 16 */
	IBTOPO_CTR_RCV_SWITCH_RELAY_ERRORS,	/* 16 */
	IBTOPO_CTR_XMIT_DISCARDS,		/* 16 */
	IBTOPO_CTR_XMIT_CONSTRAINT_ERRORS,	/* 8 */
	IBTOPO_CTR_RCV_CONSTRAINT_ERRORS,	/* 8 */
	IBTOPO_CTR_LOCAL_LINK_INTEGRITY_ERRORS,	/* 4 */
	IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS, /* 4 */
	IBTOPO_CTR_VL15_DROPPED,		/* 16 */
	IBTOPO_CTR_XMIT_WAIT,			/* 32 */
	IBTOPO_CTR_XMIT_DATA,			/* 32, or 64 extended; 4-byte words */
	IBTOPO_CTR_RCV_DATA,
	IBTOPO_CTR_XMIT_PKTS,
	IBTOPO_CTR_RCV_PKTS,
	IBTOPO_CTR_COUNT_
};

/** One port's counters as read at one moment. */
struct ibtopo_counters {
	uint64_t value[IBTOPO_CTR_COUNT_];
	uint32_t valid;		/* 1u << counter: the value was read */
	uint32_t extended;	/* 1u << counter: 64 bits (PortCountersExtended) */
	int64_t read_at_ms;	/* UTC milliseconds since the epoch; 0 = unknown */
};

/**
 * The IBA name of a counter as perfquery prints it ("SymbolErrorCounter",
 * "PortXmitData"); NULL when out of range.
 */
const char *ibtopo_counter_name(enum ibtopo_counter counter);
/** Inverse of ibtopo_counter_name() (case-insensitive); -1 if unknown. */
int ibtopo_counter_parse(const char *name);
/** Width in bits of a counter (64 for an extended one). */
unsigned ibtopo_counter_bits(enum ibtopo_counter counter, bool extended);
/** True for the error counters (SymbolErrorCounter .. VL15Dropped). */
bool ibtopo_counter_is_error(enum ibtopo_counter counter);
/** True when `value` is the counter's largest (it stopped counting). */
bool ibtopo_counter_is_saturated(enum ibtopo_counter counter, bool extended,
				 uint64_t value);

/**
 * Attach counters to a port (copied into fabric-owned memory; replaces
 * earlier ones; NULL removes them). IBTOPO_EINVAL without a port,
 * IBTOPO_ENOMEM.
 */
int ibtopo_port_set_counters(struct ibtopo_port *port,
			     const struct ibtopo_counters *counters,
			     struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Discovery (libibnetdisc) and cache files                            */
/* ------------------------------------------------------------------ */

enum ibtopo_discover_flags {
	IBTOPO_DISCOVER_PARTIAL = 1u << 0,	/* keep an incomplete fabric */
	/* read the PMA counters of every linked port (Gets only) */
	IBTOPO_DISCOVER_COUNTERS = 1u << 1,
};

struct ibtopo_discover_opts {
	unsigned version;		/* IBTOPO_DISCOVER_OPTS_VERSION */
	const char *ca;			/* CA name, NULL = first */
	int port;			/* CA port, 0 = first active */
	unsigned timeout_ms;		/* per MAD, 0 = library default */
	unsigned flags;			/* enum ibtopo_discover_flags */
	/* optional progress callback (nodes seen so far); may be NULL */
	void (*progress)(void *arg, size_t nodes);
	void *progress_arg;
	/* version 2: */
	unsigned retries;		/* whole sweeps again while incomplete */
	/* optional: a sweep was incomplete and is tried again; may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
};
#define IBTOPO_DISCOVER_OPTS_VERSION 2
#define IBTOPO_DISCOVER_OPTS_INIT \
	{ IBTOPO_DISCOVER_OPTS_VERSION, NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL }

/**
 * Discover the fabric attached to a local CA port through libibnetdisc.
 * opts may be NULL (first CA, first active port, default timeout).
 * Returns IBTOPO_ENODEV when no device or port is there (or it cannot be
 * opened, or is an Ethernet port), IBTOPO_ERROR when libibnetdisc fails
 * (it logs on stderr itself), IBTOPO_EPARTIAL when discovery stopped
 * part-way and IBTOPO_DISCOVER_PARTIAL was not given (then *out is NULL).
 * With the flag, *out is marked partial instead. Part-way means: a port
 * that is LinkUp has no peer (the peer did not answer), a switch is
 * missing the PortInfo of one of its ports, a port its PortInfo, or a
 * node its NodeDescription, after each of those was asked for again (the
 * message names the first one and its directed route). An incomplete
 * sweep is run again up to `retries` times; the one that found most
 * links (then nodes, then missed least) is kept. The fabric's source is
 * "discover:<ca>/<port>", host and taken_at are set, and it is sorted.
 */
int ibtopo_fabric_discover(struct ibtopo_fabric **out,
			   const struct ibtopo_discover_opts *opts,
			   struct ibtopo_error *err);

/**
 * Load an `ibnetdiscover --cache` file (its layout is checked before
 * libibnetdisc reads it). IBTOPO_EPARSE "'<path>': not an ibnetdiscover
 * cache file" or "'<path>': truncated or corrupt cache file";
 * IBTOPO_EIO/ENOTFOUND when unreadable. taken_at is the file's mtime;
 * host stays NULL; the fabric is marked partial by the rule of
 * ibtopo_fabric_discover() (a cache of an incomplete discovery).
 */
int ibtopo_fabric_load_cache(struct ibtopo_fabric **out, const char *path,
			     struct ibtopo_error *err);

/** True if the file starts like an ibnetdiscover cache file. */
bool ibtopo_file_is_cache(const char *path);

/* ------------------------------------------------------------------ */
/* Reading fabric files                                                */
/* ------------------------------------------------------------------ */

enum ibtopo_file_format {
	IBTOPO_FILE_AUTO = 0,		/* detect from content */
	IBTOPO_FILE_CACHE,		/* ibnetdiscover --cache */
	IBTOPO_FILE_IBNETDISCOVER,	/* ibnetdiscover text (also plans) */
	IBTOPO_FILE_PORTS,		/* ibnetdiscover -p ports report */
	IBTOPO_FILE_IBSIM,		/* ibsim net file */
};

struct ibtopo_read_opts {
	unsigned version;		/* IBTOPO_READ_OPTS_VERSION */
	enum ibtopo_file_format format;
	const char *node_name_map;	/* infiniband-diags map file, or NULL */
	/* optional: non-fatal problems ("file:line: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
};
#define IBTOPO_READ_OPTS_VERSION 1
#define IBTOPO_READ_OPTS_INIT { IBTOPO_READ_OPTS_VERSION, IBTOPO_FILE_AUTO, NULL, NULL, NULL }

/**
 * Read a fabric from a file of any supported format (opts may be NULL:
 * detect the format, no name map, no warnings). The fabric's source is
 * set to "file:<path>". IBTOPO_EIO if unreadable, IBTOPO_EPARSE with
 * "<path>:<line>: ..." for malformed content.
 */
int ibtopo_fabric_read_file(struct ibtopo_fabric **out, const char *path,
			    const struct ibtopo_read_opts *opts,
			    struct ibtopo_error *err);

/**
 * Read a fabric from text in memory (`len` bytes, need not end in NUL);
 * `name` stands for the file in messages ("<name>:<line>: ..."). Accepts
 * the text formats: ibnetdiscover output and plans written like it,
 * the `ibnetdiscover -p` ports report (with or without the -v DR-path
 * lines), and ibsim net files; `opts->format` forces one (CACHE is
 * IBTOPO_EINVAL here: cache files are read from a path). What the text
 * does not state stays unknown: speeds and widths are active values,
 * supported and enabled sets stay 0, LIDs are those printed (ibsim net
 * files: enabled sets as stated, supported sets as ibsim fixes them,
 * active values as ibsim trains each link, LIDs unknown). Nodes named
 * instead of GUIDs ("leaf01") get ibtopo_name_guid(); a link seen from
 * both ends is one link, and ends that disagree are reported through
 * opts->warn naming both lines. A ports report without the -v DR-path
 * lines gives CA port GUIDs only: each CA port becomes a CA of its own
 * (a dual-port CA reads as two), and opts->warn says so once, counting
 * them. IBTOPO_EPARSE with "<name>:<line>: <what
 * was expected>" for malformed text, binary data, an empty or truncated
 * file, a line over 4096 bytes, duplicate nodes that differ, a port line
 * before any node; *out is then NULL. The source is left unset.
 * Messages and warnings quote the input printably: bytes that are not
 * printable ASCII or well-formed UTF-8 (and the backslash) read "\xNN",
 * and a message too long for the buffer ends in "...".
 */
int ibtopo_fabric_read_buffer(struct ibtopo_fabric **out, const char *buf,
			      size_t len, const char *name,
			      const struct ibtopo_read_opts *opts,
			      struct ibtopo_error *err);

/**
 * The text format of a buffer, from its content: IBTOPO_FILE_PORTS,
 * IBTOPO_FILE_IBSIM (Hca records, w=/s=/e= port options or global
 * width=/speed=/extspeed= lines), IBTOPO_FILE_IBNETDISCOVER (node
 * records), or IBTOPO_FILE_AUTO when none fits.
 */
enum ibtopo_file_format ibtopo_file_format_detect(const char *buf, size_t len);
/** "auto", "cache", "ibnetdiscover", "ports", "ibsim". */
const char *ibtopo_file_format_name(enum ibtopo_file_format format);
/** Inverse of ibtopo_file_format_name() ("plan" = ibnetdiscover); -1 if unknown. */
int ibtopo_file_format_parse(const char *name);

/**
 * The GUID the readers (and planned fabrics) give a node known by name
 * only: 64-bit FNV-1a of the name with bit 57 set (the locally
 * administered bit of the top byte), so it never takes a vendor's OUI.
 * A reader that finds two names with one GUID rehashes the later name.
 */
uint64_t ibtopo_name_guid(const char *name);

/* ------------------------------------------------------------------ */
/* Node-name maps                                                      */
/* ------------------------------------------------------------------ */

/*
 * A node-name map gives nodes names by GUID, as ibnetdiscover's
 * --node-name-map does. Lines, '#' starting a comment:
 *   0x0002c90300080e84 "r510gluster1"     infiniband-diags format
 *   0x0002c90300080e84 r510gluster1       unquoted name (to the line end)
 *   H-0002c90300080e84 r510gluster1       ibnetdiscover node id (S-, H-, R-)
 * The first entry for a GUID wins.
 */
struct ibtopo_name_map;

/** Load a map file. IBTOPO_EIO if unreadable, IBTOPO_EPARSE "<path>:<line>: ...". */
int ibtopo_name_map_load(struct ibtopo_name_map **out, const char *path,
			 struct ibtopo_error *err);
/** Parse a map from memory; `name` stands for the file in messages. */
int ibtopo_name_map_parse(struct ibtopo_name_map **out, const char *buf,
			  size_t len, const char *name, struct ibtopo_error *err);
/** Name for a node GUID, or NULL; borrowed from the map. */
const char *ibtopo_name_map_lookup(const struct ibtopo_name_map *map,
				   uint64_t guid);
/** Number of entries. */
size_t ibtopo_name_map_count(const struct ibtopo_name_map *map);
/**
 * Replace the description of every node whose GUID the map names.
 * `out_renamed` (may be NULL) receives how many were renamed.
 */
int ibtopo_name_map_apply(const struct ibtopo_name_map *map,
			  struct ibtopo_fabric *fabric, size_t *out_renamed,
			  struct ibtopo_error *err);
/** Free a map; NULL is fine. */
void ibtopo_name_map_free(struct ibtopo_name_map *map);

/* ------------------------------------------------------------------ */
/* Snapshot store (SQLite)                                             */
/* ------------------------------------------------------------------ */

struct ibtopo_store;

enum ibtopo_store_flags {
	IBTOPO_STORE_READONLY = 1u << 0,	/* never create or write */
};

/** One stored snapshot, as listed. Strings owned by the list. */
struct ibtopo_snapshot {
	int64_t id;
	char *label;		/* NULL = none */
	time_t taken_at;
	char *source;
	char *host;
	size_t switches;
	size_t cas;
	size_t routers;
	size_t links;
	bool partial;
	char *partial_reason;	/* NULL = complete, or not recorded */
};

/**
 * Resolve the database path: `explicit_path` if not NULL, else
 * $IBTOPO_DB, else $XDG_DATA_HOME/ibtopo/fabric.db, else
 * ~/.local/share/ibtopo/fabric.db. Writes into buf; IBTOPO_EINVAL if it
 * does not fit or no home is known.
 */
int ibtopo_store_default_path(char *buf, size_t len, const char *explicit_path,
			      struct ibtopo_error *err);

/**
 * Open (and unless READONLY, create with mode 0600, missing parent
 * directories 0700, and migrate) a database. A database of an older
 * schema version is migrated even with READONLY when this process can
 * write the file (once, in one transaction); if it cannot, that is
 * IBTOPO_EVERSION naming both versions. IBTOPO_EVERSION for a newer
 * schema (the file is untouched), IBTOPO_ENOTFOUND for a missing file
 * with READONLY, IBTOPO_EPARSE for a file that is not an ibtopo
 * database, IBTOPO_EIO when it cannot be created or written.
 */
int ibtopo_store_open(struct ibtopo_store **out, const char *path, unsigned flags,
		      struct ibtopo_error *err);
/** Close; NULL is fine. */
void ibtopo_store_free(struct ibtopo_store *store);

/**
 * Store a fabric as a new snapshot in one transaction (all or nothing);
 * sets its snapshot id, and its taken_at (now) and host (gethostname)
 * when they were unset. `out_id` may be NULL. IBTOPO_EBUSY if other
 * writers held the database for longer than 10 s, IBTOPO_EINVAL on a
 * store opened READONLY or a label that reads as a REF, IBTOPO_EEXIST
 * when the fabric's label names a stored snapshot already (see
 * ibtopo_store_save_ext() to move it).
 */
int ibtopo_store_save(int64_t *out_id, struct ibtopo_store *store,
		      struct ibtopo_fabric *fabric, struct ibtopo_error *err);
enum ibtopo_save_flags {
	/* a label in use moves to the new snapshot instead of failing */
	IBTOPO_SAVE_MOVE_LABEL = 1u << 0,
};

/**
 * Whether `label` may name a new snapshot. A label names one snapshot,
 * and a REF must reach it: IBTOPO_EINVAL when it is empty or reads as a
 * REF itself (decimal digits, `latest`, `latest~N`); IBTOPO_EEXIST when
 * a snapshot of `store` has it already (the message names the
 * snapshot), unless `flags` holds IBTOPO_SAVE_MOVE_LABEL. `store` may be
 * NULL: the text alone is checked. Returns 0 when it may.
 */
int ibtopo_store_check_label(struct ibtopo_store *store, const char *label,
			     unsigned flags, struct ibtopo_error *err);

/**
 * ibtopo_store_save() with `flags` (enum ibtopo_save_flags). The
 * fabric's label, when set, is checked with ibtopo_store_check_label()
 * inside the snapshot's transaction (IBTOPO_EINVAL, IBTOPO_EEXIST, and
 * nothing stored); with IBTOPO_SAVE_MOVE_LABEL the snapshots holding the
 * label lose it in that same transaction.
 */
int ibtopo_store_save_ext(int64_t *out_id, struct ibtopo_store *store,
			  struct ibtopo_fabric *fabric, unsigned flags,
			  struct ibtopo_error *err);
/**
 * Load snapshot `id` into a new fabric (sorted, meta filled in, cables
 * attached). IBTOPO_ENOTFOUND if there is no such snapshot.
 */
int ibtopo_store_load(struct ibtopo_fabric **out, struct ibtopo_store *store,
		      int64_t id, struct ibtopo_error *err);
/**
 * Resolve a REF into an id: a snapshot id, else a label, `latest`, or
 * `latest~N` (N snapshots before the latest, in the order they were
 * stored). IBTOPO_ENOTFOUND when nothing matches; IBTOPO_EAMBIGUOUS when
 * the label names several snapshots (databases written before labels
 * were unique), the message listing their ids.
 */
int ibtopo_store_resolve(int64_t *out, struct ibtopo_store *store, const char *ref,
			 struct ibtopo_error *err);
/** List snapshots, oldest first. Free with ibtopo_snapshot_list_free(). */
int ibtopo_store_list(struct ibtopo_snapshot **out, size_t *out_count,
		      struct ibtopo_store *store, struct ibtopo_error *err);
void ibtopo_snapshot_list_free(struct ibtopo_snapshot *list, size_t count);
/**
 * Delete snapshot `id` and everything stored with it, in one transaction.
 * IBTOPO_ENOTFOUND if there is no such snapshot, IBTOPO_EINVAL on a
 * store opened READONLY.
 */
int ibtopo_store_delete(struct ibtopo_store *store, int64_t id,
			struct ibtopo_error *err);
/** The path the store was opened with; borrowed from the store. */
const char *ibtopo_store_path(const struct ibtopo_store *store);

/* ------------------------------------------------------------------ */
/* Output: formats and sinks                                           */
/* ------------------------------------------------------------------ */

enum ibtopo_format {
	IBTOPO_FORMAT_TEXT = 0,
	IBTOPO_FORMAT_JSON,
	IBTOPO_FORMAT_CSV,
};

/** "text", "json", "csv" -> format; -1 if unknown. */
int ibtopo_format_parse(const char *name);

/** Where renderers write; write() returns 0 or a negative status. */
struct ibtopo_render_opts {
	unsigned version;	/* IBTOPO_RENDER_OPTS_VERSION */
	enum ibtopo_format format;
	int (*write)(void *arg, const char *buf, size_t len);
	void *write_arg;	/* e.g. a FILE * for ibtopo_write_file */
	unsigned flags;
};
#define IBTOPO_RENDER_OPTS_VERSION 1

/** A ready-made sink: write_arg is a FILE *. */
int ibtopo_write_file(void *file, const char *buf, size_t len);

/** Inventory reports (show / snapshots). */
int ibtopo_render_nodes(const struct ibtopo_render_opts *opts,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
int ibtopo_render_ports(const struct ibtopo_render_opts *opts,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
int ibtopo_render_links(const struct ibtopo_render_opts *opts,
			const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
/** Links that carry cable data: both ends, media, length, rating, ids. */
int ibtopo_render_cables(const struct ibtopo_render_opts *opts,
			 const struct ibtopo_fabric *fabric, struct ibtopo_error *err);
int ibtopo_render_snapshots(const struct ibtopo_render_opts *opts,
			    const struct ibtopo_snapshot *list, size_t count,
			    struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Writing fabric files (export)                                       */
/* ------------------------------------------------------------------ */

enum ibtopo_export_format {
	IBTOPO_EXPORT_IBNETDISCOVER = 0,	/* ibnetdiscover text */
	IBTOPO_EXPORT_IBSIM,		/* ibsim net file */
	IBTOPO_EXPORT_SLURM,		/* Slurm topology.conf (tree plugin) */
	IBTOPO_EXPORT_CSV,		/* the links, as `show links` CSV */
	IBTOPO_EXPORT_JSON,		/* nodes, ports and links */
};

/** "ibnetdiscover", "ibsim", "slurm", "csv", "json" -> format; -1 if unknown. */
int ibtopo_export_format_parse(const char *name);
/** Inverse of ibtopo_export_format_parse(); "?" if unknown. */
const char *ibtopo_export_format_name(enum ibtopo_export_format format);

/**
 * Write a fabric in an export format through opts' sink (opts->format is
 * ignored). ibnetdiscover: as `ibnetdiscover` prints it, readable by
 * ibsim and by ibtopo_fabric_read_buffer() into the same fabric.
 * ibsim: a net file whose ports' enabled masks (w= s= e=) make ibsim
 * train every link at its active speed and width; GUIDs kept through
 * switchguid=/caguid= lines (ibsim cannot simulate NDR and faster).
 * slurm: a topology.conf for Slurm's topology/tree plugin, one
 * `SwitchName=` line per switch, lowest level first (levels of
 * ibtopo_topology_analyze()): a leaf lists its hosts (Nodes=, hostlist
 * expressions), a switch above the leaves its neighbours on lower levels
 * (Switches=), so no switch is listed below its own descendant. Each host
 * is under one switch: the lowest-level one it is cabled to, then the one
 * with most of its cables, then the first by name (a rail-optimized
 * server goes under its first rail's leaf). Hosts on a switch that also
 * has switches below it get a leaf of their own, "<switch>-hosts"; when
 * no switch reaches every host, a logical switch "top" lists those that
 * no switch lists. A host is the first word of its CA's description, or
 * "H-<guid>" for firmware-default descriptions ("MT4129 ConnectX7
 * Mellanox Technologies"); SHARP aggregation nodes are left out.
 * IBTOPO_EIO if the sink fails.
 */
int ibtopo_fabric_write(const struct ibtopo_render_opts *opts,
			const struct ibtopo_fabric *fabric,
			enum ibtopo_export_format format,
			struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Findings (analyze, validate, diff)                                  */
/* ------------------------------------------------------------------ */

enum ibtopo_severity {
	IBTOPO_SEV_INFO = 0,
	IBTOPO_SEV_WARNING = 1,
	IBTOPO_SEV_ERROR = 2,
};
/** "info", "warning", "error". */
const char *ibtopo_severity_name(enum ibtopo_severity sev);
/** Inverse; -1 if unknown. */
int ibtopo_severity_parse(const char *name);

enum ibtopo_finding_kind {
	/* link and cable checks */
	IBTOPO_FIND_SPEED_DOWNGRADE = 1,
	IBTOPO_FIND_WIDTH_DOWNGRADE,
	IBTOPO_FIND_CABLE_OVER_LENGTH,
	IBTOPO_FIND_CABLE_UNDERRATED,
	IBTOPO_FIND_LOOPBACK_CABLE,
	/* topology */
	IBTOPO_FIND_LOW_PATH_DIVERSITY,
	IBTOPO_FIND_FAT_TREE_VIOLATION,
	/* validate */
	IBTOPO_FIND_MISSING_LINK,
	IBTOPO_FIND_EXTRA_LINK,
	IBTOPO_FIND_MISWIRED_LINK,
	IBTOPO_FIND_MISSING_NODE,
	IBTOPO_FIND_EXTRA_NODE,
	IBTOPO_FIND_SPEED_BELOW_PLAN,
	IBTOPO_FIND_WIDTH_BELOW_PLAN,
	/* diff */
	IBTOPO_FIND_NODE_ADDED,
	IBTOPO_FIND_NODE_REMOVED,
	IBTOPO_FIND_NODE_RENAMED,
	IBTOPO_FIND_LINK_ADDED,
	IBTOPO_FIND_LINK_REMOVED,
	IBTOPO_FIND_LINK_MOVED,
	IBTOPO_FIND_LINK_SPEED_CHANGED,
	IBTOPO_FIND_LINK_WIDTH_CHANGED,
	IBTOPO_FIND_PORT_STATE_CHANGED,
	IBTOPO_FIND_LID_CHANGED,
	/* port health (ibtopo_health_analyze) */
	IBTOPO_FIND_PORT_ERRORS,
	IBTOPO_FIND_PORT_ERROR_RATE,
	IBTOPO_FIND_LINK_FLAPPING,
	IBTOPO_FIND_KIND_MAX_
};

/** Stable JSON name of a kind ("speed-downgrade", ...). */
const char *ibtopo_finding_kind_name(enum ibtopo_finding_kind kind);

/** One end of a link as a finding names it. `node` is borrowed. */
struct ibtopo_end {
	const char *node;	/* description; NULL = none */
	uint64_t guid;		/* node GUID; 0 = unknown */
	int port;		/* port number; -1 = none */
};

/** What a finding's `detail` enum means depends on the kind. */
enum ibtopo_evidence {
	IBTOPO_EVIDENCE_NONE = 0,
	IBTOPO_EVIDENCE_PORT_INFO,	/* from PortInfo supported/enabled sets */
	IBTOPO_EVIDENCE_PEERS,		/* inferred from sibling links */
	IBTOPO_EVIDENCE_PLAN,		/* from a planned topology */
};

enum ibtopo_cause {
	IBTOPO_CAUSE_NONE = 0,
	IBTOPO_CAUSE_UNKNOWN,		/* signal quality, optics, ... */
	IBTOPO_CAUSE_CABLE,		/* the cable's rating is lower */
	IBTOPO_CAUSE_PORT_CONFIG,	/* an enabled set excludes the faster value */
	IBTOPO_CAUSE_DEVICE_LIMIT,	/* one end's model never runs faster */
};

/**
 * One finding. Data only: renderers turn it into words.
 * `a`/`b` name the link's ends; `c`/`d` the other link involved
 * (miswired: the planned peer; moved: the new ends).
 * `expected`/`actual` are speed or width bits depending on the kind, or
 * counts (paths, uplinks). `value`/`limit` carry measures (metres).
 */
struct ibtopo_finding {
	enum ibtopo_finding_kind kind;
	enum ibtopo_severity severity;
	struct ibtopo_end a, b, c, d;
	unsigned expected;
	unsigned actual;
	double value;
	double limit;
	enum ibtopo_evidence evidence;
	enum ibtopo_cause cause;
	int subkind;		/* per-kind refinement, see the module docs */
	const char *note;	/* static string or borrowed; may be NULL */
	/* cause device-limit: the limiting model; 0 = known by description */
	uint32_t vendor_id;
	uint32_t device_id;
};

/** A growable list of findings. */
struct ibtopo_findings {
	struct ibtopo_finding *items;
	size_t count;
	size_t alloc;
};
#define IBTOPO_FINDINGS_INIT { NULL, 0, 0 }

/** Append a copy of *f. */
int ibtopo_findings_add(struct ibtopo_findings *list, const struct ibtopo_finding *f,
			struct ibtopo_error *err);
/** Free the items (not the struct); the list is reusable afterwards. */
void ibtopo_findings_release(struct ibtopo_findings *list);
/** Highest severity in the list, or -1 if empty. */
int ibtopo_findings_max_severity(const struct ibtopo_findings *list);
/** Fill an end from a port (node description, node GUID, port number). */
void ibtopo_end_from_port(struct ibtopo_end *out, const struct ibtopo_port *port);

/* ------------------------------------------------------------------ */
/* Port health                                                         */
/* ------------------------------------------------------------------ */

/*
 * Port health: counters of one snapshot against thresholds, and their
 * growth between two. Findings (a = the port whose counter is high or
 * grew, b = its peer; subkind = the enum ibtopo_counter):
 * - port-errors (warning): an error counter above its threshold in the
 *   newer snapshot; value = the count, limit = the threshold.
 * - port-error-rate (error): an error counter grew between the snapshots;
 *   actual = the growth, value = growth per hour, limit = the interval in
 *   hours. note "saturated": it stopped at its largest value, so it grew
 *   at least that much; note "reset": it is lower than before (someone
 *   reset it), growth = its value now (at least that much), never a
 *   negative rate.
 * - link-flapping (error): LinkDownedCounter grew; the same fields.
 */
struct ibtopo_health_port {
	const struct ibtopo_port *port;		/* in the newer fabric */
	const struct ibtopo_counters *now;
	const struct ibtopo_counters *before;	/* NULL: no earlier reading */
	double hours;				/* between the readings; 0 */
	uint64_t growth[IBTOPO_CTR_COUNT_];	/* at least; valid in both */
	double rate[IBTOPO_CTR_COUNT_];		/* growth per hour */
	uint32_t saturated;	/* 1u << counter: at its largest value now */
	uint32_t reset;		/* 1u << counter: lower than before */
	uint64_t errors;	/* sum of the error counters now */
	double error_rate;	/* sum of the error counters' rates */
};

/** Per-port health, worst first (highest error rate, then error count). */
struct ibtopo_health {
	struct ibtopo_health_port *ports;
	size_t count;
	bool since;		/* an earlier snapshot was compared */
};

struct ibtopo_health_opts {
	unsigned version;	/* IBTOPO_HEALTH_OPTS_VERSION */
	/*
	 * Thresholds file as ibqueryerrors reads it, "Name=value" lines
	 * (SymbolErrorCounter=10), '#' comments; counters it leaves out keep
	 * the default, 0 (any error counts, as ibqueryerrors without a
	 * file). NULL: the defaults.
	 */
	const char *thresholds_path;
};
#define IBTOPO_HEALTH_OPTS_VERSION 1
#define IBTOPO_HEALTH_OPTS_INIT { IBTOPO_HEALTH_OPTS_VERSION, NULL }

/**
 * Health of the ports of `now` that carry counters, against `since` (an
 * earlier snapshot of the same fabric, ports matched by node GUID and
 * port number; may be NULL). Findings are appended to `findings` (may be
 * NULL); *out borrows both fabrics. IBTOPO_EINVAL, IBTOPO_EIO or
 * IBTOPO_EPARSE ("<path>:<line>: ...") for a bad thresholds file,
 * IBTOPO_ENOMEM.
 */
int ibtopo_health_analyze(struct ibtopo_health **out,
			  struct ibtopo_findings *findings,
			  const struct ibtopo_fabric *now,
			  const struct ibtopo_fabric *since,
			  const struct ibtopo_health_opts *opts,
			  struct ibtopo_error *err);
void ibtopo_health_free(struct ibtopo_health *health);
/**
 * Write health: JSON {"schema_version":1,"ports":[...],"findings":[...]}
 * (per port node, guid, port, peer, read_at_ms, counters by IBA name,
 * saturated; with an earlier snapshot interval_h, growth, rate_per_hour,
 * reset); CSV one row per port; text the ports with errors, worst first,
 * then the findings. IBTOPO_EIO if the sink fails.
 */
int ibtopo_render_health(const struct ibtopo_render_opts *opts,
			 const struct ibtopo_health *health,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Link and cable checks                                               */
/* ------------------------------------------------------------------ */

/*
 * What the checks append (all findings name the link's ends a and b):
 * - speed-downgrade: expected = the speed the link should run (bit),
 *   actual = its active speed.
 *   evidence port-info (severity error): both ends report supported
 *   speeds; expected = the highest speed both support. cause = cable
 *   when the link's cable is rated below `expected`, else port-config
 *   when an enabled set excludes `expected`, else unknown.
 *   evidence peers (severity warning; text dumps without supported sets),
 *   subkind = enum ibtopo_peer_class:
 *   - inter-switch link: expected = the lower of the fastest speeds each
 *     switch runs on its OTHER inter-switch links; both switches must have
 *     some (one switch with no other inter-switch link proves nothing).
 *   - switch-to-CA link (IBTOPO_PEER_HOSTS): expected = the fastest speed
 *     the same switch runs on its other links to CAs of the same adapter
 *     model. The adapter model is vendor_id:device_id when known; else
 *     the HCA name the node description ends with ("host12 mlx5_0" ->
 *     "mlx5"); else the whole description (so host-specific descriptions
 *     compare with nothing).
 *   - switch-to-CA link whose switch has no other CA of that model
 *     (IBTOPO_PEER_MODEL): expected = the lower of the fastest speed the
 *     switch runs to its other CAs and the fastest the same model runs
 *     anywhere else; both must exist (an SDR ConnectX-4 on an FDR switch
 *     while another ConnectX-4 runs EDR elsewhere: expected FDR).
 *   evidence peers, severity INFO (never a fault, never fails a run),
 *   for a link the rule above leaves alone that runs below its class:
 *   - cause device-limit, subkind IBTOPO_PEER_HOSTS: a switch-to-CA link
 *     below the fastest speed the switch runs on its other CA links
 *     (expected), whose adapter model runs no faster on any of its links
 *     in the fabric, 2 links or more (x5: DDR-only MT26418 adapters,
 *     0x02c9:0x6732, among QDR ones);
 *   - the same with IBTOPO_PEER_SWITCH_MODEL when the switch's other CA
 *     links are no faster: expected = the fastest the other switches of
 *     its model (vendor:device) run to their CAs;
 *   - cause device-limit, IBTOPO_PEER_SWITCHES: an inter-switch link
 *     below the other inter-switch links of one switch (expected) where
 *     the other switch's model runs no faster on any of its links, 2 or
 *     more (an FDR SX6012 cabled to an EDR switch); a switch whose device
 *     ID is unknown is a model of its own;
 *   - cause unknown (or cable), IBTOPO_PEER_HOSTS: a switch-to-CA link
 *     below the switch's other CA links whose adapter model has no other
 *     link in the fabric, so a slow adapter and a bad link look alike.
 *   For device-limit, `c` names the limiting node (port -1), `value` =
 *   its model's link count, and vendor_id/device_id its model (0 when the
 *   model is known only by description); actual = the link's speed.
 * - width-downgrade: expected/actual = width bits. Error, evidence
 *   port-info: below 4x where both ends support 4x (cause port-config
 *   when an enabled set lacks 4x, else unknown). Warning, evidence peers:
 *   below the widest width both ends' nodes use on their other links (8x,
 *   12x), or, without supported sets, below the width the peer rule above
 *   finds. A port merely supporting 12x never counts.
 * - cable-underrated (warning): expected = the speed both ports support
 *   (or, without supported sets, the higher of the active and peer-inferred
 *   speed), actual = the cable's rated speed; cause cable. Appended right
 *   after the speed-downgrade it explains.
 * - cable-over-length (error): value = cable length (m), limit = reach of
 *   its media at the link's active speed (m; or the longest reach of a
 *   faster speed the cable is rated for), actual = active speed bit,
 *   subkind = the cable's enum ibtopo_media. Only where the reach table
 *   has a row for the link's speed and the cable's media.
 * - loopback-cable (warning): both ends on the same switch.
 */
enum ibtopo_peer_class {
	IBTOPO_PEER_NONE = 0,
	IBTOPO_PEER_SWITCHES = 1,	/* inter-switch link vs other ISLs */
	IBTOPO_PEER_HOSTS = 2,		/* host link vs same switch, same model */
	IBTOPO_PEER_MODEL = 3,		/* host link vs switch's hosts + model */
	IBTOPO_PEER_SWITCH_MODEL = 4,	/* host link vs same-model switches' hosts */
};

struct ibtopo_check_opts {
	unsigned version;	/* IBTOPO_CHECK_OPTS_VERSION */
	/*
	 * Reach table (TSV: speed, media, max_m, source; '#' comments) or
	 * NULL for the built-in copy of data/cable-reach.tsv.
	 */
	const char *reach_path;
	unsigned flags;		/* none yet; 0 */
};
#define IBTOPO_CHECK_OPTS_VERSION 1
#define IBTOPO_CHECK_OPTS_INIT { IBTOPO_CHECK_OPTS_VERSION, NULL, 0 }

/**
 * Run the link and cable checks over every link and append findings to
 * `out`, per link in link order. Findings borrow the fabric's node
 * descriptions: release the list before freeing the fabric. `opts` may
 * be NULL. Returns 0; IBTOPO_EINVAL (no fabric or list); IBTOPO_EIO or
 * IBTOPO_EPARSE ("<path>:<line>: ...") for a bad reach table;
 * IBTOPO_ENOMEM. On failure what was appended stays in `out`.
 */
int ibtopo_check_links(struct ibtopo_findings *out,
		       const struct ibtopo_fabric *fabric,
		       const struct ibtopo_check_opts *opts,
		       struct ibtopo_error *err);

struct ibtopo_cables_opts {
	unsigned version;	/* IBTOPO_CABLES_OPTS_VERSION */
	/* optional: rows skipped ("<path>:<line>: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
};
#define IBTOPO_CABLES_OPTS_VERSION 1
#define IBTOPO_CABLES_OPTS_INIT { IBTOPO_CABLES_OPTS_VERSION, NULL, NULL }

/**
 * Read cable data and merge it into the fabric's links. The format is
 * detected from the content:
 * - an inventory CSV with the header
 *   node_a,port_a,node_b,port_b,media,length_m,part_number (any order;
 *   node_b, port_b and every column after the ports optional; also
 *   rated_speed, vendor, serial; unknown columns ignored). A node is a
 *   node description or a "0x" node (or port) GUID; media is a
 *   ibtopo_media_name(); rated_speed a speed name. Every row must name a
 *   linked port of the fabric, and node_b/port_b, when given, its peer.
 *   Media also takes dac, acc, aec, mmf, smf; length_m "30", "30 m".
 * - an ibdiagnet2 .db_csv file: its CABLE_INFO section, one row per port
 *   (NodeGuid/PortGuid, PortNum, Vendor, PN, SN, LengthCopperOrActive,
 *   TypeDesc, SupportedSpeedDesc). Lengths of separable transceivers
 *   (LengthSMFiber, LengthOM*) are their reach, not a cable length, and
 *   are not used. Rows of ports the fabric does not link are skipped
 *   (reported through opts->warn): ibdiagnet sees ports that are down.
 * NVIDIA/Mellanox LinkX part numbers fill in media, rated speed and
 * length where the file leaves them out. Values from the file replace
 * the link's earlier cable data field by field; the two rows of a link
 * (one per end) are merged. All or nothing: on any error the fabric is
 * unchanged. IBTOPO_EIO (unreadable), IBTOPO_EPARSE with
 * "<path>:<line>: ..." (malformed row, unknown or ambiguous node, port
 * not linked, peer differs), IBTOPO_ENOMEM.
 */
int ibtopo_cables_load(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_cables_opts *opts,
		       struct ibtopo_error *err);

/**
 * ibtopo_cables_load() on `len` bytes in memory; `name` stands for the
 * path in messages. Text with a NUL byte is refused (IBTOPO_EPARSE).
 */
int ibtopo_cables_load_buffer(struct ibtopo_fabric *fabric, const char *data,
			      size_t len, const char *name,
			      const struct ibtopo_cables_opts *opts,
			      struct ibtopo_error *err);

/**
 * Decode an NVIDIA/Mellanox LinkX part number, e.g. "MFS1S00-H030V":
 * family MCP passive copper, MCA active copper, MFA/MFS active optical,
 * MMA multimode and MMS single-mode transceivers; the letter after the
 * dash is the rate (E EDR, H HDR, N NDR); cables then carry a length code
 * (002 = 2 m, 00A = 0.5 m, 01A = 1.5 m, 030 = 30 m). Sets out->media,
 * out->rated_speed (0 if the rate letter is not one of those) and
 * out->length_m (0 for transceivers); leaves the strings alone.
 * Returns 0, or IBTOPO_ENOTFOUND (out untouched) when `part_number` is
 * not a LinkX cable or transceiver part number.
 */
int ibtopo_cable_decode_part_number(struct ibtopo_cable *out,
				    const char *part_number);

/* ------------------------------------------------------------------ */
/* Topology analysis                                                   */
/* ------------------------------------------------------------------ */

/*
 * What ibtopo_topology_analyze() finds, and how.
 *
 * Endpoints. A CA is a server port unless it is part of a switch: a CA
 * whose system image GUID is that of the switch it is cabled to, or whose
 * description says "Aggregation Node" (SHARP), is ignored. Server ports
 * sharing a system image GUID (dual-port, dual-adapter) are one server.
 *
 * Levels, counted from 1 at the leaves (as OpenSM's ftree engine ranks
 * switches, its rank 0 being our top level). Without roots: leaves are
 * the switches with servers, other switches are ranked by BFS upward
 * (level = 1 + hops to the nearest leaf). Two readings are then scored
 * by the links they leave breaking fat-tree rules (same-level links,
 * links skipping a level, servers above level 1) and the better kept:
 * a switch that has servers but only leaves for neighbours may be a
 * spine with servers on it rather than a leaf; a switch with no
 * neighbour above it may be a root whose level is the top. With roots
 * (a file of GUIDs or names, or a regex on descriptions), levels are
 * ranked down from them and the leaves' level is the deepest.
 * Switch chips sharing a system image GUID (directors) are one chassis;
 * levels stay per chip, as the subnet manager routes them.
 *
 * Classes: single-switch (one switch or one chassis); star (every pair
 * of leaf switches is cut apart by one switch or one cable: hub and
 * spoke, or a tree without redundancy); fat-tree (levels where every
 * inter-switch link joins adjacent levels, every switch below the top
 * has an uplink and every one above level 1 a downlink, with at most a
 * quarter of the links breaking the rules: those are reported as
 * fat-tree-violation findings); irregular (anything else; `shape` names
 * "ring", "full-mesh", "mesh" (2-D grid), "torus", "line" or
 * "disconnected" when the switch graph is one).
 *
 * Per level: switches, links down (servers and switches below), up,
 * and to the same level, their bandwidth (active speed x width), the
 * oversubscription down:up, and the bisection bandwidth through the
 * level (half its uplink bandwidth). The blocking factor is the servers'
 * bandwidth over the narrowest level's uplink bandwidth.
 *
 * Path diversity, over the switch graph (servers do not forward):
 * edge-disjoint paths (cables may not be shared) and node-disjoint paths
 * (no switch shared; parallel cables between two adjacent switches are
 * separate paths) between every pair of leaf switches and of servers,
 * and the number of equal-cost shortest switch routes between leaf
 * switches. Switches with identical neighbours (twins: the leaves of one
 * pod, the spines of one plane) are interchangeable, so one pair stands
 * for all pairs of its twin classes and twins off a pair's ends are
 * contracted into one weighted vertex, which keeps every cut. Edge
 * counts come from one Gomory-Hu tree of that contracted graph (one max
 * flow per vertex); node counts from one max flow per pair of twin
 * classes on its vertex-split form; ECMP counts from one BFS per class.
 * A fat tree with P pods costs O(P^2) flows whatever its size.
 *
 * Findings appended (severity warning):
 * - low-path-diversity, subkind enum ibtopo_path_diversity_kind:
 *   LEAF_PAIR: a leaf switch (a) with fewer than min_paths node-disjoint
 *   paths to `value` other leaf switches, the worst being b; actual = its
 *   node-disjoint count, expected = min_paths. Each pair below is
 *   reported once, through the leaf with the most such pairs.
 *   SINGLE_LINK: a server with one link (a = its port, b = the switch
 *   port); ONE_SWITCH: a server whose links all end on one switch
 *   (actual = links). Once per server, never per pair.
 * - fat-tree-violation, subkind enum ibtopo_fat_tree_violation, only
 *   when the class is fat-tree or roots were given (CA_TO_CA always):
 *   SAME_LEVEL, LEVEL_SKIP (a, b the link's ends; expected, actual the
 *   levels of a and b); CA_ON_NON_LEAF (a = the server port, b = the
 *   switch port, actual = the switch's level); UNEVEN_UPLINKS (a = the
 *   switch, port -1; expected = the uplinks most of its level have,
 *   actual = its own); UPLINKS_PILED (a = the switch, b = the upper
 *   switch with most of its uplinks, c = an upper switch of the same
 *   group with none; expected = the usual cables per upper switch,
 *   actual = those to b); CA_TO_CA (a, b the link's ends).
 */

enum ibtopo_topology_class {
	IBTOPO_TOPOLOGY_UNKNOWN = 0,
	IBTOPO_TOPOLOGY_SINGLE_SWITCH,
	IBTOPO_TOPOLOGY_STAR,
	IBTOPO_TOPOLOGY_FAT_TREE,
	IBTOPO_TOPOLOGY_IRREGULAR,
};

/** "single-switch", "star", "fat-tree", "irregular"; "unknown" otherwise. */
const char *ibtopo_topology_class_name(enum ibtopo_topology_class cls);

/** Subkinds of fat-tree-violation findings. */
enum ibtopo_fat_tree_violation {
	IBTOPO_FTV_SAME_LEVEL = 1,	/* switch-to-switch link within a level */
	IBTOPO_FTV_LEVEL_SKIP,		/* link across two levels or more */
	IBTOPO_FTV_CA_ON_NON_LEAF,	/* server cabled above level 1 */
	IBTOPO_FTV_UNEVEN_UPLINKS,	/* fewer uplinks than its level's peers */
	IBTOPO_FTV_UPLINKS_PILED,	/* uplinks doubled up, an upper switch left out */
	IBTOPO_FTV_CA_TO_CA,		/* two CAs cabled to each other */
};

/** Subkinds of low-path-diversity findings. */
enum ibtopo_path_diversity_kind {
	IBTOPO_LPD_LEAF_PAIR = 1,	/* leaf switches below min_paths */
	IBTOPO_LPD_SINGLE_LINK,		/* server with one link */
	IBTOPO_LPD_ONE_SWITCH,		/* server with all links on one switch */
};

/**
 * Stable name of a subkind of a topology finding ("same-level-link",
 * "level-skip", "ca-on-non-leaf", "uneven-uplinks", "uplinks-piled",
 * "ca-to-ca"; "leaf-pair", "single-link", "one-switch"), or NULL when
 * the kind is not a topology kind or the subkind is unknown.
 */
const char *ibtopo_topology_subkind_name(enum ibtopo_finding_kind kind,
					 int subkind);

enum ibtopo_topology_flags {
	IBTOPO_TOPOLOGY_NO_PATHS = 1u << 0,	/* skip path diversity */
	IBTOPO_TOPOLOGY_NO_SERVER_PAIRS = 1u << 1, /* skip server-pair flows */
};

struct ibtopo_topology_opts {
	unsigned version;		/* IBTOPO_TOPOLOGY_OPTS_VERSION */
	unsigned min_paths;		/* 0 = 2 */
	/* roots: a file of node GUIDs ("0x..." or hex) or descriptions, one
	 * a line, '#' comments; and/or a POSIX extended regex matched
	 * against switch descriptions. NULL = none. */
	const char *roots_file;
	const char *root_pattern;
	unsigned flags;			/* enum ibtopo_topology_flags */
};
#define IBTOPO_TOPOLOGY_OPTS_VERSION 1
#define IBTOPO_TOPOLOGY_OPTS_INIT { IBTOPO_TOPOLOGY_OPTS_VERSION, 0, NULL, NULL, 0 }

struct ibtopo_topology;

/**
 * Analyze the fabric's layout: levels, class, per-level bandwidth and
 * path diversity (see above). Findings are appended to `findings` (may
 * be NULL) and borrow the fabric's descriptions; *out borrows the fabric
 * too: free both before the fabric. `opts` may be NULL (defaults).
 * Returns 0; IBTOPO_EINVAL (no fabric, unknown opts version, a bad root
 * pattern, roots naming no switch: the message names it);
 * IBTOPO_EAMBIGUOUS (a roots line names several switches; lines are read
 * as ibtopo_fabric_find_node_name() reads names, GUIDs also without "0x"
 * or as "S-<guid>", descriptions also as the short names drawn); IBTOPO_EIO
 * (unreadable roots file); IBTOPO_ENOMEM; IBTOPO_ERROR (the graph
 * library failed). On failure *out is NULL; findings appended stay.
 */
int ibtopo_topology_analyze(struct ibtopo_topology **out,
			    const struct ibtopo_fabric *fabric,
			    const struct ibtopo_topology_opts *opts,
			    struct ibtopo_findings *findings,
			    struct ibtopo_error *err);

/** Free an analysis; NULL is fine. */
void ibtopo_topology_free(struct ibtopo_topology *topo);

/** The fabric's class. */
enum ibtopo_topology_class ibtopo_topology_class(const struct ibtopo_topology *topo);
/** Recognized shape of an irregular fabric ("ring", ...), or NULL. */
const char *ibtopo_topology_shape(const struct ibtopo_topology *topo);
/** Number of switch levels (0 without switches). */
unsigned ibtopo_topology_levels(const struct ibtopo_topology *topo);

/**
 * Level of a switch, 1 = leaves, ibtopo_topology_levels() = top; 0 for
 * CAs, routers, NULL, and switches cut off from every server.
 */
int ibtopo_topology_node_level(const struct ibtopo_topology *topo,
			       const struct ibtopo_node *node);
/**
 * True if a node is named by a low-path-diversity finding: a leaf switch
 * below min_paths to some other leaf, or a server CA with one link or
 * one switch.
 */
bool ibtopo_topology_node_low_diversity(const struct ibtopo_topology *topo,
					const struct ibtopo_node *node);

/** One level of the fabric. Bandwidths in Gb/s. */
struct ibtopo_topology_level {
	unsigned level;		/* 1 = leaves */
	size_t switches;	/* switch chips */
	size_t chassis;		/* boxes: a director counts once */
	size_t host_links;	/* links to servers (included in down_links) */
	size_t down_links;	/* to servers and lower levels */
	size_t up_links;	/* to higher levels */
	size_t same_links;	/* within the level */
	double down_gbps;
	double up_gbps;
	/* down:up bandwidth (link counts when a speed is unknown); 0 at the
	 * top or without uplinks */
	double oversubscription;
	double bisection_gbps;	/* up_gbps / 2; 0 at the top */
};

/** Fill *out for level 1..levels; IBTOPO_EINVAL outside that range. */
int ibtopo_topology_level(struct ibtopo_topology_level *out,
			  const struct ibtopo_topology *topo, unsigned level);

/**
 * Servers' bandwidth over the narrowest level's uplink bandwidth (1.0 =
 * non-blocking; 2.0 = 2:1); 1.0 for a single switch; 0 when not defined
 * (irregular fabrics, no servers).
 */
double ibtopo_topology_blocking_factor(const struct ibtopo_topology *topo);
/** Bisection bandwidth in Gb/s where the blocking factor is defined, else 0. */
double ibtopo_topology_bisection_gbps(const struct ibtopo_topology *topo);

enum ibtopo_path_measure {
	IBTOPO_PATHS_EDGE_DISJOINT = 0,
	IBTOPO_PATHS_NODE_DISJOINT,
	IBTOPO_PATHS_ECMP,		/* equal-cost shortest routes */
};

/** Distribution of one measure over pairs. */
struct ibtopo_path_stats {
	size_t pairs;		/* pairs counted; 0 = not computed */
	unsigned min;
	unsigned max;
	double median;
};

/**
 * Statistics over all pairs of leaf switches (`servers` false) or of
 * servers (true; ECMP is not computed for servers). IBTOPO_EINVAL for
 * an unknown measure. Values above UINT_MAX (ECMP) are clamped.
 */
int ibtopo_topology_path_stats(struct ibtopo_path_stats *out,
			       const struct ibtopo_topology *topo, bool servers,
			       enum ibtopo_path_measure measure);

/**
 * One measure between two leaf switches (any switch with servers), or
 * -1 when either is not one or the measure was not computed.
 */
long long ibtopo_topology_leaf_paths(const struct ibtopo_topology *topo,
				     const struct ibtopo_node *a,
				     const struct ibtopo_node *b,
				     enum ibtopo_path_measure measure);

/** Number of servers (CAs grouped by system image GUID). */
size_t ibtopo_topology_server_count(const struct ibtopo_topology *topo);
/** Number of chassis (a director, whatever its chips, counts once). */
size_t ibtopo_topology_chassis_count(const struct ibtopo_topology *topo);

/**
 * Whether OpenSM's ftree routing engine (3.3, without a roots or compute
 * node file) would route this fabric rather than fall back to minhop,
 * judged by its own rules: ranks from the switches cabled to any CA
 * (aggregation nodes too), every CA on the deepest rank, no CA cabled to
 * a CA, and at each rank the same number of up and down port groups and
 * the same cables per group as the rank's first switch. *reason (may be
 * NULL) receives why not, led by OpenSM's error code ("ERR AB26: ..."),
 * borrowed from the analysis; NULL when accepted.
 */
bool ibtopo_topology_opensm_ftree(const struct ibtopo_topology *topo,
				  const char **reason);

/* ------------------------------------------------------------------ */
/* Findings output                                                     */
/* ------------------------------------------------------------------ */

/**
 * One sentence a person can act on, for any finding kind, into buf
 * (always NUL-terminated when len > 0). It does not repeat the ends'
 * names unless they are needed. Returns the length the full sentence
 * needs, like snprintf(), or IBTOPO_EINVAL for a NULL finding.
 */
int ibtopo_finding_message(char *buf, size_t len, const struct ibtopo_finding *f);

/**
 * Write findings. Text: a table per severity, errors first, or
 * "no findings"; an end whose description names several nodes (two ends
 * in the list with different GUIDs) reads "desc (0x<guid>) [port]"; of
 * more than 10 findings sharing kind, subkind and severity the table
 * shows the first 5 and a line "... and N more <kind> findings".
 * JSON: {"schema_version":1,"<list_name>":[finding...]} where a finding
 * is {"kind","severity","a":{"node","guid","port"}, "b":{...}, then
 * when set "c","d" (the struct's c/d ends; their meaning per kind is
 * documented with the kind), "message", and the details of its kind
 * when known:
 *   "active","expected" speed or width names (speed/width downgrades,
 *     speed/width below plan); "rated" (cable-underrated: the cable's
 *     rating; "expected" the ports' speed);
 *   "old","new" (diff: speed/width names, port state names, LIDs);
 *   "links" (node added/removed, missing/extra node: link count);
 *   "paths","min_paths" (low-path-diversity);
 *   "evidence" ("port-info", "peers", "plan"); "cause" ("cable",
 *     "port-config", "device-limit", "unknown");
 *   "length_m","reach_m" (cable-over-length);
 *   "media" (cable-over-length: the cable's media);
 *   "detail" (the note, or the subkind: "inter-switch", "hosts",
 *     "model", "switch-model", "one-end", "both-ports", "swapped",
 *     "physical").
 * A port of -1 and a GUID of 0 are null. CSV: one row per finding, the
 * columns every key above (dotted: a.node, a.guid, ...), empty when not
 * set. `list_name` NULL means "findings". Returns 0, IBTOPO_EINVAL (no
 * sink, unknown format), IBTOPO_ENOMEM or the sink's error.
 */
int ibtopo_render_findings(const struct ibtopo_render_opts *opts,
			   const char *list_name,
			   const struct ibtopo_findings *list,
			   struct ibtopo_error *err);

/**
 * ibtopo_render_findings() for findings that name nodes of `a` and `b`
 * (a diff's OLD and NEW, a plan and the actual fabric; either may be
 * NULL): the text names an end "desc (0x<guid>)", in the tables and in
 * the sentences, whenever two nodes of either fabric share its
 * description, not only when the list shows two of them.
 */
int ibtopo_render_findings_of(const struct ibtopo_render_opts *opts,
			      const char *list_name,
			      const struct ibtopo_findings *list,
			      const struct ibtopo_fabric *a,
			      const struct ibtopo_fabric *b,
			      struct ibtopo_error *err);

/** What `ibtopo analyze` reports; everything borrowed. */
struct ibtopo_analysis {
	unsigned version;	/* IBTOPO_ANALYSIS_VERSION */
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_findings *findings;	/* may be NULL: none */
	const struct ibtopo_topology *topology;	/* may be NULL: not analyzed */
};
#define IBTOPO_ANALYSIS_VERSION 1

enum ibtopo_analyze_flags {
	IBTOPO_ANALYZE_NO_CHECKS = 1u << 0,	/* no link and cable checks */
	IBTOPO_ANALYZE_NO_TOPOLOGY = 1u << 1,	/* no topology analysis */
};

/** Options of every analysis ibtopo_analyze() runs. */
struct ibtopo_analyze_opts {
	unsigned version;			/* IBTOPO_ANALYZE_OPTS_VERSION */
	struct ibtopo_check_opts checks;	/* ibtopo_check_links() */
	struct ibtopo_topology_opts topology;	/* ibtopo_topology_analyze() */
	unsigned flags;				/* enum ibtopo_analyze_flags */
};
#define IBTOPO_ANALYZE_OPTS_VERSION 1
#define IBTOPO_ANALYZE_OPTS_INIT { IBTOPO_ANALYZE_OPTS_VERSION, \
	IBTOPO_CHECK_OPTS_INIT, IBTOPO_TOPOLOGY_OPTS_INIT, 0 }

/**
 * Run every analysis the library has, in order: the link and cable checks
 * (ibtopo_check_links()), then the topology (ibtopo_topology_analyze()),
 * each unless a flag skips it. *out is a new analysis whose findings are
 * the findings of all of them, in that order, and whose topology is the
 * topology analysis (NULL when skipped); it borrows the fabric: free it
 * with ibtopo_analysis_free() before the fabric. `opts` may be NULL
 * (defaults). Returns 0, IBTOPO_EINVAL (no fabric or out, unknown opts
 * version), or what the failing analysis returns (see there); on
 * failure *out is NULL.
 */
int ibtopo_analyze(struct ibtopo_analysis **out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_analyze_opts *opts,
		   struct ibtopo_error *err);

/**
 * Free an analysis made by ibtopo_analyze() (never one the caller filled
 * in), its findings and topology; NULL is fine.
 */
void ibtopo_analysis_free(struct ibtopo_analysis *analysis);

/**
 * Write an analysis. JSON: ONE object {"schema_version":1,
 * "fabric":{"source","label","snapshot_id","switches","cas","routers",
 * "links","cables","partial"}, with a topology also "topology":{...} and
 * "paths":{...}, then "findings":[...]} (findings as in
 * ibtopo_render_findings()). Text: a summary line of the fabric, the
 * topology summary when there is one, then the findings tables (a
 * description is ambiguous when two nodes of the fabric share it). CSV: the
 * findings only. Same returns as ibtopo_render_findings().
 */
int ibtopo_render_analysis(const struct ibtopo_render_opts *opts,
			   const struct ibtopo_analysis *analysis,
			   struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Diff and validate                                                   */
/* ------------------------------------------------------------------ */

/*
 * Diff compares two fabrics of the same cluster node by node GUID;
 * validate compares a planned fabric with the actual one. Both append
 * findings to `out` that borrow both fabrics (descriptions of the ends
 * point into them): release the list before freeing either fabric. On
 * failure what was appended stays in `out` for the caller to release.
 *
 * Moved cables. "Before" is OLD or the plan, "after" NEW or the actual
 * fabric; only links whose two nodes exist on both sides take part (links
 * of an added, removed, missing or extra node are counted in that node's
 * finding, never listed). A link present on one side only is paired with
 * one on the other side, in this order, and reported as ONE finding
 * (link-moved / miswired-link) instead of a removal and an addition:
 * 1. IBTOPO_MOVE_SWAPPED: links u-v and z-w before are u-w and z-v after
 *    (two cables exchanged, e.g. between leaf ports 3 and 4). The ends are
 *    oriented so that u and z are on the same node when possible.
 * 2. IBTOPO_MOVE_ONE_END: port u has a link on both sides, each present
 *    on one side only (the cable's other end went to another port or
 *    node). When both ends of a link qualify, the end on a CA is taken
 *    (a host's cable was plugged elsewhere), else the link's `a` end.
 * 3. IBTOPO_MOVE_BOTH_PORTS: the same two nodes are linked before and
 *    after, on other ports at both ends.
 * What remains is link-added/link-removed (diff) or extra-link/
 * missing-link (validate).
 */
enum ibtopo_move_subkind {
	IBTOPO_MOVE_ONE_END = 1,
	IBTOPO_MOVE_BOTH_PORTS = 2,
	IBTOPO_MOVE_SWAPPED = 3,
};

/** port-state-changed subkinds. */
enum ibtopo_state_subkind {
	IBTOPO_STATE_LOGICAL = 0,	/* expected/actual: enum ibtopo_port_state */
	IBTOPO_STATE_PHYSICAL = 1,	/* only PortPhysicalState changed */
};

enum ibtopo_diff_flags {
	IBTOPO_DIFF_LIDS = 1u << 0,	/* report LID changes */
};

struct ibtopo_diff_opts {
	unsigned version;	/* IBTOPO_DIFF_OPTS_VERSION */
	unsigned flags;		/* enum ibtopo_diff_flags */
};
#define IBTOPO_DIFF_OPTS_VERSION 1
#define IBTOPO_DIFF_OPTS_INIT { IBTOPO_DIFF_OPTS_VERSION, 0 }

/**
 * Append the differences between two fabrics to `out`; nodes are the same
 * when their GUIDs are, links when both ends (node GUID, port) are.
 * `opts` may be NULL. Findings, in this order (ends of OLD name OLD's
 * descriptions, ends of NEW name NEW's):
 * - node-removed (warning): a = the node in OLD (port -1); expected = its
 *   link count; `note` set when every peer it had is gone too (a host
 *   behind a removed switch). node-added (info): a = the node in NEW;
 *   actual = its links.
 * - node-renamed (info): a = the node in OLD, c = the same node in NEW.
 * - link-moved (warning): a, b = the link in OLD; c, d = the link in NEW
 *   (ONE_END: a and c are the port that kept the cable; BOTH_PORTS: a and c
 *   on one node, b and d on the other). SWAPPED: a-b and c-d are the two
 *   links in OLD; NEW has a-d and c-b.
 * - link-removed (warning): a, b = the link in OLD. link-added (info):
 *   a, b = the link in NEW.
 * - link-speed-changed, link-width-changed (warning when slower, info when
 *   faster): a, b = the link in NEW; expected = OLD's active speed (width)
 *   bit, actual = NEW's. Only when both are known.
 * - port-state-changed (warning when the port leaves active or LinkUp,
 *   else info): a = the port in NEW, b = its peer in NEW (port -1 if
 *   none); expected/actual = OLD/NEW state, subkind says which state
 *   (enum ibtopo_state_subkind). Only when both are known, and never for
 *   ports of a link that was added, removed or moved.
 * - lid-changed (info; only with IBTOPO_DIFF_LIDS): a = the port (port 0
 *   for a switch); expected/actual = OLD/NEW LID; only when both are known.
 * Returns 0, IBTOPO_EINVAL (no fabric) or IBTOPO_ENOMEM.
 */
int ibtopo_fabric_diff(struct ibtopo_findings *out,
		       const struct ibtopo_fabric *old,
		       const struct ibtopo_fabric *new_,
		       const struct ibtopo_diff_opts *opts,
		       struct ibtopo_error *err);

struct ibtopo_validate_opts {
	unsigned version;	/* IBTOPO_VALIDATE_OPTS_VERSION */
	/*
	 * POSIX extended regex applied to node descriptions on both sides; its
	 * first capture group (or the whole match) is the name compared, e.g.
	 * "^([^ ]+)" turns "host001 mlx5_0" into "host001". A description it
	 * does not match is compared whole. NULL: descriptions compared whole.
	 */
	const char *match;
	unsigned flags;		/* none yet; 0 */
};
#define IBTOPO_VALIDATE_OPTS_VERSION 1
#define IBTOPO_VALIDATE_OPTS_INIT { IBTOPO_VALIDATE_OPTS_VERSION, NULL, 0 }

/**
 * Compare an actual fabric with its plan and append every deviation to
 * `out`. A plan node is the actual node with the same node GUID (plans
 * with real GUIDs), else the not yet matched node of the same type and
 * name (description, or the `match` capture), preferring an identical
 * description, then the first in the actual fabric's order.
 * `opts` may be NULL. Ends of a matched node carry the ACTUAL node's
 * description and GUID; ends of a plan-only node carry the plan's.
 * Findings, in this order:
 * - missing-node (error): a = the plan's node (port -1; GUID 0 when the
 *   plan made it from the name); expected = its planned links; `note`
 *   set when every planned peer is missing too (behind a missing switch).
 *   extra-node (warning): a = the actual node; actual = its links.
 * - miswired-link (error, evidence plan): a, b = the cable as found;
 *   c, d = the link as planned (ONE_END: a and c are the same port, b is
 *   the actual peer, d the planned one; BOTH_PORTS: a, c on one node).
 *   SWAPPED: a-b and c-d are the two cables as found; the plan has a-d
 *   and c-b.
 * - missing-link (error): a, b = the planned link. extra-link (error):
 *   a, b = the actual link (e.g. a leaf-to-leaf cable).
 * - speed-below-plan, width-below-plan (error, evidence plan): a, b = the
 *   link; expected = planned bit, actual = active bit. Only when the plan
 *   states a speed (width) and the actual value is known.
 * Returns 0, IBTOPO_EINVAL (no fabric; bad regex, named in the message)
 * or IBTOPO_ENOMEM.
 */
int ibtopo_fabric_validate(struct ibtopo_findings *out,
			   const struct ibtopo_fabric *plan,
			   const struct ibtopo_fabric *actual,
			   const struct ibtopo_validate_opts *opts,
			   struct ibtopo_error *err);

/**
 * Parameters of a planned fat tree. Zero fields take the defaults shown.
 * levels 2: `leaves` leaf switches with `hosts_per_leaf` hosts each and
 *   `uplinks` cables each, spread evenly over `spines` spine switches.
 * levels 3: `pods` pods, each as above (`leaves` and `spines` per pod);
 *   every pod spine has as many cables up as down, to its own group of
 *   core switches, each core taking one cable from every pod.
 * Names: leafNN, spineNN, coreNN, hostNNN (zero-padded to the count,
 * numbered across pods). Ports: leaf 1..H hosts, H+1..H+U uplinks (uplink
 * k to spine k mod S); spine ports down first, in leaf order, then up;
 * core port p+1 to pod p; host port 1.
 */
struct ibtopo_plan_params {
	unsigned version;	/* IBTOPO_PLAN_PARAMS_VERSION */
	unsigned levels;	/* 2 or 3; 0 = 2 */
	unsigned pods;		/* levels 3 only */
	unsigned leaves;
	unsigned spines;
	unsigned hosts_per_leaf;
	unsigned uplinks;	/* per leaf; 0 = hosts_per_leaf (non-blocking) */
	unsigned radix;		/* ports per switch; 0 = 40 */
	unsigned speed;		/* planned speed bit; 0 = HDR */
	unsigned width;		/* planned width bit; 0 = 4x */
};
#define IBTOPO_PLAN_PARAMS_VERSION 1
#define IBTOPO_PLAN_PARAMS_INIT { IBTOPO_PLAN_PARAMS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Build the planned fat tree as a fabric: nodes named as above, with
 * GUIDs synthesized from the names as the topology-file reader does, and
 * every link at the planned speed and width (ports' active values).
 * IBTOPO_EINVAL with a message naming the parameter when the shape is
 * impossible: hosts plus uplinks over the radix, uplinks not a multiple
 * of the spines, spine or core ports over the radix, a count of zero.
 */
int ibtopo_plan_fat_tree(struct ibtopo_fabric **out,
			 const struct ibtopo_plan_params *p,
			 struct ibtopo_error *err);

/**
 * Write a planned fabric through opts' sink (opts->format is ignored).
 * IBTOPO_FILE_IBNETDISCOVER: a plan file, ibnetdiscover text with node
 * names where GUIDs would be and each port's planned width and speed in
 * its trailer (`[1]	"leaf01"[1]		# "leaf01" lid 0 4xHDR`); the
 * readers and ibsim both read it. IBTOPO_FILE_IBSIM: an ibsim net file
 * whose enabled masks (global, and w= s= e= on both ends of a link that
 * differs) make every link train as planned; ibsim gives its own GUIDs.
 * IBTOPO_EINVAL for another format, a speed ibsim cannot simulate, or a
 * node name that is empty or holds '"', '#' or '@'; the sink's error as
 * "cannot write the plan".
 */
int ibtopo_plan_write(const struct ibtopo_render_opts *opts,
		      const struct ibtopo_fabric *plan,
		      enum ibtopo_file_format format,
		      struct ibtopo_error *err);

/* ------------------------------------------------------------------ */
/* Diagrams                                                            */
/* ------------------------------------------------------------------ */

/** How hosts (CAs) are drawn. */
enum ibtopo_diagram_hosts {
	IBTOPO_HOSTS_AUTO = 0,	/* collapse above IBTOPO_HOSTS_COLLAPSE_ABOVE */
	IBTOPO_HOSTS_ALL,	/* one node per CA */
	IBTOPO_HOSTS_COLLAPSE,	/* one node per set of switches: "24 hosts" */
};
#define IBTOPO_HOSTS_COLLAPSE_ABOVE 200

/** Graphviz layout engine. */
enum ibtopo_diagram_layout {
	/* sfdp above IBTOPO_LAYOUT_SFDP_ABOVE drawn nodes, or with more
	 * edges across ranks than dot lays out in seconds; else dot */
	IBTOPO_LAYOUT_AUTO = 0,
	IBTOPO_LAYOUT_DOT,	/* levels as ranks, top switches at the top */
	IBTOPO_LAYOUT_SFDP,	/* force-directed; for large fabrics */
};
#define IBTOPO_LAYOUT_SFDP_ABOVE 1000

enum ibtopo_diagram_flags {
	IBTOPO_DIAGRAM_NO_LEGEND = 1u << 0,	/* title lines only */
};

/**
 * What a diagram shows. Zeroed fields are the defaults.
 * `findings` are drawn on the picture (borrowed): link findings colour
 * the links they name by (node GUID, port) of both ends (downgrades red,
 * cable problems orange, fat-tree violations purple, miswired pink,
 * diff additions green, speed/width changes blue, extra links teal);
 * low-path-diversity marks the nodes it names with a red double border.
 * Links and nodes a finding names that the fabric lacks (link-removed,
 * link-moved, node-removed from a diff; missing-link, missing-node and
 * the planned side of miswired-link from validate) are drawn dashed red;
 * `other` (the OLD fabric of a diff, or the plan) supplies their types,
 * names and levels and may be NULL.
 */
struct ibtopo_diagram_opts {
	unsigned version;		/* IBTOPO_DIAGRAM_OPTS_VERSION */
	enum ibtopo_diagram_hosts hosts;
	enum ibtopo_diagram_layout layout;
	/* draw only nodes within `depth` links of this node: a "0x" node or
	 * port GUID, a node description, or a short label as drawn; a name
	 * several nodes go by is refused (IBTOPO_EAMBIGUOUS) */
	const char *focus;
	unsigned depth;			/* 0 = 2 */
	const char *title;		/* NULL: the fabric's file name or host */
	/* NULL: snapshot id and label, date, counts */
	const char *subtitle;
	const struct ibtopo_findings *findings;	/* NULL: none */
	const struct ibtopo_fabric *other;	/* NULL: none */
	/* levels for the ranks (ibtopo_topology_node_level()); NULL: leaves
	 * are the switches with hosts, the others ranked by BFS upward */
	const struct ibtopo_topology *topology;
	unsigned flags;			/* enum ibtopo_diagram_flags */
};
#define IBTOPO_DIAGRAM_OPTS_VERSION 1
#define IBTOPO_DIAGRAM_OPTS_INIT { IBTOPO_DIAGRAM_OPTS_VERSION, IBTOPO_HOSTS_AUTO, \
	IBTOPO_LAYOUT_AUTO, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0 }

/**
 * Write the fabric as a graphviz DOT graph through the sink (o->format is
 * ignored). Levels are ranks (top switches first, hosts last); labels are
 * the readable part of node descriptions ("MF0;sw-01:MQM8700/U1" ->
 * "sw-01", "host001 mlx5_0" -> "host001"); parallel cables between two
 * nodes are one edge labelled with the count, whose width grows with
 * bandwidth; switches sharing a system image GUID (directors) are one
 * cluster; SHARP aggregation nodes are not drawn. Hosts on the same set
 * of switches are one node ("24 hosts") when collapsed, else, above 32
 * hosts, one table with a cell per host (a problem link goes to its
 * host's cell); wide levels are split into rows. A title (fabric, snapshot, date,
 * counts) and a legend of what is drawn head the graph. The text is the
 * same bytes for the same input. `d` may be NULL (defaults).
 * Returns 0; IBTOPO_EINVAL (no fabric or sink, unknown opts version);
 * IBTOPO_ENOTFOUND (focus names no node); IBTOPO_EAMBIGUOUS (focus names
 * several, the message listing GUIDs); IBTOPO_ENOMEM; or the sink's
 * error.
 */
int ibtopo_render_dot(const struct ibtopo_render_opts *o,
		      const struct ibtopo_fabric *f,
		      const struct ibtopo_diagram_opts *d,
		      struct ibtopo_error *err);

/**
 * Draw the fabric into `out_path` ("-" = stdout) through libgvc in
 * process: `format` "svg", "png", "pdf" or "dot" (the DOT text of
 * ibtopo_render_dot()); NULL takes it from the path's extension. The
 * layout engine is the one ibtopo_render_dot() chose. Graphviz messages
 * never reach stderr: an error carries the last one. Not thread-safe
 * (graphviz keeps global state). Returns 0; IBTOPO_EINVAL (unknown
 * format, no fabric); IBTOPO_EIO (cannot write the file); IBTOPO_ERROR
 * (graphviz failed: no layout or output plugin, e.g. an unconfigured
 * graphviz install, see `dot -c`); or as ibtopo_render_dot().
 */
int ibtopo_render_image(const char *out_path, const char *format,
			const struct ibtopo_fabric *f,
			const struct ibtopo_diagram_opts *d,
			struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_H */
