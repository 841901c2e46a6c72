/*
 * fuzz_serve.c - the fuzz targets of `ibtopo serve`'s parsing: the
 * web configuration (serve_webconfig_parse, libyaml) and the requests
 * (serve_request.c: the path, Accept-Encoding, Content-Length and
 * Transfer-Encoding, Authorization; and serve_gzip.c, the gzip member
 * made of a shared part and a tail, inflated back here).
 *
 * Built with -DFUZZ_TARGET='"webconfig"' or '"request"' and
 * -fsanitize=fuzzer (fuzz/run.sh) it is one libFuzzer target. Without
 * it, it is fuzz-serve-seeds: every FILE (or file in a DIR) through both
 * targets, for make check (tests/cli/serve-fuzz-seeds.sh); --targets
 * lists the names.
 *
 * A request input is lines: the URL, then the values of Accept-Encoding,
 * Authorization, Content-Length and Transfer-Encoding (an empty line: no
 * such header); what follows is a body, compressed as a shared part and
 * a tail split where its first byte says.
 */
#include "serve_gzip.h"
#include "serve_request.h"
#include "serve_webconfig.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_serve: %s\n", what);
		abort();
	}
}

static void one_webconfig(const unsigned char *data, size_t size)
{
	struct serve_webconfig c;
	char msg[512];

	if (serve_webconfig_parse(&c, "fuzz.yml", (const char *)data, size, msg,
				  sizeof(msg))) {
		check(strlen(msg) > 0 && !strchr(msg, '\n'),
		      "an error without a one-line message");
		return;
	}
	check(!c.cert_pem && !c.key_pem, "parse read a file");
	for (size_t i = 0; i < c.nusers; i++)
		check(c.users[i] && c.hashes[i] &&
			      strncmp(c.hashes[i], "$2", 2) == 0,
		      "a user without a bcrypt hash");
	serve_webconfig_release(&c);
}

/* The next line of [*p, end) as a NUL-terminated copy, or NULL when it
 * is empty (the header is absent). */
static char *line(const unsigned char **p, const unsigned char *end)
{
	const unsigned char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	char *s = NULL;

	if (n) {
		s = malloc(n + 1);
		check(s != NULL, "out of memory");
		memcpy(s, *p, n);
		s[n] = '\0';
	}
	*p += n + (nl != NULL);
	return s;
}

/* gzip of text, as serve sends it, inflated back: the same bytes. */
static void gzip_round_trip(const unsigned char *text, size_t n)
{
	size_t cut = n ? text[0] % (n + 1) : 0, tlen, got = 0;
	struct serve_gzip_part part;
	unsigned char *tail, *member, *back;
	z_stream z;

	check(serve_gzip_part_init(&part, (const char *)text, cut) == 0,
	      "part");
	check(serve_gzip_tail(&tail, &tlen, &part, (const char *)text + cut,
			      n - cut) == 0,
	      "tail");
	member = malloc(SERVE_GZIP_HEAD_LEN + part.len + tlen);
	back = malloc(n + 1);
	check(member && back, "out of memory");
	memcpy(member, serve_gzip_head, SERVE_GZIP_HEAD_LEN);
	if (part.len)
		memcpy(member + SERVE_GZIP_HEAD_LEN, part.z, part.len);
	memcpy(member + SERVE_GZIP_HEAD_LEN + part.len, tail, tlen);
	memset(&z, 0, sizeof(z));
	check(inflateInit2(&z, 16 + 15) == Z_OK, "inflateInit2");
	z.next_in = member;
	z.avail_in = (uInt)(SERVE_GZIP_HEAD_LEN + part.len + tlen);
	z.next_out = back;
	z.avail_out = (uInt)(n + 1);
	/* Z_STREAM_END only after the CRC and length check out */
	check(inflate(&z, Z_FINISH) == Z_STREAM_END, "not one gzip member");
	got = n + 1 - z.avail_out;
	check(z.avail_in == 0, "bytes after the member");
	check(got == n && memcmp(back, text, n) == 0, "another text");
	inflateEnd(&z);
	free(back);
	free(member);
	free(tail);
	serve_gzip_part_release(&part);
}

static void one_request(const unsigned char *data, size_t size)
{
	const unsigned char *p = data, *end = data + size;
	char *url = line(&p, end), *ae = line(&p, end), *auth = line(&p, end);
	char *cl = line(&p, end), *te = line(&p, end);
	char user[256], pass[512];
	enum serve_route r = serve_request_route(url ? url : "");

	check(r >= SERVE_ROUTE_NONE && r <= SERVE_ROUTE_HEALTHZ, "route");
	(void)serve_request_accepts_gzip(ae);
	(void)serve_request_has_body(cl, te);
	check(!te || serve_request_has_body(cl, te), "chunked without body");
	if (serve_request_basic_auth(auth, user, sizeof(user), pass,
				     sizeof(pass)))
		check(strlen(user) < sizeof(user) &&
			      strlen(pass) < sizeof(pass) && !strchr(user, ':'),
		      "basic auth");
	if (size < 1 << 16)
		gzip_round_trip(p, (size_t)(end - p));
	free(url);
	free(ae);
	free(auth);
	free(cl);
	free(te);
}

static void fuzz_one(const char *target, const unsigned char *data, size_t size)
{
	if (strcmp(target, "webconfig") == 0)
		one_webconfig(data, size);
	else
		one_request(data, size);
}

#ifdef FUZZ_TARGET
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	fuzz_one(FUZZ_TARGET, data, size);
	return 0;
}
#else
static size_t files;

static void run_path(const char *path)
{
	struct stat st;
	unsigned char *buf;
	FILE *f;
	size_t n;

	if (stat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		char sub[4096];

		for (;;) {
			e = d ? readdir(d) : NULL;
			if (!e)
				break;
			if (e->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
			run_path(sub);
		}
		if (d)
			closedir(d);
		return;
	}
	f = fopen(path, "rb");
	if (!f)
		return;
	buf = malloc((size_t)st.st_size + 1);
	check(buf != NULL, "out of memory");
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	fuzz_one("webconfig", buf, n);
	fuzz_one("request", buf, n);
	free(buf);
	files++;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--targets") == 0) {
		printf("webconfig\nrequest\n");
		return 0;
	}
	for (int i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("fuzz-serve-seeds: %zu files through webconfig and request, "
	       "no failure\n",
	       files);
	return files ? 0 : 1;
}
#endif
