/*
 * output_file.c - `-o FILE` for export, plan and render: write into what
 * FILE names (atomically when it is a regular file), never replace a
 * symlink, FIFO or device by a regular file.
 */
#include "output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_stdout(const struct output_file *o)
{
	return strcmp(o->name, "-") == 0;
}

static int fail_errno(const struct output_file *o, int e)
{
	if (is_stdout(o))
		return cli_failf("cannot write to standard output: %s",
				 strerror(e));
	return cli_failf("cannot write '%s': %s", o->name, strerror(e));
}

static void release(struct output_file *o)
{
	free(o->tmp);
	free(o->target);
	o->tmp = NULL;
	o->target = NULL;
	o->path = NULL;
	o->f = NULL;
	o->fd = -1;
}

/*
 * Create a temporary file: "<target>.tmpXXXXXX<.ext>" beside the target
 * (rename stays in one file system), or with `elsewhere` "ibtopo-XXXXXX
 * <.ext>" in $TMPDIR; the same extension, so a writer that picks its
 * format from the name picks the same one. A stream (written through
 * o->f, its name never read) gets no extension: node_exporter's textfile
 * collector reads every *.prom, a half-written one too. Returns 0 or an
 * errno value.
 */
static int make_tmp(struct output_file *o, bool elsewhere, bool stream)
{
	const char *base = strrchr(o->target, '/');
	const char *dir = getenv("TMPDIR");
	const char *ext;
	size_t n;
	int fd;

	base = base ? base + 1 : o->target;
	ext = strrchr(base, '.');
	if (!ext || ext == base || stream)
		ext = "";
	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(elsewhere ? dir : o->target) + strlen("/ibtopo-XXXXXX") +
	    strlen(ext) + 1;
	o->tmp = malloc(n);
	if (!o->tmp)
		return ENOMEM;
	if (elsewhere)
		snprintf(o->tmp, n, "%s/ibtopo-XXXXXX%s", dir, ext);
	else
		snprintf(o->tmp, n, "%s.tmpXXXXXX%s", o->target, ext);
	fd = mkstemps(o->tmp, (int)strlen(ext));
	if (fd < 0) {
		int e = errno;

		free(o->tmp);
		o->tmp = NULL;
		return e;
	}
	o->fd = fd;
	o->copy = elsewhere;
	return 0;
}

/* Copy the temporary file into the target; returns 0 or an errno value. */
static int copy_out(struct output_file *o)
{
	char buf[65536];
	FILE *in, *out;
	size_t n;
	int e = 0;

	in = fopen(o->tmp, "r");
	if (!in)
		return errno;
	out = fopen(o->target, "w");
	if (!out) {
		e = errno;
		goto out_close_in;
	}
	while (!e && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
		errno = 0;
		if (fwrite(buf, 1, n, out) != n)
			e = errno ? errno : EIO;
	}
	if (!e && ferror(in))
		e = EIO;
	if (fclose(out) && !e)
		e = errno;
out_close_in:
	fclose(in);
	return e;
}

/* How to write o->target: 1 through a temporary file, 0 directly. */
static int classify(struct output_file *o, int *out_atomic)
{
	struct stat st;

	if (stat(o->target, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		*out_atomic = S_ISREG(st.st_mode);
		if (*out_atomic)
			o->mode = (int)(st.st_mode & 0777);
		return 0;
	}
	if (errno != ENOENT)
		return errno;
	/* a new file; a symlink to nothing yet is written through */
	*out_atomic = !(lstat(o->target, &st) == 0 && S_ISLNK(st.st_mode));
	return 0;
}

int output_file_open(struct output_file *o, const char *name, bool stream)
{
	struct stat st;
	mode_t mask;
	int atomic = 0, e;

	*o = (struct output_file){ .name = name ? name : "-", .fd = -1 };
	if (is_stdout(o)) {
		o->path = "-";
		o->f = stream ? stdout : NULL;
		return 0;
	}
	mask = umask(0);
	umask(mask);
	o->mode = (int)(0666 & ~mask);
	if (lstat(o->name, &st) == 0 && S_ISLNK(st.st_mode))
		o->target = realpath(o->name, NULL);
	if (!o->target)
		o->target = strdup(o->name);
	if (!o->target) {
		e = ENOMEM;
		goto out_fail;
	}
	e = classify(o, &atomic);
	if (e)
		goto out_fail;
	if (atomic) {
		e = make_tmp(o, false, stream);
		/* a writable file in a folder we may not create files in */
		if ((e == EACCES || e == EPERM) && stat(o->target, &st) == 0)
			atomic = 0;
		else if (e)
			goto out_fail;
	}
	if (!atomic && !stream) {
		/* the writer gets a file; its bytes go to the target at the
		 * end, so a write error is ours to see and to name */
		e = make_tmp(o, true, stream);
		if (e)
			goto out_fail;
	}
	o->path = o->tmp ? o->tmp : o->target;
	if (stream && atomic) {
		o->f = fdopen(o->fd, "w");
		if (!o->f) {
			e = errno;
			goto out_fail;
		}
		o->fd = -1;
	} else if (stream) {
		o->f = fopen(o->target, "w");
		if (!o->f) {
			e = errno;
			goto out_fail;
		}
	}
	return 0;
out_fail:
	output_file_abort(o);
	return fail_errno(o, e);
}

int output_file_write(void *arg, const char *buf, size_t len)
{
	struct output_file *o = arg;

	errno = 0;
	if (len && fwrite(buf, 1, len, o->f) != len) {
		if (!o->error)
			o->error = errno ? errno : EIO;
		return IBTOPO_EIO;
	}
	return 0;
}

struct ibtopo_sink output_file_opts(struct output_file *o,
				    enum ibtopo_format format)
{
	struct ibtopo_sink ro = cli_stdout_sink(format);

	ro.write = output_file_write;
	ro.write_arg = o;
	return ro;
}

/* Flush, sync and close what o holds open; returns 0 or an errno value. */
static int finish(struct output_file *o)
{
	int fd = o->f ? fileno(o->f) : o->fd;
	int e = 0;

	if (o->f && fflush(o->f))
		e = errno;
	else if (o->f && ferror(o->f))
		e = o->error ? o->error : EIO;
	else if (o->tmp && !o->copy && fchmod(fd, (mode_t)o->mode))
		e = errno;
	else if (o->tmp && !o->copy && fsync(fd))
		e = errno;
	if (o->f && o->f != stdout) {
		if (fclose(o->f) && !e)
			e = errno;
	} else if (o->fd >= 0 && close(o->fd) && !e) {
		e = errno;
	}
	o->f = NULL;
	o->fd = -1;
	return e;
}

int output_file_close(struct output_file *o)
{
	int e = finish(o);

	if (!e && o->copy)
		e = copy_out(o);
	else if (!e && o->tmp && rename(o->tmp, o->target))
		e = errno;
	if (e) {
		output_file_abort(o);
		return fail_errno(o, e);
	}
	if (o->copy)
		unlink(o->tmp);
	release(o);
	return 0;
}

void output_file_abort(struct output_file *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

int output_file_fail(const struct output_file *o,
		     const struct ibtopo_error *err)
{
	const char *msg = err->message, *hit = NULL;
	size_t skip = 0;

	if (o->error)
		return fail_errno(o, o->error);
	/* the writer named the file it opened: name the one asked for */
	if (o->path && strcmp(o->path, "-") != 0) {
		hit = strstr(msg, o->path);
		skip = strlen(o->path);
	}
	if (!hit)
		return cli_fail(err);
	return cli_failf("%.*s%s%s", (int)(hit - msg), msg, o->name,
			 hit + skip);
}
