/*
 * kinds_links.c - the kinds the link and cable checks produce
 * (analysis/check_speed.c, analysis/check_cable.c): their names,
 * severities, sentences and marks.
 */
#include "findings/findings-int.h"

#define SPEED(bit) ibtopo__sentence_speed(bit)
#define WIDTH(bit) ibtopo__sentence_width(bit)

const char *ibtopo__peer_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_PEER_SWITCHES:
		return "inter-switch";
	case IBTOPO_PEER_HOSTS:
		return "hosts";
	case IBTOPO_PEER_MODEL:
		return "model";
	case IBTOPO_PEER_SWITCH_MODEL:
		return "switch-model";
	default:
		return NULL;
	}
}

/*
 * An info speed-downgrade: a link slower than its class, explained by a
 * model that never runs faster (device-limit) or not at all (unknown).
 */
static int slow_link_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			      const struct ibtopo__shared_names *names)
{
	const char *act = SPEED(f->num.rate.active);
	const char *exp = SPEED(f->num.rate.expected);
	char peers[160], model[160], all[32], n1[96], n2[96];
	const struct ibtopo_end *fast;

	if (f->subkind == IBTOPO_PEER_SWITCHES) {
		fast = f->c.guid && f->c.guid == f->a.guid ? &f->b : &f->a;
		snprintf(peers, sizeof(peers), "the other inter-switch links of %s run",
			 ibtopo__sentence_end(names, fast, n1, sizeof(n1)));
	} else if (f->subkind == IBTOPO_PEER_SWITCH_MODEL) {
		snprintf(peers, sizeof(peers),
			 "other switches of this model run their host links at");
	} else {
		snprintf(peers, sizeof(peers), "the other host links on this switch run");
	}
	if (f->num.rate.model_links == 2)
		snprintf(all, sizeof(all), "both");
	else
		snprintf(all, sizeof(all), "all %u", f->num.rate.model_links);
	if (f->cause == IBTOPO_CAUSE_CABLE)
		return snprintf(buf, len,
			"link runs at %s while %s %s, and its cable is rated lower: replace it with a faster-rated cable",
			act, peers, exp);
	/* a model of one is a fact only where the adapter's IDs are known */
	if (f->cause != IBTOPO_CAUSE_DEVICE_LIMIT && !f->device_id)
		return snprintf(buf, len,
			"link runs at %s while %s %s; the adapter has no vendor or device ID in this data, so its model, and whether it is a slower adapter or a bad link, is unknown: check the adapter's top speed, then reseat or replace the cable",
			act, peers, exp);
	if (f->cause != IBTOPO_CAUSE_DEVICE_LIMIT)
		return snprintf(buf, len,
			"link runs at %s while %s %s; no other adapter of its model (0x%04x:0x%04x) is in this fabric to tell a slower adapter from a bad link: check the adapter's top speed, then reseat or replace the cable",
			act, peers, exp, f->vendor_id, f->device_id);
	if (f->subkind == IBTOPO_PEER_SWITCHES) {
		if (f->device_id)
			snprintf(model, sizeof(model),
				 "switch model 0x%04x:0x%04x (%s)", f->vendor_id,
				 f->device_id,
				 ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)));
		else
			snprintf(model, sizeof(model), "switch %s",
				 ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)));
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

