/*
 * ibtopo/findings.h - findings (analyze, validate, diff). Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_FINDINGS_H
#define IBTOPO_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

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
	/* cable inventory rows (ibtopo_cables_load()) */
	IBTOPO_FIND_CABLE_ROW_UNMATCHED,
	/* topology: rail-optimized fabrics */
	IBTOPO_FIND_RAIL_MISMATCH,
	IBTOPO_FIND_FAILING_CABLE,	/* a cable check and port errors */
	/* topology: Dragonfly+ fabrics */
	IBTOPO_FIND_DRAGONFLY_VIOLATION,
	/* routing (ibtopo_routes_analyze) */
	IBTOPO_FIND_ROUTE_BLACK_HOLE,
	IBTOPO_FIND_ROUTE_LOOP,
	IBTOPO_FIND_ROUTE_NOT_MINIMAL,
	IBTOPO_FIND_CREDIT_LOOP,
	/* diff of forwarding tables */
	IBTOPO_FIND_ROUTE_CHANGED,
	IBTOPO_FIND_ROUTE_LOAD_CHANGED,
	/* link and cable checks, added later */
	IBTOPO_FIND_CABLE_NOT_CHECKED,	/* no reach figure for its speed */
	IBTOPO_FIND_PORT_NOT_ACTIVE,	/* a linked port not Active */
	/* port health: bit error rate, congestion (ibtopo_health_analyze) */
	IBTOPO_FIND_HIGH_BER,
	IBTOPO_FIND_CONGESTED_PORT,
	/* subnet: what the subnet manager needs unique */
	IBTOPO_FIND_DUPLICATE_NODE_GUID,
	IBTOPO_FIND_DUPLICATE_PORT_GUID,
	IBTOPO_FIND_DUPLICATE_LID,
	IBTOPO_FIND_DUPLICATE_NODE_DESC,
	/* subnet: what the subnet manager set on a link */
	IBTOPO_FIND_MTU_MISMATCH,
	IBTOPO_FIND_VL_MISMATCH,
	/* subnet: the subnet managers a live sweep found */
	IBTOPO_FIND_SM_STATE,
	/* subnet: firmware, where an input carries it */
	IBTOPO_FIND_FIRMWARE_MISMATCH,
	/* subnet: partitions (PKeyTables a live sweep read) */
	IBTOPO_FIND_PKEY_SWITCH_DROP,
	IBTOPO_FIND_PKEY_NO_FULL_MEMBER,
	IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED,
	/* routes: multicast forwarding (analysis/routes_mcast.c) */
	IBTOPO_FIND_MCAST_UNREACHED,
	IBTOPO_FIND_MCAST_LOOP,
	IBTOPO_FIND_MCAST_DEAD_END,
	IBTOPO_FIND_MCAST_DISCONNECTED,
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

/** An error counter of a failing cable's port, as evidence. */
struct ibtopo_evidence_counter {
	int end;			/* 0: the finding's end a; 1: end b */
	enum ibtopo_counter counter;
	uint64_t count;			/* its reading */
	uint64_t threshold;		/* it is above this */
	bool saturated;			/* stopped at its largest value */
};

/* Both ports of a cable, every error counter of each. */
#define IBTOPO_EVIDENCE_COUNTERS_MAX 32

/**
 * What a failing-cable finding knows of its cable: the cable check's
 * numbers, and the error counters of the cable's two ports that are
 * above their thresholds, highest count first.
 */
struct ibtopo_cable_evidence {
	enum ibtopo_finding_kind check;	/* cable-over-length or -underrated */
	enum ibtopo_media media;	/* IBTOPO_MEDIA_UNKNOWN: not known */
	double length_m;		/* 0: not known */
	double reach_m;			/* the media's reach at the link's
					 * speed (over-length); 0: not known */
	unsigned rated_speed;		/* speed bit it is rated for; 0 */
	unsigned ports_speed;		/* speed bit both ports run up to
					 * (under-rated); 0: not known */
	size_t ncounters;
	struct ibtopo_evidence_counter counters[IBTOPO_EVIDENCE_COUNTERS_MAX];
};

