/*
 * sweep.c - the live sweep: a directed-route walk of the fabric with up to
 * cfg->max_smps SMP Gets in flight, through libibumad and libibmad. Only
 * discover.c calls it; it fills the structures of <infiniband/ibnetdisc.h>
 * so that discover.c checks, repairs and copies a live sweep and a cache
 * file (still read by libibnetdisc) alike. Nothing else in libibtopo sees
 * those structures.
 *
 * Why not ibnd_discover_fabric(): its cost grows with the square of the
 * fabric. After the sweep it groups nodes into chassis by walking a list
 * of every system image GUID seen so far for every node (twice), and it
 * files each port in a 137-bucket table of port GUIDs, where the 37 ports
 * of a switch share one GUID and so one chain, walked in full on every
 * insertion. On the 11,664-host fat tree of bench/discover.sh those loops
 * took 60 % of the discovering process's CPU time (perf record), and that
 * process, not the fabric, sets the pace. Here nodes are found through an
 * open-addressing table of node GUIDs, ports through their node, and
 * chassis are not grouped (ibtopo groups directors by system image GUID
 * itself).
 *
 * The walk is libibnetdisc's, so that the same fabric gives the same nodes,
 * ports, links and directed routes: NodeInfo at the far end of each LinkUp
 * port (but once per link: not from a port whose far end already
 * answered it through that link); for a node seen for the first time NodeDescription, and for a
 * switch SwitchInfo and PortInfo of port 0, then of ports 1..N; for a CA
 * the PortInfo of the port reached. A switch port that is LinkUp (other
 * than the one the query came in through) and our own port lead on. SMPs
 * go out in the order they were asked for; an answer frees its slot for
 * the next one before it is acted on. Mellanox ExtendedPortInfo is asked
 * for where libibnetdisc asks for it (IBND_CONFIG_MLX_EPI), to tell FDR10
 * from QDR.
 *
 * With discover --routes, once the walk is done, the same window reads
 * the forwarding tables: for each switch whose SwitchInfo answered, its
 * LinearForwardingTable blocks 0..LinearFDBTop/64, 64 LIDs each, switch
 * after switch, block after block, made one at a time as slots free up
 * (a 1,620-switch fabric has some 340,000 blocks: no queue holds them).
 * dump_fts reads the same blocks one at a time, LID-routed; here they go
 * along each switch's directed route, so no LID is needed to read them.
 *
 * Every SMP is a Get. One that times out (on a lossy link, or a switch
 * whose SMA queue overran) is sent again on its own, ahead of the queue,
 * up to cfg->retries times, each time with twice the timeout (at most 4
 * times the base): losing one SMP in thousands must not cost the sweep.
 * A loss also halves the window (AIMD, struct ibtopo__window), so that
 * the sweep does not itself cause the VL15 drops it suffers from. One
 * that comes back with an error status is an answer, and is not asked
 * again. What never answers is dropped without a word, as libibnetdisc
 * drops it: discover_repair.c asks once more and counts what stays
 * missing.
 */
#include "discover/discover-int.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SWEEP_TIMEOUT_MS	1000	/* libibnetdisc's defaults */
#define SWEEP_MAX_SMPS		2
#define TIMEOUT_GROWTH_MAX	2	/* doubled at most twice: 4x */

#define PHYS_LINKUP		5u
#define SPEED_ACTIVE_QDR	4u
#define CAP_IS_EXT_SPEEDS	(1u << 14)
#define VENDOR_MELLANOX		0x02c9u
#define VENDOR_BULL		0x119fu

/* One SMP, queued, then on the wire. */
struct smp {
	struct smp *next;	/* queue order */
	ib_portid_t path;
	unsigned attr, mod;
	/* NodeInfo: the node and port we left through (NULL: the start) */
	ibnd_node_t *node;
	int port;
	struct ibtopo__lft_read *lft;	/* a LinearForwardingTable block */
	uint32_t trid;
	unsigned tries;		/* sent again so far */
	unsigned long seq;	/* its number in the window */
};

struct sweep {
	const struct ibnd_config *cfg;
	unsigned max_smps, timeout_ms, retries;
	int fd, agent;
	ibnd_fabric_t *f;
	ibnd_node_t **table;	/* node GUID -> node, open addressing */
	size_t table_size;	/* a power of 2 */
	size_t nnodes;
	struct smp *head, *tail;	/* asked for, not sent yet */
	struct ibtopo__lfts *lfts;	/* blocks to ask for when idle */
	struct smp **wire;		/* max_smps slots */
	unsigned on_wire;
	struct ibtopo__window win;	/* how many may be on the wire */
	struct ibtopo__mad_tally *tally;
	unsigned sent;
	int failed;		/* errno of a send or receive that failed */
	bool oom;
};

