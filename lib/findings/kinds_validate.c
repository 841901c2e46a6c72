/*
 * kinds_validate.c - the kinds a validation against a plan produces
 * (compare/validate.c).
 */
#include "findings/findings-int.h"

static int missing_link_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	(void)f;
	(void)names;
	return snprintf(buf, len,
		"planned link is not cabled: connect these two ports");
}

const struct ibtopo__finding_kind ibtopo__kind_missing_link = {
	.kind = IBTOPO_FIND_MISSING_LINK,
	.name = "missing-link",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = missing_link_sentence,
	.draw = IBTOPO__DRAW_MISSING_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int extra_link_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	(void)f;
	(void)names;
	return snprintf(buf, len,
		"link is not in the plan: remove it, or add it to the plan");
}

const struct ibtopo__finding_kind ibtopo__kind_extra_link = {
	.kind = IBTOPO_FIND_EXTRA_LINK,
	.name = "extra-link",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = extra_link_sentence,
	.draw = IBTOPO__DRAW_EXTRA_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int miswired_link_sentence(char *buf, size_t len,
				  const struct ibtopo_finding *f,
				  const struct ibtopo__shared_names *names)
{
	char n1[96], n2[96], n3[96], n4[96];

	if (f->subkind == IBTOPO_MOVE_SWAPPED)
		return snprintf(buf, len,
			"two cables are swapped: the plan connects port %d of %s to port %d of %s and port %d of %s to port %d of %s; exchange their ends",
			f->a.port, ibtopo__sentence_end(names, &f->a, n1, sizeof(n1)),
			f->d.port, ibtopo__sentence_end(names, &f->d, n2, sizeof(n2)),
			f->c.port, ibtopo__sentence_end(names, &f->c, n3, sizeof(n3)),
			f->b.port, ibtopo__sentence_end(names, &f->b, n4, sizeof(n4)));
	return snprintf(buf, len,
		"cable goes to the wrong port: the plan connects port %d of %s to port %d of %s",
		f->c.port, ibtopo__sentence_end(names, &f->c, n1, sizeof(n1)),
		f->d.port, ibtopo__sentence_end(names, &f->d, n2, sizeof(n2)));
}

const struct ibtopo__finding_kind ibtopo__kind_miswired_link = {
	.kind = IBTOPO_FIND_MISWIRED_LINK,
	.name = "miswired-link",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = miswired_link_sentence,
	.subkind_name = ibtopo__move_subkind_name,
	.draw = IBTOPO__DRAW_MISWIRED_LINK,
	.family = IBTOPO__FAMILY_NONE,
};

static int missing_node_sentence(char *buf, size_t len,
				 const struct ibtopo_finding *f,
				 const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"planned node is absent (%u planned link%s): install, power or cable it",
		f->num.links.links, f->num.links.links == 1 ? "" : "s");
}

const struct ibtopo__finding_kind ibtopo__kind_missing_node = {
	.kind = IBTOPO_FIND_MISSING_NODE,
	.name = "missing-node",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = missing_node_sentence,
	.draw = IBTOPO__DRAW_MISSING_NODE,
	.family = IBTOPO__FAMILY_LINKS,
};

static int extra_node_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"node is not in the plan (%u link%s): remove it, or add it to the plan",
		f->num.links.links, f->num.links.links == 1 ? "" : "s");
}

const struct ibtopo__finding_kind ibtopo__kind_extra_node = {
	.kind = IBTOPO_FIND_EXTRA_NODE,
	.name = "extra-node",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = extra_node_sentence,
	.draw = IBTOPO__DRAW_EXTRA_NODE,
	.family = IBTOPO__FAMILY_LINKS,
};

static int speed_below_plan_sentence(char *buf, size_t len,
				     const struct ibtopo_finding *f,
				     const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"link runs at %s, below the planned %s: check the cable's rating and both ports' configuration",
		ibtopo__sentence_speed(f->num.rate.active),
		ibtopo__sentence_speed(f->num.rate.expected));
}

const struct ibtopo__finding_kind ibtopo__kind_speed_below_plan = {
	.kind = IBTOPO_FIND_SPEED_BELOW_PLAN,
	.name = "speed-below-plan",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = speed_below_plan_sentence,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_RATE,
	.unit = IBTOPO__UNIT_SPEED,
};

static int width_below_plan_sentence(char *buf, size_t len,
				     const struct ibtopo_finding *f,
				     const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"link runs at %s, below the planned %s: reseat or replace the cable",
		ibtopo__sentence_width(f->num.rate.active),
		ibtopo__sentence_width(f->num.rate.expected));
}

const struct ibtopo__finding_kind ibtopo__kind_width_below_plan = {
	.kind = IBTOPO_FIND_WIDTH_BELOW_PLAN,
	.name = "width-below-plan",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = width_below_plan_sentence,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_RATE,
	.unit = IBTOPO__UNIT_WIDTH,
};
