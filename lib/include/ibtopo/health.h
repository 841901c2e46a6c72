/*
 * ibtopo/health.h - port health. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_HEALTH_H
#define IBTOPO_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/counters.h>
#include <ibtopo/sink.h>
#include <ibtopo/findings.h>
#include <ibtopo/topology.h>
#include <ibtopo/store.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Port health: counters of one snapshot against thresholds, and their
 * growth between two. Findings (a = the port whose counter is high or
 * grew, b = its peer; subkind = the enum ibtopo_counter):
 * - port-errors (warning): an error counter above its threshold in the
 *   newer snapshot; num.counter.count, threshold.
 * - port-error-rate (error): an error counter grew between the snapshots;
 *   num.growth.growth, rate_per_hour, interval_h. note "saturated": it
 *   stopped at its largest value, so it grew at least that much; note
 *   "reset": it is lower than before (someone reset it), growth = its
 *   value now (at least that much), never a negative rate.
 * - link-flapping (error): LinkDownedCounter grew; the same fields.
 * - failing-cable (error; ibtopo_analyze() only): a cable-over-length or
 *   cable-underrated cable whose ports have error counters above their
 *   thresholds, one finding instead of the two: a, b = the port with the
 *   highest count and its peer; subkind, num.counter.count and
 *   threshold, note as that port-errors finding; more_counters = how
 *   many more error counters on the cable's two ports are above their
 *   thresholds; cause = cable;
 *   cable = the evidence (struct ibtopo_cable_evidence: which check,
 *   media, length, reach, rated speed, the ports' speed, and every
 *   error counter above its threshold on either port).
 * - high-ber (error): a link's BER (the worse direction) is above the
 *   thresholds file's BER for its speed (default 1e-12); a = the
 *   receiving port, b = its peer; num.measure.measure = the BER,
 *   threshold, count = the symbol errors, interval_ms, subkind = the
 *   speed bit.
 * - congested-port (warning): a port lost more than the thresholds
 *   file's XmitWaitShare (default 0.05) of its link's capacity waiting to
 *   send; a = the port, b = its peer; num.measure.measure = wait_share,
 *   threshold, count = the PortXmitWait growth, interval_ms.
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
	/*
	 * Bit error rate of what this port received (its SymbolErrorCounter
	 * counts the symbols it received in error), with an earlier reading
	 * and a known speed and width: growth / (seconds x lanes x lane
	 * signalling rate). ber 0 when none grew: then ber_bound = 1 / the
	 * bits received, the BER is below it (never said to be 0).
	 */
	unsigned lanes;		/* active lanes; 0 = not known */
	double lane_gbps;	/* signalling rate per lane; 0 = not known */
	double ber;		/* at least, when saturated; 0: see above */
	double ber_bound;	/* 0 unless no symbol error grew */
	/*
	 * Congestion: PortXmitWait growth per second; the bytes lost to
	 * waiting as ibdiagnet counts them on Quantum switches (XmitWait x
	 * 8) against the link's capacity over the interval (wait_share) and
	 * against the bytes sent (PortXmitData x 4: wait_ratio; 0 when none
	 * were sent). wait_valid: PortXmitWait was read both times.
	 */
	bool wait_valid;
	double wait_per_s;
	double wait_share;
	double wait_ratio;
	/* ibtopo_health_traffic() with a topology: the port's node's level
	 * (0 = a CA) and where its link goes: "up" (to a higher level),
	 * "down" (lower, or to a CA), "host" (a CA's port), "across"; NULL =
	 * not known */
	int level;
	const char *direction;
};

/** A link's bit error rate: the worse of its two directions. */
struct ibtopo_health_link {
	const struct ibtopo_link *link;		/* in the newer fabric */
	const struct ibtopo_health_port *worst;	/* the receiving end */
	const struct ibtopo_health_port *other;	/* NULL: no counters */
	uint64_t symbol_errors;	/* growth, both ends */
	double seconds;		/* the interval */
	double ber;		/* worst->ber; 0: none grew */
	double ber_bound;	/* none grew: BER below this (1 / bits) */
	double threshold;	/* for the link's speed (thresholds file) */
};

/** The bytes one link carried between the two snapshots. */
struct ibtopo_traffic_link {
	const struct ibtopo_link *link;	/* in the newer fabric */
	/* a -> b and b -> a: the sender's PortXmitData growth x 4 (else
	 * the receiver's PortRcvData growth); at least that when saturated */
	uint64_t bytes_ab, bytes_ba;
	double gbps_ab, gbps_ba;	/* mean over the interval */
	double capacity_gbps;		/* per direction; 0 = speed unknown */
	double utilisation;		/* busier direction / capacity */
	double hours;			/* the interval */
	unsigned level;	/* lower switch end's level; 0: to a CA or router */
	bool saturated;	/* a 32-bit data counter stopped counting */
};

