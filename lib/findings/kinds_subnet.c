/*
 * kinds_subnet.c - the kinds of the subnet checks
 * (analysis/check_subnet.c): what the subnet manager needs unique, as
 * ibdiagnet checks it.
 */
#include "findings/findings-int.h"

#include <inttypes.h>

static int
duplicate_node_guid_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	char a[96], b[96], c[96];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	if (f->a.port < 0 || !f->b.guid || !f->c.guid)
		return snprintf(
			buf, len,
			"two nodes in this input have node GUID 0x%016" PRIx64
			" (%s): they were read as one node, so the other one and its links are missing; give each board its own GUID (flash the firmware with the GUIDs on its label, or replace the board), then sweep again",
			f->a.guid, a);
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	ibtopo__sentence_end(names, &f->c, c, sizeof(c));
	return snprintf(
		buf, len,
		"two nodes answer with node GUID 0x%016" PRIx64
		": port %d of %s is cabled to %s port %d and also to %s port %d, so sweeps and the subnet manager see one node where there are two, and one of them gets no LID and no routes; give each board its own GUID (flash the firmware with the GUIDs on its label, or replace the board), then sweep again",
		f->a.guid, f->a.port, a, b, f->b.port, c, f->c.port);
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_node_guid = {
	.kind = IBTOPO_FIND_DUPLICATE_NODE_GUID,
	.name = "duplicate-node-guid",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = duplicate_node_guid_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
};

static int
duplicate_port_guid_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	char a[96], b[96];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	return snprintf(
		buf, len,
		"port %d of %s and port %d of %s have one port GUID, 0x%08x%08x: the subnet manager and the SA tell ports apart by it, so one of them is unreachable by GUID (and by its GID); give each port its own GUID (flash the adapter's firmware with the GUIDs on its label), then restart the subnet manager",
		f->a.port, a, f->b.port, b, f->expected, f->actual);
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_port_guid = {
	.kind = IBTOPO_FIND_DUPLICATE_PORT_GUID,
	.name = "duplicate-port-guid",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = duplicate_port_guid_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
};

/* A LID range as a sentence names it: "LID 5" or "LIDs 4-7". */
static const char *lid_range(char *buf, size_t len, unsigned first,
			     unsigned last)
{
	if (first == last)
		snprintf(buf, len, "LID %u", first);
	else
		snprintf(buf, len, "LIDs %u-%u", first, last);
	return buf;
}

static int duplicate_lid_sentence(char *buf, size_t len,
				  const struct ibtopo_finding *f,
				  const struct ibtopo__shared_names *names)
{
	char a[96], b[96], ra[32], rb[32];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	return snprintf(
		buf, len,
		"port %d of %s (%s) and port %d of %s (%s) answer to LID %g: packets to it reach only one of them, as the forwarding tables choose; let the subnet manager assign LIDs afresh (a LID set by hand, or OpenSM's guid2lid file carried from another subnet, is the usual cause), then sweep again",
		f->a.port, a,
		lid_range(ra, sizeof(ra), f->expected, (unsigned)f->value),
		f->b.port, b,
		lid_range(rb, sizeof(rb), (unsigned)f->limit, f->actual),
		f->limit);
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_lid = {
	.kind = IBTOPO_FIND_DUPLICATE_LID,
	.name = "duplicate-lid",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = duplicate_lid_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.flags = IBTOPO__KIND_LID,
};

static int
duplicate_node_desc_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(
		buf, len,
		"%u nodes share the description '%s' (0x%016" PRIx64
		", 0x%016" PRIx64
		"%s): reports, node-name maps and scheduler files cannot tell them apart; give each its own (a host's /sys/class/infiniband/<device>/node_desc, a switch's system name), then sweep again",
		f->actual, f->a.node ? f->a.node : "", f->a.guid, f->b.guid,
		f->actual > 2 ? ", ..." : "");
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_node_desc = {
	.kind = IBTOPO_FIND_DUPLICATE_NODE_DESC,
	.name = "duplicate-node-desc",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = duplicate_node_desc_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
};
