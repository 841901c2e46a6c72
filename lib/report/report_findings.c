/*
 * report_findings.c - findings into words: the sentence of each kind, and
 * the table / JSON / CSV every report command (analyze, validate, diff)
 * writes. Checks produce data; this file is the only one that phrases it.
 */
#include "ibtopo-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ sentences */

static const char *speed_or_unknown(unsigned bit)
{
	return bit ? ibtopo_speed_name(bit) : "an unknown speed";
}

static const char *width_or_unknown(unsigned bit)
{
	return bit ? ibtopo_width_name(bit) : "an unknown width";
}

/*
 * An end as a sentence names it. `names` (NULL: none known) are the
 * descriptions several nodes share: those get the end's GUID.
 */
static const char *end_name(const struct ibtopo__shared_names *names,
			    const struct ibtopo_end *e, char *buf, size_t len)
{
	if (e->node && *e->node && e->guid &&
	    ibtopo__shared_names_has(names, e->node))
		snprintf(buf, len, "'%s' (0x%016" PRIx64 ")", e->node, e->guid);
	else if (e->node && *e->node)
		snprintf(buf, len, "'%s'", e->node);
	else if (e->guid)
		snprintf(buf, len, "0x%016" PRIx64, e->guid);
	else
		snprintf(buf, len, "an unknown node");
	return buf;
}

static const char *port_state_text(const struct ibtopo_finding *f, unsigned v)
{
	return f->subkind == IBTOPO_STATE_PHYSICAL ? ibtopo_phys_state_name(v) :
						     ibtopo_port_state_name(v);
}

/*
 * An info speed-downgrade: a link slower than its class, explained by a
 * model that never runs faster (device-limit) or not at all (unknown).
 */
static int slow_link_message(char *buf, size_t len, const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	const char *act = speed_or_unknown(f->actual);
	const char *exp = speed_or_unknown(f->expected);
	char peers[160], model[160], all[32], n1[96], n2[96];
	const struct ibtopo_end *fast;

	if (f->subkind == IBTOPO_PEER_SWITCHES) {
		fast = f->c.guid && f->c.guid == f->a.guid ? &f->b : &f->a;
		snprintf(peers, sizeof(peers), "the other inter-switch links of %s run",
			 end_name(names, fast, n1, sizeof(n1)));
	} else if (f->subkind == IBTOPO_PEER_SWITCH_MODEL) {
		snprintf(peers, sizeof(peers),
			 "other switches of this model run their host links at");
	} else {
		snprintf(peers, sizeof(peers), "the other host links on this switch run");
	}
	if (f->value == 2)
		snprintf(all, sizeof(all), "both");
	else
		snprintf(all, sizeof(all), "all %g", f->value);
	if (f->cause == IBTOPO_CAUSE_CABLE)
		return snprintf(buf, len,
			"link runs at %s while %s %s, and its cable is rated lower: replace it with a faster-rated cable",
			act, peers, exp);
	if (f->cause != IBTOPO_CAUSE_DEVICE_LIMIT)
		return snprintf(buf, len,
			"link runs at %s while %s %s; no other adapter of its model is in this fabric to tell a slower adapter from a bad link: check the adapter's top speed, then reseat or replace the cable",
			act, peers, exp);
	if (f->subkind == IBTOPO_PEER_SWITCHES) {
		if (f->device_id)
			snprintf(model, sizeof(model),
				 "switch model 0x%04x:0x%04x (%s)", f->vendor_id,
				 f->device_id, end_name(names, &f->c, n2, sizeof(n2)));
		else
			snprintf(model, sizeof(model), "switch %s",
				 end_name(names, &f->c, n2, sizeof(n2)));
		return snprintf(buf, len,
			"link runs at %s while %s %s; %s runs at most %s on %s of its links in this fabric: it limits this link, and only a faster switch would reach %s",
			act, peers, exp, model, act, all, exp);
	}
	if (f->device_id)
		snprintf(model, sizeof(model), "adapter model 0x%04x:0x%04x",
			 f->vendor_id, f->device_id);
	else
		snprintf(model, sizeof(model), "this adapter model");
	return snprintf(buf, len,
		"link runs at %s while %s %s; %s runs at most %s on %s of its links in this fabric, so the adapter is likely limited to %s: replace it to reach %s",
		act, peers, exp, model, act, all, act, exp);
}