static unsigned field(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field((void *)buf, 0, f);
}

/* ---- nodes by GUID ---- */

static size_t guid_slot(const struct sweep *s, uint64_t guid)
{
	/* the 64-bit finalizer of MurmurHash3: GUIDs are often sequential */
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdull;
	guid ^= guid >> 33;
	guid *= 0xc4ceb9fe1a85ec53ull;
	guid ^= guid >> 33;
	return (size_t)guid & (s->table_size - 1);
}

static ibnd_node_t *find_node(const struct sweep *s, uint64_t guid)
{
	if (!s->table_size)
		return NULL;
	size_t mask = s->table_size - 1;

	for (size_t i = guid_slot(s, guid);; i = (i + 1) & mask) {
		ibnd_node_t *n = s->table[i];

		if (!n || n->guid == guid)
			return n;
	}
}

static void table_put(struct sweep *s, ibnd_node_t *node)
{
	size_t i = guid_slot(s, node->guid);

	while (s->table[i])
		i = (i + 1) & (s->table_size - 1);
	s->table[i] = node;
}

/* Keep the table at most half full. */
static int table_reserve(struct sweep *s)
{
	ibnd_node_t **old = s->table;
	size_t old_size = s->table_size;

	if ((s->nnodes + 1) * 2 <= s->table_size)
		return 0;
	s->table_size = old_size ? old_size * 2 : 1024;
	s->table = calloc(s->table_size, sizeof(*s->table));
	if (!s->table) {
		s->table = old;
		s->table_size = old_size;
		return -1;
	}
	for (size_t i = 0; i < old_size; i++)
		if (old[i])
			table_put(s, old[i]);
	free(old);
	return 0;
}

/* ---- the window and the tally (pma.c uses them too) ---- */

void ibtopo__window_init(struct ibtopo__window *w, unsigned max)
{
	memset(w, 0, sizeof(*w));
	w->max = w->cur = w->min = max ? max : 1;
}

unsigned long ibtopo__window_sent(struct ibtopo__window *w)
{
	return ++w->seq;
}

void ibtopo__window_answer(struct ibtopo__window *w)
{
	if (w->cur < w->max && ++w->acks >= w->cur) {
		w->cur++;
		w->acks = 0;
	}
}

void ibtopo__window_loss(struct ibtopo__window *w, unsigned long seq)
{
	/* the MADs already out when it was cut do not cut it again */
	if (seq <= w->cut_at)
		return;
	w->cut_at = w->seq;
	w->cur = w->cur > 1 ? w->cur / 2 : 1;
	w->acks = 0;
	if (w->cur < w->min)
		w->min = w->cur;
}

unsigned ibtopo__retry_timeout(unsigned base_ms, unsigned tries)
{
	return base_ms << (tries < TIMEOUT_GROWTH_MAX ? tries :
			   TIMEOUT_GROWTH_MAX);
}

void ibtopo__tally_timeout(struct ibtopo__mad_tally *t, uint64_t guid)
{
	size_t i;

	if (!guid)
		return;
	for (i = 0; i < t->nblame && t->blame[i].guid != guid; i++)
		;
	if (i == t->nblame) {
		if (t->nblame == t->ablame) {
			size_t n = t->ablame ? t->ablame * 2 : 16;
			struct ibtopo__blame *b = realloc(t->blame,
							  n * sizeof(*b));

			if (!b)
				return;	/* only the naming suffers */
			t->blame = b;
			t->ablame = n;
		}
		t->blame[t->nblame++] = (struct ibtopo__blame){ guid, 0 };
	}
	t->blame[i].timeouts++;
}

void ibtopo__tally_window(struct ibtopo__mad_tally *t,
			  const struct ibtopo__window *w)
{
	if (w->max > t->st.window_max)
		t->st.window_max = w->max;
	if (!t->st.window_min || w->min < t->st.window_min)
		t->st.window_min = w->min;
}

