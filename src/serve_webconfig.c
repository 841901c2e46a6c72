/*
 * serve_webconfig.c - the exporter-toolkit web configuration of `ibtopo
 * serve`: the one file that calls libyaml.
 */
#include "config.h"
#include "serve_webconfig.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct wc_parse {
	yaml_parser_t p;
	const char *path;
	char *msg;
	size_t msglen;
	char *cert_file; /* as written in the file */
	char *key_file;
	struct serve_webconfig *out;
};

/* The next event into *ev (to be deleted by the caller); -1 on a
 * syntax error, the message set. */
static int next(struct wc_parse *w, yaml_event_t *ev)
{
	if (yaml_parser_parse(&w->p, ev))
		return 0;
	snprintf(w->msg, w->msglen, "%s:%zu: %s", w->path,
		 w->p.problem_mark.line + 1,
		 w->p.problem ? w->p.problem : "not YAML");
	return -1;
}

static int bad(struct wc_parse *w, const yaml_event_t *ev, const char *what)
{
	snprintf(w->msg, w->msglen, "%s:%zu: %s", w->path,
		 ev->start_mark.line + 1, what);
	return -1;
}

static const char *scalar(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

/* A mapping of scalars to scalars; each pair goes to pair(). An empty
 * value (`key:` alone) is an empty mapping. */
static int mapping(struct wc_parse *w,
		   int (*pair)(struct wc_parse *w, const yaml_event_t *key,
			       const yaml_event_t *value))
{
	yaml_event_t ev, key, value;
	int rc;

	if (next(w, &ev))
		return -1;
	if (ev.type == YAML_SCALAR_EVENT && !*scalar(&ev)) {
		yaml_event_delete(&ev);
		return 0;
	}
	rc = ev.type == YAML_MAPPING_START_EVENT ?
		     0 :
		     bad(w, &ev, "expected a mapping");
	yaml_event_delete(&ev);
	while (!rc) {
		if (next(w, &key))
			return -1;
		if (key.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&key);
			break;
		}
		if (key.type != YAML_SCALAR_EVENT) {
			rc = bad(w, &key, "expected a key");
			yaml_event_delete(&key);
			break;
		}
		if (next(w, &value)) {
			yaml_event_delete(&key);
			return -1;
		}
		rc = value.type == YAML_SCALAR_EVENT ?
			     pair(w, &key, &value) :
			     bad(w, &value, "expected a text value");
		yaml_event_delete(&key);
		yaml_event_delete(&value);
	}
	return rc;
}

/* A key as a message shows it: 40 bytes at most, a control character
 * as '?', so that the message stays one line. */
static const char *shown(const char *key, char buf[48])
{
	size_t n = 0;

	for (; key[n] && n < 40; n++)
		buf[n] = (unsigned char)key[n] < 0x20 || key[n] == 0x7f ?
				 '?' :
				 key[n];
	if (key[n])
		buf[n++] = '~';
	buf[n] = '\0';
	return buf;
}

static int set_str(struct wc_parse *w, char **dst, const yaml_event_t *v)
{
	free(*dst);
	*dst = strdup(scalar(v));
	if (!*dst)
		return bad(w, v, "out of memory");
	return 0;
}

static int tls_pair(struct wc_parse *w, const yaml_event_t *k,
		    const yaml_event_t *v)
{
	char buf[48];

	if (strcmp(scalar(k), "cert_file") == 0)
		return set_str(w, &w->cert_file, v);
	if (strcmp(scalar(k), "key_file") == 0)
		return set_str(w, &w->key_file, v);
	snprintf(w->msg, w->msglen,
		 "%s:%zu: tls_server_config: '%s' is not supported "
		 "(cert_file and key_file are)",
		 w->path, k->start_mark.line + 1, shown(scalar(k), buf));
	return -1;
}

static int user_pair(struct wc_parse *w, const yaml_event_t *k,
		     const yaml_event_t *v)
{
	struct serve_webconfig *c = w->out;
	char **u, **h;

	if (strncmp(scalar(v), "$2", 2) != 0)
		return bad(w, v, "basic_auth_users: not a bcrypt hash");
	u = realloc(c->users, (c->nusers + 1) * sizeof(*u));
	if (u)
		c->users = u;
	h = realloc(c->hashes, (c->nusers + 1) * sizeof(*h));
	if (h)
		c->hashes = h;
	if (!u || !h)
		return bad(w, v, "out of memory");
	c->users[c->nusers] = strdup(scalar(k));
	c->hashes[c->nusers] = strdup(scalar(v));
	c->nusers++;
	if (!c->users[c->nusers - 1] || !c->hashes[c->nusers - 1])
		return bad(w, v, "out of memory");
	return 0;
}

