/*
 * sweep_pkey.c - the partition keys of a live sweep: PKeyTable (SMP
 * attribute 0x16) Gets along directed routes, 32 entries a block, up to
 * PKEY_WINDOW in flight, as pma.c reads the port counters.
 *
 * Whose tables, as ibdiagnet reads them (ibutils' CheckPartitions):
 * - every CA (and router) port that is up: NodeInfo PartitionCap
 *   entries. A CA answers for the port an SMP comes in through, so the
 *   route ends through the port's peer (our own port: the empty route);
 * - every switch port whose PortInfo says it enforces partitions
 *   (PartitionEnforcementInbound or Outbound) on a switch whose
 *   SwitchInfo PartitionEnforcementCap is not 0: that many entries,
 *   the port in the attribute modifier's upper half.
 * Switch ports that enforce nothing pass every PKey: their tables
 * decide nothing and are not read.
 *
 * Every SMP is a Get. One that times out is sent again (queued last)
 * up to `retries` times, each with twice the timeout, and halves the
 * window (AIMD, struct ibtopo__window). A port with a block that never
 * answers, or answers with an error status, keeps no table (not read),
 * rather than a short one.
 */
#include "discover/discover-int.h"

#include <infiniband/umad.h>

#include <stdlib.h>
#include <string.h>

#define PKEY_WINDOW 16
#define PKEY_TIMEOUT_MS 1000
#define PKEY_BLOCK 32 /* entries per PKeyTable block */
#define PKEY_MAX 2048 /* 64 blocks: more is no table a device has */

/* One port whose table is read. */
struct target {
	const ibnd_node_t *node;
	int port;
	ib_portid_t path;
	unsigned blocks, missing;
	unsigned enforce; /* enum ibtopo_pkey_enforce */
	uint16_t *keys;	  /* blocks * PKEY_BLOCK entries */
};

struct req {
	size_t t;
	unsigned block;
	uint32_t trid;
	unsigned tries;
	unsigned long seq;
};

struct reader {
	int fd, agent;
	unsigned timeout_ms, retries;
	struct target *targets;
	size_t ntargets, atargets;
	struct req *reqs; /* reqs[next..nreqs) wait */
	size_t nreqs, areqs, next;
	size_t wire[PKEY_WINDOW]; /* index into reqs, or SIZE_MAX */
	unsigned on_wire;
	struct ibtopo__window win;
	struct ibtopo__mad_tally *tally;
	int failed; /* errno of a send or receive */
};

static int ask(struct reader *r, size_t t, unsigned block, unsigned tries)
{
	if (ibtopo__grow(&r->reqs, &r->areqs, r->nreqs + 1, sizeof(*r->reqs)))
		return IBTOPO_ENOMEM;
	r->reqs[r->nreqs++] = (struct req){ t, block, 0, tries, 0 };
	return 0;
}

static int add_target(struct reader *r, const ibnd_node_t *n, int port,
		      const ib_portid_t *path, unsigned entries,
		      unsigned enforce)
{
	struct target *t;

	if (!entries)
		return 0;
	if (entries > PKEY_MAX)
		entries = PKEY_MAX;
	if (ibtopo__grow(&r->targets, &r->atargets, r->ntargets + 1,
			 sizeof(*r->targets)))
		return IBTOPO_ENOMEM;
	t = &r->targets[r->ntargets];
	memset(t, 0, sizeof(*t));
	t->node = n;
	t->port = port;
	t->path = *path;
	t->path.sl = 0;
	t->path.qp = 0;
	t->blocks = (entries + PKEY_BLOCK - 1) / PKEY_BLOCK;
	t->missing = t->blocks;
	t->enforce = enforce;
	t->keys = calloc((size_t)t->blocks * PKEY_BLOCK, sizeof(*t->keys));
	if (!t->keys)
		return IBTOPO_ENOMEM;
	r->ntargets++;
	for (unsigned b = 0; b < t->blocks; b++)
		if (ask(r, r->ntargets - 1, b, 0))
			return IBTOPO_ENOMEM;
	return 0;
}

