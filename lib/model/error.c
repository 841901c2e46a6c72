/* error.c - status codes and the caller-provided error buffer */
#include "ibtopo-int.h"

#include <stdio.h>
#include <string.h>

const char *ibtopo_strerror(int code)
{
	switch (code) {
	case IBTOPO_OK:
		return "success";
	case IBTOPO_EINVAL:
		return "invalid argument";
	case IBTOPO_ENOMEM:
		return "out of memory";
	case IBTOPO_ENOTFOUND:
		return "not found";
	case IBTOPO_EIO:
		return "input/output error";
	case IBTOPO_EPARSE:
		return "malformed input";
	case IBTOPO_ENODEV:
		return "no InfiniBand device";
	case IBTOPO_EPARTIAL:
		return "discovery incomplete";
	case IBTOPO_EVERSION:
		return "unsupported schema version";
	case IBTOPO_EBUSY:
		return "database busy";
	default:
		return "error";
	}
}

int ibtopo__error_vset(struct ibtopo_error *err, int code, const char *fmt,
		       va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return code;
}

int ibtopo__error_set(struct ibtopo_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ibtopo__error_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int ibtopo__error_prefix(struct ibtopo_error *err, const char *fmt, ...)
{
	char buf[2 * IBTOPO_ERROR_SIZE + 2];
	size_t n;
	va_list ap;

	if (!err)
		return IBTOPO_ERROR;
	va_start(ap, fmt);
	vsnprintf(buf, IBTOPO_ERROR_SIZE, fmt, ap);
	va_end(ap);
	n = strlen(buf);
	buf[n++] = ':';
	buf[n++] = ' ';
	memcpy(buf + n, err->message, IBTOPO_ERROR_SIZE);
	buf[n + IBTOPO_ERROR_SIZE - 1] = '\0';
	memcpy(err->message, buf, IBTOPO_ERROR_SIZE - 1);
	err->message[IBTOPO_ERROR_SIZE - 1] = '\0';
	return err->code;
}
