/*
 * discover_local.c - where a discovery was made from: the local CA port,
 * its subnet prefix and master SM LID (PortInfo GidPrefix, MasterSMLID)
 * and the master SM's port GUID (SMInfo). They tell subnets apart in the
 * store (several fabrics in one database), so they are asked for once,
 * before the sweep, on a MAD port of their own: Gets only, and nothing
 * that fails here fails the discovery.
 */
#include "discover/discover-int.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_TIMEOUT_MS 500 /* an SM that answers does so at once */

/* A local SMP Get of `attr`; false when it went unanswered. */
static bool local_get(struct ibmad_port *mp, ib_portid_t *to, unsigned attr,
		      unsigned mod, uint8_t buf[IB_SMP_DATA_SIZE])
{
	memset(buf, 0, IB_SMP_DATA_SIZE);
	return smp_query_via(buf, to, attr, mod, 0, mp) != NULL;
}

/*
 * SMInfo of the SM at `lid`, LID-routed, into buf; false when it went
 * unanswered. Sent on the port's own umad agent rather than through
 * smp_query_via(): libibmad writes "ibwarn: _do_madrpc failed" on
 * stderr for every MAD that times out, and an SM that swept and exited
 * (opensm -o) answers nothing.
 */
static bool sminfo_get(struct ibmad_port *mp, unsigned lid, unsigned timeout_ms,
		       uint8_t buf[IB_SMP_DATA_SIZE])
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	int fd = mad_rpc_portid(mp);
	int agent = mad_rpc_class_agent(mp, IB_SMI_CLASS);
	ib_portid_t to;
	ib_rpc_t rpc;
	uint32_t trid;
	uint8_t *mad;
	int len;

	memset(umad, 0, sizeof(umad));
	memset(&rpc, 0, sizeof(rpc));
	memset(&to, 0, sizeof(to));
	to.lid = (int)lid;
	rpc.mgtclass = IB_SMI_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = IB_ATTR_SMINFO;
	rpc.timeout = (int)timeout_ms;
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	rpc.trid = mad_trid();
	trid = (uint32_t)rpc.trid;
	if (fd < 0 || agent < 0 ||
	    mad_build_pkt(umad, &rpc, &to, NULL, NULL) < 0 ||
	    umad_send(fd, agent, umad, IB_MAD_SIZE, (int)timeout_ms, 1) < 0)
		return false;
	/* the kernel answers a send that timed out with its status set */
	for (;;) {
		memset(umad, 0, sizeof(umad));
		len = IB_MAD_SIZE;
		if (umad_recv(fd, umad, &len, -1) < 0)
			return false;
		mad = umad_get_mad(umad);
		if ((uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F) == trid)
			break;
	}
	if (umad_status(umad) != 0 || mad_get_field(mad, 0, IB_MAD_STATUS_F))
		return false;
	memcpy(buf, mad + IB_SMP_DATA_OFFS, IB_SMP_DATA_SIZE);
	return true;
}

void ibtopo__discover_local(struct ibtopo__local *out, const char *ca,
			    int portnum, unsigned timeout_ms)
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t buf[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	ib_portid_t self;

	memset(out, 0, sizeof(*out));
	mp = mad_rpc_open_port((char *)ca, portnum, classes, 2);
	if (!mp)
		return;
	if (timeout_ms)
		mad_rpc_set_timeout(mp, (int)timeout_ms);
	mad_rpc_set_retries(mp, 1);
	/* an empty directed route: the local port itself */
	memset(&self, 0, sizeof(self));
	if (local_get(mp, &self, IB_ATTR_PORT_INFO, (unsigned)portnum, buf)) {
		out->prefix = mad_get_field64(buf, 0, IB_PORT_GID_PREFIX_F);
		out->sm_lid = (uint16_t)mad_get_field(buf, 0, IB_PORT_SMLID_F);
	}
	if (out->sm_lid &&
	    sminfo_get(mp, out->sm_lid,
		       timeout_ms ? timeout_ms : LOCAL_TIMEOUT_MS, buf))
		out->sm_guid = mad_get_field64(buf, 0, IB_SMINFO_GUID_F);
	mad_rpc_close_port(mp);
}

/* ---- discover --all-ports: the local ports ---- */

