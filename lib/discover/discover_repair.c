/*
 * discover_repair.c - what a sweep missed (the rules are at the top of
 * discover.c). After a live sweep, ask again what did not answer: one
 * MAD at a time along the node's directed route, on a MAD port of our
 * own, Gets only; a port that was LinkUp and is down now means the
 * fabric changed under the sweep, and discover.c sweeps again. Then
 * count what is still missing, live or from a cache file.
 */
#include "discover/discover-int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void unanswered_add(struct ibtopo__unanswered *u, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

/* A directed route as ibnetdiscover prints it ("0,1,7"), then `port`. */
static void dr_path(char *buf, size_t len, const ib_portid_t *path, int port)
{
	size_t at;
	int cnt = path->drpath.cnt;

	at = (size_t)snprintf(buf, len, "0");
	for (int i = 1; i <= cnt && i < IB_SUBNET_PATH_HOPS_MAX && at < len;
	     i++)
		at += (size_t)snprintf(buf + at, len - at, ",%d",
				       path->drpath.p[i]);
	if (port >= 0 && at < len)
		snprintf(buf + at, len - at, ",%d", port);
}

/* A port shell libibnetdisc made from NodeInfo whose PortInfo never came. */
static bool no_port_info(const ibnd_port_t *p)
{
	return ibtopo__smp_field(p->info, IB_PORT_STATE_F) == 0 &&
	       ibtopo__smp_field(p->info, IB_PORT_PHYS_STATE_F) == 0;
}

static void unanswered_add(struct ibtopo__unanswered *u, const char *fmt, ...)
{
	va_list ap;

	if (u->count++)
		return;
	va_start(ap, fmt);
	vsnprintf(u->what, sizeof(u->what), fmt, ap);
	va_end(ap);
}

static bool all_zero(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * Asking again stops after this many unanswered queries in a row: each
 * costs the timeout times the retries, and a switch whose management
 * agent hangs with its links up would make repair() wait for every one
 * of its peers' ports. What is left is reported as unanswered.
 */
#define REQUERY_MAX_MISSES 16

/* A MAD port of our own for repair(), opened on first use. */
struct requery {
	struct ibmad_port *mp;
	char *ca;
	int portnum;
	unsigned timeout_ms;
	unsigned misses; /* unanswered in a row */
	bool failed;	 /* the port could not be opened */
	struct ibtopo__mad_tally *tally;
	/* the fabric changed under the sweep: what, or "" */
	char changed[160];
};

/* Get `attr` (modifier `mod`) along `path` into buf; false if no answer. */
static bool requery(struct requery *q, ib_portid_t *path, unsigned attr,
		    unsigned mod, uint8_t buf[IB_SMP_DATA_SIZE])
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };

	if (!q->mp && !q->failed) {
		q->mp = mad_rpc_open_port(q->ca, q->portnum, classes, 2);
		q->failed = !q->mp;
		if (q->mp) {
			if (q->timeout_ms)
				mad_rpc_set_timeout(q->mp, (int)q->timeout_ms);
			/* the sweep spent the retries: one last try each */
			mad_rpc_set_retries(q->mp, 1);
		}
	}
	if (!q->mp || q->misses >= REQUERY_MAX_MISSES)
		return false;
	memset(buf, 0, IB_SMP_DATA_SIZE);
	q->tally->st.sent++;
	q->tally->st.asked_again++;
	if (!smp_query_via(buf, path, attr, mod, 0, q->mp)) {
		q->misses++;
		return false;
	}
	q->misses = 0;
	return true;
}

/* Store a PortInfo answer as port `i` of `nd`, creating the port. */
static ibnd_port_t *set_port_info(ibnd_node_t *nd, int i,
				  const uint8_t info[IB_SMP_DATA_SIZE])
{
	ibnd_port_t *p = nd->ports[i];

	if (!p) {
		/* freed by ibnd_destroy_fabric() with the node's other ports */
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->node = nd;
		p->portnum = i;
		p->guid = mad_get_field64(nd->info, 0, IB_NODE_PORT_GUID_F);
		nd->ports[i] = p;
	}
	memcpy(p->info, info, sizeof(p->info));
	if (nd->type == IB_NODE_SWITCH && i > 0 && nd->ports[0]) {
		p->base_lid = nd->ports[0]->base_lid;
		p->lmc = nd->ports[0]->lmc;
	} else {
		p->base_lid =
			(uint16_t)ibtopo__smp_field(p->info, IB_PORT_LID_F);
		p->lmc = (uint8_t)ibtopo__smp_field(p->info, IB_PORT_LMC_F);
	}
	return p;
}

