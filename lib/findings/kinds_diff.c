/*
 * kinds_diff.c - the kinds a diff of two fabrics produces
 * (compare/diff.c).
 */
#include "findings/findings-int.h"

const char *ibtopo__move_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_MOVE_ONE_END:
		return "one-end";
	case IBTOPO_MOVE_BOTH_PORTS:
		return "both-ports";
	case IBTOPO_MOVE_SWAPPED:
		return "swapped";
	default:
		return NULL;
	}
}

static int node_added_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"node appeared with %u link%s: nothing to do if it was added on purpose; else find who cabled it",
		f->num.links.links, f->num.links.links == 1 ? "" : "s");
}

const struct ibtopo__finding_kind ibtopo__kind_node_added = {
	.kind = IBTOPO_FIND_NODE_ADDED,
	.name = "node-added",
	.severity = IBTOPO_SEV_INFO,
	.sentence = node_added_sentence,
	.draw = IBTOPO__DRAW_ADDED_NODE,
	.family = IBTOPO__FAMILY_LINKS,
};

static int node_removed_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"node disappeared (it had %u link%s): check its power and cables",
		f->num.links.links, f->num.links.links == 1 ? "" : "s");
}

const struct ibtopo__finding_kind ibtopo__kind_node_removed = {
	.kind = IBTOPO_FIND_NODE_REMOVED,
	.name = "node-removed",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = node_removed_sentence,
	.draw = IBTOPO__DRAW_REMOVED_NODE,
	.family = IBTOPO__FAMILY_LINKS,
};

static int node_renamed_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	char n1[96];

	return snprintf(buf, len,
		"node description changed to %s: update the node name map and the plan if that is intended",
		ibtopo__sentence_end(names, &f->c, n1, sizeof(n1)));
}

const struct ibtopo__finding_kind ibtopo__kind_node_renamed = {
	.kind = IBTOPO_FIND_NODE_RENAMED,
	.name = "node-renamed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = node_renamed_sentence,
	.family = IBTOPO__FAMILY_NONE,
};

static int link_added_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	(void)f;
	(void)names;
	return snprintf(buf, len,
			"link appeared: check that the plan has it (ibtopo validate)");
}

const struct ibtopo__finding_kind ibtopo__kind_link_added = {
	.kind = IBTOPO_FIND_LINK_ADDED,
	.name = "link-added",
	.severity = IBTOPO_SEV_INFO,
	.sentence = link_added_sentence,
	.draw = IBTOPO__DRAW_ADDED_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int link_removed_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	(void)f;
	(void)names;
	return snprintf(buf, len,
			"link disappeared: check the cable and both ports");
}

const struct ibtopo__finding_kind ibtopo__kind_link_removed = {
	.kind = IBTOPO_FIND_LINK_REMOVED,
	.name = "link-removed",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = link_removed_sentence,
	.draw = IBTOPO__DRAW_REMOVED_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int link_moved_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	char n1[96], n2[96], n3[96], n4[96];

	if (f->subkind == IBTOPO_MOVE_SWAPPED)
		return snprintf(buf, len,
			"two cables were swapped: port %d of %s now goes to port %d of %s, and port %d of %s to port %d of %s: swap them back, or update the plan",
			f->a.port, ibtopo__sentence_end(names, &f->a, n1, sizeof(n1)),
			f->d.port, ibtopo__sentence_end(names, &f->d, n2, sizeof(n2)),
			f->c.port, ibtopo__sentence_end(names, &f->c, n3, sizeof(n3)),
			f->b.port, ibtopo__sentence_end(names, &f->b, n4, sizeof(n4)));
	/* END A - END B are the old ends: say both, old and new */
	ibtopo__sentence_end(names, &f->a, n1, sizeof(n1));
	ibtopo__sentence_end(names, &f->b, n2, sizeof(n2));
	ibtopo__sentence_end(names, &f->c, n3, sizeof(n3));
	ibtopo__sentence_end(names, &f->d, n4, sizeof(n4));
	return snprintf(buf, len,
		"cable moved from port %d of %s and port %d of %s to port %d of %s and port %d of %s: move it back, or update the plan",
		f->a.port, n1, f->b.port, n2, f->c.port, n3, f->d.port, n4);
}

