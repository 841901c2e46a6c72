/*
 * ibtopo/job.h - what a job's placement gets from the fabric (ibtopo
 * job): its hosts, the switches they hang off and share, and from the
 * forwarding tables the links its all-to-all traffic crosses. Part of
 * the public interface; programs include <ibtopo.h>, which includes
 * every part.
 */
#ifndef IBTOPO_JOB_H
#define IBTOPO_JOB_H

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/findings.h>
#include <ibtopo/sink.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibtopo_analysis;

/**
 * The names a Slurm hostlist expression stands for, in its order:
 * "gpu[001-016,020],login1" (a bracket: numbers and ranges, a range
 * padded to its first number's digits; brackets multiply; commas
 * outside brackets separate names). *out (count names) belongs to the
 * caller: ibtopo_hostlist_free(). IBTOPO_EINVAL "bad hostlist '...':
 * why" (an empty name, a blank, an unclosed bracket, a range running
 * down, more than a million names), IBTOPO_ENOMEM.
 */
int ibtopo_hostlist_expand(char ***out, size_t *count, const char *expr,
			   struct ibtopo_error *err);
void ibtopo_hostlist_free(char **names, size_t count);

/** A link of the job's routes: a switch out-port and the routes on it. */
struct ibtopo_job_link {
	const struct ibtopo_port *port;	/* the switch port routes leave by */
	size_t routes;
	/* the least the busiest port of its group could carry: the routes
	 * leaving the switch by its ports up (or by its ports to the same
	 * node, down) over the number of those ports, rounded up */
	size_t ideal;
	bool up;			/* toward a higher level */
};

struct ibtopo_job {
	const struct ibtopo_fabric *fabric;	/* borrowed */
	size_t nhosts;			/* names asked for, each once */
	char **missing;			/* the names the fabric lacks */
	size_t nmissing;
	size_t nfound;			/* hosts found */
	const struct ibtopo_port **ports;	/* their cabled CA ports */
	size_t nports;
	const struct ibtopo_node **leaves;	/* the switches they hang off */
	size_t nleaves;
	/* the lowest level with one switch above every leaf of the job (1:
	 * one leaf), 0 when none is (groups of a Dragonfly+, no switch) */
	unsigned common_level;
	const struct ibtopo_node *common;	/* one such switch */
	/* with forwarding tables: every ordered pair of the job's CA ports
	 * traced, the switches above level 1 on the way, the switch
	 * out-ports crossed (busiest first) and the hop counts */
	bool routes;
	size_t pairs, unrouted;
	const struct ibtopo_node **spines;
	size_t nspines;
	struct ibtopo_job_link *links;
	size_t nlinks;
	unsigned hops_min, hops_max;
	double hops_mean;
	/* with port counters (a snapshot taken with them): the port health
	 * findings (ibtopo_health_analyze()) on the job's own cables and,
	 * with tables, on the links its routes cross; owned by the job */
	bool counters;
	struct ibtopo_findings health;
};

/**
 * The placement of the hosts `names` (CAs by host name, as
 * ibtopo_node_name() names them) on the fabric of `analysis`. *out
 * borrows the fabric; free it with ibtopo_job_free(). IBTOPO_EINVAL (no
 * names), IBTOPO_ENOMEM, or the topology analysis' error.
 */
int ibtopo_job_run(struct ibtopo_job **out, struct ibtopo_analysis *analysis,
		   const char *const *names, size_t count,
		   struct ibtopo_error *err);
void ibtopo_job_free(struct ibtopo_job *job);

/**
 * The report: text, JSON (`ibtopo job` in doc/json.md), or CSV (the
 * links the job's routes cross, one row each).
 */
int ibtopo_report_job(const struct ibtopo_sink *sink,
		      const struct ibtopo_job *job, struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_JOB_H */
