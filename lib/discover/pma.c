/*
 * pma.c - the port counters of a discovered fabric, read live: PerfMgt
 * (class 0x04) Gets, LID-routed to QP1 of each node, up to `window` MADs
 * in flight, through libibumad and libibmad as sweep.c sends its SMPs.
 *
 * ClassPortInfo first, once per device model (node type, and vendor,
 * device and revision from NodeInfo): its
 * CapabilityMask says whether PortCountersExtended is answered (bit 9,
 * IsExtendedWidthSupported, or bit 10, IsExtendedWidthSupportedNoIETF),
 * a property of the device and its firmware, the same for every device
 * of the model. So a fabric of one switch and one HCA model sends two,
 * not one per switch and CA port (2,484 on 1,944 hosts). A device that
 * refuses PortCountersExtended all the same keeps its PortCounters.
 * Then per linked port PortCounters (PortSelect = the port) and, where
 * supported, PortCountersExtended, whose 64-bit data and packet counters
 * replace the 32-bit ones that saturate within seconds on a busy link.
 * A PMA that does not answer ClassPortInfo is asked PortCounters only.
 *
 * Every MAD is a Get: nothing is reset (the counters belong to the
 * site's monitoring) and nothing is written. A MAD that times out is
 * sent again (queued last), up to `retries` times, each time with twice
 * the timeout, and halves the window (AIMD, as sweep.c); one that never
 * answers is lost, counted and the first named; a port whose PortCounters
 * are lost gets counters with nothing valid ("not read", never zeros),
 * for the caller to name. One that comes back with an error status
 * leaves its port without counters; the caller is told how many ports
 * that is.
 *
 * A counters-only sweep (discover_counters.c: `kept`, the fabric read
 * before, is given) asks each switch whose model answers AllPortSelect
 * and PortCountersExtended for its PortCounters summed over all ports
 * (PortSelect 0xFF) first, and keeps the sums on the new fabric. When
 * they equal the sums kept fabric's sweep read, none of them at its
 * largest value, no error counter and no PortXmitWait of the switch
 * moved since (they only grow, or stop at their largest): its ports'
 * PortCounters are those of `kept`, and only PortCountersExtended (the
 * 64-bit data and packet counters) is asked per port. The per-port Gets
 * of a switch go out after its sums answered, so what `kept` holds was
 * read no earlier than the sums it is compared with.
 */
#include "discover/discover-int.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PMA_TIMEOUT_MS		1000
#define PMA_WINDOW		16

#define CPI_ALL_PORT_SELECT	(1u << 8)	/* IsAllPortSelectSupported */
#define CPI_EXT_WIDTH		(1u << 9)	/* IsExtendedWidthSupported */
#define CPI_EXT_WIDTH_NOIETF	(1u << 10)
/* a request's attribute: PortCounters with PortSelect = AllPortSelect */
#define ATTR_SUM		(0x10000u | IB_GSI_PORT_COUNTERS)
#define ALL_PORT_SELECT		0xFFu

/* A LID and the linked ports behind it (targets[first .. first+n-1]). */
struct dest {
	uint16_t lid;
	size_t first, n;
	bool ext;	/* answers PortCountersExtended */
	/* the dests of its device model, a list from the one asked
	 * ClassPortInfo (SIZE_MAX ends it) */
	size_t next_same;
	bool leader;	/* asked ClassPortInfo for its model */
	bool all_ports;	/* answers AllPortSelect */
	bool have_sum;	/* sum[] answered (counters-only sweeps) */
	uint64_t sum[IBTOPO_CTR_COUNT_];
};

struct target {
	struct ibtopo_port *port;
	struct ibtopo_counters c;
	bool answered;
	bool lost;	/* its PortCounters never answered: "not read" */
	/* the kept port's counters, unchanged by its switch's sums: only
	 * the extended ones are asked */
	const struct ibtopo_counters *carry;
};