/* The SM's port GUID as `ca` port `port` reaches it; 0 when silent. */
static uint64_t port_sm_guid(const char *ca, unsigned port, unsigned lid,
			     unsigned timeout_ms)
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t buf[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	uint64_t guid = 0;

	mp = mad_rpc_open_port((char *)ca, (int)port, classes, 2);
	if (!mp)
		return 0;
	if (sminfo_get(mp, lid, timeout_ms, buf))
		guid = mad_get_field64(buf, 0, IB_SMINFO_GUID_F);
	mad_rpc_close_port(mp);
	return guid;
}

/* Append the ports of CA `name` to *list. */
static int add_ca_ports(struct ibtopo_local_port **list, size_t *n,
			size_t *alloc, const char *name, unsigned timeout_ms,
			struct ibtopo_error *err)
{
	umad_ca_t ca;

	if (umad_get_ca(name, &ca) < 0)
		return 0; /* gone meanwhile: nothing to discover through */
	for (int i = 0; i < UMAD_CA_MAX_PORTS; i++) {
		const umad_port_t *up = ca.ports[i];
		struct ibtopo_local_port *p;

		if (!up)
			continue;
		if (*n == *alloc) {
			size_t na = *alloc ? 2 * *alloc : 8;
			struct ibtopo_local_port *nl =
				realloc(*list, na * sizeof(*nl));

			if (!nl) {
				umad_release_ca(&ca);
				return ibtopo__error_set(err, IBTOPO_ENOMEM,
							 "out of memory");
			}
			*list = nl;
			*alloc = na;
		}
		p = &(*list)[(*n)++];
		memset(p, 0, sizeof(*p));
		snprintf(p->ca, sizeof(p->ca), "%s", ca.ca_name);
		p->port = (unsigned)up->portnum;
		p->infiniband = strcmp(up->link_layer, "Ethernet") != 0;
		p->active = up->state == 4; /* PortState Active */
		p->port_guid = be64toh(up->port_guid);
		p->subnet_prefix = be64toh(up->gid_prefix);
		p->sm_lid = (uint16_t)up->sm_lid;
		if (p->infiniband && p->active && p->sm_lid)
			p->sm_guid = port_sm_guid(p->ca, p->port, p->sm_lid,
						  timeout_ms);
	}
	umad_release_ca(&ca);
	return 0;
}

int ibtopo_local_ports(struct ibtopo_local_port **out, size_t *out_count,
		       unsigned timeout_ms, struct ibtopo_error *err)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	struct ibtopo_local_port *list = NULL;
	size_t n = 0, alloc = 0;
	int ncas, rc = 0;

	if (!out || !out_count)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no output pointer");
	*out = NULL;
	*out_count = 0;
	if (!timeout_ms)
		timeout_ms = LOCAL_TIMEOUT_MS;
	ncas = umad_init() < 0 ? -1 :
				 umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (ncas <= 0)
		return ibtopo__error_set(
			err, IBTOPO_ENODEV,
			"no InfiniBand device found (is ib_umad loaded? "
			"can you read /dev/infiniband/umad*?)");
	for (int i = 0; i < ncas && !rc; i++)
		rc = add_ca_ports(&list, &n, &alloc, names[i], timeout_ms, err);
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*out_count = n;
	return 0;
}

size_t ibtopo_local_ports_next(const struct ibtopo_local_port *list,
			       size_t count, size_t from,
			       const uint64_t *seen_sm, size_t nseen)
{
	for (size_t i = from; list && i < count; i++) {
		bool seen = false;

		if (!list[i].infiniband || !list[i].active)
			continue;
		for (size_t k = 0; k < nseen && list[i].sm_guid; k++)
			seen = seen || seen_sm[k] == list[i].sm_guid;
		if (!seen)
			return i;
	}
	return count;
}

void ibtopo_local_ports_seen(uint64_t *seen_sm, size_t *nseen,
			     const struct ibtopo_local_port *p,
			     const struct ibtopo_fabric *fabric)
{
	uint64_t sm = ibtopo_fabric_meta(fabric)->sm_guid;

	if (sm || p->sm_guid)
		seen_sm[(*nseen)++] = sm ? sm : p->sm_guid;
}