const struct ibtopo__finding_kind ibtopo__kind_link_moved = {
	.kind = IBTOPO_FIND_LINK_MOVED,
	.name = "link-moved",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = link_moved_sentence,
	.subkind_name = ibtopo__move_subkind_name,
	.draw = IBTOPO__DRAW_MOVED_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int link_speed_changed_sentence(char *buf, size_t len,
				       const struct ibtopo_finding *f,
				       const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len, "link speed changed from %s to %s%s",
		ibtopo__sentence_speed(f->num.change.before),
		ibtopo__sentence_speed(f->num.change.after),
		f->num.change.after < f->num.change.before ? ": check the cable and both ports" :
		": nothing to do if the link was upgraded");
}

/* Severity: warning when slower, info when faster (diff.c decides). */
const struct ibtopo__finding_kind ibtopo__kind_link_speed_changed = {
	.kind = IBTOPO_FIND_LINK_SPEED_CHANGED,
	.name = "link-speed-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = link_speed_changed_sentence,
	.draw = IBTOPO__DRAW_CHANGED_LINK,
	.family = IBTOPO__FAMILY_CHANGE,
	.unit = IBTOPO__UNIT_SPEED,
};

static int link_width_changed_sentence(char *buf, size_t len,
				       const struct ibtopo_finding *f,
				       const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len, "link width changed from %s to %s%s",
		ibtopo__sentence_width(f->num.change.before),
		ibtopo__sentence_width(f->num.change.after),
		ibtopo_width_lanes(f->num.change.after) <
				ibtopo_width_lanes(f->num.change.before) ?
		": reseat or replace the cable" :
		": nothing to do if the link was upgraded");
}

/* Severity: warning when narrower, info when wider (diff.c decides). */
const struct ibtopo__finding_kind ibtopo__kind_link_width_changed = {
	.kind = IBTOPO_FIND_LINK_WIDTH_CHANGED,
	.name = "link-width-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = link_width_changed_sentence,
	.draw = IBTOPO__DRAW_CHANGED_LINK,
	.family = IBTOPO__FAMILY_CHANGE,
	.unit = IBTOPO__UNIT_WIDTH,
};

static const char *port_state_subkind_name(int subkind)
{
	return subkind == IBTOPO_STATE_PHYSICAL ? "physical" : NULL;
}

static const char *state_text(const struct ibtopo_finding *f, unsigned v)
{
	return f->subkind == IBTOPO_STATE_PHYSICAL ? ibtopo_phys_state_name(v) :
						     ibtopo_port_state_name(v);
}

static int port_state_changed_sentence(char *buf, size_t len,
				       const struct ibtopo_finding *f,
				       const struct ibtopo__shared_names *names)
{
	bool up = f->subkind == IBTOPO_STATE_PHYSICAL ?
		f->num.change.after == 5 /* LinkUp */ :
		f->num.change.after == IBTOPO_PORT_STATE_ACTIVE;

	(void)names;
	return snprintf(buf, len, "port %sstate changed from %s to %s: %s",
		f->subkind == IBTOPO_STATE_PHYSICAL ? "physical " : "",
		state_text(f, f->num.change.before),
		state_text(f, f->num.change.after),
		up ? "nothing to do, it is up" :
		"check the port, its cable and the subnet manager");
}

const struct ibtopo__finding_kind ibtopo__kind_port_state_changed = {
	.kind = IBTOPO_FIND_PORT_STATE_CHANGED,
	.name = "port-state-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = port_state_changed_sentence,
	.subkind_name = port_state_subkind_name,
	.family = IBTOPO__FAMILY_CHANGE,
	.unit = IBTOPO__UNIT_PORT_STATE,
};

static int lid_changed_sentence(char *buf, size_t len,
				const struct ibtopo_finding *f,
				const struct ibtopo__shared_names *names)
{
	unsigned old_lid = f->num.change.before, new_lid = f->num.change.after;

	(void)names;
	if (!old_lid)
		return snprintf(buf, len,
			"LID %u assigned (it had none): note it where the port is addressed by LID",
			new_lid);
	if (!new_lid)
		return snprintf(buf, len,
			"LID %u lost (it has none now): check that a subnet manager runs",
			old_lid);
	return snprintf(buf, len,
		"LID changed from %u to %u: update what addresses it by LID (host files, job scripts, monitoring)",
		old_lid, new_lid);
}

const struct ibtopo__finding_kind ibtopo__kind_lid_changed = {
	.kind = IBTOPO_FIND_LID_CHANGED,
	.name = "lid-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = lid_changed_sentence,
	.family = IBTOPO__FAMILY_CHANGE,
	.unit = IBTOPO__UNIT_COUNT,
};