static int message(char *buf, size_t len, const struct ibtopo_finding *f,
		   const struct ibtopo__shared_names *names)
{
	char n1[96], n2[96];
	const char *what;

	if (!f)
		return IBTOPO_EINVAL;
	if (!buf)
		len = 0;
	switch (f->kind) {
	case IBTOPO_FIND_SPEED_DOWNGRADE:
		if (f->evidence == IBTOPO_EVIDENCE_PEERS &&
		    f->severity == IBTOPO_SEV_INFO)
			return slow_link_message(buf, len, f, names);
		if (f->evidence == IBTOPO_EVIDENCE_PEERS) {
			what = f->subkind == IBTOPO_PEER_SWITCHES ?
				"both switches run %s on their other inter-switch links" :
				f->subkind == IBTOPO_PEER_MODEL ?
				"the switch runs %s to other adapters and this adapter model runs at least that elsewhere" :
				"the switch runs %s to other adapters of the same model";
			snprintf(n1, sizeof(n1), what, speed_or_unknown(f->expected));
			return snprintf(buf, len,
				"link runs at %s while %s: %s",
				speed_or_unknown(f->actual), n1,
				f->cause == IBTOPO_CAUSE_CABLE ?
				"its cable is rated lower; replace it with a faster-rated cable" :
				"reseat or replace the cable, then check both ports' configuration");
		}
		switch (f->cause) {
		case IBTOPO_CAUSE_CABLE:
			return snprintf(buf, len,
				"link runs at %s although both ports support %s: the cable is rated below %s; replace it with a cable rated %s",
				speed_or_unknown(f->actual), speed_or_unknown(f->expected),
				speed_or_unknown(f->expected), speed_or_unknown(f->expected));
		case IBTOPO_CAUSE_PORT_CONFIG:
			return snprintf(buf, len,
				"link runs at %s although both ports support %s: %s is not enabled on both ports; enable it and retrain the link",
				speed_or_unknown(f->actual), speed_or_unknown(f->expected),
				speed_or_unknown(f->expected));
		default:
			return snprintf(buf, len,
				"link runs at %s although both ports support and enable %s: reseat or replace the cable or optics",
				speed_or_unknown(f->actual), speed_or_unknown(f->expected));
		}
	case IBTOPO_FIND_WIDTH_DOWNGRADE:
		if (f->evidence == IBTOPO_EVIDENCE_PORT_INFO)
			return snprintf(buf, len,
				"link runs at %s although both ports support %s: %s",
				width_or_unknown(f->actual), width_or_unknown(f->expected),
				f->cause == IBTOPO_CAUSE_PORT_CONFIG ?
				"enable that width on both ports and retrain the link" :
				"lanes failed to train; reseat or replace the cable");
		return snprintf(buf, len,
			"link runs at %s while %s run %s: reseat or replace the cable (a lane is likely bad)",
			width_or_unknown(f->actual),
			f->subkind == IBTOPO_PEER_SWITCHES ?
			"both switches' other inter-switch links" :
			f->subkind == IBTOPO_PEER_HOSTS ?
			"the switch's links to the same adapter model" :
			f->subkind == IBTOPO_PEER_MODEL ?
			"the switch's other host links and this adapter model elsewhere" :
			"both nodes' other links",
			width_or_unknown(f->expected));
	case IBTOPO_FIND_CABLE_OVER_LENGTH:
		return snprintf(buf, len,
			"%s cable is %g m, beyond the %g m its media reaches at %s: replace it with a shorter cable, or with optics rated for the distance",
			f->subkind ? ibtopo_media_name((enum ibtopo_media)f->subkind) :
			"the", f->value, f->limit, speed_or_unknown(f->actual));
	case IBTOPO_FIND_CABLE_UNDERRATED:
		return snprintf(buf, len,
			"cable is rated %s but both ports run up to %s: replace it with a cable rated %s",
			speed_or_unknown(f->actual), speed_or_unknown(f->expected),
			speed_or_unknown(f->expected));
	case IBTOPO_FIND_LOOPBACK_CABLE:
		return snprintf(buf, len,
			"both ends of this cable are on switch %s: unplug it, or move one end to the port it was planned for",
			end_name(names, &f->a, n1, sizeof(n1)));
	case IBTOPO_FIND_LOW_PATH_DIVERSITY:
		if (f->subkind == IBTOPO_LPD_SINGLE_LINK)
			return snprintf(buf, len,
				"server has a single link: cable a second port to another leaf switch so that one cable or switch cannot cut it off");
		if (f->subkind == IBTOPO_LPD_ONE_SWITCH)
			return snprintf(buf, len,
				"server's %g links all end on switch %s: move one to another leaf switch so that this switch cannot cut it off",
				f->value, end_name(names, &f->b, n1, sizeof(n1)));
		if (f->subkind == IBTOPO_LPD_LEAF_PAIR)
			return snprintf(buf, len,
				"leaf switch has only %u independent path%s to %s (fewer than %u), as to %g leaf switch%s in all: cable more uplinks, to more spines, so that no single cable or switch carries their traffic",
				f->actual, f->actual == 1 ? "" : "s",
				end_name(names, &f->b, n1, sizeof(n1)), f->expected, f->value,
				f->value == 1 ? "" : "es");
		return snprintf(buf, len,
			"only %u independent path%s between these ends, fewer than %u: add links so that no single cable or switch carries all their traffic",
			f->actual, f->actual == 1 ? "" : "s", f->expected);
	case IBTOPO_FIND_FAT_TREE_VIOLATION:
		switch (f->subkind) {
		case IBTOPO_FTV_SAME_LEVEL:
			return snprintf(buf, len,
				"link joins two switches of level %u: fat-tree routing never uses it; recable it to a switch one level up",
				f->actual);
		case IBTOPO_FTV_LEVEL_SKIP:
			return snprintf(buf, len,
				"link joins level %u to level %u, skipping a level: recable it to a switch of level %u",
				f->expected, f->actual, f->expected + 1);
		case IBTOPO_FTV_CA_ON_NON_LEAF:
			return snprintf(buf, len,
				"server is cabled to a level-%u switch, not to a leaf: move it to a leaf switch (the subnet manager would rank that switch as a leaf)",
				f->actual);
		case IBTOPO_FTV_UNEVEN_UPLINKS:
			return snprintf(buf, len,
				"switch has %u uplink%s where most of its level have %u: cable the missing uplinks",
				f->actual, f->actual == 1 ? "" : "s", f->expected);
		case IBTOPO_FTV_UPLINKS_PILED:
			return snprintf(buf, len,
				"%u uplinks go to %s and none to %s, where %u per upper switch is usual: move the extra cables to %s",
				f->actual, end_name(names, &f->b, n1, sizeof(n1)),
				end_name(names, &f->c, n2, sizeof(n2)), f->expected, n2);
		case IBTOPO_FTV_CA_TO_CA:
			return snprintf(buf, len,
				"two CAs are cabled to each other, outside the switched fabric: cable each to a leaf switch");
		default:
			break;
		}
		return snprintf(buf, len,
			"link breaks the fat-tree layout%s%s: recable it so that every link joins adjacent levels",
			f->note ? ": " : "", f->note ? f->note : "");
	case IBTOPO_FIND_MISSING_LINK:
		return snprintf(buf, len,
			"planned link is not cabled: connect these two ports");
	case IBTOPO_FIND_EXTRA_LINK:
		return snprintf(buf, len,
			"link is not in the plan: remove it, or add it to the plan");
	case IBTOPO_FIND_MISWIRED_LINK:
		if (f->subkind == IBTOPO_MOVE_SWAPPED) {
			char n3[96], n4[96];

			return snprintf(buf, len,
				"two cables are swapped: the plan connects port %d of %s to port %d of %s and port %d of %s to port %d of %s; exchange their ends",
				f->a.port, end_name(names, &f->a, n1, sizeof(n1)),
				f->d.port, end_name(names, &f->d, n2, sizeof(n2)),
				f->c.port, end_name(names, &f->c, n3, sizeof(n3)),
				f->b.port, end_name(names, &f->b, n4, sizeof(n4)));
		}
		return snprintf(buf, len,
			"cable goes to the wrong port: the plan connects port %d of %s to port %d of %s",
			f->c.port, end_name(names, &f->c, n1, sizeof(n1)),
			f->d.port, end_name(names, &f->d, n2, sizeof(n2)));
	case IBTOPO_FIND_MISSING_NODE:
		return snprintf(buf, len,
			"planned node is absent (%u planned link%s): install, power or cable it",
			f->expected, f->expected == 1 ? "" : "s");
	case IBTOPO_FIND_EXTRA_NODE:
		return snprintf(buf, len,
			"node is not in the plan (%u link%s): remove it, or add it to the plan",
			f->actual, f->actual == 1 ? "" : "s");
	case IBTOPO_FIND_SPEED_BELOW_PLAN:
		return snprintf(buf, len,
			"link runs at %s, below the planned %s: check the cable's rating and both ports' configuration",
			speed_or_unknown(f->actual), speed_or_unknown(f->expected));
	case IBTOPO_FIND_WIDTH_BELOW_PLAN:
		return snprintf(buf, len,
			"link runs at %s, below the planned %s: reseat or replace the cable",
			width_or_unknown(f->actual), width_or_unknown(f->expected));
	case IBTOPO_FIND_NODE_ADDED:
		return snprintf(buf, len, "node appeared with %u link%s",
				f->actual, f->actual == 1 ? "" : "s");
	case IBTOPO_FIND_NODE_REMOVED:
		return snprintf(buf, len,
			"node disappeared (it had %u link%s): check its power and cables",
			f->expected, f->expected == 1 ? "" : "s");
	case IBTOPO_FIND_NODE_RENAMED:
		return snprintf(buf, len, "node description changed to %s",
				end_name(names, &f->c, n1, sizeof(n1)));
	case IBTOPO_FIND_LINK_ADDED:
		return snprintf(buf, len, "link appeared");
	case IBTOPO_FIND_LINK_REMOVED:
		return snprintf(buf, len,
			"link disappeared: check the cable and both ports");
	case IBTOPO_FIND_LINK_MOVED:
		if (f->subkind == IBTOPO_MOVE_SWAPPED) {
			char n3[96], n4[96];

			return snprintf(buf, len,
				"two cables were swapped: port %d of %s now goes to port %d of %s, and port %d of %s to port %d of %s",
				f->a.port, end_name(names, &f->a, n1, sizeof(n1)),
				f->d.port, end_name(names, &f->d, n2, sizeof(n2)),
				f->c.port, end_name(names, &f->c, n3, sizeof(n3)),
				f->b.port, end_name(names, &f->b, n4, sizeof(n4)));
		}
		return snprintf(buf, len,
			"cable moved: it now joins port %d of %s and port %d of %s",
			f->c.port, end_name(names, &f->c, n1, sizeof(n1)),
			f->d.port, end_name(names, &f->d, n2, sizeof(n2)));
	case IBTOPO_FIND_LINK_SPEED_CHANGED:
		return snprintf(buf, len, "link speed changed from %s to %s%s",
			speed_or_unknown(f->expected), speed_or_unknown(f->actual),
			f->actual < f->expected ? ": check the cable and both ports" : "");
	case IBTOPO_FIND_LINK_WIDTH_CHANGED:
		return snprintf(buf, len, "link width changed from %s to %s%s",
			width_or_unknown(f->expected), width_or_unknown(f->actual),
			ibtopo_width_lanes(f->actual) < ibtopo_width_lanes(f->expected) ?
			": reseat or replace the cable" : "");
	case IBTOPO_FIND_PORT_STATE_CHANGED:
		return snprintf(buf, len, "port %sstate changed from %s to %s",
			f->subkind == IBTOPO_STATE_PHYSICAL ? "physical " : "",
			port_state_text(f, f->expected), port_state_text(f, f->actual));
	case IBTOPO_FIND_LID_CHANGED:
		return snprintf(buf, len, "LID changed from %u to %u",
				f->expected, f->actual);
	case IBTOPO_FIND_PORT_ERRORS:
		return snprintf(buf, len, "%s is %.0f (threshold %.0f)%s",
			ibtopo_counter_name(f->subkind), f->value, f->limit,
			f->note ? "; saturated: the true count is higher" : "");
	case IBTOPO_FIND_PORT_ERROR_RATE:
	case IBTOPO_FIND_LINK_FLAPPING:
		/* the interval: seconds below an hour, else hours */
		if (f->limit < 1)
			snprintf(n1, sizeof(n1), "%.0f s", f->limit * 3600);
		else
			snprintf(n1, sizeof(n1), "%.1f h", f->limit);
		if (f->note && strcmp(f->note, "reset") == 0)
			return snprintf(buf, len, "%s was reset between the "
				"snapshots and counts %u since (%s)",
				ibtopo_counter_name(f->subkind), f->actual, n1);
		if (f->kind == IBTOPO_FIND_LINK_FLAPPING)
			return snprintf(buf, len, "link went down %u times%s in "
				"%s (%.1f/h): a flapping link, check the cable",
				f->actual, f->note ? " or more (LinkDownedCounter "
				"is saturated)" : "", n1, f->value);
		return snprintf(buf, len, "%s grew by %u%s in %s (%.1f/h)",
			ibtopo_counter_name(f->subkind), f->actual,
			f->note ? " or more (saturated)" : "", n1, f->value);
	default:
		return snprintf(buf, len, "%s", ibtopo_finding_kind_name(f->kind));
	}
}

