/*
 * serve_http.c - the HTTP side of `ibtopo serve`: the one file that
 * calls libmicrohttpd. It parses requests, refuses what is not a plain
 * GET or HEAD, and hands the path to the command's callback.
 */
#include "config.h"
#include "serve_http.h"
#include "serve_gzip.h"
#include "serve_request.h"
#include "serve_webconfig.h"

#include <crypt.h>

#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Credentials that passed bcrypt, as exporter-toolkit caches them: by
 * user and a digest of the password given (SHA-256-crypt under a salt
 * drawn at start, never the password itself). A password whose digest
 * is not here, right or wrong, goes to bcrypt.
 */
#define AUTH_CACHE_SIZE 32

struct auth_entry {
	size_t user; /* index into web->users; SIZE_MAX: free */
	char digest[CRYPT_OUTPUT_SIZE];
};

struct serve_http {
	struct MHD_Daemon *d;
	const struct serve_webconfig *web;
	serve_http_get_fn get;
	void *arg;
	uint16_t port; /* bound */
	/* one bcrypt at a time (as exporter-toolkit): bad passwords cost
	 * one core, not all of them */
	pthread_mutex_t bcrypt_lock;
	pthread_mutex_t cache_lock;	      /* guards cache and cache_next */
	char salt[CRYPT_GENSALT_OUTPUT_SIZE]; /* "": no cache */
	struct auth_entry cache[AUTH_CACHE_SIZE];
	size_t cache_next;
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

/* A response body in three parts, read where they are: */
struct body3 {
	const unsigned char *seg[3]; /* head, shared, tail */
	size_t len[3];
	unsigned char *own; /* malloc'd: the tail's */
	void (*release)(void *arg);
	void *release_arg;
};

static ssize_t body3_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct body3 *b = cls;
	size_t n = 0, at = (size_t)pos;

	for (int i = 0; i < 3 && n < max; i++) {
		size_t k;

		if (at >= b->len[i]) {
			at -= b->len[i];
			continue;
		}
		k = b->len[i] - at;
		if (k > max - n)
			k = max - n;
		memcpy(buf + n, b->seg[i] + at, k);
		n += k;
		at = 0;
	}
	return n ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
}

static void body3_free(void *cls)
{
	struct body3 *b = cls;

	if (b->release)
		b->release(b->release_arg);
	free(b->own);
	free(b);
}

/* Where the reply's parts go in b: as they are, or gzip's member. */
static int body3_fill(struct body3 *b, struct serve_http_reply *out, bool gzip)
{
	size_t zlen;

	b->release = out->release;
	b->release_arg = out->release_arg;
	out->release = NULL;
	if (!gzip) {
		b->seg[1] = (const unsigned char *)out->shared;
		b->len[1] = out->shared ? out->shared_len : 0;
		b->own = (unsigned char *)out->body;
		b->seg[2] = b->own;
		b->len[2] = out->len;
		out->body = NULL;
		return 0;
	}
	if (serve_gzip_tail(&b->own, &zlen, out->shared_gz, out->body,
			    out->len))
		return -1;
	b->seg[0] = serve_gzip_head;
	b->len[0] = SERVE_GZIP_HEAD_LEN;
	if (out->shared_gz) {
		b->seg[1] = out->shared_gz->z;
		b->len[1] = out->shared_gz->len;
	}
	b->seg[2] = b->own;
	b->len[2] = zlen;
	free(out->body);
	out->body = NULL;
	return 0;
}

/*
 * A reply: its shared part read where it is, never copied whole; in
 * gzip when the client takes it and the shared part has its deflated
 * form (or there is none).
 */
static enum MHD_Result reply_parts(struct MHD_Connection *c,
				   struct serve_http_reply *out, bool gzip)
{
	struct body3 *b = calloc(1, sizeof(*b));
	struct MHD_Response *r;
	enum MHD_Result ok;

