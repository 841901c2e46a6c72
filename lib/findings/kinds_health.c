/*
 * kinds_health.c - the kinds of port health (analysis/health.c): error
 * counters above their thresholds, and their growth between snapshots.
 * subkind = the enum ibtopo_counter; note "saturated" or "reset".
 * Diagrams draw the cable of each as a cable problem (a-b orange).
 * failing-cable is a cable check's finding and the port errors of the
 * same cable made one (see <ibtopo/health.h> for its fields).
 */
#include "findings/findings-int.h"

#include <string.h>

static const char *counter_name(int subkind)
{
	return ibtopo_counter_name((enum ibtopo_counter)subkind);
}

static int port_errors_sentence(char *buf, size_t len,
				const struct ibtopo_finding *f,
				const struct ibtopo__shared_names *names)
{
	(void)names;
	return snprintf(buf, len, "%s is %.0f (threshold %.0f)%s",
			counter_name(f->subkind), f->num.counter.count,
			f->num.counter.threshold,
			f->note ? "; saturated: the true count is higher" : "");
}

/* The interval: seconds below an hour, else hours. */
static void interval(char *buf, size_t len, double hours)
{
	if (hours < 1)
		snprintf(buf, len, "%.0f s", hours * 3600);
	else
		snprintf(buf, len, "%.1f h", hours);
}

static bool is_reset(const struct ibtopo_finding *f)
{
	return f->note && strcmp(f->note, "reset") == 0;
}

static int error_rate_sentence(char *buf, size_t len,
			       const struct ibtopo_finding *f,
			       const struct ibtopo__shared_names *names)
{
	char t[32];

	(void)names;
	interval(t, sizeof(t), f->num.growth.interval_h);
	if (is_reset(f))
		return snprintf(buf, len, "%s was reset between the snapshots "
				"and counts %u since (%s)",
				counter_name(f->subkind), f->num.growth.growth, t);
	return snprintf(buf, len, "%s grew by %u%s in %s (%.1f/h)",
			counter_name(f->subkind), f->num.growth.growth,
			f->note ? " or more (saturated)" : "", t,
			f->num.growth.rate_per_hour);
}

static int flapping_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	char t[32];

	(void)names;
	interval(t, sizeof(t), f->num.growth.interval_h);
	if (is_reset(f))
		return snprintf(buf, len, "LinkDownedCounter was reset between "
				"the snapshots and counts %u since (%s): check "
				"the cable", f->num.growth.growth, t);
	return snprintf(buf, len, "link went down %u times%s in %s (%.1f/h): "
			"a flapping link, check the cable", f->num.growth.growth,
			f->note ? " or more (LinkDownedCounter is saturated)" :
			"", t, f->num.growth.rate_per_hour);
}

const struct ibtopo__finding_kind ibtopo__kind_port_errors = {
	.kind = IBTOPO_FIND_PORT_ERRORS,
	.name = "port-errors",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = port_errors_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_COUNTER,
};

const struct ibtopo__finding_kind ibtopo__kind_port_error_rate = {
	.kind = IBTOPO_FIND_PORT_ERROR_RATE,
	.name = "port-error-rate",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = error_rate_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_GROWTH,
};

const struct ibtopo__finding_kind ibtopo__kind_link_flapping = {
	.kind = IBTOPO_FIND_LINK_FLAPPING,
	.name = "link-flapping",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = flapping_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_GROWTH,
};

static int failing_cable_sentence(char *buf, size_t len,
				  const struct ibtopo_finding *f,
				  const struct ibtopo__shared_names *names)
{
	const struct ibtopo_cable_evidence *ev = f->cable;
	char errs[160], more[48] = "";

	(void)names;
	if (f->num.counter.more_counters)
		snprintf(more, sizeof(more), " (and %u more error counter%s)",
			 f->num.counter.more_counters,
			 f->num.counter.more_counters == 1 ? "" : "s");
	snprintf(errs, sizeof(errs), "%s is %.0f (threshold %.0f)%s%s",
		 counter_name(f->subkind), f->num.counter.count,
		 f->num.counter.threshold,
		 f->note ? ", saturated" : "", more);
	if (!ev)
		return snprintf(buf, len, "the cable is wrong for its link, "
				"and %s: the cable is failing, replace it",
				errs);
	if (ev->check == IBTOPO_FIND_CABLE_UNDERRATED)
		return snprintf(buf, len, "cable is rated %s but both ports "
				"run up to %s, and %s: the cable is failing, "
				"replace it with a cable rated %s",
				ibtopo__sentence_speed(ev->rated_speed),
				ibtopo__sentence_speed(ev->ports_speed), errs,
				ibtopo__sentence_speed(ev->ports_speed));
	return snprintf(buf, len, "%s cable is %g m, beyond the %g m its "
			"media reaches, and %s: the cable is failing, replace "
			"it with a shorter cable, or with optics rated for the "
			"distance",
			ev->media != IBTOPO_MEDIA_UNKNOWN ?
			ibtopo_media_name(ev->media) : "the",
			ev->length_m, ev->reach_m, errs);
}

const struct ibtopo__finding_kind ibtopo__kind_failing_cable = {
	.kind = IBTOPO_FIND_FAILING_CABLE,
	.name = "failing-cable",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = failing_cable_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_COUNTER,
};

/* The BER with two significant digits; the interval as above. */
static int high_ber_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	char t[32];

	(void)names;
	interval(t, sizeof(t), f->num.measure.interval_ms / 3600000.0);
	return snprintf(buf, len, "bit error rate %.2g over %s (%u symbol "
			"error%s at %s), above the %.2g threshold for %s: "
			"check or replace the cable",
			f->num.measure.measure, t, f->num.measure.count,
			f->num.measure.count == 1 ? "" : "s",
			ibtopo__sentence_speed((unsigned)f->subkind),
			f->num.measure.threshold,
			ibtopo__sentence_speed((unsigned)f->subkind));
}

static int congested_sentence(char *buf, size_t len,
			      const struct ibtopo_finding *f,
			      const struct ibtopo__shared_names *names)
{
	char t[32];

	(void)names;
	interval(t, sizeof(t), f->num.measure.interval_ms / 3600000.0);
	/* "percent": a sentence holds no '%' (test_checks) */
	return snprintf(buf, len, "lost %.1f percent of the link's capacity "
			"waiting to send over %s (PortXmitWait grew by %u), "
			"above the %.1f percent threshold: the port is "
			"congested",
			f->num.measure.measure * 100, t, f->num.measure.count,
			f->num.measure.threshold * 100);
}

const struct ibtopo__finding_kind ibtopo__kind_high_ber = {
	.kind = IBTOPO_FIND_HIGH_BER,
	.name = "high-ber",
	.severity = IBTOPO_SEV_ERROR,
	.sentence = high_ber_sentence,
	.draw = IBTOPO__DRAW_CABLE,
	.family = IBTOPO__FAMILY_MEASURE,
};

const struct ibtopo__finding_kind ibtopo__kind_congested_port = {
	.kind = IBTOPO_FIND_CONGESTED_PORT,
	.name = "congested-port",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = congested_sentence,
	.draw = IBTOPO__DRAW_NONE,	/* not a cable fault: --heat congestion */
	.family = IBTOPO__FAMILY_MEASURE,
};