uint64_t ibtopo__tally_worst(const struct ibtopo__mad_tally *t,
			     size_t *timeouts)
{
	size_t first = 0, second = 0;
	uint64_t guid = 0;

	for (size_t i = 0; i < t->nblame; i++) {
		size_t n = t->blame[i].timeouts;

		if (n > first) {
			second = first;
			first = n;
			guid = t->blame[i].guid;
		} else if (n > second) {
			second = n;
		}
	}
	*timeouts = 0;
	if (first < 8 || first < 3 * second)
		return 0;
	*timeouts = first;
	return guid;
}

void ibtopo__tally_release(struct ibtopo__mad_tally *t)
{
	free(t->blame);
	t->blame = NULL;
	t->nblame = t->ablame = 0;
}

/* ---- the SMP engine ---- */

static int send_smp(struct sweep *s, struct smp *q)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	ib_rpc_t rpc;
	int rc;

	memset(umad, 0, sizeof(umad));
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_SMI_DIRECT_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = q->attr;
	rpc.attr.mod = q->mod;
	rpc.timeout = (int)ibtopo__retry_timeout(s->timeout_ms, q->tries);
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	rpc.trid = mad_trid();
	rpc.mkey = s->cfg->mkey;
	q->trid = (uint32_t)rpc.trid;
	rc = mad_build_pkt(umad, &rpc, &q->path, NULL, NULL);
	if (rc < 0)
		return rc;
	/* we retry ourselves, one query at a time: the kernel must not */
	rc = umad_send(s->fd, s->agent, umad, IB_MAD_SIZE, rpc.timeout, 0);
	if (rc < 0)
		return rc;
	s->sent++;
	s->tally->st.sent++;
	q->seq = ibtopo__window_sent(&s->win);
	return 0;
}

/*
 * The next LinearForwardingTable block to ask for, made now (NULL: none
 * left, or out of memory, which sets s->oom).
 */
static struct smp *next_lft_block(struct sweep *s)
{
	struct ibtopo__lfts *l = s->lfts;
	struct ibtopo__lft_read *r;
	struct smp *q;

	while (l && l->next < l->count &&
	       l->next_block >= l->sw[l->next].blocks) {
		l->next++;
		l->next_block = 0;
	}
	if (!l || l->next >= l->count)
		return NULL;
	r = &l->sw[l->next];
	q = calloc(1, sizeof(*q));
	if (!q) {
		s->oom = true;
		return NULL;
	}
	q->path = r->node->path_portid;
	q->path.sl = 0;
	q->path.qp = 0;
	q->attr = IB_ATTR_LINEARFORWTBL;
	q->mod = (unsigned)l->next_block++;
	q->lft = r;
	l->gets++;
	return q;
}

/* Send queued SMPs (then LFT blocks) while the window has room. */
static int pump(struct sweep *s)
{
	while (s->on_wire < s->win.cur) {
		struct smp *q = s->head;
		unsigned slot = 0;
		int rc;

		if (q) {
			s->head = q->next;
			if (!s->head)
				s->tail = NULL;
		} else {
			q = next_lft_block(s);
			if (!q)
				return s->oom ? -1 : 0;
		}
		rc = send_smp(s, q);
		if (rc < 0) {
			free(q);
			s->failed = -rc;
			return -1;
		}
		while (s->wire[slot])
			slot++;
		s->wire[slot] = q;
		s->on_wire++;
	}
	return 0;
}

/* Ask for attribute `attr` (modifier `mod`) along `path`. */
static int ask(struct sweep *s, const ib_portid_t *path, unsigned attr,
	       unsigned mod, ibnd_node_t *node, int port)
{
	struct smp *q = calloc(1, sizeof(*q));

	if (!q) {
		s->oom = true;
		return -1;
	}
	q->path = *path;
	q->path.sl = 0;
	q->path.qp = 0;
	q->attr = attr;
	q->mod = mod;
	q->node = node;
	q->port = port;
	if (s->tail)
		s->tail->next = q;
	else
		s->head = q;
	s->tail = q;
	return pump(s);
}

/* ---- answers ---- */

