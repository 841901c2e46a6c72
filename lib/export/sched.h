/*
 * sched.h - private to lib/export: the tree of logical switches the four
 * scheduler writers (slurm, slurm-block, slurm-yaml, k8s) share, so they
 * cannot disagree about a fabric.
 */
#ifndef IBTOPO_EXPORT_SCHED_H
#define IBTOPO_EXPORT_SCHED_H

#include "export/export-int.h"

/* Slurm: switch names of at most 64 characters; host names alike */
#define IBTOPO__SCHED_NAME 65

enum ibtopo__sched_kind {
	IBTOPO__SCHED_TREE = 0,	 /* fat tree or anything else */
	IBTOPO__SCHED_RAILS,	 /* a leaf per scalable unit */
	IBTOPO__SCHED_DRAGONFLY, /* a leaf per group */
};

/* A logical switch: a switch, a director, a scalable unit or a group. */
struct ibtopo__sched_sw {
	char name[IBTOPO__SCHED_NAME];
	unsigned tier; /* 0 = a leaf (lists hosts), else 1 + its kids' */
	size_t *kids;  /* logical switches below, in order */
	size_t nkids;
	size_t *hosts; /* hosts it lists (leaves only) */
	size_t nhosts;
	size_t parent; /* first parent by name; SIZE_MAX for a root */
	size_t nbelow; /* hosts below it */
};

struct ibtopo__sched {
	enum ibtopo__sched_kind kind;
	struct ibtopo__sched_sw *sw; /* by tier, then by fabric order */
	size_t nsw;
	char (*host)[IBTOPO__SCHED_NAME];
	size_t nhosts;
	unsigned ntiers; /* highest tier + 1 */
	size_t top;	 /* the switch that reaches every host */
	char rule[200];	 /* how rails, directors, groups were made */
	/* the fabric's name: its fabric in the store, else the name the
	 * store would give it (ibtopo_metrics_fabric_name()) */
	char fabric[IBTOPO__SCHED_NAME];
	const struct ibtopo_export_opts *x; /* what it was built with */
};

/**
 * Build the tree of the analysed fabric, on the analysis' levels, into *out (released by
 * ibtopo__sched_release() also on failure); warnings through xopts.
 * IBTOPO_EINVAL when no server can be listed or names clash.
 */
int ibtopo__sched_build(struct ibtopo__sched *out, struct ibtopo_analysis *an,
			const struct ibtopo_export_opts *xopts,
			struct ibtopo_error *err);
void ibtopo__sched_release(struct ibtopo__sched *s);
/** A warning through s->x (one line). */
void ibtopo__sched_warn(const struct ibtopo__sched *s, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);
/** Names as a Slurm hostlist expression: node[001-016],other. */
void ibtopo__sched_hostlist(struct ibtopo__wr *w, const char **names, size_t n);
/** Hosts of a leaf, or kids of a switch, as one hostlist. */
void ibtopo__sched_list(struct ibtopo__wr *w, const struct ibtopo__sched *s,
			const struct ibtopo__sched_sw *sw, bool hosts);
/** FNV-1a of a name, for the suffix of a shortened one. */
uint32_t ibtopo__sched_hash(const char *s);
/** What a scheduler writer writes from the tree: 0, or an error
 * (IBTOPO_EINVAL for options it cannot follow) set in err. */
typedef int ibtopo__sched_body(struct ibtopo__wr *w,
			       const struct ibtopo__sched *s,
			       struct ibtopo_error *err);
/**
 * What each scheduler writer does: build the tree, write "# " lines
 * saying what it was written from (title first) and how, then body(),
 * then release the tree. format names the output in a write error.
 */
int ibtopo__sched_write(const struct ibtopo_sink *sink,
			struct ibtopo_analysis *an,
			const struct ibtopo_export_opts *xopts,
			const char *format, const char *title,
			ibtopo__sched_body *body, struct ibtopo_error *err);

#endif /* IBTOPO_EXPORT_SCHED_H */
