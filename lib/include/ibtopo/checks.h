/*
 * ibtopo/checks.h - link and cable checks. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_CHECKS_H
#define IBTOPO_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/findings.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What the checks append (all findings name the link's ends a and b):
 * (Their numbers are f->num's member of each kind's family,
 * <ibtopo/findings.h>: num.rate.expected is "expected" below.)
 * - speed-downgrade (family rate): expected = the speed the link should
 *   run (bit), active = its active speed.
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
 *   For device-limit, `c` names the limiting node (port -1),
 *   num.rate.model_links = its model's link count, and
 *   vendor_id/device_id its model (0 when the model is known only by
 *   description); active = the link's speed.
 * - width-downgrade (rate): expected/active = width bits. Error, evidence
 *   port-info: below 4x where both ends support 4x (cause port-config
 *   when an enabled set lacks 4x, else unknown). Warning, evidence peers:
 *   below the widest width both ends' nodes use on their other links (8x,
 *   12x), or, without supported sets, below the width the peer rule above
 *   finds. A port merely supporting 12x never counts.
 * - cable-underrated (warning; rating): ports_speed = the speed both
 *   ports support (or, without supported sets, the higher of the active
 *   and peer-inferred speed), rated_speed = the cable's; cause cable.
 *   Appended right after the speed-downgrade it explains.
 * - cable-over-length (error; reach): length_m = cable length, reach_m =
 *   reach of its media at the link's active speed (or the longest reach
 *   of a faster speed the cable is rated for), active_speed = active
 *   speed bit, subkind = the cable's enum ibtopo_media. Only where the
 *   reach table has a row for the link's speed and the cable's media.
 * - cable-not-checked (info; unchecked): a cable of known length and
 *   media whose link's speed has no row for its media: active_speed,
 *   subkind = the media, length_m; its reach is unknown.
 * - loopback-cable (warning): both ends on the same switch.
 * - port-not-active (error), first: a link up on a port that is Init,
 *   Armed, or Down while polling its peer carries no traffic. When no
 *   linked port of known state is Active anywhere, one finding for the
 *   fabric (IBTOPO_PORT_NO_SUBNET_MANAGER, no ends: no subnet manager has
 *   configured it); else one per such link (IBTOPO_PORT_LINK_NOT_ACTIVE,
 *   a and b its ends). num.ports.links = the number of such links in the
 *   fabric; word_a, word_b = each end's port word.
 *   Text dumps without port states never produce it.
 * - mtu-mismatch, vl-mismatch: a link's NeighborMTU (OperVLs) at its ends
 *   against the smaller MTUCap (VLCap) of the two, which both ends should
 *   use (family link_cap): cap = that capability, set_a and set_b = end
 *   a's and end b's setting (IBA encodings); an end above it
 *   (IBTOPO_LINK_CAP_ABOVE, error) sends what its peer cannot take;
 *   below it (IBTOPO_LINK_CAP_BELOW, warning) the link uses less than it
 *   could. Unknown values (0) never produce it.
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

/** Subkinds of port-not-active findings. */
enum ibtopo_port_not_active {
	IBTOPO_PORT_LINK_NOT_ACTIVE = 1, /* a link with an end not Active */
	IBTOPO_PORT_NO_SUBNET_MANAGER,	 /* no linked port Active anywhere */
};

/**
 * Subkinds of sm-state findings (a live sweep's SMInfo of every IsSM
 * port; family sm): no master (sms = the SMs found, answering or not;
 * no ends), several masters (a and b the first two, sms = how many), a
 * standby whose priority is above the master's (a the standby, b the
 * master, master_priority and priority = the standby's), a master whose
 * ActCount did not grow between two reads (a the master, act_count).
 */
enum ibtopo_sm_finding {
	IBTOPO_SM_NO_MASTER = 1,
	IBTOPO_SM_SEVERAL_MASTERS,
	IBTOPO_SM_STANDBY_OUTRANKS,
	IBTOPO_SM_MASTER_IDLE,
};

