/* serve_sched.h - serve --scheduler-out: scheduler files kept current */
#ifndef IBTOPO_SERVE_SCHED_H
#define IBTOPO_SERVE_SCHED_H

#include "cli.h"

/* One FORMAT=FILE: what was last written there (or found at start). */
struct serve_sched_out {
	int format; /* enum ibtopo_export_format */
	char *path;
	char *last; /* NULL: nothing known yet */
	size_t last_len;
};

/*
 * Every --scheduler-out of a serve, the command run after a rewrite
 * (--scheduler-cmd, or NULL) and the export options of every file.
 */
struct serve_sched {
	struct serve_sched_out *outs;
	size_t n;
	const char *cmd;
	struct ibtopo_export_opts xo;
};

/**
 * Add "FORMAT=FILE" (a scheduler format: slurm, slurm-block, slurm-yaml,
 * k8s). What FILE holds now is taken as the last version written, so a
 * restart on an unchanged fabric rewrites nothing. 0, or -1 with one
 * line in msg.
 */
int serve_sched_add(struct serve_sched *s, const char *arg, char *msg,
		    size_t len);

/**
 * Write each file of the sweep's analysis whose content changed, through
 * a temporary file beside it renamed over it, and log what changed (the
 * lines added and removed, the first of them); then, when a file was
 * rewritten, run the command (`sh -c CMD`, IBTOPO_SCHEDULER_FILES set to
 * the rewritten paths). Nothing for a file whose content is the same.
 * Failures are warnings: the next sweep tries again.
 */
void serve_sched_update(struct serve_sched *s, struct ibtopo_analysis *an);

void serve_sched_release(struct serve_sched *s);

#endif
