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
	.family = IBTOPO__FAMILY_NONE,
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
		"port %d of %s and port %d of %s have one port GUID, 0x%016" PRIx64
		": the subnet manager and the SA tell ports apart by it, so one of them is unreachable by GUID (and by its GID); give each port its own GUID (flash the adapter's firmware with the GUIDs on its label), then restart the subnet manager",
		f->a.port, a, f->b.port, b, f->num.port_guid.guid);
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_port_guid = {
	.kind = IBTOPO_FIND_DUPLICATE_PORT_GUID,
	.name = "duplicate-port-guid",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = duplicate_port_guid_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_PORT_GUID,
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
	const struct ibtopo_lids_detail *l = &f->num.lids;
	char a[96], b[96], ra[32], rb[32];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	return snprintf(
		buf, len,
		"port %d of %s (%s) and port %d of %s (%s) answer to LID %u: packets to it reach only one of them, as the forwarding tables choose; let the subnet manager assign LIDs afresh (a LID set by hand, or OpenSM's guid2lid file carried from another subnet, is the usual cause), then sweep again",
		f->a.port, a, lid_range(ra, sizeof(ra), l->a_first, l->a_last),
		f->b.port, b, lid_range(rb, sizeof(rb), l->lid, l->b_last),
		l->lid);
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_lid = {
	.kind = IBTOPO_FIND_DUPLICATE_LID,
	.name = "duplicate-lid",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = duplicate_lid_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_LIDS,
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
		f->num.nodes.nodes, f->a.node ? f->a.node : "", f->a.guid,
		f->b.guid, f->num.nodes.nodes > 2 ? ", ..." : "");
}

const struct ibtopo__finding_kind ibtopo__kind_duplicate_node_desc = {
	.kind = IBTOPO_FIND_DUPLICATE_NODE_DESC,
	.name = "duplicate-node-desc",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = duplicate_node_desc_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_NODES,
};

static const char *link_cap_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_LINK_CAP_ABOVE:
		return "above-capability";
	case IBTOPO_LINK_CAP_BELOW:
		return "below-capability";
	default:
		return NULL;
	}
}

/* An IBA MTU code in bytes ("2048"), "unknown" else. */
static const char *mtu_text(char *buf, size_t len, unsigned code)
{
	if (code >= 1 && code <= 5)
		snprintf(buf, len, "%u", 128u << code);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

/* An IBA VLCap/OperVLs code as VLs ("VL0-7"). */
static const char *vls_text(char *buf, size_t len, unsigned code)
{
	static const char *const vls[] = { "unknown", "VL0",   "VL0-1",
					   "VL0-3",   "VL0-7", "VL0-14" };

	snprintf(buf, len, "%s",
		 code < IBTOPO__ARRAY_SIZE(vls) ? vls[code] : "unknown");
	return buf;
}

typedef const char *cap_text_fn(char *buf, size_t len, unsigned code);

/* The ends' settings and what both take, as both sentences say it. */
static void link_cap_words(char *buf, size_t len,
			   const struct ibtopo_finding *f,
			   const struct ibtopo__shared_names *names,
			   const char *what, const char *cap, cap_text_fn *text)
{
	char a[96], b[96], va[16], vb[16], both[16];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	snprintf(
		buf, len,
		"%s is %s at %s port %d and %s at %s port %d, while the smaller %s of the two ports is %s",
		what, text(va, sizeof(va), f->num.link_cap.set_a), a, f->a.port,
		text(vb, sizeof(vb), f->num.link_cap.set_b), b, f->b.port, cap,
		text(both, sizeof(both), f->num.link_cap.cap));
}

static int mtu_mismatch_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	char w[400];

	link_cap_words(w, sizeof(w), f, names, "the link's NeighborMTU",
		       "MTUCap", mtu_text);
	if (f->subkind == IBTOPO_LINK_CAP_ABOVE)
		return snprintf(
			buf, len,
			"%s: an end sends packets larger than its peer takes, and they are dropped; let the subnet manager set the MTU again (restart it, or undo an MTU set by hand with ibportstate), then sweep again",
			w);
	return snprintf(
		buf, len,
		"%s: the link carries smaller packets than both ends take; find what set it lower (ibportstate, the subnet manager's configuration) and let the subnet manager set it again",
		w);
}

const struct ibtopo__finding_kind ibtopo__kind_mtu_mismatch = {
	.kind = IBTOPO_FIND_MTU_MISMATCH,
	.name = "mtu-mismatch",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = mtu_mismatch_sentence,
	.subkind_name = link_cap_subkind_name,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_LINK_CAP,
};

