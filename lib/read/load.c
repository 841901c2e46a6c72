/* load.c - read a fabric file of any format, detected from its content */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

int ibtopo_fabric_read_file(struct ibtopo_fabric **out, const char *path,
			    const struct ibtopo_read_opts *opts,
			    struct ibtopo_error *err)
{
	enum ibtopo_file_format format = opts ? opts->format : IBTOPO_FILE_AUTO;
	const struct ibtopo__reader *reader;
	char source[4200];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no file to read");
	*out = NULL;
	reader = format == IBTOPO_FILE_AUTO ? ibtopo__reader_for_path(path) :
					       ibtopo__reader_find(format);
	if (reader && reader->read_path) {
		/* e.g. libibnetdisc reads cache files itself, from the path */
		rc = reader->read_path(out, path, err);
		if (!rc && opts && opts->node_name_map)
			rc = ibtopo_name_map_apply_file(opts->node_name_map, *out,
							err);
	} else {
		rc = ibtopo__read_whole_file(&buf, &len, path, err);
		if (!rc)
			rc = ibtopo_fabric_read_buffer(out, buf, len, path, opts,
						       err);
		free(buf);
	}
	if (rc == 0) {
		snprintf(source, sizeof(source), "file:%s", path);
		rc = ibtopo_fabric_set_source(*out, source, err);
	}
	if (rc) {
		ibtopo_fabric_free(*out);
		*out = NULL;
	}
	return rc;
}
