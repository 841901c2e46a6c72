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

#include <string.h>

/* A local SMP Get of `attr`; false when it went unanswered. */
static bool local_get(struct ibmad_port *mp, ib_portid_t *to, unsigned attr,
		      unsigned mod, uint8_t buf[IB_SMP_DATA_SIZE])
{
	memset(buf, 0, IB_SMP_DATA_SIZE);
	return smp_query_via(buf, to, attr, mod, 0, mp) != NULL;
}

int ibtopo__discover_local(struct ibtopo_fabric *fabric, const char *ca,
			   int portnum, unsigned timeout_ms,
			   struct ibtopo_error *err)
{
	int classes[2] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	uint8_t buf[IB_SMP_DATA_SIZE];
	struct ibmad_port *mp;
	ib_portid_t self, sm;
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
	memset(&sm, 0, sizeof(sm));
	if (sm_lid && ib_portid_set(&sm, (int)sm_lid, 0, 0) == 0 &&
	    local_get(mp, &sm, IB_ATTR_SMINFO, 0, buf))
		sm_guid = mad_get_field64(buf, 0, IB_SMINFO_GUID_F);
	mad_rpc_close_port(mp);
	ibtopo_fabric_set_subnet(fabric, prefix, (uint16_t)sm_lid, sm_guid);
	return 0;
}
