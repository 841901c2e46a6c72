/* cmd_health.c - ibtopo health: port counters, their growth, findings */
#include "commands.h"
#include "fabric_pair.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_SINCE = CLI_LONG,
	OPT_THRESHOLDS,
	OPT_FAIL_ON, /* cli_opt_fail_on and cli_opt_format: cli_getopt's */
	OPT_FORMAT,
	OPT_COUNTERS,
	OPT_PM_PAUSE,
	OPT_TOP,
	OPT_HISTORY,
};

static const struct cli_opt opts[] = {
	CLI_LONG_OPT(
		OPT_SINCE, "since", 1, "REF",
		"compare with this earlier snapshot: growth and rates per hour (a later one, or REF itself, is refused)"),
	CLI_LONG_OPT(
		OPT_THRESHOLDS, "thresholds", 1, "FILE",
		"error thresholds, Name=value lines as ibqueryerrors reads them (default 0)"),
	CLI_OPT_SAME(cli_opt_fail_on),
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(OPT_COUNTERS, "counters", 1, "CFILE",
		     "read the counters from CFILE (as import --counters); an "
		     "ibdiagnet2.db_csv's PM_DELTA gives the growth"),
	CLI_LONG_OPT(OPT_PM_PAUSE, "pm-pause", 1, "SECONDS",
		     "ibdiagnet's --pm_pause_time for PM_DELTA (default 1)"),
	CLI_LONG_OPT(OPT_TOP, "top", 1, "N",
		     "with --since: list the N busiest links and most congested "
		     "ports (default 10)"),
	CLI_LONG_OPT(OPT_HISTORY, "history", 1, "NODE[:PORT]",
		     "the port's (and its peer's) counters across every stored "
		     "snapshot of its fabric"),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

/* Why no port has counters, and what to do about it: EXIT_TROUBLE. */
static int nothing_measured(const struct ibtopo_fabric *f, const char *what,
			    const char *counters)
{
	if (counters)
		return cli_failf("no port counters measured: %s matches no "
				 "linked port of %s",
				 counters, what);
	if (!cli_fabric_has_lids(f))
		return cli_failf("no port counters in %s: its ports have no "
				 "LIDs, so no counters could be read (PMA "
				 "queries are LID-routed); no subnet manager "
				 "had configured the fabric: start one "
				 "(opensm), then discover again",
				 what);
	return cli_failf("no port counters in %s: nothing measured (take "
			 "snapshots with discover --counters, or give "
			 "--counters CFILE)",
			 what);
}

static int cmd_health_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_health_entry = {
	.name = "health",
	.summary = "report port error counters and their growth",
	.args = "[REF] [--since REF] [--counters CFILE [--pm-pause SECONDS]] [--top N] [--thresholds FILE] [--history NODE[:PORT]] " CLI_ARGS_ANALYSIS
		" [--fail-on error|warning|never] [--format text|json|csv]",
	.details =
		"REF (default: latest) is a snapshot taken with discover --counters\n"
		"(or a FILE). Findings: port-errors (warning) for an error counter\n"
		"above its threshold (SymbolErrorCounter .. VL15Dropped; default 0,\n"
		"as ibqueryerrors without a thresholds file); with --since,\n"
		"port-error-rate (error) for an error counter that grew, and\n"
		"link-flapping (error) for LinkDownedCounter growth, with the growth\n"
		"per hour between the two readings. `a` is the port whose counter\n"
		"grew, `b` its peer. A saturated counter (at its largest value) grew\n"
		"at least that much; a counter lower than before was reset: neither\n"
		"gives a negative rate.\n"
		"--counters CFILE takes REF's counters from CFILE instead (any\n"
		"format import --counters reads; nothing is stored). Without\n"
		"--since, the PM_DELTA section of an ibdiagnet2.db_csv (ibdiagnet\n"
		"--pm_pause_time) is the growth: PM_INFO is the later reading,\n"
		"PM_INFO - PM_DELTA the one --pm-pause SECONDS before.\n"
		"Traffic (with --since or PM_DELTA): the bytes each link carried\n"
		"each way (PortXmitData growth), the --top N busiest, and per\n"
		"level (host links, then switch levels from the topology\n"
		"analysis) the bytes carried against the links' capacity.\n"
		"With --since, the bit error rate of each link (SymbolErrorCounter\n"
		"growth / (seconds x lanes x lane signalling rate), the worse\n"
		"direction; without growth below 1/bits, never 0) and high-ber\n"
		"(error) above the thresholds file's BER[.SPEED]= (default 1e-12);\n"
		"PortXmitWait per second, the capacity lost to it (8 bytes a tick,\n"
		"as ibdiagnet counts) and congested-port (warning) above\n"
		"XmitWaitShare= (default 0.05), with each port's level and direction.\n"
		"--history NODE[:PORT] (PORT may be left out for a node with one\n"
		"port ever linked in the fabric's history): that port and its peer,\n"
		"the cable, in every snapshot of REF's fabric: time, state, each\n"
		"error counter and its growth, the error rate, the BER. A port REF\n"
		"has no link on (a pulled cable) is shown as the last snapshot that\n"
		"has it linked saw it, with the peer it had there (stderr says so).\n"
		"No port with counters is an error (exit 2) that says why: no\n"
		"LIDs (no subnet manager had configured the fabric), or no\n"
		"discover --counters.\n"
		"JSON: " CLI_JSON ",\"ports\":[...],\"findings\":[...]}\n"
		"and, with traffic, \"traffic\":{\"links\":[...],\"by_level\":[...]},\n"
		"\"links\":[...] (BER) and \"congestion\":{...}.\n"
		"CSV: the port table, an empty line, then the findings table (the\n"
		"columns of analyze --format csv).",
	.opts = opts,
	.exec = cmd_health_exec,
	.flags = CLI_NEEDS_DB,
};

static bool has_counters(const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k] && n->ports[k]->counters)
				return true;
	}
	return false;
}

