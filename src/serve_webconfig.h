/* serve_webconfig.h - `ibtopo serve --web-config FILE` (libyaml) */
#ifndef IBTOPO_SERVE_WEBCONFIG_H
#define IBTOPO_SERVE_WEBCONFIG_H

#include <stddef.h>

/*
 * A web configuration file in the Prometheus exporter-toolkit format,
 * the part of it serve knows:
 *   tls_server_config:
 *     cert_file: server.crt     # PEM; relative to the file's folder
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...         # bcrypt, as htpasswd -B writes it
 * Any other key is refused, not ignored: a client_ca_file left out
 * would serve without the client checks it asks for.
 */
struct serve_webconfig {
	char *cert_pem; /* the files' contents; NULL without TLS */
	char *key_pem;
	size_t nusers;
	char **users; /* nusers names and their hashes; malloc'd */
	char **hashes;
};

/** Read `path`; 0, or -1 with "<path>:<line>: why" in msg. */
int serve_webconfig_load(struct serve_webconfig *out, const char *path,
			 char *msg, size_t msglen);

/**
 * The configuration in `text` (len bytes), `name` in messages: its
 * users, and whether it is valid; the certificate and key files it
 * names are not read (cert_pem and key_pem stay NULL). For the fuzz
 * target (fuzz/fuzz_serve.c). 0, or -1 with "<name>:<line>: why".
 */
int serve_webconfig_parse(struct serve_webconfig *out, const char *name,
			  const char *text, size_t len, char *msg,
			  size_t msglen);

/** Free what serve_webconfig_load() or _parse() filled in; zeroes *c. */
void serve_webconfig_release(struct serve_webconfig *c);

#endif