/* One MAD to send: to dest d, about target t (CPI: none), attribute. */
struct req {
	size_t d, t;
	unsigned attr;
	uint32_t trid;
	unsigned tries;		/* sent again so far */
	unsigned long seq;	/* its number in the window */
};

struct pma {
	int fd, agent;
	unsigned timeout_ms, retries, window;
	struct dest *dests;
	size_t ndests;
	struct target *targets;
	size_t ntargets;
	struct req *reqs;	/* asked for, in order; reqs[next..nreqs) wait */
	size_t nreqs, areqs, next;
	size_t *wire;		/* window slots: index into reqs, or SIZE_MAX */
	unsigned on_wire;
	struct ibtopo__window win;
	struct ibtopo__mad_tally *tally;
	size_t lost;		/* queries that never answered */
	char *lost_what;	/* the first of them, described */
	size_t lost_len;
	int failed;		/* errno of a send or receive */
	const struct ibtopo_fabric *kept;	/* counters-only; else NULL */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint16_t port_lid(const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;

	if (n->type == IBTOPO_NODE_SWITCH)
		return n->ports[0] ? n->ports[0]->lid : p->lid;
	return p->lid;
}

static int cmp_target(const void *a, const void *b)
{
	uint16_t la = port_lid(((const struct target *)a)->port);
	uint16_t lb = port_lid(((const struct target *)b)->port);
	unsigned na = ((const struct target *)a)->port->num;
	unsigned nb = ((const struct target *)b)->port->num;

	if (la != lb)
		return la < lb ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/* Every linked port with a LID, grouped by LID. */
static int plan(struct pma *m, const struct ibtopo_fabric *fabric,
		size_t *no_lid)
{
	size_t nl = ibtopo_fabric_link_count(fabric);

	*no_lid = 0;
	m->targets = calloc(2 * nl + 1, sizeof(*m->targets));
	m->dests = calloc(2 * nl + 1, sizeof(*m->dests));
	if (!m->targets || !m->dests)
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);
		struct ibtopo_port *ends[2] = { l->a, l->b };

		for (int e = 0; e < 2; e++) {
			if (!port_lid(ends[e]) || !ends[e]->num) {
				(*no_lid)++;
				continue;
			}
			m->targets[m->ntargets++].port = ends[e];
		}
	}
	qsort(m->targets, m->ntargets, sizeof(*m->targets), cmp_target);
	for (size_t i = 0; i < m->ntargets; i++) {
		uint16_t lid = port_lid(m->targets[i].port);

		if (!m->ndests || m->dests[m->ndests - 1].lid != lid)
			m->dests[m->ndests++] =
				(struct dest){ .lid = lid, .first = i,
					       .next_same = SIZE_MAX,
					       .leader = true };
		m->dests[m->ndests - 1].n++;
	}
	return 0;
}

static bool same_model(const struct ibtopo_node *a, const struct ibtopo_node *b)
{
	return a->type == b->type && a->vendor_id == b->vendor_id &&
	       a->device_id == b->device_id && a->revision == b->revision;
}

/*
 * One leader per device model (node type, vendor, device, revision),
 * asked ClassPortInfo; the other dests of the model follow it
 * (next_same). Hardware always says its vendor and device; a simulator
 * may say 0 for both, and then all its switches (or CAs) are the one
 * simulated device.
 */
static int group_models(struct pma *m)
{
	size_t *lead = NULL, *tail = NULL, nlead = 0;
	int rc = 0;

	lead = calloc(m->ndests + 1, sizeof(*lead));
	tail = calloc(m->ndests + 1, sizeof(*tail));
	if (!lead || !tail) {
		rc = IBTOPO_ENOMEM;
		goto out;
	}
	for (size_t d = 0; d < m->ndests; d++) {
		const struct ibtopo_node *n =
			m->targets[m->dests[d].first].port->node;
		size_t k = nlead;

		for (k = 0; k < nlead; k++)
			if (same_model(m->targets[m->dests[lead[k]].first]
					       .port->node,
				       n))
				break;
		if (k < nlead) {
			m->dests[d].leader = false;
			m->dests[tail[k]].next_same = d;
			tail[k] = d;
			continue;
		}
		lead[nlead] = tail[nlead] = d;
		nlead++;
	}
out:
	free(lead);
	free(tail);
	return rc;
}

