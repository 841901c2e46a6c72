/*
 * discover_mcast.c - the multicast forwarding of a live sweep (discover
 * --routes): every switch's MulticastForwardingTable, and the multicast
 * groups with their members from the SA. Gets only.
 *
 * MFT: attribute 0x1B along each switch's directed route; the modifier's
 * bits 31-28 pick the port mask position (16 ports each: NumPorts + 1
 * ports, port 0 the switch, need (NumPorts + 16) / 16 positions), bits
 * 8-0 the block of 32 MLIDs from 0xC000. A block answers 32 16-bit masks.
 * Blocks are read round by round over all switches, up to the highest of
 * MulticastFDBTop (SwitchInfo; 0 on switches that do not keep it, as
 * ibsim's) and the highest MLID of the SA's groups, then on while a round
 * found any entry, up to MulticastFDBCap: OpenSM hands out MLIDs from
 * 0xC000 up, so a fabric with a few groups costs one round.
 *
 * Groups: one SA GetTable of MCMemberRecord with OpenSM's default SM_Key
 * (1: OpenSM answers members' PortGIDs only to a trusted requester). The
 * kernel reassembles an RMPP answer of many records; where the answer
 * comes cut to its first segment (umad2sim under ibsim, which has no
 * RMPP), the members are asked port by port (MCMemberRecord GetTable by
 * PortGID: one MAD per CA port, each with the few groups of that port).
 */
#include "discover/discover-int.h"

#include <infiniband/umad.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MFT_BLOCK 32	 /* MLIDs a block */
#define MFT_POS_PORTS 16 /* ports a mask position */
#define MCM_RECORD 64	 /* an MCMemberRecord's bytes in a table */
#define OPENSM_SM_KEY 1ull
#define COMP_MGID (1ull << 0)
#define COMP_PORT_GID (1ull << 1)

/* One switch's table as read: blocks * 32 MLIDs, `stride` bytes each. */
struct mft_read {
	ibnd_node_t *node;
	unsigned positions, stride, top_block;
	uint8_t *mask;	 /* blocks_alloc * 32 * stride */
	unsigned blocks; /* read so far */
};

/* ---- the SA ---- */

struct sa {
	int fd, agent;
	ib_portid_t sm;
	unsigned timeout_ms;
	size_t mads;
	uint8_t *buf; /* the last answer (umad + MAD) */
	int len;      /* its MAD bytes */
};

static int sa_open(struct sa *s, char *ca, int portnum, uint16_t sm_lid,
		   unsigned timeout_ms)
{
	memset(s, 0, sizeof(*s));
	s->fd = umad_open_port(ca, portnum);
	if (s->fd < 0)
		return -1;
	s->agent = umad_register(s->fd, IB_SA_CLASS, 2, 1, NULL);
	if (s->agent < 0) {
		umad_close_port(s->fd);
		return -1;
	}
	s->sm.lid = sm_lid;
	s->sm.qp = 1;
	s->sm.qkey = IB_DEFAULT_QP1_QKEY;
	s->timeout_ms = timeout_ms ? timeout_ms : 1000;
	return 0;
}

static void sa_close(struct sa *s)
{
	if (s->agent >= 0)
		umad_unregister(s->fd, s->agent);
	umad_close_port(s->fd);
	free(s->buf);
}

/*
 * A GetTable of MCMemberRecord with component mask `comp` and record
 * `rec` (IB_SA_DATA_SIZE bytes): 0 with the answer in s->buf, -1 if none.
 */
