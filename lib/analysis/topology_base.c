/*
 * topology_base.c - what every file of the topology analysis shares: its
 * nodes and chassis as text names them, a switch as a finding's end, and
 * the add that a NULL findings list ignores. It calls none of them.
 */
#include "topology-int.h"

#include <stdio.h>
#include <string.h>

const char *ibtopo__topology_chassis_name(const struct ibtopo_topology *t,
					  size_t chassis, char *buf, size_t len)
{
	const struct ibtopo__chassis *c = &t->chassis[chassis];
	const char *first = t->sw[c->first].node->desc;
	size_t common = strlen(first);

	if (c->chips < 2)
		return ibtopo__node_short_name(t->sw[c->first].node, buf, len);
	/* A director's chips share the start of their descriptions
	 * ("MF0;dir1:CS7500/L01/U1", "MF0;dir1:CS7500/S01/U1"). */
	for (size_t i = 0; i < t->nsw; i++) {
		const char *d = t->sw[i].node->desc;
		size_t k = 0;

		if (t->sw[i].chassis != chassis)
			continue;
		while (k < common && d[k] == first[k])
			k++;
		common = k;
	}
	while (common && strchr("/:;-_ ", first[common - 1]))
		common--;
	if (strncmp(first, "MF0;", 4) == 0 && common > 4) {
		const char *colon = memchr(first + 4, ':', common - 4);

		if (colon)
			common = (size_t)(colon - first);
		snprintf(buf, len, "%.*s", (int)(common - 4), first + 4);
	} else if (common) {
		snprintf(buf, len, "%.*s", (int)common, first);
	} else {
		snprintf(buf, len, "chassis 0x%016" PRIx64, c->sysimg);
	}
	return buf;
}

const char *ibtopo__topology_short_namer(void *arg, const struct ibtopo_node *n,
					 char *buf, size_t len)
{
	(void)arg;
	return ibtopo__node_short_name(n, buf, len);
}

const char *ibtopo__topology_node_text(const struct ibtopo_topology *t,
				       const struct ibtopo_node *node,
				       bool short_name, char *buf, size_t len)
{
	char name[256];

	if (short_name)
		return ibtopo__name_node(&t->short_names,
					 ibtopo__node_short_name(node, name,
								 sizeof(name)),
					 node->guid, buf, len);
	return ibtopo__name_node(&t->desc_names, node->desc, node->guid, buf,
				 len);
}

const char *ibtopo__topology_chassis_text(const struct ibtopo_topology *t,
					  size_t chassis, char *buf, size_t len)
{
	char other[256];
	size_t n;

	ibtopo__topology_chassis_name(t, chassis, buf, len);
	for (size_t c = 0; c < t->nchassis; c++) {
		if (c == chassis || t->chassis[c].chips < 2 ||
		    strcmp(ibtopo__topology_chassis_name(t, c, other,
							 sizeof(other)),
			   buf))
			continue;
		n = strlen(buf);
		snprintf(buf + n, len - n, " (0x%016" PRIx64 ")",
			 t->chassis[chassis].sysimg);
		break;
	}
	return buf;
}

int ibtopo__topology_add(struct ibtopo_findings *list,
			 const struct ibtopo_finding *f,
			 struct ibtopo_error *err)
{
	return list ? ibtopo_findings_add(list, f, err) : 0;
}

void ibtopo__topology_end_switch(struct ibtopo_end *e,
				 const struct ibtopo_topology *t, size_t sw)
{
	e->node = sw == IBTOPO__NONE ? NULL : t->sw[sw].node->desc;
	e->guid = sw == IBTOPO__NONE ? 0 : t->sw[sw].node->guid;
	e->port = -1;
}

uint64_t ibtopo__topology_director(const struct ibtopo_topology *t,
				   const struct ibtopo_node *node)
{
	const struct ibtopo__chassis *c;
	size_t i;

	if (!t || !node || node->index >= ibtopo_fabric_node_count(t->fabric) ||
	    ibtopo_fabric_node(t->fabric, node->index) != node)
		return 0;
	i = t->node2sw[node->index];
	if (i == IBTOPO__NONE)
		return 0;
	c = &t->chassis[t->sw[i].chassis];
	return c->chips > 1 ? c->sysimg : 0;
}

/* 'name' as a reason quotes a node: with its GUID when several share it. */
const char *ibtopo__topology_quoted(const struct ibtopo_topology *t,
				    const struct ibtopo_node *n, char *buf,
				    size_t len)
{
	char name[256];

	if (ibtopo__shared_names_has(&t->desc_names, n->desc))
		snprintf(buf, len, "'%s' (0x%016" PRIx64 ")",
			 ibtopo__quote(name, sizeof(name), n->desc,
				       strlen(n->desc)),
			 n->guid);
	else
		snprintf(buf, len, "'%s'",
			 ibtopo__quote(name, sizeof(name), n->desc,
				       strlen(n->desc)));
	return buf;
}

int ibtopo__edge_cmp(const void *x, const void *y)
{
	const struct ibtopo__edge *a = x, *b = y;

	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}
