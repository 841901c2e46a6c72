/*
 * serve_http.c - the HTTP side of `ibtopo serve`: the one file that
 * calls libmicrohttpd. It parses requests, refuses what is not a plain
 * GET or HEAD, and hands the path to the command's callback.
 */
#include "config.h"
#include "serve_http.h"
#include "serve_webconfig.h"

#include <crypt.h>

#include <microhttpd.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct serve_http {
	struct MHD_Daemon *d;
	const struct serve_webconfig *web;
	serve_http_get_fn get;
	void *arg;
};

/* The marker of a request whose headers were seen (first call). */
static int seen_headers;

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, char *body, size_t len,
			     const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ok;

	r = MHD_create_response_from_buffer(len, body ? body : (char *)"",
					    body ? MHD_RESPMEM_MUST_FREE :
						   MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	if (type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

/* A response body in two parts: the shared one, then the own one. */
struct body2 {
	struct serve_http_reply r;
};

static ssize_t body2_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct body2 *b = cls;
	size_t n = 0, total = b->r.shared_len + b->r.len;

	if (pos >= total)
		return MHD_CONTENT_READER_END_OF_STREAM;
	while (n < max && pos + n < total) {
		size_t at = (size_t)pos + n, k;
		const char *src;

		if (at < b->r.shared_len) {
			src = b->r.shared + at;
			k = b->r.shared_len - at;
		} else {
			src = b->r.body + (at - b->r.shared_len);
			k = total - at;
		}
		if (k > max - n)
			k = max - n;
		memcpy(buf + n, src, k);
		n += k;
	}
	return (ssize_t)n;
}

static void body2_free(void *cls)
{
	struct body2 *b = cls;

	if (b->r.release)
		b->r.release(b->r.release_arg);
	free(b->r.body);
	free(b);
}

/* A reply with a shared part: read from it, never copied whole. */
static enum MHD_Result reply_shared(struct MHD_Connection *c,
				    const struct serve_http_reply *out)
{
	struct body2 *b = malloc(sizeof(*b));
	struct MHD_Response *r;
	enum MHD_Result ok;

	if (!b) {
		if (out->release)
			out->release(out->release_arg);
		free(out->body);
		return MHD_NO;
	}
	b->r = *out;
	r = MHD_create_response_from_callback(out->shared_len + out->len,
					      64 * 1024, body2_read, b,
					      body2_free);
	if (!r) {
		body2_free(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				out->content_type);
	ok = MHD_queue_response(c, out->status, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status,
			    const char *msg, const char *allow)
{
	return reply(c, status, "text/plain; charset=utf-8", strdup(msg),
		     strlen(msg), allow);
}

/* A body announced (Content-Length above 0, or chunked). */
static bool has_body(struct MHD_Connection *c)
{
	const char *cl = MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	const char *te = MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);

	return (cl && strtoull(cl, NULL, 10) > 0) || te;
}

/* Basic auth against the users' bcrypt hashes; true without users. */
static bool authorized(const struct serve_http *s, struct MHD_Connection *c)
{
	const struct serve_webconfig *w = s->web;
	struct crypt_data cd;
	char *pass = NULL, *user;
	bool ok = false;

	if (!w || !w->nusers)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	for (size_t i = 0; user && pass && i < w->nusers; i++) {
		const char *h;
		size_t n = strlen(w->hashes[i]);
		unsigned diff = 0;

		if (strcmp(user, w->users[i]) != 0)
			continue;
		memset(&cd, 0, sizeof(cd));
		h = crypt_r(pass, w->hashes[i], &cd);
		if (!h || strlen(h) != n)
			break;
		/* no early exit: the time says nothing of the hash */
		for (size_t k = 0; k < n; k++)
			diff |= (unsigned char)(h[k] ^ w->hashes[i][k]);
		ok = diff == 0;
		break;
	}
	if (pass)
		memset(pass, 0, strlen(pass));
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result deny(struct MHD_Connection *c)
{
	static const char msg[] = "unauthorized\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(
		sizeof(msg) - 1, (void *)msg, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	ok = MHD_queue_basic_auth_fail_response(c, "ibtopo", r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_len, void **state)
{
	struct serve_http *s = cls;
	struct serve_http_reply out = {
		404, NULL, NULL, 0, NULL, 0, NULL, NULL
	};
	const char *q;
	char *path;

	(void)version;
	(void)upload;
	if (!authorized(s, c))
		return deny(c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "method not allowed\n", "GET, HEAD");
	if (has_body(c) || *upload_len)
		return text(c, MHD_HTTP_CONTENT_TOO_LARGE,
			    "a GET takes no body\n", NULL);
	if (!*state) {
		/* the headers; the end of the request comes next */
		*state = &seen_headers;
		return MHD_YES;
	}
	/* libmicrohttpd leaves the query string out of url already */
	q = strchr(url, '?');
	path = strndup(url, q ? (size_t)(q - url) : strlen(url));
	if (!path)
		return MHD_NO;
	s->get(s->arg, path, &out);
	free(path);
	if (!out.content_type)
		out.content_type = "text/plain; charset=utf-8";
	if (out.shared)
		return reply_shared(c, &out);
	return reply(c, out.status, out.content_type, out.body, out.len, NULL);
}

static void log_quiet(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	(void)fmt;
	(void)ap;
}

int serve_http_start(struct serve_http **out, const struct sockaddr *addr,
		     socklen_t addrlen, const struct serve_webconfig *web,
		     serve_http_get_fn get, void *arg, char *errbuf,
		     size_t errlen)
{
	struct MHD_OptionItem tls[] = {
		{ MHD_OPTION_HTTPS_MEM_CERT, 0, web ? web->cert_pem : NULL },
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, web ? web->key_pem : NULL },
		{ MHD_OPTION_END, 0, NULL },
	};
	struct serve_http *s = calloc(1, sizeof(*s));
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	uint16_t port = 0;

	(void)addrlen;
	*out = NULL;
	if (!s) {
		snprintf(errbuf, errlen, "out of memory");
		return -1;
	}
	if (addr->sa_family == AF_INET6) {
		flags |= MHD_USE_IPv6;
		port = ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
	} else {
		port = ntohs(((const struct sockaddr_in *)addr)->sin_port);
	}
	if (web && web->cert_pem) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(errbuf, errlen,
				 "libmicrohttpd was built without TLS");
			free(s);
			return -1;
		}
		flags |= MHD_USE_TLS;
	} else {
		tls[0].option = MHD_OPTION_END;
	}
	s->get = get;
	s->arg = arg;
	s->web = web;
	s->d = MHD_start_daemon(flags, port, NULL, NULL, on_request, s,
				MHD_OPTION_SOCK_ADDR, addr,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				(size_t)SERVE_HTTP_REQUEST_MAX,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				MHD_OPTION_EXTERNAL_LOGGER, log_quiet, NULL,
				MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	if (!s->d) {
		snprintf(errbuf, errlen,
			 "cannot listen on port %u (in use, not an address "
			 "of this host, or a bad TLS certificate or key)",
			 port);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void serve_http_stop(struct serve_http *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);
	free(s);
}