static ibnd_node_t *find_node(ibnd_fabric_t *in, uint64_t guid)
{
	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next)
		if (nd->guid == guid)
			return nd;
	return NULL;
}

/*
 * The peer of LinkUp port `p` did not answer: is the port still up? If
 * it went down since the sweep read it, the fabric changed under the
 * sweep (the port's new PortInfo is kept, and discover sweeps again).
 */
static void port_went_down(struct requery *q, ibnd_node_t *nd, ibnd_port_t *p)
{
	uint8_t buf[IB_SMP_DATA_SIZE];

	if (!requery(q, &nd->path_portid, IB_ATTR_PORT_INFO,
		     (unsigned)p->portnum, buf) ||
	    ibtopo__smp_field(buf, IB_PORT_PHYS_STATE_F) == IBTOPO__PHYS_LINKUP)
		return;
	if (!q->changed[0])
		snprintf(q->changed, sizeof(q->changed),
			 "port %d of '%.*s' went down", p->portnum,
			 (int)strnlen(nd->nodedesc, IB_SMP_DATA_SIZE),
			 nd->nodedesc);
	set_port_info(nd, p->portnum, buf);
}

/*
 * A LinkUp port without a peer: ask NodeInfo one hop further. When the
 * node there is one the sweep found (through another route), link the
 * two ports (asking for the peer port's PortInfo if the sweep lost it);
 * when that port of it has another peer, the GUID is two nodes'.
 * A node the sweep never found stays unexplored: libibnetdisc would have
 * to walk on from it.
 */
static void repair_peer(struct requery *q, ibnd_fabric_t *in, ibnd_node_t *nd,
			ibnd_port_t *p)
{
	uint8_t buf[IB_SMP_DATA_SIZE];
	ib_portid_t path = nd->path_portid;
	ibnd_node_t *peer;
	ibnd_port_t *rp;
	int lp;

	if (path.lid || path.drpath.cnt + 1 >= IB_SUBNET_PATH_HOPS_MAX)
		return;
	path.drpath.cnt++;
	path.drpath.p[path.drpath.cnt] = (uint8_t)p->portnum;
	if (!requery(q, &path, IB_ATTR_NODE_INFO, 0, buf)) {
		port_went_down(q, nd, p);
		return;
	}
	peer = find_node(in, mad_get_field64(buf, 0, IB_NODE_GUID_F));
	lp = (int)mad_get_field(buf, 0, IB_NODE_LOCAL_PORT_F);
	if (!peer || lp < 1 || lp > peer->numports || !peer->ports)
		return;
	rp = peer->ports[lp];
	if (rp && rp->remoteport && rp->remoteport != p) {
		/*
		 * A node the sweep found, through a port cabled elsewhere:
		 * one cable cannot end in two places, so two nodes answer
		 * with that GUID (the sweep kept the last one it reached, as
		 * libibnetdisc does). Point this port at it one way only:
		 * copy_links() records the clash, and the port does not
		 * count as unanswered.
		 */
		p->remoteport = rp;
		return;
	}
	if (!rp || no_port_info(rp)) {
		/* a CA answers PortInfo for the port the SMP came in on */
		if (!requery(q, &path, IB_ATTR_PORT_INFO, (unsigned)lp, buf))
			return;
		rp = set_port_info(peer, lp, buf);
		if (!rp)
			return;
	}
	p->remoteport = rp;
	rp->remoteport = p;
}

/*
 * Ask again for what the sweep lost, through a MAD port of our own
 * (libibmad retries a lost MAD; libibnetdisc's engine, under a simulator,
 * does not): the NodeDescription of nodes that have none, the PortInfo
 * of port shells and of missing switch ports, and the peer of LinkUp
 * ports that have none (repair_peer()). Nodes still silent about their
 * description are counted in `u` (rule d); the rest that is still
 * missing is counted by count_unanswered() (rules a-c).
 */
/*
 * The forwarding tables the sweep could not read: SwitchInfo of switches
 * that have none (then all their blocks), and each block missing, asked
 * again; what stays missing is counted in `u`, naming the switch.
 */
