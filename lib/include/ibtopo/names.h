/*
 * ibtopo/names.h - speeds and widths. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_NAMES_H
#define IBTOPO_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Link speeds as bits, ordered slowest to fastest; sets are masks. */
enum ibtopo_speed {
	IBTOPO_SPEED_SDR = 1u << 0,
	IBTOPO_SPEED_DDR = 1u << 1,
	IBTOPO_SPEED_QDR = 1u << 2,
	IBTOPO_SPEED_FDR10 = 1u << 3,
	IBTOPO_SPEED_FDR = 1u << 4,
	IBTOPO_SPEED_EDR = 1u << 5,
	IBTOPO_SPEED_HDR = 1u << 6,
	IBTOPO_SPEED_NDR = 1u << 7,
	IBTOPO_SPEED_XDR = 1u << 8,
};
#define IBTOPO_SPEED_ALL 0x1ffu

/** Link widths as IBA LinkWidth bits; sets are masks. */
enum ibtopo_width {
	IBTOPO_WIDTH_1X = 1u << 0,
	IBTOPO_WIDTH_4X = 1u << 1,
	IBTOPO_WIDTH_8X = 1u << 2,
	IBTOPO_WIDTH_12X = 1u << 3,
	IBTOPO_WIDTH_2X = 1u << 4,
};
#define IBTOPO_WIDTH_ALL 0x1fu

/** "SDR".."XDR" for one speed bit; "?" for 0 or several bits. */
const char *ibtopo_speed_name(unsigned speed);
/** Parse "HDR", "FDR10", ... (case-insensitive) into a bit; 0 if unknown. */
unsigned ibtopo_speed_parse(const char *name);
/** Highest speed bit of a mask; 0 for an empty mask. */
unsigned ibtopo_speed_highest(unsigned mask);
/** Data rate of one lane at that speed in Gb/s (after encoding); 0 if unknown. */
double ibtopo_speed_lane_gbps(unsigned speed);

/** "1x", "2x", "4x", "8x", "12x" for one width bit; "?" otherwise. */
const char *ibtopo_width_name(unsigned width);
/** Parse "4x" / "4X" into a width bit; 0 if unknown. */
unsigned ibtopo_width_parse(const char *name);
/** Lanes of one width bit (1, 2, 4, 8, 12); 0 if unknown. */
unsigned ibtopo_width_lanes(unsigned width);
/** Widest width bit of a mask (by lanes); 0 for an empty mask. */
unsigned ibtopo_width_highest(unsigned mask);

/** Data rate of a link in Gb/s from one speed bit and one width bit. */
double ibtopo_link_gbps(unsigned speed, unsigned width);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_NAMES_H */
