/*
 * write_k8s.c - a fabric as Kubernetes node labels for topology-aware
 * scheduling: a Kueue Topology (kueue.x-k8s.io/v1beta2, the version
 * Kueue 0.15+ stores; v1beta1 on request) whose levels are the label
 * keys, top first, then kubernetes.io/hostname; then one Node object per
 * server with metadata.name and metadata.labels only, so
 * `kubectl apply --server-side --field-manager=ibtopo` sets the labels
 * and nothing else. Label keys are "topology.ibtopo.io/<tier>": leaf
 * (su for a rail-optimized fabric's scalable units, group for a
 * Dragonfly+ group, with "top" above), spine, core, then tier<N>; with
 * the topograph prefix, network.topology.nvidia.com/ leaf, spine, core.
 * A server's label at a tier names its leaf's first parent (by name)
 * there. Kueue leaves out a Node that lacks one of the Topology's
 * labels, so every Node has all of them: a tier its path skips takes
 * the name of the switch above it on the path (the first one of a
 * higher tier, or the path's top), which keeps the levels nested.
 */
#include "export/sched.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define K8S_PREFIX "topology.ibtopo.io/"
#define TOPOGRAPH_PREFIX "network.topology.nvidia.com/"
#define K8S_VALUE 64 /* 63 characters and the NUL */
#define K8S_KEY 320  /* a 253-character prefix, '/', 63 of name */

/* the label keys and what a Node carries */
struct k8s {
	const char *prefix;
	bool topograph; /* leaf, spine, core whatever the fabric's kind */
};

static void tier_key(const struct k8s *k, const struct ibtopo__sched *s,
		     unsigned tier, char *buf, size_t len)
{
	static const char *const up[] = { "spine", "core" };
	enum ibtopo__sched_kind kind =
		k->topograph ? IBTOPO__SCHED_TREE : s->kind;

	if (!tier)
		snprintf(buf, len, "%s%s", k->prefix,
			 kind == IBTOPO__SCHED_RAILS	 ? "su" :
			 kind == IBTOPO__SCHED_DRAGONFLY ? "group" :
							   "leaf");
	else if (kind == IBTOPO__SCHED_DRAGONFLY && tier == 1)
		snprintf(buf, len, "%stop", k->prefix);
	else if (tier <= 2)
		snprintf(buf, len, "%s%s", k->prefix, up[tier - 1]);
	else
		snprintf(buf, len, "%stier%u", k->prefix, tier);
}

/*
 * A label key's prefix: a DNS subdomain (at most 253 characters,
 * dot-separated lowercase alphanumeric words with '-' inside) and "/".
 */
static bool prefix_ok(const char *p)
{
	size_t n = strlen(p), word = 0;

	if (n < 2 || n > 254 || p[n - 1] != '/')
		return false;
	for (size_t i = 0; i + 1 < n; i++) {
		char c = p[i];

		if (c == '.') {
			if (!word || p[i - 1] == '-')
				return false;
			word = 0;
		} else if (islower((unsigned char)c) ||
			   isdigit((unsigned char)c) || (c == '-' && word)) {
			word++;
		} else {
			return false;
		}
	}
	return word && p[n - 2] != '-';
}

static int k8s_keys(struct k8s *k, const struct ibtopo_export_opts *x,
		    struct ibtopo_error *err)
{
	const char *p = x->label_prefix;

	k->topograph = p && strcmp(p, "topograph") == 0;
	k->prefix = !p ? K8S_PREFIX : k->topograph ? TOPOGRAPH_PREFIX : p;
	if (!prefix_ok(k->prefix))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad label prefix '%.64s': a DNS "
					 "subdomain and '/' "
					 "(topology.example.com/), or "
					 "'topograph'",
					 k->prefix);
	return 0;
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

/* A Node and its label at every tier, lowest first (see the top). */
static void write_node(struct ibtopo__wr *w, const struct k8s *k,
		       const struct ibtopo__sched *s, const char *name,
		       size_t leaf)
{
	char key[K8S_KEY], val[K8S_VALUE];
	size_t at = leaf;

	ibtopo__wr_printf(w,
			  "---\napiVersion: v1\nkind: Node\nmetadata:\n"
			  "  name: \"%s\"\n  labels:\n",
			  name);
	for (unsigned t = 0; t < s->ntiers; t++) {
		while (s->sw[at].tier < t && s->sw[at].parent != SIZE_MAX)
			at = s->sw[at].parent;
		tier_key(k, s, t, key, sizeof(key));
		label_value(s->sw[at].name, val);
		ibtopo__wr_printf(w, "    %s: \"%s\"\n", key, val);
	}
}

