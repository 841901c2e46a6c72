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