/*
 * What a finding measured, named per family: f->num.<family>.<field>.
 * Each kind uses one family (or none: loopback-cable, missing-link,
 * extra-link, miswired-link, node-renamed, link-added, link-removed,
 * link-moved, duplicate-node-guid); the JSON and CSV keys of a field are
 * given after it as "key". Speed and width bits are enum ibtopo_speed,
 * enum ibtopo_width.
 */

/* rate: speed-downgrade, speed-below-plan (speed bits); width-downgrade,
 * width-below-plan (width bits). */
struct ibtopo_rate_detail {
	unsigned expected;	/* "expected": what both ends could run */
	unsigned active;	/* "active": what the link runs */
	unsigned model_links;	/* speed-downgrade, device-limit: the links
				 * the limiting model runs (at most active) */
};

/* rating: cable-underrated. */
struct ibtopo_rating_detail {
	unsigned ports_speed;	/* "expected": both ports run up to it */
	unsigned rated_speed;	/* "rated_speed": the cable's rating */
};

/* reach: cable-over-length; "media" is the subkind. */
struct ibtopo_reach_detail {
	unsigned active_speed;	/* "active": the link's speed */
	double length_m;	/* "length_m": the cable's length */
	double reach_m;		/* "reach_m": its media's reach at that speed */
};

/* unchecked: cable-not-checked (no reach known); media is the subkind. */
struct ibtopo_unchecked_detail {
	unsigned active_speed;	/* "active": the link's speed */
	double length_m;	/* the cable's length (in the message) */
};

/* cable_row: cable-row-unmatched (the inventory reader's own; the row
 * is named by the note, "path:line"). */
struct ibtopo_cable_row_detail {
	unsigned line;		/* the row's line in its file */
};

/* links: node-added, extra-node (the node's links); node-removed,
 * missing-node (the links it had, or has planned); credit-loop (the
 * links of the cycle). */
struct ibtopo_links_detail {
	unsigned links;		/* "links" */
};

/* ports: port-not-active. A port word is its state | physical state << 8
 * | 1 << 16 for the end that is not Active. */
struct ibtopo_ports_detail {
	unsigned links;		/* "links": the links not Active */
	unsigned word_a;	/* end a's port word (link-not-active) */
	unsigned word_b;	/* end b's port word (link-not-active) */
};

/* paths: low-path-diversity. */
struct ibtopo_paths_detail {
	unsigned min_paths;	/* "min_paths": the paths wanted */
	unsigned paths;		/* "paths": the independent paths found */
	double leaves;		/* leaf-pair: leaf switches as poorly joined */
	double links;		/* single-link, one-switch: the server's */
	double servers;		/* single-homed: the servers so cabled */
};

/* tree: fat-tree-violation (in the message only). */
struct ibtopo_tree_detail {
	unsigned level_a;	/* same-level-link, level-skip: end a's level;
				 * ca-on-non-leaf: 1 */
	unsigned level_b;	/* end b's level (the switch's) */
	unsigned usual_uplinks;	/* uneven-uplinks: most of the level's;
				 * uplinks-piled: per upper switch */
	unsigned uplinks;	/* uneven-uplinks: the switch's; uplinks-piled:
				 * the most to one upper switch */
	double hosts;		/* uneven-uplinks, a leaf: its host links */
	double usual_hosts;	/* the usual leaf's (0: not compared) */
};

/* rail: rail-mismatch. */
struct ibtopo_rail_detail {
	unsigned expected;	/* "expected": the HCA's or the missing rail;
				 * unequal-rails: the largest rail's HCAs */
	unsigned actual;	/* wrong-leaf: the leaf's rail (0: none);
				 * unequal-rails: this rail's HCAs */
	double lacking;		/* missing-rail: the servers without the
				 * rail, or the rails the server lacks */
	double rail;		/* unequal-rails: the rail */
};

