/*
 * write_ibsim.c - a fabric as an ibsim net file that trains every
 * link at the width and speed it ran at.
 */
#include "export/export-int.h"

/* ibsim keeps 63 bytes of a description and reads lines of 255. */
#define SIM_DESC_MAX 63

/*
 * The port options that make ibsim train a link at its active values:
 * both ends get only the active width and speed enabled. FDR10 has no
 * option, only ibnetdiscover's trailer sets it (returned in *trailer).
 */
static void sim_options(const struct ibtopo_link *l, char *buf, size_t len,
			bool *trailer)
{
	struct ibtopo__ibsim_masks m;
	size_t used = 0;

	*trailer = ibtopo__ibsim_needs_trailer(l->speed);
	buf[0] = '\0';
	if (l->width)
		used += (size_t)snprintf(buf + used, len - used, "w=%u ", l->width);
	if (!ibtopo__ibsim_speed_masks(&m, ibtopo__ibsim_write_speed(l->speed),
				       false) &&
	    used < len)
		used += (size_t)snprintf(buf + used, len - used, "s=%u e=%u ",
					 m.s, m.e);
	if (used && used <= len)
		buf[used - 1] = '\0';
}

/* Links ibsim 0.10 cannot train at their speed: written as HDR. */
static size_t sim_slowed(const struct ibtopo_fabric *f)
{
	size_t n = 0;

	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++) {
		unsigned speed = ibtopo_fabric_link(f, i)->speed;

		n += speed && ibtopo__ibsim_write_speed(speed) != speed;
	}
	return n;
}

static size_t sim_losses(char *buf, size_t len, const struct ibtopo_fabric *f)
{
	size_t n = sim_slowed(f);

	if (n && len)
		snprintf(buf, len, "%zu links faster than HDR written as HDR: "
			 "ibsim 0.10 (Debian 12) simulates no faster speed", n);
	return n;
}

static int write_ibsim(const struct ibtopo_sink *sink,
		       const struct ibtopo_fabric *f, struct ibtopo_error *err)
{
	struct ibtopo__wr wr = { sink, 0 }, *w = &wr;
	size_t n = ibtopo_fabric_node_count(f);
	char desc[SIM_DESC_MAX + 1], opt[64], ws[16];

	ibtopo__wr_printf(w, "# ibsim net file written by ibtopo. Each port enables only its\n"
		     "# link's active width (w=), speed (s=) and extended speed (e=),\n"
		     "# so ibsim trains every link as it ran; run: ibsim -s -n FILE\n");
	if (sim_slowed(f))
		ibtopo__wr_printf(w, "# %zu links ran faster than HDR (NDR, XDR): written as HDR,\n"
			     "# the fastest extended speed ibsim 0.10 takes (e=0..7)\n",
			     sim_slowed(f));
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct ibtopo_node *node = ibtopo_fabric_node(f, i);
			enum ibtopo_node_type t = node->type;

			if ((pass == 0) != (t == IBTOPO_NODE_SWITCH) ||
			    (pass == 2) != (t == IBTOPO_NODE_ROUTER))
				continue;
			ibtopo__clean_desc(node->desc, desc, SIM_DESC_MAX, true);
			/* vendor ids matter: FDR10 is read from Mellanox nodes only */
			ibtopo__wr_printf(w, "\nvendid=0x%x\ndevid=0x%x\n", node->vendor_id,
				  node->device_id);
			if (node->sysimg_guid)
				ibtopo__wr_printf(w, "sysimgguid=0x%" PRIx64 "\n",
					  node->sysimg_guid);
			if (t == IBTOPO_NODE_SWITCH)
				ibtopo__wr_printf(w, "switchguid=0x%" PRIx64 "\nSwitch\t%u \"S-%016" PRIx64 "\"\t# \"%s\" %s port 0\n",
					  node->guid, node->nports, node->guid, desc,
					  node->enhanced_port0 ? "enhanced" : "base");
			else
				ibtopo__wr_printf(w, "%sguid=0x%" PRIx64 "\n%s\t%u \"%c-%016" PRIx64 "\"\t# \"%s\"\n",
					  t == IBTOPO_NODE_ROUTER ? "rt" : "ca",
					  node->guid,
					  t == IBTOPO_NODE_ROUTER ? "Rt" : "Hca",
					  node->nports, ibtopo__type_letter(t), node->guid,
					  desc);
			for (unsigned p = 1; p <= node->nports; p++) {
				const struct ibtopo_port *port = node->ports[p];
				bool trailer;

				if (!port || !port->remote)
					continue;
				sim_options(port->link, opt, sizeof(opt), &trailer);
				ibtopo__wr_printf(w, "[%u]\t\"%c-%016" PRIx64 "\"[%u]\t%s", p,
					  ibtopo__type_letter(port->remote->node->type),
					  port->remote->node->guid, port->remote->num,
					  opt);
				if (trailer)
					ibtopo__wr_printf(w, "\t# lid 0 %s",
						  ibtopo__ws_text(port->link->width,
							  port->link->speed, ws,
							  sizeof(ws)));
				ibtopo__wr_printf(w, "\n");
			}
		}
	}
	return ibtopo__wr_done(w, "ibsim", err);
}

const struct ibtopo__writer ibtopo__writer_ibsim = {
	.format = IBTOPO_EXPORT_IBSIM,
	.name = "ibsim",
	.write = write_ibsim,
	.losses = sim_losses,
};
