/*
 * kinds_pkeys.c - the kinds of the partition checks
 * (analysis/check_pkeys.c), as ibdiagnet checks partitions: a PKey the
 * host's enforcing switch port lacks, a partition without a full member,
 * and one PKey held both ways among the hosts of one leaf. The PKey is
 * in f->num.pkey.pkey.
 */
#include "findings/findings-int.h"

#include <stdbool.h>
#include <stdio.h>

static const char *drop_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_PKEY_DROP_MISSING:
		return "missing";
	case IBTOPO_PKEY_DROP_LIMITED:
		return "limited-only";
	default:
		return NULL;
	}
}

static int pkey_switch_drop_sentence(char *buf, size_t len,
				     const struct ibtopo_finding *f,
				     const struct ibtopo__shared_names *names)
{
	char a[96], b[96];
	unsigned k = f->num.pkey.pkey;

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	if (f->subkind == IBTOPO_PKEY_DROP_LIMITED)
		return snprintf(
			buf, len,
			"%s port %d is a full member of partition 0x%04x (PKey 0x%04x), but its switch port, %s port %d, enforces partitions and holds it as limited (0x%04x): the host is a limited member in effect and cannot talk to the partition's other limited members; let the subnet manager write the switch port's PKeyTable again (its partition configuration names the host full), then sweep again",
			a, f->a.port, k & IBTOPO_PKEY_BASE, k, b, f->b.port,
			k & IBTOPO_PKEY_BASE);
	return snprintf(
		buf, len,
		"%s port %d holds PKey 0x%04x (partition 0x%04x), but its switch port, %s port %d, enforces partitions and lacks it: the switch drops the host's packets of that partition; let the subnet manager write the switch port's PKeyTable again (restart it, or fix the partition configuration that left the port out), or take the PKey off the host",
		a, f->a.port, k, k & IBTOPO_PKEY_BASE, b, f->b.port);
}

const struct ibtopo__finding_kind ibtopo__kind_pkey_switch_drop = {
	.kind = IBTOPO_FIND_PKEY_SWITCH_DROP,
	.name = "pkey-switch-drop",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = pkey_switch_drop_sentence,
	.subkind_name = drop_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_PKEY,
};

static const char *nofull_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_PKEY_NOFULL_DEFAULT:
		return "default-partition";
	case IBTOPO_PKEY_NOFULL_SM:
		return "sm-port";
	case IBTOPO_PKEY_NOFULL_PARTITION:
		return "partition";
	default:
		return NULL;
	}
}

static int
pkey_no_full_member_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	char a[96], b[96];
	unsigned k = f->num.pkey.pkey & IBTOPO_PKEY_BASE;

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	if (f->subkind == IBTOPO_PKEY_NOFULL_SM)
		return snprintf(
			buf, len,
			"the master subnet manager's port, %s port %d, is not a full member of the default partition (0x%04x): hosts that are limited members cannot reach it, so SA queries (path records, multicast joins) fail; make the SM's port a full member (OpenSM: SELF=full in the Default line of partitions.conf), then let it sweep",
			a, f->a.port, k);
	if (f->subkind == IBTOPO_PKEY_NOFULL_PARTITION)
		return snprintf(
			buf, len,
			"the %u members of partition 0x%04x (%s port %d, %s port %d, ...) are all limited members: a limited member talks only to full members, so none of them can talk to another; make the ports that serve the others full members in the subnet manager's partition configuration",
			f->num.pkey.ports, k, a, f->a.port, b, f->b.port);
	return snprintf(
		buf, len,
		"none of the %u ports in the default partition (0x%04x) is a full member, %s port %d among them: limited members talk only to full members, so no host reaches the subnet manager's SA nor another host over it; make the SM's port a full member, and the hosts as the site needs (OpenSM: Default=0x7fff : ALL=full, SELF=full in partitions.conf)",
		f->num.pkey.ports, k, a, f->a.port);
}

const struct ibtopo__finding_kind ibtopo__kind_pkey_no_full_member = {
	.kind = IBTOPO_FIND_PKEY_NO_FULL_MEMBER,
	.name = "pkey-no-full-member",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = pkey_no_full_member_sentence,
	.subkind_name = nofull_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_PKEY,
};

static const char *mixed_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_PKEY_MIXED_LIMITED:
		return "limited-among-full";
	case IBTOPO_PKEY_MIXED_FULL:
		return "full-among-limited";
	default:
		return NULL;
	}
}

static int
pkey_membership_mixed_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	char a[96], b[96], c[96];
	unsigned k = f->num.pkey.pkey & IBTOPO_PKEY_BASE;
	unsigned others = f->num.pkey.ports;
	bool limited = f->subkind == IBTOPO_PKEY_MIXED_LIMITED;

	ibtopo__sentence_end(names, &f->a, a, sizeof(a));
	ibtopo__sentence_end(names, &f->b, b, sizeof(b));
	ibtopo__sentence_end(names, &f->c, c, sizeof(c));
	return snprintf(
		buf, len,
		"%s port %d is a %s member of partition 0x%04x while %u other host%s on its leaf, %s, hold%s it as %s member%s (%s among them): if it is to work as they do, make it a %s member in the subnet manager's partition configuration; a limited member talks only to full members",
		a, f->a.port, limited ? "limited" : "full", k, others,
		others == 1 ? "" : "s", c, others == 1 ? "s" : "",
		others == 1 ? (limited ? "a full" : "a limited") :
			      (limited ? "full" : "limited"),
		others == 1 ? "" : "s", b, limited ? "full" : "limited");
}

const struct ibtopo__finding_kind ibtopo__kind_pkey_membership_mixed = {
	.kind = IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED,
	.name = "pkey-membership-mixed",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = pkey_membership_mixed_sentence,
	.subkind_name = mixed_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_PKEY,
};
