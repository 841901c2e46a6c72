/*
 * analysis-int.h - private to libibtopo: the table of analyses
 * an analysis computes (analysis/analyze.c), the analysis itself, and
 * the analyses over parsed inputs behind the public entry points. The
 * report (report/report_analysis.c) reads the sections' fields.
 */
#ifndef IBTOPO_ANALYSIS_INT_H
#define IBTOPO_ANALYSIS_INT_H

#include "cables/cables-int.h"
#include "read/read-int.h"

#include <stdbool.h>

/*
 * The files an analysis takes, as io parsed them: ibtopo_analyze() has
 * them read (analyze_inputs.c) before the analysis that names them in
 * its `inputs` runs, so no analysis opens a file.
 */
enum ibtopo__input {
	IBTOPO__INPUT_REACH = 1u << 0,		/* checks.reach_path */
	IBTOPO__INPUT_ROOTS = 1u << 1,		/* topology.roots_file */
	IBTOPO__INPUT_THRESHOLDS = 1u << 2,	/* health.thresholds_path */
};

struct ibtopo__inputs {
	struct ibtopo__reach *reach;		/* the built-in table if no path */
	struct ibtopo__roots *roots;		/* NULL: no roots file */
	struct ibtopo__thresholds thresholds;	/* 0s: none */
};

/** Read the inputs of `which` the options name (opts checked first). */
/* One input, its options checked first: the reach table, the
 * thresholds (for the public entry points of those sections); `text`
 * (may be NULL) is read in place of the options' path. */
int ibtopo__inputs_reach(struct ibtopo__inputs *in,
			 const struct ibtopo_check_opts *opts,
			 const char *text, struct ibtopo_error *err);
int ibtopo__inputs_thresholds(struct ibtopo__inputs *in,
			      const struct ibtopo_health_opts *opts,
			      const char *text, struct ibtopo_error *err);
int ibtopo__inputs_load(struct ibtopo__inputs *in, unsigned which,
			const struct ibtopo_analyze_opts *opts,
			struct ibtopo_error *err);
void ibtopo__inputs_release(struct ibtopo__inputs *in);

/* The sections of an analysis, in the order they run (sections.h). */
enum ibtopo__section_id {
#define IBTOPO__SECTION(name, NAME, result, report) IBTOPO__SECTION_##NAME,
#include "analysis/sections.h"
#undef IBTOPO__SECTION
	IBTOPO__SECTIONS
};

/* One section's state in an analysis. */
struct ibtopo__slot {
	unsigned char state;		/* 0 not run, 1 running, 2 done */
	int rc;				/* what it returned */
	char message[IBTOPO_ERROR_SIZE]; /* its error, when rc */
	struct ibtopo_findings findings; /* what it found */
};

struct ibtopo_analysis {
	const struct ibtopo_fabric *fabric;
	struct ibtopo_analyze_opts opts;	/* the newest version, copied */
	struct ibtopo__inputs inputs;		/* what io read for them */
	unsigned loaded;			/* enum ibtopo__input */
	struct ibtopo__slot slots[IBTOPO__SECTIONS];
	struct ibtopo_findings input;		/* ibtopo_analysis_note() */
	struct ibtopo_findings all;		/* ibtopo_analysis_findings() */
	bool collected;
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
	/* the sections' results, each set by its run(): an->links,
	 * an->topology, ... (sections.h) */
#define IBTOPO__SECTION(name, NAME, result, report) result *name;
#include "analysis/sections.h"
#undef IBTOPO__SECTION
};

/* One section: how it is computed, skipped, logged and freed. */
struct ibtopo__analysis {
	const char *name;
	unsigned skip;		/* enum ibtopo_analyze_flags that skips it */
	unsigned inputs;	/* enum ibtopo__input: read before it runs */
	/* compute the section: its field of `an`, its findings into `found`;
	 * it may ask for an earlier section with ibtopo__analysis_need() */
	int (*run)(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		   struct ibtopo_error *err);
	/* what it found, for the -v line, into buf; NULL: its findings */
	void (*summary)(char *buf, size_t len, const struct ibtopo_analysis *an);
	/* once its findings joined `all` (at `first`): merge them with the
	 * earlier ones; NULL: nothing to merge */
	void (*collect)(struct ibtopo_findings *all, size_t first,
			const struct ibtopo_analysis *an);
	void (*release)(struct ibtopo_analysis *an);	/* its field */
};

/**
 * Compute section `id` of `an` unless done or skipped; returns what it
 * returned (the same error again for a section that failed).
 */
int ibtopo__analysis_need(struct ibtopo_analysis *an,
			  enum ibtopo__section_id id,
			  struct ibtopo_error *err);

/**
 * For a section's public accessor: compute section `id` as
 * ibtopo__analysis_need() does; *ready is true when its result may be
 * handed out (computed, and not skipped by the options).
 */
int ibtopo__analysis_ready(struct ibtopo_analysis *an,
			   enum ibtopo__section_id id, bool *ready,
			   struct ibtopo_error *err);

/*
 * A section's public accessor, in the section's own file:
 * IBTOPO__ACCESSOR(ibtopo_analysis_<name>, <NAME>, const struct <result>,
 * an-><name>) computes the section on first use and hands out `expr`.
 */