static int speed_downgrade_sentence(char *buf, size_t len,
				    const struct ibtopo_finding *f,
				    const struct ibtopo__shared_names *names)
{
	const char *act = SPEED(f->num.rate.active);
	const char *exp = SPEED(f->num.rate.expected);
	const char *what;
	char n1[96];

	if (f->evidence == IBTOPO_EVIDENCE_PEERS && f->severity == IBTOPO_SEV_INFO)
		return slow_link_sentence(buf, len, f, names);
	if (f->evidence == IBTOPO_EVIDENCE_PEERS) {
		what = f->subkind == IBTOPO_PEER_SWITCHES ?
			"both switches run %s on their other inter-switch links" :
			f->subkind == IBTOPO_PEER_MODEL ?
			"the switch runs %s to other adapters and this adapter model runs at least that elsewhere" :
			"the switch runs %s to other adapters of the same model";
		snprintf(n1, sizeof(n1), what, exp);
		return snprintf(buf, len, "link runs at %s while %s: %s",
			act, n1,
			f->cause == IBTOPO_CAUSE_CABLE ?
			"its cable is rated lower; replace it with a faster-rated cable" :
			"reseat or replace the cable, then check both ports' configuration");
	}
	switch (f->cause) {
	case IBTOPO_CAUSE_CABLE:
		return snprintf(buf, len,
			"link runs at %s although both ports support %s: the cable is rated below %s; replace it with a cable rated %s",
			act, exp, exp, exp);
	case IBTOPO_CAUSE_PORT_CONFIG:
		return snprintf(buf, len,
			"link runs at %s although both ports support %s: %s is not enabled on both ports; enable it and retrain the link",
			act, exp, exp);
	default:
		return snprintf(buf, len,
			"link runs at %s although both ports support and enable %s: reseat or replace the cable or optics",
			act, exp);
	}
}

const struct ibtopo__finding_kind ibtopo__kind_speed_downgrade = {
	.kind = IBTOPO_FIND_SPEED_DOWNGRADE,
	.name = "speed-downgrade",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = speed_downgrade_sentence,
	.subkind_name = ibtopo__peer_subkind_name,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_RATE,
	.unit = IBTOPO__UNIT_SPEED,
};

static int width_downgrade_sentence(char *buf, size_t len,
				    const struct ibtopo_finding *f,
				    const struct ibtopo__shared_names *names)
{
	(void)names;
	if (f->evidence == IBTOPO_EVIDENCE_PORT_INFO)
		return snprintf(buf, len,
			"link runs at %s although both ports support %s: %s",
			WIDTH(f->num.rate.active), WIDTH(f->num.rate.expected),
			f->cause == IBTOPO_CAUSE_PORT_CONFIG ?
			"enable that width on both ports and retrain the link" :
			"lanes failed to train; reseat or replace the cable");
	return snprintf(buf, len,
		"link runs at %s while %s run %s: reseat or replace the cable (a lane is likely bad)",
		WIDTH(f->num.rate.active),
		f->subkind == IBTOPO_PEER_SWITCHES ?
		"both switches' other inter-switch links" :
		f->subkind == IBTOPO_PEER_HOSTS ?
		"the switch's links to the same adapter model" :
		f->subkind == IBTOPO_PEER_MODEL ?
		"the switch's other host links and this adapter model elsewhere" :
		"both nodes' other links",
		WIDTH(f->num.rate.expected));
}

const struct ibtopo__finding_kind ibtopo__kind_width_downgrade = {
	.kind = IBTOPO_FIND_WIDTH_DOWNGRADE,
	.name = "width-downgrade",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = width_downgrade_sentence,
	.subkind_name = ibtopo__peer_subkind_name,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_RATE,
	.unit = IBTOPO__UNIT_WIDTH,
};

static int cable_over_length_sentence(char *buf, size_t len,
				      const struct ibtopo_finding *f,
				      const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"%s cable is %g m, beyond the %g m its media reaches at %s: replace it with a shorter cable, or with optics rated for the distance",
		f->subkind ? ibtopo_media_name((enum ibtopo_media)f->subkind) :
		"the", f->num.reach.length_m, f->num.reach.reach_m,
		SPEED(f->num.reach.active_speed));
}

const struct ibtopo__finding_kind ibtopo__kind_cable_over_length = {
	.kind = IBTOPO_FIND_CABLE_OVER_LENGTH,
	.name = "cable-over-length",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = cable_over_length_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_REACH,
};

static int cable_underrated_sentence(char *buf, size_t len,
				     const struct ibtopo_finding *f,
				     const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"cable is rated %s but both ports run up to %s: replace it with a cable rated %s",
		SPEED(f->num.rating.rated_speed),
		SPEED(f->num.rating.ports_speed),
		SPEED(f->num.rating.ports_speed));
}

