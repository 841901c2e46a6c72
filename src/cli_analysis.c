/*
 * cli_analysis.c - the analysis a command's outputs share: the option
 * rows that shape it (--roots, --root-pattern, --servers), defined once
 * for every command that ranks levels, and cli_analysis(), which makes
 * it and, with -v, has it say what it computes.
 */
#include "cli.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static bool parse_roots(const struct cli_cmd *cmd, struct cli_state *st,
			const char *arg)
{
	(void)cmd;
	assert(st->analyze);
	st->analyze->topology.roots_file =
		cli_input_arg(arg, &st->analyze->roots_text);
	return true;
}

static bool parse_root_pattern(const struct cli_cmd *cmd, struct cli_state *st,
			       const char *arg)
{
	(void)cmd;
	assert(st->analyze);
	st->analyze->topology.root_pattern = arg;
	return true;
}

static const struct cli_keyword server_words[] = {
	{ "single", IBTOPO_SERVERS_SINGLE },
	{ "dual", IBTOPO_SERVERS_DUAL },
	{ NULL, 0 },
};

static bool parse_servers(const struct cli_cmd *cmd, struct cli_state *st,
			  const char *arg)
{
	int servers;

	assert(st->analyze);
	if (!cli_parse_keyword(cmd, "servers", arg, server_words, &servers))
		return false;
	st->analyze->topology.servers = (enum ibtopo_server_policy)servers;
	return true;
}

/* clang-format off */
const struct cli_opt cli_opt_roots = {
	CLI_OPT_FIELDS("roots", 0, 1, "FILE",
	    "rank levels down from these switches (GUIDs or names, one a line)"),
	.parse = parse_roots,
};
const struct cli_opt cli_opt_root_pattern = {
	CLI_OPT_FIELDS("root-pattern", 0, 1, "REGEX",
	    "rank levels down from switches whose description matches"),
	.parse = parse_root_pattern,
};
const struct cli_opt cli_opt_servers = {
	CLI_OPT_FIELDS("servers", 0, 1, "POLICY",
	    "servers are single- or dual-homed (default: what most are)"),
	.parse = parse_servers,
};
/* clang-format on */

void cli_analysis_log(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "ibtopo: analysis: %s\n", line);
}

int cli_analysis(struct ibtopo_analysis **out,
		 const struct ibtopo_fabric *fabric,
		 const struct ibtopo_analyze_opts *opts,
		 const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ibtopo_analysis_new(out, fabric, opts, &err))
		return cli_fail(&err);
	if (g && g->verbose)
		ibtopo_analysis_set_log(*out, cli_analysis_log, NULL);
	return 0;
}
