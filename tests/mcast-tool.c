/*
 * mcast-tool.c - what tests/integration/mcast-sim.sh does to a simulated
 * fabric's multicast, as a host or an SM would (never run by ibtopo):
 *
 *   mcast-tool join [N]       join the IPoIB broadcast group
 *                             (ff12:401b:ffff::ffff:ffff) from this host,
 *                             or with N the group ff12:601b:ffff::ff<N>
 *                             (created when new): one SA MCMemberRecord Set
 *   mcast-tool set LID MLID PORT 0|1
 *                             take PORT out of (0) or put it into (1) the
 *                             mask of MLID in the multicast forwarding
 *                             table of the switch at LID: a Get, then a
 *                             Set of that block and port mask position
 *
 * Under ibsim: SIM_HOST names the host, LD_PRELOAD=libumad2sim.so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

#define COMP_MGID (1ull << 0)
#define COMP_PORT_GID (1ull << 1)
#define COMP_QKEY (1ull << 2)
#define COMP_TCLASS (1ull << 6)
#define COMP_PKEY (1ull << 7)
#define COMP_SL (1ull << 12)
#define COMP_FLOW (1ull << 13)
#define COMP_JOIN_STATE (1ull << 16)

static int join(struct ibmad_port *mp, const char *n)
{
	uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0,    0,
			     0,	   0,	 0,    0,    0xff, 0xff, 0xff, 0xff };
	uint8_t buf[IB_SA_DATA_SIZE] = { 0 };
	ib_portid_t self = { 0 }, sm = { 0 };
	uint64_t mask = COMP_MGID | COMP_PORT_GID | COMP_JOIN_STATE;
	ib_sa_call_t sa = { 0 };
	ibmad_gid_t gid;
	int portnum;

	if (ib_resolve_self_via(&self, &portnum, &gid, mp) < 0 ||
	    ib_resolve_smlid_via(&sm, 1000, mp) < 0) {
		fprintf(stderr, "mcast-tool: no port or no SM\n");
		return 1;
	}
	if (n) {
		/* a group of our own: what the SA needs to create it */
		mgid[2] = 0x60;
		mgid[15] = (uint8_t)atoi(n);
		mad_set_field(buf, 0, IB_SA_MCM_QKEY_F, 0x0b1b);
		mad_set_field(buf, 0, IB_SA_MCM_PKEY_F, 0xffff);
		mask |= COMP_QKEY | COMP_PKEY | COMP_SL | COMP_FLOW |
			COMP_TCLASS;
	}
	mad_encode_field(buf, IB_SA_MCM_MGID_F, mgid);
	mad_encode_field(buf, IB_SA_MCM_PORTGID_F, gid);
	mad_set_field(buf, 0, IB_SA_MCM_JOIN_STATE_F, 1);
	sa.method = IB_MAD_METHOD_SET;
	sa.attrid = IB_SA_ATTR_MCRECORD;
	sa.mask = mask;
	if (!sa_rpc_call(mp, buf, &sm, &sa, 1000)) {
		fprintf(stderr, "mcast-tool: the SA refused the join\n");
		return 1;
	}
	printf("0x%04x\n", mad_get_field(buf, 0, IB_SA_MCM_MLID_F));
	return 0;
}

static int set(struct ibmad_port *mp, char **argv)
{
	unsigned lid = (unsigned)strtoul(argv[0], NULL, 0);
	unsigned mlid = (unsigned)strtoul(argv[1], NULL, 0);
	unsigned port = (unsigned)strtoul(argv[2], NULL, 0);
	int on = atoi(argv[3]);
	unsigned block = (mlid - 0xc000) / 32, e = (mlid - 0xc000) % 32;
	unsigned pos = port / 16, bit = port % 16, mod = pos << 28 | block;
	uint8_t buf[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t to = { 0 };
	unsigned v;

	to.lid = (int)lid;
	if (mlid < 0xc000 ||
	    !smp_query_via(buf, &to, IB_ATTR_MULTICASTFORWTBL, mod, 0, mp)) {
		fprintf(stderr, "mcast-tool: no MFT block from LID %u\n", lid);
		return 1;
	}
	v = (unsigned)buf[2 * e] << 8 | buf[2 * e + 1];
	v = on ? v | 1u << bit : v & ~(1u << bit);
	buf[2 * e] = (uint8_t)(v >> 8);
	buf[2 * e + 1] = (uint8_t)v;
	if (!smp_set_via(buf, &to, IB_ATTR_MULTICASTFORWTBL, mod, 0, mp)) {
		fprintf(stderr, "mcast-tool: the Set to LID %u failed\n", lid);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	struct ibmad_port *mp;
	int rc;

	if (argc < 2 || (strcmp(argv[1], "join") && strcmp(argv[1], "set")) ||
	    (!strcmp(argv[1], "set") && argc != 6)) {
		fprintf(stderr, "usage: mcast-tool join [N] | set LID MLID "
				"PORT 0|1\n");
		return 2;
	}
	mp = mad_rpc_open_port(NULL, 0, classes, 3);
	if (!mp) {
		fprintf(stderr, "mcast-tool: cannot open the MAD port\n");
		return 1;
	}
	rc = strcmp(argv[1], "join") ? set(mp, argv + 2) :
				       join(mp, argc > 2 ? argv[2] : NULL);
	mad_rpc_close_port(mp);
	return rc;
}
