/*
 * readers.c - the table of input formats, like curl's TLS backends: each
 * format is one reader in a file of its own (read_<format>.c); this file
 * detects which one a buffer is in, runs it and applies a node-name map.
 *
 * A new format: its file, its row below, its enumerator in
 * enum ibtopo_file_format (ibtopo.h) and its line in Makefile.am.
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

extern const struct ibtopo__reader ibtopo__reader_cache;
extern const struct ibtopo__reader ibtopo__reader_ibnetdiscover;
extern const struct ibtopo__reader ibtopo__reader_ports;
extern const struct ibtopo__reader ibtopo__reader_ibsim;
extern const struct ibtopo__reader ibtopo__reader_iblinkinfo;

/* In the order messages list the formats. */
static const struct ibtopo__reader *const readers[] = {
	&ibtopo__reader_cache,
	&ibtopo__reader_ibnetdiscover,
	&ibtopo__reader_ports,
	&ibtopo__reader_ibsim,
	&ibtopo__reader_iblinkinfo,
};

const struct ibtopo__reader *ibtopo__reader_find(enum ibtopo_file_format format)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers); i++)
		if (readers[i]->format == format)
			return readers[i];
	return NULL;
}

const struct ibtopo__reader *ibtopo__reader_for_path(const char *path)
{
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers); i++)
		if (readers[i]->detect_path && readers[i]->detect_path(path))
			return readers[i];
	return NULL;
}

int ibtopo__each_line(const char *buf, size_t len,
		      int (*fn)(void *arg, const char *p, size_t n), void *arg)
{
	size_t pos = 0;
	int rc;

	while (pos < len && buf) {
		const char *p = buf + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;

		pos += n + 1;
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (!n || *p == '#')
			continue;
		rc = fn(arg, p, n);
		if (rc)
			return rc;
	}
	return 0;
}

/* (the first letter first: the format detectors ask of every line) */
bool ibtopo__line_word(const char *p, size_t n, const char *w)
{
	size_t k;

	if (!n || *p != *w)
		return false;
	k = strlen(w);

	return n > k && strncmp(p, w, k) == 0 && (p[k] == ' ' || p[k] == '\t');
}

bool ibtopo__line_key(const char *p, size_t n, const char *w)
{
	size_t k;

	if (!n || *p != *w)
		return false;
	k = strlen(w);

	return n > k && strncmp(p, w, k) == 0 && (p[k] == '=' || p[k] == ' ');
}

bool ibtopo__line_is_record(const char *p, size_t n)
{
	return ibtopo__line_word(p, n, "Switch") || ibtopo__line_word(p, n, "Ca") ||
	       ibtopo__line_word(p, n, "Hca") || ibtopo__line_word(p, n, "Rt") ||
	       ibtopo__line_word(p, n, "Rtr");
}

enum ibtopo_file_format ibtopo_file_format_detect(const char *buf, size_t len)
{
	enum ibtopo_file_format format = IBTOPO_FILE_AUTO;
	int best = 0;

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers); i++) {
		int claim;

		if (!readers[i]->detect)
			continue;
		claim = readers[i]->detect(buf, len);
		if (claim > best) {
			best = claim;
			format = readers[i]->format;
		}
	}
	return format;
}

const char *ibtopo_file_format_name(enum ibtopo_file_format format)
{
	const struct ibtopo__reader *r = ibtopo__reader_find(format);

	if (format == IBTOPO_FILE_AUTO)
		return "auto";
	return r ? r->name : "?";
}

int ibtopo_file_format_parse(const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "auto") == 0)
		return IBTOPO_FILE_AUTO;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers); i++)
		if (strcmp(name, readers[i]->name) == 0)
			return (int)readers[i]->format;
	if (strcmp(name, "plan") == 0)
		return IBTOPO_FILE_IBNETDISCOVER;
	return -1;
}

