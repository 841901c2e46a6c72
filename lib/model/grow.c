/* grow.c - the array-growing helper every module shares */
#include "model/model-int.h"

#include <stdint.h>
#include <stdlib.h>

int ibtopo__grow(void *pptr, size_t *alloc, size_t need, size_t size)
{
	void **p = pptr;
	size_t n = *alloc ? *alloc : 16;
	void *np;

	if (need <= *alloc)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return IBTOPO_ENOMEM;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return IBTOPO_ENOMEM;
	np = realloc(*p, n * size);
	if (!np)
		return IBTOPO_ENOMEM;
	*p = np;
	*alloc = n;
	return 0;
}
