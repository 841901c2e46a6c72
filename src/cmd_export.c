/* cmd_export.c - ibtopo export: a snapshot or fabric file in another format */
#include "commands.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = CLI_LONG, OPT_INPUT_FORMAT };

static const struct cli_opt opts[] = {
	{ "format", 0, 1, "FMT",
	  "output format (default ibnetdiscover); "
	  "'list' prints every one" },
	{ "input-format", 0, 1, "FMT",
	  "format of an input FILE: auto (default), "
	  "cache, ibnetdiscover, ports or ibsim" },
	/* options with a letter last: long-only ones are numbered by place */
	{ "output", 'o', 1, "FILE",
	  "write into FILE ('-' = standard output, the default)" },
	{ NULL },
};

static int cmd_export_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g);

const struct cli_cmd cmd_export_entry = {
	.name = "export",
	.summary =
		"write a fabric as ibnetdiscover, ibsim, Slurm, CSV, JSON or LFTs",
	.args = "[REF|FILE] [--format FMT] [-o FILE] [--node-name-map FILE]",
	.details =
		"REF is a snapshot id, a label, 'latest' or 'latest~N' (default:\n"
		"latest); an existing FILE is read instead of the database.\n"
		"Formats:\n"
		"  ibnetdiscover  as `ibnetdiscover` prints it; ibsim and `ibtopo\n"
		"                 import` read it back into the same fabric\n"
		"  ibsim          an ibsim net file: each port enables only its link's\n"
		"                 active width and speed, so the simulated fabric\n"
		"                 trains as this one ran; NDR and faster links are\n"
		"                 written as HDR (ibsim 0.10 stops there), with a\n"
		"                 warning\n"
		"  slurm          topology.conf for Slurm's topology/tree plugin: a\n"
		"                 leaf lists its hosts (Nodes=), a switch above the\n"
		"                 leaves its neighbours one level down or lower\n"
		"                 (Switches=), levels as `analyze` ranks them; each\n"
		"                 host under one leaf; a logical 'top' switch when\n"
		"                 no switch reaches every host. A host is the first\n"
		"                 word of its CA's description (give names with\n"
		"                 --node-name-map), H-<guid> when the description is\n"
		"                 the firmware's default\n"
		"  csv            one row per link, as `show links --format csv`\n"
		"  json           {\"schema_version\":1,\"nodes\":[...],\"links\":[...]}\n"
		"  lfts           the switches' forwarding tables (discover --routes,\n"
		"                 import --routes) as OpenSM's opensm-lfts.dump, which\n"
		"                 `opensm -R file -U FILE` loads; exit 2 without tables\n"
		"--format list prints the formats, one a line (from the library's\n"
		"table of writers).\n"
		"Node-name maps: lines `0x<guid> \"name\"` (infiniband-diags),\n"
		"`0x<guid> name` or `H-<guid> name`; '#' starts a comment.",
	.opts = opts,
	.exec = cmd_export_exec,
	.flags = CLI_NEEDS_DB,
};

/*
 * The export formats, from the library's table of writers (the
 * enumerators from 0 until a name is "?"), as "a, b or c" into buf; with
 * sep "\n", one a line. A writer added there is listed here.
 */
static const char *format_list(char *buf, size_t len, const char *sep)
{
	size_t n = 0, used = 0;

	while (strcmp(ibtopo_export_format_name((enum ibtopo_export_format)n),
		      "?") != 0)
		n++;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const char *name =
			ibtopo_export_format_name((enum ibtopo_export_format)i);
		const char *before = i == 0	  ? "" :
				     *sep == '\n' ? "" :
				     i + 1 == n	  ? " or " :
						    ", ";

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
					 before, name,
					 *sep == '\n' ? "\n" : "");
	}
	return buf;
}

static int cmd_export_exec(const struct cli_cmd *self, int argc, char **argv,
			   const struct cli_global *g)
{
	char names[512];
	struct cli_source src = { .what = NULL };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	enum ibtopo_export_format format = IBTOPO_EXPORT_IBNETDISCOVER;
	struct ibtopo_sink ro;
	struct ibtopo_fabric *fabric = NULL;
	struct output_file out;
	struct cli_state st = { 0 };
	const char *output = NULL;
	int c, v, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (strcmp(st.optarg, "list") == 0) {
				fputs(format_list(names, sizeof(names), "\n"),
				      stdout);
				return fflush(stdout) ?
					       cli_failf(
						       "cannot write output") :
					       EXIT_CLEAN;
			}
			v = ibtopo_export_format_parse(st.optarg);
			if (v < 0)
				return cli_usage_error(
					self, "unknown format '%s' (%s)",
					st.optarg,
					format_list(names, sizeof(names),
						    ", "));
			format = (enum ibtopo_export_format)v;
			break;
		case 'o':
			output = st.optarg;
			break;
		case OPT_INPUT_FORMAT:
			v = ibtopo_file_format_parse(st.optarg);
			if (v < 0)
				return cli_usage_error(
					self, "unknown input format '%s'",
					st.optarg);
			src.format = (enum ibtopo_file_format)v;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	if (st.optind < argc)
		src.what = argv[st.optind];

	if (cli_load_fabric(&fabric, g, &src, &err))
		return cli_fail(&err);
	rc = output_file_open(&out, output, true);
	if (rc)
		goto out_free;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
	if (ibtopo_export_losses(names, sizeof(names), fabric, format))
		cli_warn(NULL, names);
	if (ibtopo_fabric_write(&ro, fabric, format, &err)) {
		rc = output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free;
	}
	rc = output_file_close(&out);
out_free:
	ibtopo_fabric_free(fabric);
	return rc;
}