static int ask(struct pma *m, size_t d, size_t t, unsigned attr,
	       unsigned tries)
{
	if (m->nreqs == m->areqs) {
		size_t n = m->areqs ? m->areqs * 2 : 256;
		struct req *r = realloc(m->reqs, n * sizeof(*r));

		if (!r)
			return IBTOPO_ENOMEM;
		m->reqs = r;
		m->areqs = n;
	}
	m->reqs[m->nreqs++] = (struct req){ d, t, attr, 0, tries, 0 };
	return 0;
}

static int send_req(struct pma *m, struct req *q)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	uint8_t data[IB_PC_DATA_SZ];
	ib_portid_t to;
	ib_rpc_t rpc;
	int rc;

	memset(umad, 0, sizeof(umad));
	memset(data, 0, sizeof(data));
	memset(&rpc, 0, sizeof(rpc));
	memset(&to, 0, sizeof(to));
	to.lid = m->dests[q->d].lid;
	to.qp = 1;
	to.qkey = IB_DEFAULT_QP1_QKEY;
	if (q->attr != CLASS_PORT_INFO)
		mad_set_field(data, 0, IB_PC_PORT_SELECT_F,
			      q->attr == ATTR_SUM ? ALL_PORT_SELECT :
			      m->targets[q->t].port->num);
	rpc.mgtclass = IB_PERFORMANCE_CLASS;
	rpc.method = IB_MAD_METHOD_GET;	/* never Set: no reset */
	rpc.attr.id = q->attr & 0xFFFFu;
	rpc.timeout = (int)ibtopo__retry_timeout(m->timeout_ms, q->tries);
	rpc.datasz = IB_PC_DATA_SZ;
	rpc.dataoffs = IB_PC_DATA_OFFS;
	rpc.trid = mad_trid();
	q->trid = (uint32_t)rpc.trid;
	rc = mad_build_pkt(umad, &rpc, &to, NULL, data);
	if (rc < 0)
		return rc;
	/* we retry ourselves, one query at a time: the kernel must not */
	rc = umad_send(m->fd, m->agent, umad, IB_MAD_SIZE, rpc.timeout, 0);
	if (rc < 0)
		return rc;
	m->tally->st.sent++;
	q->seq = ibtopo__window_sent(&m->win);
	return 0;
}

static int pump(struct pma *m)
{
	while (m->next < m->nreqs && m->on_wire < m->win.cur) {
		unsigned slot = 0;
		int rc = send_req(m, &m->reqs[m->next]);

		if (rc < 0) {
			m->failed = -rc;
			return IBTOPO_EIO;
		}
		while (m->wire[slot] != SIZE_MAX)
			slot++;
		m->wire[slot] = m->next++;
		m->on_wire++;
	}
	return 0;
}

/* Every error counter and PortXmitWait: what a switch's sums cover. */
static bool is_data(int c)
{
	return c == IBTOPO_CTR_XMIT_DATA || c == IBTOPO_CTR_RCV_DATA ||
	       c == IBTOPO_CTR_XMIT_PKTS || c == IBTOPO_CTR_RCV_PKTS;
}

/* The counters of port t in `kept`, when every one the sums cover was read. */
static const struct ibtopo_counters *kept_counters(const struct pma *m,
						   size_t t)
{
	const struct ibtopo_port *p = m->targets[t].port;
	const struct ibtopo_node *n = ibtopo_fabric_find_node(m->kept,
							      p->node->guid);
	const struct ibtopo_port *k = n ? ibtopo_node_port(n, p->num) : NULL;
	uint32_t need = 0;

	for (int c = 0; c < IBTOPO_CTR_COUNT_; c++)
		if (!is_data(c))
			need |= 1u << c;
	if (!k || !k->counters || (k->counters->valid & need) != need ||
	    (k->counters->extended & need))
		return NULL;
	return k->counters;
}

