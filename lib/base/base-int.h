/*
 * base-int.h - private to libibtopo: the floor under every room that reads
 * or writes text. Whole files, a line reader that names the file and the
 * line in its messages, lines and CSV records split in place, small
 * parsers over a cursor (text.c), and an arena and hash maps (arena.c).
 * Generic: nothing here knows a file format, a MAD or a database.
 */
#ifndef IBTOPO_BASE_INT_H
#define IBTOPO_BASE_INT_H

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

#endif /* IBTOPO_BASE_INT_H */
