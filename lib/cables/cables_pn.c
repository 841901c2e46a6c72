/*
 * cables_pn.c - what an NVIDIA/Mellanox LinkX part number says of its
 * cable: media, rated speed and length.
 */
#include "base/base-int.h"

#include <ctype.h>
#include <string.h>

static const struct {
	const char *family;
	enum ibtopo_media media;
	bool cable; /* carries a length code */
} linkx_families[] = {
	{ "MCP", IBTOPO_MEDIA_PASSIVE_COPPER, true },
	{ "MCA", IBTOPO_MEDIA_ACTIVE_COPPER, true },
	{ "MFA", IBTOPO_MEDIA_AOC, true },
	{ "MFS", IBTOPO_MEDIA_AOC, true },
	{ "MMA", IBTOPO_MEDIA_MULTIMODE, false },
	{ "MMS", IBTOPO_MEDIA_SINGLEMODE, false },
};

static unsigned linkx_rate(char c)
{
	switch (c) {
	case 'E':
		return IBTOPO_SPEED_EDR;
	case 'H':
		return IBTOPO_SPEED_HDR;
	case 'N':
		return IBTOPO_SPEED_NDR;
	default:
		return 0; /* e.g. C (100GbE) or V (200GbE): no IB rating */
	}
}

int ibtopo_cable_decode_part_number(struct ibtopo_cable *out,
				    const char *part_number)
{
	char pn[32];
	size_t i, n = 0;
	const char *s = part_number;
	double length = 0;

	if (!out || !s)
		return IBTOPO_ENOTFOUND;
	while (isspace((unsigned char)*s))
		s++;
	for (; s[n] && !isspace((unsigned char)s[n]) && n + 1 < sizeof(pn); n++)
		pn[n] = (char)toupper((unsigned char)s[n]);
	pn[n] = '\0';
	/* FAMILY + 4 alphanumerics (e.g. MCP1600, MFS1S00) + '-' + rate */
	if (n < 9 || pn[7] != '-')
		return IBTOPO_ENOTFOUND;
	for (i = 3; i < 7; i++)
		if (!isalnum((unsigned char)pn[i]))
			return IBTOPO_ENOTFOUND;
	for (i = 0; i < IBTOPO__ARRAY_SIZE(linkx_families); i++)
		if (strncmp(pn, linkx_families[i].family, 3) == 0)
			break;
	if (i == IBTOPO__ARRAY_SIZE(linkx_families) ||
	    !isalpha((unsigned char)pn[8]))
		return IBTOPO_ENOTFOUND;
	/* Length code after the rate letter: 002 = 2 m, 00A = 0.5 m, 01A = 1.5 m */
	if (linkx_families[i].cable && n >= 12 &&
	    isdigit((unsigned char)pn[9]) && isdigit((unsigned char)pn[10]) &&
	    (isdigit((unsigned char)pn[11]) || pn[11] == 'A')) {
		if (pn[11] == 'A')
			length = (pn[9] - '0') * 10 + (pn[10] - '0') + 0.5;
		else
			length = (pn[9] - '0') * 100 + (pn[10] - '0') * 10 +
				 (pn[11] - '0');
	}
	out->media = linkx_families[i].media;
	out->rated_speed = linkx_rate(pn[8]);
	out->length_m = length;
	return 0;
}