int ibtopo_finding_message(char *buf, size_t len, const struct ibtopo_finding *f)
{
	return message(buf, len, f, NULL);
}

/* -------------------------------------------------------------- columns */

struct ctx {
	char scratch[1024];
	/* text: descriptions that name more than one node */
	struct ibtopo__shared_names names;
};

#define FND(r) ((const struct ibtopo_finding *)(r))
#define CTX(x) ((struct ctx *)(x))

static void set_str(struct ibtopo__cell *c, const char *s)
{
	c->type = IBTOPO__STR;
	c->s = s;
}

static void set_int(struct ibtopo__cell *c, int64_t v)
{
	c->type = IBTOPO__INT;
	c->i = v;
}

static void set_real(struct ibtopo__cell *c, double v)
{
	c->type = IBTOPO__REAL;
	c->d = v;
}

static bool end_is_set(const struct ibtopo_end *e)
{
	return e->node || e->guid;
}

static bool is_speed_kind(enum ibtopo_finding_kind k)
{
	return k == IBTOPO_FIND_SPEED_DOWNGRADE || k == IBTOPO_FIND_SPEED_BELOW_PLAN;
}

static bool is_width_kind(enum ibtopo_finding_kind k)
{
	return k == IBTOPO_FIND_WIDTH_DOWNGRADE || k == IBTOPO_FIND_WIDTH_BELOW_PLAN;
}

