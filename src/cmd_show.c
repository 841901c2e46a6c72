/* cmd_show.c - ibtopo show: the inventory of a snapshot or a fabric file */
#include "commands.h"

#include <getopt.h>
#include <string.h>

/* OPT_FORMAT: cli_opt_format, cli_getopt's */
enum { OPT_FORMAT = CLI_LONG, OPT_WIDE, OPT_SWITCH, OPT_TYPE, OPT_DOWN };

static const struct cli_opt opts[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_LONG_OPT(
		OPT_WIDE, "wide", 0, NULL,
		"text: every column of nodes, ports and links, also the empty ones"),
	CLI_LONG_OPT(OPT_SWITCH, "switch", 1, "NAME|GUID",
		     "switches: that node only (a switch or CA)"),
	CLI_LONG_OPT(OPT_TYPE, "type", 1, "TYPE",
		     "switches: list switch (default) or ca ports"),
	CLI_LONG_OPT(OPT_DOWN, "down", 0, NULL,
		     "switches: only ports physically linked but not active"),
	{ NULL },
};

static int cmd_show_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g);

const struct cli_cmd cmd_show_entry = {
	.name = "show",
	.summary =
		"list the nodes, ports, links or cables of a snapshot or file",
	.args = "[REF|FILE] [nodes|ports|links|cables|switches] [--wide] [--switch NAME|GUID] [--type switch|ca] [--down] [--format text|json|csv]",
	.details =
		"REF is a snapshot id, a label, 'latest' or 'latest~N' (default:\n"
		"latest); an existing FILE is read instead of the database.\n"
		"What to list (default: nodes):\n"
		"  nodes    one row per switch, CA and router\n"
		"  ports    one row per port, with its peer\n"
		"  links    one row per link: both ends, active speed and width\n"
		"           (Gb/s), each end's supported and enabled sets and the\n"
		"           cable; the text table leaves out the columns no link has\n"
		"           a value in (a text dump has no sets): --wide shows all\n"
		"  cables   links that carry cable data (media, length, rating)\n"
		"  switches as iblinkinfo: a block per switch (--type ca: per CA),\n"
		"           a line per port: width, speed, Gb/s, port and physical\n"
		"           state, peer; --switch NAME|GUID one node, --down only\n"
		"           the ports physically linked but not active (Init, Armed)\n"
		"           JSON and CSV: the ports, as show ports has them\n"
		"Given one word that names a list, it is the list; to show a\n"
		"snapshot labelled 'links', give both: show links nodes.\n"
		"JSON: " CLI_JSON ",\"<list>\":[...]}.",
	.opts = opts,
	.exec = cmd_show_exec,
	.flags = CLI_NEEDS_DB,
};

typedef int (*render_fn)(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *fabric,
			 struct ibtopo_error *err);

static const struct {
	const char *name;
	render_fn fn;
} lists[] = {
	{ "nodes", ibtopo_report_nodes },
	{ "ports", ibtopo_report_ports },
	{ "links", ibtopo_report_links },
	{ "cables", ibtopo_report_cables },
	{ "switches", NULL }, /* its options: show_switches() */
};

static int show_switches(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *fabric, const char *name,
			 unsigned flags, struct ibtopo_error *err)
{
	struct ibtopo_node *only = NULL;

	if (name && ibtopo_fabric_find_node_name(&only, fabric, name, err))
		return err ? err->code : IBTOPO_ENOTFOUND;
	return ibtopo_report_switches(sink, fabric, only, flags, err);
}

/* The list's row; NULL for a name that is no list. */
static int find_list(const char *name)
{
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strcmp(lists[i].name, name) == 0)
			return (int)i;
	return -1;
}

static const struct cli_keyword type_words[] = {
	{ "switch", 0 },
	{ "ca", IBTOPO_SWITCHES_CAS },
	{ NULL, 0 },
};

static int cmd_show_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct cli_report rep = CLI_REPORT_INIT;
	struct ibtopo_fabric *fabric = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { .report = &rep, .global = g };
	const char *what = NULL, *sw = NULL;
	unsigned flags = 0, swflags = 0;
	bool sw_opts = false;
	int c, rc, nargs, list = 0, type;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_WIDE:
			flags |= IBTOPO_SINK_WIDE;
			break;
		case OPT_SWITCH:
			sw = st.optarg;
			sw_opts = true;
			break;
		case OPT_TYPE:
			if (!cli_parse_keyword(self, "type", st.optarg,
					       type_words, &type))
				return EXIT_TROUBLE;
			swflags |= (unsigned)type;
			sw_opts = true;
			break;
		case OPT_DOWN:
			swflags |= IBTOPO_SWITCHES_DOWN;
			sw_opts = true;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	nargs = cli_operands(self, &st, argc, argv, 2);
	if (nargs < 0)
		return EXIT_TROUBLE;
	if (nargs == 2) {
		what = argv[st.optind];
		list = find_list(argv[st.optind + 1]);
		if (list < 0)
			return cli_usage_error(
				self,
				"unknown list '%s' (nodes, ports, links, cables or switches)",
				argv[st.optind + 1]);
	} else if (nargs == 1) {
		list = find_list(argv[st.optind]);
		if (list < 0) {
			list = 0;
			what = argv[st.optind];
		}
	}
	if (sw_opts && lists[list].fn)
		return cli_usage_error(
			self, "--switch, --type and --down go with 'switches'");

	if (cli_load(&fabric, g, &(struct cli_source){ .what = what }))
		return EXIT_TROUBLE;
	ro = cli_stdout_sink(rep.format);
	ro.flags |= flags;
	if (lists[list].fn)
		rc = lists[list].fn(&ro, fabric, &err);
	else
		rc = show_switches(&ro, fabric, sw, swflags, &err);
	ibtopo_fabric_free(fabric);
	return rc ? cli_fail(&err) : cli_report_exit(NULL, 0);
}
