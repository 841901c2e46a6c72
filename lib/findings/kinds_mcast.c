/*
 * kinds_mcast.c - the kinds of the multicast check (analysis/
 * routes_mcast.c). Their numbers (family mcast): the MLID ("lid" in
 * JSON; the section lists each MLID's group, MGID) and a count.
 * mcast-unreached: end a the receiver's port, b its switch port; count
 * the receivers on the tree; subkind 1 ("ipoib-broadcast") for the
 * IPoIB broadcast group (its MGID, or MLID 0xc000 without the SA's).
 * mcast-loop: ends a-b a link that closes the cycle; count the links
 * that close one. mcast-dead-end: end a the switch port of the mask, b
 * its peer; subkind enum ibtopo_mcast_dead_end. mcast-disconnected: end
 * a a switch of the stale piece; count its switches.
 */
#include "findings/findings-int.h"

/* "MLID 0xc000" */
static const char *group_words(char *buf, size_t len,
			       const struct ibtopo_finding *f)
{
	snprintf(buf, len, "MLID 0x%04x", f->num.mcast.mlid);
	return buf;
}

static const char *unreached_name(int subkind)
{
	return subkind == 1 ? "ipoib-broadcast" : NULL;
}

static int unreached_sentence(char *buf, size_t len,
			      const struct ibtopo_finding *f,
			      const struct ibtopo__shared_names *names)
{
	char g[96];

	(void)names;
	return snprintf(
		buf, len,
		"the multicast forwarding of %s does not reach this member "
		"from the tree that joins %.0f other%s%s; check the switch's "
		"multicast table for this port and have the subnet manager "
		"reprogram the group (or the host rejoin it)",
		group_words(g, sizeof(g), f), f->num.mcast.count,
		f->num.mcast.count == 1 ? "" : "s",
		f->subkind == 1 ? ": it is the IPoIB broadcast group, so ARP "
				  "and IPoIB neighbour discovery to this host "
				  "fail" :
				  "");
}

static int loop_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	char g[96];

	(void)names;
	return snprintf(
		buf, len,
		"the multicast forwarding of %s has a loop through this link "
		"(%.0f link%s too many for a tree): every packet to the group "
		"circles until dropped and floods its members; remove the "
		"port from one switch's multicast table (have the subnet "
		"manager reprogram the group)",
		group_words(g, sizeof(g), f), f->num.mcast.count,
		f->num.mcast.count == 1 ? "" : "s");
}

static const char *dead_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_MCAST_NO_LINK] = "no-link",
		[IBTOPO_MCAST_NO_ENTRY] = "no-entry",
		[IBTOPO_MCAST_ONE_WAY] = "one-way",
		[IBTOPO_MCAST_NO_WAY_ON] = "no-way-on",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

static int dead_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	static const char *const why[] = {
		[IBTOPO_MCAST_NO_LINK] = "this port has no link",
		[IBTOPO_MCAST_NO_ENTRY] = "the switch beyond has no entry "
					  "for it",
		[IBTOPO_MCAST_ONE_WAY] = "the switch beyond does not forward "
					 "this link back",
		[IBTOPO_MCAST_NO_WAY_ON] = "this switch forwards it only back "
					   "where it came from",
	};
	const char *w =
		f->subkind > 0 && (size_t)f->subkind < IBTOPO__ARRAY_SIZE(why) ?
			why[f->subkind] :
			"it goes nowhere";
	char g[96];

	(void)names;
	return snprintf(
		buf, len,
		"multicast traffic of %s is dropped here: %s; remove the port "
		"from the switch's multicast table or add the missing entry "
		"(have the subnet manager reprogram the group)",
		group_words(g, sizeof(g), f), w);
}

static int disc_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	char g[96], more[64] = "";

	(void)names;
	if (f->num.mcast.count > 1)
		snprintf(more, sizeof(more),
			 " (nor the %.0f switch%s joined "
			 "to it)",
			 f->num.mcast.count - 1,
			 f->num.mcast.count == 2 ? "" : "es");
	return snprintf(
		buf, len,
		"this switch holds an entry for %s but no member's traffic "
		"reaches it%s: a stale entry the subnet manager left; clear "
		"it (have the subnet manager reprogram the group)",
		group_words(g, sizeof(g), f), more);
}

const struct ibtopo__finding_kind ibtopo__kind_mcast_unreached = {
	.kind = IBTOPO_FIND_MCAST_UNREACHED,
	.name = "mcast-unreached",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = unreached_sentence,
	.subkind_name = unreached_name,
	.family = IBTOPO__FAMILY_MCAST,
};

const struct ibtopo__finding_kind ibtopo__kind_mcast_loop = {
	.kind = IBTOPO_FIND_MCAST_LOOP,
	.name = "mcast-loop",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = loop_sentence,
	.family = IBTOPO__FAMILY_MCAST,
};

const struct ibtopo__finding_kind ibtopo__kind_mcast_dead_end = {
	.kind = IBTOPO_FIND_MCAST_DEAD_END,
	.name = "mcast-dead-end",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = dead_sentence,
	.subkind_name = dead_name,
	.family = IBTOPO__FAMILY_MCAST,
};

const struct ibtopo__finding_kind ibtopo__kind_mcast_disconnected = {
	.kind = IBTOPO_FIND_MCAST_DISCONNECTED,
	.name = "mcast-disconnected",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = disc_sentence,
	.family = IBTOPO__FAMILY_MCAST,
};
