/* main.c - global options and the subcommand table */
#include "config.h"
#include "commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every subcommand, one a line, in the order `ibtopo --help` lists them. */
/* clang-format off */
static const struct cli_cmd *const commands[] = {
	&cmd_discover_entry,
	&cmd_import_entry,
	&cmd_snapshots_entry,
	&cmd_fabrics_entry,
	&cmd_show_entry,
	&cmd_diff_entry,
	&cmd_validate_entry,
	&cmd_plan_entry,
	&cmd_analyze_entry,
	&cmd_health_entry,
	&cmd_routes_entry,
	&cmd_whatif_entry,
	&cmd_job_entry,
	&cmd_render_entry,
	&cmd_export_entry,
	&cmd_metrics_entry,
	&cmd_serve_entry,
};
/* clang-format on */

static void usage(FILE *f)
{
	fprintf(f, "usage: ibtopo [global options] COMMAND [options]\n"
		   "\n"
		   "InfiniBand fabric topology analyzer.\n"
		   "\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name,
			commands[i]->summary);
	fputc('\n', f);
	cli_print_global_help(f);
	fprintf(f,
		"  -h, --help            this help; 'ibtopo COMMAND --help' for a command\n"
		"  --version             print the version\n"
		"\n"
		"A REF is a snapshot id, a label, 'latest' or 'latest~N'; wherever a\n"
		"REF is accepted, a topology file is too. A FILE given as '-' is\n"
		"standard input (once a run) or, written, standard output.\n"
		"\n"
		"exit status: 0 clean, 1 findings or differences, 2 usage error or failure\n");
}

int main(int argc, char **argv)
{
	struct option opts[16];
	struct cli_global g = { .port = 0 };
	size_t n = 0;
	int c;

	for (; cli_global_longopts[n].name; n++)
		opts[n] = cli_global_longopts[n];
	opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
	if (getenv("IBTOPO_THREADS") &&
	    !cli_set_threads(getenv("IBTOPO_THREADS"), "IBTOPO_THREADS"))
		return EXIT_TROUBLE;
	opterr = 0;
	/* '+': stop at the subcommand; cli_getopt reads the global options
	 * that follow it */
	while ((c = getopt_long(argc, argv, "+:C:P:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_CLEAN;
		case 'V':
			printf("ibtopo %s\n", PACKAGE_VERSION);
			return EXIT_CLEAN;
		case ':':
			fprintf(stderr, "ibtopo: option '%s' needs a value\n",
				argv[optind - 1]);
			usage(stderr);
			return EXIT_TROUBLE;
		case '?':
			fprintf(stderr, "ibtopo: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return EXIT_TROUBLE;
		default:
			if (!cli_global_option(&g, c, optarg))
				return EXIT_TROUBLE;
			break;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ibtopo: no command given\n");
		usage(stderr);
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i]->name, argv[optind]) == 0) {
			int rc = commands[i]->exec(commands[i], argc - optind,
						   argv + optind, &g);

			free(g.stdin_name_map);
			return rc;
		}
	fprintf(stderr, "ibtopo: unknown command '%s'\n", argv[optind]);
	usage(stderr);
	return EXIT_TROUBLE;
}
