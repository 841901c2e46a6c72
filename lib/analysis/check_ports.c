/*
 * check_ports.c - linked ports that carry no traffic: cabled and trained
 * (or polling for a peer they have) but not Active. Before a subnet
 * manager runs every port is Init: that is one finding for the fabric,
 * not one per port.
 */
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

/* IBA PortPhysicalState Polling */
#define PHYS_POLLING 2

/* Known, and not Active: Init, Armed, or Down while polling its peer. */
static bool port_not_active(const struct ibtopo_port *p)
{
	if (p->state == IBTOPO_PORT_STATE_INIT ||
	    p->state == IBTOPO_PORT_STATE_ARMED)
		return true;
	return p->state != IBTOPO_PORT_STATE_ACTIVE &&
	       p->phys_state == PHYS_POLLING;
}

/* What the sentence needs of an end: state, physical state << 8, and
 * bit 16 when that end is the one not Active. */
static unsigned port_word(const struct ibtopo_port *p)
{
	return p->state | (unsigned)p->phys_state << 8 |
	       (port_not_active(p) ? 1u << 16 : 0);
}

static bool port_state_known(const struct ibtopo_port *p)
{
	return p->state != IBTOPO_PORT_STATE_UNKNOWN || p->phys_state;
}

int ibtopo__check_ports(struct ibtopo_findings *out,
			const struct ibtopo_fabric *fabric,
			struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_link_count(fabric), known = 0, idle = 0;
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);

		if (port_state_known(l->a) || port_state_known(l->b))
			known++;
		if (port_not_active(l->a) || port_not_active(l->b))
			idle++;
	}
	if (!idle)
		return 0;
	if (idle == known) {
		/* nothing Active anywhere: nobody brought the subnet up */
		ibtopo__finding_init(&f, IBTOPO_FIND_PORT_NOT_ACTIVE);
		f.subkind = IBTOPO_PORT_NO_SUBNET_MANAGER;
		f.num.ports.links = (unsigned)idle;
		return ibtopo_findings_add(out, &f, err);
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);

		if (!port_not_active(l->a) && !port_not_active(l->b))
			continue;
		ibtopo__finding_init_link(&f, IBTOPO_FIND_PORT_NOT_ACTIVE, l);
		f.subkind = IBTOPO_PORT_LINK_NOT_ACTIVE;
		f.num.ports.links = (unsigned)idle;
		f.num.ports.word_a = port_word(l->a);
		f.num.ports.word_b = port_word(l->b);
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}