/** Links of one level: carried against capacity over the interval. */
struct ibtopo_traffic_level {
	unsigned level;		/* as ibtopo_traffic_link.level */
	size_t links;		/* links with traffic data */
	uint64_t bytes;		/* both directions */
	double capacity_bytes;	/* both directions, over each link's interval */
	double utilisation;	/* bytes / capacity_bytes; 0 = unknown */
};

struct ibtopo_traffic {
	struct ibtopo_traffic_link *links;	/* busiest first */
	size_t count;
	size_t top;				/* how many reports list */
	struct ibtopo_traffic_level *levels;	/* level 0 (hosts) first */
	size_t nlevels;
};

/** Per-port health, worst first (highest error rate, then error count). */
struct ibtopo_health {
	struct ibtopo_health_port *ports;
	size_t count;
	bool since;		/* an earlier snapshot was compared */
	/* with since: every link with counters at one end at least and a
	 * known speed and width, worst BER first */
	struct ibtopo_health_link *links;
	size_t nlinks;
	/* with since: ports whose PortXmitWait grew, most waiting (per
	 * second) first; borrowed from `ports` */
	const struct ibtopo_health_port **congested;
	size_t ncongested;
	double wait_threshold;	/* congested-port above this wait_share */
	/* ibtopo_health_traffic(); NULL = not computed. Owned. */
	struct ibtopo_traffic *traffic;
	const struct ibtopo_fabric *fabric; /* `now`, borrowed */
	/* ports of `now` whose counters were asked for and not read
	 * (ibtopo_port_counters_unread()): not in `ports` */
	size_t unread;
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
 * The signalling rate of one lane at `speed` (a speed bit), in Gb/s, as
 * BER counts bits: SDR 2.5, DDR 5, QDR 10, FDR10 10.3125, FDR 14.0625,
 * EDR 25.78125, HDR 53.125, NDR 106.25, XDR 212.5; 0 if unknown.
 */
double ibtopo_health_lane_gbps(unsigned speed);
/**
 * Traffic between the two snapshots of `health` (made with `since`):
 * the bytes each link of `now` carried each way, busiest first (`top`
 * of them listed by reports; 0 = 10), and per level the bytes carried
 * against the links' capacity (active speed x width, each direction) over
 * the interval. Levels are `topo`'s (the lower switch end's level; 0 for
 * links to CAs and routers); without `topo` every switch-to-switch link
 * is level 1. Sets health->traffic, and with `topo` each port's level
 * and direction. IBTOPO_EINVAL, IBTOPO_ENOMEM.
 */
int ibtopo_health_traffic(struct ibtopo_health *health,
			  const struct ibtopo_fabric *now,
			  const struct ibtopo_topology *topo, size_t top,
			  struct ibtopo_error *err);
/** One snapshot of a port's history: its reading, and the change since
 * the reading before it that has counters. */
struct ibtopo_history_row {
	const struct ibtopo_port_reading *reading;	/* borrowed */
	/* growth, rate per hour, reset, BER (ber/ber_bound), XmitWait:
	 * as in ibtopo_health_port; port NULL; before NULL for the first
	 * reading with counters; now NULL without counters */
	struct ibtopo_health_port change;
};

/** One port across the snapshots of its fabric, oldest first. */
struct ibtopo_port_history {
	const char *node;	/* description; borrowed */
	uint64_t guid;		/* node GUID */
	unsigned port;
	struct ibtopo_history_row *rows;
	size_t count;
	const char *fabric;	/* the fabric's name, borrowed; NULL: none */
};

/**
 * The history of a port from its readings (ibtopo_store_port_history()),
 * which *out borrows, as `node` (borrowed too). IBTOPO_EINVAL,
 * IBTOPO_ENOMEM.
 */
int ibtopo_health_history(struct ibtopo_port_history **out, const char *node,
			  uint64_t guid, unsigned port,
			  const struct ibtopo_port_reading *readings,
			  size_t count, struct ibtopo_error *err);
void ibtopo_port_history_free(struct ibtopo_port_history *history);
/**
 * Write the histories of `n` ports (a port, or a cable's two ends):
 * JSON as doc/json.md gives `ibtopo health --history` (its fabric h[0]'s,
 * when it has one); CSV one row per port and snapshot; text one table
 * per port. IBTOPO_EIO if the sink fails.
 */
int ibtopo_report_port_history(const struct ibtopo_sink *sink,
			       const struct ibtopo_port_history *const *h,
			       size_t n, struct ibtopo_error *err);

/**
 * Write health: JSON as doc/json.md gives `ibtopo health` (the ports,
 * with their growth and rates against an earlier snapshot, the traffic
 * when computed, the findings); CSV one row per port, an empty line, then the findings
 * table (the columns of ibtopo_report_findings()); text the ports with
 * errors, worst first, then the findings. IBTOPO_EIO if the sink fails.
 */
int ibtopo_report_health(const struct ibtopo_sink *sink,
			 const struct ibtopo_health *health,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_HEALTH_H */