static void g_kind(const void *r, void *x, struct ibtopo__cell *c)
{
	set_str(c, ibtopo_finding_kind_name(FND(r)->kind));
}

static void g_severity(const void *r, void *x, struct ibtopo__cell *c)
{
	set_str(c, ibtopo_severity_name(FND(r)->severity));
}

#define END_GETTERS(E)							\
static void g_##E##_node(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.node)						\
		set_str(c, FND(r)->E.node);				\
}									\
static void g_##E##_guid(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.guid) {						\
		c->type = IBTOPO__GUID;					\
		c->g = FND(r)->E.guid;					\
	}								\
}									\
static void g_##E##_port(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.port >= 0 && end_is_set(&FND(r)->E))		\
		set_int(c, FND(r)->E.port);				\
}

END_GETTERS(a)
END_GETTERS(b)
END_GETTERS(c)
END_GETTERS(d)

static void g_message(const void *r, void *x, struct ibtopo__cell *c)
{
	message(CTX(x)->scratch, sizeof(CTX(x)->scratch), FND(r), &CTX(x)->names);
	set_str(c, CTX(x)->scratch);
}

static void g_active(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);

	if (!f->actual)
		return;
	if (is_speed_kind(f->kind) || f->kind == IBTOPO_FIND_CABLE_OVER_LENGTH)
		set_str(c, ibtopo_speed_name(f->actual));
	else if (is_width_kind(f->kind))
		set_str(c, ibtopo_width_name(f->actual));
}

static void g_expected(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);

	if (!f->expected)
		return;
	if (is_speed_kind(f->kind) || f->kind == IBTOPO_FIND_CABLE_UNDERRATED)
		set_str(c, ibtopo_speed_name(f->expected));
	else if (is_width_kind(f->kind))
		set_str(c, ibtopo_width_name(f->expected));
}

static void g_rated(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_CABLE_UNDERRATED && FND(r)->actual)
		set_str(c, ibtopo_speed_name(FND(r)->actual));
}

static void old_new(const struct ibtopo_finding *f, unsigned v,
		    struct ibtopo__cell *c)
{
	switch (f->kind) {
	case IBTOPO_FIND_LINK_SPEED_CHANGED:
		if (v)
			set_str(c, ibtopo_speed_name(v));
		break;
	case IBTOPO_FIND_LINK_WIDTH_CHANGED:
		if (v)
			set_str(c, ibtopo_width_name(v));
		break;
	case IBTOPO_FIND_PORT_STATE_CHANGED:
		set_str(c, port_state_text(f, v));
		break;
	case IBTOPO_FIND_LID_CHANGED:
		set_int(c, v);
		break;
	default:
		break;
	}
}

static void g_old(const void *r, void *x, struct ibtopo__cell *c)
{
	old_new(FND(r), FND(r)->expected, c);
}

static void g_new(const void *r, void *x, struct ibtopo__cell *c)
{
	old_new(FND(r), FND(r)->actual, c);
}

static void g_links(const void *r, void *x, struct ibtopo__cell *c)
{
	switch (FND(r)->kind) {
	case IBTOPO_FIND_NODE_ADDED:
	case IBTOPO_FIND_EXTRA_NODE:
		set_int(c, FND(r)->actual);
		break;
	case IBTOPO_FIND_NODE_REMOVED:
	case IBTOPO_FIND_MISSING_NODE:
		set_int(c, FND(r)->expected);
		break;
	default:
		break;
	}
}

static void g_paths(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_LOW_PATH_DIVERSITY)
		set_int(c, FND(r)->actual);
}