/*
 * PortCounters (and the extended ones) for every port behind dest d;
 * with `unchanged` (its switch's sums did not move), the kept
 * PortCounters of each port that has them, and the extended ones only.
 */
static int ask_ports(struct pma *m, size_t d, bool unchanged)
{
	const struct dest *x = &m->dests[d];
	int rc = 0;

	for (size_t t = x->first; t < x->first + x->n && !rc; t++) {
		m->targets[t].carry = unchanged && x->ext ?
				      kept_counters(m, t) : NULL;
		if (!m->targets[t].carry)
			rc = ask(m, d, t, IB_GSI_PORT_COUNTERS, 0);
		if (!rc && x->ext)
			rc = ask(m, d, t, IB_GSI_PORT_COUNTERS_EXT, 0);
	}
	return rc;
}

/* Counters for every port behind dest d: a switch's sums first. */
static int ask_counters(struct pma *m, size_t d)
{
	const struct dest *x = &m->dests[d];

	if (m->kept && x->ext && x->all_ports &&
	    m->targets[x->first].port->node->type == IBTOPO_NODE_SWITCH)
		return ask(m, d, x->first, ATTR_SUM, 0);
	return ask_ports(m, d, false);
}

/* The model of leader d answered (or not): counters for all its dests. */
static int ask_model(struct pma *m, size_t d, bool ext, bool all_ports)
{
	int rc = 0;

	for (size_t e = d; e != SIZE_MAX && !rc; e = m->dests[e].next_same) {
		m->dests[e].ext = ext;
		m->dests[e].all_ports = all_ports;
		rc = ask_counters(m, e);
	}
	return rc;
}

static const enum MAD_FIELDS pc_fields[] = {
		[IBTOPO_CTR_SYMBOL_ERRORS] = IB_PC_ERR_SYM_F,
		[IBTOPO_CTR_LINK_ERROR_RECOVERY] = IB_PC_LINK_RECOVERS_F,
		[IBTOPO_CTR_LINK_DOWNED] = IB_PC_LINK_DOWNED_F,
		[IBTOPO_CTR_RCV_ERRORS] = IB_PC_ERR_RCV_F,
		[IBTOPO_CTR_RCV_REMOTE_PHYS_ERRORS] = IB_PC_ERR_PHYSRCV_F,
		[IBTOPO_CTR_RCV_SWITCH_RELAY_ERRORS] = IB_PC_ERR_SWITCH_REL_F,
		[IBTOPO_CTR_XMIT_DISCARDS] = IB_PC_XMT_DISCARDS_F,
		[IBTOPO_CTR_XMIT_CONSTRAINT_ERRORS] = IB_PC_ERR_XMTCONSTR_F,
		[IBTOPO_CTR_RCV_CONSTRAINT_ERRORS] = IB_PC_ERR_RCVCONSTR_F,
		[IBTOPO_CTR_LOCAL_LINK_INTEGRITY_ERRORS] = IB_PC_ERR_LOCALINTEG_F,
		[IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = IB_PC_ERR_EXCESS_OVR_F,
		[IBTOPO_CTR_VL15_DROPPED] = IB_PC_VL15_DROPPED_F,
		[IBTOPO_CTR_XMIT_WAIT] = IB_PC_XMT_WAIT_F,
		[IBTOPO_CTR_XMIT_DATA] = IB_PC_XMT_BYTES_F,
		[IBTOPO_CTR_RCV_DATA] = IB_PC_RCV_BYTES_F,
		[IBTOPO_CTR_XMIT_PKTS] = IB_PC_XMT_PKTS_F,
		[IBTOPO_CTR_RCV_PKTS] = IB_PC_RCV_PKTS_F,
};

static void got_counters(struct target *t, const uint8_t *data)
{
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		/* extended values, when they came first, stay */
		if (t->c.extended & (1u << i))
			continue;
		t->c.value[i] = mad_get_field((void *)data, 0, pc_fields[i]);
		t->c.valid |= 1u << i;
	}
	t->c.read_at_ms = now_ms();
	t->answered = true;
}

