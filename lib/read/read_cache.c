/*
 * read_cache.c - `ibnetdiscover --cache` files: binary, and read by
 * libibnetdisc from the path (io/discover.c), so the row takes paths.
 */
#include "read/read-int.h"

const struct ibtopo__reader ibtopo__reader_cache = {
	.format = IBTOPO_FILE_CACHE,
	.name = "cache",
	.what = "an ibnetdiscover --cache file",
	.detect_path = ibtopo_file_is_cache,
	.read_path = ibtopo_fabric_load_cache,
};
