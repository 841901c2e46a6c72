/*
 * serve_gzip.c - gzip for `ibtopo serve`'s responses: the one file that
 * calls zlib. See serve_gzip.h for how a member is put together.
 */
#include "config.h"
#include "serve_gzip.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Level 6 (zlib's default): metrics text shrinks about tenfold and a
 * sweep of 100 MB of it compresses in about a second. */
#define SERVE_GZIP_LEVEL 6

/* 1f 8b, deflate, no flags, no mtime, no extra flags, OS unknown (255) */
const unsigned char serve_gzip_head[SERVE_GZIP_HEAD_LEN] = { 0x1f, 0x8b, 8, 0,
							     0,	   0,	 0, 0,
							     0,	   255 };

/* Deflate n bytes of `in` as raw blocks, ended by `flush` (Z_SYNC_FLUSH
 * or Z_FINISH), into a malloc'd *out with `reserve` bytes left free at
 * its end. */
static int deflate_raw(unsigned char **out, size_t *outlen, const char *in,
		       size_t n, int flush, size_t reserve)
{
	z_stream z;
	unsigned char *buf = NULL;
	size_t cap = n / 8 + 64 + reserve, len = 0;
	int rc = Z_OK;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, SERVE_GZIP_LEVEL, Z_DEFLATED, -15, 9,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)in;
	for (;;) {
		size_t chunk = n > UINT_MAX / 2 ? UINT_MAX / 2 : n;
		bool last = chunk == n;

		if (cap - len < 64 + reserve) {
			unsigned char *p = realloc(buf, cap * 2);

			if (!p)
				break;
			buf = p;
			cap *= 2;
		} else if (!buf) {
			buf = malloc(cap);
			if (!buf)
				break;
		}
		z.avail_in = (uInt)chunk;
		z.next_out = buf + len;
		z.avail_out = (uInt)(cap - len - reserve > UINT_MAX ?
					     UINT_MAX :
					     cap - len - reserve);
		rc = deflate(&z, last ? flush : Z_NO_FLUSH);
		len = (size_t)(z.next_out - buf);
		n -= chunk - z.avail_in;
		if (rc == Z_STREAM_ERROR)
			break;
		if (last && n == 0 && z.avail_out > 0 &&
		    (flush != Z_FINISH || rc == Z_STREAM_END)) {
			rc = 0;
			break;
		}
	}
	deflateEnd(&z);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int serve_gzip_part_init(struct serve_gzip_part *out, const char *text,
			 size_t n)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	size_t done = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	while (done < n) {
		size_t k = n - done > UINT_MAX ? UINT_MAX : n - done;

		crc = crc32(crc, (const Bytef *)text + done, (uInt)k);
		done += k;
	}
	if (deflate_raw(&out->z, &out->len, text, n, Z_SYNC_FLUSH, 0))
		return -1;
	out->crc = (uint32_t)crc;
	out->in_len = n;
	return 0;
}

void serve_gzip_part_release(struct serve_gzip_part *p)
{
	free(p->z);
	memset(p, 0, sizeof(*p));
}

static void put32le(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int serve_gzip_tail(unsigned char **out, size_t *outlen,
		    const struct serve_gzip_part *part, const char *body,
		    size_t n)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	size_t total = n;

	/* a tail is small: a response's own text, not the shared one */
	if (n > UINT_MAX / 2 || deflate_raw(out, outlen, body, n, Z_FINISH, 8))
		return -1;
	crc = crc32(crc, (const Bytef *)body, (uInt)n);
	if (part && part->in_len) {
		crc = crc32_combine((uLong)part->crc, crc, (z_off_t)n);
		total += part->in_len;
	}
	put32le(*out + *outlen, (uint32_t)crc);
	put32le(*out + *outlen + 4, (uint32_t)total);
	*outlen += 8;
	return 0;
}
