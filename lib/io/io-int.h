/*
 * io-int.h - private to libibtopo: what the readers in lib/io/ share (a
 * line reader, small parsers, an arena and hash maps), the tables of
 * readers and of writers, and what lib/io/ gives the other modules
 * (store, sweep, PMA, cable reach table, ibsim encodings, name maps).
 *
 * A reader is one file, lib/io/read_<format>.c, exporting one
 * `const struct ibtopo__reader`; readers.c lists them. Adding an input
 * format is that file, its row in readers.c and its enumerator in
 * enum ibtopo_file_format.
 */
#ifndef IBTOPO_IO_INT_H
#define IBTOPO_IO_INT_H

#include "ibtopo-int.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- text.c: whole files ---- */

/**
 * fopen() for reading, which refuses a directory (errno EISDIR, so the
 * caller's "cannot open 'x': %s" says "Is a directory").
 */
FILE *ibtopo__open_read(const char *path, const char *mode);

/**
 * Read a whole file into a malloc'd buffer of *out_len bytes, with a NUL
 * after them (the bytes may hold NULs of their own). IBTOPO_EIO, IBTOPO_ENOMEM.
 */
int ibtopo__read_whole_file(char **out, size_t *out_len, const char *path,
			    struct ibtopo_error *err);
/** A text file as one string: IBTOPO_EPARSE if it holds a NUL byte. */
int ibtopo__read_text_file(char **out, const char *path,
			   struct ibtopo_error *err);

/* ---- text.c: lines ---- */

/* Real dumps stay under 300 bytes a line; anything longer is not one. */
#define IBTOPO__LINE_MAX 4096

/* A buffer read line by line; messages name the file and the line. */
struct ibtopo__src {
	const char *name;		/* for messages */
	const char *buf;
	size_t len, pos;
	unsigned lineno;
	bool last_had_newline;
	char line[IBTOPO__LINE_MAX + 1];
	const struct ibtopo_read_opts *opts;
	struct ibtopo_error *err;
};

void ibtopo__src_init(struct ibtopo__src *s, const char *buf, size_t len,
		      const char *name, const struct ibtopo_read_opts *opts,
		      struct ibtopo_error *err);
/** IBTOPO_EPARSE "<name>:<line>: <message>", quoted for a terminal. */
int ibtopo__src_error(struct ibtopo__src *s, unsigned line, const char *fmt, ...)
	IBTOPO__PRINTF(3, 4);
/** A warning through opts->warn, when the caller gave one. */
void ibtopo__src_warn(struct ibtopo__src *s, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);
bool ibtopo__is_text_byte(unsigned char c);
/** Binary data and empty input get one clear message up front. */
int ibtopo__src_check_text(struct ibtopo__src *s);
/** Next line into s->line, without its end: 1, 0 at the end, or <0. */
int ibtopo__src_next(struct ibtopo__src *s);

/* ---- text.c: lines split in place, CSV records ---- */

/* Lines of a NUL-terminated buffer, split in place; CR before LF dropped. */
struct ibtopo__lines {
	char *p;
	unsigned no;	/* number of the line last returned */
};

/** The next line, or NULL at the end of the buffer. */
char *ibtopo__lines_next(struct ibtopo__lines *it);
/** `s` without its leading and (cut in place) trailing white space. */
char *ibtopo__trim(char *s);
/**
 * Split one CSV record in place (RFC 4180 quoting within the line).
 * Fields are trimmed. Returns the field count, or -1 for an unterminated
 * quote. Fields beyond `max` are dropped.
 */
int ibtopo__csv_split(char *line, char **fields, int max);

/* ---- text.c: small parsers over a cursor ---- */

