/* load.c - read a fabric file of any format, detected from its content */
#include "ibtopo-int.h"

#include <stdlib.h>
#include <string.h>

int ibtopo_fabric_read_file(struct ibtopo_fabric **out, const char *path,
			    const struct ibtopo_read_opts *opts,
			    struct ibtopo_error *err)
{
	enum ibtopo_file_format format = opts ? opts->format : IBTOPO_FILE_AUTO;
	char source[4200];
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no file to read");
	*out = NULL;
	if (format == IBTOPO_FILE_AUTO && ibtopo_file_is_cache(path))
		format = IBTOPO_FILE_CACHE;
	switch (format) {
	case IBTOPO_FILE_CACHE:
		rc = ibtopo_fabric_load_cache(out, path, err);
		break;
	default:
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
			"'%s': not an ibnetdiscover cache file", path);
		break;
	}
	if (rc == 0) {
		snprintf(source, sizeof(source), "file:%s", path);
		rc = ibtopo_fabric_set_source(*out, source, err);
		if (rc) {
			ibtopo_fabric_free(*out);
			*out = NULL;
		}
	}
	return rc;
}
