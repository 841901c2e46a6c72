/* cmd_import.c - ibtopo import: a fabric file into a new snapshot */
#include "commands.h"
#include "new_snapshot.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_LABEL = CLI_LONG,
	OPT_INPUT_FORMAT,
	OPT_FORMAT,
	OPT_FORCE,
	OPT_COUNTERS,
	OPT_ROUTES,
	OPT_ROUTING_ENGINE,
	OPT_ROUTES_LOG,
	OPT_CABLES
};

static const struct cli_opt opts[] = {
	CLI_OPT_SAME_ID(OPT_LABEL, cli_opt_label),
	/* from the library's table of readers */
	{ CLI_OPT_FIELDS("input-format", 0, 1, "FMT",
			 "%s; 'list' prints every one"),
	  .id = OPT_INPUT_FORMAT, .list = cli_file_formats },
	CLI_LONG_OPT(OPT_FORMAT, "format", 1, "FMT",
		     "deprecated: --input-format"),
	CLI_OPT_SAME_ID(OPT_FORCE, cli_opt_force),
	CLI_LONG_OPT(OPT_COUNTERS, "counters", 1, "CFILE",
		     "attach port counters: perfquery (also -x), "
		     "ibqueryerrors, ibdiagnet2.pm or ibdiagnet2.db_csv"),
	CLI_LONG_OPT(OPT_ROUTES, "routes", 1, "RFILE",
		     "attach switch forwarding tables: opensm-lfts.dump, "
		     "dump_fts, ibroute or .fdbs output"),
	CLI_LONG_OPT(OPT_ROUTING_ENGINE, "routing-engine", 1, "NAME",
		     "the SM routing engine that computed the "
		     "--routes tables (ftree, updn, ...)"),
	CLI_OPT_SAME_ID(OPT_ROUTES_LOG, cli_opt_routes_log),
	CLI_OPT_SAME_ID(OPT_CABLES, cli_opt_cables_store),
	{ NULL },
};

static int cmd_import_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_import_entry = {
	.name = "import",
	.summary = "read a fabric file into a new snapshot",
	.args = "FILE [--label TEXT [--force]] [--input-format FMT] [--node-name-map FILE]"
		" [--counters CFILE] [--routes RFILE"
		" [--routing-engine NAME | --routes-log LOG]]"
		" [--cables FILE]",
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
		"nothing. A second --routes RFILE adds the multicast tables\n"
		"(MFTs) of OpenSM's opensm.mcfdbs or dump_fts -M output.\n"
		"--routing-engine NAME records the subnet manager's routing\n"
		"engine that computed them with the snapshot (the dumps do not\n"
		"say); --routes-log LOG takes it from an OpenSM log instead:\n"
		"the last '<engine> tables configured on all switches' line\n"
		"(opensm -f LOG, /var/log/opensm.log).\n"
		"--cables FILE stores a cable inventory with the snapshot, read\n"
		"as analyze --cables reads it; show cables lists it and analyze\n"
		"checks it without --cables. Rows that match no link are left\n"
		"out with one warning; a bad file stores nothing.\n"
		"Prints the snapshot id, the node and link counts, the mix of\n"
		"link speeds and widths, and the time taken.",
	.opts = opts,
	.exec = cmd_import_exec,
	.flags = CLI_NEEDS_DB,
};

/* What import reads besides FILE: --counters and --routes files. */
struct import_args {
	struct ibtopo_read_opts ropts;
	struct new_snapshot ns;
	const char *path, *counters, *routes, *routes2;
};

