/*
 * families.c - the one table of what the machine formats write of a
 * finding's numbers: for each family (a member of f->num, see
 * <ibtopo/findings.h>), the JSON/CSV key of each field it shows and how.
 * A field without a key is said in the message only.
 */
#include "findings/findings-int.h"

#include <stddef.h>

#define U(key, unit, field)                                        \
	{                                                          \
		key, IBTOPO__UNIT_##unit, IBTOPO__DT_UNSIGNED,     \
			offsetof(struct ibtopo_finding, num.field) \
	}
#define D(key, unit, field)                                        \
	{                                                          \
		key, IBTOPO__UNIT_##unit, IBTOPO__DT_DOUBLE,       \
			offsetof(struct ibtopo_finding, num.field) \
	}
#define SUB(key, unit)                                          \
	{                                                       \
		key, IBTOPO__UNIT_##unit, IBTOPO__DT_SUBKIND, 0 \
	}

static const struct ibtopo__detail rate[] = {
	U("expected", KIND, rate.expected),
	U("active", KIND, rate.active),
};

static const struct ibtopo__detail rating[] = {
	U("expected", SPEED, rating.ports_speed),
	U("rated_speed", SPEED, rating.rated_speed),
};

static const struct ibtopo__detail reach[] = {
	U("active", SPEED, reach.active_speed),
	SUB("media", MEDIA),
	D("length_m", REAL, reach.length_m),
	D("reach_m", REAL, reach.reach_m),
};

static const struct ibtopo__detail unchecked[] = {
	U("active", SPEED, unchecked.active_speed),
};

static const struct ibtopo__detail links[] = {
	U("links", COUNT, links.links),
};

static const struct ibtopo__detail ports[] = {
	U("links", COUNT, ports.links),
};

static const struct ibtopo__detail paths[] = {
	U("min_paths", COUNT, paths.min_paths),
	U("paths", COUNT, paths.paths),
};

static const struct ibtopo__detail rail[] = {
	U("expected", COUNT, rail.expected),
};

static const struct ibtopo__detail change[] = {
	U("old", KIND, change.before),
	U("new", KIND, change.after),
};

static const struct ibtopo__detail counter[] = {
	SUB("counter", COUNTER),
	D("count", COUNT, counter.count),
	D("threshold", COUNT, counter.threshold),
};

static const struct ibtopo__detail growth[] = {
	SUB("counter", COUNTER),
	U("growth", COUNT, growth.growth),
	D("rate_per_hour", REAL, growth.rate_per_hour),
	D("interval_h", REAL, growth.interval_h),
};

static const struct ibtopo__detail measure[] = {
	D("measure", REAL, measure.measure),
	D("threshold", REAL, measure.threshold),
	U("interval_s", MS_AS_S, measure.interval_ms),
};

static const struct ibtopo__detail route[] = {
	U("lid", COUNT, route.dlid),
	D("routes", COUNT, route.routes),
};

static const struct ibtopo__detail detour[] = {
	U("lid", COUNT, detour.dlid),
	D("routes", COUNT, detour.routes),
	U("hops", COUNT, detour.hops),
	U("min_hops", COUNT, detour.min_hops),
};

static const struct ibtopo__detail route_change[] = {
	U("old", COUNT, route_change.old_port),
	U("new", COUNT, route_change.new_port),
	U("lid", COUNT, route_change.dlid),
};

static const struct ibtopo__detail mcast[] = {
	U("lid", COUNT, mcast.mlid),
};

static const struct ibtopo__detail lids[] = {
	U("lid", COUNT, lids.lid),
};

#define FAMILY(F, name, t) \
	[IBTOPO__FAMILY_##F] = { name, t, IBTOPO__ARRAY_SIZE(t) }
#define BARE(F, name) [IBTOPO__FAMILY_##F] = { name, NULL, 0 }

static const struct {
	const char *name;
	const struct ibtopo__detail *details;
	size_t n;
} families[IBTOPO__FAMILY_MAX_] = {
	BARE(NONE, "none"),
	FAMILY(RATE, "rate", rate),
	FAMILY(RATING, "rating", rating),
	FAMILY(REACH, "reach", reach),
	FAMILY(UNCHECKED, "unchecked", unchecked),
	BARE(CABLE_ROW, "cable_row"),
	FAMILY(LINKS, "links", links),
	FAMILY(PORTS, "ports", ports),
	FAMILY(PATHS, "paths", paths),
	BARE(TREE, "tree"),
	FAMILY(RAIL, "rail", rail),
	BARE(DRAGONFLY, "dragonfly"),
	FAMILY(CHANGE, "change", change),
	FAMILY(COUNTER, "counter", counter),
	FAMILY(GROWTH, "growth", growth),
	FAMILY(MEASURE, "measure", measure),
	FAMILY(ROUTE, "route", route),
	FAMILY(DETOUR, "detour", detour),
	FAMILY(ROUTE_CHANGE, "route_change", route_change),
	FAMILY(MCAST, "mcast", mcast),
	BARE(PORT_GUID, "port_guid"),
	FAMILY(LIDS, "lids", lids),
	BARE(NODES, "nodes"),
	BARE(LINK_CAP, "link_cap"),
	BARE(SM, "sm"),
	BARE(FIRMWARE, "firmware"),
	BARE(PKEY, "pkey"),
};

const struct ibtopo__detail *ibtopo__family_details(enum ibtopo__family fam,
						    size_t *n)
{
	*n = 0;
	if ((size_t)fam >= IBTOPO__ARRAY_SIZE(families))
		return NULL;
	*n = families[fam].n;
	return families[fam].details;
}

const char *ibtopo__family_name(enum ibtopo__family fam)
{
	if ((size_t)fam >= IBTOPO__ARRAY_SIZE(families))
		return NULL;
	return families[fam].name;
}