static void repair_lfts(struct requery *q, ibnd_fabric_t *in,
			struct ibtopo__lfts *l, struct ibtopo__unanswered *u)
{
	uint8_t buf[IB_SMP_DATA_SIZE];
	char path[128];
	size_t known = l->count, next = 0;

	/* the sweep listed switches in this same order */
	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		if (nd->type != IB_NODE_SWITCH)
			continue;
		if (next < known && l->sw[next].node == nd) {
			next++;
			continue;
		}
		if (!requery(q, &nd->path_portid, IB_ATTR_SWITCH_INFO, 0,
			     buf) ||
		    !ibtopo__smp_field(buf, IB_SW_LINEAR_FDB_CAP_F)) {
			dr_path(path, sizeof(path), &nd->path_portid, -1);
			unanswered_add(u,
				       "switch '%.*s' 0x%016" PRIx64 " at DR "
				       "path %s did not answer SwitchInfo",
				       (int)strnlen(nd->nodedesc,
						    IB_SMP_DATA_SIZE),
				       nd->nodedesc, nd->guid, path);
			continue;
		}
		memcpy(nd->switchinfo, buf, sizeof(nd->switchinfo));
		if (ibtopo__lfts_add(
			    l, nd,
			    ibtopo__smp_field(buf, IB_SW_LINEAR_FDB_TOP_F))) {
			unanswered_add(u,
				       "out of memory for forwarding tables");
			return;
		}
	}
	for (size_t i = 0; i < l->count; i++) {
		struct ibtopo__lft_read *r = &l->sw[i];
		ibnd_node_t *nd = r->node;
		unsigned first = 0;

		for (unsigned b = 0; b < r->blocks && r->missing; b++) {
			if (r->have[b])
				continue;
			if (!requery(q, &nd->path_portid, IB_ATTR_LINEARFORWTBL,
				     b, buf)) {
				if (!first)
					first = b + 1;
				continue;
			}
			memcpy(r->port + (size_t)b * IBTOPO__LFT_BLOCK, buf,
			       IBTOPO__LFT_BLOCK);
			r->have[b] = 1;
			r->missing--;
		}
		if (r->missing) {
			dr_path(path, sizeof(path), &nd->path_portid, -1);
			unanswered_add(
				u,
				"switch '%.*s' 0x%016" PRIx64 " at DR "
				"path %s did not answer LinearForwarding"
				"Table block %u (%u of %u blocks missing)",
				(int)strnlen(nd->nodedesc, IB_SMP_DATA_SIZE),
				nd->nodedesc, nd->guid, path, first - 1,
				r->missing, r->blocks);
		}
	}
}

void ibtopo__discover_repair(ibnd_fabric_t *in, char *ca, int portnum,
			     unsigned timeout_ms, struct ibtopo__lfts *lfts,
			     struct ibtopo__mad_tally *tally,
			     struct ibtopo__unanswered *u, char *changed,
			     size_t changed_len)
{
	struct requery q = {
		NULL, ca, portnum, timeout_ms, 0, false, tally, ""
	};
	uint8_t buf[IB_SMP_DATA_SIZE];
	char path[128];

	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		if (!nd->ports || nd->numports < 0 || nd->numports > 255)
			continue;
		if (all_zero(nd->nodedesc, IB_SMP_DATA_SIZE)) {
			if (requery(&q, &nd->path_portid, IB_ATTR_NODE_DESC, 0,
				    buf)) {
				memcpy(nd->nodedesc, buf, IB_SMP_DATA_SIZE);
			} else {
				dr_path(path, sizeof(path), &nd->path_portid,
					-1);
				unanswered_add(
					u,
					"node 0x%016" PRIx64 " at DR path "
					"%s did not answer NodeDescription",
					nd->guid, path);
			}
		}
		for (int i = 0; i <= nd->numports; i++) {
			ibnd_port_t *p = nd->ports[i];

			if (p ? !no_port_info(p) : nd->type != IB_NODE_SWITCH)
				continue;
			if (requery(&q, &nd->path_portid, IB_ATTR_PORT_INFO,
				    (unsigned)i, buf))
				set_port_info(nd, i, buf);
		}
	}
	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		if (!nd->ports || nd->numports < 0 || nd->numports > 255)
			continue;
		for (int i = 1; i <= nd->numports; i++) {
			ibnd_port_t *p = nd->ports[i];

			/* libibnetdisc walks on from switches and our own port */
			if (!p || p->remoteport ||
			    ibtopo__smp_field(p->info, IB_PORT_PHYS_STATE_F) !=
				    IBTOPO__PHYS_LINKUP ||
			    (nd->type != IB_NODE_SWITCH &&
			     !(nd == in->from_node && i == in->from_portnum)))
				continue;
			repair_peer(&q, in, nd, p);
		}
	}
	if (lfts) {
		double t0 = ibtopo__mono_now();

		repair_lfts(&q, in, lfts, u);
		lfts->seconds += ibtopo__mono_now() - t0;
	}
	if (q.mp)
		mad_rpc_close_port(q.mp);
	snprintf(changed, changed_len, "%s", q.changed);
}

