/*
 * discover.c - live discovery, and `ibnetdiscover --cache` files. A live
 * sweep (sweep.c) and a cache file (read by libibnetdisc) both come as
 * libibnetdisc structures; this file checks and copies them into our
 * model (discover_repair.c asks again what a live sweep missed), and they
 * never leave these files (or sweep.c).
 *
 * What a sweep does not tell us (neither ours nor libibnetdisc's), and the
 * rules used instead:
 * - It has no "incomplete" flag. An SMP that comes back with an error
 *   status, or still times out after its retries (sweep.c asks each
 *   again on its own), is skipped (libibnetdisc also writes a line on
 *   stderr), and the fabric it returns just lacks what that SMP would have found: a node without its
 *   NodeDescription (all zero), a port shell without its PortInfo (all
 *   zero: a real PortInfo never has PortState 0), a switch port missing,
 *   or a peer never reached. After a live sweep we ask once more,
 *   through libibmad along the node's directed route, for each
 *   NodeDescription and PortInfo that is missing (discover_repair.c). We call a discovery
 *   incomplete when, after that, (a) a port whose PortInfo says PhysState
 *   LinkUp has no peer (the peer never answered NodeInfo), (b) a switch
 *   lacks the PortInfo of one of its ports 0..N, (c) a port has no
 *   PortInfo, or (d) a node did not answer its NodeDescription again
 *   (live only: in a cache an empty description cannot be told from an
 *   unanswered one). CA ports it never reached are not counted:
 *   libibnetdisc does not walk through CAs, so their other ports are
 *   legitimately unknown. Each message names the directed route (DR
 *   path) of what did not answer.
 * - With --routes, a switch whose SwitchInfo or one of whose
 *   LinearForwardingTable blocks is still unanswered after asking again
 *   (discover_repair.c) gets no table at all, never a short one, and counts
 *   as (e): the message names the switch and the block.
 * - A cache file is loaded without bounds checks on port numbers; we walk
 *   its structure first so truncated or corrupt files are refused before
 *   ibnd_load_fabric() sees them.
 */
#include "discover/discover-int.h"

#include <infiniband/umad.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- PortInfo encodings (IBA vol 1, PortInfo; libibmad iba_types.h) ---- */

#define CAP_IS_EXT_SPEEDS	(1u << 14)	/* IsExtendedSpeedsSupported */
#define CAP_HAS_CAP_MASK2	(1u << 15)	/* CapabilityMask2 is valid */
#define CAP2_IS_EXT_SPEEDS_2	(1u << 11)	/* IsExtendedSpeeds2Supported */
#define MLNX_SPEED_FDR10	0x01u		/* Mellanox ExtPortInfo speed bit */

#define WIDTH_EN_SUPPORTED	255u	/* LinkWidthEnabled: = supported */
#define SPEED_EN_SUPPORTED	15u	/* LinkSpeedEnabled: = supported */
#define EXT_EN_DISABLED		30u	/* LinkSpeedExtEnabled: none */
#define EXT_EN_SUPPORTED	31u	/* LinkSpeedExtEnabled: = supported */

/* ---- cache file layout (rdma-core libibnetdisc/ibnetdisc_cache.c) ---- */

#define CACHE_MAGIC		0x8FE7832Bu
#define CACHE_VERSION		1u
#define CACHE_HEADER_LEN	28u
#define CACHE_NODE_LEN		(15u + 3u * IB_SMP_DATA_SIZE)
#define CACHE_NODE_GUID_OFF	(4u + IB_SMP_DATA_SIZE)
#define CACHE_NODE_TYPE_OFF	(CACHE_NODE_GUID_OFF + 8u)
#define CACHE_NODE_NPORTS_OFF	(CACHE_NODE_GUID_OFF + 9u)
#define CACHE_PORT_KEY_LEN	9u
#define CACHE_PORT_LEN		(31u + IB_SMP_DATA_SIZE)
#define CACHE_PORT_LMC_OFF	12u	/* after GUID, number, ext number, LID */

/* IBA base speed bits (1 SDR, 2 DDR, 4 QDR) equal ours. */
static unsigned base_speeds(unsigned v)
{
	return v & (IBTOPO_SPEED_SDR | IBTOPO_SPEED_DDR | IBTOPO_SPEED_QDR);
}

/* IBA extended speed bits: 1 FDR, 2 EDR, 4 HDR, 8 NDR. */
static unsigned ext_speeds(unsigned v)
{
	unsigned m = 0;

	if (v & 1u)
		m |= IBTOPO_SPEED_FDR;
	if (v & 2u)
		m |= IBTOPO_SPEED_EDR;
	if (v & 4u)
		m |= IBTOPO_SPEED_HDR;
	if (v & 8u)
		m |= IBTOPO_SPEED_NDR;
	return m;
}

