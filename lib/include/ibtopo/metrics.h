/*
 * ibtopo/metrics.h - a fabric's port health in the Prometheus text
 * format. Part of the public interface; programs include <ibtopo.h>,
 * which includes every part.
 */
#ifndef IBTOPO_METRICS_H
#define IBTOPO_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/sink.h>
#include <ibtopo/findings.h>
#include <ibtopo/analyze.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_metrics_flags {
	/* no ibtopo_fabric_findings series (and no analysis run) */
	IBTOPO_METRICS_NO_FINDINGS = 1u << 0,
};

/*
 * The groups of per-port series (collectors, as node_exporter has them).
 * ibtopo_port_info, ibtopo_node_info, ibtopo_port_saturated (sparse:
 * only saturated counters) and the fabric's series are always written.
 * The default set holds what the example alert rules and dashboard use;
 * the rest is asked for by name (`--collect GROUP,...`, `--collect all`).
 */
enum ibtopo_metrics_collect {
	/* default: ibtopo_port_linked, _state, _rate_bytes_per_second,
	 * _possible_rate_bytes_per_second */
	IBTOPO_METRICS_COLLECT_LINK = 1u << 0,
	/* default: symbol errors, link downed, receive errors */
	IBTOPO_METRICS_COLLECT_ERRORS = 1u << 1,
	/* default: transmit bytes, PortXmitWait */
	IBTOPO_METRICS_COLLECT_TRAFFIC = 1u << 2,
	/* default: BER and its threshold, XmitWait share (with `since`) */
	IBTOPO_METRICS_COLLECT_HEALTH = 1u << 3,
	/* physical state, width in lanes, lane speed */
	IBTOPO_METRICS_COLLECT_PHY = 1u << 4,
	/* the other nine error counters of PortCounters */
	IBTOPO_METRICS_COLLECT_MORE_ERRORS = 1u << 5,
	/* receive bytes, transmit and receive packets */
	IBTOPO_METRICS_COLLECT_MORE_TRAFFIC = 1u << 6,
	/* ibtopo_port_counters_saturated, per port with counters */
	IBTOPO_METRICS_COLLECT_SATURATION = 1u << 7,
};
#define IBTOPO_METRICS_COLLECT_DEFAULT                                 \
	(IBTOPO_METRICS_COLLECT_LINK | IBTOPO_METRICS_COLLECT_ERRORS | \
	 IBTOPO_METRICS_COLLECT_TRAFFIC | IBTOPO_METRICS_COLLECT_HEALTH)
#define IBTOPO_METRICS_COLLECT_ALL 0xffu

/** What ibtopo_metrics_write() writes. Zeroed fields are the defaults. */
struct ibtopo_metrics_opts {
	unsigned version; /* IBTOPO_METRICS_OPTS_VERSION (2 or 3) */
	/* the `fabric` label; NULL: ibtopo_metrics_fabric_name() */
	const char *fabric_name;
	unsigned flags; /* enum ibtopo_metrics_flags */
	/* enum ibtopo_metrics_collect bits; 0: the default set (version 3) */
	unsigned collect;
};
#define IBTOPO_METRICS_OPTS_VERSION 3
#define IBTOPO_METRICS_OPTS_INIT                        \
	{                                               \
		IBTOPO_METRICS_OPTS_VERSION, NULL, 0, 0 \
	}

/**
 * Parse a `--collect` list into *collect: names separated by commas,
 * each a group (link, errors, traffic, health, phy, more-errors,
 * more-traffic, saturation) added to the set, `no-GROUP` taken out of
 * it, `all` or `default`. *collect 0 starts from the default set.
 * Returns 0 or IBTOPO_EINVAL (an unknown name, said in err).
 */
int ibtopo_metrics_collect_parse(const char *list, unsigned *collect,
				 struct ibtopo_error *err);

/**
 * The name a fabric goes by in the `fabric` label, into buf (at most
 * len bytes with the NUL): the fabric the snapshot belongs to in the
 * store (meta->fabric), else the name the store would give it
 * (ibtopo_fabric_default_name()), "empty" for NULL. Returns buf.
 */
