/* job_slurm.h - `job --slurm-job ID`: a running job's hosts from Slurm's
 * own clients */
#ifndef IBTOPO_JOB_SLURM_H
#define IBTOPO_JOB_SLURM_H

#include "cli.h"

/**
 * The hosts of Slurm job `id` (digits, with `_` or `+` for array and
 * heterogeneous jobs): its node list from `squeue -h -j ID -o %N` (or,
 * without squeue, the NodeList= of `scontrol show job ID`), expanded by
 * `scontrol show hostnames`, both found in PATH. *names as
 * ibtopo_hostlist_expand() gives them (free with ibtopo_hostlist_free()).
 * 0, or EXIT_TROUBLE after one line on stderr: Slurm's clients not
 * installed, the job unknown or without nodes yet, a client failing.
 */
int job_slurm_hosts(char ***names, size_t *count, const char *id);

#endif /* IBTOPO_JOB_SLURM_H */