static unsigned one_bit(unsigned m)
{
	return m && !(m & (m - 1)) ? m : 0;
}

/*
 * Fill widths and speeds of `out` from its PortInfo `info`. `cap_info` is
 * the PortInfo that holds the capability mask (port 0 for a switch; NULL
 * when unknown); `ext_info` the Mellanox ExtendedPortInfo (zeroed when it
 * was not queried).
 */
static void decode_rates(struct ibtopo_port *out, const uint8_t *info,
			 const uint8_t *cap_info, const uint8_t *ext_info)
{
	unsigned cap = cap_info ? ibtopo__smp_field(cap_info, IB_PORT_CAPMASK_F) : 0;
	unsigned v, sup, en, act;

	out->cap_mask = cap;

	sup = ibtopo__smp_field(info, IB_PORT_LINK_WIDTH_SUPPORTED_F) & IBTOPO_WIDTH_ALL;
	v = ibtopo__smp_field(info, IB_PORT_LINK_WIDTH_ENABLED_F);
	en = v == WIDTH_EN_SUPPORTED ? sup : v & IBTOPO_WIDTH_ALL;
	out->width_supported = (uint8_t)sup;
	out->width_enabled = (uint8_t)en;
	out->width_active = (uint8_t)one_bit(ibtopo__smp_field(info,
				IB_PORT_LINK_WIDTH_ACTIVE_F) & IBTOPO_WIDTH_ALL);

	sup = base_speeds(ibtopo__smp_field(info, IB_PORT_LINK_SPEED_SUPPORTED_F));
	v = ibtopo__smp_field(info, IB_PORT_LINK_SPEED_ENABLED_F);
	en = v == SPEED_EN_SUPPORTED ? sup : base_speeds(v);
	act = one_bit(base_speeds(ibtopo__smp_field(info, IB_PORT_LINK_SPEED_ACTIVE_F)));

	/* FDR10 is Mellanox's: it reads as QDR in PortInfo. */
	if (ibtopo__smp_field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F) & MLNX_SPEED_FDR10)
		sup |= IBTOPO_SPEED_FDR10;
	if (ibtopo__smp_field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F) & MLNX_SPEED_FDR10)
		en |= IBTOPO_SPEED_FDR10;
	if (ibtopo__smp_field(ext_info, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F) & MLNX_SPEED_FDR10)
		act = IBTOPO_SPEED_FDR10;

	/* Extended speed fields are reserved unless the capability says so. */
	if (cap & CAP_IS_EXT_SPEEDS) {
		unsigned esup = ext_speeds(ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F));
		unsigned eact = ext_speeds(ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_ACTIVE_F));

		v = ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_ENABLED_F);
		sup |= esup;
		if (v == EXT_EN_SUPPORTED)
			en |= esup;
		else if (v != EXT_EN_DISABLED)
			en |= ext_speeds(v);
		if (one_bit(eact))
			act = eact;
#if HAVE_DECL_IB_PORT_LINK_SPEED_EXT_ACTIVE_2_F
		if ((cap & CAP_HAS_CAP_MASK2) &&
		    (ibtopo__smp_field(cap_info, IB_PORT_CAPMASK2_F) & CAP2_IS_EXT_SPEEDS_2)) {
			/* second extended speed field: bit 0 is XDR */
			if (ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_SUPPORTED_2_F) & 1u)
				sup |= IBTOPO_SPEED_XDR;
			if (ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_ENABLED_2_F) & 1u)
				en |= IBTOPO_SPEED_XDR;
			if (ibtopo__smp_field(info, IB_PORT_LINK_SPEED_EXT_ACTIVE_2_F) & 1u)
				act = IBTOPO_SPEED_XDR;
		}
#endif
	}
	out->speed_supported = (uint16_t)sup;
	out->speed_enabled = (uint16_t)en;
	out->speed_active = (uint16_t)act;

	/* A port that is down reports stale active values (as iblinkinfo). */
	if (out->state == IBTOPO_PORT_STATE_DOWN) {
		out->width_active = 0;
		out->speed_active = 0;
	}
}

static enum ibtopo_node_type node_type(int t)
{
	switch (t) {
	case IB_NODE_CA:
		return IBTOPO_NODE_CA;
	case IB_NODE_SWITCH:
		return IBTOPO_NODE_SWITCH;
	case IB_NODE_ROUTER:
		return IBTOPO_NODE_ROUTER;
	default:
		return IBTOPO_NODE_UNKNOWN;
	}
}

static int copy_port(struct ibtopo_fabric *fabric, struct ibtopo_node *node,
		     const ibnd_node_t *in, const ibnd_port_t *p,
		     struct ibtopo_error *err)
{
	static const uint8_t no_ext_info[IB_SMP_DATA_SIZE];
	const uint8_t *cap_info = p->info;
	struct ibtopo_port *port;
	unsigned state;
	int rc;

