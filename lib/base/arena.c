/*
 * arena.c - memory for the readers: an arena for strings, an open-addressing
 * map from keys to indexes, growing arrays; and the GUIDs of named nodes.
 */
#include "base/base-int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Arena for strings, and hash maps                                    */
/* ------------------------------------------------------------------ */

char *ibtopo__arena_strndup(struct ibtopo__arena *a, const char *s, size_t n)
{
	struct ibtopo__arena_blk *b = a->head;
	char *p;

	if (!b || b->size - b->used < n + 1) {
		size_t size = n + 1 > 65536 ? n + 1 : 65536;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->next = a->head;
		b->used = 0;
		b->size = size;
		a->head = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

void ibtopo__arena_release(struct ibtopo__arena *a)
{
	while (a->head) {
		struct ibtopo__arena_blk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

uint64_t ibtopo__fnv1a(const void *data, size_t n, uint64_t h)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define IBTOPO__FNV_OFFSET 0xcbf29ce484222325ull
#define NAME_GUID_BIT 0x0200000000000000ull

uint64_t ibtopo_name_guid(const char *name)
{
	return ibtopo__fnv1a(name, name ? strlen(name) : 0, IBTOPO__FNV_OFFSET) | NAME_GUID_BIT;
}

/* The GUID for a name after `attempt` collisions; attempt 0 is the public one. */
uint64_t ibtopo__name_guid_attempt(const char *name, unsigned attempt)
{
	uint64_t h = ibtopo__fnv1a(name, strlen(name), IBTOPO__FNV_OFFSET);
	unsigned char a = (unsigned char)attempt;

	if (attempt)
		h = ibtopo__fnv1a(&a, 1, ibtopo__fnv1a("#", 1, h));
	return h | NAME_GUID_BIT;
}

void ibtopo__imap_release(struct ibtopo__imap *m)
{
	free(m->slots);
	free(m->keys);
	memset(m, 0, sizeof(*m));
}

uint64_t ibtopo__mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int imap_grow(struct ibtopo__imap *m)
{
	struct ibtopo__imap n = { 0 };

	if (m->count * 2 < m->size)
		return 0;
	n.size = m->size ? m->size * 2 : 64;
	n.slots = calloc(n.size, sizeof(*n.slots));
	n.keys = calloc(n.size, sizeof(*n.keys));
	if (!n.slots || !n.keys) {
		ibtopo__imap_release(&n);
		return IBTOPO_ENOMEM;
	}
	for (size_t i = 0; i < m->size; i++) {
		size_t j;

		if (!m->slots[i])
			continue;
		j = (size_t)ibtopo__mix64(m->keys[i]) & (n.size - 1);
		while (n.slots[j])
			j = (j + 1) & (n.size - 1);
		n.slots[j] = m->slots[i];
		n.keys[j] = m->keys[i];
	}
	n.count = m->count;
	ibtopo__imap_release(m);
	*m = n;
	return 0;
}

/*
 * Find key in the map; `eq` tells stored index i matches (for string keys;
 * NULL compares the numbers). Returns the index or SIZE_MAX.
 */
size_t ibtopo__imap_find(const struct ibtopo__imap *m, uint64_t key,
			bool (*eq)(const void *ctx, size_t i), const void *ctx)
{
	size_t j;

	if (!m->size)
		return SIZE_MAX;
	j = (size_t)ibtopo__mix64(key) & (m->size - 1);
	while (m->slots[j]) {
		if (m->keys[j] == key && (!eq || eq(ctx, m->slots[j] - 1)))
			return m->slots[j] - 1;
		j = (j + 1) & (m->size - 1);
	}
	return SIZE_MAX;
}

/* Insert (key -> idx); the caller has checked it is absent. */
int ibtopo__imap_put(struct ibtopo__imap *m, uint64_t key, size_t idx)
{
	size_t j;

	if (imap_grow(m))
		return IBTOPO_ENOMEM;
	j = (size_t)ibtopo__mix64(key) & (m->size - 1);
	while (m->slots[j])
		j = (j + 1) & (m->size - 1);
	m->slots[j] = idx + 1;
	m->keys[j] = key;
	m->count++;
	return 0;
}

/* imap_grow rehashes with the stored key, so keep stored keys pre-mixed. */
size_t ibtopo__imap_find_u64(const struct ibtopo__imap *m, uint64_t key)
{
	return ibtopo__imap_find(m, key, NULL, NULL);
}

uint64_t ibtopo__str_key(const char *s)
{
	return ibtopo__mix64(ibtopo__fnv1a(s, strlen(s), IBTOPO__FNV_OFFSET));
}
