/* fail_spec.c - what `whatif --fail SPEC` and `render --whatif SPEC`
 * name: switches and CAs (name, GUID, S-<guid>), cables (NODE:PORT) */
#include "fail_spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool fail_parse_count(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* A cable as NODE:PORT, after no node took the whole SPEC. */
static int cable_spec(struct fail_set *f, const struct ibtopo_fabric *fabric,
		      const char *option, const char *spec,
		      const struct ibtopo_error *first)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const char *colon = strrchr(spec, ':');
	struct ibtopo_node *node;
	struct ibtopo_port *port;
	unsigned num;
	char *name;

	if (!colon || !fail_parse_count(colon + 1, 255, &num))
		return cli_failf("bad %s '%s': %s", option, spec,
				 first->message);
	name = strndup(spec, (size_t)(colon - spec));
	if (!name)
		return cli_failf("out of memory");
	if (ibtopo_fabric_find_node_name(&node, fabric, name, &err)) {
		free(name);
		return cli_failf("bad %s '%s': %s", option, spec, err.message);
	}
	free(name);
	port = ibtopo_node_port(node, num);
	if (!port || !port->link)
		return cli_failf("bad %s '%s': port %u of '%s' has no cable",
				 option, spec, num, node->desc);
	f->links[f->nlinks++] = port->link;
	return 0;
}

int fail_set_resolve(struct fail_set *f, const struct ibtopo_fabric *fabric,
		     const char *option, const char *const *specs,
		     size_t nspecs)
{
	for (size_t i = 0; i < nspecs; i++) {
		struct ibtopo_error err = IBTOPO_ERROR_INIT;
		struct ibtopo_node *node;

		if (strncmp(specs[i], "level:", 6) == 0)
			continue;
		if (!ibtopo_fabric_find_node_name(&node, fabric, specs[i],
						  &err)) {
			f->nodes[f->nnodes++] = node;
			continue;
		}
		if (err.code != IBTOPO_ENOTFOUND)
			return cli_failf("bad %s '%s': %s", option, specs[i],
					 err.message);
		if (cable_spec(f, fabric, option, specs[i], &err))
			return EXIT_TROUBLE;
	}
	return 0;
}

int fail_set_alloc(struct fail_set *f, size_t nodes, size_t links)
{
	f->nodes = calloc(nodes + 1, sizeof(*f->nodes));
	f->links = calloc(links + 1, sizeof(*f->links));
	f->nnodes = f->nlinks = 0;
	return f->nodes && f->links ? 0 : cli_failf("out of memory");
}

void fail_set_release(struct fail_set *f)
{
	free(f->nodes);
	free(f->links);
	f->nodes = NULL;
	f->links = NULL;
	f->nnodes = f->nlinks = 0;
}