	if (out->shared && !out->shared_gz)
		gzip = false;
	if (!b || body3_fill(b, out, gzip)) {
		if (b)
			body3_free(b);
		if (out->release)
			out->release(out->release_arg);
		free(out->body);
		return MHD_NO;
	}
	r = MHD_create_response_from_callback(b->len[0] + b->len[1] + b->len[2],
					      64 * 1024, body3_read, b,
					      body3_free);
	if (!r) {
		body3_free(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				out->content_type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
				MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gzip)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING,
					"gzip");
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

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* Equal strings, in a time that says nothing of where they differ. */
static bool same(const char *a, const char *b)
{
	size_t n = strlen(b);
	unsigned diff = strlen(a) != n;

	for (size_t k = 0; k < n; k++)
		diff |= (unsigned char)(a[k] ^ b[k]);
	return diff == 0;
}

/* The digest of `pass` under the cache's salt into d; false if none. */
static bool digest(const struct serve_http *s, const char *pass,
		   char d[CRYPT_OUTPUT_SIZE])
{
	struct crypt_data *cd;
	const char *h;
	bool ok;

	if (!*s->salt)
		return false;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	h = crypt_r(pass, s->salt, cd);
	ok = h && *h == '$' && strlen(h) < CRYPT_OUTPUT_SIZE;
	if (ok)
		strcpy(d, h);
	memset(cd, 0, sizeof(*cd));
	free(cd);
	return ok;
}

static bool cache_has(struct serve_http *s, size_t user, const char *d)
{
	bool hit = false;

	pthread_mutex_lock(&s->cache_lock);
	for (size_t i = 0; i < AUTH_CACHE_SIZE; i++)
		hit |= s->cache[i].user == user && same(s->cache[i].digest, d);
	pthread_mutex_unlock(&s->cache_lock);
	return hit;
}

static void cache_add(struct serve_http *s, size_t user, const char *d)
{
	struct auth_entry *e;

	pthread_mutex_lock(&s->cache_lock);
	e = &s->cache[s->cache_next++ % AUTH_CACHE_SIZE];
	e->user = user;
	snprintf(e->digest, sizeof(e->digest), "%s", d);
	pthread_mutex_unlock(&s->cache_lock);
}

/* `pass` against the bcrypt hash of user i, one bcrypt at a time. */
static bool bcrypt_ok(struct serve_http *s, size_t i, const char *pass)
{
	const char *want = s->web->hashes[i];
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *h;
	bool ok;

	if (!cd)
		return false;
	pthread_mutex_lock(&s->bcrypt_lock);
	h = crypt_r(pass, want, cd);
	ok = h && same(h, want);
	pthread_mutex_unlock(&s->bcrypt_lock);
	free(cd);
	return ok;
}

/* Basic auth against the users' bcrypt hashes; true without users. */
static bool authorized(struct serve_http *s, struct MHD_Connection *c)
{
	const struct serve_webconfig *w = s->web;
	char user[256], pass[512], d[CRYPT_OUTPUT_SIZE];
	bool ok = false, have_digest;
	size_t i;

	if (!w || !w->nusers)
		return true;
	if (!serve_request_basic_auth(header(c, MHD_HTTP_HEADER_AUTHORIZATION),
				      user, sizeof(user), pass, sizeof(pass)))
		return false;
	for (i = 0; i < w->nusers && strcmp(user, w->users[i]) != 0; i++)
		;
	if (i < w->nusers) {
		have_digest = digest(s, pass, d);
		ok = have_digest && cache_has(s, i, d);
		if (!ok && bcrypt_ok(s, i, pass)) {
			ok = true;
			if (have_digest)
				cache_add(s, i, d);
		}
	}
	memset(pass, 0, sizeof(pass));
	memset(d, 0, sizeof(d));
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
	struct serve_http_reply out = { 404, NULL, NULL, 0,   NULL,
					0,   NULL, NULL, NULL };

	(void)version;
	(void)upload;
	if (!authorized(s, c))
		return deny(c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "method not allowed\n", "GET, HEAD");
	if (serve_request_has_body(header(c, MHD_HTTP_HEADER_CONTENT_LENGTH),
				   header(c,
					  MHD_HTTP_HEADER_TRANSFER_ENCODING)) ||
	    *upload_len)
		return text(c, MHD_HTTP_CONTENT_TOO_LARGE,
			    "a GET takes no body\n", NULL);
	if (!*state) {
		/* the headers; the end of the request comes next */
		*state = &seen_headers;
		return MHD_YES;
	}
	s->get(s->arg, serve_request_route(url), &out);
	if (!out.content_type)
		out.content_type = "text/plain; charset=utf-8";
	return reply_parts(c, &out,
			   serve_request_accepts_gzip(
				   header(c, MHD_HTTP_HEADER_ACCEPT_ENCODING)));
}

static void log_quiet(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	(void)fmt;
	(void)ap;
}

/* A salt for the credentials cache; none (no cache) if crypt lacks
 * SHA-256-crypt. */
static void cache_init(struct serve_http *s)
{
	for (size_t i = 0; i < AUTH_CACHE_SIZE; i++)
		s->cache[i].user = SIZE_MAX;
	if (!crypt_gensalt_rn("$5$", 1000, NULL, 0, s->salt, sizeof(s->salt)) ||
	    s->salt[0] != '$')
		s->salt[0] = '\0';
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
	/* a thread per connection: a slow or idle client, or one whose
	 * password is being checked, holds up no other */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
			 MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
	const union MHD_DaemonInfo *info;
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
	pthread_mutex_init(&s->bcrypt_lock, NULL);
	pthread_mutex_init(&s->cache_lock, NULL);
	cache_init(s);
	s->d = MHD_start_daemon(
		flags, port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
		addr, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)SERVE_HTTP_REQUEST_MAX, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)SERVE_HTTP_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)SERVE_HTTP_IDLE_SECONDS, MHD_OPTION_THREAD_STACK_SIZE,
		(size_t)(512 * 1024), MHD_OPTION_EXTERNAL_LOGGER, log_quiet,
		NULL, MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	if (!s->d) {
		snprintf(errbuf, errlen,
			 "cannot listen on port %u (in use, not an address "
			 "of this host, or a bad TLS certificate or key)",
			 port);
		serve_http_stop(s);
		return -1;
	}
	info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : port;
	*out = s;
	return 0;
}

unsigned serve_http_port(const struct serve_http *s)
{
	return s->port;
}

void serve_http_stop(struct serve_http *s)
{
	if (!s)
		return;
	if (s->d)
		MHD_stop_daemon(s->d);
	pthread_mutex_destroy(&s->bcrypt_lock);
	pthread_mutex_destroy(&s->cache_lock);
	memset(s->cache, 0, sizeof(s->cache));
	free(s);
}