/* Counters a snapshot stored give way to those of --counters CFILE. */
static void clear_counters(struct ibtopo_fabric *f)
{
	for (size_t i = 0; f && i < ibtopo_fabric_node_count(f); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k])
				ibtopo_port_set_counters(n->ports[k], NULL,
							 NULL);
	}
}

/* What health reads: REF, --since, --counters and how to weigh them. */
struct health_args {
	struct cli_report rep;
	struct ibtopo_analyze_opts ao; /* thresholds, top, --roots, ... */
	struct ibtopo_counters_load_opts copts;
	const char *what, *since, *counters, *history;
	const char *counters_text; /* --counters -: standard input */
	size_t top;
};

static int parse_args(struct health_args *a, const struct cli_cmd *self,
		      struct cli_global *g, int argc, char **argv)
{
	struct cli_state st = { .report = &a->rep,
				.analyze = &a->ao,
				.global = g };
	unsigned long n;
	double pause;
	char *end;
	int c;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_SINCE:
			a->since = st.optarg;
			break;
		case OPT_THRESHOLDS:
			a->ao.health.thresholds_path = cli_input_arg(
				st.optarg, &a->ao.thresholds_text);
			break;
		case OPT_COUNTERS:
			a->counters =
				cli_input_arg(st.optarg, &a->counters_text);
			break;
		case OPT_HISTORY:
			a->history = st.optarg;
			break;
		case OPT_TOP:
			n = strtoul(st.optarg, &end, 10);
			if (end == st.optarg || *end || !n || n > 1000000)
				return cli_usage_error(
					self, "bad --top '%s' (1 or more)",
					st.optarg);
			a->ao.traffic_top = n;
			break;
		case OPT_PM_PAUSE:
			pause = strtod(st.optarg, &end);
			if (end == st.optarg || *end || !(pause > 0) ||
			    pause > 86400)
				return cli_usage_error(
					self,
					"bad --pm-pause '%s' (seconds, more than 0)",
					st.optarg);
			a->copts.pm_pause_ms = (int64_t)(pause * 1000 + 0.5);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (cli_source_operand(self, &st, argc, argv, &a->what))
		return EXIT_TROUBLE;
	return 0;
}

/*
 * The fabric now and, with --since or --counters, the one before: with
 * --counters CFILE, both get its readings (before: its PM_DELTA, when it
 * has one and there is no --since; else no fabric before).
 */
static int load_fabrics(struct ibtopo_fabric **now,
			struct ibtopo_fabric **before,
			const struct cli_global *g, struct health_args *a)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t unknown = 0;

	if (cli_load(now, g, &(struct cli_source){ .what = a->what }))
		return EXIT_TROUBLE;
	if ((a->since || a->counters) &&
	    cli_load(before, g,
		     &(struct cli_source){ .what = a->since ? a->since :
							      a->what }))
		return EXIT_TROUBLE;
	if (*before && (cli_check_pair(g, *before, *now, &err) ||
			(a->since && cli_check_order(*before, *now, "--since",
						     "REF", false, &err))))
		return cli_fail(&err);
	if (!a->counters)
		return 0;
	a->copts.warn = cli_warn;
	a->copts.before = a->since ? NULL : *before;
	clear_counters(*now);
	clear_counters(a->copts.before);
	if (a->counters_text ?
		    ibtopo_counters_load_buffer(
			    *now, a->counters_text, strlen(a->counters_text),
			    CLI_STDIN_NAME, &a->copts, &unknown, &err) :
		    ibtopo_counters_load(*now, a->counters, &a->copts, &unknown,
					 &err))
		return cli_fail(&err);
	if (unknown)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu port%s not in the "
			"fabric; their counters are left out\n",
			a->counters, unknown, unknown == 1 ? "" : "s");
	if (!a->since && !has_counters(*before)) {
		/* no PM_DELTA: one reading */
		ibtopo_fabric_free(*before);
		*before = NULL;
	}
	return 0;
}

