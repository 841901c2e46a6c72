/*
 * read-int.h - private to libibtopo: the file readers (lib/read/) and what
 * they give the other modules.
 *
 * A reader is one file, lib/read/read_<format>.c, exporting one
 * `const struct ibtopo__reader`; readers.c lists them. Adding an input
 * format is that file, its row in readers.c and its enumerator in
 * enum ibtopo_file_format. Besides the fabric readers: the roots file of
 * the topology analysis, the thresholds file of health, and ibsim's
 * encodings of widths and speeds (read here, written by lib/export/).
 */
#ifndef IBTOPO_READ_INT_H
#define IBTOPO_READ_INT_H

#include "base/base-int.h"

/* ---- readers.c: the table of readers ---- */

/*
 * One input format. Text readers give detect() and read(); a reader of
 * binary files that a library reads from a path (the cache) gives
 * detect_path() and read_path() instead.
 */
struct ibtopo__reader {
	enum ibtopo_file_format format;
	const char *name;		/* for --format, ibtopo_file_format_name() */
	const char *what;		/* "an ibsim net file", for messages */
	/*
	 * How specific the evidence is that a text buffer is in this
	 * format: 0 none; the strongest claim takes the buffer (a ports
	 * report before any node record beats ibsim options, which beat
	 * plain node records).
	 */
	int (*detect)(const char *buf, size_t len);
	/* read the whole buffer; s holds the options and takes the error */
	int (*read)(struct ibtopo_fabric **out, struct ibtopo__src *s);
	bool (*detect_path)(const char *path);
	int (*read_path)(struct ibtopo_fabric **out, const char *path,
			 struct ibtopo_error *err);
};

/** The reader of `format`; NULL for IBTOPO_FILE_AUTO or an unknown one. */
const struct ibtopo__reader *ibtopo__reader_find(enum ibtopo_file_format format);
/** The reader that takes the file at `path` by its path alone, or NULL. */
const struct ibtopo__reader *ibtopo__reader_for_path(const char *path);

/*
 * For detect(): each line of buf that holds something, blanks before it
 * trimmed and comment lines left out, goes to fn until fn returns
 * nonzero; returns that value, or 0.
 */
int ibtopo__each_line(const char *buf, size_t len,
		      int (*fn)(void *arg, const char *p, size_t n), void *arg);
/** Does the trimmed line p[0..n) start with word w and a blank? */
bool ibtopo__line_word(const char *p, size_t n, const char *w);
/** Does it start with key w and '=' or a blank? */
bool ibtopo__line_key(const char *p, size_t n, const char *w);
/** Does it open a node record (Switch, Ca, Hca, Rt, Rtr)? */
bool ibtopo__line_is_record(const char *p, size_t n);

/* read_roots.c: the topology analysis' roots file */
struct ibtopo__root_line {
	char *word;		/* a GUID, description or short name */
	unsigned line;		/* its line in the file */
};

struct ibtopo__roots {
	char *path;		/* names the file in errors */
	size_t n, alloc;
	struct ibtopo__root_line *lines;
};

/** Read a roots file: IBTOPO_EIO ("cannot read roots file ..."), ENOMEM. */
int ibtopo__roots_read(struct ibtopo__roots **out, const char *path,
		       struct ibtopo_error *err);
/** The same from `len` bytes of text; `name` names it in errors. */
int ibtopo__roots_parse(struct ibtopo__roots **out, const char *text,
			size_t len, const char *name, struct ibtopo_error *err);
void ibtopo__roots_free(struct ibtopo__roots *roots);

/* read_thresholds.c: the health analysis' thresholds file */
#define IBTOPO__SPEED_BITS 16
struct ibtopo__thresholds {
	uint64_t v[IBTOPO_CTR_COUNT_];	/* 0: the counter has no threshold */
	/* high-ber above ber[i] for the speed 1u << i ("BER.EDR=1e-12";
	 * "BER=" sets them all); default IBTOPO__BER_DEFAULT */
	double ber[IBTOPO__SPEED_BITS];
	/* congested-port above this share of the link's capacity lost to
	 * waiting ("XmitWaitShare="); default IBTOPO__XMIT_WAIT_DEFAULT */
	double xmit_wait_share;
};
/* IBTA link BER requirement, ibdiagnet's --ber_thresh default 10^-12 */
#define IBTOPO__BER_DEFAULT 1e-12
#define IBTOPO__XMIT_WAIT_DEFAULT 0.05