/* Devices that answer Mellanox ExtendedPortInfo (as libibnetdisc knows). */
static bool has_mlnx_epi(const ibnd_node_t *n)
{
	static const struct {
		uint16_t vendor, first, last;
	} devices[] = {
		{ 0, 0xc738, 0xc73b },	/* SwitchX */
		{ 0, 0xc839, 0xc839 },
		{ 0, 0xcb20, 0xcb20 },	/* Switch-IB */
		{ 0, 0xcf08, 0xcf09 },	/* Switch-IB 2 */
		{ 0, 0xd2f0, 0xd2f0 },	/* Quantum */
		{ 0, 0x1003, 0x101b },	/* ConnectX-3 .. ConnectX-7 */
		{ 0, 0xa2d2, 0xa2d2 },	/* BlueField */
		{ VENDOR_BULL, 0x1b02, 0x1b02 },
		{ VENDOR_BULL, 0x1b50, 0x1b50 },
		{ VENDOR_BULL, 0x1ba0, 0x1ba0 },
		{ VENDOR_BULL, 0x1bd0, 0x1bd5 },
		{ VENDOR_BULL, 0x1bf0, 0x1bf0 },
		{ VENDOR_BULL, 0x1b33, 0x1b33 },
		{ VENDOR_BULL, 0x1b73, 0x1b73 },
		{ VENDOR_BULL, 0x1b40, 0x1b41 },
		{ VENDOR_BULL, 0x1b60, 0x1b61 },
		{ VENDOR_BULL, 0x1b83, 0x1b83 },
		{ VENDOR_BULL, 0x1b93, 0x1b94 },
		{ VENDOR_BULL, 0x1bb4, 0x1bb5 },
		{ VENDOR_BULL, 0x1bc4, 0x1bc6 },
	};
	unsigned vendor = field(n->info, IB_NODE_VENDORID_F);
	unsigned dev = field(n->info, IB_NODE_DEVID_F);

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(devices); i++)
		if ((!devices[i].vendor || devices[i].vendor == vendor) &&
		    dev >= devices[i].first && dev <= devices[i].last)
			return true;
	return false;
}

/*
 * Port `p` answered PortInfo (and ExtendedPortInfo, if asked): if it is
 * a LinkUp switch port other than the one the query came in through, or
 * our own port, ask NodeInfo one hop further.
 */
static int walk_on(struct sweep *s, const struct smp *q, ibnd_port_t *p)
{
	ibnd_node_t *n = p->node;
	ib_portid_t path = q->path;
	unsigned in_port = field(p->info, IB_PORT_LOCAL_PORT_F);

	if (!p->portnum || field(p->info, IB_PORT_PHYS_STATE_F) != PHYS_LINKUP)
		return 0;
	/* the far end already answered NodeInfo through this link, from
	 * its side: asking again from this side finds the same node and
	 * port (a third of the NodeInfo of a fat tree) */
	if (p->remoteport)
		return 0;
	if (n->type == IB_NODE_SWITCH ? (unsigned)p->portnum == in_port :
	    !(n == s->f->from_node && p->portnum == s->f->from_portnum))
		return 0;
	/* a CA does not forward directed routes; nor do LID-routed paths */
	if (n->type != IB_NODE_SWITCH && path.lid)
		return 0;
	if (s->cfg->max_hops && (unsigned)path.drpath.cnt >= s->cfg->max_hops)
		return 0;
	if (path.drpath.cnt + 1 >= IB_SUBNET_PATH_HOPS_MAX)
		return 0;
	path.drpath.cnt++;
	path.drpath.p[path.drpath.cnt] = (uint8_t)p->portnum;
	if ((unsigned)path.drpath.cnt > s->f->maxhops_discovered)
		s->f->maxhops_discovered = (unsigned)path.drpath.cnt;
	return ask(s, &path, IB_ATTR_NODE_INFO, 0, n, p->portnum);
}

static ibnd_port_t *port_shell(struct sweep *s, ibnd_node_t *n, int num)
{
	ibnd_port_t *p = n->ports[num];

	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			s->oom = true;
			return NULL;
		}
		p->node = n;
		p->portnum = num;
		n->ports[num] = p;
	}
	return p;
}