/* NODE[:PORT]: the node, and the port number after the last ':' (-1). */
static int split_port(char *name, long *port)
{
	char *colon = strrchr(name, ':'), *end;

	*port = -1;
	if (!colon || !colon[1])
		return 0;
	*port = strtol(colon + 1, &end, 10);
	if (*end || *port < 0 || *port > 255) {
		*port = -1;
		return 0; /* a ':' of the name itself */
	}
	*colon = '\0';
	return 0;
}

/* A port in a snapshot: linked (an import lists linked ports only, with
 * no state: present is linked there). */
static bool reading_linked(const struct ibtopo_port_reading *r)
{
	return r->present && r->state != 1; /* 1: Down */
}

/* The newest snapshot of the fabric of snapshot `id` in which port `num`
 * of `node` was linked, into *out (0: none). An ibtopo status. */
static int last_linked(int64_t *out, struct ibtopo_store *store, int64_t id,
		       const struct ibtopo_node *node, unsigned num,
		       struct ibtopo_error *err)
{
	struct ibtopo_port_reading *r = NULL;
	size_t n = 0;
	int rc;

	*out = 0;
	rc = ibtopo_store_port_history(&r, &n, store, id, node->guid, num, err);
	for (size_t i = 0; !rc && i < n; i++)
		if (reading_linked(&r[i]))
			*out = r[i].snapshot_id;
	ibtopo_port_readings_free(r, n);
	return rc;
}

/* The history to show: the port, and the snapshot it was read in (not
 * REF's when REF lacks its link: a pulled cable). */
struct history_pick {
	const struct ibtopo_port *port;
	struct ibtopo_fabric *then; /* the snapshot it was linked in, or NULL */
};

/* NODE alone: the one port of `node` that has been linked in the
 * fabric's history (a port linked once and pulled since counts: another
 * port is never picked quietly), into *num. An exit status, or -1. */
static int history_only_port(long *num, const struct cli_cmd *self,
			     struct ibtopo_store *store, int64_t id,
			     const struct ibtopo_node *node, const char *arg)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char list[96] = "";
	unsigned linked = 0, had = 0;
	size_t used = 0;
	int64_t last;

	for (unsigned k = 1; k <= node->nports; k++)
		linked += node->ports[k] && node->ports[k]->remote;
	if (linked > 1)
		return cli_usage_error(self,
				       "'%s' has %u linked ports: name "
				       "one, --history '%s:PORT'",
				       node->desc, linked, arg);
	for (unsigned k = 1; k <= node->nports; k++) {
		if (node->ports[k] && node->ports[k]->remote)
			last = id;
		else if (last_linked(&last, store, id, node, k, &err))
			return cli_fail(&err);
		if (!last)
			continue;
		*num = k;
		had++;
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%u",
						 had > 1 ? ", " : "", k);
	}
	if (had == 1)
		return -1;
	if (!had)
		return cli_usage_error(
			self,
			"'%s' has no linked port in any "
			"snapshot: name one, --history '%s:PORT'",
			node->desc, arg);
	return cli_usage_error(self,
			       "'%s' has had %u linked ports (%s; %u linked "
			       "now): name one, --history '%s:PORT'",
			       node->desc, had, list, linked, arg);
}

/* The port NODE[:PORT] names: in REF's snapshot `f` when linked there,
 * else in the last snapshot that had it linked; NODE alone: its one port
 * ever linked. An exit status, 0 when found. */
static int history_port(struct history_pick *out, const struct cli_cmd *self,
			struct ibtopo_store *store, int64_t id,
			const struct ibtopo_fabric *f, const char *arg)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_port *port;
	struct ibtopo_node *node;
	char *name = strdup(arg);
	int64_t last = 0;
	long num;
	int rc;

	if (!name)
		return cli_failf("out of memory");
	split_port(name, &num);
	rc = ibtopo_fabric_find_node_name(&node, f, name, &err);
	free(name);
	if (rc)
		return cli_fail(&err);
	if (num < 0) {
		rc = history_only_port(&num, self, store, id, node, arg);
		if (rc >= 0)
			return rc;
	}
	port = num <= node->nports ? ibtopo_node_port(node, (unsigned)num) :
				     NULL;
	out->port = port;
	if (port && port->remote)
		return 0;
	if (num <= node->nports &&
	    last_linked(&last, store, id, node, (unsigned)num, &err))
		return cli_fail(&err);
	if (!last) {
		if (port)
			return 0; /* never linked: its history all the same */
		return cli_usage_error(self,
				       "'%s' has no port %ld in any snapshot "
				       "of its fabric",
				       node->desc, num);
	}
	if (ibtopo_store_load(&out->then, store, last, &err))
		return cli_fail(&err);
	node = ibtopo_fabric_find_node(out->then, node->guid);
	out->port = node ? ibtopo_node_port(node, (unsigned)num) : NULL;
	if (!out->port)
		return cli_failf("snapshot %lld lost port %ld of '%s'",
				 (long long)last, num, arg);
	fprintf(stderr,
		"ibtopo: snapshot %lld has no link on port %ld of '%s'; "
		"snapshot %lld is the last that has it: its history, with the "
		"peer it had there\n",
		(long long)id, num, node->desc, (long long)last);
	return 0;
}