/* A switch's sums as kept fabric's sweep read them, or NULL. */
static const uint64_t *kept_sum(const struct pma *m, size_t d)
{
	const struct ibtopo_node *n = m->targets[m->dests[d].first].port->node;
	const struct ibtopo_node *k = ibtopo_fabric_find_node(m->kept, n->guid);
	const struct ibtopo__pma_sums *s = ibtopo__fabric_aux(m->kept);

	return k && s && k->index < s->n && s->have[k->index] ?
	       s->v[k->index] : NULL;
}

/*
 * Dest d's sums answered (data), or never did (NULL): ask its ports,
 * for their extended counters only where nothing the sums cover moved.
 */
static int got_sum(struct pma *m, size_t d, const uint8_t *data)
{
	struct dest *x = &m->dests[d];
	const uint64_t *was;
	bool same;

	if (!data)
		return ask_ports(m, d, false);
	for (int c = 0; c < IBTOPO_CTR_COUNT_; c++)
		x->sum[c] = mad_get_field((void *)data, 0, pc_fields[c]);
	x->have_sum = true;
	was = kept_sum(m, d);
	same = was != NULL;
	for (int c = 0; c < IBTOPO_CTR_COUNT_ && same; c++)
		same = is_data(c) ||
		       (was[c] == x->sum[c] &&
			!ibtopo_counter_is_saturated((enum ibtopo_counter)c,
						     false, x->sum[c]));
	return ask_ports(m, d, same);
}

static void got_counters_ext(struct target *t, const uint8_t *data)
{
	static const struct {
		enum ibtopo_counter c;
		enum MAD_FIELDS f;
	} fields[] = {
		{ IBTOPO_CTR_XMIT_DATA, IB_PC_EXT_XMT_BYTES_F },
		{ IBTOPO_CTR_RCV_DATA, IB_PC_EXT_RCV_BYTES_F },
		{ IBTOPO_CTR_XMIT_PKTS, IB_PC_EXT_XMT_PKTS_F },
		{ IBTOPO_CTR_RCV_PKTS, IB_PC_EXT_RCV_PKTS_F },
	};

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(fields); i++) {
		t->c.value[fields[i].c] =
			mad_get_field64((void *)data, 0, fields[i].f);
		t->c.valid |= 1u << fields[i].c;
		t->c.extended |= 1u << fields[i].c;
	}
	if (!t->carry)
		return;
	/* the rest as kept: nothing its switch's sums cover moved */
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (t->c.extended & (1u << i))
			continue;
		t->c.value[i] = t->carry->value[i];
		t->c.valid |= t->carry->valid & (1u << i);
	}
	t->c.read_at_ms = now_ms();
	t->answered = true;
}

static const char *attr_name(unsigned attr)
{
	switch (attr) {
	case CLASS_PORT_INFO:
		return "ClassPortInfo";
	case IB_GSI_PORT_COUNTERS:
		return "PortCounters";
	case ATTR_SUM:
		return "PortCounters (AllPortSelect)";
	default:
		return "PortCountersExtended";
	}
}

/*
 * Request q got no answer: queue it again, or (its retries spent) count
 * it lost. A ClassPortInfo lost still asks for the counters of its LID
 * (without the extended ones): the port is incomplete already, and
 * named; the other LIDs of its model ask again through the next one.
 */
