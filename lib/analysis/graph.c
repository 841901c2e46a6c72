/*
 * graph.c - the only file including <igraph.h>: maximum flows, the
 * Gomory-Hu tree, biconnected components and shape recognition, over the
 * plain edge arrays the topology analysis builds.
 *
 * igraph's default error handler aborts and its warning handler prints:
 * a library may do neither, so every entry point here swaps in the
 * "ignore" handlers (errors then come back as return codes) and puts the
 * caller's back before returning.
 */
#include "topology-int.h"

#include <igraph.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct handlers {
	igraph_error_handler_t *error;
	igraph_warning_handler_t *warning;
};

static struct handlers quiet(void)
{
	struct handlers h;

	h.error = igraph_set_error_handler(igraph_error_handler_ignore);
	h.warning = igraph_set_warning_handler(igraph_warning_handler_ignore);
	return h;
}

static void restore(struct handlers h)
{
	igraph_set_error_handler(h.error);
	igraph_set_warning_handler(h.warning);
}

static int fail(struct ibtopo_error *err, igraph_error_t rc, const char *what)
{
	if (rc == IGRAPH_ENOMEM)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	return ibtopo__error_set(err, IBTOPO_ERROR, "%s: %s", what,
				 igraph_strerror(rc));
}

/* Build an igraph graph (and optionally its capacity vector) from edges. */
static igraph_error_t build(igraph_t *g, igraph_vector_t *cap, size_t n,
			    const struct ibtopo__edge *e, size_t ne,
			    bool directed)
{
	igraph_vector_int_t el;
	igraph_error_t rc;

	rc = igraph_vector_int_init(&el, (igraph_integer_t)(2 * ne));
	if (rc)
		return rc;
	for (size_t i = 0; i < ne; i++) {
		VECTOR(el)[2 * i] = (igraph_integer_t)e[i].u;
		VECTOR(el)[2 * i + 1] = (igraph_integer_t)e[i].v;
	}
	rc = igraph_create(g, &el, (igraph_integer_t)n, directed);
	igraph_vector_int_destroy(&el);
	if (rc || !cap)
		return rc;
	rc = igraph_vector_init(cap, (igraph_integer_t)ne);
	if (rc) {
		igraph_destroy(g);
		return rc;
	}
	for (size_t i = 0; i < ne; i++)
		VECTOR(*cap)[i] = e[i].cap;
	return IGRAPH_SUCCESS;
}

int ibtopo__graph_gomory_hu(struct ibtopo__edge *tree, size_t *out_count,
			    size_t n, const struct ibtopo__edge *edges,
			    size_t nedges, struct ibtopo_error *err)
{
	struct handlers h = quiet();
	igraph_t g, gh;
	igraph_vector_t cap, flows;
	igraph_vector_int_t el;
	igraph_error_t rc;
	size_t k = 0;
	int ret = 0;

	*out_count = 0;
	if (n < 2)
		goto out_restore;
	rc = build(&g, &cap, n, edges, nedges, false);
	if (rc) {
		ret = fail(err, rc, "building the switch graph");
		goto out_restore;
	}
	rc = igraph_vector_init(&flows, 0);
	if (rc) {
		ret = fail(err, rc, "gomory-hu tree");
		goto out_graph;
	}
	rc = igraph_gomory_hu_tree(&g, &gh, &flows, &cap);
	if (rc) {
		ret = fail(err, rc, "gomory-hu tree");
		goto out_flows;
	}
	rc = igraph_vector_int_init(&el, 0);
	if (!rc)
		rc = igraph_get_edgelist(&gh, &el, false);
	if (rc) {
		ret = fail(err, rc, "gomory-hu tree");
		goto out_tree;
	}
	/* Some igraph versions keep a self-loop at the root: skip it. */
	for (igraph_integer_t i = 0; i < igraph_ecount(&gh); i++) {
		size_t u = (size_t)VECTOR(el)[2 * i];
		size_t v = (size_t)VECTOR(el)[2 * i + 1];

		if (u == v || k >= n)
			continue;
		tree[k].u = u;
		tree[k].v = v;
		tree[k].cap = VECTOR(flows)[i];
		k++;
	}
	*out_count = k;
	igraph_vector_int_destroy(&el);
out_tree:
	igraph_destroy(&gh);
out_flows:
	igraph_vector_destroy(&flows);
out_graph:
	igraph_vector_destroy(&cap);
	igraph_destroy(&g);
out_restore:
	restore(h);
	return ret;
}