static void g_min_paths(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_LOW_PATH_DIVERSITY)
		set_int(c, FND(r)->expected);
}

static void g_evidence(const void *r, void *x, struct ibtopo__cell *c)
{
	switch (FND(r)->evidence) {
	case IBTOPO_EVIDENCE_PORT_INFO:
		set_str(c, "port-info");
		break;
	case IBTOPO_EVIDENCE_PEERS:
		set_str(c, "peers");
		break;
	case IBTOPO_EVIDENCE_PLAN:
		set_str(c, "plan");
		break;
	default:
		break;
	}
}

static void g_cause(const void *r, void *x, struct ibtopo__cell *c)
{
	switch (FND(r)->cause) {
	case IBTOPO_CAUSE_CABLE:
		set_str(c, "cable");
		break;
	case IBTOPO_CAUSE_PORT_CONFIG:
		set_str(c, "port-config");
		break;
	case IBTOPO_CAUSE_UNKNOWN:
		set_str(c, "unknown");
		break;
	case IBTOPO_CAUSE_DEVICE_LIMIT:
		set_str(c, "device-limit");
		break;
	default:
		break;
	}
}

static void g_media(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_CABLE_OVER_LENGTH && FND(r)->subkind)
		set_str(c, ibtopo_media_name((enum ibtopo_media)FND(r)->subkind));
}

static void g_length(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_CABLE_OVER_LENGTH)
		set_real(c, FND(r)->value);
}

static bool is_health_kind(enum ibtopo_finding_kind k)
{
	return k == IBTOPO_FIND_PORT_ERRORS || k == IBTOPO_FIND_PORT_ERROR_RATE ||
	       k == IBTOPO_FIND_LINK_FLAPPING;
}

static void g_counter(const void *r, void *x, struct ibtopo__cell *c)
{
	if (is_health_kind(FND(r)->kind))
		set_str(c, ibtopo_counter_name(FND(r)->subkind));
}

static void g_count(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_PORT_ERRORS)
		set_int(c, (int64_t)FND(r)->value);
}

static void g_threshold(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_PORT_ERRORS)
		set_int(c, (int64_t)FND(r)->limit);
}

static void g_growth(const void *r, void *x, struct ibtopo__cell *c)
{
	if (is_health_kind(FND(r)->kind) &&
	    FND(r)->kind != IBTOPO_FIND_PORT_ERRORS)
		set_int(c, FND(r)->actual);
}

static void g_rate(const void *r, void *x, struct ibtopo__cell *c)
{
	if (is_health_kind(FND(r)->kind) &&
	    FND(r)->kind != IBTOPO_FIND_PORT_ERRORS)
		set_real(c, FND(r)->value);
}

static void g_interval(const void *r, void *x, struct ibtopo__cell *c)
{
	if (is_health_kind(FND(r)->kind) &&
	    FND(r)->kind != IBTOPO_FIND_PORT_ERRORS)
		set_real(c, FND(r)->limit);
}

static void g_reach(const void *r, void *x, struct ibtopo__cell *c)
{
	if (FND(r)->kind == IBTOPO_FIND_CABLE_OVER_LENGTH)
		set_real(c, FND(r)->limit);
}

/* The name of a finding's subkind, or NULL. */
static const char *subkind_name(const struct ibtopo_finding *f)
{
	switch (f->kind) {
	case IBTOPO_FIND_SPEED_DOWNGRADE:
	case IBTOPO_FIND_WIDTH_DOWNGRADE:
		if (f->subkind == IBTOPO_PEER_SWITCHES)
			return "inter-switch";
		if (f->subkind == IBTOPO_PEER_HOSTS)
			return "hosts";
		if (f->subkind == IBTOPO_PEER_MODEL)
			return "model";
		if (f->subkind == IBTOPO_PEER_SWITCH_MODEL)
			return "switch-model";
		return NULL;
	case IBTOPO_FIND_LINK_MOVED:
	case IBTOPO_FIND_MISWIRED_LINK:
		if (f->subkind == IBTOPO_MOVE_ONE_END)
			return "one-end";
		if (f->subkind == IBTOPO_MOVE_BOTH_PORTS)
			return "both-ports";
		if (f->subkind == IBTOPO_MOVE_SWAPPED)
			return "swapped";
		return NULL;
	case IBTOPO_FIND_PORT_STATE_CHANGED:
		return f->subkind == IBTOPO_STATE_PHYSICAL ? "physical" : NULL;
	case IBTOPO_FIND_LOW_PATH_DIVERSITY:
	case IBTOPO_FIND_FAT_TREE_VIOLATION:
		return ibtopo_topology_subkind_name(f->kind, f->subkind);
	default:
		return NULL;
	}
}

static void g_detail(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);
	const char *name = f->note ? f->note : subkind_name(f);

	if (name)
		set_str(c, name);
}

/* The machine formats: every key, in this order. */
static const struct ibtopo__column cols[] = {
	{ "kind", "KIND", g_kind },
	{ "severity", "SEVERITY", g_severity },
	{ "a.node", "A NODE", g_a_node },
	{ "a.guid", "A GUID", g_a_guid },
	{ "a.port", "A PORT", g_a_port },
	{ "b.node", "B NODE", g_b_node },
	{ "b.guid", "B GUID", g_b_guid },
	{ "b.port", "B PORT", g_b_port },
	{ "c.node", "C NODE", g_c_node },
	{ "c.guid", "C GUID", g_c_guid },
	{ "c.port", "C PORT", g_c_port },
	{ "d.node", "D NODE", g_d_node },
	{ "d.guid", "D GUID", g_d_guid },
	{ "d.port", "D PORT", g_d_port },
	{ "message", "MESSAGE", g_message },
	{ "active", "ACTIVE", g_active },
	{ "expected", "EXPECTED", g_expected },
	{ "rated", "RATED", g_rated },
	{ "old", "OLD", g_old },
	{ "new", "NEW", g_new },
	{ "links", "LINKS", g_links },
	{ "paths", "PATHS", g_paths },
	{ "min_paths", "MIN PATHS", g_min_paths },
	{ "evidence", "EVIDENCE", g_evidence },
	{ "cause", "CAUSE", g_cause },
	{ "media", "MEDIA", g_media },
	{ "length_m", "LENGTH M", g_length },
	{ "reach_m", "REACH M", g_reach },
	{ "detail", "DETAIL", g_detail },
};

