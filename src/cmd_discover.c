/* cmd_discover.c - ibtopo discover: the live fabric into a new snapshot */
#include "commands.h"

#include <stdlib.h>

/* long-only options are CLI_LONG + their index in opts[] */
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
	OPT_ALL_PORTS
};

static const struct cli_opt opts[] = {
	{ "label", 0, 1, "TEXT", "label the new snapshot (a REF then)" },
	{ "timeout", 0, 1, "MS", "per-MAD timeout in milliseconds" },
	{ "partial", 0, 0, NULL,
	  "store the snapshot even if some nodes did "
	  "not answer (marked partial)" },
	{ "retries", 0, 1, "N",
	  "sweep again up to N times while a sweep is "
	  "incomplete (default 2)" },
	{ "force", 0, 0, NULL,
	  "move the --label from the snapshot that has "
	  "it to the new one" },
	{ "counters", 0, 0, NULL,
	  "also read every linked port's error and "
	  "data counters (PMA Gets; needs LIDs)" },
	{ "routes", 0, 0, NULL,
	  "also read every switch's forwarding table "
	  "(LFT; SMP Gets)" },
	{ "routing-engine", 0, 1, "NAME",
	  "the SM routing engine that computed the "
	  "tables (ftree, updn, ...)" },
	{ "routes-log", 0, 1, "LOG",
	  "take the routing engine from an OpenSM log "
	  "(its last 'tables configured' line)" },
	{ "cache", 0, 1, "FILE",
	  "also write the sweep as an ibnetdiscover "
	  "cache file (ibnetdiscover --load-cache reads it)" },
	{ "all-ports", 0, 0, NULL,
	  "through each local port reaching a subnet not "
	  "covered yet: a snapshot per fabric" },
	{ NULL },
};

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     const struct cli_global *g);