const char *ibtopo__skip_ws(const char *p);
bool ibtopo__is_digit(char c);
/** Decimal number <= max; advances *pp. */
bool ibtopo__parse_uint(const char **pp, unsigned long max, unsigned long *out);
/** Hex number of 1..16 digits, optional 0x; advances *pp. */
bool ibtopo__parse_hex64(const char **pp, uint64_t *out);
/** Number as C's strtoul with base 0 would read it (ibsim options). */
bool ibtopo__parse_cnum(const char **pp, unsigned long max, unsigned long *out);
/** Does p start with word, followed by a blank or the end? */
bool ibtopo__word_at(const char *p, const char *word);
/** "4x", "12x", "??" -> width bit (0 for "??"); false if not a width. */
bool ibtopo__parse_width_text(const char *s, size_t n, unsigned *out);
/** "QDR", "FDR10", "???" -> speed bit (0 for "???"); false if not a speed. */
bool ibtopo__parse_speed_text(const char *s, size_t n, unsigned *out);
/**
 * A trailer token "4xQDR", "2xNDR", "4x???", "?????": width and speed.
 * Returns 1 when the token is one, 0 when it is not, -1 when it looks like
 * one (a width and more) but the speed is unknown.
 */
int ibtopo__parse_ws_token(const char *tok, size_t n, unsigned *width,
			   unsigned *speed);
/** "4xHDR" as ibnetdiscover prints it, "??" and "???" for unknowns. */
const char *ibtopo__ws_text(unsigned width, unsigned speed, char *buf,
			    size_t len);
/** "switch", "router" or "CA", for messages. */
const char *ibtopo__type_word(enum ibtopo_node_type type);
/** 'S', 'R' or 'H': the letter of an "S-<guid>" node id. */
char ibtopo__type_letter(enum ibtopo_node_type type);

/* ---- arena.c: memory for the readers ---- */

struct ibtopo__arena_blk {
	struct ibtopo__arena_blk *next;
	size_t used, size;
	char data[];
};

/* Strings that live until the reader is done; zero-initialized is empty. */
struct ibtopo__arena {
	struct ibtopo__arena_blk *head;
};

char *ibtopo__arena_strndup(struct ibtopo__arena *a, const char *s, size_t n);
void ibtopo__arena_release(struct ibtopo__arena *a);

#define IBTOPO__FNV_OFFSET 0xcbf29ce484222325ull
uint64_t ibtopo__fnv1a(const void *data, size_t n, uint64_t h);
/** The GUID for a name after `attempt` collisions; attempt 0 is the public one. */
uint64_t ibtopo__name_guid_attempt(const char *name, unsigned attempt);

/*
 * Open-addressing map from a key (string or 64-bit number) to an index.
 * Slots hold index + 1; 0 is empty. Zero-initialized is empty.
 */
struct ibtopo__imap {
	size_t *slots;
	uint64_t *keys;		/* numeric keys, or the hash of string keys */
	size_t size, count;
};

void ibtopo__imap_release(struct ibtopo__imap *m);
uint64_t ibtopo__mix64(uint64_t k);
/** The key of a string (mixed, as stored keys are). */
uint64_t ibtopo__str_key(const char *s);
/**
 * Find key in the map; `eq` tells stored index i matches (for string keys;
 * NULL compares the numbers). Returns the index or SIZE_MAX.
 */
size_t ibtopo__imap_find(const struct ibtopo__imap *m, uint64_t key,
			 bool (*eq)(const void *ctx, size_t i), const void *ctx);
/** Insert (key -> idx); the caller has checked it is absent. */
int ibtopo__imap_put(struct ibtopo__imap *m, uint64_t key, size_t idx);
/** Numeric keys: keep them pre-mixed, the map rehashes with the stored key. */
size_t ibtopo__imap_find_u64(const struct ibtopo__imap *m, uint64_t key);

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

/* ---- what lib/io/ gives the rest of the library ---- */

/* io/store.c */
/**
 * Run SQL on a database file, creating it; no schema checks (for tests).
 * The first column of the last row any statement returned goes to *out
 * (may be NULL).
 */
int ibtopo__store_exec_path(const char *path, const char *sql, int64_t *out,
			    struct ibtopo_error *err);

/* io/store_report.c */
/**
 * The snapshots of `list` as a table, those of `fabric` only (NULL: all),
 * with the fabric as a last column when `fabric_column`: the one column
 * list of ibtopo_store_report_snapshots() and ibtopo_report_snapshots().
 */
int ibtopo__store_snapshots_write(const struct ibtopo_sink *sink,
				  const struct ibtopo_snapshot *list,
				  size_t count, const char *fabric,
				  bool fabric_column, struct ibtopo_error *err);

