/*
 * serve_request.c - the pure parsing of `ibtopo serve`'s requests: the
 * route of a path, Accept-Encoding, the body headers, Basic auth.
 */
#include "config.h"
#include "serve_request.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum serve_route serve_request_route(const char *url)
{
	size_t n = strcspn(url, "?#");

	if (n == 8 && strncmp(url, "/metrics", 8) == 0)
		return SERVE_ROUTE_METRICS;
	if (n == 1 && url[0] == '/')
		return SERVE_ROUTE_ROOT;
	if (n == 8 && strncmp(url, "/healthz", 8) == 0)
		return SERVE_ROUTE_HEALTHZ;
	return SERVE_ROUTE_NONE;
}

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* The q of one coding's parameters ("; q=0.5"): 0 only when it is a
 * zero (0, 0., 0.0, 0.000); a malformed q counts as 1. */
static bool q_is_zero(const char *p, const char *end)
{
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *stop = semi ? semi : end;

		while (p < stop && is_ows(*p))
			p++;
		if (stop - p >= 2 && (p[0] == 'q' || p[0] == 'Q') &&
		    p[1] == '=') {
			const char *v = p + 2, *e = stop;

			while (e > v && is_ows(e[-1]))
				e--;
			if (v == e || *v != '0')
				return false;
			v++;
			if (v < e && *v == '.')
				v++;
			while (v < e && *v == '0')
				v++;
			return v == e;
		}
		p = semi ? semi + 1 : end;
	}
	return false;
}

bool serve_request_accepts_gzip(const char *ae)
{
	const char *p = ae;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		const char *name, *name_end;

		while (p < end && is_ows(*p))
			p++;
		name = p;
		while (p < end && *p != ';' && !is_ows(*p))
			p++;
		name_end = p;
		if (((name_end - name == 4 && !strncasecmp(name, "gzip", 4)) ||
		     (name_end - name == 6 && !strncasecmp(name, "x-gzip", 6)) ||
		     (name_end - name == 1 && *name == '*')) &&
		    !q_is_zero(p, end))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool serve_request_has_body(const char *cl, const char *te)
{
	bool zero = false;

	if (te)
		return true;
	if (!cl)
		return false;
	while (is_ows(*cl))
		cl++;
	while (*cl == '0') {
		zero = true;
		cl++;
	}
	while (is_ows(*cl))
		cl++;
	/* "0", "000": no body; "", "12", "x": one (or a bad request) */
	return !zero || *cl != '\0';
}

/* The value of a base64 digit (RFC 4648 section 4), -1 if none. */
static int b64(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Base64 `in` (n bytes, padding optional) into out; its length, or -1
 * when malformed or longer than cap. */
static long b64_decode(const char *in, size_t n, unsigned char *out, size_t cap)
{
	uint32_t acc = 0;
	size_t len = 0, digits = 0, pad = 0;

	for (size_t i = 0; i < n; i++) {
		int v;

		if (in[i] == '=') {
			pad++;
			continue;
		}
		v = b64((unsigned char)in[i]);
		if (v < 0 || pad)
			return -1;
		acc = (acc << 6) | (uint32_t)v;
		if (++digits % 4 == 0) {
			if (len + 3 > cap)
				return -1;
			out[len++] = (unsigned char)(acc >> 16);
			out[len++] = (unsigned char)(acc >> 8);
			out[len++] = (unsigned char)acc;
			acc = 0;
		}
	}
	switch (digits % 4) {
	case 1:
		return -1;
	case 2:
		if (len + 1 > cap || pad > 2)
			return -1;
		out[len++] = (unsigned char)(acc >> 4);
		break;
	case 3:
		if (len + 2 > cap || pad > 1)
			return -1;
		out[len++] = (unsigned char)(acc >> 10);
		out[len++] = (unsigned char)(acc >> 2);
		break;
	default:
		if (pad)
			return -1;
	}
	return (long)len;
}

bool serve_request_basic_auth(const char *h, char *user, size_t usercap,
			      char *pass, size_t passcap)
{
	unsigned char buf[1024];
	const unsigned char *colon;
	size_t n, ulen;
	long len;

	if (!h || strncasecmp(h, "Basic", 5) != 0 || !is_ows(h[5]))
		return false;
	h += 5;
	while (is_ows(*h))
		h++;
	n = strlen(h);
	while (n && is_ows(h[n - 1]))
		n--;
	len = b64_decode(h, n, buf, sizeof(buf));
	if (len < 0 || memchr(buf, '\0', (size_t)len))
		return false;
	colon = memchr(buf, ':', (size_t)len);
	if (!colon)
		return false;
	ulen = (size_t)(colon - buf);
	if (ulen >= usercap || (size_t)len - ulen - 1 >= passcap)
		return false;
	memcpy(user, buf, ulen);
	user[ulen] = '\0';
	memcpy(pass, colon + 1, (size_t)len - ulen - 1);
	pass[(size_t)len - ulen - 1] = '\0';
	memset(buf, 0, sizeof(buf));
	return true;
}