/* A CA port's route: through its peer, so the SMP comes in on it. */
static bool ca_path(ib_portid_t *out, const ibnd_fabric_t *in,
		    const ibnd_node_t *n, const ibnd_port_t *p)
{
	const ibnd_port_t *peer = p->remoteport;

	memset(out, 0, sizeof(*out));
	if (n == in->from_node && p->portnum == in->from_portnum)
		return true;
	if (!peer || !peer->node ||
	    peer->node->path_portid.drpath.cnt + 1 >= IB_SUBNET_PATH_HOPS_MAX)
		return false;
	*out = peer->node->path_portid;
	out->drpath.cnt++;
	out->drpath.p[out->drpath.cnt] = (uint8_t)peer->portnum;
	return true;
}

/* A PortInfo that answered, on a port that is up. */
static bool port_up(const ibnd_port_t *p)
{
	unsigned state = ibtopo__smp_field(p->info, IB_PORT_STATE_F);

	return state > 1 && state <= 4;
}

static int plan_node(struct reader *r, const ibnd_fabric_t *in,
		     const ibnd_node_t *n)
{
	unsigned cap =
		n->type == IB_NODE_SWITCH ?
			ibtopo__smp_field(n->switchinfo,
					  IB_SW_PARTITION_ENFORCE_CAP_F) :
			ibtopo__smp_field(n->info, IB_NODE_PARTITION_CAP_F);
	int rc = 0;

	for (int i = 1; i <= n->numports && !rc; i++) {
		const ibnd_port_t *p = n->ports[i];
		ib_portid_t path;
		unsigned enforce = 0;

		if (!p || !port_up(p))
			continue;
		if (n->type == IB_NODE_SWITCH) {
			if (ibtopo__smp_field(p->info, IB_PORT_PART_EN_INB_F))
				enforce |= IBTOPO_PKEY_ENFORCE_IN;
			if (ibtopo__smp_field(p->info, IB_PORT_PART_EN_OUTB_F))
				enforce |= IBTOPO_PKEY_ENFORCE_OUT;
			if (!enforce)
				continue;
			path = n->path_portid;
		} else if (!ca_path(&path, in, n, p)) {
			continue;
		}
		rc = add_target(r, n, i, &path, cap, enforce);
	}
	return rc;
}

static int send_req(struct reader *r, struct req *q)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	const struct target *t = &r->targets[q->t];
	ib_portid_t path = t->path;
	ib_rpc_t rpc;
	int rc;

	memset(umad, 0, sizeof(umad));
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_SMI_DIRECT_CLASS;
	rpc.method = IB_MAD_METHOD_GET; /* never Set */
	rpc.attr.id = IB_ATTR_PKEY_TBL;
	/* a switch's port in the upper half; a CA ignores it */
	rpc.attr.mod =
		(t->node->type == IB_NODE_SWITCH ? (unsigned)t->port << 16 :
						   0) |
		q->block;
	rpc.timeout = (int)ibtopo__retry_timeout(r->timeout_ms, q->tries);
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	rpc.trid = mad_trid();
	q->trid = (uint32_t)rpc.trid;
	rc = mad_build_pkt(umad, &rpc, &path, NULL, NULL);
	if (rc < 0)
		return rc;
	rc = umad_send(r->fd, r->agent, umad, IB_MAD_SIZE, rpc.timeout, 0);
	if (rc < 0)
		return rc;
	r->tally->st.sent++;
	q->seq = ibtopo__window_sent(&r->win);
	return 0;
}

static int pump(struct reader *r)
{
	while (r->next < r->nreqs && r->on_wire < r->win.cur) {
		unsigned slot = 0;
		int rc = send_req(r, &r->reqs[r->next]);

		if (rc < 0) {
			r->failed = -rc;
			return IBTOPO_EIO;
		}
		while (r->wire[slot] != SIZE_MAX)
			slot++;
		r->wire[slot] = r->next++;
		r->on_wire++;
	}
	return 0;
}

