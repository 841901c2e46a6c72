/*
 * discover_mcast.c - the multicast forwarding of a live sweep (discover
 * --routes): every switch's MulticastForwardingTable, and the multicast
 * groups with their members from the SA. Gets only.
 *
 * MFT: attribute 0x1B along each switch's directed route; the modifier's
 * bits 31-28 pick the port mask position (16 ports each: NumPorts + 1
 * ports, port 0 the switch, need (NumPorts + 16) / 16 positions), bits
 * 8-0 the block of 32 MLIDs from 0xC000. A block answers 32 16-bit masks.
 * Blocks are read round by round over all switches (each round's Gets
 * through a window, gets.c), up to the highest of
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
 * PortGID: one MAD per CA port, each with the few groups of that port),
 * through a window as well.
 */
#include "discover/discover-int.h"

#include <stdlib.h>
#include <string.h>

#define MFT_BLOCK 32	 /* MLIDs a block */
#define MFT_POS_PORTS 16 /* ports a mask position */
#define MCAST_WINDOW 16	 /* Gets in flight */
#define MCM_RECORD 64	 /* an MCMemberRecord's bytes in a table */
#define OPENSM_SM_KEY 1ull
#define SA_RETRIES 1 /* a GetTable sent again at most */
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

/* What the SA's answers go into. */
struct sa_read {
	struct ibtopo_fabric *f;
	struct ibtopo_error *err;
	bool answered, cut; /* the whole table: came; came cut short */
};

/* The records of an SA answer: their count, *first, *offs apart; *cut
 * when RMPP left some out. */
static size_t sa_records(const uint8_t *mad, size_t len, const uint8_t **first,
			 unsigned *offs, bool *cut)
{
	unsigned flags = mad_get_field((void *)mad, 0, IB_SA_RMPP_FLAGS_F);
	size_t data = len > IB_SA_DATA_OFFS ? len - IB_SA_DATA_OFFS : 0;

	/* one segment of several: the rest never came */
	*cut = (flags & IB_RMPP_FLAG_ACTIVE) && !(flags & IB_RMPP_FLAG_LAST);
	*first = mad + IB_SA_DATA_OFFS;
	*offs = mad_get_field((void *)mad, 0, IB_SA_ATTROFFS_F) * 8;
	if (!*offs)
		*offs = MCM_RECORD;
	if ((flags & IB_RMPP_FLAG_ACTIVE) && (flags & IB_RMPP_FLAG_LAST) &&
	    (flags & IB_RMPP_FLAG_FIRST)) {
		/* one segment: PayloadLength counts its SA header too */
		size_t pl = mad_get_field((void *)mad, 0, IB_SA_RMPP_LEN_F);

		if (pl >= 20 && pl - 20 < data)
			data = pl - 20;
	}
	return data / *offs;
}

static int add_records(struct ibtopo_fabric *f, const uint8_t *mad, size_t len,
		       struct ibtopo_error *err)
{
	const uint8_t *r;
	unsigned offs;
	bool cut;
	size_t n = sa_records(mad, len, &r, &offs, &cut);

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

/* The whole table answered: its records, unless it came cut. */
static int got_table(void *arg, const struct ibtopo__get *g, const uint8_t *mad,
		     size_t len)
{
	struct sa_read *s = arg;
	const uint8_t *first;
	unsigned offs;

	(void)g;
	if (!mad)
		return 0;
	s->answered = true;
	sa_records(mad, len, &first, &offs, &s->cut);
	return s->cut ? 0 : add_records(s->f, mad, len, s->err);
}

/* One port's groups answered (none: no answer, or in no group). */
static int got_port(void *arg, const struct ibtopo__get *g, const uint8_t *mad,
		    size_t len)
{
	struct sa_read *s = arg;

	(void)g;
	return mad ? add_records(s->f, mad, len, s->err) : 0;
}

/* A GetTable by PortGID of every linked CA port with a LID, into *out. */
static int port_queries(struct ibtopo__get **out, size_t *n, uint8_t **recs,
			const struct ibtopo__get *whole,
			const struct ibtopo_fabric *f)
{
	uint64_t prefix = ibtopo_fabric_meta(f)->subnet_prefix;
	size_t a = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (!prefix)
		prefix = 0xfe80000000000000ull;
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *nd = ibtopo_fabric_node(f, i);

		for (unsigned p = 1;
		     nd->type != IBTOPO_NODE_SWITCH && p <= nd->nports; p++)
			cap += nd->ports[p] != NULL;
	}
	*recs = calloc(cap ? cap : 1, IB_SA_DATA_SIZE);
	if (!*recs)
		return -1;
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *nd = ibtopo_fabric_node(f, i);

