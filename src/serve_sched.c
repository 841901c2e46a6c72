/*
 * serve_sched.c - serve --scheduler-out FORMAT=FILE: the scheduler files
 * rewritten after a sweep whose tree changed, and never otherwise, as
 * NVIDIA topograph keeps Slurm and Kubernetes current.
 */
#include "serve_sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The formats a scheduler reads. */
static bool is_scheduler_format(int f)
{
	return f == IBTOPO_EXPORT_SLURM || f == IBTOPO_EXPORT_SLURM_BLOCK ||
	       f == IBTOPO_EXPORT_SLURM_YAML || f == IBTOPO_EXPORT_K8S;
}

/* The whole of path into *out (NUL-terminated); false when unreadable. */
static bool read_whole(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct ibtopo_buffer b = { 0 };
	char buf[65536];
	size_t n;
	bool ok = true;

	if (!f)
		return false;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (ibtopo_write_buffer(&b, buf, n))
			ok = false;
	if (ferror(f))
		ok = false;
	fclose(f);
	if (!ok) {
		free(b.text);
		return false;
	}
	*out = b.text;
	*len = b.len;
	return true;
}

int serve_sched_add(struct serve_sched *s, const char *arg, char *msg,
		    size_t len)
{
	const char *eq = strchr(arg, '=');
	struct serve_sched_out *o;
	char name[32];
	int f;

	if (!eq || eq == arg || !eq[1] || (size_t)(eq - arg) >= sizeof(name)) {
		snprintf(msg, len,
			 "bad --scheduler-out '%s' (FORMAT=FILE, as "
			 "slurm=/etc/slurm/topology.conf)",
			 arg);
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	f = ibtopo_export_format_parse(name);
	if (f < 0 || !is_scheduler_format(f)) {
		snprintf(msg, len,
			 "--scheduler-out: '%s' is no scheduler format "
			 "(slurm, slurm-block, slurm-yaml or k8s)",
			 name);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->outs[i].path, eq + 1) == 0) {
			snprintf(msg, len,
				 "--scheduler-out: '%s' is named twice",
				 eq + 1);
			return -1;
		}
	o = realloc(s->outs, (s->n + 1) * sizeof(*o));
	if (!o) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	s->outs = o;
	o = &s->outs[s->n];
	*o = (struct serve_sched_out){ f, strdup(eq + 1), NULL, 0 };
	if (!o->path) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	s->n++;
	/* a file that is there is the last version: not rewritten as is */
	if (!read_whole(o->path, &o->last, &o->last_len))
		o->last = NULL;
	return 0;
}

/* Write text over path through "<path>.tmpXXXXXX"; 0 or an errno. */
static int write_atomic(const char *path, const char *text, size_t len)
{
	size_t n = strlen(path) + sizeof(".tmpXXXXXX");
	char *tmp = malloc(n);
	struct stat st;
	int fd, e = 0;

	if (!tmp)
		return ENOMEM;
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		goto out_free;
	}
	/* the mode of the file it replaces, else 0644: slurmctld and
	 * kubectl run as other users */
	(void)fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 0777) : 0644);
	for (size_t off = 0; !e && off < len;) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno != EINTR)
			e = errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp, path))
		e = errno;
	if (e)
		unlink(tmp);
out_free:
	free(tmp);
	return e;
}

/* The next line of [p, end) as a length; *next past its newline. */
static size_t line_at(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	*next = nl ? nl + 1 : end;
	return (size_t)((nl ? nl : end) - p);
}

/*
 * A line that changes with every sweep and says nothing of the tree:
 * the header's time ("# taken: ..."). Left out of every comparison.
 */
static bool is_volatile(const char *l, size_t n)
{
	return n >= 8 && memcmp(l, "# taken:", 8) == 0;
}

/* The two texts hold the same lines but for the volatile ones. */
static bool same_tree(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *pa = a, *ea = a + alen, *pb = b, *eb = b + blen, *na, *nb;

	for (;;) {
		size_t la = 0, lb = 0;

		while (pa < ea && is_volatile(pa, la = line_at(pa, ea, &na)))
			pa = na;
		while (pb < eb && is_volatile(pb, lb = line_at(pb, eb, &nb)))
			pb = nb;
		if (pa >= ea || pb >= eb)
			return pa >= ea && pb >= eb;
		if (la != lb || memcmp(pa, pb, la) != 0)
			return false;
		pa = na;
		pb = nb;
	}
}