struct ibtopo__flownet {
	igraph_t g;
	igraph_vector_t cap;
};

int ibtopo__flownet_new(struct ibtopo__flownet **out, size_t n,
			const struct ibtopo__edge *edges, size_t nedges,
			bool directed, struct ibtopo_error *err)
{
	struct handlers h = quiet();
	struct ibtopo__flownet *net;
	igraph_error_t rc;
	int ret = 0;

	*out = NULL;
	net = calloc(1, sizeof(*net));
	if (!net) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_restore;
	}
	rc = build(&net->g, &net->cap, n, edges, nedges, directed);
	if (rc) {
		free(net);
		ret = fail(err, rc, "building a flow network");
		goto out_restore;
	}
	*out = net;
out_restore:
	restore(h);
	return ret;
}

void ibtopo__flownet_free(struct ibtopo__flownet *net)
{
	if (!net)
		return;
	igraph_vector_destroy(&net->cap);
	igraph_destroy(&net->g);
	free(net);
}

void ibtopo__flownet_set_cap(struct ibtopo__flownet *net, size_t i, double cap)
{
	VECTOR(net->cap)[i] = cap;
}

int ibtopo__flownet_maxflow(double *out, struct ibtopo__flownet *net,
			    size_t s, size_t t, struct ibtopo_error *err)
{
	struct handlers h = quiet();
	igraph_real_t v = 0;
	igraph_error_t rc;
	int ret = 0;

	rc = igraph_maxflow_value(&net->g, &v, (igraph_integer_t)s,
				  (igraph_integer_t)t, &net->cap, NULL);
	if (rc)
		ret = fail(err, rc, "maximum flow");
	*out = v;
	restore(h);
	return ret;
}

int ibtopo__graph_blocks(size_t **out_voff, size_t **out_vblk, size_t n,
			 const struct ibtopo__edge *edges, size_t nedges,
			 struct ibtopo_error *err)
{
	struct handlers h = quiet();
	igraph_t g;
	igraph_vector_int_list_t comps;
	igraph_integer_t nb = 0;
	igraph_error_t rc;
	size_t *voff = NULL, *vblk = NULL, *fill = NULL;
	int ret = 0;