/**
 * Read thresholds from `path` into *t (counts 0 and the BER and
 * XmitWait defaults first; a NULL path leaves them so). IBTOPO_EIO, IBTOPO_EPARSE ("<path>:<line>: ..."), ENOMEM.
 */
int ibtopo__thresholds_read(struct ibtopo__thresholds *t, const char *path,
			    struct ibtopo_error *err);
/** The same from `len` bytes of text; `path` names it in errors. */
int ibtopo__thresholds_parse(struct ibtopo__thresholds *t, const char *buf,
			     size_t len, const char *path,
			     struct ibtopo_error *err);

/* ibsim.c: ibsim's encodings of widths and speeds, and its training */
/* Enabled masks: width (IBA bits = ibtopo's), speed, extended speed, FDR10. */
struct ibtopo__ibsim_masks {
	uint8_t w, s, e, m;
};

/* What a port enables when the file says nothing. */
#define IBTOPO__IBSIM_WIDTH_DEFAULT 2	/* 4x */
#define IBTOPO__IBSIM_SPEED_DEFAULT 1	/* SDR */

/** ibsim speed and extended speed masks (and the FDR10 bit) -> speed set. */
unsigned ibtopo__ibsim_speed_set(unsigned s, unsigned e, bool fdr10);
/**
 * The s, e and m masks that make a link train at `speed`: its bits only,
 * or with `slower_too` every slower speed enabled as well. The width
 * is left alone. IBTOPO_EINVAL for a speed ibsim does not know.
 */
int ibtopo__ibsim_speed_masks(struct ibtopo__ibsim_masks *out, unsigned speed,
			      bool slower_too);
/** FDR10 cannot be a port option: only a trailer ("lid 0 4xFDR10") sets it. */
bool ibtopo__ibsim_needs_trailer(unsigned speed);
/**
 * The speed a net file gives a link that ran at `speed`: the speed
 * itself, or HDR for NDR and faster. Debian 12's ibsim 0.10 takes
 * extended speeds 0..7 only (FDR, EDR, HDR: "bad extended speed 8");
 * ibsim 0.12 adds NDR, but no release simulates XDR.
 */
unsigned ibtopo__ibsim_write_speed(unsigned speed);
/** The masks a trailer "<wnum>x<speed>" sets, as ibsim reads it. */
void ibtopo__ibsim_trailer(struct ibtopo__ibsim_masks *m, unsigned wnum,
			   const char *speed, size_t n);
/** Enabled widths that train at `width` (0: 4x), and 1x. */
unsigned ibtopo__ibsim_width_mask(unsigned width);
/** The width and speed ibsim trains from the masks both ends enable. */
unsigned ibtopo__ibsim_train_width(unsigned w);
unsigned ibtopo__ibsim_train_speed(unsigned s, unsigned e, bool fdr10);
/** The speeds ibsim says a port supports, from the common ext. speeds. */
unsigned ibtopo__ibsim_speed_supported(unsigned e, bool fdr10);

/* read/read_mcfdbs.c: the multicast blocks of a routing dump */
struct ibtopo__mcr;
int ibtopo__mcr_new(struct ibtopo__mcr **out);
void ibtopo__mcr_free(struct ibtopo__mcr *m);
/** A line (trimmed `p`, whole `raw`): 1 a multicast one, 0 not, or <0. */
int ibtopo__mcr_line(struct ibtopo__mcr *m, struct ibtopo__src *src,
		     struct ibtopo_fabric *f, const char *p, const char *raw);
bool ibtopo__mcr_in_block(const struct ibtopo__mcr *m);
void ibtopo__mcr_end_block(struct ibtopo__mcr *m);
size_t ibtopo__mcr_blocks(const struct ibtopo__mcr *m);
size_t ibtopo__mcr_unknown(const struct ibtopo__mcr *m);
/** The switches' multicast tables become the file's. */
int ibtopo__mcr_commit(struct ibtopo__mcr *m, struct ibtopo_fabric *f,
		       struct ibtopo_error *err);

#endif /* IBTOPO_READ_INT_H */
