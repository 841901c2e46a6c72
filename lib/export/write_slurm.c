/*
 * write_slurm.c - a fabric as a Slurm topology.conf for the
 * topology/tree plugin, from the tree of sched.c.
 */
#include "export/sched.h"

/*
 * Leaves first, then each tier: Slurm accepts children defined before or
 * after their parent, and this order resolves in one pass.
 */
static int slurm_body(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		      struct ibtopo_error *err)
{
	(void)err;
	if (s->kind == IBTOPO__SCHED_DRAGONFLY)
		ibtopo__wr_printf(w, "# a Dragonfly+ fabric: consider "
				     "TopologyParam=dragonfly in slurm.conf\n");
	for (size_t i = 0; i < s->nsw; i++) {
		const struct ibtopo__sched_sw *sw = &s->sw[i];

		ibtopo__wr_printf(w, "SwitchName=%s %s=", sw->name,
				  sw->nhosts ? "Nodes" : "Switches");
		ibtopo__sched_list(w, s, sw, sw->nhosts);
		ibtopo__wr_printf(w, "\n");
	}
	return 0;
}

static int write_slurm(const struct ibtopo_sink *sink,
		       struct ibtopo_analysis *an,
		       const struct ibtopo_export_opts *xopts,
		       struct ibtopo_error *err)
{
	return ibtopo__sched_write(sink, an, xopts, "slurm",
				   "Slurm topology.conf (topology/tree)",
				   slurm_body, err);
}

const struct ibtopo__writer ibtopo__writer_slurm = {
	.format = IBTOPO_EXPORT_SLURM,
	.name = "slurm",
	.write_opts = write_slurm,
};