/* A LinkUp QDR port of a device with ExtendedPortInfo: FDR10, or QDR? */
static bool wants_ext_info(const struct sweep *s, const ibnd_port_t *p)
{
	const ibnd_node_t *n = p->node;
	const uint8_t *cap_info = p->info;
	unsigned espeed = 0;

	if (!(s->cfg->flags & IBND_CONFIG_MLX_EPI) || !has_mlnx_epi(n))
		return false;
	if (n->type == IB_NODE_SWITCH)
		cap_info = n->ports[0] ? n->ports[0]->info : NULL;
	if (cap_info &&
	    (field(cap_info, IB_PORT_CAPMASK_F) & CAP_IS_EXT_SPEEDS))
		espeed = field(p->info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
	return !espeed &&
	       field(p->info, IB_PORT_PHYS_STATE_F) == PHYS_LINKUP &&
	       field(p->info, IB_PORT_LINK_SPEED_ACTIVE_F) == SPEED_ACTIVE_QDR;
}

static int got_port_info(struct sweep *s, const struct smp *q,
			 const uint8_t *data)
{
	ibnd_node_t *n = q->node;
	int num = (int)q->mod;
	ibnd_port_t *p;
	bool ext;

	if (num > n->numports)
		return 0;
	p = port_shell(s, n, num);
	if (!p)
		return -1;
	if (!p->guid)
		p->guid = mad_get_field64(n->info, 0, IB_NODE_PORT_GUID_F);
	memcpy(p->info, data, sizeof(p->info));
	p->base_lid = (uint16_t)field(p->info, IB_PORT_LID_F);
	p->lmc = (uint8_t)field(p->info, IB_PORT_LMC_F);
	if (num == 0) {
		n->smalid = p->base_lid;
		n->smalmc = p->lmc;
	} else if (n->type == IB_NODE_SWITCH) {
		/* switch ports 1..N carry port 0's LID */
		p->base_lid = n->smalid;
		p->lmc = n->smalmc;
	}
	/* its answer (or failure) walks on from the port */
	ext = wants_ext_info(s, p);
	if (ext && ask(s, &q->path, IB_ATTR_MLNX_EXT_PORT_INFO, (unsigned)num,
		       n, 0))
		return -1;
	if (num == 0 && n->type == IB_NODE_SWITCH)
		for (unsigned i = 1; i <= (unsigned)n->numports; i++)
			if (ask(s, &q->path, IB_ATTR_PORT_INFO, i, n, 0))
				return -1;
	return ext ? 0 : walk_on(s, q, p);
}

static int got_node_info(struct sweep *s, const struct smp *q,
			 const uint8_t *data)
{
	uint64_t guid = mad_get_field64((void *)data, 0, IB_NODE_GUID_F);
	int num = (int)field(data, IB_NODE_LOCAL_PORT_F);
	ibnd_node_t *n = find_node(s, guid);
	ibnd_port_t *p, *r;
	bool new = !n;

	if (new) {
		if (table_reserve(s))
			goto out_oom;
		n = calloc(1, sizeof(*n));
		if (!n)
			goto out_oom;
		n->guid = guid;
		n->type = (int)field(data, IB_NODE_TYPE_F);
		n->numports = (int)field(data, IB_NODE_NPORTS_F);
		n->ports = calloc((size_t)n->numports + 1, sizeof(*n->ports));
		if (!n->ports) {
			free(n);
			goto out_oom;
		}
		n->path_portid = q->path;
		memcpy(n->info, data, sizeof(n->info));
		n->next = s->f->nodes;
		s->f->nodes = n;
		table_put(s, n);
		s->nnodes++;
	}
	if (num > n->numports)
		return 0;	/* a node that contradicts itself */
	p = port_shell(s, n, num);
	if (!p)
		return -1;
	p->guid = mad_get_field64((void *)data, 0, IB_NODE_PORT_GUID_F);

	if (!q->node) {
		s->f->from_node = n;
		s->f->from_portnum = num;
	} else if (q->node->ports[q->port]) {
		r = q->node->ports[q->port];
		/* a port has one peer: forget older ones */
		if (p->remoteport)
			p->remoteport->remoteport = NULL;
		if (r->remoteport)
			r->remoteport->remoteport = NULL;
		p->remoteport = r;
		r->remoteport = p;
	}

	if (new) {
		if (ask(s, &q->path, IB_ATTR_NODE_DESC, 0, n, 0))
			return -1;
		if (n->type == IB_NODE_SWITCH &&
		    (ask(s, &q->path, IB_ATTR_SWITCH_INFO, 0, n, 0) ||
		     ask(s, &q->path, IB_ATTR_PORT_INFO, 0, n, 0)))
			return -1;
	}
	if (n->type != IB_NODE_SWITCH)
		return ask(s, &q->path, IB_ATTR_PORT_INFO, (unsigned)num, n, 0);
	return 0;

out_oom:
	s->oom = true;
	return -1;
}

static int got_answer(struct sweep *s, const struct smp *q, const uint8_t *mad,
		      bool ok)
{
	const uint8_t *data = mad + IB_SMP_DATA_OFFS;
	ibnd_node_t *n = q->node;

	if (q->lft) {
		struct ibtopo__lft_read *r = q->lft;

		if (ok && q->mod < r->blocks && !r->have[q->mod]) {
			memcpy(r->port + (size_t)q->mod * IBTOPO__LFT_BLOCK,
			       data, IBTOPO__LFT_BLOCK);
			r->have[q->mod] = 1;
			r->missing--;
		}
		return 0;
	}
	if (!ok) {
		/* without ExtendedPortInfo the port is QDR: walk on */
		if (q->attr == IB_ATTR_MLNX_EXT_PORT_INFO && n->ports[q->mod])
			return walk_on(s, q, n->ports[q->mod]);
		return 0;
	}
	switch (q->attr) {
	case IB_ATTR_NODE_INFO:
		return got_node_info(s, q, data);
	case IB_ATTR_NODE_DESC:
		memcpy(n->nodedesc, data, IB_SMP_DATA_SIZE);
		return 0;
	case IB_ATTR_SWITCH_INFO:
		memcpy(n->switchinfo, data, sizeof(n->switchinfo));
		n->smaenhsp0 = (int)field(data, IB_SW_ENHANCED_PORT0_F);
		return 0;
	case IB_ATTR_PORT_INFO:
		return got_port_info(s, q, data);
	case IB_ATTR_MLNX_EXT_PORT_INFO:
		if (!n->ports[q->mod])
			return 0;
		memcpy(n->ports[q->mod]->ext_info, data, IB_SMP_DATA_SIZE);
		return walk_on(s, q, n->ports[q->mod]);
	}
	return 0;
}

/* Wait for one answer (or timeout) and act on it. */
static int receive(struct sweep *s)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	int len = IB_MAD_SIZE, rc;
	struct smp *q = NULL;
	uint8_t *mad;
	uint32_t trid;
	bool ok;

	memset(umad, 0, sizeof(umad));
	rc = umad_recv(s->fd, umad, &len, -1);
	if (rc < 0) {
		s->failed = -rc;
		return -1;
	}
	mad = umad_get_mad(umad);
	trid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	for (unsigned i = 0; i < s->max_smps; i++) {
		if (s->wire[i] && s->wire[i]->trid == trid) {
			q = s->wire[i];
			s->wire[i] = NULL;
			s->on_wire--;
			break;
		}
	}
	if (!q)
		return 0;	/* a late answer to nothing we wait for */
	if (umad_status(umad)) {
		/* no answer (ETIMEDOUT; ibsim says so at once) */
		ibtopo__window_loss(&s->win, q->seq);
		ibtopo__tally_timeout(s->tally, q->lft ? q->lft->node->guid :
					       q->node ? q->node->guid : 0);
		if (q->tries < s->retries) {
			q->tries++;
			s->tally->st.asked_again++;
			q->next = s->head;
			s->head = q;
			if (!s->tail)
				s->tail = q;
			return pump(s);
		}
	} else {
		ibtopo__window_answer(&s->win);
	}
	ok = umad_status(umad) == 0 && field(mad, IB_DRSMP_STATUS_F) == 0;
	rc = pump(s);
	if (!rc)
		rc = got_answer(s, q, mad, ok);
	free(q);
	return rc;
}

