/* commands.h - one entry point per subcommand (src/cmd_<name>.c) */
#ifndef IBTOPO_COMMANDS_H
#define IBTOPO_COMMANDS_H

#include "cli.h"

/* Each takes argv with argv[0] = the subcommand name. */
int cmd_discover(int argc, char **argv, const struct cli_global *g);
int cmd_import(int argc, char **argv, const struct cli_global *g);
int cmd_snapshots(int argc, char **argv, const struct cli_global *g);
int cmd_show(int argc, char **argv, const struct cli_global *g);
int cmd_diff(int argc, char **argv, const struct cli_global *g);
int cmd_validate(int argc, char **argv, const struct cli_global *g);
int cmd_plan(int argc, char **argv, const struct cli_global *g);
int cmd_analyze(int argc, char **argv, const struct cli_global *g);
int cmd_render(int argc, char **argv, const struct cli_global *g);
int cmd_export(int argc, char **argv, const struct cli_global *g);
int cmd_health(int argc, char **argv, const struct cli_global *g);

#endif