static int timed_out(struct pma *m, const struct req *q)
{
	const struct ibtopo_port *p = m->targets[q->t].port;

	ibtopo__window_loss(&m->win, q->seq);
	ibtopo__tally_timeout(m->tally, p->node->guid);
	if (q->tries < m->retries) {
		m->tally->st.asked_again++;
		if (ask(m, q->d, q->t, q->attr, q->tries + 1))
			return IBTOPO_ENOMEM;
		return pump(m);
	}
	if (!m->lost++)
		snprintf(m->lost_what, m->lost_len, "port %u of '%s' 0x%016"
			 PRIx64 " at LID %u did not answer %s", p->num,
			 p->node->desc, p->node->guid, m->dests[q->d].lid,
			 attr_name(q->attr));
	/* a port read through its extended counters alone is "not read"
	 * when they are lost, as one whose PortCounters are */
	if (q->attr == IB_GSI_PORT_COUNTERS ||
	    (q->attr == IB_GSI_PORT_COUNTERS_EXT && m->targets[q->t].carry))
		m->targets[q->t].lost = true;
	if (q->attr == ATTR_SUM) {
		int rc = got_sum(m, q->d, NULL);

		if (rc)
			return rc;
	}
	if (q->attr == CLASS_PORT_INFO) {
		/* its own ports without the extended counters, as before;
		 * the rest of its model asks through the next of them */
		size_t e = m->dests[q->d].next_same;
		int rc;

		m->dests[q->d].next_same = SIZE_MAX;
		rc = ask_model(m, q->d, false, false);
		if (!rc && e != SIZE_MAX) {
			m->dests[e].leader = true;
			rc = ask(m, e, m->dests[e].first, CLASS_PORT_INFO, 0);
		}
		if (rc)
			return rc;
	}
	return pump(m);
}

static int receive(struct pma *m)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	int len = IB_MAD_SIZE, rc;
	size_t qi = SIZE_MAX;
	const uint8_t *data;
	struct req q;
	uint8_t *mad;
	uint32_t trid;
	bool ok;

	memset(umad, 0, sizeof(umad));
	rc = umad_recv(m->fd, umad, &len, -1);
	if (rc < 0) {
		m->failed = -rc;
		return IBTOPO_EIO;
	}
	mad = umad_get_mad(umad);
	trid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	for (unsigned i = 0; i < m->window; i++) {
		if (m->wire[i] != SIZE_MAX && m->reqs[m->wire[i]].trid == trid) {
			qi = m->wire[i];
			m->wire[i] = SIZE_MAX;
			m->on_wire--;
			break;
		}
	}
	if (qi == SIZE_MAX)
		return 0;	/* a late answer to nothing we wait for */
	q = m->reqs[qi];	/* ask() may move the array */
	if (umad_status(umad))
		return timed_out(m, &q);
	ibtopo__window_answer(&m->win);
	ok = mad_get_field(mad, 0, IB_MAD_STATUS_F) == 0;
	data = mad + IB_PC_DATA_OFFS;
	switch (q.attr) {
	case CLASS_PORT_INFO: {
		unsigned cap = ok ? mad_get_field((void *)data, 0,
						  IB_CPI_CAPMASK_F) : 0;

		rc = ask_model(m, q.d,
			       cap & (CPI_EXT_WIDTH | CPI_EXT_WIDTH_NOIETF),
			       cap & CPI_ALL_PORT_SELECT);
		if (rc)
			return rc;
		break;
	}
	case ATTR_SUM:
		rc = got_sum(m, q.d, ok ? data : NULL);
		if (rc)
			return rc;
		break;
	case IB_GSI_PORT_COUNTERS:
		if (ok)
			got_counters(&m->targets[q.t], data);
		break;
	case IB_GSI_PORT_COUNTERS_EXT:
		if (ok)
			got_counters_ext(&m->targets[q.t], data);
		break;
	}
	return pump(m);
}

static void sums_free(void *arg)
{
	struct ibtopo__pma_sums *s = arg;

	if (s) {
		free(s->have);
		free(s->v);
		free(s);
	}
}