		for (unsigned p = 1;
		     nd->type != IBTOPO_NODE_SWITCH && p <= nd->nports; p++) {
			const struct ibtopo_port *pt = nd->ports[p];
			uint8_t gid[16], *rec = *recs + *n * IB_SA_DATA_SIZE;

			if (!pt || !pt->guid || !pt->lid || !pt->remote)
				continue;
			if (ibtopo__grow(out, &a, *n + 1, sizeof(**out)))
				return -1;
			for (int k = 0; k < 8; k++) {
				gid[k] = (uint8_t)(prefix >> (56 - 8 * k));
				gid[8 + k] =
					(uint8_t)(pt->guid >> (56 - 8 * k));
			}
			mad_encode_field(rec, IB_SA_MCM_PORTGID_F, gid);
			(*out)[*n] = *whole;
			(*out)[*n].comp = COMP_PORT_GID;
			(*out)[*n].rec = rec;
			(*out)[*n].guid = nd->guid;
			++*n;
		}
	}
	return 0;
}

/*
 * The SA's groups into the fabric; 0 also when no SA answers. Its MADs
 * are counted apart (`mads`), not in the sweep's tally: no SA at the SM's
 * LID (no SM running) is no loss of the sweep's.
 */
static int read_groups(struct ibtopo_fabric *f, const struct ibtopo__gets *base,
		       size_t *mads, struct ibtopo_error *err)
{
	static const uint8_t none[IB_SA_DATA_SIZE];
	struct ibtopo__mad_tally own = { 0 };
	struct ibtopo__gets sa = *base;
	struct sa_read s = { f, err, false, false };
	struct ibtopo__get whole = { .attr = IB_SA_ATTR_MCRECORD, .rec = none };
	struct ibtopo__get *ports = NULL;
	uint8_t *recs = NULL;
	size_t n = 0;
	int rc;

	whole.to.lid = ibtopo_fabric_meta(f)->sm_lid;
	whole.to.qp = 1;
	whole.to.qkey = IB_DEFAULT_QP1_QKEY;
	if (!whole.to.lid)
		return 0;
	sa.sa = true;
	sa.sm_key = OPENSM_SM_KEY;
	/* an SA that stays silent costs two timeouts, not `retries` */
	if (sa.retries > SA_RETRIES)
		sa.retries = SA_RETRIES;
	sa.what = "MCMemberRecord";
	sa.tally = &own;
	sa.got = got_table;
	sa.arg = &s;
	rc = ibtopo__gets_run(&sa, &whole, 1, err);
	if (rc == IBTOPO_ENODEV || rc == IBTOPO_EIO)
		rc = 0; /* no SA to ask: no groups read */
	if (!rc && s.answered) {
		ibtopo_fabric_set_mcast_groups_read(f, true);
		if (s.cut && port_queries(&ports, &n, &recs, &whole, f)) {
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
					       "out of memory");
		} else if (s.cut) {
			sa.got = got_port;
			rc = ibtopo__gets_run(&sa, ports, n, err);
			if (rc == IBTOPO_EIO)
				rc = 0; /* what answered is kept */
		}
	}
	if (s.answered)
		*mads += own.st.sent; /* 0: no SA answered */
	ibtopo__tally_release(&own);
	free(ports);
	free(recs);
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

/* What a round of MFT Gets goes into. */
struct mft_round {
	struct mft_read *sw;
	bool any;    /* an entry was found */
	size_t lost; /* Gets unanswered */
};

