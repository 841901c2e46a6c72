/*
 * findings_list.c - a list of findings, part of the shared model: every
 * analysis appends to one, every report reads one; and an end of a
 * finding filled from a port.
 */
#include "model/model-int.h"

#include <stdlib.h>

int ibtopo_findings_add(struct ibtopo_findings *list,
			const struct ibtopo_finding *f,
			struct ibtopo_error *err)
{
	struct ibtopo_cable_evidence *cable = NULL;

	if (!list || !f)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no finding");
	if (f->cable) {
		cable = malloc(sizeof(*cable));
		if (!cable)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		*cable = *f->cable;
	}
	if (ibtopo__grow(&list->items, &list->alloc, list->count + 1,
			 sizeof(*list->items))) {
		free(cable);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	list->items[list->count] = *f;
	list->items[list->count++].cable = cable;
	return 0;
}

void ibtopo_findings_release(struct ibtopo_findings *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->count; i++)
		free(list->items[i].cable);
	free(list->items);
	list->items = NULL;
	list->count = 0;
	list->alloc = 0;
}

int ibtopo_findings_max_severity(const struct ibtopo_findings *list)
{
	int max = -1;

	for (size_t i = 0; list && i < list->count; i++)
		if ((int)list->items[i].severity > max)
			max = (int)list->items[i].severity;
	return max;
}

void ibtopo_end_from_port(struct ibtopo_end *out,
			  const struct ibtopo_port *port)
{
	out->node = port ? port->node->desc : NULL;
	out->guid = port ? port->node->guid : 0;
	out->port = port ? (int)port->num : -1;
}
