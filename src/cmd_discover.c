/* cmd_discover.c - ibtopo discover: the live fabric into a new snapshot */
#include "commands.h"
#include "new_snapshot.h"

#include <inttypes.h>
#include <stdlib.h>

enum {
	OPT_LABEL = CLI_LONG,
	OPT_TIMEOUT,
	OPT_PARTIAL,
	OPT_RETRIES,
	OPT_FORCE,
	OPT_COUNTERS,
	OPT_ROUTES,
	OPT_ROUTING_ENGINE,
	OPT_ROUTES_LOG,
	OPT_CACHE,
	OPT_ALL_PORTS,
	OPT_CABLES,
	OPT_QUIET,
	OPT_FORMAT, /* cli_opt_format: cli_getopt's */
};

static const struct cli_opt opts[] = {
	CLI_OPT_SAME_ID(OPT_LABEL, cli_opt_label),
	CLI_LONG_OPT(OPT_TIMEOUT, "timeout", 1, "MS",
		     "per-MAD timeout in milliseconds"),
	CLI_LONG_OPT(OPT_PARTIAL, "partial", 0, NULL,
		     "store the snapshot even if some nodes did "
		     "not answer (marked partial)"),
	CLI_LONG_OPT(OPT_RETRIES, "retries", 1, "N",
		     "send a MAD that timed out again up to N "
		     "times, each with twice the timeout (default 8)"),
	CLI_OPT_SAME_ID(OPT_FORCE, cli_opt_force),
	CLI_LONG_OPT(OPT_COUNTERS, "counters", 0, NULL,
		     "also read every linked port's error and "
		     "data counters (PMA Gets; needs LIDs)"),
	CLI_LONG_OPT(OPT_ROUTES, "routes", 0, NULL,
		     "also read every switch's forwarding tables "
		     "(LFT and MFT; SMP Gets) and the SA's multicast groups"),
	CLI_LONG_OPT(OPT_ROUTING_ENGINE, "routing-engine", 1, "NAME",
		     "the SM routing engine that computed the "
		     "tables (ftree, updn, ...)"),
	CLI_OPT_SAME_ID(OPT_ROUTES_LOG, cli_opt_routes_log),
	CLI_LONG_OPT(OPT_CACHE, "cache", 1, "FILE",
		     "also write the sweep as an ibnetdiscover "
		     "cache file (ibnetdiscover --load-cache reads it)"),
	CLI_LONG_OPT(OPT_ALL_PORTS, "all-ports", 0, NULL,
		     "through each local port reaching a subnet not "
		     "covered yet: a snapshot per fabric"),
	CLI_OPT_SAME_ID(OPT_CABLES, cli_opt_cables_store),
	CLI_OPT("quiet", 'q', 0, NULL,
		"print nothing unless something failed or needs "
		"attention (for cron)"),
	CLI_OPT_SAME(cli_opt_format),
	{ NULL },
};

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     struct cli_global *g);