int ibtopo__lfts_add(struct ibtopo__lfts *l, struct ibnd_node *node,
		     unsigned top)
{
	struct ibtopo__lft_read *r, *grown;

	if (top > IBTOPO_LFT_MAX_LID)
		top = IBTOPO_LFT_MAX_LID;
	/* grow by doubling: count is a power of 2 or below */
	if (!(l->count & (l->count - 1))) {
		grown = realloc(l->sw, (l->count ? l->count * 2 : 64) *
					       sizeof(*l->sw));
		if (!grown)
			return -1;
		l->sw = grown;
	}
	r = &l->sw[l->count];
	memset(r, 0, sizeof(*r));
	r->node = node;
	r->top = top;
	r->blocks = top / IBTOPO__LFT_BLOCK + 1;
	r->missing = r->blocks;
	r->port = malloc((size_t)r->blocks * IBTOPO__LFT_BLOCK);
	r->have = calloc(r->blocks, 1);
	if (!r->port || !r->have) {
		free(r->port);
		free(r->have);
		return -1;
	}
	l->count++;
	return 0;
}

void ibtopo__lfts_release(struct ibtopo__lfts *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->count; i++) {
		free(l->sw[i].port);
		free(l->sw[i].have);
	}
	free(l->sw);
	memset(l, 0, sizeof(*l));
}