/* dragonfly: dragonfly-violation (in the message only). */
struct ibtopo_dragonfly_detail {
	unsigned usual;		/* most groups' leaf switches, most pairs'
				 * or most spines' global links */
	unsigned count;		/* this group's, pair's or spine's */
	double servers;		/* unequal-group: its server links */
	double spines;		/* unequal-group: its spines */
	double group_a;		/* missing-global-link: the two groups */
	double group_b;
};

/* change: link-speed-changed (speed bits), link-width-changed (width
 * bits), port-state-changed (port or, subkind physical, physical
 * states), lid-changed (LIDs), route-load-changed (CA-to-CA routes
 * through the port). */
struct ibtopo_change_detail {
	unsigned before;	/* "old" */
	unsigned after;		/* "new" */
};

/* counter: port-errors, failing-cable; "counter" is the subkind (enum
 * ibtopo_counter). */
struct ibtopo_counter_detail {
	double count;		/* "count": its reading */
	double threshold;	/* "threshold": it is above this */
	unsigned more_counters;	/* failing-cable: the other counters above
				 * their thresholds */
};

/* growth: port-error-rate, link-flapping; "counter" is the subkind. */
struct ibtopo_growth_detail {
	unsigned growth;	/* "growth": since the earlier reading */
	double rate_per_hour;	/* "rate_per_hour" */
	double interval_h;	/* "interval_h": between the readings */
};

/* measure: high-ber (the subkind is the link's speed bit), congested-port. */
struct ibtopo_measure_detail {
	double measure;		/* "measure": the bit error rate, or the
				 * share of the capacity lost waiting */
	double threshold;	/* "threshold": it is above this */
	unsigned interval_ms;	/* "interval_s" (in seconds) */
	unsigned count;		/* symbol errors, or PortXmitWait's growth */
};

/* route: route-black-hole, route-loop. */
struct ibtopo_route_detail {
	unsigned dlid;		/* "lid": the destination LID */
	double routes;		/* "routes": the CA routes the fault hits */
};

/* detour: route-not-minimal. */
struct ibtopo_detour_detail {
	unsigned dlid;		/* "lid": the destination LID */
	double routes;		/* "routes": the CA routes longer */
	unsigned min_hops;	/* "min_hops": the cabled minimum from a */
	unsigned hops;		/* "hops": the links taken */
};

/* route_change: route-changed. */
struct ibtopo_route_change_detail {
	unsigned dlid;		/* "lid": the destination LID */
	unsigned old_port;	/* "old": the out-port before */
	unsigned new_port;	/* "new": and now */
	double switches;	/* the switches that changed the entry */
};

/* mcast: mcast-unreached (the receivers on the tree), mcast-loop (the
 * links that close a cycle), mcast-disconnected (the stale switches),
 * mcast-dead-end. */
struct ibtopo_mcast_detail {
	unsigned mlid;		/* "lid": the group's MLID */
	double count;
};

/* port_guid: duplicate-port-guid. */
struct ibtopo_port_guid_detail {
	uint64_t guid;		/* the port GUID both have */
};

/* lids: duplicate-lid; end a's range a_first-a_last, end b's lid-b_last. */
struct ibtopo_lids_detail {
	unsigned lid;		/* "lid": the first LID both answer to */
	unsigned a_first;
	unsigned a_last;
	unsigned b_last;
};

/* nodes: duplicate-node-desc. */
struct ibtopo_nodes_detail {
	unsigned nodes;		/* the nodes sharing the description */
};

/* link_cap: mtu-mismatch (MTU codes), vl-mismatch (VL codes). */
struct ibtopo_link_cap_detail {
	unsigned set_a;		/* what end a's port is set to */
	unsigned set_b;		/* end b's */
	unsigned cap;		/* the smaller capability of the two */
};

/* sm: sm-state. */
struct ibtopo_sm_detail {
	unsigned sms;		/* no-master: the SMs found; several-masters:
				 * the masters */
	unsigned priority;	/* standby-outranks-master: the standby's */
	unsigned master_priority;
	unsigned act_count;	/* master-idle: its ActCount, twice */
};

