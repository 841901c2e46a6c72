/*
 * write_slurm_block.c - a fabric as a Slurm topology.conf for the
 * topology/block plugin (Slurm 23.11+): a block per leaf of sched.c's
 * tree (a leaf switch, a scalable unit, a Dragonfly+ group), one
 * BlockSizes= line.
 */
#include "export/sched.h"

#include <stdlib.h>

/* the sizes of the blocks, for qsort */
static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * BlockSizes= lists the base block size first, then aggregations, each
 * twice the one before (topology.conf(5)). Slurm forms an aggregation
 * of 2^k by counting base blocks, so the base is what at least half
 * the blocks hold (the lower median of their sizes), never a leaf far
 * smaller than the rest (janus: one 2-host leaf among 52 of 18 made
 * aggregations of 512 and 1024 hosts that never form), and the sizes
 * stop at base * 2^floor(log2(blocks that hold the base)), as NVIDIA
 * topograph does: every size written can form. For a Slurm before
 * 26.05 (xopts->slurm_release) the base is the smallest block instead:
 * slurmctld 24.11 refuses a block that holds fewer nodes than the base
 * ("children count lower than bblock_node_cnt"); 26.05 takes it.
 */
static int write_sizes(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		       struct ibtopo_error *err)
{
	size_t n = 0, base, full = 0, small = 0, *sz;
	const char *first = NULL;

	sz = calloc(s->nsw + 1, sizeof(*sz));
	if (!sz)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->nsw; i++)
		if (!s->sw[i].tier)
			sz[n++] = s->sw[i].nhosts;
	qsort(sz, n, sizeof(*sz), cmp_size);
	if (s->x->slurm_release && s->x->slurm_release < 2605)
		base = n ? sz[0] : 0;
	else
		base = n ? sz[(n - 1) / 2] : 0;
	free(sz);
	for (size_t i = 0; i < s->nsw; i++) {
		if (s->sw[i].tier)
			continue;
		if (s->sw[i].nhosts >= base) {
			full++;
		} else if (!small++) {
			first = s->sw[i].name;
			n = s->sw[i].nhosts;
		}
	}
	if (small)
		ibtopo__sched_warn(
			s,
			"slurm-block: base block of %zu host%s (%zu of "
			"%zu blocks hold as many or more); %zu "
			"smaller block%s (%s: %zu host%s) count%s as "
			"whole base blocks in Slurm's aggregations",
			base, base == 1 ? "" : "s", full, full + small, small,
			small == 1 ? "" : "s", first, n, n == 1 ? "" : "s",
			small == 1 ? "s" : "");
	ibtopo__wr_printf(w, "BlockSizes=%zu", base);
	for (size_t k = 2; k <= full; k *= 2)
		ibtopo__wr_printf(w, ",%zu", base * k);
	ibtopo__wr_printf(w, "\n");
	return 0;
}

static int block_body(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		      struct ibtopo_error *err)
{
	for (size_t i = 0; i < s->nsw; i++) {
		if (s->sw[i].tier)
			continue;
		ibtopo__wr_printf(w, "BlockName=%s Nodes=", s->sw[i].name);
		ibtopo__sched_list(w, s, &s->sw[i], true);
		ibtopo__wr_printf(w, "\n");
	}
	return write_sizes(w, s, err);
}

static int write_block(const struct ibtopo_sink *sink,
		       struct ibtopo_analysis *an,
		       const struct ibtopo_export_opts *xopts,
		       struct ibtopo_error *err)
{
	return ibtopo__sched_write(sink, an, xopts, "slurm-block",
				   "Slurm topology.conf (topology/block)",
				   block_body, err);
}

const struct ibtopo__writer ibtopo__writer_slurm_block = {
	.format = IBTOPO_EXPORT_SLURM_BLOCK,
	.name = "slurm-block",
	.write_opts = write_block,
};