static int top_pair_value(struct wc_parse *w, const yaml_event_t *k)
{
	char buf[48];

	if (strcmp(scalar(k), "tls_server_config") == 0)
		return mapping(w, tls_pair);
	if (strcmp(scalar(k), "basic_auth_users") == 0)
		return mapping(w, user_pair);
	snprintf(w->msg, w->msglen,
		 "%s:%zu: '%s' is not supported (tls_server_config and "
		 "basic_auth_users are)",
		 w->path, k->start_mark.line + 1, shown(scalar(k), buf));
	return -1;
}

/* The document: empty, or one mapping of the keys above. */
static int document(struct wc_parse *w)
{
	yaml_event_t ev;
	int rc = 0;

	for (;;) {
		if (next(w, &ev))
			return -1;
		if (ev.type == YAML_STREAM_END_EVENT ||
		    ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return rc;
		}
		if (ev.type == YAML_SCALAR_EVENT)
			rc = top_pair_value(w, &ev);
		else if (ev.type != YAML_STREAM_START_EVENT &&
			 ev.type != YAML_DOCUMENT_START_EVENT &&
			 ev.type != YAML_MAPPING_START_EVENT)
			rc = bad(w, &ev, "expected a mapping of settings");
		yaml_event_delete(&ev);
		if (rc)
			return rc;
	}
}

/* A file named in the configuration, relative to its folder. */
static char *slurp(struct wc_parse *w, const char *name)
{
	const char *slash = strrchr(w->path, '/');
	char full[4096];
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	if (name[0] == '/' || !slash)
		snprintf(full, sizeof(full), "%s", name);
	else
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - w->path),
			 w->path, name);
	f = fopen(full, "r");
	if (!f) {
		snprintf(w->msg, w->msglen, "%s: cannot open '%s': %s", w->path,
			 full, strerror(errno));
		return NULL;
	}
	do {
		if (len + 4097 > cap) {
			char *p = realloc(buf, cap = cap * 2 + 8192);

			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (buf)
		buf[len] = '\0';
	if (!buf || ferror(f)) {
		snprintf(w->msg, w->msglen, "%s: cannot read '%s'", w->path,
			 full);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The document in w->p, and both files or none; the caller frees the
 * names. */
static int parse(struct wc_parse *w)
{
	int rc = document(w);

	if (!rc && (!w->cert_file) != (!w->key_file)) {
		snprintf(w->msg, w->msglen,
			 "%s: tls_server_config needs both cert_file and "
			 "key_file",
			 w->path);
		rc = -1;
	}
	return rc;
}

int serve_webconfig_parse(struct serve_webconfig *out, const char *name,
			  const char *text, size_t len, char *msg,
			  size_t msglen)
{
	struct wc_parse w = {
		.path = name, .msg = msg, .msglen = msglen, .out = out
	};
	int rc;

	memset(out, 0, sizeof(*out));
	if (!yaml_parser_initialize(&w.p)) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&w.p, (const unsigned char *)text, len);
	rc = parse(&w);
	yaml_parser_delete(&w.p);
	free(w.cert_file);
	free(w.key_file);
	if (rc)
		serve_webconfig_release(out);
	return rc;
}

int serve_webconfig_load(struct serve_webconfig *out, const char *path,
			 char *msg, size_t msglen)
{
	struct wc_parse w = {
		.path = path, .msg = msg, .msglen = msglen, .out = out
	};
	FILE *f = fopen(path, "r");
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(msg, msglen, "cannot open '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (!yaml_parser_initialize(&w.p)) {
		snprintf(msg, msglen, "out of memory");
		goto out_close;
	}
	yaml_parser_set_input_file(&w.p, f);
	rc = parse(&w);
	if (!rc && w.cert_file) {
		out->cert_pem = slurp(&w, w.cert_file);
		out->key_pem = out->cert_pem ? slurp(&w, w.key_file) : NULL;
		if (!out->key_pem)
			rc = -1;
	}
	yaml_parser_delete(&w.p);
	free(w.cert_file);
	free(w.key_file);
	if (rc)
		serve_webconfig_release(out);
out_close:
	fclose(f);
	return rc;
}

void serve_webconfig_release(struct serve_webconfig *c)
{
	for (size_t i = 0; i < c->nusers; i++) {
		free(c->users[i]);
		free(c->hashes[i]);
	}
	free(c->users);
	free(c->hashes);
	if (c->key_pem)
		memset(c->key_pem, 0, strlen(c->key_pem));
	free(c->key_pem);
	free(c->cert_pem);
	memset(c, 0, sizeof(*c));
}