/* firmware: firmware-mismatch; versions packed major << 32 | minor << 16
 * | sub-minor. */
struct ibtopo_firmware_detail {
	uint64_t version;	/* end a's */
	uint64_t usual_version;	/* what most of its model run (end b) */
	unsigned model_nodes;	/* the nodes of its model */
	unsigned usual_nodes;	/* those on the usual version */
};

/* pkey: pkey-switch-drop, pkey-no-full-member, pkey-membership-mixed. */
struct ibtopo_pkey_detail {
	unsigned pkey;		/* the PKey (with its membership bit) */
	unsigned ports;		/* no-full-member: the partition's members;
				 * membership-mixed: the other group's hosts */
	unsigned own_ports;	/* membership-mixed: its own group's hosts */
};

/** A finding's numbers: the member of its kind's family. */
union ibtopo_finding_num {
	struct ibtopo_rate_detail rate;
	struct ibtopo_rating_detail rating;
	struct ibtopo_reach_detail reach;
	struct ibtopo_unchecked_detail unchecked;
	struct ibtopo_cable_row_detail cable_row;
	struct ibtopo_links_detail links;
	struct ibtopo_ports_detail ports;
	struct ibtopo_paths_detail paths;
	struct ibtopo_tree_detail tree;
	struct ibtopo_rail_detail rail;
	struct ibtopo_dragonfly_detail dragonfly;
	struct ibtopo_change_detail change;
	struct ibtopo_counter_detail counter;
	struct ibtopo_growth_detail growth;
	struct ibtopo_measure_detail measure;
	struct ibtopo_route_detail route;
	struct ibtopo_detour_detail detour;
	struct ibtopo_route_change_detail route_change;
	struct ibtopo_mcast_detail mcast;
	struct ibtopo_port_guid_detail port_guid;
	struct ibtopo_lids_detail lids;
	struct ibtopo_nodes_detail nodes;
	struct ibtopo_link_cap_detail link_cap;
	struct ibtopo_sm_detail sm;
	struct ibtopo_firmware_detail firmware;
	struct ibtopo_pkey_detail pkey;
};

/**
 * One finding. Data only: renderers turn it into words.
 * `a`/`b` name the link's ends; `c`/`d` the other link involved
 * (miswired: the planned peer; moved: the new ends). `num` holds what
 * it measured, in the member of its kind's family (above).
 */
struct ibtopo_finding {
	enum ibtopo_finding_kind kind;
	enum ibtopo_severity severity;
	struct ibtopo_end a, b, c, d;
	union ibtopo_finding_num num;
	enum ibtopo_evidence evidence;
	enum ibtopo_cause cause;
	int subkind;		/* per-kind refinement, see the module docs */
	const char *note;	/* static string or borrowed; may be NULL */
	/* speed-downgrade info: the limiting model (device-limit) or the
	 * lone adapter's (cause unknown); 0 = no IDs in the data */
	uint32_t vendor_id;
	uint32_t device_id;
	/*
	 * failing-cable: its cable's evidence, else NULL. Owned by the list
	 * the finding is in: ibtopo_findings_add() copies it and
	 * ibtopo_findings_release() frees it.
	 */
	struct ibtopo_cable_evidence *cable;
};

/** A growable list of findings. */
struct ibtopo_findings {
	struct ibtopo_finding *items;
	size_t count;
	size_t alloc;
};
#define IBTOPO_FINDINGS_INIT { NULL, 0, 0 }

/** Append a copy of *f (and of its f->cable). */
int ibtopo_findings_add(struct ibtopo_findings *list, const struct ibtopo_finding *f,
			struct ibtopo_error *err);
/** Free the items (not the struct); the list is reusable afterwards. */
void ibtopo_findings_release(struct ibtopo_findings *list);
/** Highest severity in the list, or -1 if empty. */
int ibtopo_findings_max_severity(const struct ibtopo_findings *list);
/** Fill an end from a port (node description, node GUID, port number). */
void ibtopo_end_from_port(struct ibtopo_end *out, const struct ibtopo_port *port);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_FINDINGS_H */
