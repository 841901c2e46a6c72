/*
 * topology_chassis.c - directors: a chassis (switch chips sharing a
 * system image GUID) is inside a 2-level tree of line chips, which carry
 * the external cables, and fabric chips, which join the line chips. A
 * line chip without any external cable (an unused slot of a partly
 * cabled director) is reached from the leaves only through the fabric
 * chips, so ranking by hops from the leaves puts it a level above them:
 * here it is ranked with its chassis' line chips instead, and kept out
 * of the bandwidth and uplink counts (it carries no traffic).
 */
#include "topology-int.h"

#include <stdlib.h>

/* Does switch u have servers or cables to switches outside its chassis? */
static bool external(const struct ibtopo_topology *t, size_t u, size_t *links)
{
	size_t n = t->sw[u].host_links;

	for (size_t j = t->off[u]; j < t->off[u + 1]; j++)
		if (t->sw[t->adj[j].v].chassis != t->sw[u].chassis)
			n += t->adj[j].mult;
	if (links)
		*links = n;
	return n > 0;
}

int ibtopo__chassis_rank(struct ibtopo_topology *t, struct ibtopo_error *err)
{
	size_t *queue = NULL, *dist = NULL;
	int ret = 0;

	queue = calloc(t->nsw + 1, sizeof(*queue));
	dist = calloc(t->nsw + 1, sizeof(*dist));
	if (!queue || !dist) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < t->nsw; i++) {
		struct ibtopo__chassis *c = &t->chassis[t->sw[i].chassis];
		size_t links;

		dist[i] = IBTOPO__NONE;
		if (c->chips < 2)
			continue;
		if (external(t, i, &links)) {
			c->external_links += links;
			if (t->sw[i].level > 0 &&
			    (!c->line_level || t->sw[i].level < c->line_level))
				c->line_level = t->sw[i].level;
		}
	}
	/* Hops from the chassis' external chips, inside the chassis: even
	 * is the line side, odd the fabric side. */
	for (size_t ci = 0; ci < t->nchassis; ci++) {
		struct ibtopo__chassis *c = &t->chassis[ci];
		size_t head = 0, tail = 0;

		if (c->chips < 2 || !c->line_level)
			continue;
		for (size_t i = 0; i < t->nsw; i++)
			if (t->sw[i].chassis == ci && external(t, i, NULL)) {
				dist[i] = 0;
				queue[tail++] = i;
			}
		while (head < tail) {
			size_t u = queue[head++];

			for (size_t j = t->off[u]; j < t->off[u + 1]; j++) {
				size_t v = t->adj[j].v;

				if (t->sw[v].chassis != ci || dist[v] != IBTOPO__NONE)
					continue;
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
		for (size_t i = 0; i < t->nsw; i++) {
			if (t->sw[i].chassis != ci)
				continue;
			if (dist[i] == IBTOPO__NONE || dist[i] % 2 == 0) {
				c->line_chips++;
				if (dist[i] != 0) {
					c->idle_chips++;
					t->sw[i].idle = true;
					t->sw[i].level = c->line_level;
				}
			} else {
				c->fabric_chips++;
			}
		}
	}
out_free:
	free(dist);
	free(queue);
	return ret;
}
