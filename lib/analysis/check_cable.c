/*
 * check_cable.c - cables wrong for their link: rated below what both
 * ports can do, longer than their media reaches at the link's speed, or
 * looped back into the switch they came from.
 */
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

int ibtopo__check_cable_rating(struct ibtopo_findings *out,
			       const struct ibtopo_link *link, unsigned capable,
			       struct ibtopo_error *err)
{
	const struct ibtopo_cable *c = link->cable;
	struct ibtopo_finding f;

	if (!c || !c->rated_speed || !capable || c->rated_speed >= capable)
		return 0;
	ibtopo__finding_init_link(&f, IBTOPO_FIND_CABLE_UNDERRATED, link);
	f.num.rating.ports_speed = capable;
	f.num.rating.rated_speed = c->rated_speed;
	f.cause = IBTOPO_CAUSE_CABLE;
	return ibtopo_findings_add(out, &f, err);
}

/*
 * The reach at the link's speed, or the longest reach of a faster speed
 * up to the cable's rating (a cable qualified at NDR holds HDR at least
 * as far). Without a row for the link's own speed nothing is known.
 */
static double reach_for(const struct ibtopo__reach *reach,
			const struct ibtopo_link *link)
{
	const struct ibtopo_cable *c = link->cable;
	double best = ibtopo__reach_lookup(reach, link->speed, c->media);

	if (best <= 0)
		return 0;
	for (unsigned s = link->speed << 1; s && s <= c->rated_speed; s <<= 1) {
		double r = ibtopo__reach_lookup(reach, s, c->media);

		if (r > best)
			best = r;
	}
	return best;
}

int ibtopo__check_cable_length(struct ibtopo_findings *out,
			       const struct ibtopo_link *link,
			       const struct ibtopo__reach *reach,
			       struct ibtopo_error *err)
{
	const struct ibtopo_cable *c = link->cable;
	struct ibtopo_finding f;
	double limit;

	if (!c || c->length_m <= 0 || c->media == IBTOPO_MEDIA_UNKNOWN ||
	    !link->speed)
		return 0;
	limit = reach_for(reach, link);
	if (limit <= 0) {
		/* said, not skipped: the table has no figure to hold it to */
		ibtopo__finding_init_link(&f, IBTOPO_FIND_CABLE_NOT_CHECKED, link);
		f.num.unchecked.length_m = c->length_m;
		f.num.unchecked.active_speed = link->speed;
		f.subkind = (int)c->media;
		return ibtopo_findings_add(out, &f, err);
	}
	if (c->length_m <= limit)
		return 0;
	ibtopo__finding_init_link(&f, IBTOPO_FIND_CABLE_OVER_LENGTH, link);
	f.num.reach.length_m = c->length_m;
	f.num.reach.reach_m = limit;
	f.num.reach.active_speed = link->speed;
	f.subkind = (int)c->media;
	return ibtopo_findings_add(out, &f, err);
}

int ibtopo__check_loopback(struct ibtopo_findings *out,
			   const struct ibtopo_link *link,
			   struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	if (link->a->node != link->b->node ||
	    link->a->node->type != IBTOPO_NODE_SWITCH)
		return 0;
	ibtopo__finding_init_link(&f, IBTOPO_FIND_LOOPBACK_CABLE, link);
	return ibtopo_findings_add(out, &f, err);
}
