/*
 * sweep_pkey.c - the partition keys of a live sweep: PKeyTable (SMP
 * attribute 0x16) Gets along directed routes, 32 entries a block, up to
 * PKEY_WINDOW in flight (gets.c).
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
 * Every SMP is a Get; one that times out is sent again (gets.c). A port
 * with a block that never answers, or answers with an error status,
 * keeps no table (not read), rather than a short one.
 */
#include "discover/discover-int.h"

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

struct reader {
	struct target *targets;
	size_t ntargets, atargets;
	struct ibtopo__get *gets; /* one per block of every target */
	size_t ngets, agets;
};

static int ask(struct reader *r, size_t t, unsigned block)
{
	const struct target *tg = &r->targets[t];
	struct ibtopo__get *g;

	if (ibtopo__grow(&r->gets, &r->agets, r->ngets + 1, sizeof(*r->gets)))
		return IBTOPO_ENOMEM;
	g = &r->gets[r->ngets++];
	memset(g, 0, sizeof(*g));
	g->to = tg->path;
	g->attr = IB_ATTR_PKEY_TBL;
	/* a switch's port in the upper half; a CA ignores it */
	g->mod = (tg->node->type == IB_NODE_SWITCH ? (unsigned)tg->port << 16 :
						     0) |
		 block;
	g->guid = tg->node->guid;
	g->tag = t;
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
		if (ask(r, r->ntargets - 1, b))
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

/* A block answered (or not: mad NULL, the port keeps no table). */
static int got_block(void *arg, const struct ibtopo__get *g, const uint8_t *mad,
		     size_t len)
{
	struct target *t = &((struct reader *)arg)->targets[g->tag];
	uint16_t *k = t->keys + (size_t)(g->mod & 0xffff) * PKEY_BLOCK;
	const uint8_t *data;

	if (!mad || len < IB_SMP_DATA_OFFS + 2 * PKEY_BLOCK)
		return 0;
	data = mad + IB_SMP_DATA_OFFS;
	for (unsigned i = 0; i < PKEY_BLOCK; i++)
		k[i] = (uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
	t->missing--;
	return 0;
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

int ibtopo__sweep_pkeys(struct ibtopo_fabric *fabric, const ibnd_fabric_t *in,
			const char *ca, int portnum, unsigned timeout_ms,
			unsigned retries, struct ibtopo__mad_tally *tally,
			struct ibtopo_error *err)
{
	struct reader r = { 0 };
	struct ibtopo__gets how;
	int rc = 0;

	ibtopo__gets_init(&how, ca, portnum, PKEY_WINDOW, tally);
	how.timeout_ms = timeout_ms ? timeout_ms : PKEY_TIMEOUT_MS;
	how.retries = retries;
	how.what = "PKeyTable";
	how.got = got_block;
	how.arg = &r;
	for (const ibnd_node_t *n = in->nodes; n && !rc; n = n->next)
		if (n->ports)
			rc = plan_node(&r, in, n);
	if (rc)
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (!rc)
		rc = ibtopo__gets_run(&how, r.gets, r.ngets, err);
	if (!rc)
		rc = attach(fabric, &r, err);
	for (size_t i = 0; i < r.ntargets; i++)
		free(r.targets[i].keys);
	free(r.targets);
	free(r.gets);
	return rc;
}
