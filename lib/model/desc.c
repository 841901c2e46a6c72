/*
 * desc.c - what a node description says, read in one place: whether the
 * firmware wrote it (naming no host), whether a CA is part of a switch
 * (a SHARP aggregation node), the host a CA belongs to and a node's
 * short name. Servers and short names (topology), Slurm host and switch
 * names (export) and diagram labels ask here.
 *
 * What a host is: the <host> of "<host> <adapter>", the form the kernel
 * writes (hostname and device). Joining CAs into one server takes
 * nothing weaker (ibtopo__desc_host_word). A writer that must name every
 * CA takes, in this order, that host word, the first word of a
 * description a person wrote, then "H-<guid>" (ibtopo__ca_host_name);
 * "localhost" and firmware defaults never name a host.
 */
#include "model/model-int.h"

#include <ctype.h>
#include <stdio.h>
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

/* The name every unnamed machine has: it names no host. */
static bool is_localhost(const char *s, size_t n)
{
	return n == 9 && strncmp(s, "localhost", 9) == 0;
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
	return is_localhost(d, n) ? 0 : n;
}

size_t ibtopo__desc_switch_name(const char *d, const char **start)
{
	const char *s, *colon;

	if (!d || strncmp(d, "MF0;", 4) != 0)
		return 0;
	s = d + 4;
	colon = strchr(s, ':');
	*start = s;
	return colon ? (size_t)(colon - s) : strlen(s);
}

const char *ibtopo__node_short_name(const struct ibtopo_node *n, char *buf,
				    size_t len)
{
	const char *d = n->desc ? n->desc : "", *s;
	size_t k = ibtopo__desc_switch_name(d, &s);

	if (k)
		snprintf(buf, len, "%.*s", (int)k, s);
	else if (*d)
		snprintf(buf, len, "%s", d);
	else
		snprintf(buf, len, "0x%016" PRIx64, n->guid);
	return buf;
}

bool ibtopo__is_name_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
			return false;
	}
	return true;
}

bool ibtopo__is_host_name(const char *s, size_t n)
{
	return ibtopo__is_name_word(s, n) && !is_localhost(s, n);
}

size_t ibtopo__desc_first_word(const char **d)
{
	size_t n = 0;

	while (isspace((unsigned char)**d))
		(*d)++;
	while ((*d)[n] && !isspace((unsigned char)(*d)[n]))
		n++;
	return n;
}

const char *ibtopo__ca_host_name(const struct ibtopo_node *ca, char *buf,
				 size_t len)
{
	const char *d = ca->desc ? ca->desc : "";
	size_t n = ibtopo__desc_host_word(d);

	if (!n) {
		/* the variant: a description a person wrote, "compute-01" */
		n = ibtopo__desc_first_word(&d);
		if (ibtopo__desc_is_default(d))
			n = 0;
	}
	if (ibtopo__is_host_name(d, n) && n < len)
		snprintf(buf, len, "%.*s", (int)n, d);
	else
		snprintf(buf, len, "H-%016" PRIx64, ca->guid);
	return buf;
}

const char *ibtopo_node_name(char *buf, size_t len, const struct ibtopo_node *n)
{
	const char *s;
	size_t k;

	if (!buf || !len)
		return buf;
	if (n->type == IBTOPO_NODE_CA)
		return ibtopo__ca_host_name(n, buf, len);
	s = n->desc ? n->desc : "";
	k = ibtopo__desc_switch_name(s, &s);
	if (!k) {
		s = n->desc ? n->desc : "";
		k = strlen(s);
	}
	if (ibtopo__is_name_word(s, k) && k < len)
		snprintf(buf, len, "%.*s", (int)k, s);
	else
		snprintf(buf, len, "%c-%016" PRIx64,
			 n->type == IBTOPO_NODE_ROUTER ? 'R' : 'S', n->guid);
	return buf;
}
