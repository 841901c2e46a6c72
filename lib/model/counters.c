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

bool ibtopo_port_counters_unread(const struct ibtopo_port *port)
{
	return port && port->counters && !port->counters->valid;
}

/* Append to buf (NUL-terminated, len bytes) unless it would not fit. */
static bool append(char *buf, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + n + 1 > len)
		return false;
	memcpy(buf + *at, s, n + 1);
	*at += n;
	return true;
}

size_t ibtopo_fabric_counters_unread(const struct ibtopo_fabric *fabric,
				     char *buf, size_t len)
{
	size_t nn = fabric ? ibtopo_fabric_node_count(fabric) : 0;
	size_t count = 0, named = 0, at = 0;
	bool full = !buf || len < 16;

	if (buf && len)
		buf[0] = '\0';
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);
		bool first = true;

		for (unsigned k = 0; k <= n->nports; k++) {
			char one[320];

			if (!ibtopo_port_counters_unread(n->ports[k]))
				continue;
			count++;
			if (full)
				continue;
			if (first)
				snprintf(one, sizeof(one), "%s'%s' port %u",
					 named ? ", " : "", n->desc, k);
			else
				snprintf(one, sizeof(one), " %u", k);
			/* room kept for " and N more" */
			if (at + strlen(one) + 24 > len ||
			    !append(buf, len, &at, one)) {
				full = true;
				continue;
			}
			first = false;
			named++;
		}
	}
	if (buf && count > named && named) {
		char more[32];

		snprintf(more, sizeof(more), " and %zu more", count - named);
		append(buf, len, &at, more);
	}
	return count;
}