static int parse_args(struct import_args *a, const struct cli_cmd *self,
		      struct cli_global *g, int argc, char **argv)
{
	struct cli_state st = { .global = g };
	int c;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LABEL:
			a->ns.label = st.optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(st.optarg, "list") != 0)
				cli_warn(NULL, "import --format is deprecated: "
					       "use --input-format");
			/* fall through */
		case OPT_INPUT_FORMAT:
			if (strcmp(st.optarg, "list") == 0)
				exit(cli_print_file_formats());
			if (!cli_parse_file_format(self, "input format",
						   st.optarg, &a->ropts.format))
				return EXIT_TROUBLE;
			break;
		case OPT_FORCE:
			a->ns.save_flags |= IBTOPO_SAVE_MOVE_LABEL;
			break;
		case OPT_COUNTERS:
			a->counters = st.optarg;
			break;
		case OPT_ROUTES:
			if (a->routes && a->routes2)
				return cli_usage_error(
					self, "--routes given "
					      "more than twice (unicast and "
					      "multicast tables)");
			*(a->routes ? &a->routes2 : &a->routes) = st.optarg;
			break;
		case OPT_ROUTING_ENGINE:
			a->ns.engine_name = st.optarg;
			break;
		case OPT_ROUTES_LOG:
			a->ns.routes_log = st.optarg;
			break;
		case OPT_CABLES:
			a->ns.cables = st.optarg; /* "-": cli_load_cables */
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	c = cli_operands(self, &st, argc, argv, 1);
	if (c == 0)
		return cli_usage_error(self, "no file to import");
	if (c < 0)
		return EXIT_TROUBLE;
	a->path = argv[st.optind];
	return 0;
}

/* --counters and --routes: attached to the fabric, each its warning. */
static int attach(struct ibtopo_fabric *fabric, const struct import_args *a)
{
	struct ibtopo_counters_load_opts copts = IBTOPO_COUNTERS_LOAD_OPTS_INIT;
	struct ibtopo_routes_load_opts lopts = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t unknown = 0;

	copts.warn = cli_warn;
	if (a->counters &&
	    ibtopo_counters_load(fabric, a->counters, &copts, &unknown, &err))
		return cli_fail(&err);
	if (unknown)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu port%s not in the fabric; "
			"their counters are left out\n",
			a->counters, unknown, unknown == 1 ? "" : "s");
	lopts.warn = cli_warn;
	lopts.engine = a->ns.engine;
	unknown = 0;
	for (int i = 0; i < 2; i++) {
		const char *path = i ? a->routes2 : a->routes;

		unknown = 0;
		if (path &&
		    ibtopo_routes_load(fabric, path, &lopts, &unknown, &err))
			return cli_fail(&err);
		if (unknown)
			fprintf(stderr,
				"ibtopo: warning: %s: %zu switch%s not in the "
				"fabric; their tables are left out\n",
				path, unknown, unknown == 1 ? "" : "es");
	}
	return 0;
}

static int cmd_import_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g)
{
	struct import_args a = { .ropts = IBTOPO_READ_OPTS_INIT };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *fabric = NULL;
	double t0;
	int rc;

	a.ropts.warn = cli_warn;
	rc = parse_args(&a, self, g, argc, argv);
	if (rc)
		return rc;
	a.ropts.node_name_map = cli_node_name_map(g);
	t0 = cli_now();
	rc = new_snapshot_check(&a.ns, self, a.routes != NULL);
	if (rc)
		goto out_free;
	if (cli_read_fabric_file(&fabric, a.path, &a.ropts, &err) ||
	    cli_stdin_name_map_apply(g, fabric, &err)) {
		rc = cli_fail(&err);
		goto out_free;
	}
	cli_step(g, "load", t0, "read '%s': %zu nodes, %zu links", a.path,
		 ibtopo_fabric_node_count(fabric),
		 ibtopo_fabric_link_count(fabric));
	if (ibtopo_fabric_meta(fabric)->partial)
		fprintf(stderr,
			"ibtopo: warning: '%s' holds an incomplete "
			"discovery; the snapshot is marked partial\n",
			a.path);
	rc = attach(fabric, &a);
	if (!rc)
		rc = new_snapshot_save(&a.ns, g, fabric, t0);
out_free:
	ibtopo_fabric_free(fabric);
	new_snapshot_release(&a.ns);
	return rc;
}
