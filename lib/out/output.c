/* output.c - writing through the caller's sink */
#include "out/out-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ibtopo_write_file(void *file, const char *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, file) != len)
		return IBTOPO_EIO;
	return 0;
}

int ibtopo_write_buffer(void *buffer, const char *buf, size_t len)
{
	struct ibtopo_buffer *b = buffer;

	if (b->limit && len > b->limit - b->len)
		return IBTOPO_EIO;
	if (b->len + len + 1 > b->alloc) {
		size_t alloc = b->alloc ? b->alloc : 4096;
		char *grown;

		while (alloc < b->len + len + 1)
			alloc *= 2;
		grown = realloc(b->text, alloc);
		if (!grown)
			return IBTOPO_ENOMEM;
		b->text = grown;
		b->alloc = alloc;
	}
	memcpy(b->text + b->len, buf, len);
	b->len += len;
	b->text[b->len] = '\0';
	return 0;
}

void ibtopo_buffer_release(struct ibtopo_buffer *buffer)
{
	size_t limit = buffer->limit;

	free(buffer->text);
	memset(buffer, 0, sizeof(*buffer));
	buffer->limit = limit;
}

int ibtopo__out_write(const struct ibtopo_sink *sink, const char *buf,
		      size_t len)
{
	if (!sink || !sink->write)
		return IBTOPO_EINVAL;
	return sink->write(sink->write_arg, buf, len);
}

int ibtopo__out_vprintf(const struct ibtopo_sink *sink, const char *fmt,
			va_list ap)
{
	char small[512];
	char *buf = small;
	va_list again;
	int n, rc;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		rc = IBTOPO_EINVAL;
		goto out;
	}
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			rc = IBTOPO_ENOMEM;
			goto out;
		}
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	}
	rc = ibtopo__out_write(sink, buf, (size_t)n);
	if (buf != small)
		free(buf);
out:
	va_end(again);
	return rc;
}

int ibtopo__out_csv_field(const struct ibtopo_sink *sink, const char *s)
{
	int rc;

	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n"))
		return ibtopo__out_write(sink, s, strlen(s));
	rc = ibtopo__out_write(sink, "\"", 1);
	for (const char *p = s; rc == 0 && *p; p++) {
		if (*p == '"')
			rc = ibtopo__out_write(sink, "\"\"", 2);
		else
			rc = ibtopo__out_write(sink, p, 1);
	}
	if (rc == 0)
		rc = ibtopo__out_write(sink, "\"", 1);
	return rc;
}

void ibtopo__wr_write(struct ibtopo__wr *w, const char *s, size_t n)
{
	if (!w->rc && n)
		w->rc = ibtopo__out_write(w->o, s, n);
}

void ibtopo__wr_puts(struct ibtopo__wr *w, const char *s)
{
	if (!w->rc)
		w->rc = ibtopo__out_write(w->o, s, strlen(s));
}

IBTOPO__PRINTF(2, 3)
void ibtopo__wr_printf(struct ibtopo__wr *w, const char *fmt, ...)
{
	va_list ap;

	if (w->rc)
		return;
	va_start(ap, fmt);
	w->rc = ibtopo__out_vprintf(w->o, fmt, ap);
	va_end(ap);
}

int ibtopo_sink_printf(const struct ibtopo_sink *sink, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = ibtopo__out_vprintf(sink, fmt, ap);
	va_end(ap);
	return rc;
}