/* --history: the port and its peer across the snapshots of REF's fabric. */
static int cmd_health_history(const struct cli_cmd *self,
			      const struct cli_global *g,
			      const struct health_args *a)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_store *store = NULL;
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port_reading *r[2] = { NULL, NULL };
	size_t nr[2] = { 0, 0 };
	struct ibtopo_port_history *h[2] = { NULL, NULL };
	const struct ibtopo_port *ends[2];
	struct history_pick pick = { NULL, NULL };
	struct ibtopo_sink ro;
	size_t n = 0;
	int64_t id;
	int rc = EXIT_TROUBLE;

	if (cli_open_store(&store, g, IBTOPO_STORE_READONLY, &err) ||
	    ibtopo_store_resolve_in(&id, store, cli_fabric(g),
				    a->what ? a->what : "latest", &err) ||
	    ibtopo_store_load(&f, store, id, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (history_port(&pick, self, store, id, f, a->history))
		goto out_free;
	ends[0] = pick.port;
	ends[1] = ends[0]->remote;
	for (n = 0; n < 2 && ends[n]; n++) {
		if (ibtopo_store_port_history(&r[n], &nr[n], store, id,
					      ends[n]->node->guid, ends[n]->num,
					      &err) ||
		    ibtopo_health_history(&h[n], ends[n]->node->desc,
					  ends[n]->node->guid, ends[n]->num,
					  r[n], nr[n], &err)) {
			cli_fail(&err);
			goto out_free;
		}
		h[n]->fabric = ibtopo_fabric_meta(f)->fabric;
	}
	ro = cli_stdout_sink(a->rep.format);
	if (ibtopo_report_port_history(
		    &ro, (const struct ibtopo_port_history *const *)h, n,
		    &err)) {
		cli_fail(&err);
		goto out_free;
	}
	rc = 0;
out_free:
	for (size_t i = 0; i < 2; i++) {
		ibtopo_port_history_free(h[i]);
		ibtopo_port_readings_free(r[i], nr[i]);
	}
	ibtopo_fabric_free(pick.then);
	ibtopo_fabric_free(f);
	ibtopo_store_free(store);
	return rc;
}

static int cmd_health_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g)
{
	struct health_args a = {
		.rep = CLI_REPORT_INIT,
		.ao = IBTOPO_ANALYZE_OPTS_INIT,
		.copts = IBTOPO_COUNTERS_LOAD_OPTS_INIT,
	};
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_findings *findings;
	struct ibtopo_fabric *now = NULL, *before = NULL;
	const struct ibtopo_health *health;
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_sink ro;
	int rc = EXIT_TROUBLE;

	rc = parse_args(&a, self, g, argc, argv);
	if (rc)
		return rc;
	if (a.history) {
		if (a.since || a.counters)
			return cli_usage_error(self,
					       "--history reads the store "
					       "alone: no --since, --counters");
		return cmd_health_history(self, g, &a);
	}
	rc = load_fabrics(&now, &before, g, &a);
	if (rc)
		goto out_free;
	/* port health alone (with --since, the levels too, for the
	 * traffic per level: no path diversity) */
	a.ao.since = before;
	a.ao.flags |= IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_ROUTES;
	a.ao.topology.flags |=
		IBTOPO_TOPOLOGY_NO_PATHS | IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = cli_analysis(&an, now, &a.ao, g);
	if (rc)
		goto out_free;
	rc = EXIT_TROUBLE;
	if (ibtopo_analysis_health(an, &health, &err) ||
	    ibtopo_analysis_section_findings(an, IBTOPO_SECTION_HEALTH,
					     &findings, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	if (!health) {
		/* 0 ports measured is no clean bill of health */
		rc = nothing_measured(now, a.what ? a.what : "latest",
				      a.counters);
		goto out_free;
	}
	ro = cli_stdout_sink(a.rep.format);
	if (ibtopo_report_health(&ro, health, findings, &err)) {
		cli_fail(&err);
		goto out_free;
	}
	rc = cli_report_exit(findings, a.rep.fail_on);
out_free:
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(before);
	ibtopo_fabric_free(now);
	return rc;
}
