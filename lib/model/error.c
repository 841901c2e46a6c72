/* error.c - status codes and the caller-provided error buffer */
#include "model/model-int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char *ibtopo_strerror(int code)
{
	switch (code) {
	case IBTOPO_OK:
		return "success";
	case IBTOPO_EINVAL:
		return "invalid argument";
	case IBTOPO_ENOMEM:
		return "out of memory";
	case IBTOPO_ENOTFOUND:
		return "not found";
	case IBTOPO_EIO:
		return "input/output error";
	case IBTOPO_EPARSE:
		return "malformed input";
	case IBTOPO_ENODEV:
		return "no InfiniBand device";
	case IBTOPO_EPARTIAL:
		return "discovery incomplete";
	case IBTOPO_EVERSION:
		return "unsupported schema version";
	case IBTOPO_EBUSY:
		return "database busy";
	case IBTOPO_EEXIST:
		return "already exists";
	case IBTOPO_EAMBIGUOUS:
		return "ambiguous name";
	default:
		return "error";
	}
}

int ibtopo__error_vset(struct ibtopo_error *err, int code, const char *fmt,
		       va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return code;
}

int ibtopo__error_set(struct ibtopo_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ibtopo__error_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int ibtopo__error_set_input(struct ibtopo_error *err, int code,
			    const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	err->code = code;
	ibtopo__quote(err->message, sizeof(err->message), buf, strlen(buf));
	return code;
}

int ibtopo__error_prefix(struct ibtopo_error *err, const char *fmt, ...)
{
	char buf[2 * IBTOPO_ERROR_SIZE + 2];
	size_t n;
	va_list ap;

	if (!err)
		return IBTOPO_ERROR;
	va_start(ap, fmt);
	vsnprintf(buf, IBTOPO_ERROR_SIZE, fmt, ap);
	va_end(ap);
	n = strlen(buf);
	buf[n++] = ':';
	buf[n++] = ' ';
	memcpy(buf + n, err->message, IBTOPO_ERROR_SIZE);
	buf[n + IBTOPO_ERROR_SIZE - 1] = '\0';
	memcpy(err->message, buf, IBTOPO_ERROR_SIZE - 1);
	err->message[IBTOPO_ERROR_SIZE - 1] = '\0';
	return err->code;
}

/* Bytes in a well-formed UTF-8 sequence at s (of n), 0 when not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t k;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, C1 controls */
	if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp < 0xa0)
		return 0;
	return k;
}

const char *ibtopo__quote(char *buf, size_t len, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, i = 0;

	if (!len)
		return buf;
	while (i < n && p[i]) {
		char piece[8];
		size_t k = 1, w;

		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			piece[0] = (char)p[i];
			w = 1;
		} else if (p[i] >= 0x80 && (k = utf8_len(p + i, n - i)) > 0) {
			memcpy(piece, p + i, k);
			w = k;
		} else {
			k = 1;
			snprintf(piece, sizeof(piece), "\\x%02x", p[i]);
			w = 4;
		}
		/* room for this piece, and for "..." if more follows */
		if (o + w + (i + k < n && p[i + k] ? 3 : 0) >= len) {
			/* the pieces before left room for it */
			if (o + 3 < len) {
				memcpy(buf + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(buf + o, piece, w);
		o += w;
		i += k;
	}
	buf[o] = '\0';
	return buf;
}