static int sa_get_table(struct sa *s, uint64_t comp, const uint8_t *rec)
{
	uint8_t req[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	ib_rpc_t rpc;
	int len, rc;

	memset(req, 0, sizeof(req));
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_SA_CLASS;
	rpc.method = IB_MAD_METHOD_GET_TABLE;
	rpc.attr.id = IB_SA_ATTR_MCRECORD;
	rpc.mask = comp;
	rpc.datasz = IB_SA_DATA_SIZE;
	rpc.dataoffs = IB_SA_DATA_OFFS;
	rpc.trid = mad_trid();
	rpc.timeout = (int)s->timeout_ms;
	if (mad_build_pkt(req, &rpc, &s->sm, NULL, (void *)rec) < 0)
		return -1;
	mad_set_field64(umad_get_mad(req), 0, IB_SA_MKEY_F, OPENSM_SM_KEY);
	s->mads++;
	if (umad_send(s->fd, s->agent, req, IB_MAD_SIZE, rpc.timeout, 1) < 0)
		return -1;
	for (len = 4096;;) {
		uint8_t *b = realloc(s->buf, umad_size() + (size_t)len);

		if (!b)
			return -1;
		s->buf = b;
		rc = umad_recv(s->fd, s->buf, &len, rpc.timeout * 3);
		if (rc == -ENOSPC)
			continue; /* len is what it needs */
		break;
	}
	if (rc < 0 || umad_status(s->buf) ||
	    mad_get_field(umad_get_mad(s->buf), 0, IB_MAD_STATUS_F))
		return -1;
	s->len = len;
	return 0;
}

/* The records of the answer: their count; *cut when RMPP left some out. */
static size_t sa_records(const struct sa *s, const uint8_t **first, bool *cut)
{
	uint8_t *mad = umad_get_mad(s->buf);
	unsigned flags = mad_get_field(mad, 0, IB_SA_RMPP_FLAGS_F);
	unsigned offs = mad_get_field(mad, 0, IB_SA_ATTROFFS_F) * 8;
	size_t data =
		s->len > IB_SA_DATA_OFFS ? (size_t)s->len - IB_SA_DATA_OFFS : 0;

	/* one segment of several: the rest never came */
	*cut = (flags & IB_RMPP_FLAG_ACTIVE) && !(flags & IB_RMPP_FLAG_LAST);
	*first = mad + IB_SA_DATA_OFFS;
	if (!offs)
		offs = MCM_RECORD;
	if ((flags & IB_RMPP_FLAG_ACTIVE) && (flags & IB_RMPP_FLAG_LAST) &&
	    (flags & IB_RMPP_FLAG_FIRST)) {
		/* one segment: PayloadLength counts its SA header too */
		size_t pl = mad_get_field(mad, 0, IB_SA_RMPP_LEN_F);

		if (pl >= 20 && pl - 20 < data)
			data = pl - 20;
	}
	return data / offs;
}

static int add_records(struct ibtopo_fabric *f, const struct sa *s,
		       struct ibtopo_error *err)
{
	const uint8_t *r;
	bool cut;
	size_t n = sa_records(s, &r, &cut);
	unsigned offs =
		mad_get_field(umad_get_mad(s->buf), 0, IB_SA_ATTROFFS_F) * 8;

	if (!offs)
		offs = MCM_RECORD;
	for (size_t i = 0; i < n; i++, r += offs) {
		uint8_t mgid[16], gid[16];
		struct ibtopo_mcast_member m = { 0 };
		int rc;

		mad_decode_field((uint8_t *)r, IB_SA_MCM_MGID_F, mgid);
		mad_decode_field((uint8_t *)r, IB_SA_MCM_PORTGID_F, gid);
		for (int k = 8; k < 16; k++)
			m.port_guid = m.port_guid << 8 | gid[k];
		m.join_state = (uint8_t)mad_get_field((uint8_t *)r, 0,
						      IB_SA_MCM_JOIN_STATE_F);
		rc = ibtopo_fabric_add_mcast_member(
			f, mgid,
			(uint16_t)mad_get_field((uint8_t *)r, 0,
						IB_SA_MCM_MLID_F),
			(uint16_t)mad_get_field((uint8_t *)r, 0,
						IB_SA_MCM_PKEY_F),
			&m, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* The members port by port, when the whole table came cut. */
static int members_by_port(struct ibtopo_fabric *f, struct sa *s,
			   struct ibtopo_error *err)
{
	uint64_t prefix = ibtopo_fabric_meta(f)->subnet_prefix;

	if (!prefix)
		prefix = 0xfe80000000000000ull;
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned p = 1;
		     n->type != IBTOPO_NODE_SWITCH && p <= n->nports; p++) {
			const struct ibtopo_port *pt = n->ports[p];
			uint8_t rec[IB_SA_DATA_SIZE] = { 0 }, gid[16];
			int rc;

			if (!pt || !pt->guid || !pt->lid || !pt->remote)
				continue;
			for (int k = 0; k < 8; k++) {
				gid[k] = (uint8_t)(prefix >> (56 - 8 * k));
				gid[8 + k] =
					(uint8_t)(pt->guid >> (56 - 8 * k));
			}
			mad_encode_field(rec, IB_SA_MCM_PORTGID_F, gid);
			if (sa_get_table(s, COMP_PORT_GID, rec))
				continue; /* in no group, or no answer */
			rc = add_records(f, s, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The SA's groups into the fabric; 0 also when no SA answers. */
static int read_groups(struct ibtopo_fabric *f, char *ca, int portnum,
		       unsigned timeout_ms, size_t *mads,
		       struct ibtopo_error *err)
{
	uint8_t rec[IB_SA_DATA_SIZE] = { 0 };
	uint16_t sm_lid = ibtopo_fabric_meta(f)->sm_lid;
	const uint8_t *first;
	struct sa s;
	bool cut;
	int rc = 0;

	if (!sm_lid || sa_open(&s, ca, portnum, sm_lid, timeout_ms))
		return 0;
	if (sa_get_table(&s, 0, rec) == 0) {
		ibtopo_fabric_set_mcast_groups_read(f, true);
		sa_records(&s, &first, &cut);
		rc = cut ? members_by_port(f, &s, err) :
			   add_records(f, &s, err);
	}
	*mads += s.mads;
	sa_close(&s);
	return rc;
}

/* ---- the switches' tables ---- */

static unsigned sw_field(const ibnd_node_t *n, enum MAD_FIELDS fl)
{
	return ibtopo__smp_field(n->switchinfo, fl);
}

static int mft_grow(struct mft_read *r, unsigned blocks)
{
	size_t per = (size_t)MFT_BLOCK * r->stride;
	uint8_t *m = realloc(r->mask, blocks * per);

	if (!m)
		return -1;
	memset(m + (size_t)r->blocks * per, 0, (blocks - r->blocks) * per);
	r->mask = m;
	return 0;
}

/* Block b of switch r, every position; true when it has an entry. */
static bool read_block(struct ibmad_port *mp, struct mft_read *r, unsigned b,
		       size_t *gets, size_t *lost)
{
	uint8_t buf[IB_SMP_DATA_SIZE];
	ib_portid_t path = r->node->path_portid;
	bool any = false;

	path.sl = 0;
	path.qp = 0;
	for (unsigned pos = 0; pos < r->positions; pos++) {
		memset(buf, 0, sizeof(buf));
		(*gets)++;
		if (!smp_query_via(buf, &path, IB_ATTR_MULTICASTFORWTBL,
				   pos << 28 | b, 0, mp)) {
			(*lost)++;
			continue;
		}
		for (unsigned e = 0; e < MFT_BLOCK; e++) {
			unsigned v = (unsigned)buf[2 * e] << 8 | buf[2 * e + 1];
			uint8_t *m = r->mask +
				     ((size_t)b * MFT_BLOCK + e) * r->stride;

			for (unsigned i = 0; v && i < MFT_POS_PORTS; i++) {
				unsigned port = pos * MFT_POS_PORTS + i;

				if (!(v >> i & 1) || port / 8 >= r->stride)
					continue;
				m[port / 8] |= (uint8_t)(1u << port % 8);
				any = true;
			}
		}
	}
	return any;
}

/* The read tables go to the fabric's switches. */
static int attach(struct ibtopo_fabric *f, struct mft_read *sw, size_t n,
		  struct ibtopo_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct mft_read *r = &sw[i];
		struct ibtopo_node *node =
			ibtopo_fabric_find_node(f, r->node->guid);
		size_t count = (size_t)r->blocks * MFT_BLOCK;
		uint16_t *mlids;
		int rc;

		if (!node || node->type != IBTOPO_NODE_SWITCH)
			continue;
		mlids = malloc((count ? count : 1) * sizeof(*mlids));
		if (!mlids)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		for (size_t k = 0; k < count; k++)
			mlids[k] = (uint16_t)(IBTOPO_MLID_FIRST + k);
		rc = ibtopo_node_set_mft(node, mlids, r->mask, r->stride, count,
					 err);
		free(mlids);
		if (rc)
			return rc;
	}
	return 0;
}

/* The highest block an SA group's MLID needs, or 0. */
static unsigned groups_top_block(const struct ibtopo_fabric *f)
{
	unsigned top = 0;

	for (size_t i = 0; i < ibtopo_fabric_mcast_group_count(f); i++) {
		unsigned mlid = ibtopo_fabric_mcast_group(f, i)->mlid;

		if (mlid >= IBTOPO_MLID_FIRST &&
		    (mlid - IBTOPO_MLID_FIRST) / MFT_BLOCK > top)
			top = (mlid - IBTOPO_MLID_FIRST) / MFT_BLOCK;
	}
	return top;
}

/*
 * The switches whose SwitchInfo answered, each with its positions and
 * the last block its MulticastFDBCap allows; returns the block every
 * round reads up to at least (MulticastFDBTop's, the groups'), or -1.
 */
static int plan(struct mft_read **out, size_t *n, ibnd_fabric_t *in,
		unsigned least)
{
	size_t a = 0;

	*out = NULL;
	*n = 0;
	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		unsigned cap, top;
		struct mft_read *r;

		if (nd->type != IB_NODE_SWITCH ||
		    !sw_field(nd, IB_SW_LINEAR_FDB_CAP_F))
			continue;
		cap = sw_field(nd, IB_SW_MCAST_FDB_CAP_F);
		top = sw_field(nd, IB_SW_MCAST_FDB_TOP_F);
		if (!cap)
			continue;
		if (ibtopo__grow(out, &a, *n + 1, sizeof(**out)))
			return -1;
		r = &(*out)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->node = nd;
		r->positions = ((unsigned)nd->numports + MFT_POS_PORTS) /
			       MFT_POS_PORTS;
		r->stride = ((unsigned)nd->numports + 8) / 8;
		r->top_block = (cap + MFT_BLOCK - 1) / MFT_BLOCK - 1;
		if (top >= IBTOPO_MLID_FIRST &&
		    (top - IBTOPO_MLID_FIRST) / MFT_BLOCK > least)
			least = (top - IBTOPO_MLID_FIRST) / MFT_BLOCK;
	}
	return (int)least;
}

int ibtopo__discover_mcast(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			   char *ca, int portnum, unsigned timeout_ms,
			   struct ibtopo__mcast_read *st,
			   struct ibtopo_error *err)
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct ibmad_port *mp = NULL;
	struct mft_read *sw = NULL;
	size_t n = 0;
	int rc, least;
	bool any = true;

	rc = read_groups(fabric, ca, portnum, timeout_ms, &st->sa_mads, err);
	if (rc)
		return rc;
	least = plan(&sw, &n, in, groups_top_block(fabric));
	if (least < 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	if (n) {
		mp = mad_rpc_open_port(ca, portnum, classes, 2);
		if (!mp) {
			rc = ibtopo__error_set(
				err, IBTOPO_ENODEV,
				"cannot open the MAD port to read the "
				"multicast tables");
			goto out_free;
		}
		if (timeout_ms)
			mad_rpc_set_timeout(mp, (int)timeout_ms);
	}
	/* round b: block b of every switch that has it */
	for (unsigned b = 0; n && (any || b <= (unsigned)least); b++) {
		any = false;
		for (size_t i = 0; i < n; i++) {
			struct mft_read *r = &sw[i];

			if (b > r->top_block)
				continue;
			if (mft_grow(r, b + 1)) {
				rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
						       "out of memory");
				goto out_free;
			}
			r->blocks = b + 1;
			any |= read_block(mp, r, b, &st->gets, &st->lost);
		}
		if (b >= 511)
			break;
	}
	rc = attach(fabric, sw, n, err);
	st->switches = n;
out_free:
	if (mp)
		mad_rpc_close_port(mp);
	for (size_t i = 0; i < n; i++)
		free(sw[i].mask);
	free(sw);
	return rc;
}
