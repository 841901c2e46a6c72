/*
 * analysis-int.h - private to libibtopo: the table of analyses
 * ibtopo_analyze() runs (analysis/analyze.c), and the sections their
 * results make. An analysis is one file that defines a struct
 * ibtopo__analysis and one line in analyze.c; a result it keeps with
 * ibtopo__run_keep() is written by the report section of that name
 * (report/report_analysis.c).
 */
#ifndef IBTOPO_ANALYSIS_INT_H
#define IBTOPO_ANALYSIS_INT_H

#include "io/io-int.h"

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
int ibtopo__inputs_load(struct ibtopo__inputs *in, unsigned which,
			const struct ibtopo_analyze_opts *opts,
			struct ibtopo_error *err);
void ibtopo__inputs_release(struct ibtopo__inputs *in);

/*
 * A result an analysis keeps for the report, besides its findings: one
 * section of ibtopo_report_analysis(), found by name (the section's JSON
 * key). The analysis result owns it and frees it with `free`.
 */
struct ibtopo__section {
	const char *name;
	void *data;
	void (*free)(void *data);
};

/* The sections of an analysis, in the order the analyses kept them. */
struct ibtopo_analysis_sections {
	struct ibtopo__section *items;
	size_t count;
};

/* What every analysis sees, and where it leaves its results. */
struct ibtopo__analysis_run {
	const struct ibtopo_fabric *fabric;
	const struct ibtopo_analyze_opts *opts;
	struct ibtopo__inputs inputs;		/* what io read for them */
	struct ibtopo_findings *findings;	/* append here */
	struct ibtopo_analysis_sections *sections; /* ibtopo__run_keep() */
	/* results later analyses read (the routing analysis reads the
	 * topology); ibtopo_analyze() keeps them as sections */
	struct ibtopo_topology *topology;	/* the topology analysis' */
	struct ibtopo_routes *routes;		/* the routing analysis' */
};

/**
 * Keep `data` as the section `name` of the analysis being made; it is
 * freed with `free` (NULL: not at all) with the analysis, and at once
 * when this fails. NULL data keeps nothing. Returns 0 or IBTOPO_ENOMEM.
 */
int ibtopo__run_keep(struct ibtopo__analysis_run *run, const char *name,
		     void *data, void (*free)(void *data),
		     struct ibtopo_error *err);

/**
 * The section `name` of an analysis, borrowed; NULL when it has none.
 * In an analysis the caller filled in (no sections) "topology" and
 * "routes" are its public fields.
 */
const void *ibtopo__analysis_section(const struct ibtopo_analysis *an,
				     const char *name);

struct ibtopo__analysis {
	const char *name;
	unsigned skip;		/* enum ibtopo_analyze_flags that skips it */
	unsigned inputs;	/* enum ibtopo__input: read before it runs */
	int (*run)(struct ibtopo__analysis_run *run, struct ibtopo_error *err);
};

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
/** loopback-cable when both ends are on one switch. */
int ibtopo__check_loopback(struct ibtopo_findings *out,
			   const struct ibtopo_link *link,
			   struct ibtopo_error *err);

#endif /* IBTOPO_ANALYSIS_INT_H */
