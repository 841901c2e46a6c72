/*
 * ibtopo/namemap.h - node-name maps. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_NAMEMAP_H
#define IBTOPO_NAMEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A node-name map gives nodes names by GUID, as ibnetdiscover's
 * --node-name-map does. Lines, '#' starting a comment:
 *   0x0002c90300080e84 "r510gluster1"     infiniband-diags format
 *   0x0002c90300080e84 r510gluster1       unquoted name (to the line end)
 *   H-0002c90300080e84 r510gluster1       ibnetdiscover node id (S-, H-, R-)
 * The first entry for a GUID wins.
 */
struct ibtopo_name_map;

/** Load a map file. IBTOPO_EIO if unreadable, IBTOPO_EPARSE "<path>:<line>: ...". */
int ibtopo_name_map_load(struct ibtopo_name_map **out, const char *path,
			 struct ibtopo_error *err);
/** Parse a map from memory; `name` stands for the file in messages. */
int ibtopo_name_map_parse(struct ibtopo_name_map **out, const char *buf,
			  size_t len, const char *name, struct ibtopo_error *err);
/** Name for a node GUID, or NULL; borrowed from the map. */
const char *ibtopo_name_map_lookup(const struct ibtopo_name_map *map,
				   uint64_t guid);
/** Number of entries. */
size_t ibtopo_name_map_count(const struct ibtopo_name_map *map);
/**
 * Replace the description of every node whose GUID the map names.
 * `out_renamed` (may be NULL) receives how many were renamed.
 */
int ibtopo_name_map_apply(const struct ibtopo_name_map *map,
			  struct ibtopo_fabric *fabric, size_t *out_renamed,
			  struct ibtopo_error *err);
/**
 * Load the map file at `path` and apply it to `fabric`, as the readers'
 * node_name_map option does: ibtopo_name_map_load() errors, then
 * ibtopo_name_map_apply()'s.
 */
int ibtopo_name_map_apply_file(const char *path, struct ibtopo_fabric *fabric,
			       struct ibtopo_error *err);
/** Free a map; NULL is fine. */
void ibtopo_name_map_free(struct ibtopo_name_map *map);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_NAMEMAP_H */
