/*
 * namemap.c - node-name maps (opensm's ibnetdiscover.node-name-map: a GUID
 * and a name a line).
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

struct name_entry {
	uint64_t guid;
	char *name;
	size_t order;
};

struct ibtopo_name_map {
	struct name_entry *items;
	size_t count, alloc;
	struct ibtopo__arena arena;
};

int ibtopo_name_map_apply_file(const char *path, struct ibtopo_fabric *fabric,
			       struct ibtopo_error *err)
{
	struct ibtopo_name_map *map = NULL;
	int rc;

	rc = ibtopo_name_map_load(&map, path, err);
	if (!rc)
		rc = ibtopo_name_map_apply(map, fabric, NULL, err);
	ibtopo_name_map_free(map);
	return rc;
}

void ibtopo_name_map_free(struct ibtopo_name_map *map)
{
	if (!map)
		return;
	free(map->items);
	ibtopo__arena_release(&map->arena);
	free(map);
}

static int cmp_entry(const void *x, const void *y)
{
	const struct name_entry *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int map_line(struct ibtopo_name_map *m, struct ibtopo__src *s, const char *p)
{
	uint64_t guid;
	const char *e;
	char *name;

	if ((p[0] == 'S' || p[0] == 'H' || p[0] == 'R') && p[1] == '-')
		p += 2;
	else if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return ibtopo__src_error(s, s->lineno,
				 "expected '0x<guid> \"<name>\"' or 'H-<guid> <name>'");
	if (!ibtopo__parse_hex64(&p, &guid) || (*p != ' ' && *p != '\t'))
		return ibtopo__src_error(s, s->lineno,
				 "expected a GUID of up to 16 hex digits, then the name");
	p = ibtopo__skip_ws(p);
	if (*p == '"') {
		e = strchr(p + 1, '"');
		if (!e)
			return ibtopo__src_error(s, s->lineno, "unterminated name");
		name = ibtopo__arena_strndup(&m->arena, p + 1, (size_t)(e - p - 1));
		if (*ibtopo__skip_ws(e + 1) && *ibtopo__skip_ws(e + 1) != '#')
			return ibtopo__src_error(s, s->lineno,
					 "unexpected text after the quoted name");
	} else {
		e = strchr(p, '#');
		if (!e)
			e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		name = ibtopo__arena_strndup(&m->arena, p, (size_t)(e - p));
	}
	if (!name)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	if (!*name)
		return ibtopo__src_error(s, s->lineno, "expected a name after the GUID");
	if (ibtopo__grow(&m->items, &m->alloc, m->count + 1, sizeof(*m->items)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	m->items[m->count] = (struct name_entry){ guid, name, m->count };
	m->count++;
	return 0;
}

int ibtopo_name_map_parse(struct ibtopo_name_map **out, const char *buf,
			  size_t len, const char *name, struct ibtopo_error *err)
{
	struct ibtopo_name_map *m;
	struct ibtopo__src *s;
	size_t k = 0;
	int rc;

	if (!out || (!buf && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map to parse");
	*out = NULL;
	m = calloc(1, sizeof(*m));
	s = malloc(sizeof(*s));
	if (!m || !s) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	ibtopo__src_init(s, buf, len, name, NULL, err);
	for (rc = ibtopo__src_next(s); rc > 0; rc = ibtopo__src_next(s)) {
		const char *p = ibtopo__skip_ws(s->line);

		for (const char *c = p; *c; c++) {
			if (!ibtopo__is_text_byte((unsigned char)*c)) {
				rc = ibtopo__src_error(s, s->lineno,
					       "binary data (expected text)");
				goto out_free;
			}
		}
		if (*p == '\0' || *p == '#')
			continue;
		rc = map_line(m, s, p);
		if (rc)
			goto out_free;
	}
	if (rc < 0)
		goto out_free;
	if (memchr(buf, '\0', len)) {
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
				       "%s: binary data (expected text)", s->name);
		goto out_free;
	}
	/* sorted by GUID, the first entry of each GUID kept */
	if (m->count)
		qsort(m->items, m->count, sizeof(*m->items), cmp_entry);
	for (size_t i = 0; i < m->count; i++)
		if (!k || m->items[k - 1].guid != m->items[i].guid)
			m->items[k++] = m->items[i];
	m->count = k;
	*out = m;
	m = NULL;
	rc = 0;
out_free:
	free(s);
	ibtopo_name_map_free(m);
	return rc;
}

int ibtopo_name_map_load(struct ibtopo_name_map **out, const char *path,
			 struct ibtopo_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map file");
	*out = NULL;
	rc = ibtopo__read_whole_file(&buf, &len, path, err);
	if (rc)
		return rc;
	rc = ibtopo_name_map_parse(out, buf, len, path, err);
	free(buf);
	return rc;
}

const char *ibtopo_name_map_lookup(const struct ibtopo_name_map *map,
				   uint64_t guid)
{
	size_t lo = 0, hi = map ? map->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->items[mid].guid == guid)
			return map->items[mid].name;
		if (map->items[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t ibtopo_name_map_count(const struct ibtopo_name_map *map)
{
	return map ? map->count : 0;
}

int ibtopo_name_map_apply(const struct ibtopo_name_map *map,
			  struct ibtopo_fabric *fabric, size_t *out_renamed,
			  struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_node_count(fabric), renamed = 0;
	int rc;

	if (!map || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no map or fabric");
	for (size_t i = 0; i < n; i++) {
		struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);
		const char *name = ibtopo_name_map_lookup(map, node->guid);

		if (!name || strcmp(name, node->desc) == 0)
			continue;
		rc = ibtopo_node_set_desc(node, name, err);
		if (rc)
			return rc;
		renamed++;
	}
	if (out_renamed)
		*out_renamed = renamed;
	return 0;
}

