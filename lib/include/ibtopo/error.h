/*
 * ibtopo/error.h - errors. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_ERROR_H
#define IBTOPO_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_status {
	IBTOPO_OK = 0,
	IBTOPO_ERROR = -1,	/* generic failure */
	IBTOPO_EINVAL = -2,	/* bad argument or usage */
	IBTOPO_ENOMEM = -3,	/* out of memory */
	IBTOPO_ENOTFOUND = -4,	/* no such snapshot, node, file */
	IBTOPO_EIO = -5,	/* reading or writing a file or database */
	IBTOPO_EPARSE = -6,	/* malformed input */
	IBTOPO_ENODEV = -7,	/* no InfiniBand device or port */
	IBTOPO_EPARTIAL = -8,	/* discovery incomplete */
	IBTOPO_EVERSION = -9,	/* database from a newer schema version */
	IBTOPO_EBUSY = -10,	/* database locked too long */
	IBTOPO_EEXIST = -11,	/* a label names another snapshot already */
	IBTOPO_EAMBIGUOUS = -12, /* a name or label fits several things */
};

#define IBTOPO_ERROR_SIZE 256

/** Error detail: a status code and a one-line lowercase message. */
struct ibtopo_error {
	int code;
	char message[IBTOPO_ERROR_SIZE];
};

#define IBTOPO_ERROR_INIT { 0, { 0 } }

/** Static description of a status code; never NULL. */
const char *ibtopo_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_ERROR_H */
