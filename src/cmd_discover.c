/* cmd_discover.c - ibtopo discover: the live fabric into a new snapshot */
#include "commands.h"

#include <inttypes.h>
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
	OPT_CACHE
};

static const struct cli_opt opts[] = {
	{ "label", 0, 1, "TEXT", "label the new snapshot (a REF then)" },
	{ "timeout", 0, 1, "MS", "per-MAD timeout in milliseconds" },
	{ "partial", 0, 0, NULL,
	  "store the snapshot even if some nodes did "
	  "not answer (marked partial)" },
	{ "retries", 0, 1, "N",
	  "send a MAD that timed out again up to N "
	  "times, each with twice the timeout (default 8)" },
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
	{ NULL },
};

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     const struct cli_global *g);

const struct cli_cmd cmd_discover_entry = {
	.name = "discover",
	.summary = "discover the live fabric into a new snapshot",
	.args = "[-C CA] [-P PORT] [--label TEXT [--force]] [--timeout MS] [--retries N] [--partial] [--counters] [--routes [--routing-engine NAME | --routes-log LOG]] [--cache FILE]",
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
		rc = ibtopo_store_check_label(store, label, 0, err);
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
 * some were asked again (naming a node that lost far more than others)
 * and the discovery succeeded; a failure has its one message.
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
	if (!st->asked_again || !fabric)
		return;
	if (st->worst_guid)
		worst = ibtopo_fabric_find_node(fabric, st->worst_guid);
	if (st->worst_guid)
		snprintf(who, sizeof(who),
			 "; '%s' 0x%016" PRIx64 " timed out "
			 "%zu times, far more than any other node",
			 worst ? worst->desc : "?", st->worst_guid,
			 st->worst_timeouts);
	fprintf(stderr,
		"ibtopo: %s of %s MADs asked again, %zu lost, "
		"window %u \u2192 %u%s\n",
		grouped(again, sizeof(again), st->asked_again),
		grouped(sent, sizeof(sent), st->sent), st->lost, st->window_max,
		st->window_min, who);
}

static int cmd_discover_exec(const struct cli_cmd *self, int argc, char **argv,
			     const struct cli_global *g)
{
	struct ibtopo_mad_stats mads = { 0 };
	struct routes_step routes = { g, 0, 0, 0 };
	struct ibtopo_discover_opts dopts = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_store *store = NULL;
	struct cli_state st = { 0 };
	const char *label = NULL, *engine_name = NULL, *routes_log = NULL;
	char *engine = NULL;
	unsigned save_flags = 0;
	double t0, t1;
	int64_t id = 0;
	int c, rc = EXIT_TROUBLE;

	dopts.retries = IBTOPO_DISCOVER_RETRIES;
	dopts.warn = cli_warn;
	dopts.stats = &mads;
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
	rc = EXIT_TROUBLE;

	t0 = cli_now();
	if (g->verbose && dopts.port)
		fprintf(stderr, "ibtopo: discovering through %s port %d...\n",
			dopts.ca ? dopts.ca : "the first CA", dopts.port);
	else if (g->verbose)
		fprintf(stderr, "ibtopo: discovering through %s...\n",
			dopts.ca ? dopts.ca : "the first active CA port");
	rc = ibtopo_fabric_discover(&fabric, &dopts, &err);
	report_mads(g, t0, &mads, fabric);
	if (rc) {
		rc = EXIT_TROUBLE;
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
	if (ibtopo_store_save_ext(&id, store, fabric, save_flags, &err)) {
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