/* io/sweep.c: the live sweep, for discover.c (see there) */
struct ibnd_fabric;
struct ibnd_config;
struct ibnd_node;

/* LFT entries per LinearForwardingTable block (IBA 14.2.5.10) */
#define IBTOPO__LFT_BLOCK 64

/* One switch's forwarding table as read live (discover --routes). */
struct ibtopo__lft_read {
	struct ibnd_node *node;
	unsigned top;		/* LinearFDBTop from SwitchInfo */
	unsigned blocks;	/* top / IBTOPO__LFT_BLOCK + 1 */
	unsigned missing;	/* blocks that did not answer */
	uint8_t *port;		/* blocks * IBTOPO__LFT_BLOCK entries */
	uint8_t *have;		/* per block: answered */
};

/*
 * The tables of every switch that answered SwitchInfo, read after the
 * walk through the sweep's own SMP window. Zero-initialized is empty.
 */
struct ibtopo__lfts {
	struct ibtopo__lft_read *sw;
	size_t count;
	size_t next, next_block;	/* the next block to ask for */
	size_t gets;			/* LinearForwardingTable Gets sent */
	double seconds;			/* spent reading them */
};

/*
 * The MADs in flight, AIMD as TCP's congestion window: halved on a loss
 * (once per window's worth of MADs, floor 1), one more for every `cur`
 * answers, up to `max`. sweep.c and pma.c each keep one.
 */
struct ibtopo__window {
	unsigned max, cur, min;	/* allowed, now, the lowest reached */
	unsigned acks;		/* answers since it last grew */
	unsigned long seq;	/* MADs sent so far: each one's number */
	unsigned long cut_at;	/* seq when it was last halved */
};

void ibtopo__window_init(struct ibtopo__window *w, unsigned max);
/** One MAD goes out: its sequence number (for ibtopo__window_loss()). */
unsigned long ibtopo__window_sent(struct ibtopo__window *w);
void ibtopo__window_answer(struct ibtopo__window *w);
/** MAD number `seq` timed out. */
void ibtopo__window_loss(struct ibtopo__window *w, unsigned long seq);
/** The timeout of a query's try number `tries` (0: the first send). */
unsigned ibtopo__retry_timeout(unsigned base_ms, unsigned tries);

/*
 * What asking per MAD cost, over a discovery: the public counts and the
 * timeouts per node (GUID), to name a node that lost far more than the
 * others. Zero-initialized is empty.
 */
struct ibtopo__mad_tally {
	struct ibtopo_mad_stats st;
	struct ibtopo__blame {
		uint64_t guid;
		size_t timeouts;
	} *blame;
	size_t nblame, ablame;
};

/** A query to node `guid` timed out (guid 0: not known). */
void ibtopo__tally_timeout(struct ibtopo__mad_tally *t, uint64_t guid);
/** Fold a window's lowest value into t->st. */
void ibtopo__tally_window(struct ibtopo__mad_tally *t,
			  const struct ibtopo__window *w);
/**
 * The node that timed out far more than any other (at least 8 times, and
 * 3 times as often as the next): its GUID and count, or 0.
 */
uint64_t ibtopo__tally_worst(const struct ibtopo__mad_tally *t,
			     size_t *timeouts);
void ibtopo__tally_release(struct ibtopo__mad_tally *t);

/** Add a switch (SwitchInfo known) to read; -1 when out of memory. */
int ibtopo__lfts_add(struct ibtopo__lfts *l, struct ibnd_node *node,
		     unsigned top);
void ibtopo__lfts_release(struct ibtopo__lfts *l);
/** Seconds on the monotonic clock. */
double ibtopo__mono_now(void);
/**
 * Walk the fabric through local `ca` port `portnum` into a new libibnetdisc
 * fabric (free it with ibtopo__sweep_free(), never ibnd_destroy_fabric()).
 * An SMP that times out is sent again, up to cfg->retries times, with a
 * timeout that doubles (ibtopo__retry_timeout()); what still does not
 * answer is left out, counted in tally->st.lost. With `lfts`
 * (may be NULL), once the walk is done, every switch's LinearFDBTop is
 * taken from its SwitchInfo and its LinearForwardingTable blocks
 * 0..top/64 are asked for through the same window; blocks that do not
 * answer are counted in each switch's `missing`.
 */