/* JSON only, set for the port health kinds (CSV keeps its columns) */
static const struct ibtopo__column health_cols[] = {
	{ "counter", "COUNTER", g_counter },
	{ "count", "COUNT", g_count },
	{ "threshold", "THRESHOLD", g_threshold },
	{ "growth", "GROWTH", g_growth },
	{ "rate_per_hour", "RATE/H", g_rate },
	{ "interval_h", "INTERVAL H", g_interval },
};

/* ----------------------------------------------------------------- JSON */

static struct ibtopo__json *cell_json(const struct ibtopo__cell *c)
{
	switch (c->type) {
	case IBTOPO__STR:
		return ibtopo__json_string(c->s);
	case IBTOPO__INT:
		return ibtopo__json_int(c->i);
	case IBTOPO__GUID:
		return ibtopo__json_guid(c->g);
	case IBTOPO__REAL:
		return ibtopo__json_real(c->d);
	case IBTOPO__BOOL:
		return ibtopo__json_bool(c->b);
	default:
		return ibtopo__json_null();
	}
}

/* Keys present even when null: the kind, the severity, ends a and b, the
 * message, and every key of an end c or d that is set. */
static bool always_key(const char *name, const struct ibtopo_finding *f)
{
	if (strncmp(name, "c.", 2) == 0)
		return end_is_set(&f->c);
	if (strncmp(name, "d.", 2) == 0)
		return end_is_set(&f->d);
	return strncmp(name, "a.", 2) == 0 || strncmp(name, "b.", 2) == 0 ||
	       strcmp(name, "kind") == 0 || strcmp(name, "severity") == 0 ||
	       strcmp(name, "message") == 0;
}

struct ibtopo__json *ibtopo__findings_json(const struct ibtopo_findings *list)
{
	struct ibtopo__json *arr = ibtopo__json_array();
	struct ctx *x = calloc(1, sizeof(*x));

	if (!arr || !x)
		goto out_fail;
	for (size_t i = 0; list && i < list->count; i++) {
		const struct ibtopo_finding *f = &list->items[i];
		struct ibtopo__json *obj = ibtopo__json_object();

		if (!obj || ibtopo__json_append(arr, obj))
			goto out_fail;
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(cols); k++) {
			struct ibtopo__cell cell;

			memset(&cell, 0, sizeof(cell));
			cell.type = IBTOPO__NULL;
			cols[k].get(f, x, &cell);
			if (cell.type == IBTOPO__NULL && !always_key(cols[k].name, f))
				continue;
			if (ibtopo__json_set_path(obj, cols[k].name, cell_json(&cell)))
				goto out_fail;
		}
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(health_cols); k++) {
			struct ibtopo__cell cell;

			memset(&cell, 0, sizeof(cell));
			cell.type = IBTOPO__NULL;
			health_cols[k].get(f, x, &cell);
			if (cell.type != IBTOPO__NULL &&
			    ibtopo__json_set_path(obj, health_cols[k].name,
						  cell_json(&cell)))
				goto out_fail;
		}
	}
	free(x);
	return arr;

out_fail:
	free(x);
	ibtopo__json_free(arr);
	return NULL;
}

/* ----------------------------------------------------------------- text */

/*
 * The text table names an end by its description; where many nodes share
 * one ("MT25408 ConnectX Mellanox Technologies" on 89 CAs) it adds the
 * GUID. A description is shared when two nodes of the fabrics, or two
 * ends in the list, carry it with different GUIDs.
 */
static void t_end(const struct ctx *x, const struct ibtopo_end *e, char *buf,
		  size_t len)
{
	if ((e->node && *e->node) || e->guid)
		ibtopo__name_node(&x->names, e->node, e->guid, buf, len);
	else
		snprintf(buf, len, "-");
	if (e->port >= 0 && end_is_set(e)) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " [%d]", e->port);
	}
}

static void t_a(const void *r, void *x, struct ibtopo__cell *c)
{
	t_end(CTX(x), &FND(r)->a, CTX(x)->scratch, sizeof(CTX(x)->scratch));
	set_str(c, CTX(x)->scratch);
}

static void t_b(const void *r, void *x, struct ibtopo__cell *c)
{
	if (!end_is_set(&FND(r)->b))
		return;
	t_end(CTX(x), &FND(r)->b, CTX(x)->scratch, sizeof(CTX(x)->scratch));
	set_str(c, CTX(x)->scratch);
}

static const struct ibtopo__column text_cols[] = {
	{ "kind", "KIND", g_kind },
	{ "a", "END A", t_a },
	{ "b", "END B", t_b },
	{ "message", "WHAT TO DO", g_message },
};

/*
 * The text table shows at most FOLD_SHOW findings of one kind, subkind
 * and severity when there are more than FOLD_OVER; a line counts the
 * rest. JSON and CSV keep every finding.
 */
#define FOLD_OVER 10
#define FOLD_SHOW 5

struct fold {
	size_t row;	/* position in the severity group */
	const struct ibtopo_finding *f;
};

struct folded {
	size_t first;	/* row of the group's first finding */
	size_t hidden;	/* findings left out of the table */
	const struct ibtopo_finding *f;
};