static void got_block(struct target *t, unsigned block, const uint8_t *data)
{
	uint16_t *k = t->keys + (size_t)block * PKEY_BLOCK;

	for (unsigned i = 0; i < PKEY_BLOCK; i++)
		k[i] = (uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
	t->missing--;
}

static int receive(struct reader *r)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	int len = IB_MAD_SIZE, rc;
	size_t qi = SIZE_MAX;
	struct req q;
	uint8_t *mad;
	uint32_t trid;

	memset(umad, 0, sizeof(umad));
	rc = umad_recv(r->fd, umad, &len, -1);
	if (rc < 0) {
		r->failed = -rc;
		return IBTOPO_EIO;
	}
	mad = umad_get_mad(umad);
	trid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	for (unsigned i = 0; i < PKEY_WINDOW; i++) {
		if (r->wire[i] != SIZE_MAX &&
		    r->reqs[r->wire[i]].trid == trid) {
			qi = r->wire[i];
			r->wire[i] = SIZE_MAX;
			r->on_wire--;
			break;
		}
	}
	if (qi == SIZE_MAX)
		return 0; /* a late answer to nothing we wait for */
	q = r->reqs[qi];  /* ask() may move the array */
	if (umad_status(umad)) {
		ibtopo__window_loss(&r->win, q.seq);
		ibtopo__tally_timeout(r->tally, r->targets[q.t].node->guid);
		if (q.tries < r->retries) {
			r->tally->st.asked_again++;
			if (ask(r, q.t, q.block, q.tries + 1))
				return IBTOPO_ENOMEM;
		} else {
			r->tally->st.lost++; /* its port keeps no table */
		}
		return pump(r);
	}
	ibtopo__window_answer(&r->win);
	if (mad_get_field(mad, 0, IB_DRSMP_STATUS_F) == 0)
		got_block(&r->targets[q.t], q.block, mad + IB_SMP_DATA_OFFS);
	return pump(r);
}

/* Every table read whole, onto its port in `fabric`. */
static int attach(struct ibtopo_fabric *fabric, const struct reader *r,
		  struct ibtopo_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < r->ntargets && !rc; i++) {
		const struct target *t = &r->targets[i];
		struct ibtopo_node *n =
			ibtopo_fabric_find_node(fabric, t->node->guid);
		struct ibtopo_port *p =
			n ? ibtopo_node_port(n, (unsigned)t->port) : NULL;

		if (p && !t->missing)
			rc = ibtopo_port_set_pkeys(
				p, t->keys, (size_t)t->blocks * PKEY_BLOCK,
				t->enforce, err);
	}
	return rc;
}

static int run(struct reader *r, const char *ca, int portnum,
	       struct ibtopo_error *err)
{
	int rc;

	r->fd = umad_open_port(ca, portnum);
	if (r->fd < 0)
		return ibtopo__error_set(err, IBTOPO_ENODEV,
					 "cannot open the MAD port: %s",
					 strerror(-r->fd));
	r->agent = umad_register(r->fd, IB_SMI_DIRECT_CLASS, 1, 0, NULL);
	if (r->agent < 0) {
		rc = ibtopo__error_set(
			err, IBTOPO_ENODEV,
			"cannot register a directed-route SMP agent: %s",
			strerror(-r->agent));
		goto out_close_port;
	}
	rc = pump(r);
	while (!rc && r->on_wire)
		rc = receive(r);
	if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	else if (rc)
		rc = ibtopo__error_set(err, IBTOPO_EIO,
				       "PKeyTable MAD failed: %s",
				       strerror(r->failed));
	ibtopo__tally_window(r->tally, &r->win);
	umad_unregister(r->fd, r->agent);
out_close_port:
	umad_close_port(r->fd);
	return rc;
}

int ibtopo__sweep_pkeys(struct ibtopo_fabric *fabric, const ibnd_fabric_t *in,
			const char *ca, int portnum, unsigned timeout_ms,
			unsigned retries, struct ibtopo__mad_tally *tally,
			struct ibtopo_error *err)
{
	struct reader r = { 0 };
	int rc = 0;

	r.timeout_ms = timeout_ms ? timeout_ms : PKEY_TIMEOUT_MS;
	r.retries = retries;
	r.tally = tally;
	ibtopo__window_init(&r.win, PKEY_WINDOW);
	for (unsigned i = 0; i < PKEY_WINDOW; i++)
		r.wire[i] = SIZE_MAX;
	for (const ibnd_node_t *n = in->nodes; n && !rc; n = n->next)
		if (n->ports)
			rc = plan_node(&r, in, n);
	if (rc)
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (!rc && r.nreqs)
		rc = run(&r, ca, portnum, err);
	if (!rc)
		rc = attach(fabric, &r, err);
	for (size_t i = 0; i < r.ntargets; i++)
		free(r.targets[i].keys);
	free(r.targets);
	free(r.reqs);
	return rc;
}
