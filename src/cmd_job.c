/* cmd_job.c - ibtopo job: what a job's placement gets from the fabric */
#include "commands.h"
#include "fabric_pair.h"
#include "job_slurm.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_ROUTES = CLI_LONG,
	OPT_SLURM_JOB,
	OPT_SINCE,
	OPT_FORMAT, /* cli_opt_format: cli_getopt's */
};

static const struct cli_opt opts[] = {
	CLI_OPT_SAME_ID(OPT_ROUTES, cli_opt_routes_dump),
	CLI_LONG_OPT(OPT_SLURM_JOB, "slurm-job", 1, "ID",
		     "the hosts of a Slurm job, from squeue and scontrol show "
		     "hostnames, instead of a HOSTLIST"),
	CLI_LONG_OPT(OPT_SINCE, "since", 1, "REF",
		     "judge the port health over the time since this earlier "
		     "snapshot: error growth, BER and congestion"),
	CLI_OPT_SAME(cli_opt_format),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

static int cmd_job_exec(const struct cli_cmd *self, int argc, char **argv,
			struct cli_global *g);

const struct cli_cmd cmd_job_entry = {
	.name = "job",
	.summary =
		"what a job's hosts share: leaves, spines, routes, contention",
	.args = "(HOSTLIST | --slurm-job ID) [REF|FILE] [--routes DUMP] [--since REF] " CLI_ARGS_ANALYSIS
		" [--format text|json|csv]",
	.details =
		"HOSTLIST is Slurm's hostlist syntax: gpu[001-016,020],login1\n"
		"(a bracket holds numbers and ranges, padded as its first number;\n"
		"commas outside brackets separate names). --slurm-job ID takes\n"
		"a job's hosts from Slurm's clients instead: its node list from\n"
		"squeue -h -j ID -o %N (without squeue, scontrol show job ID),\n"
		"expanded by scontrol show hostnames; without them it says so.\n"
		"Hosts are CAs by host\n"
		"name (the first word of \"<host> <adapter>\" descriptions). The\n"
		"report: the hosts found and those the fabric lacks, the leaves\n"
		"they hang off, the lowest level with one switch above every one\n"
		"of them (1: one leaf); with forwarding tables (discover --routes,\n"
		"or --routes DUMP) its all-to-all traced pair by pair: the spines\n"
		"crossed, the hops, every switch port crossed with its routes and\n"
		"its ideal (the routes its switch sends up, or to the same node,\n"
		"spread evenly over those ports), busiest first. With port\n"
		"counters (a snapshot taken with discover --counters), the port\n"
		"health findings (as health reports them) on the job's cables and\n"
		"on the links its routes cross; with --since REF, an earlier\n"
		"snapshot of the same fabric, as health --since judges them: the\n"
		"errors that grew, the BER and the congestion over that time.\n"
		"Then a verdict line. Without\n"
		"tables or counters it says what it could not judge.\n"
		"JSON: " CLI_JSON
		",\"job\":{\"hosts\",\"found\",\"missing\":[...],\n"
		"\"ca_ports\",\"leaves\":[...],\"common_level\",\"common_switch\",\n"
		"\"routes\":{\"ca_pairs\",\"unreachable_pairs\",\"spines\",\n"
		"\"hops_min\",\"hops_mean\",\"hops_max\",\"links\":[...]},\n"
		"\"findings\":[...]}}.\n"
		"CSV: the ports crossed (node,guid,port,peer.node,routes,ideal,up).\n"
		"Exit status: 0 done, 2 a bad hostlist, no host of it in the\n"
		"fabric, Slurm's clients missing or failing, bad input or a\n"
		"usage error.",
	.opts = opts,
	.exec = cmd_job_exec,
	.flags = CLI_NEEDS_DB,
};

static int report(struct ibtopo_analysis *an, char **names, size_t n,
		  enum ibtopo_format format)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_job *job = NULL;
	struct ibtopo_sink so;
	int rc = EXIT_TROUBLE;

	if (ibtopo_job_run(&job, an, (const char *const *)names, n, &err))
		return cli_fail(&err);
	if (!job->nfound) {
		cli_failf("no host of the hostlist is in the fabric (%zu "
			  "asked, the first '%s')",
			  job->nhosts, names[0]);
		goto out_free;
	}
	so = cli_stdout_sink(format);
	if (ibtopo_report_job(&so, job, &err))
		cli_fail(&err);
	else
		rc = cli_report_exit(NULL, 0);
out_free:
	ibtopo_job_free(job);
	return rc;
}

/* --since REF: an earlier snapshot of the same fabric; -1 after the
 * message. */
static int load_since(struct ibtopo_fabric **before,
		      const struct ibtopo_fabric *now, const char *ref,
		      const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (cli_load(before, g, &(struct cli_source){ .what = ref }))
		return -1;
	if (cli_check_pair(g, *before, now, &err) ||
	    cli_check_order(*before, now, "--since", "REF", false, &err)) {
		cli_fail(&err);
		return -1;
	}
	return 0;
}

static int cmd_job_exec(const struct cli_cmd *self, int argc, char **argv,
			struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct cli_source src = { .what = NULL };
	struct cli_state st = { .report = &rep, .analyze = &ao, .global = g };
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_fabric *fabric = NULL, *before = NULL;
	const char *slurm_job = NULL, *since = NULL;
	char **names = NULL;
	size_t nnames = 0;
	int c, n, rc = EXIT_TROUBLE;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		if (c == OPT_SLURM_JOB)
			slurm_job = st.optarg;
		else if (c == OPT_ROUTES)
			src.routes = st.optarg;
		else if (c == OPT_SINCE)
			since = st.optarg;
		else
			return cli_usage_error(self, "unexpected option");
	}
	n = cli_operands(self, &st, argc, argv, slurm_job ? 1 : 2);
	if (n < 0)
		return EXIT_TROUBLE;
	if (n == 0 && !slurm_job)
		return cli_usage_error(self, "no HOSTLIST");
	if (slurm_job) {
		if (job_slurm_hosts(&names, &nnames, slurm_job))
			return EXIT_TROUBLE;
	} else if (ibtopo_hostlist_expand(&names, &nnames, argv[st.optind],
					  &err)) {
		return cli_fail(&err);
	}
	if (n == (slurm_job ? 1 : 2))
		src.what = argv[st.optind + n - 1];
	if (cli_load(&fabric, g, &src) ||
	    (since && load_since(&before, fabric, since, g)))
		goto out_free;
	ao.since = before;
	ao.flags |= IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_ROUTES;
	ao.topology.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	if (cli_analysis(&an, fabric, &ao, g))
		goto out_free;
	rc = report(an, names, nnames, rep.format);
out_free:
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(fabric);
	ibtopo_fabric_free(before);
	ibtopo_hostlist_free(names, nnames);
	return rc;
}
