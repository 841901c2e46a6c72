/* cmd_import.c - ibtopo import: a fabric file into a new snapshot */
#include "commands.h"

#include <stdlib.h>

/* long-only options are CLI_LONG + their index in opts[] */
enum {
	OPT_LABEL = CLI_LONG,
	OPT_INPUT_FORMAT,
	OPT_FORMAT,
	OPT_FORCE,
	OPT_COUNTERS,
	OPT_ROUTES,
	OPT_ROUTING_ENGINE,
	OPT_ROUTES_LOG
};

static const struct cli_opt opts[] = {
	{ "label", 0, 1, "TEXT", "label the new snapshot (a REF then)" },
	{ "input-format", 0, 1, "FMT",
	  "auto (default), cache, ibnetdiscover, "
	  "ports, ibsim or iblinkinfo" },
	{ "format", 0, 1, "FMT", "deprecated: --input-format" },
	{ "force", 0, 0, NULL,
	  "move the --label from the snapshot that has "
	  "it to the new one" },
	{ "counters", 0, 1, "CFILE",
	  "attach port counters: perfquery (also -x), "
	  "ibqueryerrors, ibdiagnet2.pm or ibdiagnet2.db_csv" },
	{ "routes", 0, 1, "RFILE",
	  "attach switch forwarding tables: opensm-lfts.dump, "
	  "dump_fts, ibroute or .fdbs output" },
	{ "routing-engine", 0, 1, "NAME",
	  "the SM routing engine that computed the "
	  "--routes tables (ftree, updn, ...)" },
	{ "routes-log", 0, 1, "LOG",
	  "take the routing engine from an OpenSM log "
	  "(its last 'tables configured' line)" },
	{ NULL },
};

static int cmd_import_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_import_entry = {
	.name = "import",
	.summary = "read a fabric file into a new snapshot",
	.args = "FILE [--label TEXT [--force]] [--input-format FMT] [--node-name-map FILE]"
		" [--counters CFILE] [--routes RFILE"
		" [--routing-engine NAME | --routes-log LOG]]",
	.details =
		"FILE is an `ibnetdiscover --cache` file, `ibnetdiscover` output\n"
		"(also with -p), an ibsim net file or iblinkinfo output (not\n"
		"-l); the format is detected\n"
		"from the content unless --input-format names it. Nothing is stored\n"
		"when the file cannot be read whole.\n"
		"A label names one snapshot: one in use is refused (exit 2)\n"
		"unless --force moves it to the new snapshot; labels a REF\n"
		"would read as an id, 'latest' or 'latest~N' are refused.\n"
		"--counters CFILE attaches port counters to the snapshot, as\n"
		"discover --counters stores them: perfquery output (ports by\n"
		"LID and number), ibqueryerrors output (by GUID and number),\n"
		"ibdiagnet2.pm or the PM_INFO section of ibdiagnet2.db_csv,\n"
		"read at the file's mtime. Ports the fabric does not have are\n"
		"left out with one warning.\n"
		"--routes RFILE attaches switch forwarding tables (LFTs), as\n"
		"discover --routes stores them: OpenSM's opensm-lfts.dump or\n"
		"opensm.fdbs, dump_fts or ibroute output, ibdiagnet2.fdbs, told\n"
		"from the content; switches matched by GUID, those the fabric\n"
		"does not have left out with one warning. Bad input stores\n"
		"nothing.\n"
		"--routing-engine NAME records the subnet manager's routing\n"
		"engine that computed them with the snapshot (the dumps do not\n"
		"say); --routes-log LOG takes it from an OpenSM log instead:\n"
		"the last '<engine> tables configured on all switches' line\n"
		"(opensm -f LOG, /var/log/opensm.log).\n"
		"Prints the snapshot id, the node and link counts, the mix of\n"
		"link speeds and widths, and the time taken.",
	.opts = opts,
	.exec = cmd_import_exec,
	.flags = CLI_NEEDS_DB,
};