/* "not a fabric file (expected A, B or C)", the text formats in order. */
static int not_a_fabric(struct ibtopo__src *s)
{
	char list[256];
	size_t used = 0, n = 0, k = 0;

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers); i++)
		n += readers[i]->read != NULL;
	list[0] = '\0';
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(readers) && used < sizeof(list); i++) {
		if (!readers[i]->read)
			continue;
		k++;
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 k == 1 ? "" : k == n ? " or " : ", ",
					 readers[i]->what);
	}
	return ibtopo__src_error(s, 1, "not a fabric file (expected %s)", list);
}

/* Counts what a forced reader says, and passes it on. */
struct forced {
	const struct ibtopo_read_opts *user;
	unsigned warnings;
};

static void forced_warn(void *arg, const char *message)
{
	struct forced *fw = arg;

	fw->warnings++;
	(void)message;
}

/*
 * A format forced on a file the content says is in another: a reader that
 * skips every line it cannot read would say so once a line (799 times) or
 * load a fabric of what is left. What it reads without a word stands (ibsim
 * reads ibnetdiscover output); anything else is one error naming both.
 */
static int read_forced(struct ibtopo_fabric **out, struct ibtopo__src *s,
		       const struct ibtopo__reader *reader,
		       const struct ibtopo__reader *detected)
{
	struct ibtopo_read_opts local = *s->opts;
	struct forced fw = { s->opts, 0 };
	struct ibtopo_error *err = s->err;
	char why[sizeof(err->message)];
	int rc;

	local.warn = forced_warn;
	local.warn_arg = &fw;
	s->opts = &local;
	rc = reader->read(out, s);
	s->opts = fw.user;
	if (!rc && !fw.warnings)
		return 0;
	ibtopo_fabric_free(*out);
	*out = NULL;
	if (fw.warnings)
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
			"'%s' does not read as %s: %u lines not in that format "
			"(its content is %s; let the format be detected)",
			s->name, reader->what, fw.warnings, detected->what);
	if (!err)
		return rc;
	memcpy(why, err->message, sizeof(why));
	return ibtopo__error_set_input(err, rc,
		"'%s' does not read as %s: %s (its content is %s; let the "
		"format be detected)", s->name, reader->what, why,
		detected->what);
}

int ibtopo_fabric_read_buffer(struct ibtopo_fabric **out, const char *buf,
			      size_t len, const char *name,
			      const struct ibtopo_read_opts *opts,
			      struct ibtopo_error *err)
{
	enum ibtopo_file_format format = opts ? opts->format : IBTOPO_FILE_AUTO;
	const struct ibtopo__reader *reader, *detected;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo__src *s;
	int rc;

	if (!out || (!buf && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no buffer to read");
	*out = NULL;
	if (opts && opts->version < 1)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad read options version %u", opts->version);
	reader = ibtopo__reader_find(format);
	if (reader && !reader->read)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': %s files are read from a path",
					 name ? name : "<buffer>", reader->name);
	s = malloc(sizeof(*s));
	if (!s)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	ibtopo__src_init(s, buf, len, name, opts, err);
	rc = ibtopo__src_check_text(s);
	if (rc)
		goto out_free_src;
	detected = ibtopo__reader_find(ibtopo_file_format_detect(buf, len));
	if (format == IBTOPO_FILE_AUTO)
		reader = detected;
	if (reader && opts && detected && detected != reader)
		rc = read_forced(&f, s, reader, detected);
	else if (reader)
		rc = reader->read(&f, s);
	else
		rc = not_a_fabric(s);
	if (rc)
		goto out_free_src;
	if (opts && opts->node_name_map) {
		rc = ibtopo_name_map_apply_file(opts->node_name_map, f, err);
		if (rc)
			goto out_free_fabric;
	}
	*out = f;
	f = NULL;
out_free_fabric:
	ibtopo_fabric_free(f);
out_free_src:
	free(s);
	return rc;
}
