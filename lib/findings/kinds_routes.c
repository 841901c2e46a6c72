/*
 * kinds_routes.c - the kinds of the routing analysis (analysis/routes*.c).
 * End a is the switch and out-port where the route goes wrong. For
 * route-black-hole and route-loop end b is the far end of a's cable (the
 * peer; unset for a port without one) and end c the destination (a CA
 * port, or a switch for its LID); for the others end b is the
 * destination. Their numbers (route, detour): the destination LID and
 * the routes from CA ports the fault hits (to a switch's LID: host ->
 * switch routes). route-black-hole: subkind enum ibtopo_route_hole.
 * route-not-minimal (detour): also the cabled minimum of links from a
 * and the links taken. credit-loop: ends a-b the first link of the
 * cycle, the links in it (links), note = the links. route-changed
 * (route_change), route-load-changed (change): diff,
 * compare/diff_routes.c, the OLD/NEW out-port or CA routes through the
 * port.
 */
#include "findings/findings-int.h"

static const char *hole_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_HOLE_NO_ENTRY] = "no-entry",
		[IBTOPO_HOLE_NO_PORT] = "no-such-port",
		[IBTOPO_HOLE_UNCONNECTED] = "unconnected",
		[IBTOPO_HOLE_PORT_DOWN] = "port-down",
		[IBTOPO_HOLE_WRONG_NODE] = "wrong-node",
		[IBTOPO_HOLE_NO_TABLE] = "no-table",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

static int hole_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	static const char *const why[] = {
		[IBTOPO_HOLE_NO_ENTRY] = "has no entry (255) for",
		[IBTOPO_HOLE_NO_PORT] = "sends to a port the switch lacks",
		[IBTOPO_HOLE_UNCONNECTED] = "sends out of an unconnected port",
		[IBTOPO_HOLE_PORT_DOWN] = "sends over a link that is not active",
		[IBTOPO_HOLE_WRONG_NODE] = "delivers to a node that is not",
		[IBTOPO_HOLE_NO_TABLE] = "(no forwarding table read) drops",
	};
	const char *w = f->subkind > 0 &&
			(size_t)f->subkind < IBTOPO__ARRAY_SIZE(why) ?
			why[f->subkind] : "drops";
	char dst[96];

	return snprintf(buf, len,
		"the table %s LID %u (%s): %.0f CA route%s to it go%s "
		"nowhere; fix the entry (or the link) and let the subnet "
		"manager reroute",
		w, f->num.route.dlid,
		ibtopo__sentence_end(names, &f->c, dst, sizeof(dst)),
		f->num.route.routes, plural(f->num.route.routes),
		f->num.route.routes == 1 ? "es" : "");
}

static int loop_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	char dst[96];

	return snprintf(buf, len,
		"routes to LID %u (%s) come back to this switch: this "
		"entry sends them away from the destination and %.0f CA "
		"route%s loop until dropped; fix the entry",
		f->num.route.dlid,
		ibtopo__sentence_end(names, &f->c, dst, sizeof(dst)),
		f->num.route.routes, plural(f->num.route.routes));
}

static int long_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	char dst[96];

	return snprintf(buf, len,
		"routes to LID %u (%s) take %u links from here where the "
		"cables allow %u: %.0f CA route%s longer than needed (expected "
		"of up/down engines only where the shortest way breaks their "
		"rule)",
		f->num.detour.dlid,
		ibtopo__sentence_end(names, &f->b, dst, sizeof(dst)),
		f->num.detour.hops, f->num.detour.min_hops,
		f->num.detour.routes, plural(f->num.detour.routes));
}

static int credit_sentence(char *buf, size_t len,
			   const struct ibtopo_finding *f,
			   const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"the routes' channel dependencies form a cycle of %u links "
		"(a credit loop on one VL): traffic can deadlock; route with "
		"a deadlock-free engine (ftree, updn, dfsssp, lash)",
		f->num.links.links);
}

const struct ibtopo__finding_kind ibtopo__kind_route_black_hole = {
	.kind = IBTOPO_FIND_ROUTE_BLACK_HOLE,
	.name = "route-black-hole",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = hole_sentence,
	.subkind_name = hole_name,
	.family = IBTOPO__FAMILY_ROUTE,
};

const struct ibtopo__finding_kind ibtopo__kind_route_loop = {
	.kind = IBTOPO_FIND_ROUTE_LOOP,
	.name = "route-loop",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = loop_sentence,
	.family = IBTOPO__FAMILY_ROUTE,
};

const struct ibtopo__finding_kind ibtopo__kind_route_not_minimal = {
	.kind = IBTOPO_FIND_ROUTE_NOT_MINIMAL,
	.name = "route-not-minimal",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = long_sentence,
	.family = IBTOPO__FAMILY_DETOUR,
};

static int changed_sentence(char *buf, size_t len,
			    const struct ibtopo_finding *f,
			    const struct ibtopo__shared_names *names)
{
	char dst[96];

	return snprintf(buf, len,
		"routes to LID %u (%s) changed: this switch sent them out "
		"of port %u, now %u; %.0f switch%s changed the entry",
		f->num.route_change.dlid,
		ibtopo__sentence_end(names, &f->b, dst, sizeof(dst)),
		f->num.route_change.old_port, f->num.route_change.new_port,
		f->num.route_change.switches,
		f->num.route_change.switches == 1 ? "" : "es");
}

static int load_sentence(char *buf, size_t len,
			 const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"the port carried %u CA-to-CA route%s, now %u",
		f->num.change.before, f->num.change.before == 1 ? "" : "s",
		f->num.change.after);
}

const struct ibtopo__finding_kind ibtopo__kind_route_changed = {
	.kind = IBTOPO_FIND_ROUTE_CHANGED,
	.name = "route-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = changed_sentence,
	.family = IBTOPO__FAMILY_ROUTE_CHANGE,
};

const struct ibtopo__finding_kind ibtopo__kind_route_load_changed = {
	.kind = IBTOPO_FIND_ROUTE_LOAD_CHANGED,
	.name = "route-load-changed",
	.severity = IBTOPO_SEV_INFO,
	.sentence = load_sentence,
	.family = IBTOPO__FAMILY_CHANGE,
	.unit = IBTOPO__UNIT_COUNT,
};

const struct ibtopo__finding_kind ibtopo__kind_credit_loop = {
	.kind = IBTOPO_FIND_CREDIT_LOOP,
	.name = "credit-loop",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = credit_sentence,
	.family = IBTOPO__FAMILY_LINKS,
};
