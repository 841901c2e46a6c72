/*
 * desc.c - what a node description says, read in one place: whether the
 * firmware wrote it (naming no host), whether a CA is part of a switch
 * (a SHARP aggregation node), and the host a CA belongs to. Servers
 * (topology), Slurm host names (export) and diagram labels ask here.
 */
#include "ibtopo-int.h"

#include <string.h>

bool ibtopo__desc_is_default(const char *d)
{
	if (!d || !d[0] || strstr(d, "Mellanox Technologies") ||
	    strstr(d, "NVIDIA Technologies"))
		return true;
	/* "MT25408 ConnectX ...", "MT4129 ConnectX7 ..." */
	if (d[0] == 'M' && d[1] == 'T' && d[2] >= '0' && d[2] <= '9') {
		const char *p = d + 2;

		while (*p >= '0' && *p <= '9')
			p++;
		return *p == ' ' || *p == '\0';
	}
	return false;
}

bool ibtopo__desc_is_aggregation(const char *d)
{
	return d && strstr(d, "Aggregation Node") != NULL;
}

bool ibtopo__node_in_switch(const struct ibtopo_node *ca)
{
	if (ca->type != IBTOPO_NODE_CA)
		return false;
	if (ibtopo__desc_is_aggregation(ca->desc))
		return true;
	for (unsigned i = 1; ca->sysimg_guid && i <= ca->nports; i++) {
		const struct ibtopo_port *p = ca->ports[i];

		if (p && p->remote && p->remote->node->type == IBTOPO_NODE_SWITCH &&
		    p->remote->node->sysimg_guid == ca->sysimg_guid)
			return true;
	}
	return false;
}

size_t ibtopo__desc_host_word(const char *d)
{
	const char *sp, *a;
	size_t n;

	if (!d)
		return 0;
	sp = strchr(d, ' ');
	if (!sp || sp == d)
		return 0;
	n = (size_t)(sp - d);
	a = sp + 1;
	if (strchr(a, ' '))
		return 0;
	if (!((strncmp(a, "mlx", 3) == 0 && strchr(a, '_')) ||
	      strncmp(a, "HCA-", 4) == 0 || strncmp(a, "hfi", 3) == 0 ||
	      strncmp(a, "qib", 3) == 0 || strncmp(a, "ibp", 3) == 0))
		return 0;
	if (n == 9 && strncmp(d, "localhost", 9) == 0)
		return 0;
	return n;
}