	if (in->type == IB_NODE_SWITCH)
		cap_info = in->ports[0] ? in->ports[0]->info : NULL;
	rc = ibtopo_node_add_port(&port, fabric, node, (unsigned)p->portnum, err);
	if (rc)
		return rc;
	port->guid = p->guid;
	port->lid = p->base_lid;
	port->lmc = p->lmc;
	port->ext_num = p->ext_portnum > 0 ? (unsigned)p->ext_portnum : 0;
	state = ibtopo__smp_field(p->info, IB_PORT_STATE_F);
	port->state = state <= IBTOPO_PORT_STATE_ACTIVE ? (uint8_t)state : 0;
	port->phys_state = (uint8_t)ibtopo__smp_field(p->info, IB_PORT_PHYS_STATE_F);
	port->mtu_cap = (uint8_t)ibtopo__smp_field(p->info, IB_PORT_MTU_CAP_F);
	port->neighbor_mtu =
		(uint8_t)ibtopo__smp_field(p->info, IB_PORT_NEIGHBOR_MTU_F);
	port->vl_cap = (uint8_t)ibtopo__smp_field(p->info, IB_PORT_VL_CAP_F);
	port->oper_vls = (uint8_t)ibtopo__smp_field(p->info, IB_PORT_OPER_VLS_F);
	decode_rates(port, p->info, cap_info,
		     in->type == IB_NODE_SWITCH && p->portnum == 0 ?
		     no_ext_info : p->ext_info);
	return ibtopo_fabric_index_port(fabric, port, err);
}

static int copy_node(struct ibtopo_fabric *fabric, const ibnd_node_t *in,
		     struct ibtopo_error *err)
{
	char desc[IB_SMP_DATA_SIZE + 1];
	struct ibtopo_node *node;
	int rc;

