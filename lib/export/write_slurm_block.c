/*
 * write_slurm_block.c - a fabric as a Slurm topology.conf for the
 * topology/block plugin (Slurm 23.11+): a block per leaf of sched.c's
 * tree (a leaf switch, a scalable unit, a Dragonfly+ group), one
 * BlockSizes= line.
 */
#include "export/sched.h"

/*
 * topology.conf(5) of Slurm 23.11: BlockSizes= lists the planning base
 * block size first, then aggregations, each a power-of-two multiple of
 * the one before; the base is at most the smallest block. Here: the
 * smallest block, doubled while the aggregation fits in the fabric.
 */
static void write_sizes(struct ibtopo__wr *w, const struct ibtopo__sched *s)
{
	size_t base = SIZE_MAX;

	for (size_t i = 0; i < s->nsw; i++)
		if (!s->sw[i].tier && s->sw[i].nhosts < base)
			base = s->sw[i].nhosts;
	ibtopo__wr_printf(w, "BlockSizes=%zu", base);
	for (size_t b = base * 2; b <= s->nhosts; b *= 2)
		ibtopo__wr_printf(w, ",%zu", b);
	ibtopo__wr_printf(w, "\n");
}

static void block_body(struct ibtopo__wr *w, const struct ibtopo__sched *s)
{
	for (size_t i = 0; i < s->nsw; i++) {
		if (s->sw[i].tier)
			continue;
		ibtopo__wr_printf(w, "BlockName=%s Nodes=", s->sw[i].name);
		ibtopo__sched_list(w, s, &s->sw[i], true);
		ibtopo__wr_printf(w, "\n");
	}
	write_sizes(w, s);
}

static int write_block(const struct ibtopo_sink *opts,
		       struct ibtopo_analysis *an,
		       const struct ibtopo_export_opts *xopts,
		       struct ibtopo_error *err)
{
	return ibtopo__sched_write(opts, an, xopts, "slurm-block",
				   "Slurm topology.conf (topology/block)",
				   block_body, err);
}

const struct ibtopo__writer ibtopo__writer_slurm_block = {
	.format = IBTOPO_EXPORT_SLURM_BLOCK,
	.name = "slurm-block",
	.write_opts = write_block,
};
