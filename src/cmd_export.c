/* cmd_export.c - ibtopo export: a snapshot or fabric file in another format */
#include "commands.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = CLI_LONG, OPT_INPUT_FORMAT };

/* the format lists come from the library's tables of writers and readers */
static const struct cli_opt opts[] = {
	{ CLI_OPT_FIELDS(
		  "format", 0, 1, "FMT",
		  "output format: %s (default ibnetdiscover); 'list' prints every one"),
	  .list = cli_export_formats },
	{ CLI_OPT_FIELDS("input-format", 0, 1, "FMT",
			 "format of an input FILE: %s"),
	  .list = cli_file_formats },
	/* options with a letter last: long-only ones are numbered by place */
	CLI_OPT_SAME(cli_opt_output),
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
		"                 trains as this one ran (ibsim 0.10 stops at HDR)\n"
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
			if (strcmp(st.optarg, "list") == 0)
				return cli_print_export_formats();
			v = ibtopo_export_format_parse(st.optarg);
			if (v < 0)
				return cli_usage_error(
					self, "unknown format '%s' (%s)",
					st.optarg,
					cli_export_formats(names,
							   sizeof(names)));
			format = (enum ibtopo_export_format)v;
			break;
		case 'o':
			output = st.optarg;
			break;
		case OPT_INPUT_FORMAT:
			if (!cli_parse_file_format(self, "input format",
						   st.optarg, &src.format))
				return EXIT_TROUBLE;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (cli_source_operand(self, &st, argc, argv, &src.what))
		return EXIT_TROUBLE;

	if (cli_load(&fabric, g, &src))
		return EXIT_TROUBLE;
	rc = output_file_open(&out, output, true);
	if (rc)
		goto out_free;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
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