	if (in->numports < 0 || in->numports > 255 || !in->ports)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
			"node 0x%016" PRIx64 " has %d ports", in->guid,
			in->numports);
	/* NodeDescription is 64 bytes, not necessarily NUL-terminated. */
	memcpy(desc, in->nodedesc, IB_SMP_DATA_SIZE);
	desc[IB_SMP_DATA_SIZE] = '\0';
	rc = ibtopo_fabric_add_node(&node, fabric, node_type(in->type), in->guid,
				    (unsigned)in->numports, desc, err);
	if (rc)
		return rc;
	node->sysimg_guid = mad_get_field64((void *)in->info, 0,
					    IB_NODE_SYSTEM_GUID_F);
	node->vendor_id = ibtopo__smp_field(in->info, IB_NODE_VENDORID_F);
	node->device_id = ibtopo__smp_field(in->info, IB_NODE_DEVID_F);
	node->revision = ibtopo__smp_field(in->info, IB_NODE_REVISION_F);
	node->enhanced_port0 = in->smaenhsp0 != 0;
	for (int i = 0; i <= in->numports; i++) {
		const ibnd_port_t *p = in->ports[i];

		if (!p)
			continue;
		/* a cache with two nodes of one GUID gives libibnetdisc's
		 * ports to either: a twin is the same node here */
		if (p->portnum != i ||
		    (p->node != in && (!p->node || p->node->guid != in->guid)))
			return ibtopo__error_set(err, IBTOPO_EPARSE,
				"node 0x%016" PRIx64 " port %d is inconsistent",
				in->guid, i);
		rc = copy_port(fabric, node, in, p, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int copy_links(struct ibtopo_fabric *fabric, const ibnd_fabric_t *in,
		      struct ibtopo_error *err)
{
	for (const ibnd_node_t *n = in->nodes; n; n = n->next) {
		struct ibtopo_node *node = ibtopo_fabric_find_node(fabric, n->guid);

		for (int i = 1; i <= n->numports; i++) {
			const ibnd_port_t *p = n->ports[i], *r;
			struct ibtopo_port *a, *b;
			int rc;

			if (!p || !p->remoteport)
				continue;
			r = p->remoteport;
			a = ibtopo_node_port(node, (unsigned)i);
			b = r->node ? ibtopo_node_port(ibtopo_fabric_find_node(
				fabric, r->node->guid), (unsigned)r->portnum) : NULL;
			if (!a)	/* a twin's port the model lacks */
				continue;
			if (!b || b->node->guid != r->node->guid)
				return ibtopo__error_set(err, IBTOPO_EPARSE,
					"peer of node 0x%016" PRIx64
					" port %d is missing", n->guid, i);
			if (a->link && a->link == b->link)
				continue;
			/* one port, two peers: two nodes share a GUID */
			if (a->remote || b->remote)
				rc = ibtopo__fabric_port_clash(fabric,
							       a->remote ? a : b,
							       a->remote ? b : a, err);
			else
				rc = ibtopo_fabric_connect(NULL, fabric, a, b, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/*
 * Whole sweeps run again only when the fabric changed under one (a port
 * that was LinkUp is down when asked again) and it is incomplete: what
 * was lost is asked again one MAD at a time (sweep.c, then discover_repair.c).
 */
#define RESWEEPS_MAX		2

/*
 * Copy a libibnetdisc fabric into a new model fabric; what did not answer
 * is added to `u`, and the fabric is partial when `u` counts any.
 */
static int copy_fabric(struct ibtopo_fabric **out, const ibnd_fabric_t *in,
		       struct ibtopo__unanswered *u, struct ibtopo_error *err)
{
	struct ibtopo_fabric *fabric = NULL;
	int rc;

	*out = NULL;
	rc = ibtopo_fabric_new(&fabric, err);
	if (rc)
		return rc;
	for (const ibnd_node_t *n = in->nodes; n; n = n->next) {
		struct ibtopo_guid_clash c = { .guid = n->guid };

		/* a cache written by other means than a sweep may hold two
		 * nodes of one GUID: the model holds the first */
		if (ibtopo_fabric_find_node(fabric, n->guid))
			rc = ibtopo_fabric_add_guid_clash(fabric, &c, err);
		else
			rc = copy_node(fabric, n, err);
		if (rc)
			goto out_free_fabric;
	}
	rc = copy_links(fabric, in, err);
	if (rc)
		goto out_free_fabric;
	ibtopo__count_unanswered(in, u);
	ibtopo_fabric_set_partial(fabric, u->count > 0);
	if (u->count) {
		char why[sizeof(u->what) + 64];

		snprintf(why, sizeof(why), "%zu SMP%s went unanswered (first: %s)",
			 u->count, u->count == 1 ? "" : "s", u->what);
		rc = ibtopo_fabric_set_partial_reason(fabric, why, err);
		if (rc)
			goto out_free_fabric;
	}
	*out = fabric;
	return 0;

out_free_fabric:
	ibtopo_fabric_free(fabric);
	return rc;
}

/* Source, host (when it is this one) and time; then the canonical order. */
static int set_meta(struct ibtopo_fabric *fabric, const char *source,
		    bool this_host, time_t when, struct ibtopo_error *err)
{
	char host[256];
	int rc;

	rc = ibtopo_fabric_set_source(fabric, source, err);
	if (rc)
		return rc;
	if (this_host && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		rc = ibtopo_fabric_set_host(fabric, host, err);
		if (rc)
			return rc;
	}
	ibtopo_fabric_set_taken_at(fabric, when);
	ibtopo_fabric_sort(fabric);
	return 0;
}

/*
 * Resolve the local CA port through libibumad's sysfs view, so that "no
 * device" is one clear message rather than libibnetdisc's stderr lines.
 */
static int resolve_local_port(char *ca, size_t calen, int *portnum,
			      const char *want_ca, int want_port,
			      struct ibtopo_error *err)
{
	umad_port_t up;
	bool eth;
	int fd;

	if (umad_init() < 0 ||
	    umad_get_port(want_ca, want_port, &up) < 0) {
		if (want_ca)
			return ibtopo__error_set(err, IBTOPO_ENODEV,
				"no InfiniBand device '%s' port %d (is ib_umad "
				"loaded? does ibstat list it?)", want_ca,
				want_port);
		if (want_port)
			return ibtopo__error_set(err, IBTOPO_ENODEV,
				"no InfiniBand device with a port %d (is ib_umad "
				"loaded? does ibstat list it?)", want_port);
		return ibtopo__error_set(err, IBTOPO_ENODEV,
			"no InfiniBand device found (is ib_umad loaded? "
			"can you read /dev/infiniband/umad*?)");
	}
	snprintf(ca, calen, "%s", up.ca_name);
	*portnum = up.portnum;
	eth = strcmp(up.link_layer, "Ethernet") == 0;
	umad_release_port(&up);
	if (eth)
		return ibtopo__error_set(err, IBTOPO_ENODEV,
			"'%s' port %d is an Ethernet (RoCE) port, not "
			"InfiniBand (choose another with -C and -P)", ca,
			*portnum);

	fd = umad_open_port(ca, *portnum);
	if (fd < 0)
		return ibtopo__error_set(err, IBTOPO_ENODEV,
			"cannot open the MAD port of '%s' port %d: %s (can you "
			"read /dev/infiniband/umad*?)", ca, *portnum,
			strerror(-fd));
	umad_close_port(fd);
	return 0;
}

/*
 * Attach the tables read in full to the switches of `fabric`; *attached
 * counts them. Switches with blocks missing get none (counted unanswered).
 */
static int attach_lfts(struct ibtopo_fabric *fabric,
		       const struct ibtopo__lfts *l, size_t *attached,
		       struct ibtopo_error *err)
{
	*attached = 0;
	for (size_t i = 0; i < l->count; i++) {
		const struct ibtopo__lft_read *r = &l->sw[i];
		struct ibtopo_node *node;
		int rc;

		if (r->missing)
			continue;
		node = ibtopo_fabric_find_node(fabric, r->node->guid);
		if (!node)
			continue;
		rc = ibtopo_node_set_lft(node, r->port, r->top, err);
		if (rc)
			return rc;
		(*attached)++;
	}
	return 0;
}

/* Did sweep a (missing na SMPs) find more than sweep b (missing nb)? */
static bool better(const struct ibtopo_fabric *a, size_t na,
		   const struct ibtopo_fabric *b, size_t nb)
{
	size_t la = ibtopo_fabric_link_count(a), lb = ibtopo_fabric_link_count(b);
	size_t ka = ibtopo_fabric_node_count(a), kb = ibtopo_fabric_node_count(b);

	if (la != lb)
		return la > lb;
	if (ka != kb)
		return ka > kb;
	return na < nb;
}

/*
 * The PMA counters of the linked ports; a warning for those that lack
 * them (no LID, an error status). A port whose PortCounters never
 * answered, after their retries, keeps counters with nothing valid (not
 * read, ibtopo_fabric_counters_unread() names them): the topology is
 * whole and stays unmarked, for --partial keeps its meaning for a sweep
 * that lost part of the fabric. *lost counts the queries lost.
 */
static int read_counters(struct ibtopo_fabric *fabric, const char *ca,
			 int portnum, const struct ibtopo_discover_opts *opts,
			 unsigned retries, struct ibtopo__mad_tally *tally,
			 size_t *lost, struct ibtopo_error *err)
{
	char what[256] = "";
	size_t missed = 0;
	int rc;

	rc = ibtopo__pma_read(fabric, NULL, ca, portnum, opts->timeout_ms, retries,
			      tally, &missed, lost, what, sizeof(what), err);
	if (rc)
		return ibtopo__error_prefix(err, "port counters through '%s' "
					    "port %d", ca, portnum);
	if (missed && opts->version >= 2 && opts->warn) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%zu linked port%s without counters "
			 "(no LID, or the PMA did not answer PortCounters)",
			 missed, missed == 1 ? "" : "s");
		opts->warn(opts->warn_arg, msg);
	}
	return 0;
}

/*
 * The sweep kept, as ibnetdiscover caches it, into "<path>.tmp.<pid>";
 * renamed over `path` once discovery has succeeded.
 */
static int cache_sweep(ibnd_fabric_t *in, const char *tmp,
		       struct ibtopo_error *err)
{
	/*
	 * ibnd_cache_fabric() writes the ports it finds in the port GUID
	 * table, which our sweep does not build (its cost grows with the
	 * square of the fabric): chain every port in, as libibnetdisc's
	 * sweep would have. The bucket does not matter to the writer, and
	 * the table is not used after.
	 */
	memset(in->portstbl, 0, sizeof(in->portstbl));
	for (ibnd_node_t *n = in->nodes; n; n = n->next)
		for (int i = 0; n->ports && i <= n->numports; i++) {
			ibnd_port_t *p = n->ports[i];
			unsigned h;

			if (!p)
				continue;
			h = (unsigned)(p->guid % HTSZ);
			p->htnext = in->portstbl[h];
			in->portstbl[h] = p;
		}
	unlink(tmp);
	if (ibnd_cache_fabric(in, tmp, 0) != 0) {
		unlink(tmp);
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write the cache file '%s'", tmp);
	}
	return 0;
}

/*
 * What the MADs cost, into opts->stats (version 4); `lost`: the queries
 * still unanswered at the end. Releases the tally.
 */
static void put_stats(const struct ibtopo_discover_opts *opts,
		      struct ibtopo__mad_tally *tally, size_t lost)
{
	struct ibtopo_mad_stats *st = opts && opts->version >= 4 ?
				      opts->stats : NULL;

	if (st) {
		*st = tally->st;
		/* the sweep's and the PMA's, and the PKeyTables' (tally) */
		st->lost = tally->st.lost + lost;
		st->worst_guid = ibtopo__tally_worst(tally,
						     &st->worst_timeouts);
	}
	ibtopo__tally_release(tally);
}

int ibtopo__discover_check_opts(const struct ibtopo_discover_opts *opts,
				struct ibtopo_error *err)
{
	if (!opts)
		return 0;
	if (opts->version < 1 || opts->version > IBTOPO_DISCOVER_OPTS_VERSION)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"unknown discover options version %u", opts->version);
	if (opts->port < 0 || opts->port > 255)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"bad port number %d", opts->port);
	if (opts->version >= 2 && opts->retries > 100)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"bad retry count %u (0 to 100)", opts->retries);
	return 0;
}

/* The sweep kept so far: the one that found most, then missed least. */
struct kept {
	struct ibtopo_fabric *fabric;	/* NULL before the first */
	struct ibtopo__unanswered u;
	size_t lft_switches, lft_gets;
	double lft_seconds;
	struct ibtopo__mcast_read mcast;	/* of the sweep kept */
	/* the local port's view, for the SA's groups (discover_mcast.c) */
	uint64_t prefix, sm_guid;
	uint16_t sm_lid;
};

/*
 * What is read while the SMs' ActCount moves on (ibtopo__discover_sms()):
 * the PKeyTables and, with `mc`, the multicast groups and tables.
 */
struct meanwhile {
	struct ibtopo_fabric *fabric;
	ibnd_fabric_t *in;
	char *ca;
	int portnum;
	const struct ibnd_config *cfg;
	struct ibtopo__mad_tally *tally;
	const struct kept *k;
	struct ibtopo__mcast_read *mc; /* NULL: no multicast */
};

static int read_meanwhile(void *arg, struct ibtopo_error *err)
{
	const struct meanwhile *m = arg;
	double t0;
	int rc = ibtopo__sweep_pkeys(m->fabric, m->in, m->ca, m->portnum,
				     m->cfg->timeout_ms, m->cfg->retries,
				     m->tally, err);

	if (rc || !m->mc)
		return rc;
	t0 = ibtopo__mono_now();
	memset(m->mc, 0, sizeof(*m->mc));
	ibtopo_fabric_set_subnet(m->fabric, m->k->prefix, m->k->sm_lid,
				 m->k->sm_guid);
	rc = ibtopo__discover_mcast(m->fabric, m->in, m->ca, m->portnum,
				    m->cfg->timeout_ms, m->cfg->retries,
				    m->tally, m->mc, err);
	m->mc->seconds = ibtopo__mono_now() - t0;
	return rc;
}

/*
 * Sweep through `ca` port `portnum`, ask again what did not answer, and
 * sweep again (up to RESWEEPS_MAX times) while the fabric changed under
 * a sweep that is incomplete. The best sweep is in `k` (the caller frees
 * k->fabric, also on failure) and, with `tmp`, cached there.
 */
static int sweep_best(struct kept *k, char *ca, int portnum,
		      const struct ibnd_config *cfg, bool routes,
		      const char *tmp, const struct ibtopo_discover_opts *opts,
		      struct ibtopo__mad_tally *tally, struct ibtopo_error *err)
{
	char changed[160] = "";
	ibnd_fabric_t *in;
	int rc = 0;

	for (unsigned sweep = 1; sweep <= 1 + RESWEEPS_MAX; sweep++) {
		struct ibtopo_fabric *got = NULL;
		struct ibtopo__unanswered now = { 0, "" };
		struct ibtopo__lfts lfts = { 0 };
		struct ibtopo__mcast_read mc = { 0 };
		size_t attached = 0;

		tally->st.sweeps++;
		rc = ibtopo__sweep(&in, ca, portnum, cfg,
				   routes ? &lfts : NULL, tally, err);
		if (rc) {
			ibtopo__lfts_release(&lfts);
			ibtopo__error_prefix(err, "discovery through '%s' port %d",
					     ca, portnum);
			return rc;
		}
		ibtopo__discover_repair(in, ca, portnum, cfg->timeout_ms,
					routes ? &lfts : NULL, tally, &now,
					changed, sizeof(changed));
		rc = copy_fabric(&got, in, &now, err);
		if (!rc) {
			struct meanwhile mw = { got, in, ca, portnum, cfg,
						tally, k, routes ? &mc : NULL };

			/* the PKeyTables and multicast while the SMs'
			 * ActCount moves on */
			rc = ibtopo__discover_sms(got, in, ca, portnum,
						  cfg->timeout_ms, tally,
						  read_meanwhile, &mw, err);
			if (rc) {
				ibtopo_fabric_free(got);
				got = NULL;
			}
		}
		if (!rc && routes) {
			rc = attach_lfts(got, &lfts, &attached, err);
			if (rc) {
				ibtopo_fabric_free(got);
				got = NULL;
			}
		}
		if (rc) {
			ibtopo__sweep_free(in);
			ibtopo__lfts_release(&lfts);
			ibtopo__error_prefix(err, "discovery through '%s' port %d",
					     ca, portnum);
			return rc;
		}
		if (!k->fabric || better(got, now.count, k->fabric, k->u.count)) {
			if (tmp)
				rc = cache_sweep(in, tmp, err);
			ibtopo__sweep_free(in);
			if (rc) {
				ibtopo_fabric_free(got);
				ibtopo__lfts_release(&lfts);
				return rc;
			}
			ibtopo_fabric_free(k->fabric);
			k->fabric = got;
			k->u = now;
			k->lft_switches = attached;
			k->lft_gets = lfts.gets;
			k->lft_seconds = lfts.seconds;
			k->mcast = mc;
		} else {
			ibtopo__sweep_free(in);
			ibtopo_fabric_free(got);
		}
		ibtopo__lfts_release(&lfts);
		/* lost MADs were asked again: only a change sweeps again */
		if (!k->u.count || !changed[0] || sweep > RESWEEPS_MAX)
			break;
		if (opts && opts->warn) {
			char msg[sizeof(changed) + 64];

			snprintf(msg, sizeof(msg), "the fabric changed during "
				 "sweep %u (%s); sweeping again", sweep,
				 changed);
			opts->warn(opts->warn_arg, msg);
		}
	}
	return 0;
}

int ibtopo_fabric_discover(struct ibtopo_fabric **out,
			   const struct ibtopo_discover_opts *opts,
			   struct ibtopo_error *err)
{
	const char *cache = opts && opts->version >= 3 ? opts->cache_path : NULL;
	char tmp[PATH_MAX];
	struct ibnd_config cfg;
	struct kept k = { .fabric = NULL };
	char ca[UMAD_CA_NAME_LEN], source[UMAD_CA_NAME_LEN + 32];
	struct ibtopo__local local;
	bool routes = opts && (opts->flags & IBTOPO_DISCOVER_ROUTES);
	size_t pma_lost = 0;
	struct ibtopo__mad_tally tally = { 0 };
	int portnum = 0, rc;

	if (!out)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output pointer");
	*out = NULL;
	rc = ibtopo__discover_check_opts(opts, err);
	if (rc)
		return rc;
	if (cache && (size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", cache,
				      (long)getpid()) >= sizeof(tmp))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "cache path too long");
	rc = resolve_local_port(ca, sizeof(ca), &portnum,
				opts ? opts->ca : NULL, opts ? opts->port : 0,
				err);
	if (rc)
		return rc;
	ibtopo__discover_local(&local, ca, portnum, opts ? opts->timeout_ms : 0);

	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = 16;
	cfg.timeout_ms = opts ? opts->timeout_ms : 0;
	cfg.flags = IBND_CONFIG_MLX_EPI;	/* FDR10, as ibnetdiscover */
	cfg.retries = opts && opts->version >= 2 ? opts->retries :
		      IBTOPO_DISCOVER_RETRIES;
	k.prefix = local.prefix;
	k.sm_lid = local.sm_lid;
	k.sm_guid = local.sm_guid;
	rc = sweep_best(&k, ca, portnum, &cfg, routes, cache ? tmp : NULL,
			opts, &tally, err);
	if (rc)
		goto out_free_fabric;
	if (k.u.count && !(opts && (opts->flags & IBTOPO_DISCOVER_PARTIAL))) {
		rc = ibtopo__error_set(err, IBTOPO_EPARTIAL,
			"discovery incomplete: %s",
			ibtopo_fabric_meta(k.fabric)->partial_reason);
		goto out_free_fabric;
	}
	snprintf(source, sizeof(source), "discover:%s/%d", ca, portnum);
	rc = set_meta(k.fabric, source, true, time(NULL), err);
	if (!rc)
		rc = ibtopo_fabric_set_local_port(k.fabric, ca,
						  (unsigned)portnum, err);
	if (rc)
		goto out_free_fabric;
	ibtopo_fabric_set_subnet(k.fabric, local.prefix, local.sm_lid,
				 local.sm_guid);
	if (opts && (opts->flags & IBTOPO_DISCOVER_COUNTERS)) {
		rc = read_counters(k.fabric, ca, portnum, opts, cfg.retries,
				   &tally, &pma_lost, err);
		if (rc)
			goto out_free_fabric;
	}
	if (cache && rename(tmp, cache) != 0) {
		rc = ibtopo__error_set(err, IBTOPO_EIO,
				       "cannot write the cache file '%s': %s",
				       cache, strerror(errno));
		goto out_free_fabric;
	}
	if (routes && opts->version >= 3 && opts->routes_read)
		opts->routes_read(opts->routes_arg, k.lft_switches, k.lft_gets,
				  k.lft_seconds);
	if (routes && opts->version >= 5 && opts->mcast_read)
		opts->mcast_read(opts->mcast_arg, k.mcast.switches,
				 k.mcast.gets, k.mcast.sa_mads,
				 k.mcast.seconds);
	if (opts && opts->progress)
		opts->progress(opts->progress_arg,
			       ibtopo_fabric_node_count(k.fabric));
	*out = k.fabric;
	k.fabric = NULL;
	rc = 0;

out_free_fabric:
	if (rc && cache)
		unlink(tmp);
	put_stats(opts, &tally, k.u.count + pma_lost);
	ibtopo_fabric_free(k.fabric);
	return rc;
}

