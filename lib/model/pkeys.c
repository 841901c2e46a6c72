/*
 * pkeys.c - a port's partition keys (its PKeyTable as read), owned by the
 * fabric as its counters are.
 */
#include "model/model-int.h"

#include <stdlib.h>
#include <string.h>

int ibtopo_port_set_pkeys(struct ibtopo_port *port, const uint16_t *keys,
			  size_t count, unsigned enforce,
			  struct ibtopo_error *err)
{
	struct ibtopo_pkeys *p;
	size_t n = 0;

	if (!port || (count && !keys))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no port or keys");
	p = calloc(1, sizeof(*p));
	if (p && count)
		p->keys = malloc(count * sizeof(*p->keys));
	if (!p || (count && !p->keys)) {
		free(p);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < count; i++)
		if (keys[i] & IBTOPO_PKEY_BASE)
			p->keys[n++] = keys[i];
	p->count = n;
	p->enforce = (uint8_t)(enforce & (IBTOPO_PKEY_ENFORCE_IN |
					  IBTOPO_PKEY_ENFORCE_OUT));
	ibtopo__pkeys_free(port->pkeys);
	port->pkeys = p;
	return 0;
}

int ibtopo_port_pkey_member(const struct ibtopo_port *port, unsigned base)
{
	int best = 0;

	if (!port || !port->pkeys)
		return 0;
	for (size_t i = 0; i < port->pkeys->count; i++) {
		unsigned k = port->pkeys->keys[i];

		if ((k & IBTOPO_PKEY_BASE) != (base & IBTOPO_PKEY_BASE))
			continue;
		if (k & IBTOPO_PKEY_FULL)
			return 2;
		best = 1;
	}
	return best;
}

void ibtopo__pkeys_free(struct ibtopo_pkeys *pkeys)
{
	if (pkeys)
		free(pkeys->keys);
	free(pkeys);
}