int ibtopo__sweep(struct ibnd_fabric **out, const char *ca, int portnum,
		  const struct ibnd_config *cfg, struct ibtopo__lfts *lfts,
		  struct ibtopo__mad_tally *tally, struct ibtopo_error *err);
void ibtopo__sweep_free(struct ibnd_fabric *fabric);

/* io/read_roots.c: the topology analysis' roots file */
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
void ibtopo__roots_free(struct ibtopo__roots *roots);

/* io/read_thresholds.c: the health analysis' thresholds file */
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

/* io/discover_local.c: where a discovery was made from (see there) */
struct ibtopo__local {
	uint64_t prefix;  /* PortInfo GidPrefix of the local port */
	uint16_t sm_lid;  /* its MasterSMLID */
	uint64_t sm_guid; /* SMInfo GUID of that SM */
};
/**
 * Ask the local `ca` port `portnum` for its subnet prefix and master SM
 * LID (PortInfo Get) and the SM for its port GUID (SMInfo Get): before
 * the sweep, so that the sweep's SMPs keep their numbers. What does not
 * answer stays 0.
 */
void ibtopo__discover_local(struct ibtopo__local *out, const char *ca,
			    int portnum, unsigned timeout_ms);

/* io/pma.c: port counters of a discovered fabric (see there) */
/**
 * Read PortCounters (and PortCountersExtended where ClassPortInfo says
 * so) of every linked port with a LID through local `ca` port `portnum`,
 * Gets only, and attach them to the ports. *out_missed counts the linked
 * ports left without counters (no LID, or their PMA answered with an
 * error status). A MAD that times out is sent again, up to `retries`
 * times; *out_lost counts the queries that never answered, and `lost`
 * describes the first (a port and an attribute).
 */
int ibtopo__pma_read(struct ibtopo_fabric *fabric, const char *ca, int portnum,
		     unsigned timeout_ms, unsigned retries,
		     struct ibtopo__mad_tally *tally, size_t *out_missed,
		     size_t *out_lost, char *lost, size_t lost_len,
		     struct ibtopo_error *err);

/* io/cables_reach.c: the cable reach table (data/cable-reach.tsv) */
struct ibtopo__reach;
/**
 * Load a reach table from `path`, or the built-in copy of
 * data/cable-reach.tsv when path is NULL. IBTOPO_EIO, IBTOPO_EPARSE
 * ("<path>:<line>: ..."), IBTOPO_ENOMEM.
 */
int ibtopo__reach_load(struct ibtopo__reach **out, const char *path,
		       struct ibtopo_error *err);
/** Parse a reach table held in memory; `name` names it in errors. */
int ibtopo__reach_parse(struct ibtopo__reach **out, const char *text,
			const char *name, struct ibtopo_error *err);
void ibtopo__reach_free(struct ibtopo__reach *table);
/** Metres for one speed bit and media; 0 when the table has no row. */
double ibtopo__reach_lookup(const struct ibtopo__reach *table, unsigned speed,
			    enum ibtopo_media media);

/*
 * io/cables_dbcsv.c: the sections of ibdiagnet's db_csv ("START_<NAME>", a CSV
 * header, rows, "END_<NAME>"), read by the cable and the counter readers.
 */
struct ibtopo__dbcsv {
	char *p;		/* the next line; the text is split in place */
	unsigned no;		/* number of the line last returned */
	char end[64];		/* "END_<NAME>" */
};
/**
 * Find the line "START_<name>" in `text` (NUL-terminated; nothing before
 * the section is changed, so several sections can be found first and
 * read after). False when the text has no such section.
 */
bool ibtopo__dbcsv_section(struct ibtopo__dbcsv *s, char *text,
			   const char *name);
/**
 * The next row of the section (the first is its header), split in place
 * into trimmed fields (at most `max`); blank lines are skipped. Returns
 * the field count, 0 at "END_<name>" or the end of the text, -1 for an
 * unterminated quote (line s->no).
 */
int ibtopo__dbcsv_row(struct ibtopo__dbcsv *s, char **fields, int max);

/* io/ibsim.c: ibsim's encodings of widths and speeds, and its training */
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

#endif /* IBTOPO_IO_INT_H */
