/*
 * write_ibnetdiscover.c - a fabric as ibnetdiscover prints it, so that
 * ibtopo and ibnetdiscover read it back to the same fabric.
 */
#include "export/export-int.h"

#include <stdlib.h>

/* Output descriptions are cut here so every line stays readable back. */
#define DESC_MAX 1024

static uint16_t node_lid(const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;

	if (n->type == IBTOPO_NODE_SWITCH)
		return n->ports[0] ? n->ports[0]->lid : 0;
	return p->lid;
}

static uint64_t switch_port_guid(const struct ibtopo_node *n)
{
	for (unsigned i = 0; i <= n->nports; i++)
		if (n->ports[i] && n->ports[i]->guid)
			return n->ports[i]->guid;
	return 0;
}

static void ibnd_ids(struct ibtopo__wr *w, const struct ibtopo_node *n)
{
	ibtopo__wr_printf(w, "\nvendid=0x%x\ndevid=0x%x\n", n->vendor_id, n->device_id);
	if (n->sysimg_guid)
		ibtopo__wr_printf(w, "sysimgguid=0x%" PRIx64 "\n", n->sysimg_guid);
}

static void ibnd_remote(struct ibtopo__wr *w, const struct ibtopo_port *r, bool lead)
{
	ibtopo__wr_printf(w, "\"%c-%016" PRIx64 "\"[%u]", ibtopo__type_letter(r->node->type),
		  r->node->guid, r->num);
	if (r->ext_num)
		ibtopo__wr_printf(w, "[ext %u]", r->ext_num);
	if (r->node->type != IBTOPO_NODE_SWITCH && r->guid)
		ibtopo__wr_printf(w, "%s(%" PRIx64 ") ", lead ? " " : "", r->guid);
}

static void ibnd_switch(struct ibtopo__wr *w, const struct ibtopo_node *n, char *desc)
{
	const struct ibtopo_port *p0 = n->ports[0];
	uint64_t pguid = switch_port_guid(n);
	char ws[16];

	ibnd_ids(w, n);
	ibtopo__wr_printf(w, "switchguid=0x%" PRIx64, n->guid);
	if (pguid)
		ibtopo__wr_printf(w, "(%" PRIx64 ")", pguid);
	ibtopo__wr_printf(w, "\nSwitch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" %s port 0 lid %u lmc %u\n",
		  n->nports, n->guid, ibtopo__clean_desc(n->desc, desc, DESC_MAX, false),
		  n->enhanced_port0 ? "enhanced" : "base", p0 ? p0->lid : 0,
		  p0 ? p0->lmc : 0);
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote)
			continue;
		ibtopo__wr_printf(w, "[%u]", p->num);
		if (p->ext_num)
			ibtopo__wr_printf(w, "[ext %u]", p->ext_num);
		ibtopo__wr_printf(w, "\t");
		ibnd_remote(w, p->remote, false);
		ibtopo__wr_printf(w, "\t\t# \"%s\" lid %u %s\n",
			  ibtopo__clean_desc(p->remote->node->desc, desc, DESC_MAX, false),
			  node_lid(p->remote),
			  ibtopo__ws_text(p->link->width, p->link->speed, ws, sizeof(ws)));
	}
}

static void ibnd_ca(struct ibtopo__wr *w, const struct ibtopo_node *n, char *desc)
{
	bool rt = n->type == IBTOPO_NODE_ROUTER;
	char ws[16];

	ibnd_ids(w, n);
	ibtopo__wr_printf(w, "%sguid=0x%" PRIx64 "\n%s\t%u \"%c-%016" PRIx64 "\"\t\t# \"%s\"\n",
		  rt ? "rt" : "ca", n->guid, rt ? "Rt" : "Ca", n->nports,
		  ibtopo__type_letter(n->type), n->guid,
		  ibtopo__clean_desc(n->desc, desc, DESC_MAX, false));
	for (unsigned i = 1; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p || !p->remote)
			continue;
		ibtopo__wr_printf(w, "[%u]", p->num);
		if (p->guid)
			ibtopo__wr_printf(w, "(%" PRIx64 ") ", p->guid);
		ibtopo__wr_printf(w, "\t");
		ibnd_remote(w, p->remote, true);
		ibtopo__wr_printf(w, "\t\t# lid %u lmc %u \"%s\" lid %u %s\n", p->lid, p->lmc,
			  ibtopo__clean_desc(p->remote->node->desc, desc, DESC_MAX, false),
			  node_lid(p->remote),
			  ibtopo__ws_text(p->link->width, p->link->speed, ws, sizeof(ws)));
	}
}

static int write_ibnetdiscover(const struct ibtopo_sink *sink,
			       const struct ibtopo_fabric *f,
			       struct ibtopo_error *err)
{
	struct ibtopo__wr wr = { sink, 0 }, *w = &wr;
	size_t n = ibtopo_fabric_node_count(f);
	char *desc = malloc(DESC_MAX + 1);

	if (!desc)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	ibtopo__wr_printf(w, "#\n# Topology file: written by ibtopo\n#\n");
	/* switches, then CAs, then routers, as ibnetdiscover prints them */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct ibtopo_node *node = ibtopo_fabric_node(f, i);

			if (pass == 0 && node->type == IBTOPO_NODE_SWITCH)
				ibnd_switch(w, node, desc);
			else if (pass == 1 && node->type != IBTOPO_NODE_SWITCH &&
				 node->type != IBTOPO_NODE_ROUTER)
				ibnd_ca(w, node, desc);
			else if (pass == 2 && node->type == IBTOPO_NODE_ROUTER)
				ibnd_ca(w, node, desc);
		}
	}
	free(desc);
	return ibtopo__wr_done(w, "ibnetdiscover", err);
}

const struct ibtopo__writer ibtopo__writer_ibnetdiscover = {
	.format = IBTOPO_EXPORT_IBNETDISCOVER,
	.name = "ibnetdiscover",
	.write = write_ibnetdiscover,
};