/*
 * Count what did not answer (rules a-c at the top of the file) into `u`,
 * describing the first one.
 */
void ibtopo__count_unanswered(const ibnd_fabric_t *in,
			      struct ibtopo__unanswered *u)
{
	char path[128];

	for (const ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		const char *desc = nd->nodedesc;
		int desclen = (int)strnlen(nd->nodedesc, IB_SMP_DATA_SIZE);

		if (nd->type == IB_NODE_SWITCH && !nd->ports[0]) {
			dr_path(path, sizeof(path), &nd->path_portid, -1);
			unanswered_add(u,
				       "switch '%.*s' 0x%016" PRIx64 " at DR "
				       "path %s did not answer PortInfo",
				       desclen, desc, nd->guid, path);
			continue;
		}
		for (int i = 0; i <= nd->numports; i++) {
			const ibnd_port_t *p = nd->ports[i];

			if (!p && i > 0 && nd->type == IB_NODE_SWITCH) {
				dr_path(path, sizeof(path), &nd->path_portid,
					-1);
				unanswered_add(
					u,
					"port %d of switch '%.*s' at DR path "
					"%s did not answer PortInfo",
					i, desclen, desc, path);
			} else if (p && no_port_info(p)) {
				dr_path(path, sizeof(path), &nd->path_portid,
					-1);
				unanswered_add(u,
					       "port %d of '%.*s' 0x%016" PRIx64
					       " at DR path %s did not answer "
					       "PortInfo",
					       i, desclen, desc, nd->guid,
					       path);
			} else if (p && i > 0 && !p->remoteport &&
				   ibtopo__smp_field(p->info,
						     IB_PORT_PHYS_STATE_F) ==
					   IBTOPO__PHYS_LINKUP) {
				dr_path(path, sizeof(path), &nd->path_portid,
					i);
				unanswered_add(
					u,
					"the peer of '%.*s' port %d at DR "
					"path %s did not answer NodeInfo",
					desclen, desc, i, path);
			}
		}
	}
}

/* PortInfo CapabilityMask IsSM: an SM runs behind the port */
#define CAP_IS_SM (1u << 1)

/* An IsSM port found, and the route its SMInfo was asked along. */
struct sm_seen {
	struct ibtopo_sm sm;
	ib_portid_t path;
};

/*
 * A master's SMInfo is read again this long after the first read: an SM
 * counts in ActCount the SMPs it sends, its answer to the first read
 * among them (OpenSM: every MAD it sends on QP0), so a live one has
 * moved on by the second.
 */
#define SM_REREAD_MS 100

/* Ask SMInfo along `path` into sm; false when it did not answer. */
static bool read_sm(struct requery *q, ib_portid_t *path, struct ibtopo_sm *sm)
{
	uint8_t buf[IB_SMP_DATA_SIZE];

	if (!requery(q, path, IB_ATTR_SMINFO, 0, buf))
		return false;
	sm->answered = true;
	sm->guid = mad_get_field64(buf, 0, IB_SMINFO_GUID_F);
	sm->priority = (uint8_t)mad_get_field(buf, 0, IB_SMINFO_PRIO_F);
	sm->state = (uint8_t)mad_get_field(buf, 0, IB_SMINFO_STATE_F);
	sm->act_count = mad_get_field(buf, 0, IB_SMINFO_ACT_F);
	return true;
}

/*
 * Each master's SMInfo a second time, SM_REREAD_MS after `since` (the
 * first reads), waiting only for what is left of it.
 */