/* Whether the line [l, l+n) is one of text's lines. */
static bool has_line(const char *text, size_t len, const char *l, size_t n)
{
	const char *p = text, *end = text + len, *next;

	while (p < end) {
		size_t m = line_at(p, end, &next);

		if (m == n && memcmp(p, l, n) == 0)
			return true;
		p = next;
	}
	return false;
}

/*
 * Count the lines of a not in b (and say the first of them, in first):
 * what the log says of a rewrite. Quadratic, on files of a few
 * thousand lines once per change.
 */
static size_t lines_not_in(const char *a, size_t alen, const char *b,
			   size_t blen, char *first, size_t flen)
{
	const char *p = a, *end = a + alen, *next;
	size_t count = 0;

	while (p < end) {
		size_t m = line_at(p, end, &next);

		if (!is_volatile(p, m) && (!b || !has_line(b, blen, p, m))) {
			if (!count++)
				snprintf(first, flen, "%.*s",
					 (int)(m > 120 ? 120 : m), p);
		}
		p = next;
	}
	return count;
}

/* Log the change of one file: the lines added and removed. */
static void log_change(const struct serve_sched_out *o, const char *text,
		       size_t len)
{
	char added[128] = "", removed[128] = "";
	size_t plus = lines_not_in(text, len, o->last, o->last_len, added,
				   sizeof(added));
	size_t minus = o->last ? lines_not_in(o->last, o->last_len, text, len,
					      removed, sizeof(removed)) :
				 0;

	fprintf(stderr,
		"ibtopo: serve: %s rewritten (%s): %zu line%s added, %zu "
		"removed%s%s%s%s%s%s\n",
		o->path, ibtopo_export_format_name(o->format), plus,
		plus == 1 ? "" : "s", minus, plus ? "; first added: '" : "",
		added, plus ? "'" : "", minus ? "; first removed: '" : "",
		minus ? removed : "", minus ? "'" : "");
}

/* One file: 1 when rewritten, 0 when the same, -1 on a failure. */
static int update_one(struct serve_sched_out *o, struct serve_sched *s,
		      struct ibtopo_analysis *an)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer b = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &b, 0 };
	int e;

	if (ibtopo_analysis_write(&sink, an, o->format, &s->xo, &err)) {
		fprintf(stderr, "ibtopo: warning: serve: %s not written: %s\n",
			o->path, err.message);
		free(b.text);
		return -1;
	}
	if (o->last && same_tree(o->last, o->last_len, b.text, b.len)) {
		free(b.text);
		return 0;
	}
	e = write_atomic(o->path, b.text ? b.text : "", b.len);
	if (e) {
		fprintf(stderr,
			"ibtopo: warning: serve: cannot write '%s': %s\n",
			o->path, strerror(e));
		free(b.text);
		return -1;
	}
	if (o->last)
		log_change(o, b.text, b.len);
	else
		fprintf(stderr, "ibtopo: serve: %s written (%s)\n", o->path,
			ibtopo_export_format_name(o->format));
	free(o->last);
	o->last = b.text;
	o->last_len = b.len;
	return 1;
}

/* `sh -c CMD` with IBTOPO_SCHEDULER_FILES, after a rewrite. */
static void run_command(const char *cmd, const char *files)
{
	int rc;

	if (setenv("IBTOPO_SCHEDULER_FILES", files, 1)) {
		fprintf(stderr, "ibtopo: warning: serve: out of memory\n");
		return;
	}
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr,
			"ibtopo: warning: serve: --scheduler-cmd '%s' exited "
			"with status %d\n",
			cmd, rc == -1 ? -1 : WEXITSTATUS(rc));
}

void serve_sched_update(struct serve_sched *s, struct ibtopo_analysis *an)
{
	struct ibtopo_buffer files = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		if (update_one(&s->outs[i], s, an) != 1)
			continue;
		if (files.len)
			ibtopo_write_buffer(&files, " ", 1);
		ibtopo_write_buffer(&files, s->outs[i].path,
				    strlen(s->outs[i].path));
	}
	if (files.len && s->cmd) {
		ibtopo_write_buffer(&files, "", 1);
		if (files.text)
			run_command(s->cmd, files.text);
	}
	free(files.text);
}

void serve_sched_release(struct serve_sched *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->outs[i].path);
		free(s->outs[i].last);
	}
	free(s->outs);
	s->outs = NULL;
	s->n = 0;
}