static int vl_mismatch_sentence(char *buf, size_t len,
				const struct ibtopo_finding *f,
				const struct ibtopo__shared_names *names)
{
	char w[400];

	link_cap_words(w, sizeof(w), f, names, "the link's OperVLs", "VLCap",
		       vls_text);
	if (f->subkind == IBTOPO_LINK_CAP_ABOVE)
		return snprintf(
			buf, len,
			"%s: an end sends on VLs its peer has no buffers for, and those packets are dropped; let the subnet manager set the VLs again (restart it, or undo VLs set by hand with ibportstate), then sweep again",
			w);
	return snprintf(
		buf, len,
		"%s: fewer VLs than both ends have, so QoS levels share VLs and a routing engine that needs VLs against credit loops may lack them; check the subnet manager's max_op_vls (OpenSM) and what else set them (ibportstate), then let it set them again",
		w);
}

const struct ibtopo__finding_kind ibtopo__kind_vl_mismatch = {
	.kind = IBTOPO_FIND_VL_MISMATCH,
	.name = "vl-mismatch",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = vl_mismatch_sentence,
	.subkind_name = link_cap_subkind_name,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_LINK_CAP,
};

static const char *sm_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_SM_NO_MASTER:
		return "no-master";
	case IBTOPO_SM_SEVERAL_MASTERS:
		return "several-masters";
	case IBTOPO_SM_STANDBY_OUTRANKS:
		return "standby-outranks-master";
	case IBTOPO_SM_MASTER_IDLE:
		return "master-idle";
	default:
		return NULL;
	}
}

static int sm_state_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	const struct ibtopo_sm_detail *sm = &f->num.sm;
	char a[96], b[96];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	if (f->subkind == IBTOPO_SM_SEVERAL_MASTERS)
		return snprintf(
			buf, len,
			"%u subnet managers are master, %s port %d and %s port %d among them: each programs the switches its own way and they undo each other; stop all but one, or give them distinct priorities so that the others become standby",
			sm->sms, a, f->a.port, b, f->b.port);
	if (f->subkind == IBTOPO_SM_STANDBY_OUTRANKS)
		return snprintf(
			buf, len,
			"the standby subnet manager on %s port %d has priority %u, above the master's %u (on %s port %d): it should have taken over; check that both see each other (SMInfo polling), or lower its priority so the setup says which one leads",
			a, f->a.port, sm->priority, sm->master_priority, b,
			f->b.port);
	if (f->subkind == IBTOPO_SM_MASTER_IDLE)
		return snprintf(
			buf, len,
			"the master subnet manager on %s port %d answered SMInfo twice with ActCount %u: an SM counts the SMPs it sends, its first answer among them, so this one no longer works (hung, or its port's agent answers for it) and no one configures the fabric, while its standbys still see a master; check its process and log, restart it or stop it so a standby takes over",
			a, f->a.port, sm->act_count);
	if (!sm->sms)
		return snprintf(
			buf, len,
			"no subnet manager runs in this fabric (no port says IsSM): the fabric keeps its last configuration, but a link that comes up or a node that joins stays down; start a subnet manager (opensm, or a managed switch's) with a standby elsewhere");
	return snprintf(
		buf, len,
		"none of the %u subnet manager%s found is master: no one configures the fabric; check the SM's log and state (sminfo), or restart it",
		sm->sms, sm->sms == 1 ? "" : "s");
}

const struct ibtopo__finding_kind ibtopo__kind_sm_state = {
	.kind = IBTOPO_FIND_SM_STATE,
	.name = "sm-state",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = sm_state_sentence,
	.subkind_name = sm_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_SM,
};

/* A firmware version packed as check_subnet.c packs it, as text. */
static const char *fw_text(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%u.%u.%04u", (unsigned)(v >> 32),
		 (unsigned)(v >> 16 & 0xffff), (unsigned)(v & 0xffff));
	return buf;
}

static int firmware_mismatch_sentence(char *buf, size_t len,
				      const struct ibtopo_finding *f,
				      const struct ibtopo__shared_names *names)
{
	char a[96], b[96], va[24], vb[24];

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	return snprintf(
		buf, len,
		"%s runs firmware %s while %u of the %u nodes of its model (0x%04x:0x%04x, PSID %s) run %s, %s among them: one model on several firmware versions behaves unevenly; update it to the version the fabric settled on (mlxfwmanager, flint), or all of them to a newer one",
		a, fw_text(va, sizeof(va), f->num.firmware.version),
		f->num.firmware.usual_nodes, f->num.firmware.model_nodes,
		f->vendor_id, f->device_id, f->note ? f->note : "?",
		fw_text(vb, sizeof(vb), f->num.firmware.usual_version), b);
}

const struct ibtopo__finding_kind ibtopo__kind_firmware_mismatch = {
	.kind = IBTOPO_FIND_FIRMWARE_MISMATCH,
	.name = "firmware-mismatch",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = firmware_mismatch_sentence,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_FIRMWARE,
};
