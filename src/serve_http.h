/* serve_http.h - the HTTP side of `ibtopo serve` (libmicrohttpd) */
#ifndef IBTOPO_SERVE_HTTP_H
#define IBTOPO_SERVE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

#include "serve_request.h"

/* Request headers (and the URL) larger than this get a 4xx. */
#define SERVE_HTTP_REQUEST_MAX (16u * 1024u)

/*
 * Connections at once (a thread each), and how long one may stay idle:
 * Prometheus scrapes within its 10 s timeout and reconnects when a kept
 * connection was closed, so an idle one is closed after 15 s.
 */
#define SERVE_HTTP_CONNECTIONS 512
#define SERVE_HTTP_IDLE_SECONDS 15

struct serve_gzip_part;

/*
 * One response: `shared` (borrowed, may be NULL), then `body` (malloc'd,
 * may be NULL), which the server frees. `shared_gz` (borrowed, may be
 * NULL) is `shared` deflated: without it a reply with a shared part is
 * sent as it is, gzip or not. When the server is done with `shared` and
 * `shared_gz` (sent, or the client gone), it calls release(release_arg),
 * from a thread of its own.
 */
struct serve_http_reply {
	unsigned status;	  /* 200, 404, ... */
	const char *content_type; /* static string */
	char *body;
	size_t len;
	const char *shared;
	size_t shared_len;
	const struct serve_gzip_part *shared_gz;
	void (*release)(void *arg);
	void *release_arg;
};

/*
 * What the server answers a GET (or HEAD) of `route` with; called from
 * the server's threads, a request each, several at once.
 */
typedef void (*serve_http_get_fn)(void *arg, enum serve_route route,
				  struct serve_http_reply *out);

struct serve_http;
struct serve_webconfig;

/**
 * Listen on `addr` and answer GET and HEAD through `get`, in a thread
 * per connection (SERVE_HTTP_CONNECTIONS at most), in gzip when the
 * client accepts it: other methods get 405, requests with a body 413,
 * requests whose headers exceed SERVE_HTTP_REQUEST_MAX 4xx (from the
 * library). `web` (may be NULL; borrowed while the server runs): TLS
 * with its certificate and key, and with users, HTTP basic auth checked
 * against their bcrypt hashes (crypt(3)), 401 otherwise; a password
 * that passed is remembered (by a salted digest), and not given to
 * bcrypt again. The calling
 * thread should block the signals it waits for before: the server's
 * thread inherits the mask. Returns 0, or -1 with a message in errbuf.
 */
int serve_http_start(struct serve_http **out, const struct sockaddr *addr,
		     socklen_t addrlen, const struct serve_webconfig *web,
		     serve_http_get_fn get, void *arg, char *errbuf,
		     size_t errlen);

/** The port bound: the one asked, or the one picked for port 0. */
unsigned serve_http_port(const struct serve_http *s);

/** Stop listening, finish the requests being answered; NULL is fine. */
void serve_http_stop(struct serve_http *s);

#endif
