/*
 * ibtopo/mcast.h - multicast forwarding: each switch's multicast
 * forwarding table (MFT) and the multicast groups with their members, as
 * the subnet manager programmed and its SA knows them. Part of the public
 * interface; programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_MCAST_H
#define IBTOPO_MCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The first multicast LID (IBA: 0xC000..0xFFFE). */
#define IBTOPO_MLID_FIRST 0xc000
/** The last multicast LID an MFT holds (0xFFFF is the permissive LID). */
#define IBTOPO_MLID_LAST 0xfffe

/**
 * One switch's multicast forwarding table: for each MLID with at least
 * one port, the mask of the ports a packet to that MLID leaves through
 * (bit p of a mask: port p; port 0 is the switch itself). MLIDs are
 * ascending; entry i's mask is mask[i * stride .. (i + 1) * stride - 1].
 */
struct ibtopo_mft {
	size_t count;	 /* MLIDs with a port */
	unsigned stride; /* bytes a mask: (NumPorts + 8) / 8 */
	uint16_t *mlid;	 /* count MLIDs, ascending */
	uint8_t *mask;	 /* count * stride bytes */
};

/**
 * Attach a multicast forwarding table to a switch: `count` MLIDs (any
 * order, each once) and their masks of `stride` bytes each, copied into
 * fabric-owned memory (bits above the switch's ports dropped; MLIDs with
 * an empty mask left out), replacing an earlier table; count 0 with NULL
 * mlids removes it. The table is then node->mft. IBTOPO_EINVAL when the
 * node is not a switch, an MLID is not a multicast LID or is given twice;
 * IBTOPO_ENOMEM.
 */
int ibtopo_node_set_mft(struct ibtopo_node *node, const uint16_t *mlids,
			const uint8_t *masks, unsigned stride, size_t count,
			struct ibtopo_error *err);
/** The mask of `mlid` in `mft`, or NULL when the switch has no port for it. */
const uint8_t *ibtopo_mft_mask(const struct ibtopo_mft *mft, uint16_t mlid);
/** Whether port `port` is in `mask` (of a switch with `stride`-byte masks). */
static inline bool ibtopo_mft_has_port(const uint8_t *mask, unsigned stride,
				       unsigned port)
{
	return port / 8 < stride && (mask[port / 8] >> (port % 8) & 1u);
}
/** True when at least one switch of the fabric has a multicast table. */
bool ibtopo_fabric_has_mfts(const struct ibtopo_fabric *fabric);
/** Drop every switch's multicast table. */
void ibtopo_fabric_clear_mfts(struct ibtopo_fabric *fabric);

/** MCMemberRecord JoinState bits. */
enum ibtopo_mcast_join {
	IBTOPO_MCAST_FULL = 1u << 0,
	IBTOPO_MCAST_NON = 1u << 1,
	IBTOPO_MCAST_SENDONLY = 1u << 2,
	IBTOPO_MCAST_SENDONLY_FULL = 1u << 3,
};

/** A port in a multicast group (an MCMemberRecord of the SA). */
struct ibtopo_mcast_member {
	uint64_t port_guid; /* the PortGID's interface ID */
	uint8_t join_state; /* enum ibtopo_mcast_join bits */
};

/** A multicast group and its members, as the SA lists them. */
struct ibtopo_mcast_group {
	uint8_t mgid[16]; /* network byte order */
	uint16_t mlid;
	uint16_t pkey;
	size_t nmembers;
	struct ibtopo_mcast_member *members;
};

/**
 * Add a member to the group `mgid` (created, with `mlid` and `pkey`, when
 * the fabric has none yet; a member with port_guid 0 only creates it). A
 * port listed twice keeps the union of its join states. IBTOPO_ENOMEM.
 */
int ibtopo_fabric_add_mcast_member(struct ibtopo_fabric *fabric,
				   const uint8_t mgid[16], uint16_t mlid,
				   uint16_t pkey,
				   const struct ibtopo_mcast_member *member,
				   struct ibtopo_error *err);
/** How many groups a fabric carries, and the i-th (borrowed). */
size_t ibtopo_fabric_mcast_group_count(const struct ibtopo_fabric *fabric);
const struct ibtopo_mcast_group *
ibtopo_fabric_mcast_group(const struct ibtopo_fabric *fabric, size_t i);
/**
 * Whether the groups were read (a live sweep asks the SA; a file has
 * none): only then does a member CA the forwarding misses show.
 */
void ibtopo_fabric_set_mcast_groups_read(struct ibtopo_fabric *fabric,
					 bool read);
bool ibtopo_fabric_mcast_groups_read(const struct ibtopo_fabric *fabric);
/** "ff12:401b:ffff::ffff:ffff": an MGID as IPv6 text, into buf (>= 46). */
const char *ibtopo_mgid_text(char *buf, size_t len, const uint8_t mgid[16]);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_MCAST_H */
