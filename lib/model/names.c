/* names.c - enums, their stable names, and link rates */
#include "model/model-int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	unsigned bit;
	const char *name;
	double lane_gbps;	/* data rate per lane after line encoding */
} speeds[] = {
	{ IBTOPO_SPEED_SDR, "SDR", 2.0 },
	{ IBTOPO_SPEED_DDR, "DDR", 4.0 },
	{ IBTOPO_SPEED_QDR, "QDR", 8.0 },
	{ IBTOPO_SPEED_FDR10, "FDR10", 10.0 },
	{ IBTOPO_SPEED_FDR, "FDR", 13.64 },
	{ IBTOPO_SPEED_EDR, "EDR", 25.0 },
	{ IBTOPO_SPEED_HDR, "HDR", 50.0 },
	{ IBTOPO_SPEED_NDR, "NDR", 100.0 },
	{ IBTOPO_SPEED_XDR, "XDR", 200.0 },
};

static const struct {
	unsigned bit;
	const char *name;
	unsigned lanes;
} widths[] = {
	{ IBTOPO_WIDTH_1X, "1x", 1 },
	{ IBTOPO_WIDTH_2X, "2x", 2 },
	{ IBTOPO_WIDTH_4X, "4x", 4 },
	{ IBTOPO_WIDTH_8X, "8x", 8 },
	{ IBTOPO_WIDTH_12X, "12x", 12 },
};

const char *ibtopo_speed_name(unsigned speed)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++)
		if (speeds[i].bit == speed)
			return speeds[i].name;
	return "?";
}

unsigned ibtopo_speed_parse(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++)
		if (strcasecmp(speeds[i].name, name) == 0)
			return speeds[i].bit;
	return 0;
}

unsigned ibtopo_speed_highest(unsigned mask)
{
	unsigned best = 0;

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++)
		if (mask & speeds[i].bit)
			best = speeds[i].bit;
	return best;
}

double ibtopo_speed_lane_gbps(unsigned speed)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++)
		if (speeds[i].bit == speed)
			return speeds[i].lane_gbps;
	return 0.0;
}

const char *ibtopo_width_name(unsigned width)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(widths); i++)
		if (widths[i].bit == width)
			return widths[i].name;
	return "?";
}

unsigned ibtopo_width_parse(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(widths); i++)
		if (strcasecmp(widths[i].name, name) == 0)
			return widths[i].bit;
	return 0;
}

unsigned ibtopo_width_lanes(unsigned width)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(widths); i++)
		if (widths[i].bit == width)
			return widths[i].lanes;
	return 0;
}

unsigned ibtopo_width_highest(unsigned mask)
{
	unsigned best = 0;

	/* widths[] is ordered by lanes */
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(widths); i++)
		if (mask & widths[i].bit)
			best = widths[i].bit;
	return best;
}

double ibtopo_link_gbps(unsigned speed, unsigned width)
{
	return ibtopo_speed_lane_gbps(speed) * ibtopo_width_lanes(width);
}

const char *ibtopo_node_type_name(enum ibtopo_node_type type)
{
	switch (type) {
	case IBTOPO_NODE_CA:
		return "ca";
	case IBTOPO_NODE_SWITCH:
		return "switch";
	case IBTOPO_NODE_ROUTER:
		return "router";
	default:
		return "unknown";
	}
}

const char *ibtopo_port_state_name(unsigned state)
{
	static const char *const names[] = { "unknown", "down", "init", "armed",
					     "active" };

	return state < IBTOPO__ARRAY_SIZE(names) ? names[state] : "unknown";
}

const char *ibtopo_phys_state_name(unsigned phys_state)
{
	static const char *const names[] = {
		"unknown", "sleep", "polling", "disabled", "port-config-training",
		"linkup", "link-error-recovery", "phy-test",
	};

	return phys_state < IBTOPO__ARRAY_SIZE(names) ? names[phys_state] :
							 "unknown";
}

static const char *const media_names[] = {
	[IBTOPO_MEDIA_UNKNOWN] = "unknown",
	[IBTOPO_MEDIA_PASSIVE_COPPER] = "passive-copper",
	[IBTOPO_MEDIA_ACTIVE_COPPER] = "active-copper",
	[IBTOPO_MEDIA_AOC] = "aoc",
	[IBTOPO_MEDIA_MULTIMODE] = "multimode",
	[IBTOPO_MEDIA_SINGLEMODE] = "singlemode",
};

const char *ibtopo_media_name(enum ibtopo_media media)
{
	if ((size_t)media >= IBTOPO__ARRAY_SIZE(media_names))
		return "unknown";
	return media_names[media];
}

enum ibtopo_media ibtopo_media_parse(const char *name)
{
	if (!name)
		return IBTOPO_MEDIA_UNKNOWN;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(media_names); i++)
		if (strcasecmp(media_names[i], name) == 0)
			return (enum ibtopo_media)i;
	return IBTOPO_MEDIA_UNKNOWN;
}

static const char *const severity_names[] = { "info", "warning", "error" };

const char *ibtopo_severity_name(enum ibtopo_severity sev)
{
	if ((size_t)sev >= IBTOPO__ARRAY_SIZE(severity_names))
		return "error";
	return severity_names[sev];
}

int ibtopo_severity_parse(const char *name)
{
	for (size_t i = 0; name && i < IBTOPO__ARRAY_SIZE(severity_names); i++)
		if (strcmp(severity_names[i], name) == 0)
			return (int)i;
	return -1;
}

int ibtopo_format_parse(const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "text") == 0)
		return IBTOPO_FORMAT_TEXT;
	if (strcmp(name, "json") == 0)
		return IBTOPO_FORMAT_JSON;
	if (strcmp(name, "csv") == 0)
		return IBTOPO_FORMAT_CSV;
	return -1;
}

/* Natural order: "leaf2" before "leaf10"; leading zeros do not count. */
int ibtopo__natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *sa = a, *sb = b;
			size_t la, lb;

			while (*sa == '0' && isdigit((unsigned char)sa[1]))
				sa++;
			while (*sb == '0' && isdigit((unsigned char)sb[1]))
				sb++;
			a = sa;
			b = sb;
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			la = (size_t)(a - sa);
			lb = (size_t)(b - sb);
			if (la != lb)
				return la < lb ? -1 : 1;
			if (memcmp(sa, sb, la))
				return memcmp(sa, sb, la) < 0 ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}