static bool same_group(const struct ibtopo_finding *a, const struct ibtopo_finding *b)
{
	return a->kind == b->kind && a->subkind == b->subkind;
}

static int cmp_fold(const void *x, const void *y)
{
	const struct fold *a = x, *b = y;

	if (a->f->kind != b->f->kind)
		return a->f->kind < b->f->kind ? -1 : 1;
	if (a->f->subkind != b->f->subkind)
		return a->f->subkind < b->f->subkind ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static int cmp_folded(const void *x, const void *y)
{
	const struct folded *a = x, *b = y;

	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * Keep in rows[0..k) the first FOLD_SHOW findings of each group larger
 * than FOLD_OVER, in their order; `out` gets one entry per folded group,
 * by first row. Returns the rows kept. `tmp` and `out` hold k entries.
 */
static size_t fold_rows(const void **rows, size_t k, struct fold *tmp,
			struct folded *out, size_t *nout)
{
	size_t kept = 0;

	*nout = 0;
	for (size_t i = 0; i < k; i++) {
		tmp[i].row = i;
		tmp[i].f = rows[i];
	}
	qsort(tmp, k, sizeof(*tmp), cmp_fold);
	for (size_t g = 0; g < k;) {
		size_t e = g + 1;

		while (e < k && same_group(tmp[e].f, tmp[g].f))
			e++;
		if (e - g > FOLD_OVER) {
			out[*nout].first = tmp[g].row;
			out[*nout].hidden = e - g - FOLD_SHOW;
			out[*nout].f = tmp[g].f;
			(*nout)++;
			for (size_t i = g + FOLD_SHOW; i < e; i++)
				rows[tmp[i].row] = NULL;
		}
		g = e;
	}
	qsort(out, *nout, sizeof(*out), cmp_folded);
	for (size_t i = 0; i < k; i++)
		if (rows[i])
			rows[kept++] = rows[i];
	return kept;
}

static int findings_text(const struct ibtopo_render_opts *opts,
			 const struct ibtopo_fabric *const *fabrics,
			 size_t nfabrics, const struct ibtopo_findings *list,
			 struct ibtopo_error *err)
{
	static const struct {
		enum ibtopo_severity sev;
		const char *title;
	} groups[] = {
		{ IBTOPO_SEV_ERROR, "errors" },
		{ IBTOPO_SEV_WARNING, "warnings" },
		{ IBTOPO_SEV_INFO, "info" },
	};
	size_t n = list ? list->count : 0, shown = 0;
	struct folded *folded = NULL;
	struct fold *tmp = NULL;
	const void **rows;
	struct ctx *x;
	int rc = 0;

	if (!n)
		return ibtopo__out_printf(opts, "no findings\n") ?
			ibtopo__error_set(err, IBTOPO_EIO, "cannot write output") : 0;
	rows = calloc(n, sizeof(*rows));
	x = calloc(1, sizeof(*x));
	if (!rows || !x) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	tmp = calloc(n, sizeof(*tmp));
	folded = calloc(n, sizeof(*folded));
	if (!tmp || !folded ||
	    ibtopo__shared_names_init(&x->names, fabrics, nfabrics, list, NULL,
				      NULL)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t g = 0; rc == 0 && g < IBTOPO__ARRAY_SIZE(groups); g++) {
		size_t k = 0, total, nfolded;

		for (size_t i = 0; i < n; i++)
			if (list->items[i].severity == groups[g].sev)
				rows[k++] = &list->items[i];
		if (!k)
			continue;
		rc = ibtopo__out_printf(opts, "%s%s (%zu)\n", shown ? "\n" : "",
					groups[g].title, k);
		if (rc) {
			rc = ibtopo__error_set(err, rc, "cannot write output");
			break;
		}
		total = k;
		k = fold_rows(rows, k, tmp, folded, &nfolded);
		rc = ibtopo__table_write(opts, NULL, text_cols,
					 IBTOPO__ARRAY_SIZE(text_cols),
					 (const void *const *)rows, k, x, err);
		for (size_t i = 0; rc == 0 && i < nfolded; i++) {
			const char *sub = subkind_name(folded[i].f);

			rc = ibtopo__out_printf(opts,
				"... and %zu more %s findings (%s%ssee --format json)\n",
				folded[i].hidden,
				ibtopo_finding_kind_name(folded[i].f->kind),
				sub ? sub : "", sub ? "; " : "");
			if (rc)
				rc = ibtopo__error_set(err, rc, "cannot write output");
		}
		shown += total;
	}
out_free:
	free(folded);
	free(tmp);
	if (x)
		ibtopo__shared_names_release(&x->names);
	free(x);
	free(rows);
	return rc;
}

int ibtopo__findings_text(const struct ibtopo_render_opts *opts,
			  const struct ibtopo_findings *list,
			  struct ibtopo_error *err)
{
	return findings_text(opts, NULL, 0, list, err);
}

/* -------------------------------------------------------------- reports */

static int write_json_doc(const struct ibtopo_render_opts *opts,
			  struct ibtopo__json *root, struct ibtopo_error *err)
{
	int rc;

	if (!root)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = ibtopo__json_dump(opts, root, err);
	ibtopo__json_free(root);
	return rc;
}

static int write_csv(const struct ibtopo_render_opts *opts,
		     const struct ibtopo_findings *list, struct ibtopo_error *err)
{
	size_t n = list ? list->count : 0;
	const void **rows = calloc(n ? n : 1, sizeof(*rows));
	struct ctx *x = calloc(1, sizeof(*x));
	int rc;

	if (!rows || !x) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = &list->items[i];
	rc = ibtopo__table_write(opts, "findings", cols, IBTOPO__ARRAY_SIZE(cols),
				 (const void *const *)rows, n, x, err);
out_free:
	free(x);
	free(rows);
	return rc;
}

static int check_opts(const struct ibtopo_render_opts *opts, struct ibtopo_error *err)
{
	if (!opts || !opts->write)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output sink");
	if (opts->format != IBTOPO_FORMAT_TEXT && opts->format != IBTOPO_FORMAT_JSON &&
	    opts->format != IBTOPO_FORMAT_CSV)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "unknown format %d",
					 (int)opts->format);
	return 0;
}

int ibtopo_render_findings(const struct ibtopo_render_opts *opts,
			   const char *list_name,
			   const struct ibtopo_findings *list,
			   struct ibtopo_error *err)
{
	return ibtopo_render_findings_of(opts, list_name, list, NULL, NULL, err);
}

int ibtopo_render_findings_of(const struct ibtopo_render_opts *opts,
			      const char *list_name,
			      const struct ibtopo_findings *list,
			      const struct ibtopo_fabric *a,
			      const struct ibtopo_fabric *b,
			      struct ibtopo_error *err)
{
	const struct ibtopo_fabric *fabrics[] = { a, b };
	struct ibtopo__json *root;
	int rc = check_opts(opts, err);

	if (rc)
		return rc;
	switch (opts->format) {
	case IBTOPO_FORMAT_JSON:
		root = ibtopo__json_object();
		if (root && (ibtopo__json_set(root, "schema_version", ibtopo__json_int(1)) ||
			     ibtopo__json_set(root, list_name ? list_name : "findings",
					      ibtopo__findings_json(list)))) {
			ibtopo__json_free(root);
			root = NULL;
		}
		return write_json_doc(opts, root, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(opts, list, err);
	default:
		return findings_text(opts, fabrics, 2, list, err);
	}
}

static size_t count_cables(const struct ibtopo_fabric *f)
{
	size_t n = 0, nl = ibtopo_fabric_link_count(f);

	for (size_t i = 0; i < nl; i++)
		if (ibtopo_fabric_link(f, i)->cable)
			n++;
	return n;
}

static struct ibtopo__json *fabric_json(const struct ibtopo_fabric *f)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	struct ibtopo__json *o = ibtopo__json_object();

	if (!o ||
	    ibtopo__json_set(o, "source", ibtopo__json_string(m->source)) ||
	    ibtopo__json_set(o, "label", ibtopo__json_string(m->label)) ||
	    ibtopo__json_set(o, "snapshot_id", m->snapshot_id > 0 ?
			     ibtopo__json_int(m->snapshot_id) : ibtopo__json_null()) ||
	    ibtopo__json_set(o, "switches", ibtopo__json_int((int64_t)
			     ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH))) ||
	    ibtopo__json_set(o, "cas", ibtopo__json_int((int64_t)
			     ibtopo_fabric_count_type(f, IBTOPO_NODE_CA))) ||
	    ibtopo__json_set(o, "routers", ibtopo__json_int((int64_t)
			     ibtopo_fabric_count_type(f, IBTOPO_NODE_ROUTER))) ||
	    ibtopo__json_set(o, "links", ibtopo__json_int((int64_t)
			     ibtopo_fabric_link_count(f))) ||
	    ibtopo__json_set(o, "cables", ibtopo__json_int((int64_t)count_cables(f))) ||
	    ibtopo__json_set(o, "partial", ibtopo__json_bool(m->partial))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

int ibtopo_render_analysis(const struct ibtopo_render_opts *opts,
			   const struct ibtopo_analysis *an,
			   struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m;
	struct ibtopo__json *root;
	int rc = check_opts(opts, err);

	if (rc)
		return rc;
	if (!an || !an->fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no analysis to render");
	switch (opts->format) {
	case IBTOPO_FORMAT_JSON:
		/* One object: later sections (topology, paths) go beside "fabric". */
		root = ibtopo__json_object();
		if (root && (ibtopo__json_set(root, "schema_version", ibtopo__json_int(1)) ||
			     ibtopo__json_set(root, "fabric", fabric_json(an->fabric)) ||
			     (an->topology &&
			      ibtopo__topology_json(root, an->topology)) ||
			     ibtopo__json_set(root, "findings",
					      ibtopo__findings_json(an->findings)))) {
			ibtopo__json_free(root);
			root = NULL;
		}
		return write_json_doc(opts, root, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(opts, an->findings, err);
	default:
		m = ibtopo_fabric_meta(an->fabric);
		if (m->snapshot_id > 0)
			rc = ibtopo__out_printf(opts, "snapshot %lld", (long long)m->snapshot_id);
		else
			rc = ibtopo__out_printf(opts, "fabric %s",
						m->source ? m->source : "(unnamed)");
		if (rc == 0 && m->label)
			rc = ibtopo__out_printf(opts, " (%s)", m->label);
		if (rc == 0)
			rc = ibtopo__out_printf(opts,
				": %zu switches, %zu CAs, %zu routers, %zu links, %zu with cable data%s\n\n",
				ibtopo_fabric_count_type(an->fabric, IBTOPO_NODE_SWITCH),
				ibtopo_fabric_count_type(an->fabric, IBTOPO_NODE_CA),
				ibtopo_fabric_count_type(an->fabric, IBTOPO_NODE_ROUTER),
				ibtopo_fabric_link_count(an->fabric),
				count_cables(an->fabric), m->partial ? " (PARTIAL)" : "");
		if (rc == 0 && an->topology) {
			rc = ibtopo__topology_text(opts, an->topology);
			if (rc == 0)
				rc = ibtopo__out_printf(opts, "\n");
		}
		if (rc)
			return ibtopo__error_set(err, rc, "cannot write output");
		return findings_text(opts, &an->fabric, 1, an->findings, err);
	}
}