#define IBTOPO__ACCESSOR(fn, NAME, type, expr)                            \
	int fn(struct ibtopo_analysis *an, type **out,                    \
	       struct ibtopo_error *err)                                  \
	{                                                                 \
		bool ready;                                               \
		int rc;                                                   \
		if (!out)                                                 \
			return ibtopo__error_set(err, IBTOPO_EINVAL,      \
						 "no analysis");          \
		*out = NULL;                                              \
		rc = ibtopo__analysis_ready(an, IBTOPO__SECTION_##NAME,   \
					    &ready, err);                 \
		if (ready)                                                \
			*out = (expr);                                    \
		return rc;                                                \
	}

/*
 * The analyses over parsed inputs; the public entry points that take
 * paths (analyze_inputs.c) have io read them, then call these.
 */
/* analysis/check_speed.c */
/** "check options version %u unknown" for a wrong version; NULL is fine. */
int ibtopo__check_opts_check(const struct ibtopo_check_opts *opts,
			     struct ibtopo_error *err);
/** ibtopo_check_links() against a reach table (its path is not read). */
int ibtopo__check_links_run(struct ibtopo_findings *out,
			    const struct ibtopo_fabric *fabric,
			    const struct ibtopo_check_opts *opts,
			    const struct ibtopo__reach *reach,
			    struct ibtopo_error *err);
/* analysis/topology.c */
/** The version and the server policy of topology options. */
int ibtopo__topology_opts_check(const struct ibtopo_topology_opts *opts,
				struct ibtopo_error *err);
/**
 * ibtopo_topology_analyze() with the roots file as io read it (NULL:
 * none; opts->roots_file then only names it in messages).
 */
int ibtopo__topology_run(struct ibtopo_topology **out,
			 const struct ibtopo_fabric *fabric,
			 const struct ibtopo_topology_opts *opts,
			 const struct ibtopo__roots *roots,
			 struct ibtopo_findings *findings,
			 struct ibtopo_error *err);
/* analysis/health.c */
/** "unknown health options version %u"; NULL is fine. */
int ibtopo__health_opts_check(const struct ibtopo_health_opts *opts,
			      struct ibtopo_error *err);
/** ibtopo_health_analyze() against thresholds io read. */
int ibtopo__health_run(struct ibtopo_health **out,
		       struct ibtopo_findings *findings,
		       const struct ibtopo_fabric *now,
		       const struct ibtopo_fabric *since,
		       const struct ibtopo__thresholds *t,
		       struct ibtopo_error *err);
/* analysis/health_ber.c: BER and congestion (see there) */
/** Growth and rates of x->now against x->before (both set). */
void ibtopo__health_compare(struct ibtopo_health_port *x);
/** A port's lanes, lane rate, BER and waiting, after its growth. */
void ibtopo__health_port_rates(struct ibtopo_health_port *x);
/** The same at a given speed and width (x->port may be NULL). */
void ibtopo__health_rates_at(struct ibtopo_health_port *x, unsigned speed,
			     unsigned width);
/** With h->since: h->links, h->congested, high-ber, congested-port. */
int ibtopo__health_rates(struct ibtopo_health *h,
			 struct ibtopo_findings *findings,
			 const struct ibtopo_fabric *now,
			 const struct ibtopo__thresholds *t,
			 struct ibtopo_error *err);
/** The port's level and its link's direction in `topo`. */
void ibtopo__health_port_direction(struct ibtopo_health_port *x,
				   const struct ibtopo_topology *topo);

/* analysis/check_speed.c: peer evidence for fabrics without supported sets */
/**
 * Adapter model key of a CA: vendor:device when known, else the HCA name
 * its description ends with ("mlx5_0" -> "mlx5"), else the description;
 * 0 when nothing is known (empty description).
 */
uint64_t ibtopo__adapter_model(const struct ibtopo_node *node);

/* analysis/check_cable.c: per-link cable checks run by ibtopo_check_links() */
/** cable-underrated when the cable is rated below `capable` (a speed bit). */
int ibtopo__check_cable_rating(struct ibtopo_findings *out,
			       const struct ibtopo_link *link, unsigned capable,
			       struct ibtopo_error *err);
/** cable-over-length against the reach table. */
int ibtopo__check_cable_length(struct ibtopo_findings *out,
			       const struct ibtopo_link *link,
			       const struct ibtopo__reach *reach,
			       struct ibtopo_error *err);
/* analysis/check_ports.c */
/** port-not-active findings (see ibtopo_check_links()). */
int ibtopo__check_ports(struct ibtopo_findings *out,
			const struct ibtopo_fabric *fabric,
			struct ibtopo_error *err);
/* analysis/check_pkeys.c */
/** Partitions: the PKeyTables a sweep read (see there). */
int ibtopo__check_pkeys(struct ibtopo_findings *out,
			const struct ibtopo_fabric *fabric,
			struct ibtopo_error *err);

/* analysis/check_subnet.c */
/** duplicate node and port GUIDs, LIDs and node descriptions. */
int ibtopo__check_subnet(struct ibtopo_findings *out,
			 const struct ibtopo_fabric *fabric,
			 struct ibtopo_error *err);
/** mtu-mismatch and vl-mismatch: a link's ends against their caps. */
int ibtopo__check_link_caps(struct ibtopo_findings *out,
			    const struct ibtopo_link *link,
			    struct ibtopo_error *err);
/** loopback-cable when both ends are on one switch. */
int ibtopo__check_loopback(struct ibtopo_findings *out,
			   const struct ibtopo_link *link,
			   struct ibtopo_error *err);

#endif /* IBTOPO_ANALYSIS_INT_H */