/* The sums each switch answered, kept on `fabric` for the next sweep. */
static int keep_sums(const struct pma *m, struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_node_count(fabric);
	struct ibtopo__pma_sums *s;

	s = calloc(1, sizeof(*s));
	if (s) {
		s->n = n;
		s->have = calloc(n + 1, sizeof(*s->have));
		s->v = calloc(n + 1, sizeof(*s->v));
	}
	if (!s || !s->have || !s->v) {
		sums_free(s);
		return IBTOPO_ENOMEM;
	}
	for (size_t d = 0; d < m->ndests; d++) {
		const struct dest *x = &m->dests[d];
		size_t i = m->targets[x->first].port->node->index;

		if (x->have_sum && i < n) {
			s->have[i] = true;
			memcpy(s->v[i], x->sum, sizeof(s->v[i]));
		}
	}
	ibtopo__fabric_set_aux(fabric, s, sums_free);
	return 0;
}

int ibtopo__pma_read(struct ibtopo_fabric *fabric,
		     const struct ibtopo_fabric *kept, const char *ca,
		     int portnum, unsigned timeout_ms, unsigned retries,
		     struct ibtopo__mad_tally *tally, size_t *out_missed,
		     size_t *out_lost, char *lost, size_t lost_len,
		     struct ibtopo_error *err)
{
	struct pma m = { 0 };
	size_t no_lid = 0, missed = 0;
	int rc;

	*out_missed = 0;
	*out_lost = 0;
	m.timeout_ms = timeout_ms ? timeout_ms : PMA_TIMEOUT_MS;
	m.retries = retries;
	m.window = PMA_WINDOW;
	m.tally = tally;
	m.kept = kept;
	m.lost_what = lost;
	m.lost_len = lost_len;
	ibtopo__window_init(&m.win, m.window);
	m.wire = malloc(m.window * sizeof(*m.wire));
	if (!m.wire || plan(&m, fabric, &no_lid)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (unsigned i = 0; i < m.window; i++)
		m.wire[i] = SIZE_MAX;
	m.fd = umad_open_port(ca, portnum);
	if (m.fd < 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENODEV,
			"cannot open the MAD port: %s", strerror(-m.fd));
		goto out_free;
	}
	m.agent = umad_register(m.fd, IB_PERFORMANCE_CLASS, 1, 0, NULL);
	if (m.agent < 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENODEV,
			"cannot register a performance management agent: %s",
			strerror(-m.agent));
		goto out_close_port;
	}
	rc = group_models(&m);
	for (size_t d = 0; d < m.ndests && !rc; d++)
		/* about its first port: a loss names that one */
		if (m.dests[d].leader)
			rc = ask(&m, d, m.dests[d].first, CLASS_PORT_INFO, 0);
	if (!rc)
		rc = pump(&m);
	while (!rc && m.on_wire)
		rc = receive(&m);
	if (rc == IBTOPO_ENOMEM) {
		rc = ibtopo__error_set(err, rc, "out of memory");
		goto out_unregister;
	}
	if (rc) {
		rc = ibtopo__error_set(err, IBTOPO_EIO, "PMA MAD failed: %s",
				       strerror(m.failed));
		goto out_unregister;
	}
	ibtopo__tally_window(tally, &m.win);
	for (size_t i = 0; i < m.ntargets && !rc; i++) {
		struct target *t = &m.targets[i];

		if (!t->answered && !t->lost) {
			missed++;
			continue;
		}
		/* a lost one is kept as asked and not read: valid 0, never 0s */
		if (!t->answered)
			memset(&t->c, 0, sizeof(t->c));
		rc = ibtopo_port_set_counters(t->port, &t->c, err);
	}
	if (!rc && kept && keep_sums(&m, fabric))
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	/* the ports whose PortCounters were lost are "not read", not missed */
	*out_missed = missed + no_lid;
	*out_lost = m.lost;

out_unregister:
	umad_unregister(m.fd, m.agent);
out_close_port:
	umad_close_port(m.fd);
out_free:
	free(m.wire);
	free(m.reqs);
	free(m.targets);
	free(m.dests);
	return rc;
}
