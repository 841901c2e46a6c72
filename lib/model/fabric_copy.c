/*
 * fabric_copy.c - a copy of a fabric without some of its nodes and links:
 * the fabric as it would be if they failed (whatif). Nodes, ports and
 * links are copied with what the analyses read (types, GUIDs, names,
 * rates, cables, firmware, GUID clashes, subnet managers, PKeys); counters and
 * forwarding tables are not.
 */
#include "model/model-int.h"

#include <stdlib.h>

static int copy_meta(struct ibtopo_fabric *dst, const struct ibtopo_fabric *src,
		     struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(src);

	if (ibtopo_fabric_set_label(dst, m->label, err) ||
	    ibtopo_fabric_set_source(dst, m->source, err) ||
	    ibtopo_fabric_set_fabric_name(dst, m->fabric, err))
		return err ? err->code : IBTOPO_ERROR;
	ibtopo_fabric_set_taken_at(dst, m->taken_at);
	ibtopo_fabric_set_subnet(dst, m->subnet_prefix, m->sm_lid, m->sm_guid);
	/* what the subnet checks read: GUID clashes, subnet managers */
	for (size_t i = 0; i < ibtopo_fabric_guid_clash_count(src); i++)
		if (ibtopo_fabric_add_guid_clash(
			    dst, ibtopo_fabric_guid_clash(src, i), err))
			return err ? err->code : IBTOPO_ERROR;
	for (size_t i = 0; i < ibtopo_fabric_sm_count(src); i++)
		if (ibtopo_fabric_add_sm(dst, ibtopo_fabric_sm(src, i), err))
			return err ? err->code : IBTOPO_ERROR;
	ibtopo_fabric_set_sms_read(dst, ibtopo_fabric_sms_read(src));
	return 0;
}

static int copy_node(struct ibtopo_fabric *dst, const struct ibtopo_node *n,
		     struct ibtopo_error *err)
{
	struct ibtopo_node *c;
	struct ibtopo_port *p;
	int rc;

	rc = ibtopo_fabric_add_node(&c, dst, n->type, n->guid, n->nports,
				    n->desc, err);
	if (rc)
		return rc;
	c->sysimg_guid = n->sysimg_guid;
	c->vendor_id = n->vendor_id;
	c->device_id = n->device_id;
	c->revision = n->revision;
	c->enhanced_port0 = n->enhanced_port0;
	rc = ibtopo_node_set_firmware(dst, c, n->fw_major, n->fw_minor,
				      n->fw_subminor, n->psid, err);
	if (rc)
		return rc;
	for (unsigned i = 0; i <= n->nports; i++) {
		const struct ibtopo_port *o = n->ports[i];

		if (!o)
			continue;
		rc = ibtopo_node_add_port(&p, dst, c, i, err);
		if (rc)
			return rc;
		*p = *o;
		p->node = c;
		p->remote = NULL;
		p->link = NULL;
		p->counters = NULL;
		p->pkeys = NULL;
		/* the partition checks read them */
		if (o->pkeys)
			rc = ibtopo_port_set_pkeys(p, o->pkeys->keys,
						   o->pkeys->count,
						   o->pkeys->enforce, err);
		if (!rc)
			rc = ibtopo_fabric_index_port(dst, p, err);
		if (rc)
			return rc;
	}
	return 0;
}

static struct ibtopo_port *peer_port(const struct ibtopo_fabric *dst,
				     const struct ibtopo_port *o)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(dst, o->node->guid);

	return n ? ibtopo_node_port(n, o->num) : NULL;
}

static int copy_link(struct ibtopo_fabric *dst, const struct ibtopo_link *l,
		     struct ibtopo_error *err)
{
	struct ibtopo_port *a = peer_port(dst, l->a);
	struct ibtopo_port *b = peer_port(dst, l->b);
	struct ibtopo_link *c;
	int rc;

	if (!a || !b)
		return 0; /* an end's node was left out */
	rc = ibtopo_fabric_connect(&c, dst, a, b, err);
	if (rc)
		return rc;
	c->speed = l->speed;
	c->width = l->width;
	if (l->cable)
		rc = ibtopo_link_set_cable(dst, c, l->cable, err);
	return rc;
}

int ibtopo__fabric_copy(struct ibtopo_fabric **out,
			const struct ibtopo_fabric *src, const bool *drop_node,
			const bool *drop_link, struct ibtopo_error *err)
{
	struct ibtopo_fabric *f = NULL;
	size_t n = ibtopo_fabric_node_count(src);
	size_t m = ibtopo_fabric_link_count(src);
	int rc;

	*out = NULL;
	rc = ibtopo_fabric_new(&f, err);
	if (rc)
		return rc;
	rc = copy_meta(f, src, err);
	for (size_t i = 0; !rc && i < n; i++)
		if (!drop_node || !drop_node[i])
			rc = copy_node(f, ibtopo_fabric_node(src, i), err);
	for (size_t i = 0; !rc && i < m; i++)
		if (!drop_link || !drop_link[i])
			rc = copy_link(f, ibtopo_fabric_link(src, i), err);
	if (rc) {
		ibtopo_fabric_free(f);
		return rc;
	}
	*out = f;
	return 0;
}
