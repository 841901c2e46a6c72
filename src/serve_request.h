/*
 * serve_request.h - the pure parsing of `ibtopo serve`'s requests: no
 * socket, no library, so the fuzz target (fuzz/fuzz_serve.c) calls the
 * same code the server runs.
 */
#ifndef IBTOPO_SERVE_REQUEST_H
#define IBTOPO_SERVE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

/* What serve answers, by path. */
enum serve_route {
	SERVE_ROUTE_NONE, /* 404 */
	SERVE_ROUTE_METRICS,
	SERVE_ROUTE_ROOT,
	SERVE_ROUTE_HEALTHZ,
};

/** The route of a request target: the path up to '?' or '#'. */
enum serve_route serve_request_route(const char *url);

/**
 * True when an Accept-Encoding header value (NULL: no header) takes
 * gzip: a "gzip", "x-gzip" or "*" coding whose q is not 0 (RFC 9110
 * 12.5.3), case-insensitive.
 */
bool serve_request_accepts_gzip(const char *accept_encoding);

/**
 * True when the headers announce a body: a Content-Length that is not
 * a plain 0, or any Transfer-Encoding. NULL: the header is absent.
 */
bool serve_request_has_body(const char *content_length,
			    const char *transfer_encoding);

/**
 * An Authorization header value of the Basic scheme (RFC 7617) into
 * user and password, NUL-terminated, at most usercap-1 and passcap-1
 * bytes; false when it is absent, not Basic, not base64, has no ':'
 * or does not fit. The password may hold any byte but NUL.
 */
bool serve_request_basic_auth(const char *authorization, char *user,
			      size_t usercap, char *pass, size_t passcap);

#endif