static void reread_masters(struct requery *q, struct sm_seen *v, size_t n,
			   double since)
{
	double left = SM_REREAD_MS / 1e3 - (ibtopo__mono_now() - since);
	bool any = false;

	for (size_t i = 0; i < n && !any; i++)
		any = v[i].sm.answered && v[i].sm.state == IBTOPO_SM_MASTER;
	if (!any)
		return;
	if (left > 0) {
		struct timespec pause = { 0, (long)(left * 1e9) };

		nanosleep(&pause, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		struct ibtopo_sm again = v[i].sm;

		if (!v[i].sm.answered || v[i].sm.state != IBTOPO_SM_MASTER ||
		    !read_sm(q, &v[i].path, &again))
			continue;
		v[i].sm.reread = true;
		v[i].sm.act_count2 = again.act_count;
	}
}

/* The route to an IsSM port `i` of `nd`; false when there is none. */
static bool sm_path(ib_portid_t *path, const ibnd_fabric_t *in,
		    const ibnd_node_t *nd, int i)
{
	const ibnd_port_t *p = nd->ports[i];

	/* a CA port: through its peer, so the SMP comes in on that port;
	 * our own: the empty route */
	if (nd == in->from_node && i == in->from_portnum) {
		memset(path, 0, sizeof(*path));
	} else if (nd->type == IB_NODE_SWITCH) {
		*path = nd->path_portid;
	} else if (p->remoteport && p->remoteport->node &&
		   p->remoteport->node->path_portid.drpath.cnt + 1 <
			   IB_SUBNET_PATH_HOPS_MAX) {
		*path = p->remoteport->node->path_portid;
		path->drpath.cnt++;
		path->drpath.p[path->drpath.cnt] =
			(uint8_t)p->remoteport->portnum;
	} else {
		return false;
	}
	return true;
}

/* Every IsSM port's SM and route, into *out (*n of them). */
static int find_sms(struct sm_seen **out, size_t *n, ibnd_fabric_t *in,
		    struct requery *q)
{
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	for (ibnd_node_t *nd = in->nodes; nd; nd = nd->next) {
		for (int i = 0; i <= nd->numports && nd->ports; i++) {
			ibnd_port_t *p = nd->ports[i];
			struct sm_seen *s;

			if (!p || no_port_info(p) ||
			    !(ibtopo__smp_field(p->info, IB_PORT_CAPMASK_F) &
			      CAP_IS_SM) ||
			    (nd->type == IB_NODE_SWITCH) != (i == 0))
				continue;
			if (ibtopo__grow(out, &alloc, *n + 1, sizeof(**out)))
				return IBTOPO_ENOMEM;
			s = &(*out)[*n];
			memset(s, 0, sizeof(*s));
			s->sm.node_guid = nd->guid;
			s->sm.port = (unsigned)i;
			if (!sm_path(&s->path, in, nd, i))
				continue;
			read_sm(q, &s->path, &s->sm);
			++*n;
		}
	}
	return 0;
}

int ibtopo__discover_sms(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			 char *ca, int portnum, unsigned timeout_ms,
			 struct ibtopo__mad_tally *tally,
			 ibtopo__meanwhile_fn *meanwhile, void *arg,
			 struct ibtopo_error *err)
{
	struct requery q = {
		NULL, ca, portnum, timeout_ms, 0, false, tally, ""
	};
	struct sm_seen *v = NULL;
	size_t n = 0;
	int rc = find_sms(&v, &n, in, &q);
	double since = ibtopo__mono_now();

	if (rc)
		rc = ibtopo__error_set(err, rc, "out of memory");
	/* one MAD port at a time (umad2sim has one a process): the
	 * second reads open it again */
	if (q.mp)
		mad_rpc_close_port(q.mp);
	q.mp = NULL;
	if (!rc && meanwhile)
		rc = meanwhile(arg, err);
	if (!rc)
		reread_masters(&q, v, n, since);
	for (size_t i = 0; i < n && !rc; i++)
		rc = ibtopo_fabric_add_sm(fabric, &v[i].sm, err);
	if (q.mp)
		mad_rpc_close_port(q.mp);
	if (!rc)
		ibtopo_fabric_set_sms_read(fabric, true);
	free(v);
	return rc;
}
