/* routes.c - attaching switch forwarding tables (LFTs) to a fabric */
#include "model/model-int.h"

#include <stdlib.h>
#include <string.h>

int ibtopo_node_set_lft(struct ibtopo_node *node, const uint8_t *ports,
			unsigned top, struct ibtopo_error *err)
{
	struct ibtopo_lft *copy = NULL;

	if (!node || node->type != IBTOPO_NODE_SWITCH)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "a forwarding table needs a switch");
	if (top > IBTOPO_LFT_MAX_LID)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "LinearFDBTop %u above 0x%x", top,
					 IBTOPO_LFT_MAX_LID);
	if (ports) {
		copy = malloc(sizeof(*copy));
		if (!copy)
			goto out_nomem;
		copy->top = (uint16_t)top;
		copy->port = malloc((size_t)top + 1);
		if (!copy->port)
			goto out_free_copy;
		memcpy(copy->port, ports, (size_t)top + 1);
	}
	if (node->lft)
		free(node->lft->port);
	free(node->lft);
	node->lft = copy;
	return 0;

out_free_copy:
	free(copy);
out_nomem:
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

bool ibtopo_fabric_has_routes(const struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_node_count(fabric);

	for (size_t i = 0; i < n; i++)
		if (ibtopo_fabric_node(fabric, i)->lft)
			return true;
	return false;
}

void ibtopo_fabric_clear_routes(struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_node_count(fabric);

	for (size_t i = 0; i < n; i++) {
		struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		if (node->lft)
			ibtopo_node_set_lft(node, NULL, 0, NULL);
	}
}