const struct cli_cmd cmd_discover_entry = {
	.name = "discover",
	.summary = "discover the live fabric into a new snapshot",
	.args = "[-C CA] [-P PORT] [--label TEXT [--force]] [--timeout MS] [--retries N] [--partial] [--counters] [--routes [--routing-engine NAME | --routes-log LOG]] [--cache FILE] [--all-ports] [--cables FILE] [--quiet | --format text|json]",
	.details =
		"Needs read and write access to /dev/infiniband/umad* (usually\n"
		"root). The global -C and -P options work here too.\n"
		"A MAD (SMP or PMA query) that times out is sent again on its\n"
		"own, up to --retries times, each time with twice the timeout\n"
		"(at most 4 times --timeout); on loss the MADs in flight (16)\n"
		"are halved, and grow back one by one as answers come. When\n"
		"retries were needed one line on stderr says what they cost\n"
		"('N of M MADs asked again, L lost, window 16 -> W') and names a\n"
		"node that timed out far more than the others. The sweep is run\n"
		"again (at most twice) only when the fabric changed under it\n"
		"(a port that was up is down when asked again).\n"
		"If a query stays unanswered, discover names the first one and\n"
		"its DR path (or port and LID), stores nothing and exits 2,\n"
		"unless --partial is given: then it stores the sweep marked\n"
		"partial.\n"
		"A label names one snapshot: one in use is refused (exit 2,\n"
		"before the sweep) unless --force moves it to the new snapshot;\n"
		"labels a REF would read as an id, 'latest' or 'latest~N' are\n"
		"refused.\n"
		"With --counters, the PortCounters (and PortCountersExtended\n"
		"where the port's PMA supports them) of both ends of every link\n"
		"are read after the sweep, LID-routed (a subnet manager must\n"
		"have assigned LIDs), and stored with the snapshot and the time\n"
		"they were read; only Gets are sent: no counter is reset.\n"
		"A port whose PMA does not answer (asked again) is stored as\n"
		"'not read', never as zeros, the others as read: the summary\n"
		"names those ports (--quiet, --format json: on stderr) and\n"
		"discover exits 3, stored but incomplete (--partial is about\n"
		"the sweep: it is not needed, and does not mark this).\n"
		"With --routes, after the sweep every switch's SwitchInfo and\n"
		"linear forwarding table (LFT blocks 0..LinearFDBTop/64) are\n"
		"read with SMP Gets along directed routes, 16 in flight, and\n"
		"stored with the snapshot (export --format lfts writes them as\n"
		"OpenSM's opensm-lfts.dump). A switch whose table does not\n"
		"answer, asked again, makes the discovery incomplete (see\n"
		"above), named in the message; it never gets a short table.\n"
		"The subnet manager cannot be asked which routing engine\n"
		"computed the tables: --routing-engine NAME records it with the\n"
		"snapshot, or --routes-log LOG takes it from an OpenSM log, its\n"
		"last '<engine> tables configured on all switches' line (read\n"
		"before the sweep).\n"
		"--cache FILE also writes the sweep stored as an `ibnetdiscover\n"
		"--cache` file, for the tools that load one (ibnetdiscover,\n"
		"iblinkinfo, ibqueryerrors --load-cache; ibtopo import); FILE is\n"
		"replaced whole, and only when discovery succeeds.\n"
		"--cables FILE stores a cable inventory with the snapshot, read\n"
		"as analyze --cables reads it, after the sweep (not with\n"
		"--all-ports: it is one fabric's); rows that match no link are\n"
		"left out with one warning, a bad file stores nothing.\n"
		"Prints the snapshot id, the node and link counts, the mix of\n"
		"link speeds and widths, and the time taken; --quiet prints\n"
		"nothing when all went well (warnings and errors still go to\n"
		"stderr), so cron mails only what needs a look; with --all-ports\n"
		"too. A failed sweep still says what its MADs cost, before its\n"
		"error.\n"
		"--format json prints one object instead: " CLI_JSON ",\n"
		"\"fabric\",\"snapshot\":{\"id\",\"label\",\"source\",\"switches\",\n"
		"\"cas\",\"routers\",\"links\",\"cables\",\"partial\",\"partial_reason\",\n"
		"\"counters_unread\"},\"seconds\",\n"
		"\"mads\":{\"sent\",\"asked_again\",\"lost\",\"window_max\",\n"
		"\"window_min\",\"sweeps\",\"worst_guid\",\"worst_timeouts\"}}.",
	.opts = opts,
	.exec = cmd_discover_exec,
	.flags = CLI_NEEDS_DB,
};

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || *s == '-' || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/*
 * Refuse a label in use before the sweep, which takes minutes on a large
 * fabric. A database not there yet holds no label; the save checks again.
 */
static int label_in_use(const struct cli_global *g, const char *label,
			struct ibtopo_error *err)
{
	struct ibtopo_store *store = NULL;
	int rc;

	rc = cli_open_store(&store, g, IBTOPO_STORE_READONLY, err);
	if (rc == IBTOPO_ENOTFOUND)
		return 0;
	if (!rc)
		rc = ibtopo_store_check_label_in(store, cli_fabric(g), label, 0,
						 err);
	ibtopo_store_free(store);
	return rc;
}

/* The -v step line of the forwarding tables read. */
struct routes_step {
	const struct cli_global *g;
	size_t switches, blocks;
	double seconds;
	/* the multicast tables and the SA's groups */
	size_t mc_switches, mc_blocks, sa_mads;
	double mc_seconds;
};

static void mcast_read(void *arg, size_t switches, size_t blocks,
		       size_t sa_mads, double seconds)
{
	struct routes_step *r = arg;

	r->mc_switches = switches;
	r->mc_blocks = blocks;
	r->sa_mads = sa_mads;
	r->mc_seconds = seconds;
}

static void routes_read(void *arg, size_t switches, size_t blocks,
			double seconds)
{
	struct routes_step *r = arg;

	r->switches = switches;
	r->blocks = blocks;
	r->seconds = seconds;
}