/* --hosts: the member this Node name is (any case, "node/" dropped),
 * or SIZE_MAX */
static size_t member(const struct ibtopo_export_opts *x, const char *nm)
{
	for (size_t i = 0; i < x->nhosts; i++) {
		const char *m = x->hosts[i];

		if (strncmp(m, "node/", 5) == 0)
			m += 5;
		if (strcasecmp(m, nm) == 0)
			return i;
	}
	return SIZE_MAX;
}

/* Members the fabric lacks, as one warning naming the first few. */
static void warn_missing(const struct ibtopo__sched *s, const bool *found)
{
	char list[256] = "";
	size_t n = 0, len = 0;

	for (size_t i = 0; i < s->x->nhosts; i++) {
		if (found[i])
			continue;
		if (n++ < 5 && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", n > 1 ? ", " : "",
						s->x->hosts[i]);
	}
	if (n)
		ibtopo__sched_warn(s,
				   "%zu of %zu --hosts members are not on "
				   "the fabric: %s%s",
				   n, s->x->nhosts, list, n > 5 ? ", ..." : "");
}

/* The Nodes, only the members when a member list is given. */
static int write_nodes(struct ibtopo__wr *w, const struct k8s *k,
		       const struct ibtopo__sched *s, struct ibtopo_error *err)
{
	const struct ibtopo_export_opts *x = s->x;
	bool *found = NULL;
	char nm[IBTOPO__SCHED_NAME];
	size_t left = 0, kept = 0;

	if (x->hosts) {
		found = calloc(x->nhosts + 1, sizeof(*found));
		if (!found)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
	}
	for (size_t i = 0; i < s->nsw; i++)
		for (size_t h = 0; h < s->sw[i].nhosts; h++) {
			size_t m = SIZE_MAX;

			node_name(s->host[s->sw[i].hosts[h]], nm, sizeof(nm));
			if (found) {
				m = member(x, nm);
				if (m == SIZE_MAX) {
					left++;
					continue;
				}
				found[m] = true;
			}
			write_node(w, k, s, nm, i);
			kept++;
		}
	if (found) {
		warn_missing(s, found);
		if (left)
			ibtopo__sched_warn(s,
					   "%zu host%s of the fabric %s not "
					   "--hosts members: left out",
					   left, left == 1 ? "" : "s",
					   left == 1 ? "is" : "are");
	}
	free(found);
	if (!kept)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no --hosts member is on the fabric");
	return 0;
}

static int k8s_body(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		    struct ibtopo_error *err)
{
	char key[K8S_KEY], nm[IBTOPO__SCHED_NAME];
	struct k8s k;
	int rc = k8s_keys(&k, s->x, err);

	if (rc)
		return rc;
	/* the fabric's topology, named after it as an RFC 1123 name */
	node_name(s->fabric, nm, sizeof(nm));
	ibtopo__wr_printf(w,
			  "---\napiVersion: kueue.x-k8s.io/%s\n"
			  "kind: Topology\nmetadata:\n"
			  "  name: \"%s\"\n"
			  "spec:\n  levels:\n",
			  s->x->kueue_api == IBTOPO_KUEUE_V1BETA1 ? "v1beta1" :
								    "v1beta2",
			  nm);
	for (unsigned t = s->ntiers; t-- > 0;) {
		tier_key(&k, s, t, key, sizeof(key));
		ibtopo__wr_printf(w, "  - nodeLabel: \"%s\"\n", key);
	}
	ibtopo__wr_printf(w, "  - nodeLabel: \"kubernetes.io/hostname\"\n");
	return write_nodes(w, &k, s, err);
}

static int write_k8s(const struct ibtopo_sink *sink, struct ibtopo_analysis *an,
		     const struct ibtopo_export_opts *xopts,
		     struct ibtopo_error *err)
{
	return ibtopo__sched_write(sink, an, xopts, "k8s",
				   "Kubernetes node labels", k8s_body, err);
}

const struct ibtopo__writer ibtopo__writer_k8s = {
	.format = IBTOPO_EXPORT_K8S,
	.name = "k8s",
	.write_opts = write_k8s,
};