const struct ibtopo__finding_kind ibtopo__kind_cable_underrated = {
	.kind = IBTOPO_FIND_CABLE_UNDERRATED,
	.name = "cable-underrated",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = cable_underrated_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_RATING,
};

static int loopback_cable_sentence(char *buf, size_t len,
				   const struct ibtopo_finding *f,
				   const struct ibtopo__shared_names *names)
{
	char n1[96];

	return snprintf(buf, len,
		"both ends of this cable are on switch %s: unplug it, or move one end to the port it was planned for",
		ibtopo__sentence_end(names, &f->a, n1, sizeof(n1)));
}

const struct ibtopo__finding_kind ibtopo__kind_loopback_cable = {
	.kind = IBTOPO_FIND_LOOPBACK_CABLE,
	.name = "loopback-cable",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = loopback_cable_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_NONE,
};

static const char *cable_row_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_CABLE_ROW_NO_NODE:
		return "no-node";
	case IBTOPO_CABLE_ROW_NO_LINK:
		return "no-link";
	case IBTOPO_CABLE_ROW_NO_PEER_NODE:
		return "no-peer-node";
	case IBTOPO_CABLE_ROW_OTHER_PEER:
		return "other-peer";
	default:
		return NULL;
	}
}

/* note: "<path>:<line>" of the row; a, b: the row's ends; c: the real peer */
static int cable_row_unmatched_sentence(char *buf, size_t len,
					const struct ibtopo_finding *f,
					const struct ibtopo__shared_names *names)
{
	const char *row = f->note ? f->note : "a cable row";
	char n1[96], n2[96];

	switch (f->subkind) {
	case IBTOPO_CABLE_ROW_NO_NODE:
		return snprintf(buf, len,
			"%s: no node %s in the fabric: this row's cable data was not used; correct or delete the row",
			row, ibtopo__sentence_end(NULL, &f->a, n1, sizeof(n1)));
	case IBTOPO_CABLE_ROW_NO_LINK:
		return snprintf(buf, len,
			"%s: port %d of %s has no link in the fabric: this row's cable data was not used; correct or delete the row",
			row, f->a.port,
			ibtopo__sentence_end(names, &f->a, n1, sizeof(n1)));
	case IBTOPO_CABLE_ROW_NO_PEER_NODE:
		return snprintf(buf, len,
			"%s: no node %s (the row's node_b) in the fabric: this row's cable data was not used; correct or delete the row",
			row, ibtopo__sentence_end(NULL, &f->b, n1, sizeof(n1)));
	default:
		return snprintf(buf, len,
			"%s: port %d of %s is linked to port %d of %s, not to port %d of %s: this row's cable data was not used; correct the row or the cabling",
			row, f->a.port,
			ibtopo__sentence_end(names, &f->a, n1, sizeof(n1)),
			f->c.port, ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)),
			f->b.port, f->b.node ? f->b.node : "?");
	}
}

const struct ibtopo__finding_kind ibtopo__kind_cable_row_unmatched = {
	.kind = IBTOPO_FIND_CABLE_ROW_UNMATCHED,
	.name = "cable-row-unmatched",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = cable_row_unmatched_sentence,
	.subkind_name = cable_row_subkind_name,
	.draw = IBTOPO__DRAW_NONE,
	.family = IBTOPO__FAMILY_CABLE_ROW,
};

static int cable_not_checked_sentence(char *buf, size_t len,
				      const struct ibtopo_finding *f,
				      const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len,
		"%s cable of %g m is not checked for length: the reach table has no row for %s at %s; add the figure of its part (analyze --cable-reach FILE) to have it checked",
		f->subkind ? ibtopo_media_name((enum ibtopo_media)f->subkind) :
		"the", f->num.unchecked.length_m,
		f->subkind ? ibtopo_media_name((enum ibtopo_media)f->subkind) :
		"its media", SPEED(f->num.unchecked.active_speed));
}