static int cmd_import_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g)
{
	struct ibtopo_read_opts ropts = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_store *store = NULL;
	struct cli_state st = { 0 };
	struct ibtopo_counters_load_opts copts = IBTOPO_COUNTERS_LOAD_OPTS_INIT;
	struct ibtopo_routes_load_opts lopts = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	const char *label = NULL, *path, *counters = NULL, *routes = NULL;
	const char *engine_name = NULL, *routes_log = NULL;
	char *engine = NULL;
	size_t unknown = 0;
	unsigned save_flags = 0;
	int64_t id = 0;
	double t0, t1;
	int c, f, rc = EXIT_TROUBLE;

	ropts.warn = cli_warn;
	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LABEL:
			label = st.optarg;
			break;
		case OPT_FORMAT:
			cli_warn(NULL, "import --format is deprecated: use "
				       "--input-format");
			/* fall through */
		case OPT_INPUT_FORMAT:
			f = ibtopo_file_format_parse(st.optarg);
			if (f < 0)
				return cli_usage_error(
					self, "unknown input format '%s'",
					st.optarg);
			ropts.format = (enum ibtopo_file_format)f;
			break;
		case OPT_FORCE:
			save_flags |= IBTOPO_SAVE_MOVE_LABEL;
			break;
		case OPT_COUNTERS:
			counters = st.optarg;
			break;
		case OPT_ROUTES:
			routes = st.optarg;
			break;
		case OPT_ROUTING_ENGINE:
			engine_name = st.optarg;
			break;
		case OPT_ROUTES_LOG:
			routes_log = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (st.optind >= argc)
		return cli_usage_error(self, "no file to import");
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	path = argv[st.optind];
	ropts.node_name_map = cli_node_name_map(g);
	if (save_flags && !label)
		return cli_usage_error(self,
				       "--force moves a --label; none given");
	if (label && ibtopo_store_check_label(NULL, label, 0, &err))
		return cli_usage_error(self, "%s", err.message);

	t0 = cli_now();
	rc = cli_routing_engine(self, &engine, routes != NULL, engine_name,
				routes_log);
	if (rc)
		return rc;
	rc = EXIT_TROUBLE;
	if (cli_read_fabric_file(&fabric, path, &ropts, &err)) {
		rc = cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "load", t0, "read '%s': %zu nodes, %zu links", path,
		 ibtopo_fabric_node_count(fabric),
		 ibtopo_fabric_link_count(fabric));
	t1 = cli_now();
	if (ibtopo_fabric_meta(fabric)->partial)
		fprintf(stderr,
			"ibtopo: warning: '%s' holds an incomplete "
			"discovery; the snapshot is marked partial\n",
			path);
	if (label && ibtopo_fabric_set_label(fabric, label, &err))
		goto out_fail;
	copts.warn = cli_warn;
	if (counters &&
	    ibtopo_counters_load(fabric, counters, &copts, &unknown, &err))
		goto out_fail;
	if (unknown)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu port%s not in the fabric; "
			"their counters are left out\n",
			counters, unknown, unknown == 1 ? "" : "s");
	lopts.warn = cli_warn;
	lopts.engine = engine;
	unknown = 0;
	if (routes &&
	    ibtopo_routes_load(fabric, routes, &lopts, &unknown, &err))
		goto out_fail;
	if (unknown)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu switch%s not in the fabric; "
			"their tables are left out\n",
			routes, unknown, unknown == 1 ? "" : "es");
	/* Open the store only now: a bad file leaves it untouched. */
	if (cli_open_store(&store, g, 0, &err))
		goto out_fail;
	if (ibtopo_store_save_ext(&id, store, fabric, save_flags, &err)) {
		if (err.code == IBTOPO_EEXIST)
			rc = cli_failf("%s (--force moves it here)",
				       err.message);
		else
			rc = cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "store", t1, "saved as snapshot %lld", (long long)id);
	cli_print_summary(stdout, fabric, id, cli_now() - t0);
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