	*out_voff = NULL;
	*out_vblk = NULL;
	rc = build(&g, NULL, n, edges, nedges, false);
	if (rc) {
		ret = fail(err, rc, "building the switch graph");
		goto out_restore;
	}
	rc = igraph_vector_int_list_init(&comps, 0);
	if (rc) {
		ret = fail(err, rc, "biconnected components");
		goto out_graph;
	}
	rc = igraph_biconnected_components(&g, &nb, NULL, NULL, &comps, NULL);
	if (rc) {
		ret = fail(err, rc, "biconnected components");
		goto out_comps;
	}
	voff = calloc(n + 1, sizeof(*voff));
	fill = calloc(n + 1, sizeof(*fill));
	if (!voff || !fill) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	/* Only blocks of three vertices or more: a two-vertex block is a
	 * bridge, one path. */
	for (igraph_integer_t b = 0; b < nb; b++) {
		igraph_vector_int_t *c = igraph_vector_int_list_get_ptr(&comps, b);

		if (igraph_vector_int_size(c) < 3)
			continue;
		for (igraph_integer_t j = 0; j < igraph_vector_int_size(c); j++)
			voff[VECTOR(*c)[j] + 1]++;
	}
	for (size_t v = 0; v < n; v++)
		voff[v + 1] += voff[v];
	vblk = calloc(voff[n] ? voff[n] : 1, sizeof(*vblk));
	if (!vblk) {
		ret = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	memcpy(fill, voff, (n + 1) * sizeof(*fill));
	for (igraph_integer_t b = 0; b < nb; b++) {
		igraph_vector_int_t *c = igraph_vector_int_list_get_ptr(&comps, b);

		if (igraph_vector_int_size(c) < 3)
			continue;
		for (igraph_integer_t j = 0; j < igraph_vector_int_size(c); j++)
			vblk[fill[VECTOR(*c)[j]]++] = (size_t)b;
	}
	*out_voff = voff;
	*out_vblk = vblk;
	voff = NULL;
	vblk = NULL;
out_free:
	free(fill);
	free(vblk);
	free(voff);
out_comps:
	igraph_vector_int_list_destroy(&comps);
out_graph:
	igraph_destroy(&g);
out_restore:
	restore(h);
	return ret;
}

/* Is g isomorphic to a lattice with these dimensions? */
static bool is_lattice(const igraph_t *g, const igraph_integer_t *dims,
		       size_t ndims, bool periodic)
{
	igraph_vector_int_t dv;
	igraph_vector_bool_t circ;
	igraph_t lat;
	igraph_bool_t iso = false;

	if (igraph_vector_int_init(&dv, (igraph_integer_t)ndims))
		return false;
	if (igraph_vector_bool_init(&circ, (igraph_integer_t)ndims)) {
		igraph_vector_int_destroy(&dv);
		return false;
	}
	for (size_t i = 0; i < ndims; i++) {
		VECTOR(dv)[i] = dims[i];
		VECTOR(circ)[i] = periodic;
	}
	if (igraph_square_lattice(&lat, &dv, 1, false, false, &circ) == 0) {
		if (igraph_vcount(&lat) == igraph_vcount(g) &&
		    igraph_ecount(&lat) == igraph_ecount(g) &&
		    igraph_isomorphic(g, &lat, &iso))
			iso = false;
		igraph_destroy(&lat);
	}
	igraph_vector_bool_destroy(&circ);
	igraph_vector_int_destroy(&dv);
	return iso;
}

const char *ibtopo__graph_shape(size_t n, const struct ibtopo__edge *edges,
				size_t nedges)
{
	struct handlers h;
	const char *shape = NULL;
	unsigned *deg;
	unsigned maxdeg = 0, mindeg = UINT_MAX;
	igraph_t g;

	if (n < 2)
		return NULL;
	deg = calloc(n, sizeof(*deg));
	if (!deg)
		return NULL;
	for (size_t i = 0; i < nedges; i++) {
		deg[edges[i].u]++;
		deg[edges[i].v]++;
	}
	for (size_t v = 0; v < n; v++) {
		if (deg[v] > maxdeg)
			maxdeg = deg[v];
		if (deg[v] < mindeg)
			mindeg = deg[v];
	}
	free(deg);
	/* The caller passes a connected simple graph. */
	if (nedges == n - 1 && maxdeg <= 2)
		return "line";
	if (nedges == n && mindeg == 2 && maxdeg == 2)
		return "ring";
	if (n >= 4 && nedges == n * (n - 1) / 2)
		return "full-mesh";
	if (n < 4 || n > 100000)
		return NULL;

	h = quiet();
	if (build(&g, NULL, n, edges, nedges, false))
		goto out_restore;
	/* Hypercube: n = 2^d vertices of degree d. */
	if ((n & (n - 1)) == 0 && mindeg == maxdeg) {
		igraph_integer_t dims[64];
		size_t d = 0;

		while (((size_t)1 << d) < n)
			dims[d++] = 2;
		if (d == mindeg && d >= 3 && is_lattice(&g, dims, d, false)) {
			shape = "hypercube";
			goto out_graph;
		}
	}
	/* 2-D torus and grid: every factorisation a x b, a <= b. */
	for (size_t a = 2; a * a <= n && !shape; a++) {
		igraph_integer_t dims[2];

		if (n % a)
			continue;
		dims[0] = (igraph_integer_t)a;
		dims[1] = (igraph_integer_t)(n / a);
		if (a >= 3 && nedges == 2 * n && is_lattice(&g, dims, 2, true))
			shape = "torus";
		else if (nedges == 2 * n - a - n / a &&
			 is_lattice(&g, dims, 2, false))
			shape = "mesh";
	}
out_graph:
	igraph_destroy(&g);
out_restore:
	restore(h);
	return shape;
}

void ibtopo__graph_count_shortest(unsigned *dist, double *count, size_t *queue,
				  size_t n, const size_t *off, const size_t *nbr,
				  size_t src)
{
	size_t head = 0, tail = 0;

	for (size_t v = 0; v < n; v++) {
		dist[v] = UINT_MAX;
		count[v] = 0;
	}
	dist[src] = 0;
	count[src] = 1;
	queue[tail++] = src;
	while (head < tail) {
		size_t u = queue[head++];

		for (size_t j = off[u]; j < off[u + 1]; j++) {
			size_t w = nbr[j];

			if (dist[w] == UINT_MAX) {
				dist[w] = dist[u] + 1;
				queue[tail++] = w;
			}
			if (dist[w] == dist[u] + 1)
				count[w] += count[u];
		}
	}
}