static int parse_args(struct ibtopo_discover_opts *dopts,
		      struct new_snapshot *ns, struct routes_step *routes,
		      bool *all_ports, struct cli_report *rep,
		      const struct cli_cmd *self, struct cli_global *g,
		      int argc, char **argv)
{
	struct cli_state st = { .report = rep, .global = g };
	int c;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LABEL:
			ns->label = st.optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_uint(st.optarg, 600000, &dopts->timeout_ms) ||
			    !dopts->timeout_ms)
				return cli_usage_error(
					self,
					"bad timeout '%s' "
					"(milliseconds, 1 to 600000)",
					st.optarg);
			break;
		case OPT_PARTIAL:
			dopts->flags |= IBTOPO_DISCOVER_PARTIAL;
			break;
		case OPT_RETRIES:
			if (parse_uint(st.optarg, 100, &dopts->retries))
				return cli_usage_error(self,
						       "bad retry count '%s' "
						       "(0 to 100)",
						       st.optarg);
			break;
		case OPT_FORCE:
			ns->save_flags |= IBTOPO_SAVE_MOVE_LABEL;
			break;
		case OPT_COUNTERS:
			dopts->flags |= IBTOPO_DISCOVER_COUNTERS;
			break;
		case OPT_ROUTES:
			dopts->flags |= IBTOPO_DISCOVER_ROUTES;
			dopts->routes_read = routes_read;
			dopts->routes_arg = routes;
			dopts->mcast_read = mcast_read;
			dopts->mcast_arg = routes;
			break;
		case OPT_ROUTING_ENGINE:
			ns->engine_name = st.optarg;
			break;
		case OPT_ROUTES_LOG:
			ns->routes_log = st.optarg;
			break;
		case OPT_CACHE:
			dopts->cache_path = st.optarg;
			break;
		case OPT_ALL_PORTS:
			*all_ports = true;
			break;
		case OPT_CABLES:
			ns->cables = st.optarg; /* "-": cli_load_cables */
			break;
		case 'q':
			ns->quiet = true;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (rep->format == IBTOPO_FORMAT_CSV)
		return cli_usage_error(self, "--format: text or json");
	if (ns->quiet && rep->format_given)
		return cli_usage_error(self, "--quiet prints nothing; "
					     "--format says how to print");
	if (*all_ports && rep->format == IBTOPO_FORMAT_JSON)
		return cli_usage_error(self, "--format json goes with one "
					     "sweep, not --all-ports");
	if (*all_ports && ns->cables)
		return cli_usage_error(self, "--cables names the cables of one "
					     "fabric; not with --all-ports");
	return cli_operands(self, &st, argc, argv, 0) < 0 ? EXIT_TROUBLE : 0;
}

/* 4180 as "4,180" */
static const char *grouped(char *buf, size_t len, size_t n)
{
	char digits[32];
	size_t nd = (size_t)snprintf(digits, sizeof(digits), "%zu", n), at = 0;

	for (size_t i = 0; i < nd && at + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[at++] = ',';
		buf[at++] = digits[i];
	}
	buf[at] = '\0';
	return buf;
}

/*
 * What the MADs cost: a -v step line always, and one stderr line when
 * some were asked again or lost (naming a node that lost far more than
 * others, by name when the fabric is there); a failure says it before
 * its message, which is when it is needed most.
 */
static void report_mads(const struct cli_global *g, double t0,
			const struct ibtopo_mad_stats *st,
			const struct ibtopo_fabric *fabric)
{
	const struct ibtopo_node *worst = NULL;
	char again[32], sent[32], who[128] = "";

	cli_step(g, "mads", t0,
		 "%zu sent, %zu asked again, %zu lost, "
		 "window %u -> %u, %zu sweep%s",
		 st->sent, st->asked_again, st->lost, st->window_max,
		 st->window_min, st->sweeps, st->sweeps == 1 ? "" : "s");
	if (!st->asked_again && !st->lost)
		return;
	if (st->worst_guid && fabric)
		worst = ibtopo_fabric_find_node(fabric, st->worst_guid);
	if (worst)
		snprintf(who, sizeof(who),
			 "; '%s' 0x%016" PRIx64 " timed out "
			 "%zu times, far more than any other node",
			 worst->desc, st->worst_guid, st->worst_timeouts);
	else if (st->worst_guid)
		snprintf(who, sizeof(who),
			 "; node 0x%016" PRIx64 " timed out "
			 "%zu times, far more than any other node",
			 st->worst_guid, st->worst_timeouts);
	fprintf(stderr,
		"ibtopo: %s of %s MADs asked again, %zu lost, "
		"window %u \u2192 %u%s\n",
		grouped(again, sizeof(again), st->asked_again),
		grouped(sent, sizeof(sent), st->sent), st->lost, st->window_max,
		st->window_min, who);
}

/*
 * Tables and counters need LIDs (the counters are LID-routed; a table is
 * empty until a subnet manager programs it): none means no SM yet.
 */