const struct ibtopo__finding_kind ibtopo__kind_cable_not_checked = {
	.kind = IBTOPO_FIND_CABLE_NOT_CHECKED,
	.name = "cable-not-checked",
	.severity = IBTOPO_SEV_INFO,
	.sentence = cable_not_checked_sentence,
	/* media and length in the message: no reach_m to give */
	.family = IBTOPO__FAMILY_UNCHECKED,
};

/* An end of a port-not-active link, as check_ports.c packs it: state,
 * physical state << 8, bit 16 when it is the end not Active. */
static int port_word_text(char *buf, size_t len,
			  const struct ibtopo__shared_names *names,
			  const struct ibtopo_end *e, unsigned w)
{
	static const char *const state[] = { "in an unknown state", "Down",
					     "Init", "Armed", "Active" };
	char n[96];
	unsigned st = w & 0xff, phys = (w >> 8) & 0xff;

	ibtopo__sentence_end(names, e, n, sizeof(n));
	if (st == IBTOPO_PORT_STATE_DOWN && phys == 2)
		return snprintf(buf, len, "%s port %d is Down/Polling", n,
				e->port);
	return snprintf(buf, len, "%s port %d is %s", n, e->port,
			st < IBTOPO__ARRAY_SIZE(state) ? state[st] : "unknown");
}

static int port_not_active_sentence(char *buf, size_t len,
				    const struct ibtopo_finding *f,
				    const struct ibtopo__shared_names *names)
{
	unsigned wa = f->num.ports.word_a, wb = f->num.ports.word_b;
	unsigned worst = wa & 1u << 16 ? wa : wb;
	char ea[160], eb[160], ends[330];
	const char *todo;

	if (f->subkind == IBTOPO_PORT_NO_SUBNET_MANAGER)
		return snprintf(buf, len,
			"no subnet manager has configured this fabric: all %u link%s up but none is Active, so no traffic can pass (ports Init, without LIDs): start a subnet manager (opensm, or the one of a managed switch) and sweep again",
			f->num.ports.links, f->num.ports.links == 1 ? " is" : "s are");
	port_word_text(ea, sizeof(ea), names, &f->a, wa);
	port_word_text(eb, sizeof(eb), names, &f->b, wb);
	if ((wa & 1u << 16) && (wb & 1u << 16))
		snprintf(ends, sizeof(ends), "%s and %s", ea, eb);
	else
		snprintf(ends, sizeof(ends), "%s", wa & 1u << 16 ? ea : eb);
	if ((worst & 0xff) == IBTOPO_PORT_STATE_ARMED)
		todo = "the subnet manager armed it but did not activate it: let its sweep finish, or restart the subnet manager";
	else if ((worst & 0xff) == IBTOPO_PORT_STATE_INIT)
		todo = "the subnet manager has not brought it up: check that one runs and sweeps (sminfo) and what its log says of this port";
	else
		todo = "the port polls for its peer without training: reseat or replace the cable, and check that the peer port is enabled";
	return snprintf(buf, len,
		"link carries no traffic: %s (%u link%s in this fabric not Active); %s",
		ends, f->num.ports.links, f->num.ports.links == 1 ? "" : "s", todo);
}

static const char *port_not_active_subkind_name(int subkind)
{
	switch (subkind) {
	case IBTOPO_PORT_LINK_NOT_ACTIVE:
		return "link-not-active";
	case IBTOPO_PORT_NO_SUBNET_MANAGER:
		return "no-subnet-manager";
	default:
		return NULL;
	}
}

const struct ibtopo__finding_kind ibtopo__kind_port_not_active = {
	.kind = IBTOPO_FIND_PORT_NOT_ACTIVE,
	.name = "port-not-active",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = port_not_active_sentence,
	.subkind_name = port_not_active_subkind_name,
	.draw = IBTOPO__DRAW_DOWNGRADE,
	.family = IBTOPO__FAMILY_PORTS,
};