/**
 * Subkinds of pkey-switch-drop findings (a the host port, b its switch
 * port, num.pkey.pkey = the host's PKey): the switch port enforces partitions
 * and lacks the PKey (IBTOPO_PKEY_DROP_MISSING, error: it drops the
 * host's packets of that partition), or holds it as a limited member
 * while the host is a full one (IBTOPO_PKEY_DROP_LIMITED, warning: the
 * host is a limited member in effect).
 */
enum ibtopo_pkey_drop {
	IBTOPO_PKEY_DROP_MISSING = 1,
	IBTOPO_PKEY_DROP_LIMITED,
};

/**
 * Subkinds of pkey-no-full-member findings (num.pkey.pkey = the
 * partition's PKey, ports = its members): the default partition has members but
 * no full member (IBTOPO_PKEY_NOFULL_DEFAULT, a a member), the master
 * SM's port is not a full member of it (IBTOPO_PKEY_NOFULL_SM, a that
 * port), another partition whose members are all limited
 * (IBTOPO_PKEY_NOFULL_PARTITION, a and b two of them).
 */
enum ibtopo_pkey_no_full {
	IBTOPO_PKEY_NOFULL_DEFAULT = 1,
	IBTOPO_PKEY_NOFULL_SM,
	IBTOPO_PKEY_NOFULL_PARTITION,
};

/**
 * Subkinds of pkey-membership-mixed findings: hosts of one leaf (their
 * ports' peer switch, end c) hold one PKey, some as full members and
 * some as limited; each host of the smaller group (the limited ones on
 * a tie) is one finding, a its port and b a host of the other group,
 * num.pkey: pkey, ports = the other group's hosts, own_ports = its own
 * group's. The host
 * is a limited member where the others are full
 * (IBTOPO_PKEY_MIXED_LIMITED), or the reverse (IBTOPO_PKEY_MIXED_FULL).
 */
enum ibtopo_pkey_mixed {
	IBTOPO_PKEY_MIXED_LIMITED = 1,
	IBTOPO_PKEY_MIXED_FULL,
};

/** Subkinds of mtu-mismatch and vl-mismatch findings. */
enum ibtopo_link_cap {
	IBTOPO_LINK_CAP_ABOVE = 1,	/* an end set above what both take */
	IBTOPO_LINK_CAP_BELOW,		/* an end set below it */
};

/** What a cable-row-unmatched finding did not find (its subkind). */
enum ibtopo_cable_row_miss {
	IBTOPO_CABLE_ROW_NO_NODE = 1,	/* end a: no node of that name or GUID */
	IBTOPO_CABLE_ROW_NO_LINK,	/* end a: the node lacks the port or its link */
	IBTOPO_CABLE_ROW_NO_PEER_NODE,	/* end b: no node of that name or GUID */
	IBTOPO_CABLE_ROW_OTHER_PEER,	/* the port is linked, to c, not to b */
};

struct ibtopo_cables_opts {
	unsigned version;	/* IBTOPO_CABLES_OPTS_VERSION (1 or 2) */
	/* optional: rows skipped ("<path>:<line>: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/*
	 * version 2, optional: inventory rows that name a node, port or
	 * peer the fabric lacks are appended here as cable-row-unmatched
	 * findings (a: the row's port, b: its peer, note: "<path>:<line>",
	 * subkind: enum ibtopo_cable_row_miss) instead of failing the load.
	 * Their strings belong to the fabric. NULL: such rows are errors.
	 */
	struct ibtopo_findings *unmatched;
};
#define IBTOPO_CABLES_OPTS_VERSION 2
#define IBTOPO_CABLES_OPTS_INIT { IBTOPO_CABLES_OPTS_VERSION, NULL, NULL, NULL }

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
 * (one per end) are merged. With opts->unmatched, a row whose node,
 * port or peer is not in the fabric (a stale row) is a finding and the
 * other rows load. All or nothing: on any error the fabric is unchanged
 * and nothing is appended to opts->unmatched. IBTOPO_EIO (unreadable), IBTOPO_EPARSE with
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

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_CHECKS_H */