static void no_lids_warning(unsigned read)
{
	fprintf(stderr,
		"ibtopo: warning: no LIDs: no subnet manager has configured "
		"this fabric, so no %s could be read (start one, e.g. "
		"opensm, then discover again)\n",
		read == IBTOPO_DISCOVER_COUNTERS ? "counters" :
		read == IBTOPO_DISCOVER_ROUTES	 ? "forwarding tables" :
						   "forwarding tables nor "
						   "counters");
}

/* The sweep, its -v step lines and its warnings. */
static int sweep(struct ibtopo_fabric **fabric,
		 const struct ibtopo_discover_opts *dopts,
		 const struct routes_step *routes, const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	unsigned read = dopts->flags &
			(IBTOPO_DISCOVER_ROUTES | IBTOPO_DISCOVER_COUNTERS);
	double t0 = cli_now();
	int rc;

	if (g->verbose && dopts->port)
		fprintf(stderr, "ibtopo: discovering through %s port %d...\n",
			dopts->ca ? dopts->ca : "the first CA", dopts->port);
	else if (g->verbose)
		fprintf(stderr, "ibtopo: discovering through %s...\n",
			dopts->ca ? dopts->ca : "the first active CA port");
	rc = ibtopo_fabric_discover(fabric, dopts, &err);
	report_mads(g, t0, dopts->stats, *fabric);
	if (rc) {
		if (err.code == IBTOPO_EPARTIAL)
			return cli_failf("%s; nothing stored (use --partial to "
					 "store it anyway)",
					 err.message);
		return cli_fail(&err);
	}
	cli_step(g, "discover", t0, "%zu nodes, %zu links",
		 ibtopo_fabric_node_count(*fabric),
		 ibtopo_fabric_link_count(*fabric));
	if (dopts->flags & IBTOPO_DISCOVER_ROUTES)
		cli_step(g, "routes", cli_now() - routes->seconds,
			 "%zu switch forwarding tables read in %zu LFT blocks",
			 routes->switches, routes->blocks);
	if (dopts->flags & IBTOPO_DISCOVER_ROUTES)
		cli_step(g, "multicast", cli_now() - routes->mc_seconds,
			 "%zu switch multicast tables read in %zu MFT blocks, "
			 "%zu SA queries",
			 routes->mc_switches, routes->mc_blocks,
			 routes->sa_mads);
	if (!cli_fabric_has_lids(*fabric) && read)
		no_lids_warning(read);
	if (ibtopo_fabric_meta(*fabric)->partial)
		fprintf(stderr,
			"ibtopo: warning: discovery incomplete: %s; "
			"the snapshot is marked partial\n",
			ibtopo_fabric_meta(*fabric)->partial_reason);
	return 0;
}

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     struct cli_global *g)
{
	struct ibtopo_mad_stats mads = { 0 };
	struct routes_step routes = { .g = g };
	struct ibtopo_discover_opts dopts = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct new_snapshot ns = { NULL };
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_sink so;
	bool all_ports = false;
	double t0;
	int rc;

	dopts.retries = IBTOPO_DISCOVER_RETRIES;
	dopts.warn = cli_warn;
	dopts.stats = &mads;
	rc = parse_args(&dopts, &ns, &routes, &all_ports, &rep, self, g, argc,
			argv);
	if (rc)
		return rc;
	dopts.ca = g->ca;
	dopts.port = g->port;
	/* a bad label, name or log fails before the sweep */
	rc = new_snapshot_check(&ns, self,
				dopts.flags & IBTOPO_DISCOVER_ROUTES);
	if (!rc && ns.label && !ns.save_flags &&
	    label_in_use(g, ns.label, &err))
		rc = new_snapshot_fail(&err);
	if (rc)
		goto out_free;
	if (all_ports) {
		rc = cli_discover_all_ports(self, g, &dopts, ns.save_flags,
					    ns.label, ns.engine, ns.quiet);
		goto out_free;
	}

	t0 = cli_now();
	rc = sweep(&fabric, &dopts, &routes, g);
	if (rc)
		goto out_free;
	if (ns.engine &&
	    ibtopo_fabric_set_routing_engine(fabric, ns.engine, &err)) {
		rc = cli_fail(&err);
		goto out_free;
	}
	if (rep.format == IBTOPO_FORMAT_JSON)
		ns.quiet = true;
	rc = new_snapshot_save(&ns, g, fabric, t0);
	if ((rc && rc != EXIT_INCOMPLETE) || rep.format != IBTOPO_FORMAT_JSON)
		goto out_free;
	so = cli_stdout_sink(rep.format);
	if (ibtopo_report_discover(&so, fabric, &mads, cli_now() - t0, &err))
		rc = cli_fail(&err);
	else if (cli_report_exit(NULL, 0) != EXIT_CLEAN)
		rc = EXIT_TROUBLE;
out_free:
	ibtopo_fabric_free(fabric);
	new_snapshot_release(&ns);
	return rc;
}