/* A block of one position of switch g->tag answered (or not). */
static int got_block(void *arg, const struct ibtopo__get *g, const uint8_t *mad,
		     size_t len)
{
	struct mft_round *rd = arg;
	struct mft_read *r = &rd->sw[g->tag];
	unsigned pos = g->mod >> 28, b = g->mod & 0x1ff;
	const uint8_t *buf;

	if (!mad || len < IB_SMP_DATA_OFFS + 2 * MFT_BLOCK) {
		rd->lost++;
		return 0;
	}
	buf = mad + IB_SMP_DATA_OFFS;
	for (unsigned e = 0; e < MFT_BLOCK; e++) {
		unsigned v = (unsigned)buf[2 * e] << 8 | buf[2 * e + 1];
		uint8_t *m = r->mask + ((size_t)b * MFT_BLOCK + e) * r->stride;

		for (unsigned i = 0; v && i < MFT_POS_PORTS; i++) {
			unsigned port = pos * MFT_POS_PORTS + i;

			if (!(v >> i & 1) || port / 8 >= r->stride)
				continue;
			m[port / 8] |= (uint8_t)(1u << port % 8);
			rd->any = true;
		}
	}
	return 0;
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

/*
 * Round b: block b of every position of every switch that has it, into
 * `gets` (room for every switch's positions); their count, or SIZE_MAX
 * when out of memory.
 */
static size_t round_gets(struct ibtopo__get *gets, struct mft_read *sw,
			 size_t n, unsigned b)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct mft_read *r = &sw[i];

		if (b > r->top_block)
			continue;
		if (mft_grow(r, b + 1))
			return SIZE_MAX;
		r->blocks = b + 1;
		for (unsigned pos = 0; pos < r->positions; pos++) {
			struct ibtopo__get *g = &gets[k++];

			memset(g, 0, sizeof(*g));
			g->to = r->node->path_portid;
			g->to.sl = 0;
			g->to.qp = 0;
			g->attr = IB_ATTR_MULTICASTFORWTBL;
			g->mod = pos << 28 | b;
			g->guid = r->node->guid;
			g->tag = i;
		}
	}
	return k;
}

/* Every switch's table, round by round (see the top). */
static int read_tables(struct mft_read *sw, size_t n, unsigned least,
		       struct ibtopo__gets *how, struct ibtopo__mcast_read *st,
		       struct ibtopo_error *err)
{
	struct mft_round rd = { sw, true, 0 };
	struct ibtopo__get *gets;
	size_t all = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		all += sw[i].positions;
	gets = malloc((all ? all : 1) * sizeof(*gets));
	if (!gets)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	how->sa = false;
	how->what = "MulticastForwardingTable";
	how->got = got_block;
	how->arg = &rd;
	for (unsigned b = 0; n && !rc && (rd.any || b <= least) && b <= 511;
	     b++) {
		size_t k = round_gets(gets, sw, n, b);

		if (k == SIZE_MAX) {
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
					       "out of memory");
			break;
		}
		rd.any = false;
		rc = ibtopo__gets_run(how, gets, k, err);
		st->gets += k;
	}
	st->lost = rd.lost;
	free(gets);
	return rc;
}

int ibtopo__discover_mcast(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			   char *ca, int portnum, unsigned timeout_ms,
			   unsigned retries, struct ibtopo__mad_tally *tally,
			   struct ibtopo__mcast_read *st,
			   struct ibtopo_error *err)
{
	struct ibtopo__gets how;
	struct mft_read *sw = NULL;
	size_t n = 0;
	int rc, least;

	ibtopo__gets_init(&how, ca, portnum, MCAST_WINDOW, tally);
	how.timeout_ms = timeout_ms;
	how.retries = retries;
	rc = read_groups(fabric, &how, &st->sa_mads, err);
	if (rc)
		return rc;
	least = plan(&sw, &n, in, groups_top_block(fabric));
	if (least < 0)
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	else
		rc = read_tables(sw, n, (unsigned)least, &how, st, err);
	if (!rc)
		rc = attach(fabric, sw, n, err);
	st->switches = n;
	for (size_t i = 0; i < n; i++)
		free(sw[i].mask);
	free(sw);
	return rc;
}