/* ---- cache files ---- */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool ibtopo_file_is_cache(const char *path)
{
	uint8_t buf[4];
	ssize_t n;
	int fd;

	if (!path)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == (ssize_t)sizeof(buf) && le32(buf) == CACHE_MAGIC;
}

/*
 * Walk the records of a cache file image: every count must be backed by
 * bytes, every stored port number must fit its node, and nothing may
 * follow the last port. libibnetdisc trusts all three. Node types and
 * port LMCs must be ones PortInfo and NodeInfo can hold.
 */
static bool cache_layout_ok(const uint8_t *buf, size_t len)
{
	uint32_t nnodes = le32(buf + 8), nports = le32(buf + 12);
	size_t off = CACHE_HEADER_LEN;

	for (uint32_t i = 0; i < nnodes; i++) {
		unsigned numports, stored;
		uint8_t seen[256] = { 0 };

		if (len - off < CACHE_NODE_LEN)
			return false;
		numports = buf[off + CACHE_NODE_NPORTS_OFF];
		stored = buf[off + CACHE_NODE_LEN - 1];
		/* a CA, a switch or a router: no other NodeType exists */
		if (buf[off + CACHE_NODE_TYPE_OFF] < IB_NODE_CA ||
		    buf[off + CACHE_NODE_TYPE_OFF] > IB_NODE_ROUTER)
			return false;
		off += CACHE_NODE_LEN;
		if (stored > numports + 1 ||
		    len - off < (size_t)stored * CACHE_PORT_KEY_LEN)
			return false;
		for (unsigned k = 0; k < stored; k++) {
			unsigned pn = buf[off + 8];

			if (pn > numports || seen[pn]++)
				return false;
			off += CACHE_PORT_KEY_LEN;
		}
	}
	if ((len - off) / CACHE_PORT_LEN < nports)
		return false;
	/*
	 * libibnetdisc indexes each LID of base_lid .. base_lid + 2^lmc - 1
	 * with a 16-bit counter: an LMC above 7 (3 bits in PortInfo) makes
	 * that loop allocate until memory runs out (found by fuzz/run.sh).
	 */
	for (uint32_t k = 0; k < nports; k++, off += CACHE_PORT_LEN)
		if (buf[off + CACHE_PORT_LMC_OFF] > 7)
			return false;
	return off == len;
}

