/*
 * write_slurm_yaml.c - a fabric as Slurm 25.05's topology.yaml: a list
 * of one tree topology, its switches from sched.c's tree, leaves first.
 *
 * Written by hand: every scalar is a name of [A-Za-z0-9._-] or a
 * hostlist of such names, brackets and commas, double-quoted, so nothing
 * needs escaping (tests/cli/export-sched.sh parses it with PyYAML).
 */
#include "export/sched.h"

static int yaml_body(struct ibtopo__wr *w, const struct ibtopo__sched *s,
		     struct ibtopo_error *err)
{
	(void)err;
	/* one topology per fabric, named after it: the files of two
	 * fabrics concatenate to one list */
	ibtopo__wr_printf(w,
			  "- topology: \"%s\"\n"
			  "  cluster_default: true\n"
			  "  tree:\n"
			  "    switches:\n",
			  s->fabric);
	for (size_t i = 0; i < s->nsw; i++) {
		const struct ibtopo__sched_sw *sw = &s->sw[i];

		ibtopo__wr_printf(w, "      - switch: \"%s\"\n        %s: \"",
				  sw->name, sw->nhosts ? "nodes" : "children");
		ibtopo__sched_list(w, s, sw, sw->nhosts);
		ibtopo__wr_printf(w, "\"\n");
	}
	return 0;
}

static int write_yaml(const struct ibtopo_sink *sink,
		      struct ibtopo_analysis *an,
		      const struct ibtopo_export_opts *xopts,
		      struct ibtopo_error *err)
{
	return ibtopo__sched_write(sink, an, xopts, "slurm-yaml",
				   "Slurm topology.yaml", yaml_body, err);
}

const struct ibtopo__writer ibtopo__writer_slurm_yaml = {
	.format = IBTOPO_EXPORT_SLURM_YAML,
	.name = "slurm-yaml",
	.write_opts = write_yaml,
};
