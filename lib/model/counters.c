/* counters.c - the PMA port counters: names, widths, attaching them */
#include "model/model-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;	/* as perfquery and ibqueryerrors print it */
	unsigned bits;		/* in PortCounters */
} counters[IBTOPO_CTR_COUNT_] = {
	[IBTOPO_CTR_SYMBOL_ERRORS] = { "SymbolErrorCounter", 16 },
	[IBTOPO_CTR_LINK_ERROR_RECOVERY] = { "LinkErrorRecoveryCounter", 8 },
	[IBTOPO_CTR_LINK_DOWNED] = { "LinkDownedCounter", 8 },
	[IBTOPO_CTR_RCV_ERRORS] = { "PortRcvErrors", 16 },
	[IBTOPO_CTR_RCV_REMOTE_PHYS_ERRORS] = { "PortRcvRemotePhysicalErrors", 16 },
	[IBTOPO_CTR_RCV_SWITCH_RELAY_ERRORS] = { "PortRcvSwitchRelayErrors", 16 },
	[IBTOPO_CTR_XMIT_DISCARDS] = { "PortXmitDiscards", 16 },
	[IBTOPO_CTR_XMIT_CONSTRAINT_ERRORS] = { "PortXmitConstraintErrors", 8 },
	[IBTOPO_CTR_RCV_CONSTRAINT_ERRORS] = { "PortRcvConstraintErrors", 8 },
	[IBTOPO_CTR_LOCAL_LINK_INTEGRITY_ERRORS] = { "LocalLinkIntegrityErrors", 4 },
	[IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS] =
		{ "ExcessiveBufferOverrunErrors", 4 },
	[IBTOPO_CTR_VL15_DROPPED] = { "VL15Dropped", 16 },
	[IBTOPO_CTR_XMIT_WAIT] = { "PortXmitWait", 32 },
	[IBTOPO_CTR_XMIT_DATA] = { "PortXmitData", 32 },
	[IBTOPO_CTR_RCV_DATA] = { "PortRcvData", 32 },
	[IBTOPO_CTR_XMIT_PKTS] = { "PortXmitPkts", 32 },
	[IBTOPO_CTR_RCV_PKTS] = { "PortRcvPkts", 32 },
};

const char *ibtopo_counter_name(enum ibtopo_counter counter)
{
	if ((unsigned)counter >= IBTOPO_CTR_COUNT_)
		return NULL;
	return counters[counter].name;
}

int ibtopo_counter_parse(const char *name)
{
	for (int i = 0; name && i < IBTOPO_CTR_COUNT_; i++)
		if (strcasecmp(name, counters[i].name) == 0)
			return i;
	return -1;
}

unsigned ibtopo_counter_bits(enum ibtopo_counter counter, bool extended)
{
	if ((unsigned)counter >= IBTOPO_CTR_COUNT_)
		return 0;
	return extended ? 64 : counters[counter].bits;
}

bool ibtopo_counter_is_error(enum ibtopo_counter counter)
{
	return counter <= IBTOPO_CTR_VL15_DROPPED;
}

bool ibtopo_counter_is_saturated(enum ibtopo_counter counter, bool extended,
				 uint64_t value)
{
	unsigned bits = ibtopo_counter_bits(counter, extended);

	if (!bits)
		return false;
	return value == (bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1);
}

int ibtopo_port_set_counters(struct ibtopo_port *port,
			     const struct ibtopo_counters *c,
			     struct ibtopo_error *err)
{
	struct ibtopo_counters *copy = NULL;

	if (!port)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no port");
	if (c) {
		copy = malloc(sizeof(*copy));
		if (!copy)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		*copy = *c;
	}
	free(port->counters);
	port->counters = copy;
	return 0;
}