static int check_cache(const char *path, struct ibtopo_error *err)
{
	uint8_t *buf;
	char *text = NULL;
	size_t len = 0;
	int rc;

	rc = ibtopo__read_whole_file(&text, &len, path, err);
	buf = (uint8_t *)text;
	if (rc)
		return rc;
	if (len < 4 || le32(buf) != CACHE_MAGIC)
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': not an ibnetdiscover cache file", path);
	else if (len >= 8 && le32(buf + 4) != CACHE_VERSION)
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': unsupported cache file version %u", path,
			le32(buf + 4));
	else if (len < CACHE_HEADER_LEN || !cache_layout_ok(buf, len))
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': truncated or corrupt cache file", path);
	free(buf);
	return rc;
}

int ibtopo_fabric_load_cache(struct ibtopo_fabric **out, const char *path,
			     struct ibtopo_error *err)
{
	struct ibtopo_error why = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	ibnd_fabric_t *in;
	struct stat st;
	char source[PATH_MAX + 8];
	struct ibtopo__unanswered u = { 0, "" };
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no cache file to load");
	*out = NULL;
	rc = check_cache(path, err);
	if (rc)
		return rc;
	in = ibnd_load_fabric(path, 0);
	if (!in)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': truncated or corrupt cache file", path);
	rc = copy_fabric(&fabric, in, &u, &why);
	ibnd_destroy_fabric(in);
	if (rc) {
		/* duplicate GUIDs, dangling peers: the file is inconsistent */
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': truncated or corrupt cache file (%s)", path,
			why.message);
		goto out;
	}
	/* The cache does not say when or where it was taken: use its mtime. */
	snprintf(source, sizeof(source), "file:%s", path);
	rc = set_meta(fabric, source, false,
		      stat(path, &st) == 0 ? st.st_mtime : time(NULL), err);
	if (rc)
		goto out_free_fabric;
	*out = fabric;
	return 0;

out_free_fabric:
	ibtopo_fabric_free(fabric);
out:
	return rc;
}