const struct cli_cmd cmd_discover_entry = {
	.name = "discover",
	.summary = "discover the live fabric into a new snapshot",
	.args = "[-C CA] [-P PORT] [--label TEXT [--force]] [--timeout MS] [--retries N] [--partial] [--counters] [--routes [--routing-engine NAME | --routes-log LOG]] [--cache FILE] [--all-ports]",
	.details =
		"Needs read and write access to /dev/infiniband/umad* (usually\n"
		"root). The global -C and -P options work here too.\n"
		"What a sweep loses (a NodeDescription, a PortInfo, the peer of a\n"
		"port that is up) is asked for again along its directed route;\n"
		"a sweep still incomplete then is run again (--retries). If the\n"
		"best sweep is incomplete, discover names the first SMP that\n"
		"went unanswered and its DR path, stores nothing and exits 2,\n"
		"unless --partial is given: then it stores that sweep marked\n"
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
		"Prints the snapshot id, the node and link counts, the mix of\n"
		"link speeds and widths, and the time taken.",
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

static int label_fail(const struct ibtopo_error *err)
{
	if (err->code == IBTOPO_EEXIST)
		return cli_failf("%s (--force moves it here)", err->message);
	return cli_fail(err);
}

/* The -v step line of the forwarding tables read. */
struct routes_step {
	const struct cli_global *g;
	size_t switches, blocks;
	double seconds;
};

static void routes_read(void *arg, size_t switches, size_t blocks,
			double seconds)
{
	struct routes_step *r = arg;

	r->switches = switches;
	r->blocks = blocks;
	r->seconds = seconds;
}

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     const struct cli_global *g)
{
	struct routes_step routes = { g, 0, 0, 0 };
	struct ibtopo_discover_opts dopts = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_store *store = NULL;
	struct cli_state st = { 0 };
	const char *label = NULL, *engine_name = NULL, *routes_log = NULL;
	char *engine = NULL;
	unsigned save_flags = 0;
	bool all_ports = false;
	double t0, t1;
	int64_t id = 0;
	int c, rc = EXIT_TROUBLE;

	dopts.retries = 2;
	dopts.warn = cli_warn;
	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LABEL:
			label = st.optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_uint(st.optarg, 600000, &dopts.timeout_ms) ||
			    !dopts.timeout_ms)
				return cli_usage_error(
					self,
					"bad timeout '%s' "
					"(milliseconds, 1 to 600000)",
					st.optarg);
			break;
		case OPT_PARTIAL:
			dopts.flags |= IBTOPO_DISCOVER_PARTIAL;
			break;
		case OPT_RETRIES:
			if (parse_uint(st.optarg, 100, &dopts.retries))
				return cli_usage_error(self,
						       "bad retry count '%s' "
						       "(0 to 100)",
						       st.optarg);
			break;
		case OPT_FORCE:
			save_flags |= IBTOPO_SAVE_MOVE_LABEL;
			break;
		case OPT_COUNTERS:
			dopts.flags |= IBTOPO_DISCOVER_COUNTERS;
			break;
		case OPT_ROUTES:
			dopts.flags |= IBTOPO_DISCOVER_ROUTES;
			dopts.routes_read = routes_read;
			dopts.routes_arg = &routes;
			break;
		case OPT_ROUTING_ENGINE:
			engine_name = st.optarg;
			break;
		case OPT_ROUTES_LOG:
			routes_log = st.optarg;
			break;
		case OPT_CACHE:
			dopts.cache_path = st.optarg;
			break;
		case OPT_ALL_PORTS:
			all_ports = true;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (st.optind < argc)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind]);
	dopts.ca = g->ca;
	dopts.port = g->port;
	if (save_flags && !label)
		return cli_usage_error(self,
				       "--force moves a --label; none given");
	if (label && ibtopo_store_check_label(NULL, label, 0, &err))
		return cli_usage_error(self, "%s", err.message);
	if (label && !save_flags && label_in_use(g, label, &err))
		return label_fail(&err);
	/* a bad name or log fails before the sweep */
	rc = cli_routing_engine(self, &engine,
				dopts.flags & IBTOPO_DISCOVER_ROUTES,
				engine_name, routes_log);
	if (rc)
		return rc;
	if (all_ports) {
		rc = cli_discover_all_ports(self, g, &dopts, save_flags, label,
					    engine);
		goto out_free;
	}
	rc = EXIT_TROUBLE;

	t0 = cli_now();
	if (g->verbose && dopts.port)
		fprintf(stderr, "ibtopo: discovering through %s port %d...\n",
			dopts.ca ? dopts.ca : "the first CA", dopts.port);
	else if (g->verbose)
		fprintf(stderr, "ibtopo: discovering through %s...\n",
			dopts.ca ? dopts.ca : "the first active CA port");
	if (ibtopo_fabric_discover(&fabric, &dopts, &err)) {
		if (err.code == IBTOPO_EPARTIAL)
			rc = cli_failf("%s; nothing stored (use --partial to "
				       "store it anyway)",
				       err.message);
		else
			rc = cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "discover", t0, "%zu nodes, %zu links",
		 ibtopo_fabric_node_count(fabric),
		 ibtopo_fabric_link_count(fabric));
	if (dopts.flags & IBTOPO_DISCOVER_ROUTES)
		cli_step(g, "routes", cli_now() - routes.seconds,
			 "%zu switch forwarding tables read in %zu LFT blocks",
			 routes.switches, routes.blocks);
	if (ibtopo_fabric_meta(fabric)->partial)
		fprintf(stderr,
			"ibtopo: warning: discovery incomplete: %s; "
			"the snapshot is marked partial\n",
			ibtopo_fabric_meta(fabric)->partial_reason);
	if (label && ibtopo_fabric_set_label(fabric, label, &err))
		goto out_fail;
	if (engine && ibtopo_fabric_set_routing_engine(fabric, engine, &err))
		goto out_fail;
	/* Open the store only now: a failed discovery leaves it untouched. */
	if (cli_open_store(&store, g, 0, &err))
		goto out_fail;
	t1 = cli_now();
	if (cli_store_save(&id, store, fabric, g, save_flags, &err)) {
		rc = label_fail(&err);
		goto out_free;
	}
	cli_step(g, "store", t1, "saved as snapshot %lld", (long long)id);
	t1 = cli_now();
	cli_print_summary(stdout, fabric, id, t1 - t0);
	rc = EXIT_CLEAN;
	goto out_free;

out_fail:
	rc = cli_fail(&err);
out_free:
	ibtopo_store_free(store);
	ibtopo_fabric_free(fabric);
	free(engine);
	return rc;
}
