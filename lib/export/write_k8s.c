/*
 * write_k8s.c - a fabric as Kubernetes node labels for topology-aware
 * scheduling: a Kueue Topology whose levels are the label keys, top
 * first, then kubernetes.io/hostname; then one Node object per server
 * with metadata.name and metadata.labels only, so
 * `kubectl apply --server-side --field-manager=ibtopo` sets the labels
 * and nothing else. Label keys are "topology.ibtopo.io/<tier>": leaf
 * (su for a rail-optimized fabric's scalable units, group for a
 * Dragonfly+ group, with "top" above), spine, core, then tier<N>; a
 * server's label at a
 * tier names its leaf's first parent (by name) there.
 */
#include "export/sched.h"

#include <ctype.h>
#include <string.h>

#define K8S_PREFIX "topology.ibtopo.io/"
#define K8S_VALUE 64 /* 63 characters and the NUL */

static void tier_key(const struct ibtopo__sched *s, unsigned tier, char *buf,
		     size_t len)
{
	static const char *const up[] = { "spine", "core" };

	if (!tier)
		snprintf(buf, len, "%s%s", K8S_PREFIX,
			 s->kind == IBTOPO__SCHED_RAILS	    ? "su" :
			 s->kind == IBTOPO__SCHED_DRAGONFLY ? "group" :
							      "leaf");
	else if (s->kind == IBTOPO__SCHED_DRAGONFLY && tier == 1)
		snprintf(buf, len, "%stop", K8S_PREFIX);
	else if (tier <= 2)
		snprintf(buf, len, "%s%s", K8S_PREFIX, up[tier - 1]);
	else
		snprintf(buf, len, "%stier%u", K8S_PREFIX, tier);
}

static bool alnum(char c)
{
	return isalnum((unsigned char)c);
}

/*
 * A label value: at most 63 characters, alphanumeric at both ends,
 * [-_.A-Za-z0-9] inside. Names are of those characters already; the
 * ends are trimmed, and a name still too long (or empty) keeps 54
 * characters and gets "-" and 8 hex digits of a hash of the whole.
 */
static void label_value(const char *name, char out[K8S_VALUE])
{
	size_t a = 0, e = strlen(name);

	while (a < e && !alnum(name[a]))
		a++;
	while (e > a && !alnum(name[e - 1]))
		e--;
	if (e - a > K8S_VALUE - 1 || e == a) {
		size_t k = e - a > 54 ? 54 : e - a;

		while (k && !alnum(name[a + k - 1]))
			k--;
		snprintf(out, K8S_VALUE, "%.*s%s%08x", (int)k, name + a,
			 k ? "-" : "x", (unsigned)ibtopo__sched_hash(name));
	} else {
		snprintf(out, K8S_VALUE, "%.*s", (int)(e - a), name + a);
	}
}

/* A node name: an RFC 1123 name, lowercase, '_' as '-'. */
static void node_name(const char *name, char *out, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		out[i] = name[i] == '_' ? '-' :
					  (char)tolower((unsigned char)name[i]);
	out[i] = '\0';
}

static void write_node(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		       size_t leaf, size_t host)
{
	char nm[IBTOPO__SCHED_NAME], key[64], val[K8S_VALUE];

	node_name(s->host[host], nm, sizeof(nm));
	ibtopo__wr_printf(w,
			  "---\napiVersion: v1\nkind: Node\nmetadata:\n"
			  "  name: \"%s\"\n  labels:\n",
			  nm);
	for (size_t i = leaf; i != SIZE_MAX; i = s->sw[i].parent) {
		tier_key(s, s->sw[i].tier, key, sizeof(key));
		label_value(s->sw[i].name, val);
		ibtopo__wr_printf(w, "    %s: \"%s\"\n", key, val);
	}
}

static void k8s_body(struct ibtopo__wr *w, const struct ibtopo__sched *s)
{
	char key[64], nm[IBTOPO__SCHED_NAME];

	/* the fabric's topology, named after it as an RFC 1123 name */
	node_name(s->fabric, nm, sizeof(nm));
	ibtopo__wr_printf(w,
			  "---\napiVersion: kueue.x-k8s.io/v1alpha1\n"
			  "kind: Topology\nmetadata:\n"
			  "  name: \"%s\"\n"
			  "spec:\n  levels:\n",
			  nm);
	for (unsigned t = s->ntiers; t-- > 0;) {
		tier_key(s, t, key, sizeof(key));
		ibtopo__wr_printf(w, "  - nodeLabel: \"%s\"\n", key);
	}
	ibtopo__wr_printf(w, "  - nodeLabel: \"kubernetes.io/hostname\"\n");
	for (size_t i = 0; i < s->nsw; i++)
		for (size_t h = 0; h < s->sw[i].nhosts; h++)
			write_node(w, s, i, s->sw[i].hosts[h]);
}

static int write_k8s(const struct ibtopo_sink *opts, struct ibtopo_analysis *an,
		     const struct ibtopo_export_opts *xopts,
		     struct ibtopo_error *err)
{
	return ibtopo__sched_write(opts, an, xopts, "k8s",
				   "Kubernetes node labels", k8s_body, err);
}

const struct ibtopo__writer ibtopo__writer_k8s = {
	.format = IBTOPO_EXPORT_K8S,
	.name = "k8s",
	.write_opts = write_k8s,
};
