/*
 * serve_gzip.h - gzip responses of `ibtopo serve` (zlib). A large text
 * shared by many responses is deflated once, when a sweep makes it; each
 * response adds its own small tail, deflated as it is sent, and the two
 * make one gzip member (RFC 1952): the shared part ends with a sync
 * flush, so the tail's blocks follow it on a byte boundary, and the CRC
 * of the whole is combined from the two (as pigz joins its blocks).
 */
#ifndef IBTOPO_SERVE_GZIP_H
#define IBTOPO_SERVE_GZIP_H

#include <stddef.h>
#include <stdint.h>

/* The gzip header serve sends: no name, no time, OS unknown. */
#define SERVE_GZIP_HEAD_LEN 10
extern const unsigned char serve_gzip_head[SERVE_GZIP_HEAD_LEN];

/* A text deflated without its end: raw deflate blocks, sync-flushed. */
struct serve_gzip_part {
	unsigned char *z; /* malloc'd; NULL for an empty text */
	size_t len;
	uint32_t crc;  /* CRC-32 of the text */
	size_t in_len; /* the text's length */
};

/** Deflate `text` into *out; 0, or -1 out of memory. */
int serve_gzip_part_init(struct serve_gzip_part *out, const char *text,
			 size_t n);

/** Free what serve_gzip_part_init() made; zeroes *p. */
void serve_gzip_part_release(struct serve_gzip_part *p);

/**
 * What follows the header and `part` (NULL: none) in a gzip member:
 * `body` deflated to the last block, then the CRC and length of the
 * whole. *out is malloc'd. 0, or -1 out of memory.
 */
int serve_gzip_tail(unsigned char **out, size_t *outlen,
		    const struct serve_gzip_part *part, const char *body,
		    size_t n);

#endif
