/*
 * discover_local.c - where a discovery was made from: the local CA port,
 * its subnet prefix and master SM LID (PortInfo GidPrefix, MasterSMLID)
 * and the master SM's port GUID (SMInfo). They tell subnets apart in the
 * store (several fabrics in one database), so they are asked for once,
 * after the sweep, on a MAD port of their own: Gets only, and nothing
 * that fails here fails the discovery.
 */
#include "io/io-int.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

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

int ibtopo__discover_local(struct ibtopo_fabric *fabric, const char *ca,
			   int portnum, unsigned timeout_ms,
			   struct ibtopo_error *err)
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t buf[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	ib_portid_t self;
	uint64_t prefix = 0, sm_guid = 0;
	unsigned sm_lid = 0;
	int rc;

	rc = ibtopo_fabric_set_local_port(fabric, ca, (unsigned)portnum, err);
	if (rc)
		return rc;
	mp = mad_rpc_open_port((char *)ca, portnum, classes, 2);
	if (!mp)
		return 0;
	if (timeout_ms)
		mad_rpc_set_timeout(mp, (int)timeout_ms);
	mad_rpc_set_retries(mp, 1);
	/* an empty directed route: the local port itself */
	memset(&self, 0, sizeof(self));
	if (local_get(mp, &self, IB_ATTR_PORT_INFO, (unsigned)portnum, buf)) {
		prefix = mad_get_field64(buf, 0, IB_PORT_GID_PREFIX_F);
		sm_lid = mad_get_field(buf, 0, IB_PORT_SMLID_F);
	}
	if (sm_lid &&
	    sminfo_get(mp, sm_lid, timeout_ms ? timeout_ms : LOCAL_TIMEOUT_MS,
		       buf))
		sm_guid = mad_get_field64(buf, 0, IB_SMINFO_GUID_F);
	mad_rpc_close_port(mp);
	ibtopo_fabric_set_subnet(fabric, prefix, (uint16_t)sm_lid, sm_guid);
	return 0;
}
