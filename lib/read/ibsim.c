/*
 * ibsim.c - what ibsim makes of widths and speeds, in one place: the
 * enabled masks of its net files (w=, s=, e= and the global width=,
 * speed=, extspeed=), the masks a "lid N 4xHDR" trailer sets, how it
 * trains a link and what it fixes as supported. The reader
 * (read_ibnetdiscover.c), the export writer and the plan writer use it.
 *
 * Width masks are IBA's enabled-width bits, which are ibtopo's width bits.
 */
#include "read/read-int.h"

#include <string.h>

static const struct sim_speed {
	unsigned speed;
	unsigned s, e;	/* its bit in ibsim's speed and extended speed masks */
	bool m;		/* a trailer with it enables FDR10 too */
} speeds[] = {
	{ IBTOPO_SPEED_SDR, 1, 0, false },
	{ IBTOPO_SPEED_DDR, 2, 0, false },
	{ IBTOPO_SPEED_QDR, 4, 0, false },
	{ IBTOPO_SPEED_FDR10, 4, 0, true },
	{ IBTOPO_SPEED_FDR, 4, 1, true },
	{ IBTOPO_SPEED_EDR, 4, 2, true },
	{ IBTOPO_SPEED_HDR, 4, 4, true },
	{ IBTOPO_SPEED_NDR, 4, 8, true },	/* ibsim 0.12 and later */
};

static const struct sim_speed *find_speed(unsigned speed)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++)
		if (speeds[i].speed == speed)
			return &speeds[i];
	return NULL;
}

unsigned ibtopo__ibsim_speed_set(unsigned s, unsigned e, bool fdr10)
{
	unsigned v = 0;

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++) {
		const struct sim_speed *r = &speeds[i];

		if (r->e ? (e & r->e) != 0 :
			   r->speed != IBTOPO_SPEED_FDR10 && (s & r->s))
			v |= r->speed;
	}
	if (fdr10)
		v |= IBTOPO_SPEED_FDR10;
	return v;
}

int ibtopo__ibsim_speed_masks(struct ibtopo__ibsim_masks *out, unsigned speed,
			      bool slower_too)
{
	const struct sim_speed *r = find_speed(speed);

	if (!r)
		return IBTOPO_EINVAL;
	out->s = (uint8_t)(slower_too ? r->s * 2 - 1 : r->s);
	out->e = (uint8_t)(!r->e ? 0 : slower_too ? r->e * 2 - 1 : r->e);
	out->m = slower_too ? r->m : speed == IBTOPO_SPEED_FDR10;
	return 0;
}

unsigned ibtopo__ibsim_write_speed(unsigned speed)
{
	return speed > IBTOPO_SPEED_HDR ? IBTOPO_SPEED_HDR : speed;
}

bool ibtopo__ibsim_needs_trailer(unsigned speed)
{
	/* no port option enables FDR10: only ibnetdiscover's trailer does */
	return speed == IBTOPO_SPEED_FDR10;
}

/* ibsim 0.10 (and NDR): what a trailer "lid N <w>x<speed>" sets. */
void ibtopo__ibsim_trailer(struct ibtopo__ibsim_masks *m, unsigned wnum,
			   const char *speed, size_t n)
{
	struct ibtopo__ibsim_masks t;

	switch (wnum) {
	case 12:
		m->w = IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X | IBTOPO_WIDTH_12X;
		break;
	case 8:
		m->w = IBTOPO_WIDTH_8X;
		break;
	case 4:
		m->w = IBTOPO_WIDTH_1X | IBTOPO_WIDTH_4X;
		break;
	case 1:
		m->w = IBTOPO_WIDTH_1X;
		break;
	case 2:
		m->w = IBTOPO_WIDTH_2X;
		break;
	default:
		break;
	}
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(speeds); i++) {
		const char *name = ibtopo_speed_name(speeds[i].speed);

		if (strlen(name) != n || memcmp(name, speed, n) ||
		    ibtopo__ibsim_speed_masks(&t, speeds[i].speed, true))
			continue;
		/* the speed mask always; extended and FDR10 only upwards */
		m->s = t.s;
		if (speeds[i].e)
			m->e = t.e;
		if (t.m)
			m->m = 1;
	}
}

unsigned ibtopo__ibsim_width_mask(unsigned width)
{
	/* 1x too, so that a port restricted to 1x trains */
	return (width ? width : IBTOPO_WIDTH_4X) | IBTOPO_WIDTH_1X;
}

unsigned ibtopo__ibsim_train_width(unsigned w)
{
	return w & IBTOPO_WIDTH_12X ? IBTOPO_WIDTH_12X :
	       w & IBTOPO_WIDTH_8X ? IBTOPO_WIDTH_8X :
	       w & IBTOPO_WIDTH_4X ? IBTOPO_WIDTH_4X :
	       w & IBTOPO_WIDTH_2X ? IBTOPO_WIDTH_2X : IBTOPO_WIDTH_1X;
}

unsigned ibtopo__ibsim_train_speed(unsigned s, unsigned e, bool fdr10)
{
	/* the extended speed wins when one is common, then FDR10 */
	if (e)
		return ibtopo_speed_highest(ibtopo__ibsim_speed_set(0, e, false));
	if (fdr10)
		return IBTOPO_SPEED_FDR10;
	return ibtopo_speed_highest(ibtopo__ibsim_speed_set(s, 0, false));
}

unsigned ibtopo__ibsim_speed_supported(unsigned e, bool fdr10)
{
	return ibtopo__ibsim_speed_set(7, e ? (e & 8 ? 15 : 7) : 0, fdr10);
}
