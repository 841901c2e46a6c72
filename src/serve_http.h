/* serve_http.h - the HTTP side of `ibtopo serve` (libmicrohttpd) */
#ifndef IBTOPO_SERVE_HTTP_H
#define IBTOPO_SERVE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

/* Request headers (and the URL) larger than this get a 4xx. */
#define SERVE_HTTP_REQUEST_MAX (16u * 1024u)

/*
 * One response: `shared` (borrowed, may be NULL), then `body` (malloc'd,
 * may be NULL), which the server frees. When the server is done with
 * `shared` (sent, or the client gone), it calls release(release_arg),
 * from its own thread.
 */
struct serve_http_reply {
	unsigned status;	  /* 200, 404, ... */
	const char *content_type; /* static string */
	char *body;
	size_t len;
	const char *shared;
	size_t shared_len;
	void (*release)(void *arg);
	void *release_arg;
};

/*
 * What the server answers a GET (or HEAD) of `path` with; called from
 * the server's thread, one request at a time.
 */
typedef void (*serve_http_get_fn)(void *arg, const char *path,
				  struct serve_http_reply *out);

struct serve_http;
struct serve_webconfig;

/**
 * Listen on `addr` and answer GET and HEAD through `get`, in a thread
 * of the server's own: other methods get 405, requests with a body 413,
 * requests whose headers exceed SERVE_HTTP_REQUEST_MAX 4xx (from the
 * library). `web` (may be NULL; borrowed while the server runs): TLS
 * with its certificate and key, and with users, HTTP basic auth checked
 * against their bcrypt hashes (crypt(3)), 401 otherwise. The calling
 * thread should block the signals it waits for before: the server's
 * thread inherits the mask. Returns 0, or -1 with a message in errbuf.
 */
int serve_http_start(struct serve_http **out, const struct sockaddr *addr,
		     socklen_t addrlen, const struct serve_webconfig *web,
		     serve_http_get_fn get, void *arg, char *errbuf,
		     size_t errlen);

/** Stop listening, finish the request being answered; NULL is fine. */
void serve_http_stop(struct serve_http *s);

#endif