/* A SwitchInfo that answered: LinearFDBCap is never 0 in one. */
static bool has_switch_info(const ibnd_node_t *n)
{
	return field(n->switchinfo, IB_SW_LINEAR_FDB_CAP_F) != 0;
}

double ibtopo__mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * After the walk: the forwarding table of every switch whose SwitchInfo
 * answered, blocks 0..LinearFDBTop/64, through the same window.
 */
static void read_lfts(struct sweep *s, struct ibtopo__lfts *l)
{
	double t0 = ibtopo__mono_now();

	for (ibnd_node_t *n = s->f->nodes; n; n = n->next) {
		if (n->type != IB_NODE_SWITCH || !has_switch_info(n))
			continue;
		if (ibtopo__lfts_add(l, n, field(n->switchinfo,
						 IB_SW_LINEAR_FDB_TOP_F))) {
			s->oom = true;
			return;
		}
	}
	s->lfts = l;
	if (pump(s) == 0)
		while (s->on_wire && receive(s) == 0)
			;
	s->lfts = NULL;
	l->seconds += ibtopo__mono_now() - t0;
}

void ibtopo__sweep_free(struct ibnd_fabric *fabric)
{
	if (!fabric)
		return;
	for (ibnd_node_t *n = fabric->nodes, *next; n; n = next) {
		next = n->next;
		for (int i = 0; n->ports && i <= n->numports; i++)
			free(n->ports[i]);
		free(n->ports);
		free(n);
	}
	free(fabric);
}

static void free_queue(struct sweep *s)
{
	for (struct smp *q = s->head, *next; q; q = next) {
		next = q->next;
		free(q);
	}
	for (unsigned i = 0; s->wire && i < s->max_smps; i++)
		free(s->wire[i]);
}

int ibtopo__sweep(struct ibnd_fabric **out, const char *ca, int portnum,
		  const struct ibnd_config *cfg, struct ibtopo__lfts *lfts,
		  struct ibtopo__mad_tally *tally, struct ibtopo_error *err)
{
	struct sweep s = { 0 };
	ib_portid_t self = { 0 };
	int rc = 0;

	*out = NULL;
	s.cfg = cfg;
	s.max_smps = cfg->max_smps ? cfg->max_smps : SWEEP_MAX_SMPS;
	s.timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : SWEEP_TIMEOUT_MS;
	s.retries = cfg->retries;	/* per query; 0: none */
	s.tally = tally;
	ibtopo__window_init(&s.win, s.max_smps);
	s.f = calloc(1, sizeof(*s.f));
	s.wire = calloc(s.max_smps, sizeof(*s.wire));
	if (!s.f || !s.wire) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	s.fd = umad_open_port(ca, portnum);
	if (s.fd < 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENODEV,
			"cannot open the MAD port: %s", strerror(-s.fd));
		goto out_free;
	}
	s.agent = umad_register(s.fd, IB_SMI_DIRECT_CLASS, 1, 0, NULL);
	if (s.agent < 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENODEV,
			"cannot register a directed-route SMP agent: %s",
			strerror(-s.agent));
		goto out_close_port;
	}

	if (ask(&s, &self, IB_ATTR_NODE_INFO, 0, NULL, 0) == 0)
		while (s.on_wire && receive(&s) == 0)
			;
	if (lfts && !s.oom && !s.failed && s.f->from_node)
		read_lfts(&s, lfts);
	if (s.oom)
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	else if (s.failed)
		rc = ibtopo__error_set(err, IBTOPO_EIO, "MAD %s failed: %s",
				       s.sent ? "receive" : "send",
				       strerror(s.failed));
	else if (!s.f->from_node)
		rc = ibtopo__error_set(err, IBTOPO_EIO,
				       "our own port did not answer NodeInfo");
	s.f->total_mads_used = s.sent;
	ibtopo__tally_window(tally, &s.win);

	umad_unregister(s.fd, s.agent);
out_close_port:
	umad_close_port(s.fd);
out_free:
	free_queue(&s);
	free(s.wire);
	free(s.table);
	if (rc) {
		ibtopo__sweep_free(s.f);
		return rc;
	}
	*out = s.f;
	return 0;
}