const char *ibtopo_metrics_fabric_name(char *buf, size_t len,
				       const struct ibtopo_fabric *fabric);

/**
 * Write the analysed fabric's port health through the sink (sink->format is
 * ignored) in the Prometheus text exposition format 0.0.4, each metric
 * family once with its HELP and TYPE. Every per-port series carries the
 * port's identity only, `fabric`, `node_guid` and `port`, so that a
 * pulled cable changes values, never a series; names and the far end
 * are in the info series, joined with
 * `* on(fabric,node_guid,port) group_left(node,remote_node) ibtopo_port_info`:
 * The groups of opts->collect choose which of the per-port series
 * below are written (enum ibtopo_metrics_collect):
 * - per port of a switch or CA (port 0 left out), linked or not:
 *   ibtopo_port_info (1, with node, node_type, lid when known and, when
 *   linked, remote_guid, remote_node, remote_port),
 *   ibtopo_port_linked (1 or 0), ibtopo_port_state and
 *   ibtopo_port_physical_state (the IBA values, 0 unknown),
 *   ibtopo_port_width_lanes, ibtopo_port_lane_speed_bytes_per_second
 *   and ibtopo_port_rate_bytes_per_second (active; 0 when down), and
 *   ibtopo_port_possible_rate_bytes_per_second, the rate the analysis
 *   says its link could run at (ibtopo_analysis_link_possible(); 0 when
 *   unlinked): `rate < possible` is exactly a link analyze calls
 *   downgraded;
 * - per switch and CA: ibtopo_node_info (node, node_type, and where
 *   known description, vendor_id, device_id, revision,
 *   system_image_guid: a label without a value is left out);
 * - per port with counters: every error counter of PortCounters as
 *   ibtopo_port_<name>_total, ibtopo_port_{transmit,receive}_bytes_total
 *   (4 x the PortXmitData/PortRcvData words), ..._packets_total and
 *   ibtopo_port_transmit_wait_total (64-bit extended values where read);
 *   ibtopo_port_counters_saturated (how many stopped at their largest
 *   value) and, for each, ibtopo_port_saturated{counter=NAME} 1;
 *   a saturated counter keeps its largest value, never drops to zero;
 * - with an earlier reading (the analysis' `since`): per receiving port
 *   ibtopo_port_bit_error_rate and ibtopo_port_bit_error_rate_threshold,
 *   per port ibtopo_port_transmit_wait_share, and the fabric's
 *   ibtopo_port_transmit_wait_share_threshold, over that interval;
 * - per fabric: switches, CAs, routers and links, the snapshot's time
 *   and id, whether it is partial, the findings by kind and severity
 *   (the analysis' findings, ibtopo_analysis_findings(): with `since`,
 *   port errors are what grew in the interval), and ibtopo_build_info.
 * `opts` may be NULL (defaults).
 * Returns 0, IBTOPO_EINVAL (no sink or analysis, unknown opts version),
 * IBTOPO_ENOMEM, what the analysis returns, or the sink's error.
 */
int ibtopo_metrics_write(const struct ibtopo_sink *sink,
			 struct ibtopo_analysis *analysis,
			 const struct ibtopo_metrics_opts *opts,
			 struct ibtopo_error *err);

/**
 * The metrics of n fabrics in one exposition (serve --all-ports): each
 * written as ibtopo_metrics_write() writes it, with opts[i] (opts may be
 * NULL), then merged so that every family comes once, its HELP and TYPE
 * first and the series of every fabric together, in fabric order; a
 * series without a fabric label that two write alike
 * (ibtopo_build_info) is kept once. Give each fabric its own name (the
 * `fabric` label). Returns what ibtopo_metrics_write() returns, or
 * IBTOPO_EINVAL for no sink or no analyses.
 */
int ibtopo_metrics_write_many(const struct ibtopo_sink *o,
			      struct ibtopo_analysis *const *analyses,
			      const struct ibtopo_metrics_opts *opts, size_t n,
			      struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_METRICS_H */
